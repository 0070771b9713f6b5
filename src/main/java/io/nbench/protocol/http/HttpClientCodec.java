package io.nbench.protocol.http;

import io.nbench.protocol.ClientCodec;
import io.nbench.protocol.ClientRequest;
import io.nbench.protocol.ResponseHead;
import io.nbench.protocol.WireBytes;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Set;

/**
 * The client side of HTTP/1.1 for every transport without an HTTP codec of its own: requests are a head
 * built once per run from {@link ClientRequest} (method, {@code Host}, the user's headers,
 * {@code Content-Length} when there is a body, {@code Connection: close} when each request closes its
 * connection) followed by the body (the user's, unchanged, with any method; else {@code --size} bytes of pattern
 * for POST, PUT and PATCH); responses are framed by {@link HttpResponseParser}.
 *
 * <p>The response's payload is its body as it came on the wire (chunked bodies with their chunk lines), and
 * its status is the status code, with {@link ClientCodec#CLOSES} set when the server closes the connection after it.
 */
public final class HttpClientCodec implements ClientCodec {

    /** The methods whose requests carry the {@code --size} bytes as a body when the user gave none. */
    private static final Set<String> WITH_BODY = Set.of("POST", "PUT", "PATCH");

    /** The longest response head (status line and headers) a client accepts, whichever parser reads it. */
    public static final int MAX_HEAD = HttpResponseParser.MAX_HEAD;

    /** The body a buffer is first sized for: responses are the server's, of a size not known before. */
    private static final int FIRST_BODY = 4096;

    private final ClientRequest request;
    private final boolean closeEach;
    private final boolean headRequest;
    private final boolean withBody;
    /** By code: whether it is a success ({@code --success-status}); a table so the per-response test is a load. */
    private final boolean[] successes;

    HttpClientCodec(ClientRequest request, boolean closeEach) {
        this.request = request;
        this.successes = request.success().table();
        this.closeEach = closeEach;
        this.headRequest = request.method().equals("HEAD");
        this.withBody = request.body() != null || sizedBody(request.method());
    }

    /** Whether a request of {@code method} (upper case) sends {@code --size} bytes as its body: POST, PUT, PATCH. */
    public static boolean sizedBody(String method) {
        return WITH_BODY.contains(method);
    }

    /**
     * The user's body, whatever the method and {@code --size}; else only POST, PUT and PATCH send one: a GET
     * sends its head alone.
     */
    @Override
    public int requestPayloadSize(int size) {
        return request.body() != null ? request.body().length : withBody ? size : 0;
    }

    @Override
    public byte[] fixedPayload() {
        return request.body();
    }

    @Override
    public int requestOverhead(int payloadSize) {
        return head(payloadSize).length;
    }

    @Override
    public void writeRequestHeader(ByteBuffer target, int payloadSize, int responseLength) {
        target.put(head(payloadSize));
    }

    /** The request's head: built when a template is made, never per message. */
    private byte[] head(int payloadSize) {
        StringBuilder sb = new StringBuilder(128);
        sb.append(request.method()).append(' ').append(request.path()).append(" HTTP/1.1\r\n");
        boolean host = false;
        for (String h : request.headers()) {
            host |= h.regionMatches(true, 0, "host:", 0, 5);
        }
        if (!host) {
            sb.append("Host: ").append(request.authority()).append("\r\n");
        }
        for (String h : request.headers()) {
            sb.append(h).append("\r\n");
        }
        if (withBody) {
            sb.append("Content-Length: ").append(payloadSize).append("\r\n");
        }
        if (closeEach) {
            sb.append("Connection: close\r\n");
        }
        return sb.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1);
    }

    @Override
    public int requestIdOffset() {
        return -1;
    }

    /** A typical response head: nginx's for a static file is about 240 bytes. */
    @Override
    public int responseOverhead() {
        return 256;
    }

    @Override
    public int payloadOffset(WireBytes response) {
        return HttpResponseParser.bodyOffset(response);
    }

    @Override
    public int responseLength(int payloadSize, int responseLength) {
        return FIRST_BODY;
    }

    @Override
    public int frame(WireBytes in, int responseLength, int maxFrame) {
        return HttpResponseParser.frame(in, headRequest, maxFrame, null);
    }

    /** One pass over the head for its end, status, close and body offset (not one per question). */
    @Override
    public int frame(WireBytes in, int responseLength, int maxFrame, ResponseHead head) {
        return HttpResponseParser.frame(in, headRequest, maxFrame, null, head);
    }

    @Override
    public String problem(WireBytes in, int maxFrame) {
        String[] why = new String[1];
        HttpResponseParser.frame(in, headRequest, maxFrame, why);
        return notHttp(why[0] != null ? why[0] : "unreadable");
    }

    /**
     * Whether the run's requests are HEADs, whose responses have no body whatever their head says: a transport
     * with an HTTP decoder of its own tells it so (the shared parser is told by this codec).
     */
    public boolean headRequests() {
        return headRequest;
    }

    /**
     * The line a response that is not HTTP/1.1 stops the run with, {@code reason} saying what is wrong with it: the
     * same words whichever parser read it.
     */
    public static String notHttp(String reason) {
        return "the peer's response is not HTTP/1.1: " + reason;
    }

    /**
     * {@link #notHttp}'s reason for a status code that is not 3 digits from 100 to 599 (RFC 9110 15), which no
     * status class holds: {@code code} as the server sent it.
     */
    public static String badStatus(String code) {
        return "status '" + code + "' is not a 3-digit HTTP status (100 to 599)";
    }

    /**
     * {@link #notHttp}'s reason for an HTTP/1.1 response with both Content-Length and Transfer-Encoding, refused
     * on every client transport (RFC 9112 6.3 allows it: Netty's decoder refuses it, and the server refuses such
     * a request 400). An HTTP/1.0 one is framed by its chunks, as Netty does.
     */
    public static final String BOTH_LENGTHS = "it has both Content-Length and Transfer-Encoding (RFC 9112 6.3: a sign "
            + "of response smuggling)";

    /** {@link #notHttp}'s reason for a body delimited by the connection's close. */
    public static final String NO_LENGTH = "it has neither Content-Length nor chunked encoding (a body that ends "
            + "when the connection closes cannot be timed)";

    /** {@link #notHttp}'s reason for a body over {@code --max-frame}. */
    public static String bodyTooLarge(long bytes, int maxFrame) {
        return "its body of " + bytes + " bytes is larger than the client accepts (" + maxFrame + ")";
    }

    @Override
    public long id(WireBytes response) {
        return -1;
    }

    @Override
    public int status(WireBytes response) {
        return HttpResponseParser.status(response) | (HttpResponseParser.closes(response) ? CLOSES : 0);
    }

    @Override
    public boolean success(int status) {
        int code = status & ~CLOSES;
        return code >= 0 && code < successes.length && successes[code];
    }

    @Override
    public String toString() {
        return "http " + request.method().toLowerCase(Locale.ROOT) + " " + request.path();
    }
}
