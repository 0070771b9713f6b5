package io.nbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The scenario files in config/ are found by what they measure: each one says so in its first comment,
 * names the report it reproduces and what differs from it, and appears in docs/scenarios.md; every
 * scenario file the documentation, the other scenario files or the code's comments name exists, so a
 * renamed file cannot leave a command line behind that fails with "cannot read @-file". Running them is
 * ArgumentFilesTest's part.
 */
class ScenarioFilesTest {

    private static final Path CONFIG = Path.of("config");
    private static final Pattern NAMED = Pattern.compile("config/([A-Za-z0-9._-]+\\.args)");

    private static List<Path> scenarioFiles() throws IOException {
        try (Stream<Path> files = Files.list(CONFIG)) {
            return files.filter(f -> f.getFileName().toString().endsWith(".args")).sorted().toList();
        }
    }

    @Test
    void eachFileSaysWhatItMeasuresAndWhatDiffersFromTheReportItReproduces() throws IOException {
        List<Path> files = scenarioFiles();
        assertFalse(files.isEmpty(), "no scenario file in " + CONFIG.toAbsolutePath());
        String doc = Files.readString(Path.of("docs", "scenarios.md"), StandardCharsets.UTF_8);
        for (Path f : files) {
            String text = Files.readString(f, StandardCharsets.UTF_8);
            assertTrue(text.startsWith("# What it measures: "), f + " does not start by saying what it measures");
            assertTrue(text.contains("# Reproduces "), f + " does not name the report it reproduces");
            assertTrue(text.contains("# Differs from the report, and why:"), f + " does not say what differs");
            String name = f.getFileName().toString();
            assertTrue(doc.contains("| [`" + name + "`](../config/" + name + ") |"),
                    "docs/scenarios.md has no row for " + name);
        }
    }

    @Test
    void everyScenarioFileTheDocsAndCodeNameExists() throws IOException {
        List<Path> sources = new ArrayList<>(List.of(Path.of("README.md")));
        for (Path dir : List.of(Path.of("docs"), CONFIG, Path.of("src", "main"), Path.of("src", "test"))) {
            try (Stream<Path> tree = Files.walk(dir)) {
                tree.filter(Files::isRegularFile)
                        .filter(p -> p.toString().endsWith(".md") || p.toString().endsWith(".args")
                                || p.toString().endsWith(".java"))
                        .forEach(sources::add);
            }
        }
        TreeSet<String> missing = new TreeSet<>();
        for (Path source : sources) {
            Matcher m = NAMED.matcher(Files.readString(source, StandardCharsets.UTF_8));
            while (m.find()) {
                if (!Files.isRegularFile(CONFIG.resolve(m.group(1)))) {
                    missing.add(source + " names config/" + m.group(1));
                }
            }
        }
        assertEquals("", String.join("\n", missing), "scenario files named but not in config/");
    }
}
