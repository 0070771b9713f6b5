package io.nbench.tls;

import java.math.BigInteger;
import java.net.InetAddress;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.cert.CertIOException;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A server's key and self-signed certificate, made in memory when it starts with {@code --tls} and no
 * {@code --tls-cert}: an EC P-256 key (what production servers use, and cheap to make) and a certificate naming
 * localhost, 127.0.0.1, ::1 and the address the server binds. BouncyCastle only builds the certificate; the key
 * is made and the certificate signed by the JDK's own providers (BouncyCastle is not registered as one).
 */
public final class SelfSigned {

    /** Long enough for any benchmark server; the certificate is made again at every start. */
    static final Duration VALIDITY = Duration.ofDays(30);

    private SelfSigned() {
    }

    /** A new key and its certificate for these addresses besides the loopback ones. */
    public static ServerKey make(InetAddress bind) {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(new ECGenParameterSpec("secp256r1"), new SecureRandom());
            KeyPair pair = generator.generateKeyPair();
            Instant now = Instant.now();
            X500Name name = new X500Name("CN=nbench self-signed");
            JcaX509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(name,
                    new BigInteger(64, new SecureRandom()), Date.from(now.minus(Duration.ofHours(1))),
                    Date.from(now.plus(VALIDITY)), name, pair.getPublic());
            builder.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(names(bind)));
            builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
            X509CertificateHolder holder = builder.build(new JcaContentSignerBuilder("SHA256withECDSA")
                    .build(pair.getPrivate()));
            X509Certificate certificate = new JcaX509CertificateConverter().getCertificate(holder);
            return new ServerKey(pair.getPrivate(), List.of(certificate), "self-signed in memory (EC P-256, "
                    + "valid " + VALIDITY.toDays() + " days, for localhost, 127.0.0.1, ::1"
                    + (bind.isAnyLocalAddress() || bind.isLoopbackAddress() ? "" : ", " + bind.getHostAddress()) + ")");
        } catch (GeneralSecurityException | OperatorCreationException | CertIOException e) {
            throw new IllegalStateException("cannot make a self-signed certificate: " + e.getMessage(), e);
        }
    }

    private static GeneralName[] names(InetAddress bind) {
        List<GeneralName> names = new ArrayList<>(List.of(new GeneralName(GeneralName.dNSName, "localhost"),
                new GeneralName(GeneralName.iPAddress, "127.0.0.1"), new GeneralName(GeneralName.iPAddress, "::1")));
        if (!bind.isAnyLocalAddress() && !bind.isLoopbackAddress()) {
            names.add(new GeneralName(GeneralName.iPAddress, bind.getHostAddress()));
        }
        return names.toArray(new GeneralName[0]);
    }
}
