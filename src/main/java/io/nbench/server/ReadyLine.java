package io.nbench.server;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.InetSocketAddress;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The line a server started with {@code --ready-line} prints once it accepts connections, for the program
 * that started it: a fixed prefix and one JSON object, e.g. {@code nbench-ready {"address":"127.0.0.1",
 * "port":40123,"monitorPort":40124}} ({@code monitorPort} only with {@code --monitor-port}). The human banner may change wording; this line only gains fields.
 */
public final class ReadyLine {

    /** The prefix that marks the line, followed by one space and the JSON object. */
    public static final String PREFIX = "nbench-ready ";

    private static final ObjectMapper JSON = new ObjectMapper();

    private ReadyLine() {
    }

    /** The line for a server listening on {@code bound}. */
    public static String format(InetSocketAddress bound) {
        return format(bound, null);
    }

    /** The line for a server listening on {@code bound}, with its monitor's port when it has one (else null). */
    public static String format(InetSocketAddress bound, Integer monitorPort) {
        ObjectNode o = JSON.createObjectNode();
        o.put("address", bound.getAddress().getHostAddress());
        o.put("port", bound.getPort());
        if (monitorPort != null) {
            o.put("monitorPort", monitorPort);
        }
        return PREFIX + o;
    }

    /** The monitor's port a well-formed ready line names, or empty (no monitor, or not a ready line). */
    public static OptionalInt monitorPort(String line) {
        if (parse(line).isEmpty()) {
            return OptionalInt.empty();
        }
        try {
            JsonNode port = JSON.readTree(line.substring(PREFIX.length())).get("monitorPort");
            return port != null && port.canConvertToInt() && port.intValue() >= 1 && port.intValue() <= 65535
                    ? OptionalInt.of(port.intValue()) : OptionalInt.empty();
        } catch (JsonProcessingException e) {
            return OptionalInt.empty();
        }
    }

    /** The address a ready line names, or empty when {@code line} is not a well-formed ready line. */
    public static Optional<InetSocketAddress> parse(String line) {
        if (line == null || !line.startsWith(PREFIX)) {
            return Optional.empty();
        }
        try {
            JsonNode o = JSON.readTree(line.substring(PREFIX.length()));
            JsonNode address = o.get("address");
            JsonNode port = o.get("port");
            if (address == null || !address.isTextual() || port == null || !port.canConvertToInt()
                    || port.intValue() < 1 || port.intValue() > 65535) {
                return Optional.empty();
            }
            return Optional.of(new InetSocketAddress(address.textValue(), port.intValue()));
        } catch (JsonProcessingException e) {
            return Optional.empty();
        }
    }
}
