package io.nbench.cli;

import io.nbench.client.ExitCode;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nbench.report.Tty;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/** The help texts and usage errors, through picocli in this JVM: they are text only. */
class HelpTextTest {

    private static List<CommandLine> commands() {
        List<CommandLine> all = new ArrayList<>();
        List<CommandLine> todo = new ArrayList<>(List.of(Main.commandLine(new PrintWriter(new StringWriter()),
                new PrintWriter(new StringWriter()))));
        while (!todo.isEmpty()) {
            CommandLine c = todo.remove(0);
            all.add(c);
            todo.addAll(c.getSubcommands().values());
        }
        return all;
    }

    private static String usage(String command) {
        CliTest.Outcome o = CliTest.run(command, "--help");
        assertEquals(0, o.code(), o.err());
        return o.out();
    }

    /**
     * A command line builds only what it runs (start-up time for scripts): the top command's help, its missing-command
     * line and --version must still read exactly as with every subcommand built.
     */
    @Test
    void whatACommandLineLeavesUnbuiltChangesNoWordOfHelpOrVersion() {
        String full = Main.commandLine(new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()))
                .getUsageMessage(CommandLine.Help.Ansi.OFF);
        CliTest.Outcome help = CliTest.run("--help");
        assertEquals(ExitCode.OK, help.code(), help.err());
        assertEquals(full, help.out().replace("\r\n", "\n"), "the top command's help, subcommands by summary");
        // A top option first: the top command answers, with every subcommand (not only the one named after it).
        CliTest.Outcome before = CliTest.run("-h", "client");
        assertEquals(full, before.out().replace("\r\n", "\n"), before.err());
        String version = String.join("\n", new VersionProvider().getVersion()) + "\n";
        CliTest.Outcome v = CliTest.run("--version");
        assertEquals(ExitCode.OK, v.code());
        assertEquals(version, v.out().replace("\r\n", "\n"));
        CliTest.Outcome none = CliTest.run();
        assertEquals(ExitCode.USAGE, none.code());
        assertEquals("nbench: a command is required: server, client, run, compare, report, console, list, completion, "
                + "gen-manpage or help (see 'nbench --help')", none.err().strip());
        // Only the named subcommand is built, the others not even by summary.
        CommandLine client = Main.commandLine(new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()),
                new String[] {"client", "--port", "1"});
        assertEquals(List.of("client"), List.copyOf(client.getSubcommands().keySet()));
    }

    /**
     * nbench --help prints a copy of picocli's rendering kept in the jar ({@link TopHelp}): both copies, plain and
     * coloured, must be what the model renders now. {@code -Dnbench.docs.update=true} rewrites them.
     */
    @Test
    void theTopHelpKeptInTheJarIsWhatTheModelRenders() throws IOException {
        CommandLine full = Main.commandLine(new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()));
        keptAs(TopHelp.PLAIN, full.getUsageMessage(CommandLine.Help.Ansi.OFF));
        keptAs(TopHelp.COLOURED, full.getUsageMessage(CommandLine.Help.Ansi.ON));
    }

    private static void keptAs(String name, String rendered) throws IOException {
        Path file = Path.of("src", "main", "resources", "io", "nbench", "cli", name);
        if (Boolean.getBoolean("nbench.docs.update")) {
            Files.writeString(file, rendered, StandardCharsets.UTF_8);
        }
        String kept = Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
        assertEquals(rendered, kept, file + " is not nbench --help as the model renders it: regenerate it with "
                + "./mvnw test -Dtest=HelpTextTest -Dnbench.docs.update=true");
    }

    /** The subcommands are listed by class name, so that none is loaded before it runs: each must be its class's. */
    @Test
    void eachSubcommandIsNamedAsItsClassSays() {
        for (String name : NbenchCommand.SUBCOMMANDS.keySet()) {
            assertEquals(name, NbenchCommand.commandClass(name).getAnnotation(CommandLine.Command.class).name());
        }
    }

    @Test
    void everyOptionShowsItsDefault() {
        List<String> missing = new ArrayList<>();
        for (CommandLine c : commands()) {
            if (c.getCommandName().equals("gen-manpage")) {
                continue; // picocli's own generator, with picocli's help text
            }
            for (OptionSpec o : c.getCommandSpec().options()) {
                if (o.usageHelp() || o.versionHelp() || o.hidden()) {
                    continue;
                }
                if (!String.join(" ", o.description()).toLowerCase(Locale.ROOT).contains("default")) {
                    missing.add(c.getCommandSpec().qualifiedName() + " " + o.longestName());
                }
            }
        }
        assertEquals(List.of(), missing);
    }

    @Test
    void ioThreadsHelpStatesTheRuleWithTheCoresAsAValue() {
        int cores = Runtime.getRuntime().availableProcessors();
        for (String command : List.of("client", "server")) {
            String help = usage(command).replaceAll("\\s+", " ");
            assertTrue(help.contains("Default: 0, automatic: the server takes every core (" + cores + "); the client "
                    + "half of them, at least 1, when its server is on this machine"), help);
            assertTrue(help.contains("never more than --connections"), help);
        }
        assertTrue(usage("run").replaceAll("\\s+", " ").contains("Default: 0, half of the " + cores
                + " cores, at least 1"));
    }

    @Test
    void rateOptionsSayWhatTheyDoAndThresholdListsItsMetrics() {
        String help = usage("client").replaceAll("\\s+", " ");
        assertTrue(help.contains("--rate=R[,R...] Open loop: sends R messages/s in all (e.g. 50k) on a fixed schedule"), help);
        assertTrue(help.contains("--connect-rate=R Opens the connections at most R per second"), help);
        for (String metric : List.of("pN (any percentile: p50, p99.9)", "min, mean, max", "throughput, rate-achieved",
                "errors (a count)", "error-rate (%)", "ns, us, ms or s", "msg/s", "OP: < <= > >= == !=")) {
            assertTrue(help.contains(metric), metric + " in " + help);
        }
    }

    @Test
    void exampleCommentsNeverWrapToColumnZeroAtEightyColumns() {
        for (CommandLine c : commands()) {
            for (String line : c.getCommandSpec().usageMessage().footer()) {
                if (line.startsWith("  ")) {
                    assertTrue(Tty.columns(line) < 80, c.getCommandSpec().qualifiedName() + ": " + line);
                }
            }
            String help = c.getUsageMessage();
            String[] lines = help.split("\n");
            boolean inExamples = false;
            for (String line : lines) {
                inExamples = line.startsWith("Example") || (inExamples && !line.isEmpty());
                if (inExamples && !line.startsWith("Example")) {
                    assertTrue(line.startsWith("  "), "wrapped to column 0: " + line + " in\n" + help);
                }
            }
        }
    }

    @Test
    void unknownTransportPointsToNbenchListOnce() {
        CliTest.Outcome o = CliTest.run("client", "--impl", "foo");
        assertEquals(ExitCode.USAGE, o.code());
        assertEquals(1, o.err().split("\\(see ", -1).length - 1, o.err());
        assertTrue(o.err().strip().endsWith("(see nbench list)"), o.err());
    }

    @Test
    void aCommandIsRequiredListsEveryCommand() {
        CliTest.Outcome o = CliTest.run();
        assertEquals(ExitCode.USAGE, o.code());
        assertEquals("nbench: a command is required: server, client, run, compare, report, console, list, completion, gen-manpage or help "
                + "(see 'nbench --help')", o.err().strip());
        for (String name : commands().get(0).getSubcommands().keySet()) {
            assertTrue(o.err().contains(name), name);
        }
    }

    @Test
    void mistypedCommandsAndOptionsGetPicocliSuggestions() {
        CliTest.Outcome command = CliTest.run("clinet");
        assertEquals(ExitCode.USAGE, command.code());
        assertEquals("nbench: Unmatched argument at index 0: 'clinet'; did you mean: nbench client or nbench list or "
                + "nbench completion? (see 'nbench --help')", command.err().strip());
        CliTest.Outcome option = CliTest.run("client", "--thread", "5");
        assertEquals(ExitCode.USAGE, option.code());
        assertEquals("nbench: Unknown options: '--thread', '5'; did you mean: --threads or --threshold? "
                + "(see 'nbench client --help')", option.err().strip());
    }

    @Test
    void helpCommandShowsACommandsHelp() {
        CliTest.Outcome o = CliTest.run("help", "client");
        assertEquals(0, o.code(), o.err());
        assertTrue(o.out().startsWith("Usage: nbench client "), o.out());
        assertEquals("", o.err());
        CliTest.Outcome root = CliTest.run("help");
        assertEquals(0, root.code());
        assertTrue(root.out().contains("completion"), root.out());
    }

    @Test
    void listFitsOneHundredAndTwentyColumns() {
        CliTest.Outcome o = CliTest.run("list");
        assertEquals(0, o.code());
        for (String line : o.out().split("\n")) {
            assertTrue(Tty.columns(line) <= 120, line.length() + ": " + line);
        }
        assertTrue(o.out().contains("    -O mina.stats=on|off|spin-lock|noop-lock  (default on)\n        "), o.out());
    }
}
