package io.nbench.transport;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The options of a server's listening socket ({@code nbench server --backlog}, {@code --tcp-fastopen}), as a
 * Reactor Netty user sets them with {@code SO_BACKLOG} and {@code TCP_FASTOPEN}.
 *
 * @param backlog     the accept queue asked of listen(2); Linux silently caps it at {@code net.core.somaxconn}
 * @param tcpFastOpen TCP_FASTOPEN's queue of pending Fast Open requests; 0 = off. Only a transport whose
 *                    {@link Transport#serverTcpFastOpen} says so can set it
 */
public record ListenSettings(int backlog, int tcpFastOpen) {

    /** Every server listened with 1024 before the option existed: kept, so no figure moves by default. */
    public static final int DEFAULT_BACKLOG = 1024;
    public static final ListenSettings DEFAULT = new ListenSettings(DEFAULT_BACKLOG, 0);

    private static final Path SOMAXCONN = Path.of("/proc/sys/net/core/somaxconn");

    /** The listening socket's options as every network server reports them in its effective configuration. */
    public Map<String, String> describe() {
        Map<String, String> m = new LinkedHashMap<>();
        int cap = somaxconn();
        // What the kernel uses, not what was asked: a larger backlog is cut to somaxconn without an error.
        m.put("backlog", cap > 0 && backlog > cap
                ? cap + " (--backlog " + backlog + " capped by net.core.somaxconn)"
                : Integer.toString(backlog));
        m.put("tcp-fastopen", tcpFastOpen > 0 ? Integer.toString(tcpFastOpen) : "off");
        return m;
    }

    /** Linux's cap on a listen backlog, or 0 where it cannot be read (another OS). */
    private static int somaxconn() {
        try {
            // Read through a buffer: Files.readString reads a numeric sysctl as its first digit ("4" for 4096),
            // procfs answering a short first read with that much and no more.
            return Integer.parseInt(Files.readAllLines(SOMAXCONN).get(0).strip());
        } catch (IOException | RuntimeException e) { // absent, empty or not a number
            return 0;
        }
    }
}
