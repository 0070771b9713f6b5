package io.nbench.testkit;

import java.util.stream.Collectors;

/**
 * What a machine format's stderr holds besides the summary's warnings. With {@code --format json|csv|ndjson}
 * every warning of the summary is one stderr line ({@code nbench client: warning [<combination>]: ...}); which
 * ones a short run on a busy machine gets (a wide interval, a saturated client) is the machine's doing, so a
 * test of a clean run checks that nothing else is there.
 */
public final class Stderr {

    private Stderr() {
    }

    /** Whether {@code line} is a summary warning as the machine formats print it. */
    public static boolean warning(String line) {
        return line.matches("nbench client: warning \\[[^]]*]: .+");
    }

    /** {@code err} without its warning lines. */
    public static String withoutWarnings(String err) {
        String rest = err.lines().filter(l -> !warning(l)).collect(Collectors.joining("\n"));
        return rest.isEmpty() ? "" : rest + "\n";
    }
}
