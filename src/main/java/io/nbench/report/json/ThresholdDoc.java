package io.nbench.report.json;

/** One {@code --threshold} judged on a combination; {@code actual} null when it could not be judged. */
public record ThresholdDoc(String expression, String metric, String operator, double limit, Double actual,
                           String unit, boolean passed, boolean judged) {
}
