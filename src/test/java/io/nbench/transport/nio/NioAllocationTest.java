package io.nbench.transport.nio;

import io.nbench.load.Driver;
import io.nbench.protocol.Protocol;
import io.nbench.testkit.NbenchProcess;
import io.nbench.testkit.TestMatrix;
import io.nbench.transport.IoThreadAllocation;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The nio client allocates nothing per message on its selector threads in rtt mode ({@link IoThreadAllocation}). */
@Timeout(value = NbenchProcess.HANG_MINUTES + 1, unit = TimeUnit.MINUTES) // a hang: the measuring JVM is bounded too
class NioAllocationTest {

    /**
     * Each protocol and each driver once in every commit's run (a JVM and some 720,000 messages a case, some
     * 15 s each); {@code -Pmatrix} adds the two other pairs.
     */
    static Stream<Arguments> cases() {
        Stream<Arguments> each = Stream.of(Arguments.of(Protocol.FRAMED, Driver.IO),
                Arguments.of(Protocol.ECHO, Driver.THREADS));
        return TestMatrix.FULL ? Stream.concat(each, Stream.of(Arguments.of(Protocol.ECHO, Driver.IO),
                Arguments.of(Protocol.FRAMED, Driver.THREADS))) : each;
    }

    @ParameterizedTest
    @MethodSource("cases")
    void noAllocationPerMessageOnTheSelectorThreads(Protocol protocol, Driver driver) throws Exception {
        IoThreadAllocation.assertNonePerMessage("nio", "netty", "nbench-nio-client-", protocol, driver, 100, 4, 2);
    }
}
