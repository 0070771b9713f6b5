package io.nbench.cli;

import io.nbench.client.ClientPlan;
import io.nbench.client.ResolvedTransport;
import io.nbench.client.Verdict;
import io.nbench.load.AbortCause;
import io.nbench.load.LoadSpec;
import io.nbench.load.RunResult;
import io.nbench.report.CombinationResult;
import io.nbench.report.SweepResult;
import io.nbench.report.json.ResultDoc;
import io.nbench.stats.DrainResult;
import io.nbench.stats.ErrorCounts;
import io.nbench.stats.IterationResult;
import io.nbench.stats.Summary;
import io.nbench.transport.ErrorKind;
import io.nbench.transport.Transport;
import io.nbench.transport.TransportRegistry;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One server's client runs in {@code nbench run}: its warmup runs (the warmup rounds before the first measured
 * one) and one measured run per round, joined into one result as if one client had run them back to back: the
 * warmup runs' iterations as the warmup, every round's measured iterations in the order they ran (numbered
 * on), the summary over all of them, and the verdict ({@code --max-errors}, {@code --threshold}) judged again
 * on the whole, by the client's own {@link Verdict}. Its document ({@link ServerRoundsDocument}) is built by the
 * code that writes a client's, with each round's per-second intervals and server figures carried over from the
 * round's document, renumbered and put on the first run's clock. Every run comes in as its client handed it
 * over ({@link ChildClientListener}): nothing is read back from a file.
 */
final class ServerRounds {

    /** A client run: its typed result and its result document, as its client handed them over. */
    record Run(SweepResult result, ResultDoc document) {
    }

    private final Transport server;
    private final List<Run> warmupRuns = new ArrayList<>();
    private final List<Run> rounds = new ArrayList<>();

    ServerRounds(Transport server) {
        this.server = server;
    }

    Transport server() {
        return server;
    }

    /** A warmup run (its iterations, measured as far as that client knew, are this server's warmup). */
    void warmedUp(SweepResult result, ResultDoc document) {
        warmupRuns.add(new Run(result, document));
    }

    void measured(SweepResult result, ResultDoc document) {
        rounds.add(new Run(result, document));
    }

    /** How many rounds measured this server. */
    int roundsMeasured() {
        return rounds.size();
    }

    /**
     * Every run as one result, judged again on the whole.
     *
     * @param warmups    the warmup iterations planned ({@code --warmup}), for the document's load
     * @param iterations the measured iterations planned ({@code --iterations})
     * @param cut        the rounds were stopped before all had run (SIGINT)
     */
    SweepResult joined(Verdict verdict, int warmups, int iterations, boolean cut) {
        SweepResult first = rounds.get(0).result();
        Map<String, List<CombinationResult>> byName = new LinkedHashMap<>();
        String error = null;
        for (Run r : warmupRuns) {
            error = error != null ? error : r.result().error();
        }
        for (Run r : rounds) {
            for (CombinationResult c : r.result().combinations()) {
                byName.computeIfAbsent(c.combination().name(), k -> new ArrayList<>()).add(c);
            }
            error = error != null ? error : r.result().error();
        }
        List<CombinationResult> joined = new ArrayList<>();
        byName.forEach((name, parts) -> joined.add(joined(verdict, warmupOf(name), parts, warmups, iterations)));
        return Verdict.sweep(first.target(), first.keys(), joined, error, cut);
    }

    private List<CombinationResult> warmupOf(String name) {
        return warmupRuns.stream().flatMap(r -> r.result().combinations().stream())
                .filter(c -> c.combination().name().equals(name)).toList();
    }

    private static CombinationResult joined(Verdict verdict, List<CombinationResult> warm,
                                            List<CombinationResult> parts, int warmups, int iterations) {
        List<CombinationResult> all = new ArrayList<>(warm);
        all.addAll(parts);
        List<IterationResult> its = new ArrayList<>();
        for (CombinationResult c : warm) {
            for (IterationResult it : c.run().iterations()) {
                its.add(renumbered(it, its.size() + 1, true));
            }
        }
        int measured = 0;
        for (CombinationResult c : parts) {
            for (IterationResult it : c.run().iterations()) {
                if (!it.warmup()) {
                    its.add(renumbered(it, ++measured, false));
                }
            }
        }
        CombinationResult base = parts.get(0);
        LoadSpec planned = base.spec();
        LoadSpec.Timing t = planned.timing();
        LoadSpec spec = new LoadSpec(planned.shape(), planned.message(), new LoadSpec.Timing(t.msgsPerThread(),
                t.iterationNanos(), warmups, iterations, t.timeoutNanos(), t.connectTimeoutNanos(),
                t.connectRetryNanos(), t.msgsInAll()),
                planned.verification());
        ErrorCounts.Snapshot errors = ErrorCounts.Snapshot.ZERO;
        long late = 0;
        long reconnects = 0;
        Map<ErrorKind, String> firstErrors = new LinkedHashMap<>();
        String abortReason = null;
        AbortCause abortCause = null;
        boolean interrupted = false;
        DrainResult drain = null;
        for (CombinationResult c : all) {
            RunResult r = c.run();
            if (parts.contains(c)) {
                drain = DrainResult.plus(drain, r.drain()); // each measured round's own drain, in no iteration
            }
            errors = errors.plus(r.errors());
            late += r.lateResponses();
            reconnects += r.reconnects();
            r.firstErrors().forEach(firstErrors::putIfAbsent);
            if (abortReason == null && r.abortReason() != null) {
                abortReason = r.abortReason();
                abortCause = r.abortCause();
            }
            interrupted |= r.interrupted();
        }
        RunResult run = new RunResult(spec, its, new Summary(its, spec.percentiles(), spec.iterationNanos()), errors, late, firstErrors,
                abortReason, abortCause, reconnects, interrupted, all.get(0).run().startEpochMillis(), drain);
        TransportRegistry registry = TransportRegistry.load();
        Transport transport = registry.get(base.transport());
        ClientPlan.Step step = new ClientPlan.Step(base.combination(), new ResolvedTransport(transport,
                registry.resolveOptions(transport, base.transportOptions())), spec);
        return verdict.judge(step, run, base.transportConfig(), base.tls());
    }

    private static IterationResult renumbered(IterationResult it, int index, boolean warmup) {
        return new IterationResult(index, warmup, it.messages(), it.wallNanos(), it.payloadBytes(), it.latency(),
                it.errors(), it.clamped(), it.partial(), it.resources(), it.openLoop(), it.connectLatency(),
                it.handshakeLatency(), it.resumedHandshakes(), it.statusClasses(), it.bytesIn(), it.bytesOut(),
                it.openingHandshakes());
    }

    /**
     * The joined result's document ({@link ServerRoundsDocument}): the first round's environment, command line
     * and options ({@code warmup} and {@code iterations} as planned), every run's intervals and server figures.
     */
    ResultDoc document(SweepResult joined, int warmups, int iterations) {
        return ServerRoundsDocument.build(warmupRuns, rounds, joined, warmups, iterations);
    }
}
