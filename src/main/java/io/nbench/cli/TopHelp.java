package io.nbench.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine.Help.Ansi;

/**
 * {@code nbench --help} as picocli renders it from the command model, kept in the jar: building the top command's
 * model and laying its help out took two thirds of the command's 0.36 s of CPU, and scripts ask for it too.
 * The texts are generated, not written: {@code HelpTextTest} fails when they differ from what the model renders now
 * ({@code ./mvnw test -Dtest=HelpTextTest -Dnbench.docs.update=true} rewrites them), as for docs/options.md.
 */
final class TopHelp {

    static final String PLAIN = "top-help.txt";
    /** With picocli's default colours, as on a terminal. */
    static final String COLOURED = "top-help.ansi.txt";

    private TopHelp() {
    }

    /**
     * The text picocli would print, or null when picocli must render it: a usage width given
     * ({@code -Dpicocli.usage.width}), or a jar built without the texts.
     */
    static String text() {
        if (System.getProperty("picocli.usage.width") != null) {
            return null;
        }
        // The same choice picocli makes for --help: colours on a terminal unless the environment says otherwise.
        String name = Ansi.AUTO.enabled() ? COLOURED : PLAIN;
        try (InputStream in = TopHelp.class.getResourceAsStream(name)) {
            return in == null ? null
                    : new String(in.readAllBytes(), StandardCharsets.UTF_8).replace("\n", System.lineSeparator());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
