package io.nbench.transport;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The resolved {@code -O} options of one transport: every declared option with the user's value or its
 * default, already parsed. Built by {@link TransportRegistry#resolveOptions}, which rejects unknown keys
 * and bad values before anything runs.
 */
public final class OptionValues {

    private final Map<String, Object> values;
    private final Map<String, String> texts;

    public OptionValues(Map<String, Object> values, Map<String, String> texts) {
        this.values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
        this.texts = Collections.unmodifiableMap(new LinkedHashMap<>(texts));
    }

    /** Resolves the given options against user-provided text values (keys already known to be valid). */
    public static OptionValues resolve(List<TransportOption> declared, Map<String, String> given) {
        Map<String, Object> values = new LinkedHashMap<>();
        Map<String, String> texts = new LinkedHashMap<>();
        for (TransportOption option : declared) {
            String text = given.getOrDefault(option.key(), option.defaultValue());
            values.put(option.key(), option.parse(text));
            texts.put(option.key(), text);
        }
        return new OptionValues(values, texts);
    }

    public String string(String key) {
        return (String) require(key);
    }

    public int integer(String key) {
        return (Integer) require(key);
    }

    public boolean bool(String key) {
        return (Boolean) require(key);
    }

    public Object get(String key) {
        return require(key);
    }

    /** The options as the user would write them, for the output header and the result record. */
    public Map<String, String> asText() {
        return texts;
    }

    private Object require(String key) {
        Object value = values.get(key);
        if (value == null) {
            throw new IllegalStateException("option " + key + " was not declared by its transport");
        }
        return value;
    }
}
