package io.nbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.nbench.protocol.Protocol;
import io.nbench.report.json.ResultDocument;
import io.nbench.testkit.NbenchProcess;
import io.nbench.testkit.ResultDocs;
import io.nbench.testkit.TestServers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.HdrHistogram.HistogramLogProcessor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A sweep's {@code --hdr-log} and {@code --hgrm} files read by HdrHistogram's own tools, as their users run them:
 * {@code HistogramLogProcessor} without {@code -tag} gives the first combination's measured spectrum (it fails on a
 * log with no untagged interval, as for a tag with none), with {@code -tag COMBINATION} any combination's whole
 * measured spectrum and with
 * {@code -tag COMBINATION;warmup} its warmup; its percentile output (ms by default, the plotter's default unit) is
 * line for line the {@code --hgrm} file nbench wrote for that combination.
 */
class HdrToolsTest {

    @TempDir
    Path dir;

    @Test
    void histogramLogProcessorGivesEachCombinationsWholeSpectrum() throws Exception {
        String port = Integer.toString(TestServers.get("nio", Protocol.FRAMED).address().getPort());
        NbenchProcess.Result r = NbenchProcess.run(dir, "022", "client", "--port", port, "--threads", "2",
                "--msgs", "200", "--warmup", "1", "--iterations", "3", "--size", "100,300", "--quiet",
                "--hdr-log", "lat.hlog", "--hgrm", "lat-{combination}.hgrm", "--out", "r.json");
        assertEquals(0, r.exit(), r.all());
        JsonNode doc = ResultDocs.read(dir.resolve("r.json").toFile());
        List<String> tags = List.of("impl=netty;size=100;threads=2;window=1", "impl=netty;size=300;threads=2;window=1");
        String log = Files.readString(dir.resolve("lat.hlog"));
        assertTrue(log.contains("#nbench untagged: " + tags.get(0) + "\n"), log);
        assertTrue(log.contains("#nbench iteration 3 of " + tags.get(1) + "\n"), log);

        String untagged = process("untagged");
        String first = process("first", "-tag", tags.get(0));
        String second = process("second", "-tag", tags.get(1));
        String warmup = process("warmup", "-tag", tags.get(1) + ";warmup");
        assertEquals(untagged, first, "the untagged intervals are the first combination's");

        for (int c = 0; c < 2; c++) {
            JsonNode combination = doc.get("combinations").get(c);
            long measured = combination.get("summary").get("messages").asLong();
            String hgrm = c == 0 ? untagged : second;
            assertEquals(measured, totalCount(hgrm), "combination " + c + ": the processor's count");
            Path ours = dir.resolve("lat-impl-netty_size-" + (c == 0 ? 100 : 300) + "_threads-2_window-1.hgrm");
            List<String> lines = Files.readAllLines(ours);
            assertEquals("#nbench " + tags.get(c) + ": latency in milliseconds (HdrHistogram's plotter default unit), "
                    + "the measured iterations merged", lines.get(0));
            String distribution = hgrm.lines()
                    .filter(l -> !l.startsWith("#[Overall percentile distribution") && !l.startsWith("#[StartTime"))
                    .collect(Collectors.joining("\n"));
            assertEquals(distribution.strip(), String.join("\n", lines.subList(1, lines.size())).strip(),
                    "the processor's distribution is our --hgrm file's");
        }
        long warmupMessages = 0;
        for (JsonNode i : doc.get("combinations").get(1).get("iterations")) {
            if (i.get("warmup").asBoolean()) {
                warmupMessages += i.get("messages").asLong();
            }
        }
        assertEquals(warmupMessages, totalCount(warmup));
    }

    /** Runs HdrHistogram's HistogramLogProcessor on the log, in this thread; its percentile output. */
    private String process(String name, String... more) throws Exception {
        Path out = dir.resolve(name);
        String[] args = new String[4 + more.length];
        args[0] = "-i";
        args[1] = dir.resolve("lat.hlog").toString();
        args[2] = "-o";
        args[3] = out.toString();
        System.arraycopy(more, 0, args, 4, more.length);
        new HistogramLogProcessor(args).run();
        Path hgrm = Path.of(out + ".hgrm");
        String text = Files.exists(hgrm) ? Files.readString(hgrm) : "";
        return text;
    }

    private static long totalCount(String hgrm) {
        Matcher m = Pattern.compile("Total count\\s*=\\s*(\\d+)").matcher(hgrm);
        assertTrue(m.find(), hgrm);
        return Long.parseLong(m.group(1));
    }
}
