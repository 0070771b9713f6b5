package io.nbench.client;

import io.nbench.units.Rates;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code --rate-sweep FROM..TO[/STEPS]}: open-loop steps at {@code steps} rates spaced evenly (linearly) from
 * {@code from} to {@code to}, both ends included. Linear, not geometric: the curve's knee lies near the top of
 * the range, where a geometric spacing would put its fewest points, and a linear rate axis is the one the
 * hockey-stick chart is read on.
 *
 * @param from  the first rate, msg/s
 * @param to    the last rate, msg/s, above {@code from}
 * @param steps how many rates, at least 2
 */
public record RateSweep(double from, double to, int steps) {

    /** STEPS when the form leaves it out. */
    public static final int DEFAULT_STEPS = 10;
    /** More steps than this is a typing mistake rather than a curve anyone waits for. */
    public static final int MAX_STEPS = 1000;

    public RateSweep {
        if (!(from > 0 && to > from && steps >= 2 && steps <= MAX_STEPS)) {
            throw new IllegalArgumentException("the rate sweep " + text(from, to, steps) + " needs 0 < FROM < TO "
                    + "and 2 to " + MAX_STEPS + " steps: use e.g. --rate-sweep 100..500/9");
        }
    }

    /**
     * {@code 100..500/9}, {@code 1k..5k} (10 steps); rates as {@code --rate} takes them.
     *
     * @throws IllegalArgumentException one line naming the form and the fix
     */
    public static RateSweep parse(String text) {
        String s = text.strip();
        int dots = s.indexOf("..");
        int slash = s.indexOf('/', Math.max(dots, 0));
        String form = "'" + text + "' is not FROM..TO[/STEPS]: use e.g. --rate-sweep 100..500/9 (9 rates from 100 "
                + "to 500 msg/s)";
        if (dots <= 0) {
            throw new IllegalArgumentException(form);
        }
        String toText = slash < 0 ? s.substring(dots + 2) : s.substring(dots + 2, slash);
        int steps = DEFAULT_STEPS;
        if (slash >= 0) {
            try {
                steps = Integer.parseInt(s.substring(slash + 1).strip());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(form);
            }
        }
        double from;
        double to;
        try {
            from = Rates.parse(s.substring(0, dots));
            to = Rates.parse(toText);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(form);
        }
        return new RateSweep(from, to, steps);
    }

    /** The rates, in increasing order: {@code from + i (to - from) / (steps - 1)}. */
    public List<Double> rates() {
        List<Double> rates = new ArrayList<>(steps);
        for (int i = 0; i < steps; i++) {
            rates.add(i == steps - 1 ? to : from + i * (to - from) / (steps - 1));
        }
        return rates;
    }

    /** The form the command line takes, {@code 100..500/9}: parsing it gives this sweep back. */
    @Override
    public String toString() {
        return text(from, to, steps);
    }

    private static String text(double from, double to, int steps) {
        return plain(from) + ".." + plain(to) + "/" + steps;
    }

    private static String plain(double v) {
        return BigDecimal.valueOf(v).stripTrailingZeros().toPlainString();
    }
}
