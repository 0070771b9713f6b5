package io.nbench.transport.blocking;

import io.nbench.protocol.Protocol;
import io.nbench.protocol.ServerCodec;
import io.nbench.transport.RunningServer;
import io.nbench.transport.ServerEvents;
import io.nbench.transport.ServerSettings;
import io.nbench.transport.support.CodecRequests;
import io.nbench.transport.support.Failures;
import io.nbench.transport.support.HandshakeDeadlines;
import io.nbench.transport.support.IdleConnections;
import io.nbench.transport.support.RequestPipeline;
import io.nbench.transport.support.Threads;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import javax.net.ssl.SSLException;

/**
 * The blocking server: an acceptor thread and one thread per connection that reads, answers and
 * writes, all blocking. Each read is parsed at once and its responses written with one write. A peer
 * that does not read its responses blocks its own thread in write, which stops that thread reading:
 * the connection's buffering is bounded by its two buffers, like the nio server's.
 *
 * <p>Each decoded request goes to the connection's {@link RequestPipeline}, which does its work and counts
 * it. With nbench's business pool ({@code --executor-threads}) the connection's thread only reads and
 * decodes: each request's whole response is taken out of the parser's output ({@link CodecRequests})
 * and handed to the pipeline, and the pool thread that completes it writes it to the socket itself (under
 * the connection's order lock, so responses stay in request order).
 */
final class BlockingServer implements RunningServer {

    private final ServerSocket server;
    private final BlockingConfig config;
    private final ServerSettings settings;
    private final ServerEvents events;
    private final InetSocketAddress address;
    private final Thread acceptor;
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private final Set<Thread> threads = ConcurrentHashMap.newKeySet();
    private final AtomicLong connectionNumber = new AtomicLong();
    private final IdleConnections idle;
    /** With --tls: closes the connections whose handshake is not done in time (their thread blocks in it). */
    private final HandshakeDeadlines handshakes;
    private volatile boolean closing;

    /** With --tls: the SSLSocket every accepted connection is layered into; null otherwise. */
    private final BlockingTls tls;

    private BlockingServer(ServerSocket server, BlockingConfig config, ServerSettings settings, ServerEvents events,
                           BlockingTls tls) {
        this.server = server;
        this.config = config;
        this.settings = settings;
        this.events = events;
        this.address = (InetSocketAddress) server.getLocalSocketAddress();
        this.acceptor = config.threads.newThread("nbench-" + config.name + "-accept", this::accept);
        this.tls = tls;
        this.idle = IdleConnections.start(settings.idleTimeout(), events, "nbench-" + config.name + "-idle");
        this.handshakes = tls == null ? null : HandshakeDeadlines.start(settings.tls().handshakeTimeout(), events,
                "nbench-" + config.name + "-handshakes");
    }

    static BlockingServer start(BlockingConfig config, ServerSettings settings, ServerEvents events) throws IOException {
        BlockingTls tls = settings.tls() == null ? null : BlockingTls.server(settings.tls());
        ServerSocket server = new ServerSocket();
        try {
            server.setReuseAddress(true);
            if (config.socket.rcvbuf() > 0) {
                server.setReceiveBufferSize(config.socket.rcvbuf());
            }
            server.bind(settings.bind(), settings.listen().backlog());
        } catch (IOException e) {
            server.close();
            InetSocketAddress b = settings.bind();
            throw Failures.bind(e, b.getHostString() + ":" + b.getPort());
        }
        BlockingServer s = new BlockingServer(server, config, settings, events, tls);
        s.acceptor.start();
        return s;
    }

    private void accept() {
        while (!closing) {
            Socket socket;
            try {
                socket = server.accept();
            } catch (IOException e) {
                if (closing || server.isClosed()) {
                    return;
                }
                // e.g. too many open files: keep serving the connections we have and retry shortly.
                events.trouble("accept", "cannot accept connections: " + e.getMessage() + "; serving the open "
                        + "ones and retrying (raise the descriptor limit with ulimit -n)");
                LockSupport.parkNanos(10_000_000L);
                continue;
            }
            try {
                config.apply(socket);
            } catch (IOException e) {
                closeQuietly(socket);
                continue;
            }
            if (!events.connectionOpened()) {
                closeQuietly(socket); // over --max-connections
                continue;
            }
            Thread t = config.threads.newThread("nbench-" + config.name + "-server-" + connectionNumber.incrementAndGet(),
                    () -> serve(socket));
            sockets.add(socket);
            threads.add(t);
            if (closing) {
                // close() may have swept the set before we added to it.
                closeQuietly(socket);
            }
            t.start();
        }
    }

