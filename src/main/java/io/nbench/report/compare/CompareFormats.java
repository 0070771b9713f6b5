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
     * ratio with its interval and verdict), the gates, those that could not be judged again in {@code unjudged} (a
     * script's one place to look), the combinations not at steady state ({@code notSteady}), and the exit code.
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
        ArrayNode unjudged = doc.putArray("unjudged");
        for (Gate.Verdict v : gates) {
            ObjectNode o = g.addObject();
            String file = files.get(v.file()).path().toString();
            o.put("expression", v.gate().expression());
            o.put("metric", v.gate().metric());
            o.put("bound", v.gate().bound());
            o.put("combination", v.combination());
            o.put("file", file);
            o.put("breached", v.breached());
            o.put("judged", v.judged());
            o.put("reason", v.whyNotJudged(file));
            if (!v.judged()) {
                unjudged.addObject().put("expression", v.gate().expression()).put("metric", v.gate().metric())
                        .put("combination", v.combination()).put("file", file).put("reason", v.whyNotJudged(file));
            }
        }
        // A combination whose own document found a trend: its ratios are of a system still changing.
        ArrayNode notSteady = doc.putArray("notSteady");
        for (CompareTable.NotSteady w : CompareTable.steadyStateWarnings(files)) {
            notSteady.addObject().put("file", w.file()).put("combination", w.name()).put("warning", w.why());
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
            out.println("- " + CompareTable.letter(i) + ": " + MarkdownText.code(files.get(i).path().toString()));
        }
        CompareTable.steadyStateWarnings(files).forEach(w -> out.println("- :warning: " + w.letter() + " "
                + MarkdownText.code(w.name()) + ": " + w.why()));
        for (Comparison.Block b : blocks) {
            out.println();
            StringBuilder title = new StringBuilder("#### " + MarkdownText.code(b.name()));
            for (int i = 0; i < b.matched().size(); i++) {
                String m = b.matched().get(i);
                if (m == null) {
                    title.append(" (not in ").append(CompareTable.letter(i + 1)).append(')');
                } else if (!m.equals(b.name())) {
                    title.append(" (").append(CompareTable.letter(i + 1)).append(": ").append(MarkdownText.code(m))
                            .append(')');
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
                    row.add(CompareTable.ratio(c));
                    String verdict = c.verdictText();
                    row.add(c.verdict() == Comparison.Verdict.SLOWER ? "**" + verdict + "**" : verdict);
                }
                out.println(cells(row));
            }
        }
        gateLines(out, gates);
        out.flush();
    }

    /**
     * Under the tables: "Gates passed" only when every gate was judged and none breached; each breached gate, and
     * each that could not be judged, on a line of its own.
     */
    private static void gateLines(PrintWriter out, List<Gate.Verdict> gates) {
        if (gates.isEmpty()) {
            return;
        }
        out.println();
        String expressions = String.join(", ", gates.stream().map(v -> MarkdownText.code(v.gate().expression()))
                .distinct().toList());
        if (gates.stream().noneMatch(Gate.Verdict::breached)) {
            out.println(gates.stream().allMatch(Gate.Verdict::judged) ? "Gates passed: " + expressions + "."
                    : "No gate breached, but not every gate could be judged (below): " + expressions + ".");
        }
        for (Gate.Verdict v : gates) {
            String file = CompareTable.letter(v.file());
            String combination = v.combination() == null ? "" : " for " + MarkdownText.code(v.combination());
            if (v.breached()) {
                out.println("- :x: " + MarkdownText.code(v.gate().expression()) + " breached" + combination + ": "
                        + file + " " + v.gate().metric() + " is " + CompareTable.number(v.cell().ratio().ratio())
                        + " [" + CompareTable.number(v.cell().ratio().low()) + ", "
                        + CompareTable.number(v.cell().ratio().high()) + "] times A's, beyond "
                        + CompareTable.number(v.gate().bound()));
            } else if (!v.judged()) {
                out.println("- :warning: " + MarkdownText.code(v.gate().expression()) + " not judged" + combination
                        + " in " + file + ": " + v.whyNotJudged(file));
            }
        }
    }

    private static String cells(List<String> cells) {
        return "| " + String.join(" | ", cells.stream().map(MarkdownText::cell).toList()) + " |";
    }
}
