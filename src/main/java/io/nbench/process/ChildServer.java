package io.nbench.process;

import io.nbench.server.ReadyLine;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * An {@code nbench server} in a child JVM, as {@code nbench run} uses it: started with the same Java and
 * class path as this JVM on port 0 with {@code --ready-line}, its address read from that machine-readable
 * first line (then its human banner, which {@code run} shows), stopped with SIGTERM (its metrics are the
 * rest of its output). A shutdown hook stops it if this JVM ends first (SIGTERM, then
 * SIGKILL), and if this JVM is killed (no hook runs) the server ends by itself ({@link EndWithParent}), so no
 * server is ever left behind.
 */
public final class ChildServer implements AutoCloseable {

    private final Process process;
    private final String banner;
    private final int port;
    /** 0 when the server has no monitor. */
    private final int monitorPort;
    private final List<String> rest = new ArrayList<>();
    private final Thread drain;
    private final Thread killer;

    private ChildServer(Process process, Thread killer, BufferedReader stdout, String banner, int port,
                        int monitorPort) {
        this.monitorPort = monitorPort;
        this.process = process;
        this.killer = killer;
        this.banner = banner;
        this.port = port;
        this.drain = new Thread(() -> {
            try {
                String line;
                while ((line = stdout.readLine()) != null) {
                    synchronized (rest) {
                        rest.add(line);
                    }
                }
            } catch (IOException e) {
                // the child is gone
            }
        }, "nbench-child-server-output");
        drain.setDaemon(true);
        drain.start();
    }

    /** Starts {@code nbench server ARGS --ready-line} and waits (at most 30 s) until it listens. */
    /** How long a started child may stay silent before it is taken for hung. */
    private static final Duration START_TIMEOUT = Duration.ofSeconds(120);

    public static ChildServer start(List<String> serverArgs) throws IOException {
        return start(serverArgs, Map.of(), null);
    }

    /** As {@link #start(List, java.util.Map, java.nio.file.Path)} with no directory to remove. */
    public static ChildServer start(List<String> serverArgs, Map<String, String> environment)
            throws IOException {
        return start(serverArgs, environment, null);
    }

    /**
     * As {@link #start(List)}, with {@code environment} added to the child's (e.g. a monitor token, which
     * must not be on its command line, where ps shows it), and {@code scratch} (null: none) the directory
     * of this JVM the server removes if this JVM is killed (where {@code run} keeps the server's monitor token).
     */
    public static ChildServer start(List<String> serverArgs, Map<String, String> environment,
                                    Path scratch) throws IOException {
        List<String> args = new ArrayList<>(List.of("server"));
        args.addAll(serverArgs);
        args.add("--ready-line");
        ProcessBuilder builder = ChildJvm.builder(false, args, scratch).redirectError(ProcessBuilder.Redirect.INHERIT);
        builder.environment().putAll(environment);
        Process p = builder.start();
        // From its first instant: on SIGINT nbench run stops the server itself once its client has printed and
        // written its partial results (a server stopped at once would turn a client still connecting into
        // "connection refused"), and prints its metrics; the hook steps in only if that has not happened in 20 s.
        Thread killer = ChildProcesses.stopWhenThisJvmEnds(p, Duration.ofSeconds(20), Duration.ofSeconds(10),
                "nbench-child-server-stop");
        if (killer == null) {
            throw new IOException("interrupted");
        }
        BufferedReader stdout = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        // The ready line and the banner are printed and flushed together: one wait covers both.
        CompletableFuture<String[]> first = CompletableFuture.supplyAsync(() -> {
            try {
                String ready = stdout.readLine();
                return new String[] {ready, ReadyLine.parse(ready).isPresent() ? stdout.readLine() : null};
            } catch (IOException e) {
                return new String[] {null, null};
            }
        });
        String[] lines;
        try {
            // A child that dies says so at once (end of its output); this bounds only one alive and silent. A JVM
            // starting netty with a TLS certificate took over 30 s on a 2-core CI machine at load 16, so the bound
            // is far above any start seen rather than near one.
            lines = first.get(START_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        } catch (InterruptedException | ExecutionException | TimeoutException e) {
            p.destroyForcibly();
            ChildProcesses.forget(killer);
            throw new IOException("the server did not report its port within " + START_TIMEOUT.toSeconds()
                    + " s (still starting: is the machine overloaded?)");
        }
        Optional<InetSocketAddress> bound = ReadyLine.parse(lines[0]);
        if (bound.isEmpty() || lines[1] == null) {
            p.destroyForcibly();
            ChildProcesses.forget(killer);
            throw new IOException("the server did not start (exit code " + exitCode(p) + ")");
        }
        return new ChildServer(p, killer, stdout, lines[1], bound.get().getPort(),
                ReadyLine.monitorPort(lines[0]).orElse(0));
    }

    private static String exitCode(Process p) {
        try {
            return p.waitFor(5, TimeUnit.SECONDS) ? Integer.toString(p.exitValue()) : "none yet";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "unknown";
        }
    }

    public int port() {
        return port;
    }

    /** The port of the server's monitor ({@code --monitor-port}), or 0 when it has none. */
    public int monitorPort() {
        return monitorPort;
    }

    /** The server's first line: what it runs and where. */
    public String banner() {
        return banner;
    }

    /** Stops the server as a user would (SIGTERM) and returns what it printed after its banner. */
    public String stop() {
        // Process.destroy() would also close our end of its output, losing the metrics it prints as it
        // stops; the handle only sends SIGTERM.
        process.toHandle().destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
            drain.join(2_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        synchronized (rest) {
            return String.join(System.lineSeparator(), rest);
        }
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroyForcibly();
            try {
                process.waitFor(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        ChildProcesses.forget(killer);
    }
}
