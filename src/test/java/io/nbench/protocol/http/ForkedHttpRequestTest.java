package io.nbench.protocol.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.nbench.testkit.NbenchProcess;
import io.nbench.testkit.RecordingHttpPeer;
import io.nbench.testkit.ResultDocs;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --forks} hands each fork the user's HTTP request options (--url's path and query, --method, -H) as data
 * (issue 26: run's and --forks' plans): every request the forks send, as a peer reads it off the wire, is the one
 * the command line asks for, and the peer's count of requests equals the messages the forks' documents measured.
 */
class ForkedHttpRequestTest {

    @TempDir
    Path dir;

    @Test
    void everyForkSendsTheRequestTheUsersHttpOptionsDescribe() throws Exception {
        byte[] reply = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok".getBytes(StandardCharsets.US_ASCII);
        try (RecordingHttpPeer peer = new RecordingHttpPeer(reply)) {
            String url = "http://127.0.0.1:" + peer.port() + "/forked/path?q=1";
            NbenchProcess.Result r = NbenchProcess.run(dir, "022", "client", "--impl", "nio", "--forks", "2",
                    "--threads", "1", "--msgs", "20", "--warmup", "0", "--iterations", "1", "--size", "10",
                    "--url", url, "--method", "put", "-H", "X-Probe: forked", "-H", "Accept: text/plain",
                    "--out", "r.json");
            assertEquals(0, r.exit(), r.all());
            List<String> expected = List.of("PUT /forked/path?q=1 HTTP/1.1", "Accept: text/plain",
                    "Content-Length: 10", "Host: 127.0.0.1:" + peer.port(), "X-Probe: forked");
            long measured = 0;
            for (int fork = 1; fork <= 2; fork++) {
                measured += ResultDocs.read(dir.resolve("r.fork" + fork + ".json")).at("/summary/messages").asLong();
            }
            assertEquals(40, measured, r.out());
            List<List<String>> heads = peer.heads();
            assertEquals(measured, heads.size(), "requests the peer read");
            for (List<String> head : heads) {
                assertEquals(expected, head);
            }
        }
    }
}
