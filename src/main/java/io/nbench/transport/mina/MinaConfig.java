package io.nbench.transport.mina;

import io.nbench.transport.OptionValues;
import io.nbench.transport.SocketSettings;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.mina.core.buffer.CachedBufferAllocator;
import org.apache.mina.core.buffer.IoBuffer;
import org.apache.mina.core.buffer.IoBufferAllocator;
import org.apache.mina.core.buffer.SimpleBufferAllocator;
import org.apache.mina.core.service.IoService;
import org.apache.mina.core.session.IoSessionConfig;
import org.apache.mina.transport.socket.SocketSessionConfig;

/** The resolved {@code mina.*} (or {@code mina-vmpipe.*}) options, applied alike by client and server. */
final class MinaConfig {

    final boolean vmpipe;
    final String stats;
    final boolean direct;
    final String allocator;
    final int readBuffer;
    final int readBufferMin;
    final int readBufferMax;
    final SocketSettings socket;
    final int processors;
    /** mina.executor: threads of the ExecutorFilter's OrderedThreadPoolExecutor; 0 = off. */
    final int executorThreads;

    MinaConfig(String prefix, OptionValues options, SocketSettings socket, boolean vmpipe) {
        this.vmpipe = vmpipe;
        this.stats = options.string(prefix + MinaTransport.STATS);
        this.direct = options.bool(prefix + MinaTransport.DIRECT);
        this.allocator = options.string(prefix + MinaTransport.ALLOCATOR);
        this.socket = socket;
        this.processors = socket.ioThreads(); // resolved by IoThreads before it gets here
        if (vmpipe) {
            // VmPipe hands each written buffer to the peer's filter chain; there is no read buffer.
            this.readBuffer = 0;
            this.readBufferMin = 0;
            this.readBufferMax = 0;
            this.executorThreads = 0;
        } else {
            this.readBuffer = options.integer(prefix + MinaTransport.READ_BUFFER);
            this.readBufferMin = options.integer(prefix + MinaTransport.READ_BUFFER_MIN);
            this.readBufferMax = options.integer(prefix + MinaTransport.READ_BUFFER_MAX);
            this.executorThreads = options.integer(prefix + MinaTransport.EXECUTOR);
            if (readBufferMin < 1 || readBufferMin > readBuffer || readBuffer > readBufferMax) {
                throw new IllegalArgumentException("-O " + prefix + "read-buffer-min (" + readBufferMin + ") <= "
                        + prefix + "read-buffer (" + readBuffer + ") <= " + prefix + "read-buffer-max ("
                        + readBufferMax + ") must hold, all at least 1 byte");
            }
        }
    }

    /**
     * Sets MINA's JVM-global state: the exception monitor and the buffer defaults. {@code IoBuffer.setUseDirectBuffer} and {@code IoBuffer.setAllocator}
     * are static, JVM-global state: every MINA service in this JVM (client and server in one process
     * included) allocates with whatever was set last. nbench sets them once when a MINA transport
     * starts, and the effective configuration reports what is really in force.
     */
    void applyJvmGlobals() {
        QuietExceptionMonitor.install();
        synchronized (MinaConfig.class) {
            IoBuffer.setUseDirectBuffer(direct);
            IoBufferAllocator current = IoBuffer.getAllocator();
            boolean cached = allocator.equals("cached");
            // setAllocator disposes the previous allocator, so swap only when the kind changes.
            if (cached && !(current instanceof CachedBufferAllocator)) {
                IoBuffer.setAllocator(new CachedBufferAllocator());
            } else if (!cached && !(current instanceof SimpleBufferAllocator)) {
                IoBuffer.setAllocator(new SimpleBufferAllocator());
            }
        }
    }

    void applyStatistics(IoService service) {
        MinaStatistics.apply(service, stats);
    }

    void applySession(IoSessionConfig config) {
        if (vmpipe) {
            return;
        }
        // MINA checks min <= max on every setter; lower min first so any valid triple can be set.
        config.setMinReadBufferSize(1);
        config.setMaxReadBufferSize(readBufferMax);
        config.setMinReadBufferSize(readBufferMin);
        config.setReadBufferSize(readBuffer);
        if (config instanceof SocketSessionConfig s) {
            s.setTcpNoDelay(socket.tcpNoDelay());
            s.setKeepAlive(socket.keepAlive());
            if (socket.sndbuf() > 0) {
                s.setSendBufferSize(socket.sndbuf());
            }
            if (socket.rcvbuf() > 0) {
                s.setReceiveBufferSize(socket.rcvbuf());
            }
        }
    }

    Map<String, String> describe() {
        Map<String, String> m = new LinkedHashMap<>();
        if (vmpipe) {
            m.put("io", "vmpipe (in-JVM: writes run the peer's filter chain on the writer's thread)");
        } else {
            m.put("io", "nio");
            m.put("processors", Integer.toString(processors));
        }
        m.put("stats", MinaStatistics.describe(stats));
        if (!vmpipe) {
            m.put("read-buffer", Integer.toString(readBuffer));
            m.put("read-buffer-min", Integer.toString(readBufferMin));
            m.put("read-buffer-max", Integer.toString(readBufferMax));
        }
        // What is in force JVM-wide, which is what this run allocated with.
        m.put("direct", Boolean.toString(IoBuffer.isUseDirectBuffer()));
        IoBufferAllocator inForce = IoBuffer.getAllocator();
        m.put("allocator", inForce instanceof CachedBufferAllocator ? "cached"
                : inForce instanceof SimpleBufferAllocator ? "simple" : inForce.getClass().getName());
        if (!vmpipe) {
            m.putAll(socket.describe());
        }
        return m;
    }
}
