package io.nbench.cli;

import io.nbench.transport.Availability;
import io.nbench.transport.OptionValues;
import io.nbench.transport.Transport;
import io.nbench.transport.TransportRegistry;
import java.util.Map;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/**
 * The transport a command will use, with its {@code -O} options checked: an unknown name, key or value
 * is a usage error (exit 2); a transport that cannot run here is {@link CouldNotRun} (exit 1).
 */
record ResolvedTransport(Transport transport, OptionValues options) {

    static ResolvedTransport resolve(CommandSpec spec, TransportOptions t) throws CouldNotRun {
        return resolve(spec, TransportRegistry.load(), t.impl, t.transportOptions, false);
    }

    /** One transport by name with the given {@code -O} values (one sweep combination's). */
    static ResolvedTransport resolve(CommandSpec spec, TransportRegistry registry, String name,
                                     Map<String, String> given, boolean allowInJvm) throws CouldNotRun {
        Transport transport;
        OptionValues options;
        try {
            transport = registry.get(name);
            options = registry.resolveOptions(transport, given);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        Availability a = transport.availability();
        if (!a.available()) {
            throw new CouldNotRun("transport " + transport.name() + " is not available here: " + a.reason()
                    + " (nbench list shows what is)");
        }
        if (transport.inJvm() && !allowInJvm) {
            throw new CouldNotRun("transport " + transport.name() + " runs inside one JVM only; it has no network "
                    + "server or client (use it through the in-process tests or nbench run --in-process)");
        }
        return new ResolvedTransport(transport, options);
    }

    /** The command cannot run here; the message names the cause and the fix. Exit code 1. */
    static final class CouldNotRun extends Exception {
        private static final long serialVersionUID = 1L;

        CouldNotRun(String message) {
            super(message);
        }
    }
}
