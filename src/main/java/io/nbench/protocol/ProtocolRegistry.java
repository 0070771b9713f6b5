package io.nbench.protocol;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.stream.Collectors;

/**
 * Every wire protocol: the built-in ones, one line each below (the first is the default), then any a jar
 * on the class path adds through {@link ServiceLoader} ({@code META-INF/services/io.nbench.protocol.Protocol},
 * one line per class). {@code --protocol}'s names, help and shell completion are read from here.
 *
 * <p>Why the built-ins are listed rather than found: each is one instance compared with {@code ==}
 * ({@link Protocol#FRAMED}), and {@link ServiceLoader} makes a new instance per look-up.
 */
public final class ProtocolRegistry {

    private static final List<Protocol> BUILT_IN = List.of(
            Protocol.FRAMED,
            Protocol.ECHO,
            Protocol.HTTP);

    private final Map<String, Protocol> byName;

    public ProtocolRegistry(List<Protocol> protocols) {
        Map<String, Protocol> map = new LinkedHashMap<>();
        for (Protocol p : protocols) {
            if (map.putIfAbsent(p.label(), p) != null) {
                throw new IllegalStateException("two protocols are named " + p.label());
            }
        }
        this.byName = Collections.unmodifiableMap(map);
    }

    /** The built-in protocols, then those the JVM's class path adds. */
    public static ProtocolRegistry load() {
        List<Protocol> found = new ArrayList<>(BUILT_IN);
        ServiceLoader.load(Protocol.class, ProtocolRegistry.class.getClassLoader()).forEach(found::add);
        return new ProtocolRegistry(found);
    }

    public List<Protocol> all() {
        return List.copyOf(byName.values());
    }

    /** The names, the default first. */
    public List<String> names() {
        return List.copyOf(byName.keySet());
    }

    /** The protocol a client or server speaks when none is named. */
    public Protocol defaultProtocol() {
        return byName.values().iterator().next();
    }

    /** The protocol of that name, ignoring case, or {@link IllegalArgumentException} listing the names. */
    public Protocol get(String name) {
        Protocol p = byName.get(name.toLowerCase(Locale.ROOT));
        if (p == null) {
            throw new IllegalArgumentException("unknown protocol '" + name + "': use " + choice(names()));
        }
        return p;
    }

    /** {@code framed (length, response length, id) or echo (RFC 862)}: each name with its summary. */
    public String help() {
        return choice(byName.values().stream().map(p -> p.label() + " (" + p.summary() + ")").toList());
    }

    /** The names of the protocols whose server sees requests, not only bytes ({@link Protocol#hasRequests()}). */
    public String withRequests() {
        return choice(byName.values().stream().filter(Protocol::hasRequests).map(Protocol::label).toList());
    }

    /** {@code a, b or c}. */
    private static String choice(List<String> items) {
        if (items.size() <= 1) {
            return String.join("", items);
        }
        return items.subList(0, items.size() - 1).stream().collect(Collectors.joining(", "))
                + " or " + items.get(items.size() - 1);
    }
}
