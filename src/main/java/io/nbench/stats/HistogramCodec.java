package io.nbench.stats;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Base64;
import java.util.zip.DataFormatException;
import org.HdrHistogram.Histogram;

/**
 * Histograms in the result document: HdrHistogram's own compressed encoding in base64, the same bytes an
 * HdrHistogram interval log line carries, so any HdrHistogram implementation can decode them.
 */
public final class HistogramCodec {

    private HistogramCodec() {
    }

    public static String encode(Histogram h) {
        ByteBuffer buffer = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
        int length = h.encodeIntoCompressedByteBuffer(buffer);
        return Base64.getEncoder().encodeToString(Arrays.copyOf(buffer.array(), length));
    }

    /**
     * Decodes; a malformed text is an {@link IllegalArgumentException} whose message is one line giving the cause.
     * A heap too small for the histogram is an {@link OutOfMemoryError}, not a malformed text, even when
     * HdrHistogram's reflective constructor hands it over wrapped in a RuntimeException.
     */
    public static Histogram decode(String base64) {
        try {
            return Histogram.decodeFromCompressedByteBuffer(bytes(base64), 0);
        } catch (DataFormatException | RuntimeException e) {
            OutOfMemoryError outOfMemory = outOfMemory(e);
            if (outOfMemory != null) {
                throw outOfMemory;
            }
            throw malformed(e);
        }
    }

    private static OutOfMemoryError outOfMemory(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof OutOfMemoryError oom) {
                return oom;
            }
        }
        return null;
    }

    private static ByteBuffer bytes(String base64) {
        return ByteBuffer.wrap(Base64.getDecoder().decode(base64));
    }

    private static IllegalArgumentException malformed(Exception e) {
        return new IllegalArgumentException("not an HdrHistogram compressed histogram (" + cause(e) + ")", e);
    }

    /**
     * The innermost cause, named: HdrHistogram builds the histogram reflectively, so a damaged header arrives
     * wrapped (InvocationTargetException) and often without a message of its own.
     */
    static String cause(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root.getMessage();
        String name = root.getClass().getSimpleName();
        return message == null || message.isBlank() ? name : name + ": " + message.lines().findFirst().orElse("");
    }
}
