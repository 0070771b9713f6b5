package io.nbench.client.monitor;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import org.jline.builtins.Completers.TreeCompleter;
import org.jline.reader.EndOfFileException;
import org.jline.reader.LineReader;
import org.jline.reader.LineReaderBuilder;
import org.jline.reader.UserInterruptException;
import org.jline.terminal.Terminal;

/**
 * {@code nbench console}'s two ways of talking to a monitor: interactively on a terminal (JLine: line editing,
 * history, completion of the commands) and line by line from a pipe, for scripts.
 */
public final class MonitorConsole {

    public static final String PROMPT = "nbench> ";

    private MonitorConsole() {
    }

    /**
     * Commands from {@code in}, one per line, answers to {@code out}; ends at {@code quit}, at the end of the
     * input (then it says quit itself) or when the monitor closes the connection (a {@link MonitorClient.Failure}).
     * The monitor's {@code BYE} (its acknowledgement of quit) is not printed: a script's stdout holds the answers
     * alone, so {@code printf 'metrics json\nquit\n' | nbench console ... | jq} reads one JSON document.
     */
    public static void pipe(MonitorClient client, BufferedReader in, PrintWriter out) throws IOException {
        for (String line; (line = in.readLine()) != null; ) {
            if (line.isBlank()) {
                continue;
            }
            if (!answer(client, line, out, false)) {
                return;
            }
        }
        client.command("quit");
    }

    /**
     * A prompt on {@code terminal}; {@code history} is the file JLine keeps the commands in (null: in memory
     * only). Ctrl-C drops the line being typed, Ctrl-D or {@code quit} ends.
     */
    public static void interactive(MonitorClient client, Terminal terminal, Path history) throws IOException {
        LineReaderBuilder builder = LineReaderBuilder.builder().terminal(terminal).appName("nbench-console")
                .completer(new TreeCompleter(TreeCompleter.node("metrics", TreeCompleter.node("json")),
                        TreeCompleter.node("reset"), TreeCompleter.node("help"), TreeCompleter.node("quit")))
                // A token typed by hand ("auth ...") is never kept.
                .variable(LineReader.HISTORY_IGNORE, "auth*");
        if (history != null) {
            builder.variable(LineReader.HISTORY_FILE, history);
        }
        LineReader reader = builder.build();
        PrintWriter out = terminal.writer();
        out.println("connected to " + client.where() + "; commands: metrics, metrics json, reset, help, quit "
                + "(Tab completes, Ctrl-D quits)");
        out.flush();
        try {
            while (true) {
                String line;
                try {
                    line = reader.readLine(PROMPT);
                } catch (UserInterruptException e) {
                    continue;
                } catch (EndOfFileException e) {
                    client.command("quit");
                    return;
                }
                if (line.isBlank()) {
                    continue;
                }
                if (!answer(client, line, out, true)) {
                    return;
                }
            }
        } finally {
            reader.getHistory().save();
        }
    }

    /** Sends one command and prints its answer ({@code BYE} only if {@code showBye}); false once the connection is over. */
    private static boolean answer(MonitorClient client, String line, PrintWriter out, boolean showBye)
            throws IOException {
        List<String> answer = client.command(line.strip());
        boolean bye = answer.get(0).equals("BYE");
        if (!bye || showBye) {
            answer.forEach(out::println);
        }
        out.flush();
        return !bye && !(answer.get(0).startsWith("ERR") && closes(answer.get(0)));
    }

    /** The monitor's errors after which it closes the connection. */
    private static boolean closes(String error) {
        return error.startsWith("ERR line too long") || error.startsWith("ERR idle") || error.startsWith("ERR auth")
                || error.startsWith("ERR bad token");
    }
}
