package io.nbench.cli;

import java.io.PrintWriter;
import picocli.CommandLine;

/** Entry point of the nbench jar. */
public final class Main {

    private Main() {
    }

    public static void main(String[] args) {
        System.exit(run(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
    }

    /** Runs one command line and returns its exit code (never calls System.exit), for the launcher and tests. */
    public static int run(String[] args, PrintWriter out, PrintWriter err) {
        CommandLine cl = commandLine(out, err);
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
        c.getErr().println("nbench: " + ex.getMessage() + " (see '" + c.getCommandSpec().qualifiedName() + " --help')");
        c.getErr().flush();
        return ExitCode.USAGE;
    }

    static CommandLine commandLine(PrintWriter out, PrintWriter err) {
        CommandLine cl = new CommandLine(new NbenchCommand());
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        // @-files are expanded by ArgumentFiles, which lets the command line replace a file's options
        // (nbench client @config/seed-000-mina-client-stats.args --msgs 1000); given twice in one source, a
        // single-value option stays a usage error, as picocli has it by default.
        cl.setExpandAtFiles(false);
        cl.setOut(out);
        cl.setErr(err);
        cl.setParameterExceptionHandler((ex, args) -> usageError(ex));
        cl.setExecutionExceptionHandler((ex, c, parsed) -> {
            c.getErr().println("nbench: internal error: " + ex);
            ex.printStackTrace(c.getErr());
            c.getErr().flush();
            return ExitCode.COULD_NOT_RUN;
        });
        return cl;
    }
}
