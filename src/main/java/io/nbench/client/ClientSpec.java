package io.nbench.client;

import io.nbench.client.output.OutputSettings;
import io.nbench.load.Driver;
import io.nbench.load.Measure;
import io.nbench.load.Pacing;
import io.nbench.load.Verify;
import io.nbench.protocol.Protocol;
import io.nbench.protocol.SuccessStatuses;
import io.nbench.report.MeasuredServer;
import io.nbench.report.threshold.Threshold;
import io.nbench.transport.SocketSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Everything one client run is told, typed: every setting of {@code nbench client}, as the user gave it
 * (defaults included), and the command line the result document records. Checked and resolved, it becomes
 * the {@link ClientPlan} a client runs (the command line builds that from the same values). {@code nbench run}
 * and {@code --forks} describe each client they start by one of these, adjusted by the typed {@code with...}
 * methods below; a fork receives it as JSON. The groups follow the command's option groups; a null value is
 * a setting left to its default where the default depends on others (connections, window, driver...).
 *
 * @param arguments    the command line the user gave, which the result document records
 * @param allowInJvm   a transport whose server runs in this JVM may be used ({@code nbench run --in-process})
 * @param runOwnsFiles the caller keeps the result files and names them itself ({@code nbench run})
 * @param server       the server {@code nbench run} started for this client, which its results name; null: a
 *                     client the user started, which learns it from the server's monitor or not at all
 */
