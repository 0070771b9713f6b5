package io.nbench.cli;

import io.nbench.transport.support.Threads;
import io.nbench.load.Driver;
import io.nbench.load.LoadSpec;
import io.nbench.load.Measure;
import io.nbench.load.Pacing;
import io.nbench.load.Verify;
import io.nbench.protocol.Protocol;
import io.nbench.sweep.Combination;
import io.nbench.units.Durations;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/** The client's load options: target, threads, connections, messages, iterations, timing. */
final class LoadOptions {

    @Option(names = "--host", paramLabel = "HOST", defaultValue = "127.0.0.1", description = "Server host (default: ${DEFAULT-VALUE}).")
    String host;

    @Option(names = "--threads", paramLabel = "N", defaultValue = "4", split = ",",
            description = "Sender threads (default: ${DEFAULT-VALUE}); a list sweeps.")
    List<Integer> threads;

    @Option(names = "--connections", paramLabel = "N",
            description = "Connections (default: = --threads). Fewer: threads share them; more: each thread owns several.")
    Integer connections;

    @Option(names = "--msgs", paramLabel = "N",
            description = "Messages per thread per iteration (default: 10000). Excludes --iteration-time.")
    Long msgs;

    @Option(names = "--iteration-time", paramLabel = "D", converter = Converters.Time.class,
            description = "Time-based iterations instead of --msgs: back-to-back slices of one continuous run, e.g. 2s "
                    + "(default: none, iterations count --msgs).")
    Duration iterationTime;

    @Option(names = "--warmup", paramLabel = "N", defaultValue = "3", description = "Warmup iterations (default: ${DEFAULT-VALUE}).")
    int warmup;

    @Option(names = "--iterations", paramLabel = "N", defaultValue = "10", description = "Measured iterations (default: ${DEFAULT-VALUE}).")
    int iterations;

    @Option(names = "--forks", paramLabel = "N", defaultValue = "1",
            description = "Repeat the whole client in N fresh JVMs, one after another (JMH-style); the summary's "
                    + "intervals then cover every measured iteration of every fork. Default: ${DEFAULT-VALUE}.")
    int forks;

    @Option(names = "--size", paramLabel = "SIZE", defaultValue = "1k", split = ",",
            converter = Converters.Size.class,
            description = "Request payload size, e.g. 512, 5k, 1m (default: ${DEFAULT-VALUE}); a list sweeps.")
    List<Integer> size;

    @Option(names = "--response-size", paramLabel = "SIZE", converter = Converters.Size.class,
            description = "Response payload size (default: = --size; 0 with --measure send); 0 = one-way.")
    Integer responseSize;

    @Option(names = "--window", paramLabel = "N", split = ",",
            description = "Messages in flight per connection: the semaphore's permits (default: 1; with --batch, "
                    + "batch x threads per connection); a list sweeps.")
    List<Integer> window;

    @Option(names = "--batch", paramLabel = "N", defaultValue = "0",
            description = "Each thread sends N messages, then waits for all N (a batched synchronous client; threads "
                    + "driver); 1 = each thread waits for its own reply, as a synchronous call. Default: ${DEFAULT-VALUE} (off).")
    int batch;

    @Option(names = "--requests-per-connection", paramLabel = "N", defaultValue = "0",
            description = "Reconnect after N requests (1 = ab without -k); reconnect times are a histogram of their "
                    + "own. Threads driver, one owner thread per connection. Default: ${DEFAULT-VALUE} (keep).")
    int requestsPerConnection;

    @Option(names = "--connect-rate", paramLabel = "R", converter = Converters.Rate.class,
            description = "Opens the connections at most R per second, e.g. 500 or 2k: a ramp-up before the first "
                    + "iteration, so a server is not hit by every connect at once; with --requests-per-connection "
                    + "it also paces the reconnects (default: 0, no limit).")
    Double connectRate;

    @Option(names = "--rate", paramLabel = "R", converter = Converters.Rate.class, split = ",",
            description = "Open loop: sends R messages/s in all (e.g. 50k) on a fixed schedule, split evenly over "
                    + "connections, whether or not responses keep up (wrk2-style); latency is measured from each "
                    + "message's intended send time (corrected for coordinated omission); a list sweeps (default: "
                    + "none, closed loop: each response lets the next message go).")
    List<Double> rate;

    @Option(names = "--max-inflight", paramLabel = "N", defaultValue = "1000",
            description = "Open loop: messages in flight per connection at most; a due message waits (counted) "
                    + "beyond it (default: ${DEFAULT-VALUE}).")
    int maxInflight;

    @Option(names = "--pacer", paramLabel = "sleep|spin", defaultValue = "sleep",
            description = "Open loop: how pacer threads wait for each message's intended time. sleep parks (wakes "
                    + "about 50-100 µs late: send lag, part of the corrected latency); spin busy-waits (sub-ms "
                    + "latency can be measured; each pacer keeps a core busy). Default: ${DEFAULT-VALUE}.")
    Pacing pacer;

