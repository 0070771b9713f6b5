package io.nbench.client;

import io.nbench.transport.Availability;
import io.nbench.transport.OptionValues;
import io.nbench.transport.Transport;
import io.nbench.transport.TransportRegistry;
import java.util.List;
import java.util.Map;

/**
 * The transport a run will use, with its {@code -O} options checked: an unknown name, key or value is an
 * {@link IllegalArgumentException} (the command line's usage error, exit 2); a transport that cannot run
 * here is {@link CouldNotRun} (exit 1).
 */
public record ResolvedTransport(Transport transport, OptionValues options) {

    /**
     * One transport by name with the given {@code -O} values (one sweep combination's).
     *
     * @param allowInJvm whether a transport without a network server or client may be used (the caller runs
     *                   its server in this JVM)
     * @throws IllegalArgumentException an unknown transport, option key or value, or an in-JVM transport where a
     *                                  network one is needed; the message names it
     */
    public static ResolvedTransport resolve(TransportRegistry registry, String name, Map<String, String> given,
                                            boolean allowInJvm) throws CouldNotRun {
        Transport transport = registry.get(name);
        OptionValues options = registry.resolveOptions(transport, given);
        Availability a = transport.availability();
        if (!a.available()) {
            throw new CouldNotRun("transport " + transport.name() + " is not available here: " + a.reason()
                    + " (nbench list shows what is)");
        }
        if (transport.inJvm() && !allowInJvm) { // never works on this command, on any machine: a usage error
            throw new IllegalArgumentException("transport " + transport.name() + " runs inside one JVM only; it has no network "
                    + "server or client (use it through the in-process tests or nbench run --in-process)");
        }
        return new ResolvedTransport(transport, options);
    }

    /** The transport that declares this {@code -O} key, or null if none does. */
    public static Transport owner(TransportRegistry registry, String key) {
        for (Transport t : registry.all()) {
            if (t.options().stream().anyMatch(o -> o.key().equals(key))) {
                return t;
            }
        }
        return null;
    }

    /**
     * Every {@code -O} key must belong to a transport in use: a key of another transport would be silently
     * ignored, and the run would not measure what the command line says. Unknown keys are left to the
     * registry's check, which lists the known ones.
     *
     * @param fix what to do instead, with {@code %s} for the key's transport
     * @return what is wrong with the first key that does not belong, or null when every one does
     */
    public static String optionNotInUse(TransportRegistry registry, Iterable<String> keys, List<String> impls,
                                        String fix) {
        for (String key : keys) {
            Transport owner = owner(registry, key);
            if (owner != null && impls.stream().noneMatch(owner.name()::equals)) {
                return "-O " + key + " is an option of transport " + owner.name() + ", which this command does not "
                        + "use (--impl " + String.join(",", impls) + "): leave it out or " + String.format(fix,
                        owner.name());
            }
        }
        return null;
    }
}
