package io.nbench.cli;

import io.nbench.client.ExitCode;
import io.nbench.monitor.MonitorToken;
import io.nbench.process.ChildServer;
import io.nbench.protocol.Protocol;
import io.nbench.server.BenchServer;
import io.nbench.server.ServerPlan;
import io.nbench.transport.IoThreads;
import io.nbench.transport.SocketSettings;
import io.nbench.transport.Transport;
import io.nbench.transport.TransportRegistry;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One of {@code nbench run}'s servers, started before the first client and kept running until the last round
 * has measured it: a server restarted per round would start cold each time (its JIT, its pools), and the
 * server measured after a restart would pay for it. A child JVM ({@link ChildServer}, with a monitor of its
 * own when {@code monitorToken} is given) or, with {@code --in-process}, a server in this JVM.
 */
final class RunServer implements AutoCloseable {

    private final Transport transport;
    private final ChildServer child;
    private final BenchServer inJvm;
    /** The child's monitor token, or null (no monitor, or in this JVM). */
    private final MonitorToken token;

    private RunServer(Transport transport, ChildServer child, BenchServer inJvm, MonitorToken token) {
        this.transport = transport;
        this.child = child;
        this.inJvm = inJvm;
        this.token = token;
    }

    /**
     * Starts {@code nbench server} of {@code transport} in a child JVM on 127.0.0.1, port 0, with a monitor of its
     * own when {@code serverStats} (a fresh token in its environment, never on its command line), answering with
     * bodies of {@code responseSize} bytes where the protocol lets the server decide (HTTP's --response-size);
     * if run is killed, the server ends and removes {@code scratch}, where its token file is.
     */
    static RunServer child(Transport transport, Protocol protocol, int responseSize, int ioThreads,
                           Map<String, String> options, List<String> tls, boolean serverStats, Path scratch)
            throws IOException {
        List<String> serverArgs = new ArrayList<>(List.of("--impl", transport.name(), "--port", "0",
                "--protocol", protocol.label(), "--io-threads",
                Integer.toString(IoThreads.sharingTheMachine(ioThreads))));
        serverArgs.addAll(tls);
        if (protocol.serverSetsResponseSize()) {
            serverArgs.addAll(List.of("--response-size", Integer.toString(responseSize)));
        }
        options.forEach((k, v) -> serverArgs.addAll(List.of("-O", k + "=" + v)));
        Map<String, String> environment = new LinkedHashMap<>();
        MonitorToken token = null;
        if (serverStats) {
            token = MonitorToken.generate();
            environment.put(MonitorToken.ENV, token.reveal());
            serverArgs.addAll(List.of("--monitor-port", "0", "--monitor-bind", "127.0.0.1"));
        }
        ChildServer child = ChildServer.start(serverArgs, environment, scratch);
        if (token != null && child.monitorPort() == 0) {
            child.close();
            throw new IOException("it did not report its monitor's port");
        }
        return new RunServer(transport, child, null, token);
    }

    /**
     * Starts an in-JVM server of {@code transport} in this JVM, on an address its own client reaches, as
     * {@code nbench server} starts one ({@link BenchServer}); its report is not shown, run compares clients.
     */
    static RunServer inThisJvm(Transport transport, Protocol protocol, int responseSize, int ioThreads,
                               Map<String, String> options, PrintWriter err) throws IOException {
        ServerPlan plan = ServerPlan.builder()
                .transport(transport, TransportRegistry.load().resolveOptions(transport, options)).protocol(protocol)
                .responseSize(protocol.serverSetsResponseSize() ? responseSize : 0)
                .socket(new SocketSettings(IoThreads.sharingTheMachine(ioThreads), true, 0, 0)).build();
        return new RunServer(transport, null, BenchServer.start(plan, new PrintWriter(Writer.nullWriter()), err), null);
    }

