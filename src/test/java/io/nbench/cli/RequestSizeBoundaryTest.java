package io.nbench.cli;

import io.nbench.testkit.Stderr;
import io.nbench.client.ExitCode;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.nbench.protocol.Protocol;
import io.nbench.report.json.ResultDocument;
import io.nbench.testkit.ResultDocs;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code nbench client --size N} at every boundary of the request layout (below, at and above the 8-byte id
 * stamp in the payload) against a real server, with every response verified byte by byte: a template that
 * stamps the id at one size and expects it at another fails every message here.
 */
class RequestSizeBoundaryTest {

    @ParameterizedTest(name = "{0} --size {1}")
    @CsvSource({"framed,7", "framed,8", "framed,9", "framed,12", "echo,7", "echo,8", "echo,9", "echo,12"})
    void everyMessageIsVerifiedAtTheBoundary(String protocol, int size) throws Exception {
        Protocol p = Protocol.parse(protocol);
        CliTest.Outcome o = CliTest.run("client", "--port", CliTest.port(p), "--protocol", protocol,
                "--size", Integer.toString(size), "--threads", "2", "--msgs", "100", "--warmup", "0",
                "--iterations", "2", "--verify", "full", "--format", "json");
        assertEquals(ExitCode.OK, o.code(), o.err() + o.out());
        assertEquals("", Stderr.withoutWarnings(o.err()));
        JsonNode c = ResultDocs.read(o.out()).get("combinations").get(0);
        for (JsonNode it : c.get("iterations")) {
            assertEquals(200, it.get("messages").asLong(), it.toString());
            assertEquals(0, it.get("errors").get("total").asLong(), it.toString());
        }
    }
}
