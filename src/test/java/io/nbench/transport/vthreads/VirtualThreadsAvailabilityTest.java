package io.nbench.transport.vthreads;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nbench.protocol.Protocol;
import io.nbench.transport.Availability;
import io.nbench.transport.ServerEvents;
import io.nbench.transport.TransportTesting;
import java.io.IOException;
import org.junit.jupiter.api.Test;

class VirtualThreadsAvailabilityTest {

    @Test
    void availableExactlyFromJava21() throws Exception {
        Availability a = new VirtualThreadsTransport().availability();
        boolean expected = Runtime.version().feature() >= 21;
        assertEquals(expected, a.available(), a.reason());
        if (!expected) {
            assertTrue(a.reason().startsWith("requires Java 21+ (this JVM is " + Runtime.version().feature()), a.reason());
            IOException e = assertThrows(IOException.class, () -> TransportTesting.startServer(new VirtualThreadsTransport(),
                    Protocol.FRAMED, ServerEvents.NONE));
            assertTrue(e.getMessage().contains("requires Java 21+"), e.getMessage());
        } else {
            Thread t = VirtualThreads.maker().newThread("probe", () -> { });
            assertTrue((Boolean) Thread.class.getMethod("isVirtual").invoke(t));
        }
    }
}
