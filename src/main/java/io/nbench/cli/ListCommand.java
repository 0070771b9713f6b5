package io.nbench.cli;

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
            out.println("    " + t.description());
            for (String line : t.details()) {
                out.println("    " + line);
            }
            out.println("    --measure send: " + (t.writtenEvent() != null ? t.writtenEvent() : "not supported (no honest written-to-kernel event)"));
            for (TransportOption o : t.options()) {
                out.println(String.format("    -O %s=%s  (default %s)  %s", o.key(), o.values(), o.defaultValue(), o.description()));
            }
            out.println();
        }
        out.flush();
        return ExitCode.OK;
    }
}
