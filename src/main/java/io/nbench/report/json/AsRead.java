package io.nbench.report.json;

import com.fasterxml.jackson.databind.node.DecimalNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;

/**
 * A figure that a reader copies from a document into one of its own (a merged document's {@code hosts}, the
 * HTML page's data), printed as the copy always was: {@link ResultReader} reads decimals exactly, and a decimal
 * prints in {@link BigDecimal}'s notation ({@code 4.2E-4} read is {@code 0.00042} written, {@code 1.5E7} is
 * {@code 1.5E+7}). The same value either way; kept so that those outputs stay byte for byte what they were
 * before the typed model.
 */
public final class AsRead {

    private AsRead() {
    }

    /** {@code value} as read ({@link #put(ObjectNode, String, Double)}) when {@code asRead}, else as a double. */
    public static void put(ObjectNode node, String field, Double value, boolean asRead) {
        if (asRead) {
            put(node, field, value);
        } else {
            node.put(field, value);
        }
    }

    /** {@code value} as the decimal it was read from (a document nbench wrote holds {@code Double.toString}); null as null. */
    public static void put(ObjectNode node, String field, Double value) {
        if (value == null) {
            node.putNull(field);
        } else {
            node.set(field, DecimalNode.valueOf(new BigDecimal(Double.toString(value))));
        }
    }
}
