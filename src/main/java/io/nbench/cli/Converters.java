package io.nbench.cli;

import io.nbench.units.Durations;
import io.nbench.units.Sizes;
import java.time.Duration;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** picocli converters for sizes and durations; a bad value becomes a one-line usage error (exit 2). */
final class Converters {

    private Converters() {
    }

    /**
     * Error messages quote the value as given, which may hold line breaks or other control characters
     * (a value from a file or a command substitution): escaped, the error stays one line.
     */
    static String oneLine(String message) {
        StringBuilder b = null;
        for (int i = 0; i < message.length(); i++) {
            char c = message.charAt(i);
            if (Character.isISOControl(c)) {
                if (b == null) {
                    b = new StringBuilder(message.length() + 8).append(message, 0, i);
                }
                switch (c) {
                    case '\n' -> b.append("\\n");
                    case '\r' -> b.append("\\r");
                    case '\t' -> b.append("\\t");
                    default -> b.append(String.format("\\u%04x", (int) c));
                }
            } else if (b != null) {
                b.append(c);
            }
        }
        return b == null ? message : b.toString();
    }

    static final class Size implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            try {
                return (int) Sizes.parse(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(oneLine(e.getMessage()));
            }
        }
    }

    static final class Rate implements ITypeConverter<Double> {
        @Override
        public Double convert(String value) {
            try {
                return io.nbench.units.Rates.parse(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(oneLine(e.getMessage()));
            }
        }
    }

    static final class Time implements ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            try {
                return Durations.parse(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(oneLine(e.getMessage()));
            }
        }
    }
}
