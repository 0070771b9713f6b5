package io.nbench.tls;

import io.nbench.files.BoundedFile;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.PrivateKey;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.openssl.PEMEncryptedKeyPair;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.pkcs.PKCS8EncryptedPrivateKeyInfo;

/**
 * The PEM files of {@code --tls-cert}, {@code --tls-key} and {@code --tls-ca}, as openssl writes them: certificates,
 * and a private key in PKCS#8 ({@code PRIVATE KEY}) or the older RSA and EC forms. An encrypted key is refused (nbench
 * would need its passphrase on the command line). Problems are {@link InvalidTls}, naming the file and the fix.
 */
public final class PemFiles {

    /**
     * The most read of one file: a key or a certificate chain is a few KiB, the bundle of every public CA a
     * distribution ships (/etc/ssl/certs/ca-certificates.crt) about 220 KiB.
     */
    static final int MAX_BYTES = 1 << 20;

    private PemFiles() {
    }

    /** Every certificate in the file, in order (a chain: the server's first). */
    public static List<X509Certificate> certificates(String option, Path file) {
        List<X509Certificate> found = new ArrayList<>();
        JcaX509CertificateConverter converter = new JcaX509CertificateConverter();
        try (Reader reader = open(option, file); PEMParser parser = new PEMParser(reader)) {
            for (Object o = parser.readObject(); o != null; o = parser.readObject()) {
                if (o instanceof X509CertificateHolder holder) {
                    found.add(converter.getCertificate(holder));
                }
            }
        } catch (InvalidTls e) {
            throw e;
        } catch (IOException | CertificateException | RuntimeException e) {
            throw new InvalidTls(option + " " + file + " is not a PEM certificate file (" + e.getMessage()
                    + "): give the PEM file openssl writes, starting with -----BEGIN CERTIFICATE-----");
        }
        if (found.isEmpty()) {
            throw new InvalidTls(option + " " + file + " holds no certificate: give a PEM file with "
                    + "-----BEGIN CERTIFICATE-----");
        }
        return found;
    }

    /** The one private key in the file. */
    public static PrivateKey privateKey(String option, Path file) {
        JcaPEMKeyConverter converter = new JcaPEMKeyConverter();
        try (Reader reader = open(option, file); PEMParser parser = new PEMParser(reader)) {
            for (Object o = parser.readObject(); o != null; o = parser.readObject()) {
                if (o instanceof PEMEncryptedKeyPair || o instanceof PKCS8EncryptedPrivateKeyInfo) {
                    throw new InvalidTls(option + " " + file + " is encrypted: give an unencrypted key (openssl pkey "
                            + "-in " + file + " -out plain.key)");
                }
                if (o instanceof PrivateKeyInfo info) {
                    return converter.getPrivateKey(info);
                }
                if (o instanceof PEMKeyPair pair) {
                    return converter.getKeyPair(pair).getPrivate();
                }
            }
        } catch (InvalidTls e) {
            throw e;
        } catch (IOException | RuntimeException e) {
            // The message of a parser may quote the file: say only what kind of problem it is.
            throw new InvalidTls(option + " " + file + " is not a PEM private key (" + e.getClass().getSimpleName()
                    + "): give the PEM file openssl writes, starting with -----BEGIN PRIVATE KEY-----");
        }
        throw new InvalidTls(option + " " + file + " holds no private key: give a PEM file with -----BEGIN PRIVATE "
                + "KEY-----");
    }

    private static Reader open(String option, Path file) {
        try {
            return new InputStreamReader(new ByteArrayInputStream(BoundedFile.read(file, MAX_BYTES)),
                    StandardCharsets.US_ASCII);
        } catch (BoundedFile.TooLarge e) {
            throw new InvalidTls(option + " " + file + " " + e.beyond("nbench reads of a PEM file")
                    + ": give the PEM file openssl writes");
        } catch (IOException e) {
            throw new InvalidTls(option + " " + file + " cannot be read (" + e.getClass().getSimpleName() + ": "
                    + e.getMessage() + "): give a readable PEM file");
        }
    }
}
