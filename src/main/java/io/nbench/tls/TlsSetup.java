package io.nbench.tls;

import io.nbench.transport.ClientTls;
import io.nbench.transport.ServerTls;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;

/**
 * The TLS a server or a client runs with, from what the command line gives: the rules that decide whether the
 * options go together (each an {@link InvalidTls} naming the fix) and the key, certificates and trust they lead
 * to. The server and client plans call these; the transports receive the result ({@link ServerTls},
 * {@link ClientTls}).
 */
public final class TlsSetup {

    private TlsSetup() {
    }

    /**
     * The server's TLS: its key and certificate from {@code --tls-cert} and {@code --tls-key}, or made in memory.
     *
     * @param choice null: no {@code --tls}, and then neither file may be given
     */
    public static ServerTls server(TlsChoice choice, Path cert, Path key, InetAddress bind) {
        return server(choice, cert, key, bind, ServerTls.DEFAULT_HANDSHAKE_TIMEOUT);
    }

    /** @param handshakeTimeout {@code --tls-handshake-timeout} */
    public static ServerTls server(TlsChoice choice, Path cert, Path key, InetAddress bind,
                                   Duration handshakeTimeout) {
        checkServer(choice, cert, key);
        if (choice == null) {
            return null;
        }
        ServerKey material = cert == null ? SelfSigned.make(bind) : fromFiles(cert, key);
        return new ServerTls(choice.protocols(), choice.ciphers(), material.key(), material.chain(), material.origin(),
                handshakeTimeout);
    }

    /** The rules of the server's options alone, before anything is read or made. */
    public static void checkServer(TlsChoice choice, Path cert, Path key) {
        if (choice == null) {
            require(cert == null && key == null, (cert != null ? "--tls-cert" : "--tls-key") + " needs --tls");
            return;
        }
        require((cert == null) == (key == null), cert == null
                ? "--tls-key needs --tls-cert (the certificate of that key, PEM)"
                : "--tls-cert needs --tls-key (its private key, PEM; leave both out for a self-signed certificate)");
    }

    /**
     * The client's TLS: whom it trusts, decided by the user, never by default.
     *
     * @param choice   null: no {@code --tls}, and then no trust option may be given
     * @param host     the server as {@code --host} names it (SNI and the host name check)
     */
    public static ClientTls client(TlsChoice choice, Path ca, boolean insecure, String host) {
        return client(choice, ca, insecure, host, true);
    }

    /** @param resumption offer earlier connections' sessions ({@code --tls-resumption on}, the engines' default) */
    public static ClientTls client(TlsChoice choice, Path ca, boolean insecure, String host, boolean resumption) {
        checkClient(choice, ca, insecure);
        if (choice == null) {
            return null;
        }
        return new ClientTls(choice.protocols(), choice.ciphers(), insecure ? List.of() : PemFiles.certificates(
                "--tls-ca", ca), insecure, host, resumption);
    }

    /** The rules of the client's options alone, before any file is read. */
    public static void checkClient(TlsChoice choice, Path ca, boolean insecure) {
        if (choice == null) {
            require(ca == null && !insecure, (ca != null ? "--tls-ca" : "--tls-insecure") + " needs --tls");
            return;
        }
        require(ca == null || !insecure, "--tls-ca and --tls-insecure: choose one (trust the certificates of the "
                + "file, or any certificate)");
        require(ca != null || insecure, "--tls trusts no server by default: give the server's certificate or its CA "
                + "with --tls-ca FILE (PEM), or --tls-insecure to accept any certificate (a self-signed nbench server's)");
    }

    private static ServerKey fromFiles(Path cert, Path keyFile) {
        List<X509Certificate> chain = PemFiles.certificates("--tls-cert", cert);
        PrivateKey key = PemFiles.privateKey("--tls-key", keyFile);
        require(belongTogether(key, chain.get(0).getPublicKey()), "--tls-key " + keyFile + " is not the key of "
                + "--tls-cert " + cert + ": give the key the certificate was issued for");
        return new ServerKey(key, chain, "from --tls-cert " + cert + " (" + chain.get(0).getSubjectX500Principal()
                .getName() + ")");
    }

    /** Whether the key signs what the certificate's public key verifies (works for RSA, EC and EdDSA keys). */
    private static boolean belongTogether(PrivateKey key, PublicKey certified) {
        String algorithm = switch (key.getAlgorithm()) {
            case "RSA" -> "SHA256withRSA";
            case "EC" -> "SHA256withECDSA";
            default -> key.getAlgorithm(); // Ed25519, Ed448
        };
        try {
            byte[] probe = "nbench".getBytes(StandardCharsets.US_ASCII);
            Signature signer = Signature.getInstance(algorithm);
            signer.initSign(key);
            signer.update(probe);
            byte[] signature = signer.sign();
            Signature verifier = Signature.getInstance(algorithm);
            verifier.initVerify(certified);
            verifier.update(probe);
            return verifier.verify(signature);
        } catch (GeneralSecurityException e) {
            return false;
        }
    }

    private static void require(boolean ok, String message) {
        if (!ok) {
            throw new InvalidTls(message);
        }
    }
}
