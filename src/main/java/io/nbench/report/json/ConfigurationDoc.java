package io.nbench.report.json;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * What the client was asked to do.
 *
 * @param options every client option with its effective value, kept as written: nbench only copies and
 *                compares them (a merge refuses documents whose options differ), so they have no type here
 * @param keys    the combination keys, in column order
 */
public record ConfigurationDoc(String target, List<String> arguments, ObjectNode options, List<String> keys) {
}
