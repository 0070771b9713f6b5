package io.nbench.transport.mina;

import io.nbench.protocol.StreamedRequest;
import io.nbench.transport.Availability;
import io.nbench.transport.BaseTransport;
import io.nbench.transport.ClientSettings;
import io.nbench.transport.ClientTransport;
import io.nbench.transport.OptionValues;
import io.nbench.transport.RunningServer;
import io.nbench.transport.ServerEvents;
import io.nbench.transport.ServerSettings;
import io.nbench.transport.TransportOption;
import java.io.IOException;
import java.util.List;

/** Apache MINA 2.2 over TCP: NioSocketAcceptor / NioSocketConnector with a cumulative protocol decoder. */
public final class MinaTransport extends BaseTransport {

    /** Option names after the transport's prefix. */
    static final String STATS = "stats";
    static final String READ_BUFFER = "read-buffer";
    static final String READ_BUFFER_MIN = "read-buffer-min";
    static final String READ_BUFFER_MAX = "read-buffer-max";
    static final String DIRECT = "direct";
    static final String ALLOCATOR = "allocator";
    static final String EXECUTOR = "executor";

    static final String PREFIX = "mina.";

    private static final List<TransportOption> OPTIONS = List.of(
            statsOption(PREFIX),
            TransportOption.size(PREFIX + READ_BUFFER, "2048",
                    "initial read buffer per session (MINA's default 2048); MINA then adapts it "
                            + "between min and max"),
            TransportOption.size(PREFIX + READ_BUFFER_MIN, "64", "smallest read buffer MINA shrinks to (MINA's default)"),
            TransportOption.size(PREFIX + READ_BUFFER_MAX, "64k", "largest read buffer MINA grows to (MINA's default)"),
            directOption(PREFIX),
            allocatorOption(PREFIX),
            TransportOption.threadsOrOff(PREFIX + EXECUTOR,
                    "server: an ExecutorFilter with an OrderedThreadPoolExecutor of N threads before the handler "
                    + "(framed: after the codec), MINA's own way to run the handler (the echo write, or the "
                    + "request's --work and response) off the processor threads, in order per session; its queue is unbounded, so it never rejects; ignored with --executor-threads "
                    + "(nbench's bounded pool) and --work-mode delay"));

    static TransportOption statsOption(String prefix) {
        return TransportOption.choice(prefix + STATS, MinaStatistics.ON, MinaStatistics.MODES,
                "IoServiceStatistics: on = MINA's default (one shared ReentrantLock), off = "
                        + "setStatisticsCalcEnabled(false), spin-lock = lock swapped for a non-parking spin lock "
                        + "(counts exact), noop-lock = no locking (counts unreliable)");
    }

    static TransportOption directOption(String prefix) {
        return TransportOption.bool(prefix + DIRECT, false,
                "IoBuffer.setUseDirectBuffer: direct or heap buffers (JVM-global in MINA)");
    }

    static TransportOption allocatorOption(String prefix) {
        return TransportOption.choice(prefix + ALLOCATOR, "simple", List.of("simple", "cached"),
                "IoBuffer allocator (JVM-global in MINA): SimpleBufferAllocator allocates every buffer, "
                        + "so with direct buffers every read allocates direct memory; CachedBufferAllocator pools "
                        + "per thread");
    }

    public MinaTransport() {
        super("mina", "Apache MINA 2.2, NioSocketAcceptor/NioSocketConnector with a CumulativeProtocolDecoder codec", OPTIONS,
                "MINA's messageSent: the NioProcessor wrote the request's last byte to the socket (write(2))");
    }

    /**
     * Scheduled writes up to {@link WriteBound#HIGH} and one more response, one request (at most 64 KiB
     * each: larger ones stream) and the read buffer at its largest.
     */
    @Override
    public long serverMemoryPerConnection(ServerSettings settings) {
        return WriteBound.HIGH + 2L * StreamedRequest.WHOLE
                + settings.options().integer(PREFIX + READ_BUFFER_MAX);
    }

    @Override
    public RunningServer startServer(ServerSettings settings, ServerEvents events) throws IOException {
        return MinaServer.start(settings, events, new MinaConfig(PREFIX, settings.options(), settings.socket(), false));
    }

    /** MINA's SslFilter over the JDK's SSLEngine ({@link MinaTls}). */
    @Override
    public Availability tls(OptionValues options) {
        return Availability.yes();
    }

    @Override
    public ClientTransport newClient(ClientSettings settings) throws IOException {
        return new MinaClient(settings, new MinaConfig(PREFIX, settings.options(), settings.socket(), false));
    }
}
