package io.nbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/** {@code nbench gen-manpage}: a page per command, naming every option the command's help names. */
class ManPageTest {

    @Test
    void everyCommandHasAPageWithEveryVisibleOption(@TempDir Path dir) throws IOException {
        CliTest.Outcome o = CliTest.run("gen-manpage", "-d", dir.toString());
        assertEquals(0, o.code(), o.err());
        assertEquals("", o.err());
        CommandLine root = Main.commandLine(new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()));
        assertTrue(Files.readString(dir.resolve("nbench.adoc")).contains("= nbench(1)"));
        for (CommandLine c : root.getSubcommands().values()) {
            Path page = dir.resolve("nbench-" + c.getCommandName() + ".adoc");
            assertTrue(Files.exists(page), "no page for " + c.getCommandName());
            String text = Files.readString(page);
            assertTrue(text.contains(":doctype: manpage") && text.contains("= nbench-" + c.getCommandName() + "(1)"), page
                    + " is not a man page");
            // The page says which nbench it describes (the version line --version prints first).
            String version = new VersionProvider().getVersion()[0];
            assertTrue(text.contains(":revnumber: " + version + "\n") && text.contains(":mansource: " + version + "\n"),
                    page + " names no version");
            for (OptionSpec option : c.getCommandSpec().options()) {
                String name = option.longestName();
                if (!option.hidden()) { // a negatable option is written --[no-]name
                    assertTrue(text.contains("*" + name + "*") || text.contains("*" + name.replaceFirst("^--", "--[no-]") + "*"),
                            page + " lacks " + name);
                }
            }
        }
        assertTrue(Files.readString(dir.resolve("nbench-server.adoc")).contains("*--max-connections*=_N_"));
    }
}
