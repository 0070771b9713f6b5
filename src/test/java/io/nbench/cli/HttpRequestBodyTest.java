package io.nbench.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.nbench.client.ExitCode;
import io.nbench.testkit.RecordingHttpPeer;
import io.nbench.testkit.ResultDocs;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code --body}, {@code --body-file} and {@code --content-type} (issue 37): the bytes a peer reads off the wire
 * are the ones given, byte for byte, with no message id stamped into them, whichever client transport sends them;
 * a GET may carry one and the header says so; MiB/s counts the body; the ways to get them wrong are one-line usage
 * errors (exit 2) naming the fix.
 */
class HttpRequestBodyTest {

    private static final int MSGS = 20;

    @TempDir
    static Path dir;

    /** 3,000 bytes holding every byte value, in an order no pattern of nbench's would give. */
    private static byte[] binary;
    private static Path binaryFile;
    private static RecordingHttpPeer peer;

    @BeforeAll
    static void start() throws Exception {
        binary = new byte[3000];
        for (int i = 0; i < binary.length; i++) {
            binary[i] = (byte) (i * 167 + i / 256);
        }
        binaryFile = Files.write(dir.resolve("body.bin"), binary);
        peer = new RecordingHttpPeer("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
    }

    @AfterAll
    static void stop() throws Exception {
        peer.close();
    }

    private static CliTest.Outcome client(String... more) {
        List<String> args = new ArrayList<>(List.of("client", "--url", "http://127.0.0.1:" + peer.port() + "/up",
                "--warmup", "0", "--iterations", "1", "--msgs", "" + MSGS, "--threads", "1"));
        args.addAll(List.of(more));
        return CliTest.run(args.toArray(new String[0]));
    }

    /** What the peer read for the run just made: the last {@code MSGS} requests' heads and bodies. */
    private static List<byte[]> lastBodies() {
        List<byte[]> all = peer.bodies();
        return all.subList(all.size() - MSGS, all.size());
    }

    private static List<List<String>> lastHeads() {
        List<List<String>> all = peer.heads();
        return all.subList(all.size() - MSGS, all.size());
    }

    /**
     * mina too: a request whose head is all that precedes a shared body used to go out as an empty buffer and the
     * body, and MINA's client sent neither (the run aborted: no response on any connection).
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"nio", "netty", "mina"})
    void aBodyFileIsSentByteForByteAndCountedInMibPerSecond(String impl) throws Exception {
        Path out = dir.resolve(impl + ".json");
        int before = peer.bodies().size();
        CliTest.Outcome o = client("--impl", impl, "--method", "PUT", "--body-file", binaryFile.toString(),
                "--content-type", "application/octet-stream", "-H", "X-A: 1", "-H", "X-B: 2", "--out", out.toString());
        assertEquals(ExitCode.OK, o.code(), o.out() + o.err());
        assertEquals("", o.err());
        assertEquals(before + MSGS, peer.bodies().size(), "requests the peer read");
        for (byte[] body : lastBodies()) {
            assertArrayEquals(binary, body);
        }
        for (List<String> head : lastHeads()) {
            assertEquals(List.of("PUT /up HTTP/1.1", "Content-Length: 3000", "Content-Type: application/octet-stream",
                    "Host: 127.0.0.1:" + peer.port(), "X-A: 1", "X-B: 2"), head);
        }
        JsonNode it = ResultDocs.read(out).path("combinations").path(0).path("iterations").path(0);
        double bytesPerMessage = it.path("mibPerSec").asDouble() * (1 << 20) * it.path("wallNs").asLong() / 1e9
                / it.path("messages").asLong();
        assertEquals(binary.length, bytesPerMessage, 1e-6, it.toString());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"nio", "netty"})
    void aGetCarriesABodyStringAsGivenAndTheHeaderSaysSo(String impl) {
        String json = "{\"query\":\"é and more than eight bytes\"}";
        byte[] utf8 = json.getBytes(StandardCharsets.UTF_8);
        CliTest.Outcome o = client("--impl", impl, "--body", json, "-H", "Content-Type: application/json");
        assertEquals(ExitCode.OK, o.code(), o.out() + o.err());
        assertEquals("", o.err());
        for (byte[] body : lastBodies()) {
            assertArrayEquals(utf8, body, () -> new String(body, StandardCharsets.UTF_8));
        }
        for (List<String> head : lastHeads()) {
            assertEquals(List.of("GET /up HTTP/1.1", "Content-Length: " + utf8.length,
                    "Content-Type: application/json", "Host: 127.0.0.1:" + peer.port()), head);
        }
        assertTrue(o.out().contains("message: GET http://127.0.0.1:" + peer.port() + "/up, a GET carrying a body of "
                + utf8.length + " bytes, sent as given, response the server's"), o.out());
    }

    @Test
    void wrongUsesAreOneLineUsageErrorsNamingTheFix() throws Exception {
        Path big = dir.resolve("big.bin");
        try (RandomAccessFile f = new RandomAccessFile(big.toFile(), "rw")) {
            f.setLength(16 * 1024 * 1024 + 1); // sparse: no 16 MiB written
        }
        String url = "http://127.0.0.1:" + peer.port() + "/";
        String missing = dir.resolve("missing.json").toString();
        List<Refused> cases = List.of(
            new Refused(List.of("--body-file", missing), "--body-file " + missing + " cannot be read (no such file): "
                    + "give a readable file"),
            new Refused(List.of("--body-file", big.toString()), "--body-file " + big + " holds 16777217 bytes, more "
                    + "than the 16777216 (16 MiB) a request body may have (nbench server's default --max-frame): give "
                    + "a smaller file"),
            new Refused(List.of("--body-file", dir.toString()), "--body-file " + dir + " cannot be read (a "
                    + "directory): give a readable file"),
            new Refused(List.of("--body", "x", "--body-file", binaryFile.toString()), "--body and --body-file both "
                    + "give the request body: give one of them"),
            new Refused(List.of("--body", "x", "--size", "1k"), "--body gives the request body, whose length is its "
                    + "own: leave --size out"),
            new Refused(List.of("--method", "POST", "--body-file", binaryFile.toString(), "--size", "1k"), "--body-file "
                    + "gives the request body, whose length is its own: leave --size out"),
            new Refused(List.of("--size", "1k"), "--size gives a body only with --method POST, PUT or PATCH; a GET "
                    + "sends none: to send a body with it give --body-file FILE or --body STRING, else leave --size out"),
            new Refused(List.of("--method", "head", "--size", "2"), "--size gives a body only with --method POST, PUT "
                    + "or PATCH; a HEAD sends none: to send a body with it give --body-file FILE or --body STRING, else "
                    + "leave --size out"),
            new Refused(List.of("--body", ""), "--body is empty: give the bytes to send, or leave it out"),
            new Refused(List.of("--content-type", "text/plain", "-H", "content-type:text/html", "--body", "x"),
                    "--content-type text/plain and -H 'content-type:text/html' both set Content-Type: give one of "
                    + "them"));
        for (Refused c : cases) {
            List<String> args = new ArrayList<>(List.of("client", "--url", url));
            args.addAll(c.args());
            c.check(CliTest.run(args.toArray(new String[0])));
        }
        String notHttp = "--method, -H, --success-status, --body, --body-file and --content-type are HTTP request "
                + "options: give --url http://HOST:PORT/PATH";
        for (List<String> option : List.of(List.of("--body", "x"), List.of("--body-file", binaryFile.toString()),
                List.of("--content-type", "text/plain"))) {
            List<String> args = new ArrayList<>(List.of("client", "--port", "1"));
            args.addAll(option);
            new Refused(option, notHttp).check(CliTest.run(args.toArray(new String[0])));
        }
    }

    /** Options the client refuses, and the one line it says of them (the whole of its stderr). */
    private record Refused(List<String> args, String line) {
        void check(CliTest.Outcome o) {
            assertEquals(ExitCode.USAGE, o.code(), args + ": " + o.out() + o.err());
            assertEquals("nbench: " + line + " (see 'nbench client --help')", o.err().strip(), args.toString());
        }
    }
}
