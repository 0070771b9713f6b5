package io.nbench.transport.netty;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Linux's {@code net.ipv4.tcp_fastopen}: bit 1 lets clients use TCP Fast Open, bit 2 servers. With the server
 * bit unset a listening socket's TCP_FASTOPEN is ignored (Netty then skips it without a word), so a server asked
 * for it refuses to start with this explanation rather than measure without it.
 */
final class TcpFastOpenSysctl {

    private static final Path FILE = Path.of("/proc/sys/net/ipv4/tcp_fastopen");
    private static final int SERVER = 2;

    private TcpFastOpenSysctl() {
    }

    /** Why the server cannot use TCP Fast Open here, with the fix. */
    static String serverDisabled() {
        String value;
        try {
            value = Files.readAllLines(FILE).get(0).strip(); // not readString: see ListenSettings#somaxconn
        } catch (IOException | RuntimeException e) { // absent or empty
            value = null;
        }
        String now = value == null ? "" : " (net.ipv4.tcp_fastopen is " + value + ")";
        String fix = value == null ? "3" : Integer.toString(parse(value) | SERVER | 1);
        return "TCP Fast Open is off for servers in this kernel" + now + ": enable it with sysctl -w "
                + "net.ipv4.tcp_fastopen=" + fix + " or leave out --tcp-fastopen";
    }

    private static int parse(String value) {
        try {
            return Integer.decode(value);
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
