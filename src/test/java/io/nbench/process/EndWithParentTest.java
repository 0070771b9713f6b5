package io.nbench.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a child does once its parent is gone, in this JVM (RunFilesTest kills a real run): stdin's EOF is the
 * parent's end whatever came before it, and only a directory nbench created is removed, however the property
 * is set. A child is told in its environment, not in the JVM flags a client reports.
 */
class EndWithParentTest {

    @Test
    void eofEndsTheWatchWhateverTheParentWroteBefore() {
        EndWithParent.awaitEof(new ByteArrayInputStream(new byte[1000])); // returns: the test would hang otherwise
    }

    @Test
    void onlyADirectoryNbenchCreatedIsRemoved(@TempDir Path dir) throws Exception {
        Path scratch = Files.createDirectories(dir.resolve("nbench-run123").resolve("sub"));
        Files.writeString(scratch.resolve("nio.monitor-token"), "secret\n");
        Path other = Files.createDirectories(dir.resolve("results"));
        Files.writeString(other.resolve("keep.json"), "{}");
        EndWithParent.removeScratch(other);
        EndWithParent.removeScratch(dir.resolve("nbench-run123"));
        EndWithParent.removeScratch(dir.resolve("nbench-gone")); // already removed (run's other server): quiet
        assertFalse(Files.exists(dir.resolve("nbench-run123")));
        assertTrue(Files.isRegularFile(other.resolve("keep.json")), "a directory not named nbench-* stays");
    }

    @Test
    void aChildIsToldInItsEnvironmentNotInItsFlags() {
        ProcessBuilder fork = ChildJvm.builder(true, List.of("client", "--plan", "p.json"), Path.of("/tmp/nbench-forks1"));
        assertEquals("/tmp/nbench-forks1", fork.environment().get(EndWithParent.ENV));
        assertEquals(List.of(), fork.command().stream().filter(w -> w.contains("nbench-forks1")).toList());
        assertEquals("", ChildJvm.builder(false, List.of("server"), null).environment().get(EndWithParent.ENV),
                "a child with no directory to remove still ends with its parent");
    }
}
