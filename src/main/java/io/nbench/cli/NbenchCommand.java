package io.nbench.cli;

import io.nbench.client.ExitCode;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

@Command(name = "nbench", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        sortOptions = false,
        description = "Honest benchmarks of JVM network transports: which transport, configuration or handler "
                + "design is faster, and by how much.",
        footer = {"", "Examples:",
            "  nbench server --impl mina &",
            "  nbench client --connect-retry 5s --threads 50 --msgs 50000 --size 5k",
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

    /**
     * The subcommands, in the order help lists them: each name with its class, by name. Not in the annotation:
     * picocli builds the whole model of every subcommand it is given (over a thousand classes loaded), so a
     * command line adds only the one it runs, and the top command's help and errors only each one's name and
     * description (its annotation, read without building it); help, completion and the man pages get them all
     * ({@link Main#commandLine}). The classes are named rather than referenced so that none is even loaded
     * before it is needed (reading the ten annotations took 50 ms of every start); {@code HelpTextTest} checks
     * each name against its class's annotation. Scripts that call nbench in a loop pay the start-up on every call.
     */
    static final Map<String, String> SUBCOMMANDS = subcommands();

    /** The commands that describe the others, so they need every one of them built. */
    static final Set<String> ABOUT_THE_OTHERS = Set.of("help", "completion", "gen-manpage");

    /** What running {@code name} needs built: itself, and for run the client, whose options run passes on. */
    static List<String> toRun(String name) {
        return name.equals("run") ? List.of("client", "run") : List.of(name);
    }

    private static Map<String, String> subcommands() {
        Map<String, String> all = new LinkedHashMap<>();
        String cli = "io.nbench.cli.";
        all.put("server", cli + "ServerCommand");
        all.put("client", cli + "ClientCommand");
        all.put("run", cli + "RunCommand");
        all.put("compare", cli + "CompareCommand");
        all.put("report", cli + "ReportCommand");
        all.put("console", cli + "ConsoleCommand");
        all.put("list", cli + "ListCommand");
        all.put("completion", cli + "CompletionCommand");
        all.put("gen-manpage", "picocli.codegen.docgen.manpage.ManPageGenerator");
        all.put("help", "picocli.CommandLine$HelpCommand");
        return Collections.unmodifiableMap(all);
    }

    /** The class of subcommand {@code name}. */
    static Class<?> commandClass(String name) {
        try {
            return Class.forName(SUBCOMMANDS.get(name));
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("the " + name + " command's class is missing", e);
        }
    }

    /** The subcommand {@code name}, built: every option, mixin and converter of it. */
    static Object build(String name) {
        try {
            return commandClass(name).getDeclaredConstructor().newInstance();
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot build the " + name + " command", e);
        }
    }

    /** The subcommand {@code name} as the top command's help lists it: its name and description, no options. */
    static CommandSpec summary(String name) {
        Command a = commandClass(name).getAnnotation(Command.class);
        CommandSpec spec = CommandSpec.create().name(name);
        spec.usageMessage().header(a.header()).description(a.description()).hidden(a.hidden());
        return spec;
    }

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        List<String> names = new ArrayList<>(spec.subcommands().keySet());
        String list = String.join(", ", names.subList(0, names.size() - 1)) + " or " + names.get(names.size() - 1);
        spec.commandLine().getErr().println("nbench: a command is required: " + list + " (see 'nbench --help')");
        return ExitCode.USAGE;
    }
}
