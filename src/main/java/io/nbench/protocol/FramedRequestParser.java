package io.nbench.protocol;

import java.nio.ByteBuffer;

/**
 * Server side of the framed protocol over plain {@link ByteBuffer}s ({@link FramedProtocol}'s server codec),
 * which every transport that takes a protocol's {@link ServerCodec} (nio, blocking, vthreads) drives, so they
 * accept, reject and answer exactly alike.
 *
 * <p>One instance per connection; it carries the state of a request whose bytes are still arriving.
 * {@link #parse} reads requests from {@code in} and appends their responses to {@code out}. Each header
 * is checked as soon as its bytes are there (frameLength after 4 bytes, responseLength after 8), so an
 * oversized request is refused before its payload is read. A request's payload is streamed: the bytes
 * that belong in the response are copied to {@code out} as they arrive and the rest are skipped, so
 * neither buffer ever has to hold a whole frame. A 16 MiB request therefore passes through buffers of a
 * few KiB, which bounds what a connection can make the server buffer without any growth or shrinking
 * policy. The response header goes out when the request's header has arrived (its length is known
 * then); the request is counted as served when its last byte has been consumed.
 */
public final class FramedRequestParser implements ServerCodec {

    /** Smallest output buffer that always has room for a response header. */
    public static final int MIN_OUTPUT = Framed.RESPONSE_HEADER;

    private static final byte[] ZEROS = new byte[4096];

    private final int maxFrame;
    private final ServerCodec.Listener listener;

    private boolean inBody;
    private int payloadLeft;
    private int copyLeft;
    private int padLeft;
    private int requestBytes;
    private int responseBytes;
    private String error;
    /** Writing {@link HttpOnFramed#ANSWER} from this byte on; -1 while the peer speaks framed. */
    private int answerAt = -1;

    public FramedRequestParser(int maxFrame, ServerCodec.Listener listener) {
        this.maxFrame = maxFrame;
        this.listener = listener;
    }

    @Override
    public int parse(ByteBuffer in, ByteBuffer out) {
        if (answerAt >= 0) {
            return answer(in, out);
        }
        while (true) {
            if (!inBody) {
                int result = header(in, out);
                if (result >= 0) {
                    return result;
                }
            }
            while (copyLeft > 0) {
                int n = Math.min(copyLeft, Math.min(in.remaining(), out.remaining()));
                if (n == 0) {
                    return in.hasRemaining() ? OUTPUT_FULL : NEED_INPUT;
                }
                out.put(out.position(), in, in.position(), n);
                out.position(out.position() + n);
                in.position(in.position() + n);
                copyLeft -= n;
                payloadLeft -= n;
            }
            if (payloadLeft > 0) {
                int n = Math.min(payloadLeft, in.remaining());
                in.position(in.position() + n);
                payloadLeft -= n;
                if (payloadLeft > 0) {
                    return NEED_INPUT;
                }
            }
            while (padLeft > 0) {
                int n = Math.min(padLeft, Math.min(out.remaining(), ZEROS.length));
                if (n == 0) {
                    return OUTPUT_FULL;
                }
                out.put(ZEROS, 0, n);
                padLeft -= n;
            }
            inBody = false;
            listener.requestServed(requestBytes, responseBytes);
        }
    }

    /** Checks and consumes one request header; -1 when the body follows, else the result to return. */
    private int header(ByteBuffer in, ByteBuffer out) {
        int available = in.remaining();
        if (available < 4) {
            return NEED_INPUT;
        }
        int p = in.position();
        long frameLength = Framed.unsigned(in.getInt(p));
        String bad = Framed.checkFrameLength(frameLength, maxFrame);
        if (bad == null && available >= 8) {
            bad = Framed.checkResponseLength(Framed.unsigned(in.getInt(p + 4)), maxFrame);
        }
        if (bad != null) {
            return refuse(bad, in, out);
        }
        if (available < Framed.REQUEST_HEADER) {
            return NEED_INPUT;
        }
        // Checked above against maxFrame, an int: both fit in an int.
        int responseLength = in.getInt(p + 4);
        int payload = (int) (frameLength - Framed.MIN_REQUEST_FRAME);
        if (responseLength > 0) {
            if (out.remaining() < Framed.RESPONSE_HEADER) {
                return OUTPUT_FULL;
            }
            out.putInt(Framed.responseFrameLength(Framed.STATUS_OK, responseLength));
            out.putLong(in.getLong(p + Framed.REQUEST_ID_OFFSET));
            out.put((byte) Framed.STATUS_OK);
        }
        in.position(p + Framed.REQUEST_HEADER);
        payloadLeft = payload;
        copyLeft = Math.min(payload, responseLength);
        padLeft = responseLength - copyLeft;
        requestBytes = (int) Math.min(Integer.MAX_VALUE, 4 + frameLength);
        responseBytes = responseLength > 0 ? (int) Math.min(Integer.MAX_VALUE,
                (long) Framed.RESPONSE_HEADER + responseLength) : 0;
        inBody = true;
        return -1;
    }

    /**
     * An illegal header: PROTOCOL_ERROR, answered with HTTP's 400 when it is an HTTP request's start
     * ({@link HttpOnFramed}); NEED_INPUT while more bytes must tell, OUTPUT_FULL while there is no room for it.
     */
    private int refuse(String bad, ByteBuffer in, ByteBuffer out) {
        int p = in.position();
        int http = HttpOnFramed.recognise(i -> in.get(p + i) & 0xFF, in.remaining());
        if (http == HttpOnFramed.MORE) {
            return NEED_INPUT;
        }
        if (http == HttpOnFramed.YES) {
            answerAt = 0;
            return answer(in, out);
        }
        error = bad;
        return PROTOCOL_ERROR;
    }

    /** Writes the rest of the answer to an HTTP request (in pieces if {@code out} is small), dropping all input. */
    private int answer(ByteBuffer in, ByteBuffer out) {
        in.position(in.limit());
        int n = Math.min(out.remaining(), HttpOnFramed.ANSWER.length - answerAt);
        out.put(HttpOnFramed.ANSWER, answerAt, n);
        answerAt += n;
        if (answerAt < HttpOnFramed.ANSWER.length) {
            return OUTPUT_FULL;
        }
        error = HttpOnFramed.ERROR;
        listener.refusalAnswered(HttpOnFramed.ANSWER.length);
        return PROTOCOL_ERROR;
    }

    @Override
    public String error() {
        return error;
    }

    @Override
    public int minOutput() {
        return MIN_OUTPUT;
    }
}
