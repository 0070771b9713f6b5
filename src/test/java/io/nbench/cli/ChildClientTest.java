package io.nbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.nbench.client.ClientSpec;
import io.nbench.client.ExitCode;
import io.nbench.protocol.Protocol;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine;

/**
 * A client nbench starts itself is described by one typed {@link ClientSpec}: every client option survives the
 * way from a parsed command line through the fork's JSON file to a fresh client command; {@code run}'s and
 * {@code --forks}' adjustments are typed; a fork runs from such a file, and its result document records the
 * user's command line and options, not internal ones.
 */
class ChildClientTest {

    /** Options that describe no client run: help, version, and the file a fork reads its spec from. */
    private static final Set<String> NOT_CARRIED = Set.of("--help", "--version", "--plan");

    /**
     * Every client option given a value other than its default. Three command lines, since a capacity search
     * refuses --rate, --threshold and --forks, and a rate sweep --rate, --forks and --find-rate: together they give
     * every option (checked below).
     */
    private static final List<List<String>> EVERY_OPTION = List.of(
            List.of("--impl", "netty,nio", "--port", "7123", "--protocol", "echo", "--io-threads", "3",
                    "--no-tcp-nodelay", "--sndbuf", "64k", "--rcvbuf", "32k", "--keepalive", "-O", "netty.io=nio,epoll",
                    "-O", "nio.direct=false", "--host", "10.1.2.3", "--threads", "1,3", "--connections", "6",
                    "--msgs", "77", "--warmup", "2", "--iterations", "4", "--forks", "3", "--size", "5k,64",
                    "--response-size", "10", "--window", "2,8", "--batch", "2", "--requests-per-connection", "9",
                    "--connect-rate", "2k", "--rate", "1.5k,20k", "--max-inflight", "12", "--pacer", "spin",
                    "--measure", "send", "--driver", "threads", "--timeout", "3s", "--connect-timeout", "250ms",
                    "--verify", "full", "--url", "http://example.org:81/x?y=1", "--method", "POST", "-H", "A: b",
                    "--success-status", "2xx,3xx,404", "--body", "{\"a\": 1}", "--content-type", "application/json",
                    "-H", "C:d", "--tls", "--tls-protocols", "TLSv1.3", "--tls-ciphers", "TLS_AES_128_GCM_SHA256",
                    "--tls-ca", "some dir/ca.pem", "--tls-insecure", "--tls-resumption", "off",
                    "--percentiles", "50,99.99,100",
                    "--max-errors", "1%", "--host-label", "client-7", "--quiet", "--format", "json", "--no-header",
                    "--out", "some dir/r.json", "--hdr-log", "r.hlog", "--hgrm", "lat-{combination}.hgrm",
                    "--threshold", "p99<2ms", "--threshold", " errors==0", "--progress", "always",
                    "--server-stats", "--monitor-host", "10.9.9.9", "--monitor-port", "9999",
                    "--monitor-token-file", "token", "--start-at", "2099-01-02T03:04:05Z", "--allow-in-jvm",
                    "--run-owns-files", "-n", "1234", "-d", "7s", "--connect-retry", "3s"),
            List.of("--find-rate", "--slo", "p99<=10ms", "--slo", "errors<=0.1%", "--rate-resolution", "0.5%",
                    "--max-time", "2m", "--confirm", "5s", "--iteration-time", "250ms"),
            List.of("--rate-sweep", "1.5k..20k/7", "--body-file", "some dir/body.bin"));

