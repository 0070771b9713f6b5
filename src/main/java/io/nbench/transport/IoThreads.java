package io.nbench.transport;

import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;

/**
 * How many I/O threads (event loops, selector loops, NioProcessors) a client or server gets when the user
 * gives none ({@code --io-threads 0}): the one place this default is decided, so that every transport with
 * I/O threads receives a resolved number and none decides on its own.
 *
 * <p>Why not always every core: a client whose server runs on the same machine shares its cores. On 2 cores,
 * two client event loops plus the server's threads took the server's CPU and shrank each loop's read batches
 * (more system calls per message): the nio and netty clients reached 0.55-0.57x the C reference client with
 * 2 loops against 0.73-0.80x with 1 (50 connections x window 16, 1 KiB echo). So client and server each
 * take half the cores when they share a machine; a server alone keeps them all, since it cannot know where
 * its clients run.
 */
public final class IoThreads {

    private IoThreads() {
    }

    /** The processors this JVM may use. */
    public static int cores() {
        return Runtime.getRuntime().availableProcessors();
    }

    /** A server that cannot know where its clients run: {@code given}, or every core. */
    public static int allCores(int given) {
        return given > 0 ? given : cores();
    }

    /** A server whose client runs on this machine ({@code nbench run}): {@code given}, or half the cores. */
    public static int sharingTheMachine(int given) {
        return given > 0 ? given : half(cores());
    }

    /**
     * A client's I/O threads: {@code given} as it is; else half the cores when the server is on this machine
     * (it needs the other half), all of them otherwise; never more than the connections, since a loop without
     * a connection only costs a thread.
     */
    public static int client(int given, InetAddress server, int connections) {
        return client(given, isThisMachine(server), connections, cores());
    }

    /** {@link #client(int, InetAddress, int)} with the locality and the core count given (testable on any host). */
    public static int client(int given, boolean serverOnThisMachine, int connections, int cores) {
        if (given > 0) {
            return given;
        }
        int n = serverOnThisMachine ? half(cores) : cores;
        return Math.max(1, Math.min(n, connections));
    }

    /** Half the cores, at least 1. */
    static int half(int cores) {
        return Math.max(1, cores / 2);
    }

    /**
     * True when {@code address} is this machine: loopback (127.0.0.0/8, ::1), the wildcard, or an address of one
     * of its interfaces (a server named by the host's own LAN address still shares these cores). An unresolved
     * address (null) counts as remote.
     */
    public static boolean isThisMachine(InetAddress address) {
        if (address == null) {
            return false;
        }
        if (address.isLoopbackAddress() || address.isAnyLocalAddress()) {
            return true;
        }
        try {
            return NetworkInterface.getByInetAddress(address) != null;
        } catch (SocketException e) {
            return false; // cannot tell: assume a remote server, the long-standing default
        }
    }
}
