package io.nbench.cli;

import io.nbench.client.ExitCode;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nbench.protocol.Protocol;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * A client's plan carries every option's value as data: written to a file and read back into a fresh client,
 * each option holds what the user's command line gave it; a fork runs from such a file, and its result
 * document records the user's command line, not an internal one.
 */
class ChildClientPlanTest {

    private static CommandSpec parsedClient(String... args) {
        CommandLine cl = Main.commandLine(new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()));
        String[] all = new String[args.length + 1];
        all[0] = "client";
        System.arraycopy(args, 0, all, 1, args.length);
        return cl.parseArgs(all).subcommand().commandSpec();
    }

    @Test
    void everyOptionValueSurvivesTheFile(@TempDir Path dir) throws Exception {
        CommandSpec given = parsedClient("--impl", "netty,nio", "--threads", "1,3", "--size", "5k,64", "--window", "2,8",
                "--rate", "1.5k,20k", "--connect-rate", "2k", "--iteration-time", "250ms", "--timeout", "3s",
                "--protocol", "echo", "--no-tcp-nodelay", "--sndbuf", "64k", "-O", "netty.io=nio,epoll", "-O",
                "nio.direct=false", "--out", "some dir/r.json", "--threshold", "p99<2ms", "--threshold", "errors==0",
                "--measure", "rtt", "--pacer", "spin", "--start-at", "2099-01-02T03:04:05Z", "--percentiles", "50,99.99",
                "--max-errors", "1%", "--quiet", "--verify", "full", "--connections", "6");
        Path file = dir.resolve("plan.json");
        ChildClientPlan.of(given, List.of("client", "--as-given")).write(file);

        CommandSpec fresh = parsedClient();
        ChildClientPlan read = ChildClientPlan.read(file);
        read.applyTo(fresh);
        assertEquals(List.of("client", "--as-given"), read.arguments());
        int compared = 0;
        for (OptionSpec o : given.options()) {
            if (o.usageHelp() || o.versionHelp()) {
                continue;
            }
            Object expected = o.getValue();
            Object carried = fresh.findOption(o.longestName()).getValue();
            assertEquals(expected, carried, o.longestName());
            compared++;
        }
        assertTrue(compared > 30, "options compared: " + compared);
        Object parsedThreads = parsedClient().findOption("--threads").getValue();
        Object freshThreads = fresh.findOption("--threads").getValue();
        assertNotEquals(parsedThreads, freshThreads);
    }

    @Test
    void everyClientOptionIsOfATypeAPlanCarries() {
        for (OptionSpec o : parsedClient().options()) {
            if (!o.usageHelp() && !o.versionHelp()) {
                ChildClientPlan.requireCarriable(o);
            }
        }
    }

    @Test
    void forksRunFromPlansAndRecordTheUsersCommandLine(@TempDir Path dir) throws IOException {
        Path out = dir.resolve("r.json");
        String[] line = {"client", "--port", CliTest.port(Protocol.FRAMED), "--forks", "2", "--threads", "2",
            "--msgs", "50", "--warmup", "0", "--iterations", "2", "--out", out.toString(), "--size", "100"};
        CliTest.Outcome o = CliTest.run(line);
        assertEquals(ExitCode.OK, o.code(), o.out() + o.err());
        assertEquals("", o.err());
        ObjectMapper json = new ObjectMapper();
        for (int k = 1; k <= 2; k++) {
            JsonNode doc = json.readTree(dir.resolve("r.fork" + k + ".json").toFile());
            List<String> arguments = json.convertValue(doc.at("/configuration/arguments"),
                    json.getTypeFactory().constructCollectionType(List.class, String.class));
            assertEquals(List.of(line), arguments);
        }
        // --out holds their join (CliTest's forks case checks its figures), with the user's command line too.
        JsonNode joined = json.readTree(out.toFile());
        assertEquals(List.of(line), json.convertValue(joined.at("/configuration/arguments"),
                json.getTypeFactory().constructCollectionType(List.class, String.class)));
    }

    @Test
    void aPlanFileIsTheOnlyOptionItTakes(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("plan.json");
        ChildClientPlan.of(parsedClient(), List.of("client")).write(file);
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
                + ChildClientPlan.FORMAT + ")\n", o.err());
        assertEquals("", o.out());

        Path wrongValue = Files.writeString(dir.resolve("bad.json"), "{\"format\":\"" + ChildClientPlan.FORMAT
                + "\",\"arguments\":[],\"options\":{\"--threads\":\"many\"}}");
        CliTest.Outcome bad = CliTest.run("client", "--plan", wrongValue.toString());
        assertEquals(ExitCode.COULD_NOT_RUN, bad.code());
        assertEquals("nbench client: the plan's value of --threads is not one it takes: \"many\"\n", bad.err());
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

    /** A client command as a fork gets it: parsed with no arguments, then given a plan. */
    private static ClientCommand freshClient() {
        CommandLine cl = Main.commandLine(new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()));
        cl.parseArgs("client");
        return cl.getSubcommands().get("client").getCommand();
    }

    @Test
    void everyChoiceSurvivesTheFileAndSetsTheClientsOwnFields(@TempDir Path dir) throws Exception {
        CommandSpec given = parsedClient("--threads", "3", "--threshold", "p99<2ms", "-O", "netty.io=nio",
                "--out", "user.json");
        Instant at = Instant.parse("2099-01-02T03:04:05Z");
        ChildClientPlan plan = ChildClientPlan.of(given, List.of("client", "--as-given")).port(4321)
                .resultFiles(dir.resolve("r.json"), dir.resolve("r.hlog"), null, true)
                .iterationTime(Duration.ofMillis(250)).iterations(0, 3).withoutThresholds()
                .transportOptions(Map.of("nio.direct", "false")).inJvm("netty-local")
                .serverStats("127.0.0.1", 9999, dir.resolve("token")).startAt(at).forks(1);
        Path file = dir.resolve("plan.json");
        plan.write(file);

        ClientCommand client = freshClient();
        ChildClientPlan.read(file).applyTo(client);
        assertEquals(4321, client.transport.port);
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
        assertEquals(List.of(3), client.load.threads, "what was not chosen keeps the user's value");
        assertEquals(List.of("client", "--as-given"), client.output.givenArguments);
    }

    @Test
    void aPlanFileWithoutChoicesReadsAsBefore(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("plan.json");
        ChildClientPlan.of(parsedClient("--threads", "5", "--port", "1234"), List.of("client")).write(file);
        ObjectMapper json = new ObjectMapper();
        ObjectNode old = (ObjectNode) json.readTree(file.toFile());
        old.remove("choices"); // the shape written before the choices were typed
        Files.writeString(file, json.writeValueAsString(old));

        ClientCommand client = freshClient();
        ChildClientPlan.read(file).applyTo(client);
        assertEquals(1234, client.transport.port);
        assertEquals(List.of(5), client.load.threads);
    }
}
