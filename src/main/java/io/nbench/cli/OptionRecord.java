package io.nbench.cli;

import io.nbench.protocol.Protocol;
import io.nbench.units.Durations;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/** A command's arguments and option values as its result document records them. */
final class OptionRecord {

    private OptionRecord() {
    }

    /** The command line as given. */
    static List<String> arguments(CommandSpec spec) {
        return spec.commandLine().getParseResult() == null ? List.of()
                : List.copyOf(spec.commandLine().getParseResult().originalArgs());
    }

    /** Every option with its effective value, defaults included, keyed by its long name without dashes. */
    static Map<String, Object> values(CommandSpec spec) {
        Map<String, Object> values = new LinkedHashMap<>();
        for (OptionSpec o : spec.options()) {
            if (o.usageHelp() || o.versionHelp()) {
                continue;
            }
            values.put(o.longestName().replaceFirst("^-+", ""), jsonValue(o.getValue()));
        }
        return values;
    }

    /** Option values as JSON-friendly types: durations and sizes as on the command line, enums lower case. */
    private static Object jsonValue(Object v) {
        if (v == null || v instanceof Number || v instanceof Boolean || v instanceof String) {
            return v;
        }
        if (v instanceof Duration d) {
            return Durations.format(d);
        }
        if (v instanceof Enum<?> e) {
            return e.name().toLowerCase(Locale.ROOT);
        }
        if (v instanceof Protocol p) {
            return p.label();
        }
        if (v instanceof List<?> list) {
            return list.stream().map(OptionRecord::jsonValue).toList();
        }
        if (v instanceof Map<?, ?> map) {
            Map<String, Object> m = new LinkedHashMap<>();
            map.forEach((k, x) -> m.put(String.valueOf(k), jsonValue(x)));
            return m;
        }
        return v.toString();
    }
}
