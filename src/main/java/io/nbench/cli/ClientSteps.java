package io.nbench.cli;

import io.nbench.client.ClientPlan;
import io.nbench.client.CouldNotRun;
import io.nbench.client.ResolvedTransport;
import io.nbench.load.LoadSpec;
import io.nbench.load.Measure;
import io.nbench.sweep.Combination;
import io.nbench.sweep.Sweep;
import io.nbench.transport.TransportOption;
import io.nbench.transport.TransportRegistry;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/**
 * The client's sweep and its steps from the client's options: every combination resolved (its transport with
 * its {@code -O} values, its workload) before anything runs, so a bad one is a usage error up front.
 */
final class ClientSteps {

    private final CommandSpec spec;
    private final TransportOptions transport;
    private final LoadOptions load;
    private final boolean allowInJvm;
    private final TransportRegistry registry = TransportRegistry.load();

    ClientSteps(CommandSpec spec, TransportOptions transport, LoadOptions load, boolean allowInJvm) {
        this.spec = spec;
        this.transport = transport;
        this.load = load;
        this.allowInJvm = allowInJvm;
    }

    /** The sweep's dimensions: impl, the load options, then each -O key given several values. */
    Sweep sweep() {
        Sweep sweep = new Sweep();
        List<String> impls = transport.impls();
        for (String impl : impls) {
            try {
                registry.get(impl);
            } catch (IllegalArgumentException e) {
                throw usage(e.getMessage());
            }
        }
        sweep.add("impl", impls);
        transport.checkOptionsInUse(spec, registry, impls, "add %s to --impl");
        load.sweepDimensions().forEach(sweep::add);
        transport.transportOptionLists().forEach((key, values) -> {
            if (values.size() > 1) {
                sweep.add(key, values);
            }
        });
        return sweep;
    }

    /** The sweep's combinations, each -O key only in the combinations of the transport that declares it. */
    List<Combination> combinations(Sweep sweep) {
        return sweep.product((keys, key) -> applies(keys.get("impl"), key));
    }

    /** Impl and load keys apply to every combination; an -O key only to the transport that declares it. */
    private boolean applies(String impl, String key) {
        if (key.equals("impl") || !key.contains(".")) {
            return true;
        }
        return registry.get(impl).options().stream().map(TransportOption::key).anyMatch(key::equals);
    }

    /** One combination, resolved before anything runs so a bad one is a usage error up front. */
    ClientPlan.Step step(Combination c, List<Double> percentiles) throws CouldNotRun {
        Map<String, String> given = new LinkedHashMap<>();
        transport.transportOptionLists().forEach((key, values) -> given.put(key, c.get(key) != null ? c.get(key)
                : values.get(0)));
        ResolvedTransport resolved = TransportOptions.resolve(spec, registry, c.get("impl"), given, allowInJvm);
        LoadSpec workload = load.toSpec(spec, transport, percentiles, c);
        ClientMemory.check(spec, workload);
        if (workload.measure() == Measure.SEND && resolved.transport().writtenEvent() == null) {
            throw usage("--measure send needs a written-to-kernel event, which transport " + resolved.transport().name()
                    + " does not have: use --measure rtt");
        }
        // A window left to its default is named by the value actually used.
        Combination named = LoadOptions.DEFAULT_WINDOW.equals(c.get("window"))
                ? c.with("window", Integer.toString(workload.window())) : c;
        return new ClientPlan.Step(named, resolved, workload);
    }

    private ParameterException usage(String message) {
        return new ParameterException(spec.commandLine(), message);
    }
}
