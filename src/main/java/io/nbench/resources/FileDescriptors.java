package io.nbench.resources;

import com.sun.management.UnixOperatingSystemMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;

/**
 * The process's file descriptors: each connection is one, and a transport that runs out reports it in its
 * own words (Netty: "Unable to create Channel from class ...EpollSocketChannel"). nbench checks the limit
 * before connecting and names the fix ({@code ulimit -n}) whichever transport hit it.
 */
public final class FileDescriptors {

    /** Descriptors a client needs besides its connections: event loops' epoll and wake-up descriptors, selectors. */
    public static final int HEADROOM = 16;

    private FileDescriptors() {
    }

    /** {open, limit} (the soft limit, {@code ulimit -n}), or null where the JVM does not say (not a Unix). */
    public static long[] usage() {
        OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof UnixOperatingSystemMXBean unix) {
            long open = unix.getOpenFileDescriptorCount();
            long max = unix.getMaxFileDescriptorCount();
            return open >= 0 && max > 0 ? new long[] {open, max} : null;
        }
        return null;
    }

    /**
     * Null if {@code connections} more connections fit under the limit, else the one-line reason with the fix.
     */
    public static String shortage(int connections) {
        long[] u = usage();
        if (u == null || u[0] + connections + HEADROOM <= u[1]) {
            return null;
        }
        return tooFew(connections, u);
    }

    /** Whether {@code t} or one of its causes is the system's "Too many open files" (EMFILE, ENFILE). */
    public static boolean exhausted(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            String m = String.valueOf(c.getMessage());
            if (m.contains("Too many open files") || m.contains("EMFILE") || m.contains("ENFILE")) {
                return true;
            }
            for (Throwable s : c.getSuppressed()) {
                if (exhausted(s)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The message for a connect that ran out of descriptors. */
    public static String exhaustedMessage(int connections) {
        long[] u = usage();
        return tooFew(connections, u);
    }

    private static String tooFew(int connections, long[] u) {
        long needed = (u == null ? 0 : u[0]) + connections + HEADROOM;
        long suggest = Math.max(4096, Long.highestOneBit(needed * 2));
        return "too many open files: " + connections + " connection(s) need about " + needed
                + " file descriptors" + (u == null ? "" : " and this process may open " + u[1] + " (" + u[0]
                + " open already)") + ": raise the limit with 'ulimit -n " + suggest
                + "' in the shell that starts nbench, or use fewer --connections";
    }
}
