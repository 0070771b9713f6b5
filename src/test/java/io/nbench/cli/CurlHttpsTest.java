package io.nbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.nbench.protocol.Protocol;
import io.nbench.server.BenchServer;
import io.nbench.server.ServerPlan;
import io.nbench.testkit.ExternalTools;
import io.nbench.testkit.Transports;
import io.nbench.tls.TlsChoice;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * curl, an HTTPS client nbench did not write, against {@code nbench server --protocol http --tls} on every server
 * transport with TLS: it trusts the server's certificate (made by openssl req, given with --tls-cert and --tls-key)
 * through --cacert and checks it names localhost; each response is 200 with a body of --response-size bytes, and
 * the server counts the requests curl sent. Skipped where curl or openssl is missing.
 */
class CurlHttpsTest {

    private static final int BODY = 1234;

    static List<String> tlsTransports() {
        return Transports.tls();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("tlsTransports")
    void curlGetsTheWholeBodyFromEveryHttpsServer(String impl, @TempDir Path dir) throws Exception {
        assumeTrue(ExternalTools.onPath("curl"), "curl is not installed (Debian package curl): skipped");
        assumeTrue(ExternalTools.onPath("openssl"), "openssl is not installed: skipped");
        Path key = dir.resolve("localhost.key");
        Path cert = dir.resolve("localhost.crt");
        TlsCliTest.selfSigned(key, cert, "localhost");
        ServerPlan plan = ServerPlan.builder().transport(impl, Map.of()).protocol(Protocol.HTTP).responseSize(BODY)
                .tls(TlsChoice.defaults(), cert, key).build();
        try (BenchServer s = BenchServer.start(plan, new PrintWriter(new StringWriter()),
                new PrintWriter(new StringWriter()))) {
            int port = s.address().getPort();
            String url = "https://localhost:" + port + "/index.html";
            // Two requests on one connection (curl keeps it alive); localhost pinned to the address the server binds.
            String out = ExternalTools.run(List.of("curl", "--silent", "--show-error", "--http1.1", "--cacert",
                    cert.toString(), "--resolve", "localhost:" + port + ":127.0.0.1", "--output", "/dev/null",
                    "--output", "/dev/null", "--write-out", "%{http_code} %{size_download}\\n", url, url));
            assertEquals("200 " + BODY + "\n200 " + BODY + "\n", out);
            // A response counts as answered once the socket took its bytes, which the server notes after the write
            // returns: curl may have read both and ended first. Await the count (the bound only detects a hang).
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
            while (s.metrics().requests() < 2 && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            assertEquals(2, s.metrics().requests(), out);
        }
    }
}
