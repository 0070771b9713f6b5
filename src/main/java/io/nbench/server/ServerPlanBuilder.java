package io.nbench.server;

import io.nbench.monitor.MonitorToken;
import io.nbench.protocol.Protocol;
import io.nbench.transport.ListenSettings;
import io.nbench.transport.OptionValues;
import io.nbench.transport.SocketSettings;
import io.nbench.transport.Transport;
import io.nbench.transport.TransportRegistry;
import io.nbench.tls.InvalidTls;
import io.nbench.tls.TlsChoice;
import io.nbench.tls.TlsSetup;
import io.nbench.transport.ServerTls;
import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * Builds a {@link ServerPlan}: every setting starts at {@code nbench server}'s default, except the port, 0 (any
 * free one; {@link BenchServer#address()} says which). {@link #check()} applies the rules in the order the
 * command line checks its options, before the transport is resolved, so a usage error comes before "cannot
 * run" whichever the user made.
 */
public final class ServerPlanBuilder {

    private Transport transport;
    private OptionValues transportOptions;
    private String bind = "127.0.0.1";
    private int port;
    private Protocol protocol = Protocol.FRAMED;
    private SocketSettings socket = new SocketSettings(0, true, 0, 0);
    private ListenSettings listen = ListenSettings.DEFAULT;
    private int maxFrame = ServerPlan.DEFAULT_MAX_FRAME;
    private int responseSize;
    private Duration idleTimeout;
    private Integer maxConnections;
    private Duration duration;
    private Duration reportInterval;
    private ServerPlan.Business business = ServerPlan.Business.NONE;
    private Integer monitorPort;
    private String monitorBind = "127.0.0.1";
    private MonitorToken monitorToken;
    private boolean readyLine;
    private TlsChoice tls;
    private Path tlsCert;
    private Path tlsKey;
    private Duration tlsHandshakeTimeout = ServerTls.DEFAULT_HANDSHAKE_TIMEOUT;

    ServerPlanBuilder() {
    }

    public ServerPlanBuilder transport(Transport t, OptionValues options) {
        this.transport = t;
        this.transportOptions = options;
        return this;
    }

    /** The transport of this name with these {@code -O} options (unknown ones are rejected by the registry). */
    public ServerPlanBuilder transport(String name, Map<String, String> options) {
        TransportRegistry registry = TransportRegistry.load();
        Transport t = registry.get(name);
        return transport(t, registry.resolveOptions(t, options));
    }

    public ServerPlanBuilder bind(String address) {
        this.bind = address;
        return this;
    }

    public ServerPlanBuilder port(int p) {
        this.port = p;
        return this;
    }

    public ServerPlanBuilder protocol(Protocol p) {
        this.protocol = p;
        return this;
    }

    public ServerPlanBuilder socket(SocketSettings s) {
        this.socket = s;
        return this;
    }

    /** The listening socket's backlog and TCP_FASTOPEN. */
    public ServerPlanBuilder listen(ListenSettings l) {
        this.listen = l;
        return this;
    }

    public ServerPlanBuilder maxFrame(int bytes) {
        this.maxFrame = bytes;
        return this;
    }

    /** The body of every response, for a protocol whose server decides it (HTTP's --response-size). */
    public ServerPlanBuilder responseSize(int bytes) {
        this.responseSize = bytes;
        return this;
    }

    public ServerPlanBuilder idleTimeout(Duration d) {
        this.idleTimeout = d;
        return this;
    }

    public ServerPlanBuilder maxConnections(Integer n) {
        this.maxConnections = n;
        return this;
    }

    public ServerPlanBuilder duration(Duration d) {
        this.duration = d;
        return this;
    }

    public ServerPlanBuilder reportInterval(Duration d) {
        this.reportInterval = d;
        return this;
    }

    public ServerPlanBuilder business(ServerPlan.Business b) {
        this.business = b;
        return this;
    }

    /** A monitor on this port (0: any free one); null: none. */
    public ServerPlanBuilder monitorPort(Integer p) {
        this.monitorPort = p;
        return this;
    }

    public ServerPlanBuilder monitorBind(String address) {
        this.monitorBind = address;
        return this;
    }

    /** The monitor's token; null: a generated one, printed once when the server is announced. */
    public ServerPlanBuilder monitorToken(MonitorToken token) {
        this.monitorToken = token;
        return this;
    }

    /**
     * {@code --tls}: what the server offers, and its certificate and key as PEM files (both null: a self-signed
     * certificate made in memory when the plan is built).
     *
     * @param choice null: plain TCP
     */
    public ServerPlanBuilder tls(TlsChoice choice, Path cert, Path key) {
        this.tls = choice;
        this.tlsCert = cert;
        this.tlsKey = key;
        return this;
    }

    /** {@code --tls-handshake-timeout}: null keeps the default. */
    public ServerPlanBuilder tlsHandshakeTimeout(Duration d) {
        this.tlsHandshakeTimeout = d != null ? d : ServerTls.DEFAULT_HANDSHAKE_TIMEOUT;
        return this;
    }

    public ServerPlanBuilder readyLine(boolean on) {
        this.readyLine = on;
        return this;
    }

    /**
     * Applies every rule that does not need the transport, in the command line's order.
     *
     * @throws InvalidServerPlan naming the first inconsistent setting and its fix
     */
    public ServerPlanBuilder check() {
        ServerPlan.check(port, duration, idleTimeout, reportInterval, monitorPort, maxFrame, maxConnections, business,
                protocol);
        ServerRules.listen(listen);
        ServerRules.responseSize(responseSize, maxFrame, protocol);
        ServerRules.localAddress("--bind", bind);
        if (monitorPort != null) {
            ServerRules.localAddress("--monitor-bind", monitorBind);
        }
        ServerRules.tlsHandshakeTimeout(tlsHandshakeTimeout);
        try {
            TlsSetup.checkServer(tls, tlsCert, tlsKey);
        } catch (InvalidTls e) {
            throw new InvalidServerPlan(e.getMessage());
        }
        return this;
    }

    /**
     * @throws InvalidServerPlan naming the first inconsistent setting and its fix
     */
    public ServerPlan build() {
        check();
        if (transport == null) {
            transport(TransportRegistry.DEFAULT, Map.of());
        }
        InetAddress address = ServerRules.localAddress("--bind", bind);
        ServerPlan.Monitor monitor = monitorPort == null ? null : new ServerPlan.Monitor(
                ServerRules.localAddress("--monitor-bind", monitorBind), monitorPort,
                monitorToken != null ? monitorToken : MonitorToken.generate());
        // Refused before a key is read or made: a transport without TLS would otherwise serve plain text.
        ServerRules.tls(tls != null, transport, transportOptions);
        ServerTls serverTls;
        try {
            serverTls = TlsSetup.server(tls, tlsCert, tlsKey, address, tlsHandshakeTimeout);
        } catch (InvalidTls e) {
            throw new InvalidServerPlan(e.getMessage());
        }
        return new ServerPlan(transport, transportOptions, address, port, protocol, socket, listen, maxFrame, responseSize,
                idleTimeout,
                maxConnections, duration, reportInterval, business, monitor, readyLine, serverTls);
    }
}
