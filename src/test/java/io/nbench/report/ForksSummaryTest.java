package io.nbench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nbench.report.compare.ResultFile;
import io.nbench.stats.LatencyHistograms;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/**
 * {@code --forks}' summary over every fork's iterations is worded by the same code as a single run's summary:
 * merged percentiles, each percentile's mean over the iterations that measured a latency, throughput.
 */
class ForksSummaryTest {

    @Test
    void anIterationWithoutACompletedMessageIsLeftOutOfTheMeansAsInASingleRun() {
        Histogram a = LatencyHistograms.newHistogram();
        Histogram b = LatencyHistograms.newHistogram();
        for (int i = 0; i < 100; i++) {
            a.recordValue(100_000); // 100 µs
            b.recordValue(300_000); // 300 µs
        }
        Map<String, List<ResultFile.IterationData>> byCombination = new LinkedHashMap<>();
        byCombination.put("impl=x", List.of(new ResultFile.IterationData(1000, a),
                new ResultFile.IterationData(0, LatencyHistograms.newHistogram()),
                new ResultFile.IterationData(3000, b)));
        StringWriter text = new StringWriter();
        TextReport.forksSummary(new PrintWriter(text), 2, 3, byCombination, List.of(50.0));
        List<String> lines = text.toString().lines().toList();

        assertEquals("FORKS SUMMARY: 2 of 3 forks completed", lines.get(1));
        assertEquals("All 3 iterations of all forks merged (200 msgs):", lines.get(3));
        // the empty iteration measured no latency: the mean is over the two that did, not (100 + 0 + 300) / 3
        assertEquals("Mean Result for 3 iterations of all forks (99.9% CI; latency from the 2 in which a message "
                + "completed):", lines.get(5));
        assertTrue(lines.get(6).startsWith("p50: 200 µs ± "), lines.get(6));
        assertTrue(lines.get(7).startsWith("Throughput: 1,333 ± ") && lines.get(7).endsWith(" msg/s (99.9% CI, N=3)"),
                lines.get(7));
    }
}
