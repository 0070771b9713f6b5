package io.nbench.client;

import static io.nbench.resources.JvmMemory.bytes;

import io.nbench.load.LoadSpec;
import io.nbench.protocol.ClientCodec;
import io.nbench.protocol.RequestTemplate;
import io.nbench.resources.JvmMemory;

/**
 * What a client plan needs in memory, checked before anything is allocated, so that {@code --size 1g}
 * or {@code --window 100000000} is a usage error naming the limit instead of an OutOfMemoryError after
 * seconds. The model is per connection and conservative (the same for every client transport: it
 * counts what the most demanding one may hold):
 * <ul>
 *   <li>on the heap, always: the request encoded once and its payload pattern (the request kept twice),
 *       the expected response bytes and words the verifier compares with (twice the response), and the
 *       table of messages in flight (16 bytes per slot, 24 in the open loop, 32 with {@code --batch};
 *       a power of two of at least twice the permits);</li>
 *   <li>in the transport, on the heap or in direct memory depending on the transport and its options:
 *       one request buffer per connection (the payload Netty and MINA share among the requests they queue,
 *       NIO's and blocking's output buffer), plus for each request in flight its own bytes (header and id,
 *       or the whole request when its tail is too short to share: at most {@link #QUEUED_COPY}) and the
 *       queue entry and buffer objects that hold it ({@link #QUEUE_ENTRY}), plus a buffer for one whole response, which every decoder accumulates before decoding:
 *       it grows by doubling, so while it is copied it takes 1.5 times the next power of two of the response
 *       frame (MINA's auto-expanding cumulation buffer, the NIO and blocking decoders' buffers).</li>
 * </ul>
 * In flight means the window in the closed loop and {@code --max-inflight} in the open loop. Everything
 * is counted against the heap (a transport may keep it all there) and the transport part also against
 * the direct-memory limit (Netty and NIO keep it there); each may be used up to 3/4, the rest being left
 * to histograms, recorders and the transports' own pools. Checked by {@link ClientPlanBuilder#build} for each
 * combination: a plan that does not fit is {@link InvalidClientPlan} (the command line's usage error).
 */
final class ClientMemory {

    private static final double USABLE = JvmMemory.USABLE;
    /**
     * The most a queued request holds of its own: a request whose constant tail is shorter than
     * {@link RequestTemplate#MIN_SHARED_TAIL} is copied whole, a longer one holds its header and id.
     */
    static final long QUEUED_COPY = RequestTemplate.MIN_SHARED_TAIL + 64L;
    /** A queued request's objects: Netty's outbound entry and buffer duplicate, MINA's write request and IoBuffers. */
    static final long QUEUE_ENTRY = 128;
    /** Left for everything else when suggesting a limit. */
    private static final long BASE = 64L << 20;

    private ClientMemory() {
    }

    static void check(LoadSpec spec) throws InvalidClientPlan {
        ClientCodec codec = spec.protocol().client();
        long request = spec.size() + (long) codec.requestOverhead(spec.size());
        long responseFrame = spec.responseSize() == 0 ? 0 : spec.responseSize() + (long) codec.responseOverhead();
        // A decoder's buffer grows to the next power of two by copying: the old half and the new buffer at once.
        long response = responseFrame == 0 ? 0 : 3 * Long.highestOneBit(Math.max(1, responseFrame * 2 - 1)) / 2;
        long permits = spec.permits();
        long slots = Integer.highestOneBit((int) Math.max(2, Math.min(Integer.MAX_VALUE, permits * 2 - 1))) * 2L;
        long slotBytes = slots * (16 + (spec.openLoop() ? 8 : 0) + (spec.batch() > 0 ? 8 : 0));
        long template = 2 * request;
        long check = 2L * spec.responseSize();
        double inFlight = request + (double) permits * (Math.min(request, QUEUED_COPY) + QUEUE_ENTRY);
        double transport = inFlight + response;
        double heapPerConnection = template + check + slotBytes + transport;
        int connections = spec.connections();

        long heapLimit = JvmMemory.heapLimit();
        double heapNeed = heapPerConnection * connections;
        if (heapNeed > USABLE * heapLimit) {
            throw new InvalidClientPlan("the plan needs about " + bytes(heapNeed)
                    + " of client heap (" + connections + " connections x " + bytes(heapPerConnection) + ": request "
                    + bytes(request) + " kept twice, response check " + bytes(check) + ", " + permits + " request"
                    + (permits == 1 ? "" : "s") + " in flight " + bytes(inFlight) + ", response buffer " + bytes(response)
                    + ", message table " + bytes(slotBytes) + "), more than 3/4 of the " + bytes(heapLimit)
                    + " heap limit: lower --size, --window or --connections, or give the JVM more with "
                    + "NBENCH_JAVA_OPTS=-Xmx" + suggestion(heapNeed));
        }
        long directLimit = JvmMemory.directLimit(heapLimit);
        double directNeed = transport * connections;
        if (directNeed > USABLE * directLimit) {
            throw new InvalidClientPlan("the plan needs about " + bytes(directNeed)
                    + " of direct memory (" + connections + " connections x " + bytes(transport) + ": " + permits
                    + " request" + (permits == 1 ? "" : "s") + " in flight " + bytes(inFlight) + ", response buffer "
                    + bytes(response) + "), more than 3/4 of the " + bytes(directLimit) + " direct-memory limit "
                    + "(-XX:MaxDirectMemorySize): lower --size, --window or --connections, or give the JVM more with "
                    + "NBENCH_JAVA_OPTS=-XX:MaxDirectMemorySize=" + suggestion(directNeed));
        }
    }

    /** A JVM size flag value that holds the need at 3/4 with room for the rest: 33g, 91m. */
    private static String suggestion(double need) {
        double total = need / USABLE + BASE;
        double gib = total / (1L << 30);
        return gib >= 1 ? (long) Math.ceil(gib) + "g" : (long) Math.ceil(total / (1L << 20)) + "m";
    }
}
