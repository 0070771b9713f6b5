package io.nbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.nbench.client.ExitCode;
import io.nbench.protocol.Protocol;
import io.nbench.server.BenchServer;
import io.nbench.testkit.ExternalTools;
import io.nbench.testkit.TestServers;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code --url https://...} through the command line: it implies --tls, trusts as --tls does (--tls-ca or
 * --tls-insecure, else a usage error), and checks the certificate against the URL's host.
 */
class HttpsUrlCliTest {

    @TempDir
    static Path dir;
    static Path cert;
    static Path key;

    @BeforeAll
    static void certificateForLocalhost() throws Exception {
        assumeTrue(ExternalTools.onPath("openssl"), "openssl is not installed");
        key = dir.resolve("localhost.key");
        cert = dir.resolve("localhost.crt");
        TlsCliTest.selfSigned(key, cert, "localhost");
    }

    static List<String> tlsTransports() {
        return TlsCliTest.tlsTransports();
    }

    private static BenchServer httpsServer() throws Exception {
        return TlsCliTest.server("netty", Protocol.HTTP, Map.of(), cert, key, new StringWriter());
    }

    private static CliTest.Outcome client(String impl, String url, String... trust) {
        List<String> args = new ArrayList<>(List.of("client", "--impl", impl, "--url", url, "--threads", "2",
                "--msgs", "50", "--warmup", "0", "--iterations", "1"));
        args.addAll(List.of(trust));
        return CliTest.run(args.toArray(new String[0]));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("tlsTransports")
    void anHttpsUrlIsTlsCheckedAgainstItsHost(String impl) throws Exception {
        try (BenchServer s = httpsServer()) {
            CliTest.Outcome o = client(impl, "https://localhost:" + s.address().getPort() + "/", "--tls-ca",
                    cert.toString());
            assertEquals(0, o.code(), o.out() + o.err());
            assertEquals("", o.err());
            assertTrue(o.out().contains("\n  tls: TLSv1.3, TLS_"), o.out());
            assertEquals(100, s.metrics().requests(), "every request went through the HTTPS server");
        }
    }

    /**
     * An https:// URL to a plain HTTP server: one line saying so and to use http:// (before: netty's "not an SSL/TLS
     * record: 485454502f312e31..." with the 400 page in 440 hex digits, the JDK's "Unsupported or unrecognized SSL
     * message", each followed by "is the server running with --tls, offering one of --tls-protocols ...").
     */
    @Test
    void anHttpsUrlToAPlainHttpServerSaysItAnsweredInPlainText() {
        int port = TestServers.get("netty", Protocol.HTTP).address().getPort();
        for (String impl : tlsTransports()) {
            String line = TlsCliTest.oneLine(client(impl, "https://127.0.0.1:" + port + "/", "--tls-insecure"),
                    ExitCode.COULD_NOT_RUN);
            assertTrue(line.endsWith("TLS handshake failed: the server answered in plain text, not TLS: use http:// "
                    + "(or start the server with --tls)"), impl + ": " + line);
            assertFalse(Pattern.compile("[0-9a-fA-F]{40}").matcher(line).find(), impl + ": " + line);
        }
        // The same answer to a framed client's --tls, with its own fix.
        String framed = TlsCliTest.oneLine(TlsCliTest.client("netty", port, "--tls", "--tls-insecure"),
                ExitCode.COULD_NOT_RUN);
        assertTrue(framed.endsWith("TLS handshake failed: the server answered in plain text, not TLS: leave --tls out "
                + "(or start the server with --tls)"), framed);
    }

    @Test
    void aCertificateThatDoesNotNameTheUrlsHostIsOneLine() throws Exception {
        try (BenchServer s = httpsServer()) {
            String line = TlsCliTest.oneLine(client("netty", "https://127.0.0.1:" + s.address().getPort() + "/", "--tls-ca",
                    cert.toString()), ExitCode.COULD_NOT_RUN);
            assertTrue(line.contains("TLS handshake failed"), line);
            assertEquals(0, s.metrics().requests());
        }
    }

    /** --tls with an http:// URL: one line naming the https:// URL, before any connection is tried. */
    @Test
    void anHttpUrlWithTlsIsAUsageErrorNamingHttps() {
        String line = TlsCliTest.oneLine(client("netty", "http://127.0.0.1:1/path", "--tls", "--tls-insecure"),
                ExitCode.USAGE);
        assertTrue(line.contains("https://127.0.0.1:1/path"), line);
    }

    @Test
    void anHttpsUrlTrustsNoServerByDefault() {
        String line = TlsCliTest.oneLine(client("netty", "https://127.0.0.1:1/"), ExitCode.USAGE);
        assertTrue(line.contains("--tls-ca FILE") && line.contains("--tls-insecure"), line);
    }
}
