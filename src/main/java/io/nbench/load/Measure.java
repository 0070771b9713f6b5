package io.nbench.load;

import java.util.Locale;

/** What ends a message's latency: its response ({@code rtt}) or its hand-off to the kernel ({@code send}). */
public enum Measure {
    RTT, SEND;

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
