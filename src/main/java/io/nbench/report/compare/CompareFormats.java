package io.nbench.report.compare;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nbench.report.json.ResultDocument;
import io.nbench.stats.StudentT;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

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
    public static void json(PrintWriter out, Sides sides, List<Comparison.Block> blocks, List<Gate.Verdict> gates,
                            int exitCode, List<CapacityComparison.Named> capacities) {
        ObjectNode doc = document(sides, blocks, gates, exitCode);
        doc.set("capacities", CapacityComparison.json(capacities));
        doc.set("exitCode", doc.remove("exitCode")); // still the last field, as scripts reading it expect
        out.println(ResultDocument.pretty(doc));
        out.flush();
    }

    /** The {@code nbench-compare/1} document of files, for the HTML report and {@code run}. */
    public static ObjectNode document(List<ResultFile> files, List<Comparison.Block> blocks,
                                      List<Gate.Verdict> gates, int exitCode) {
        return document(new Sides.Files(files), blocks, gates, exitCode);
    }

    /**
     * The {@code nbench-compare/1} document itself. With {@code --baseline}, {@code baseline} is the selector,
     * {@code files} the one document, each combination's {@code matched} the combinations compared with it, and
     * {@code notCompared} those without a baseline.
     */
    public static ObjectNode document(Sides sides, List<Comparison.Block> blocks, List<Gate.Verdict> gates,
                                      int exitCode) {
        ObjectNode doc = ResultDocument.MAPPER.createObjectNode();
        doc.put("schema", SCHEMA);
        doc.put("level", StudentT.LEVEL);
        ArrayNode f = doc.putArray("files");
        sides.documents().forEach(r -> f.add(r.path().toString()));
        if (sides instanceof Sides.Baselines b) {
            doc.put("baseline", b.comparison().selector().text());
        } else {
            doc.putNull("baseline");
        }
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
                    o.put("verdict", cell.verdict().name().toLowerCase(Locale.ROOT));
                    o.put("verdictText", cell.verdictText());
                }
            }
        }
        ArrayNode notCompared = doc.putArray("notCompared");
        if (sides instanceof Sides.Baselines b) {
            for (String c : b.comparison().unpaired()) {
                notCompared.addObject().put("combination", c).put("reason", b.comparison().whyUnpaired(c));
            }
        }
        ArrayNode g = doc.putArray("gates");
        ArrayNode unjudged = doc.putArray("unjudged");
        for (Gate.Verdict v : gates) {
            ObjectNode o = g.addObject();
            String file = sides.file(v);
            o.put("expression", v.gate().expression());
            o.put("metric", v.gate().metric());
            o.put("bound", v.gate().bound());
            o.put("combination", v.combination());
            o.put("against", v.against());
            o.put("file", file);
            o.put("breached", v.breached());
            o.put("judged", v.judged());
            o.put("reason", sides.reason(v));
            if (!v.judged()) {
                unjudged.addObject().put("expression", v.gate().expression()).put("metric", v.gate().metric())
                        .put("combination", v.combination()).put("against", v.against()).put("file", file)
                        .put("reason", sides.reason(v));
            }
        }
        // A combination whose own document found a trend: its ratios are of a system still changing.
        ArrayNode notSteady = doc.putArray("notSteady");
        for (CompareTable.NotSteady w : sides.notSteady()) {
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
    public static void markdown(PrintWriter out, Sides sides, List<Comparison.Block> blocks,
                                List<Gate.Verdict> gates, List<CapacityComparison.Named> capacities) {
        out.println("### nbench compare");
        out.println();
        out.println("Per-iteration means of measured iterations; ratio to A (of geometric means) with its 99.9% CI "
                + "(Welch's t on log values); latency: lower is faster.");
        out.println();
        Sides.Baselines within = sides instanceof Sides.Baselines b ? b : null;
        if (within == null) {
            List<ResultFile> files = sides.documents();
            for (int i = 0; i < files.size(); i++) {
                out.println("- " + CompareTable.letter(i) + ": " + MarkdownText.code(files.get(i).path().toString()));
            }
        } else {
            out.println("- " + MarkdownText.code(within.comparison().file().path().toString()) + ": each combination "
                    + "against A, the one matching " + MarkdownText.code("--baseline " + within.comparison().selector())
                    + " with the same values of the other keys");
        }
        sides.notSteady().forEach(w -> out.println("- :warning: " + (w.letter() == null ? "" : w.letter() + " ")
                + MarkdownText.code(w.name()) + ": " + w.why()));
        for (Comparison.Block b : blocks) {
            out.println();
            out.println(within == null ? fileTitle(b) : "#### " + MarkdownText.code(b.name()));
            out.println();
            if (within != null) {
                List<String> sideNames = new ArrayList<>(List.of("A: " + MarkdownText.code(sides.baseline(b))
                        + " (the baseline)"));
                for (int i = 0; i < b.matched().size(); i++) {
                    sideNames.add(CompareTable.letter(i + 1) + ": " + MarkdownText.code(sides.other(b, i)));
                }
                out.println("- " + String.join(", ", sideNames));
                out.println();
            }
            List<String> head = new ArrayList<>(List.of("metric", "A"));
            for (int i = 1; i <= b.matched().size(); i++) {
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
        if (within != null && !within.comparison().unpaired().isEmpty()) {
            out.println();
            for (String c : within.comparison().unpaired()) {
                out.println("- Not compared: " + MarkdownText.code(c) + ": " + within.comparison().whyUnpaired(c));
            }
        }
        CapacityComparison.markdown(out, capacities);
        gateLines(out, sides, gates);
        out.flush();
    }

    /** A combination of the first file's heading, with what the other files had instead or lack. */
    private static String fileTitle(Comparison.Block b) {
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
        return title.toString();
    }

    /**
     * Under the tables: "Gates passed" only when every gate was judged and none breached; each breached gate, and
     * each that could not be judged, on a line of its own.
     */
    private static void gateLines(PrintWriter out, Sides sides, List<Gate.Verdict> gates) {
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
        boolean within = sides instanceof Sides.Baselines;
        for (Gate.Verdict v : gates) {
            String gate = MarkdownText.code(v.gate().expression());
            if (v.breached()) {
                String ratio = CompareTable.number(v.cell().ratio().ratio()) + " [" + CompareTable.number(
                        v.cell().ratio().low()) + ", " + CompareTable.number(v.cell().ratio().high()) + "]";
                out.println(within
                        ? "- :x: " + gate + " breached for " + MarkdownText.code(v.against()) + ": " + v.gate().metric()
                                + " is " + ratio + " times that of its baseline " + MarkdownText.code(v.combination())
                                + ", beyond " + CompareTable.number(v.gate().bound())
                        : "- :x: " + gate + " breached" + forCombination(v) + ": " + CompareTable.letter(v.file()) + " "
                                + v.gate().metric() + " is " + ratio + " times A's, beyond "
                                + CompareTable.number(v.gate().bound()));
            } else if (!v.judged()) {
                out.println(within
                        ? "- :warning: " + gate + " not judged for " + MarkdownText.code(v.against())
                                + (v.combination() == null ? "" : " against " + MarkdownText.code(v.combination()))
                                + ": " + sides.reason(v)
                        : "- :warning: " + gate + " not judged" + forCombination(v) + " in "
                                + CompareTable.letter(v.file()) + ": " + v.whyNotJudged(CompareTable.letter(v.file())));
            }
        }
    }

    private static String forCombination(Gate.Verdict v) {
        return v.combination() == null ? "" : " for " + MarkdownText.code(v.combination());
    }

    private static String cells(List<String> cells) {
        return "| " + String.join(" | ", cells.stream().map(MarkdownText::cell).toList()) + " |";
    }
}
