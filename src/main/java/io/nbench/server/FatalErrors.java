package io.nbench.server;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * What a server process does when it cannot go on: an error escaped one of its threads (an
 * OutOfMemoryError, or a bug that ended an I/O loop), so some connections would never be served again
 * while the port stays open. It prints one line naming the cause and the fix and halts with exit code 1
 * at once: shutdown hooks could block on the very threads that failed, and a memory-starved JVM could
 * fail again while printing its metrics.
 */
public final class FatalErrors {

    /** Released before printing, so that the line can be built after an OutOfMemoryError. */
    private static volatile byte[] reserve;

    private FatalErrors() {
    }

    /**
     * Written when the line cannot be built: other threads may take the released reserve before this one
     * allocates. Encoded in advance, to a stream opened in advance, so writing it allocates nothing.
     */
    private static final byte[] FALLBACK = ("nbench server: out of memory: the server cannot go on; give it more with "
            + "NBENCH_JAVA_OPTS=-Xmx... (or -XX:MaxDirectMemorySize=...) or fewer connections"
            + System.lineSeparator()).getBytes(StandardCharsets.UTF_8);
    private static volatile OutputStream fallbackErr;

    /** Whether {@link #install} was called: this JVM is a server process, which a fatal error ends. */
    private static volatile boolean installed;

    /** Makes every uncaught throwable in this JVM end it with {@link #exit}. For the server command only. */
    public static void install() {
        installed = true;
        reserve = new byte[256 * 1024];
        fallbackErr = new FileOutputStream(FileDescriptor.err);
        // Initialised now, while memory is plentiful: a second failing thread waits in LockSupport.park, and
        // initialising a class in a starved heap can fail.
        try {
            Class.forName("java.util.concurrent.locks.LockSupport", true, null);
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(e);
        }
        Thread.setDefaultUncaughtExceptionHandler(FatalErrors::exit);
    }

    /**
     * Whether a fatal error ends this JVM: in the server command, yes; a server started as a library (in a
     * test, in {@code nbench run --in-process}) must not halt the program that started it.
     */
    public static boolean installed() {
        return installed;
    }

    private static final AtomicBoolean EXITING = new AtomicBoolean();

    public static void exit(Thread thread, Throwable cause) {
        if (!EXITING.compareAndSet(false, true)) {
            // Another thread failed too and is printing the one line: wait for its halt. Nothing may escape
            // from here: the JVM would print its own "OutOfMemoryError thrown from the UncaughtExceptionHandler"
            // line beside ours (seen once beside a CPU hog: NioProcessor-1 printed the line, then the metrics
            // thread's handler failed), so an error while waiting is caught and the wait goes on.
            while (true) {
                try {
                    LockSupport.park();
                } catch (Throwable stillStarved) {
                    // wait on: the halt is coming
                }
            }
        }
        reserve = null;
        try {
            String line;
            if (cause instanceof OutOfMemoryError) {
                line = "nbench server: out of memory in thread " + thread.getName() + " (" + cause.getMessage()
                        + "): the server cannot go on; give it more with NBENCH_JAVA_OPTS=-Xmx... (or "
                        + "-XX:MaxDirectMemorySize=...) or fewer connections";
            } else {
                line = "nbench server: thread " + thread.getName() + " failed (" + cause
                        + "): the server cannot go on; please report this with the command line";
            }
            System.err.println(line);
            System.err.flush();
        } catch (Throwable e) {
            try {
                if (fallbackErr != null) {
                    fallbackErr.write(FALLBACK);
                }
            } catch (Throwable ignored) {
                // exiting anyway; the exit code still says it
            }
        } finally {
            Runtime.getRuntime().halt(1);
        }
    }
}
