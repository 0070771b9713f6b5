package io.nbench.testkit;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A CA valid now and a server certificate it signed for localhost and 127.0.0.1 with the validity given (in the
 * past, in the future), as PEM files: a client that trusts the CA ({@code --tls-ca}) fails the handshake on the
 * server certificate's dates alone. openssl 3.0's {@code req -x509} cannot date a certificate in the past, hence
 * BouncyCastle (the project's own dependency for its self-signed certificates).
 */
public final class DatedCertificates {

    /** The CA's certificate, the server's certificate and its key. */
    public record Issued(Path ca, Path cert, Path key, X509Certificate server) {
    }

    private DatedCertificates() {
    }

    public static Issued write(Path dir, String name, Instant notBefore, Instant notAfter) throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(new ECGenParameterSpec("secp256r1"));
        KeyPair caPair = generator.generateKeyPair();
        KeyPair serverPair = generator.generateKeyPair();
        Instant now = Instant.now();
        X500Name caName = new X500Name("CN=nbench test CA " + name);
        JcaX509v3CertificateBuilder ca = new JcaX509v3CertificateBuilder(caName, BigInteger.ONE,
                Date.from(now.minus(Duration.ofDays(1))), Date.from(now.plus(Duration.ofDays(2))), caName,
                caPair.getPublic());
        ca.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
        JcaX509v3CertificateBuilder server = new JcaX509v3CertificateBuilder(caName, BigInteger.TWO,
                Date.from(notBefore), Date.from(notAfter), new X500Name("CN=localhost"), serverPair.getPublic());
        server.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(new GeneralName[] {
            new GeneralName(GeneralName.dNSName, "localhost"), new GeneralName(GeneralName.iPAddress, "127.0.0.1")}));
        server.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
        JcaContentSignerBuilder signer = new JcaContentSignerBuilder("SHA256withECDSA");
        JcaX509CertificateConverter converter = new JcaX509CertificateConverter();
        X509Certificate caCert = converter.getCertificate(ca.build(signer.build(caPair.getPrivate())));
        X509Certificate serverCert = converter.getCertificate(server.build(signer.build(caPair.getPrivate())));
        Issued files = new Issued(dir.resolve(name + "-ca.pem"), dir.resolve(name + ".pem"),
                dir.resolve(name + ".key"), serverCert);
        Files.writeString(files.ca(), pem("CERTIFICATE", caCert.getEncoded()), StandardCharsets.US_ASCII);
        Files.writeString(files.cert(), pem("CERTIFICATE", serverCert.getEncoded()), StandardCharsets.US_ASCII);
        PrivateKey key = serverPair.getPrivate();
        Files.writeString(files.key(), pem("PRIVATE KEY", key.getEncoded()), StandardCharsets.US_ASCII);
        return files;
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der)
                + "\n-----END " + type + "-----\n";
    }
}
