package io.nbench.server.monitor;

import io.nbench.monitor.MonitorProtocol;
import io.nbench.monitor.MonitorToken;
import io.nbench.server.ServerMetrics;
import io.nbench.server.metrics.MetricsJson;
import io.nbench.server.metrics.MetricsText;
import io.nbench.units.Durations;
import java.io.BufferedInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The server's monitor port: a line protocol ({@link MonitorProtocol}) usable with {@code nc}. Plain JDK
 * sockets on daemon threads of its own, never the benchmark's I/O threads: at most {@value #MAX_CONNECTIONS}
 * authenticated sessions and {@value #MAX_WAITING} connections waiting to authenticate ({@link WaitingRoom}), one
 * thread each, each closed after an idle time.
 *
 * <p>Authentication: the banner, then {@code auth TOKEN} must come first; any other command is answered
 * {@code ERR auth required} and the connection closed. A wrong token is answered only after
 * {@link #BAD_TOKEN_DELAY}, then the connection is closed: with the connection limit that bounds guessing
 * to a few tries per second. The token is compared in constant time and never written anywhere.
 *
 * <p>A connection must authenticate within {@link #AUTH_DEADLINE} of connecting, however it keeps itself
 * busy (empty lines, a line trickled a byte at a time), and it never takes a session's place while it waits:
 * four peers without the token reconnecting as soon as they were closed used to hold every slot and lock out
 * the operator and {@code --server-stats}. Each one closed for it is counted and logged at the server's rate
 * limit.
 */
public final class MonitorServer implements AutoCloseable {

    public static final int MAX_CONNECTIONS = MonitorProtocol.MAX_CONNECTIONS;
    public static final Duration BAD_TOKEN_DELAY = Duration.ofSeconds(1);
    public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofMinutes(10);
    public static final Duration AUTH_DEADLINE = MonitorProtocol.AUTH_DEADLINE;
    /**
     * Connections waiting to authenticate (one thread each, blocked in a read): many times the sessions, so that
     * peers without the token have to outnumber this, not merely reconnect, to keep a client with it out.
     */
    public static final int MAX_WAITING = 32;
    /** Of those, from one address: one host cannot fill the waiting room alone. */
    public static final int MAX_WAITING_PER_ADDRESS = 8;

    private final ServerSocket socket;
    private final MonitorToken token;
    private final ServerMetrics metrics;
    /** What {@code metrics json} says the server is; null: not said (a monitor of a test's own). */
    private final MetricsJson.Server server;
    private final int idleMillis;
    private final Duration authDeadline;
    private final AtomicLong unauthenticatedClosed = new AtomicLong();
    /** Authenticated sessions: {@link #MAX_CONNECTIONS} at most, one thread each. */
    private final Semaphore sessions = new Semaphore(MAX_CONNECTIONS);
    private final WaitingRoom waiting = new WaitingRoom(MAX_WAITING, MAX_WAITING_PER_ADDRESS);
    private final Thread acceptor;
    private volatile boolean closed;

    private MonitorServer(ServerSocket socket, MonitorToken token, ServerMetrics metrics, Duration idle,
                          Duration authDeadline, MetricsJson.Server server) {
        this.socket = socket;
        this.server = server;
        this.authDeadline = authDeadline;
        this.token = token;
        this.metrics = metrics;
        this.idleMillis = (int) Math.min(Integer.MAX_VALUE, idle.toMillis());
        this.acceptor = daemon(this::acceptLoop, "nbench-monitor-accept");
    }

    /** Binds (port 0: any free port) and starts accepting. */
    public static MonitorServer start(InetSocketAddress bind, MonitorToken token, ServerMetrics metrics, Duration idle)
            throws IOException {
        return start(bind, token, metrics, idle, AUTH_DEADLINE, null);
    }

    /** The monitor of {@code server}, which its {@code metrics json} names. */
    public static MonitorServer start(InetSocketAddress bind, MonitorToken token, ServerMetrics metrics, Duration idle,
                                      MetricsJson.Server server) throws IOException {
        return start(bind, token, metrics, idle, AUTH_DEADLINE, server);
    }

    /** With its own authentication deadline (tests). */
    public static MonitorServer start(InetSocketAddress bind, MonitorToken token, ServerMetrics metrics, Duration idle,
                               Duration authDeadline) throws IOException {
        return start(bind, token, metrics, idle, authDeadline, null);
    }

    private static MonitorServer start(InetSocketAddress bind, MonitorToken token, ServerMetrics metrics,
                                       Duration idle, Duration authDeadline, MetricsJson.Server server)
            throws IOException {
        ServerSocket s = new ServerSocket();
        try {
            s.setReuseAddress(true);
            s.bind(bind, MAX_CONNECTIONS);
        } catch (IOException e) {
            s.close();
            throw e;
        }
        MonitorServer m = new MonitorServer(s, token, metrics, idle, authDeadline, server);
        m.acceptor.start();
        return m;
    }

    public InetSocketAddress address() {
        return (InetSocketAddress) socket.getLocalSocketAddress();
    }

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }

    private void acceptLoop() {
        while (!closed) {
            Socket c;
            try {
                c = socket.accept();
            } catch (IOException e) {
                if (closed) {
                    return;
                }
                pause(); // e.g. out of descriptors: the benchmark's own ports matter more; try again shortly
                continue;
            }
            Socket displaced = waiting.enter(c);
            if (displaced != null) {
                metrics.trouble("monitor-displaced", "monitor: closed a connection from "
                        + displaced.getInetAddress().getHostAddress() + ":" + displaced.getPort() + " waiting to "
                        + "authenticate, for a newer one (" + MAX_WAITING + " may wait, " + MAX_WAITING_PER_ADDRESS
                        + " from one address; " + unauthenticatedClosed.incrementAndGet() + " closed unauthenticated "
                        + "so far); only clients with the token should reach --monitor-bind");
            }
            daemon(() -> {
                try (c) {
                    serve(c);
                } catch (IOException e) {
                    // the peer went away, timed out or was displaced: its connection is simply over
                } finally {
                    waiting.leave(c);
                }
            }, "nbench-monitor-" + c.getPort()).start();
        }
    }

    private static void pause() {
        try {
            Thread.sleep(100);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void serve(Socket c) throws IOException {
        c.setTcpNoDelay(true);
        UntilDeadline reads = new UntilDeadline(c, idleMillis, System.nanoTime() + authDeadline.toNanos());
        InputStream in = new BufferedInputStream(reads);
        OutputStream out = c.getOutputStream();
        write(out, MonitorProtocol.BANNER);
        if (!authenticated(c, reads, in, out) || !waiting.leave(c)) {
            return; // refused, timed out, gone, or displaced by a newer connection while it authenticated
        }
        if (!sessions.tryAcquire()) {
            write(out, MonitorProtocol.BUSY + " (" + MAX_CONNECTIONS + " sessions at most): close one first");
            return;
        }
        try {
            reads.authenticated();
            write(out, "OK");
            commands(in, out);
        } finally {
            sessions.release();
        }
    }

    /** Until {@code auth TOKEN} with the right token (true), or the connection is refused or over (false). */
    private boolean authenticated(Socket c, UntilDeadline reads, InputStream in, OutputStream out) throws IOException {
        while (true) {
            String line;
            try {
                line = MonitorProtocol.readLine(in, MonitorProtocol.MAX_LINE);
            } catch (MonitorProtocol.LineTooLong e) {
                write(out, "ERR " + e.getMessage());
                return false;
            } catch (SocketTimeoutException e) {
                if (reads.expired()) {
                    write(out, "ERR no 'auth TOKEN' within " + Durations.format(authDeadline) + ": connection closed");
                    metrics.trouble("monitor-auth", "monitor: closed a connection from "
                            + c.getInetAddress().getHostAddress() + ":" + c.getPort() + " that did not authenticate "
                            + "within " + Durations.format(authDeadline) + " (" + unauthenticatedClosed.incrementAndGet()
                            + " so far); only clients with the token should reach --monitor-bind");
                } else {
                    write(out, "ERR idle for " + Durations.format(Duration.ofMillis(idleMillis)) + ": connection closed");
                }
                return false;
            }
            if (line == null) {
                return false;
            }
            String[] words = line.strip().split("\\s+");
            if (words[0].isEmpty()) {
                continue;
            }
            if (!words[0].toLowerCase(Locale.ROOT).equals("auth")) {
                write(out, "ERR auth required: send 'auth TOKEN' first");
                return false;
            }
            if (words.length == 2 && token.matches(words[1])) {
                return true;
            }
            try {
                Thread.sleep(BAD_TOKEN_DELAY.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            write(out, "ERR bad token: connection closed");
            return false;
        }
    }

    /** An authenticated session's commands, until quit, the peer's close or its idle time. */
    private void commands(InputStream in, OutputStream out) throws IOException {
        while (true) {
            String line;
            try {
                line = MonitorProtocol.readLine(in, MonitorProtocol.MAX_LINE);
            } catch (MonitorProtocol.LineTooLong e) {
                write(out, "ERR " + e.getMessage());
                return;
            } catch (SocketTimeoutException e) {
                write(out, "ERR idle for " + Durations.format(Duration.ofMillis(idleMillis)) + ": connection closed");
                return;
            }
            if (line == null) {
                return;
            }
            String[] words = line.strip().split("\\s+");
            if (words[0].isEmpty()) {
                continue;
            }
            String command = words[0].toLowerCase(Locale.ROOT);
            String rest = line.strip().substring(words[0].length()).strip().toLowerCase(Locale.ROOT);
            switch (command + (rest.isEmpty() ? "" : " " + rest)) {
                case "metrics" -> write(out, MetricsText.report(metrics.snapshot(), true,
                        metrics.measurements().resetEpochMillis()) + "\n" + MonitorProtocol.END);
                case "metrics json" -> write(out, MetricsJson.line(metrics.snapshot(),
                        metrics.measurements().resetEpochMillis(), server));
                case "reset" -> {
                    metrics.reset();
                    write(out, "OK reset: the figures since reset start now (the cumulative ones go on)");
                }
                case "help" -> write(out, String.join("\n",
                        "metrics       the report since the last reset: processing time, sizes, rates, CPU, GC",
                        "metrics json  every figure as one line of JSON, cumulative since start and since reset",
                        "reset         start the figures since reset again (the cumulative ones go on)",
                        "help          this list",
                        "quit          close the connection",
                        MonitorProtocol.END));
                case "quit" -> {
                    write(out, "BYE");
                    return;
                }
                default -> {
                    if (command.equals("auth")) {
                        write(out, "ERR already authenticated");
                    } else {
                        write(out, "ERR unknown command '" + line.strip() + "': try help");
                    }
                }
            }
        }
    }

    /**
     * The socket's input, whose reads wait at most until the authentication deadline (and the idle time)
     * until {@link #authenticated}, then the idle time only. The timeout is set again before each read, so a
     * peer that trickles bytes cannot push the deadline back as it pushes back an idle timeout.
     */
    private static final class UntilDeadline extends FilterInputStream {
        private final Socket socket;
        private final int idleMillis;
        private final long deadlineNanos;
        private boolean authenticated;

        UntilDeadline(Socket socket, int idleMillis, long deadlineNanos) throws IOException {
            super(socket.getInputStream());
            this.socket = socket;
            this.idleMillis = idleMillis;
            this.deadlineNanos = deadlineNanos;
        }

        @Override
        public int read() throws IOException {
            arm();
            return super.read();
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            arm();
            return super.read(b, off, len);
        }

        private void arm() throws IOException {
            if (authenticated) {
                return;
            }
            long leftMillis = (deadlineNanos - System.nanoTime() + 999_999) / 1_000_000; // rounded up: never early
            if (leftMillis <= 0) {
                throw new SocketTimeoutException("authentication deadline");
            }
            socket.setSoTimeout((int) Math.min(idleMillis, leftMillis));
        }

        boolean expired() {
            return System.nanoTime() - deadlineNanos >= 0;
        }

        void authenticated() throws IOException {
            authenticated = true;
            socket.setSoTimeout(idleMillis);
        }
    }

    private static void write(OutputStream out, String text) throws IOException {
        out.write((text + "\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    @Override
    public void close() {
        closed = true;
        try {
            socket.close();
        } catch (IOException e) {
            // closing: nothing more to do
        }
    }
}
