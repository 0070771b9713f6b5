package io.nbench.load;

import io.nbench.protocol.RequestTemplate;
import io.nbench.transport.PayloadView;

/**
 * Checks a response payload against the request it answers: the length, the id stamp in the first
 * eight bytes, and (when asked) every byte, eight at a time against a precomputed image of the
 * expected payload. No allocation per check.
 */
final class ResponseVerifier {

    private final int length;
    private final byte[] expected;
    private final long[] expectedWords;
    private final int stampBytes;
    /**
     * Whether payloads carry the id, decided once: asked of the template for every echo response, it
     * was two dependent loads and a compare per message (0.36 % of the nio I/O thread at 50 x 16).
     */
    private final boolean carriesId;

    ResponseVerifier(RequestTemplate template) {
        this.length = template.responseLength();
        this.expected = new byte[length];
        for (int i = 0; i < length; i++) {
            expected[i] = template.expectedResponseByte(0, i);
        }
        this.expectedWords = new long[length / 8];
        for (int w = 0; w < expectedWords.length; w++) {
            long v = 0;
            for (int b = 0; b < 8; b++) {
                v = (v << 8) | (expected[w * 8 + b] & 0xFF);
            }
            expectedWords[w] = v;
        }
        this.carriesId = template.payloadCarriesId();
        this.stampBytes = carriesId ? Math.min(8, length) : 0;
    }

    /** The id carried in an echo payload's first eight bytes, or -1 when the message is too small to carry it. */
    long stampedId(PayloadView payload) {
        return carriesId && payload.length() >= 8 ? payload.getLong(0) : -1;
    }

    /** The length only: enough where the id was read from the stamp itself. */
    boolean checkLength(PayloadView payload) {
        return payload.length() == length;
    }

    /** Length and id stamp only: cheap enough for every message. */
    boolean checkHeader(long id, PayloadView payload) {
        if (payload.length() != length) {
            return false;
        }
        if (stampBytes == 8) {
            return payload.getLong(0) == id;
        }
        for (int i = 0; i < stampBytes; i++) {
            if (payload.getByte(i) != (byte) (id >>> (56 - 8 * i))) {
                return false;
            }
        }
        return true;
    }

    /** Every byte after the stamp. Assumes {@link #checkHeader} passed. */
    boolean checkBody(PayloadView payload) {
        int i = stampBytes == 8 ? 8 : stampBytes;
        if ((i & 7) == 0) {
            for (; i + 8 <= length; i += 8) {
                if (payload.getLong(i) != expectedWords[i >> 3]) {
                    return false;
                }
            }
        }
        for (; i < length; i++) {
            if (payload.getByte(i) != expected[i]) {
                return false;
            }
        }
        return true;
    }
}
