package io.nbench.transport.mina;

import java.nio.channels.ClosedSelectorException;
import org.apache.mina.util.ExceptionMonitor;

/**
 * MINA's process-wide exception monitor, minus one harmless warning. In MINA 2.2.4 a NioProcessor
 * thread that goes idle (its last session closed) can race with {@code dispose()}: dispose starts a
 * fresh processor thread while the idle one closes the selector on its way out, and the fresh one's
 * first select throws {@link ClosedSelectorException}, which the default monitor logs as a warning
 * with a stack trace. Nothing is lost (the fresh thread exits at once), but a clean nbench run must
 * print nothing on stderr. Every other exception still goes to the monitor that was installed before.
 */
final class QuietExceptionMonitor extends ExceptionMonitor {

    private final ExceptionMonitor delegate;

    private QuietExceptionMonitor(ExceptionMonitor delegate) {
        this.delegate = delegate;
    }

    /** Installs the monitor once per JVM (MINA's monitor is static state). */
    static void install() {
        synchronized (QuietExceptionMonitor.class) {
            ExceptionMonitor current = ExceptionMonitor.getInstance();
            if (!(current instanceof QuietExceptionMonitor)) {
                ExceptionMonitor.setInstance(new QuietExceptionMonitor(current));
            }
        }
    }

    @Override
    public void exceptionCaught(Throwable cause) {
        if (cause instanceof ClosedSelectorException) {
            return;
        }
        delegate.exceptionCaught(cause);
    }
}
