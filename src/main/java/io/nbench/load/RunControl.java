package io.nbench.load;

import io.nbench.protocol.Protocol;
import io.nbench.protocol.ProtocolRegistry;
import io.nbench.transport.ErrorKind;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * The state one run shares between its threads, and its stop: the effective spec, the error counts and
 * first messages, and the abort (its cause and reason, set once) that every thread may raise and every
 * waiting thread must notice at once. Connections see it only as their {@link ConnectionHost}.
 */
final class RunControl extends ConnectionHost {

    final LoadSpec spec;
    final Recorders recorders;
    /** FIFO echo connections reopened after a timeout. */
    final LongAdder reconnects = new LongAdder();
    private final Map<ErrorKind, String> firstErrors = new ConcurrentHashMap<>();
    private final AtomicInteger liveConnections = new AtomicInteger();

    /** The bytes one request takes on the wire, all of it: set by {@link ConnectionSet#open}, before the iterations. */
    int requestWireBytes;
    /**
     * The TLS handshakes of the connections {@link ConnectionSet#open} opened, before the first iteration: counted in
     * the first measured one ({@link IterationClock}), as no iteration's own reconnects are.
     */
    long openingHandshakes;

    private volatile String abortReason;
    private volatile AbortCause abortCause;
    /** The coordinator thread: woken by an abort, wherever it waits. */
    private final Thread coordinator;
    /** The threads and connections an abort wakes or stops; each set once, as they are made. */
    private volatile LoadConnection[] connections = new LoadConnection[0];
    private volatile Sender[] senders = new Sender[0];

    RunControl(LoadSpec spec, NanoClock clock, Thread coordinator) {
        super(clock, spec.verify(), spec.driver() == Driver.IO && !spec.openLoop());
        this.spec = spec;
        this.recorders = new Recorders(spec);
        this.coordinator = coordinator;
    }

    void attach(LoadConnection[] cs) {
        connections = cs;
    }

    void attach(Sender[] ss) {
        senders = ss;
    }

    boolean aborted() {
        return abortReason != null;
    }

    String abortReason() {
        return abortReason;
    }

    AbortCause abortCause() {
        return abortCause;
    }

    Map<ErrorKind, String> firstErrors() {
        Map<ErrorKind, String> first = new EnumMap<>(ErrorKind.class);
        first.putAll(firstErrors);
        return first;
    }

    @Override
    ThreadContext contextFor(Thread thread) {
        return recorders.contextFor(thread);
    }

    @Override
    void releaseContext() {
        recorders.release();
    }

    @Override
    void noteError(ErrorKind kind, String message) {
        firstErrors.putIfAbsent(kind, message);
    }

    /** A connection is about to open: counted live before its connect returns, as the server may close it at once. */
    void connectionOpening() {
        liveConnections.incrementAndGet();
    }

    /** A connection counted by {@link #connectionOpening} did not open. */
    void connectionNotOpened() {
        liveConnections.decrementAndGet();
    }

    /**
     * A connection is closed for good. When it was the last: if no request was ever answered, the server
     * closed every connection after the first request, which it does for a request it will not take (one
     * over its --max-frame, bytes that are not a framed request, such as an echo client's) and also when it
     * stops or is killed: the message names that fact, not a cause the client has no evidence for;
     * otherwise it went away.
     */
    @Override
    void connectionLost(LoadConnection c) {
        if (liveConnections.decrementAndGet() == 0) {
            if (!anyAnswered()) {
                abort(AbortCause.REFUSED_REQUEST, refusedMessage());
                return;
            }
            String cause = firstErrors.getOrDefault(ErrorKind.READ, firstErrors.get(ErrorKind.PROTOCOL));
            abort(AbortCause.CONNECTIONS_CLOSED, "all " + connections.length + " connections were closed by the server"
                    + (cause != null ? " (" + cause + ")" : "") + ": is the server still running?");
        }
    }

    private boolean anyAnswered() {
        for (LoadConnection c : connections) {
            if (c != null && c.lastAnswer() != 0) {
                return true;
            }
        }
        return false;
    }

    private String refusedMessage() {
        String closed = "the server closed every connection after the first request without answering any";
        Protocol protocol = spec.protocol();
        if (protocol != ProtocolRegistry.load().defaultProtocol()) {
            // An nbench server speaks the default protocol unless told otherwise.
            String name = protocol.label();
            return "protocol mismatch: " + closed + ": it is not " + (name.matches("[aeiou].*") ? "an " : "a ") + name
                    + " server; if it is an nbench server started without --protocol " + name + ", drop --protocol "
                    + name;
        }
        // Not "the request is too large": a server killed before its first answer closes the connections
        // the same way, and nothing the client saw tells the two apart. The server's log does.
        return closed + " (payload " + spec.size() + " bytes, response " + spec.responseSize() + " bytes): it stopped, "
                + "or it refused the request; if it is up, its log says why";
    }

    /** The peer does not speak the protocol: counted, and the run stops at once (nothing can be measured). */
    @Override
    void protocolMismatch(AbortCause cause, String message) {
        if (closing) {
            return;
        }
        errors.add(ErrorKind.PROTOCOL);
        noteError(ErrorKind.PROTOCOL, message);
        abort(cause, message);
    }

    void abort(AbortCause cause, String reason) {
        if (abortReason == null) {
            abortCause = cause;
            abortReason = reason;
        }
        stopSending = true;
        for (LoadConnection c : connections) {
            if (c != null) {
                c.remaining.set(0); // the io driver sends no more
            }
        }
        for (Sender s : senders) {
            LockSupport.unpark(s); // parked senders and pacers see stopSending at once
        }
        Thread t = coordinator;
        if (t != null) {
            LockSupport.unpark(t);
        }
    }
}
