package io.nbench.report.compare;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.StringJoiner;

/**
 * {@code compare --baseline SELECTOR SWEEP.json}: the combinations of one sweep document against each other. The
 * baseline of a combination that does not match the selector is the one that does and has the same value of every
 * other key both have: with {@code --size 1k,4k -O mina.stats=on,off}, {@code --baseline mina.stats=on} compares
 * each mode with {@code mina.stats=on} at its own size, and a key of the selector (say {@code size=1k} too) is one
 * the baseline may differ in. One block per baseline combination that has one (a {@link Comparison.Block}, as a
 * combination of the first file against the other files), its column {@code i} the {@code i}-th combination compared
 * with it.
 *
 * <p>{@link #unpaired} are the combinations that do not match the selector and have no baseline (they differ from
 * every baseline combination in a key outside the selector), in document order.
 */
public final class BaselineComparison {

    private final ResultFile file;
    private final BaselineSelector selector;
    private final List<Comparison.Block> blocks;
    private final List<String> unpaired;
    private final Map<String, ResultFile.CombinationData> byName = new LinkedHashMap<>();

    private BaselineComparison(ResultFile file, BaselineSelector selector, List<Comparison.Block> blocks,
                               List<String> unpaired) {
        this.file = file;
        this.selector = selector;
        this.blocks = List.copyOf(blocks);
        this.unpaired = List.copyOf(unpaired);
        file.combinations().forEach(c -> byName.put(c.name(), c));
    }

    public ResultFile file() {
        return file;
    }

    public BaselineSelector selector() {
        return selector;
    }

    public List<Comparison.Block> blocks() {
        return blocks;
    }

    /** The names of the combinations without a baseline. */
    public List<String> unpaired() {
        return unpaired;
    }

    /**
     * The comparison of {@code file}'s combinations; an {@link IllegalArgumentException} with one line when the
     * selector cannot pick the baselines: the document holds fewer than two combinations, the selector names a key
     * no combination has, matches no combination or every one, or several that could each be one combination's
     * baseline (the line names them and asks for a key that tells them apart).
     */
    public static BaselineComparison of(ResultFile file, BaselineSelector selector) {
        List<ResultFile.CombinationData> all = file.combinations();
        String about = "--baseline " + selector + ": " + file.path();
        if (all.size() < 2) {
            throw new IllegalArgumentException(about + (all.isEmpty() ? " holds no combination" : " holds one "
                    + "combination (" + all.get(0).name() + ")") + ", nothing to compare it with: compare two documents "
                    + "instead (nbench compare BASE.json NEW.json)");
        }
        Map<String, Set<String>> values = values(all);
        for (String key : selector.pairs().keySet()) {
            if (!values.containsKey(key)) {
                throw new IllegalArgumentException("--baseline " + selector + ": no combination of " + file.path()
                        + " has the key " + key + " (its keys: " + String.join(", ", values.keySet()) + ")");
            }
        }
        List<ResultFile.CombinationData> baselines = all.stream().filter(selector::matches).toList();
        if (baselines.isEmpty()) {
            StringJoiner names = new StringJoiner("; ");
            all.forEach(c -> names.add(c.name()));
            throw new IllegalArgumentException("--baseline " + selector + " matches no combination of " + file.path()
                    + " (" + describe(values, selector.pairs().keySet()) + "); its combinations: " + names);
        }
        if (baselines.size() == all.size()) {
            Set<String> varying = new LinkedHashSet<>();
            values.forEach((k, v) -> {
                if (v.size() > 1) {
                    varying.add(k);
                }
            });
            throw new IllegalArgumentException("--baseline " + selector + " matches every combination of "
                    + file.path() + ", leaving none to compare with it: name a value only some have ("
                    + describe(values, varying) + ")");
        }
        Map<String, List<ResultFile.CombinationData>> others = new LinkedHashMap<>(); // by the baseline's name
        baselines.forEach(b -> others.put(b.name(), new ArrayList<>()));
        List<String> unpaired = new ArrayList<>();
        for (ResultFile.CombinationData c : all) {
            if (others.containsKey(c.name())) {
                continue;
            }
            List<ResultFile.CombinationData> candidates = baselines.stream()
                    .filter(b -> sameOutside(selector, b, c)).toList();
            if (candidates.size() > 1) {
                throw ambiguous(selector, c, candidates);
            }
            if (candidates.isEmpty()) {
                unpaired.add(c.name());
            } else {
                others.get(candidates.get(0).name()).add(c);
            }
        }
        List<Comparison.Block> blocks = new ArrayList<>();
        for (ResultFile.CombinationData b : baselines) {
            if (!others.get(b.name()).isEmpty()) {
                blocks.add(Comparison.block(b, others.get(b.name())));
            }
        }
        return new BaselineComparison(file, selector, blocks, unpaired);
    }