    private static CommandLine parsedClient(List<String> args) {
        CommandLine cl = Main.commandLine(new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()));
        List<String> all = new ArrayList<>(List.of("client"));
        all.addAll(args);
        return cl.parseArgs(all.toArray(new String[0])).subcommand().commandSpec().commandLine();
    }

    /** A client command as a fork gets it: parsed with no arguments, then given a spec. */
    private static ClientCommand freshClient() {
        return parsedClient(List.of()).getCommand();
    }

    @Test
    void everyOptionSurvivesTheWayToAFork(@TempDir Path dir) throws Exception {
        Set<String> given = new TreeSet<>();
        for (List<String> line : EVERY_OPTION) {
            CommandLine parsed = parsedClient(line);
            parsed.getParseResult().matchedOptions().forEach(o -> given.add(o.longestName()));
            Path file = dir.resolve("spec.json");
            ChildClient.write(ChildClient.settingsOf(parsed.getCommand(), List.of("client", "--as-given")), file);

            ClientCommand fresh = freshClient();
            ClientSpec read = ClientPlanFile.read(file);
            ChildClient.set(fresh, read);
            assertEquals(List.of("client", "--as-given"), fresh.output.givenArguments);
            for (OptionSpec o : parsed.getCommandSpec().options()) {
                if (!NOT_CARRIED.contains(o.longestName())) {
                    Object expected = o.getValue();
                    Object carried = fresh.spec.findOption(o.longestName()).getValue();
                    assertEquals(expected, carried, o.longestName());
                }
            }
        }
        // The two lines gave every client option a value of its own: a new option must be added to them.
        Set<String> every = new TreeSet<>();
        freshClient().spec.options().forEach(o -> every.add(o.longestName()));
        every.removeAll(NOT_CARRIED);
        every.removeAll(given);
        assertEquals(Set.of(), every, "client options the test gives no value");
    }

    /** The server run started is no option but run's typed word: a fork's plan file carries it all the same. */
    @Test
    void theServerRunStartedSurvivesTheWayToAFork(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("spec.json");
        ChildClient.write(ChildClient.settingsOf(freshClient(), List.of("client"))
                .withServer("mina", Protocol.HTTP), file);
        ClientCommand fresh = freshClient();
        ChildClient.set(fresh, ClientPlanFile.read(file));
        ClientSpec.Server carried = ChildClient.settingsOf(fresh, List.of("client")).server();
        assertEquals("mina http", carried == null ? null : carried.transport() + " " + carried.protocol().label());
    }

    @Test
    void anOptionNotGivenKeepsItsDefault(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("spec.json");
        ChildClient.write(ChildClient.settingsOf(freshClient(), List.of("client")), file);
        ClientCommand fresh = freshClient();
        ChildClient.set(fresh, ClientPlanFile.read(file));
        CommandLine defaults = parsedClient(List.of());
        for (OptionSpec o : defaults.getCommandSpec().options()) {
            Object expected = o.getValue();
            assertEquals(expected, fresh.spec.findOption(o.longestName()).getValue(), o.longestName());
        }
    }

    @Test
    void forksRunFromTheSpecAndRecordTheUsersCommandLineAndOptions(@TempDir Path dir) throws IOException {
        Path out = dir.resolve("r.json");
        String[] line = {"client", "--port", CliTest.port(Protocol.FRAMED), "--forks", "2", "--threads", "2",
            "--connections", "3", "--msgs", "50", "--warmup", "0", "--iterations", "2", "--out", out.toString(),
            "--size", "100", "--response-size", "60", "--window", "2", "--timeout", "7s", "--connect-timeout", "4s",
            "--verify", "full", "--percentiles", "50,99.9", "--max-errors", "5", "--host-label", "forked",
            "--threshold", "errors<=100", "--io-threads", "1", "--no-tcp-nodelay", "--sndbuf", "64k",
            "--keepalive", "--driver", "threads", "--connect-rate", "1k", "-O", "netty.io=nio", "--progress", "never"};
        CliTest.Outcome o = CliTest.run(line);
        assertEquals(ExitCode.OK, o.code(), o.out() + o.err());
        assertEquals("", o.err());
        // What each fork records, computed here from the same command line as the client parses it.
        String[] args = Arrays.copyOfRange(line, 1, line.length);
        Map<String, Object> expected = OptionRecord.values(parsedClient(List.of(args)).getCommandSpec());
        ObjectMapper json = new ObjectMapper();
        for (int k = 1; k <= 2; k++) {
            JsonNode doc = json.readTree(dir.resolve("r.fork" + k + ".json").toFile());
            assertEquals(List.of(line), json.convertValue(doc.at("/configuration/arguments"),
                    json.getTypeFactory().constructCollectionType(List.class, String.class)));
            JsonNode options = doc.at("/configuration/options");
            for (Map.Entry<String, Object> e : expected.entrySet()) {
                // What --forks chooses for each fork: its own document, one run, the file it reads its spec from.
                if (!Set.of("out", "forks", "plan").contains(e.getKey())) {
                    assertEquals(json.valueToTree(e.getValue()).toString(), options.path(e.getKey()).toString(),
                            "fork " + k + ": " + e.getKey());
                }
            }
            assertEquals(1, options.path("forks").asInt());
            assertEquals(dir.resolve("r.fork" + k + ".json").toString(), options.path("out").asText());
        }
        JsonNode joined = json.readTree(out.toFile());
        assertEquals(List.of(line), json.convertValue(joined.at("/configuration/arguments"),
                json.getTypeFactory().constructCollectionType(List.class, String.class)));
    }

    /**
     * A value that does not parse is one usage error before any fork starts; it was the first fork's, and then
     * the parent's again after that fork ended.
     */
    @Test
    void aBadValueIsOneUsageErrorBeforeAnyFork() {
        CliTest.Outcome o = CliTest.run("client", "--port", "1", "--forks", "2", "--percentiles", "50,abc");
        assertEquals(ExitCode.USAGE, o.code());
        assertEquals("nbench: 'abc' is not a percentile: use numbers such as 50,99,99.9 (see 'nbench client --help')\n",
                o.err());
        assertEquals("", o.out(), "no fork started");
    }

    @Test
    void aPlanFileIsTheOnlyOptionItTakes(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("plan.json");
        ChildClient.write(ChildClient.settingsOf(freshClient(), List.of("client")), file);
        CliTest.Outcome o = CliTest.run("client", "--plan", file.toString(), "--threads", "2");
        assertEquals(ExitCode.USAGE, o.code());
        assertEquals("nbench: --plan gives every option: leave the others out (see 'nbench client --help')\n", o.err());
    }

    @Test
    void anUnreadablePlanIsOneLineAndExit1(@TempDir Path dir) throws IOException {
        Path file = Files.writeString(dir.resolve("plan.json"), "{\"format\":\"something else\"}");
        CliTest.Outcome o = CliTest.run("client", "--plan", file.toString());
        assertEquals(ExitCode.COULD_NOT_RUN, o.code());
        assertEquals("nbench client: " + file + " is not a client plan written by this nbench (format "
                + ClientPlanFile.FORMAT + ")\n", o.err());
        assertEquals("", o.out());

        Path spec = dir.resolve("spec.json");
        ChildClient.write(ChildClient.settingsOf(freshClient(), List.of("client")), spec);
        String text = Files.readString(spec);
        assertTrue(text.contains("\"threads\":[4]"), text);
        Path wrongValue = Files.writeString(dir.resolve("bad.json"), text.replace("\"threads\":[4]",
                "\"threads\":[\"many\"]"));
        CliTest.Outcome bad = CliTest.run("client", "--plan", wrongValue.toString());
        assertEquals(ExitCode.COULD_NOT_RUN, bad.code());
        assertEquals("nbench client: the plan's settings at load.threads.0 are not ones this client takes: \"many\"\n",
                bad.err());
    }

    @Test
    void runCountsARelativeStartAtFromEachClientsStart() {
        // Two in-JVM servers one after the other: the second client starts after the first's +1s has passed.
        CliTest.Outcome o = CliTest.run("run", "--in-process", "--start-at", "+1s", "--iteration-time", "100ms",
                "--warmup", "0", "--iterations", "1", "--threads", "1");
        // A 100 ms iteration may measure nothing on a loaded machine (NO_DATA, exit 5): not what is tested here.
        assertTrue(o.code() == ExitCode.OK || o.code() == ExitCode.NOTHING_MEASURED, o.out() + o.err());
        assertEquals(2, o.out().lines().filter(l -> l.startsWith("Result: PASS") || l.startsWith("Result: NO_DATA"))
                .count(), o.out());
    }

    @Test
    void everyAdjustmentSurvivesTheFileAndSetsTheClientsOwnFields(@TempDir Path dir) throws Exception {
        ClientCommand given = parsedClient(List.of("--threads", "3", "--threshold", "p99<2ms", "-O", "netty.io=nio",
                "--out", "user.json", "--protocol", "http", "--url", "http://127.0.0.1:1/a")).getCommand();
        Instant at = Instant.parse("2099-01-02T03:04:05Z");
        ClientSpec spec = ChildClient.settingsOf(given, List.of("client", "--as-given")).withPort(4321)
                .withResultFiles(dir.resolve("r.json"), dir.resolve("r.hlog"), null, true)
                .withIterationTime(Duration.ofMillis(250)).withIterations(0, 3).withoutThresholds()
                .withTransportOptions(Map.of("nio.direct", "false")).inJvm("netty-local")
                .withServerStats("127.0.0.1", 9999, dir.resolve("token")).withStartAt(at).withForks(1)
                .trustingAnyCertificate();
        Path file = dir.resolve("plan.json");
        ChildClient.write(spec, file);

        ClientCommand client = freshClient();
        ChildClient.set(client, ClientPlanFile.read(file));
        assertEquals(4321, client.transport.port);
        assertEquals("http://127.0.0.1:4321/", client.http.url, "an HTTP client is pointed at the port by URL");
        assertEquals(dir.resolve("r.json"), client.output.out);
        assertEquals(dir.resolve("r.hlog"), client.output.hdrLog);
        assertEquals(null, client.output.hgrm);
        assertTrue(client.runOwnsFiles);
        assertEquals(Duration.ofMillis(250), client.load.iterationTime);
        assertEquals(0, client.load.warmup);
        assertEquals(3, client.load.iterations);
        assertEquals(List.of(), client.output.thresholds);
        assertEquals(Map.of("nio.direct", "false"), client.transport.transportOptions);
        assertEquals("netty-local", client.transport.impl);
        assertTrue(client.allowInJvm);
        assertTrue(client.serverStats.enabled);
        assertEquals("127.0.0.1", client.serverStats.monitor.host);
        assertEquals(9999, client.serverStats.monitor.port);
        assertEquals(dir.resolve("token"), client.serverStats.monitor.tokenFile);
        assertEquals(at, client.startAt);
        assertEquals(1, client.load.forks);
        assertTrue(client.tls.insecure);
        assertEquals(List.of(3), client.load.threads, "what was not adjusted keeps the user's value");
        assertEquals(List.of("client", "--as-given"), client.output.givenArguments);

        ClientCommand search = freshClient();
        ChildClient.set(search, ChildClient.settingsOf(parsedClient(EVERY_OPTION.get(1)).getCommand(), List.of())
                .withoutCapacitySearch());
        assertEquals(false, search.capacity.findRate);
        assertEquals(List.of(), search.capacity.slos);
        assertEquals(null, search.capacity.resolution);
        assertEquals(null, search.capacity.maxTime);
    }
}