    /**
     * Every server started before any client runs, in {@code --servers} order, each kept running until its
     * last round; a server that cannot start is named (exit 1) and left out. Stops at {@code stopRequested}.
     *
     * @param inProcess    each server in this JVM (else a child JVM, with a monitor when {@code serverStats})
     * @param responseSize the body of each response where the protocol lets the server decide (HTTP)
     * @param options      the {@code -O} options given: each server takes those of its own transport
     * @param scratch      run's scratch directory (its servers' token files): a child server removes it if run
     *                     is killed
     */
    static int startAll(List<Transport> chosen, boolean inProcess, Protocol protocol, int responseSize, int ioThreads,
                        Map<String, String> options, List<String> tls, boolean serverStats, List<RunServer> running,
                        AtomicBoolean stopRequested, boolean verbose, Path scratch, PrintWriter out, PrintWriter err) {
        int worst = ExitCode.OK;
        for (Transport server : chosen) {
            if (stopRequested.get()) {
                return ExitCode.first(worst, ExitCode.INTERRUPTED);
            }
            // A child's banner names it ("nbench server: nio listening on ..."), one line each from the output's
            // first; an in-JVM server prints none.
            if (verbose || inProcess) {
                out.println();
                out.println("=== server " + server.name() + (inProcess ? " (in this JVM)" : " (child JVM)") + " ===");
            }
            Map<String, String> own = optionsOf(server, options);
            try {
                RunServer s = inProcess ? inThisJvm(server, protocol, responseSize, ioThreads, own, err)
                        : child(server, protocol, responseSize, ioThreads, own, tls, serverStats, scratch);
                running.add(s);
                if (s.banner() != null) {
                    out.println(s.banner());
                }
            } catch (IOException | RuntimeException e) {
                if (stopRequested.get()) {
                    return ExitCode.first(worst, ExitCode.INTERRUPTED); // SIGINT while the server started
                }
                err.println("nbench run: server " + server.name() + " could not start: " + e.getMessage());
                worst = ExitCode.first(worst, ExitCode.COULD_NOT_RUN);
            }
            out.flush();
        }
        return worst;
    }

    /** The -O options that belong to this server transport; a comma list sweeps the client only. */
    private static Map<String, String> optionsOf(Transport server, Map<String, String> options) {
        Map<String, String> own = new LinkedHashMap<>();
        options.forEach((key, value) -> {
            if (key.startsWith(server.name() + ".") && !value.isEmpty() && !value.contains(",")) {
                own.put(key, value);
            }
        });
        return own;
    }

    Transport transport() {
        return transport;
    }

    int port() {
        return child != null ? child.port() : inJvm.address().getPort();
    }

    /** The child's first line (what runs where), or null in this JVM. */
    String banner() {
        return child != null ? child.banner() : null;
    }

    /** The child's monitor token, or null when it has no monitor. */
    MonitorToken monitorToken() {
        return token;
    }

    int monitorPort() {
        return child != null ? child.monitorPort() : 0;
    }

    /** Stops the server as a user would; what a child printed as it stopped (its metrics), else empty. */
    String stop() {
        if (child != null) {
            return child.stop();
        }
        close();
        return "";
    }

    /** Stops every server, printing what each printed as it stopped (its metrics). */
    static void stopAll(List<RunServer> running, PrintWriter out) {
        stopAll(running, out, true);
    }

    /**
     * Stops every server, printing what each printed as it stopped: all of it when {@code verbose}, else one line
     * named by the server: its metrics' first line (requests, bytes, errors) and its transport's settings.
     */
    static void stopAll(List<RunServer> running, PrintWriter out, boolean verbose) {
        boolean first = true;
        for (RunServer s : running) {
            String metrics = s.stop();
            if (!verbose) {
                String line = metrics.lines().filter(l -> l.startsWith("server metrics after")).findFirst()
                        .orElse(null);
                if (line == null) {
                    continue;
                }
                if (first) {
                    out.println();
                    first = false;
                }
                // Its settings on the same line: what -O gave it is seen to have reached it.
                String settings = metrics.lines().filter(l -> l.startsWith("  transport: ")).findFirst()
                        .map(l -> " | " + l.strip()).orElse("");
                out.println(s.transport().name() + ": " + line + settings);
            } else if (!metrics.isEmpty()) {
                out.println();
                out.println("=== server " + s.transport().name() + " stopped ===");
                out.println(metrics);
            }
        }
        out.flush();
    }

    /** Closed by {@link #stop} and again by run's {@code finally}: an in-JVM server is closed once. */
    private boolean closed;

    @Override
    public void close() {
        if (child != null) {
            child.close();
        } else if (!closed) {
            closed = true;
            inJvm.close();
        }
    }
}
