package io.nbench.cli;

import io.nbench.cli.OptionOccurrences.Arg;
import io.nbench.cli.OptionOccurrences.Group;
import io.nbench.files.BoundedFile;
import java.io.File;
import java.io.IOException;
import java.io.StreamTokenizer;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.nio.charset.Charset;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine;

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
 * this class expands each argument in picocli's syntax (quotes, {@code #} comments, nested @-files,
 * {@code @@} for a literal {@code @}), each file read bounded, applies the rule on the options picocli's model
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

    /** The most read of one @-file: a scenario's options are a few hundred bytes. */
    static final int MAX_BYTES = 1 << 20;

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
     * nested @-files) and {@code @@} for a literal {@code @} are picocli's own syntax. Two things picocli lacks:
     * it passes an @-file it cannot read on as a literal argument, which would surface as a baffling unknown
     * argument of some command; here it is a usage error naming the file and why it cannot be read. And it
     * reads a file whole, however large ({@code @/dev/zero} spun for ever, a NUL being whitespace to it): here
     * each file is read bounded ({@link #MAX_BYTES}).
     */
    private static List<Arg> expand(CommandLine root, String[] args) {
        List<Arg> out = new ArrayList<>();
        int files = 0;
        for (String a : args) {
            add(root, a, isAtFile(a) ? ++files : 0, out, new HashSet<>());
        }
        return out;
    }

    /** picocli's test: {@code @} alone is an argument, {@code @@x} is the argument {@code @x}. */
    private static boolean isAtFile(String arg) {
        return arg.length() > 1 && arg.startsWith("@") && !arg.startsWith("@@");
    }

    /**
     * {@code arg}, or the arguments of the @-file it names, nested files expanded; a file met again in the same
     * argument's expansion is skipped, as picocli skips it (a file that names itself ends).
     */
    private static void add(CommandLine root, String arg, int source, List<Arg> out, Set<String> visited) {
        if (!isAtFile(arg)) {
            out.add(new Arg(arg.startsWith("@@") ? arg.substring(1) : arg, source));
            return;
        }
        String name = arg.substring(1);
        File f = new File(name);
        if (!f.canRead()) {
            throw new ParameterException(root, "cannot read @-file " + name + ": "
                    + (f.exists() ? "permission denied" : "no such file")
                    + " (an argument that starts with @ but is not a file is written @@)");
        }
        if (!visited.add(f.getAbsolutePath())) {
            return;
        }
        for (String token : tokens(root, name)) {
            add(root, token, source, out, visited);
        }
    }

    /**
     * The arguments of one @-file, split as picocli splits them (its {@code expandValidArgumentFile}: the same
     * tokenizer settings, the platform's charset as its FileReader has it), from at most {@link #MAX_BYTES}.
     */
    private static List<String> tokens(CommandLine root, String name) {
        String text;
        try {
            text = new String(BoundedFile.read(Path.of(name), MAX_BYTES), Charset.defaultCharset());
        } catch (BoundedFile.TooLarge e) {
            throw new ParameterException(root, "@-file " + name + " " + e.beyond("nbench reads of an @-file")
                    + ": give a file of nbench options");
        } catch (IOException e) {
            throw new ParameterException(root, "cannot read @-file " + name + ": "
                    + Converters.oneLine(String.valueOf(e.getMessage())));
        }
        StreamTokenizer tok = new StreamTokenizer(new StringReader(text));
        tok.resetSyntax();
        tok.wordChars(' ', 255);
        tok.whitespaceChars(0, ' ');
        tok.quoteChar('"');
        tok.quoteChar('\'');
        tok.commentChar('#');
        List<String> tokens = new ArrayList<>();
        try {
            while (tok.nextToken() != StreamTokenizer.TT_EOF) {
                tokens.add(tok.sval);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("a StringReader does not fail", e);
        }
        return tokens;
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
