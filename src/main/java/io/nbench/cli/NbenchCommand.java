package io.nbench.cli;

import io.nbench.client.ExitCode;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.codegen.docgen.manpage.ManPageGenerator;
import picocli.CommandLine.HelpCommand;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

@Command(name = "nbench", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        sortOptions = false,
        description = "Honest benchmarks of JVM network transports: which transport, configuration or handler "
                + "design is faster, and by how much.",
        subcommands = {ServerCommand.class, ClientCommand.class, RunCommand.class, CompareCommand.class, ReportCommand.class,
            ConsoleCommand.class, ListCommand.class,
            CompletionCommand.class, ManPageGenerator.class, HelpCommand.class},
        footer = {"", "Examples:",
            "  nbench server --impl mina &",
            "  nbench client --threads 50 --msgs 50000 --size 5k",
            "  nbench compare baseline.json candidate.json",
            "  nbench list",
            "  NBENCH_MONITOR_TOKEN=s3cret nbench console --monitor-port 7070",
            "  nbench help client",
            "  source <(nbench completion bash)",
            "  # man pages (AsciiDoc; asciidoctor -b manpage renders them for man):",
            "  nbench gen-manpage -d man/",
            "", "Exit codes: 0 ok, 1 could not run or aborted, 2 usage error, 3 threshold breached, "
                + "4 ran but FAILED, 5 nothing measured, 6 compare: a gate could not be judged, 130 interrupted."})
final class NbenchCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        java.util.List<String> names = new java.util.ArrayList<>(spec.subcommands().keySet());
        String list = String.join(", ", names.subList(0, names.size() - 1)) + " or " + names.get(names.size() - 1);
        spec.commandLine().getErr().println("nbench: a command is required: " + list + " (see 'nbench --help')");
        return ExitCode.USAGE;
    }
}
