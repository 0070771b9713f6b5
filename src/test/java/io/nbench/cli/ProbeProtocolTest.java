package io.nbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nbench.client.ExitCode;
import io.nbench.protocol.ProbeProtocol;
import io.nbench.protocol.ServerCodec;
import io.nbench.testkit.NbenchProcess;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The recipe for a new wire protocol (issue 26): one class ({@link ProbeProtocol}) and one registry line (a
 * services file in {@code probe-protocol/}, on the class path of a child nbench only, as a user would add a
 * jar). Without any other change, {@code --protocol probe} parses, shows in the help and in shell completion,
 * and the real client drives it end to end through every client transport against a server that speaks it.
 * The server end is a plain {@link ServerSocket} on the probe's own server codec: the server transports do not
 * take a protocol's server codec yet, and {@code nbench server --protocol probe} says so.
 */
class ProbeProtocolTest {

    private static final int RESPONSE = 40;

    /** nbench's Main on this build's class path plus the directory that registers the probe. */
    private static List<String> nbench(String... args) throws IOException {
        Path services = Path.of("target", "test-classes", "probe-protocol");
        assertTrue(Files.isDirectory(services), services + " (copied from src/test/resources)");
        List<String> command = new ArrayList<>(NbenchProcess.command(List.of()));
        int cp = command.indexOf("-cp") + 1;
        command.set(cp, command.get(cp) + File.pathSeparator + services.toAbsolutePath());
        command.addAll(List.of(args));
        return command;
    }

    private static NbenchProcess.Result run(Path dir, String... args) throws Exception {
        return NbenchProcess.run(dir, nbench(args));
    }

    @Test
    void theRealClientSpeaksTheProbeThroughEveryClientTransport(@TempDir Path dir) throws Exception {
        try (ProbeServer server = new ProbeServer()) {
            // 3 iterations (1 warmup) x 200 messages x 2 threads per transport, checked byte for byte.
            NbenchProcess.Result r = run(dir, "client", "--protocol", "probe", "--port", Integer.toString(server.port()),
                    "--impl", "nio,netty,mina,blocking", "--threads", "2", "--connections", "2", "--window", "4",
                    "--msgs", "200", "--warmup", "1", "--iterations", "2", "--size", "100",
                    "--response-size", Integer.toString(RESPONSE), "--verify", "full");
            assertEquals(0, r.exit(), r.all());
            assertEquals("", r.err());
            assertTrue(r.out().contains("protocol probe"), r.out());
            assertEquals(4 * 3 * 200 * 2, server.responses(), r.out());
        }
    }

    @Test
    void theRegistryLineAloneMakesItANameOfTheOptionItsHelpAndCompletion(@TempDir Path dir) throws Exception {
        NbenchProcess.Result help = run(dir, "client", "--help");
        assertEquals(0, help.exit(), help.all());
        assertTrue(help.out().contains("--protocol=framed|echo|probe"), help.out());
        assertTrue(help.out().replaceAll("\\s+", " ").contains("Wire protocol: framed (length, response length, id), "
                + "echo (RFC 862) or probe (a test's own). Default: framed."), help.out());
        NbenchProcess.Result completion = run(dir, "completion", "bash");
        assertEquals(0, completion.exit(), completion.all());
        Path script = Files.writeString(dir.resolve("nbench.bash"), completion.out());
        assertEquals("echo framed probe", CompletionTest.complete(script, "nbench", "client", "--protocol", ""));
        NbenchProcess.Result unknown = run(dir, "client", "--protocol", "nosuch", "--msgs", "1");
        assertEquals(ExitCode.USAGE, unknown.exit(), unknown.all());
        assertEquals(1, unknown.err().strip().lines().count(), unknown.err());
        assertTrue(unknown.err().contains("unknown protocol 'nosuch': use framed, echo or probe"), unknown.err());
    }

    @Test
    void theServerSaysItHasNoProbeYet(@TempDir Path dir) throws Exception {
        NbenchProcess.Result r = run(dir, "server", "--protocol", "probe", "--port", "0", "--duration", "1s");
        assertEquals(ExitCode.USAGE, r.exit(), r.all());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertTrue(r.err().contains("--protocol probe has no server yet"), r.err());
    }

    /** A blocking server on the probe's server codec: one thread per connection, buffers of its own. */
    private static final class ProbeServer implements AutoCloseable {
        private final ServerSocket listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        private final List<Socket> sockets = new CopyOnWriteArrayList<>();
        private final AtomicLong responseBytes = new AtomicLong();
        private final Thread acceptor = new Thread(this::accept, "probe-accept");

        ProbeServer() throws IOException {
            acceptor.setDaemon(true);
            acceptor.start();
        }

        int port() {
            return listener.getLocalPort();
        }

        /** Responses written, counted from their bytes (each is the 13-byte header and the payload asked for). */
        long responses() {
            return responseBytes.get() / (13 + RESPONSE);
        }

        private void accept() {
            while (true) {
                try {
                    Socket s = listener.accept();
                    sockets.add(s);
                    Thread t = new Thread(() -> serve(s), "probe-conn");
                    t.setDaemon(true);
                    t.start();
                } catch (IOException e) {
                    return; // closed
                }
            }
        }

        private void serve(Socket s) {
            ServerCodec codec = new ProbeProtocol().newServerCodec(1 << 20, (req, resp) -> { });
            ByteBuffer in = ByteBuffer.allocate(64 * 1024);
            ByteBuffer out = ByteBuffer.allocate(64 * 1024);
            try (s; InputStream is = s.getInputStream(); OutputStream os = s.getOutputStream()) {
                while (true) {
                    int n = is.read(in.array(), in.position(), in.remaining());
                    if (n < 0) {
                        return;
                    }
                    in.position(in.position() + n).flip();
                    int result;
                    do {
                        result = codec.parse(in, out);
                        if (result == ServerCodec.PROTOCOL_ERROR) {
                            return;
                        }
                        responseBytes.addAndGet(out.position()); // before the client can have them all
                        os.write(out.array(), 0, out.position());
                        out.clear();
                    } while (result == ServerCodec.OUTPUT_FULL);
                    in.compact();
                }
            } catch (IOException e) {
                // the client closed: done
            }
        }

        @Override
        public void close() throws IOException {
            listener.close();
            for (Socket s : sockets) {
                s.close();
            }
        }
    }
}
