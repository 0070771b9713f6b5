package io.nbench.transport.nio;

import io.nbench.protocol.Protocol;
import io.nbench.protocol.ServerCodec;
import io.nbench.transport.ServerRuntime;
import io.nbench.transport.support.HandshakeDeadlines;
import io.nbench.transport.support.IdleConnections;
import io.nbench.transport.support.RequestPipeline;
import io.nbench.transport.support.CodecRequests;
import io.nbench.transport.ServerEvents;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.net.ssl.SSLException;

/**
 * One accepted connection, driven entirely by its selector loop (no other thread touches it, so it
 * has no locks).
 *
 * <p>Each read is parsed at once by the protocol's {@link ServerCodec} and the responses of that read are
 * gathered in {@code out} and written with one write; a protocol whose response is its request (echo) is
 * written back from the buffer it was read into.
 *
 * <p>Backpressure: when a write leaves bytes behind (the peer does not read its responses), the
 * connection stops reading and waits for OP_WRITE, so it never buffers more than its two fixed buffers
 * ({@code nio.buffer} each) whatever the peer sends; frames larger than that stream through them.
 *
 * <p>Each decoded request goes to the connection's {@link RequestPipeline}, which does its work and
 * counts it. With nbench's business pool ({@code --executor-threads}) the parser's output is not written
 * with the read batch: each request's whole response is taken out of {@code out} ({@link CodecRequests})
 * and handed to the pipeline; the pool thread that completes it queues it on {@code outbound} and wakes
 * this connection's loop, which writes it. That queue is the one thing other
 * threads touch. Reading stops while the queue cannot be written (the peer does not read), as without
 * the pool.
 */
final class NioServerConnection implements SelectorLoop.Selectable {

    private final SocketChannel channel;
    /** What is read from and written to: the channel, or TLS over it. */
    private final Wire wire;
    private final ServerEvents events;
    private final ServerCodec parser;
    /**
     * A protocol whose response is its request (echo): the bytes read are written back from the buffer they
     * were read into, without the codec's copy. Through the codec the C client measured this server at 0.83x
     * the msg/s and 1.21x the CPU per message (bench/perf.sh, the server side).
     */
    private final boolean mirror;
    private final BufferPool buffers;
    private final int inCapacity;
    private final int outCapacity;
    /** Taken from the loop's pool when registered, given back when closed (both on the loop thread). */
    private ByteBuffer in;
    private ByteBuffer out;
    private final IdleConnections idle;
    private IdleConnections.Watch watch;
    /** With --tls: what times the handshake (null without TLS), and this one's deadline until it is over. */
    private final HandshakeDeadlines handshakes;
    private HandshakeDeadlines.Deadline handshake;
    private SelectionKey key;
    private boolean blockedOnWrite;
    private boolean closed;
    private final RequestPipeline<ByteBuffer> requests;
    /** Requests go to the business pool; then the fields below are used too. */
    private final boolean offloaded;
    private final CodecRequests served;
    private final Queue<ByteBuffer> outbound = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean writeScheduled = new AtomicBoolean();
    private final Runnable writeOutbound = this::writeOutbound;
    private SelectorLoop loop;
    /**
     * The protocol ended the connection ({@link ServerCodec#CLOSE}): nothing more is read, and it closes once
     * what it owes is written.
     */
    private boolean ending;
    /** Pooled: queued after the last response when the protocol ends the connection; closes it when reached. */
    private static final ByteBuffer END = ByteBuffer.allocate(0);

    NioServerConnection(SocketChannel channel, Wire wire, NioConfig config, ServerCodec.Settings codec, Protocol protocol,
                        ServerEvents events, IdleConnections idle, HandshakeDeadlines handshakes, BufferPool buffers,
                        ServerRuntime runtime) {
        this.channel = channel;
        this.handshakes = handshakes;
        this.wire = wire;
        this.requests = RequestPipeline.of(CodecRequests.runtime(protocol, runtime), events,
                RequestPipeline.heapResponses(protocol, this::send, this::end));
        this.offloaded = requests.pooled();
        this.events = events;
        this.idle = idle;
        this.buffers = buffers;
        this.inCapacity = config.bufferSize;
        this.served = new CodecRequests(requests, events, () -> watch.progress());
        this.parser = protocol.newServerCodec(codec, served);
        this.mirror = protocol.responseIsRequest();
        this.outCapacity = Math.max(parser.minOutput(), config.bufferSize);
    }

