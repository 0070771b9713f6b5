package io.nbench.transport.support;

import io.nbench.protocol.Protocol;
import io.nbench.protocol.ServerCodec;
import io.nbench.transport.ServerEvents;
import io.nbench.transport.ServerRuntime;
import java.nio.ByteBuffer;

/**
 * The listener a transport gives a protocol's {@link ServerCodec}: each request the codec completes goes to the
 * connection's {@link RequestPipeline}, and echoed bytes to the server's counts, so every transport that runs a
 * codec hands requests on alike. Inline, a request's response stays in the codec's output buffer, which the
 * transport writes after the parse; with nbench's business pool its whole response is taken out of it
 * ({@link ResponseCapture}) for the pool thread to write. One per connection, on its I/O thread.
 */
public final class CodecRequests implements ServerCodec.Listener {

    private final RequestPipeline<ByteBuffer> requests;
    private final ServerEvents events;
    private final Runnable progress;
    private final boolean pooled;
    private final ResponseCapture capture;
    private ByteBuffer out;

    /** {@code progress} is told of each request or echoed chunk (--idle-timeout's watch). */
    public CodecRequests(RequestPipeline<ByteBuffer> requests, ServerEvents events, Runnable progress) {
        this.requests = requests;
        this.events = events;
        this.progress = progress;
        this.pooled = requests.pooled();
        this.capture = pooled ? new ResponseCapture() : null;
    }

    /** The runtime for a connection speaking {@code protocol}: one without requests (echo) has nothing to process. */
    public static ServerRuntime runtime(Protocol protocol, ServerRuntime runtime) {
        return protocol.hasRequests() ? runtime : ServerRuntime.INLINE;
    }

    /** The buffer the codec writes responses into (fill mode), until the next call. */
    public void output(ByteBuffer out) {
        this.out = out;
    }

    /** Whether responses go to the business pool: then the transport writes nothing from the output itself. */
    public boolean pooled() {
        return pooled;
    }

    /** Pooled, the codec filled the output in the middle of a response: keeps its part until the request is complete. */
    public void spill() {
        capture.spill(out);
    }

    @Override
    public void requestServed(int requestBytes, int responseBytes) {
        progress.run();
        if (pooled) {
            ByteBuffer response = capture.take(out);
            // No id: a rejection is the protocol's own, built from the response (Protocol.rejectedResponse).
            requests.decoded(0, requestBytes, responseBytes, response);
        } else {
            // Its response went into the output, which the transport writes after the parse.
            requests.decoded(0, requestBytes, responseBytes, null);
        }
    }

    @Override
    public void refusalAnswered(int responseBytes) {
        events.refusalAnswered(responseBytes);
    }

    @Override
    public void bytesEchoed(int bytes) {
        events.echoed(bytes);
        progress.run();
    }
}
