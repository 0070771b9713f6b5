package io.nbench.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import io.nbench.protocol.Protocol;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * What one {@code nbench client} that nbench starts itself runs, as data: the user's client command line as
 * parsed once (every option's value, defaults included, and the arguments, which the result document records)
 * and, typed, what {@code nbench run} and {@code --forks} choose for this client ({@link ChildClientChoices}:
 * the port, the result files, the iterations of a round, the {@code -O} options, the monitor...). The user's
 * values are never edited; a choice is a typed setter here and a typed field of the client there. {@code run}
 * runs its clients from a plan in this JVM without parsing anything ({@link #execute}), and {@code --forks}
 * hands each fork one as a JSON file ({@link ClientPlanFile}, {@code nbench client --plan FILE}, hidden).
 */
final class ChildClientPlan {

    /** The value of {@code "format"} in a plan file. */
    static final String FORMAT = ClientPlanFile.FORMAT;

    private static final String PLAN_OPTION = "--plan";

    /** A plan file that cannot be read or does not fit this client's options: exit 1 with this message. */
    static final class Unreadable extends Exception {
        private static final long serialVersionUID = 1L;

        Unreadable(String message) {
            super(message);
        }
    }

    private final List<String> arguments;
    private final Map<String, JsonNode> given;
    private final ChildClientChoices choices;

    ChildClientPlan(List<String> arguments, Map<String, JsonNode> given, ChildClientChoices choices) {
        this.arguments = List.copyOf(arguments);
        this.given = given;
        this.choices = choices;
    }

    /**
     * The plan of a parsed client command: every option's current value, nothing chosen yet.
     *
     * @param arguments the command line the user gave, recorded in the result document
     */
    static ChildClientPlan of(CommandSpec client, List<String> arguments) {
        Map<String, JsonNode> values = new LinkedHashMap<>();
        for (OptionSpec o : client.options()) {
            if (carried(o)) {
                requireCarriable(o);
                Object value = o.getValue();
                values.put(o.longestName(), value == null ? NullNode.instance : ClientPlanFile.JSON.valueToTree(value));
            }
        }
        return new ChildClientPlan(arguments, values, new ChildClientChoices());
    }

    /** The types a plan carries as JSON and reads back as they were: anything else would change on the way. */
    private static final List<Class<?>> CARRIED_TYPES = List.of(String.class, Boolean.class, Integer.class,
            Long.class, Double.class, boolean.class, int.class, long.class, double.class, Duration.class,
            Instant.class, Path.class, Protocol.class);

    /**
     * A client option of another type needs its JSON form in {@link ClientPlanFile#JSON} before run and
     * --forks can pass it on; this names the option rather than losing its value.
     */
    static void requireCarriable(OptionSpec o) {
        List<Class<?>> types = new ArrayList<>(List.of(o.typeInfo().getType()));
        if (o.typeInfo().isCollection() || o.typeInfo().isMap()) {
            types = List.of(o.typeInfo().getAuxiliaryTypes());
        }
        for (Class<?> t : types) {
            if (!t.isEnum() && !CARRIED_TYPES.contains(t)) {
                throw new IllegalStateException("client option " + o.longestName() + " holds a " + t.getName()
                        + ", which a client plan cannot carry yet: give it a JSON form in ClientPlanFile");
            }
        }
    }

    /** Help and version flags do nothing in a plan, and a plan does not name itself. */
    private static boolean carried(OptionSpec o) {
        return !o.usageHelp() && !o.versionHelp() && !o.longestName().equals(PLAN_OPTION);
    }

    /** The command line the user gave, to record in the result document. */
    List<String> arguments() {
        return arguments;
    }

    Map<String, JsonNode> given() {
        return given;
    }

    ChildClientChoices choices() {
        return choices;
    }

    private ChildClientPlan choose(Consumer<ChildClientChoices> choice) {
        ChildClientChoices c = choices.copy();
        choice.accept(c);
        return new ChildClientPlan(arguments, given, c);
    }

    ChildClientPlan port(int port) {
        return choose(c -> c.port = port);
    }

    /** The client's {@code --out}, {@code --hdr-log} and {@code --hgrm} (null: none), which run keeps or not. */
    ChildClientPlan resultFiles(Path out, Path hdrLog, String hgrm, boolean ownedByRun) {
        return choose(c -> c.files = new ChildClientChoices.ResultFiles(out, hdrLog, hgrm, ownedByRun));
    }

    ChildClientPlan iterationTime(Duration iterationTime) {
        return choose(c -> c.iterationTime = iterationTime);
    }

    /** The warmup and measured iterations of this client (a round of run's: 0 and the round's share). */
    ChildClientPlan iterations(int warmup, int iterations) {
        return choose(c -> {
            c.warmup = warmup;
            c.iterations = iterations;
        });
    }

    /** No {@code --threshold}: a warmup run is not judged. */
    ChildClientPlan withoutThresholds() {
        return choose(c -> c.thresholds = List.of());
    }

    /** A closed-loop run of the user's load, no {@code --find-rate}: run's warmup before capacity searches. */
    ChildClientPlan withoutCapacitySearch() {
        return choose(c -> c.closedLoopOnly = true);
    }

    /** {@code nbench run --tls}: the client trusts the certificates run's servers made for themselves. */
    ChildClientPlan trustingRunsServers() {
        return choose(c -> c.trustRunsServers = true);
    }

    ChildClientPlan transportOptions(Map<String, String> options) {
        return choose(c -> c.transportOptions = new LinkedHashMap<>(options));
    }

    /** The client is the in-JVM transport {@code impl}, whose server runs in this JVM. */
    ChildClientPlan inJvm(String impl) {
        return choose(c -> c.inJvmImpl = impl);
    }

    /** {@code --server-stats} from the monitor at {@code host:port}, its token read from {@code tokenFile}. */
    ChildClientPlan serverStats(String host, int port, Path tokenFile) {
        return choose(c -> c.monitor = new ChildClientChoices.Monitor(host, port, tokenFile));
    }

    ChildClientPlan startAt(Instant startAt) {
        return choose(c -> c.startAt = startAt);
    }

    ChildClientPlan forks(int forks) {
        return choose(c -> c.forks = forks);
    }

    /** Sets every option of {@code client} the plan names to the user's value (the choices are not applied). */
    void applyTo(CommandSpec client) throws Unreadable {
        for (Map.Entry<String, JsonNode> e : given.entrySet()) {
            OptionSpec o = client.findOption(e.getKey());
            if (o == null || !carried(o)) {
                throw new Unreadable("the plan names option " + e.getKey() + ", which nbench client does not have");
            }
            try {
                o.setValue(ClientPlanFile.JSON.convertValue(e.getValue(), ClientPlanFile.typeOf(o)));
            } catch (IllegalArgumentException | CommandLine.PicocliException ex) {
                throw new Unreadable("the plan's value of " + e.getKey() + " is not one it takes: " + e.getValue());
            }
        }
    }

    /**
     * Sets {@code client}'s options to the plan: the user's values, then the choices, each on the client's own
     * typed field; the result document then records them as the client's options, under their names.
     */
    void applyTo(ClientCommand client) throws Unreadable {
        applyTo(client.spec);
        choices.applyTo(client);
        client.output.givenArguments = arguments;
    }

    /**
     * Applies the plan {@code --plan} names (a fork's) to the client's options; false, with the reason printed,
     * when it cannot be used.
     */
    static boolean applyFile(ClientCommand client, PrintWriter err) {
        if (client.spec.commandLine().getParseResult().matchedOptions().size() > 1) {
            throw new CommandLine.ParameterException(client.spec.commandLine(),
                    "--plan gives every option: leave the others out");
        }
        try {
            read(client.planFile).applyTo(client);
            return true;
        } catch (Unreadable e) {
            err.println("nbench client: " + e.getMessage());
            return false;
        }
    }

    /**
     * Runs {@code nbench client} with this plan in this JVM and returns its exit code; {@code listener} (may be
     * null) hears what it measured (not after a usage error). Nothing is parsed: the plan's values are set on a
     * client command's fields, which build its {@link io.nbench.client.ClientPlan} and name its options in
     * the result document, and the client runs as a method call ({@link ClientCommand#measure}).
     */
    int execute(PrintWriter out, PrintWriter err, ChildClientListener listener) {
        CommandLine cl = Main.commandLine(out, err).getSubcommands().get("client");
        ClientCommand client = cl.getCommand();
        try {
            applyTo(client);
        } catch (Unreadable e) { // a plan made in this JVM from a parsed client: its values fit
            throw new IllegalStateException(e.getMessage(), e);
        }
        client.listener = listener;
        return Main.callWithoutParsing(cl, client::measure);
    }

    void write(Path file) throws IOException {
        ClientPlanFile.write(this, file);
    }

    static ChildClientPlan read(Path file) throws Unreadable {
        return ClientPlanFile.read(file);
    }
}
