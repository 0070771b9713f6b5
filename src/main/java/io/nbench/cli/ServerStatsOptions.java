package io.nbench.cli;

import io.nbench.client.ClientSpec;
import io.nbench.client.ServerStats;
import io.nbench.client.monitor.MonitorClient;
import io.nbench.client.output.RunRecord;
import io.nbench.monitor.MonitorToken;
import java.io.PrintWriter;
import java.time.Duration;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/** {@code --server-stats}: the server's own figures over each iteration, from its monitor. */
final class ServerStatsOptions {

    @Option(names = "--server-stats", negatable = true,
            description = "Read the server's figures from its monitor at each iteration's start and end and show "
                    + "them under each iteration and in the result: requests, processing time, queue wait, CPU. "
                    + "Never resets the server's counters (default: off; --no-server-stats turns off a file's).")
    boolean enabled;

    @Mixin
    MonitorClientOptions monitor;

    /** These options, typed ({@link ChildClient}). */
    ClientSpec.Monitor settings() {
        return new ClientSpec.Monitor(enabled, monitor.host, monitor.port, monitor.tokenFile);
    }

    /** Sets these options to a child client's settings. */
    void set(ClientSpec.Monitor m) {
        enabled = m.enabled();
        monitor.host = m.host();
        monitor.port = m.port();
        monitor.tokenFile = m.tokenFile();
    }

    /** The run's record, with the server's figures when its monitor gives them ({@code stats} not null). */
    static RunRecord record(RunRecord record, ServerStats stats) {
        if (stats != null) {
            record.document().serverStats(stats.byCombination());
        }
        return record;
    }

    /** Connected and authenticated, or null without --server-stats. */
    ServerStats open(CommandSpec spec, String clientHost, Duration timeout, PrintWriter err) throws MonitorClient.Failure {
        if (!enabled) {
            boolean turnedOff = spec.commandLine().getParseResult() != null
                    && spec.commandLine().getParseResult().hasMatchedOption("--server-stats");
            if (!turnedOff && (monitor.port != null || monitor.host != null || monitor.tokenFile != null)) {
                throw new ParameterException(spec.commandLine(), "--monitor-host, --monitor-port and "
                        + "--monitor-token-file are for --server-stats: add it, or leave them out");
            }
            return null;
        }
        int port = monitor.port(spec, "--server-stats");
        MonitorToken token = monitor.token(spec);
        if (token == null) {
            throw new ParameterException(spec.commandLine(), "--server-stats needs the monitor's token: set "
                    + MonitorToken.ENV + " or give --monitor-token-file");
        }
        String host = monitor.host != null ? monitor.host : clientHost;
        return new ServerStats(MonitorClient.connect(host, port, token, timeout), err);
    }
}
