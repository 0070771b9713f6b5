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

    static final class Size implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            try {
                return (int) Sizes.parse(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }

    static final class Rate implements ITypeConverter<Double> {
        @Override
        public Double convert(String value) {
            try {
                return io.nbench.units.Rates.parse(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }

    static final class Time implements ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            try {
                return Durations.parse(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }
}
