package io.nbench.protocol;

import java.util.Locale;

/** The wire protocols nbench speaks (docs/protocol.md; the byte-level vectors are in the protocol tests). */
public enum Protocol {
    /** Length-prefixed requests with a response length and an id; responses carry the id and a status. */
    FRAMED,
    /** RFC 862: the server writes back every byte it reads; responses are counted per message size. */
    ECHO;

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Protocol parse(String text) {
        for (Protocol p : values()) {
            if (p.label().equals(text.toLowerCase(Locale.ROOT))) {
                return p;
            }
        }
        throw new IllegalArgumentException("unknown protocol '" + text + "': use framed or echo");
    }
}
