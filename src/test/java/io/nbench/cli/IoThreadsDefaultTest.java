package io.nbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.nbench.protocol.Protocol;
import io.nbench.testkit.ResultDocs;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The I/O threads nbench chooses when --io-threads is left out, as a user sees them: in the client's transport
 * line and its result document, and in the server that nbench run starts beside its client.
 */
class IoThreadsDefaultTest {

    private static final int CORES = Runtime.getRuntime().availableProcessors();
    /** A server on this machine: the client takes half the cores, at least 1. */
    private static final int HALF = Math.max(1, CORES / 2);
    /** With one core, half and all are both 1: a test of "half" could not fail (IoThreadsTest checks the rule). */
    private static final String ONE_CORE = "one core: half the cores and all of them are the same number";

    @Test
    void aClientOfALoopbackServerTakesHalfTheCoresInEveryTransportWithIoThreads(@TempDir Path dir) throws Exception {
        assumeTrue(CORES >= 2, ONE_CORE);
        Path json = dir.resolve("r.json");
        // 64 connections: more than any core count here, so the cap by connections plays no part.
        CliTest.Outcome o = CliTest.run("client", "--host", "127.0.0.1", "--port", CliTest.port(Protocol.FRAMED),
                "--impl", "netty,nio,mina", "--threads", "64", "--msgs", "4", "--warmup", "0", "--iterations", "1",
                "--out", json.toString());
        assertEquals(0, o.code(), o.out() + o.err());
        assertEquals("", o.err());
        Map<String, String> expected = new LinkedHashMap<>();
        expected.put("netty", "io-threads");
        expected.put("nio", "io-threads");
        expected.put("mina", "processors");
        Map<String, String> recorded = effective(json, expected);
        assertEquals(Map.of("netty", "" + HALF, "nio", "" + HALF, "mina", "" + HALF), recorded, o.out());
        assertEquals(2, o.out().lines().filter(l -> l.startsWith("  transport: ") && l.contains(" io-threads=" + HALF
                + ",")).count(), "netty's and nio's transport line: " + o.out());
    }

    @Test
    void neverMoreLoopsThanConnectionsAndAGivenNumberIsKept(@TempDir Path dir) throws Exception {
        Path json = dir.resolve("r.json");
        CliTest.Outcome one = CliTest.run("client", "--port", CliTest.port(Protocol.FRAMED), "--impl", "nio",
                "--threads", "1", "--msgs", "4", "--warmup", "0", "--iterations", "1", "--out", json.toString());
        assertEquals(0, one.code(), one.out() + one.err());
        assertEquals(Map.of("nio", "1"), effective(json, Map.of("nio", "io-threads")));

        // Given: kept even beyond the connections and the cores of a loopback server.
        int given = CORES + 1;
        CliTest.Outcome o = CliTest.run("client", "--port", CliTest.port(Protocol.FRAMED), "--impl", "nio",
                "--io-threads", "" + given, "--threads", "1", "--msgs", "4", "--warmup", "0", "--iterations", "1",
                "--out", json.toString());
        assertEquals(0, o.code(), o.out() + o.err());
        assertEquals(Map.of("nio", "" + given), effective(json, Map.of("nio", "io-threads")));
        assertTrue(o.out().contains(" io-threads=" + given + ","), o.out());
    }

    @Test
    void runsServerAndClientSplitTheMachine(@TempDir Path dir) throws Exception {
        assumeTrue(CORES >= 2, ONE_CORE);
        CliTest.Outcome o = CliTest.run("run", "--servers", "nio", "--impl", "nio", "--threads", "64", "--msgs", "4",
                "--warmup", "0", "--iterations", "1", "--no-server-stats", "--results-dir", dir.toString(),
                "--verbose"); // the server's settings as it stops
        assertEquals(0, o.code(), o.out() + o.err());
        assertEquals("", o.err());
        // The child server's banner, then the client's line: both with half the cores.
        assertEquals(2, o.out().lines().filter(l -> l.startsWith("  transport: ") && l.contains(" io-threads=" + HALF
                + ",")).count(), o.out());
        assertEquals(Map.of("nio", "" + HALF), effective(dir.resolve("nio.json"), Map.of("nio", "io-threads")));

        CliTest.Outcome given = CliTest.run("run", "--servers", "nio", "--impl", "nio", "--server-io-threads", "3",
                "--threads", "1", "--msgs", "4", "--warmup", "0", "--iterations", "1", "--no-server-stats", "--verbose");
        assertEquals(0, given.code(), given.out() + given.err());
        assertTrue(given.out().contains(" io-threads=3,"), "the server's, as given: " + given.out());
        assertTrue(given.out().contains(" io-threads=1,"), "the client's, one connection: " + given.out());
    }

    /** Each combination's transport name and the effective value of its I/O thread key, from a result document. */
    private static Map<String, String> effective(Path json, Map<String, String> keyByTransport) throws Exception {
        Map<String, String> found = new LinkedHashMap<>();
        for (JsonNode c : ResultDocs.read(json).get("combinations")) {
            String name = c.get("transport").get("name").asText();
            found.put(name, c.get("transport").get("effective").get(keyByTransport.get(name)).asText());
        }
        return found;
    }
}
