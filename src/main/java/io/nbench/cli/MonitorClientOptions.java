package io.nbench.cli;

import io.nbench.monitor.MonitorToken;
import java.nio.file.Path;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/** Where a server's monitor is and where its token comes from: for nbench console and client --server-stats. */
final class MonitorClientOptions {

    @Option(names = "--monitor-host", paramLabel = "HOST",
            description = "Host of the server's monitor (default: the client's --host; console: 127.0.0.1).")
    String host;

    @Option(names = "--monitor-port", paramLabel = "N", description = "Port of the server's monitor (no default: the "
            + "server's --monitor-port).")
    Integer port;

    @Option(names = "--monitor-token-file", paramLabel = "FILE",
            description = "Read the monitor's token from the first line of FILE (default: $NBENCH_MONITOR_TOKEN; "
                    + "console: else a prompt; never on the command line, where ps shows it).")
    Path tokenFile;

    /** The port, checked; {@code why} says what needs it. */
    int port(CommandSpec spec, String why) {
        if (port == null) {
            throw new ParameterException(spec.commandLine(), why + " needs --monitor-port: the port the server was "
                    + "started with (nbench server --monitor-port N)");
        }
        if (port < 1 || port > 65535) {
            throw new ParameterException(spec.commandLine(), "--monitor-port " + port
                    + " is not a TCP port: use 1 to 65535");
        }
        return port;
    }

    /** From the file or the environment; null when neither gives one. A bad file or value is a usage error. */
    MonitorToken token(CommandSpec spec) {
        try {
            return MonitorToken.from(tokenFile, System.getenv());
        } catch (MonitorToken.Invalid e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
    }
}
