package io.nbench.cli;

import java.io.File;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;

/**
 * nbench's one rule for @-files, the same for every command. Each @-file (with the files it names) and
 * the command line itself are separate sources of options:
 * <ul>
 *   <li>an option given on the command line, before or after the @-file, replaces all of that option's
 *       values from the file; of two @-files, the later one replaces the earlier one's; an {@code -O} key
 *       counts as an option of its own, so {@code -O mina.stats=off} replaces only that key;</li>
 *   <li>within one source picocli's own rule holds: a list option ({@code --size 1k --size 5k}, also
 *       {@code --impl}, {@code --percentiles} and one {@code -O} key given twice) accumulates, and a
 *       single-value option given twice is a usage error (overwritten options are not allowed).</li>
 * </ul>
 * picocli expands @-files in place, so the origin of each argument is lost before its parser sees them:
 * this class expands them first with picocli's own reader (same syntax: quotes, {@code #} comments,
 * nested @-files, {@code @@} for a literal {@code @}), applies the rule on the options picocli's model
 * declares, and hands picocli a plain argument list with @-file expansion off.
 */
final class ArgumentFiles {

    /**
     * Marks a single-value option whose value is a comma list (a sweep), so that giving it twice in one
     * source accumulates like picocli's own list options instead of being an error.
     */
    @Retention(RetentionPolicy.RUNTIME)
    @Target(ElementType.FIELD)
    @interface CommaList {
    }

    private ArgumentFiles() {
    }

    /** One argument and the source it came from: 0 the command line, 1.. the @-files in order. */
    private record Arg(String text, int source) {
    }

    /** An option occurrence (key != null) with its value arguments, or one argument that is no option. */
    private record Group(String key, OptionSpec option, List<Arg> args, int source) {
    }

    /** The arguments picocli should parse, with nbench's @-file rule applied. */
    static String[] merge(CommandLine root, String[] args) {
        List<Arg> expanded = expand(root, args);
        List<Group> groups = classify(root, expanded);
        Map<String, Integer> winner = new HashMap<>();
        for (Group g : groups) {
            if (g.key() != null) {
                winner.merge(g.key(), g.source(), ArgumentFiles::precedence);
            }
        }
        List<Group> kept = new ArrayList<>();
        for (Group g : groups) {
            if (g.key() == null || winner.get(g.key()) == g.source()) {
                kept.add(g);
            }
        }
        return join(kept).toArray(new String[0]);
    }

    /** The source that wins: the command line (0) over any file, a later file over an earlier one. */
    private static int precedence(int a, int b) {
        if (a == 0 || b == 0) {
            return 0;
        }
        return Math.max(a, b);
    }

    private static List<Arg> expand(CommandLine root, String[] args) {
        List<Arg> out = new ArrayList<>();
        int files = 0;
        for (String a : args) {
            if (a.length() > 1 && a.startsWith("@") && !a.startsWith("@@")) {
                String name = a.substring(1);
                File f = new File(name);
                if (!f.canRead()) {
                    throw new ParameterException(root, "cannot read @-file " + name + ": "
                            + (f.exists() ? "permission denied" : "no such file")
                            + " (an argument that starts with @ but is not a file is written @@)");
                }
                files++;
                for (String t : picocliExpansion(a)) {
                    out.add(new Arg(t, files));
                }
            } else {
                out.add(new Arg(a.startsWith("@@") ? a.substring(1) : a, 0));
            }
        }
        return out;
    }

    /** The arguments of one @-file as picocli itself reads them (comments, quotes, nested files). */
    private static List<String> picocliExpansion(String atFile) {
        CommandSpec any = CommandSpec.create();
        any.addUnmatchedArgsBinding(CommandLine.Model.UnmatchedArgsBinding.forStringArrayConsumer(
                new CommandLine.Model.ISetter() {
                    @Override
                    public <T> T set(T value) {
                        return null;
                    }
                }));
        CommandLine reader = new CommandLine(any);
        reader.setUnmatchedArgumentsAllowed(true);
        return reader.parseArgs(atFile).expandedArgs();
    }

    /** Splits the arguments into option occurrences the way picocli's parser will see them. */
    private static List<Group> classify(CommandLine root, List<Arg> args) {
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

    private static boolean isMap(OptionSpec option) {
        return Map.class.isAssignableFrom(option.type());
    }

    private static boolean isCommaList(OptionSpec option) {
        return option.userObject() instanceof Field f && f.isAnnotationPresent(CommaList.class);
    }

    /**
     * The arguments in order, with the occurrences of a comma-list option or of one map key joined into the
     * first: {@code --impl netty --impl mina} becomes {@code --impl netty,mina}, {@code -O k=a -O k=b}
     * becomes {@code -O k=a,b}. picocli accumulates its own list options and rejects repeated single values.
     */
    private static List<String> join(List<Group> groups) {
        Map<String, List<String>> values = new LinkedHashMap<>();
        for (Group g : groups) {
            if (g.key() != null && (isCommaList(g.option()) || isMap(g.option()))) {
                values.computeIfAbsent(g.key(), k -> new ArrayList<>()).add(value(g));
            }
        }
        List<String> out = new ArrayList<>();
        Map<String, Boolean> written = new HashMap<>();
        for (Group g : groups) {
            List<String> joined = g.key() == null ? null : values.get(g.key());
            if (joined == null || joined.size() == 1) {
                g.args().forEach(a -> out.add(a.text()));
            } else if (written.putIfAbsent(g.key(), true) == null) {
                out.add(g.option().longestName());
                if (isMap(g.option())) {
                    String key = g.key().substring(g.key().indexOf(' ') + 1);
                    List<String> vs = joined.stream().map(v -> v.substring(v.indexOf('=') + 1)).toList();
                    out.add(key + "=" + String.join(",", vs));
                } else {
                    out.add(String.join(",", joined));
                }
            }
        }
        return out;
    }

    /** The value of an option occurrence, attached or separate. */
    private static String value(Group g) {
        String first = g.args().get(0).text();
        if (g.args().size() > 1) {
            return g.args().get(1).text();
        }
        for (String name : g.option().names()) {
            if (first.startsWith(name + "=")) {
                return first.substring(name.length() + 1);
            }
            if (first.startsWith(name) && name.length() == 2 && !name.startsWith("--")) {
                return first.substring(2);
            }
        }
        return first;
    }
}
