package io.nbench.cli;

import io.nbench.client.ClientSpec;
import io.nbench.tls.TlsChoice;
import java.nio.file.Path;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.TypeConversionException;

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

    @Option(names = "--tls-resumption", paramLabel = "on|off", converter = OnOff.class,
            description = "With --tls: offer the server the sessions of earlier connections, so that a reconnect's "
                    + "handshake resumes one (no certificate, no full key exchange), as the engines do by default; off: "
                    + "every handshake a full one. The summary counts the resumed handshakes. Default: on.")
    String resumption;

    /**
     * The TLS the client runs with, checked against {@code --url}: an https:// URL implies it and, as --tls, needs
     * whom to trust; an http:// URL refuses it; {@code --tls-resumption} needs it.
     *
     * @param url   {@code --url}, or null
     * @param https the URL is https://
     * @return null: plain TCP
     */
    TlsChoice choice(CommandSpec spec, String url, boolean https) {
        if (url != null && !https && common.on) {
            // An http:// URL says plain text; TLS to an HTTP port would fail every handshake, or worse, succeed
            // against a port that happens to speak both.
            throw new ParameterException(spec.commandLine(), "--url " + url + " is plain http:// but --tls asks for "
                    + "TLS: give the https:// URL (https://" + url.substring(url.indexOf("://") + 3) + ") or leave "
                    + "--tls out");
        }
        if (https && ca == null && !insecure) {
            throw new ParameterException(spec.commandLine(), "--url " + url + " is HTTPS, and TLS trusts no server by "
                    + "default: give the server's certificate or its CA with --tls-ca FILE (PEM), or --tls-insecure to "
                    + "accept any certificate");
        }
        TlsChoice choice = common.choice(spec, https);
        if (choice == null && resumption != null) {
            throw new ParameterException(spec.commandLine(), "--tls-resumption needs --tls (or an https:// --url)");
        }
        return choice;
    }

    /** What {@code --tls-resumption} says, on unless given otherwise. */
    boolean resumption() {
        return !"off".equals(resumption);
    }

    /** on or off, the words a switch with a default of its own takes (a Boolean option would take true and false). */
    static final class OnOff implements ITypeConverter<String> {
        @Override
        public String convert(String value) {
            if (!value.equals("on") && !value.equals("off")) {
                throw new TypeConversionException("'" + value + "' is neither on nor off");
            }
            return value;
        }
    }

    /** These options, typed ({@link ChildClient}). */
    ClientSpec.Tls settings() {
        return new ClientSpec.Tls(common.on, common.protocols, common.ciphers, ca, insecure, resumption);
    }

    /** Sets these options to a child client's settings. */
    void set(ClientSpec.Tls t) {
        common.on = t.on();
        common.protocols = t.protocols();
        common.ciphers = t.ciphers();
        ca = t.ca();
        insecure = t.insecure();
        resumption = t.resumption();
    }
}
