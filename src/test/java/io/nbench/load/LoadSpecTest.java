package io.nbench.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.nbench.protocol.Protocol;
import java.time.Duration;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The workload's rules as a library caller meets them: every inconsistent combination is refused by the
 * spec itself with the one-line message the CLI prints, and the defaults that depend on other settings
 * resolve as on the command line.
 */
class LoadSpecTest {

    static Stream<Arguments> rules() {
        return Stream.of(
            rule("--threads must be at least 1", b -> b.threads(0)),
            rule("--connections must be at least 1", b -> b.connections(0)),
            rule("--msgs and --iteration-time exclude each other: choose count-based or time-based iterations",
                    b -> b.msgs(10L).iterationTime(Duration.ofSeconds(1))),
            rule("--msgs must be at least 1", b -> b.msgs(0L)),
            rule("--iteration-time must be at least 1ms", b -> b.iterationTime(Duration.ofNanos(999_999))),
            rule("--iteration-time must be at least 1ms", b -> b.iterationTime(Duration.ZERO)),
            rule("--iterations must be at least 1 and --warmup at least 0", b -> b.iterations(0)),
            rule("--iterations must be at least 1 and --warmup at least 0", b -> b.warmup(-1)),
            rule("--warmup 2147483647 + --iterations 1 is more iterations than nbench counts: use at most 2147483647 "
                    + "in all", b -> b.warmup(Integer.MAX_VALUE).iterations(1)),
            rule("--iteration-time 60000000 min x 1000 iterations (warmup included) is longer than nbench times: use "
                    + "a shorter --iteration-time or fewer iterations",
                    b -> b.iterationTime(Duration.ofHours(1_000_000)).iterations(1000).warmup(0)),
            rule("--msgs 4611686018427387904 x --threads 4 x 1 iterations (warmup included) is more messages than "
                    + "nbench counts: use a smaller --msgs", b -> b.msgs(1L << 62).warmup(0).iterations(1)),
            rule("--batch must be 0 (off) or more", b -> b.batch(-1)),
            rule("--requests-per-connection must be 0 (keep connections) or more", b -> b.requestsPerConnection(-1)),
            rule("--batch needs sender threads that wait or reconnect: use --driver threads (or leave --driver out)",
                    b -> b.batch(2).driver(Driver.IO)),
            rule("--requests-per-connection needs sender threads that wait or reconnect: use --driver threads (or "
                    + "leave --driver out)", b -> b.requestsPerConnection(1).driver(Driver.IO)),
            rule("--measure send needs --driver threads (or leave --driver out): a transport may report the write "
                    + "inside the send itself, and the io driver would then send on and on from there",
                    b -> b.measure(Measure.SEND).responseSize(0).driver(Driver.IO)),
            rule("--requests-per-connection needs at least as many --connections as --threads: each thread "
                    + "reconnects its own connections", b -> b.requestsPerConnection(1).threads(4).connections(2)),
            rule("--window must be at least 1", b -> b.window(0)),
            rule("--window 300000000 is more than one connection tracks: use at most 268435456",
                    b -> b.window(300_000_000)),
            rule("--batch 2000000000 x 8 threads per connection is more than one connection tracks: use at most "
                    + "268435456 messages in flight per connection",
                    b -> b.batch(2_000_000_000).threads(8).connections(1)),
            rule("--protocol echo needs --size of at least 1 byte", b -> b.protocol(Protocol.ECHO).size(0)),
            rule("--protocol echo answers with exactly what was sent: --response-size cannot differ from --size",
                    b -> b.protocol(Protocol.ECHO).size(100).responseSize(50)),
            rule("--response-size 0 (one-way) gives no response to time: use --measure send", b -> b.responseSize(0)),
            rule("--max-inflight must be at least 1", b -> b.maxInflight(0)),
            rule("--max-inflight 300000000 is more than one connection tracks: use at most 268435456",
                    b -> b.rate(1000).maxInflight(300_000_000)),
            rule("--rate 1.0E300 over 4 connections is more than one message per nanosecond per connection: use at "
                    + "most 4000000000", b -> b.rate(1e300)),
            rule("--rate (open loop) paces every message itself: --batch and --requests-per-connection are "
                    + "closed-loop options", b -> b.rate(1000).batch(1)),
            rule("--pacer spin paces the open loop: give --rate too (the closed loop has no pacer)",
                    b -> b.pacing(Pacing.SPIN)),
            rule("--rate (open loop) measures responses: use --measure rtt", b -> b.rate(1000).measure(Measure.SEND)),
            rule("--timeout and --connect-timeout must be positive", b -> b.timeout(Duration.ZERO)),
            rule("--timeout and --connect-timeout must be positive", b -> b.connectTimeout(Duration.ofSeconds(-1))));
    }

