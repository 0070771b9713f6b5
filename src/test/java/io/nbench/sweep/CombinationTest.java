package io.nbench.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** One combination's keys as the sweep, the report and the file names read them. */
class CombinationTest {

    private static Combination combination() {
        Map<String, String> keys = new LinkedHashMap<>();
        keys.put("impl", "netty");
        keys.put("size", "1024");
        keys.put("threads", "4");
        return new Combination(keys);
    }

    @Test
    void readsKeys() {
        Combination c = combination();
        assertEquals("netty", c.get("impl"));
        assertNull(c.get("window"));
        assertEquals(1024, c.intValue("size"));
        assertEquals("combination has no key window",
                assertThrows(IllegalStateException.class, () -> c.intValue("window")).getMessage());
    }

    @Test
    void replacesAValueInPlace() {
        Combination c = combination().with("size", "5120");
        assertEquals("impl=netty,size=5120,threads=4", c.name());
        assertEquals("impl=netty,size=5120,threads=4", c.toString());
        assertEquals("impl=netty,size=1024,threads=4", combination().name(), "the original is unchanged");
        assertEquals(c.name(), c.with("nosuch", "1").name(), "an absent key is not added");
    }
}
