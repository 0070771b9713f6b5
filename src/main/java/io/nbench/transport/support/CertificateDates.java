package io.nbench.transport.support;

import java.security.cert.CertPathValidatorException;
import java.security.cert.Certificate;
import java.security.cert.CertificateExpiredException;
import java.security.cert.CertificateNotYetValidException;
import java.security.cert.X509Certificate;
import java.time.temporal.ChronoUnit;
import java.util.Date;
import java.util.List;

/**
 * A handshake that failed on a certificate's dates, said with the date: a trusted but expired certificate is no
 * question of trust, and {@code --tls-insecure} (which drops every check) is not its fix. The JDK's PKIX validation
 * (its own trust manager's, also behind Netty's OpenSSL engine) throws a {@link CertPathValidatorException}, which
 * holds the path and the index of the certificate at fault, caused by the {@link CertificateExpiredException} or
 * {@link CertificateNotYetValidException} of {@code X509Certificate.checkValidity}; wrapped in the validator's and the
 * handshake's exceptions. Error path only.
 */
final class CertificateDates {

    private CertificateDates() {
    }

    /** What to say of a certificate out of its dates in {@code cause}'s chain; null when there is none. */
    static String explain(Throwable cause) {
        Throwable dated = null;
        X509Certificate at = null;
        int index = -1;
        for (Throwable t = cause; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof CertPathValidatorException v && v.getCertPath() != null && v.getIndex() >= 0
                    && v.getIndex() < v.getCertPath().getCertificates().size()) {
                List<? extends Certificate> path = v.getCertPath().getCertificates();
                if (path.get(v.getIndex()) instanceof X509Certificate x) {
                    at = x;
                    index = v.getIndex();
                }
            }
            if (t instanceof CertificateExpiredException || t instanceof CertificateNotYetValidException) {
                dated = t;
                break;
            }
        }
        if (dated == null) {
            return null;
        }
        boolean expired = dated instanceof CertificateExpiredException;
        String whose = at == null || index == 0 ? "the server's certificate"
                : "the certificate of its CA " + at.getSubjectX500Principal().getName();
        // Without the certificate, the JDK's message holds the date ("NotAfter: Sat Nov 28 07:00:00 UTC 2026").
        String date = at == null ? String.valueOf(dated.getMessage()).replaceFirst("^Not(After|Before): ", "")
                : utc(expired ? at.getNotAfter() : at.getNotBefore());
        return expired
                ? whose + " expired on " + date + ": renew it (or, as a last resort, accept any certificate with "
                        + "--tls-insecure)"
                : whose + " is not valid before " + date + ": check this host's clock, or renew it with a start in "
                        + "the past (or, as a last resort, accept any certificate with --tls-insecure)";
    }

    private static String utc(Date date) {
        return date.toInstant().truncatedTo(ChronoUnit.SECONDS).toString().replace('T', ' ').replace("Z", " UTC");
    }
}
