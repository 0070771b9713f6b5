package io.nbench.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.nbench.client.output.OutputContext;
import io.nbench.client.output.OutputSettings;
import io.nbench.client.output.Outputs;
import io.nbench.client.output.RunRecord;
import io.nbench.load.LoadSpec;
import io.nbench.protocol.Protocol;
import io.nbench.report.Status;
import io.nbench.report.SweepResult;
import io.nbench.report.json.ResultDocument;
import io.nbench.report.threshold.Threshold;
import io.nbench.sweep.Combination;
import io.nbench.testkit.Runs;
import io.nbench.testkit.Stderr;
import io.nbench.testkit.TestServers;
import io.nbench.transport.SocketSettings;
import io.nbench.transport.TransportRegistry;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * The client run as a library call, without the command line: a plan of real combinations against a real
 * server, the outputs a program chooses, and the verdict with its exit code as the result.
 */
class ClientRunTest {

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    @Test
    void aPlanOfTwoCombinationsRunsAndPrintsOneDocumentWithBoth() throws Exception {
        SweepResult result = run(plan(List.of(), 100, 200), "json", null);

        assertEquals(Status.PASS, result.status(), err.toString());
        assertEquals(ExitCode.OK, result.exitCode());
        assertEquals(2, result.combinations().size());
        JsonNode doc = ResultDocument.MAPPER.readTree(out.toString());
        assertEquals(ResultDocument.SCHEMA, doc.get("schema").asText());
        assertEquals(2, doc.get("combinations").size(), out.toString());
        assertEquals("", Stderr.withoutWarnings(err.toString()));
    }

    @Test
    void aBreachedThresholdFailsWithExit3AndSaysSoOnStderr() throws Exception {
        SweepResult result = run(plan(List.of(Threshold.parse("p50<1ns")), 100), "csv", null);

        assertEquals(Status.FAIL, result.status());
        assertEquals(ExitCode.THRESHOLD, result.exitCode());
        assertTrue(err.toString().startsWith("nbench client: threshold breached [size=100]: p50<1ns"), err.toString());
    }

    @Test
    void aRunInterruptedBeforeItsNextCombinationIsInterruptedNotPassed() throws Exception {
        ClientPlan plan = plan(List.of(), 100, 200);
        SweepResult result = run(plan, "text", run -> run.interrupt());

        assertTrue(result.combinations().size() < 2, "no combination starts after the interrupt");
        assertEquals(Status.INTERRUPTED, result.status(), out.toString());
        assertEquals(ExitCode.INTERRUPTED, result.exitCode());
    }

    /** Combinations of 2 threads, 100 messages each, 0 + 1 iterations, one per request size. */
    private static ClientPlan plan(List<Threshold> thresholds, int... sizes) throws CouldNotRun {
        InetSocketAddress server = TestServers.get("nio", Protocol.FRAMED).address();
        ResolvedTransport transport = ResolvedTransport.resolve(TransportRegistry.load(), TransportRegistry.DEFAULT,
                Map.of(), false);
        List<ClientPlan.Step> steps = new ArrayList<>();
        for (int size : sizes) {
            LoadSpec load = Runs.workload().size(size).msgs(100).warmup(0).iterations(1).spec();
            steps.add(new ClientPlan.Step(new Combination(Map.of("size", Integer.toString(size))), transport, load));
        }
        return new ClientPlan("127.0.0.1", ClientPlan.address("127.0.0.1", server.getPort()), steps, List.of("size"),
                new SocketSettings(2, true, 0, 0), Duration.ofSeconds(5),
                new Verdict(MaxErrors.parse("0"), thresholds), null);
    }

    /** Runs {@code plan} with {@code format} on stdout; {@code before} is done to the run before it starts. */
    private SweepResult run(ClientPlan plan, String format, Consumer<ClientRun> before)
            throws Exception {
        OutputSettings settings = new OutputSettings(format, true, false, null, null, null, null,
                OutputSettings.Progress.NEVER);
        Outputs outputs = Outputs.open(new OutputContext(settings, new PrintWriter(out, true),
                new PrintWriter(err, true), plan.keys(), plan.steps().size(), new RunRecord(null, List.of(), Map.of())));
        ClientRun run = new ClientRun(plan, outputs, new PrintWriter(err, true));
        if (before != null) {
            before.accept(run);
        }
        return run.run();
    }
}
