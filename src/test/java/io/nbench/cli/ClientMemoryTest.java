package io.nbench.cli;

import io.nbench.client.ExitCode;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nbench.testkit.NbenchProcess;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A plan that cannot fit in the client's heap or direct memory is refused before anything is allocated:
 * exit 2 and one line naming the limit and the fix, instead of an OutOfMemoryError stack trace after
 * seconds. Each case runs the real entry point in a JVM of its own with known limits (-Xmx256m), so the
 * figures in the message are exact; nothing listens on the port, so a plan wrongly accepted fails to
 * connect (exit 1) rather than passing.
 */
class ClientMemoryTest {

    record Outcome(int code, String out, String err) {
    }

    private static Outcome nbench(List<String> jvm, String... args) throws IOException, InterruptedException {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        List<String> command = new ArrayList<>(NbenchProcess.command(jvm));
        command.addAll(List.of(args));
        command.addAll(List.of("--port", Integer.toString(port), "--connect-timeout", "200ms"));
        NbenchProcess.Result r = NbenchProcess.run(Path.of(System.getProperty("user.dir")), command);
        return new Outcome(r.exit(), r.out(), r.err());
    }

    /**
     * The plan was accepted: the client went on to connect, and could not (nothing listens). Refused, or on a
     * busy machine timed out: a 200 ms connect timeout can pass before the refusal is seen.
     */
    private static void wentOnToConnect(Outcome o) {
        assertEquals(ExitCode.COULD_NOT_RUN, o.code(), o.err());
        assertTrue(o.err().startsWith("nbench client: cannot connect to 127.0.0.1:")
                && (o.err().contains("Connection refused") || o.err().contains("connect timed out after 200 ms")), o.err());
    }

    @Test
    void aGigabyteMessageIsRefusedNamingTheHeapLimit() throws Exception {
        Outcome o = nbench(List.of("-Xmx256m"), "client", "--size", "1g", "--msgs", "1");
        // 1 GiB request + 16-byte header, kept twice; a 1 GiB response checked against 2 x 1 GiB; the response
        // buffer grows to 2 GiB by copying the 1 GiB one: 2 + 2 + 1 + 3 = 8 GiB per connection.
        assertEquals("nbench: the plan needs about 32.0 GiB of client heap (4 connections x 8.0 GiB: request 1.0 GiB "
                + "kept twice, response check 2.0 GiB, 1 request in flight 1.0 GiB, response buffer 3.0 GiB, "
                + "message table 64 B), more than 3/4 of the 256.0 MiB heap limit: lower --size, --window or "
                + "--connections, or give the JVM more with NBENCH_JAVA_OPTS=-Xmx43g (see 'nbench client --help')\n",
                o.err());
        assertEquals(ExitCode.USAGE, o.code());
        assertEquals("", o.out());
    }

    @Test
    void aHugeWindowIsRefused() throws Exception {
        Outcome o = nbench(List.of("-Xmx256m"), "client", "--window", "100000000", "--msgs", "1");
        assertTrue(o.err().startsWith("nbench: the plan needs about 451.1 GiB of client heap (4 connections x "
                + "112.8 GiB: "), o.err());
        assertTrue(o.err().endsWith(", more than 3/4 of the 256.0 MiB heap limit: lower --size, --window or "
                + "--connections, or give the JVM more with NBENCH_JAVA_OPTS=-Xmx602g (see 'nbench client --help')\n"),
                o.err());
        assertTrue(o.err().contains("100000000 requests in flight 108.8 GiB"), o.err());
        assertTrue(o.err().contains("message table 4.0 GiB"), o.err());
        assertEquals(1, o.err().lines().count());
        assertEquals(ExitCode.USAGE, o.code());
        assertEquals("", o.out());
    }

    @Test
    void directMemoryBelowTheHeapIsTheLimitNamed() throws Exception {
        Outcome o = nbench(List.of("-Xmx512m", "-XX:MaxDirectMemorySize=16m"), "client", "--size", "1m", "--window",
                "16", "--msgs", "1");
        assertEquals("nbench: the plan needs about 16.1 MiB of direct memory (4 connections x 4.0 MiB: 16 requests "
                + "in flight 1.0 MiB, response buffer 3.0 MiB), more than 3/4 of the 16.0 MiB direct-memory limit "
                + "(-XX:MaxDirectMemorySize): lower --size, --window or --connections, or give the JVM more with "
                + "NBENCH_JAVA_OPTS=-XX:MaxDirectMemorySize=86m (see 'nbench client --help')\n", o.err());
        assertEquals(ExitCode.USAGE, o.code());
    }

    /**
     * Queued requests share one payload per connection (netty, mina) or wait as ids (nio, blocking): a
     * thousand 1 MiB requests in flight on each of 4 connections complete in 512 MiB (peak RSS 160-350 MiB
     * against a local server), so the model must not count them as 4 GiB.
     */
    @Test
    void aLargeWindowOfLargeRequestsFitsBecauseThePayloadIsShared() throws Exception {
        Outcome o = nbench(List.of("-Xmx512m"), "client", "--size", "1m", "--window", "1000", "--threads", "4",
                "--msgs", "1");
        wentOnToConnect(o);
    }

    @Test
    void aPlanThatFitsGoesOnToConnect() throws Exception {
        Outcome o = nbench(List.of("-Xmx256m"), "client", "--size", "1m", "--window", "4", "--msgs", "1");
        wentOnToConnect(o);
    }
}
