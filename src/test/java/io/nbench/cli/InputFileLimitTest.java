package io.nbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.nbench.client.ExitCode;
import io.nbench.testkit.ExternalTools;
import io.nbench.tls.SelfSigned;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.CertificateEncodingException;
import java.time.Duration;
import java.util.Base64;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every file a user names is read bounded (issue 41): {@code /dev/zero} (which says it is empty, and never
 * ends) as each kind of input file is refused once past that kind's limit, in one line naming the option, the
 * file and the limit, exit 2, nothing on stdout, no stack trace. Before, a PEM file or a token file ended in an
 * OutOfMemoryError and an @-file spun for ever (a NUL is whitespace to picocli's tokenizer): the timeout turns
 * that into a failure instead of a hung build. In-process: a refusal costs milliseconds.
 */
class InputFileLimitTest {

    @TempDir
    static Path dir;

    /** A certificate that parses, so that the key file is the one read next. */
    static Path cert;

    /** An @-file naming /dev/zero: a nested @-file is bounded too. */
    static Path nesting;

    private static String freePort;

    @BeforeAll
    static void files() throws IOException, CertificateEncodingException {
        freePort = Integer.toString(ExternalTools.freePort());
        byte[] der = SelfSigned.make(InetAddress.getLoopbackAddress()).chain().get(0).getEncoded();
        cert = Files.writeString(dir.resolve("server.crt"), "-----BEGIN CERTIFICATE-----\n"
                + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der) + "\n-----END CERTIFICATE-----\n");
        nesting = Files.writeString(dir.resolve("nesting.args"), "--msgs 10\n@/dev/zero\n");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "server --port 0 --tls --tls-cert /dev/zero --tls-key CERT"
            + "| --tls-cert /dev/zero goes on beyond the 1 MiB nbench reads of a PEM file: give the PEM file openssl "
            + "writes (see 'nbench server --help')",
        "server --port 0 --tls --tls-cert CERT --tls-key /dev/zero"
            + "| --tls-key /dev/zero goes on beyond the 1 MiB nbench reads of a PEM file: give the PEM file openssl "
            + "writes (see 'nbench server --help')",
        "client --port FREE --msgs 10 --tls --tls-ca /dev/zero"
            + "| --tls-ca /dev/zero goes on beyond the 1 MiB nbench reads of a PEM file: give the PEM file openssl "
            + "writes (see 'nbench client --help')",
        "server --port 0 --monitor-port 0 --monitor-token-file /dev/zero"
            + "| --monitor-token-file /dev/zero goes on beyond the 64 KiB nbench reads of a token file: give a file "
            + "holding the token on its first line (see 'nbench server --help')",
        "client --port FREE --msgs 10 --server-stats --monitor-port FREE --monitor-token-file /dev/zero"
            + "| --monitor-token-file /dev/zero goes on beyond the 64 KiB nbench reads of a token file: give a file "
            + "holding the token on its first line (see 'nbench client --help')",
        "client --url http://127.0.0.1:FREE/ --msgs 10 --method POST --body-file /dev/zero"
            + "| --body-file /dev/zero goes on beyond the 16 MiB a request body may have (nbench server's default "
            + "--max-frame): give a smaller file (see 'nbench client --help')",
        "client @/dev/zero"
            + "| @-file /dev/zero goes on beyond the 1 MiB nbench reads of an @-file: give a file of nbench options "
            + "(see 'nbench --help')",
        "client --port FREE @NESTING"
            + "| @-file /dev/zero goes on beyond the 1 MiB nbench reads of an @-file: give a file of nbench options "
            + "(see 'nbench --help')",
    })
    void devZeroIsRefusedInOneLineNamingTheFileAndTheLimit(String line, String message) {
        String[] args = line.replace("CERT", cert.toString()).replace("NESTING", nesting.toString())
                .replace("FREE", freePort).split(" ");
        CliTest.Outcome o = assertTimeoutPreemptively(Duration.ofSeconds(60), () -> CliTest.run(args), line);
        assertEquals("nbench: " + message + "\n", o.err(), line);
        assertEquals(ExitCode.USAGE, o.code(), line);
        assertEquals("", o.out(), line);
    }
}
