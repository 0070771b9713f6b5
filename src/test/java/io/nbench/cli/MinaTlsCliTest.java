package io.nbench.cli;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.nbench.client.ExitCode;
import io.nbench.protocol.Protocol;
import io.nbench.server.BenchServer;
import io.nbench.testkit.ExternalTools;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --tls} on MINA (its {@code SslFilter}) beyond {@link TlsCliTest}, which covers every pair of TLS
 * transports and openssl s_client against MINA's TLS server: what MINA's server and client say when the other
 * side gets TLS wrong.
 */
class MinaTlsCliTest {

    @TempDir
    static Path dir;

    @Test
    void aPlainClientAgainstTheMinaTlsServerIsNamedInTheServersLog() throws Exception {
        StringWriter serverLog = new StringWriter();
        try (BenchServer server = TlsCliTest.server("mina", Protocol.FRAMED, Map.of(), null, null, serverLog)) {
            TlsCliTest.oneLine(TlsCliTest.client("mina", server.address().getPort()), ExitCode.COULD_NOT_RUN);
            List<String> lines = serverLog.toString().lines().toList();
            assertTrue(lines.stream().anyMatch(l -> l.contains("not TLS (") && l.endsWith("plaintext connection?): this "
                    + "server runs with --tls, so clients need --tls too; connection closed")), lines.toString());
            // One line per connection, no stack trace.
            assertFalse(lines.stream().anyMatch(l -> l.startsWith("\tat ") || l.contains("Exception")), lines.toString());
        }
    }

    /** The certificate named as the reason, as every other TLS client does (not the connection closed after). */
    @Test
    void theMinaClientNamesACertificateItRejectsInOneLine() throws Exception {
        assumeTrue(ExternalTools.onPath("openssl"), "openssl is not installed");
        Path key = dir.resolve("other.key");
        Path cert = dir.resolve("other.crt");
        TlsCliTest.selfSigned(key, cert, "other.invalid");
        try (BenchServer s = TlsCliTest.server("mina", Protocol.FRAMED, Map.of())) {
            String line = TlsCliTest.oneLine(TlsCliTest.client("mina", s.address().getPort(), "--host", "localhost",
                    "--tls", "--tls-ca", cert.toString()), ExitCode.COULD_NOT_RUN);
            assertTrue(line.contains("TLS handshake failed (") && line.endsWith("the server's certificate is not "
                    + "trusted: give it (or its CA) with --tls-ca FILE, or use --tls-insecure"), line);
        }
        try (BenchServer s = TlsCliTest.server("mina", Protocol.FRAMED, Map.of(), cert, key, new StringWriter())) {
            // Trusted, but it names another host.
            String line = TlsCliTest.oneLine(TlsCliTest.client("mina", s.address().getPort(), "--tls", "--tls-ca",
                    cert.toString()), ExitCode.COULD_NOT_RUN);
            assertTrue(line.contains("TLS handshake failed (") && line.endsWith("the server's certificate does not "
                    + "name the host connected to: use a --host it names, or --tls-insecure"), line);
        }
    }
}
