package io.nbench.report.threshold;

import io.nbench.load.RunResult;
import java.util.Locale;

/**
 * One {@code --threshold METRIC OP VALUE} gate, e.g. {@code p99<2ms}, {@code throughput>=100k},
 * {@code errors==0}, {@code error-rate<0.1%}. Spaces around the operator are allowed. A malformed
 * expression is an {@link IllegalArgumentException} whose message says what is accepted (a usage error).
 *
 * @param expression as the user wrote it
 * @param metric     what is judged
 * @param operator   how
 * @param limit      the VALUE in the metric's base unit (ns, msg/s, count, percent)
 */
public record Threshold(String expression, Metric metric, Operator operator, double limit) {

    public static Threshold parse(String expression) {
        return parse(expression, "--threshold");
    }

    /**
     * The same grammar under another option's name ({@code --slo}), which its messages name. {@code errors} with a
     * percentage ({@code errors<=0.1%}) is {@code error-rate}: a share of the attempts, not a count.
     */
    public static Threshold parse(String expression, String option) {
        String text = expression.strip();
        int at = 0;
        while (at < text.length() && "<>=!".indexOf(text.charAt(at)) < 0) {
            at++;
        }
        String name = text.substring(0, at).strip().toLowerCase(Locale.ROOT);
        Operator op = Operator.prefixOf(text.substring(at));
        if (name.isEmpty() || op == null) {
            throw new IllegalArgumentException(option + " '" + expression + "' is not METRIC OP VALUE: "
                    + "use e.g. 'p99<2ms', 'throughput>=100k', 'errors==0' (OP is one of < <= > >= == !=)");
        }
        String value = text.substring(at + op.symbol().length()).strip();
        if (value.isEmpty()) {
            throw new IllegalArgumentException(option + " '" + expression + "' has no value after " + op.symbol());
        }
        try {
            Metric metric = Metric.named(name.equals("errors") && value.endsWith("%") ? "error-rate" : name);
            if (metric.kind() == MetricKind.LATENCY && MetricKind.bareNonZero(value)) {
                // A bare number was µs: 'p99<2' judged 2 µs where a wrk user means ms. No unit is guessed.
                throw new IllegalArgumentException("give a unit: " + name + op.symbol() + value + "ms, " + value
                        + "us, " + value + "s");
            }
            return new Threshold(expression, metric, op, metric.kind().parse(value));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(option + " '" + expression + "': " + e.getMessage());
        }
    }

    /** Judges this threshold on one combination's result. */
    public Outcome judge(RunResult result) {
        double actual = metric.valueOf(result);
        return new Outcome(this, actual, operator.holds(actual, limit));
    }

    /**
     * This threshold on a combination whose figures cannot be judged ({@code why}, e.g. nothing was measured): not
     * held, whatever it says (a gate that cannot be evaluated must not pass; {@code throughput<1m} would otherwise
     * pass on 0 msg/s).
     */
    public Outcome notJudged(String why) {
        return new Outcome(this, Double.NaN, false, why);
    }

    /**
     * A judged threshold.
     *
     * @param threshold what was asked
     * @param actual    the measured figure in the metric's base unit (NaN when nothing was measured)
     * @param passed    whether {@code actual OP limit} holds (never when not judged)
     * @param notJudged why it could not be judged; null when it was
     */
    public record Outcome(Threshold threshold, double actual, boolean passed, String notJudged) {

        public Outcome(Threshold threshold, double actual, boolean passed) {
            this(threshold, actual, passed, null);
        }

        /** Whether the figure could be judged at all (a threshold that was not is not held either). */
        public boolean judged() {
            return notJudged == null;
        }

        /** {@code p99<2ms (p99 = 3,120 µs)}; not judged, why: {@code p99<2ms (nothing measured)}. */
        public String describe() {
            if (!judged()) {
                return threshold.expression() + " (" + notJudged + ")";
            }
            String value = Double.isNaN(actual) ? "not measured" : threshold.metric().kind().format(actual);
            return threshold.expression() + " (" + threshold.metric().name() + " = " + value + ")";
        }
    }
}
