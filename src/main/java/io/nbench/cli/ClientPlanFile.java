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
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import com.fasterxml.jackson.databind.ser.std.ToStringSerializer;
import io.nbench.protocol.Protocol;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import picocli.CommandLine.Model.OptionSpec;

/**
 * A {@link ChildClientPlan} as the JSON file {@code --forks} hands each fork ({@code nbench client --plan FILE}):
 * {@code format}, the user's {@code arguments}, the user's {@code options} as parsed (by option name) and run's
 * and --forks' typed {@code choices}. A file without {@code choices} (as written before they were typed) reads
 * as a plan without any.
 */
final class ClientPlanFile {

    /** The value of {@code "format"} in a plan file: a fork runs the same jar, so one version is enough. */
    static final String FORMAT = "nbench-client-plan-1";

    /** Option values as JSON: durations, instants and paths as their text, so they read back as they were. */
    static final ObjectMapper JSON = new ObjectMapper().registerModule(new SimpleModule("nbench-plan")
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

    private ClientPlanFile() {
    }

    static void write(ChildClientPlan plan, Path file) throws IOException {
        ObjectNode root = JSON.createObjectNode();
        root.put("format", FORMAT);
        root.set("arguments", JSON.valueToTree(plan.arguments()));
        root.set("options", JSON.valueToTree(plan.given()));
        root.set("choices", JSON.valueToTree(plan.choices()));
        Files.writeString(file, JSON.writeValueAsString(root));
    }

    static ChildClientPlan read(Path file) throws ChildClientPlan.Unreadable {
        JsonNode root;
        try {
            root = JSON.readTree(Files.readString(file));
        } catch (IOException e) {
            throw new ChildClientPlan.Unreadable("cannot read the plan " + file + ": " + e.getMessage());
        }
        if (root == null || !FORMAT.equals(root.path("format").asText()) || !root.path("arguments").isArray()
                || !root.path("options").isObject()) {
            throw new ChildClientPlan.Unreadable(file + " is not a client plan written by this nbench (format "
                    + FORMAT + ")");
        }
        List<String> arguments = new ArrayList<>();
        root.get("arguments").forEach(a -> arguments.add(a.asText()));
        Map<String, JsonNode> values = new LinkedHashMap<>();
        root.get("options").properties().forEach(e -> values.put(e.getKey(), e.getValue()));
        ChildClientChoices choices = new ChildClientChoices();
        if (root.hasNonNull("choices")) {
            try {
                choices = JSON.treeToValue(root.get("choices"), ChildClientChoices.class);
            } catch (IOException | IllegalArgumentException e) {
                throw new ChildClientPlan.Unreadable("the plan's choices are not ones this client takes: "
                        + root.get("choices"));
            }
        }
        return new ChildClientPlan(arguments, values, choices);
    }

    /** The Java type an option holds: a list or map of its element types, or its own type. */
    static JavaType typeOf(OptionSpec o) {
        com.fasterxml.jackson.databind.type.TypeFactory types = JSON.getTypeFactory();
        Class<?>[] aux = o.typeInfo().getAuxiliaryTypes();
        if (o.typeInfo().isMap()) {
            return types.constructMapType(LinkedHashMap.class, aux[0], aux[1]);
        }
        if (o.typeInfo().isCollection()) {
            return types.constructCollectionType(ArrayList.class, aux[0]);
        }
        return types.constructType(o.typeInfo().getType());
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
