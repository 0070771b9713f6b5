package io.nbench.protocol;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * What each request says beyond its size, for protocols whose requests name a resource (HTTP): the method,
 * the authority the request is addressed to ({@code Host}), the path with its query, and extra header
 * lines as the user gave them ({@code Name: value}), and the body when the user gave one. Framed and echo
 * requests use {@link #NONE}.
 *
 * @param method    the request method, upper case ({@code GET})
 * @param authority {@code host[:port]} as the URL gave it
 * @param path      the request target, starting with {@code /}
 * @param headers   extra header lines, {@code Name: value}, already checked
 * @param success   which response statuses are a success ({@code --success-status}); the others are errors
 * @param body      the body every request sends unchanged ({@code --body}, {@code --body-file}), or null: the
 *                  method decides ({@code --size} bytes of pattern for POST, PUT and PATCH, none otherwise);
 *                  never modified
 */
public record ClientRequest(String method, String authority, String path, List<String> headers,
                            SuccessStatuses success, byte[] body) {

    /** No method, no resource: the framed and echo protocols' requests are their payload. */
    public static final ClientRequest NONE = new ClientRequest("GET", "", "/", List.of());

    /** 2xx a success. */
    public ClientRequest(String method, String authority, String path, List<String> headers) {
        this(method, authority, path, headers, SuccessStatuses.DEFAULT);
    }

    /** No body of the user's. */
    public ClientRequest(String method, String authority, String path, List<String> headers,
                         SuccessStatuses success) {
        this(method, authority, path, headers, success, null);
    }

    public ClientRequest {
        Objects.requireNonNull(success, "success");
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(authority, "authority");
        Objects.requireNonNull(path, "path");
        headers = List.copyOf(headers);
    }

    /** The same request with every one of its connections sending {@code body} unchanged. */
    public ClientRequest withBody(byte[] body) {
        return new ClientRequest(method, authority, path, headers, success, body);
    }

    /** Equal when every part is, the body by its bytes (a record compares an array by identity). */
    @Override
    public boolean equals(Object o) {
        return o instanceof ClientRequest r && method.equals(r.method) && authority.equals(r.authority)
                && path.equals(r.path) && headers.equals(r.headers) && success.equals(r.success)
                && Arrays.equals(body, r.body);
    }

    @Override
    public int hashCode() {
        return Objects.hash(method, authority, path, headers, success) * 31 + Arrays.hashCode(body);
    }

    @Override
    public String toString() {
        return "ClientRequest[" + method + " " + authority + path + ", headers " + headers + ", success " + success
                + (body == null ? "" : ", body of " + body.length + " bytes") + "]";
    }
}
