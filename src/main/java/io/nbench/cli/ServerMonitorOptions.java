package io.nbench.cli;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/** The server's monitor port: where it listens and where its token comes from. */
final class ServerMonitorOptions {

    @Option(names = "--monitor-port", paramLabel = "N",
            description = "Serve the monitor (metrics, reset; a line protocol for nc or nbench console) on this "
                    + "port; 0 picks a free one, printed on the first line (default: no monitor).")
    Integer port;

    @Option(names = "--monitor-bind", paramLabel = "ADDR", defaultValue = "127.0.0.1",
            description = "Address the monitor listens on (default: ${DEFAULT-VALUE}).")
    String bind;

    @Option(names = "--monitor-token-file", paramLabel = "FILE",
            description = "Read the monitor's token from the first line of FILE (default: $NBENCH_MONITOR_TOKEN, else "
                    + "a random token printed once at start; never on the command line, where ps shows it).")
    Path tokenFile;
}