    @Option(names = "--measure", paramLabel = "rtt|send", defaultValue = "rtt",
            description = "rtt: until the response is complete; send: until the request is written to the kernel. Default: ${DEFAULT-VALUE}.")
    Measure measure;

    @Option(names = "--driver", paramLabel = "threads|io",
            description = "Who sends the next message when a permit returns: the sender threads (thread-per-connection benchmarks' model) "
                    + "or the I/O thread that released it (no thread hand-off). Default: io; threads with --batch, "
                    + "--requests-per-connection (a sender thread waits or reconnects) and --measure send.")
    Driver driver;

    @Option(names = "--timeout", paramLabel = "D", defaultValue = "10s", converter = Converters.Time.class,
            description = "A message not completed within this is a timeout error (default: ${DEFAULT-VALUE}).")
    Duration timeout;

    @Option(names = "--connect-timeout", paramLabel = "D", defaultValue = "5s", converter = Converters.Time.class,
            description = "Bound on each connect; a refused first connection is retried until then, so a client "
                    + "started together with its server waits for it (default: ${DEFAULT-VALUE}).")
    Duration connectTimeout;

    @Option(names = "--verify", paramLabel = "none|sample|full", defaultValue = "sample",
            description = "Response payload checks: sample = length and id of each, every byte of 1 in 64 (default: ${DEFAULT-VALUE}).")
    Verify verify;

    /**
     * The swept load options with their values, in column order: size (bytes), threads and window are
     * dimensions of every sweep, even with one value, so every result names them; rate only when given.
     * A window left to its default is named {@value #DEFAULT_WINDOW} here; the client renames it to the
     * effective window (which depends on --batch and threads per connection) once each combination is resolved.
     */
    Map<String, List<String>> sweepDimensions() {
        Map<String, List<String>> d = new LinkedHashMap<>();
        d.put("size", strings(size));
        d.put("threads", strings(threads));
        d.put("window", window == null ? List.of(DEFAULT_WINDOW) : strings(window));
        if (rate != null) {
            d.put("rate", rate.stream().map(LoadOptions::rateText).toList());
        }
        return d;
    }

    static final String DEFAULT_WINDOW = "default";

    private static List<String> strings(List<Integer> values) {
        return values.stream().map(String::valueOf).toList();
    }

    /** 50000 rather than 50000.0: rates are keys of combinations and columns of CSV. */
    private static String rateText(double r) {
        return r == Math.rint(r) && r < 1e15 ? Long.toString((long) r) : Double.toString(r);
    }

    /**
     * Messages in flight one connection can track: its table of messages holds a power of two of at least
     * twice this many slots, which must stay an int.
     */
    static final int MAX_IN_FLIGHT = 1 << 28;

    /** An open-loop schedule's resolution is one nanosecond per connection. */
    static final double MAX_RATE_PER_CONNECTION = 1e9;

