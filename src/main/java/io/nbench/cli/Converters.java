package io.nbench.cli;

import io.nbench.protocol.SuccessStatuses;
import io.nbench.units.Durations;
import io.nbench.units.Rates;
import io.nbench.units.Sizes;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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

    /**
     * A host name or IP address, without a port: {@code 127.0.0.1:7007} (or {@code [::1]:7007}) is a usage error
     * saying where the port goes, where it used to be looked up as a host name and fail as an unknown host, exit 1.
     * An IPv6 address without brackets has more than one colon and passes.
     */
    static final class Host implements ITypeConverter<String> {
        private static final Pattern WITH_PORT = Pattern.compile("(\\[[^\\]]*\\]|[^:\\[\\]]*):(\\d*)");

        @Override
        public String convert(String value) {
            Matcher m = WITH_PORT.matcher(value);
            if (m.matches()) {
                String host = m.group(1).startsWith("[") ? m.group(1).substring(1, m.group(1).length() - 1) : m.group(1);
                throw new TypeConversionException(oneLine("'" + value + "' holds a port: a host takes none; give "
                        + "--host " + (host.isEmpty() ? "127.0.0.1" : host)
                        + (m.group(2).isEmpty() ? "" : " --port " + m.group(2))));
            }
            return value;
        }
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
                return Rates.parse(value);
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

    /** An ISO-8601 instant with its offset ({@code 2026-11-23T10:00:00Z}, {@code 2026-11-23T11:00:00+01:00}), or {@code +30s} from now. */
    static final class When implements ITypeConverter<Instant> {
        @Override
        public Instant convert(String value) {
            String v = value.strip();
            try {
                if (v.startsWith("+")) { // relative to now, for one host; several hosts need one absolute instant
                    return Instant.now().plus(Durations.parse(v.substring(1)));
                }
                return OffsetDateTime.parse(v).toInstant();
            } catch (DateTimeParseException | IllegalArgumentException e) {
                throw new TypeConversionException(oneLine("'" + value + "' is neither an ISO-8601 time with its offset "
                        + "nor +DURATION: use e.g. 2026-11-23T10:00:00Z, 2026-11-23T11:00:00+01:00 or +30s"));
            }
        }
    }

    /** {@code --success-status}: classes and codes, {@code 2xx,3xx} or {@code 200,404}. */
    static final class SuccessStatusConverter implements ITypeConverter<SuccessStatuses> {
        @Override
        public SuccessStatuses convert(String value) {
            try {
                return SuccessStatuses.parse(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(oneLine(e.getMessage()));
            }
        }
    }
}
