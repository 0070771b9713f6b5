package io.nbench.transport;

import io.nbench.units.Sizes;
import java.util.List;
import java.util.function.Function;

/**
 * One {@code -O key=value} option a transport declares: its key, default, the values it accepts and a
 * description, all shown by {@code nbench list}. The parser turns the text into the value the transport
 * reads; it throws {@link IllegalArgumentException} with a message naming what is accepted.
 */
public record TransportOption(String key, String defaultValue, String values, String description,
                              Function<String, Object> parser) {

    /** An option whose value is one of a fixed set of words. */
    public static TransportOption choice(String key, String defaultValue, List<String> choices, String description) {
        return new TransportOption(key, defaultValue, String.join("|", choices), description, text -> {
            if (!choices.contains(text)) {
                throw new IllegalArgumentException("expected one of " + String.join(", ", choices));
            }
            return text;
        });
    }

    /** An option whose value is {@code true} or {@code false}. */
    public static TransportOption bool(String key, boolean defaultValue, String description) {
        return new TransportOption(key, Boolean.toString(defaultValue), "true|false", description, text -> {
            if (!text.equals("true") && !text.equals("false")) {
                throw new IllegalArgumentException("expected true or false");
            }
            return Boolean.parseBoolean(text);
        });
    }

    /** An option whose value is a byte size such as 2048, 8k or 1m. */
    public static TransportOption size(String key, String defaultValue, String description) {
        return size(key, defaultValue, 0, description);
    }

    /** A byte size of at least {@code minimum} bytes (a buffer must hold a frame header, say). */
    public static TransportOption size(String key, String defaultValue, int minimum, String description) {
        return new TransportOption(key, defaultValue, "SIZE", description, text -> {
            long size = Sizes.parse(text);
            if (size < minimum) {
                throw new IllegalArgumentException("must be at least " + minimum + " bytes");
            }
            return (int) size;
        });
    }

    /** {@code off} (0) or a number of threads of at least 1, as an Integer. */
    public static TransportOption threadsOrOff(String key, String description) {
        return new TransportOption(key, "off", "off|N", description, text -> {
            if (text.equals("off")) {
                return 0;
            }
            try {
                int n = Integer.parseInt(text);
                if (n >= 1) {
                    return n;
                }
            } catch (NumberFormatException e) {
                // said below
            }
            throw new IllegalArgumentException("expected off or a thread count of at least 1, e.g. 8");
        });
    }

    public Object parse(String text) {
        return parser.apply(text);
    }
}
