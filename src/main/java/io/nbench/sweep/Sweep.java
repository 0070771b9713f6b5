package io.nbench.sweep;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiPredicate;

/**
 * The cartesian product of the swept options. Dimensions are added in order; the first varies slowest, so
 * {@code --impl netty,mina --size 1k,5k} runs netty 1k, netty 5k, mina 1k, mina 5k and the final table
 * groups by transport.
 */
public final class Sweep {

    private final Map<String, List<String>> dimensions = new LinkedHashMap<>();

    /** Adds a dimension; a single value still becomes a key of every combination. */
    public Sweep add(String key, List<String> values) {
        if (values.isEmpty()) {
            throw new IllegalArgumentException("no values for " + key);
        }
        dimensions.put(key, List.copyOf(values));
        return this;
    }

    /** The keys every combination may carry, in column order. */
    public List<String> keys() {
        return List.copyOf(dimensions.keySet());
    }

    /**
     * Every combination. {@code applies(combination, key)} says whether a key means anything for that
     * combination (a {@code -O mina.*} key does not for netty): keys that do not apply are left out, and
     * combinations that become identical are run once.
     */
    public List<Combination> product(BiPredicate<Map<String, String>, String> applies) {
        List<Map<String, String>> partial = new ArrayList<>();
        partial.add(new LinkedHashMap<>());
        for (Map.Entry<String, List<String>> d : dimensions.entrySet()) {
            List<Map<String, String>> next = new ArrayList<>();
            for (Map<String, String> p : partial) {
                for (String v : d.getValue()) {
                    Map<String, String> m = new LinkedHashMap<>(p);
                    m.put(d.getKey(), v);
                    next.add(m);
                }
            }
            partial = next;
        }
        Set<Combination> unique = new LinkedHashSet<>();
        for (Map<String, String> p : partial) {
            Map<String, String> kept = new LinkedHashMap<>();
            p.forEach((k, v) -> {
                if (applies.test(p, k)) {
                    kept.put(k, v);
                }
            });
            unique.add(new Combination(kept));
        }
        return List.copyOf(unique);
    }
}
