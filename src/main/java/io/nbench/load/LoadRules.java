package io.nbench.load;

import io.nbench.protocol.Protocol;
import io.nbench.units.Durations;
import java.time.Duration;

/**
 * The rules a resolved workload obeys, one method per rule, each throwing {@link InvalidLoadSpec} with the
 * message the CLI prints. The builder applies them in the order the options are checked on the command
 * line (so the first problem a user sees does not depend on how the spec was built); the spec's
 * constructor applies them again, so no inconsistent spec exists however it was made.
 */
final class LoadRules {

    private LoadRules() {
    }

    static void require(boolean ok, String message) {
        if (!ok) {
            throw new InvalidLoadSpec(message);
        }
    }

    static void threadsAndConnections(int threads, int connections) {
        require(threads >= 1, "--threads must be at least 1");
        require(connections >= 1, "--connections must be at least 1");
    }

    static String bothCountAndTime() {
        return "--msgs and --iteration-time exclude each other: choose count-based or time-based iterations";
    }

    static void iterationCounts(int warmup, int iterations) {
        require(warmup >= 0 && iterations >= 1, "--iterations must be at least 1 and --warmup at least 0");
        long runs = (long) warmup + iterations;
        require(runs <= Integer.MAX_VALUE, "--warmup " + warmup + " + --iterations " + iterations + " is more "
                + "iterations than nbench counts: use at most " + Integer.MAX_VALUE + " in all");
    }

    /** Every message of the run is counted in a long, and every iteration's time too. */
    static void runFitsCounters(int threads, long msgsPerThread, long iterationNanos, int warmup, int iterations) {
        long runs = (long) warmup + iterations;
        require(iterationNanos == 0 || iterationNanos <= Long.MAX_VALUE / 2 / runs, "--iteration-time "
                + Durations.format(Duration.ofNanos(iterationNanos)) + " x " + runs + " iterations (warmup included) "
                + "is longer than nbench times: use a shorter --iteration-time or fewer iterations");
        require(iterationNanos > 0 || msgsPerThread <= Long.MAX_VALUE / threads / runs, "--msgs " + msgsPerThread
                + " x --threads " + threads + " x " + runs + " iterations (warmup included) is more messages than "
                + "nbench counts: use a smaller --msgs");
    }

    static void closedLoopShapes(int batch, int requestsPerConnection, Driver driver, Measure measure) {
        require(batch >= 0, "--batch must be 0 (off) or more");
        require(requestsPerConnection >= 0, "--requests-per-connection must be 0 (keep connections) or more");
        require(!(needsSenderThreads(batch, requestsPerConnection) && driver == Driver.IO),
                (batch > 0 ? "--batch" : "--requests-per-connection")
                        + " needs sender threads that wait or reconnect: use --driver threads (or leave --driver out)");
        require(!(measure == Measure.SEND && driver == Driver.IO), "--measure send needs --driver threads (or leave "
                + "--driver out): a transport may report the write inside the send itself, and the io driver would "
                + "then send on and on from there");
    }

    static boolean needsSenderThreads(int batch, int requestsPerConnection) {
        return batch > 0 || requestsPerConnection > 0;
    }

    static void reconnectsOwnConnections(int requestsPerConnection, int threads, int connections) {
        require(!(requestsPerConnection > 0 && connections < threads), "--requests-per-connection needs at least as "
                + "many --connections as --threads: each thread reconnects its own connections");
    }

    static void windowAtLeastOne(long window) {
        require(window >= 1, "--window must be at least 1");
    }

    static void windowTracked(long window) {
        require(window <= LoadSpec.MAX_IN_FLIGHT, "--window " + window + " is more than one connection tracks: use "
                + "at most " + LoadSpec.MAX_IN_FLIGHT);
    }

    /** A protocol whose client half is not in this build (http's, until issue 27's client is): its reason. */
    static void clientSpeaks(Protocol protocol) {
        try {
            protocol.client();
        } catch (UnsupportedOperationException e) {
            throw new InvalidLoadSpec(e.getMessage());
        }
    }

    static void minSize(Protocol protocol, int size) {
        int min = protocol.minSize();
        require(size >= min, "--protocol " + protocol.label() + " needs --size of at least " + min + " byte"
                + (min == 1 ? "" : "s"));
    }

    static String responseIsRequest(Protocol protocol) {
        return "--protocol " + protocol.label() + " answers with exactly what was sent: --response-size cannot "
                + "differ from --size";
    }

    /** {@code --size 0} with the response size left to follow it: named by what the user gave. */
    static void emptyRequestsToTime(Protocol protocol, Measure measure, int size, Integer responseSize) {
        require(!(measure == Measure.RTT && !protocol.responseIsRequest() && size == 0 && responseSize == null),
                "--size 0 sends empty requests, and the response is as large as the request unless --response-size "
                        + "says otherwise, so there is no response to time: give --response-size 1 or more, or use "
                        + "--measure send");
    }

    static void responseToTime(Protocol protocol, Measure measure, int responseSize) {
        require(!(measure == Measure.RTT && !protocol.responseIsRequest() && responseSize == 0),
                "--response-size 0 (one-way) gives no response to time: use --measure send");
    }

    /** {@code rate} 0 is the closed loop. */
    static void openLoop(double rate, int connections, int maxInflight, int batch, int requestsPerConnection,
                         Pacing pacing, Measure measure) {
        require(maxInflight >= 1, "--max-inflight must be at least 1");
        require(maxInflight <= LoadSpec.MAX_IN_FLIGHT, "--max-inflight " + maxInflight + " is more than one "
                + "connection tracks: use at most " + LoadSpec.MAX_IN_FLIGHT);
        // The schedule counts in nanoseconds: one connection cannot be due more often than once per ns.
        require(!(rate > 0 && rate / connections > LoadSpec.MAX_RATE_PER_CONNECTION), "--rate " + rateText(rate)
                + " over " + connections + " connections is more than one message per nanosecond per connection: use "
                + "at most " + rateText(LoadSpec.MAX_RATE_PER_CONNECTION * connections));
        require(!(rate > 0 && needsSenderThreads(batch, requestsPerConnection)), "--rate (open loop) paces every "
                + "message itself: --batch and --requests-per-connection are closed-loop options");
        require(rate > 0 || pacing != Pacing.SPIN,
                "--pacer spin paces the open loop: give --rate too (the closed loop has no pacer)");
        require(!(rate > 0 && measure == Measure.SEND), "--rate (open loop) measures responses: use --measure rtt");
    }

    static void timeoutsPositive(long timeoutNanos, long connectTimeoutNanos) {
        require(timeoutNanos > 0 && connectTimeoutNanos > 0, "--timeout and --connect-timeout must be positive");
    }

    /** 50000 rather than 50000.0, as the rate is written on the command line. */
    static String rateText(double r) {
        return r == Math.rint(r) && r < 1e15 ? Long.toString((long) r) : Double.toString(r);
    }
}
