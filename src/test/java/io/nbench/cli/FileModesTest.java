package io.nbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.nbench.protocol.Protocol;
import io.nbench.testkit.NbenchProcess;
import io.nbench.testkit.TestMatrix;
import io.nbench.testkit.TestServers;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every file nbench creates gets the mode the shell's umask gives a new file (0644 under umask 022, 0640 under
 * 027, 0600 under 077), as a shell redirection would, not the 0600 of the temporary file it is written through:
 * {@code --out}, {@code --hgrm}, {@code --hdr-log}, the fork documents of {@code --forks}, and
 * {@code run --results-dir}; each in a child JVM started under that umask.
 *
 * <p>Every commit runs umask 027 alone: its 0640 is neither the temporary file's 0600 (a file that kept it
 * fails, as it failed under 022) nor a fixed 0644 (a mode set without the umask fails, as it failed under 077).
 * {@code -Pmatrix} adds 022 and 077. Each umask costs five JVMs (about 28 s in CI).
 */
@EnabledOnOs({OS.LINUX, OS.MAC})
class FileModesTest {

    @TempDir
    Path dir;

    static Stream<Arguments> umasks() {
        Stream<Arguments> quick = Stream.of(Arguments.of("027", "rw-r-----"));
        return TestMatrix.FULL
                ? Stream.concat(quick, Stream.of(Arguments.of("022", "rw-r--r--"), Arguments.of("077", "rw-------")))
                : quick;
    }

    @ParameterizedTest
    @MethodSource("umasks")
    void newResultFilesGetTheUmasksMode(String umask, String mode) throws Exception {
        String port = Integer.toString(TestServers.get("nio", Protocol.FRAMED).address().getPort());
        NbenchProcess.Result client = NbenchProcess.run(dir, umask, "client", "--port", port, "--msgs", "100",
                "--warmup", "0", "--iterations", "1", "--out", "r.json", "--hgrm", "r.hgrm", "--hdr-log", "r.hlog");
        assertEquals(0, client.exit(), client.all());
        NbenchProcess.Result forks = NbenchProcess.run(dir, umask, "client", "--port", port, "--msgs", "100",
                "--warmup", "0", "--iterations", "1", "--forks", "2", "--out", "f.json");
        assertEquals(0, forks.exit(), forks.all());
        NbenchProcess.Result run = NbenchProcess.run(dir, umask, "run", "--in-process", "--servers", "netty-local",
                "--msgs", "100", "--warmup", "0", "--iterations", "1", "--results-dir", "results");
        assertEquals(0, run.exit(), run.all());

        Map<String, String> expected = new TreeMap<>();
        // --forks: each fork's document and their join at --out.
        for (String f : new String[] {"r.json", "r.hgrm", "r.hlog", "f.fork1.json", "f.fork2.json", "f.json",
            "results/netty-local.json"}) {
            expected.put(f, mode);
        }
        assertEquals(expected, modes(), "files made under umask " + umask);
    }

    /** Every regular file under the directory, with its mode. */
    private Map<String, String> modes() throws IOException {
        Map<String, String> m = new TreeMap<>();
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path f : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
                m.put(dir.relativize(f).toString(), PosixFilePermissions.toString(Files.getPosixFilePermissions(f)));
            }
        }
        return m;
    }
}
