package io.nbench.report;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The one way nbench writes a file the user named ({@code --out}, {@code --hdr-log}, {@code --hgrm},
 * {@code run --results-dir}, fork documents). It never destroys what is at the path:
 * <ul>
 * <li>A regular file (new or existing) is written whole or not at all: into a temporary file in the same
 * directory (so the rename never crosses file systems), forced to disk, then renamed over the target. A
 * reader never sees half a document, and a full disk leaves the previous file intact.</li>
 * <li>A symbolic link is followed: its target is replaced, in the target's directory; the link stays.</li>
 * <li>Anything else that exists (a device such as {@code /dev/null}, a FIFO, a socket) is opened and written
 * directly: renaming over it would replace the system's device node or the reader's pipe.</li>
 * <li>A read-only file is refused: one the OS does not let this process write, and also one with no write
 * permission bit at all ({@code chmod a-w}), because root may write any file and such a mode is someone's
 * explicit wish that it stays as it is.</li>
 * <li>An existing file keeps its permissions (and, where the process may set them, its owner and group); a new
 * file gets the default mode of the process's umask (0644 with umask 022), as any shell redirection would.</li>
 * <li>No temporary file is left behind: it is removed when the write fails, and {@link #deleteTemporaries()}
 * removes those of writes still in progress when the JVM is ending on a signal.</li>
 * </ul>
 */
public final class AtomicFiles {

    /** Temporary files of writes in progress, for {@link #deleteTemporaries()}. */
    private static final Set<Path> TEMPORARIES = ConcurrentHashMap.newKeySet();

    private static final int MAX_LINKS = 40; // as Linux's ELOOP limit

    private AtomicFiles() {
    }

    /** Writes {@code data} to {@code target}, whole or not at all (see the class comment). */
    public static void write(Path target, byte[] data) throws IOException {
        try (Pending p = open(target)) {
            p.stream().write(data);
            p.commit();
        }
    }

    /**
     * Starts writing {@code target}: bytes go to {@link Pending#stream()}; a regular file is replaced only by
     * {@link Pending#commit()}, and {@link Pending#close()} without a commit removes what was written.
     */
    public static Pending open(Path target) throws IOException {
        Destination d = resolve(target);
        if (!d.regular()) {
            return new Pending(d.path(), null, FileChannel.open(d.path(), StandardOpenOption.WRITE), null);
        }
        Path tmp = null;
        FileChannel channel = null;
        for (int attempt = 0; channel == null; attempt++) {
            tmp = d.path().resolveSibling("." + d.path().getFileName() + "."
                    + Long.toUnsignedString(ThreadLocalRandom.current().nextLong(), 36) + ".tmp");
            try {
                // An existing file's contents may be private: its copy starts 0600 and gets the file's mode at
                // commit. A new file starts with the umask's mode, which it keeps.
                channel = d.existing() != null && d.existing().posix() != null
                        ? FileChannel.open(tmp, Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
                                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")))
                        : FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
            } catch (FileAlreadyExistsException e) {
                if (attempt > 10) {
                    throw e;
                }
            }
        }
        TEMPORARIES.add(tmp);
        return new Pending(d.path(), tmp, channel, d.existing());
    }

    /**
     * Fails before a long run rather than after it, with the reason {@link #open} would give: the directory
     * must exist and be writable, and what is at the path must be a file nbench may write.
     */
    public static void checkWritable(Path target) throws IOException {
        resolve(target);
    }

    /** One line naming the file and the cause, for "cannot write FILE: ...". */
    public static String describe(IOException e) {
        if (e instanceof NoSuchFileException n) {
            return (n.getReason() != null ? n.getReason() : "no such file or directory") + ": " + n.getFile();
        }
        if (e instanceof AccessDeniedException a) {
            return (a.getReason() != null ? a.getReason() : "permission denied") + ": " + a.getFile();
        }
        if (e instanceof FileSystemException f && f.getReason() != null) {
            return f.getReason() + (f.getFile() != null ? ": " + f.getFile() : "");
        }
        return String.valueOf(e.getMessage());
    }

    /**
     * Deletes the temporary files of writes still in progress. For the signal handler of a command that ends
     * the JVM before a write finished (a stalled disk): afterwards those writes fail, which no longer matters.
     */
    public static void deleteTemporaries() {
        for (Path tmp : TEMPORARIES) {
            try {
                Files.deleteIfExists(tmp);
            } catch (IOException e) {
                // nothing more can be done as the JVM ends
            }
            TEMPORARIES.remove(tmp);
        }
    }

    /** How an existing regular file is recreated: its POSIX attributes, or null where there are none. */
    private record Existing(PosixFileAttributes posix) {
    }

    /** Where the bytes go: a regular file (replaced atomically) or something else (written directly). */
    private record Destination(Path path, boolean regular, Existing existing) {
    }

    private static Destination resolve(Path target) throws IOException {
        BasicFileAttributes a;
        try {
            a = Files.readAttributes(target, BasicFileAttributes.class); // follows links
        } catch (NoSuchFileException e) {
            a = null;
        }
        if (a != null && a.isDirectory()) {
            throw new IOException(target + " is a directory");
        }
        if (a != null && !a.isRegularFile()) {
            // A device, FIFO or socket; /dev/fd/N of a shell's process substitution lands here too.
            refuseReadOnly(target, target);
            return new Destination(target, false, null);
        }
        Path file = a != null ? target.toRealPath() : followDanglingLinks(target);
        Path dir = directoryOf(file);
        if (!Files.isDirectory(dir)) {
            throw new NoSuchFileException(dir.toString(), null, "directory does not exist");
        }
        if (!Files.isWritable(dir)) {
            throw new AccessDeniedException(dir.toString(), null, "directory is not writable (the file is replaced "
                    + "through a temporary file beside it)");
        }
        if (a == null) {
            return new Destination(file, true, null);
        }
        refuseReadOnly(target, file);
        PosixFileAttributeView view = Files.getFileAttributeView(file, PosixFileAttributeView.class);
        return new Destination(file, true, new Existing(view == null ? null : view.readAttributes()));
    }

    /** Read-only: the OS says no, or no write bit is set at all (which root would otherwise ignore). */
    private static void refuseReadOnly(Path named, Path file) throws IOException {
        boolean readOnly = !Files.isWritable(file);
        PosixFileAttributeView view = Files.getFileAttributeView(file, PosixFileAttributeView.class);
        if (!readOnly && view != null) {
            Set<PosixFilePermission> p = view.readAttributes().permissions();
            readOnly = !p.contains(PosixFilePermission.OWNER_WRITE) && !p.contains(PosixFilePermission.GROUP_WRITE)
                    && !p.contains(PosixFilePermission.OTHERS_WRITE);
        }
        if (readOnly) {
            throw new IOException("read-only file, left as it is: make it writable (chmod u+w " + named
                    + ") or choose another path");
        }
    }

    /** A link whose target does not exist yet: the target is created, as a shell redirection would. */
    private static Path followDanglingLinks(Path target) throws IOException {
        Path p = target.toAbsolutePath();
        for (int i = 0; Files.isSymbolicLink(p); i++) {
            if (i == MAX_LINKS) {
                throw new FileSystemException(target.toString(), null, "too many levels of symbolic links");
            }
            p = directoryOf(p).resolve(Files.readSymbolicLink(p)).normalize();
        }
        return p;
    }

    private static Path directoryOf(Path target) {
        Path parent = target.toAbsolutePath().getParent();
        return parent != null ? parent : Path.of(".").toAbsolutePath();
    }

    /** A write in progress; see {@link #open}. */
    public static final class Pending implements AutoCloseable {
        private final Path target;
        private final Path tmp; // null: written directly
        private final FileChannel channel;
        private final Existing existing;
        private final OutputStream stream;
        private IOException failure;
        private boolean done;

        private Pending(Path target, Path tmp, FileChannel channel, Existing existing) {
            this.target = target;
            this.tmp = tmp;
            this.channel = channel;
            this.existing = existing;
            this.stream = new BufferedOutputStream(new OutputStream() {
                @Override
                public void write(int b) throws IOException {
                    write(new byte[] {(byte) b}, 0, 1);
                }

                @Override
                public void write(byte[] b, int off, int len) throws IOException {
                    try {
                        ByteBuffer buf = ByteBuffer.wrap(b, off, len);
                        while (buf.hasRemaining()) {
                            channel.write(buf);
                        }
                    } catch (IOException e) {
                        // Kept for commit(): a PrintStream on top (HdrHistogram's log writer) swallows it.
                        if (failure == null) {
                            failure = e;
                        }
                        throw e;
                    }
                }
            }, 64 * 1024);
        }

        /** Where the bytes go until {@link #commit()}. */
        public OutputStream stream() {
            return stream;
        }

        /** The file finally written (a symbolic link's target). */
        public Path target() {
            return target;
        }

        /** Finishes the write: every byte on disk and, for a regular file, the temporary renamed over the target. */
        public void commit() throws IOException {
            try {
                stream.flush();
                if (failure != null) {
                    throw failure;
                }
                if (tmp != null) {
                    channel.force(true);
                }
                channel.close();
                if (tmp != null) {
                    keepAttributes();
                    try {
                        Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                    } catch (AtomicMoveNotSupportedException e) {
                        Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
                    }
                }
                done = true;
            } finally {
                close();
            }
        }

        private void keepAttributes() throws IOException {
            if (existing == null || existing.posix() == null) {
                return;
            }
            PosixFileAttributes old = existing.posix();
            PosixFileAttributeView view = Files.getFileAttributeView(tmp, PosixFileAttributeView.class,
                    LinkOption.NOFOLLOW_LINKS);
            view.setPermissions(old.permissions());
            try {
                // Only root may give a file away; anyone else replaces a file it may write as its own owner,
                // as every editor that saves through a rename does.
                PosixFileAttributes now = view.readAttributes();
                if (!now.group().equals(old.group())) {
                    view.setGroup(old.group());
                }
                if (!now.owner().equals(old.owner())) {
                    view.setOwner(old.owner());
                }
            } catch (IOException e) {
                // not permitted: the new file is this process's
            }
        }

        /** Without a commit: discards what was written (a regular file's previous content stays). */
        @Override
        public void close() {
            try {
                channel.close();
            } catch (IOException e) {
                // the write already failed or was committed
            }
            if (tmp != null) {
                if (!done) {
                    try {
                        Files.deleteIfExists(tmp);
                    } catch (IOException e) {
                        // cannot do better; the name starts with '.' and ends with .tmp
                    }
                }
                TEMPORARIES.remove(tmp);
            }
        }
    }
}
