package io.nbench.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nbench.protocol.RequestTemplate;
import io.nbench.stats.IntervalResult;
import io.nbench.stats.IterationResult;
import io.nbench.testkit.Runs;
import io.nbench.testkit.ScriptedServer;
import io.nbench.testkit.ScriptedServer.Action;
import io.nbench.testkit.TestServers;
import io.nbench.transport.ClientConnection;
import io.nbench.transport.ClientSettings;
import io.nbench.transport.ClientTransport;
import io.nbench.transport.ConnectionHandler;
import io.nbench.transport.ErrorKind;
import io.nbench.transport.PayloadView;
import io.nbench.transport.SocketSettings;
import io.nbench.transport.Transport;
import io.nbench.transport.TransportRegistry;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An iteration's counts (sent, completed, errors, in-flight-cap waits) and its wall time come from one
 * instant, its end: whatever happens after the boundary, while listeners print or write files, belongs
 * to the next iteration. Time is moved by hand, so every count is exact.
 */
class IterationBoundaryTest {

    static final long MS = 1_000_000L;
    static final long T0 = 1_000_000 * MS;

    /** A clock that moves only when the test moves it; waits are short real parks that re-check it. */
    static final class ManualClock implements NanoClock {
        final AtomicLong now = new AtomicLong(T0);
        /** Times a pacer thread parked waiting for a moment in time. */
        final AtomicLong pacerParks = new AtomicLong();

        @Override
        public long nanoTime() {
            return now.get();
        }

        @Override
        public void park(Object blocker, long nanos) {
            if (Thread.currentThread() instanceof PacerThread) {
                pacerParks.incrementAndGet();
            }
            LockSupport.parkNanos(blocker, Math.min(nanos, 100_000L));
        }
    }

    /** Counts responses the engine has finished handling, so the test can wait until the client is idle. */
    static final class Handled {
        private long count;

        synchronized void increment() {
            count++;
            notifyAll();
        }

        /** Waits until at least n responses were handled; false after 10 s of real time. */
        synchronized boolean await(long n) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (count < n) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                TimeUnit.NANOSECONDS.timedWait(this, left);
            }
            return true;
        }
    }

    /** A real client transport whose connections tell {@code handled} after the engine took each response. */
    static ClientTransport counting(ClientTransport real, Handled handled) {
        return observed(real, () -> { }, handled::increment);
    }

    /** A real client transport whose connections run {@code before} and {@code after} the engine takes each response. */
    static ClientTransport observed(ClientTransport real, Runnable before, Runnable after) {
        return new ClientTransport() {
            @Override
            public ClientConnection connect(InetSocketAddress remote, RequestTemplate template, ConnectionHandler h)
                    throws IOException {
                return real.connect(remote, template, new ConnectionHandler() {
                    @Override
                    public void onResponse(long id, int status, PayloadView payload) {
                        before.run();
                        h.onResponse(id, status, payload);
                        after.run();
                    }

                    @Override
                    public void onWritten(long id) {
                        h.onWritten(id);
                    }

                    @Override
                    public void onError(ErrorKind kind, String message) {
                        h.onError(kind, message);
                    }

                    @Override
                    public void onClosed() {
                        h.onClosed();
                    }
                });
            }

            @Override
            public Map<String, String> effectiveConfig() {
                return real.effectiveConfig();
            }

            @Override
            public void close() {
                real.close();
            }
        };
    }

    @Test
    @Timeout(60)
    void aListenerThatTakes100msAtTheBoundaryMovesNoCount() throws Exception {
        // 100 msg/s on one connection, one in flight at most: message k is due at T0 + 10 ms * k. Iterations
        // of 993 ms, so no message is due exactly at a boundary. Every 5th request is rejected (an error).
        long iteration = 993 * MS;
        long interval = 10 * MS;
        ManualClock clock = new ManualClock();
        Handled handled = new Handled();
        Semaphore iterationsEnded = new Semaphore(0);
        AtomicReference<String> listenerFailure = new AtomicReference<>();
        RunListener slowAtFirstBoundary = new RunListener() {
            private boolean done;

            @Override
            public void onInterval(IntervalResult slice) {
                if (done || slice.endNanos() != iteration) {
                    return;
                }
                done = true;
                // The listener "takes 100 ms": ten more messages fall due (T0 + 1000 ms ... + 1090 ms), the
                // pacer sends them (each waiting in turn for the one-in-flight cap; two are rejected) and
                // they are answered before it returns.
                clock.now.addAndGet(100 * MS);
                try {
                    if (!handled.await(110)) {
                        listenerFailure.set("the messages due during the listener were not answered");
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }

            @Override
            public void onIteration(IterationResult r) {
                iterationsEnded.release();
            }
        };
        try (ScriptedServer server = new ScriptedServer(i -> i % 5 == 4 ? Action.REJECT : Action.ANSWER)) {
            Runs.Workload w = Runs.workload().threads(1).connections(1).iterationTime(Duration.ofNanos(iteration))
                    .warmup(1).iterations(1).rate(100).maxInflight(1).size(64);
            TransportRegistry registry = TransportRegistry.load();
            Transport nio = registry.get("nio");
            ClientSettings settings = new ClientSettings(w.protocol, new SocketSettings(2, true, 0, 0),
                    Duration.ofSeconds(5), false, TestServers.MAX_FRAME, registry.resolveOptions(nio, Map.of()));
            try (ClientTransport real = nio.newClient(settings)) {
                BenchmarkRun run = new BenchmarkRun(w.spec(), slowAtFirstBoundary, clock);
                CompletableFuture<RunResult> result = CompletableFuture.supplyAsync(() -> {
                    try {
                        return run.execute(counting(real, handled), server.address());
                    } catch (RunFailure e) {
                        throw new IllegalStateException(e);
                    }
                });
                // Step the clock 1 ms at a time; after each step wait until every message due has been
                // sent and answered; at each boundary wait until the iteration has been reported.
                long[] boundaries = {T0 + iteration, T0 + 2 * iteration};
                int b = 0;
                while (b < boundaries.length) {
                    long now = clock.now.get();
                    assertTrue(handled.await((now - T0) / interval + 1), "the client answered what was due by "
                            + (now - T0) / MS + " ms; " + listenerFailure.get());
                    long next = now + MS;
                    if (next >= boundaries[b]) {
                        clock.now.set(boundaries[b]);
                        assertTrue(iterationsEnded.tryAcquire(10, TimeUnit.SECONDS), "iteration " + b + " ended");
                        b++;
                    } else {
                        clock.now.set(next);
                    }
                }
                RunResult r = result.get(30, TimeUnit.SECONDS);
                assertNull(listenerFailure.get());
                assertNull(r.abortReason());

                IterationResult warmup = r.iterations().get(0);
                assertEquals(iteration, warmup.wallNanos());
                assertEquals(100, warmup.openLoop().sent(), "sent: messages 0-99, due by 990 ms");
                assertEquals(80, warmup.messages(), "answered (20 of them rejected)");
                assertEquals(20, warmup.errors().get(ErrorKind.REJECTED));
                assertEquals(20, warmup.errors().total());
                assertEquals(0, warmup.openLoop().maxInflightHits(), "no message waited before the boundary");

                IterationResult measured = r.iterations().get(1);
                assertEquals(iteration, measured.wallNanos());
                assertEquals(99, measured.openLoop().sent(), "sent: messages 100-198, due from 1000 to 1980 ms");
                assertEquals(80, measured.messages());
                assertEquals(19, measured.errors().get(ErrorKind.REJECTED));
                assertEquals(19, measured.errors().total());
            }
        }
    }
}
