package io.nbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code ./nbench} launcher, run by bash through symbolic links from another directory (as from
 * {@code ~/bin}): it builds in its own checkout with the checkout's {@code ./mvnw}, never with an {@code mvn} on
 * PATH and never in the link's directory, then runs the jar.
 *
 * <p>The checkout is a copy of the real launcher beside an {@code mvnw} that "builds" by copying a jar that runs
 * nbench's real {@code Main} from this build's classes (a manifest whose Class-Path is the test's class path), so
 * the test does not start a nested Maven build of the project it is part of.
 */
class LauncherTest {

    @TempDir
    Path tmp;

    @Test
    void aSymlinkOnPathBuildsAndRunsInTheCheckoutWithItsOwnWrapper() throws Exception {
        Path checkout = checkout();
        Path jar = classPathJar(tmp.resolve("prepared.jar"));
        executable(checkout.resolve("mvnw"), "#!/bin/sh\n"
                + "pwd -P > mvnw-ran\n"
                + "mkdir -p target && cp '" + jar + "' target/nbench.jar\n");
        // An mvn on PATH that must not be used while the checkout has its wrapper.
        Path pathBin = Files.createDirectories(tmp.resolve("path-bin"));
        executable(pathBin.resolve("mvn"), "#!/bin/sh\ntouch '" + tmp.resolve("mvn-ran") + "'\nexit 1\n");

        Path elsewhere = Files.createDirectories(tmp.resolve("home"));
        Path bin = Files.createDirectories(elsewhere.resolve("bin"));
        Files.createSymbolicLink(bin.resolve("nbench"), checkout.resolve("nbench")); // absolute, as `ln -s "$PWD/nbench"`
        Files.createSymbolicLink(elsewhere.resolve("nb"), Path.of("bin/nbench")); // relative, a link to the link

        for (String invoked : List.of("bin/nbench", "./nb")) {
            Result r = run(elsewhere, pathBin, invoked, "--version");
            assertEquals(0, r.exit, invoked + ": " + r.output);
            assertTrue(r.output.startsWith("nbench "), invoked + ": " + r.output); // stdout, then stderr
            assertFalse(Files.exists(elsewhere.resolve("target")), invoked + " built in the link's directory");
            assertFalse(Files.exists(bin.resolve("target")), invoked + " built in the link's directory");
        }
        assertTrue(Files.isRegularFile(checkout.resolve("target/nbench.jar")));
        assertEquals(checkout.toRealPath().toString(), Files.readString(checkout.resolve("mvnw-ran")).strip());
        assertFalse(Files.exists(tmp.resolve("mvn-ran")), "the mvn on PATH was used instead of ./mvnw");
    }

    /**
     * The first build shows that it is alive: a line with the time so far and the build's step while Maven works
     * (every NBENCH_BUILD_PROGRESS_SECS seconds when stderr is no terminal), then how long it took.
     */
    @Test
    void theFirstBuildSaysHowLongItHasTakenAndWhatItIsDoing() throws Exception {
        Path checkout = checkout();
        Path jar = classPathJar(tmp.resolve("prepared.jar"));
        Path go = tmp.resolve("go");
        // A build that says it compiles, then waits until the test has seen the progress line.
        executable(checkout.resolve("mvnw"), "#!/bin/sh\n"
                + "echo '[INFO] --- compiler:3.13.0:compile (default-compile) @ nbench ---'\n"
                + "while [ ! -f '" + go + "' ]; do sleep 0.1; done\n"
                + "mkdir -p target && cp '" + jar + "' target/nbench.jar\n");
        ProcessBuilder pb = new ProcessBuilder("./nbench", "--version").directory(checkout.toFile());
        pb.environment().put("JAVA", Path.of(System.getProperty("java.home"), "bin", "java").toString());
        pb.environment().put("NBENCH_BUILD_PROGRESS_SECS", "1");
        pb.environment().remove("NBENCH_JAVA_OPTS");
        Process p = pb.start();
        p.getOutputStream().close();
        List<String> lines = new ArrayList<>();
        try (BufferedReader err = new BufferedReader(
                new InputStreamReader(p.getErrorStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = err.readLine()) != null; ) {
                lines.add(line);
                if (line.startsWith("nbench: still building: ")) {
                    Files.writeString(go, "");
                }
            }
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(p.waitFor(60, TimeUnit.SECONDS), "launcher did not end");
            assertEquals(0, p.exitValue(), lines + out);
            assertTrue(out.startsWith("nbench "), out);
        } finally {
            p.destroyForcibly();
        }
        assertTrue(lines.get(0).startsWith("nbench: building target/nbench.jar once (usually 1-3 minutes"), lines.toString());
        assertTrue(lines.stream().anyMatch(l -> l.matches("nbench: still building: 0:\\d\\d so far, compiling")), lines.toString());
        assertTrue(lines.get(lines.size() - 1).matches("nbench: built target/nbench.jar in 0:\\d\\d"), lines.toString());
    }

    /** A checkout with the real launcher, sources and a pom, but no wrapper yet (each test writes its own). */
    private Path checkout() throws IOException {
        Path checkout = Files.createDirectories(tmp.resolve("checkout"));
        Files.copy(Path.of("nbench"), checkout.resolve("nbench"));
        Files.setPosixFilePermissions(checkout.resolve("nbench"), PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.createDirectories(checkout.resolve("src/main"));
        Files.writeString(checkout.resolve("pom.xml"), "<project/>\n");
        return checkout;
    }

    private record Result(int exit, String output) {
    }

    private static Result run(Path dir, Path pathBin, String... command) throws Exception {
        List<String> c = new ArrayList<>(List.of(command));
        Path err = Files.createTempFile(dir.getParent(), "stderr", ".txt");
        ProcessBuilder pb = new ProcessBuilder(c).directory(dir.toFile()).redirectError(err.toFile());
        Map<String, String> env = pb.environment();
        env.put("PATH", pathBin + File.pathSeparator + env.getOrDefault("PATH", "/usr/bin:/bin"));
        env.put("JAVA", Path.of(System.getProperty("java.home"), "bin", "java").toString());
        env.remove("NBENCH_JAVA_OPTS");
        Process p = pb.start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "launcher did not end");
        return new Result(p.exitValue(), out + Files.readString(err));
    }

    /** A jar with no classes: its manifest runs nbench's Main from the test's class path. */
    private static Path classPathJar(Path jar) throws IOException {
        StringBuilder cp = new StringBuilder();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            if (!entry.isEmpty()) {
                cp.append(cp.length() > 0 ? " " : "").append(Path.of(entry).toAbsolutePath().toUri());
            }
        }
        Manifest m = new Manifest();
        m.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        m.getMainAttributes().put(Attributes.Name.MAIN_CLASS, Main.class.getName());
        m.getMainAttributes().put(Attributes.Name.CLASS_PATH, cp.toString());
        try (OutputStream out = Files.newOutputStream(jar); JarOutputStream j = new JarOutputStream(out, m)) {
            j.flush();
        }
        return jar;
    }

    private static void executable(Path file, String script) throws IOException {
        Files.writeString(file, script);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
}
