package io.nbench.protocol;

import java.util.List;
import java.util.Objects;

/**
 * What each request says beyond its size, for protocols whose requests name a resource (HTTP): the method,
 * the authority the request is addressed to ({@code Host}), the path with its query, and extra header
 * lines as the user gave them ({@code Name: value}). Framed and echo requests use {@link #NONE}.
 *
 * @param method    the request method, upper case ({@code GET})
 * @param authority {@code host[:port]} as the URL gave it
 * @param path      the request target, starting with {@code /}
 * @param headers   extra header lines, {@code Name: value}, already checked
 * @param success   which response statuses are a success ({@code --success-status}); the others are errors
 */
public record ClientRequest(String method, String authority, String path, List<String> headers,
                            SuccessStatuses success) {

    /** No method, no resource: the framed and echo protocols' requests are their payload. */
    public static final ClientRequest NONE = new ClientRequest("GET", "", "/", List.of());

    /** 2xx a success. */
    public ClientRequest(String method, String authority, String path, List<String> headers) {
        this(method, authority, path, headers, SuccessStatuses.DEFAULT);
    }

    public ClientRequest {
        Objects.requireNonNull(success, "success");
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(authority, "authority");
        Objects.requireNonNull(path, "path");
        headers = List.copyOf(headers);
    }
}
