package io.nbench.client;

import io.nbench.load.InvalidLoadSpec;
import io.nbench.load.LoadSpec;
import io.nbench.load.LoadSpecBuilder;
import io.nbench.load.Measure;
import io.nbench.stats.Percentiles;
import io.nbench.sweep.Combination;
import io.nbench.sweep.Sweep;
import io.nbench.tls.InvalidTls;
import io.nbench.tls.TlsChoice;
import io.nbench.tls.TlsSetup;
import io.nbench.transport.Availability;
import io.nbench.transport.ClientTls;
import io.nbench.transport.SocketSettings;
import io.nbench.transport.TransportOption;
import io.nbench.transport.TransportRegistry;
import io.nbench.units.Durations;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A {@link ClientPlan} from typed values, as a command line or a program gives them: the server, the
 * transports and their {@code -O} values, the workload (a {@link LoadSpecBuilder} holding what every
 * combination shares) and the swept values, the verdict. {@link #build} expands the sweep and resolves every
 * combination (its transport, its workload, its memory) before anything runs, so a bad one is an
 * {@link InvalidClientPlan} up front and not after an hour of others. Messages name settings by their
 * command-line options, which is how a user meets them.
 */
public final class ClientPlanBuilder {

    /** The sweep value of a window left to its default: renamed to the effective window once resolved. */
    public static final String DEFAULT_WINDOW = "default";

    private final TransportRegistry registry = TransportRegistry.load();
    private String host = "127.0.0.1";
    private int port = 7007;
    private List<String> impls = List.of(TransportRegistry.DEFAULT);
    private Map<String, List<String>> transportOptions = new LinkedHashMap<>();
    private boolean allowInJvm;
    private SocketSettings socket = new SocketSettings(0, true, 0, 0);
    private LoadSpecBuilder load = LoadSpec.builder();
    private Duration connectTimeout = Duration.ofSeconds(5);
    private Duration iterationTime;
    private int warmup = 3;
    private int iterations = 10;
    private List<Integer> sizes = List.of(1024);
    private List<Integer> threads = List.of(4);
    private List<Integer> windows;
    /** As the results name them (see {@link #rateText}). */
    private List<String> rates;
    private List<Double> percentiles = Percentiles.DEFAULT;
    private Verdict verdict = new Verdict(MaxErrors.parse("0"), List.of());
    private Instant startAt;
    private TlsChoice tls;
    private Path tlsCa;
    private boolean tlsInsecure;
    private boolean tlsResumption = true;

    /** The server as the user names it: a host name or address. */
    public ClientPlanBuilder host(String host) {
        this.host = host;
        return this;
    }

    public ClientPlanBuilder port(int port) {
        this.port = port;
        return this;
    }

    /** The client transports, a sweep dimension ({@code impl}) in this order. */
    public ClientPlanBuilder impls(List<String> impls) {
        this.impls = List.copyOf(impls);
        return this;
    }

    /** The {@code -O} values by key; a key given several values is a sweep dimension. */
    public ClientPlanBuilder transportOptions(Map<String, List<String>> options) {
        this.transportOptions = new LinkedHashMap<>(options);
        return this;
    }

    /** Whether a transport without a network server or client may be used (its server runs in this JVM). */
    public ClientPlanBuilder allowInJvm(boolean allow) {
        this.allowInJvm = allow;
        return this;
    }

    public ClientPlanBuilder socket(SocketSettings socket) {
        this.socket = socket;
        return this;
    }

    /**
     * What every combination's workload shares; the swept values (threads, size, window, rate), the timing, the
     * connect timeout and the percentiles of this builder are set on it for each combination.
     */
    public ClientPlanBuilder load(LoadSpecBuilder load) {
        this.load = load;
        return this;
    }

    public ClientPlanBuilder connectTimeout(Duration timeout) {
        this.connectTimeout = timeout;
        return this;
    }

    /** Time-based iterations of this length, or null: iterations count messages. */
    public ClientPlanBuilder iterationTime(Duration time) {
        this.iterationTime = time;
        return this;
    }

    public ClientPlanBuilder iterations(int warmup, int iterations) {
        this.warmup = warmup;
        this.iterations = iterations;
        return this;
    }

    /**
     * The swept workload values, each a dimension of every sweep even with one value (so every result names
     * them), but the rate, only when given.
     *
     * @param windows null: the default window (1, or --batch x threads per connection)
     * @param rates   null: a closed loop; else each rate in messages per second
     */
    public ClientPlanBuilder sweep(List<Integer> sizes, List<Integer> threads, List<Integer> windows,
                                   List<Double> rates) {
        this.sizes = List.copyOf(sizes);
        this.threads = List.copyOf(threads);
        this.windows = windows == null ? null : List.copyOf(windows);
        this.rates = rates == null ? null : rates.stream().map(ClientPlanBuilder::rateText).toList();
        return this;
    }

    /**
     * Only the swept rates: null, a closed loop; else each rate in messages per second (a capacity search sets
     * one rate per step, the rest of the sweep as given).
     */
    public ClientPlanBuilder rates(List<Double> rates) {
        this.rates = rates == null ? null : rates.stream().map(ClientPlanBuilder::rateText).toList();
        return this;
    }

    /** The latency percentiles every combination reports. */
    public ClientPlanBuilder percentiles(List<Double> percentiles) {
        this.percentiles = List.copyOf(percentiles);
        return this;
    }

    public ClientPlanBuilder verdict(Verdict verdict) {
        this.verdict = verdict;
        return this;
    }

    /** The instant the first measured iteration starts (time-based iterations only), or null: at once. */
    public ClientPlanBuilder startAt(Instant startAt) {
        this.startAt = startAt;
        return this;
    }

    /**
     * {@code --tls}: what every connection offers and whom it trusts (the certificates of {@code ca}, or any when
     * {@code insecure}; one of them is required).
     *
     * @param choice null: plain TCP
     */
    public ClientPlanBuilder tls(TlsChoice choice, Path ca, boolean insecure) {
        this.tls = choice;
        this.tlsCa = ca;
        this.tlsInsecure = insecure;
        return this;
    }

    /** {@code --tls-resumption}: offer earlier connections' sessions (true, the default) or never (false). */
    public ClientPlanBuilder tlsResumption(boolean resumption) {
        this.tlsResumption = resumption;
        return this;
    }

    /**
     * The checks that need nothing resolved: a server named, and a {@code --start-at} that time-based iterations
     * can meet. {@link #build} makes them too; a caller makes them early to report them first.
     */
    public void checkTarget() throws InvalidClientPlan {
        if (host.isBlank()) {
            throw new InvalidClientPlan("--host is empty: name the server, e.g. --host 127.0.0.1");
        }
        try {
            TlsSetup.checkClient(tls, tlsCa, tlsInsecure);
        } catch (InvalidTls e) {
            throw new InvalidClientPlan(e.getMessage());
        }
        firstIterationAt();
    }

    /** With {@code --start-at}: when the first (warmup) iteration starts, so the first measured one starts on it. */
    private Instant firstIterationAt() throws InvalidClientPlan {
        if (startAt == null) {
            return null;
        }
        if (iterationTime == null) {
            throw new InvalidClientPlan("--start-at needs --iteration-time: count-based iterations end at different "
                    + "times on each host, so only time-based ones can cover the same windows");
        }
        // Warmup iterations run back to back before the instant, so the first measured one starts on it.
        Instant first = startAt.minus(iterationTime.multipliedBy(warmup));
        if (!first.isAfter(Instant.now())) {
            throw new InvalidClientPlan("--start-at " + startAt + " leaves no time for connecting and the warmup ("
                    + warmup + " x " + Durations.format(iterationTime) + "): give a later instant");
        }
        return first;
    }

    /**
     * The plan: the sweep expanded, every combination resolved.
     *
     * @throws InvalidClientPlan settings that do not go together (the command line's usage error)
     * @throws CouldNotRun       a transport that cannot run here, a host that does not resolve
     */
    public ClientPlan build() throws InvalidClientPlan, CouldNotRun {
        checkTarget();
        Instant first = firstIterationAt();
        Sweep sweep = sweep();
        List<ClientPlan.Step> steps = new ArrayList<>();
        for (Combination c : sweep.product((keys, key) -> applies(keys.get("impl"), key))) {
            steps.add(step(c));
        }
        ClientTls clientTls;
        try {
            clientTls = TlsSetup.client(tls, tlsCa, tlsInsecure, host, tlsResumption);
        } catch (InvalidTls e) {
            throw new InvalidClientPlan(e.getMessage());
        }
        return new ClientPlan(host, ClientPlan.address(host, port), steps, sweep.keys(), socket, connectTimeout,
                verdict, first, clientTls);
    }

    /** The sweep's dimensions: impl, size, threads, window, rate, then each -O key given several values. */
    private Sweep sweep() throws InvalidClientPlan {
        for (String impl : impls) {
            try {
                registry.get(impl);
            } catch (IllegalArgumentException e) {
                throw new InvalidClientPlan(e.getMessage());
            }
        }
        String problem = ResolvedTransport.optionNotInUse(registry, transportOptions.keySet(), impls,
                "add %s to --impl");
        if (problem != null) {
            throw new InvalidClientPlan(problem);
        }
        Sweep sweep = new Sweep().add("impl", impls);
        sweep.add("size", strings(sizes));
        sweep.add("threads", strings(threads));
        sweep.add("window", windows == null ? List.of(DEFAULT_WINDOW) : strings(windows));
        if (rates != null) {
            sweep.add("rate", rates);
        }
        transportOptions.forEach((key, values) -> {
            if (values.size() > 1) {
                sweep.add(key, values);
            }
        });
        return sweep;
    }

    /** 50000 rather than 50000.0: rates are keys of combinations and columns of CSV. */
    private static String rateText(double r) {
        return r == Math.rint(r) && r < 1e15 ? Long.toString((long) r) : Double.toString(r);
    }

    private static List<String> strings(List<Integer> values) {
        return values.stream().map(String::valueOf).toList();
    }

    /** Impl and load keys apply to every combination; an -O key only to the transport that declares it. */
    private boolean applies(String impl, String key) {
        if (key.equals("impl") || !key.contains(".")) {
            return true;
        }
        return registry.get(impl).options().stream().map(TransportOption::key).anyMatch(key::equals);
    }

    /** One combination, resolved before anything runs so a bad one is an error up front. */
    private ClientPlan.Step step(Combination c) throws InvalidClientPlan, CouldNotRun {
        Map<String, String> given = new LinkedHashMap<>();
        transportOptions.forEach((key, values) -> given.put(key, c.get(key) != null ? c.get(key) : values.get(0)));
        ResolvedTransport resolved;
        try {
            resolved = ResolvedTransport.resolve(registry, c.get("impl"), given, allowInJvm);
        } catch (IllegalArgumentException e) {
            throw new InvalidClientPlan(e.getMessage());
        }
        if (tls != null) { // never plain text where the command line says TLS
            Availability a = resolved.transport().tls(resolved.options());
            if (!a.available()) {
                throw new InvalidClientPlan("--tls: " + a.reason() + " (" + registry.withTls()
                        + ": choose one with --impl)");
            }
        }
        LoadSpec workload = workload(c);
        ClientMemory.check(workload);
        if (workload.measure() == Measure.SEND && resolved.transport().writtenEvent() == null) {
            throw new InvalidClientPlan("--measure send needs a written-to-kernel event, which transport "
                    + resolved.transport().name() + " does not have: use --measure rtt");
        }
        // A window left to its default is named by the value actually used.
        Combination named = DEFAULT_WINDOW.equals(c.get("window"))
                ? c.with("window", Integer.toString(workload.window())) : c;
        return new ClientPlan.Step(named, resolved, workload);
    }

    /** The workload of one combination, with the message the spec gives when its values do not go together. */
    private LoadSpec workload(Combination c) throws InvalidClientPlan {
        if (port < 1 || port > 65535) {
            throw new InvalidClientPlan("--port " + port + " is not a TCP port: use 1 to 65535");
        }
        try {
            return load.threads(c.intValue("threads"))
                    .size(c.intValue("size"))
                    .window(DEFAULT_WINDOW.equals(c.get("window")) ? null : c.intValue("window"))
                    .rate(c.get("rate") == null ? 0 : Double.parseDouble(c.get("rate")))
                    .iterationTime(iterationTime)
                    .warmup(warmup)
                    .iterations(iterations)
                    .connectTimeout(connectTimeout)
                    .percentiles(percentiles)
                    .build();
        } catch (InvalidLoadSpec e) {
            throw new InvalidClientPlan(e.getMessage());
        }
    }
}
