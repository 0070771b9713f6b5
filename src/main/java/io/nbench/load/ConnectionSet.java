package io.nbench.load;

import io.nbench.protocol.ClientCodec;
import io.nbench.protocol.RequestTemplate;
import io.nbench.resources.FileDescriptors;
import io.nbench.transport.ClientConnection;
import io.nbench.transport.ClientTransport;
import io.nbench.transport.TransportFailure;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Arrays;
import java.util.concurrent.locks.LockSupport;

/**
 * The connections of one run: opening them (the first retrying until its server listens, the rest at
 * {@code --connect-rate}), replacing one (churn, or a FIFO echo connection that lost a reply), and
 * closing them all. Index i holds connection i; after a failed {@link #open} the tail is null.
 */
final class ConnectionSet {

    private final RunControl run;
    private final LoadSpec spec;
    private final ClientTransport clientTransport;
    private final InetSocketAddress remote;
    private final LoadConnection[] connections;

    ConnectionSet(RunControl run, ClientTransport transport, InetSocketAddress remote) {
        this.run = run;
        this.spec = run.spec;
        this.clientTransport = transport;
        this.remote = remote;
        this.connections = new LoadConnection[spec.connections()];
    }

    /** Every connection, in index order. */
    LoadConnection[] all() {
        return connections;
    }

    int size() {
        return connections.length;
    }

    void open() throws RunFailure {
        LoadConnection[] cs = connections;
        String shortage = FileDescriptors.shortage(cs.length);
        if (shortage != null) {
            throw new RunFailure("cannot connect to " + describe(remote) + ": " + shortage, null);
        }
        long rampStart = System.nanoTime();
        // One codec for the run: every connection's requests are laid out by it and its responses framed by it.
        ClientCodec codec = spec.protocol().newClientCodec(spec.request(),
                spec.requestsPerConnection() == 1);
        for (int i = 0; i < cs.length; i++) {
            if (spec.connectRate() > 0) {
                // Ramp-up: connection i opens no earlier than i / rate after the first.
                long due = rampStart + (long) (i * 1e9 / spec.connectRate());
                long wait;
                while ((wait = due - System.nanoTime()) > 0 && !run.aborted()) {
                    LockSupport.parkNanos(wait);
                }
            }
            RequestTemplate template = RequestTemplate.of(spec.protocol(), codec, spec.size(), spec.responseSize(),
                    i + 1L);
            LoadConnection c = new LoadConnection(i, run, template, spec.permits(), spec.measure() == Measure.SEND,
                    spec.openLoop(), spec.batch() > 0);
            // Counted live before the connect returns: the server may close it at once.
            run.connectionOpening();
            try {
                c.transport = i == 0 ? connectFirst(template, c) : clientTransport.connect(remote, template, c.link());
            } catch (IOException e) {
                run.connectionNotOpened();
                run.attach(Arrays.copyOf(cs, i));
                throw new RunFailure("cannot connect to " + describe(remote) + " (connection " + (i + 1) + " of "
                        + cs.length + "): " + (FileDescriptors.exhausted(e) ? FileDescriptors.exhaustedMessage(cs.length)
                        : e.getMessage() + plainTextFix(e)), e);
            }
            if (c.handshook()) {
                run.openingHandshakes++;
            }
            run.requestWireBytes = template.wireLength();
            cs[i] = c;
        }
        run.attach(cs);
    }

    /**
     * With {@code --connect-retry}, the first connection retries a refused connect until it passes: a client started
     * together with its server ({@code nbench server & nbench client}) waits for it to listen. Without, a refused
     * connect fails at once, as wrk's does: nobody is listening there.
     */
    private ClientConnection connectFirst(RequestTemplate template, LoadConnection c) throws IOException {
        long deadline = System.nanoTime() + spec.connectRetryNanos();
        for (;;) {
            try {
                return clientTransport.connect(remote, template, c.link());
            } catch (IOException e) {
                boolean refused = e instanceof TransportFailure f && f.kind() == TransportFailure.Kind.REFUSED;
                if (!refused || System.nanoTime() + 100_000_000L > deadline || run.aborted()) {
                    throw e;
                }
                LockSupport.parkNanos(100_000_000L);
            }
        }
    }

    /** The fix for a server that answered TLS in plain text: it runs without, so the client should too. */
    private String plainTextFix(IOException e) {
        if (!(e instanceof TransportFailure f && f.kind() == TransportFailure.Kind.PLAIN_TEXT)) {
            return "";
        }
        return spec.protocol().httpMessages() ? ": use http:// (or start the server with --tls)"
                : ": leave --tls out (or start the server with --tls)";
    }

    private static String describe(InetSocketAddress a) {
        return a.getHostString() + ":" + a.getPort();
    }

    /** Churn: reconnects {@code c} on the calling sender thread, timing the connect. */
    void reconnect(LoadConnection c) {
        c.reconnect(clientTransport, remote, run.contextFor(Thread.currentThread()));
    }

    /**
     * Replaces {@code c}, which the server closed after saying so (HTTP's Connection: close), on the calling
     * thread, timing the connect as churn's are.
     */
    void replace(LoadConnection c) {
        c.reconnect(clientTransport, remote, run.contextFor(Thread.currentThread()));
    }

    /** FIFO echo after a timeout: replaces {@code c}'s connection; false if the new one could not be opened. */
    boolean reopen(LoadConnection c, ThreadContext ctx) {
        return c.reopen(clientTransport, remote, ctx);
    }

    /** Closes every connection that was opened. */
    void close() {
        for (LoadConnection c : connections) {
            if (c != null && c.transport != null) {
                c.transport.close();
            }
        }
    }
}
