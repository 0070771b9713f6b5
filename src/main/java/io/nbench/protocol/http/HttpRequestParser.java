package io.nbench.protocol.http;

import io.nbench.protocol.ServerCodec;
import java.nio.ByteBuffer;

/**
 * The server side of HTTP/1.1 (RFC 9112) over plain {@link ByteBuffer}s, for every transport that runs a
 * protocol's {@link ServerCodec}: any method and target is answered {@code 200} with a body of
 * {@code --response-size} bytes, in request order (pipelining), and the connection kept open unless the
 * request says otherwise ({@code Connection: close}, or HTTP/1.0 without {@code Connection: keep-alive}).
 * A malformed request is answered {@code 400}, a body over {@code --max-frame} {@code 413}, a request line and
 * header section over {@link #MAX_HEAD} bytes {@code 431}, a version other than 1.1 and 1.0 {@code 505}: each with a
 * one-line body, then the connection closes ({@link #PROTOCOL_ERROR}).
 *
 * <p>A byte-at-a-time state machine that consumes all of its input on every call, keeping its state between
 * calls: no line is ever held, so a request of any size passes through buffers of any size (as framed's
 * parser), and it allocates nothing but on the error path. Header names are matched while they arrive, case
 * insensitively, against the three that matter (Content-Length, Transfer-Encoding, Connection); the others
 * are checked for syntax and skipped. Bodies (Content-Length or chunked, with trailers) are read and
 * discarded. The response leaves once its request is complete; the request is then counted
 * ({@link Listener#requestServed}) with every byte it took on the wire.
 *
 * <p>One instance per connection, used by one thread at a time.
 */
public final class HttpRequestParser implements ServerCodec {

    /** The largest request line plus header section (and, apart, trailer section). */
    public static final int MAX_HEAD = 64 * 1024;
    /** What a request line and header section over {@link #MAX_HEAD} is answered. */
    public static final String HEAD_TOO_LARGE = "431 Request Header Fields Too Large";
    /** What a body over --max-frame is answered. */
    public static final String BODY_TOO_LARGE = "413 Content Too Large";
    /** What a malformed request is answered. */
    public static final String MALFORMED = "400 Bad Request";
    /** What a version other than HTTP/1.1 and HTTP/1.0 is answered (HTTP/2's connection preface too). */
    public static final String VERSION_NOT_SUPPORTED = "505 HTTP Version Not Supported";
    /**
     * A declared length (Content-Length, chunk sizes) that a long cannot hold, the value it saturates at;
     * {@code 2^63 - 1} itself, which no body can reach either, reads the same.
     */
    public static final long BEYOND_64_BITS = Long.MAX_VALUE;
    /** The largest chunk extension, which a peer could otherwise trickle without end. */
    static final int MAX_CHUNK_EXTENSION = 4096;

    private static final int START = 0;
    private static final int METHOD = 1;
    private static final int TARGET = 2;
    private static final int VERSION = 3;
    /** After a CR that ends the request line or a field line: LF must follow. */
    private static final int LINE_LF = 4;
    private static final int FIELD_START = 5;
    private static final int FIELD_NAME = 6;
    private static final int FIELD_VALUE = 7;
    /** After the CR of the empty line that ends the header section. */
    private static final int HEAD_END_LF = 8;
    private static final int BODY = 9;
    private static final int CHUNK_SIZE = 10;
    private static final int CHUNK_EXTENSION = 11;
    private static final int CHUNK_SIZE_LF = 12;
    private static final int CHUNK_DATA = 13;
    private static final int CHUNK_DATA_CR = 14;
    private static final int CHUNK_DATA_LF = 15;
    private static final int TRAILER_START = 16;
    private static final int TRAILER_LINE = 17;
    private static final int TRAILER_LF = 18;
    private static final int TRAILER_END_LF = 19;
    private static final int RESPOND = 20;
    private static final int ERROR = 21;
    /** The connection is over (closed after a response or an error): input is discarded. */
    private static final int DONE = 22;

    private static final byte[] HTTP_1 = HttpResponses.ascii("HTTP/1.");
    private static final byte[] HEAD = HttpResponses.ascii("HEAD");

    private static final int NONE = -1;
    private static final int CONTENT_LENGTH = 0;
    private static final int TRANSFER_ENCODING = 1;
    private static final int CONNECTION = 2;
    /** The fields that matter, lower case, indexed by the constants above. */
    private static final byte[][] FIELDS = {HttpResponses.ascii("content-length"),
        HttpResponses.ascii("transfer-encoding"), HttpResponses.ascii("connection")};
    /** The tokens that matter in Transfer-Encoding (index 0) and Connection (0 and 1). */
    private static final byte[][] CODINGS = {HttpResponses.ascii("chunked")};
    private static final byte[][] OPTIONS = {HttpResponses.ascii("close"), HttpResponses.ascii("keep-alive")};

