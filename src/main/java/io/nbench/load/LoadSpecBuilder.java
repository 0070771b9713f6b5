package io.nbench.load;

import static io.nbench.load.LoadRules.require;

import io.nbench.protocol.ClientRequest;
import io.nbench.protocol.Protocol;
import io.nbench.stats.Percentiles;
import java.time.Duration;
import java.util.List;

/**
 * A {@link LoadSpec} from the settings as a user gives them: a setting left unset (connections, window,
 * response size, driver, messages) takes the default that depends on the others, as the command line
 * resolves it. The defaults are the CLI's: 4 threads, 10000 messages each, 3 + 10 iterations, 1 KiB, rtt.
 */
public final class LoadSpecBuilder {

    private int threads = 4;
    private Integer connections;
    private Long msgs;
    private Long msgsInAll;
    private Duration connectRetry = Duration.ZERO;
    private Duration iterationTime;
    private int warmup = 3;
    private int iterations = 10;
    private int size = 1024;
    private Integer responseSize;
    private Integer window;
    private int batch;
    private int requestsPerConnection;
    private double rate;
    private int maxInflight = 1000;
    private double connectRate;
    private Pacing pacing = Pacing.HYBRID;
    private Measure measure = Measure.RTT;
    private Driver driver;
    private Duration timeout = Duration.ofSeconds(10);
    private Duration connectTimeout = Duration.ofSeconds(5);
    private Verify verify = Verify.SAMPLE;
    private Protocol protocol = Protocol.FRAMED;
    private ClientRequest request = ClientRequest.NONE;
    private List<Double> percentiles = Percentiles.DEFAULT;

    LoadSpecBuilder() {
    }

    public LoadSpecBuilder threads(int n) {
        threads = n;
        return this;
    }

    /** Default: one per thread. */
    public LoadSpecBuilder connections(Integer n) {
        connections = n;
        return this;
    }

    /** Messages per thread per iteration; default 10000 unless {@link #iterationTime} is set. */
    public LoadSpecBuilder msgs(Long n) {
        msgs = n;
        return this;
    }

    /** Messages per iteration over all threads, split as evenly as they go (ab's -n); instead of {@link #msgs}. */
    public LoadSpecBuilder msgsInAll(Long n) {
        msgsInAll = n;
        return this;
    }

    /** A refused first connect is retried for this long (zero: it fails at once). */
    public LoadSpecBuilder connectRetry(Duration d) {
        connectRetry = d == null ? Duration.ZERO : d;
        return this;
    }

    /** Time-based iterations instead of {@link #msgs}. */
    public LoadSpecBuilder iterationTime(Duration d) {
        iterationTime = d;
        return this;
    }

    public LoadSpecBuilder warmup(int n) {
        warmup = n;
        return this;
    }

    public LoadSpecBuilder iterations(int n) {
        iterations = n;
        return this;
    }

    public LoadSpecBuilder size(int bytes) {
        size = bytes;
        return this;
    }

    /** Default: the request size (0 with {@link Measure#SEND}); echo answers with the request. */
    public LoadSpecBuilder responseSize(Integer bytes) {
        responseSize = bytes;
        return this;
    }

    /** Default: 1, or with {@link #batch} the batch times the threads sharing a connection. */
    public LoadSpecBuilder window(Integer n) {
        window = n;
        return this;
    }

    public LoadSpecBuilder batch(int n) {
        batch = n;
        return this;
    }

    public LoadSpecBuilder requestsPerConnection(int n) {
        requestsPerConnection = n;
        return this;
    }

    /** Open loop when &gt; 0 (messages per second over all connections); 0 = closed loop. */
    public LoadSpecBuilder rate(double perSecond) {
        rate = perSecond;
        return this;
    }

    public LoadSpecBuilder maxInflight(int n) {
        maxInflight = n;
        return this;
    }

    public LoadSpecBuilder connectRate(double perSecond) {
        connectRate = perSecond;
        return this;
    }

    public LoadSpecBuilder pacing(Pacing p) {
        pacing = p;
        return this;
    }

    public LoadSpecBuilder measure(Measure m) {
        measure = m;
        return this;
    }