public record ClientSpec(List<String> arguments, Transports transport, Load load, Http http, Tls tls,
                         Output output, Monitor serverStats, Capacity capacity, Instant startAt,
                         boolean allowInJvm, boolean runOwnsFiles, Server server) {

    /** A server's transport (its name) and protocol, as the one who started it or its monitor says. */
    public record Server(String transport, Protocol protocol) {

        /** From the server's words (its monitor's); null when it names no transport, or a protocol unknown here. */
        public static Server named(String transport, String protocol) {
            if (transport == null) {
                return null;
            }
            Protocol p = null;
            try {
                p = protocol == null ? null : Protocol.parse(protocol);
            } catch (RuntimeException e) {
                // a protocol this version does not know: the transport is still the server's
            }
            return new Server(transport, p);
        }

        /**
         * What the results say of the server at {@code address}: run's word first (it started the server), then
         * its monitor's, else its address alone with the protocol the client spoke to it and no transport (the
         * client's own says nothing of the server's).
         */
        public static MeasuredServer measured(Server fromRun, ServerStats monitor, ClientPlan plan) {
            return measured(fromRun, monitor == null ? null : monitor.server(), plan.target(), plan.protocol());
        }

        /** As above, from the server's words: run's, its monitor's (each null when not known). */
        static MeasuredServer measured(Server fromRun, Server fromMonitor, String address, Protocol spoken) {
            Server known = fromRun != null ? fromRun : fromMonitor;
            if (known == null) {
                return new MeasuredServer(null, spoken == null ? null : spoken.label(), address,
                        MeasuredServer.Source.TARGET);
            }
            Protocol p = known.protocol() != null ? known.protocol() : spoken;
            return new MeasuredServer(known.transport(), p == null ? null : p.label(), address,
                    fromRun != null ? MeasuredServer.Source.RUN : MeasuredServer.Source.MONITOR);
        }
    }

    /** The client transports (a sweep), the server's port, the protocol, the sockets and the {@code -O} values. */
    public record Transports(List<String> impls, int port, Protocol protocol, SocketSettings socket,
                             Map<String, String> options) {
        public Transports {
            impls = List.copyOf(impls);
            options = Collections.unmodifiableMap(new LinkedHashMap<>(options)); // in order given
        }
    }

    /**
     * The workload: the server's host, the swept sizes, threads, windows (null: the default) and rates (null: a
     * closed loop), the timing and what every combination shares. {@code requests} ({@code -n}), {@code duration}
     * ({@code -d}) and {@code connectRetry}: null when not given.
     */
    public record Load(String host, List<Integer> threads, Integer connections, Long msgs, Duration iterationTime,
                       int warmup, int iterations, int forks, List<Integer> sizes, Integer responseSize,
                       List<Integer> windows, int batch, int requestsPerConnection, Double connectRate,
                       List<Double> rates, int maxInflight, Pacing pacer, Measure measure, Driver driver,
                       Duration timeout, Duration connectTimeout, Verify verify, Long requests, Duration duration,
                       Duration connectRetry) {

        Load timing(Duration time, int warmups, int measured, int forkCount) {
            return new Load(host, threads, connections, msgs, time, warmups, measured, forkCount, sizes, responseSize,
                    windows, batch, requestsPerConnection, connectRate, rates, maxInflight, pacer, measure, driver,
                    timeout, connectTimeout, verify, requests, duration, connectRetry);
        }
    }

    /**
     * HTTP's request: the URL (null: not HTTP), the method and the extra header lines ({@code Name: value}),
     * which response statuses are a success ({@code --success-status}), and the body as given: {@code --body}'s
     * string or {@code --body-file}'s path (each client reads the file itself), and {@code --content-type} (null:
     * not given).
     */
    public record Http(String url, String method, List<String> headers,
                       SuccessStatuses successStatus, String body, Path bodyFile,
                       String contentType) {

        /** The same request sent to {@code url}. */
        Http at(String url) {
            return new Http(url, method, headers, successStatus, body, bodyFile, contentType);
        }
    }

    /**
     * {@code --tls} and its protocols and ciphers (null: the defaults), whom the client trusts, and
     * {@code --tls-resumption} as given ({@code on}, {@code off}; null: not given, on).
     */
    public record Tls(boolean on, List<String> protocols, List<String> ciphers, Path ca, boolean insecure,
                      String resumption) {
    }

    /** What the client prints and writes, the percentiles it reports and how it judges each combination. */
    public record Output(OutputSettings files, List<Double> percentiles, MaxErrors maxErrors,
                         List<Threshold> thresholds) {
        public Output {
            percentiles = List.copyOf(percentiles);
            thresholds = List.copyOf(thresholds);
        }
    }

    /** {@code --server-stats}: the server's monitor (a null host: the client's {@code --host}). */
    public record Monitor(boolean enabled, String host, Integer port, Path tokenFile) {
    }

    /**
     * {@code --find-rate} and its objectives; {@code resolutionPercent}, {@code maxTime} and {@code confirm}
     * ({@code --confirm D}) null: their defaults. {@code rateSweep}: {@code --rate-sweep}'s rates, null without one.
     */
    public record Capacity(boolean findRate, List<Threshold> slos, Double resolutionPercent, Duration maxTime,
                           Duration confirm, RateSweep rateSweep) {
        public Capacity {
            slos = List.copyOf(slos);
        }

        /** No rate sweep. */
        public Capacity(boolean findRate, List<Threshold> slos, Double resolutionPercent, Duration maxTime,
                        Duration confirm) {
            this(findRate, slos, resolutionPercent, maxTime, confirm, null);
        }

        /** The same, with {@code --rate-sweep}'s rates (null: none). */
        public Capacity withRateSweep(RateSweep sweep) {
            return new Capacity(findRate, slos, resolutionPercent, maxTime, confirm, sweep);
        }
    }

    public ClientSpec {
        arguments = List.copyOf(arguments);
    }

    /**
     * The server's port on this machine; an HTTP client is pointed at it by URL, any path, as nbench's server
     * answers every path alike.
     */
    public ClientSpec withPort(int port) {
        Http h = transport.protocol() == Protocol.HTTP ? http.at("http://127.0.0.1:" + port + "/") : http;
        return new ClientSpec(arguments, new Transports(transport.impls(), port, transport.protocol(),
                transport.socket(), transport.options()), load, h, tls, output, serverStats, capacity, startAt,
                allowInJvm, runOwnsFiles, server);
    }

    /** The {@code -O} values, all of them (a caller leaves out those of transports this client does not use). */
    public ClientSpec withTransportOptions(Map<String, String> options) {
        return new ClientSpec(arguments, new Transports(transport.impls(), transport.port(), transport.protocol(),
                transport.socket(), options), load, http, tls, output, serverStats, capacity, startAt, allowInJvm,
                runOwnsFiles, server);
    }

    /** The client is the in-JVM transport {@code impl}, whose server runs in this JVM. */
    public ClientSpec inJvm(String impl) {
        return new ClientSpec(arguments, new Transports(List.of(impl), transport.port(), transport.protocol(),
                transport.socket(), transport.options()), load, http, tls, output, serverStats, capacity, startAt,
                true, runOwnsFiles, server);
    }

    /**
     * The result document, interval log and percentile files (null: none).
     *
     * @param ownedByCaller the caller keeps the files and names them itself, not the client
     */
    public ClientSpec withResultFiles(Path out, Path hdrLog, String hgrm, boolean ownedByCaller) {
        OutputSettings f = output.files();
        OutputSettings files = new OutputSettings(f.format(), f.quiet(), f.noHeader(), out, hdrLog, hgrm,
                f.hostLabel(), f.progress());
        return new ClientSpec(arguments, transport, load, http, tls, new Output(files, output.percentiles(),
                output.maxErrors(), output.thresholds()), serverStats, capacity, startAt, allowInJvm, ownedByCaller, server);
    }

    /** Time-based iterations of this length (null: iterations count messages). */
    public ClientSpec withIterationTime(Duration time) {
        return withLoad(load.timing(time, load.warmup(), load.iterations(), load.forks()));
    }

    public ClientSpec withIterations(int warmup, int iterations) {
        return withLoad(load.timing(load.iterationTime(), warmup, iterations, load.forks()));
    }

    /** The whole client run this many times, each in a fresh JVM. */
    public ClientSpec withForks(int forks) {
        return withLoad(load.timing(load.iterationTime(), load.warmup(), load.iterations(), forks));
    }

    private ClientSpec withLoad(Load l) {
        return new ClientSpec(arguments, transport, l, http, tls, output, serverStats, capacity, startAt,
                allowInJvm, runOwnsFiles, server);
    }

    /** No thresholds: a run that is not judged (a warmup). */
    public ClientSpec withoutThresholds() {
        return new ClientSpec(arguments, transport, load, http, tls, new Output(output.files(),
                output.percentiles(), output.maxErrors(), List.of()), serverStats, capacity, startAt, allowInJvm,
                runOwnsFiles, server);
    }

    /** A closed-loop run of the workload, no capacity search nor rate sweep: a warmup before them. */
    public ClientSpec withoutCapacitySearch() {
        return new ClientSpec(arguments, transport, load, http, tls, output, serverStats,
                new Capacity(false, List.of(), null, null, null, null), startAt, allowInJvm, runOwnsFiles, server);
    }

    /**
     * TLS that accepts any certificate: for servers that make self-signed ones in memory, which nothing else
     * could vouch for ({@code nbench run --tls}).
     */
    public ClientSpec trustingAnyCertificate() {
        return new ClientSpec(arguments, transport, load, http, new Tls(tls.on(), tls.protocols(), tls.ciphers(),
                tls.ca(), true, tls.resumption()), output, serverStats, capacity, startAt, allowInJvm, runOwnsFiles, server);
    }

    /** The server's figures read from its monitor at {@code host:port}, its token in {@code tokenFile}. */
    public ClientSpec withServerStats(String host, int port, Path tokenFile) {
        return new ClientSpec(arguments, transport, load, http, tls, output, new Monitor(true, host, port,
                tokenFile), capacity, startAt, allowInJvm, runOwnsFiles, server);
    }

    /** The server {@code nbench run} started for this client, which its results name. */
    public ClientSpec withServer(String transport, Protocol protocol) {
        return new ClientSpec(arguments, this.transport, load, http, tls, output, serverStats, capacity, startAt,
                allowInJvm, runOwnsFiles, new Server(transport, protocol));
    }

    /** The instant the first measured iteration starts (null: at once). */
    public ClientSpec withStartAt(Instant at) {
        return new ClientSpec(arguments, transport, load, http, tls, output, serverStats, capacity, at,
                allowInJvm, runOwnsFiles, server);
    }
}
