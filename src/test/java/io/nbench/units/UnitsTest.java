package io.nbench.units;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class UnitsTest {

    @Test
    void sizes() {
        assertEquals(512, Sizes.parse("512"));
        assertEquals(5 * 1024, Sizes.parse("5k"));
        assertEquals(5 * 1024, Sizes.parse("5K"));
        assertEquals(5 * 1024, Sizes.parse("5KiB"));
        assertEquals(1024 * 1024, Sizes.parse("1m"));
        assertEquals(16 * 1024 * 1024, Sizes.parse("16m"));
        assertEquals(1024L * 1024 * 1024, Sizes.parse("1g"));
        assertEquals(0, Sizes.parse("0"));
        assertEquals(100, Sizes.parse("100b"));
        assertEquals(2097151L * 1024, Sizes.parse("2097151k"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "k", "-1", "1.5k", "5x", "abc", "3g", "99999999999999", "9999999999g", "17179869185g", "2097152k"})
    void badSizesSayWhatIsAccepted(String text) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Sizes.parse(text));
        assertTrue(e.getMessage().contains(text) || text.isEmpty(), e.getMessage());
        assertTrue(!e.getMessage().contains("\n"), "one line");
    }

    @Test
    void sizeFormats() {
        assertEquals("1 KiB", Sizes.format(1024));
        assertEquals("100 B", Sizes.format(100));
        assertEquals("16 MiB", Sizes.format(16 * 1024 * 1024));
        assertEquals("1.5 KiB", Sizes.format(1536));
    }

    @Test
    void durations() {
        assertEquals(Duration.ofNanos(250_000), Durations.parse("250us"));
        assertEquals(Duration.ofNanos(250_000), Durations.parse("250µs"));
        assertEquals(Duration.ofMillis(10), Durations.parse("10ms"));
        assertEquals(Duration.ofSeconds(2), Durations.parse("2s"));
        assertEquals(Duration.ofMillis(1500), Durations.parse("1.5s"));
        assertEquals(Duration.ofMinutes(1), Durations.parse("1m"));
        assertEquals(Duration.ofHours(1), Durations.parse("1h"));
        assertEquals(Duration.ofNanos(500), Durations.parse("500ns"));
        assertEquals(Duration.ZERO, Durations.parse("0"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "10", "ms", "10 parsecs", "-5s", "1..2s"})
    void badDurations(String text) {
        assertThrows(IllegalArgumentException.class, () -> Durations.parse(text));
    }

    @Test
    void durationFormats() {
        assertEquals("250 µs", Durations.format(Duration.ofNanos(250_000)));
        assertEquals("10 s", Durations.format(Duration.ofSeconds(10)));
        assertEquals("1.5 s", Durations.format(Duration.ofMillis(1500)));
        assertEquals("2 min", Durations.format(Duration.ofMinutes(2)));
    }
}
