package io.nbench.load;

import io.nbench.resources.ResourceSnapshot;
import io.nbench.resources.ResourceUsage;
import io.nbench.stats.DrainResult;
import io.nbench.stats.ErrorCounts;
import io.nbench.stats.IntervalResult;
import io.nbench.stats.IterationResult;
import io.nbench.stats.LatencyHistograms;
import io.nbench.stats.OpenLoopFigures;
import io.nbench.stats.ShortIterations;
import io.nbench.stats.StatusClassLatency;
import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * The iteration and interval boundaries of a run, and the harvest at each: at a boundary every per-thread
 * recorder is flipped and every count read at one instant (a {@link Cut}), then added up into the
 * iteration's or the one-second slice's result and handed to the listener. Coordinator thread only.
 *
 * <p>An iteration's figures are final when it ends: its histograms are handed to its result and the clock
 * lets go of them, so nothing recorded later (the drain of a time-based run, the next iteration) can reach
 * a result that has been printed. What completes after a time-based run's last boundary is the drain's
 * ({@link #beginDrain}, {@link #endDrain}): its own figure, with no one-second slices.
 */
final class IterationClock {

    private static final long TICK_NANOS = 1_000_000_000L;

    private final LoadSpec spec;
    private final NanoClock clock;
    private final RunListener listener;
    /** Whether the transport's connects include a TLS handshake ({@link ConnectionHost#handshakes}). */
    private final ConnectionHost host;
    private final Recorders recorders;
    private final ErrorCounts errors;
    private final SenderGroup senders;
    /** The request payload a message sends, for MiB/s (none for an HTTP GET). */
    private final int payloadBytes;
    /** A request's bytes on the wire, header and payload: bytes out are the completed messages' requests. */
    private final long requestWireBytes;
    /** The TLS handshakes of the connections opened before the first iteration ({@link RunControl#openingHandshakes}). */
    private final long openingHandshakes;

    private long runStart;
    private long runStartEpochMillis = System.currentTimeMillis();
    private int iteration;
    /** What the current iteration (or the drain) has harvested so far; null between an iteration's end and the next start. */
    private Tally tally;
    private ErrorCounts.Snapshot iterationErrors;
    private long iterationClamped;
    private ResourceSnapshot iterationResources;
    private long intervalStart;
    private ErrorCounts.Snapshot intervalErrors;
    private long nextTick = Long.MAX_VALUE;
    private Cut lastCut;

    IterationClock(RunControl run, SenderGroup senders, RunListener listener) {
        this.spec = run.spec;
        this.host = run;
        this.clock = run.clock;
        this.recorders = run.recorders;
        this.errors = run.errors;
        this.senders = senders;
        this.listener = listener;
        this.payloadBytes = spec.requestPayloadBytes();
        this.requestWireBytes = run.requestWireBytes;
        this.openingHandshakes = run.openingHandshakes;
    }

    /** When the next one-second slice is due (the run clock); coordinator waits wake up for it. */
    long nextTick() {
        return nextTick;
    }

    long runStartEpochMillis() {
        return runStartEpochMillis;
    }

    /** The cut that ended the last iteration. */
    Cut lastCut() {
        return lastCut;
    }

    long beginIteration(int i) {
        return beginIteration(i, 0, null);
    }

    /**
     * @param from the cut that ended the previous iteration, which starts this one back to back at
     *             {@code start}; null to start now, once the set-up (allocations, /proc) is done
     */
    long beginIteration(int i, long start, Cut from) {
        iteration = i;
        tally = new Tally(spec);
        iterationResources = ResourceSnapshot.take();
        if (from == null) {
            start = clock.nanoTime();
        }
        iterationErrors = from != null ? from.errors() : errors.snapshot();
        iterationClamped = from != null ? from.clamped() : recorders.clamped();
        intervalStart = start;
        intervalErrors = iterationErrors;
        nextTick = start + TICK_NANOS;
        // Count-based: every iteration's schedules start here; time-based: the first one's, once. Either
        // way the sends due in an iteration are counted from its own start, whenever a pacer wakes.
        senders.scheduleStart = start;
        if (i == 0) {
            runStart = start;
            runStartEpochMillis = System.currentTimeMillis() - (clock.nanoTime() - start) / 1_000_000L;
            listener.onStarted(runStartEpochMillis);
        }
        return start;
    }

    /** Called by every coordinator wait loop: closes the current one-second slice when it is due. */
    void tick() {
        if (clock.nanoTime() >= nextTick) {
            closeInterval(cut(false));
        }
    }

    /**
     * Every count of the run at one instant: the recorders' intervals (completions, latencies, connects),
     * errors, clamped values, and in the open loop the pacers' sends and in-flight-cap waits. Taken
     * first at a boundary, within microseconds, before anything slow (merging histograms, /proc,
     * listeners that print or write files): whatever happens after the boundary belongs to the next
     * iteration or slice.
     */
    record Cut(long at, ThreadContext[] contexts, ErrorCounts.Snapshot errors, long clamped, long sent,
               long hits) {
    }

    /**
     * @param sends read the pacers' counters too: only at an iteration's end, when no pacer is replacing
     *              its schedules (count-based pacers do that at the start of each iteration)
     */
    private Cut cut(boolean sends) {
        ThreadContext[] cs = recorders.flipAll();
        ErrorCounts.Snapshot e = errors.snapshot();
        long clampedNow = recorders.clamped();
        long sent = 0;
        long hits = 0;
        if (sends && spec.openLoop()) {
            long[] d = senders.takeCounts();
            sent += d[0];
            hits += d[1];
        }
        // The instant is read last, right after the sends: the rate check divides one by the other.
        return new Cut(clock.nanoTime(), cs, e, clampedNow, sent, hits);
    }

    /**
     * The histograms an iteration (or the drain) adds its slices into: latency, and where kept the uncorrected
     * latency, the send lag and the connect latency.
     */
    private static final class Tally {
        final Histogram latency = LatencyHistograms.newHistogram();
        final Histogram uncorrected;
        final Histogram lag;
        final Histogram connects;
        final Histogram handshakes;
        /** The resumed ones of {@link #handshakes}: their count is what the result keeps. */
        final Histogram resumedHandshakes;
        /** HTTP: the latency by status class; null otherwise. */
        final StatusClassLatency statusClasses;
        /** The bytes of the responses received, every thread's added up. */
        long bytesIn;

        Tally(LoadSpec spec) {
            statusClasses = spec.protocol().responsesVerifiable() ? null : new StatusClassLatency();
            uncorrected = spec.openLoop() ? LatencyHistograms.newHistogram() : null;
            lag = spec.openLoop() ? LatencyHistograms.newHistogram() : null;
            connects = spec.replacesConnections() ? LatencyHistograms.newHistogram() : null;
            handshakes = spec.replacesConnections() ? LatencyHistograms.newHistogram() : null;
            resumedHandshakes = spec.replacesConnections() ? LatencyHistograms.newHistogram() : null;
        }
    }

    /** Adds what {@code cut} flipped into the tally; returns the slice's latency alone. */
    private Histogram harvest(Cut cut) {
        Histogram h = LatencyHistograms.newHistogram();
        for (ThreadContext c : cut.contexts()) {
            c.addFlipped(h, tally.uncorrected, tally.lag, tally.connects, tally.handshakes, tally.resumedHandshakes);
            c.addFlippedClasses(tally.statusClasses == null ? null : tally.statusClasses.histograms());
            tally.bytesIn += c.flippedBytesIn();
            Thread owner = c.owner; // null: released, waiting in the queue to be adopted (and listed until then)
            if (owner != null && !owner.isAlive()) {
                // Its thread is gone (a churned connection's reader): everything it recorded is in now.
                recorders.retire(c);
            }
        }
        tally.latency.add(h);
        return h;
    }

    /** Closes the slice with what {@code cut} took at its end. */
    private void closeInterval(Cut cut) {
        long end = cut.at();
        Histogram h = harvest(cut);
        boolean warmup = iteration < spec.warmup();
        listener.onInterval(new IntervalResult(index(iteration), warmup, intervalStart - runStart, end - runStart, h,
                cut.errors().minus(intervalErrors)));
        intervalErrors = cut.errors();
        intervalStart = end;
        nextTick = end + TICK_NANOS;
    }

    private int index(int i) {
        return i < spec.warmup() ? i + 1 : i - spec.warmup() + 1;
    }

    /**
     * Ends the iteration that started at {@code start}; returns the instant it ended. A time-based iteration
     * cut under half its time (the run stopped in it) is partial whatever the caller says: the summary leaves
     * it out ({@link ShortIterations}).
     */
    long endIteration(List<IterationResult> results, long start, boolean partial) {
        Cut cut = cut(true); // first: every count at the iteration's end
        lastCut = cut;
        long end = cut.at();
        partial |= ShortIterations.tooShort(end - start, spec.iterationNanos());
        closeInterval(cut);
        ResourceUsage usage = ResourceUsage.between(iterationResources, ResourceSnapshot.take());
        Tally t = tally;
        // From here on the result owns these histograms: the clock lets go of them (and stops slicing until
        // the next iteration or the drain begins), so the figures printed now are the figures kept.
        tally = null;
        nextTick = Long.MAX_VALUE;
        OpenLoopFigures open = spec.openLoop()
                ? new OpenLoopFigures(spec.rate(), cut.sent(), cut.hits(), t.uncorrected, t.lag) : null;
        long messages = t.latency.getTotalCount();
        // The first connections' handshakes were made before any iteration: the first measured one reports them.
        long opening = iteration == spec.warmup() && host.handshakes ? openingHandshakes : 0;
        IterationResult r = new IterationResult(index(iteration), iteration < spec.warmup(),
                messages, end - start, payloadBytes, t.latency,
                cut.errors().minus(iterationErrors), cut.clamped() - iterationClamped, partial, usage, open,
                t.connects, host.handshakes ? t.handshakes : null,
                host.handshakes && t.resumedHandshakes != null ? t.resumedHandshakes.getTotalCount() : 0,
                t.statusClasses, t.bytesIn, messages * requestWireBytes, opening);
        results.add(r);
        listener.onIteration(r);
        return end;
    }

    /**
     * A time-based run's last iteration has ended: what completes from now on is the drain's. No one-second
     * slices are closed during it (they would be reported as the last iteration's).
     */
    void beginDrain() {
        tally = new Tally(spec);
        nextTick = Long.MAX_VALUE;
    }

    /** Ends the drain begun after the last iteration: everything completed since that iteration's cut. */
    DrainResult endDrain() {
        Cut cut = cut(false);
        harvest(cut);
        Tally t = tally;
        tally = null;
        Cut from = lastCut;
        long start = from != null ? from.at() : cut.at();
        ErrorCounts.Snapshot before = from != null ? from.errors() : cut.errors();
        return new DrainResult(t.latency.getTotalCount(), cut.at() - start, t.latency, cut.errors().minus(before));
    }
}
