package io.nbench.jar;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shaded jar itself ({@code target/nbench.jar}; runs in {@code mvn verify}, after the jar is built): the
 * merged NOTICE of the Apache-2.0 components, the THIRD-PARTY listing naming every dependency the jar bundles
 * with its version, and the cut-down commons-math3 still computing every interval (a summary and a compare
 * run through {@code java -jar}).
 */
class JarContentsIT {

    private static final Path JAR = Path.of("target", "nbench.jar");

    @Test
    void theNoticeOfEveryApacheComponentIsMergedIntoOne() throws IOException {
        String notice = entry("META-INF/NOTICE");
        for (String name : List.of("Apache MINA", "Jackson JSON processor", "The Netty Project", "Apache Commons Math",
                "nbench")) {
            assertTrue(notice.contains(name), name + " missing from META-INF/NOTICE:\n" + notice);
        }
        try (JarFile jar = new JarFile(JAR.toFile())) {
            assertTrue(jar.stream().noneMatch(e -> e.getName().matches("META-INF/NOTICE.+")),
                    "a NOTICE left unmerged");
        }
    }

    @Test
    void theThirdPartyListingNamesEveryBundledDependencyWithItsVersion() throws IOException {
        String listing = entry("THIRD-PARTY.txt");
        assertEquals(Files.readString(Path.of("THIRD-PARTY.txt")), listing, "the jar's listing is the repository's");
        List<String> bundled = new ArrayList<>();
        try (JarFile jar = new JarFile(JAR.toFile())) {
            for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
                Path dep = Path.of(entry);
                String coordinates = coordinates(dep);
                if (coordinates == null || !sharesAClass(jar, dep)) {
                    continue; // a directory (nbench's classes) or a test-only jar
                }
                bundled.add(coordinates);
                assertTrue(listing.contains(coordinates + " "), coordinates + " is bundled but not in THIRD-PARTY.txt");
            }
        }
        assertTrue(bundled.size() >= 15, "found only " + bundled);
    }

    @Test
    void intervalsAndComparisonsStillComputeWithTheCutDownCommonsMath(@TempDir Path dir) throws Exception {
        Result run = java(dir, "run", "--in-process", "--msgs", "200", "--warmup", "0", "--iterations", "2",
                "--results-dir", dir.resolve("res").toString());
        assertEquals(0, run.exit, run.out + run.err);
        assertEquals("", run.err);
        assertTrue(run.out.contains("(99.9% CI, N=2)"), run.out);
        Result compare = java(dir, "compare", dir.resolve("res/netty-local.json").toString(),
                dir.resolve("res/mina-vmpipe.json").toString());
        assertEquals(0, compare.exit, compare.out + compare.err);
        assertEquals("", compare.err);
        assertTrue(compare.out.contains("too few iterations"), compare.out);
    }

    /** {@code group:artifact:version} from a local-repository path ({@code .../g/r/o/u/p/artifact/version/x.jar}). */
    private static String coordinates(Path jar) {
        String s = jar.toAbsolutePath().toString().replace(File.separatorChar, '/');
        int repo = s.indexOf("/repository/");
        if (!s.endsWith(".jar") || repo < 0) {
            return null;
        }
        String[] parts = s.substring(repo + "/repository/".length()).split("/");
        String version = parts[parts.length - 2];
        String artifact = parts[parts.length - 3];
        String group = String.join(".", List.of(parts).subList(0, parts.length - 3));
        return group + ":" + artifact + ":" + version;
    }

    /** Whether the dependency's first class file is in nbench.jar. */
    private static boolean sharesAClass(JarFile nbench, Path dep) throws IOException {
        try (JarFile d = new JarFile(dep.toFile())) {
            return d.stream().map(JarEntry::getName)
                    .filter(n -> n.endsWith(".class") && !n.contains("module-info") && !n.startsWith("META-INF/"))
                    .findFirst().map(n -> nbench.getEntry(n) != null).orElse(false);
        }
    }

    private static String entry(String name) throws IOException {
        try (JarFile jar = new JarFile(JAR.toFile())) {
            JarEntry e = jar.getJarEntry(name);
            assertFalse(e == null, name + " is not in " + JAR);
            return new String(jar.getInputStream(e).readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private record Result(int exit, String out, String err) {
    }

    private static Result java(Path dir, String... args) throws Exception {
        List<String> c = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar", JAR.toAbsolutePath().toString()));
        c.addAll(List.of(args));
        Path out = dir.resolve("out.txt");
        Path err = dir.resolve("err.txt");
        Process p = new ProcessBuilder(c).directory(dir.toFile()).redirectOutput(out.toFile())
                .redirectError(err.toFile()).start();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "nbench did not end");
        return new Result(p.exitValue(), Files.readString(out), Files.readString(err));
    }
}
