package io.nbench.report.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.nbench.report.json.CapacityDoc;
import java.util.List;
import org.junit.jupiter.api.Test;

/** run's and compare's capacity line says how a search ended in words, not the document's token (none_passed). */
class CapacityComparisonTest {

    private static CapacityDoc doc(String outcome, Double passed, Double failed) {
        return new CapacityDoc("p99<=20ms", 0.02, 1000.0, outcome, passed, failed, List.of());
    }

    @Test
    void eachEndingReadsAsWords() {
        assertEquals("not found: no rate met p99<=20ms", CapacityComparison.line(doc("none_passed", null, 500.0)));
        assertEquals("3,606 requests/s within p99<=20ms [3,606 passed, 3,662 failed]",
                CapacityComparison.line(doc("found", 3606.0, 3662.0)));
        assertEquals("3,606 requests/s within p99<=20ms [3,606 passed, 3,662 failed] (stopped by --max-time)",
                CapacityComparison.line(doc("stopped", 3606.0, 3662.0)));
        assertEquals("not found: no rate met p99<=20ms (interrupted)",
                CapacityComparison.line(doc("interrupted", null, null)));
    }
}
