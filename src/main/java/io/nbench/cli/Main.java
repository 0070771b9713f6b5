package io.nbench.cli;

import io.nbench.client.ExitCode;
import io.nbench.process.EndWithParent;
import java.io.PrintWriter;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;

/** Entry point of the nbench jar. */
public final class Main {

    private Main() {
    }

    public static void main(String[] args) {
        EndWithParent.watchIfAsked(); // a child JVM of nbench (run's server, a fork) ends with its parent
        System.exit(run(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
    }

    /** Runs one command line and returns its exit code (never calls System.exit), for the launcher and tests. */
    public static int run(String[] args, PrintWriter out, PrintWriter err) {
        if (args.length == 1 && (args[0].equals("--version") || args[0].equals("-V"))) {
            // What picocli would print, without building a command model: scripts ask this in loops.
            for (String line : new VersionProvider().getVersion()) {
                out.println(line);
            }
            out.flush();
            return ExitCode.OK;
        }
        if (args.length == 1 && (args[0].equals("--help") || args[0].equals("-h"))) {
            String help = TopHelp.text(); // picocli's rendering, kept in the jar (TopHelp says why)
            if (help != null) {
                out.print(help);
                out.flush();
                return ExitCode.OK;
            }
        }
        CommandLine cl = commandLine(out, err, args);
        String[] merged;
        try {
            merged = ArgumentFiles.merge(cl, args);
        } catch (CommandLine.ParameterException e) {
            return usageError(e);
        }
        int code = cl.execute(merged);
        out.flush();
        err.flush();
        return code;
    }

    /** A usage error: one line naming the problem and where help is, exit code 2. */
    private static int usageError(CommandLine.ParameterException ex) {
        CommandLine c = ex.getCommandLine();
        String message = ex.getMessage();
        // picocli's suggestions for a mistyped command or option, on the same line: "did you mean: nbench client?"
        if (ex instanceof CommandLine.UnmatchedArgumentException u && !u.getSuggestions().isEmpty()) {
            String qualified = c.getCommandSpec().qualifiedName();
            List<String> s = u.getSuggestions().stream().limit(3)
                    .map(x -> u.isUnknownOption() ? x : qualified + " " + x).toList();
            message += "; did you mean: " + String.join(" or ", s) + "?";
        }
        // A message that already says where to look (e.g. "(see nbench list)") is not sent to --help too.
        c.getErr().println("nbench: " + message + (message.contains("(see ") ? ""
                : " (see '" + c.getCommandSpec().qualifiedName() + " --help')"));
        c.getErr().flush();
        return ExitCode.USAGE;
    }

    /** The whole command line, every subcommand built (help texts, man pages, completion, run's client plans). */
    static CommandLine commandLine(PrintWriter out, PrintWriter err) {
        return commandLine(out, err, NbenchCommand.SUBCOMMANDS.keySet(), true);
    }

    /**
     * The command line {@code args} need: only the subcommand they name, built, when it is one that does not
     * describe the others; every subcommand built for those that do (help, completion, gen-manpage); otherwise
     * (the top command's help, a missing or mistyped command, whose messages list or suggest them) every
     * subcommand by name and description only.
     */
    static CommandLine commandLine(PrintWriter out, PrintWriter err, String[] args) {
        // Only a first word names the command run: after a top option (nbench -h client) the top command
        // answers, and its help lists every subcommand.
        String first = args.length > 0 ? args[0] : "";
        if (NbenchCommand.SUBCOMMANDS.containsKey(first)) {
            boolean all = NbenchCommand.ABOUT_THE_OTHERS.contains(first);
            return commandLine(out, err, all ? NbenchCommand.SUBCOMMANDS.keySet() : NbenchCommand.toRun(first), true);
        }
        return commandLine(out, err, NbenchCommand.SUBCOMMANDS.keySet(), false);
    }

    private static CommandLine commandLine(PrintWriter out, PrintWriter err, Collection<String> subcommands,
                                           boolean built) {
        // ${nbench.cores} in help texts: the number of cores the --io-threads defaults count from, as a value.
        System.setProperty("nbench.cores", Integer.toString(Runtime.getRuntime().availableProcessors()));
        if (built) { // the subcommands' help texts name the registries' members; the summaries do not
            OutputOptions.describeFormats();
            TransportOptions.describeProtocols();
        }
        CommandLine cl = new CommandLine(new NbenchCommand());
        for (String name : subcommands) {
            cl.addSubcommand(name, built ? NbenchCommand.build(name) : new CommandLine(NbenchCommand.summary(name)));
            // Every command's --version and man page header name the version, not only the top command's.
            cl.getSubcommands().get(name).getCommandSpec().versionProvider(new VersionProvider());
        }
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        // @-files are expanded by ArgumentFiles, which lets the command line replace a file's options
        // (nbench client @config/mina-client-stats-lock.args --msgs 1000); given twice in one source, a
        // single-value option stays a usage error, as picocli has it by default.
        cl.setExpandAtFiles(false);
        cl.setOut(out);
        cl.setErr(err);
        cl.setParameterExceptionHandler((ex, args) -> usageError(ex));
        cl.setExecutionExceptionHandler((ex, c, parsed) -> internalError(ex, c));
        return cl;
    }

    private static int internalError(Exception ex, CommandLine c) {
        c.getErr().println("nbench: internal error: " + ex);
        ex.printStackTrace(c.getErr());
        c.getErr().flush();
        return ExitCode.COULD_NOT_RUN;
    }

    /**
     * Runs a command whose options were set in code rather than parsed (nbench run's own clients), with the
     * exit codes and messages {@code execute} gives: a usage error, an internal error, or the command's code.
     */
    static int callWithoutParsing(CommandLine command, Callable<Integer> call) {
        try {
            return call.call();
        } catch (CommandLine.ParameterException e) {
            return usageError(e);
        } catch (Exception e) {
            return internalError(e, command);
        }
    }
}
