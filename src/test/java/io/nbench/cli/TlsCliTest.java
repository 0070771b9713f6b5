package io.nbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.nbench.client.ExitCode;
import io.nbench.protocol.Protocol;
import io.nbench.protocol.ProtocolRegistry;
import io.nbench.server.BenchServer;
import io.nbench.server.ServerPlan;
import io.nbench.testkit.DatedCertificates;
import io.nbench.testkit.ExternalTools;
import io.nbench.testkit.ResultDocs;
import io.nbench.testkit.ServerProcess;
import io.nbench.testkit.TestServers;
import io.nbench.tls.TlsChoice;
import io.nbench.transport.Transport;
import io.nbench.transport.TransportRegistry;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
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
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code --tls} through the command line: every TLS client transport against every TLS server transport, framed
 * and echo; what the client reports negotiated checked against openssl s_client's own report; a foreign TLS echo
 * server (socat's OpenSSL); and every way to get it wrong, each one line with its exit code.
 */
class TlsCliTest {

    @TempDir
    static Path dir;

    /** The network transports with TLS here (a transport that gains it is covered without editing this test). */
    static List<String> tlsTransports() {
        TransportRegistry registry = TransportRegistry.load();
        List<String> names = new ArrayList<>();
        for (Transport t : registry.all()) {
            if (!t.inJvm() && t.availability().available() && t.tls(registry.resolveOptions(t, Map.of())).available()) {
                names.add(t.name());
            }
        }
        return names;
    }

    static Stream<Arguments> pairs() {
        List<Arguments> args = new ArrayList<>();
        for (String server : tlsTransports()) {
            for (String client : tlsTransports()) {
                for (Protocol protocol : List.of(Protocol.FRAMED, Protocol.ECHO)) {
                    args.add(Arguments.of(client, server, protocol.label()));
                }
            }
        }
        return args.stream();
    }

    /** A TLS server of this library in this JVM (the command line's own plan, without its parsing). */
    static BenchServer server(String impl, Protocol protocol, Map<String, String> options) throws Exception {
        return server(impl, protocol, options, null, null, new StringWriter());
    }

    /** With its certificate and key from PEM files (null: self-signed), its log written to {@code log}. */
    static BenchServer server(String impl, Protocol protocol, Map<String, String> options, Path cert, Path key,
                                      StringWriter log) throws Exception {
        ServerPlan plan = ServerPlan.builder().transport(impl, options).protocol(protocol)
                .tls(TlsChoice.defaults(), cert, key).build();
        return BenchServer.start(plan, new PrintWriter(new StringWriter()), new PrintWriter(log, true));
    }

    static CliTest.Outcome client(String impl, int port, String... more) {
        List<String> args = new ArrayList<>(List.of("client", "--impl", impl, "--port", Integer.toString(port),
                "--threads", "2", "--msgs", "200", "--warmup", "0", "--iterations", "1"));
        args.addAll(List.of(more));
        return CliTest.run(args.toArray(new String[0]));
    }

    static String oneLine(CliTest.Outcome o, int code) {
        assertEquals(code, o.code(), o.out() + o.err());
        String[] lines = o.err().strip().split("\n");
        assertEquals(1, lines.length, o.err());
        return lines[0];
    }

    @ParameterizedTest(name = "{0} -> {1}, {2}")
    @MethodSource("pairs")
    void everyTlsClientTalksToEveryTlsServer(String client, String server, String protocol) throws Exception {
        Protocol p = ProtocolRegistry.load().get(protocol);
        Path out = dir.resolve(client + "-" + server + "-" + protocol + ".json");
        try (BenchServer s = server(server, p, Map.of())) {
            CliTest.Outcome o = client(client, s.address().getPort(), "--protocol", protocol, "--tls",
                    "--tls-insecure", "--verify", "full", "--out", out.toString());
            assertEquals(0, o.code(), o.out() + o.err());
            assertEquals("", o.err());
            assertTrue(o.out().contains("\n  tls: TLSv1.3, TLS_"), o.out());
            if (p == Protocol.FRAMED) {
                assertEquals(400, s.metrics().requests(), "every message went through the server");
            }
        }
        JsonNode tls = ResultDocs.valid(ResultDocs.read(out)).path("combinations").get(0).path("transport").path("tls");
        assertEquals("TLSv1.3", tls.path("protocol").asText(), tls.toString());
        assertTrue(tls.path("cipher").asText().startsWith("TLS_AES_") || tls.path("cipher").asText()
                .startsWith("TLS_CHACHA20_"), tls.toString());
    }

    @Test
    void nettysOpenSslEngineOnBothSides() throws Exception {
        Map<String, String> openssl = Map.of("netty.tls-engine", "openssl");
        assumeTrue(TransportRegistry.load().get("netty").tls(TransportRegistry.load().resolveOptions(
                TransportRegistry.load().get("netty"), openssl)).available(), "OpenSSL is not available here");
        try (BenchServer s = server("netty", Protocol.FRAMED, openssl)) {
            CliTest.Outcome o = client("netty", s.address().getPort(), "--tls", "--tls-insecure", "-O",
                    "netty.tls-engine=openssl", "--tls-protocols", "TLSv1.2");
            assertEquals(0, o.code(), o.out() + o.err());
            assertTrue(o.out().contains("\n  tls: TLSv1.2, TLS_ECDHE_ECDSA_WITH_"), o.out());
            assertTrue(o.out().contains(" (openssl engine)\n"), o.out());
        }
    }

    /**
     * nio's TLS through buffers smaller than a record: a read gives out part of a record and keeps the rest, which
     * no OP_READ reports, and frames larger than every buffer stream through them both ways.
     */
    @Test
    void nioTlsStreamsFramesThroughBuffersSmallerThanARecord() throws Exception {
        try (BenchServer s = server("nio", Protocol.FRAMED, Map.of("nio.buffer", "1k"))) {
            CliTest.Outcome o = CliTest.run("client", "--impl", "nio", "--port", Integer.toString(s.address().getPort()),
                    "--tls", "--tls-insecure", "-O", "nio.buffer=1k", "--threads", "2", "--window", "4", "--size", "40k",
                    "--msgs", "20", "--warmup", "0", "--iterations", "1", "--verify", "full", "--timeout", "60s");
            assertEquals(0, o.code(), o.out() + o.err());
            assertEquals(40, s.metrics().requests(), "every message went through the server");
        }
    }

    /** openssl s_client's report of a handshake: the protocol and the cipher. */
    static final Pattern S_CLIENT = Pattern.compile("New, (TLSv[0-9.]+), Cipher is ([A-Z0-9_]+)");

    /** openssl s_client's handshake with 127.0.0.1:port, its certificate shown; it ends as its input does. */
    static String sClient(int port) throws IOException, InterruptedException {
        return ExternalTools.run(List.of("bash", "-c", "timeout 30 openssl s_client -connect 127.0.0.1:" + port
                + " -servername localhost -showcerts </dev/null 2>&1 || true"));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"netty", "mina"})
    void opensslSClientNegotiatesWhatNbenchReportsAndTrustsItsCertificateViaTlsCa(String impl) throws Exception {
        assumeTrue(ExternalTools.onPath("openssl"), "openssl is not installed");
        // One cipher offered, so that both clients must agree on it whatever their own preferences.
        try (ServerProcess server = ServerProcess.start(Map.of(), "--impl", impl, "--port", "0", "--tls",
                "--tls-ciphers", "TLS_AES_256_GCM_SHA384")) {
            String report = sClient(server.port);
            Matcher m = S_CLIENT.matcher(report);
            assertTrue(m.find(), report);
            assertEquals("TLSv1.3", m.group(1));
            assertEquals("TLS_AES_256_GCM_SHA384", m.group(2));
            Matcher pem = Pattern.compile("-----BEGIN CERTIFICATE-----[^-]+-----END CERTIFICATE-----").matcher(report);
            assertTrue(pem.find(), report);
            Path ca = Files.writeString(dir.resolve("server.pem"), pem.group() + "\n");
            String engine = impl.equals("mina") ? "jdk engine (MINA's SslFilter)" : "jdk engine";
            assertTrue(server.awaitLine(l -> l.startsWith("  transport: ")).contains(", tls=" + engine + ", TLSv1.3,TLSv1.2 ciphers TLS_AES_256_GCM_SHA384, "
                    + "certificate self-signed in memory (EC P-256, "), server.lines().toString());
            // Trusted through --tls-ca, and the host name checked: the certificate names localhost.
            CliTest.Outcome o = client(impl, server.port, "--host", "localhost", "--tls", "--tls-ca", ca.toString());
            assertEquals(0, o.code(), o.out() + o.err());
            assertTrue(o.out().contains("\n  tls: " + m.group(1) + ", " + m.group(2) + " (jdk engine)\n"), o.out());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("tlsTransports")
    void opensslSClientHasAnEchoSessionWithTheTlsEchoServer(String impl) throws Exception {
        assumeTrue(ExternalTools.onPath("openssl"), "openssl is not installed");
        try (BenchServer s = server(impl, Protocol.ECHO, Map.of())) {
            // -quiet: s_client prints only what it receives; the line sent comes back once through the echo server.
            Process sClient = new ProcessBuilder("openssl", "s_client", "-connect", "127.0.0.1:" + s.address().getPort(),
                    "-servername", "localhost", "-quiet").redirectError(ProcessBuilder.Redirect.DISCARD).start();
            try (var in = new BufferedReader(new InputStreamReader(sClient.getInputStream(),
                    StandardCharsets.US_ASCII))) {
                sClient.getOutputStream().write("hello through TLS\n".getBytes(StandardCharsets.US_ASCII));
                sClient.getOutputStream().flush();
                assertEquals("hello through TLS", in.readLine());
            } finally {
                sClient.destroyForcibly().waitFor();
            }
        }
    }

    @Test
    void everyTlsClientEchoesThroughAForeignTlsServer() throws Exception {
        assumeTrue(ExternalTools.onPath("socat") && ExternalTools.onPath("openssl"), "socat or openssl is missing");
        Path key = dir.resolve("socat.key");
        Path cert = dir.resolve("socat.crt");
        selfSigned(key, cert, "localhost");
        int port = ExternalTools.freePort();
        Process socat = ExternalTools.startListening(List.of("socat", "OPENSSL-LISTEN:" + port
                + ",bind=127.0.0.1,reuseaddr,fork,cert=" + cert + ",key=" + key + ",verify=0", "PIPE"), port);
        try {
            for (String impl : tlsTransports()) {
                CliTest.Outcome o = client(impl, port, "--protocol", "echo", "--verify", "full", "--tls", "--tls-ca",
                        cert.toString(), "--host", "localhost");
                assertEquals(0, o.code(), impl + ": " + o.out() + o.err());
                assertTrue(o.out().contains("\n  tls: TLSv1."), o.out());
            }
        } finally {
            socat.destroyForcibly().waitFor();
        }
    }

    /** A key and certificate made by openssl (the PEM a user brings), naming {@code host}. */
    static void selfSigned(Path key, Path cert, String host) throws Exception {
        String out = ExternalTools.run(List.of("openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt",
                "ec_paramgen_curve:P-256", "-nodes", "-keyout", key.toString(), "-out", cert.toString(), "-days", "2",
                "-subj", "/CN=" + host, "-addext", "subjectAltName=DNS:" + host));
        assertTrue(Files.isRegularFile(cert), out);
    }

    @Test
    void aServerWithPemFilesAndAClientThatChecksTheHostName() throws Exception {
        assumeTrue(ExternalTools.onPath("openssl"), "openssl is not installed");
        Path key = dir.resolve("other.key");
        Path cert = dir.resolve("other.crt");
        selfSigned(key, cert, "other.invalid");
        try (BenchServer server = server("netty", Protocol.FRAMED, Map.of(), cert, key, new StringWriter())) {
            int port = server.address().getPort();
            // Trusted, but it names another host.
            String line = oneLine(client("netty", port, "--tls", "--tls-ca", cert.toString()), ExitCode.COULD_NOT_RUN);
            assertTrue(line.contains("TLS handshake failed (") && line.endsWith("the server's certificate does not "
                    + "name the host connected to: use a --host it names, or --tls-insecure"), line);
            // --tls-insecure skips both checks.
            assertEquals(0, client("netty", port, "--tls", "--tls-insecure").code());
        }
    }

    @Test
    void aCertificateTheClientDoesNotTrustIsOneLine() throws Exception {
        assumeTrue(ExternalTools.onPath("openssl"), "openssl is not installed");
        Path key = dir.resolve("stranger.key");
        Path cert = dir.resolve("stranger.crt");
        selfSigned(key, cert, "localhost");
        try (BenchServer s = server("netty", Protocol.FRAMED, Map.of())) {
            String line = oneLine(client("netty", s.address().getPort(), "--host", "localhost", "--tls", "--tls-ca",
                    cert.toString()), ExitCode.COULD_NOT_RUN);
            assertTrue(line.endsWith("the server's certificate is not trusted: give it (or its CA) with --tls-ca FILE, "
                    + "or use --tls-insecure"), line);
        }
    }

    /**
     * A certificate the client trusts (its CA is --tls-ca) but out of its dates: every TLS client says which date, and
     * that the fix is a new certificate, --tls-insecure only as the last resort (before: "the server's certificate
     * is not trusted: give it (or its CA) with --tls-ca FILE, or use --tls-insecure", the CA being given).
     */
    @Test
    void aTrustedCertificateOutOfItsDatesIsNamedWithItsDate() throws Exception {
        Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        DatedCertificates.Issued expired = DatedCertificates.write(dir, "expired", now.minus(Duration.ofDays(3)),
                now.minus(Duration.ofDays(1)));
        DatedCertificates.Issued early = DatedCertificates.write(dir, "early", now.plus(Duration.ofDays(1)),
                now.plus(Duration.ofDays(3)));
        DateTimeFormatter utc = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'").withZone(ZoneOffset.UTC);
        Map<DatedCertificates.Issued, String> said = Map.of(
                expired, "the server's certificate expired on " + utc.format(now.minus(Duration.ofDays(1))) + ": renew it",
                early, "the server's certificate is not valid before " + utc.format(now.plus(Duration.ofDays(1))) + ": ");
        for (Map.Entry<DatedCertificates.Issued, String> e : said.entrySet()) {
            try (BenchServer s = server("netty", Protocol.FRAMED, Map.of(), e.getKey().cert(), e.getKey().key(),
                    new StringWriter())) {
                for (String impl : tlsTransports()) {
                    String line = oneLine(client(impl, s.address().getPort(), "--tls", "--tls-ca",
                            e.getKey().ca().toString()), ExitCode.COULD_NOT_RUN);
                    assertTrue(line.contains("TLS handshake failed: " + e.getValue()), impl + ": " + line);
                    assertTrue(line.endsWith("(or, as a last resort, accept any certificate with --tls-insecure)"),
                            impl + ": " + line);
                }
            }
        }
    }

    @Test
    void aClientThatTrustsNothingIsAUsageError() {
        String line = oneLine(client("netty", 1, "--tls"), ExitCode.USAGE);
        assertTrue(line.startsWith("nbench: --tls trusts no server by default: give the server's certificate or its CA "
                + "with --tls-ca FILE (PEM), or --tls-insecure"), line);
    }

    @Test
    void aTlsClientAgainstAPlainServer() {
        int port = TestServers.get("netty", Protocol.FRAMED).address().getPort();
        for (String impl : tlsTransports()) {
            String line = oneLine(client(impl, port, "--tls", "--tls-insecure"), ExitCode.COULD_NOT_RUN);
            assertTrue(line.contains("TLS handshake failed (") && line.endsWith("is the server running with --tls, "
                    + "offering one of --tls-protocols and --tls-ciphers?"), impl + ": " + line);
        }
    }

    @Test
    void aPlainClientAgainstATlsServerIsNamedInTheServersLog() throws Exception {
        StringWriter serverLog = new StringWriter();
        try (BenchServer server = server("netty", Protocol.FRAMED, Map.of(), null, null, serverLog)) {
            oneLine(client("netty", server.address().getPort()), ExitCode.COULD_NOT_RUN);
            String log = serverLog.toString();
            assertTrue(log.contains("not TLS (not an SSL/TLS record: 0000") && log.contains("this server runs with "
                    + "--tls, so clients need --tls too"), log);
        }
    }

    /**
     * A server whose TLS answers a plain-text client with an alert before it closes (the JDK's SSLSocket does; netty's
     * server writes one, as its SslHandler closes without).
     */
    @ParameterizedTest(name = "{0} -> {1}")
    @MethodSource("alertingServers")
    void aPlainClientReadingATlsAlertIsToldToAddTls(String client, String server, String protocol) throws Exception {
        Protocol p = ProtocolRegistry.load().get(protocol);
        try (BenchServer s = server(server, p, Map.of())) {
            String line = oneLine(client(client, s.address().getPort(), "--protocol", protocol, "--size", "64"),
                    ExitCode.COULD_NOT_RUN);
            assertTrue(line.startsWith("nbench client: run aborted: protocol mismatch: the server speaks TLS (it sent "
                    + "0x1503") && line.endsWith(", a TLS record): add --tls to the client, with --tls-ca FILE or "
                    + "--tls-insecure"), line);
        }
    }

    /**
     * Framed only: an echo client waits for as many bytes as it sent, and the 7 bytes of an alert are fewer, so
     * it sees the connection closed without an answer (its message says so, not TLS: left for later).
     */
    static Stream<Arguments> alertingServers() {
        return Stream.of("blocking", "nio", "netty", "mina").filter(tlsTransports()::contains)
                .flatMap(s -> Stream.of("netty", "mina").map(c -> Arguments.of(c, s, "framed")));
    }

    @Test
    void aPlainClientAgainstTheNioTlsServerIsNamedInItsLog() throws Exception {
        StringWriter serverLog = new StringWriter();
        try (BenchServer server = server("nio", Protocol.FRAMED, Map.of(), null, null, serverLog)) {
            oneLine(client("nio", server.address().getPort()), ExitCode.COULD_NOT_RUN);
            String log = serverLog.toString();
            assertTrue(log.contains("not TLS (") && log.contains("this server runs with --tls, so clients need --tls "
                    + "too"), log);
        }
    }

    @Test
    void aTransportWithoutTlsRefusesIt() {
        List<String> without = new ArrayList<>();
        for (Transport t : TransportRegistry.load().all()) {
            if (!t.inJvm() && t.availability().available() && !tlsTransports().contains(t.name())) {
                without.add(t.name());
            }
        }
        assumeTrue(!without.isEmpty(), "every transport has TLS");
        String impl = without.get(0);
        String line = oneLine(client(impl, 1, "--tls", "--tls-insecure"), ExitCode.USAGE);
        assertTrue(line.startsWith("nbench: --tls: " + impl + " has no TLS yet (") && line.contains(
                "have it: choose one with --impl)") || line.contains("has it: choose one with --impl)"), line);
        String server = oneLine(CliTest.run("server", "--impl", impl, "--port", "0", "--tls"), ExitCode.USAGE);
        assertTrue(server.startsWith("nbench: --tls: " + impl + " has no TLS yet ("), server);
    }

    @Test
    void tlsOptionsThatDoNotGoTogether() {
        assertTrue(oneLine(CliTest.run("server", "--port", "0", "--tls", "--tls-cert", "x.pem"), ExitCode.USAGE)
                .startsWith("nbench: --tls-cert needs --tls-key"));
        assertTrue(oneLine(CliTest.run("server", "--port", "0", "--tls-cert", "x.pem"), ExitCode.USAGE)
                .startsWith("nbench: --tls-cert needs --tls"));
        assertTrue(oneLine(CliTest.run("server", "--port", "0", "--tls-handshake-timeout", "1s"), ExitCode.USAGE)
                .startsWith("nbench: --tls-handshake-timeout needs --tls"));
        assertTrue(oneLine(CliTest.run("server", "--port", "0", "--tls", "--tls-handshake-timeout", "0s"),
                ExitCode.USAGE).startsWith("nbench: --tls-handshake-timeout must be positive"));
        assertTrue(oneLine(client("netty", 1, "--tls-insecure"), ExitCode.USAGE)
                .startsWith("nbench: --tls-insecure needs --tls"));
        assertTrue(oneLine(client("netty", 1, "--tls", "--tls-protocols", "TLSv1.4", "--tls-insecure"), ExitCode.USAGE)
                .startsWith("nbench: --tls-protocols TLSv1.4 is not a protocol this JDK supports: use "));
        // Supported, but disabled by the JDK's security properties: the server used to start, advertise it and fail
        // every handshake (issue 41). The JDK here disables TLS 1.1 (jdk.tls.disabledAlgorithms), as every JDK
        // since 8u291 does.
        assertEquals("nbench: --tls-protocols TLSv1.1 is disabled in this JDK (jdk.tls.disabledAlgorithms in its "
                + "java.security): use TLSv1.3, TLSv1.2, or enable it there to measure it (see 'nbench server --help')",
                oneLine(CliTest.run("server", "--port", "0", "--tls", "--tls-protocols", "TLSv1.3,TLSv1.1",
                        "--duration", "1s"), ExitCode.USAGE));
        assertTrue(oneLine(client("netty", 1, "--tls", "--tls-protocols", "TLSv1.1", "--tls-insecure"), ExitCode.USAGE)
                .startsWith("nbench: --tls-protocols TLSv1.1 is disabled in this JDK "));
        assertTrue(oneLine(CliTest.run("server", "--port", "0", "--tls", "--tls-cert", "nosuch.pem", "--tls-key",
                "nosuch.key"), ExitCode.USAGE).startsWith("nbench: --tls-cert nosuch.pem cannot be read"));
    }
}