    private final int maxFrame;
    private final HttpResponses responses;
    private final Listener listener;

    private int state = START;
    private String error;

    // The request being read.
    private long requestBytes;
    private int headBytes;
    private int methodLength;
    private boolean head;
    private int targetLength;
    private int versionLength;
    private boolean http10;
    private int field;
    private int nameLength;
    private int nameCandidates;
    private long contentLength;
    private long valueNumber;
    private int valueDigits;
    private boolean valueBroken;
    private int tokenLength;
    private int tokenCandidates;
    private boolean tokenEnded;
    private boolean transferEncoding;
    private boolean lastCodingChunked;
    private boolean connectionClose;
    private boolean connectionKeepAlive;
    private long bodyLeft;
    private long bodyTotal;
    private int chunkDigits;
    private int extensionLength;
    private int trailerBytes;

    // The response being written.
    private boolean keepAlive;
    private byte[] pending;
    private int pendingAt;
    private long bodyToWrite;
    private int responseBytes;

    public HttpRequestParser(ServerCodec.Settings settings, Listener listener) {
        this(settings.maxFrame(), new HttpResponses(settings.responseSize()), listener);
    }

    HttpRequestParser(int maxFrame, HttpResponses responses, Listener listener) {
        this.maxFrame = maxFrame;
        this.responses = responses;
        this.listener = listener;
        startRequest();
    }

    @Override
    public int minOutput() {
        return Math.max(responses.longestHead(), HttpResponses.ERROR_ROOM);
    }

    @Override
    public String error() {
        return error;
    }

    @Override
    public int parse(ByteBuffer in, ByteBuffer out) {
        while (true) {
            switch (state) {
                case RESPOND: {
                    int result = respond(out);
                    if (result != NEED_INPUT) {
                        return result;
                    }
                    break;
                }
                case ERROR:
                    if (out.remaining() < pending.length) {
                        return OUTPUT_FULL; // the answer goes whole, so that it is all in out at PROTOCOL_ERROR
                    }
                    out.put(pending);
                    state = DONE;
                    listener.refusalAnswered(pending.length);
                    return PROTOCOL_ERROR;
                case DONE:
                    in.position(in.limit());
                    return NEED_INPUT;
                case BODY:
                case CHUNK_DATA: {
                    int n = (int) Math.min(bodyLeft, in.remaining());
                    in.position(in.position() + n);
                    requestBytes += n;
                    bodyLeft -= n;
                    if (bodyLeft > 0) {
                        return NEED_INPUT;
                    }
                    state = state == BODY ? RESPOND : CHUNK_DATA_CR;
                    break;
                }
                default:
                    if (!in.hasRemaining()) {
                        return NEED_INPUT;
                    }
                    int p = in.position();
                    int c = in.get(p) & 0xFF;
                    in.position(p + 1);
                    if (state != START) {
                        requestBytes++;
                    }
                    step(c);
            }
        }
    }

