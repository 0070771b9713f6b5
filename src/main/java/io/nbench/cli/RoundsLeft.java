package io.nbench.cli;

import java.time.Duration;
import java.util.List;

/**
 * What is left of {@code nbench run}'s rounds after each one, so that the client's progress line estimates the
 * whole run, not its own round (which said {@code 0:00 left} at the end of every round): the later rounds'
 * iterations times {@code --iteration-time}, or, counted by messages, times the mean time an iteration has taken
 * so far (nothing before the first round ends). Connects and server hand-overs between rounds are not counted.
 */
final class RoundsLeft {

    private final List<RunRounds.Turn> turns;
    private final long iterationNanos;
    private long spentNanos;
    private long iterationsRun;

    /** @param iterationTime {@code --iteration-time}, or null for a run counted by messages */
    RoundsLeft(List<RunRounds.Turn> turns, Duration iterationTime) {
        this.turns = List.copyOf(turns);
        this.iterationNanos = iterationTime == null ? 0 : iterationTime.toNanos();
    }

    /** The time planned after turn {@code index} (0-based) of the schedule, ns. */
    long after(int index) {
        long later = 0;
        for (RunRounds.Turn t : turns.subList(index + 1, turns.size())) {
            later += t.iterations();
        }
        long perIteration = iterationNanos > 0 ? iterationNanos : iterationsRun == 0 ? 0 : spentNanos / iterationsRun;
        return later * perIteration;
    }

    /** The whole measurement's planned time, ns; 0 when counted by messages (not known before it runs). */
    long total() {
        return turns.stream().mapToLong(RunRounds.Turn::iterations).sum() * iterationNanos;
    }

    /** A turn of {@code iterations} took {@code nanos}. */
    void ran(int iterations, long nanos) {
        spentNanos += nanos;
        iterationsRun += iterations;
    }
}
