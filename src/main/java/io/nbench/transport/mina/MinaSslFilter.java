package io.nbench.transport.mina;

import java.net.InetSocketAddress;
import java.util.function.BiFunction;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import org.apache.mina.core.session.IoSession;
import org.apache.mina.core.write.WriteRequest;
import org.apache.mina.filter.ssl.DisableEncryptWriteRequest;
import org.apache.mina.filter.ssl.EncryptedWriteRequest;
import org.apache.mina.filter.ssl.SslFilter;

/**
 * MINA's SslFilter as nbench sets it up: nbench's engine (MINA's own would name the peer by a reverse lookup of
 * its address), MINA's blocking pipeline, and a backlog for the writes its handler has no room for.
 *
 * <p><b>The blocking pipeline</b> ({@code SSLHandlerG0}, not MINA 2.2.4's default {@code SSLHandlerG1}). The
 * non-blocking one encrypts under its handler's lock into a queue, then hands the queue's records on after
 * releasing it ({@code forward_writes}, at the end of every write, acknowledgement, receive, open and close, and
 * of every handshake task on its static {@code ssl-exec} executor). Two threads draining at once each take a
 * record and race to pass it on: a sender's write against the processor's acknowledgement, or against an
 * {@code ssl-exec} task still draining after the handshake it ran. TLS 1.3 numbers every record, so the peer
 * rejects the connection ({@code Tag mismatch!} in a JDK peer; OpenSSL sends bad_record_mac and resets it). A lock
 * of nbench's around this filter's events could not close it: the tasks' drain runs on MINA's executor, out of any
 * filter method's reach (CI, beside stress-ng). The blocking pipeline calls the next filter from inside the
 * handler's own {@code synchronized} methods, tasks included, so each record is made and queued on the session in
 * one step; it also passes decrypted bytes on at once, where the non-blocking one keeps what a task decrypted
 * until the next read. What it costs: the handler's lock is held while the codec and handler behind it run, so a
 * sender waits while a read is decoded (measured in docs/transports.md).
 *
 * <p><b>The backlog</b> ({@link SslWriteBacklog}): the handler refuses a write beyond 64 queued ones.
 */
final class MinaSslFilter extends SslFilter {

    private final BiFunction<IoSession, InetSocketAddress, SSLEngine> engines;

    MinaSslFilter(SSLContext context, BiFunction<IoSession, InetSocketAddress, SSLEngine> engines) {
        super(context);
        this.engines = engines;
        setUseNonBlockingPipeline(false);
    }

    @Override
    protected SSLEngine createEngine(IoSession session, InetSocketAddress remote) {
        return engines.apply(session, remote);
    }

    @Override
    public void filterWrite(NextFilter next, IoSession session, WriteRequest request) throws Exception {
        Object handler = session.getAttribute(SSL_HANDLER);
        if (handler == null || request instanceof EncryptedWriteRequest
                || request instanceof DisableEncryptWriteRequest) {
            super.filterWrite(next, session, request);
            return;
        }
        // The handler's own monitor (its methods synchronize on it): admitting and handing on are one step.
        synchronized (handler) {
            SslWriteBacklog backlog = SslWriteBacklog.of(session);
            if (backlog.admit(request)) {
                handOn(next, session, request, backlog);
            }
        }
    }

    @Override
    public void messageSent(NextFilter next, IoSession session, WriteRequest request) throws Exception {
        super.messageSent(next, session, request);
        // The last record of a write of the application's: the handler has room for one more.
        if (request instanceof EncryptedWriteRequest encrypted && encrypted.getOriginalRequest() != encrypted) {
            Object handler = session.getAttribute(SSL_HANDLER);
            if (handler == null) {
                return;
            }
            synchronized (handler) {
                SslWriteBacklog backlog = SslWriteBacklog.of(session);
                backlog.done();
                for (WriteRequest waiting; (waiting = backlog.next()) != null; ) {
                    handOn(next, session, waiting, backlog);
                }
            }
        }
    }

    private void handOn(NextFilter next, IoSession session, WriteRequest request, SslWriteBacklog backlog)
            throws Exception {
        try {
            super.filterWrite(next, session, request);
        } catch (Exception refused) {
            backlog.done();
            throw refused;
        }
    }
}
