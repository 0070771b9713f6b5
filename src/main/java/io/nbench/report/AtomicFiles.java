package io.nbench.report;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Result files are written whole or not at all: into a temporary file in the target's own directory (so
 * the rename never crosses file systems), then renamed over the target. A reader (CI, a dashboard polling
 * the file) never sees half a document, and a full disk leaves the previous file intact.
 */
public final class AtomicFiles {

    private AtomicFiles() {
    }

    public static void write(Path target, byte[] data) throws IOException {
        Path dir = directoryOf(target);
        Path tmp = Files.createTempFile(dir, "." + target.getFileName(), ".tmp");
        try {
            Files.write(tmp, data);
            try {
                Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /** Fails before a long run rather than after it: the directory must exist and be writable. */
    public static void checkWritable(Path target) throws IOException {
        Path dir = directoryOf(target);
        if (!Files.isDirectory(dir)) {
            throw new NoSuchFileException(dir.toString(), null, "directory does not exist");
        }
        if (!Files.isWritable(dir)) {
            throw new AccessDeniedException(dir.toString(), null, "directory is not writable");
        }
        if (Files.isDirectory(target)) {
            throw new IOException(target + " is a directory");
        }
    }

    /** One line naming the file and the cause, for "cannot write FILE: ...". */
    public static String describe(IOException e) {
        if (e instanceof NoSuchFileException n) {
            return (n.getReason() != null ? n.getReason() : "no such file or directory") + ": " + n.getFile();
        }
        if (e instanceof AccessDeniedException a) {
            return (a.getReason() != null ? a.getReason() : "permission denied") + ": " + a.getFile();
        }
        return String.valueOf(e.getMessage());
    }

    private static Path directoryOf(Path target) {
        Path parent = target.toAbsolutePath().getParent();
        return parent != null ? parent : Path.of(".").toAbsolutePath();
    }
}