    /** Default: io, or threads when batching, reconnecting or measuring sends (a sender thread waits). */
    public LoadSpecBuilder driver(Driver d) {
        driver = d;
        return this;
    }

    public LoadSpecBuilder timeout(Duration d) {
        timeout = d;
        return this;
    }

    public LoadSpecBuilder connectTimeout(Duration d) {
        connectTimeout = d;
        return this;
    }

    public LoadSpecBuilder verify(Verify v) {
        verify = v;
        return this;
    }

    /** What each request says beyond its size (HTTP: method, URL, headers); default {@code ClientRequest.NONE}. */
    public LoadSpecBuilder request(ClientRequest r) {
        request = r;
        return this;
    }

    public LoadSpecBuilder protocol(Protocol p) {
        protocol = p;
        return this;
    }

    public LoadSpecBuilder percentiles(List<Double> ps) {
        percentiles = ps;
        return this;
    }

    /**
     * The resolved spec; the rules are checked in the order the command line lists its options.
     *
     * @throws InvalidLoadSpec naming the first inconsistent setting and its fix
     */
    public LoadSpec build() {
        int conns = connections == null ? threads : connections;
        LoadRules.threadsAndConnections(threads, conns);
        require(msgs == null || iterationTime == null, LoadRules.bothCountAndTime());
        require(msgsInAll == null || msgs == null && iterationTime == null,
                "-n counts the requests of the whole run: it excludes --msgs and --iteration-time");
        require(msgsInAll == null || msgsInAll >= 1, "-n must be at least 1");
        long perThread = msgsInAll != null ? (msgsInAll + threads - 1) / threads : msgs == null ? 10_000 : msgs;
        require(iterationTime != null || perThread >= 1, "--msgs must be at least 1");
        require(iterationTime == null || iterationTime.toNanos() >= 1_000_000, "--iteration-time must be at least 1ms");
        LoadRules.iterationCounts(warmup, iterations);
        long iterationNanos = iterationTime == null ? 0 : iterationTime.toNanos();
        LoadRules.runFitsCounters(threads, iterationTime == null ? perThread : 0, iterationNanos, warmup, iterations);
        LoadRules.closedLoopShapes(batch, requestsPerConnection, driver, measure);
        Driver effectiveDriver = driver != null ? driver
                : LoadRules.needsSenderThreads(batch, requestsPerConnection) || measure == Measure.SEND
                ? Driver.THREADS : Driver.IO;
        LoadRules.reconnectsOwnConnections(requestsPerConnection, threads, conns);
        long threadsPerConnection = ((long) threads + conns - 1) / conns;
        long effectiveWindow = window != null ? window : batch > 0 ? batch * threadsPerConnection : 1;
        LoadRules.windowAtLeastOne(effectiveWindow);
        if (window == null) {
            require(effectiveWindow <= LoadSpec.MAX_IN_FLIGHT, "--batch " + batch + " x " + threadsPerConnection
                    + " threads per connection is more than one connection tracks: use at most "
                    + LoadSpec.MAX_IN_FLIGHT + " messages in flight per connection");
        }
        LoadRules.windowTracked(effectiveWindow);
        LoadRules.emptyRequestsToTime(protocol, measure, size, responseSize);
        int response = responseSize != null ? responseSize : measure == Measure.SEND ? 0 : size;
        if (protocol.responseIsRequest()) {
            LoadRules.minSize(protocol, size);
            require(responseSize == null || responseSize == size, LoadRules.responseIsRequest(protocol));
            response = size;
        }
        return new LoadSpec(
                new LoadSpec.Shape(threads, conns, (int) effectiveWindow, effectiveDriver, batch, requestsPerConnection,
                        rate, maxInflight, connectRate, pacing),
                new LoadSpec.Message(protocol, size, response, measure, request),
                new LoadSpec.Timing(iterationTime == null ? perThread : 0, iterationNanos, warmup, iterations,
                        timeout.toNanos(), connectTimeout.toNanos(), connectRetry.toNanos(),
                        msgsInAll == null ? 0 : msgsInAll),
                new LoadSpec.Verification(verify, percentiles));
    }
}
