package io.nbench.files;

import io.nbench.units.Sizes;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Reads a file a user names (a PEM file, a token file, a request body, an @-file) whole, but never more than a
 * limit: a regular file larger than it is refused before a byte is read, and anything else (a pipe, a device
 * such as {@code /dev/zero}, whose size says 0, or a file that grows meanwhile) is read as a stream of at most
 * the limit and one byte more, so no input can exhaust the heap or keep nbench reading. Result documents are
 * bounded by their JSON parser instead ({@code report.json.ResultReader}, {@code --max-input}), which reads them
 * as a stream without a copy of the text.
 */
public final class BoundedFile {

    /** The file is beyond the limit: {@link #beyond} words it for a message naming the file. */
    public static final class TooLarge extends IOException {
        private static final long serialVersionUID = 1L;

        private final long size;
        private final int limit;

        TooLarge(Path file, long size, int limit) {
            super(file + (size >= 0 ? " is " + Sizes.format(size) + "," : " goes on") + " beyond the "
                    + Sizes.format(limit) + " nbench reads of it");
            this.size = size;
            this.limit = limit;
        }

        /** The file's size, or -1 when it is not a regular file (it went on past the limit). */
        public long size() {
            return size;
        }

        public int limit() {
            return limit;
        }

        /**
         * "goes on beyond the 1 MiB {@code what}" for a stream, "is 3.0 MiB, beyond the 1 MiB {@code what}" for
         * a regular file, e.g. with {@code what} "nbench reads of a PEM file".
         */
        public String beyond(String what) {
            return (size >= 0 ? "is " + Sizes.format(size) + "," : "goes on") + " beyond the " + Sizes.format(limit)
                    + " " + what;
        }
    }

    private BoundedFile() {
    }

    /**
     * The bytes of {@code file}, at most {@code maxBytes} of them.
     *
     * @throws TooLarge   when there are more
     * @throws IOException when the file cannot be read (missing, denied, a directory)
     */
    public static byte[] read(Path file, int maxBytes) throws IOException {
        if (maxBytes < 0 || maxBytes == Integer.MAX_VALUE) {
            throw new IllegalArgumentException("a limit of " + maxBytes + " bytes");
        }
        // A regular file's size is known: one beyond the limit is refused without reading it. Devices and
        // pipes say 0 (or anything): for them only what is read counts.
        if (Files.isRegularFile(file)) {
            long size = Files.size(file);
            if (size > maxBytes) {
                throw new TooLarge(file, size, maxBytes);
            }
        }
        try (InputStream in = Files.newInputStream(file)) {
            byte[] bytes = in.readNBytes(maxBytes + 1);
            if (bytes.length > maxBytes) {
                throw new TooLarge(file, -1, maxBytes);
            }
            return bytes;
        }
    }
}
