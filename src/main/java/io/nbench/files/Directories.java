package io.nbench.files;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** The scratch directories nbench makes for itself (run's monitor tokens, the forks' plans). */
public final class Directories {

    private Directories() {
    }

    /**
     * Removes {@code dir} and everything in it, deepest first; quietly: a directory gone already (removed by another
     * process of the same run) or not removable is left as it is, since one left in the temporary directory is
     * harmless and its owner is ending anyway.
     */
    public static void deleteQuietly(Path dir) {
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (IOException | UncheckedIOException e) {
            // gone already, or not removable: nothing more to do
        }
    }
}
