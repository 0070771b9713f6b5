package io.nbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * docs/options.md is every command's {@code --help}, rendered from picocli's model: it cannot drift from
 * the code, because this test fails when the committed file differs from what the model renders now.
 * {@code ./mvnw test -Dtest=OptionsDocTest -Dnbench.docs.update=true} rewrites it.
 */
class OptionsDocTest {

    static final Path FILE = Path.of("docs", "options.md");

    @Test
    void docsOptionsIsEveryCommandsHelp() throws IOException {
        String rendered = render();
        if (Boolean.getBoolean("nbench.docs.update")) {
            Files.writeString(FILE, rendered, StandardCharsets.UTF_8);
        }
        String committed = Files.exists(FILE) ? Files.readString(FILE, StandardCharsets.UTF_8) : "";
        assertEquals(rendered, committed, FILE + " differs from the options in the code: regenerate it with "
                + "./mvnw test -Dtest=OptionsDocTest -Dnbench.docs.update=true");
    }

    static String render() {
        CommandLine root = Main.commandLine(new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()));
        // Defaults that depend on the machine are named, not given as this machine's number.
        String cores = System.getProperty("nbench.cores");
        System.setProperty("nbench.cores", "N");
        try {
            return render(root);
        } finally {
            System.setProperty("nbench.cores", cores);
        }
    }

    private static String render(CommandLine root) {
        StringBuilder doc = new StringBuilder();
        doc.append("# nbench options\n\n")
                .append("<!-- Generated from the picocli model by OptionsDocTest; do not edit: run\n")
                .append("     ./mvnw test -Dtest=OptionsDocTest -Dnbench.docs.update=true -->\n\n")
                .append("Every command's `--help`, as the jar prints it. Sizes take k/m/g suffixes (1024-based), ")
                .append("durations ns/us/ms/s/m, rates k/m suffixes; `@FILE` reads arguments from a file.\n\n");
        doc.append("Commands:");
        for (CommandLine sub : root.getSubcommands().values()) {
            if (!sub.getCommandSpec().usageMessage().hidden()) {
                String name = sub.getCommandName();
                doc.append(" [").append(name).append("](#nbench-").append(name).append(')');
            }
        }
        doc.append("\n\n");
        section(doc, root);
        return doc.toString();
    }

    private static void section(StringBuilder doc, CommandLine cl) {
        String name = cl.getCommandSpec().qualifiedName();
        doc.append("## ").append(name).append("\n\n```\n")
                .append(cl.getUsageMessage(CommandLine.Help.Ansi.OFF).stripTrailing()).append("\n```\n\n");
        for (CommandLine sub : cl.getSubcommands().values()) {
            // picocli lists a command under each alias: one section per command.
            if (!sub.getCommandSpec().usageMessage().hidden() && sub.getParent() == cl
                    && sub.getCommandName().equals(sub.getCommandSpec().name())) {
                section(doc, sub);
            }
        }
    }
}