    /** One byte of the request line, header section or chunk framing. */
    private void step(int c) {
        if (state <= HEAD_END_LF && state != START && ++headBytes > MAX_HEAD) {
            fail(HEAD_TOO_LARGE, "request line and header section over " + MAX_HEAD
                    + " bytes");
            return;
        }
        switch (state) {
            case START:
                if (c != '\r' && c != '\n') { // empty lines before a request are ignored (RFC 9112 2.2)
                    state = METHOD;
                    requestBytes = 1;
                    headBytes = 1;
                    method(c);
                }
                return;
            case METHOD:
                method(c);
                return;
            case TARGET:
                if (c == ' ') {
                    state = targetLength == 0 ? bad("empty request target") : VERSION;
                } else if (c <= ' ' || c == 0x7F) {
                    bad(c == '\r' || c == '\n' ? "request line without an HTTP version"
                            : "invalid character " + hex(c) + " in the request target");
                } else {
                    targetLength++;
                }
                return;
            case VERSION:
                version(c);
                return;
            case LINE_LF:
                state = c == '\n' ? FIELD_START : bad("CR without LF");
                return;
            case FIELD_START:
                fieldStart(c);
                return;
            case FIELD_NAME:
                fieldName(c);
                return;
            case FIELD_VALUE:
                fieldValue(c);
                return;
            case HEAD_END_LF:
                if (c == '\n') {
                    headEnd();
                } else {
                    bad("CR without LF");
                }
                return;
            case CHUNK_SIZE:
                chunkSize(c);
                return;
            case CHUNK_EXTENSION:
                if (c == '\r') {
                    state = CHUNK_SIZE_LF;
                } else if (c == '\n') {
                    chunkStart();
                } else if (c < ' ' && c != '\t' || c == 0x7F) {
                    bad("invalid character " + hex(c) + " in a chunk extension");
                } else if (++extensionLength > MAX_CHUNK_EXTENSION) {
                    bad("chunk extension over " + MAX_CHUNK_EXTENSION + " bytes");
                }
                return;
            case CHUNK_SIZE_LF:
                if (c == '\n') {
                    chunkStart();
                } else {
                    bad("CR without LF");
                }
                return;
            case CHUNK_DATA_CR:
                if (c == '\r') {
                    state = CHUNK_DATA_LF;
                } else {
                    state = c == '\n' ? nextChunk() : bad("chunk data longer than its size");
                }
                return;
            case CHUNK_DATA_LF:
                state = c == '\n' ? nextChunk() : bad("CR without LF");
                return;
            case TRAILER_START:
                if (c == '\r') {
                    state = TRAILER_END_LF;
                } else {
                    state = c == '\n' ? RESPOND : trailer(c);
                }
                return;
            case TRAILER_LINE:
                if (c == '\r') {
                    state = TRAILER_LF;
                } else {
                    state = c == '\n' ? TRAILER_START : trailer(c);
                }
                return;
            case TRAILER_LF:
                state = c == '\n' ? TRAILER_START : bad("CR without LF");
                return;
            case TRAILER_END_LF:
                state = c == '\n' ? RESPOND : bad("CR without LF");
                return;
            default:
                throw new IllegalStateException("state " + state);
        }
    }

    private void method(int c) {
        if (c == ' ') {
            head = head && methodLength == HEAD.length; // HEAD's response has no body (RFC 9110 9.3.2)
            state = TARGET;
        } else if (isTokenChar(c)) {
            head = (methodLength == 0 || head) && methodLength < HEAD.length && HEAD[methodLength] == c;
            methodLength++;
        } else {
            bad("invalid character " + hex(c) + " in the method");
        }
    }

    private void version(int c) {
        if (versionLength < HTTP_1.length) {
            if (c != HTTP_1[versionLength]) {
                if (versionLength == 5 && c >= '0' && c <= '9') {
                    fail(VERSION_NOT_SUPPORTED, "HTTP/" + (char) c + " is not supported: use HTTP/1.1");
                } else {
                    bad("the request line does not end with HTTP/1.1 or HTTP/1.0");
                }
                return;
            }
        } else if (versionLength == HTTP_1.length) {
            if (c >= '2' && c <= '9') { // a minor version this server does not speak, as Netty's server answers it
                fail(VERSION_NOT_SUPPORTED, "HTTP/1." + (char) c + " is not supported: use HTTP/1.1");
                return;
            }
            if (c != '0' && c != '1') {
                bad("the request line does not end with HTTP/1.1 or HTTP/1.0");
                return;
            }
            http10 = c == '0';
        } else if (c == '\r') {
            state = LINE_LF;
            return;
        } else if (c == '\n') { // a bare LF ends a line too (RFC 9112 2.2)
            state = FIELD_START;
            return;
        } else {
            bad("the request line does not end with HTTP/1.1 or HTTP/1.0");
            return;
        }
        versionLength++;
    }

    private void fieldStart(int c) {
        if (c == '\r') {
            state = HEAD_END_LF;
        } else if (c == '\n') {
            headEnd();
        } else if (c == ' ' || c == '\t') {
            bad("a header line folded onto the next (obs-fold)");
        } else {
            state = FIELD_NAME;
            nameLength = 0;
            nameCandidates = (1 << FIELDS.length) - 1;
            fieldName(c);
        }
    }

    private void fieldName(int c) {
        if (c == ':') {
            field = matched(FIELDS, nameCandidates, nameLength);
            state = nameLength == 0 ? bad("empty header field name") : FIELD_VALUE;
            valueDigits = 0;
            valueNumber = 0;
            valueBroken = false;
            startToken();
        } else if (isTokenChar(c)) {
            nameCandidates = narrow(FIELDS, nameCandidates, nameLength, lower(c));
            nameLength++;
        } else {
            bad("invalid character " + hex(c) + " in a header field name");
        }
    }

