package io.nbench.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nbench.load.LoadSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A client plan from typed values, as a program builds one without the command line: the sweep expanded in
 * the command line's order, each combination resolved, and a value that does not go with the others refused
 * before anything runs, with the message the command line prints.
 */
class ClientPlanBuilderTest {

    @Test
    void theSweepIsEveryCombinationInColumnOrderWithTheDefaultWindowNamedByItsValue() throws Exception {
        ClientPlan plan = ClientPlan.builder().impls(List.of("netty", "nio")).sweep(List.of(100, 200), List.of(2),
                null, List.of(50_000.0)).iterations(0, 1).iterationTime(Duration.ofMillis(10)).build();

        assertEquals(List.of("impl", "size", "threads", "window", "rate"), plan.keys());
        assertEquals(List.of("impl=netty,size=100,threads=2,window=1,rate=50000",
                        "impl=netty,size=200,threads=2,window=1,rate=50000",
                        "impl=nio,size=100,threads=2,window=1,rate=50000",
                        "impl=nio,size=200,threads=2,window=1,rate=50000"),
                plan.steps().stream().map(s -> s.combination().name()).toList());
        LoadSpec first = plan.steps().get(0).load();
        assertEquals(100, first.size());
        assertEquals(0, first.warmup());
        assertEquals(1, first.iterations());
        assertNull(plan.firstIterationAt());
    }

    @Test
    void anOptionKeyOfATransportNotInUseIsRefusedNamingTheFix() {
        InvalidClientPlan e = assertThrows(InvalidClientPlan.class, () -> ClientPlan.builder()
                .impls(List.of("nio")).transportOptions(Map.of("netty.io", List.of("nio"))).build());

        assertEquals("-O netty.io is an option of transport netty, which this command does not use (--impl nio): "
                + "leave it out or add netty to --impl", e.getMessage());
    }

    @Test
    void aStartInstantNeedsTimeBasedIterationsAndTimeForTheWarmup() throws Exception {
        Instant soon = Instant.now().plusSeconds(60);
        assertTrue(assertThrows(InvalidClientPlan.class, () -> ClientPlan.builder().startAt(soon).build())
                .getMessage().startsWith("--start-at needs --iteration-time"));

        ClientPlan plan = ClientPlan.builder().startAt(soon).iterationTime(Duration.ofSeconds(2)).iterations(3, 1)
                .build();
        assertEquals(soon.minusSeconds(6), plan.firstIterationAt());
    }
}
