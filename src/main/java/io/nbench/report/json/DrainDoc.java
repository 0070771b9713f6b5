package io.nbench.report.json;

import java.util.Map;

/** What completed after a time-based run's last iteration was cut, while the client waited for it. */
public record DrainDoc(long messages, long wallNs, Map<String, Long> latencyNs, ErrorsDoc errors, String histogram) {
}
