package io.nbench.capacity;

/**
 * Why a capacity step failed, named by whose limit it shows: only a server's cause bounds the capacity from above;
 * a step that failed because the client fell behind or the machine was disturbed says nothing about the server.
 */
public enum StepCause {
    /** The step passed. */
    NONE(Party.NONE, "passed"),
    /** An objective (--slo) was breached: the server's latency or errors at this rate. */
    OBJECTIVE_BREACHED(Party.SERVER, "objective breached"),
    /** Answers came back short of the rate sent: the server fell behind and its queue grew. */
    ANSWERED_SHORT(Party.SERVER, "answered short"),
    /** The client sent short of the target rate, its objectives met: the client, not the server, was behind. */
    SENT_SHORT(Party.CLIENT, "sent short"),
    /**
     * The client sent short because due messages waited on its own cap of messages in flight ({@code
     * --max-inflight}) while the objectives held: the client's setting, not the server, limited the rate.
     */
    IN_FLIGHT_CAP(Party.CLIENT, "in-flight cap hit"),
    /**
     * The machine was disturbed during the step beyond {@link StepResult#DISTURBED_SEND_LAG_NS} of send lag
     * (the client's pacer itself stalled) or {@link io.nbench.resources.ResourceUsage#DISTURBED_STEAL_PERCENT}
     * of steal: the figures show the machine, not the server.
     */
    MACHINE_DISTURBED(Party.MACHINE, "machine disturbed");

    /** Whose limit a cause shows. */
    public enum Party { NONE, SERVER, CLIENT, MACHINE }

    private final Party party;
    private final String label;

    StepCause(Party party, String label) {
        this.party = party;
        this.label = label;
    }

    /** Whose limit the cause shows. */
    public Party party() {
        return party;
    }

    /** Whether a failure for this cause bounds the server's capacity from above. */
    public boolean boundsTheServer() {
        return party == Party.SERVER;
    }

    /** The cause as the text output and the result document name it, e.g. "answered short". */
    public String label() {
        return label;
    }
}
