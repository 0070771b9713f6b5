package io.nbench.cli;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import io.nbench.client.ClientSpec;
import io.nbench.files.BoundedFile;
import io.nbench.client.MaxErrors;
import io.nbench.protocol.Protocol;
import io.nbench.report.threshold.Threshold;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * A child client's {@link ClientSpec} as the JSON file {@code --forks} hands each fork ({@code nbench client
 * --plan FILE}): {@code format} and the {@code settings}, every record component under its name. Values that
 * have a text form travel as it (durations, instants, paths, the protocol by its {@code --protocol} name,
 * {@code --max-errors} and each threshold as given), so they read back as they were.
 */
final class ClientPlanFile {

    /** The value of {@code "format"} in a plan file: a fork runs the same jar, so one version is enough. */
    static final String FORMAT = "nbench-client-plan-2";

    /** A plan file that cannot be read or does not fit this client's settings: exit 1 with this message. */
    static final class Unreadable extends Exception {
        private static final long serialVersionUID = 1L;

        Unreadable(String message) {
            super(message);
        }
    }

    /** The most read of a plan: a client's settings are a few KiB (a body is named by its path, not held). */
    static final int MAX_BYTES = 16 << 20;

    static final ObjectMapper JSON = new ObjectMapper().registerModule(new SimpleModule("nbench-plan")
            .addSerializer(Duration.class, asText(Duration.class, Duration::toString))
            .addSerializer(Instant.class, asText(Instant.class, Instant::toString))
            .addSerializer(Path.class, asText(Path.class, Path::toString))
            .addSerializer(Protocol.class, asText(Protocol.class, Protocol::label))
            .addSerializer(MaxErrors.class, asText(MaxErrors.class, MaxErrors::given))
            .addSerializer(Threshold.class, asText(Threshold.class, Threshold::expression))
            .addDeserializer(Duration.class, fromText(Duration.class, Duration::parse))
            .addDeserializer(Instant.class, fromText(Instant.class, Instant::parse))
            .addDeserializer(Path.class, fromText(Path.class, Path::of))
            // The registry gives the child its one instance of the protocol back.
            .addDeserializer(Protocol.class, fromText(Protocol.class, Protocol::parse))
            .addDeserializer(MaxErrors.class, fromText(MaxErrors.class, MaxErrors::parse))
            .addDeserializer(Threshold.class, fromText(Threshold.class, Threshold::parse)));

    private ClientPlanFile() {
    }

    static void write(ClientSpec settings, Path file) throws IOException {
        ObjectNode root = JSON.createObjectNode();
        root.put("format", FORMAT);
        root.set("settings", JSON.valueToTree(settings));
        Files.writeString(file, JSON.writeValueAsString(root));
    }

    static ClientSpec read(Path file) throws Unreadable {
        JsonNode root;
        try {
            root = JSON.readTree(BoundedFile.read(file, MAX_BYTES));
        } catch (BoundedFile.TooLarge e) {
            throw new Unreadable("the plan " + file + " " + e.beyond("nbench reads of a client plan"));
        } catch (IOException e) {
            throw new Unreadable("cannot read the plan " + file + ": " + Converters.oneLine(e.getMessage()));
        }
        if (root == null || !FORMAT.equals(root.path("format").asText()) || !root.path("settings").isObject()) {
            throw new Unreadable(file + " is not a client plan written by this nbench (format " + FORMAT + ")");
        }
        try {
            return JSON.treeToValue(root.get("settings"), ClientSpec.class);
        } catch (JsonMappingException e) {
            String where = e.getPath().stream().map(r -> r.getFieldName() != null ? r.getFieldName()
                    : Integer.toString(r.getIndex())).collect(Collectors.joining("."));
            throw new Unreadable("the plan's settings" + (where.isEmpty() ? "" : " at " + where)
                    + " are not ones this client takes: " + root.get("settings").at(pointer(e)));
        } catch (IOException | IllegalArgumentException e) {
            throw new Unreadable("the plan's settings are not ones this client takes");
        }
    }

    /** Where a mapping failed, as a JSON pointer into the settings. */
    private static String pointer(JsonMappingException e) {
        return e.getPath().stream().map(r -> "/" + (r.getFieldName() != null ? r.getFieldName() : r.getIndex()))
                .collect(Collectors.joining());
    }

    private static <T> StdSerializer<T> asText(Class<T> type, Function<T, String> text) {
        return new StdSerializer<>(type) {
            private static final long serialVersionUID = 1L;

            @Override
            public void serialize(T value, JsonGenerator gen, SerializerProvider provider) throws IOException {
                gen.writeString(text.apply(value));
            }
        };
    }

    private static <T> StdDeserializer<T> fromText(Class<T> type, Function<String, T> parse) {
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
