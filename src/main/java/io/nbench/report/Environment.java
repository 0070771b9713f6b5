package io.nbench.report;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Where a result was measured: enough to reproduce it, cheap enough for every run. */
public final class Environment {

    private Environment() {
    }

    public static String version() {
        String v = Environment.class.getPackage().getImplementationVersion();
        return v != null ? v : "dev";
    }

    /** The machine's host name (the kernel's, not a DNS lookup), or "unknown". */
    public static String host() {
        try {
            String h = Files.readString(Path.of("/proc/sys/kernel/hostname")).strip();
            if (!h.isEmpty()) {
                return h;
            }
        } catch (IOException | RuntimeException e) {
            // not Linux: ask the JDK
        }
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return "unknown";
        }
    }

    public static Map<String, String> capture() {
        return capture(null);
    }

    /** As {@link #capture()}, the host named {@code hostLabel} ({@code --host-label}) when it is not null. */
    public static Map<String, String> capture(String hostLabel) {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("nbench", version());
        m.put("host", hostLabel != null ? hostLabel : host());
        m.put("jvm", System.getProperty("java.vm.vendor") + " " + System.getProperty("java.vm.name") + " "
                + System.getProperty("java.runtime.version"));
        List<String> args = ManagementFactory.getRuntimeMXBean().getInputArguments();
        m.put("jvm-flags", args.isEmpty() ? "(none)" : String.join(" ", args));
        m.put("cpu", cpuModel() + " × " + Runtime.getRuntime().availableProcessors());
        m.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
                + System.getProperty("os.arch"));
        return m;
    }

    private static String cpuModel() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (line.startsWith("model name")) {
                    return line.substring(line.indexOf(':') + 1).trim().replaceAll("\\s+", " ");
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux, or not readable: fall through
        }
        return "unknown CPU";
    }
}
