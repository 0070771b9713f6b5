package io.nbench.tls;

import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;

/**
 * What both sides offer ({@code --tls-protocols}, {@code --tls-ciphers}), checked against what this JDK supports,
 * so that a typo is a usage error and not a handshake that fails on every connection.
 *
 * @param protocols in the JDK's names, e.g. TLSv1.3, TLSv1.2
 * @param ciphers   IANA names; empty: the engine's defaults
 */
public record TlsChoice(List<String> protocols, List<String> ciphers) {

    /** TLS 1.3 first, TLS 1.2 for peers without it: what a server in production offers today. */
    public static final List<String> DEFAULT_PROTOCOLS = List.of("TLSv1.3", "TLSv1.2");
    public static final String DEFAULT_PROTOCOLS_TEXT = "TLSv1.3,TLSv1.2";

    public TlsChoice {
        protocols = List.copyOf(protocols);
        ciphers = List.copyOf(ciphers);
        if (protocols.isEmpty()) {
            throw new InvalidTls("--tls-protocols is empty: use " + DEFAULT_PROTOCOLS_TEXT + " or one of them");
        }
        SSLParameters supported = supported();
        List<String> known = new ArrayList<>(Arrays.asList(supported.getProtocols()));
        known.remove("SSLv2Hello"); // a hello format, not a protocol to offer
        for (String p : protocols) {
            if (!known.contains(p)) {
                throw new InvalidTls("--tls-protocols " + p + " is not a protocol this JDK supports: use "
                        + String.join(", ", known) + " (default " + DEFAULT_PROTOCOLS_TEXT + ")");
            }
        }
        // Supported is not usable: the JDK's security properties disable old versions (TLS 1.0 and 1.1 since
        // 8u291), and an engine offering only those fails every handshake. The enabled ones are what a server
        // engine starts with: the supported ones less the disabled.
        List<String> enabled = enabledByDefault();
        for (String p : protocols) {
            if (!enabled.contains(p)) {
                throw new InvalidTls("--tls-protocols " + p + " is disabled in this JDK (jdk.tls.disabledAlgorithms in "
                        + "its java.security): use " + String.join(", ", enabled) + ", or enable it there to measure it");
            }
        }
        List<String> suites = Arrays.asList(supported.getCipherSuites());
        for (String c : ciphers) {
            if (!suites.contains(c)) {
                throw new InvalidTls("--tls-ciphers " + c + " is not a cipher suite this JDK supports: use IANA names "
                        + "such as TLS_AES_128_GCM_SHA256 or TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256 (leave it out "
                        + "for the engine's defaults)");
            }
        }
    }

    public static TlsChoice defaults() {
        return new TlsChoice(DEFAULT_PROTOCOLS, List.of());
    }

    private static List<String> enabledByDefault() {
        try {
            SSLEngine engine = SSLContext.getDefault().createSSLEngine();
            engine.setUseClientMode(false);
            return Arrays.asList(engine.getEnabledProtocols());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this JDK has no TLS", e);
        }
    }

    private static SSLParameters supported() {
        try {
            return SSLContext.getDefault().getSupportedSSLParameters();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this JDK has no TLS", e);
        }
    }
}
