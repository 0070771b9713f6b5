package io.nbench.server;

import io.nbench.resources.FileDescriptors;
import io.nbench.resources.JvmMemory;
import io.nbench.transport.ServerSettings;
import io.nbench.transport.Transport;
import java.util.Locale;

/**
 * The server's {@code --max-connections}: what it buffers is bounded per connection by its transport
 * ({@link Transport#serverMemoryPerConnection}), and in total by how many connections it serves at once.
 * By default that many fit in 3/4 of the JVM's memory (the smaller of the heap and direct-memory limits,
 * since a transport may buffer in either), so a crowd of peers that send and never read cannot exhaust it.
 *
 * <p>Each connection is also a file descriptor: the default never exceeds what the descriptor limit
 * ({@code ulimit -n}) leaves after those open already and {@link #DESCRIPTOR_HEADROOM} for the transport's
 * own (selectors, event loops, the monitor), so the server refuses what it could not accept anyway and
 * advertises what it can hold.
 *
 * @param max           connections served at once; more are closed as they arrive
 * @param perConnection what one connection can hold, 0 when the transport does not say
 * @param why           how the figure was chosen, for the banner
 * @param byDescriptors whether the descriptor limit chose it (the hint then says to raise that)
 */
public record ServerConnectionLimit(int max, long perConnection, String why, boolean byDescriptors) {

    /** Descriptors a server needs besides its connections: its transport's selectors and loops, the monitor's. */
    public static final int DESCRIPTOR_HEADROOM = 32;

    public static ServerConnectionLimit of(Integer requested, Transport transport, ServerSettings settings) {
        long perConnection = transport.serverMemoryPerConnection(settings);
        if (requested != null) {
            return new ServerConnectionLimit(requested, perConnection, "--max-connections", false);
        }
        ServerConnectionLimit byMemory = byMemory(transport, perConnection);
        long[] fds = FileDescriptors.usage();
        if (fds == null) {
            return byMemory;
        }
        long byDescriptors = Math.max(1, fds[1] - fds[0] - DESCRIPTOR_HEADROOM);
        if (byDescriptors >= byMemory.max) {
            return byMemory;
        }
        return new ServerConnectionLimit((int) byDescriptors, perConnection, String.format(Locale.ROOT,
                "the descriptors left by ulimit -n %d: %d open already, %d kept for the server", fds[1], fds[0],
                DESCRIPTOR_HEADROOM), true);
    }

    private static ServerConnectionLimit byMemory(Transport transport, long perConnection) {
        if (perConnection <= 0) {
            return new ServerConnectionLimit(Integer.MAX_VALUE, 0, "no limit: " + transport.name()
                    + " does not say what a connection holds", false);
        }
        long heap = JvmMemory.heapLimit();
        long memory = Math.min(heap, JvmMemory.directLimit(heap));
        long max = Math.max(1, (long) (memory * JvmMemory.USABLE) / perConnection);
        return new ServerConnectionLimit((int) Math.min(Integer.MAX_VALUE, max), perConnection, String.format(
                Locale.ROOT, "up to %s each in 3/4 of %s of memory", JvmMemory.bytes(perConnection),
                JvmMemory.bytes(memory)), false);
    }

    public boolean limited() {
        return max < Integer.MAX_VALUE;
    }

    /** The end of the line logged when a connection is refused: what to change. */
    public String hint() {
        if (byDescriptors) {
            return "; raise the descriptor limit (ulimit -n) in the shell that starts the server";
        }
        return perConnection > 0
                ? String.format(Locale.ROOT, " (each may hold up to %s); raise --max-connections, giving the JVM the "
                        + "memory with NBENCH_JAVA_OPTS=-Xmx...", JvmMemory.bytes(perConnection))
                : "; raise --max-connections";
    }

    /** For the banner: ", max connections 3,840 (up to 1.2 MiB each in 3/4 of 6 GiB of memory)". */
    public String describe() {
        return limited() ? String.format(Locale.ROOT, ", max connections %,d (%s)", max, why) : "";
    }
}
