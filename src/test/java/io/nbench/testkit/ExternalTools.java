package io.nbench.testkit;

import java.io.IOException;
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
