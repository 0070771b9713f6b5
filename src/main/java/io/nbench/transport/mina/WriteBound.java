package io.nbench.transport.mina;

import org.apache.mina.core.session.IoSession;

/**
 * Server backpressure. A client that sends but never reads would make MINA queue responses without
 * bound (session.write never refuses). So a session stops being read, and the framed decoder stops
 * answering what it has already buffered, while the bytes it has scheduled for writing exceed
 * {@link #HIGH}; both resume when they drain to {@link #LOW}. What one connection can hold is therefore
 * about HIGH plus one response (at most --max-frame) plus one read buffer and one partial request.
 * All calls run on the session's I/O thread (NioProcessor), except {@link #pause} from mina.executor's
 * thread for echo.
 */
final class WriteBound {

    static final int HIGH = 1024 * 1024;
    static final int LOW = 256 * 1024;

    private WriteBound() {
    }

    static boolean overHigh(IoSession session) {
        return session.getScheduledWriteBytes() > HIGH;
    }

    static void pause(IoSession session) {
        if (!session.isReadSuspended()) {
            session.suspendRead();
            // With mina.executor the echo handler pauses from an executor thread while the processor keeps
            // writing: if the processor sent the last queued bytes (and ran messageSent, finding the session
            // not yet paused) before the pause, no messageSent would ever resume it. On the processor's own
            // thread nothing can be sent in between, so this never fires there.
            if (session.getScheduledWriteBytes() <= LOW) {
                session.resumeRead();
            }
        }
    }

    /** On messageSent: true when reading was paused and may resume. */
    static boolean mayResume(IoSession session) {
        return session.isReadSuspended() && session.getScheduledWriteBytes() <= LOW;
    }
}
