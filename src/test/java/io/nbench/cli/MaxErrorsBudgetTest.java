package io.nbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nbench.client.ExitCode;
import io.nbench.testkit.ScriptedServer;
import io.nbench.testkit.ScriptedServer.Action;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@code --max-errors P%} is a share of every message of the run, warmup included (docs/outputs.md: errors
 * are counted over the whole run, "as --max-errors"): the verdict judges the whole run's errors against the
 * whole run's messages, and the live budget that stops a run early (once the FAIL is certain) is that share
 * of every message planned, warmup iterations included.
 *
 * <p>4 threads x 50 msgs, 1 warmup + 1 measured iteration: 400 messages planned. Every 16th request is never
 * answered: 25 timeouts in all. The last request of each iteration is answered 900 ms late, well inside the
 * 3 s timeout, so the server is heard from after the unanswered ones and the stall rule (no answer at all for
 * the timeout) stays out of it: the unanswered ones expire at most 2.1 s after that answer, a margin a busy
 * machine's scheduling does not eat (with a 1 s timeout the margin was 0.1 s, and a loaded run aborted).
 */
class MaxErrorsBudgetTest {

    private static CliTest.Outcome run(String maxErrors) throws Exception {
        try (ScriptedServer server = new ScriptedServer(i -> i % 16 == 3 ? Action.SILENT
                : i % 200 == 199 ? Action.LATE_900MS : Action.ANSWER)) {
            return CliTest.run("client", "--port", Integer.toString(server.address().getPort()), "--threads", "4",
                    "--window", "8", "--msgs", "50", "--warmup", "1", "--iterations", "1", "--timeout", "3s",
                    "--max-errors", maxErrors);
        }
    }

    @Test
    void aRunInsideItsShareOfEveryMessageIncludingWarmupPasses() throws Exception {
        // 25 timeouts of 400 messages: 6.25 %, inside 10 % (a budget of 40), though more than 10 % of the
        // measured iteration's 200 messages alone (20).
        CliTest.Outcome o = run("10%");
        assertEquals(ExitCode.OK, o.code(), o.out() + o.err());
        assertEquals("", o.err());
        assertTrue(o.out().contains("Errors: 25 (timeout=25)"), o.out());
        assertTrue(o.out().contains("Result: PASS"), o.out());
    }

    @Test
    void theLiveBudgetIsTheShareOfEveryMessagePlanned() throws Exception {
        // 5 % of 400 = 20: past 20 timeouts the FAIL is certain, and the run stops there.
        CliTest.Outcome o = run("5%");
        assertEquals(ExitCode.COULD_NOT_RUN, o.code(), o.out() + o.err());
        Matcher m = Pattern.compile("nbench client: run aborted: (\\d+) errors \\(timeout=\\1\\) > --max-errors 5% "
                + "\\(20 of the 400 messages planned\\): the server is not answering; raise --max-errors to tolerate "
                + "errors").matcher(o.err().strip());
        assertTrue(m.matches(), o.err());
        assertTrue(Integer.parseInt(m.group(1)) > 20, o.err());
    }
}
