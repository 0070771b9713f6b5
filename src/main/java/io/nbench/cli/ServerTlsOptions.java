package io.nbench.cli;

import java.nio.file.Path;
import java.time.Duration;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
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

    @Option(names = "--tls-handshake-timeout", paramLabel = "D", converter = Converters.Time.class,
            description = "With --tls: close a connection whose handshake is not done D after it was accepted (a "
                    + "client that connects and sends nothing), counted and logged as a protocol error (default: "
                    + "10s).")
    Duration handshakeTimeout;

    /** {@code --tls-handshake-timeout}, null for the default; without {@code --tls} it is a usage error. */
    Duration handshakeTimeout(CommandSpec spec) {
        if (handshakeTimeout != null && !common.on) {
            throw new ParameterException(spec.commandLine(), "--tls-handshake-timeout needs --tls");
        }
        return handshakeTimeout;
    }
}
