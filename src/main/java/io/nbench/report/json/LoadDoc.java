package io.nbench.report.json;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nbench.load.Pacing;
import io.nbench.protocol.SuccessStatuses;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A combination's resolved workload, kept as written: one flat object of {@code LoadSpec}'s components, whose
 * fields grow with the load engine. Readers copy or compare it whole; the two figures they compute with have
 * accessors.
 */
public record LoadDoc(ObjectNode fields) {

    /** The percentiles the iterations' {@code latencyNs} hold ({@code --percentiles}). */
    public List<Double> percentiles() {
        List<Double> percentiles = new ArrayList<>();
        fields.path("percentiles").forEach(p -> percentiles.add(p.asDouble()));
        return percentiles;
    }

    /**
     * HTTP: the statuses that count as a success ({@code --success-status}); 2xx for a document that does not say
     * (written before the option, or not HTTP).
     */
    public SuccessStatuses successStatuses() {
        JsonNode given = fields.path("http").path("successStatus");
        try {
            return given.isTextual() ? SuccessStatuses.parse(given.asText())
                    : SuccessStatuses.DEFAULT;
        } catch (IllegalArgumentException e) {
            return SuccessStatuses.DEFAULT; // a hand-edited value: judged as nbench's default
        }
    }

    /** {@code --iteration-time} in ns, 0 for a count-based run (or a document without it). */
    public long iterationNanos() {
        return fields.path("iterationNanos").asLong();
    }

    /** How the open loop's pacers waited ({@code --pacer}); sleep when the document does not say. */
    public Pacing pacing() {
        String p = fields.path("pacing").asText("sleep").toUpperCase(Locale.ROOT);
        for (Pacing known : Pacing.values()) {
            if (known.name().equals(p)) {
                return known;
            }
        }
        return Pacing.SLEEP;
    }

    /** The request payload in bytes ({@code --size}). */
    public int size() {
        return fields.path("size").asInt();
    }
}
