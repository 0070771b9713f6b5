package io.nbench.transport.mina;

import io.nbench.transport.ServerEvents;
import io.nbench.transport.support.HandshakeDeadlines;
import io.nbench.transport.support.IdleConnections;
import io.nbench.transport.support.JdkTls;
import io.nbench.transport.support.RequestPipeline;
import io.nbench.transport.support.TlsAlerts;
import javax.net.ssl.SSLException;
import org.apache.mina.core.buffer.IoBuffer;
import org.apache.mina.core.filterchain.IoFilterChain;
import org.apache.mina.core.future.DefaultWriteFuture;
import org.apache.mina.core.future.WriteFuture;
import org.apache.mina.core.service.IoHandlerAdapter;
import org.apache.mina.core.session.IoSession;
import org.apache.mina.core.write.DefaultWriteRequest;
import org.apache.mina.filter.FilterEvent;
import org.apache.mina.filter.ssl.SslEvent;

/**
 * The server's IoHandler: connection counts and backpressure for every protocol, and RFC 862 echo when
 * there is no codec in the chain (framed requests are answered by {@link FramedServerDecoder}, any other
 * protocol's by its server codec in {@link CodecSessions}).
 */
final class MinaServerHandler extends IoHandlerAdapter {

    private final ServerEvents events;
    /** The framed decoder, to answer requests buffered during a pause; null for echo. */
    private final FramedServerDecoder decoder;
    /** Any other protocol's server codec, per session; null for framed and echo. */
    private final CodecSessions codecs;
    private final IdleConnections idle;
    private final boolean idleOn;
    /** With --tls: times each session's handshake until SslFilter's SECURED; null without TLS. */
    private final HandshakeDeadlines handshakes;

    MinaServerHandler(ServerEvents events, FramedServerDecoder decoder, CodecSessions codecs, IdleConnections idle,
                      HandshakeDeadlines handshakes) {
        this.events = events;
        this.handshakes = handshakes;
        this.decoder = decoder;
        this.codecs = codecs;
        this.idle = idle;
        this.idleOn = idle.enabled();
    }

    @Override
    public void sessionCreated(IoSession session) {
        if (idle.enabled()) {
            session.setAttribute(WATCH, idle.watch(session::closeNow));
        }
        if (handshakes != null) { // --tls-handshake-timeout
            session.setAttribute(HANDSHAKE, handshakes.start(String.valueOf(session.getRemoteAddress()),
                    session::closeNow));
        }
    }

    /** SslFilter's SECURED: the handshake is done, no longer timed. */
    @Override
    public void event(IoSession session, FilterEvent event) {
        if (event == SslEvent.SECURED && handshakes != null) {
            handshakes.done((HandshakeDeadlines.Deadline) session.removeAttribute(HANDSHAKE));
        }
    }

    @Override
    public void sessionOpened(IoSession session) {
        if (!events.connectionOpened()) {
            // Over --max-connections: closed at once and not reported closed.
            session.setAttribute(REFUSED, Boolean.TRUE);
            session.closeNow();
        }
    }

    @Override
    public void sessionClosed(IoSession session) {
        if (!session.containsAttribute(REFUSED)) {
            if (decoder != null) {
                decoder.closed(session);
            }
            if (codecs != null) {
                codecs.closed(session);
            }
            events.connectionClosed();
        }
        idle.forget((IdleConnections.Watch) session.getAttribute(WATCH));
        if (handshakes != null) {
            handshakes.done((HandshakeDeadlines.Deadline) session.getAttribute(HANDSHAKE));
        }
    }

    private static final String REFUSED = "nbench.refused";
    private static final String TLS_FAILED = "nbench.tls-failed";
    /** The session attribute holding its handshake's {@link HandshakeDeadlines.Deadline} until SECURED. */
    private static final String HANDSHAKE = "nbench.handshake";

    /** The session attribute holding its {@link IdleConnections.Watch}, set only with --idle-timeout. */
    static final String WATCH = "nbench.idle";

    /** Records a completed request (echo: bytes read) for --idle-timeout; a map lookup only when it is on. */
    static void progress(IoSession session) {
        Object w = session.getAttribute(WATCH);
        if (w != null) {
            ((IdleConnections.Watch) w).progress();
        }
    }

    @Override
    @SuppressWarnings("unchecked")
    public void messageReceived(IoSession session, Object message) {
        if (decoder != null) {
            // Framed with mina.executor: a request, handed on by the decoder.
            decoder.work(session, (RequestPipeline.HandOff<IoBuffer>) message);
            return;
        }
        if (codecs != null) {
            codecs.received(session, (IoBuffer) message);
            return;
        }
        // Echo: the processor gives every read a buffer of its own and never touches it after this
        // call, so the buffer itself is written back (no copy); MINA frees it once written.
        IoBuffer buf = (IoBuffer) message;
        int n = buf.remaining();
        if (n == 0) {
            return;
        }
        session.write(buf);
        events.echoed(n);
        if (idleOn) {
            progress(session);
        }
        if (WriteBound.overHigh(session)) {
            WriteBound.pause(session);
        }
    }

    @Override
    public void messageSent(IoSession session, Object message) throws Exception {
        if (WriteBound.mayResume(session)) {
            session.resumeRead();
            if (decoder != null) {
                decoder.drain(session);
            }
        }
    }

    /**
     * The peer shut its output down (a half-close): IoHandlerAdapter closes at once, discarding the responses
     * still queued for it (0 of 20 HTTP peers that half-closed after a request got an answer, each counted
     * answered). Closed once they are written instead, as the other transports do.
     */
    @Override
    public void inputClosed(IoSession session) {
        session.closeOnFlush();
    }

    /**
     * MINA's SslFilter closes on a record that is not TLS without an alert ({@link TlsAlerts}): written past the
     * filter, as it is (the engine, failed, could not encrypt it and must not), then the session closed once it is
     * out.
     */
    private static void alertPlainTextClient(IoSession session) {
        IoFilterChain.Entry tls = session.getFilterChain().getEntry(MinaTls.FILTER);
        if (tls == null || session.isClosing()) {
            session.closeNow();
            return;
        }
        WriteFuture written = new DefaultWriteFuture(session);
        written.addListener(done -> session.closeNow());
        tls.getNextFilter().filterWrite(session, new DefaultWriteRequest(IoBuffer.wrap(TlsAlerts.unexpectedMessage()),
                written));
    }

    @Override
    public void exceptionCaught(IoSession session, Throwable cause) {
        // With --tls, a failed handshake (a plain-text client, a client that rejected the certificate) is the
        // client's protocol error, logged once per connection as the other TLS servers do.
        if (cause instanceof SSLException tls && session.setAttributeIfAbsent(TLS_FAILED, Boolean.TRUE)
                == null) {
            Object deadline = session.getAttribute(HANDSHAKE);
            if (deadline != null && !handshakes.done((HandshakeDeadlines.Deadline) deadline)) {
                session.closeNow(); // the timeout closed it first and said so
                return;
            }
            if (JdkTls.plainText(tls)) {
                alertPlainTextClient(session);
            } else {
                session.closeNow();
            }
            events.protocolError(String.valueOf(session.getRemoteAddress()), JdkTls.serverFailure(tls));
            return;
        }
        // Resets and broken pipes are a client's business; either way this connection is done.
        session.closeNow();
        // An OutOfMemoryError that MINA caught and passed here (the codec filter wraps what the decoder
        // throws in a ProtocolDecoderException): its threads may be gone or failing.
        for (Throwable t = cause; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof Error) {
                events.fatal(t);
                return;
            }
        }
    }
}
