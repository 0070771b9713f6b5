package io.nbench.load;

import static io.nbench.load.LoadRules.require;

import io.nbench.protocol.ClientRequest;
import io.nbench.protocol.Protocol;
import io.nbench.stats.Percentiles;
import io.nbench.transport.ClientTransport;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * A workload, fully resolved and consistent: closed loop (each response lets the next message go) or open
 * loop ({@code rate > 0}: messages sent on a schedule). Built with {@link #builder()}, which resolves the
 * defaults that depend on other settings as the CLI does; the constructor rejects every inconsistent
 * combination with an {@link InvalidLoadSpec} whose message the CLI prints unchanged, so a library caller
 * and a user get the same errors. The flat accessors ({@link #threads()}, {@link #window()} ...) read the
 * grouped parts.
 *
 * @param shape        who sends, over how many connections, how much in flight, at what pace
 * @param message      what one message is and which instant of it is timed
 * @param timing       how long the run is and how long a message or connect may take
 * @param verification how responses are checked and which percentiles are reported
 */
public record LoadSpec(Shape shape, Message message, Timing timing, Verification verification) {

    /**
     * Messages in flight one connection can track: its table of messages holds a power of two of at least
     * twice this many slots, which must stay an int.
     */
    public static final int MAX_IN_FLIGHT = 1 << 28;

    /** An open-loop schedule's resolution is one nanosecond per connection. */
    public static final double MAX_RATE_PER_CONNECTION = 1e9;

    /**
     * @param threads               sender threads (threads driver); with the io driver the message quota is
     *                              still {@code threads * msgsPerThread}
     * @param connections           connections opened before the first iteration
     * @param window                permits per connection in the closed loop: messages in flight
     * @param driver                who sends the next message when a permit returns
     * @param batch                 threads driver: each thread sends this many, then waits for all of them
     *                              (0 = off; 1 = each thread waits for its own reply)
     * @param requestsPerConnection reconnect after this many requests (0 = keep connections; 1 = ab without -k)
     * @param rate                  open loop: total messages per second over all connections; 0 = closed loop
     * @param maxInflight           open loop: messages in flight per connection at most (the safety cap)
     * @param connectRate           connections opened per second at most (0 = as fast as possible)
     * @param pacing                open loop: how pacers wait for a message's intended time
     */
    public record Shape(int threads, int connections, int window, Driver driver, int batch, int requestsPerConnection,
                        double rate, int maxInflight, double connectRate, Pacing pacing) {
        public Shape {
            Objects.requireNonNull(driver, "driver");
            Objects.requireNonNull(pacing, "pacing");
        }
    }

    /**
     * @param protocol     framed or echo
     * @param size         request payload bytes
     * @param responseSize response payload bytes asked for (framed; 0 = one-way); echo: {@code size}
     * @param measure      rtt (until the response is complete) or send (until written to the kernel)
     * @param request      what each request says beyond its size (HTTP: method, URL, headers)
     */
    public record Message(Protocol protocol, int size, int responseSize, Measure measure,
                          ClientRequest request) {
        public Message {
            Objects.requireNonNull(protocol, "protocol");
            Objects.requireNonNull(request, "request");
            Objects.requireNonNull(measure, "measure");
        }
    }

    /**
     * @param msgsPerThread       messages each thread sends per iteration (0 when {@code iterationNanos > 0})
     * @param iterationNanos      time-based iterations when &gt; 0
     * @param warmup              warmup iterations (reported, not summarized)
     * @param iterations          measured iterations
     * @param timeoutNanos        a message without its completion after this is a timeout error
     * @param connectTimeoutNanos bound on each connect
     * @param connectRetryNanos   a refused first connection is retried for this long ({@code --connect-retry}), so
     *                            a client started together with its server waits for it; 0: it fails at once
     * @param msgsInAll           messages per count-based iteration over all threads ({@code -n}), spread as evenly
     *                            as they go (the first threads send one more); 0: threads x msgsPerThread
     */
    public record Timing(long msgsPerThread, long iterationNanos, int warmup, int iterations, long timeoutNanos,
                         long connectTimeoutNanos, long connectRetryNanos, long msgsInAll) {

        /** No connect retry, msgsPerThread from every thread. */
        public Timing(long msgsPerThread, long iterationNanos, int warmup, int iterations, long timeoutNanos,
                      long connectTimeoutNanos) {
            this(msgsPerThread, iterationNanos, warmup, iterations, timeoutNanos, connectTimeoutNanos, 0, 0);
        }
    }

    /**
     * @param verify      response payload checking
     * @param percentiles percentiles to report
     */
    public record Verification(Verify verify, List<Double> percentiles) {
        public Verification {
            Objects.requireNonNull(verify, "verify");
            percentiles = List.copyOf(percentiles);
        }
    }

    public LoadSpec {
        Objects.requireNonNull(shape, "shape");
        Objects.requireNonNull(message, "message");
        Objects.requireNonNull(timing, "timing");
        Objects.requireNonNull(verification, "verification");
        check(shape, message, timing);
    }

    /** The rules of a resolved workload, in the order the builder checks them. */
    private static void check(Shape s, Message m, Timing t) {
        LoadRules.threadsAndConnections(s.threads(), s.connections());
        require(t.msgsPerThread() == 0 || t.iterationNanos() == 0, LoadRules.bothCountAndTime());
        require(t.iterationNanos() != 0 || t.msgsPerThread() >= 1, "--msgs must be at least 1");
        require(t.iterationNanos() == 0 || t.iterationNanos() >= 1_000_000, "--iteration-time must be at least 1ms");
        LoadRules.iterationCounts(t.warmup(), t.iterations());
        LoadRules.runFitsCounters(s.threads(), t.msgsPerThread(), t.iterationNanos(), t.warmup(), t.iterations());
        LoadRules.closedLoopShapes(s.batch(), s.requestsPerConnection(), s.driver(), m.measure());
        LoadRules.reconnectsOwnConnections(s.requestsPerConnection(), s.threads(), s.connections());
        LoadRules.windowAtLeastOne(s.window());
        LoadRules.windowTracked(s.window());
        LoadRules.clientSpeaks(m.protocol());
        LoadRules.minSize(m.protocol(), m.size());
        require(!m.protocol().responseIsRequest() || m.responseSize() == m.size(),
                LoadRules.responseIsRequest(m.protocol()));
        require(m.responseSize() >= 0, "--response-size must be 0 (one-way) or more");
        LoadRules.responseToTime(m.protocol(), m.measure(), m.responseSize());
        require(s.rate() >= 0 && s.connectRate() >= 0, "--rate and --connect-rate cannot be negative");
        LoadRules.openLoop(s.rate(), s.connections(), s.maxInflight(), s.batch(), s.requestsPerConnection(),
                s.pacing(), m.measure());
        LoadRules.timeoutsPositive(t.timeoutNanos(), t.connectTimeoutNanos());
    }

    /** A builder with the CLI's defaults: 4 threads, 10000 messages each, 3 + 10 iterations, 1 KiB, rtt. */
    public static LoadSpecBuilder builder() {
        return new LoadSpecBuilder();
    }

    /** A builder holding this spec's every setting, to change some of them. */
    public LoadSpecBuilder toBuilder() {
        LoadSpecBuilder b = builder().threads(threads()).connections(connections()).warmup(warmup())
                .iterations(iterations()).size(size()).responseSize(responseSize()).window(window()).measure(measure())
                .driver(driver()).timeout(Duration.ofNanos(timeoutNanos()))
                .connectTimeout(Duration.ofNanos(connectTimeoutNanos())).verify(verify()).protocol(protocol())
                .request(request())
                .percentiles(percentiles()).maxInflight(maxInflight()).batch(batch())
                .requestsPerConnection(requestsPerConnection()).connectRate(connectRate()).pacing(pacing());
        b.connectRetry(Duration.ofNanos(timing.connectRetryNanos()));
        if (timeBased()) {
            b.iterationTime(Duration.ofNanos(iterationNanos()));
        } else if (timing.msgsInAll() > 0) {
            b.msgsInAll(timing.msgsInAll());
        } else {
            b.msgs(msgsPerThread());
        }
        if (openLoop()) {
            b.rate(rate());
        }
        return b;
    }

    /** Open loop: messages sent on a schedule, latency measured from each message's intended time. */
    public boolean openLoop() {
        return rate() > 0;
    }

    /** Permits per connection: the window in the closed loop, the in-flight cap in the open loop. */
    public int permits() {
        return openLoop() ? maxInflight() : window();
    }

    /** The same workload with another driver. */
    public LoadSpec withDriver(Driver other) {
        return new LoadSpec(new Shape(threads(), connections(), window(), other, batch(), requestsPerConnection(),
                rate(), maxInflight(), connectRate(), pacing()), message, timing, verification);
    }

    /**
     * The driver that will really run with a client transport: sender threads when the transport has no
     * I/O threads of its own to send from, and with {@code --measure send}, whose written event a
     * transport may report inside the send itself (blocking sockets, a non-blocking write that
     * completes at once): the io driver would then keep sending on the caller's thread.
     */
    public LoadSpec effectiveFor(ClientTransport client) {
        boolean inline = client.deliversOnCallerThread() || measure() == Measure.SEND;
        return driver() == Driver.IO && inline ? withDriver(Driver.THREADS) : this;
    }

    /** Connections are closed and reopened during the run. */
    public boolean churn() {
        return requestsPerConnection() > 0;
    }

    /**
     * Connections may be replaced while the run goes on: churn, or HTTP, whose server may close a
     * connection after any response ({@code Connection: close}). Connect times are then kept.
     */
    public boolean replacesConnections() {
        return churn() || !protocol().responsesVerifiable();
    }

    public boolean timeBased() {
        return iterationNanos() > 0;
    }

    /** Messages sent per count-based iteration, over all threads. */
    public long messagesPerIteration() {
        return timing.msgsInAll() > 0 ? timing.msgsInAll() : (long) threads() * msgsPerThread();
    }

    /** Sender thread {@code thread}'s share of a count-based iteration: the remainder goes to the first threads. */
    public long msgsOfThread(int thread) {
        long all = messagesPerIteration();
        return all / threads() + (thread < all % threads() ? 1 : 0);
    }

    /** How long a refused first connect is retried (0: not at all). */
    public long connectRetryNanos() {
        return timing.connectRetryNanos();
    }

    /** Whether each message expects a response on the wire. */
    public boolean expectsResponse() {
        return protocol().responseIsRequest() || responseSize() > 0;
    }

    // The flat view: callers read settings without knowing which group holds them.

    public int threads() {
        return shape.threads();
    }

    public int connections() {
        return shape.connections();
    }

    public int window() {
        return shape.window();
    }

    public Driver driver() {
        return shape.driver();
    }

    public int batch() {
        return shape.batch();
    }

    public int requestsPerConnection() {
        return shape.requestsPerConnection();
    }

    public double rate() {
        return shape.rate();
    }

    public int maxInflight() {
        return shape.maxInflight();
    }

    public double connectRate() {
        return shape.connectRate();
    }

    public Pacing pacing() {
        return shape.pacing();
    }

    public ClientRequest request() {
        return message.request();
    }

    public Protocol protocol() {
        return message.protocol();
    }

    /**
     * The request payload each message really sends, which MiB/s counts: {@code --size} bytes, or what the
     * protocol's codec makes of it (an HTTP GET sends no body, whatever {@code --size} says).
     */
    public int requestPayloadBytes() {
        return protocol().newClientCodec(request(), false).requestPayloadSize(size());
    }

    public int size() {
        return message.size();
    }

    public int responseSize() {
        return message.responseSize();
    }

    public Measure measure() {
        return message.measure();
    }

    public long msgsPerThread() {
        return timing.msgsPerThread();
    }

    public long iterationNanos() {
        return timing.iterationNanos();
    }

    public int warmup() {
        return timing.warmup();
    }

    public int iterations() {
        return timing.iterations();
    }

    public long timeoutNanos() {
        return timing.timeoutNanos();
    }

    public long connectTimeoutNanos() {
        return timing.connectTimeoutNanos();
    }

    public Verify verify() {
        return verification.verify();
    }

    public List<Double> percentiles() {
        return verification.percentiles();
    }
}
