package io.nbench.cli;

import io.nbench.tls.InvalidTls;
import io.nbench.tls.TlsChoice;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/** What client and server share of TLS: on or off, the protocols and ciphers offered. */
final class TlsOptions {

    @Option(names = "--tls", description = "TLS on every connection (default: off, plain TCP). Transports without "
            + "TLS refuse it (nbench list says which have it).")
    boolean on;

    @Option(names = "--tls-protocols", paramLabel = "LIST", split = ",",
            description = "With --tls: the protocols offered, in the JDK's names (default: "
                    + TlsChoice.DEFAULT_PROTOCOLS_TEXT + ").")
    List<String> protocols;

    @Option(names = "--tls-ciphers", paramLabel = "LIST", split = ",",
            description = "With --tls: the cipher suites offered, IANA names, e.g. TLS_AES_128_GCM_SHA256 (default: "
                    + "the engine's own).")
    List<String> ciphers;

    /**
     * {@code nbench run --tls}: the same TLS for run's child servers, as their command line (empty without it), so
     * that servers and clients offer the same protocols and ciphers.
     */
    List<String> serverArguments() {
        List<String> args = new ArrayList<>();
        if (on) {
            args.add("--tls");
            if (protocols != null) {
                args.addAll(List.of("--tls-protocols", String.join(",", protocols)));
            }
            if (ciphers != null) {
                args.addAll(List.of("--tls-ciphers", String.join(",", ciphers)));
            }
        }
        return args;
    }

    /** The choice, or null without {@code --tls}; a protocol or cipher option without it is a usage error. */
    TlsChoice choice(CommandSpec spec) {
        return choice(spec, false);
    }

    /** @param implied TLS without {@code --tls} (the client's https:// URL) */
    TlsChoice choice(CommandSpec spec, boolean implied) {
        if (!on && !implied) {
            if (protocols != null || ciphers != null) {
                throw new ParameterException(spec.commandLine(), (protocols != null ? "--tls-protocols"
                        : "--tls-ciphers") + " needs --tls");
            }
            return null;
        }
        try {
            return new TlsChoice(protocols != null ? protocols : TlsChoice.DEFAULT_PROTOCOLS,
                    ciphers != null ? ciphers : List.of());
        } catch (InvalidTls e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
    }
}
