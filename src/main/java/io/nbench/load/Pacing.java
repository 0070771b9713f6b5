package io.nbench.load;

import java.util.Locale;

/**
 * How an open-loop pacer waits for its next message's intended time.
 * <ul>
 * <li>{@code sleep}: parks until then; the OS timer slack makes it wake about 50-100 µs late,
 *     which shows as send lag and is part of the corrected latency. Costs no CPU while waiting.</li>
 * <li>{@code spin}: busy-waits, so messages go out within a microsecond or so of their intended time
 *     and sub-millisecond open-loop latency can be measured; each pacer thread keeps a core busy the
 *     whole run (the client CPU figure shows it).</li>
 * <li>{@code hybrid} (default): parks until shortly before then, by how late its own parks have woken on this
 *     machine, and spins the rest ({@link WakeUpLead}): on time for the price of a short spin per message,
 *     and only where messages are far enough apart for the spin to stay a small share of the time (at
 *     higher rates it parks as {@code sleep} does).</li>
 * </ul>
 */
public enum Pacing {
    SLEEP, SPIN, HYBRID;

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
