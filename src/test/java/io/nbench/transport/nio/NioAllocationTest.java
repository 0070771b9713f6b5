package io.nbench.transport.nio;

import io.nbench.load.Driver;
import io.nbench.protocol.Protocol;
import io.nbench.testkit.NbenchProcess;
import io.nbench.transport.IoThreadAllocation;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The nio client allocates nothing per message on its selector threads in rtt mode ({@link IoThreadAllocation}). */
@Timeout(value = NbenchProcess.HANG_MINUTES + 1, unit = TimeUnit.MINUTES) // a hang: the measuring JVM is bounded too
class NioAllocationTest {

    @ParameterizedTest
    @CsvSource({"FRAMED, IO", "ECHO, IO", "FRAMED, THREADS", "ECHO, THREADS"})
    void noAllocationPerMessageOnTheSelectorThreads(Protocol protocol, Driver driver) throws Exception {
        IoThreadAllocation.assertNonePerMessage("nio", "netty", "nbench-nio-client-", protocol, driver, 100, 4, 2);
    }
}
