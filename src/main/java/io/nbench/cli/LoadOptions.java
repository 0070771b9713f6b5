package io.nbench.cli;

import io.nbench.client.ClientPlanBuilder;
import io.nbench.client.ClientSpec;
import io.nbench.load.Driver;
import io.nbench.load.LoadSpec;
import io.nbench.load.Measure;
import io.nbench.load.Pacing;
import io.nbench.load.Verify;
import io.nbench.protocol.ClientRequest;
import io.nbench.protocol.Protocol;
import java.time.Duration;
import java.util.List;
import picocli.CommandLine.Option;

/** The client's load options: target, threads, connections, messages, iterations, timing. */
final class LoadOptions {

    @Option(names = "--host", paramLabel = "HOST", defaultValue = "127.0.0.1", converter = Converters.Host.class,
            description = "Server host (default: ${DEFAULT-VALUE}).")
    String host;

    @Option(names = {"-t", "--threads"}, paramLabel = "N", defaultValue = "4", split = ",",
            description = "Sender threads (default: ${DEFAULT-VALUE}); a list sweeps.")
    List<Integer> threads;

    @Option(names = {"-c", "--connections"}, paramLabel = "N",
            description = "Connections (default: = --threads). Fewer: threads share them; more: each thread owns several.")
    Integer connections;

    @Option(names = "--msgs", paramLabel = "N",
            description = "Messages per thread per iteration (default: 10000). Excludes --iteration-time.")
    Long msgs;

    @Option(names = "--iteration-time", paramLabel = "D", converter = Converters.Time.class,
            description = "Time-based iterations instead of --msgs: back-to-back slices of one continuous run, e.g. 2s "
                    + "(default: none, iterations count --msgs).")
    Duration iterationTime;

    @Option(names = "-n", paramLabel = "N",
            description = "Requests in all, as ab's and oha's -n: exactly N over every thread and connection, in one "
                    + "measured run, no warmup unless --warmup is given. Excludes --msgs, --iterations, "
                    + "--iteration-time and -d (default: none, --msgs per thread per iteration).")
    Long requests;

    @Option(names = "-d", paramLabel = "D", converter = Converters.Time.class,
            description = "Duration, as wrk's -d: one measured run of D, e.g. 10s, no warmup unless --warmup is "
                    + "given. Excludes --iteration-time, --iterations and --msgs (default: none).")
    Duration duration;

    @Option(names = "--warmup", paramLabel = "N", defaultValue = "3",
            description = "Warmup iterations (default: ${DEFAULT-VALUE}; 0 with -n or -d).")
    int warmup;

    @Option(names = "--iterations", paramLabel = "N", defaultValue = "10", description = "Measured iterations (default: ${DEFAULT-VALUE}).")
    int iterations;

    @Option(names = "--forks", paramLabel = "N", defaultValue = "1",
            description = "Repeat the whole client in N fresh JVMs, one after another (JMH-style); the summary's "
                    + "intervals then cover every measured iteration of every fork. Default: ${DEFAULT-VALUE}.")
    int forks;

    @Option(names = "--size", paramLabel = "SIZE", defaultValue = "1k", split = ",",
            converter = Converters.Size.class,
            description = "Request payload size, e.g. 512, 5k, 1m (default: ${DEFAULT-VALUE}); a list sweeps. HTTP: the "
                    + "body of a POST, PUT or PATCH (--body-file sends a file's with any method).")
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

    @Option(names = "--pacer", paramLabel = "hybrid|sleep|spin", defaultValue = "hybrid",
            description = "Open loop: how pacer threads wait for each message's intended time. sleep parks (wakes "
                    + "about 50-150 µs late: send lag, part of the corrected latency); spin busy-waits (sub-ms "
                    + "latency can be measured; each pacer keeps a core busy); hybrid parks until shortly before, "
                    + "by the lateness it measured, and spins the rest where messages are far enough apart. "
                    + "Default: ${DEFAULT-VALUE}.")
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
            description = "Bound on each connect (default: ${DEFAULT-VALUE}).")
    Duration connectTimeout;

    @Option(names = "--connect-retry", paramLabel = "D", converter = Converters.Time.class,
            description = "Retries a refused first connect for up to D, e.g. 10s, so a client started together "
                    + "with its server waits for it to listen (default: none, a refused connect fails at once).")
    Duration connectRetry;

    @Option(names = "--verify", paramLabel = "none|sample|full", defaultValue = "sample",
            description = "Response payload checks: sample = length and id of each, every byte of 1 in 64 (default: ${DEFAULT-VALUE}).")
    Verify verify;

    /** These options, typed ({@link ChildClient}). */
    ClientSpec.Load settings() {
        return new ClientSpec.Load(host, threads, connections, msgs, iterationTime, warmup, iterations, forks, size,
                responseSize, window, batch, requestsPerConnection, connectRate, rate, maxInflight, pacer, measure,
                driver, timeout, connectTimeout, verify, requests, duration, connectRetry);
    }

    /** Sets these options to a child client's settings. */
    void set(ClientSpec.Load l) {
        host = l.host();
        threads = l.threads();
        connections = l.connections();
        msgs = l.msgs();
        iterationTime = l.iterationTime();
        warmup = l.warmup();
        iterations = l.iterations();
        forks = l.forks();
        size = l.sizes();
        responseSize = l.responseSize();
        window = l.windows();
        batch = l.batch();
        requestsPerConnection = l.requestsPerConnection();
        connectRate = l.connectRate();
        rate = l.rates();
        maxInflight = l.maxInflight();
        pacer = l.pacer();
        measure = l.measure();
        driver = l.driver();
        timeout = l.timeout();
        connectTimeout = l.connectTimeout();
        verify = l.verify();
        requests = l.requests();
        duration = l.duration();
        connectRetry = l.connectRetry();
    }

    /**
     * The load options onto the plan: the swept ones (size, threads, window, rate), the timing, and what every
     * combination's workload shares. With an HTTP body of the user's ({@code --body}), the size is its length.
     */
    void mapOnto(ClientPlanBuilder plan, Protocol protocol, ClientRequest request) {
        // A body the user gave is the message: its length is the size the plan and the result name.
        plan.host(host)
                .sweep(request.body() != null ? List.of(request.body().length) : size, threads, window, rate)
                .iterationTime(iterationTime)
                .iterations(warmup, iterations)
                .connectTimeout(connectTimeout)
                .load(LoadSpec.builder()
                        .connections(connections)
                        .msgs(msgs)
                        .msgsInAll(requests)
                        .connectRetry(connectRetry)
                        .responseSize(responseSize)
                        .batch(batch)
                        .requestsPerConnection(requestsPerConnection)
                        .maxInflight(maxInflight)
                        .connectRate(connectRate == null ? 0 : connectRate)
                        .pacing(pacer)
                        .measure(measure)
                        .driver(driver)
                        .timeout(timeout)
                        .verify(verify)
                        .protocol(protocol)
                        .request(request));
    }
}
