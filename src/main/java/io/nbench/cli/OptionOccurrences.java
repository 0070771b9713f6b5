package io.nbench.cli;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The arguments of a command line, each with its source, grouped into option occurrences the way picocli's
 * parser will see them (an option with its values, attached or not), on the options picocli's model declares:
 * what {@link ArgumentFiles} applies its rule of sources to.
 */
final class OptionOccurrences {

    private OptionOccurrences() {
    }

    /** One argument and the source it came from: 0 the command line, 1.. the @-files in order. */
    record Arg(String text, int source) {
    }

    /** An option occurrence (key != null) with its value arguments, or one argument that is no option. */
    record Group(String key, OptionSpec option, List<Arg> args, int source) {
    }

    /** Splits the arguments into option occurrences the way picocli's parser will see them. */
    static List<Group> classify(CommandLine root, List<Arg> args) {
        List<Group> groups = new ArrayList<>();
        CommandSpec spec = root.getCommandSpec();
        boolean endOfOptions = false;
        for (int i = 0; i < args.size(); i++) {
            Arg a = args.get(i);
            String t = a.text();
            if (endOfOptions || t.equals(spec.parser().endOfOptionsDelimiter())) {
                endOfOptions = true;
                groups.add(new Group(null, null, List.of(a), a.source()));
                continue;
            }
            CommandLine sub = spec.subcommands().get(t);
            if (sub != null) {
                spec = sub.getCommandSpec();
                groups.add(new Group(null, null, List.of(a), a.source()));
                continue;
            }
            String separator = spec.parser().separator();
            int eq = t.indexOf(separator);
            OptionSpec whole = option(root, spec, t);
            OptionSpec attached = null;
            String attachedValue = null;
            if (whole == null && eq > 0 && option(root, spec, t.substring(0, eq)) != null) {
                attached = option(root, spec, t.substring(0, eq));
                attachedValue = t.substring(eq + separator.length());
            } else if (whole == null && t.length() > 2 && t.startsWith("-") && !t.startsWith("--")) {
                OptionSpec shortOption = option(root, spec, t.substring(0, 2));
                if (shortOption != null && shortOption.arity().min() > 0) {
                    attached = shortOption;
                    attachedValue = t.substring(2);
                }
            }
            if (attached != null) {
                groups.add(new Group(key(attached, attachedValue), attached, List.of(a), a.source()));
            } else if (whole != null) {
                List<Arg> own = new ArrayList<>(List.of(a));
                int values = whole.arity().min();
                for (int k = 0; k < values && i + 1 < args.size(); k++) {
                    own.add(args.get(++i));
                }
                if (whole.arity().max() > values && i + 1 < args.size() && isBoolean(args.get(i + 1).text())) {
                    own.add(args.get(++i));
                }
                String value = own.size() > 1 ? own.get(1).text() : null;
                groups.add(new Group(key(whole, value), whole, own, a.source()));
            } else {
                groups.add(new Group(null, null, List.of(a), a.source()));
            }
        }
        return groups;
    }

    private static boolean isBoolean(String s) {
        return s.equalsIgnoreCase("true") || s.equalsIgnoreCase("false");
    }

    /**
     * The option of this name in the command, or, for {@code nbench run}, which passes what it does not
     * know to the client, in the client command.
     */
    private static OptionSpec option(CommandLine root, CommandSpec spec, String name) {
        OptionSpec o = find(spec, name);
        if (o == null && spec.unmatchedArgsBindings().size() > 0 && root.getSubcommands().containsKey("client")) {
            o = find(root.getSubcommands().get("client").getCommandSpec(), name);
        }
        return o;
    }

    private static OptionSpec find(CommandSpec spec, String name) {
        OptionSpec o = spec.optionsMap().get(name);
        return o != null ? o : spec.negatedOptionsMap().get(name);
    }

    /** What an occurrence replaces: the option (by its longest name), or one key of a map option (-O). */
    private static String key(OptionSpec option, String value) {
        String name = option.longestName();
        if (isMap(option) && value != null) {
            int eq = value.indexOf('=');
            return name + " " + (eq < 0 ? value : value.substring(0, eq));
        }
        return name;
    }

    static boolean isMap(OptionSpec option) {
        return Map.class.isAssignableFrom(option.type());
    }

    static boolean isCommaList(OptionSpec option) {
        return option.userObject() instanceof Field f && f.isAnnotationPresent(ArgumentFiles.CommaList.class);
    }
}
