package io.nbench.cli;

import io.nbench.protocol.Protocol;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * What {@code nbench run} and {@code --forks} choose for a client they start, typed: each field replaces the
 * user's value when set, and is left alone when null. Applied to the client's own typed fields after the
 * user's options ({@link #applyTo}), so no choice goes through an option's name. Public fields: this is the
 * {@code "choices"} object of a plan file (Jackson reads and writes them as they are).
 */
final class ChildClientChoices {

    /** The client's result files, chosen together: a null file is none. */
    record ResultFiles(Path out, Path hdrLog, String hgrm, boolean ownedByRun) {
    }

    /** The server's monitor the client reads the server's figures from ({@code --server-stats}). */
    record Monitor(String host, int port, Path tokenFile) {
    }

    /** The server's port on 127.0.0.1 (an HTTP client's --url names it). */
    public Integer port;
    public ResultFiles files;
    public Duration iterationTime;
    public Integer warmup;
    public Integer iterations;
    public List<String> thresholds;
    /** The {@code -O} options, all of them (the ones of other transports left out). */
    public Map<String, String> transportOptions;
    /** {@code nbench run --in-process}: the client is this in-JVM transport, beside its server in this JVM. */
    public String inJvmImpl;
    public Monitor monitor;
    public Instant startAt;
    public Integer forks;
    /** No capacity search ({@code --find-rate} and its options dropped): run's warmup before the searches. */
    public boolean closedLoopOnly;
    /**
     * {@code nbench run --tls}: the client accepts any certificate ({@code --tls-insecure}), since run's own servers
     * make self-signed ones in memory that nothing else could vouch for.
     */
    public boolean trustRunsServers;

    ChildClientChoices copy() {
        ChildClientChoices c = new ChildClientChoices();
        c.port = port;
        c.files = files;
        c.iterationTime = iterationTime;
        c.warmup = warmup;
        c.iterations = iterations;
        c.thresholds = thresholds;
        c.transportOptions = transportOptions;
        c.inJvmImpl = inJvmImpl;
        c.monitor = monitor;
        c.startAt = startAt;
        c.forks = forks;
        c.closedLoopOnly = closedLoopOnly;
        c.trustRunsServers = trustRunsServers;
        return c;
    }

    /** Sets the client's fields to what was chosen; the rest keep the user's values. */
    void applyTo(ClientCommand client) {
        if (port != null) {
            client.transport.port = port;
            if (client.transport.protocol == Protocol.HTTP) {
                // An HTTP client is pointed at its server by URL; any path, as nbench's server answers every path alike.
                client.http.url = "http://127.0.0.1:" + port + "/";
            }
        }
        if (files != null) {
            client.output.out = files.out();
            client.output.hdrLog = files.hdrLog();
            client.output.hgrm = files.hgrm();
            client.runOwnsFiles = files.ownedByRun();
        }
        if (iterationTime != null) {
            client.load.iterationTime = iterationTime;
        }
        if (warmup != null) {
            client.load.warmup = warmup;
        }
        if (iterations != null) {
            client.load.iterations = iterations;
        }
        if (thresholds != null) {
            client.output.thresholds = new java.util.ArrayList<>(thresholds);
        }
        if (transportOptions != null) {
            client.transport.transportOptions = new java.util.LinkedHashMap<>(transportOptions);
        }
        if (inJvmImpl != null) {
            client.transport.impl = inJvmImpl;
            client.allowInJvm = true;
        }
        if (monitor != null) {
            client.serverStats.enabled = true;
            client.serverStats.monitor.host = monitor.host();
            client.serverStats.monitor.port = monitor.port();
            client.serverStats.monitor.tokenFile = monitor.tokenFile();
        }
        if (startAt != null) {
            client.startAt = startAt;
        }
        if (forks != null) {
            client.load.forks = forks;
        }
        if (trustRunsServers) {
            client.tls.insecure = true;
        }
        if (closedLoopOnly) {
            client.capacity.findRate = false;
            client.capacity.slos = new java.util.ArrayList<>();
            client.capacity.resolution = null;
            client.capacity.maxTime = null;
        }
    }
}
