package io.nbench.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.management.ThreadMXBean;
import io.nbench.load.Driver;
import io.nbench.load.Measure;
import io.nbench.protocol.Protocol;
import io.nbench.testkit.NbenchProcess;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;

/**
 * The product requirement that a client allocates nothing per message in rtt mode, checked on its I/O threads
 * (which also run the engine's response handling) with the JVM's per-thread allocation counters: runs on the
 * same client, once the JIT has compiled the hot paths, may allocate only the per-run constant (connection
 * set-up and close, the engine's per-thread recorders), never something per message.
 *
 * <p>Measured in a JVM of its own, as a user's nbench process runs one client transport: in the test JVM, after
 * hundreds of other tests, the full JDK 25 run saw 9-12 B/msg on netty's event loops (the profiles of call
 * sites shared by every transport, and Netty's allocator state, are other tests'), while a fresh JVM, and the
 * CLI's own per-iteration figure, show 0.0 B/msg. The child has a 1 GiB heap: with 512 MiB (so Netty's direct
 * memory limit is 512 MiB too) netty's event loops allocate per message at 5 KiB, Netty's allocator's doing.
 *
 * <p>The child compiles in the foreground ({@code -Xbatch}): a method that reaches the JIT's thresholds is
 * compiled before it runs again, so after a warm-up of a fixed number of messages the measured runs run C2's
 * code however busy the machine is. With compilation in the background, a loaded machine's compiler threads
 * fall behind and the measured runs still run C1's code, which does no escape analysis and allocates what
 * the steady state does not (seen: 46 B/msg after a warm-up of 80,000 messages, 0 after 400,000).
 */
public final class IoThreadAllocation {

    private static final int THREADS = 2;
    /** Messages of the runs compared, per thread and iteration; each run has 1 warmup and 2 measured iterations. */
    private static final long SMALL = 5_000;
    private static final long LARGE = 25_000;
    /**
     * The warm-up run's, likewise: 180,000 messages on the I/O threads, each hot method run far past C2's
     * thresholds, compiled in the foreground. With 20,000 (120,000 messages) every case's measured runs, nio and
     * netty, at a load average of 10 to 14, were already at the per-run constant (small and large runs at most
     * 1.3 KiB apart, the bound 12 KiB); the cost of the warm-up is the foreground compilation, not the messages
     * (netty: 19 s of a 27 s child at 20,000), and 100,000 added some 400,000 messages to each case.
     */
    private static final long WARMUP = 30_000;

    private IoThreadAllocation() {
    }

    /**
     * Measures {@code client}'s threads named {@code threadPrefix...} against a {@code server} server in a child
     * JVM and fails if they allocated 1 byte per 10 messages or more.
     */
    public static void assertNonePerMessage(String client, String server, String threadPrefix, Protocol protocol,
                                            Driver driver, int size, int window, int connections) throws Exception {
        Assumptions.assumeTrue(ManagementFactory.getThreadMXBean()
                instanceof ThreadMXBean, "needs HotSpot's allocation counters");
        List<String> command = new ArrayList<>(NbenchProcess.command(List.of("-Xmx1g", "-Xbatch"),
                IoThreadAllocation.class.getName()));
        command.addAll(List.of(client, server, threadPrefix, protocol.label(), driver.name(), Integer.toString(size),
                Integer.toString(window), Integer.toString(connections)));
        NbenchProcess.Result r = NbenchProcess.run(Path.of(System.getProperty("user.dir")), command);
        assertEquals(0, r.exit(), "the measuring JVM failed:\n" + r.all());
        String[] figures = r.out().lines().filter(l -> l.startsWith("allocated ")).findFirst()
                .orElseThrow(() -> new AssertionError("no figures from the measuring JVM:\n" + r.all())).split(" ");
        long small = Long.parseLong(figures[1]);
        long large = Long.parseLong(figures[2]);
        // Every message the runs sent, warmup iterations included, is one the threads handled. The smallest object
        // is 16 bytes: one per message would be 16 B/msg, one per 10 messages 1.6 B/msg, and either fails here. The
        // per-run constant itself varies by a few KiB between runs (a JDK 25 CI run on a loaded machine: 1,087,592
        // and 1,089,256 bytes, 0.014 B/msg apart), so the bound is 1 byte per 10 messages, not per 100.
        long extraMessages = THREADS * 3 * (LARGE - SMALL);
        assertTrue(large - small < extraMessages / 10, threadPrefix + " threads allocated " + small + " bytes in a run "
                + "of " + THREADS * 3 * SMALL + " messages and " + large + " in a run of " + THREADS * 3 * LARGE
                + " (least of 3 each)");
    }

    /**
     * The measurement, in the child JVM: a warm-up run, then the least of three runs of each size (a run now
     * and then allocates an allocator chunk or an engine structure once, hundreds of KiB, not per message);
     * prints {@code allocated SMALL LARGE}.
     */
    public static void main(String[] args) throws Exception {
        TransportRegistry registry = TransportRegistry.load();
        Transport client = registry.get(args[0]);
        Transport server = registry.get(args[1]);
        String threadPrefix = args[2];
        Protocol protocol = Protocol.parse(args[3]);
        TransportTesting.Case c = new TransportTesting.Case(protocol, Integer.parseInt(args[5]),
                Integer.parseInt(args[5]), Integer.parseInt(args[6]), Driver.valueOf(args[4]), Measure.RTT);
        int connections = Integer.parseInt(args[7]);
        try (RunningServer running = TransportTesting.startServer(server, protocol, ServerEvents.NONE);
             ClientTransport transport = TransportTesting.newClient(client, protocol, false)) {
            TransportTesting.ioThreadBytesDuringRun(transport, running, c, connections, WARMUP, threadPrefix);
            long small = Long.MAX_VALUE;
            long large = Long.MAX_VALUE;
            for (int i = 0; i < 3; i++) {
                small = Math.min(small, TransportTesting.ioThreadBytesDuringRun(transport, running, c, connections,
                        SMALL, threadPrefix));
                large = Math.min(large, TransportTesting.ioThreadBytesDuringRun(transport, running, c, connections,
                        LARGE, threadPrefix));
            }
            System.out.println("allocated " + small + " " + large);
        }
    }
}
