package io.nbench.load;

/** What ends a message's latency: its response ({@code rtt}) or its hand-off to the kernel ({@code send}). */
public enum Measure {
    RTT, SEND;

    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
