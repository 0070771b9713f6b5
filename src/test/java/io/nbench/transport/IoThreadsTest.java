package io.nbench.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nbench.protocol.Protocol;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The I/O thread default: where the server is decides, the connections cap it, a given number is kept. */
class IoThreadsTest {

    @Test
    void aServerOnThisMachineLeavesItHalfTheCores() {
        assertEquals(4, IoThreads.client(0, true, 50, 8));
        assertEquals(1, IoThreads.client(0, true, 50, 2));
        assertEquals(1, IoThreads.client(0, true, 50, 3));
        assertEquals(1, IoThreads.client(0, true, 50, 1), "at least one");
    }

    @Test
    void aRemoteServerGetsEveryCore() {
        assertEquals(8, IoThreads.client(0, false, 50, 8));
        assertEquals(2, IoThreads.client(0, false, 50, 2));
    }

    @Test
    void neverMoreLoopsThanConnections() {
        assertEquals(3, IoThreads.client(0, false, 3, 8));
        assertEquals(2, IoThreads.client(0, true, 2, 8));
        assertEquals(1, IoThreads.client(0, false, 1, 8));
    }

    @Test
    void aGivenNumberIsKeptAsGiven() {
        assertEquals(6, IoThreads.client(6, true, 2, 2));
        assertEquals(6, IoThreads.client(6, false, 50, 8));
        assertEquals(5, IoThreads.allCores(5));
        assertEquals(5, IoThreads.sharingTheMachine(5));
    }

    @Test
    void serversAloneTakeEveryCoreAndBesideTheirClientHalf() {
        int cores = Runtime.getRuntime().availableProcessors();
        assertEquals(cores, IoThreads.allCores(0));
        assertEquals(Math.max(1, cores / 2), IoThreads.sharingTheMachine(0));
    }

    @Test
    void loopbackWildcardAndOwnInterfacesAreThisMachine() throws Exception {
        assertTrue(IoThreads.isThisMachine(InetAddress.getByName("127.0.0.1")));
        assertTrue(IoThreads.isThisMachine(InetAddress.getByName("127.3.2.1")));
        assertTrue(IoThreads.isThisMachine(InetAddress.getByName("::1")));
        assertTrue(IoThreads.isThisMachine(InetAddress.getByName("0.0.0.0")));
        // Every address of this host's own interfaces, e.g. its LAN address.
        NetworkInterface.networkInterfaces().flatMap(NetworkInterface::inetAddresses)
                .forEach(a -> assertTrue(IoThreads.isThisMachine(a), a.toString()));
    }

    @Test
    void otherAddressesAreRemote() throws Exception {
        // TEST-NET-1 and -3 (RFC 5737): documentation addresses, never assigned to an interface.
        assertFalse(IoThreads.isThisMachine(InetAddress.getByName("192.0.2.1")));
        assertFalse(IoThreads.isThisMachine(InetAddress.getByName("203.0.113.7")));
        assertFalse(IoThreads.isThisMachine(null), "unresolved");
        int cores = Runtime.getRuntime().availableProcessors();
        assertEquals(Math.min(cores, 64), IoThreads.client(0, InetAddress.getByName("192.0.2.1"), 64),
                "a remote server: every core");
    }

    @Test
    void transportsNeverSeeAnUnresolvedCount() {
        int cores = Runtime.getRuntime().availableProcessors();
        SocketSettings unresolved = new SocketSettings(0, true, 0, 0);
        assertEquals(cores, new ClientSettings(Protocol.ECHO, unresolved, Duration.ofSeconds(1),
                false, 1024, null).socket().ioThreads());
        assertEquals(3, new ClientSettings(Protocol.ECHO, unresolved.withIoThreads(3),
                Duration.ofSeconds(1), false, 1024, null).socket().ioThreads());
    }
}
