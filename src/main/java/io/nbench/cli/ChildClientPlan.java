package io.nbench.cli;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import com.fasterxml.jackson.databind.ser.std.ToStringSerializer;
import com.fasterxml.jackson.databind.type.TypeFactory;
import io.nbench.protocol.Protocol;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * What one {@code nbench client} runs, as data: the value of every client option (defaults included),
 * by option name, typed as the option holds it, plus the command line the user gave (which the result
 * document records). {@code nbench run} hands its clients a plan in this JVM and {@code --forks} hands
 * each fork one as a JSON file ({@code nbench client --plan FILE}, hidden), so neither rebuilds or edits
 * argument lists: a value reaches the client as the user's command line parsed it, once.
 */
final class ChildClientPlan {

    /** The value of {@code "format"} in a plan file: a fork runs the same jar, so one version is enough. */
    static final String FORMAT = "nbench-client-plan-1";

    private static final String PLAN_OPTION = "--plan";

    private static final ObjectMapper JSON = new ObjectMapper().registerModule(new SimpleModule("nbench-plan")
            .addSerializer(Duration.class, ToStringSerializer.instance)
            .addSerializer(Instant.class, ToStringSerializer.instance)
            .addSerializer(Path.class, ToStringSerializer.instance)
            .addDeserializer(Duration.class, fromString(Duration.class, Duration::parse))
            .addDeserializer(Instant.class, fromString(Instant.class, Instant::parse))
            .addDeserializer(Path.class, fromString(Path.class, Path::of))
            // A protocol by its --protocol name: the registry gives the child its one instance back.
            .addSerializer(Protocol.class, new StdSerializer<Protocol>(Protocol.class) {
                private static final long serialVersionUID = 1L;

                @Override
                public void serialize(Protocol value, JsonGenerator gen, SerializerProvider provider) throws IOException {
                    gen.writeString(value.label());
                }
            })
            .addDeserializer(Protocol.class, fromString(Protocol.class, Protocol::parse)));

    /** A plan file that cannot be read or does not fit this client's options: exit 1 with this message. */
    static final class Unreadable extends Exception {
        private static final long serialVersionUID = 1L;

        Unreadable(String message) {
            super(message);
        }
    }

    private final List<String> arguments;
    private final Map<String, JsonNode> values;

    private ChildClientPlan(List<String> arguments, Map<String, JsonNode> values) {
        this.arguments = List.copyOf(arguments);
        this.values = values;
    }

    /**
     * The plan of a parsed client command: every option's current value.
     *
     * @param arguments the command line the user gave, recorded in the result document
     */
    static ChildClientPlan of(CommandSpec client, List<String> arguments) {
        Map<String, JsonNode> values = new LinkedHashMap<>();
        for (OptionSpec o : client.options()) {
            if (carried(o)) {
                requireCarriable(o);
                values.put(o.longestName(), tree(o.getValue()));
            }
        }
        return new ChildClientPlan(arguments, values);
    }

    /** The types a plan carries as JSON and reads back as they were: anything else would change on the way. */
    private static final List<Class<?>> CARRIED_TYPES = List.of(String.class, Boolean.class, Integer.class,
            Long.class, Double.class, boolean.class, int.class, long.class, double.class, Duration.class,
            Instant.class, Path.class, Protocol.class);

    /**
     * A client option of another type needs its JSON form here (a serializer and deserializer in
     * {@link #JSON}) before run and --forks can pass it on; this names the option rather than losing its value.
     */
    static void requireCarriable(OptionSpec o) {
        List<Class<?>> types = new ArrayList<>(List.of(o.typeInfo().getType()));
        if (o.typeInfo().isCollection() || o.typeInfo().isMap()) {
            types = List.of(o.typeInfo().getAuxiliaryTypes());
        }
        for (Class<?> t : types) {
            if (!t.isEnum() && !CARRIED_TYPES.contains(t)) {
                throw new IllegalStateException("client option " + o.longestName() + " holds a " + t.getName()
                        + ", which a client plan cannot carry yet: give it a JSON form in ChildClientPlan");
            }
        }
    }

    private static JsonNode tree(Object value) {
        return value == null ? NullNode.instance : JSON.valueToTree(value);
    }

    /** Help and version flags do nothing in a plan, and a plan does not name itself. */
    private static boolean carried(OptionSpec o) {
        return !o.usageHelp() && !o.versionHelp() && !o.longestName().equals(PLAN_OPTION);
    }

    /** The command line the user gave, to record in the result document. */
    List<String> arguments() {
        return arguments;
    }

    /** This plan with {@code option} (its longest name, e.g. {@code --out}) set to {@code value}. */
    ChildClientPlan with(String option, Object value) {
        if (!values.containsKey(option)) {
            throw new IllegalArgumentException("a client plan has no option " + option);
        }
        Map<String, JsonNode> copy = new LinkedHashMap<>(values);
        copy.put(option, tree(value));
        return new ChildClientPlan(arguments, copy);
    }

