package io.nbench.cli;

import io.nbench.client.ExitCode;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.nbench.report.json.HistogramCodec;
import io.nbench.stats.Percentiles;
import io.nbench.testkit.NbenchProcess;
import io.nbench.testkit.ResultDocs;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * Several client hosts on one machine: four network namespaces (a server host and three client hosts, each
 * with its own network stack and address) joined by veth pairs on a bridge. The three clients, started apart,
 * begin measuring together with {@code --start-at}; their documents merge into one whose counts are the sums
 * and whose p99 is the p99 of all their histograms together. Needs root (CI runs as root); skipped otherwise.
 */
@EnabledOnOs(OS.LINUX)
class MultiHostNetnsTest {

    @TempDir
    Path dir;

    private final String id = Long.toString(ProcessHandle.current().pid() % 100_000);
    private final String bridge = "nbbr" + id;
    private final List<String> namespaces = new ArrayList<>();

    private static int sh(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            return -1;
        }
        return p.exitValue();
    }

    private static void must(String... command) throws IOException, InterruptedException {
        assertEquals(0, sh(command), String.join(" ", command));
    }

    /** Namespace {@code k} as host 10.77.0.(k+1) on the bridge. */
    private String host(int k) throws IOException, InterruptedException {
        String ns = "nb" + id + "h" + k;
        must("ip", "netns", "add", ns);
        namespaces.add(ns);
        String veth = "nb" + id + "v" + k;
        must("ip", "link", "add", veth, "type", "veth", "peer", "name", "eth0", "netns", ns);
        must("ip", "link", "set", veth, "master", bridge, "up");
        must("ip", "-n", ns, "link", "set", "lo", "up");
        must("ip", "-n", ns, "addr", "add", "10.77.0." + (k + 1) + "/24", "dev", "eth0");
        must("ip", "-n", ns, "link", "set", "eth0", "up");
        return ns;
    }

    private static List<String> in(String ns, List<String> nbench) {
        List<String> c = new ArrayList<>(List.of("ip", "netns", "exec", ns));
        c.addAll(NbenchProcess.command(List.of()));
        c.addAll(nbench);
        return c;
    }

    @Test
    void threeClientHostsStartTogetherAndMergeLosslessly() throws Exception {
        Assumptions.assumeTrue(sh("ip", "link", "add", bridge, "type", "bridge") == 0,
                "creating network namespaces and a bridge needs root and iproute2 (ip): skipped");
        Process server = null;
        try {
            must("ip", "link", "set", bridge, "up");
            String serverHost = host(0);
            List<String> clientHosts = List.of(host(1), host(2), host(3));
            server = new ProcessBuilder(in(serverHost, List.of("server", "--impl", "nio", "--bind", "10.77.0.1", "--port", "0")))
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            String banner = new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8)).readLine();
            Matcher m = Pattern.compile("listening on 10\\.77\\.0\\.1:(\\d+)").matcher(String.valueOf(banner));
            assertTrue(m.find(), banner);

            // One instant for every host, far enough ahead for three JVMs to start and warm up.
            Instant at = Instant.now().plusSeconds(8);
            List<Process> clients = new ArrayList<>();
            List<Path> documents = new ArrayList<>();
            for (int k = 0; k < 3; k++) {
                Path out = dir.resolve("host" + (k + 1) + ".json");
                documents.add(out);
                clients.add(new ProcessBuilder(in(clientHosts.get(k), List.of("client", "--host", "10.77.0.1", "--port",
                        m.group(1), "--threads", "2", "--size", "100", "--iteration-time", "500ms", "--warmup", "1",
                        "--iterations", "3", "--start-at", at.toString(), "--host-label", "host" + (k + 1), "--out",
                        out.toString()))).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start());
            }
            for (Process c : clients) {
                assertTrue(c.waitFor(60, TimeUnit.SECONDS), "a client ended");
                assertEquals(0, c.exitValue(), "a client's exit code");
            }

            Path merged = dir.resolve("merged.json");
            CliTest.Outcome o = CliTest.run("report", documents.get(0).toString(), documents.get(1).toString(),
                    documents.get(2).toString(), "--merge", "--out", merged.toString());
            assertEquals(ExitCode.OK, o.code(), o.err());
            assertEquals("", o.err(), "no clock-skew warning: the hosts started measuring together");
            JsonNode doc = ResultDocs.read(merged);
            Histogram all = new Histogram(3);
            long messages = 0;
            List<String> hosts = new ArrayList<>();
            for (Path p : documents) {
                JsonNode d = ResultDocs.read(p);
                hosts.add(d.path("environment").path("host").asText());
                messages += d.path("summary").path("messages").asLong();
                for (JsonNode it : d.path("combinations").get(0).path("iterations")) {
                    if (!it.path("warmup").asBoolean()) {
                        all.add(HistogramCodec.decode(it.path("histogram").asText()));
                    }
                }
            }
            assertEquals(List.of("host1", "host2", "host3"), hosts);
            assertEquals("host1,host2,host3", doc.path("environment").path("host").asText());
            assertTrue(messages > 0);
            assertEquals(messages, doc.path("summary").path("messages").asLong(), "the merged count is the sum");
            assertEquals(all.getTotalCount(), messages);
            assertEquals(Percentiles.valueAt(all, 99), doc.path("summary").path("latencyNs").path("merged").path("p99").asLong(),
                    "the merged p99 is the p99 of the three hosts' histograms together");
        } finally {
            if (server != null) {
                server.destroy();
                if (!server.waitFor(10, TimeUnit.SECONDS)) {
                    server.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }
            }
            for (String ns : namespaces) {
                sh("ip", "netns", "del", ns); // its veth end goes with it, and the other end with the pair
            }
            sh("ip", "link", "del", bridge);
        }
    }
}
