package io.nbench.transport.mina;

import io.nbench.transport.ServerEvents;
import java.io.IOException;
import java.nio.channels.SelectionKey;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.concurrent.Executor;
import org.apache.mina.core.service.IoProcessor;
import org.apache.mina.transport.socket.nio.NioSession;
import org.apache.mina.transport.socket.nio.NioSocketAcceptor;
import java.lang.reflect.Constructor;
import org.apache.mina.core.service.IoService;

/**
 * MINA's acceptor with one change: a failed accept (out of descriptors, say) is reported as one
 * rate-limited line instead of MINA's error log with a stack trace per attempt (thousands of lines
 * while the process stays at its limit). Like MINA, it then waits 50 ms and tries again, serving the
 * open sessions meanwhile.
 */
final class ServerAcceptor extends NioSocketAcceptor {

    private final ServerEvents events;

    /**
     * MINA's session class for accepted sockets is package-private (its constructor is public): reached
     * once, by reflection, and called once per accepted connection, never per message.
     */
    private static final Constructor<?> SESSION;

    static {
        try {
            SESSION = Class.forName("org.apache.mina.transport.socket.nio.NioSocketSession")
                    .getConstructor(IoService.class, IoProcessor.class, SocketChannel.class);
            SESSION.setAccessible(true);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    ServerAcceptor(Executor executor, IoProcessor<NioSession> processor, ServerEvents events) {
        super(executor, processor);
        this.events = events;
    }

    @Override
    protected NioSession accept(IoProcessor<NioSession> processor, ServerSocketChannel handle) throws Exception {
        SelectionKey key = handle == null ? null : handle.keyFor(selector);
        if (key == null || !key.isValid() || !key.isAcceptable()) {
            return null;
        }
        try {
            SocketChannel ch = handle.accept();
            return ch == null ? null : (NioSession) SESSION.newInstance(this, processor, ch);
        } catch (IOException e) {
            events.trouble("accept", "cannot accept connections: " + e.getMessage() + "; serving the open ones and "
                    + "retrying (raise the descriptor limit with ulimit -n)");
            Thread.sleep(50);
            return null;
        }
    }
}
