package io.nbench.cli;

import java.io.PrintWriter;
import java.io.Writer;

/**
 * A client report's header and nothing after it: its first line and the indented lines under it (transport,
 * jvm, machine, load, message; not the round's own iterations), so that {@code nbench run} without {@code --verbose} says once what its client
 * runs and how, and prints each round as one line ({@link RoundLine}).
 */
final class HeaderOnly extends Writer {

    private final PrintWriter out;
    private final StringBuilder line = new StringBuilder();
    private int lines;
    private boolean done;

    private HeaderOnly(PrintWriter out) {
        this.out = out;
    }

    /** A writer that passes {@code out} the header of what is written to it. */
    static PrintWriter to(PrintWriter out) {
        return new PrintWriter(new HeaderOnly(out), true);
    }

    @Override
    public void write(char[] chars, int off, int len) {
        for (int i = off; i < off + len && !done; i++) {
            char c = chars[i];
            if (c == '\n') {
                String l = line.toString();
                line.setLength(0);
                if (lines > 0 && !l.startsWith("  ")) {
                    done = true;
                } else if (l.startsWith("  iterations: ") || l.startsWith("  plan: ")) {
                    continue; // one round's: run's plan is its own
                } else if (lines > 0 || !l.isEmpty()) {
                    out.println(l);
                    lines++;
                }
            } else if (c != '\r') {
                line.append(c);
            }
        }
    }

    @Override
    public void flush() {
        out.flush();
    }

    @Override
    public void close() {
        flush();
    }
}
