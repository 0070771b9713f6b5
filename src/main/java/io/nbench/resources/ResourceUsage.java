package io.nbench.resources;

/**
 * What the client consumed between two snapshots, and what the rest of the machine did meanwhile.
 *
 * @param cpuPercent       client process CPU, user + sys, in % of one core (200 = two cores busy)
 * @param gcCount          collections
 * @param gcMillis         time in collections, ms
 * @param allocatedBytes   heap bytes allocated by every thread except the one measuring (-1 if unknown)
 * @param machineBusyPercent the machine's CPU busy time, % of all cores
 * @param stealPercent     CPU time the hypervisor took, % of all cores
 * @param othersPercent    busy time that was not this process, % of all cores (includes a local server)
 */
public record ResourceUsage(double cpuPercent, long gcCount, long gcMillis, long allocatedBytes,
                            double machineBusyPercent, double stealPercent, double othersPercent) {

    /** Steal above this share of the machine marks a measurement as disturbed. */
    public static final double DISTURBED_STEAL_PERCENT = 5.0;

    public static final ResourceUsage UNKNOWN = new ResourceUsage(Double.NaN, 0, 0, -1, Double.NaN, Double.NaN, Double.NaN);

    public static ResourceUsage between(ResourceSnapshot a, ResourceSnapshot b) {
        double wall = Math.max(1, b.nanoTime() - a.nanoTime());
        double cpu = a.processCpuNanos() >= 0 && b.processCpuNanos() >= 0
                ? (b.processCpuNanos() - a.processCpuNanos()) * 100.0 / wall : Double.NaN;
        long allocated = a.allocatedBytes() >= 0 && b.allocatedBytes() >= 0
                ? Math.max(0, (b.allocatedBytes() - a.allocatedBytes()) - (b.callerAllocatedBytes() - a.callerAllocatedBytes()))
                : -1;
        double busy = Double.NaN;
        double steal = Double.NaN;
        double others = Double.NaN;
        if (a.machine() != null && b.machine() != null) {
            long dBusy = b.machine().busy() - a.machine().busy();
            long dIdle = b.machine().idle() - a.machine().idle();
            long dSteal = b.machine().steal() - a.machine().steal();
            long total = dBusy + dIdle + dSteal;
            if (total > 0) {
                busy = dBusy * 100.0 / total;
                steal = dSteal * 100.0 / total;
                int cores = Runtime.getRuntime().availableProcessors();
                others = Double.isNaN(cpu) ? Double.NaN : Math.max(0, busy - cpu / cores);
            }
        }
        return new ResourceUsage(cpu, b.gcCount() - a.gcCount(), b.gcMillis() - a.gcMillis(), allocated, busy, steal,
                others);
    }

    /** Bytes allocated per message, or -1 when unknown or no message completed. */
    public double allocatedPerMessage(long messages) {
        return allocatedBytes < 0 || messages <= 0 ? -1 : (double) allocatedBytes / messages;
    }

    /** The hypervisor took a noticeable share of the machine: the figures may be off. */
    public boolean disturbed() {
        return !Double.isNaN(stealPercent) && stealPercent > DISTURBED_STEAL_PERCENT;
    }

    /** The client used nearly every core: the result may be the load generator's limit, not the server's. */
    public boolean clientSaturated() {
        return !Double.isNaN(cpuPercent) && cpuPercent >= 90.0 * Runtime.getRuntime().availableProcessors();
    }
}
