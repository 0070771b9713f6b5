package io.nbench.report.compare;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nbench.report.json.ResultDocument;
import io.nbench.stats.StudentT;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/** {@code nbench compare --format json} and {@code --format markdown}; the text table is {@link CompareTable}. */
public final class CompareFormats {

    /** The JSON document's schema; fields are only added within it. */
    public static final String SCHEMA = "nbench-compare/1";

    private CompareFormats() {
    }

    /**
     * One JSON document: the files, each combination's rows (the baseline's mean and N, each other file's mean, N,
     * ratio with its interval and verdict), the gates judged, and the exit code.
     */
    public static void json(PrintWriter out, List<ResultFile> files, List<Comparison.Block> blocks,
                            List<Gate.Verdict> gates, int exitCode) {
        out.println(ResultDocument.pretty(document(files, blocks, gates, exitCode)));
        out.flush();
    }

    /** The {@code nbench-compare/1} document itself, for {@link #json} and the HTML report. */
    public static ObjectNode document(List<ResultFile> files, List<Comparison.Block> blocks,
                                      List<Gate.Verdict> gates, int exitCode) {
        ObjectNode doc = ResultDocument.MAPPER.createObjectNode();
        doc.put("schema", SCHEMA);
        doc.put("level", StudentT.LEVEL);
        ArrayNode f = doc.putArray("files");
        files.forEach(r -> f.add(r.path().toString()));
        ArrayNode combinations = doc.putArray("combinations");
        for (Comparison.Block b : blocks) {
            ObjectNode c = combinations.addObject();
            c.put("name", b.name());
            ArrayNode matched = c.putArray("matched");
            b.matched().forEach(matched::add);
            ArrayNode metrics = c.putArray("metrics");
            for (Comparison.Row r : b.rows()) {
                ObjectNode m = metrics.addObject();
                m.put("metric", r.metric().name());
                m.put("unit", r.metric().unit());
                m.put("higherIsBetter", r.metric().higherIsBetter());
                ObjectNode base = m.putObject("baseline");
                number(base, "mean", r.baseline());
                base.put("n", r.baselineN());
                ArrayNode others = m.putArray("others");
                for (Comparison.Cell cell : r.others()) {
                    if (cell == null) {
                        others.addNull();
                        continue;
                    }
                    ObjectNode o = others.addObject();
                    number(o, "mean", cell.mean());
                    o.put("n", cell.n());
                    boolean ratio = cell.ratio() != null && !Double.isNaN(cell.ratio().ratio());
                    boolean interval = ratio && cell.ratio().hasInterval();
                    number(o, "ratio", ratio ? cell.ratio().ratio() : Double.NaN);
                    number(o, "low", interval ? cell.ratio().low() : Double.NaN);
                    number(o, "high", interval ? cell.ratio().high() : Double.NaN);
                    o.put("verdict", cell.verdict().name().toLowerCase(java.util.Locale.ROOT));
                    o.put("verdictText", cell.verdictText());
                }
            }
        }
        ArrayNode g = doc.putArray("gates");
        for (Gate.Verdict v : gates) {
            ObjectNode o = g.addObject();
            o.put("expression", v.gate().expression());
            o.put("metric", v.gate().metric());
            o.put("bound", v.gate().bound());
            o.put("combination", v.combination());
            o.put("file", files.get(v.file()).path().toString());
            o.put("breached", v.breached());
        }
        doc.put("exitCode", exitCode);
        return doc;
    }

    private static void number(ObjectNode o, String field, double v) {
        if (Double.isNaN(v)) {
            o.putNull(field);
        } else {
            o.put(field, v);
        }
    }

    /** GitHub-flavoured Markdown: a heading and a table per combination, for a pull request comment or a job summary. */
    public static void markdown(PrintWriter out, List<ResultFile> files, List<Comparison.Block> blocks,
                                List<Gate.Verdict> gates) {
        out.println("### nbench compare");
        out.println();
        out.println("Per-iteration means of measured iterations; ratio to A (of geometric means) with its 99.9% CI "
                + "(Welch's t on log values); latency: lower is faster.");
        out.println();
        for (int i = 0; i < files.size(); i++) {
            out.println("- " + CompareTable.letter(i) + ": `" + files.get(i).path() + "`");
        }
        CompareTable.steadyStateWarnings(files).forEach(w -> out.println("- :warning: " + w));
        for (Comparison.Block b : blocks) {
            out.println();
            StringBuilder title = new StringBuilder("#### `" + b.name() + "`");
            for (int i = 0; i < b.matched().size(); i++) {
                String m = b.matched().get(i);
                if (m == null) {
                    title.append(" (not in ").append(CompareTable.letter(i + 1)).append(')');
                } else if (!m.equals(b.name())) {
                    title.append(" (").append(CompareTable.letter(i + 1)).append(": `").append(m).append("`)");
                }
            }
            out.println(title);
            out.println();
            List<String> head = new ArrayList<>(List.of("metric", "A"));
            for (int i = 1; i < files.size(); i++) {
                String x = CompareTable.letter(i);
                head.addAll(List.of(x, x + "/A [99.9% CI]", "verdict"));
            }
            out.println(cells(head));
            out.println(cells(head.stream().map(h -> "---").toList()));
            for (Comparison.Row r : b.rows()) {
                List<String> row = new ArrayList<>();
                row.add(r.metric().name());
                row.add(Double.isNaN(r.baseline()) ? "-" : r.metric().format().apply(r.baseline()));
                for (Comparison.Cell c : r.others()) {
                    if (c == null) {
                        row.addAll(List.of("-", "-", "-"));
                        continue;
                    }
                    row.add(Double.isNaN(c.mean()) ? "-" : r.metric().format().apply(c.mean()));
                    row.add(c.ratio() == null || Double.isNaN(c.ratio().ratio()) ? "-"
                            : c.ratio().hasInterval() ? CompareTable.number(c.ratio().ratio()) + " ["
                            + CompareTable.number(c.ratio().low()) + ", " + CompareTable.number(c.ratio().high()) + "]"
                            : CompareTable.number(c.ratio().ratio()));
                    String verdict = c.verdictText();
                    row.add(c.verdict() == Comparison.Verdict.SLOWER ? "**" + verdict + "**" : verdict);
                }
                out.println(cells(row));
            }
        }
        List<Gate.Verdict> breached = gates.stream().filter(Gate.Verdict::breached).toList();
        if (!gates.isEmpty()) {
            out.println();
            if (breached.isEmpty()) {
                out.println("Gates passed: " + String.join(", ", gates.stream().map(v -> "`" + v.gate().expression()
                        + "`").distinct().toList()) + ".");
            }
            for (Gate.Verdict v : gates) {
                if (v.breached()) {
                    out.println("- :x: " + v.describe(CompareTable.letter(v.file())));
                } else if (!v.judged()) {
                    out.println("- :warning: " + v.gate().expression() + " not judged for " + v.combination() + " in "
                            + CompareTable.letter(v.file()) + ": " + v.cell().verdictText());
                }
            }
        }
        out.flush();
    }

    private static String cells(List<String> cells) {
        return "| " + String.join(" | ", cells.stream().map(c -> c.replace("|", "\\|")).toList()) + " |";
    }
}
