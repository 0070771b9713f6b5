package io.nbench.server.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.nbench.stats.HistogramCodec;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** The server's measurements: lock-free recording from many threads, reset, and the JSON and text views. */
class MeasurementsTest {

    private final long[] now = {5_000_000_000L};
    private final Measurements m = new Measurements(() -> now[0], false);

    @Test
    void threadsRecordingAtOnceWhileAReaderDrainsLoseNoCount() throws Exception {
        int threads = 4;
        int each = 50_000;
        CyclicBarrier go = new CyclicBarrier(threads + 1);
        List<Thread> writers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int id = t;
            Thread w = new Thread(() -> {
                try {
                    go.await();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
                for (int i = 0; i < each; i++) {
                    m.served(100 + id, 17);
                    m.processed(1_000 + i % 1000);
                    m.queueWait(id);
                }
            });
            w.start();
            writers.add(w);
        }
        go.await();
        long seen = 0;
        // Drain while they write: what a drain misses must land in the next one, never in neither.
        while (writers.stream().anyMatch(Thread::isAlive)) {
            m.sample();
            seen = Math.max(seen, m.snapshot(0).sinceStartHistograms().processing().getTotalCount());
        }
        for (Thread w : writers) {
            w.join();
        }
        MetricsSnapshot s = m.snapshot(0);
        long total = (long) threads * each;
        assertEquals(total, s.sinceStart().requests());
        assertEquals(total, s.sinceStartHistograms().processing().getTotalCount());
        assertEquals(total, s.sinceStartHistograms().queueWait().getTotalCount());
        assertEquals(total, s.sinceStartHistograms().requestSize().getTotalCount());
        assertEquals(total, s.sinceResetHistograms().responseSize().getTotalCount());
        assertEquals(103, s.sinceStartHistograms().requestSize().getMaxValue());
        assertEquals(total * 17, s.sinceStart().bytesOut());
        assertTrue(seen <= total);
    }

    @Test
    void resetZeroesTheFiguresSinceResetAndKeepsTheCumulativeOnes() {
        m.served(28, 25);
        m.processed(2_000);
        m.received(28);
        m.rejected(12);
        now[0] += 3_000_000_000L;
        m.reset();
        now[0] += 1_000_000_000L;
        m.served(101, 17);
        m.processed(4_000);
        MetricsSnapshot s = m.snapshot(7);
        assertEquals(2, s.sinceStart().requests());
        assertEquals(1, s.sinceStart().rejected());
        assertEquals(2, s.sinceStartHistograms().processing().getTotalCount());
        assertEquals(1, s.sinceReset().requests());
        assertEquals(0, s.sinceReset().rejected());
        assertEquals(1_000_000_000L, s.sinceReset().nanos());
        assertEquals(4_000_000_000L, s.sinceStart().nanos());
        assertEquals(1, s.sinceResetHistograms().processing().getTotalCount());
        assertEquals(4_000, s.sinceResetHistograms().processing().getMaxValue(), 4);
        assertEquals(7, s.openConnections(), "the connection gauge is not reset");
    }

    /** received = answered + rejected + dropped on close + dropped at shutdown + in progress, bytes in at receipt. */
    @Test
    void everyRequestReceivedIsAnsweredRejectedDroppedOrInProgressAndTheStopSettlesTheRest() {
        m.served(117, 30); // the I/O thread's path: received and answered at once
        for (int i = 0; i < 5; i++) {
            m.received(117); // the pool's path: received now, its outcome later
        }
        Counters c = m.snapshot(0).sinceStart();
        assertEquals(6, c.received());
        assertEquals(6 * 117, c.bytesIn(), "bytes in when read, answered or not");
        assertEquals(5, c.inProgress());
        m.answered(117, 30);
        m.rejected(13);
        m.dropped(1, false);
        c = m.snapshot(0).sinceStart();
        assertEquals(2, c.requests());
        assertEquals(1, c.rejected());
        assertEquals(1, c.dropped());
        assertEquals(2, c.inProgress());
        assertEquals(73, c.bytesOut());
        m.settleAtShutdown();
        c = m.snapshot(0).sinceStart();
        assertEquals(2, c.droppedAtShutdown(), "what was in progress when the server stopped");
        assertEquals(0, c.inProgress());
        assertEquals(c.received(), c.requests() + c.rejected() + c.dropped() + c.droppedAtShutdown());
    }

