package io.nbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The order of nbench run's measured client runs: every server once per round, every other round reversed. */
class RunRoundsTest {

    @Test
    void everyOtherRoundIsReversedAndTheIterationsAreDealtOutEvenly() {
        List<RunRounds.Turn> turns = RunRounds.schedule(3, 2, 5);
        assertEquals(List.of(0, 1, 2, 2, 1, 0), turns.stream().map(RunRounds.Turn::server).toList());
        assertEquals(List.of(3, 3, 3, 2, 2, 2), turns.stream().map(RunRounds.Turn::iterations).toList());
        for (int server = 0; server < 3; server++) {
            int s = server;
            assertEquals(5, turns.stream().filter(t -> t.server() == s).mapToInt(RunRounds.Turn::iterations).sum(),
                    "each server measures every iteration asked for");
        }
    }

    @Test
    void roundsOutsideOneToTheIterationsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> RunRounds.schedule(2, 0, 5));
        assertThrows(IllegalArgumentException.class, () -> RunRounds.schedule(2, 6, 5));
    }
}
