package io.nbench.report.compare;

import io.nbench.units.Sizes;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code compare --baseline KEY=VALUE[,KEY=VALUE...]}: the keys and values, as the combinations' names have them
 * ({@code impl=netty,size=1024,threads=4,window=1,mina.stats=on}), that pick the baseline combinations of one
 * sweep document.
 *
 * @param text  as given, for messages
 * @param pairs the keys in the order given, each with its value
 */
public record BaselineSelector(String text, Map<String, String> pairs) {

    public BaselineSelector {
        pairs = Collections.unmodifiableMap(new LinkedHashMap<>(pairs));
    }

    /** The selector in {@code text}; a malformed one or a key given twice is an {@link IllegalArgumentException}. */
    public static BaselineSelector parse(String text) {
        Map<String, String> pairs = new LinkedHashMap<>();
        for (String pair : text.split(",", -1)) {
            int eq = pair.indexOf('=');
            String key = eq < 0 ? "" : pair.substring(0, eq).strip();
            String value = eq < 0 ? "" : pair.substring(eq + 1).strip();
            if (key.isEmpty() || value.isEmpty()) {
                throw new IllegalArgumentException("--baseline '" + text + "': expected KEY=VALUE[,KEY=VALUE...] with "
                        + "keys as the combinations' names have them, e.g. size=1024 or impl=netty,netty.io=epoll");
            }
            if (pairs.put(key, value) != null) {
                throw new IllegalArgumentException("--baseline " + text + ": " + key + " is given twice");
            }
        }
        return new BaselineSelector(text, pairs);
    }

    /** Whether the combination has every key of the selector, each with the selector's value. */
    public boolean matches(ResultFile.CombinationData c) {
        for (Map.Entry<String, String> p : pairs.entrySet()) {
            String value = c.keys().get(p.getKey());
            if (value == null || !sameValue(value, p.getValue())) {
                return false;
            }
        }
        return true;
    }

    /**
     * A value as the document writes it, or as a user writes the same size: documents give sizes in bytes
     * ({@code size=1024}) where the command line that swept them said {@code 1k}.
     */
    static boolean sameValue(String documented, String given) {
        if (documented.equals(given)) {
            return true;
        }
        try {
            return Sizes.parse(documented) == Sizes.parse(given);
        } catch (IllegalArgumentException notSizes) {
            return false;
        }
    }

    @Override
    public String toString() {
        return text;
    }
}
