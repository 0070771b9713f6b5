package io.nbench.monitor;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;

/**
 * The monitor's line protocol, shared by its server and its clients. Lines end with LF (a CR before it
 * is dropped), UTF-8, at most {@value #MAX_LINE} bytes. An answer is one line ({@code OK...},
 * {@code ERR...}, {@code BYE}, or the JSON object of {@code metrics json}), except those of
 * {@code metrics} and {@code help}: several lines ended by a line holding only {@value #END}.
 */
public final class MonitorProtocol {

    public static final int MAX_LINE = 1024;
    public static final String END = ".";
    /** Connections a monitor serves at once (one thread each). */
    public static final int MAX_CONNECTIONS = 4;
    /** Long enough to paste a token into nc; short enough that squatters free a slot every few seconds. */
    public static final Duration AUTH_DEADLINE = Duration.ofSeconds(10);
    public static final String BANNER = "nbench monitor 1: 'auth TOKEN' first, then 'help'";
    /** How a monitor whose connections are all taken answers instead of its banner, before it closes. */
    public static final String BUSY = "ERR too many monitor connections";
    static final String[] COMMANDS = {"metrics", "metrics json", "reset", "help", "quit"};

    private MonitorProtocol() {
    }

    /** A line longer than {@link #MAX_LINE}. */
    public static final class LineTooLong extends IOException {
        LineTooLong() {
            super("line too long: at most " + MAX_LINE + " bytes");
        }
    }

    /**
     * Reads one line without its end, or null at the end of the stream. Reads byte by byte from a buffered
     * stream, so it never holds more than {@code limit} bytes of a line (a peer cannot make it buffer more).
     */
    public static String readLine(InputStream in, int limit) throws IOException {
        byte[] buf = new byte[Math.min(limit, 256)];
        int n = 0;
        while (true) {
            int b = in.read();
            if (b < 0) {
                return n == 0 ? null : new String(buf, 0, n, StandardCharsets.UTF_8);
            }
            if (b == '\n') {
                if (n > 0 && buf[n - 1] == '\r') {
                    n--;
                }
                return new String(buf, 0, n, StandardCharsets.UTF_8);
            }
            if (n == limit) {
                throw new LineTooLong();
            }
            if (n == buf.length) {
                buf = Arrays.copyOf(buf, Math.min(limit, buf.length * 2));
            }
            buf[n++] = (byte) b;
        }
    }

    /** Whether an answer that starts with this line is complete in it. */
    public static boolean oneLine(String first) {
        return first.startsWith("OK") || first.startsWith("ERR") || first.equals("BYE") || first.startsWith("{");
    }
}
