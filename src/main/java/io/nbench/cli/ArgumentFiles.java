package io.nbench.cli;

import io.nbench.cli.OptionOccurrences.Arg;
import io.nbench.cli.OptionOccurrences.Group;
import java.io.File;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
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
 * this class has picocli's own reader expand each argument (same syntax: quotes, {@code #} comments,
 * nested @-files, {@code @@} for a literal {@code @}), applies the rule on the options picocli's model
 * declares ({@link OptionOccurrences}), and hands picocli a plain argument list with @-file expansion off.
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

    /** The arguments picocli should parse, with nbench's @-file rule applied. */
    static String[] merge(CommandLine root, String[] args) {
        List<Arg> expanded = expand(root, args);
        List<Group> groups = OptionOccurrences.classify(root, expanded);
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

    /**
     * Every argument as picocli reads it, with its source: an @-file's arguments (quotes, {@code #} comments,
     * nested @-files) and {@code @@} for a literal {@code @} are picocli's own. One thing picocli lacks: it
     * passes an @-file it cannot read on as a literal argument, which would surface as a baffling unknown
     * argument of some command; here it is a usage error naming the file and why it cannot be read.
     */
    private static List<Arg> expand(CommandLine root, String[] args) {
        CommandLine reader = picocliReader();
        List<Arg> out = new ArrayList<>();
        int files = 0;
        for (String a : args) {
            boolean atFile = a.length() > 1 && a.startsWith("@") && !a.startsWith("@@");
            if (atFile) {
                String name = a.substring(1);
                File f = new File(name);
                if (!f.canRead()) {
                    throw new ParameterException(root, "cannot read @-file " + name + ": "
                            + (f.exists() ? "permission denied" : "no such file")
                            + " (an argument that starts with @ but is not a file is written @@)");
                }
                files++;
            }
            for (String t : reader.parseArgs(a).expandedArgs()) {
                out.add(new Arg(t, atFile ? files : 0));
            }
        }
        return out;
    }

    /** A command that takes any argument, for picocli's @-file reader alone. */
    private static CommandLine picocliReader() {
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
        return reader;
    }

    /**
     * The arguments in order, with the occurrences of a comma-list option or of one map key joined into the
     * first: {@code --impl netty --impl mina} becomes {@code --impl netty,mina}, {@code -O k=a -O k=b}
     * becomes {@code -O k=a,b}. picocli accumulates its own list options and rejects repeated single values.
     */
    private static List<String> join(List<Group> groups) {
        Map<String, List<String>> values = new LinkedHashMap<>();
        for (Group g : groups) {
            if (g.key() != null && (OptionOccurrences.isCommaList(g.option()) || OptionOccurrences.isMap(g.option()))) {
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
                if (OptionOccurrences.isMap(g.option())) {
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
