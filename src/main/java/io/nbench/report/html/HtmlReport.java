package io.nbench.report.html;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nbench.report.AtomicFiles;
import io.nbench.report.json.ResultDoc;
import io.nbench.report.json.ResultDocument;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

/**
 * {@code nbench report --html}: one self-contained page. The charting library (uPlot, from its WebJar in the
 * nbench jar), the page's own script and the data are all inlined, so the page opens offline and from a CI
 * artifact store; nothing is fetched.
 */
public final class HtmlReport {

    /** uPlot's version: the WebJar's directory name, kept in step with the pom. */
    static final String UPLOT = "META-INF/resources/webjars/uplot/1.6.30/dist/";

    /**
     * A result document and the name it is shown by (its path as given).
     *
     * @param asRead read by {@link io.nbench.report.json.ResultReader} (figures copied to the page print as its
     *               decimals did); false for a document built in this process (a merge) or parsed as doubles
     */
    public record Source(String name, ResultDoc document, boolean asRead) {
    }

    private HtmlReport() {
    }

    /**
     * The page for these documents; {@code comparison} is {@code nbench compare}'s JSON for them (null for
     * one file).
     */
    public static String render(List<Source> sources, JsonNode comparison, String version) {
        ObjectNode data = ResultDocument.MAPPER.createObjectNode();
        data.put("generated", Instant.now().toString());
        data.put("nbench", version);
        ArrayNode files = data.putArray("files");
        for (Source s : sources) {
            files.add(ReportData.file(s.name(), s.document(), s.asRead()));
        }
        data.set("comparison", comparison);
        String page = resource("io/nbench/report/html/report.html");
        // Literal replacement (no regex): the inlined script contains '$' and '\'.
        return page.replace("/*@UPLOT_CSS@*/", resource(UPLOT + "uPlot.min.css"))
                .replace("/*@UPLOT_JS@*/", resource(UPLOT + "uPlot.iife.min.js"))
                .replace("/*@DATA@*/", scriptSafe(data));
    }

    /** Renders the page and writes it atomically to {@code target} (an existing file keeps its mode). */
    public static void write(Path target, List<Source> sources, JsonNode comparison, String version)
            throws IOException {
        AtomicFiles.write(target, render(sources, comparison, version).getBytes(StandardCharsets.UTF_8));
    }

    /**
     * JSON that can stand inside a script element: {@code <}, {@code >} and {@code &} (which JSON only has
     * inside strings) become unicode escapes, so a value such as {@code </script>} in a transport option
     * cannot end the element; U+2028/2029, legal in JSON but not in older JavaScript, likewise.
     */
    static String scriptSafe(JsonNode data) {
        String json;
        try {
            json = ResultDocument.MAPPER.writer().without(SerializationFeature.INDENT_OUTPUT)
                    .writeValueAsString(data);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialize the report's data", e);
        }
        StringBuilder b = new StringBuilder(json.length() + 64);
        for (int i = 0; i < json.length(); i++) {
            char c = json.charAt(i);
            switch (c) {
                case '<' -> b.append("\\u003c");
                case '>' -> b.append("\\u003e");
                case '&' -> b.append("\\u0026");
                case '\u2028' -> b.append("\\u2028");
                case '\u2029' -> b.append("\\u2029");
                default -> b.append(c);
            }
        }
        return b.toString();
    }

    private static String resource(String path) {
        try (InputStream in = HtmlReport.class.getClassLoader().getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException("the nbench jar lacks " + path + ": rebuild it");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
