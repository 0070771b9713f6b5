package io.nbench.cli;

import io.nbench.client.ClientSpec;
import io.nbench.protocol.ClientRequest;
import io.nbench.protocol.Protocol;
import io.nbench.protocol.SuccessStatuses;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * The client's HTTP request options: the URL (which also names the host and port), the method, extra
 * headers and the body. {@code --url} alone implies {@code --protocol http}.
 */
final class HttpTargetOptions {

    @Option(names = "--url", paramLabel = "URL",
            description = "HTTP: where each request goes, e.g. http://127.0.0.1:8080/index.html; implies --protocol "
                    + "http and gives the host and port (default: none). https:// implies --tls (trust with --tls-ca "
                    + "or --tls-insecure; the certificate is checked against the URL's host).")
    String url;

    @Option(names = "--method", paramLabel = "METHOD", defaultValue = "GET",
            description = "HTTP: the request method (default: ${DEFAULT-VALUE}); POST, PUT and PATCH send --size bytes "
                    + "as the body, with Content-Length, unless --body or --body-file gives it.")
    String method;

    @Option(names = "--body", paramLabel = "STRING",
            description = "HTTP: the request body, sent as given (UTF-8) with Content-Length, with any --method, "
                    + "e.g. --body '{\"id\":1}' (default: none; not with --size).")
    String body;

    @Option(names = "--body-file", paramLabel = "FILE",
            description = "HTTP: a file whose bytes are the request body, sent byte for byte with Content-Length, "
                    + "with any --method, up to 16 MiB (default: none; not with --size or --body).")
    Path bodyFile;

    @Option(names = "--content-type", paramLabel = "TYPE",
            description = "HTTP: the request's Content-Type header, e.g. application/json (default: none; the same "
                    + "as -H 'Content-Type: TYPE').")
    String contentType;

    @Option(names = {"-H", "--header"}, paramLabel = "'NAME: VALUE'",
            description = "HTTP: a request header, repeatable, e.g. -H 'Accept: text/html' (default: Host from the "
                    + "URL only).")
    List<String> headers;

    @Option(names = "--success-status", paramLabel = "STATUSES", defaultValue = "2xx",
            converter = Converters.SuccessStatusConverter.class,
            description = "HTTP: which response statuses are a success, classes and codes, e.g. 2xx,3xx or 200,404 "
                    + "(default: ${DEFAULT-VALUE}). Every response is timed; one that is not a success is also an "
                    + "error of kind status.")
    SuccessStatuses successStatus;

    /** These options, typed ({@link ChildClient}). */
    ClientSpec.Http settings() {
        return new ClientSpec.Http(url, method, headers, successStatus, body, bodyFile, contentType);
    }

    /** Sets these options to a child client's settings. */
    void set(ClientSpec.Http h) {
        url = h.url();
        method = h.method();
        headers = h.headers();
        successStatus = h.successStatus();
        body = h.body();
        bodyFile = h.bodyFile();
        contentType = h.contentType();
    }

    /**
     * What --url, --host, --port and --protocol say together, checked: the target and each request's settings.
     *
     * @param tls an https:// URL: every connection is TLS, as with --tls
     */
    record Target(Protocol protocol, String host, int port, ClientRequest request, boolean tls) {
    }

