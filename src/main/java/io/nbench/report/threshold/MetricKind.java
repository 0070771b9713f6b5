package io.nbench.report.threshold;

import io.nbench.units.Units;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How a metric's values are written in an expression and shown in a message. Each kind parses the VALUE
 * of {@code METRIC OP VALUE} into the metric's base unit: ns for latency, msg/s for throughput, a count
 * for errors, percent for rates.
 */
public enum MetricKind {

    /** ns, us, µs, ms or s; a bare number is refused by {@link Threshold#parse} unless it is 0. */
    LATENCY("ns") {
        @Override
        double parse(String value) {
            Matcher m = NUMBER_UNIT.matcher(value);
            if (!m.matches()) {
                throw new IllegalArgumentException("'" + value + "' is not a latency: use e.g. 500us, 2ms, 1.5s");
            }
            String unit = m.group(2).toLowerCase(Locale.ROOT);
            Double scale = unit.isEmpty() ? Double.valueOf(1_000.0) : LATENCY_UNITS.get(unit);
            if (scale == null) {
                throw new IllegalArgumentException("unknown latency unit '" + m.group(2) + "': use ns, us, µs, ms or s");
            }
            return Double.parseDouble(m.group(1)) * scale;
        }

        @Override
        String format(double nanos) {
            return Units.micros(nanos) + " µs";
        }
    },

    /** messages per second; k and m multiply by 1,000 and 1,000,000 (decimal, unlike sizes). */
    THROUGHPUT("msg/s") {
        @Override
        double parse(String value) {
            Matcher m = NUMBER_UNIT.matcher(value);
            if (!m.matches()) {
                throw new IllegalArgumentException("'" + value + "' is not a throughput: use e.g. 50000, 100k, 1.5m (msg/s)");
            }
            String unit = m.group(2).toLowerCase(Locale.ROOT);
            double scale = switch (unit) {
                case "" -> 1;
                case "k" -> 1e3;
                case "m" -> 1e6;
                default -> throw new IllegalArgumentException("unknown throughput suffix '" + m.group(2)
                        + "': use k (×1,000) or m (×1,000,000)");
            };
            return Double.parseDouble(m.group(1)) * scale;
        }

        @Override
        String format(double perSecond) {
            return Units.rate(perSecond) + " msg/s";
        }
    },

    /** a plain count. */
    COUNT("count") {
        @Override
        double parse(String value) {
            try {
                return Double.parseDouble(value);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("'" + value + "' is not a count: use e.g. 0 or 10");
            }
        }

        @Override
        String format(double value) {
            return Units.count(Math.round(value));
        }
    },

    /** a percentage; the % sign is optional. */
    PERCENT("%") {
        @Override
        double parse(String value) {
            String v = value.endsWith("%") ? value.substring(0, value.length() - 1) : value;
            try {
                return Double.parseDouble(v);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("'" + value + "' is not a percentage: use e.g. 0.1%");
            }
        }

        @Override
        String format(double value) {
            return String.format(Locale.ROOT, "%.4g%%", value);
        }
    };

    private static final Pattern NUMBER_UNIT = Pattern.compile("([0-9]+(?:\\.[0-9]+)?(?:[eE][0-9]+)?)\\s*([a-zA-Zµμ]*)");
    private static final Map<String, Double> LATENCY_UNITS = Map.of("ns", 1.0, "us", 1e3, "µs", 1e3, "μs", 1e3, "ms", 1e6, "s", 1e9);

    private final String unit;

    /** A number without a unit that is not zero (zero is zero in every unit). */
    static boolean bareNonZero(String value) {
        Matcher m = NUMBER_UNIT.matcher(value);
        return m.matches() && m.group(2).isEmpty() && Double.parseDouble(m.group(1)) != 0;
    }

    MetricKind(String unit) {
        this.unit = unit;
    }

    /** The base unit of values and limits in the result document: ns, msg/s, count or %. */
    public String unit() {
        return unit;
    }

    abstract double parse(String value);

    abstract String format(double value);
}
