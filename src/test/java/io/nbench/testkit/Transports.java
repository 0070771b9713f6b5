package io.nbench.testkit;

import io.nbench.transport.Transport;
import io.nbench.transport.TransportRegistry;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** The transports the tests exercise: everything the ServiceLoader finds that can run in this JVM. */
public final class Transports {

    private Transports() {
    }

    /** Network (kernel socket) transports available here. */
    public static List<String> network() {
        return TransportRegistry.load().all().stream()
                .filter(t -> !t.inJvm() && t.availability().available())
                .map(Transport::name).collect(Collectors.toList());
    }

    /** Network transports available here whose TLS runs with their default options ({@code --tls}). */
    public static List<String> tls() {
        TransportRegistry registry = TransportRegistry.load();
        return registry.all().stream()
                .filter(t -> !t.inJvm() && t.availability().available()
                        && t.tls(registry.resolveOptions(t, Map.of())).available())
                .map(Transport::name).collect(Collectors.toList());
    }

    /** In-JVM transports available here (they interoperate only with each other). */
    public static List<String> inJvm() {
        return TransportRegistry.load().all().stream()
                .filter(t -> t.inJvm() && t.availability().available())
                .map(Transport::name).collect(Collectors.toList());
    }

    public static Transport get(String name) {
        return TransportRegistry.load().get(name);
    }
}
