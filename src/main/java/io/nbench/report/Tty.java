package io.nbench.report;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.jline.terminal.impl.exec.ExecTerminalProvider;
import org.jline.terminal.spi.SystemStream;
import org.jline.terminal.spi.TerminalProvider;
import org.jline.utils.AttributedString;

/**
 * What nbench knows of the terminal, through JLine's terminal providers: whether stdout or stderr is a
 * terminal, its width, and whether it understands escape sequences. No JLine {@code Terminal} is built: nothing
 * is printed, no mode is changed and nothing is queried from the terminal (no cursor-position probe). JLine's
 * {@code exec} provider asks the system ({@code test -t N}, {@code stty}), the same on every JDK, and is only
 * asked when the answer is needed.
 */
public final class Tty {

    /** What the text output keeps to on a terminal, even a wider one: a line a reader's eye can follow. */
    public static final int TEXT_COLUMNS = 120;

    private static final int DEFAULT_WIDTH = 80;

    private Tty() {
    }

    /** Whether stdout is a terminal. */
    public static boolean stdout() {
        return isTerminal(SystemStream.Output);
    }

    /** Whether stdin is a terminal (not a pipe or a file). */
    public static boolean stdin() {
        return isTerminal(SystemStream.Input);
    }

    /** Whether stderr is a terminal. */
    public static boolean stderr() {
        return isTerminal(SystemStream.Error);
    }

    /**
     * {@code test -t FD} through JLine's exec provider. Its general {@code isSystemStream} also tries the
     * Windows way when the answer is no, which on Linux loads JLine's native library (extracted into the
     * temporary directory, and a warning on JDK 24+ without native access): not for a yes or no.
     */
    private static boolean isTerminal(SystemStream stream) {
        if (System.getProperty("os.name", "").startsWith("Windows")) {
            return false; // no progress line, one-line text: what a pipe gets
        }
        try {
            return provider() instanceof ExecTerminalProvider exec && exec.isPosixSystemStream(stream);
        } catch (RuntimeException | LinkageError e) {
            return false;
        }
    }

    /**
     * The width of the terminal on stderr in columns ({@code stty -a} on the terminal of stdin, normally the
     * same); $COLUMNS or 80 when the system does not say.
     */
    public static int stderrWidth() {
        TerminalProvider p = provider();
        int w = -1;
        try {
            w = p == null ? -1 : p.systemStreamWidth(SystemStream.Error);
        } catch (RuntimeException | LinkageError e) {
            w = -1;
        }
        if (w > 0) {
            return w;
        }
        try {
            int columns = Integer.parseInt(System.getenv().getOrDefault("COLUMNS", "").trim());
            return columns > 0 ? columns : DEFAULT_WIDTH;
        } catch (NumberFormatException e) {
            return DEFAULT_WIDTH;
        }
    }

    /**
     * Whether the terminal takes nothing but plain text ({@code TERM=dumb}, or no TERM at all): no carriage
     * return rewriting, no escape sequence.
     */
    public static boolean dumb() {
        String term = System.getenv("TERM");
        return term == null || term.isBlank() || term.toLowerCase(Locale.ROOT).startsWith("dumb");
    }

    /** {@code text} cut to at most {@code columns} terminal columns (wide characters count two). */
    public static String fit(String text, int columns) {
        AttributedString s = new AttributedString(text);
        return s.columnLength() <= columns ? text : s.columnSubSequence(0, Math.max(0, columns)).toString();
    }

    /** The display width of {@code text} in terminal columns. */
    public static int columns(String text) {
        return new AttributedString(text).columnLength();
    }

    /**
     * {@code text} broken at spaces into lines of at most {@code columns} columns: the first line starts with
     * {@code first}, the others with {@code rest}. A word longer than a line stays whole.
     */
    public static List<String> wrap(String text, int columns, String first, String rest) {
        List<String> lines = new ArrayList<>();
        StringBuilder line = new StringBuilder(first);
        int empty = first.length();
        for (String word : text.split(" +")) {
            if (word.isEmpty()) {
                continue;
            }
            if (line.length() > empty && columns(line + " " + word) > columns) {
                lines.add(line.toString());
                line = new StringBuilder(rest);
                empty = rest.length();
            }
            if (line.length() > empty) {
                line.append(' ');
            }
            line.append(word);
        }
        lines.add(line.toString());
        return lines;
    }

    private static TerminalProvider provider() {
        try {
            return TerminalProvider.load("exec");
        } catch (IOException | RuntimeException | LinkageError e) {
            return null;
        }
    }
}
