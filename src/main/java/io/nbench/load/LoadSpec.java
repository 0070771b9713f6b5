package io.nbench.load;

import io.nbench.protocol.Protocol;
import java.util.List;

/**
 * A closed-loop workload, fully resolved.
 *
 * @param threads            sender threads (threads driver); with the io driver the message quota is
 *                           still {@code threads * msgsPerThread}
 * @param connections        connections opened before the first iteration
 * @param msgsPerThread      messages each thread sends per iteration (0 when {@code iterationNanos > 0})
 * @param iterationNanos     time-based iterations when &gt; 0
 * @param warmup             warmup iterations (reported, not summarized)
 * @param iterations         measured iterations
 * @param size               request payload bytes
 * @param responseSize       response payload bytes asked for (framed; 0 = one-way)
 * @param window             permits per connection: messages in flight
 * @param measure            rtt or send
 * @param driver             threads or io
 * @param timeoutNanos       a message without its completion after this is a timeout error
 * @param connectTimeoutNanos bound on each connect; a refused first connection is retried until it
 *                           passes, so a client started together with its server waits for it
 * @param verify             response payload checking
 * @param protocol           framed or echo
 * @param percentiles        percentiles to report
 * @param rate               open loop: total messages per second over all connections; 0 = closed loop
 * @param maxInflight        open loop: messages in flight per connection at most (the safety cap)
 * @param batch              threads driver: each thread sends this many, then waits for all of them (0 = off; 1 = each thread waits for its own reply)
 * @param requestsPerConnection reconnect after this many requests (0 = keep connections; 1 = ab without -k)
 * @param connectRate        initial connections opened per second at most (0 = as fast as possible)
 * @param pacing             open loop: how pacers wait for a message's intended time (sleep or spin)
 */
public record LoadSpec(int threads, int connections, long msgsPerThread, long iterationNanos, int warmup,
                       int iterations, int size, int responseSize, int window, Measure measure, Driver driver,
                       long timeoutNanos, long connectTimeoutNanos, Verify verify, Protocol protocol, List<Double> percentiles,
                       double rate, int maxInflight, int batch, int requestsPerConnection,
                       double connectRate, Pacing pacing) {

    /** A workload whose open loop (if any) sleeps between messages, the default pacing. */
    public LoadSpec(int threads, int connections, long msgsPerThread, long iterationNanos, int warmup, int iterations,
                    int size, int responseSize, int window, Measure measure, Driver driver, long timeoutNanos,
                    long connectTimeoutNanos, Verify verify, Protocol protocol, List<Double> percentiles, double rate,
                    int maxInflight, int batch, int requestsPerConnection, double connectRate) {
        this(threads, connections, msgsPerThread, iterationNanos, warmup, iterations, size, responseSize, window, measure,
                driver, timeoutNanos, connectTimeoutNanos, verify, protocol, percentiles, rate, maxInflight, batch,
                requestsPerConnection, connectRate, Pacing.SLEEP);
    }

    /** Open loop: messages sent on a schedule, latency measured from each message's intended time. */
    public boolean openLoop() {
        return rate > 0;
    }

    /** Permits per connection: the window in the closed loop, the in-flight cap in the open loop. */
    public int permits() {
        return openLoop() ? maxInflight : window;
    }

    /** The same workload with another driver. */
    public LoadSpec withDriver(Driver other) {
        return new LoadSpec(threads, connections, msgsPerThread, iterationNanos, warmup, iterations, size, responseSize,
                window, measure, other, timeoutNanos, connectTimeoutNanos, verify, protocol, percentiles, rate,
                maxInflight, batch, requestsPerConnection, connectRate, pacing);
    }

    /**
     * The driver that will really run with a client transport: sender threads when the transport has no
     * I/O threads of its own to send from, and with {@code --measure send}, whose written event a
     * transport may report inside the send itself (blocking sockets, a non-blocking write that
     * completes at once): the io driver would then keep sending on the caller's thread.
     */
    public LoadSpec effectiveFor(io.nbench.transport.ClientTransport client) {
        boolean inline = client.deliversOnCallerThread() || measure == Measure.SEND;
        return driver == Driver.IO && inline ? withDriver(Driver.THREADS) : this;
    }

    /** Connections are closed and reopened during the run. */
    public boolean churn() {
        return requestsPerConnection > 0;
    }

    public boolean timeBased() {
        return iterationNanos > 0;
    }

    /** Messages sent per count-based iteration, over all threads. */
    public long messagesPerIteration() {
        return (long) threads * msgsPerThread;
    }

    /** Whether each message expects a response on the wire. */
    public boolean expectsResponse() {
        return protocol == Protocol.ECHO || responseSize > 0;
    }
}
