package io.nbench.cli;

import java.nio.file.Path;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** The server's TLS: the shared choices and the key and certificate it proves itself with. */
final class ServerTlsOptions {

    @Mixin
    TlsOptions common;

    @Option(names = "--tls-cert", paramLabel = "FILE",
            description = "With --tls: the server's certificate, then any that issued it, PEM (default: a self-signed "
                    + "certificate made in memory at start, for localhost, 127.0.0.1, ::1 and --bind).")
    Path cert;

    @Option(names = "--tls-key", paramLabel = "FILE",
            description = "With --tls-cert: its private key, unencrypted PEM (PKCS#8, RSA or EC). Default: none, the "
                    + "self-signed certificate's key lives in memory; nbench never writes a key to disk or prints one.")
    Path key;
}
