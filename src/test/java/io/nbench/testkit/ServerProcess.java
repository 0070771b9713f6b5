package io.nbench.testkit;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code nbench server ARGS} as a user runs it, in a child JVM: its stdout lines can be awaited one by
 * one, its ports are read from its first line. {@link #close} stops it with SIGTERM (then kills it if it
 * does not end) so that no test leaves it behind.
 */
public final class ServerProcess implements AutoCloseable {

    private static final Pattern LISTENING = Pattern.compile("listening on [^ ]+:(\\d+)");
    private static final Pattern MONITOR = Pattern.compile("monitor on [^ ]+:(\\d+)");

    private final Process process;
    private final LinkedBlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final List<String> seen = new ArrayList<>();
    private final StringBuilder err = new StringBuilder();
    public final String firstLine;
    public final int port;
    public final int monitorPort;

    private ServerProcess(Process process) throws IOException, InterruptedException {
        this.process = process;
        pump(new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8)), true);
        pump(new BufferedReader(new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8)), false);
        String first = lines.poll(60, TimeUnit.SECONDS);
        if (first == null || !first.startsWith("nbench server:")) {
            close();
            throw new AssertionError("the server did not start: " + first + " " + stderr());
        }
        seen.add(first);
        firstLine = first;
        Matcher m = LISTENING.matcher(first);
        port = m.find() ? Integer.parseInt(m.group(1)) : -1;
        Matcher mm = MONITOR.matcher(first);
        monitorPort = mm.find() ? Integer.parseInt(mm.group(1)) : -1;
    }

    /**
     * A nio server on a free port with its monitor on another, the monitor's token given as a user gives it
     * (the environment), plus {@code more} arguments.
     */
    public static ServerProcess withMonitor(String token, String... more) throws IOException, InterruptedException {
        List<String> args = new ArrayList<>(List.of("--impl", "nio", "--port", "0", "--monitor-port", "0"));
        args.addAll(List.of(more));
        return start(Map.of("NBENCH_MONITOR_TOKEN", token), args.toArray(new String[0]));
    }

    /** Starts {@code nbench server args} with these extra environment variables (null values remove one). */
    public static ServerProcess start(Map<String, String> env, String... args) throws IOException, InterruptedException {
        return start(List.of(), env, args);
    }

    /**
     * Starts {@code nbench server args} with {@code extraClassPath} on its class path too (say, a test's
     * transport and its registry line, so that {@code --impl} finds it as it finds a jar's).
     */
    public static ServerProcess start(List<Path> extraClassPath, Map<String, String> env, String... args)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(NbenchProcess.command(List.of(), "io.nbench.cli.Main", extraClassPath));
        command.add("server");
        command.addAll(List.of(args));
        ProcessBuilder b = new ProcessBuilder(command);
        b.environment().remove("NBENCH_MONITOR_TOKEN"); // only what the test gives
        env.forEach((k, v) -> {
            if (v == null) {
                b.environment().remove(k);
            } else {
                b.environment().put(k, v);
            }
        });
        Process p = b.start();
        // Its stdin at EOF from the start, as nohup, a service manager or < /dev/null leave it: a server started by
        // hand runs on (only a child of run or --forks takes EOF for its parent's end: EndWithParent), which every
        // test of a server by hand shows (ServerSigtermTest: exit 0 on SIGTERM, stderr empty).
        p.getOutputStream().close();
        return new ServerProcess(p);
    }

    private void pump(BufferedReader reader, boolean out) {
        Thread t = new Thread(() -> {
            try {
                for (String line; (line = reader.readLine()) != null; ) {
                    if (out) {
                        lines.add(line);
                    } else {
                        synchronized (err) {
                            err.append(line).append('\n');
                        }
                    }
                }
            } catch (IOException e) {
                // the process ended
            }
        }, "server-process-" + (out ? "out" : "err"));
        t.setDaemon(true);
        t.start();
    }

    /** Waits (at most 60 s) for the next stdout line that matches, and returns it. */
    public String awaitLine(Predicate<String> matching) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            String line = lines.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
            if (line == null) {
                break;
            }
            seen.add(line);
            if (matching.test(line)) {
                return line;
            }
        }
        throw new AssertionError("no such line from the server; it printed " + seen + " and on stderr " + stderr());
    }

    /** Every stdout line so far (those not yet awaited included). */
    public List<String> lines() {
        List<String> all = new ArrayList<>(seen);
        all.addAll(lines);
        return all;
    }

    public String stderr() {
        synchronized (err) {
            return err.toString();
        }
    }

    public long pid() {
        return process.pid();
    }

    /** Waits for the process to end (at most 60 s) and returns its exit code. */
    public int waitFor() throws InterruptedException {
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            throw new AssertionError("the server did not end");
        }
        return process.exitValue();
    }

    /**
     * SIGTERM, as a user's Ctrl-C or kill, and its exit code once it has ended: its report stays readable with
     * {@link #awaitLine} ({@link #close} closes its output, as {@link Process#destroy} does).
     */
    public int terminate() throws InterruptedException {
        process.toHandle().destroy();
        return waitFor();
    }

    /** SIGTERM, then SIGKILL if it has not ended within 10 s. */
    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
