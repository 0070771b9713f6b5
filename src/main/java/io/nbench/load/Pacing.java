package io.nbench.load;

/**
 * How an open-loop pacer waits for its next message's intended time.
 * <ul>
 * <li>{@code sleep} (default): parks until then; the OS timer slack makes it wake about 50-100 µs late,
 *     which shows as send lag and is part of the corrected latency. Costs no CPU while waiting.</li>
 * <li>{@code spin}: busy-waits, so messages go out within a microsecond or so of their intended time
 *     and sub-millisecond open-loop latency can be measured; each pacer thread keeps a core busy the
 *     whole run (the client CPU figure shows it).</li>
 * </ul>
 */
public enum Pacing {
    SLEEP, SPIN;

    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
