package io.nbench.report.json;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;

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

    /** The request payload in bytes ({@code --size}). */
    public int size() {
        return fields.path("size").asInt();
    }
}
