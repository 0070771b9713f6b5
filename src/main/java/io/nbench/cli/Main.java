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
        int code = cl.execute(args);
        out.flush();
        err.flush();
        return code;
    }

    static CommandLine commandLine(PrintWriter out, PrintWriter err) {
        CommandLine cl = new CommandLine(new NbenchCommand());
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        // A later single-value option wins, so a scenario file can be adjusted on the command line:
        // nbench client @config/seed-000-mina-client-stats.args --msgs 1000
        cl.setOverwrittenOptionsAllowed(true);
        cl.setOut(out);
        cl.setErr(err);
        cl.setParameterExceptionHandler((ex, args) -> {
            CommandLine c = ex.getCommandLine();
            c.getErr().println("nbench: " + ex.getMessage() + " (see '" + c.getCommandSpec().qualifiedName() + " --help')");
            c.getErr().flush();
            return ExitCode.USAGE;
        });
        cl.setExecutionExceptionHandler((ex, c, parsed) -> {
            c.getErr().println("nbench: internal error: " + ex);
            ex.printStackTrace(c.getErr());
            c.getErr().flush();
            return ExitCode.COULD_NOT_RUN;
        });
        return cl;
    }
}
