package io.nbench.cli;

import io.nbench.server.ServerPlan;
import io.nbench.server.runtime.WorkMode;
import java.time.Duration;
import java.util.Locale;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/** The server's business runtime options: per-request work and the business pool it runs on. */
final class BusinessOptions {

    @Option(names = "--work", paramLabel = "D", converter = Converters.Time.class,
            description = "Simulated work per request before its response, such as 1s or 50us; on the I/O thread "
                    + "unless --executor-threads is given (framed protocol; default: none).")
    Duration work;

    @Option(names = "--work-mode", paramLabel = "sleep|spin|delay", defaultValue = "sleep",
            converter = WorkModeConverter.class,
            description = "How --work spends its time: sleep blocks the thread (a handler waiting on a database), "
                    + "spin keeps a core busy for that wall time (a handler computing), delay holds no thread: a "
                    + "timer completes the response D after its request (a non-blocking handler, as Reactor's "
                    + "Mono.delay; not with --executor-threads). Default: ${DEFAULT-VALUE}.")
    WorkMode workMode;

    @Option(names = "--executor-threads", paramLabel = "N|CORE:MAX", defaultValue = "0",
            description = "Hand each request to nbench's business pool of N threads, or CORE growing to MAX only "
                    + "when the queue is full (as Java's ThreadPoolExecutor); responses keep request order per "
                    + "connection; 0 = process on the I/O thread (framed protocol; default: ${DEFAULT-VALUE}).")
    String executorThreads;

    @Option(names = "--executor-queue", paramLabel = "N",
            description = "Requests the business pool queues; a request arriving when the queue is full and MAX "
                    + "threads are busy is answered 'rejected' (default: " + ServerPlan.DEFAULT_QUEUE + ").")
    Integer executorQueue;

    /** The options as the plan's business settings; a thread count that does not parse is a usage error. */
    ServerPlan.Business plan(CommandSpec spec) {
        int[] threads = threads(spec);
        return new ServerPlan.Business(work, workMode, threads == null ? 0 : threads[0], threads == null ? 0 : threads[1],
                executorQueue);
    }

    /** CORE and MAX, or null for 0 (no pool). */
    private int[] threads(CommandSpec spec) {
        String v = executorThreads.trim();
        String fix = ": use N or CORE:MAX with 1 <= CORE <= MAX, e.g. 8 or 100:200 (0 = on the I/O thread)";
        int colon = v.indexOf(':');
        int core;
        int max;
        try {
            core = Integer.parseInt(colon < 0 ? v : v.substring(0, colon));
            max = colon < 0 ? core : Integer.parseInt(v.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new ParameterException(spec.commandLine(), "--executor-threads '" + executorThreads
                    + "' is not a thread count" + fix);
        }
        if (colon < 0 && core == 0) {
            return null;
        }
        if (core < 1 || max < 1) {
            throw new ParameterException(spec.commandLine(), "--executor-threads " + v + " has no thread" + fix);
        }
        if (core > max) {
            throw new ParameterException(spec.commandLine(), "--executor-threads " + v + ": CORE " + core
                    + " > MAX " + max + fix);
        }
        return new int[] {core, max};
    }

    static final class WorkModeConverter implements picocli.CommandLine.ITypeConverter<WorkMode> {
        @Override
        public WorkMode convert(String value) {
            try {
                return WorkMode.valueOf(value.trim().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new picocli.CommandLine.TypeConversionException("'" + value + "' is not a work mode: use sleep, "
                        + "spin or delay");
            }
        }
    }
}
