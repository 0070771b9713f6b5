package io.nbench.protocol.http;

import io.nbench.protocol.ClientCodec;
import io.nbench.protocol.ResponseHead;
import io.nbench.protocol.WireBytes;

/**
 * Frames HTTP/1.1 responses (RFC 9112) in the bytes a connection received, from the response's first
 * byte each time: no state between calls, so one parser serves every connection of every transport, and
 * no allocation nor lock on the way. A response is a status line, header lines, an empty line, then a body
 * of {@code Content-Length} bytes, or chunks ending with a 0-size chunk and trailers, or nothing (HEAD,
 * 1xx, 204, 304). Interim 1xx responses are framed together with the final response that follows them.
 *
 * <p>Lenient where RFC 9112 allows a recipient to be (a bare LF ends a line), strict where a benchmark
 * would otherwise count wrong: a body delimited by the connection's close cannot be timed, and is refused.
 *
 * <p>On the error path a caller passes {@code why} (one slot) to learn the reason; the hot path passes
 * null and no text is built.
 */
final class HttpResponseParser {

    /** The longest head (status line and headers) or chunk line accepted: more is not a response. */
    static final int MAX_HEAD = 64 * 1024;

    private static final byte[] PREFIX = {'H', 'T', 'T', 'P', '/', '1', '.'};

    private HttpResponseParser() {
    }

    /**
     * The complete response's length at {@code in}'s start; minus the bytes it needs at least; or
     * {@link ClientCodec#BAD} with the reason in {@code why[0]} when {@code why} is given.
     */
    static int frame(WireBytes in, boolean headRequest, int maxFrame, String[] why) {
        return frame(in, headRequest, maxFrame, why, null);
    }

    /**
     * {@link #frame(WireBytes, boolean, int, String[])}, and for a complete response also, in the same
     * pass over its head, its {@link #status} with {@link ClientCodec#CLOSES} when it {@link #closes} and
     * its {@link #bodyOffset} into {@code head} (when given): the per-response path reads each head once.
     */
    static int frame(WireBytes in, boolean headRequest, int maxFrame, String[] why, ResponseHead head) {
        int at = 0;
        while (true) {
            int end = frameOne(in, at, headRequest, maxFrame, why, head);
            if (end < 0 || !interim(in, at)) {
                return end;
            }
            at = end;
        }
    }

    /** The status code of the complete response at {@code in}'s start (the final one after any 1xx). */
    static int status(WireBytes in) {
        return code(in, finalStart(in));
    }

    /** Where the body of the complete response at {@code in}'s start begins. */
    static int bodyOffset(WireBytes in) {
        return headEnd(in, finalStart(in));
    }

    /**
     * Whether the server closes the connection after the complete response at {@code in}'s start:
     * {@code Connection: close}, or HTTP/1.0 without {@code Connection: keep-alive}.
     */
    static boolean closes(WireBytes in) {
        int at = finalStart(in);
        boolean http10 = in.getByte(at + 7) == '0';
        int end = headEnd(in, at);
        int line = lineEnd(in, at, end) + 1;
        while (line < end) {
            int eol = lineEnd(in, line, end);
            if (nameIs(in, line, eol, "connection")) {
                int v = valueStart(in, line + "connection".length(), eol);
                if (containsToken(in, v, trimEnd(in, v, eol), "close")) {
                    return true;
                }
                if (containsToken(in, v, trimEnd(in, v, eol), "keep-alive")) {
                    http10 = false;
                }
            }
            line = eol + 1;
        }
        return http10;
    }

    // ---- one response ------------------------------------------------------------------------------

