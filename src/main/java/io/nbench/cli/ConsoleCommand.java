package io.nbench.cli;

import io.nbench.client.ExitCode;
import io.nbench.client.monitor.MonitorClient;
import io.nbench.client.monitor.MonitorConsole;
import io.nbench.monitor.MonitorToken;
import io.nbench.report.Tty;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.Charset;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import org.jline.reader.EndOfFileException;
import org.jline.reader.LineReaderBuilder;
import org.jline.reader.UserInterruptException;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

@Command(name = "console", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Talks to a server's monitor: on a terminal a prompt with line editing, history (kept in "
                + "~/.nbench_console_history) and Tab completion of the commands; from a pipe it reads one command "
                + "per line and prints the answers. Commands: metrics, metrics json, reset, help, quit.",
        footer = {"", "Examples:",
            "  # the server: NBENCH_MONITOR_TOKEN=s3cret nbench server --monitor-port 7070",
            "  NBENCH_MONITOR_TOKEN=s3cret nbench console --monitor-port 7070",
            "  nbench console --monitor-port 7070 --monitor-token-file ~/.nbench-token",
            "  printf 'metrics\\nquit\\n' | nbench console --monitor-port 7070",
            "", "Exit codes: 0 ok, 1 the monitor could not be reached, refused the token or closed the connection, "
                + "2 usage error."})
final class ConsoleCommand implements Callable<Integer> {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    @Spec
    CommandSpec spec;

    @Mixin
    MonitorClientOptions monitor;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        int port = monitor.port(spec, "nbench console");
        String host = monitor.host != null ? monitor.host : "127.0.0.1";
        if (host.isBlank()) {
            throw new ParameterException(spec.commandLine(), "--monitor-host is empty: name the server, e.g. 127.0.0.1");
        }
        MonitorToken token = monitor.token(spec);
        boolean interactive = Tty.stdin() && Tty.stdout();
        try (Terminal terminal = interactive ? TerminalBuilder.builder().system(true).build() : null) {
            if (token == null) {
                if (terminal == null) {
                    throw new ParameterException(spec.commandLine(), "no monitor token: set " + MonitorToken.ENV
                            + " or give --monitor-token-file (without a terminal there is no prompt for it)");
                }
                token = prompt(terminal);
                if (token == null) {
                    return ExitCode.OK; // Ctrl-D or Ctrl-C at the prompt: the user changed their mind
                }
            }
            try (MonitorClient client = MonitorClient.connect(host, port, token, TIMEOUT)) {
                if (terminal != null) {
                    MonitorConsole.interactive(client, terminal,
                            Path.of(System.getProperty("user.home"), ".nbench_console_history"));
                } else {
                    MonitorConsole.pipe(client, new BufferedReader(new InputStreamReader(System.in,
                            Charset.defaultCharset())), out);
                }
            }
            return ExitCode.OK;
        } catch (MonitorToken.Invalid e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        } catch (IOException e) {
            out.flush();
            err.println("nbench console: " + e.getMessage());
            return ExitCode.COULD_NOT_RUN;
        }
    }

    /** Asks for the token without echoing it; null if the user ends the prompt. */
    private static MonitorToken prompt(Terminal terminal) throws MonitorToken.Invalid {
        try {
            String typed = LineReaderBuilder.builder().terminal(terminal).build().readLine("monitor token: ", (char) 0);
            return MonitorToken.typed(typed);
        } catch (UserInterruptException | EndOfFileException e) {
            return null;
        }
    }
}
