package io.nbench.report.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import com.networknt.schema.path.NodePath;
import io.nbench.units.Sizes;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;

/**
 * Reads a result document for {@code compare}, {@code report} and {@code run}: at most a limited number of
 * bytes (a larger file is refused before it is read, and a pipe or device such as {@code /dev/zero} is read
 * as a stream and refused once past the limit, never read whole), parsed by Jackson, then validated against
 * the published schema, {@code nbench-result-1.schema.json} (shipped in the jar), so counts, rates and
 * latencies that cannot be (negative, beyond a double) are refused in one line naming the field instead of
 * being compared or summed.
 */
public final class ResultReader {

    /**
     * The default limit. The largest legitimate document is a long sweep: about 6 KiB per iteration (three
     * histograms in the open loop) and 0.5 KiB per second of {@code intervals}, so 360 combinations of 12
     * iterations is about 30 MiB, and a day of one combination about 50 MiB; 256 MiB leaves a factor of 5.
     * Reading takes heap: about ten times the text for the tree, and 260 KB for each measured iteration's
     * decoded histogram (compare of a 19 MB document of 3,000 iterations: 2.4 GB); a document within the limit
     * that exceeds the heap is refused in one line as well ({@code ResultFile}).
     */
    public static final long DEFAULT_MAX_BYTES = 256L << 20;

    /** The schema, as a resource of the jar (the pom copies docs/nbench-result-1.schema.json there). */
    static final String SCHEMA_RESOURCE = "io/nbench/report/json/nbench-result-1.schema.json";

    /** Why a document is refused: one line naming the file and, where there is one, the field. */
    public static final class Unreadable extends Exception {
        private static final long serialVersionUID = 1L;

        public Unreadable(String message) {
            super(message);
        }
    }

    private ResultReader() {
    }

    /** The document at {@code path}, valid against the schema; {@code maxBytes} bounds what is read. */
    public static JsonNode read(Path path, long maxBytes) throws Unreadable {
        JsonNode doc = parse(path, maxBytes);
        if (doc == null || !doc.isObject()) {
            throw new Unreadable(path + ": not a JSON object");
        }
        String schema = doc.path("schema").asText(null);
        if (!ResultDocument.SCHEMA.equals(schema)) {
            throw new Unreadable(path + ": schema is " + (schema == null ? "missing" : "'" + schema + "'")
                    + ", expected '" + ResultDocument.SCHEMA + "' (written by nbench client --out or --format json)");
        }
        // A field the schema does not know is one a newer nbench-result/1 writer added: ignored, since refusing
        // it would make every added field a break between versions; the schema stays closed for what this
        // nbench writes (ResultSchemaTest), and every field it knows stays bounded.
        List<Error> errors = Validator.SCHEMA.validate(doc).stream()
                .filter(e -> !"additionalProperties".equals(e.getKeyword())).toList();
        if (!errors.isEmpty()) {
            Error first = errors.get(0);
            throw new Unreadable(path + ": " + field(first.getInstanceLocation()) + ": "
                    + oneLine(first.getMessage()) + (errors.size() > 1 ? " (and " + (errors.size() - 1) + " more)" : "")
                    + ": not a valid " + ResultDocument.SCHEMA + " document (damaged, or edited?)");
        }
        return doc;
    }

    /** A field's path as the messages name it: {@code combinations[0].iterations[1].msgPerSec}. */
    static String field(NodePath location) {
        StringBuilder f = new StringBuilder();
        for (int i = 0; i < location.getNameCount(); i++) {
            Object element = location.getElement(i);
            if (element instanceof Integer index) {
                f.append('[').append(index).append(']');
            } else {
                f.append(f.length() == 0 ? "" : ".").append(element);
            }
        }
        return f.length() == 0 ? "the document" : f.toString();
    }

    private static JsonNode parse(Path path, long maxBytes) throws Unreadable {
        try {
            // A regular file's size is known: one beyond the limit is refused without reading a byte of it.
            if (Files.isRegularFile(path) && Files.size(path) > maxBytes) {
                throw tooLarge(path, "is " + Sizes.format(Files.size(path)) + ",", maxBytes);
            }
            try (InputStream in = Files.newInputStream(path)) {
                return mapper(maxBytes).readTree(in);
            }
        } catch (StreamConstraintsException e) {
            // Jackson counts what it has read: a pipe or a device (/dev/zero, an endless stream) stops here. Its
            // other limits (a string of 20 M chars, nesting) are malformed input. ResultInputTest pins the text.
            if (e.getMessage() != null && e.getMessage().startsWith("Document length")) {
                throw tooLarge(path, "goes on", maxBytes);
            }
            throw new Unreadable(path + ": not a JSON document (" + firstLine(e.getOriginalMessage()) + ")");
        } catch (NoSuchFileException e) {
            throw new Unreadable(path + ": no such file");
        } catch (AccessDeniedException e) {
            throw new Unreadable(path + ": permission denied");
        } catch (JsonProcessingException e) {
            throw new Unreadable(path + ": not a JSON document (" + firstLine(e.getOriginalMessage()) + ")");
        } catch (IOException e) {
            throw new Unreadable(path + ": cannot read it (" + firstLine(e.getMessage()) + ")");
        }
    }

    private static Unreadable tooLarge(Path path, String what, long maxBytes) {
        return new Unreadable(path + ": " + what + " beyond the " + Sizes.format(maxBytes) + " nbench reads of a result "
                + "document (--max-input SIZE raises the limit)");
    }

    /**
     * A reader bounded to {@code maxBytes}. Floating-point numbers are read as decimals, exactly as written: a
     * rate of 1.8e308 (beyond a double) is then checked against the schema's maximum instead of becoming
     * Infinity, and a figure copied into a merged document is written back as it was read (0.0 stays 0.0, so
     * merging a merged document finds the same configuration).
     */
    private static ObjectMapper mapper(long maxBytes) {
        JsonFactory factory = JsonFactory.builder()
                .streamReadConstraints(StreamReadConstraints.builder().maxDocumentLength(maxBytes).build())
                .build();
        return new ObjectMapper(factory).enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
                .configure(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES, false);
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "unreadable";
        }
        int nl = s.indexOf('\n');
        return oneLine(nl < 0 ? s : s.substring(0, nl));
    }

    private static String oneLine(String s) {
        return s.replace('\n', ' ').replace('\r', ' ');
    }

    /**
     * The compiled schema, loaded on first use only: {@code nbench --version} and the client never pay for
     * the validator's classes.
     */
    private static final class Validator {
        static final Schema SCHEMA = load();

        private static Schema load() {
            try (InputStream in = ResultReader.class.getClassLoader().getResourceAsStream(SCHEMA_RESOURCE)) {
                if (in == null) {
                    throw new IllegalStateException("the nbench jar lacks " + SCHEMA_RESOURCE + ": rebuild it");
                }
                JsonNode schema = ResultDocument.MAPPER.readTree(in);
                return SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12).getSchema(schema);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