    private static Arguments rule(String message, UnaryOperator<LoadSpecBuilder> settings) {
        return Arguments.of(message, settings);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rules")
    void builderRefusesWithTheCliMessage(String message, UnaryOperator<LoadSpecBuilder> settings) {
        InvalidLoadSpec e = assertThrows(InvalidLoadSpec.class, () -> settings.apply(LoadSpec.builder()).build());
        assertEquals(message, e.getMessage());
    }

    @Test
    void constructorRefusesWhatTheBuilderWould() {
        LoadSpec ok = LoadSpec.builder().build();
        InvalidLoadSpec window = assertThrows(InvalidLoadSpec.class, () -> new LoadSpec(
                new LoadSpec.Shape(4, 4, 0, Driver.IO, 0, 0, 0, 1000, 0, Pacing.SLEEP), ok.message(), ok.timing(),
                ok.verification()));
        assertEquals("--window must be at least 1", window.getMessage());
        InvalidLoadSpec both = assertThrows(InvalidLoadSpec.class, () -> new LoadSpec(ok.shape(), ok.message(),
                new LoadSpec.Timing(10, 1_000_000_000L, 0, 1, 1, 1), ok.verification()));
        assertEquals("--msgs and --iteration-time exclude each other: choose count-based or time-based iterations",
                both.getMessage());
        InvalidLoadSpec send = assertThrows(InvalidLoadSpec.class, () -> ok.toBuilder().measure(Measure.SEND)
                .responseSize(0).build());
        assertEquals("--measure send needs --driver threads (or leave --driver out): a transport may report the "
                + "write inside the send itself, and the io driver would then send on and on from there",
                send.getMessage());
    }

    @Test
    void defaultsDependOnOtherSettingsAsOnTheCommandLine() {
        LoadSpec plain = LoadSpec.builder().build();
        assertEquals(4, plain.connections());
        assertEquals(10_000, plain.msgsPerThread());
        assertEquals(1, plain.window());
        assertEquals(1024, plain.responseSize());
        assertEquals(Driver.IO, plain.driver());

        LoadSpec batched = LoadSpec.builder().threads(8).connections(2).batch(3).build();
        assertEquals(3 * 4, batched.window(), "batch x threads per connection");
        assertEquals(Driver.THREADS, batched.driver());

        LoadSpec send = LoadSpec.builder().measure(Measure.SEND).build();
        assertEquals(0, send.responseSize());
        assertEquals(Driver.THREADS, send.driver());

        LoadSpec timed = LoadSpec.builder().iterationTime(Duration.ofMillis(200)).build();
        assertEquals(0, timed.msgsPerThread());
        assertEquals(200_000_000L, timed.iterationNanos());

        assertEquals(64, LoadSpec.builder().protocol(Protocol.ECHO).size(64).build().responseSize());
    }

    @Test
    void copiesKeepEverySetting() {
        LoadSpec open = LoadSpec.builder().threads(3).connections(6).rate(5000).maxInflight(7).size(99)
                .responseSize(12).iterationTime(Duration.ofMillis(5)).warmup(1).iterations(2).build();
        assertEquals(open, open.toBuilder().build());
        LoadSpec threads = open.withDriver(Driver.THREADS);
        assertEquals(Driver.THREADS, threads.driver());
        assertEquals(open.toBuilder().driver(Driver.THREADS).build(), threads);
    }
}
