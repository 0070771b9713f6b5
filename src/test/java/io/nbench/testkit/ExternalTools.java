package io.nbench.testkit;

import java.nio.file.Files;
import java.nio.file.Path;

/** Programs a test uses beside nbench (socat, gcc, ss): such a test is skipped, with a message, where one is missing. */
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
}
