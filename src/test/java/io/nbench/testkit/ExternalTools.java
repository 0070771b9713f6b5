package io.nbench.testkit;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Programs a test uses beside nbench (socat, gcc, ss, ab, wrk): such a test is skipped, with a message, where one is missing. */
public final class ExternalTools {

    private ExternalTools() {
    }

    /** Whether {@code command} is an executable in a directory of PATH. */
    public static boolean onPath(String command) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, command))) {
                return true;
            }
        }
        return false;
    }

    /** A port that was free a moment ago, for a program that must be told which port to listen on. */
    public static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    /**
     * Starts a server program (its output discarded) and waits, at most 10 s, until it accepts connections on
     * 127.0.0.1:{@code port}; the caller stops it.
     */
    public static Process startListening(List<String> command, int port) throws IOException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        InetSocketAddress address = new InetSocketAddress("127.0.0.1", port);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline && p.isAlive()) {
            try (Socket s = new Socket()) {
                s.connect(address, 200);
                return p;
            } catch (IOException notYet) {
                Thread.onSpinWait();
            }
        }
        p.destroyForcibly();
        throw new IOException(command.get(0) + " did not start listening on port " + port);
    }

    /** Runs {@code command} (at most 60 s, then killed) and returns its stdout and stderr together. */
    public static String run(List<String> command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        try {
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                throw new IOException(command + " did not end");
            }
            return new String(out, StandardCharsets.UTF_8);
        } finally {
            p.destroyForcibly();
        }
    }
}
