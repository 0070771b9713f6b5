package io.nbench.cli;

import io.nbench.transport.Availability;
import io.nbench.transport.Transport;
import io.nbench.transport.TransportRegistry;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;

/**
 * {@code nbench run}'s usage checks, made before any server starts (each a usage error, exit 2): the client's
 * options it passes on, the servers, the {@code -O} keys and {@code --rounds}.
 */
final class RunChecks {

    private final CommandSpec spec;
    private final boolean inProcess;

    RunChecks(CommandSpec spec, boolean inProcess) {
        this.spec = spec;
        this.inProcess = inProcess;
    }

    /**
     * The client's options, parsed once before any server starts (a usage error is exit 2 at once); the
     * options run chooses itself are refused.
     */
    ParseResult parseClient(List<String> clientArgs) {
        List<String> args = new ArrayList<>(List.of("client"));
        args.addAll(clientArgs);
        ParseResult parsed;
        try {
            parsed = Main.commandLine(spec.commandLine().getOut(), spec.commandLine().getErr())
                    .parseArgs(args.toArray(new String[0])).subcommand();
        } catch (ParameterException e) {
            throw usage(e.getMessage());
        }
        for (String forbidden : List.of("--port", "--host", "--format", "--out", "--monitor-port", "--monitor-host",
                "--monitor-token-file")) {
            if (parsed.hasMatchedOption(forbidden)) {
                throw usage(forbidden + " is chosen by nbench run itself: leave it out (" + (forbidden.startsWith(
                        "--monitor") ? "run gives each server a monitor of its own; --no-server-stats turns that off)"
                        : "use --results-dir to keep the result documents)"));
            }
        }
        for (String whole : List.of("-n", "-d")) { // one client run's length; run measures each server in rounds
            if (parsed.hasMatchedOption(whole)) {
                throw usage(whole + " plans one client run; nbench run measures each server in rounds: give "
                        + "--iterations with --msgs or --iteration-time");
            }
        }
        if (parsed.hasMatchedOption("--url")) {
            throw usage("--url is chosen by nbench run itself (each server's address; nbench's HTTP server answers every "
                    + "path alike): leave it out and give --protocol http");
        }
        if (inProcess && parsed.hasMatchedOption("--impl")) {
            throw usage("--impl is chosen by nbench run --in-process (each in-JVM server is measured with its own "
                    + "client): leave it out");
        }
        return parsed;
    }

    /**
     * {@code --tls}: run's servers make their own self-signed certificates, which their clients accept; a CA file
     * could not vouch for them, and the in-JVM transports have no TLS.
     */
    void checkTls(ClientCommand client) {
        if (inProcess) {
            throw usage("--tls with --in-process: the in-JVM transports have no TLS (no socket); leave one of them out");
        }
        if (client.tls.ca != null) {
            throw usage("--tls-ca with nbench run: run's servers make their own self-signed certificates, which run's "
                    + "clients accept (--tls-insecure); leave --tls-ca out");
        }
    }

    /**
     * {@code run --tls} without {@code --servers}: of every available server, those whose TLS runs here (their own
     * word: {@link Transport#tls}), so that a transport without TLS is left out, with a line saying why, rather than
     * started to refuse and counted as a server that could not start. Servers named in {@code --servers} are all
     * kept: each one without TLS says so as it refuses to start.
     *
     * @return the servers to measure; a usage error when none has TLS
     */
    List<Transport> withTls(TransportRegistry registry, List<Transport> everyAvailable, PrintWriter out) {
        List<Transport> with = new ArrayList<>();
        List<String> without = new ArrayList<>();
        for (Transport t : everyAvailable) {
            Availability a = t.tls(registry.resolveOptions(t, Map.of()));
            if (a.available()) {
                with.add(t);
            } else {
                without.add(t.name() + " (" + a.reason() + ")");
            }
        }
        if (with.isEmpty()) {
            throw usage("--tls: no server transport has TLS here: " + String.join(", ", without));
        }
        if (!without.isEmpty()) {
            out.println("nbench run: --tls: measuring the servers with TLS (" + String.join(", ", with.stream()
                    .map(Transport::name).toList()) + "); left out: " + String.join(", ", without));
        }
        return with;
    }

