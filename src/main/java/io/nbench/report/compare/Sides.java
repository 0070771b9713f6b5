package io.nbench.report.compare;

import java.util.ArrayList;
import java.util.List;

/**
 * What a comparison's blocks put side by side, as the formats name it: files, A the first ({@code compare A.json
 * B.json}, {@code run}), or the combinations of one document, A each block's baseline ({@code compare --baseline}).
 * The figures, intervals, verdicts and gates are the same either way; only the names differ.
 */
public sealed interface Sides {

    /** The documents read: the files, or the one document. */
    List<ResultFile> documents();

    /** The lines under the legend: what A, B, ... are. */
    List<String> legend();

    /** Block {@code b}'s baseline, A, in a title ({@code base.json}, {@code mina.stats=on}). */
    String baseline(Comparison.Block b);

    /** Block {@code b}'s {@code i}-th other, in a title. */
    String other(Comparison.Block b, int i);

    /** The combinations whose document found them still trending. */
    List<CompareTable.NotSteady> notSteady();

    /** What could not be compared at all, and why: one line each, after the blocks. */
    List<String> notCompared();

    /** The file a gate's verdict is about. */
    String file(Gate.Verdict v);

    /** A breached gate's stderr line. */
    String breach(Gate.Verdict v);

    /** An unjudged gate's stderr line. */
    String notJudged(Gate.Verdict v);

    /** Why a gate was not judged; null when it was. */
    String reason(Gate.Verdict v);

    /** Files side by side: block {@code b}'s others are the other files' matches of its combination. */
    record Files(List<ResultFile> files) implements Sides {

        @Override
        public List<ResultFile> documents() {
            return files;
        }

        @Override
        public List<String> legend() {
            List<String> lines = new ArrayList<>();
            for (int i = 0; i < files.size(); i++) {
                lines.add(CompareTable.letter(i) + ": " + files.get(i).path());
            }
            return lines;
        }

        @Override
        public String baseline(Comparison.Block b) {
            return files.get(0).path().toString();
        }

        @Override
        public String other(Comparison.Block b, int i) {
            String matched = b.matched().get(i);
            String as = matched == null || matched.equals(b.name()) ? "" : " (as " + matched + ")";
            return files.get(i + 1).path() + as;
        }

        @Override
        public List<CompareTable.NotSteady> notSteady() {
            return CompareTable.steadyStateWarnings(files);
        }

        @Override
        public List<String> notCompared() {
            return List.of(); // a combination missing from a file is named in its block
        }

        @Override
        public String file(Gate.Verdict v) {
            return files.get(v.file()).path().toString();
        }

        @Override
        public String breach(Gate.Verdict v) {
            return v.describe(file(v));
        }

        @Override
        public String notJudged(Gate.Verdict v) {
            return v.describeNotJudged(file(v));
        }

        @Override
        public String reason(Gate.Verdict v) {
            return v.whyNotJudged(file(v));
        }
    }

    /** One document's combinations, each against its baseline ({@link BaselineComparison}). */
    record Baselines(BaselineComparison comparison) implements Sides {

        @Override
        public List<ResultFile> documents() {
            return List.of(comparison.file());
        }

        @Override
        public List<String> legend() {
            return List.of(comparison.file().path() + ": each combination against A, the one matching --baseline "
                    + comparison.selector() + " with the same values of the other keys");
        }

        @Override
        public String baseline(Comparison.Block b) {
            return comparison.baselineLabel(b);
        }

        @Override
        public String other(Comparison.Block b, int i) {
            return comparison.otherLabel(b, i);
        }

        @Override
        public List<CompareTable.NotSteady> notSteady() {
            // One file: the combination's name says which it is, a letter would not (A is each block's baseline).
            return CompareTable.steadyStateWarnings(List.of(comparison.file())).stream()
                    .map(w -> new CompareTable.NotSteady(null, w.file(), w.name(), w.why())).toList();
        }

        @Override
        public List<String> notCompared() {
            return comparison.unpaired().stream().map(c -> c + ": " + comparison.whyUnpaired(c)).toList();
        }

        @Override
        public String file(Gate.Verdict v) {
            return comparison.file().path().toString();
        }

        @Override
        public String breach(Gate.Verdict v) {
            return v.describeAgainstBaseline();
        }

        @Override
        public String notJudged(Gate.Verdict v) {
            return v.describeNotJudgedAgainstBaseline(reason(v));
        }

        @Override
        public String reason(Gate.Verdict v) {
            if (v.judged()) {
                return null;
            }
            return v.combination() == null ? comparison.whyUnpaired(v.against()) : v.whyNotJudged(file(v));
        }
    }
}
