package io.nbench.transport.mina;

import java.io.IOException;
import java.nio.channels.spi.SelectorProvider;
import java.util.concurrent.Executor;
import org.apache.mina.core.buffer.IoBuffer;
import org.apache.mina.core.session.AttributeKey;
import org.apache.mina.transport.socket.nio.NioProcessor;
import org.apache.mina.transport.socket.nio.NioSession;

/**
 * MINA's client processor, made to deliver what the peer sent before it reset the connection. A server that
 * closes after answering (nginx after its {@code keepalive_requests}, its last response saying {@code Connection:
 * close}) draws a reset from the requests pipelined behind that response. The kernel hands out the queued response
 * before the reset, but MINA 2.2.4 loses it two ways: its read loop ({@code AbstractPollingIoProcessor.read}) reads
 * until the socket is empty and fires what it read only after the loop, so a reset on the loop's second read drops
 * the bytes of the first; and a write that meets the reset closes the session at once, before the response is read.
 * Here, each failure is held back once: a read that fails after this loop read bytes returns 0 (MINA fires the bytes)
 * and the failure comes on the next read; a write that fails returns 0 (MINA waits to write again) and the failure
 * comes on the next write, after the read MINA makes first in the same round. nio's transport reads before it closes
 * for the same reason (NioClientConnection.closeAfterWriteFailure).
 */
public class ReadBeforeResetProcessor extends NioProcessor {

    private static final AttributeKey READ_HELD = new AttributeKey(ReadBeforeResetProcessor.class, "read");
    private static final AttributeKey WRITE_HELD = new AttributeKey(ReadBeforeResetProcessor.class, "write");

    /**
     * Failures held back by this processor's sessions (its own thread's count): while 0, a read or write looks up
     * nothing. A session closed with a failure still held (it never read or wrote again) leaves it counted: a map
     * lookup per read and write from then on, no allocation.
     */
    private int held;

    public ReadBeforeResetProcessor(Executor executor) {
        super(executor);
    }

    public ReadBeforeResetProcessor(Executor executor, SelectorProvider provider) {
        super(executor, provider);
    }

    @Override
    protected int read(NioSession session, IoBuffer buf) throws Exception {
        throwHeld(session, READ_HELD);
        try {
            return super.read(session, buf);
        } catch (IOException e) {
            if (buf.position() == 0) {
                throw e; // nothing read before it: nothing to lose
            }
            hold(session, READ_HELD, e);
            return 0; // ends MINA's read loop: the bytes go up first
        }
    }

    @Override
    protected int write(NioSession session, IoBuffer buf, int length) throws IOException {
        throwHeld(session, WRITE_HELD);
        try {
            return super.write(session, buf, length);
        } catch (IOException e) {
            hold(session, WRITE_HELD, e);
            return 0; // as a full socket: MINA reads (the same round) before it writes again
        }
    }

    private void hold(NioSession session, AttributeKey key, IOException e) {
        if (session.setAttributeIfAbsent(key, e) == null) {
            held++;
        }
    }

    private void throwHeld(NioSession session, AttributeKey key) throws IOException {
        if (held > 0) {
            IOException e = (IOException) session.removeAttribute(key);
            if (e != null) {
                held--;
                throw e;
            }
        }
    }
}