    private static int frameOne(WireBytes in, int at, boolean headRequest, int maxFrame, String[] why,
            ResponseHead head) {
        int length = in.length();
        int prefix = Math.min(PREFIX.length, length - at);
        for (int i = 0; i < prefix; i++) {
            if (in.getByte(at + i) != PREFIX[i]) {
                return bad(why, "it does not start with 'HTTP/1.'");
            }
        }
        int statusEnd = at + 12;
        if (length <= statusEnd) {
            return -(statusEnd + 1);
        }
        byte minor = in.getByte(at + 7);
        byte sp = in.getByte(at + 8);
        byte after = in.getByte(statusEnd);
        if (minor != '0' && minor != '1' || sp != ' ' || !digit(in.getByte(at + 9)) || !digit(in.getByte(at + 10))
                || !digit(in.getByte(at + 11)) || after != ' ' && after != '\r' && after != '\n' && !digit(after)) {
            return bad(why, "its status line is not 'HTTP/1.x NNN reason'");
        }
        int code = (in.getByte(at + 9) - '0') * 100 + (in.getByte(at + 10) - '0') * 10 + in.getByte(at + 11) - '0';
        if (digit(after) || code < 100 || code > 599) {
            return bad(why, why == null ? null : HttpClientCodec.badStatus(statusText(in, at + 9)));
        }
        // Headers: one line at a time until the empty line, each line's bytes read once (its end and
        // its colon in the same loop); the name's length picks the few headers that matter.
        long contentLength = -1;
        boolean chunked = false;
        boolean close = false;
        boolean keepAlive = false;
        int line = nextLine(in, statusEnd, length);
        while (true) {
            if (line < 0) {
                return length - at > MAX_HEAD ? bad(why, "its head is longer than " + MAX_HEAD + " bytes")
                        : -(length + 1);
            }
            int colon = -1;
            int eol = line;
            while (eol < length) {
                byte b = in.getByte(eol);
                if (b == '\n') {
                    break;
                }
                if (b == ':' && colon < 0) {
                    colon = eol;
                }
                eol++;
            }
            if (eol == length) {
                return length - at > MAX_HEAD ? bad(why, "its head is longer than " + MAX_HEAD + " bytes")
                        : -(length + 1);
            }
            if (eol == line || eol == line + 1 && in.getByte(line) == '\r') {
                line = eol + 1;
                break;
            }
            if (colon <= line) {
                return bad(why, "a header line has no 'name:'");
            }
            int nameLength = colon - line;
            if (nameLength == 14 && nameIs(in, line, eol, "content-length")) {
                int v = valueStart(in, colon, eol);
                long n = number(in, v, trimEnd(in, v, eol));
                if (n < 0 || contentLength >= 0 && n != contentLength) {
                    return bad(why, "its Content-Length is not one decimal number");
                }
                contentLength = n;
            } else if (nameLength == 17 && nameIs(in, line, eol, "transfer-encoding")) {
                int v = valueStart(in, colon, eol);
                if (!endsWithIgnoreCase(in, v, trimEnd(in, v, eol), "chunked")) {
                    return bad(why, "its Transfer-Encoding does not end with chunked");
                }
                chunked = true;
            } else if (nameLength == 10 && head != null && nameIs(in, line, eol, "connection")) {
                int v = valueStart(in, colon, eol);
                int vEnd = trimEnd(in, v, eol);
                close |= containsToken(in, v, vEnd, "close");
                keepAlive |= containsToken(in, v, vEnd, "keep-alive");
            }
            line = eol + 1;
        }
        if (chunked && contentLength >= 0 && minor == '1') {
            return bad(why, HttpClientCodec.BOTH_LENGTHS);
        }
        if (head != null) {
            // As closes(): Connection: close, or HTTP/1.0 without Connection: keep-alive.
            boolean closes = close || minor == '0' && !keepAlive;
            head.set(-1, code | (closes ? ClientCodec.CLOSES : 0), line);
        }
        if (headRequest || code < 200 || code == 204 || code == 304) {
            return line;
        }
        if (chunked) {
            return chunks(in, line, maxFrame, why);
        }
        if (contentLength < 0) {
            return bad(why, HttpClientCodec.NO_LENGTH);
        }
        if (contentLength > maxFrame) {
            return bad(why, HttpClientCodec.bodyTooLarge(contentLength, maxFrame));
        }
        long end = line + contentLength;
        return length >= end ? (int) end : -(int) end;
    }

