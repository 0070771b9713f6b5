package io.nbench.report.json;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nbench.report.MeasuredServer;
import java.util.List;

/**
 * What the client was asked to do, and the server it measured.
 *
 * @param options every client option with its effective value, kept as written: nbench only copies and
 *                compares them (a merge refuses documents whose options differ), so they have no type here
 * @param keys    the combination keys, in column order
 * @param server  the server measured ({@code configuration.server}); null when not known, and the field is
 *                absent then: a document written before the field, or a merge of documents that name it apart
 */
public record ConfigurationDoc(String target, List<String> arguments, ObjectNode options, List<String> keys,
                               MeasuredServer server) {

    /** The same configuration, of this server (null: not known). */
    public ConfigurationDoc withServer(MeasuredServer measured) {
        return new ConfigurationDoc(target, arguments, options, keys, measured);
    }
}
