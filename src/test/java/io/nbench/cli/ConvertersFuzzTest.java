package io.nbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.nbench.report.threshold.Threshold;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.TypeConversionException;
import picocli.CommandLine;

/**
 * Fuzzes what turns a user's text into a value: the size, rate and duration converters picocli calls,
 * and --threshold expressions. Each either returns a valid value or throws picocli's
 * TypeConversionException (ParameterException for thresholds) with a one-line message; nothing else
 * may escape, and no value may be silently wrong (a size is checked against an exact computation).
 */
class ConvertersFuzzTest {

    /** What Sizes accepts: digits, an optional k/m/g, an optional b or ib. */
    private static final Pattern SIZE = Pattern.compile("(\\p{Nd}+)([kmg]?)(?:ib|b)?");

    @FuzzTest(maxDuration = "10s")
    void size(byte[] input) {
        String text = new String(input, StandardCharsets.UTF_8);
        int value;
        try {
            value = new Converters.Size().convert(text);
        } catch (TypeConversionException e) {
            assertOneLine(e.getMessage());
            return;
        }
        Matcher m = SIZE.matcher(text.trim().toLowerCase(Locale.ROOT));
        assertTrue(m.matches(), "accepted '" + text + "' as " + value);
        BigInteger unit = BigInteger.ONE.shiftLeft(switch (m.group(2)) {
            case "k" -> 10;
            case "m" -> 20;
            case "g" -> 30;
            default -> 0;
        });
        BigInteger exact = new BigInteger(m.group(1)).multiply(unit);
        assertEquals(exact, BigInteger.valueOf(value), "'" + text + "' converted to " + value);
    }

    @FuzzTest(maxDuration = "10s")
    void rate(byte[] input) {
        String text = new String(input, StandardCharsets.UTF_8);
        double value;
        try {
            value = new Converters.Rate().convert(text);
        } catch (TypeConversionException e) {
            assertOneLine(e.getMessage());
            return;
        }
        assertTrue(value > 0 && Double.isFinite(value), "'" + text + "' converted to " + value);
    }

    @FuzzTest(maxDuration = "10s")
    void duration(byte[] input) {
        String text = new String(input, StandardCharsets.UTF_8);
        Duration value;
        try {
            value = new Converters.Time().convert(text);
        } catch (TypeConversionException e) {
            assertOneLine(e.getMessage());
            return;
        }
        assertFalse(value.isNegative(), "'" + text + "' converted to " + value);
    }

    @FuzzTest(maxDuration = "10s")
    void threshold(byte[] input) {
        String text = new String(input, StandardCharsets.UTF_8);
        OutputOptions options = new OutputOptions();
        options.thresholds = List.of(text);
        Threshold t;
        try {
            t = options.thresholds(new CommandLine(CommandSpec.create()).getCommandSpec()).get(0);
        } catch (ParameterException e) {
            assertOneLine(e.getMessage());
            return;
        }
        assertFalse(Double.isNaN(t.limit()), "'" + text + "' has a NaN limit: every comparison with it is false");
    }

    private static void assertOneLine(String message) {
        if (message == null || message.isBlank()) {
            fail("conversion error without a message");
        }
        assertFalse(message.contains("\n") || message.contains("\r"), "multi-line message: " + message);
    }
}
