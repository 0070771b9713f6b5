package io.nbench.transport;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.stream.Collectors;

/** The transports on the classpath, found with {@link ServiceLoader}, and validation of {@code -O} options. */
public final class TransportRegistry {

    /**
     * The transport a client or server uses when none is named: the one most users meet first. The one place
     * outside its own package where a transport is named (the CLI's default refers to this constant).
     */
    public static final String DEFAULT = "netty";

    private final Map<String, Transport> byName;

    public TransportRegistry(List<Transport> transports) {
        Map<String, Transport> map = new LinkedHashMap<>();
        for (Transport t : transports) {
            if (map.putIfAbsent(t.name(), t) != null) {
                throw new IllegalStateException("two transports are named " + t.name());
            }
        }
        this.byName = Collections.unmodifiableMap(map);
    }

    /** Every transport the JVM's class path provides. */
    public static TransportRegistry load() {
        List<Transport> found = new ArrayList<>();
        ServiceLoader.load(Transport.class, TransportRegistry.class.getClassLoader()).forEach(found::add);
        return new TransportRegistry(found);
    }

    public List<Transport> all() {
        return List.copyOf(byName.values());
    }

    public List<String> names() {
        return List.copyOf(byName.keySet());
    }

    /**
     * The network transports whose TLS can run here with their default options, as a refusal of {@code --tls}
     * names them: "netty, blocking and vthreads have it", or "no transport has it here".
     */
    public String withTls() {
        List<String> names = new ArrayList<>();
        for (Transport t : byName.values()) {
            if (!t.inJvm() && t.tls(resolveOptions(t, Map.of())).available()) {
                names.add(t.name());
            }
        }
        if (names.isEmpty()) {
            return "no transport has it here";
        }
        String list = names.size() == 1 ? names.get(0) : String.join(", ", names.subList(0, names.size() - 1))
                + " and " + names.get(names.size() - 1);
        return list + (names.size() == 1 ? " has it" : " have it");
    }

    /** The named transport, or {@link IllegalArgumentException} listing the known names. */
    public Transport get(String name) {
        Transport t = byName.get(name);
        if (t == null) {
            throw new IllegalArgumentException("unknown transport '" + name + "': choose one of "
                    + String.join(", ", byName.keySet()) + " (see nbench list)");
        }
        return t;
    }

    /**
     * Checks every {@code -O key=value}: the key must belong to some known transport and the value must
     * parse. Keys of other transports are allowed (so {@code --impl netty,mina -O netty.io=epoll} works)
     * and ignored by the transports they do not belong to.
     */
    public void validate(Map<String, String> given) {
        for (Map.Entry<String, String> e : given.entrySet()) {
            TransportOption option = findOption(e.getKey());
            try {
                option.parse(e.getValue());
            } catch (IllegalArgumentException ex) {
                throw new IllegalArgumentException("bad value '" + e.getValue() + "' for -O " + e.getKey() + ": "
                        + ex.getMessage());
            }
        }
    }

    /** The resolved options of one transport: the given values for its own keys, defaults for the rest. */
    public OptionValues resolveOptions(Transport transport, Map<String, String> given) {
        validate(given);
        return OptionValues.resolve(transport.options(), given);
    }

    private TransportOption findOption(String key) {
        for (Transport t : byName.values()) {
            for (TransportOption o : t.options()) {
                if (o.key().equals(key)) {
                    return o;
                }
            }
        }
        String known = byName.values().stream().flatMap(t -> t.options().stream()).map(TransportOption::key)
                .collect(Collectors.joining(", "));
        throw new IllegalArgumentException("unknown option -O " + key + ": known options are " + known
                + " (see nbench list)");
    }
}
