package io.nbench.transport;

import java.util.List;

/**
 * The descriptive half of a {@link Transport} (name, description, options, what "written" means), held
 * in fields so each transport states them once in its constructor. Available unless a subclass says
 * otherwise.
 */
public abstract class BaseTransport implements Transport {

    private final String name;
    private final String description;
    private final List<TransportOption> options;
    private final String writtenEvent;

    /**
     * @param writtenEvent what {@code --measure send} means with this transport, or null when it has no
     *                     honest written-to-kernel event
     */
    protected BaseTransport(String name, String description, List<TransportOption> options, String writtenEvent) {
        this.name = name;
        this.description = description;
        this.options = List.copyOf(options);
        this.writtenEvent = writtenEvent;
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final String description() {
        return description;
    }

    @Override
    public Availability availability() {
        return Availability.yes();
    }

    @Override
    public final List<TransportOption> options() {
        return options;
    }

    @Override
    public final String writtenEvent() {
        return writtenEvent;
    }
}
