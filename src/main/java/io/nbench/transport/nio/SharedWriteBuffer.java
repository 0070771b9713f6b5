package io.nbench.transport.nio;

import io.nbench.protocol.RequestTemplate;
import java.nio.ByteBuffer;

/**
 * The one buffer from which a selector loop writes its connections' requests at the end of their read
 * batches: the loop encodes a batch here, writes it, and moves only what the socket did not take into the
 * connection's own output buffer. Why: with each connection writing from its own buffer, 200 connections
 * x window 16 x 1 KiB made the kernel read its copies from 3.2 MiB of buffers, more than the core's L2,
 * and that copy ({@code _copy_from_iter}) took 11.5 % of the loop thread against 5.9 % from one buffer
 * (2.1 % more went to stamping ids into the cold buffers); the C reference client writes from one buffer
 * too.
 *
 * <p>Requests of one protocol and size differ between connections only in their first
 * {@link RequestTemplate#connectionHeadLength()} bytes and their id ({@link RequestTemplate}), so the
 * buffer keeps whole copies of a request from earlier batches ({@code prepared} bytes of them, a whole
 * number of requests from 0) and a request needs its connection's head copied in and its id stamped, not
 * its payload. A connection whose template has another size (or protocol) re-prepares the buffer.
 *
 * <p>Loop thread only: no lock of its own (the connection writing holds its lock, which orders the
 * write with the connection's other senders).
 */
final class SharedWriteBuffer {

    private final NioConfig config;
    private ByteBuffer buffer;
    /** The template whose tail the prepared copies hold; any template with the same tail may use them. */
    private RequestTemplate preparedFor;
    private int prepared;

    SharedWriteBuffer(NioConfig config) {
        this.config = config;
    }

    /**
     * The buffer, cleared, for requests of {@code template}: room for one request at least and for no
     * more than {@code maxBytes} (the connection's own buffer, which must hold what the socket does not
     * take, even when this one has grown for another connection's larger requests).
     */
    ByteBuffer take(RequestTemplate template, int maxBytes) {
        int wire = template.wireLength();
        if (buffer == null || buffer.capacity() < wire) {
            buffer = config.allocate(Math.max(config.bufferSize, wire));
            prepared = 0;
        }
        if (preparedFor == null || !preparedFor.sameTailAs(template)) {
            preparedFor = template;
            prepared = 0;
        }
        buffer.clear();
        buffer.limit(Math.min(buffer.capacity(), Math.max(wire, maxBytes)));
        return buffer;
    }

    /**
     * Appends one request: its connection's head and the id over a prepared copy when there is one at
     * this position, else the whole request (which becomes a prepared copy). The caller checked that
     * {@code wire} bytes remain.
     */
    void append(RequestTemplate template, long id) {
        ByteBuffer b = buffer;
        byte[] request = template.bytes();
        int p = b.position();
        int wire = request.length;
        if (p + wire <= prepared) {
            b.put(p, request, 0, template.connectionHeadLength());
            b.position(p + wire);
        } else {
            b.put(request);
            if (p == prepared) {
                prepared = p + wire;
            }
        }
        for (int at : template.idOffsets()) {
            b.putLong(p + at, id);
        }
    }
}
