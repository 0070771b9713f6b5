package io.nbench.resources;

import com.sun.management.HotSpotDiagnosticMXBean;
import java.lang.management.ManagementFactory;
import java.util.Locale;

/**
 * This JVM's memory limits as the checks before a run see them: the client's plan (client.ClientMemory)
 * and the server's default connection limit ({@code io.nbench.server.ServerConnectionLimit}) each use at most
 * {@link #USABLE} of a limit, leaving the rest to everything they do not model.
 */
public final class JvmMemory {

    /** Share of a limit a plan may use. */
    public static final double USABLE = 0.75;

    private JvmMemory() {
    }

    /** The heap limit: -Xmx, or the JVM's default (a quarter of the machine's memory). */
    public static long heapLimit() {
        return Runtime.getRuntime().maxMemory();
    }

    /** The JVM's direct-memory limit: -XX:MaxDirectMemorySize, which defaults to the heap limit. */
    public static long directLimit(long heapLimit) {
        try {
            HotSpotDiagnosticMXBean hotspot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
            long set = hotspot == null ? 0 : Long.parseLong(hotspot.getVMOption("MaxDirectMemorySize").getValue());
            return set > 0 ? set : heapLimit;
        } catch (RuntimeException e) {
            return heapLimit; // not a HotSpot JVM: the JDK's default
        }
    }

    /** A byte count for a message: 512 B, 1.5 KiB, 3.0 GiB. */
    public static String bytes(double b) {
        if (b < 1024) {
            return (long) b + " B";
        }
        String[] units = {"KiB", "MiB", "GiB", "TiB"};
        double v = b / 1024;
        int u = 0;
        while (v >= 1024 && u < units.length - 1) {
            v /= 1024;
            u++;
        }
        return String.format(Locale.ROOT, "%.1f %s", v, units[u]);
    }
}
