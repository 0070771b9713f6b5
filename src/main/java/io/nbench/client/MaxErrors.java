package io.nbench.client;

import io.nbench.load.LoadSpec;
import io.nbench.units.Units;
import java.math.BigDecimal;
import java.math.MathContext;

/**
 * {@code --max-errors}: the errors tolerated before a run FAILs, a count or a percentage of messages.
 *
 * @param count   the count tolerated, or -1 for a percentage
 * @param percent the percentage tolerated, or -1 for a count
 * @param given   the limit as the user typed it, for the messages that name it
 */
public record MaxErrors(long count, double percent, String given) {

    /** @throws IllegalArgumentException neither a count nor a percentage; the message shows valid ones */
    public static MaxErrors parse(String text) {
        String problem;
        try {
            if (text.endsWith("%")) {
                double p = Double.parseDouble(text.substring(0, text.length() - 1));
                if (p >= 0 && p <= 100) {
                    return new MaxErrors(-1, p, text);
                }
                problem = p < 0 ? "is negative" : "is more than 100%";
            } else {
                long n = Long.parseLong(text);
                if (n >= 0) {
                    return new MaxErrors(n, -1, text);
                }
                problem = "is negative";
            }
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                    "--max-errors '" + text + "' is neither a count nor a percentage: use e.g. 0, 10 or 0.1%");
        }
        throw new IllegalArgumentException("--max-errors '" + text + "' " + problem + (problem.endsWith("100%")
                ? ": use a percentage from 0% to 100%, or a count such as 10"
                : ": use 0 (no error tolerated) or more, or a percentage such as 0.1%"));
    }

    /**
     * The error count past which the FAIL verdict is certain while the run goes on, so the engine may
     * stop it: the count itself, or for a percentage the share of every message a count-based run
     * will send; -1 (never) for a percentage of a time-based run, whose total is not known ahead.
     */
    public long budget(LoadSpec spec) {
        if (count >= 0) {
            return count;
        }
        if (spec.timeBased()) {
            return -1;
        }
        return (long) Math.floor(planned(spec) * percent / 100.0);
    }

    private static long planned(LoadSpec spec) {
        return spec.messagesPerIteration() * (spec.warmup() + spec.iterations());
    }

    /**
     * How the engine names this limit when it stops a run over it: the option as typed, and for a
     * percentage the count it allows of the messages planned.
     */
    public String describeBudget(LoadSpec spec) {
        long budget = budget(spec);
        return percent >= 0 && budget >= 0 ? given + " (" + budget + " of the " + Units.count(planned(spec))
                + " messages planned)" : given;
    }

    /** The FAIL reason for {@code errors} of {@code attempts} over this limit. */
    public String failure(long errors, long attempts) {
        return percent >= 0
                ? errors + " errors, " + percentOf(errors, attempts) + " of " + attempts + " messages, > --max-errors "
                        + given
                : errors + " errors > --max-errors " + given;
    }

    /** {@code errors} as a percentage of {@code attempts}, to as many digits as a small share needs: 12.5%, 0.013%. */
    static String percentOf(long errors, long attempts) {
        double p = attempts == 0 ? 0 : errors * 100.0 / attempts;
        return new BigDecimal(p).round(new MathContext(3)).stripTrailingZeros().toPlainString() + "%";
    }

    public boolean exceeded(long errors, long attempts) {
        if (count >= 0) {
            return errors > count;
        }
        return attempts > 0 && errors * 100.0 / attempts > percent;
    }
}
