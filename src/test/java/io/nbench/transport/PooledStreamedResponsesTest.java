package io.nbench.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.nbench.cli.Main;
import io.nbench.client.ExitCode;
import io.nbench.testkit.ResultDocs;
import io.nbench.testkit.ServerProcess;
import io.nbench.testkit.Transports;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The generic codec's business-pool path with responses that cannot be written in one piece: a real
 * {@code nbench server --executor-threads 2:2} of every network transport answers requests and responses
 * several times the codec's 16 KiB output buffer (so a response is spilled across output buffers and reads
 * before its request completes, then written from a pool thread in several socket writes), pipelined on a
 * few connections, to the real client, which checks every response byte ({@code --verify full}) or, over
 * HTTP, parses every response by its Content-Length (a lost or misplaced piece shifts the next response:
 * a protocol mismatch). The server's own accounts must show every request answered, and its bytes out
 * exactly the responses the client received. The generic codec's path is nio's, blocking's and vthreads'
 * for both protocols and mina's for HTTP (netty's HTTP and netty's and mina's framed keep the frameworks' own
 * paths, checked here alike): with {@code ResponseCapture.spill} dropping what it keeps, those cases fail.
 */
class PooledStreamedResponsesTest {

    private static final int MSGS = 60;
    private static final int RESPONSE = 100_000;

    static Stream<Arguments> servers() {
        return Transports.network().stream().flatMap(impl -> Stream.of(Arguments.of(impl, "framed"),
                Arguments.of(impl, "http")));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("servers")
    void everyPooledResponseLargerThanTheCodecsOutputArrivesWhole(String impl, String protocol) throws Exception {
        boolean http = protocol.equals("http");
        List<String> serverArgs = new ArrayList<>(List.of("--impl", impl, "--port", "0", "--executor-threads", "2:2",
                "--protocol", protocol));
        if (http) {
            serverArgs.addAll(List.of("--response-size", Integer.toString(RESPONSE)));
        }
        String counts;
        String accounts;
        long messages;
        try (ServerProcess server = ServerProcess.start(Map.of(), serverArgs.toArray(new String[0]))) {
            List<String> client = new ArrayList<>(List.of("client", "--impl", "nio", "--connections", "2",
                    "--threads", "2", "--window", "4", "--msgs", Integer.toString(MSGS), "--warmup", "0",
                    "--iterations", "1", "--format", "json"));
            if (http) {
                client.addAll(List.of("--url", "http://127.0.0.1:" + server.port + "/large"));
            } else {
                client.addAll(List.of("--port", Integer.toString(server.port), "--size", "70000",
                        "--response-size", Integer.toString(RESPONSE), "--verify", "full"));
            }
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            int code = Main.run(client.toArray(new String[0]), new PrintWriter(out, true), new PrintWriter(err, true));
            assertEquals(ExitCode.OK, code, err + out.toString());
            JsonNode summary = ResultDocs.read(out.toString()).get("summary");
            messages = summary.get("messages").asLong();
            assertEquals(0, summary.get("errors").get("total").asLong(), summary.toString());
            assertEquals(0, server.terminate(), server.stderr()); // then it prints its report
            counts = server.awaitLine(l -> l.startsWith("server metrics after "));
            accounts = server.awaitLine(l -> l.startsWith("  requests received "));
            assertEquals("", server.stderr());
        }
        assertTrue(messages >= MSGS, "messages " + messages);
        assertEquals(String.format(Locale.ROOT, "  requests received %,d: answered %,d, rejected 0, dropped at shutdown "
                + "0, dropped on close 0, in progress 0", messages, messages), accounts);
        long bytesOut = figure(counts, "bytes out");
        if (http) {
            // Each response is a head and RESPONSE bytes of body; the heads are alike, so the bytes out are
            // a whole number of responses of one size.
            assertEquals(0, bytesOut % messages, counts);
            assertTrue(bytesOut / messages > RESPONSE && bytesOut / messages < RESPONSE + 200, counts);
        } else {
            assertEquals(messages * (13 + RESPONSE), bytesOut, counts); // 13: the framed response header
        }
    }

    private static long figure(String line, String name) {
        Matcher m = Pattern.compile(name + " ([\\d,]+)").matcher(line);
        assertTrue(m.find(), line);
        return Long.parseLong(m.group(1).replace(",", ""));
    }
}
