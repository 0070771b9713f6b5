package io.nbench.cli;

import io.nbench.client.ExitCode;
import io.nbench.report.AtomicFiles;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * SIGINT/SIGTERM for a command. The JVM runs its shutdown hooks on either; this one stops the command's work
 * ({@code stop}), waits (at most {@code grace}) until the command has printed and written what it measured,
 * stopped its child processes and removed its temporary files, runs {@code last}, removes the temporary files
 * of writes still in progress, and ends the JVM with exit code 130. Commands nest: {@code nbench run} runs its
 * clients in this JVM; a nested command's hook only stops its work, and the outermost one, which waits for
 * everything inside it, ends the JVM. Without this, the client's hook ended the JVM as soon as the client was
 * done, and {@code run} never stopped its server nor removed its temporary directory.
 */
final class Interruption implements AutoCloseable {

    private static final AtomicReference<Interruption> OUTERMOST = new AtomicReference<>();

    private final CountDownLatch finished = new CountDownLatch(1);
    private final Thread hook;

    private Interruption(String name, Duration grace, Runnable stop, Runnable last) {
        boolean outermost = OUTERMOST.compareAndSet(null, this);
        this.hook = new Thread(() -> {
            stop.run();
            if (!outermost) {
                return;
            }
            try {
                finished.await(grace.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            last.run();
            AtomicFiles.deleteTemporaries();
            Runtime.getRuntime().halt(ExitCode.INTERRUPTED);
        }, name);
    }

    /** Installs the hook; a command that starts while the JVM is already ending is stopped at once. */
    static Interruption install(String name, Duration grace, Runnable stop, Runnable last) {
        Interruption i = new Interruption(name, grace, stop, last);
        try {
            Runtime.getRuntime().addShutdownHook(i.hook);
        } catch (IllegalStateException shuttingDown) {
            stop.run();
        }
        return i;
    }

    /** The command is done: printed, written, cleaned up. */
    @Override
    public void close() {
        finished.countDown();
        OUTERMOST.compareAndSet(this, null);
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running: it ends the JVM with 130 now that this command is done
        }
    }
}
