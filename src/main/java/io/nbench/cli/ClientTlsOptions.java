package io.nbench.cli;

import io.nbench.client.ClientSpec;
import java.nio.file.Path;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** The client's TLS: the shared choices and whom it trusts, which nbench never decides by default. */
final class ClientTlsOptions {

    @Mixin
    TlsOptions common;

    @Option(names = "--tls-ca", paramLabel = "FILE",
            description = "With --tls: trust the certificates of this PEM file (the server's own or its CA), and "
                    + "check that the server's certificate names --host. Default: none; --tls needs this or --tls-insecure.")
    Path ca;

    @Option(names = "--tls-insecure",
            description = "With --tls: accept any certificate, without a host name check (e.g. a self-signed nbench "
                    + "server's). Default: off. For benchmarks, not for a network you do not trust.")
    boolean insecure;

    /** These options, typed ({@link ChildClient}). */
    ClientSpec.Tls settings() {
        return new ClientSpec.Tls(common.on, common.protocols, common.ciphers, ca, insecure);
    }

    /** Sets these options to a child client's settings. */
    void set(ClientSpec.Tls t) {
        common.on = t.on();
        common.protocols = t.protocols();
        common.ciphers = t.ciphers();
        ca = t.ca();
        insecure = t.insecure();
    }
}
