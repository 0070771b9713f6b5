package io.nbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.nbench.client.ExitCode;
import io.nbench.testkit.ResultDocs;
import io.nbench.testkit.Transports;
import io.nbench.transport.TransportRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** nbench run --tls: run's child servers with TLS, their clients trusting the certificates the servers made. */
class RunTlsCliTest {

    /**
     * Without --servers, run --tls measures every server whose TLS runs here, and only those: none refuses to start,
     * each result says TLS, and a transport left out is named with why. Also run's child servers with TLS and
     * their clients trusting the certificates the servers made (netty and blocking among them; this was a run of
     * its own, {@code --servers netty,blocking}, 20 s of CI time that only repeated two of these servers: a
     * --servers list with --tls is run by {@link #bothOfNettysEnginesRunAndEachResultSaysItsEngine}).
     */
    @Test
    void withoutServersEveryServerWithTlsIsMeasuredAndNoOther(@TempDir Path dir) throws Exception {
        CliTest.Outcome o = CliTest.run("run", "--tls", "--threads", "1", "--msgs", "50", "--warmup", "0",
                "--iterations", "1", "--no-server-stats", "--results-dir", dir.toString());
        assertEquals(0, o.code(), o.out() + o.err());
        assertEquals("", o.err());
        assertTrue(o.out().contains("nbench run: --tls: each server makes a self-signed certificate in memory"), o.out());
        assertTrue(Transports.tls().containsAll(List.of("netty", "blocking")), Transports.tls().toString());
        for (String server : Transports.network()) {
            Path result = dir.resolve(server + ".json");
            if (Transports.tls().contains(server)) {
                JsonNode tls = ResultDocs.valid(ResultDocs.read(result)).path("combinations").get(0)
                        .path("transport").path("tls");
                assertEquals("TLSv1.3", tls.path("protocol").asText(), server + ": " + tls);
            } else {
                assertFalse(Files.exists(result), server + " has no TLS, yet was measured");
                assertTrue(o.out().contains("left out: ") && o.out().contains(server + " ("), o.out());
            }
        }
        assertEquals(0, ProcessHandle.current().children().filter(ProcessHandle::isAlive).count(),
                "every child server stopped");
    }

    /**
     * run --tls with both of netty's engines (-O netty.tls-engine=jdk,openssl): a comma list sweeps the client, so
     * each engine runs as a combination against the server, whose own engine is its default; each combination's
     * result says the client's engine and the protocol it negotiated, and the server's first line says its own.
     */
    @Test
    void bothOfNettysEnginesRunAndEachResultSaysItsEngine(@TempDir Path dir) throws Exception {
        TransportRegistry registry = TransportRegistry.load();
        assumeTrue(registry.get("netty").tls(registry.resolveOptions(registry.get("netty"),
                Map.of("netty.tls-engine", "openssl"))).available(), "OpenSSL is not available here");
        CliTest.Outcome o = CliTest.run("run", "--tls", "--servers", "netty", "-O", "netty.tls-engine=jdk,openssl",
                "--threads", "1", "--msgs", "50", "--warmup", "0", "--iterations", "1", "--no-server-stats",
                "--results-dir", dir.toString(), "--verbose"); // the server's settings as it stops
        assertEquals(0, o.code(), o.out() + o.err());
        assertEquals("", o.err());
        JsonNode combinations = ResultDocs.valid(ResultDocs.read(dir.resolve("netty.json"))).path("combinations");
        List<String> engines = new ArrayList<>();
        for (JsonNode c : combinations) {
            JsonNode tls = c.path("transport").path("tls");
            assertEquals("TLSv1.3", tls.path("protocol").asText(), c.toString());
            assertTrue(c.path("summary").path("messages").asLong() > 0, c.toString());
            engines.add(tls.path("engine").asText());
        }
        assertEquals(List.of("jdk", "openssl"), engines, o.out());
        // The server's transport line (its own fields: backlog, executor) names its engine.
        assertTrue(o.out().lines().anyMatch(l -> l.contains("executor=") && l.contains("tls=jdk engine")), o.out());
    }

    @Test
    void aCaFileCannotVouchForRunsOwnServers(@TempDir Path dir) {
        String line = TlsCliTest.oneLine(CliTest.run("run", "--tls", "--tls-ca", dir.resolve("ca.pem").toString(),
                "--servers", "netty"), ExitCode.USAGE);
        assertTrue(line.contains("leave --tls-ca out"), line);
    }
}
