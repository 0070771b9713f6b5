package io.nbench.sweep;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.StringJoiner;

/**
 * One point of a sweep: the values of its configuration keys, in a fixed order ({@code impl}, {@code size}
 * in bytes, {@code threads}, {@code window}, then each swept {@code -O} key the transport owns). The keys
 * identify a combination everywhere: CSV columns, hdr-log tags, file names, and matching in
 * {@code nbench compare}.
 */
public record Combination(Map<String, String> keys) {

    public Combination {
        keys = Collections.unmodifiableMap(new LinkedHashMap<>(keys));
    }

    public String get(String key) {
        return keys.get(key);
    }

    public int intValue(String key) {
        String v = keys.get(key);
        if (v == null) {
            throw new IllegalStateException("combination has no key " + key);
        }
        return Integer.parseInt(v);
    }

    /** The same combination with one key's value replaced (in place, keeping the order). */
    public Combination with(String key, String value) {
        Map<String, String> m = new LinkedHashMap<>(keys);
        m.replace(key, value);
        return new Combination(m);
    }

    /** {@code impl=netty,size=1024,threads=4,window=1}: for people. */
    public String name() {
        return join(",", "=");
    }

    /**
     * {@code impl=netty;size=1024;threads=4;window=1}: HdrHistogram's log format forbids commas, spaces and
     * line breaks in a tag (HistogramLogWriter rejects them), so pairs are separated by semicolons and any
     * such character inside a value becomes an underscore.
     */
    public String tag() {
        StringJoiner j = new StringJoiner(";");
        keys.forEach((k, v) -> j.add(k + "=" + v.replaceAll("[,;\\s]", "_")));
        return j.toString();
    }

    /** {@code impl-netty_size-1024_threads-4_window-1}: safe in a file name on every OS. */
    public String fileName() {
        return join("_", "-").replaceAll("[^A-Za-z0-9._-]", "_");
    }

    private String join(String between, String inside) {
        StringJoiner j = new StringJoiner(between);
        keys.forEach((k, v) -> j.add(k + inside + v));
        return j.toString();
    }

    @Override
    public String toString() {
        return name();
    }
}
