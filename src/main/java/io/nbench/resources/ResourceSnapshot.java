package io.nbench.resources;

import java.io.IOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What this JVM and the machine had consumed at one moment: process CPU, GC, heap bytes allocated (all
 * threads, and the calling thread alone so the measuring thread's own allocations can be taken out),
 * and the machine's CPU time split as /proc/stat reports it. Taken at iteration boundaries only, never
 * per message.
 */
public record ResourceSnapshot(long nanoTime, long processCpuNanos, long gcCount, long gcMillis,
                               long allocatedBytes, long callerAllocatedBytes, MachineCpu machine) {

    private static final com.sun.management.OperatingSystemMXBean OS = operatingSystem();
    private static final com.sun.management.ThreadMXBean THREADS = threads();
    private static final Path PROC_STAT = Path.of("/proc/stat");

    public static ResourceSnapshot take() {
        long gcCount = 0;
        long gcMillis = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            gcCount += Math.max(0, gc.getCollectionCount());
            gcMillis += Math.max(0, gc.getCollectionTime());
        }
        long cpu = OS != null ? OS.getProcessCpuTime() : -1;
        long allocated = -1;
        long caller = -1;
        if (THREADS != null && THREADS.isThreadAllocatedMemorySupported() && THREADS.isThreadAllocatedMemoryEnabled()) {
            allocated = totalAllocated();
            caller = THREADS.getCurrentThreadAllocatedBytes();
        }
        return new ResourceSnapshot(System.nanoTime(), cpu, gcCount, gcMillis, allocated, caller, MachineCpu.read());
    }

    /**
     * Heap bytes allocated by all threads, dead ones included. {@code getTotalThreadAllocatedBytes} is in
     * every JDK 17+ runtime but not in the JDK 17 API that {@code --release 17} compiles against on newer
     * JDKs, so it is looked up at run time; without it, the live threads' counts are summed.
     */
    private static long totalAllocated() {
        if (TOTAL_ALLOCATED != null) {
            try {
                return (long) TOTAL_ALLOCATED.invoke(THREADS);
            } catch (Throwable e) {
                // fall through to the sum over live threads
            }
        }
        long sum = 0;
        for (long n : THREADS.getThreadAllocatedBytes(THREADS.getAllThreadIds())) {
            sum += Math.max(0, n);
        }
        return sum;
    }

    private static final MethodHandle TOTAL_ALLOCATED = totalAllocatedHandle();

    private static MethodHandle totalAllocatedHandle() {
        try {
            return MethodHandles.publicLookup().findVirtual(com.sun.management.ThreadMXBean.class,
                    "getTotalThreadAllocatedBytes", MethodType.methodType(long.class));
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }

    /** Ticks of the machine's CPU time by kind (first line of /proc/stat), or null where there is none. */
    public record MachineCpu(long busy, long idle, long steal) {

        static MachineCpu read() {
            try {
                String line = Files.readAllLines(PROC_STAT).get(0);
                String[] f = line.trim().split("\\s+");
                // cpu user nice system idle iowait irq softirq steal guest guest_nice
                long user = Long.parseLong(f[1]);
                long nice = Long.parseLong(f[2]);
                long system = Long.parseLong(f[3]);
                long idle = Long.parseLong(f[4]) + Long.parseLong(f[5]);
                long irq = Long.parseLong(f[6]) + Long.parseLong(f[7]);
                long steal = f.length > 8 ? Long.parseLong(f[8]) : 0;
                return new MachineCpu(user + nice + system + irq, idle, steal);
            } catch (IOException | RuntimeException e) {
                return null;
            }
        }
    }

    private static com.sun.management.OperatingSystemMXBean operatingSystem() {
        java.lang.management.OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        return os instanceof com.sun.management.OperatingSystemMXBean sun ? sun : null;
    }

    private static com.sun.management.ThreadMXBean threads() {
        java.lang.management.ThreadMXBean t = ManagementFactory.getThreadMXBean();
        return t instanceof com.sun.management.ThreadMXBean sun ? sun : null;
    }
}