    /** A chunked body from {@code at}: its end (after the trailers), minus the bytes needed, or BAD. */
    private static int chunks(WireBytes in, int at, int maxFrame, String[] why) {
        int length = in.length();
        long body = 0;
        int p = at;
        while (true) {
            int eol = lineEnd(in, p, length);
            if (eol < 0) {
                return length - p > MAX_HEAD ? bad(why, "a chunk size line is longer than " + MAX_HEAD + " bytes")
                        : -(length + 1);
            }
            long size = 0;
            int i = p;
            for (; i < eol; i++) {
                int d = Character.digit(in.getByte(i), 16);
                if (d < 0) {
                    break;
                }
                size = size * 16 + d;
                if (size > maxFrame) {
                    return bad(why, "a chunk is larger than the client accepts (" + maxFrame + " bytes)");
                }
            }
            byte stop = i < eol ? in.getByte(i) : (byte) '\n';
            if (i == p || stop != ';' && stop != ' ' && stop != '\t' && stop != '\r' && stop != '\n') {
                return bad(why, "a chunk size is not a hexadecimal number");
            }
            body += size;
            if (body > maxFrame) {
                return bad(why, "its chunked body is larger than the client accepts (" + maxFrame + " bytes)");
            }
            int data = eol + 1;
            if (size == 0) {
                return trailers(in, data, why);
            }
            long crlf = data + size;
            if (length < crlf + 2) {
                return -(int) (crlf + 2);
            }
            if (in.getByte((int) crlf) != '\r' || in.getByte((int) crlf + 1) != '\n') {
                return bad(why, "a chunk of " + size + " bytes is not followed by CRLF");
            }
            p = (int) crlf + 2;
        }
    }

    /** Trailer lines after the last chunk, up to the empty line: the response's end, or the bytes needed. */
    private static int trailers(WireBytes in, int at, String[] why) {
        int length = in.length();
        int line = at;
        while (true) {
            int eol = lineEnd(in, line, length);
            if (eol < 0) {
                return length - at > MAX_HEAD ? bad(why, "its trailers are longer than " + MAX_HEAD + " bytes")
                        : -(length + 1);
            }
            if (eol == line || eol == line + 1 && in.getByte(line) == '\r') {
                return eol + 1;
            }
            line = eol + 1;
        }
    }

    // ---- helpers -----------------------------------------------------------------------------------

    private static int bad(String[] why, String reason) {
        if (why != null) {
            why[0] = reason;
        }
        return ClientCodec.BAD;
    }

    /** A 1xx other than 101 (which switches protocols and is final): a final response follows. */
    private static boolean interim(WireBytes in, int at) {
        int code = code(in, at);
        return code >= 100 && code < 200 && code != 101;
    }

    /** Where the final response starts in a complete response (after any interim 1xx ones). */
    private static int finalStart(WireBytes in) {
        int at = 0;
        while (in.getByte(at + 9) == '1' && interim(in, at)) {
            at = headEnd(in, at);
        }
        return at;
    }

    private static int code(WireBytes in, int at) {
        return (in.getByte(at + 9) - '0') * 100 + (in.getByte(at + 10) - '0') * 10 + in.getByte(at + 11) - '0';
    }

    /** The index just after the empty line that ends the head starting at {@code at} (complete). */
    private static int headEnd(WireBytes in, int at) {
        int length = in.length();
        int line = nextLine(in, at, length);
        while (line >= 0) {
            int eol = lineEnd(in, line, length);
            if (eol < 0) {
                return length;
            }
            if (eol == line || eol == line + 1 && in.getByte(line) == '\r') {
                return eol + 1;
            }
            line = eol + 1;
        }
        return length;
    }

