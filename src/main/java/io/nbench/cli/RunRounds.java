package io.nbench.cli;

import java.util.ArrayList;
import java.util.List;

/**
 * The order in which {@code nbench run} measures its servers. Its client lives in run's own JVM, so whichever
 * server it measured first also paid for the client's JIT warmup, and a noisy minute on a shared machine hurt
 * only the server measured in it; swapping {@code --servers} swapped the result. So the measured iterations are
 * dealt out in rounds, each round measuring every server in turn, and every other round in the reverse order
 * (A B C, C B A, A B C ...): a server's position in the round, and a trend over the run (the machine getting
 * busier, the client still warming up), then weigh on every server alike. The warmup before the first round
 * (every server, in {@code --servers} order) is not part of this schedule.
 */
final class RunRounds {

    /** One client run of a round: the server (its index in {@code --servers}) and how many iterations it measures. */
    record Turn(int round, int server, int iterations) {
    }

    private RunRounds() {
    }

    /**
     * Every measured client run, in the order they run: {@code rounds} rounds over {@code servers} servers,
     * {@code iterations} measured iterations per server dealt out as evenly as they go (earlier rounds take
     * the one left over).
     */
    static List<Turn> schedule(int servers, int rounds, int iterations) {
        if (rounds < 1 || rounds > iterations) {
            throw new IllegalArgumentException("rounds must be between 1 and the iterations (" + iterations + "): "
                    + rounds);
        }
        List<Turn> turns = new ArrayList<>();
        for (int r = 1; r <= rounds; r++) {
            int each = iterations / rounds + (r <= iterations % rounds ? 1 : 0);
            for (int i = 0; i < servers; i++) {
                turns.add(new Turn(r, r % 2 == 1 ? i : servers - 1 - i, each));
            }
        }
        return turns;
    }
}
