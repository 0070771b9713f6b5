package io.nbench.cli;

import io.nbench.client.ExitCode;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nbench.protocol.Protocol;
import org.junit.jupiter.api.Test;

/** {@code --threshold} at the edges a user reaches: p100 (the true maximum) is a metric, p0 is not. */
class ThresholdCliTest {

    private static CliTest.Outcome client(String threshold) {
        return CliTest.run("client", "--port", CliTest.port(Protocol.FRAMED), "--threads", "1", "--msgs", "50",
                "--warmup", "0", "--iterations", "1", "--quiet", "--threshold", threshold);
    }

    @Test
    void p100IsAccepted() {
        CliTest.Outcome o = client("p100<10s");
        assertEquals(ExitCode.OK, o.code(), o.err() + o.out());
        assertEquals(ExitCode.THRESHOLD, client("p100<1ns").code(), "and judged on the maximum");
    }

    @Test
    void p0IsAUsageError() {
        CliTest.Outcome o = client("p0<1ms");
        assertEquals(ExitCode.USAGE, o.code());
        assertTrue(o.err().contains("unknown metric 'p0'"), o.err());
    }

    @Test
    void aLatencyWithoutAUnitIsAUsageErrorNamingTheUnit() {
        CliTest.Outcome o = client("p99<2");
        assertEquals(ExitCode.USAGE, o.code(), o.err() + o.out());
        assertTrue(o.err().contains("give a unit: p99<2ms, 2us, 2s"), o.err());
        assertEquals(ExitCode.OK, client("p99<10s").code(), "with a unit it passes");
    }
}
