package io.nbench.transport.mina;

import io.nbench.transport.ErrorKind;
import org.apache.mina.core.buffer.IoBuffer;
import org.apache.mina.core.service.IoHandlerAdapter;
import org.apache.mina.core.session.AttributeKey;
import org.apache.mina.core.session.IoSession;
import org.apache.mina.core.write.WriteException;
import org.apache.mina.filter.FilterEvent;
import org.apache.mina.filter.ssl.SslEvent;
import org.apache.mina.filter.codec.ProtocolDecoder;
import org.apache.mina.filter.codec.ProtocolDecoderException;
import org.apache.mina.filter.codec.ProtocolEncoder;
import org.apache.mina.filter.codec.ProtocolCodecFactory;

/**
 * The client's IoHandler and codec factory, shared by all sessions of a connector; each session's
 * {@link MinaClientConnection} is found in a session attribute (a lock-free map lookup).
 */
final class MinaClientHandler extends IoHandlerAdapter implements ProtocolCodecFactory {

    static final AttributeKey CONNECTION = new AttributeKey(MinaClientHandler.class, "connection");

    private static MinaClientConnection connection(IoSession session) {
        return (MinaClientConnection) session.getAttribute(CONNECTION);
    }

    @Override
    public ProtocolEncoder getEncoder(IoSession session) {
        return IoBufferEncoder.INSTANCE;
    }

    @Override
    public ProtocolDecoder getDecoder(IoSession session) {
        return connection(session).decoder;
    }

    @Override
    public void messageSent(IoSession session, Object message) {
        MinaClientConnection c = connection(session);
        if (c != null && message instanceof IoBuffer buf) {
            c.written(buf);
        }
    }

    /** SslFilter's SECURED: the TLS handshake the connect waits for is done. */
    @Override
    public void event(IoSession session, FilterEvent event) {
        if (event == SslEvent.SECURED) {
            MinaTls.secured(session);
        }
    }

    @Override
    public void sessionClosed(IoSession session) {
        if (MinaTls.failedHandshake(session, null)) {
            return;
        }
        MinaClientConnection c = connection(session);
        if (c != null) {
            if (c.http && session.getCurrentWriteRequest() != null) {
                // MINA closes a session whose write fails (AbstractPollingIoProcessor.writeBuffer) without reading
                // what the peer sent before, and says nothing: a response may be lost with it. Said, so that the
                // engine does not take this close for a clean one.
                c.handler.onError(ErrorKind.WRITE, "write failed: the server closed the connection (responses it "
                        + "sent before may be lost with it)");
            }
            c.handler.onClosed();
        }
    }

    @Override
    public void exceptionCaught(IoSession session, Throwable cause) {
        if (MinaTls.failedHandshake(session, cause)) {
            session.closeNow();
            return;
        }
        MinaClientConnection c = connection(session);
        if (c != null) {
            if (cause instanceof ProtocolDecoderException) {
                c.handler.onError(ErrorKind.PROTOCOL, "bad response: " + oneLine(cause.getCause() != null ? cause.getCause() : cause));
            } else if (cause instanceof WriteException) {
                c.handler.onError(ErrorKind.WRITE, "write failed: " + oneLine(cause));
            } else {
                c.handler.onError(ErrorKind.READ, "connection error: " + oneLine(cause));
            }
        }
        session.closeNow();
    }

    static String oneLine(Throwable t) {
        String m = t.getMessage();
        String text = m == null ? t.getClass().getSimpleName() : m;
        int nl = text.indexOf('\n');
        return nl < 0 ? text : text.substring(0, nl);
    }
}