    @Test
    void jsonHasTheCountsSummariesAndTheCumulativeHistogramEncoded() throws Exception {
        for (int i = 1; i <= 100; i++) {
            m.served(101, 17);
            m.processed(i * 1_000L);
        }
        now[0] += 2_000_000_000L;
        m.reset();
        JsonNode j = new ObjectMapper().readTree(MetricsJson.line(m.snapshot(3), 0));
        assertEquals(MetricsJson.FORMAT, j.get("format").asText());
        assertEquals(3, j.get("openConnections").asLong());
        assertEquals(100, j.at("/sinceStart/requests").asLong());
        assertEquals(50.0, j.at("/sinceStart/requestsPerSecond").asDouble(), 1e-9);
        assertEquals(0, j.at("/sinceReset/requests").asLong());
        assertEquals(50_000, j.at("/sinceStart/processingNanos/p50").asLong(), 50);
        assertEquals(100_000, j.at("/sinceStart/processingNanos/max").asLong(), 100);
        assertEquals(101, j.at("/sinceStart/requestBytes/p99").asLong());
        assertEquals(17, j.at("/sinceStart/responseBytes/max").asLong());
        assertTrue(j.at("/sinceStart/cpuNanos").isNull(), "not read in this test");
        assertEquals(100, HistogramCodec.decode(j.at("/sinceStart/encoded/processingNanos").asText()).getTotalCount());
    }

    @Test
    void reportShowsTheHistogramsRatesAndTheIntervalLineItsWindow() {
        m.served(101, 17);
        m.processed(12_300);
        m.queueWait(4_000);
        now[0] += 1_000_000_000L;
        String report = MetricsText.report(m.snapshot(1), false, 0);
        assertTrue(report.startsWith("server metrics after 1.0 s: connections 0 total (1 open), requests 1,"), report);
        assertTrue(report.lines().anyMatch(l -> l.matches("  processing, µs.*\\s1\\s+12\\.3\\s+12\\.3\\s.*")), report);
        assertTrue(report.lines().anyMatch(l -> l.matches("  request size, bytes\\s+1\\s+101\\s.*")), report);
        assertTrue(report.contains("rates: 1 requests/s"), report);
        String line = MetricsText.intervalLine(m.takeInterval(), 1, 1_000_000_000L);
        assertEquals("nbench server: +1.0s 1 req/s, processing p50 12.3 p99 12.3 max 12.3 µs, queue wait p50 4.0 p99 4.0 "
                + "max 4.0 µs, rejected 0, connections 1 open, CPU -", line);
        now[0] += 1_000_000_000L;
        assertTrue(MetricsText.intervalLine(m.takeInterval(), 0, 2_000_000_000L)
                .contains(" 0 req/s, processing -, queue wait -,"), "the next interval starts empty");
    }

    /** The I/O threads' side allocates nothing per request once the histograms cover the values' range. */
    @Test
    void recordingAllocatesNothingPerRequest() {
        java.lang.management.ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        Assumptions.assumeTrue(mx instanceof com.sun.management.ThreadMXBean,
                "needs HotSpot's allocation counters");
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) mx;
        Runnable requests = () -> {
            for (int i = 0; i < 200_000; i++) {
                m.served(117, 30);
                m.processed(5_000 + i % 100_000);
                m.queueWait(1_000 + i % 1000);
            }
        };
        requests.run(); // the histograms grow to the values' range, the JIT compiles the path
        long before = threads.getCurrentThreadAllocatedBytes();
        requests.run();
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        assertTrue(allocated < 200_000, allocated + " bytes for 200,000 requests: about one byte per request or more");
    }
}