    /** Serves a connection already reported opened (by the acceptor, which refuses those over the limit). */
    private void serve(Socket socket) {
        // --idle-timeout closes the socket from its own thread, which ends a blocked read or write here.
        IdleConnections.Watch watch = idle.watch(() -> closeQuietly(socket));
        try (socket) {
            Socket wire = socket;
            if (tls != null) { // the handshake on this connection's thread, the acceptor never waits for a client
                // --tls-handshake-timeout closes the socket from the sweeper's thread, which ends the blocked
                // handshake: a silent peer holds this thread no longer than that.
                String remote = String.valueOf(socket.getRemoteSocketAddress());
                HandshakeDeadlines.Deadline deadline = handshakes.start(remote, () -> closeQuietly(socket));
                try {
                    wire = tls.accept(socket);
                } catch (SSLException e) {
                    if (handshakes.done(deadline)) { // else the timeout closed it and said so
                        events.protocolError(remote, BlockingTls.failure(e));
                    }
                    return;
                } finally {
                    handshakes.done(deadline);
                }
            }
            InputStream in = wire.getInputStream();
            OutputStream out = wire.getOutputStream();
            serve(wire, in, out, watch);
        } catch (IOException e) {
            // Reset, broken pipe or closed by close(): this connection only.
        } finally {
            idle.forget(watch);
            sockets.remove(socket);
            events.connectionClosed();
            threads.remove(Thread.currentThread());
        }
    }

    /** Reads, parses with the protocol's server codec and writes the responses of each read with one write. */
    private void serve(Socket socket, InputStream input, OutputStream output, IdleConnections.Watch watch)
            throws IOException {
        Protocol protocol = settings.protocol();
        if (protocol.responseIsRequest()) {
            mirror(input, output, watch);
            return;
        }
        ByteBuffer in = ByteBuffer.allocate(config.bufferSize);
        RequestPipeline<ByteBuffer> requests = RequestPipeline.of(CodecRequests.runtime(protocol, settings.runtime()),
                events, RequestPipeline.heapResponses(protocol, response -> {
                    try {
                        output.write(response.array(), 0, response.limit());
                    } catch (IOException e) {
                        closeQuietly(socket); // the peer is gone; the reading thread ends too
                    }
                }, () -> closeQuietly(socket))); // after the last response (written synchronously): the reader ends
        CodecRequests served = new CodecRequests(requests, events, watch::progress);
        boolean pooled = served.pooled();
        ServerCodec parser = protocol.newServerCodec(settings.codec(), served);
        ByteBuffer out = ByteBuffer.allocate(Math.max(parser.minOutput(), config.bufferSize));
        served.output(out);
        try {
            while (true) {
                int n = input.read(in.array(), in.position(), in.remaining());
                if (n < 0) {
                    return;
                }
                in.position(in.position() + n);
                in.flip();
                while (true) {
                    int result = parser.parse(in, out);
                    if (result == ServerCodec.PROTOCOL_ERROR) {
                        // Answer what came before the bad request, and the protocol's answer to it (HTTP's 400:
                        // pooled, out holds only that), then drop the connection.
                        write(output, out);
                        if (!pooled) {
                            requests.flushed();
                        }
                        events.protocolError(String.valueOf(socket.getRemoteSocketAddress()), parser.error());
                        return;
                    }
                    if (result == ServerCodec.NEED_INPUT) {
                        break;
                    }
                    if (result == ServerCodec.CLOSE) {
                        // The protocol ended the connection. Inline its last response is in out: written, then
                        // closed. Pooled the pool's last write closes the socket (the pipeline's end), which
                        // ends this thread's read; until then what the peer sends is read and discarded.
                        if (!pooled) {
                            write(output, out);
                            requests.flushed();
                        }
                        requests.end();
                        break;
                    }
                    if (pooled) {
                        served.spill(); // a response larger than out: kept until its request is complete
                    } else {
                        write(output, out);
                    }
                }
                in.compact();
                if (!pooled) {
                    write(output, out);
                    requests.flushed(); // the write returned: every response of the batch is in the kernel
                }
            }
        } finally {
            requests.close();
        }
    }

    private static void write(OutputStream output, ByteBuffer out) throws IOException {
        if (out.position() > 0) {
            output.write(out.array(), 0, out.position());
            out.clear();
        }
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // already gone
        }
    }

    @Override
    public InetSocketAddress address() {
        return address;
    }

    /**
     * A protocol whose response is its request (echo): the bytes read are written back from the array they were
     * read into, without the codec's copy, as nio's server does. Through the codec this server took 1.12x the CPU
     * per message of the direct loop it had before the request pipeline (bench/perf.sh, the server side, six
     * interleaved rounds, 1.05-1.15 in every round).
     */
    private void mirror(InputStream input, OutputStream output, IdleConnections.Watch watch) throws IOException {
        byte[] buffer = new byte[config.bufferSize];
        int n;
        while ((n = input.read(buffer)) >= 0) {
            events.echoed(n);
            watch.progress();
            output.write(buffer, 0, n);
        }
    }

    @Override
    public Map<String, String> effectiveConfig() {
        Map<String, String> m = config.describe();
        m.putAll(settings.listen().describe());
        if (tls != null) {
            m.put("tls", tls.describe());
        }
        return m;
    }

    @Override
    public void close() {
        closing = true;
        try {
            server.close();
        } catch (IOException e) {
            // closing anyway
        }
        Threads.join(acceptor);
        for (Socket s : sockets) {
            closeQuietly(s);
        }
        Threads.joinAll(threads);
        idle.close();
        if (handshakes != null) {
            handshakes.close();
        }
    }
}
