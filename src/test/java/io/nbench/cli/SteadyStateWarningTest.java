package io.nbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.nbench.client.ExitCode;
import io.nbench.testkit.CsvColumns;
import io.nbench.testkit.ResultDocs;
import io.nbench.testkit.ScriptedServer.Action;
import io.nbench.testkit.ScriptedServer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Steady state is checked, not assumed. A server that holds two requests of the first iteration for 400 ms,
 * one of the second and none of the third makes the measured throughput rise from every iteration to the
 * next, several times over: the summary warns that the run was not at steady state (a warning: the run
 * still passes), the document's summary says so, and {@code compare} repeats it for that file.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SteadyStateWarningTest {

    private static final Pattern WARNING = Pattern.compile(
            "(?m)^Warning: not at steady state: throughput rose (\\d+\\.\\d)x over 3 iterations \\(it rose from every "
                    + "iteration to the next\\); add --warmup or lengthen the iterations\\.$");

    @TempDir
    Path dir;

    @Test
    void aRisingThroughputIsReportedEverywhereTheFiguresAre() throws Exception {
        // One connection, one message in flight, 20 messages per iteration: requests 0-19, 20-39, 40-59.
        Path out = dir.resolve("rising.json");
        try (ScriptedServer server = new ScriptedServer(i -> i == 0 || i == 10 || i == 20 ? Action.DELAY_400MS
                : Action.ANSWER)) {
            CliTest.Outcome o = CliTest.run("client", "--port", Integer.toString(server.address().getPort()),
                    "--threads", "1", "--connections", "1", "--msgs", "20", "--warmup", "0", "--iterations", "3",
                    "--size", "16", "--out", out.toString());
            assertEquals(ExitCode.OK, o.code(), "a trend is a warning, not a failure: " + o.out() + o.err());
            Matcher m = WARNING.matcher(o.out());
            assertTrue(m.find(), o.out());

            JsonNode doc = ResultDocs.read(out);
            JsonNode its = doc.get("combinations").get(0).get("iterations");
            double first = its.get(0).get("msgPerSec").asDouble();
            double last = its.get(2).get("msgPerSec").asDouble();
            assertTrue(first < its.get(1).get("msgPerSec").asDouble() && its.get(1).get("msgPerSec").asDouble() < last,
                    "the script makes every iteration faster than the one before: " + its);
            JsonNode test = doc.get("summary").get("steadyState");
            assertEquals("rising", test.get("trend").asText(), test.toString());
            assertEquals("monotone", test.get("rule").asText());
            assertEquals(3, test.get("n").asInt());
            // With 3 points the fitted change from the first to the last is exactly last / first.
            assertEquals(last / first, test.get("change").asDouble(), 1e-9 * last / first);
            assertEquals(String.format(Locale.ROOT, "%.1f", last / first), m.group(1));

            // The document keeps the warning as the text printed it, after "Warning: ".
            String warning = "not at steady state: throughput rose " + m.group(1) + "x over 3 iterations (it rose from "
                    + "every iteration to the next); add --warmup or lengthen the iterations.";
            assertTrue(texts(doc.get("summary").get("warnings")).contains(warning), doc.get("summary").toString());
            assertEquals("", o.err(), "text keeps its warnings on stdout: a clean text run has an empty stderr");

            CliTest.Outcome c = CliTest.run("compare", out.toString(), out.toString());
            assertEquals(ExitCode.OK, c.code(), c.out() + c.err());
            String name = doc.get("combinations").get(0).get("name").asText();
            for (String letter : new String[] {"A", "B"}) {
                assertTrue(c.out().contains("  Warning: " + letter + " " + name + ": not at steady state: throughput rose "
                        + m.group(1) + "x over 3 iterations; add --warmup or lengthen the iterations\n"), c.out());
            }
        }
    }

    /**
     * A machine format drops no warning: {@code --format csv} carries the summary's warnings in the last measured
     * row's {@code warnings} cell, the document in {@code summary.warnings}, and stderr as one line each (stdout
     * is data). The same script as above makes the same trend.
     */
    @Test
    void aMachineFormatKeepsTheWarningInItsDataAndOnStderr() throws Exception {
        Path out = dir.resolve("rising-csv.json");
        try (ScriptedServer server = new ScriptedServer(i -> i == 0 || i == 10 || i == 20 ? Action.DELAY_400MS
                : Action.ANSWER)) {
            CliTest.Outcome o = CliTest.run("client", "--port", Integer.toString(server.address().getPort()),
                    "--threads", "1", "--connections", "1", "--msgs", "20", "--warmup", "0", "--iterations", "3",
                    "--size", "16", "--format", "csv", "--out", out.toString());
            assertEquals(ExitCode.OK, o.code(), o.out() + o.err());
            JsonNode doc = ResultDocs.read(out);
            List<String> warnings = texts(doc.get("summary").get("warnings"));
            String steady = warnings.stream().filter(w -> w.startsWith("not at steady state: throughput rose "))
                    .findFirst().orElse(null);
            assertTrue(steady != null, "the document keeps the trend warning: " + warnings);
            List<List<String>> rows = CsvColumns.records(o.out());
            int column = rows.get(0).indexOf("warnings");
            assertEquals(4, rows.size(), o.out());
            assertEquals("", rows.get(1).get(column));
            assertEquals("", rows.get(2).get(column));
            assertEquals(String.join(" | ", warnings), rows.get(3).get(column), "the last row carries every warning");
            CsvColumns.check(o.out(), doc);
            String name = doc.get("combinations").get(0).get("name").asText();
            for (String w : warnings) {
                assertTrue(o.err().contains("nbench client: warning [" + name + "]: " + w + "\n"), o.err());
            }
            assertTrue(o.err().contains("]: " + steady + "\n"), o.err());
        }
    }

    private static List<String> texts(JsonNode array) {
        List<String> texts = new ArrayList<>();
        if (array == null) {
            return texts; // a document without the field
        }
        array.forEach(t -> texts.add(t.asText()));
        return texts;
    }
}
