package io.nbench.process;

import io.nbench.client.ExitCode;
import io.nbench.files.Directories;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A child JVM of nbench ({@code run}'s servers, {@code --forks}' clients) ends when the nbench that started it
 * ends, however that one ends: a parent killed with SIGKILL runs no hook, and its children ran on for good
 * (parent PID 1, ports open, {@code run}'s monitor tokens left in the temporary directory).
 *
 * <p>The parent holds the only write end of the child's stdin (a pipe: {@link ProcessBuilder}'s default; the JDK
 * closes every other descriptor in a child it starts, so no sibling holds it) and never writes to it. The kernel
 * closes it when the parent dies, by any signal, so EOF on stdin is the parent's death, seen at once: unlike the
 * parent's PID, it cannot be reused by another process, and nothing polls. The child then removes the parent's
 * scratch directory (where {@code run} keeps its servers' monitor tokens, which a killed parent cannot remove)
 * and ends as on SIGTERM (its hooks: a server's stop, a client's partial results, to a parent no longer there),
 * halted after {@link #HALT_AFTER} if they take longer.
 *
 * <p>Only a JVM started with {@link #ENV} in its environment (by {@link ChildJvm#builder}) watches: a server
 * started by hand, whose stdin may be a terminal, /dev/null or closed (nohup, systemd), is not affected.
 */
public final class EndWithParent {

    /** The variable {@link ChildJvm} gives a child: the parent's scratch directory to remove, or empty. */
    static final String ENV = "NBENCH_END_WITH_PARENT";

    /** Only a directory nbench created ({@code nbench-run...}, {@code nbench-forks...}) is removed. */
    private static final String SCRATCH_PREFIX = "nbench-";

    /** How long the child's own hooks may take once the parent is gone. */
    private static final Duration HALT_AFTER = Duration.ofSeconds(5);

    private EndWithParent() {
    }

    /** In a child started by {@link ChildJvm}: watches stdin on a daemon thread, and ends this JVM at its EOF. */
    public static void watchIfAsked() {
        String scratch = System.getenv(ENV);
        if (scratch == null) {
            return;
        }
        long parent = ProcessHandle.current().parent().map(ProcessHandle::pid).orElse(-1L);
        Thread watch = new Thread(() -> {
            awaitEof(System.in);
            end(parent, scratch.isEmpty() ? null : Path.of(scratch), System.err);
        }, "nbench-end-with-parent");
        watch.setDaemon(true);
        watch.start();
    }

    /** Returns at EOF (or when stdin cannot be read: no parent to hear from either); what is read is ignored. */
    static void awaitEof(InputStream in) {
        byte[] ignored = new byte[64];
        try {
            while (in.read(ignored) >= 0) {
                // the parent writes nothing
            }
        } catch (IOException e) {
            // the same as EOF
        }
    }

    private static void end(long parent, Path scratch, PrintStream err) {
        // stderr: a server's is run's, the terminal run was started from, which the user still sees.
        err.println("nbench: the nbench that started this JVM (pid " + parent + ") has ended: stopping");
        err.flush();
        if (scratch != null) {
            removeScratch(scratch);
        }
        Thread halt = new Thread(() -> {
            try {
                Thread.sleep(HALT_AFTER.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            Runtime.getRuntime().halt(ExitCode.INTERRUPTED);
        }, "nbench-end-with-parent-halt");
        halt.setDaemon(true);
        halt.start();
        System.exit(ExitCode.INTERRUPTED);
    }

    /** Removes {@code dir} and everything in it, if nbench created it; quietly (others may remove it too). */
    static void removeScratch(Path dir) {
        if (dir.getFileName() == null || !dir.getFileName().toString().startsWith(SCRATCH_PREFIX)) {
            return;
        }
        Directories.deleteQuietly(dir); // run's other server may have removed it already
    }
}
