package io.nbench.testkit;

import io.nbench.load.BenchmarkRun;
import io.nbench.load.Driver;
import io.nbench.load.LoadSpec;
import io.nbench.load.LoadSpecBuilder;
import io.nbench.load.Measure;
import io.nbench.load.Pacing;
import io.nbench.load.RunFailure;
import io.nbench.load.RunListener;
import io.nbench.load.RunResult;
import io.nbench.load.Verify;
import io.nbench.protocol.Protocol;
import io.nbench.stats.Percentiles;
import io.nbench.transport.ClientSettings;
import io.nbench.transport.ClientTransport;
import io.nbench.transport.SocketSettings;
import io.nbench.transport.Transport;
import io.nbench.transport.TransportRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Map;

/** Small, bounded client runs through the real engine, for tests. */
public final class Runs {

    private Runs() {
    }

    /**
     * Runs a few messages through every network client transport against the shared server of
     * {@code protocol}, so that tests with a short {@code --timeout} do not time out on a cold transport's
     * first response (class loading and the first compilations take hundreds of ms on a loaded 2-core
     * machine).
     */
    public static void warmUpClients(Protocol protocol) {
        InetSocketAddress server = TestServers.get("nio", protocol).address();
        for (String client : Transports.network()) {
            // Both sizes (stamped and first-in first-out echo) and a window over 1: each is a path of its own.
            for (int size : new int[] {4, 16}) {
                workload().protocol(protocol).size(size).window(2).msgs(100).warmup(0).iterations(1).run(client, server);
            }
        }
    }

    /** A builder of small workloads with test-friendly defaults: 2 threads, 2 connections, 200 msgs, 1+2 iterations. */
    public static Workload workload() {
        return new Workload();
    }

    public static final class Workload {
        public int threads = 2;
        public int connections = 2;
        public long msgs = 200;
        public long iterationNanos = 0;
        public int warmup = 1;
        public int iterations = 2;
        public int size = 100;
        public int responseSize = -1;
        public int window = 1;
        public Measure measure = Measure.RTT;
        public Driver driver = Driver.IO;
        public Duration timeout = Duration.ofSeconds(10);
        public Verify verify = Verify.FULL;
        public Protocol protocol = Protocol.FRAMED;
        public Map<String, String> options = Map.of();
        public double rate = 0;
        public int maxInflight = 1000;
        public int batch = 0;
        public int requestsPerConnection = 0;
        public double connectRate = 0;
        public Pacing pacing = Pacing.SLEEP;

        public Workload threads(int n) { threads = n; return this; }
        public Workload connections(int n) { connections = n; return this; }
        public Workload msgs(long n) { msgs = n; return this; }
        public Workload iterationTime(Duration d) { iterationNanos = d.toNanos(); msgs = 0; return this; }
        public Workload warmup(int n) { warmup = n; return this; }
        public Workload iterations(int n) { iterations = n; return this; }
        public Workload size(int n) { size = n; return this; }
        public Workload responseSize(int n) { responseSize = n; return this; }
        public Workload window(int n) { window = n; return this; }
        public Workload measure(Measure m) { measure = m; return this; }
        public Workload driver(Driver d) { driver = d; return this; }
        public Workload timeout(Duration d) { timeout = d; return this; }
        public Workload verify(Verify v) { verify = v; return this; }
        public Workload protocol(Protocol p) { protocol = p; return this; }
        public Workload options(Map<String, String> o) { options = o; return this; }
        public Workload rate(double r) { rate = r; return this; }
        public Workload maxInflight(int n) { maxInflight = n; return this; }
        public Workload batch(int n) { batch = n; return this; }
        public Workload requestsPerConnection(int n) { requestsPerConnection = n; return this; }
        public Workload connectRate(double r) { connectRate = r; return this; }
        public Workload pacing(Pacing p) { pacing = p; return this; }

        public LoadSpec spec() {
            int response = protocol == Protocol.ECHO ? size
                    : responseSize >= 0 ? responseSize : (measure == Measure.SEND ? 0 : size);
            LoadSpecBuilder b = LoadSpec.builder().threads(threads).connections(connections).warmup(warmup)
                    .iterations(iterations).size(size).responseSize(response).window(window).measure(measure)
                    // The engine sends --measure send from sender threads whatever the driver asked for.
                    .driver(measure == Measure.SEND && driver == Driver.IO ? Driver.THREADS : driver)
                    .timeout(timeout).connectTimeout(Duration.ofSeconds(5)).verify(verify).protocol(protocol)
                    .percentiles(Percentiles.DEFAULT).rate(rate).maxInflight(maxInflight).batch(batch)
                    .requestsPerConnection(requestsPerConnection).connectRate(connectRate).pacing(pacing);
            return (iterationNanos > 0 ? b.iterationTime(Duration.ofNanos(iterationNanos)) : b.msgs(msgs)).build();
        }

        /** Runs this workload with client transport {@code client} against {@code server}. */
        public RunResult run(String client, InetSocketAddress server) {
            LoadSpec spec = spec();
            TransportRegistry registry = TransportRegistry.load();
            Transport t = registry.get(client);
            ClientSettings settings = new ClientSettings(protocol, new SocketSettings(2, true, 0, 0),
                    Duration.ofSeconds(5), measure == Measure.SEND, TestServers.MAX_FRAME,
                    registry.resolveOptions(t, options));
            try (ClientTransport ct = t.newClient(settings)) {
                return new BenchmarkRun(spec, RunListener.NONE).execute(ct, server);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (RunFailure e) {
                throw new AssertionError(e.getMessage(), e);
            }
        }

        /** Messages a complete run of this workload must count over its measured iterations. */
        public long expectedMessages() {
            return (long) threads * msgs * iterations;
        }
    }
}
