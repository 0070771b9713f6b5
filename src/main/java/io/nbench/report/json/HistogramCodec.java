package io.nbench.report.json;

import java.nio.ByteBuffer;
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
        return Base64.getEncoder().encodeToString(java.util.Arrays.copyOf(buffer.array(), length));
    }

    /** Decodes; a malformed text is an {@link IllegalArgumentException}. */
    public static Histogram decode(String base64) {
        try {
            return Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(Base64.getDecoder().decode(base64)), 0);
        } catch (DataFormatException | RuntimeException e) {
            throw new IllegalArgumentException("not an HdrHistogram compressed histogram: " + e.getMessage(), e);
        }
    }
}
