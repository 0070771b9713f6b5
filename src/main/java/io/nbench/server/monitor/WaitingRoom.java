package io.nbench.server.monitor;

import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;

/**
 * The monitor's connections that have not authenticated yet, kept apart from the authenticated sessions so that
 * peers without the token can never take the operator's place: before, four such peers reconnecting as soon as
 * they were closed held all four slots for good. Far more may wait than may be served ({@link #capacity}), at most
 * {@link #perAddress} from one address; one beyond either limit displaces the oldest waiting one (of its address,
 * else of all), never the newcomer: a client with the token authenticates within a round trip of connecting,
 * while a squatter has to outnumber the limit, not merely reconnect, to displace it. Accessed by the accept thread
 * and the connections' threads, a few times per connection: a monitor lock is the simple choice here.
 */
final class WaitingRoom {

    private final int capacity;
    private final int perAddress;
    private final ArrayDeque<Socket> oldestFirst = new ArrayDeque<>();
    private final Map<InetAddress, Integer> byAddress = new HashMap<>();

    WaitingRoom(int capacity, int perAddress) {
        this.capacity = capacity;
        this.perAddress = perAddress;
    }

    /** Lets {@code newcomer} wait; returns the connection displaced for it (closed already), or null. */
    synchronized Socket enter(Socket newcomer) {
        InetAddress from = newcomer.getInetAddress();
        Socket displaced = null;
        if (byAddress.getOrDefault(from, 0) >= perAddress) {
            displaced = oldest(from);
        } else if (oldestFirst.size() >= capacity) {
            displaced = oldestFirst.peekFirst();
        }
        if (displaced != null) {
            remove(displaced);
            close(displaced); // its thread's read ends with an exception: the connection is over
        }
        oldestFirst.addLast(newcomer);
        byAddress.merge(from, 1, Integer::sum);
        return displaced;
    }

    /** {@code s} authenticated, or closed: it waits no more. False if it was not waiting (displaced). */
    synchronized boolean leave(Socket s) {
        return remove(s);
    }

    synchronized int waiting() {
        return oldestFirst.size();
    }

    private Socket oldest(InetAddress from) {
        for (Socket s : oldestFirst) {
            if (s.getInetAddress().equals(from)) {
                return s;
            }
        }
        return null;
    }

    private boolean remove(Socket s) {
        for (Iterator<Socket> it = oldestFirst.iterator(); it.hasNext(); ) {
            if (it.next() == s) {
                it.remove();
                byAddress.computeIfPresent(s.getInetAddress(), (a, n) -> n == 1 ? null : n - 1);
                return true;
            }
        }
        return false;
    }

    private static void close(Socket s) {
        try {
            s.close();
        } catch (IOException e) {
            // closing a connection we give up on: nothing more to do
        }
    }
}
