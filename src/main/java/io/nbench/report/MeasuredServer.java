package io.nbench.report;

import java.util.Locale;

/**
 * The server a run measured, as far as its client learned it, for the result document's
 * {@code configuration.server} and the CSV's {@code server_*} columns: rows and documents of a loop over
 * servers say which one each measured (the client's own {@code impl} says nothing of it).
 *
 * @param transport the server's transport ({@code nio}, {@code netty}, {@code mina}...); null when the client does
 *                  not know it (a client alone, without {@code --server-stats}): never guessed from its own
 * @param protocol  the protocol's label ({@code framed}, {@code echo}, {@code http}): the server's word (its
 *                  monitor, {@code nbench run}), else the one the client spoke to it; null when not known
 * @param address   {@code host:port} the client measured (the document's {@code configuration.target})
 * @param source    where the transport and protocol were learned
 */
public record MeasuredServer(String transport, String protocol, String address, Source source) {

    /** Where the client learned what the server is. */
    public enum Source {
        /** {@code nbench run} started the server and told its client. */
        RUN,
        /** The server's monitor said it ({@code --server-stats}). */
        MONITOR,
        /** Only the address the client was pointed at ({@code --host}/{@code --port}, {@code --url}). */
        TARGET;

        /** As the document writes it: {@code run}, {@code monitor}, {@code target}. */
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }

        /** The source of a document's label; null for a label this version does not know. */
        public static Source parse(String label) {
            for (Source s : values()) {
                if (s.label().equals(label)) {
                    return s;
                }
            }
            return null;
        }
    }
}
