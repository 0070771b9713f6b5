package io.nbench.cli;

import io.nbench.client.ClientSpec;
import io.nbench.client.ExitCode;
import io.nbench.transport.Transport;
import io.nbench.transport.TransportRegistry;
import java.io.IOException;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One of {@code nbench run}'s clients against one of its servers, in this JVM: the plan given with what run
 * chooses for that server, typed ({@link ClientSpec}): the server's port, the {@code -O} options of the
 * client's own transports, with {@code --in-process} the server's transport, its monitor, and a relative
 * {@code --start-at} counted from the client's start.
 */
final class RunClient {

    private final TransportOptions client;
    private final boolean inProcess;
    private final RunFiles files;
    /** {@code --start-at +D} as given: it counts from each client's start, as when the client runs alone; or null. */
    private final String startAtFromNow;
    private final PrintWriter err;

    RunClient(TransportOptions client, boolean inProcess, RunFiles files, String startAtFromNow, PrintWriter err) {
        this.client = client;
        this.inProcess = inProcess;
        this.files = files;
        this.startAtFromNow = startAtFromNow;
        this.err = err;
    }

    /**
     * Runs {@code plan}'s client against {@code s}, reading its server's monitor when {@code withStats}; the
     * client's exit code, what it measured to {@code listener}.
     */
    int run(RunServer s, ClientSpec plan, boolean withStats, PrintWriter out, ChildClientListener listener) {
        TransportRegistry registry = TransportRegistry.load();
        Transport server = s.transport();
        plan = plan.withTransportOptions(optionsOf(registry, client.transportOptions,
                inProcess ? List.of(server.name()) : client.impls()));
        if (inProcess) {
            plan = plan.inJvm(server.name());
        }
        if (withStats && s.monitorToken() != null) {
            try {
                plan = plan.withServerStats("127.0.0.1", s.monitorPort(),
                        files.monitorTokenFile(server, s.monitorToken().reveal()));
            } catch (IOException e) {
                err.println("nbench run: cannot write the monitor token of server " + server.name() + ": "
                        + e.getMessage());
                return ExitCode.COULD_NOT_RUN;
            }
        }
        if (startAtFromNow != null) {
            Instant startAt = new Converters.When().convert(startAtFromNow);
            plan = plan.withStartAt(startAt);
        }
        // run started this server: its results name it, in-process or in a fork, with or without its monitor
        plan = plan.withServer(server.name(), plan.transport().protocol());
        return ChildClient.execute(plan.withPort(s.port()), out, err, listener);
    }

    /** The -O options of the transports {@code impls} (and the keys no transport owns), as given. */
    private static Map<String, String> optionsOf(TransportRegistry registry, Map<String, String> options,
                                                 List<String> impls) {
        Map<String, String> kept = new LinkedHashMap<>();
        options.forEach((key, value) -> {
            Transport owner = TransportOptions.owner(registry, key);
            if (owner == null || impls.contains(owner.name())) {
                kept.put(key, value);
            }
        });
        return kept;
    }
}
