package io.nbench.cli;

import io.nbench.client.ExitCode;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nbench.report.json.ResultDocument;
import io.nbench.testkit.ResultDocs;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What {@code --out}, {@code --hdr-log} and {@code --hgrm} do to what is already at the path, through the real
 * CLI against the shared netty server: real files, symbolic links, a FIFO, device nodes, a read-only file, a
 * full device. Device nodes are this test's own ({@code mknod} in its directory), never the system's.
 */
class ResultFilesTest {

    private static final int FIFO = 0010000;
    private static final int CHARACTER_DEVICE = 0020000;

    @TempDir
    Path dir;

    /** The file type bits of st_mode, the link itself not followed. */
    private static int type(Path p) throws IOException {
        return (Integer) Files.getAttribute(p, "unix:mode", LinkOption.NOFOLLOW_LINKS) & 0170000;
    }

    private static CliTest.Outcome client(String option, Path file) {
        return OutputFormatsTest.run(OutputFormatsTest.small("--msgs", "50", "--warmup", "0", "--iterations", "1",
                option, file.toString()));
    }

    /** Names in the test directory: no temporary file may be among them. */
    private Set<String> names() throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(f -> f.getFileName().toString()).collect(Collectors.toSet());
        }
    }

    private static boolean isDocument(Path file) throws IOException {
        return ResultDocument.SCHEMA.equals(ResultDocs.read(Files.readString(file)).path("schema").asText());
    }

    /** A character device of this test (1,3 is null, 1,7 is full); null where the process may not create one. */
    private Path device(String name, int minor) throws Exception {
        Path p = dir.resolve(name);
        Process mknod = new ProcessBuilder("mknod", "-m", "666", p.toString(), "c", "1", Integer.toString(minor))
                .redirectErrorStream(true).start();
        mknod.getInputStream().readAllBytes();
        if (mknod.waitFor() == 0) {
            return p;
        }
        // Not root: the system's node is safe from replacement (its directory is not writable), so use it.
        Path system = Path.of("/dev", name);
        Assumptions.assumeFalse(Files.isWritable(system.getParent()), "cannot create a device node here");
        return system;
    }

    @Test
    void readOnlyFileIsRefusedWithExit1AndLeftAsItIsEvenForRoot() throws IOException {
        Path file = dir.resolve("r.json");
        Files.writeString(file, "previous");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("r--r--r--"));
        for (String option : List.of("--out", "--hdr-log", "--hgrm")) {
            CliTest.Outcome o = client(option, file);
            assertEquals(ExitCode.COULD_NOT_RUN, o.code(), option + ": " + o.out() + o.err());
            assertEquals(List.of("nbench client: cannot write " + option + " " + file + ": read-only file, left as it "
                    + "is: make it writable (chmod u+w " + file + ") or choose another path"), o.err().lines().toList());
            assertEquals("previous", Files.readString(file));
            assertEquals("r--r--r--", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        }
        assertEquals(Set.of("r.json"), names());
    }

    @Test
    void symbolicLinkIsFollowedAndItsTargetReplacedInItsOwnDirectory() throws IOException {
        Path real = Files.createDirectory(dir.resolve("real"));
        Path target = real.resolve("target.json");
        Files.writeString(target, "previous");
        Path link = Files.createSymbolicLink(dir.resolve("link.json"), Path.of("real", "target.json"));
        Path dangling = Files.createSymbolicLink(dir.resolve("dangling.json"), Path.of("real", "new.json"));

        CliTest.Outcome o = client("--out", link);
        assertEquals(ExitCode.OK, o.code(), o.out() + o.err());
        assertTrue(Files.isSymbolicLink(link), "the link stays a link");
        assertEquals(Path.of("real", "target.json"), Files.readSymbolicLink(link));
        assertTrue(isDocument(target), "the link's target holds the document");

        CliTest.Outcome created = client("--out", dangling);
        assertEquals(ExitCode.OK, created.code(), created.out() + created.err());
        assertTrue(Files.isSymbolicLink(dangling));
        assertTrue(isDocument(real.resolve("new.json")), "a dangling link's target is created");
        assertEquals(Set.of("real", "link.json", "dangling.json"), names());
        try (Stream<Path> files = Files.list(real)) {
            assertEquals(Set.of("target.json", "new.json"),
                    files.map(f -> f.getFileName().toString()).collect(Collectors.toSet()), "no temporary file");
        }
    }

    @Test
    void existingFileKeepsItsModeAndANewOneGetsTheUmasksMode() throws IOException {
        Path kept = dir.resolve("kept.json");
        Files.writeString(kept, "previous");
        Files.setPosixFilePermissions(kept, PosixFilePermissions.fromString("rw-r-----"));
        Path fresh = dir.resolve("fresh.json");
        Path reference = Files.createFile(dir.resolve("reference")); // the mode this process's umask gives

        assertEquals(ExitCode.OK, client("--out", kept).code());
        assertEquals(ExitCode.OK, client("--out", fresh).code());
        assertTrue(isDocument(kept));
        assertEquals("rw-r-----", PosixFilePermissions.toString(Files.getPosixFilePermissions(kept)));
        assertEquals(Files.getPosixFilePermissions(reference), Files.getPosixFilePermissions(fresh));
        assertFalse(PosixFilePermissions.toString(Files.getPosixFilePermissions(fresh)).equals("rw-------"),
                "not the 0600 of a temporary file");
        assertEquals(Set.of("kept.json", "fresh.json", "reference"), names());
    }

    @Test
    void fifoIsWrittenDirectlyAndStaysAFifo() throws Exception {
        Path fifo = dir.resolve("fifo");
        Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).start();
        Assumptions.assumeTrue(mkfifo.waitFor() == 0, "mkfifo is not available");
        CompletableFuture<String> reader = CompletableFuture.supplyAsync(() -> {
            try (InputStream in = Files.newInputStream(fifo)) {
                return new String(in.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                return "unreadable: " + e;
            }
        });
        CliTest.Outcome o = client("--out", fifo);
        assertEquals(ExitCode.OK, o.code(), o.out() + o.err());
        String read = reader.get(30, TimeUnit.SECONDS);
        assertEquals(ResultDocument.SCHEMA, ResultDocs.read(read).path("schema").asText(), read);
        assertEquals(FIFO, type(fifo), "still a FIFO");
        assertEquals(Set.of("fifo"), names());
    }

    @ParameterizedTest
    @ValueSource(strings = {"--out", "--hdr-log", "--hgrm"})
    void deviceNodeIsWrittenDirectlyAndStaysADevice(String option) throws Exception {
        Path devNull = device("null", 3);
        CliTest.Outcome o = client(option, devNull);
        assertEquals(ExitCode.OK, o.code(), o.out() + o.err());
        assertEquals("", o.err());
        assertEquals(CHARACTER_DEVICE, type(devNull), devNull + " is still a device node");
        assertEquals(0, Files.size(devNull));
        if (devNull.startsWith(dir)) {
            assertEquals(Set.of("null"), names());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"--out", "--hdr-log", "--hgrm"})
    void fullDiskIsExit1WithOneLineAndTheTextNeverSaysPass(String option) throws Exception {
        Path full = device("full", 7); // every write fails with ENOSPC, as on a full disk
        CliTest.Outcome o = client(option, full);
        assertEquals(ExitCode.COULD_NOT_RUN, o.code(), o.out() + o.err());
        assertEquals(List.of("nbench client: cannot write " + option + " " + full + ": No space left on device"),
                o.err().lines().toList());
        assertFalse(o.out().contains("PASS"), o.out());
        assertTrue(o.out().strip().endsWith("Result: ABORTED: cannot write " + option + " " + full
                + ": No space left on device"), o.out());
        assertTrue(o.out().contains("All 1 iterations merged"), "the figures are still printed: " + o.out());
        assertEquals(CHARACTER_DEVICE, type(full), "still a device node");
    }

    @Test
    void fullDiskInASweepEndsWithAbortedNotPass() throws Exception {
        Path full = device("full", 7);
        CliTest.Outcome o = OutputFormatsTest.run(OutputFormatsTest.small("--msgs", "50", "--warmup", "0",
                "--iterations", "1", "--size", "100,200", "--out", full.toString()));
        assertEquals(ExitCode.COULD_NOT_RUN, o.code(), o.out() + o.err());
        String last = o.out().strip().lines().reduce((a, b) -> b).orElse("");
        assertEquals("Result: ABORTED (exit code 1): cannot write --out " + full + ": No space left on device", last);
    }

    @Test
    void forksRefuseADeviceAsOutBeforeAnyForkStarts() throws Exception {
        // The fork documents go beside --out: beside /dev/null they would be created in /dev.
        Path devNull = device("null", 3);
        CliTest.Outcome o = OutputFormatsTest.run(OutputFormatsTest.small("--forks", "2", "--out", devNull.toString()));
        assertEquals(ExitCode.USAGE, o.code(), o.out() + o.err());
        assertEquals(1, o.err().strip().lines().count(), o.err());
        assertTrue(o.err().contains(devNull + " is not a regular file"), o.err());
        assertEquals("", o.out(), "no fork started");
        assertFalse(Files.exists(devNull.resolveSibling("null.fork1.json")));
        assertEquals(CHARACTER_DEVICE, type(devNull));
    }

    @Test
    void failedWriteLeavesThePreviousFileAndNoTemporaryFile() throws Exception {
        // A directory at the path cannot be replaced: refused before the run, nothing created beside it.
        Path taken = Files.createDirectory(dir.resolve("taken.json"));
        CliTest.Outcome o = client("--out", taken);
        assertEquals(ExitCode.COULD_NOT_RUN, o.code());
        assertEquals(List.of("nbench client: cannot write --out " + taken + ": " + taken + " is a directory"),
                o.err().lines().toList());
        assertEquals(Set.of("taken.json"), names());
    }
}