    private void fieldValue(int c) {
        if (c == '\r' || c == '\n') {
            if (fieldEnd()) {
                state = c == '\r' ? LINE_LF : FIELD_START;
            }
            return;
        }
        if (c < ' ' && c != '\t' || c == 0x7F) {
            bad("invalid character " + hex(c) + " in a header field value");
            return;
        }
        switch (field) {
            case CONTENT_LENGTH:
                if (c == ' ' || c == '\t') {
                    if (valueDigits > 0) {
                        tokenEnded = true;
                    }
                } else if (c >= '0' && c <= '9' && !tokenEnded) {
                    valueDigits++;
                    valueNumber = times(valueNumber, 10, c - '0');
                } else {
                    valueBroken = true;
                }
                return;
            case TRANSFER_ENCODING:
                token(c, CODINGS);
                return;
            case CONNECTION:
                token(c, OPTIONS);
                return;
            default:
        }
    }

    /** The end of a field line: what it says is recorded. False when it is malformed (answered 400). */
    private boolean fieldEnd() {
        switch (field) {
            case CONTENT_LENGTH:
                if (valueBroken || valueDigits == 0) {
                    bad("Content-Length is not a number");
                    return false;
                }
                if (contentLength >= 0 && contentLength != valueNumber) {
                    bad("two different Content-Length values");
                    return false;
                }
                contentLength = valueNumber;
                return true;
            case TRANSFER_ENCODING:
                endToken(CODINGS);
                return true;
            case CONNECTION:
                endToken(OPTIONS);
                return true;
            default:
                return true;
        }
    }

    private void startToken() {
        tokenLength = 0;
        tokenEnded = false;
        tokenCandidates = 3;
    }

    /** One character of a comma-separated list of tokens (Transfer-Encoding, Connection). */
    private void token(int c, byte[][] words) {
        if (c == ',') {
            endToken(words);
            startToken();
        } else if (c == ' ' || c == '\t') {
            tokenEnded = tokenLength > 0;
        } else if (tokenEnded) {
            tokenCandidates = 0; // a space inside: not a token that matters
            tokenLength++;
        } else {
            tokenCandidates = narrow(words, tokenCandidates, tokenLength, lower(c));
            tokenLength++;
        }
    }

    private void endToken(byte[][] words) {
        if (tokenLength == 0) {
            return; // an empty list element
        }
        int word = matched(words, tokenCandidates, tokenLength);
        if (words == CODINGS) {
            transferEncoding = true;
            lastCodingChunked = word == 0;
        } else if (word == 0) {
            connectionClose = true;
        } else if (word == 1) {
            connectionKeepAlive = true;
        }
    }

    /** The empty line after the header section: how the body is delimited, or why the request is refused. */
    private void headEnd() {
        keepAlive = !connectionClose && (!http10 || connectionKeepAlive);
        if (transferEncoding) {
            if (!lastCodingChunked) {
                bad("Transfer-Encoding does not end with chunked: the body's length is unknown");
            } else if (contentLength >= 0) {
                bad("both Content-Length and Transfer-Encoding");
            } else {
                state = CHUNK_SIZE;
                bodyTotal = 0;
                chunkDigits = 0;
                bodyLeft = 0;
            }
            return;
        }
        if (contentLength > maxFrame) {
            tooLarge(contentLength); // as declared: BEYOND_64_BITS past a long
            return;
        }
        bodyLeft = Math.max(0, contentLength);
        state = bodyLeft > 0 ? BODY : RESPOND;
    }

    private void chunkSize(int c) {
        int digit = Character.digit(c, 16);
        if (digit >= 0) {
            bodyLeft = times(bodyLeft, 16, digit);
            chunkDigits++;
            if (bodyLeft >= BEYOND_64_BITS - bodyTotal) {
                tooLarge(BEYOND_64_BITS); // no more digits can make it smaller: refused now, not at the line's end
            }
        } else if (chunkDigits == 0) {
            bad("chunk size is not a hexadecimal number");
        } else if (c != ';' && c != ' ' && c != '\t' && c != '\r' && c != '\n') {
            bad("chunk size is not a hexadecimal number");
        } else if (bodyTotal + bodyLeft > maxFrame) {
            tooLarge(bodyTotal + bodyLeft); // once the size is whole, to quote it as sent
        } else if (c == '\r') {
            state = CHUNK_SIZE_LF;
        } else if (c == '\n') {
            chunkStart();
        } else {
            state = CHUNK_EXTENSION;
            extensionLength = 0;
        }
    }

    /** {@code n * base + digit}, or {@link #BEYOND_64_BITS} once that is reached (it stays there). */
    private static long times(long n, int base, int digit) {
        return n > (BEYOND_64_BITS - digit) / base ? BEYOND_64_BITS : n * base + digit;
    }

