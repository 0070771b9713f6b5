package io.nbench.report.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nbench.stats.LatencyHistograms;
import io.nbench.testkit.AlignedTables;
import java.io.BufferedWriter;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code nbench run}'s comparison at 80 and 120 columns, for four files whose verdicts are each kind (faster,
 * no significant difference, too few with hopeless intervals, an iteration that measured nothing) and figures
 * as wide as they come (a million messages a second): no line passes the width, the cells of every row start
 * where their header's do, A's figures sit above the others', and every figure of the comparison is there.
 */
class CompareBlocksTest {

    private static final Map<String, String> X = Map.of("impl", "netty", "size", "1");
    private static final Map<String, String> Y = Map.of("impl", "netty", "size", "2");

    /** Iterations at {@code rate} msg/s (each a little off), latency {@code micros}, CPU {@code cpu} %. */
    private static ResultFile.CombinationData combination(String name, Map<String, String> keys, int n, double rate,
                                                          double micros, double cpu) {
        List<ResultFile.IterationData> its = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            double wobble = 1 + 0.01 * (i % 3 - 1);
            Histogram h = LatencyHistograms.newHistogram();
            h.recordValue((long) (micros * 1000 * wobble));
            h.recordValue((long) (micros * 3000 * wobble));
            double r = rate * wobble;
            its.add(new ResultFile.IterationData(r, h, cpu * wobble, 2 * cpu, cpu / 100 * 1e9 / Math.max(r, 1),
                    2 * cpu / 100 * 1e9 / Math.max(r, 1)));
        }
        return new ResultFile.CombinationData(name, keys, its);
    }

    private static List<ResultFile> files() {
        return List.of(
                new ResultFile(Path.of("server netty, /tmp/nbench-results/a-rather-long-directory-name/netty.json"),
                        List.of(combination("client=netty,size=1", X, 5, 1_234_567, 100, 95),
                                combination("client=netty,size=2", Y, 5, 1_000, 1_000, 10))),
                new ResultFile(Path.of("server mina"), List.of(combination("client=netty,size=1", X, 5, 1_234_000, 100.2,
                        95))),
                new ResultFile(Path.of("server nio"), List.of(combination("client=netty,size=1", X, 2, 1_240_000, 40,
                        95))),
                new ResultFile(Path.of("server blocking"), List.of(combination("client=netty,size=1", X, 5, 0, 100,
                        50))));
    }

    @ParameterizedTest
    @ValueSource(ints = {80, 120})
    void fitsTheWidthAlignedWithEveryFigure(int width) {
        List<ResultFile> files = files();
        List<Comparison.Block> blocks = Comparison.compare(files);
        StringWriter s = new StringWriter();
        CompareBlocks.print(new PrintWriter(new BufferedWriter(s)), files, blocks, width);
        List<String> lines = s.toString().lines().toList();
        String text = String.join("\n", lines);

        AlignedTables.assertFits(lines, width);
        int second = lines.indexOf("client=netty,size=2");
        assertTrue(second > 0, text);
        List<AlignedTables.Table> tables = AlignedTables.tables(lines.subList(0, second));
        // 120 columns: A's figure beside each other's, a table per other file; 80: A's table first, then one per other.
        boolean beside = width >= 120;
        assertEquals(beside ? files.size() - 1 : files.size(), tables.size(), "tables: " + text);
        AlignedTables.assertSameColumns(tables, beside ? 3 : 2);
        int figure = beside ? 2 : 1;

        Comparison.Block b = blocks.get(0);
        for (int r = 0; r < b.rows().size(); r++) {
            Comparison.Row row = b.rows().get(r);
            if (!beside) {
                List<String> baseline = tables.get(0).cells(tables.get(0).rows().get(r));
                assertEquals(List.of(row.metric().name(), row.metric().format().apply(row.baseline())), baseline);
            }
            for (int f = 1; f < files.size(); f++) {
                AlignedTables.Table t = tables.get(beside ? f - 1 : f);
                Comparison.Cell c = row.others().get(f - 1);
                List<String> shown = t.rows().stream().filter(l -> t.cells(l).get(0).equals(row.metric().name()))
                        .map(t::cells).findFirst().orElseThrow(() -> new AssertionError(row.metric().name() + ": " + text));
                if (beside) {
                    assertEquals(row.metric().format().apply(row.baseline()), shown.get(1), text);
                }
                assertEquals(row.metric().format().apply(c.mean()), shown.get(figure), text);
                assertEquals(CompareTable.ratio(c), shown.get(figure + 1), text);
                String verdict = switch (c.verdict()) {
                    case TOO_FEW -> "too few (N=2)";
                    case NO_VALUE -> "n/a";
                    case SAME -> "not significant";
                    default -> c.verdictText();
                };
                assertTrue(verdict.startsWith(shown.get(figure + 2)), shown + " for " + verdict);
            }
        }
        // Each verdict kind is in the figures, and the short ones are explained under the blocks.
        List<Comparison.Verdict> kinds = b.rows().stream().flatMap(r -> r.others().stream()).map(Comparison.Cell::verdict)
                .distinct().toList();
        assertTrue(kinds.containsAll(List.of(Comparison.Verdict.SAME, Comparison.Verdict.TOO_FEW,
                Comparison.Verdict.NO_VALUE, Comparison.Verdict.FASTER)), kinds.toString());
        assertTrue(text.contains("\ntoo few (N=2): not significant, and 2 measured iterations"), text);
        assertTrue(text.replaceAll("\\s+", " ").contains("use --iterations ≥ 5 or --forks"), text);
        assertTrue(text.contains("\nn/a: an iteration's figure is 0"), text);
        assertTrue(text.replaceAll("\\s+", " ").contains("n/a: an iteration's figure is 0 (no message completed, or CPU time under "
                + "the OS's 10 ms clock tick)"), text);
        assertTrue(text.contains("\nNot in B, C, D: no figures to compare."), text);
    }
}
