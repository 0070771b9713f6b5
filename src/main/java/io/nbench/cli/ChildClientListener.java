package io.nbench.cli;

import io.nbench.report.SweepResult;
import io.nbench.report.json.ResultDoc;
import java.nio.file.Path;

/**
 * Hears what a client that {@code nbench run} started has measured, so run reads no result of its own clients
 * back from a file: a client in run's JVM hands over its typed result and the document it built of it; a
 * fork ({@code --forks}, a JVM of its own so that its JIT and heap start fresh) hands over the document it
 * wrote, read once, by the one reader of result documents ({@link io.nbench.report.compare.ResultFile#document}).
 */
interface ChildClientListener {

    /** A client in this JVM ended: its typed result and its result document (as {@code --out} writes it). */
    void ran(SweepResult result, ResultDoc document);

    /**
     * The time {@code nbench run} plans after this client's run (its later rounds), ns, so that the client's
     * progress line says what is left of the whole run, not of its own round.
     */
    default long plannedAfterNanos() {
        return 0;
    }

    /** Fork {@code fork} ended and wrote {@code file}, whose document is {@code document}. */
    default void forked(int fork, Path file, ResultDoc document) {
    }
}
