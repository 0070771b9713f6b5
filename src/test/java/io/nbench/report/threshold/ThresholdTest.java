package io.nbench.report.threshold;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nbench.load.RunResult;
import io.nbench.protocol.Protocol;
import io.nbench.testkit.Runs;
import io.nbench.testkit.TestServers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The --threshold grammar (METRIC OP VALUE) and its judgement on a real run. */
class ThresholdTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "p99<2ms          | p99        | <  | 2000000",
        "p99.9 <= 500us   | p99.9      | <= | 500000",
        "p50<250µs        | p50        | <  | 250000",
        "p50<250μs        | p50        | <  | 250000",
        "max < 1.5s       | max        | <  | 1500000000",
        "p90<800ns        | p90        | <  | 800",
        "p99<0            | p99        | <  | 0",
        "mean>=1us        | mean       | >= | 1000",
        "throughput>100k  | throughput | >  | 100000",
        "throughput>=1.5M | throughput | >= | 1500000",
        "throughput>5000  | throughput | >  | 5000",
        "errors==0        | errors     | == | 0",
        "errors != 3      | errors     | != | 3",
        "error-rate<0.1%  | error-rate | <  | 0.1",
        "ERROR-RATE<1     | error-rate | <  | 1",
    })
    void parsesIntoBaseUnits(String expression, String metric, String op, double limit) {
        Threshold t = Threshold.parse(expression);
        assertEquals(metric, t.metric().name());
        assertEquals(op, t.operator().symbol());
        assertEquals(limit, t.limit(), 1e-6);
        assertEquals(expression, t.expression());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "p99         | METRIC OP VALUE",
        "p99<        | no value",
        "p99=>2ms    | METRIC OP VALUE",
        "<2ms        | METRIC OP VALUE",
        "latency<2ms | unknown metric 'latency'",
        "p101<2ms    | unknown metric 'p101'",
        "p99<2h      | unknown latency unit 'h'",
        "p99<fast    | not a latency",
        "p99<2       | give a unit: p99<2ms, 2us, 2s",
        "max>=1.5    | give a unit: max>=1.5ms, 1.5us, 1.5s",
        "throughput>1g | unknown throughput suffix 'g'",
        "errors==none  | not a count",
    })
    void malformedExpressionsSayWhatIsAccepted(String expression, String message) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Threshold.parse(expression));
        assertTrue(e.getMessage().startsWith("--threshold '" + expression + "'"), e.getMessage());
        assertTrue(e.getMessage().contains(message), e.getMessage());
    }

    @Test
    void operatorsCompareActualOnTheLeft() {
        assertTrue(Operator.LT.holds(1, 2));
        assertFalse(Operator.LT.holds(2, 2));
        assertTrue(Operator.LE.holds(2, 2));
        assertTrue(Operator.GT.holds(3, 2));
        assertTrue(Operator.GE.holds(2, 2));
        assertTrue(Operator.EQ.holds(0, 0));
        assertTrue(Operator.NE.holds(1, 0));
        assertFalse(Operator.NE.holds(Double.NaN, 0), "nothing measured never passes");
    }

    @Test
    void judgedOnTheMergedFiguresOfARealRun() {
        RunResult r = Runs.workload().run("netty", TestServers.get("netty", Protocol.FRAMED).address());
        long p99 = r.summary().mergedPercentile(99);
        assertTrue(Threshold.parse("p99<=" + p99 + "ns").judge(r).passed());
        assertFalse(Threshold.parse("p99<" + p99 + "ns").judge(r).passed());
        assertEquals(r.summary().throughput().mean(), Threshold.parse("throughput>0").judge(r).actual());
        assertTrue(Threshold.parse("errors==0").judge(r).passed());
        assertTrue(Threshold.parse("error-rate==0%").judge(r).passed());
        assertEquals(r.summary().merged().getMaxValue(), Threshold.parse("max<1s").judge(r).actual());
        Threshold.Outcome o = Threshold.parse("p50<1ns").judge(r);
        assertFalse(o.passed());
        assertTrue(o.describe().startsWith("p50<1ns (p50 = "), o.describe());
        assertTrue(o.describe().endsWith(" µs)"), o.describe());
    }
}