    /**
     * The protocol, host, port and request the options give. {@code --url} implies HTTP and names the host
     * and port: an explicit --host or --port that differs from it, or another --protocol, is refused.
     */
    Target resolve(CommandSpec spec, Protocol protocol, String host, int port) {
        boolean protocolGiven = matched(spec, "--protocol");
        if (url == null) {
            if (protocol == Protocol.HTTP) {
                throw usage(spec, "--protocol http needs --url, e.g. --url http://" + host + ":" + port + "/");
            }
            if (matched(spec, "--method") || headers != null || matched(spec, "--success-status") || body != null
                    || bodyFile != null || contentType != null) {
                throw usage(spec, "--method, -H, --success-status, --body, --body-file and --content-type are HTTP "
                        + "request options: give --url http://HOST:PORT/PATH");
            }
            return new Target(protocol, host, port, ClientRequest.NONE, false);
        }
        if (protocolGiven && protocol != Protocol.HTTP) {
            throw usage(spec, "--url is an HTTP URL but --protocol is " + protocol.label()
                    + ": leave --protocol out or give --protocol http");
        }
        URI uri = parse(spec);
        boolean https = uri.getScheme().equalsIgnoreCase("https");
        int urlPort = uri.getPort() >= 0 ? uri.getPort() : https ? 443 : 80;
        String urlHost = uri.getHost().startsWith("[") ? uri.getHost().substring(1, uri.getHost().length() - 1)
                : uri.getHost();
        if (matched(spec, "--host") && !host.equalsIgnoreCase(urlHost)) {
            throw usage(spec, "--host " + host + " and --url's host " + urlHost + " differ: give the host in --url only");
        }
        if (matched(spec, "--port") && port != urlPort) {
            throw usage(spec, "--port " + port + " and --url's port " + urlPort + " differ: give the port in --url only");
        }
        String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
        if (uri.getRawQuery() != null) {
            path += "?" + uri.getRawQuery();
        }
        String authority = uri.getPort() >= 0 ? uri.getHost() + ":" + uri.getPort() : uri.getHost();
        String m = checkedMethod(spec);
        return new Target(Protocol.HTTP, urlHost, urlPort, new ClientRequest(m, authority, path, checkedHeaders(spec),
                successStatus, RequestBody.of(spec, m, body, bodyFile, matched(spec, "--size"))), https);
    }

    private URI parse(CommandSpec spec) {
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            throw usage(spec, "--url " + url + " is not a URL (" + e.getReason() + "): give http://HOST:PORT/PATH");
        }
        if (uri.getScheme() == null || !(uri.getScheme().equalsIgnoreCase("http")
                || uri.getScheme().equalsIgnoreCase("https"))) {
            throw usage(spec, "--url " + url + " is not an http:// or https:// URL: give http://HOST:PORT/PATH "
                    + "(or https://HOST:PORT/PATH with --tls-ca FILE or --tls-insecure)");
        }
        if (uri.getHost() == null) {
            throw usage(spec, "--url " + url + " names no host: give http://HOST:PORT/PATH");
        }
        if (uri.getRawFragment() != null) {
            throw usage(spec, "--url " + url + " has a #fragment, which is never sent: leave it out");
        }
        return uri;
    }

    private String checkedMethod(CommandSpec spec) {
        String m = method.toUpperCase(Locale.ROOT);
        if (m.isEmpty() || !m.chars().allMatch(c -> c > 0x20 && c < 0x7F && "()<>@,;:\\\"/[]?={}".indexOf(c) < 0)) {
            throw usage(spec, "--method '" + method + "' is not an HTTP method: give e.g. GET, POST, PUT");
        }
        return m;
    }

    private List<String> checkedHeaders(CommandSpec spec) {
        List<String> out = new ArrayList<>();
        for (String h : headers == null ? List.<String>of() : headers) {
            int colon = h.indexOf(':');
            String name = colon > 0 ? h.substring(0, colon).trim() : "";
            if (name.isEmpty() || !name.chars().allMatch(c -> c > 0x20 && c < 0x7F && c != ':')
                    || h.indexOf('\r') >= 0 || h.indexOf('\n') >= 0) {
                throw usage(spec, "-H '" + h + "' is not a header line: give -H 'Name: value'");
            }
            String lower = name.toLowerCase(Locale.ROOT);
            if (lower.equals("content-length") || lower.equals("transfer-encoding")) {
                throw usage(spec, "-H '" + h + "': nbench sets the body's length from --size (POST, PUT, PATCH), "
                        + "--body or --body-file; leave " + name + " out");
            }
            if (lower.equals("content-type") && contentType != null) {
                throw usage(spec, "--content-type " + contentType + " and -H '" + h + "' both set Content-Type: give "
                        + "one of them");
            }
            out.add(name + ": " + h.substring(colon + 1).trim());
        }
        if (contentType != null) {
            if (contentType.isBlank() || contentType.chars().anyMatch(c -> c < 0x20 || c == 0x7F)) {
                throw usage(spec, "--content-type '" + contentType + "' is not a media type: give e.g. "
                        + "--content-type application/json");
            }
            out.add("Content-Type: " + contentType.trim());
        }
        return out;
    }

    private static boolean matched(CommandSpec spec, String option) {
        return spec.commandLine().getParseResult() != null
                && spec.commandLine().getParseResult().hasMatchedOption(option);
    }

    private static ParameterException usage(CommandSpec spec, String message) {
        return new ParameterException(spec.commandLine(), message);
    }
}