    /** The chunk-size line has ended: its data follows, or, for the last chunk (0), the trailer section. */
    private void chunkStart() {
        if (bodyLeft == 0) {
            state = TRAILER_START;
            trailerBytes = 0;
        } else {
            bodyTotal += bodyLeft;
            state = CHUNK_DATA;
        }
    }

    private int nextChunk() {
        bodyLeft = 0;
        chunkDigits = 0;
        return CHUNK_SIZE;
    }

    private int trailer(int c) {
        if (c < ' ' && c != '\t' || c == 0x7F) {
            return bad("invalid character " + hex(c) + " in a trailer field");
        }
        if (++trailerBytes > MAX_HEAD) {
            fail(HEAD_TOO_LARGE, "trailer section over " + MAX_HEAD + " bytes");
            return ERROR;
        }
        return TRAILER_LINE;
    }

    /**
     * Writes the response of the request just read: its head, then its body. NEED_INPUT when the request is
     * done and the next may be read, OUTPUT_FULL, or CLOSE after the connection's last response.
     */
    private int respond(ByteBuffer out) {
        if (pending == null) {
            pending = responses.head(keepAlive, http10);
            pendingAt = 0;
            bodyToWrite = head ? 0 : responses.bodySize;
            responseBytes = (int) Math.min(Integer.MAX_VALUE, pending.length + bodyToWrite);
        }
        if (pendingAt < pending.length) {
            int n = Math.min(out.remaining(), pending.length - pendingAt);
            out.put(pending, pendingAt, n);
            pendingAt += n;
            if (pendingAt < pending.length) {
                return OUTPUT_FULL;
            }
        }
        while (bodyToWrite > 0) {
            int n = (int) Math.min(bodyToWrite, Math.min(out.remaining(), HttpResponses.BODY.length));
            if (n == 0) {
                return OUTPUT_FULL;
            }
            out.put(HttpResponses.BODY, 0, n);
            bodyToWrite -= n;
        }
        pending = null;
        listener.requestServed((int) Math.min(Integer.MAX_VALUE, requestBytes), responseBytes);
        if (!keepAlive) {
            state = DONE;
            return CLOSE;
        }
        startRequest();
        return NEED_INPUT;
    }

    private void startRequest() {
        state = START;
        requestBytes = 0;
        headBytes = 0;
        methodLength = 0;
        head = false;
        targetLength = 0;
        versionLength = 0;
        http10 = false;
        field = NONE;
        contentLength = -1;
        transferEncoding = false;
        lastCodingChunked = false;
        connectionClose = false;
        connectionKeepAlive = false;
        bodyLeft = 0;
        bodyTotal = 0;
    }

    private void tooLarge(long bytes) {
        fail(BODY_TOO_LARGE, tooLargeReason(bytes, maxFrame));
    }

    /** A malformed request: 400, then the connection closes. Returns the state to go on in (ERROR). */
    private int bad(String why) {
        fail(MALFORMED, "malformed HTTP request: " + why);
        return ERROR;
    }

    /**
     * Why a body is refused 413: {@code bytes} as the request declared it (a Content-Length, or the chunks so far
     * and the size of the one that passed), {@link #BEYOND_64_BITS} for a figure a long cannot hold.
     */
    public static String tooLargeReason(long bytes, int maxFrame) {
        return (bytes == BEYOND_64_BITS ? "request body beyond a 64-bit length"
                : "request body of " + bytes + " bytes") + " > --max-frame " + maxFrame;
    }

    /** The server log's line for a request answered {@code status} because of {@code why}. */
    public static String logLine(String status, String why) {
        return why + "; answered " + status.substring(0, 3);
    }

    private void fail(String status, String why) {
        error = logLine(status, why);
        pending = HttpResponses.error(status, why);
        state = ERROR;
    }

    /** Of {@code candidates}, those words whose character {@code at} is {@code c}. */
    private static int narrow(byte[][] words, int candidates, int at, int c) {
        for (int i = 0; i < words.length; i++) {
            if ((candidates & 1 << i) != 0 && (at >= words[i].length || words[i][at] != c)) {
                candidates &= ~(1 << i);
            }
        }
        return candidates;
    }

    /** The word that all of {@code length} characters matched, or {@link #NONE}. */
    private static int matched(byte[][] words, int candidates, int length) {
        for (int i = 0; i < words.length; i++) {
            if ((candidates & 1 << i) != 0 && words[i].length == length) {
                return i;
            }
        }
        return NONE;
    }

    private static int lower(int c) {
        return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c;
    }

    /** RFC 9110 5.6.2: tchar. */
    private static boolean isTokenChar(int c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
                || c < 0x7F && c > ' ' && "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
    }

    private static String hex(int c) {
        return String.format("0x%02x", c);
    }
}
