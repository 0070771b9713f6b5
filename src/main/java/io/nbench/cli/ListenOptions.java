package io.nbench.cli;

import io.nbench.transport.ListenSettings;
import picocli.CommandLine.Option;

/** The server's listening socket: the accept backlog and TCP_FASTOPEN (Reactor Netty's SO_BACKLOG, TCP_FASTOPEN). */
final class ListenOptions {

    @Option(names = "--backlog", paramLabel = "N", defaultValue = "" + ListenSettings.DEFAULT_BACKLOG,
            description = "SO_BACKLOG: connections the kernel queues before the server accepts them (default: "
                    + "${DEFAULT-VALUE}; Linux caps it at net.core.somaxconn, and the transport line shows the "
                    + "effective value).")
    int backlog;

    @Option(names = "--tcp-fastopen", paramLabel = "N", defaultValue = "0",
            description = "TCP_FASTOPEN on the listening socket, queueing up to N pending Fast Open requests "
                    + "(default: 0, off). Only netty with -O netty.io=epoll or io_uring sets it (Java's sockets "
                    + "have no such option), and Linux must enable it for servers (net.ipv4.tcp_fastopen=3).")
    int tcpFastOpen;

    ListenSettings settings() {
        return new ListenSettings(backlog, tcpFastOpen);
    }
}
