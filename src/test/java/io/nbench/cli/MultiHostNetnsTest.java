package io.nbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.nbench.client.ExitCode;
import io.nbench.stats.HistogramCodec;
import io.nbench.stats.Percentiles;
import io.nbench.testkit.NbenchProcess;
import io.nbench.testkit.ResultDocs;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.StringWriter;
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
import org.junit.jupiter.api.Timeout;
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
@Timeout(value = 2 * NbenchProcess.HANG_MINUTES, unit = TimeUnit.MINUTES) // a hang; its processes are stopped in finally
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

    /** {@code mainClass args} in a JVM in namespace {@code ns}. */
    private static List<String> in(String ns, Class<?> mainClass, List<String> args) {
        List<String> c = new ArrayList<>(List.of("ip", "netns", "exec", ns));
        c.addAll(NbenchProcess.command(List.of(), mainClass.getName()));
        c.addAll(args);
        return c;
    }

    @Test
    void threeClientHostsStartTogetherAndMergeLosslessly() throws Exception {
        Assumptions.assumeTrue(sh("ip", "link", "add", bridge, "type", "bridge") == 0,
                "creating network namespaces and a bridge needs root and iproute2 (ip): skipped");
        Process server = null;
        List<Process> clients = new ArrayList<>();
        try {
            must("ip", "link", "set", bridge, "up");
            String serverHost = host(0);
            List<String> clientHosts = List.of(host(1), host(2), host(3));
            server = new ProcessBuilder(in(serverHost, Main.class, List.of("server", "--impl", "nio", "--bind", "10.77.0.1", "--port", "0")))
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            String banner = new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8)).readLine();
            Matcher m = Pattern.compile("listening on 10\\.77\\.0\\.1:(\\d+)").matcher(String.valueOf(banner));
            assertTrue(m.find(), banner);

            // Each client host's JVM starts and warms up first (a busy machine takes seconds for that, and --start-at
            // refuses an instant already past); once all three say so, they are given one instant a little ahead.
            List<String> hostArgs = List.of("--host", "10.77.0.1", "--port", m.group(1));
            List<Path> documents = new ArrayList<>();
            List<BufferedReader> outputs = new ArrayList<>();
            for (int k = 0; k < 3; k++) {
                Path out = dir.resolve("host" + (k + 1) + ".json");
                documents.add(out);
                List<String> args = new ArrayList<>(hostArgs);
                args.addAll(List.of("--", "client", "--threads", "2", "--size", "100", "--iteration-time", "500ms",
                        "--warmup", "1", "--iterations", "3", "--host-label", "host" + (k + 1), "--out", out.toString()));
                args.addAll(hostArgs);
                Process c = new ProcessBuilder(in(clientHosts.get(k), Cued.class, args)).redirectErrorStream(true).start();
                clients.add(c);
                outputs.add(new BufferedReader(new InputStreamReader(c.getInputStream(), StandardCharsets.UTF_8)));
            }
            for (BufferedReader o : outputs) {
                assertEquals(Cued.READY, o.readLine(), "a client host's JVM did not get ready");
            }
            // What is left before the instant (parsing, two connections, one 500 ms warmup iteration) takes a warm
            // JVM well under a second; 4 s leave it 3.5 s to parse before the warmup must start (8 s before: 4 s
            // of every run waited out).
            Instant at = Instant.now().plusSeconds(4);
            for (Process c : clients) {
                c.getOutputStream().write((at + "\n").getBytes(StandardCharsets.US_ASCII));
                c.getOutputStream().close();
            }
            for (int k = 0; k < 3; k++) {
                String rest = drain(outputs.get(k));
                assertTrue(clients.get(k).waitFor(NbenchProcess.HANG_MINUTES, TimeUnit.MINUTES), "a client did not end");
                assertEquals(0, clients.get(k).exitValue(), "a client's exit code: " + rest);
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
            for (Process c : clients) {
                c.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
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

    private static String drain(BufferedReader output) throws IOException {
        StringBuilder all = new StringBuilder();
        for (String line; (line = output.readLine()) != null; ) {
            all.append(line).append('\n');
        }
        return all.toString();
    }

    /**
     * A client host's nbench, started ahead of its instant: {@code HOST-ARGS -- CLIENT-ARGS}. It runs one short
     * client against the server (so the classes a run needs are loaded, as in the JVM of a host that has run
     * nbench before), prints {@link #READY}, reads the instant from stdin and runs {@code CLIENT-ARGS --start-at
     * INSTANT} through nbench's {@link Main}, exiting with its code.
     */
    public static final class Cued {
        static final String READY = "ready";

        public static void main(String[] args) throws IOException {
            List<String> all = List.of(args);
            int split = all.indexOf("--");
            List<String> warmUp = new ArrayList<>(List.of("client", "--msgs", "100", "--warmup", "0", "--iterations", "1"));
            warmUp.addAll(all.subList(0, split));
            StringWriter warmUpOutput = new StringWriter();
            PrintWriter sink = new PrintWriter(warmUpOutput);
            int code = Main.run(warmUp.toArray(String[]::new), sink, sink);
            System.out.println(code == 0 ? READY : "the warm-up run failed (" + code + "): " + warmUpOutput);
            String at = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII)).readLine();
            List<String> run = new ArrayList<>(all.subList(split + 1, all.size()));
            run.addAll(List.of("--start-at", String.valueOf(at)));
            System.exit(Main.run(run.toArray(String[]::new), new PrintWriter(System.out, true),
                    new PrintWriter(System.err, true)));
        }
    }
}
