package io.nbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.nbench.client.ExitCode;
import io.nbench.transport.TransportRegistry;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code nbench completion bash|zsh}: the script, sourced in a real bash, completes commands and options. */
class CompletionTest {

    /** The words bash would offer after {@code line} (the cursor at its end), with the script sourced. */
    static String complete(Path script, String... words) throws Exception {
        String array = String.join(" ", Arrays.stream(words).map(w -> "'" + w + "'").toList());
        String line = String.join(" ", words);
        String program = "source '" + script + "'; COMP_WORDS=(" + array + "); COMP_CWORD=" + (words.length - 1)
                + "; COMP_LINE='" + line + "'; COMP_POINT=" + line.length() + "; _complete_nbench nbench '"
                + words[words.length - 1] + "' '" + words[words.length - 2] + "'; echo \"${COMPREPLY[*]}\"";
        Process p = new ProcessBuilder("bash", "-c", program).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), out);
        return String.join(" ", new TreeSet<>(List.of(out.strip().split("\\s+"))));
    }

    @Test
    void bashCompletesCommandsAndOptions(@TempDir Path dir) throws Exception {
        assumeTrue(new File("/bin/bash").canExecute() || new File("/usr/bin/bash").canExecute(), "bash");
        CliTest.Outcome o = CliTest.run("completion", "bash");
        assertEquals(0, o.code(), o.err());
        assertEquals("", o.err());
        Path script = Files.writeString(dir.resolve("nbench.bash"), o.out());
        assertEquals("client compare completion console", complete(script, "nbench", "c"));
        assertEquals("--threads --threshold", complete(script, "nbench", "client", "--thr"));
        assertEquals("--server-io-threads --server-stats --servers", complete(script, "nbench", "run", "--serv"));
        // Transport names and -O keys come from the registry (a transport a jar adds is completed too).
        String names = String.join(" ", new TreeSet<>(TransportRegistry.load().names()));
        assertEquals(names, complete(script, "nbench", "client", "--impl", ""));
        assertEquals(names, complete(script, "nbench", "run", "--servers", ""));
        assertEquals("netty.io=auto netty.io=epoll netty.io=io_uring netty.io=nio",
                complete(script, "nbench", "server", "-O", "netty.io"));
        assertEquals("nio.buffer= nio.direct=false nio.direct=true", complete(script, "nbench", "client", "-O", "nio."));
    }

    @Test
    void zshGetsTheSameScriptThroughBashcompinit() {
        CliTest.Outcome zsh = CliTest.run("completion", "zsh");
        assertEquals(0, zsh.code(), zsh.err());
        assertEquals(CliTest.run("completion", "bash").out(), zsh.out());
        assertTrue(zsh.out().contains("autoload -U +X bashcompinit && bashcompinit"), zsh.out());
    }

    @Test
    void anotherShellIsAUsageError() {
        CliTest.Outcome o = CliTest.run("completion", "fish");
        assertEquals(ExitCode.USAGE, o.code());
        assertTrue(o.err().contains("expected one of [BASH, ZSH]"), o.err());
    }
}
