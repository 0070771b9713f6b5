package io.nbench.transport.mina;

import io.nbench.protocol.Protocol;
import io.nbench.transport.ListenSettings;
import io.nbench.transport.RunningServer;
import io.nbench.transport.ServerEvents;
import io.nbench.transport.ServerSettings;
import io.nbench.transport.support.Failures;
import io.nbench.transport.support.HandshakeDeadlines;
import io.nbench.transport.support.IdleConnections;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.mina.core.service.IoAcceptor;
import org.apache.mina.core.service.IoProcessor;
import org.apache.mina.core.service.IoServiceStatistics;
import org.apache.mina.core.service.SimpleIoProcessorPool;
import org.apache.mina.core.session.IoEventType;
import org.apache.mina.core.session.IoSession;
import org.apache.mina.filter.codec.ProtocolCodecFilter;
import org.apache.mina.filter.executor.ExecutorFilter;
import org.apache.mina.filter.executor.OrderedThreadPoolExecutor;
import org.apache.mina.filter.ssl.SslFilter;
import org.apache.mina.transport.socket.nio.NioProcessor;
import org.apache.mina.transport.socket.nio.NioSession;
import org.apache.mina.transport.socket.nio.NioSocketAcceptor;
import org.apache.mina.transport.vmpipe.VmPipeAcceptor;
import org.apache.mina.transport.vmpipe.VmPipeAddress;

/**
 * The MINA server: a {@link NioSocketAcceptor} with {@code --io-threads} NioProcessors (or a
 * {@link VmPipeAcceptor}), the framed codec in the filter chain, and {@link MinaServerHandler}.
 */
final class MinaServer implements RunningServer {

    private final IoAcceptor acceptor;
    private final IoProcessor<NioSession> processors;
    private final List<ExecutorService> pools;
    private final MinaConfig config;
    private final ListenSettings listen;
    private final InetSocketAddress address;
    private final IdleConnections idle;
    /** With --tls: closes the sessions whose handshake is not done in time (MINA's SslFilter has no timeout). */
    private final HandshakeDeadlines handshakes;
    private final String executorDescription;
    /** With --tls: the engine, protocols and certificate, for the effective configuration; else null. */
    private final String tlsDescription;

    private MinaServer(IoAcceptor acceptor, IoProcessor<NioSession> processors, List<ExecutorService> pools,
                       MinaConfig config, ListenSettings listen, InetSocketAddress address, IdleConnections idle,
                       HandshakeDeadlines handshakes, String executorDescription, String tlsDescription) {
        this.tlsDescription = tlsDescription;
        this.handshakes = handshakes;
        this.listen = listen;
        this.executorDescription = executorDescription;
        this.idle = idle;
        this.acceptor = acceptor;
        this.processors = processors;
        this.pools = pools;
        this.config = config;
        this.address = address;
    }

