package io.nbench.server;

import io.nbench.server.metrics.MetricsText;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The server's one metrics thread (a daemon, so it never holds the JVM up): once a second it drains the
 * recorders and keeps the last 10 s of counts for the recent rates; every {@code --report-interval} it
 * prints one line. It only ever takes the readers' lock, so the I/O threads never wait for it.
 */
public final class MetricsSampler implements AutoCloseable {

    private final ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "nbench-server-metrics");
        t.setDaemon(true);
        return t;
    });

    /**
     * @param reportInterval null for no periodic line
     */
    public MetricsSampler(ServerMetrics metrics, Duration reportInterval, PrintWriter out) {
        thread.scheduleAtFixedRate(metrics.measurements()::sample, 1, 1, TimeUnit.SECONDS);
        if (reportInterval != null) {
            long start = System.nanoTime();
            long every = reportInterval.toNanos();
            thread.scheduleAtFixedRate(() -> {
                String line = MetricsText.intervalLine(metrics.measurements().takeInterval(), metrics.openConnections(),
                        System.nanoTime() - start);
                synchronized (out) {
                    out.println(line);
                    out.flush();
                }
            }, every, every, TimeUnit.NANOSECONDS);
        }
    }

    @Override
    public void close() {
        thread.shutdownNow();
    }
}
