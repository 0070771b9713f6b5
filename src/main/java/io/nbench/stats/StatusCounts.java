package io.nbench.stats;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Responses by status code (HTTP's 100 to 599; any other code counted as 0): one {@link LongAdder} per
 * code, made up front so that counting allocates nothing and takes no lock.
 */
public final class StatusCounts {

    private static final int FIRST = 100;
    private static final int LAST = 599;
    /** Where a code outside 100-599 is counted. */
    private static final int OTHER = LAST - FIRST + 1;

    private final LongAdder[] byCode = new LongAdder[OTHER + 1];

    public StatusCounts() {
        for (int i = 0; i < byCode.length; i++) {
            byCode[i] = new LongAdder();
        }
    }

    public void add(int code) {
        byCode[code >= FIRST && code <= LAST ? code - FIRST : OTHER].increment();
    }

    /** The codes seen, in order, with their counts (0 for a code outside 100-599). */
    public Map<Integer, Long> snapshot() {
        Map<Integer, Long> map = new TreeMap<>();
        for (int i = 0; i < byCode.length; i++) {
            long n = byCode[i].sum();
            if (n != 0) {
                map.put(i == OTHER ? 0 : FIRST + i, n);
            }
        }
        return map;
    }
}
