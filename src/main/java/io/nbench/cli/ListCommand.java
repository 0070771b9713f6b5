package io.nbench.cli;

import io.nbench.client.ExitCode;
import io.nbench.report.Tty;
import io.nbench.transport.Availability;
import io.nbench.transport.Transport;
import io.nbench.transport.TransportOption;
import io.nbench.transport.TransportRegistry;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

@Command(name = "list", mixinStandardHelpOptions = true,
        description = "Lists the transports, whether each is available here and why not, what --measure send "
                + "means for each, and each transport's -O options.",
        footer = {"", "Example:", "  nbench list"})
final class ListCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        for (Transport t : TransportRegistry.load().all()) {
            Availability a = t.availability();
            out.println(t.name() + (a.available() ? "  [available]" : "  [unavailable: " + a.reason() + "]")
                    + (t.inJvm() ? "  [in-JVM only]" : ""));
            print(out, t.description());
            for (String line : t.details()) {
                print(out, line);
            }
            print(out, "--measure send: " + (t.writtenEvent() != null ? t.writtenEvent()
                    : "not supported (no honest written-to-kernel event)"));
            for (TransportOption o : t.options()) {
                out.println(String.format("    -O %s=%s  (default %s)", o.key(), o.values(), o.defaultValue()));
                Tty.wrap(o.description(), Tty.TEXT_COLUMNS, "        ", "        ").forEach(out::println);
            }
            out.println();
        }
        out.flush();
        return ExitCode.OK;
    }

    /** One paragraph, indented 4 and wrapped at 120 columns (continuation lines indented 6). */
    private static void print(PrintWriter out, String text) {
        Tty.wrap(text, Tty.TEXT_COLUMNS, "    ", "      ").forEach(out::println);
    }
}
