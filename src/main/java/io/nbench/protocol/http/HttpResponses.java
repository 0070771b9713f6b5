package io.nbench.protocol.http;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The bytes nbench's HTTP server answers with, built once per server setting: the heads of its 200 responses
 * (the body is {@link #BODY}'s bytes, streamed), and the error responses, which close the connection. Every
 * response says HTTP/1.1 (RFC 9110 6.2: a server sends its own version) and carries a Content-Length.
 */
public final class HttpResponses {

    /** The byte every response body is made of, streamed from a shared array. */
    public static final byte BODY_BYTE = 'x';

    /** Body bytes, shared by every connection and thread, which only read it. */
    static final byte[] BODY = filled(16 * 1024);

    /** A body of {@code n} bytes, as every 200 carries. */
    public static byte[] body(int n) {
        return filled(n);
    }

    /** The 200 head of a connection that stays open: HTTP/1.1's default. */
    final byte[] okKeepAlive;
    /** The 200 head of an HTTP/1.0 connection that asked to stay open: it must say so (ab -k looks for it). */
    final byte[] okKeepAlive10;
    /** The 200 head of a connection's last response. */
    final byte[] okClose;
    /** The body size every 200 carries. */
    final int bodySize;

    public HttpResponses(int bodySize) {
        this.bodySize = bodySize;
        String head = "HTTP/1.1 200 OK\r\nContent-Length: " + bodySize + "\r\n";
        this.okKeepAlive = ascii(head + "\r\n");
        this.okKeepAlive10 = ascii(head + "Connection: keep-alive\r\n\r\n");
        this.okClose = ascii(head + "Connection: close\r\n\r\n");
    }

    /**
     * The head of a 200: of a connection's last response ({@code keepAlive} false), of an HTTP/1.0 connection
     * kept open, or of HTTP/1.1's. Shared: not to be written to.
     */
    public byte[] head(boolean keepAlive, boolean http10) {
        return !keepAlive ? okClose : http10 ? okKeepAlive10 : okKeepAlive;
    }

    /** The body size of every 200. */
    public int bodySize() {
        return bodySize;
    }

    /** The longest head: what an output buffer must hold at least, with an error response. */
    int longestHead() {
        return Math.max(okKeepAlive10.length, okClose.length);
    }

    /**
     * A whole error response that ends its connection: {@code status} (e.g. "400 Bad Request") and a one-line
     * body, {@code reason} (at most {@link #MAX_REASON} characters). Error path: allocates.
     */
    public static byte[] error(String status, String reason) {
        return withBody(status, oneLine(reason), "Connection: close\r\n");
    }

    /** An error response's body: {@code reason}, cut at {@link #MAX_REASON} characters, and a line feed. */
    public static String oneLine(String reason) {
        return (reason.length() > MAX_REASON ? reason.substring(0, MAX_REASON) : reason) + "\n";
    }

    private static byte[] withBody(String status, String body, String headers) {
        return ascii("HTTP/1.1 " + status + "\r\nContent-Type: text/plain\r\nContent-Length: " + body.length()
                + "\r\n" + headers + "\r\n" + body);
    }

    /** The longest error message's body. */
    static final int MAX_REASON = 200;

    /** Room for any error response: its head and a body of {@link #MAX_REASON}. */
    static final int ERROR_ROOM = 128 + MAX_REASON + 1;

    /** The answer to a request the server's business pool refused: 503, the connection stays open. */
    public static final String UNAVAILABLE = "503 Service Unavailable";
    /** Its body. */
    public static final String UNAVAILABLE_BODY = "the server's business pool is full (--executor-threads, "
            + "--executor-queue)\n";
    /** The whole 503. */
    public static final byte[] SERVICE_UNAVAILABLE = withBody(UNAVAILABLE, UNAVAILABLE_BODY, "");

    /** A fresh buffer over {@link #SERVICE_UNAVAILABLE}. */
    static ByteBuffer serviceUnavailable() {
        return ByteBuffer.wrap(SERVICE_UNAVAILABLE);
    }

    static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] filled(int n) {
        byte[] b = new byte[n];
        Arrays.fill(b, BODY_BYTE);
        return b;
    }
}