    /** The resolved workload of one sweep combination; bad combinations are usage errors. */
    LoadSpec toSpec(CommandSpec spec, TransportOptions transport, List<Double> percentiles, Combination combination) {
        int threads = combination.intValue("threads");
        int size = combination.intValue("size");
        Integer window = DEFAULT_WINDOW.equals(combination.get("window")) ? null : combination.intValue("window");
        Double rate = combination.get("rate") == null ? null : Double.valueOf(combination.get("rate"));
        if (threads < 1) {
            throw usage(spec, "--threads must be at least 1");
        }
        int conns = connections == null ? threads : connections;
        if (conns < 1) {
            throw usage(spec, "--connections must be at least 1");
        }
        if (msgs != null && iterationTime != null) {
            throw usage(spec, "--msgs and --iteration-time exclude each other: choose count-based or time-based iterations");
        }
        long perThread = msgs == null ? 10_000 : msgs;
        if (iterationTime == null && perThread < 1) {
            throw usage(spec, "--msgs must be at least 1");
        }
        if (iterationTime != null && iterationTime.toNanos() < 1_000_000) {
            throw usage(spec, "--iteration-time must be at least 1ms");
        }
        if (warmup < 0 || iterations < 1) {
            throw usage(spec, "--iterations must be at least 1 and --warmup at least 0");
        }
        long runs = (long) warmup + iterations;
        if (runs > Integer.MAX_VALUE) {
            throw usage(spec, "--warmup " + warmup + " + --iterations " + iterations + " is more iterations than nbench "
                    + "counts: use at most " + Integer.MAX_VALUE + " in all");
        }
        if (iterationTime != null && iterationTime.toNanos() > Long.MAX_VALUE / 2 / runs) {
            throw usage(spec, "--iteration-time " + Durations.format(iterationTime) + " x " + runs
                    + " iterations (warmup included) is longer than nbench times: use a shorter --iteration-time or "
                    + "fewer iterations");
        }
        if (iterationTime == null && perThread > Long.MAX_VALUE / threads / runs) {
            // Every message of the run is counted in a long: the quota must fit with every iteration's.
            throw usage(spec, "--msgs " + perThread + " x --threads " + threads + " x " + runs
                    + " iterations (warmup included) is more messages than nbench counts: use a smaller --msgs");
        }
        if (batch < 0) {
            throw usage(spec, "--batch must be 0 (off) or more");
        }
        if (requestsPerConnection < 0) {
            throw usage(spec, "--requests-per-connection must be 0 (keep connections) or more");
        }
        boolean needsThreads = batch > 0 || requestsPerConnection > 0;
        if (needsThreads && driver == Driver.IO) {
            throw usage(spec, (batch > 0 ? "--batch" : "--requests-per-connection")
                    + " needs sender threads that wait or reconnect: use --driver threads (or leave --driver out)");
        }
        if (measure == Measure.SEND && driver == Driver.IO) {
            throw usage(spec, "--measure send needs --driver threads (or leave --driver out): a transport may report "
                    + "the write inside the send itself, and the io driver would then send on and on from there");
        }
        Driver effectiveDriver = driver != null ? driver
                : needsThreads || measure == Measure.SEND ? Driver.THREADS : Driver.IO;
        if (requestsPerConnection > 0 && conns < threads) {
            throw usage(spec, "--requests-per-connection needs at least as many --connections as --threads: each "
                    + "thread reconnects its own connections");
        }
        long threadsPerConnection = ((long) threads + conns - 1) / conns;
        long effectiveWindow = window != null ? window : batch > 0 ? batch * threadsPerConnection : 1;
        if (effectiveWindow < 1) {
            throw usage(spec, "--window must be at least 1");
        }
        if (effectiveWindow > MAX_IN_FLIGHT) {
            throw usage(spec, (window != null ? "--window " + window + " is more than one connection tracks: use at most "
                    : "--batch " + batch + " x " + threadsPerConnection + " threads per connection is more than one "
                    + "connection tracks: use at most ") + MAX_IN_FLIGHT
                    + (window != null ? "" : " messages in flight per connection"));
        }
        if (transport.port < 1 || transport.port > 65535) {
            throw usage(spec, "--port " + transport.port + " is not a TCP port: use 1 to 65535");
        }
        Protocol protocol = transport.protocol;
        int response = responseSize != null ? responseSize : (measure == Measure.SEND ? 0 : size);
        if (protocol == Protocol.ECHO) {
            if (size < 1) {
                throw usage(spec, "--protocol echo needs --size of at least 1 byte");
            }
            if (responseSize != null && responseSize != size) {
                throw usage(spec, "--protocol echo answers with exactly what was sent: --response-size cannot differ from --size");
            }
            response = size;
        }
        if (measure == Measure.RTT && protocol == Protocol.FRAMED && response == 0) {
            throw usage(spec, "--response-size 0 (one-way) gives no response to time: use --measure send");
        }
        if (maxInflight < 1) {
            throw usage(spec, "--max-inflight must be at least 1");
        }
        if (maxInflight > MAX_IN_FLIGHT) {
            throw usage(spec, "--max-inflight " + maxInflight + " is more than one connection tracks: use at most "
                    + MAX_IN_FLIGHT);
        }
        if (rate != null && rate / conns > MAX_RATE_PER_CONNECTION) {
            // The schedule counts in nanoseconds: one connection cannot be due more often than once per ns.
            throw usage(spec, "--rate " + rateText(rate) + " over " + conns + " connections is more than one message "
                    + "per nanosecond per connection: use at most " + rateText(MAX_RATE_PER_CONNECTION * conns));
        }
        if (rate != null && (batch > 0 || requestsPerConnection > 0)) {
            throw usage(spec, "--rate (open loop) paces every message itself: --batch and --requests-per-connection "
                    + "are closed-loop options");
        }
        if (rate == null && pacer == Pacing.SPIN) {
            throw usage(spec, "--pacer spin paces the open loop: give --rate too (the closed loop has no pacer)");
        }
        if (rate != null && measure == Measure.SEND) {
            throw usage(spec, "--rate (open loop) measures responses: use --measure rtt");
        }
        if (timeout.toNanos() <= 0 || connectTimeout.toNanos() <= 0) {
            throw usage(spec, "--timeout and --connect-timeout must be positive");
        }
        return new LoadSpec(threads, conns, iterationTime == null ? perThread : 0,
                iterationTime == null ? 0 : iterationTime.toNanos(), warmup, iterations, size, response, (int) effectiveWindow,
                measure, effectiveDriver, timeout.toNanos(), connectTimeout.toNanos(), verify, protocol, percentiles,
                rate == null ? 0 : rate, maxInflight, batch, requestsPerConnection, connectRate == null ? 0 : connectRate,
                pacer);
    }

    private static ParameterException usage(CommandSpec spec, String message) {
        return new ParameterException(spec.commandLine(), message);
    }
}
