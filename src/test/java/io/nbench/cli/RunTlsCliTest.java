package io.nbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.nbench.client.ExitCode;
import io.nbench.testkit.ResultDocs;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** nbench run --tls: run's child servers with TLS, their clients trusting the certificates the servers made. */
class RunTlsCliTest {

    @Test
    void theServersAndTheirClientsRunTls(@TempDir Path dir) throws Exception {
        CliTest.Outcome o = CliTest.run("run", "--tls", "--servers", "netty,blocking", "--threads", "2", "--msgs",
                "100", "--warmup", "0", "--iterations", "1", "--no-server-stats", "--results-dir", dir.toString());
        assertEquals(0, o.code(), o.out() + o.err());
        assertEquals("", o.err());
        assertTrue(o.out().contains("nbench run: --tls: each server makes a self-signed certificate in memory"), o.out());
        for (String server : new String[] {"netty", "blocking"}) {
            JsonNode tls = ResultDocs.valid(ResultDocs.read(dir.resolve(server + ".json"))).path("combinations").get(0)
                    .path("transport").path("tls");
            assertEquals("TLSv1.3", tls.path("protocol").asText(), server + ": " + tls);
        }
        assertEquals(0, ProcessHandle.current().children().filter(ProcessHandle::isAlive).count(),
                "every child server stopped");
    }

    @Test
    void aCaFileCannotVouchForRunsOwnServers(@TempDir Path dir) {
        String line = TlsCliTest.oneLine(CliTest.run("run", "--tls", "--tls-ca", dir.resolve("ca.pem").toString(),
                "--servers", "netty"), ExitCode.USAGE);
        assertTrue(line.contains("leave --tls-ca out"), line);
    }
}
