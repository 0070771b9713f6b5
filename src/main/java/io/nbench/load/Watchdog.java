package io.nbench.load;

import io.nbench.stats.ErrorCounts;
import io.nbench.transport.ErrorKind;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;

/**
 * The watchdog thread: every tenth of the timeout it fails messages past the timeout (reopening FIFO echo
 * connections that lost a reply), and stops the run when the server has gone silent or the errors are
 * past the budget. A stalled server must end the run: otherwise each timeout frees a slot, the next
 * message goes out, and the run goes on for ever.
 */
final class Watchdog {

    private final RunControl run;
    private final LoadSpec spec;
    private final ConnectionSet connectionSet;
    private final RunListener listener;
    /** Errors that say the server is not answering, beyond which the run stops; -1 = no limit. */
    private final long errorBudget;
    private final String errorBudgetLabel;
    /**
     * When the watchdog started, right before the first iteration: silence is counted from here. Written
     * once by {@link #start}, before the thread starts, which makes it visible to the thread.
     */
    private long started;
    private final Thread thread;

    Watchdog(RunControl run, ConnectionSet connections, RunListener listener, long errorBudget,
             String errorBudgetLabel) {
        this.run = run;
        this.spec = run.spec;
        this.connectionSet = connections;
        this.listener = listener;
        this.errorBudget = errorBudget;
        this.errorBudgetLabel = errorBudgetLabel;
        this.thread = new Thread(this::watch, "nbench-timeout-watchdog");
        thread.setDaemon(true);
    }

    void start() {
        started = run.clock.nanoTime();
        if (run.ioDriver || spec.openLoop()) {
            run.replacer = thread; // no sender thread replaces a connection the server closed: this one does
        }
        thread.start();
    }

    /** Ends the thread (if it was started); the run must be {@link ConnectionHost#closing} already. */
    void stop() {
        LockSupport.unpark(thread);
        try {
            thread.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void watch() {
        long period = Math.max(1_000_000L, Math.min(100_000_000L, spec.timeoutNanos() / 10));
        LoadConnection[] connections = connectionSet.all();
        ThreadContext ctx = run.contextFor(Thread.currentThread());
        while (!run.closing) {
            LockSupport.parkNanos(period);
            long now = run.clock.nanoTime();
            int expired = 0;
            for (LoadConnection c : connections) {
                // Closed connections too: a message published as the connection died is freed here.
                expired += c.expire(now, spec.timeoutNanos(), ctx);
            }
            if (expired > 0 && !run.aborted()) {
                checkSilence(now);
            }
            if (run.ioDriver || spec.openLoop()) {
                replaceClosed(connections);
            }
            for (LoadConnection c : connections) {
                if (c.reopenNeeded && !run.closing && !run.aborted() && connectionSet.reopen(c, ctx)) {
                    run.reconnects.increment();
                    listener.onReconnect();
                }
            }
            checkErrorBudget();
        }
    }

    /**
     * Io driver and open loop (no sender thread replaces connections there): replaces each connection the server
     * closed (HTTP), which re-sends on the new one what the old left unanswered, and, io driver, sends its share
     * again; counted as a reconnect.
     */
    private void replaceClosed(LoadConnection[] connections) {
        for (LoadConnection c : connections) {
            if (c.replaceNeeded.get() && !c.dead && !run.closing && !run.aborted()
                    && c.replaceNeeded.compareAndSet(true, false)) {
                connectionSet.replace(c);
                run.reconnects.increment();
                if (run.ioDriver) {
                    c.resumeFromIo();
                }
            }
        }
    }

    /** Messages timed out just now: if no connection has heard from the server for the timeout, stop. */
    private void checkSilence(long now) {
        long last = started;
        LoadConnection[] connections = connectionSet.all();
        for (LoadConnection c : connections) {
            last = Math.max(last, c.lastAnswer());
        }
        long silent = now - last;
        if (silent > spec.timeoutNanos()) {
            run.abort(AbortCause.STALLED, "no response from the server on any of the " + connections.length
                    + " connection(s) for " + TimeUnit.NANOSECONDS.toMillis(silent) + " ms (--timeout "
                    + TimeUnit.NANOSECONDS.toMillis(spec.timeoutNanos()) + " ms): the server is stalled or "
                    + "does not answer; check that it runs and is not stopped or overloaded");
        }
    }

    private void checkErrorBudget() {
        if (errorBudget < 0 || run.aborted()) {
            return;
        }
        ErrorCounts.Snapshot e = run.errors.snapshot();
        long n = e.get(ErrorKind.TIMEOUT) + e.get(ErrorKind.READ) + e.get(ErrorKind.WRITE) + e.get(ErrorKind.CONNECT);
        if (n > errorBudget) {
            run.abort(AbortCause.TOO_MANY_ERRORS, n + " errors (" + e.nonZero().entrySet().stream()
                    .map(x -> x.getKey().label() + "=" + x.getValue()).collect(Collectors.joining(", "))
                    + ") > --max-errors " + errorBudgetLabel + ": the server is not answering; raise --max-errors to "
                    + "tolerate errors");
        }
    }
}
