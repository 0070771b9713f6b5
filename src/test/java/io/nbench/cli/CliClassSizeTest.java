package io.nbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every class of the command line reads at a glance: a command that grows past the limit has taken on a second
 * concern (checks, files, a child's plan), which goes to a class of its own named after it (issue 26).
 */
class CliClassSizeTest {

    /** Lines of one source file in io.nbench.cli, comments and imports included (what a reader scrolls through). */
    static final int MAX_LINES = 250;

    @Test
    void everyCliClassIsUnder250Lines() throws IOException {
        Path cli = Path.of("src", "main", "java", "io", "nbench", "cli");
        List<String> tooLong = new ArrayList<>();
        try (Stream<Path> files = Files.list(cli)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).sorted().toList()) {
                long lines = Files.readAllLines(f).size();
                if (lines >= MAX_LINES) {
                    tooLong.add(f.getFileName() + ": " + lines + " lines");
                }
            }
        }
        assertEquals(List.of(), tooLong, "cli classes of " + MAX_LINES + " lines or more: split each by concern");
    }
}
