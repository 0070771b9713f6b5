package io.nbench.units;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Units at each boundary where the printed unit or the accepted range changes. */
class UnitBoundariesTest {

    @Test
    void aNumberTooLargeForASizeSaysSoWhateverItsLength() {
        for (String big : new String[] {"2147483648", "2097152k", "99999999999", "100000000000", "9999999999999",
                "99999999999999999999999g"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Sizes.parse(big));
            assertEquals("'" + big + "' is too large: sizes must be below 2g", e.getMessage());
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Sizes.parse("12x4"));
        assertEquals("'12x4' is not a size: use bytes or a k/m/g suffix, e.g. 512, 5k, 1m", e.getMessage());
        assertEquals(2147483647L, Sizes.parse("2147483647"));
        assertEquals(2097151L * 1024, Sizes.parse("2097151k"));
    }

    @Test
    void durationFormatsAtEachUnitChange() {
        assertEquals("999 ns", Durations.format(Duration.ofNanos(999)));
        assertEquals("1 µs", Durations.format(Duration.ofNanos(1_000)));
        assertEquals("999.999 µs", Durations.format(Duration.ofNanos(999_999)));
        assertEquals("1 ms", Durations.format(Duration.ofNanos(1_000_000)));
        assertEquals("1.5 ms", Durations.format(Duration.ofNanos(1_500_000)));
        assertEquals("999.999 ms", Durations.format(Duration.ofNanos(999_999_000)));
        assertEquals("1 s", Durations.format(Duration.ofSeconds(1)));
        assertEquals("59 s", Durations.format(Duration.ofSeconds(59)));
        assertEquals("1 min", Durations.format(Duration.ofSeconds(60)));
        assertEquals("61 s", Durations.format(Duration.ofSeconds(61)));
        assertEquals("90 s", Durations.format(Duration.ofSeconds(90)));
    }

    @Test
    void durationParsingLimits() {
        assertEquals(Duration.ofNanos(1), Durations.parse("1ns"));
        assertEquals(Duration.ofMinutes(2), Durations.parse("2min"));
        assertEquals(Duration.ofHours(1_000_000), Durations.parse("1000000h"));
        assertThrows(IllegalArgumentException.class, () -> Durations.parse("10000000h"), "beyond Long.MAX_VALUE / 2 ns");
        assertEquals(Duration.ofNanos(1L << 62), Durations.parse("4611686018427387904ns"), "exactly the limit is allowed");
        assertEquals("'5' needs a unit: e.g. 250us, 10ms, 2s, 1m",
                assertThrows(IllegalArgumentException.class, () -> Durations.parse("5")).getMessage());
    }

    @Test
    void sizeFormatsAtEachUnitChange() {
        assertEquals("1023 B", Sizes.format(1023));
        assertEquals("1 KiB", Sizes.format(1024));
        assertEquals("1.0 KiB", Sizes.format(1025));
        assertEquals("1023 KiB", Sizes.format(1023 * 1024));
        assertEquals("1 MiB", Sizes.format(1024 * 1024));
        assertEquals("1.0 MiB", Sizes.format(1024 * 1024 + 1));
        assertEquals("1.5 MiB", Sizes.format(1024 * 1024 * 3 / 2 + 1));
        assertEquals("0 B", Sizes.format(0));
    }

    @Test
    void sizeParsingLimits() {
        assertEquals(7, Sizes.parse("7b"));
        assertEquals(7, Sizes.parse("7B"));
        assertEquals(2 * 1024, Sizes.parse("2kb"));
        assertEquals(2 * 1024 * 1024, Sizes.parse("2MiB"));
        assertEquals(Integer.MAX_VALUE, Sizes.parse("2147483647"));
        assertThrows(IllegalArgumentException.class, () -> Sizes.parse("2147483648"));
        assertThrows(IllegalArgumentException.class, () -> Sizes.parse("2g"));
        assertThrows(IllegalArgumentException.class, () -> Sizes.parse("1234567890123"), "13 digits");
        assertThrows(IllegalArgumentException.class, () -> Sizes.parse("b"));
        assertThrows(IllegalArgumentException.class, () -> Sizes.parse("k"));
    }

    @Test
    void rates() {
        assertEquals(500.0, Rates.parse("500"), 0);
        assertEquals(50_000.0, Rates.parse("50k"), 0);
        assertEquals(50_000.0, Rates.parse("50K/s"), 0);
        assertEquals(1_500_000.0, Rates.parse("1.5m"), 0);
        assertEquals(0.5, Rates.parse("0.5"), 0);
        assertEquals(250.0, Rates.parse(" 250/s "), 0);
        assertEquals("rate '0' must be positive", assertThrows(IllegalArgumentException.class, () -> Rates.parse("0")).getMessage());
        assertThrows(IllegalArgumentException.class, () -> Rates.parse("-5"));
        assertThrows(IllegalArgumentException.class, () -> Rates.parse("1e400"));
        assertEquals("'fast' is not a rate: use messages per second, e.g. 500, 50k, 1.5m",
                assertThrows(IllegalArgumentException.class, () -> Rates.parse("fast")).getMessage());
    }
}