    /** Sets every option of {@code client} the plan names to the plan's value. */
    void applyTo(CommandSpec client) throws Unreadable {
        for (Map.Entry<String, JsonNode> e : values.entrySet()) {
            OptionSpec o = client.findOption(e.getKey());
            if (o == null || !carried(o)) {
                throw new Unreadable("the plan names option " + e.getKey() + ", which nbench client does not have");
            }
            try {
                o.setValue(JSON.convertValue(e.getValue(), typeOf(o)));
            } catch (IllegalArgumentException | CommandLine.PicocliException ex) {
                throw new Unreadable("the plan's value of " + e.getKey() + " is not one it takes: " + e.getValue());
            }
        }
    }

    /** The Java type an option holds: a list or map of its element types, or its own type. */
    private static JavaType typeOf(OptionSpec o) {
        TypeFactory types = JSON.getTypeFactory();
        Class<?>[] aux = o.typeInfo().getAuxiliaryTypes();
        if (o.typeInfo().isMap()) {
            return types.constructMapType(LinkedHashMap.class, aux[0], aux[1]);
        }
        if (o.typeInfo().isCollection()) {
            return types.constructCollectionType(ArrayList.class, aux[0]);
        }
        return types.constructType(o.typeInfo().getType());
    }

    /**
     * Applies the plan {@code nbench run} set, or the one {@code --plan} names, to the client's options;
     * false, with the reason printed, when a plan file cannot be used.
     */
    static boolean applyGiven(ClientCommand client, PrintWriter err) {
        ChildClientPlan plan = client.plan;
        try {
            if (plan == null && client.planFile != null) {
                if (client.spec.commandLine().getParseResult().matchedOptions().size() > 1) {
                    throw new CommandLine.ParameterException(client.spec.commandLine(),
                            "--plan gives every option: leave the others out");
                }
                plan = read(client.planFile);
            }
            if (plan != null) {
                plan.applyTo(client.spec);
                client.output.givenArguments = plan.arguments();
            }
            return true;
        } catch (Unreadable e) {
            err.println("nbench client: " + e.getMessage());
            return false;
        }
    }

    /** Runs {@code nbench client} with this plan in this JVM and returns its exit code. */
    int execute(PrintWriter out, PrintWriter err) {
        return execute(out, err, null);
    }

    /**
     * As {@link #execute(PrintWriter, PrintWriter)}, handing {@code result} the client's typed result when it
     * ran (not with {@code --forks}, whose forks are other JVMs, nor after a usage error).
     */
    int execute(PrintWriter out, PrintWriter err, java.util.function.Consumer<io.nbench.report.SweepResult> result) {
        CommandLine cl = Main.commandLine(out, err);
        ClientCommand client = (ClientCommand) cl.getSubcommands().get("client").getCommand();
        client.plan = this;
        client.resultListener = result;
        return cl.execute("client");
    }

    void write(Path file) throws IOException {
        ObjectNode root = JSON.createObjectNode();
        root.put("format", FORMAT);
        root.set("arguments", JSON.valueToTree(arguments));
        root.set("options", JSON.valueToTree(values));
        Files.writeString(file, JSON.writeValueAsString(root));
    }

    static ChildClientPlan read(Path file) throws Unreadable {
        JsonNode root;
        try {
            root = JSON.readTree(Files.readString(file));
        } catch (IOException e) {
            throw new Unreadable("cannot read the plan " + file + ": " + e.getMessage());
        }
        if (root == null || !FORMAT.equals(root.path("format").asText()) || !root.path("arguments").isArray()
                || !root.path("options").isObject()) {
            throw new Unreadable(file + " is not a client plan written by this nbench (format " + FORMAT + ")");
        }
        List<String> arguments = new ArrayList<>();
        root.get("arguments").forEach(a -> arguments.add(a.asText()));
        Map<String, JsonNode> values = new LinkedHashMap<>();
        root.get("options").properties().forEach(e -> values.put(e.getKey(), e.getValue()));
        return new ChildClientPlan(arguments, values);
    }

    private static <T> StdDeserializer<T> fromString(Class<T> type, Function<String, T> parse) {
        return new StdDeserializer<>(type) {
            private static final long serialVersionUID = 1L;

            @Override
            public T deserialize(JsonParser p, DeserializationContext context) throws IOException {
                try {
                    return parse.apply(p.getValueAsString());
                } catch (RuntimeException e) {
                    return context.reportInputMismatch(type, "not a " + type.getSimpleName() + ": "
                            + p.getValueAsString());
                }
            }
        };
    }
}
