package io.nbench.report.threshold;

/** The comparison of a threshold expression; the actual value is on the left: {@code p99 < 2ms}. */
public enum Operator {
    LE("<="), GE(">="), EQ("=="), NE("!="), LT("<"), GT(">");

    private final String symbol;

    Operator(String symbol) {
        this.symbol = symbol;
    }

    public String symbol() {
        return symbol;
    }

    /** Whether {@code actual OP limit} holds; NaN (no measured iteration) never holds. */
    public boolean holds(double actual, double limit) {
        if (Double.isNaN(actual)) {
            return false;
        }
        return switch (this) {
            case LT -> actual < limit;
            case LE -> actual <= limit;
            case GT -> actual > limit;
            case GE -> actual >= limit;
            case EQ -> actual == limit;
            case NE -> actual != limit;
        };
    }

    /** The operator at the start of {@code text}, longest first (so {@code <=} is not read as {@code <}). */
    static Operator prefixOf(String text) {
        for (Operator o : values()) {
            if (text.startsWith(o.symbol)) {
                return o;
            }
        }
        return null;
    }
}
