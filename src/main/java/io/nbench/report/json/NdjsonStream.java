package io.nbench.report.json;

import com.fasterxml.jackson.databind.JsonNode;
import io.nbench.load.RunListener;
import io.nbench.resources.ResourceSnapshot;
import io.nbench.resources.ResourceUsage;
import io.nbench.stats.ErrorCounts;
import io.nbench.stats.IntervalResult;
import io.nbench.stats.LatencyHistograms;
import io.nbench.stats.Percentiles;
import io.nbench.sweep.Combination;
import java.io.PrintWriter;
import java.util.function.Consumer;
import java.util.Map;

/**
 * {@code --format ndjson}: one JSON object per line, flushed as it is written, so a pipe reader sees each
 * second as it ends. Interval lines have {@code "type": "interval"}; the last line is the full result
 * document (recognizable by its {@code "schema"} field).
 */
public final class NdjsonStream {

    private final PrintWriter out;

    public NdjsonStream(PrintWriter out) {
        this.out = out;
        // Lines are written on the engine's coordinator thread; Jackson's first serialization loads and links
        // its classes (~100 ms), which would stretch the first interval. Pay for it before the run starts.
        ResultDocument.compact(ResultDocWriter.interval(interval(new Combination(Map.of("warm", "up")),
                new IntervalResult(0, true, 0, 1, LatencyHistograms.newHistogram(), ErrorCounts.Snapshot.ZERO), null)));
    }

    /**
     * The listener that prints one combination's intervals. It snapshots the process and machine CPU at the
     * run's start and at each interval (once a second, never per message) to report each second's CPU.
     */
    public RunListener forCombination(Combination combination) {
        return intervals(combination, this::interval);
    }

    /**
     * A listener that turns each interval of {@code combination} into its figures (the stream's line) and hands
     * them to {@code sink}. It snapshots the process and machine CPU at the run's start and at each interval
     * (once a second, never per message) to report each second's CPU.
     */
    public static RunListener intervals(Combination combination, Consumer<IntervalDoc> sink) {
        return new RunListener() {
            private ResourceSnapshot last;

            @Override
            public void onStarted(long startEpochMillis) {
                last = ResourceSnapshot.take();
            }

            @Override
            public void onInterval(IntervalResult i) {
                ResourceSnapshot now = ResourceSnapshot.take();
                ResourceUsage usage = last == null ? null : ResourceUsage.between(last, now);
                last = now;
                sink.accept(interval(combination, i, usage));
            }
        };
    }

    /** The figures of one interval: a line of the stream. {@code usage} may be null (unknown). */
    static IntervalDoc interval(Combination combination, IntervalResult i, ResourceUsage usage) {
        // A slice in which no message completed measured no latency: null, not 0.
        boolean measured = i.latency().getTotalCount() > 0;
        return new IntervalDoc(combination.name(), i.iteration(), i.warmup(),
                i.startNanos(), i.endNanos(), i.latency().getTotalCount(), i.messagesPerSecond(),
                measured ? Percentiles.valueAt(i.latency(), 50) : null,
                measured ? Percentiles.valueAt(i.latency(), 99) : null,
                measured ? Percentiles.valueAt(i.latency(), 100) : null, i.errors().total(),
                usage == null || Double.isNaN(usage.cpuPercent()) ? null : usage.cpuPercent(),
                usage == null || Double.isNaN(usage.stealPercent()) ? null : usage.stealPercent(),
                usage == null ? 0 : usage.gcCount(), usage == null ? 0 : usage.gcMillis());
    }

    /** One second's figures, as {@link #intervals} made them, on a line of their own. */
    public void interval(IntervalDoc figures) {
        line(ResultDocWriter.interval(figures));
    }

    /** The result document as the stream's last line. */
    public void last(JsonNode document) {
        line(document);
    }

    private void line(JsonNode node) {
        out.println(ResultDocument.compact(node));
        out.flush();
    }
}