    /** On the loop thread, which owns {@code buffers}. */
    void register(SelectorLoop loop) {
        this.loop = loop;
        if (!events.connectionOpened()) {
            closeQuietly(); // over --max-connections; never registered, so close() reports nothing
            return;
        }
        in = buffers.take(inCapacity);
        out = mirror ? in : buffers.take(outCapacity);
        served.output(out);
        try {
            key = channel.register(loop.selector(), SelectionKey.OP_READ, this);
        } catch (IOException | RuntimeException e) {
            closeQuietly();
            events.connectionClosed();
            return;
        }
        // --idle-timeout closes from its own thread: the close is handed to this connection's loop.
        watch = idle.watch(() -> loop.execute(this::close));
        if (handshakes != null) { // --tls-handshake-timeout, closed the same way
            handshake = handshakes.start(String.valueOf(channel.socket().getRemoteSocketAddress()),
                    () -> loop.execute(this::close));
        }
    }

    /**
     * The writer's end (the protocol ended the connection): pooled, after the last response on
     * {@code outbound}; inline, on the loop thread, once {@code out} is written.
     */
    private void end() {
        if (offloaded) {
            send(END);
            return;
        }
        ending = true;
        if (out.position() == 0) {
            close();
        }
    }

    /** Puts a pooled response on {@code outbound} (from pool threads, or this loop for a rejection). */
    private void send(ByteBuffer response) {
        outbound.add(response);
        if (writeScheduled.compareAndSet(false, true)) {
            loop.execute(writeOutbound);
        }
    }

    /** On the loop thread: writes what the pool queued. */
    private void writeOutbound() {
        writeScheduled.set(false);
        if (closed) {
            outbound.clear();
            return;
        }
        try {
            writePending();
        } catch (IOException e) {
            close();
        }
    }

    /** Writes {@code outbound} until empty or the socket is full (then waits for OP_WRITE, not reading). */
    private void writePending() throws IOException {
        ByteBuffer head;
        while ((head = outbound.peek()) != null) {
            if (head == END) {
                close();
                return;
            }
            wire.write(head);
            if (head.hasRemaining() || !wire.flushed()) {
                if (!blockedOnWrite) {
                    blockOnWrite();
                }
                return;
            }
            outbound.poll();
        }
        if (blockedOnWrite) {
            blockedOnWrite = false;
            key.interestOps(ending ? 0 : SelectionKey.OP_READ);
            readBuffered();
        }
    }

    @Override
    public void ready(SelectionKey k) {
        try {
            int ops = k.readyOps();
            if ((ops & SelectionKey.OP_WRITE) != 0) {
                onWritable();
            }
            if (!closed && !blockedOnWrite && !ending && (ops & SelectionKey.OP_READ) != 0) {
                onReadable();
            }
            if (handshake != null && !wire.handshaking()) {
                handshakes.done(handshake);
                handshake = null;
            }
        } catch (SSLException e) {
            // A plain-text client, nothing in common, a broken record: said in the log as the other TLS servers do
            // (unless the handshake timed out first, which said so).
            if (handshake == null || handshakes.done(handshake)) {
                events.protocolError(String.valueOf(channel.socket().getRemoteSocketAddress()), NioTls.failure(e));
            }
            close();
        } catch (IOException e) {
            // Reset or broken pipe: the peer is gone; only this connection is affected.
            close();
        } catch (RuntimeException e) {
            // A bug must not take the loop, and every connection on it, down: drop this connection and
            // say why in the server's log.
            events.protocolError(String.valueOf(channel.socket().getRemoteSocketAddress()), "server error: " + e);
            close();
        }
    }

    /**
     * Reads and answers; again while the wire holds bytes it read from the socket (TLS records beyond what
     * {@code in} took), which no OP_READ would report.
     */
    private void onReadable() throws IOException {
        do {
            int n = wire.read(in);
            if (n < 0) {
                close();
                return;
            }
            if (n == 0) {
                return;
            }
            if (mirror) {
                events.echoed(n);
                watch.progress();
                if (!flush()) {
                    blockOnWrite();
                }
            } else {
                in.flip();
                process();
            }
        } while (wire.buffered() && !closed && !blockedOnWrite && !ending);
    }

