package io.nbench.protocol;

import java.nio.charset.StandardCharsets;

/**
 * An HTTP request sent to a framed server (ab, wrk or curl pointed at the wrong protocol), recognised where its
 * frame header is illegal anyway: "GET " read as a frameLength is 1.2 GB. Without an answer the client sees an
 * empty reply, which ab counts as a success; so the server answers an HTTP 400 saying what to do, then closes.
 * Shared by every framed decoder (FramedRequestParser, netty's and MINA's own); error path only.
 */
public final class HttpOnFramed {

    /** The bytes are not an HTTP request line. */
    public static final int NO = 0;
    /** They are: a method of capital letters and a space. */
    public static final int YES = 1;
    /** They may be: more bytes will tell (at most {@link #LONGEST} in all). */
    public static final int MORE = 2;

    /** A method and its space: "OPTIONS " and "CONNECT " are the longest. */
    public static final int LONGEST = 8;

    private static final String BODY = "this server speaks nbench's framed protocol: start it with --protocol http "
            + "to serve HTTP\n";

    /** The whole answer: 400, a one-line body, and the close that follows. */
    public static final byte[] ANSWER = ("HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain\r\nContent-Length: "
            + BODY.length() + "\r\nConnection: close\r\n\r\n" + BODY).getBytes(StandardCharsets.US_ASCII);

    /** What the server's log says of it. */
    public static final String ERROR = "an HTTP request (this server speaks nbench's framed protocol): answered 400; "
            + "start the server with --protocol http to serve HTTP";

    private HttpOnFramed() {
    }

    /** Reads byte {@code i} of what arrived. */
    public interface Bytes {
        int at(int i);
    }

    /**
     * Whether the {@code available} bytes a request starts with ({@code bytes}) are an HTTP request line's
     * start: {@link #YES}, {@link #NO} or {@link #MORE}.
     */
    public static int recognise(Bytes bytes, int available) {
        int n = Math.min(available, LONGEST);
        for (int i = 0; i < n; i++) {
            int c = bytes.at(i);
            if (c == ' ') {
                return i >= 3 ? YES : NO; // GET and PUT are the shortest
            }
            if (c < 'A' || c > 'Z') {
                return NO;
            }
        }
        return n < LONGEST ? MORE : NO;
    }
}