    /** The server transports of {@code --servers}, or every available one of the kind run measures. */
    List<Transport> chooseServers(TransportRegistry registry, List<String> servers) {
        List<Transport> list = new ArrayList<>();
        if (servers == null || servers.isEmpty()) {
            for (Transport t : registry.all()) {
                if (t.inJvm() == inProcess && t.availability().available()) {
                    list.add(t);
                }
            }
            return list;
        }
        for (String name : servers) {
            Transport t;
            try {
                t = registry.get(name.trim());
            } catch (IllegalArgumentException e) {
                throw usage(e.getMessage());
            }
            if (t.inJvm() != inProcess) {
                throw usage("server transport " + t.name() + (t.inJvm() ? " runs in one JVM only: add --in-process"
                        : " is a network transport: leave out --in-process"));
            }
            list.add(t);
        }
        return list;
    }

    /**
     * Each -O key must be used by the client or by one of the servers: the client gets the keys of its
     * transports, each server those of its own, and a key nobody uses is a usage error.
     */
    void checkTransportOptionsInUse(TransportRegistry registry, TransportOptions client, List<Transport> chosen) {
        List<String> users = new ArrayList<>(chosen.stream().map(Transport::name).toList());
        if (!inProcess) {
            users.addAll(client.impls());
        }
        for (String key : client.transportOptions.keySet()) {
            Transport owner = TransportOptions.owner(registry, key);
            if (owner != null && !users.contains(owner.name())) {
                throw usage("-O " + key + " is an option of transport " + owner.name() + ", which neither the client ("
                        + (inProcess ? "--in-process" : "--impl " + String.join(",", client.impls()))
                        + ") nor a server (--servers " + String.join(",", chosen.stream().map(Transport::name).toList())
                        + ") uses: leave it out");
            }
        }
    }

    /**
     * The body of every response of servers whose protocol lets the server decide it (HTTP's --response-size):
     * what the client's options say of its responses, as framed's server answers them, {@code --response-size}
     * or else {@code --size}; 0 for a protocol whose requests say it themselves. A server starts once, so a
     * --size list (a sweep) needs --response-size.
     */
    int serverResponseSize(ClientCommand client) {
        if (!client.transport.protocol.serverSetsResponseSize()) {
            return 0;
        }
        if (client.load.responseSize != null) {
            return client.load.responseSize;
        }
        if (client.load.size.size() > 1) {
            throw usage("--size " + client.load.size.stream().map(String::valueOf).collect(
                    Collectors.joining(",")) + " sweeps, but nbench run starts each --protocol "
                    + client.transport.protocol.label() + " server once, with one response size: give --response-size");
        }
        return client.load.size.get(0);
    }

    /** {@code --rounds} checked; 1 when the client runs in one piece. */
    int rounds(Integer rounds, boolean inRounds, int iterations, ParseResult parsed) {
        if (!inRounds) {
            if (rounds != null && rounds > 1) {
                throw usage("--rounds deals the iterations of the client in this JVM out over the servers; with "
                        + (parsed.hasMatchedOption("--start-at") ? "--start-at"
                        : parsed.hasMatchedOption("--find-rate") ? "--find-rate" : "--forks") + " each server's client "
                        + "runs in one piece: leave out --rounds");
            }
            return 1;
        }
        int n = rounds == null ? iterations : rounds;
        if (n < 1 || n > iterations) {
            throw usage("--rounds " + n + " must be between 1 and --iterations (" + iterations + "): each round "
                    + "measures every server at least once");
        }
        return n;
    }

    private ParameterException usage(String message) {
        return new ParameterException(spec.commandLine(), message);
    }
}
