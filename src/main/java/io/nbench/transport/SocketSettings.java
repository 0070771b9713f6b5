package io.nbench.transport;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Socket and threading choices shared by every transport. Zero means "the transport's or the OS's
 * default"; each transport honours what is meaningful for it and reports the effective values.
 *
 * @param ioThreads  number of I/O threads (event loops, selector loops); 0 = not given, resolved by
 *                   {@link IoThreads} before a transport sees it ({@link ClientSettings}, {@link ServerSettings})
 * @param tcpNoDelay TCP_NODELAY on accepted and connected sockets
 * @param sndbuf     SO_SNDBUF in bytes, 0 = OS default
 * @param rcvbuf     SO_RCVBUF in bytes, 0 = OS default
 * @param keepAlive  SO_KEEPALIVE on accepted and connected sockets (off is the OS's default)
 */
public record SocketSettings(int ioThreads, boolean tcpNoDelay, int sndbuf, int rcvbuf, boolean keepAlive) {

    /** Without SO_KEEPALIVE. */
    public SocketSettings(int ioThreads, boolean tcpNoDelay, int sndbuf, int rcvbuf) {
        this(ioThreads, tcpNoDelay, sndbuf, rcvbuf, false);
    }

    /** These settings with another number of I/O threads. */
    public SocketSettings withIoThreads(int n) {
        return new SocketSettings(n, tcpNoDelay, sndbuf, rcvbuf, keepAlive);
    }

    /** The socket options as every transport reports them in its effective configuration. */
    public Map<String, String> describe() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("tcp-nodelay", Boolean.toString(tcpNoDelay));
        m.put("sndbuf", sndbuf > 0 ? Integer.toString(sndbuf) : "os-default");
        m.put("rcvbuf", rcvbuf > 0 ? Integer.toString(rcvbuf) : "os-default");
        m.put("keepalive", Boolean.toString(keepAlive));
        return m;
    }
}
