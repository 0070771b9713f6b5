package io.nbench.client.monitor;

import io.nbench.monitor.MonitorProtocol;
import io.nbench.monitor.MonitorToken;
import io.nbench.units.Durations;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** A connection to a server's monitor, authenticated: what {@code nbench console} and {@code --server-stats} use. */
public final class MonitorClient implements AutoCloseable {

    /** Answers are never longer than a metrics report; a reply this long is not a monitor's. */
    private static final int MAX_ANSWER_LINE = 1 << 20;

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private final String where;

    /** The monitor could not be reached, or refused the token; the message names the cause and the fix. */
    public static final class Failure extends IOException {
        public Failure(String message) {
            super(message);
        }
    }

    private MonitorClient(Socket socket, String where) throws IOException {
        this.socket = socket;
        this.where = where;
        this.in = new BufferedInputStream(socket.getInputStream());
        this.out = socket.getOutputStream();
    }

    /** Connects, reads the banner and authenticates; {@code timeout} bounds the connect and each answer. */
    public static MonitorClient connect(String host, int port, MonitorToken token, Duration timeout) throws Failure {
        String where = host + ":" + port;
        Socket s = new Socket();
        try {
            s.connect(new InetSocketAddress(host, port), (int) timeout.toMillis());
            s.setSoTimeout((int) timeout.toMillis());
            s.setTcpNoDelay(true);
            MonitorClient c = new MonitorClient(s, where);
            String banner = c.line();
            if (banner != null && banner.startsWith(MonitorProtocol.BUSY)) { // a monitor that refused at connect (before the waiting room)
                throw busy(where, banner);
            }
            if (banner == null || !banner.startsWith("nbench monitor")) {
                throw new Failure("no nbench monitor at " + where + " (it answered '" + shorten(banner)
                        + "'): point --monitor-port at the server's monitor port");
            }
            c.send("auth " + token.reveal());
            String answer = c.line();
            if (answer != null && answer.startsWith(MonitorProtocol.BUSY)) { // the token was right: no session free
                throw busy(where, answer);
            }
            if (answer == null || !answer.equals("OK")) {
                throw new Failure("the monitor at " + where + " refused the token from " + token.source()
                        + " (" + shorten(answer) + "): give the server's token through " + MonitorToken.ENV
                        + " or --monitor-token-file");
            }
            return c;
        } catch (Failure e) {
            close(s);
            throw e;
        } catch (UnknownHostException e) {
            close(s);
            throw new Failure("unknown monitor host '" + host + "': check --monitor-host");
        } catch (ConnectException e) {
            close(s);
            throw new Failure("cannot reach the monitor at " + where + " (" + e.getMessage() + "): start the server "
                    + "with --monitor-port " + port + " or check --monitor-host and --monitor-port");
        } catch (SocketTimeoutException e) {
            close(s);
            throw new Failure("the monitor at " + where + " did not answer within " + timeout.toMillis()
                    + " ms: check --monitor-host and --monitor-port");
        } catch (IOException e) {
            close(s);
            throw new Failure("cannot talk to the monitor at " + where + ": " + e.getMessage());
        }
    }

    private static Failure busy(String where, String answer) {
        return new Failure("the monitor at " + where + " is busy: it serves " + MonitorProtocol.MAX_CONNECTIONS
                + " sessions at once and all are taken (it answered '" + shorten(answer) + "'): close a console or "
                + "client connected to it, or try again");
    }

    /**
     * Sends one command line and returns its answer's lines (without the end marker of a multi-line one).
     * The connection closed before an answer is a {@link Failure}.
     */
    public List<String> command(String line) throws IOException {
        send(line);
        String first = line();
        if (first == null) {
            throw new Failure("the monitor at " + where + " closed the connection");
        }
        List<String> answer = new ArrayList<>(List.of(first));
        if (MonitorProtocol.oneLine(first)) {
            return answer;
        }
        while (true) {
            String next = line();
            if (next == null || next.equals(MonitorProtocol.END)) {
                return answer;
            }
            answer.add(next);
        }
    }

    /** {@code metrics json}: the one line, or a Failure if the answer is not JSON. */
    public String metricsJson() throws IOException {
        String answer = command("metrics json").get(0);
        if (!answer.startsWith("{")) {
            throw new Failure("the monitor at " + where + " answered 'metrics json' with '" + shorten(answer) + "'");
        }
        return answer;
    }

    public String where() {
        return where;
    }

    private void send(String line) throws IOException {
        out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    private String line() throws IOException {
        return MonitorProtocol.readLine(in, MAX_ANSWER_LINE);
    }

    private static String shorten(String s) {
        return s == null ? "nothing" : s.length() > 80 ? s.substring(0, 80) + "..." : s;
    }

    private static void close(Socket s) {
        try {
            s.close();
        } catch (IOException e) {
            // already failing: the first error is the one to report
        }
    }

    @Override
    public void close() {
        close(socket);
    }
}