    static MinaServer start(ServerSettings settings, ServerEvents events, MinaConfig config) throws IOException {
        config.applyJvmGlobals();
        // --tls: one filter for every session (made before any thread starts, so a failure leaves nothing to stop).
        SslFilter tls = settings.tls() == null ? null : MinaTls.server(settings.tls());
        List<ExecutorService> pools = new ArrayList<>();
        IoAcceptor acceptor;
        SimpleIoProcessorPool<NioSession> processors = null;
        if (config.vmpipe) {
            ExecutorService service = MinaThreads.pool("nbench-mina-vmpipe-server");
            pools.add(service);
            acceptor = new VmPipeAcceptor(service);
        } else {
            ExecutorService accept = MinaThreads.pool("nbench-mina-accept");
            ExecutorService io = MinaThreads.pool("nbench-mina-server");
            pools.add(accept);
            pools.add(io);
            processors = new SimpleIoProcessorPool<>(NioProcessor.class, io, config.processors, null);
            NioSocketAcceptor nio = new ServerAcceptor(accept, processors, events);
            nio.setReuseAddress(true);
            nio.setBacklog(settings.listen().backlog());
            acceptor = nio;
        }
        IdleConnections idle = IdleConnections.start(settings.idleTimeout(), events,
                config.vmpipe ? "nbench-mina-vmpipe-idle" : "nbench-mina-idle");
        HandshakeDeadlines handshakes = tls == null ? null : HandshakeDeadlines.start(settings.tls().handshakeTimeout(),
                events, "nbench-mina-handshakes");
        String executorDescription = "off";
        try {
            config.applyStatistics(acceptor);
            config.applySession(acceptor.getSessionConfig());
            // mina.executor: the handler's messageReceived (the request's work and write, or the echo write) on
            // an ExecutorFilter, as a MINA user takes blocking work off the processors; for framed after the
            // codec, for echo the only filter. Only that event: messageSent resumes a paused session's reading
            // (and decoding), which must stay on its processor. nbench's own pool (--executor-threads, framed
            // only) or delay timer (--work-mode delay) takes precedence.
            boolean handOff = config.executorThreads > 0 && !settings.runtime().answersLater();
            // Any protocol runs its own server codec (CodecSessions). A protocol whose response is its request,
            // or which is Framed's layout, keeps the paths MINA users write instead (echo writes back the very
            // buffer read; framed is a ProtocolDecoder, with mina.executor's hand-off), chosen by those
            // properties: measured (bench/perf.sh, 3 interleaved rounds, 50x16x1k), echo through the codec made
            // 0.75x the messages at 1.4x the CPU per message and framed 0.92x on --executor-threads; framed
            // inline was 2.8x faster through the codec, but these paths are what the mina figures measure, and
            // changing them would move every published mina figure (left to a decision of its own).
            // SslFilter first in the chain: the codec, the executor and the handler behind it see plain bytes.
            if (tls != null) {
                acceptor.getFilterChain().addLast(MinaTls.FILTER, tls);
            }
            Protocol protocol = settings.protocol();
            FramedServerDecoder decoder = null;
            CodecSessions codecs = null;
            if (!protocol.responseIsRequest() && !protocol.framedLayout()) {
                codecs = new CodecSessions(protocol, settings.codec(), events, settings.runtime());
            } else if (protocol.framedLayout()) {
                decoder = new FramedServerDecoder(settings.maxFrame(), events, idle.enabled(), settings.runtime(),
                        handOff);
                acceptor.getFilterChain().addLast(FramedServerDecoder.CODEC,
                        new ProtocolCodecFilter(IoBufferEncoder.INSTANCE, decoder));
            }
            if (handOff) {
                AtomicInteger n = new AtomicInteger();
                OrderedThreadPoolExecutor executor = new OrderedThreadPoolExecutor(config.executorThreads,
                        config.executorThreads, 30, TimeUnit.SECONDS, r -> {
                            Thread t = new Thread(r, "nbench-mina-executor-" + n.incrementAndGet());
                            t.setDaemon(true);
                            return t;
                        });
                pools.add(executor);
                acceptor.getFilterChain().addLast("executor",
                        new ExecutorFilter(executor, IoEventType.MESSAGE_RECEIVED));
                executorDescription = "ExecutorFilter(OrderedThreadPoolExecutor(" + config.executorThreads + "))";
            } else if (config.executorThreads > 0) {
                executorDescription = "off (" + settings.runtime().answeredLaterBy() + ")";
            }
            if (decoder != null || codecs != null) {
                // Last, next to the handler: requests are answered once their responses were written.
                acceptor.getFilterChain().addLast(SentBatches.NAME, new SentBatches.Filter());
            }
            acceptor.setHandler(new MinaServerHandler(events, decoder, codecs, idle, handshakes));
            SocketAddress bindTo = config.vmpipe ? new VmPipeAddress(settings.bind().getPort()) : settings.bind();
            acceptor.bind(bindTo);
        } catch (IOException | RuntimeException e) {
            release(acceptor, processors, pools);
            idle.close();
            if (handshakes != null) {
                handshakes.close();
            }
            String where = config.vmpipe ? "vmpipe:" + settings.bind().getPort()
                    : settings.bind().getHostString() + ":" + settings.bind().getPort();
            // MINA wraps the JDK's BindException ("Address already in use") in "Error while binding on ...".
            throw Failures.bind(e, where);
        }
        SocketAddress local = acceptor.getLocalAddress();
        InetSocketAddress address = local instanceof VmPipeAddress vm
                ? new InetSocketAddress(InetAddress.getLoopbackAddress(), vm.getPort())
                : (InetSocketAddress) local;
        return new MinaServer(acceptor, processors, pools, config, settings.listen(), address, idle, handshakes, executorDescription,
                tls == null ? null : MinaTls.describe(settings.tls()));
    }

    @Override
    public InetSocketAddress address() {
        return address;
    }

    @Override
    public Map<String, String> effectiveConfig() {
        Map<String, String> m = new LinkedHashMap<>(config.describe());
        if (!config.vmpipe) {
            m.putAll(listen.describe());
            m.put("executor", executorDescription);
        }
        if (tlsDescription != null) {
            m.put("tls", tlsDescription);
        }
        return m;
    }

    /** The acceptor's statistics, for tests. */
    IoServiceStatistics statistics() {
        return acceptor.getStatistics();
    }

    /** The open sessions, for tests. */
    Collection<IoSession> sessions() {
        return acceptor.getManagedSessions().values();
    }

    @Override
    public void close() {
        release(acceptor, processors, pools);
        idle.close();
        if (handshakes != null) {
            handshakes.close();
        }
    }

    /** Closes every session and waits for every MINA thread this server started to end. */
    private static void release(IoAcceptor acceptor, IoProcessor<NioSession> processors, List<ExecutorService> pools) {
        if (!acceptor.isDisposed()) {
            acceptor.unbind();
            for (IoSession s : acceptor.getManagedSessions().values()) {
                s.closeNow().awaitUninterruptibly(2000);
            }
            acceptor.dispose(true);
        }
        // The acceptor disposes only a processor pool it created itself.
        if (processors != null) {
            processors.dispose();
        }
        for (ExecutorService pool : pools) {
            MinaThreads.shutdown(pool);
        }
    }
}