    /** Reading resumed after a blocked write: what the wire already holds is not reported by the selector. */
    private void readBuffered() throws IOException {
        if (wire.buffered() && !closed && !blockedOnWrite && !ending) {
            onReadable();
        }
    }

    /** Parses what {@code in} holds (in read mode) and writes the responses; leaves {@code in} in fill mode. */
    private void process() throws IOException {
        if (offloaded) {
            processOffloaded();
            return;
        }
        while (true) {
            int result = parser.parse(in, out);
            if (result == ServerCodec.PROTOCOL_ERROR) {
                protocolError();
                return;
            }
            if (result == ServerCodec.NEED_INPUT) {
                break;
            }
            if (result == ServerCodec.CLOSE) {
                // Its last response is in out: written now, or when the socket takes it (onWritable).
                in.clear();
                if (flush()) {
                    requests.end();
                } else {
                    ending = true;
                    blockOnWrite();
                }
                return;
            }
            if (!flush()) {
                in.compact();
                blockOnWrite();
                return;
            }
        }
        in.compact();
        if (out.position() > 0 && !flush()) {
            blockOnWrite();
        }
    }

    /** As {@link #process}, handing each complete request to the pool instead of writing {@code out}. */
    private void processOffloaded() throws IOException {
        while (true) {
            int result = parser.parse(in, out);
            if (result == ServerCodec.PROTOCOL_ERROR) {
                protocolError();
                return;
            }
            if (result == ServerCodec.NEED_INPUT) {
                break;
            }
            if (result == ServerCodec.CLOSE) {
                // Read no more: the connection closes after the pool's last response (outbound's END).
                in.clear();
                ending = true;
                key.interestOps(blockedOnWrite ? SelectionKey.OP_WRITE : 0);
                requests.end();
                return;
            }
            served.spill(); // a response larger than out: keep its first part until the request is complete
        }
        in.compact();
    }

    /**
     * Answers what came before the bad request, and the protocol's answer to it (HTTP's 400: pooled, {@code out}
     * holds only that), if the socket takes them now, then drops the connection.
     */
    private void protocolError() throws IOException {
        out.flip();
        wire.write(out);
        if (!out.hasRemaining() && wire.flushed() && !offloaded) {
            requests.flushed();
        }
        events.protocolError(String.valueOf(channel.getRemoteAddress()), parser.error());
        close();
    }

    private void onWritable() throws IOException {
        if (offloaded) {
            writePending();
            return;
        }
        if (!flush()) {
            return;
        }
        if (ending) {
            requests.end();
            return;
        }
        blockedOnWrite = false;
        key.interestOps(SelectionKey.OP_READ);
        if (!mirror) {
            // Even with no input left the parser may owe output: the rest of a response it was
            // streaming (zero padding, say) when the write blocked.
            in.flip();
            process();
        }
        readBuffered();
    }

    /** Writes {@code out} (fill mode); true when everything went. */
    private boolean flush() throws IOException {
        out.flip();
        wire.write(out);
        boolean all = !out.hasRemaining() && wire.flushed();
        out.compact();
        if (all) {
            requests.flushed();
        }
        return all;
    }

    private void blockOnWrite() {
        blockedOnWrite = true;
        key.interestOps(SelectionKey.OP_WRITE);
    }

    @Override
    public void shutdown() {
        close();
    }

    private void close() {
        if (closed) {
            return;
        }
        closeQuietly();
        requests.close();
        outbound.clear();
        if (key != null) {
            idle.forget(watch);
            if (handshake != null) {
                handshakes.done(handshake);
            }
            events.connectionClosed();
        }
    }

    private void closeQuietly() {
        closed = true;
        if (key != null) {
            wire.closing();
        }
        try {
            channel.close();
        } catch (IOException e) {
            // already gone
        }
        if (in != null) {
            buffers.give(in);
            if (out != in) {
                buffers.give(out);
            }
            in = null;
            out = null;
        }
    }
}
