package io.nbench.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.HdrHistogram.HistogramLogWriter;
import org.junit.jupiter.api.Test;

class SweepTest {

    @Test
    void productVariesTheLastDimensionFastest() {
        Sweep s = new Sweep().add("impl", List.of("netty", "mina")).add("size", List.of("1024", "5120"))
                .add("threads", List.of("4"));
        List<String> names = s.product((m, k) -> true).stream().map(Combination::name).toList();
        assertEquals(List.of("impl=netty,size=1024,threads=4", "impl=netty,size=5120,threads=4",
                "impl=mina,size=1024,threads=4", "impl=mina,size=5120,threads=4"), names);
        assertEquals(List.of("impl", "size", "threads"), s.keys());
    }

    @Test
    void keysThatDoNotApplyAreDroppedAndDuplicatesRunOnce() {
        Sweep s = new Sweep().add("impl", List.of("netty", "mina")).add("netty.io", List.of("nio", "epoll"));
        List<Combination> c = s.product((m, k) -> !k.equals("netty.io") || m.get("impl").equals("netty"));
        assertEquals(List.of("impl=netty,netty.io=nio", "impl=netty,netty.io=epoll", "impl=mina"),
                c.stream().map(Combination::name).toList());
    }

    /** HdrHistogram's log format splits lines on commas, so a tag must have none (nor spaces). */
    @Test
    void tagIsLegalForHdrHistogramLogsAndFileNameIsPlain() {
        Combination c = new Combination(Map.of("impl", "netty"));
        Combination odd = new Combination(new LinkedHashMap<>(Map.of("x.opt", "a b,c")));
        assertEquals("x.opt=a_b_c", odd.tag());
        assertEquals("impl-netty", c.fileName());
        assertEquals("x.opt-a_b_c", odd.fileName());

        Histogram h = new Histogram(3);
        h.recordValue(42);
        h.setTag(odd.tag() + ";iter=1");
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        HistogramLogWriter w = new HistogramLogWriter(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        w.outputIntervalHistogram(0, 1, h, 1e6);
        Histogram back = (Histogram) new HistogramLogReader(new ByteArrayInputStream(bytes.toByteArray()))
                .nextIntervalHistogram();
        assertEquals("x.opt=a_b_c;iter=1", back.getTag());
        assertEquals(1, back.getTotalCount());

    }
}
