package io.nbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.nbench.client.ExitCode;
import io.nbench.protocol.Protocol;
import io.nbench.server.BenchServer;
import io.nbench.testkit.ExternalTools;
import io.nbench.testkit.ResultDocs;
import io.nbench.testkit.Transports;
import io.nbench.transport.TransportRegistry;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code --tls-resumption on|off} through the command line, with {@code --requests-per-connection 1} (a handshake per
 * request): on, reconnects resume the sessions of earlier connections and the result counts them; off, none does.
 * The server's side checked by openssl s_client, whose second connection offers the session its first one saved.
 * nginx's own count of resumed sessions is the independent check of the client's count (NginxClientTest).
 */
class TlsResumptionCliTest {

    private static final int THREADS = 2;

    @TempDir
    static Path dir;

    /** Every TLS client transport, netty with each engine that runs here, each with resumption on and off. */
    static Stream<Arguments> clients() {
        List<Arguments> args = new ArrayList<>();
        for (String impl : Transports.tls()) {
            for (String resumption : List.of("on", "off")) {
                args.add(Arguments.of(impl, "", resumption));
                if (impl.equals("netty") && openSslRunsHere()) {
                    args.add(Arguments.of(impl, "netty.tls-engine=openssl", resumption));
                }
            }
        }
        return args.stream();
    }

    private static boolean openSslRunsHere() {
        TransportRegistry registry = TransportRegistry.load();
        return registry.get("netty").tls(registry.resolveOptions(registry.get("netty"),
                Map.of("netty.tls-engine", "openssl"))).available();
    }

    @ParameterizedTest(name = "{0} {1} --tls-resumption {2}")
    @MethodSource("clients")
    void resumptionOnResumesReconnectsHandshakesAndOffNeverDoes(String impl, String option, String resumption)
            throws Exception {
        Path out = dir.resolve(impl + option + resumption + ".json");
        List<String> args = new ArrayList<>(List.of("client", "--impl", impl, "--tls", "--tls-insecure",
                "--tls-resumption", resumption, "--threads", "" + THREADS, "--msgs", "50", "--warmup", "0",
                "--iterations", "1", "--requests-per-connection", "1", "--out", out.toString()));
        if (!option.isEmpty()) {
            args.addAll(List.of("-O", option));
        }
        CliTest.Outcome o;
        try (BenchServer s = TlsCliTest.server("netty", Protocol.FRAMED, Map.of(), null, null, new StringWriter())) {
            args.addAll(List.of("--port", Integer.toString(s.address().getPort())));
            o = CliTest.run(args.toArray(new String[0]));
        }
        assertEquals(0, o.code(), o.out() + o.err());
        assertEquals("", o.err());
        JsonNode iteration = ResultDocs.valid(ResultDocs.read(out)).path("combinations").get(0).path("iterations")
                .get(0);
        JsonNode handshakes = iteration.path("handshakeLatency");
        // The first connections' handshakes (one per connection: --threads connections) are counted apart, in the
        // first measured iteration, without a latency.
        assertEquals(THREADS, iteration.path("openingHandshakes").asLong(-1), iteration.toString());
        long count = handshakes.path("count").asLong();
        long resumed = handshakes.path("resumed").asLong(-1);
        assertTrue(count >= 100 - THREADS, handshakes.toString()); // a reconnect per request after the first ones
        if (resumption.equals("on")) {
            // Each reconnect offers a session (a ticket) an earlier connection got; the server takes it.
            assertTrue(resumed > 0 && resumed <= count, handshakes.toString());
        } else {
            assertEquals(0, resumed, handshakes.toString());
        }
        Matcher line = Pattern.compile("\nTLS handshakes: ([0-9,]+) \\(([0-9,]+) resumed\\), ").matcher(o.out());
        assertTrue(line.find(), o.out());
        assertEquals(count + THREADS, Long.parseLong(line.group(1).replace(",", "")), o.out()); // reconnects' and first
        assertEquals(resumed, Long.parseLong(line.group(2).replace(",", "")), o.out());
    }

    /** Every TLS server transport, netty with each engine that runs here. */
    static Stream<Arguments> servers() {
        List<Arguments> args = new ArrayList<>();
        for (String impl : Transports.tls()) {
            args.add(Arguments.of(impl, Map.of()));
            if (impl.equals("netty") && openSslRunsHere()) {
                args.add(Arguments.of(impl, Map.of("netty.tls-engine", "openssl")));
            }
        }
        return args.stream();
    }

    /**
     * The server resumes the session a client saved, as a production server does: openssl s_client's first
     * connection saves its session (TLS 1.3: the server's ticket, which comes before the response), its second offers
     * it and says whether the server took it. Each sends one HTTP request with Connection: close, so it ends when the
     * server has answered and closed.
     */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("servers")
    void everyTlsServerResumesTheSessionOpenSslSaved(String impl, Map<String, String> options) throws Exception {
        assumeTrue(ExternalTools.onPath("openssl"), "openssl is not installed");
        Path session = dir.resolve(impl + options.size() + ".session");
        try (BenchServer s = TlsCliTest.server(impl, Protocol.HTTP, options, null, null, new StringWriter())) {
            String first = sClient(s.address().getPort(), "-sess_out", session);
            assertTrue(first.contains("New, TLSv1.3"), first);
            String second = sClient(s.address().getPort(), "-sess_in", session);
            assertTrue(second.contains("Reused, TLSv1.3"), second);
            assertEquals(2, s.metrics().requests(), first + second);
        }
    }

    private static String sClient(int port, String sessionOption, Path session) throws Exception {
        return ExternalTools.run(List.of("bash", "-c", "printf 'GET / HTTP/1.1\\r\\nHost: localhost\\r\\n"
                + "Connection: close\\r\\n\\r\\n' | timeout 30 openssl s_client -connect 127.0.0.1:" + port
                + " -servername localhost -ign_eof " + sessionOption + " " + session + " 2>&1 || true"));
    }

    @Test
    void resumptionWithoutTlsIsAUsageError() {
        String line = TlsCliTest.oneLine(CliTest.run("client", "--tls-resumption", "off", "--port", "1"),
                ExitCode.USAGE);
        assertTrue(line.contains("--tls-resumption needs --tls"), line);
    }

    @Test
    void resumptionIsOnOrOff() {
        String line = TlsCliTest.oneLine(CliTest.run("client", "--tls", "--tls-insecure", "--tls-resumption", "no",
                "--port", "1"), ExitCode.USAGE);
        assertTrue(line.contains("--tls-resumption") && line.contains("neither on nor off"), line);
    }
}
