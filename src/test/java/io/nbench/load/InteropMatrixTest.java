package io.nbench.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nbench.protocol.Protocol;
import io.nbench.stats.Percentiles;
import io.nbench.testkit.Runs;
import io.nbench.testkit.TestMatrix;
import io.nbench.testkit.TestServers;
import io.nbench.testkit.Transports;
import io.nbench.transport.RunningServer;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every client transport against every server transport through the real engine, asserting exact
 * message counts, zero errors and byte-exact payloads ({@code --verify full}).
 *
 * <p>The default run covers every pair with a few shapes; {@code mvn test -Pmatrix} (system property
 * {@code nbench.matrix=full}) runs the full product: framed and echo, window 1 and 16, sizes from 1 byte
 * to 100 KiB, both drivers, rtt and send.
 */
class InteropMatrixTest {

    static final boolean FULL = TestMatrix.FULL;

    record Shape(Protocol protocol, int window, int size, Driver driver, Measure measure) {
        @Override
        public String toString() {
            return protocol.label() + " w" + window + " " + size + "B " + driver.label() + " " + measure.label();
        }
    }

    static List<Shape> shapes() {
        List<Shape> shapes = new ArrayList<>();
        if (!FULL) {
            shapes.add(new Shape(Protocol.FRAMED, 1, 1, Driver.IO, Measure.RTT));
            shapes.add(new Shape(Protocol.FRAMED, 16, 100 * 1024, Driver.THREADS, Measure.RTT));
            shapes.add(new Shape(Protocol.ECHO, 16, 1024, Driver.IO, Measure.RTT));
            shapes.add(new Shape(Protocol.FRAMED, 4, 512, Driver.THREADS, Measure.SEND));
            return shapes;
        }
        for (Protocol p : List.of(Protocol.FRAMED, Protocol.ECHO)) {
            for (int w : new int[] {1, 16}) {
                for (int size : new int[] {1, 100, 1024, 5 * 1024, 64 * 1024, 100 * 1024}) {
                    for (Driver d : Driver.values()) {
                        shapes.add(new Shape(p, w, size, d, Measure.RTT));
                    }
                }
            }
        }
        for (Driver d : Driver.values()) {
            shapes.add(new Shape(Protocol.FRAMED, 10, 1024, d, Measure.SEND));
        }
        return shapes;
    }

    static Stream<Arguments> pairs() {
        List<Arguments> args = new ArrayList<>();
        for (String server : Transports.network()) {
            for (String client : Transports.network()) {
                for (Shape shape : shapes()) {
                    args.add(Arguments.of(client, server, shape));
                }
            }
        }
        for (String t : Transports.inJvm()) {
            for (Shape shape : shapes()) {
                if (shape.measure() == Measure.RTT) {
                    args.add(Arguments.of(t, t, shape));
                }
            }
        }
        return args.stream();
    }

    @ParameterizedTest(name = "{0} -> {1}: {2}")
    @MethodSource("pairs")
    void clientAgainstServer(String client, String server, Shape shape) {
        RunningServer s = TestServers.get(server, shape.protocol());
        Runs.Workload w = Runs.workload()
                .protocol(shape.protocol()).window(shape.window()).size(shape.size())
                .driver(shape.driver()).measure(shape.measure())
                .msgs(shape.size() >= 64 * 1024 ? 20 : 200);
        if (shape.measure() == Measure.SEND) {
            w.responseSize(0);
        }
        RunResult r = w.run(client, s.address());

        assertEquals(0, r.errors().total(), () -> "errors: " + r.errors().nonZero() + " " + r.firstErrors());
        assertEquals(null, r.abortReason());
        assertEquals(w.expectedMessages(), r.summary().messages(), "every message counted once");
        assertEquals(w.warmup + w.iterations, r.iterations().size());
        long previous = 0;
        for (double p : Percentiles.DEFAULT) {
            long v = r.summary().mergedPercentile(p);
            assertTrue(v >= previous, "percentiles are ordered");
            previous = v;
        }
        assertTrue(r.summary().mergedPercentile(100) > 0, "latency recorded");
    }
}