    /** Whether {@code b} and {@code c} have the same value of every key outside the selector that both have. */
    private static boolean sameOutside(BaselineSelector selector, ResultFile.CombinationData b,
                                       ResultFile.CombinationData c) {
        for (Map.Entry<String, String> k : c.keys().entrySet()) {
            String value = b.keys().get(k.getKey());
            if (!selector.pairs().containsKey(k.getKey()) && value != null && !value.equals(k.getValue())) {
                return false;
            }
        }
        return true;
    }

    /** Several baselines for {@code c}: they differ only in keys {@code c} lacks; naming them tells them apart. */
    private static IllegalArgumentException ambiguous(BaselineSelector selector, ResultFile.CombinationData c,
                                                      List<ResultFile.CombinationData> candidates) {
        Set<String> apart = new LinkedHashSet<>();
        StringJoiner names = new StringJoiner("; ");
        for (ResultFile.CombinationData b : candidates) {
            names.add(b.name());
            for (ResultFile.CombinationData other : candidates) {
                b.keys().forEach((k, v) -> {
                    if (!Objects.equals(v, other.keys().get(k))) {
                        apart.add(k);
                    }
                });
            }
        }
        return new IllegalArgumentException("--baseline " + selector + " matches " + candidates.size() + " combinations "
                + "that could each be the baseline of " + c.name() + ": " + names + "; add a key that tells them apart ("
                + String.join(", ", apart) + ") to --baseline");
    }

    /** Every key of the combinations, in their order, with its values in theirs. */
    private static Map<String, Set<String>> values(List<ResultFile.CombinationData> all) {
        Map<String, Set<String>> values = new LinkedHashMap<>();
        all.forEach(c -> c.keys().forEach((k, v) -> values.computeIfAbsent(k, x -> new LinkedHashSet<>()).add(v)));
        return values;
    }

    /** {@code impl: netty, nio; size: 100, 1024}. */
    private static String describe(Map<String, Set<String>> values, Set<String> keys) {
        StringJoiner j = new StringJoiner("; ");
        values.forEach((k, v) -> {
            if (keys.contains(k)) {
                j.add(k + ": " + String.join(", ", v));
            }
        });
        return j.toString();
    }

    /** A block's baseline as its column is headed: its values of the selector's keys ({@code mina.stats=on}). */
    public String baselineLabel(Comparison.Block b) {
        ResultFile.CombinationData base = byName.get(b.name());
        StringJoiner j = new StringJoiner(",");
        selector.pairs().keySet().forEach(k -> j.add(k + "=" + base.keys().get(k)));
        return j.toString();
    }

    /**
     * A combination compared in block {@code b}, by what sets it apart from the baseline: its values that differ from
     * the baseline's or that the baseline lacks ({@code mina.stats=off}, {@code impl=nio}); its name if that says
     * nothing.
     */
    public String otherLabel(Comparison.Block b, int i) {
        ResultFile.CombinationData base = byName.get(b.name());
        ResultFile.CombinationData other = byName.get(b.matched().get(i));
        StringJoiner j = new StringJoiner(",");
        other.keys().forEach((k, v) -> {
            if (!v.equals(base.keys().get(k))) {
                j.add(k + "=" + v);
            }
        });
        return j.length() == 0 ? other.name() : j.toString();
    }

    /** Why a combination was not compared: the keys outside the selector no baseline has its values of. */
    public String whyUnpaired(String combination) {
        StringJoiner keys = new StringJoiner(", ");
        byName.get(combination).keys().keySet().stream().filter(k -> !selector.pairs().containsKey(k))
                .forEach(keys::add);
        return "no combination matching --baseline " + selector + " has the same " + keys;
    }
}