    /** The start of the line after the one at {@code at}, or -1 when that line is not complete. */
    private static int nextLine(WireBytes in, int at, int limit) {
        int eol = lineEnd(in, at, limit);
        return eol < 0 ? -1 : eol + 1;
    }

    /** The index of the LF ending the line at {@code from}, or -1 before {@code limit}. */
    private static int lineEnd(WireBytes in, int from, int limit) {
        for (int i = from; i < limit; i++) {
            if (in.getByte(i) == '\n') {
                return i;
            }
        }
        return -1;
    }

    private static int indexOf(WireBytes in, int from, int limit, byte b) {
        for (int i = from; i < limit; i++) {
            if (in.getByte(i) == b) {
                return i;
            }
        }
        return -1;
    }

    /** Whether the header line at {@code line} is named {@code name} (lower case), ignoring case. */
    private static boolean nameIs(WireBytes in, int line, int eol, String name) {
        int n = name.length();
        if (line + n >= eol || in.getByte(line + n) != ':') {
            return false;
        }
        for (int i = 0; i < n; i++) {
            if ((in.getByte(line + i) | 0x20) != name.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    /** The first byte of a header line's value: after its colon (at {@code colon}) and any spaces. */
    private static int valueStart(WireBytes in, int colon, int eol) {
        int v = colon + 1;
        while (v < eol && (in.getByte(v) == ' ' || in.getByte(v) == '\t')) {
            v++;
        }
        return v;
    }

    /** The end of a value without the trailing spaces and CR. */
    private static int trimEnd(WireBytes in, int from, int eol) {
        int e = eol;
        while (e > from && (in.getByte(e - 1) == ' ' || in.getByte(e - 1) == '\t' || in.getByte(e - 1) == '\r')) {
            e--;
        }
        return e;
    }

    /** A decimal number of up to 18 digits, or -1. */
    private static long number(WireBytes in, int from, int to) {
        if (from == to || to - from > 18) {
            return -1;
        }
        long n = 0;
        for (int i = from; i < to; i++) {
            byte b = in.getByte(i);
            if (!digit(b)) {
                return -1;
            }
            n = n * 10 + b - '0';
        }
        return n;
    }

    /** The status code's digits as sent (at most 12 shown), for an error's message: error path only. */
    private static String statusText(WireBytes in, int from) {
        StringBuilder code = new StringBuilder();
        for (int i = from; i < in.length() && code.length() < 12 && digit(in.getByte(i)); i++) {
            code.append((char) in.getByte(i));
        }
        return code.toString();
    }

    private static boolean digit(byte b) {
        return b >= '0' && b <= '9';
    }

    private static boolean endsWithIgnoreCase(WireBytes in, int from, int to, String word) {
        int n = word.length();
        if (to - from < n) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            if ((in.getByte(to - n + i) | 0x20) != word.charAt(i)) {
                return false;
            }
        }
        return to - from == n || in.getByte(to - n - 1) == ',' || in.getByte(to - n - 1) == ' '
                || in.getByte(to - n - 1) == '\t';
    }

    /** Whether the comma-separated list in [from, to) holds {@code token} (lower case), ignoring case. */
    private static boolean containsToken(WireBytes in, int from, int to, String token) {
        int n = token.length();
        int start = from;
        for (int i = from; i <= to; i++) {
            if (i == to || in.getByte(i) == ',') {
                int s = start;
                int e = i;
                while (s < e && (in.getByte(s) == ' ' || in.getByte(s) == '\t')) {
                    s++;
                }
                while (e > s && (in.getByte(e - 1) == ' ' || in.getByte(e - 1) == '\t')) {
                    e--;
                }
                if (e - s == n && matchesIgnoreCase(in, s, token)) {
                    return true;
                }
                start = i + 1;
            }
        }
        return false;
    }

    private static boolean matchesIgnoreCase(WireBytes in, int at, String word) {
        for (int i = 0; i < word.length(); i++) {
            if ((in.getByte(at + i) | 0x20) != word.charAt(i)) {
                return false;
            }
        }
        return true;
    }
}
