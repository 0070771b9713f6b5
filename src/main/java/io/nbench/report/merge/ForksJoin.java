package io.nbench.report.merge;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nbench.report.json.CombinationDoc;
import io.nbench.report.json.ConfigurationDoc;
import io.nbench.report.json.IterationDoc;
import io.nbench.report.json.ResultDoc;
import io.nbench.report.json.ResultDocument;
import io.nbench.resources.ResourceUsage;
import io.nbench.stats.IterationResult;
import io.nbench.stats.Summary;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The documents of {@code client --forks N}, one per fork, joined into the one {@code --out} names: the forks ran
 * one after another, so unlike {@link ResultMerge}'s client hosts (which ran at once, their iterations added up)
 * each fork's iterations follow the previous fork's, numbered on, and the summary is over every measured
 * iteration of every fork: the samples the forks summary's intervals are computed from.
 */
public final class ForksJoin {

    private ForksJoin() {
    }

    /**
     * {@code forks} in the order they ran, named (their files) for the reasons they give; {@code planned} forks
     * were asked for and the join goes to {@code out}, which its options record (each fork's say 1 and its own
     * file, as it ran).
     */
    public static ResultDoc join(List<ResultMerge.Input> forks, int planned, String out)
            throws ResultMerge.Refused, ResultMerge.Overflow {
        for (ResultMerge.Input f : forks) {
            ResultMerge.checkReadable(f);
        }
        ResultMerge.Input first = forks.get(0);
        for (ResultMerge.Input other : forks.subList(1, forks.size())) {
            ResultMerge.checkSameConfiguration(first, other, false);
        }
        ResultDoc base = first.document();
        ResultDoc worst = ResultMerge.worst(forks.stream().map(ResultMerge.Input::document).toList(), ResultDoc::status);
        String error = forks.stream().map(f -> f.document().error()).filter(e -> e != null).findFirst()
                .orElse(base.error());
        List<CombinationDoc> combinations = new ArrayList<>();
        for (int c = 0; c < base.combinations().size(); c++) {
            combinations.add(combination(forks, c));
        }
        List<ResultDoc.Source> sources = new ArrayList<>();
        for (ResultMerge.Input f : forks) {
            sources.add(new ResultDoc.Source(f.name(), f.document().runId(), f.document().environment().get("host"),
                    f.document().status()));
        }
        ObjectNode options = base.configuration().options().deepCopy();
        options.put("forks", planned);
        options.put("out", out);
        ConfigurationDoc configuration = new ConfigurationDoc(base.configuration().target(),
                base.configuration().arguments(), options, base.configuration().keys(), base.configuration().server());
        return new ResultDoc(base.nbench(), UUID.randomUUID().toString(), worst.status(), worst.exitCode(), error,
                base.environment(), configuration, combinations, sources);
    }

    /**
     * Combination {@code c} joined from the forks that ran it: an interrupted fork stops the sweep, so the forks
     * after the first may lack the last combinations (the configuration check allows that only to an interrupted
     * one); the combination then says which fork did not run it.
     */
    private static CombinationDoc combination(List<ResultMerge.Input> all, int c) throws ResultMerge.Overflow {
        List<ResultMerge.Input> forks = all.stream().filter(f -> f.document().combinations().size() > c).toList();
        List<CombinationDoc> parts = forks.stream().map(f -> f.document().combinations().get(c)).toList();
        CombinationDoc base = parts.get(0);
        CombinationDoc worst = ResultMerge.worst(parts, CombinationDoc::status);
        List<String> reasons = new ArrayList<>();
        all.stream().filter(f -> !forks.contains(f))
                .forEach(f -> reasons.add(f.name() + ": not run (the forks were interrupted before it)"));
        List<IterationDoc> its = new ArrayList<>();
        List<IterationResult> results = new ArrayList<>();
        ResultMerge.Counts measured = new ResultMerge.Counts();
        int warmups = 0;
        int measuredIts = 0;
        for (int k = 0; k < forks.size(); k++) {
            CombinationDoc part = parts.get(k);
            String fork = forks.get(k).name();
            part.reasons().forEach(r -> reasons.add(fork + ": " + r));
            for (int i = 0; i < part.iterations().size(); i++) {
                IterationDoc d = part.iterations().get(i);
                int index = d.warmup() ? ++warmups : ++measuredIts;
                IterationResult r = ResultMerge.iteration(List.of(forks.get(k)), c, i, base.load().size(), measured);
                results.add(new IterationResult(index, d.warmup(), r.messages(), r.wallNanos(), r.payloadBytes(),
                        r.latency(), r.errors(), r.clamped(), r.partial(), resources(d.resources()), r.openLoop(),
                        r.connectLatency(), r.handshakeLatency(), r.resumedHandshakes(), r.statusClasses(), r.bytesIn(),
                        r.bytesOut(), r.openingHandshakes()));
                its.add(new IterationDoc(index, d.warmup(), d.messages(), d.wallNs(), d.msgPerSec(), d.mibPerSec(),
                        d.latencyNs(), d.errors(), d.clamped(), d.partial(), d.histogram(), d.resources(), d.openLoop(),
                        d.connectLatency(), d.handshakeLatency(), d.latencyByStatusClass(), d.transfer(),
                        d.openingHandshakes()));
            }
        }
        String aborted = parts.stream().map(CombinationDoc::aborted).filter(a -> a != null).findFirst()
                .orElse(base.aborted());
        String abortCause = parts.stream().map(CombinationDoc::abortCause).filter(a -> a != null).findFirst()
                .orElse(base.abortCause());
        return new CombinationDoc(base.name(), base.keys(), worst.status(), worst.exitCode(), reasons,
                base.transport(), base.load(), base.startTime(), aborted, abortCause,
                parts.stream().anyMatch(CombinationDoc::interrupted), its,
                ResultDocument.summaryDoc(new Summary(results, base.load().percentiles(), base.load().iterationNanos()), base.load().pacing()), null,
                ResultMerge.runErrors(forks, c), null, null, List.of(), null);
    }

    /** An iteration's resources as the document holds them, for the summary's means (null figures unknown). */
    private static ResourceUsage resources(IterationDoc.Resources r) {
        if (r == null) {
            return null;
        }
        return new ResourceUsage(r.cpuPercent() == null ? Double.NaN : r.cpuPercent(), r.gcCount(), r.gcMillis(),
                r.allocatedBytes() == null ? -1 : r.allocatedBytes(),
                r.machineBusyPercent() == null ? Double.NaN : r.machineBusyPercent(),
                r.stealPercent() == null ? Double.NaN : r.stealPercent(),
                r.othersPercent() == null ? Double.NaN : r.othersPercent());
    }
}
