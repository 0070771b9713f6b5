package io.nbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nbench.client.ExitCode;
import io.nbench.protocol.Protocol;
import io.nbench.testkit.NbenchProcess;
import io.nbench.testkit.StalledListener;
import io.nbench.transport.ClientTransport;
import io.nbench.transport.TransportRegistry;
import io.nbench.transport.TransportTesting;
import io.netty.channel.AbstractChannel;
import io.netty.util.internal.logging.InternalLoggerFactory;
import java.nio.channels.ClosedChannelException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.mina.util.ExceptionMonitor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * MINA and Netty log through SLF4J: whatever they log, nbench's stderr holds only nbench's own lines. Seen under
 * load: a MINA client whose connect timed out printed MINA's {@code ClosedChannelException} warning with its
 * stack trace before nbench's "connect timed out" line (MINA's processor registering a channel that had just
 * been closed reports it to MINA's exception monitor, which logs a warning).
 */
class LibraryLoggingTest {

    @TempDir
    Path dir;

    @Test
    void aMinaConnectTimeoutPrintsNbenchsLineOnly() throws Exception {
        try (StalledListener server = new StalledListener()) {
            int port = server.address().getPort();
            NbenchProcess.Result r = NbenchProcess.run(dir, "022", "client", "--impl", "mina", "--port",
                    Integer.toString(port), "--connections", "50", "--threads", "2", "--connect-timeout", "1s",
                    "--msgs", "100");
            assertEquals(ExitCode.COULD_NOT_RUN, r.exit(), r.all());
            assertEquals("nbench client: cannot connect to 127.0.0.1:" + port + " (connection 1 of 50): connect timed "
                    + "out after 1000 ms\n", r.err());
        }
    }

    /**
     * The warning itself cannot be made to happen on demand (it needs the connector thread to lose a race), so
     * a child JVM set up as nbench's own starts a MINA client and then reports a {@code ClosedChannelException} to
     * MINA's exception monitor, as MINA's processor does, and logs one through Netty's logger. By default nothing
     * reaches stderr; the documented switch shows both.
     */
    @Test
    void minaAndNettyMessagesReachStderrOnlyWhenAskedFor() throws Exception {
        NbenchProcess.Result quiet = NbenchProcess.run(dir, NbenchProcess.command(List.of(), Child.class.getName()));
        assertEquals(0, quiet.exit(), quiet.all());
        assertEquals("", quiet.err());

        NbenchProcess.Result asked = NbenchProcess.run(dir, NbenchProcess.command(
                List.of("-Dorg.slf4j.simpleLogger.defaultLogLevel=warn"), Child.class.getName()));
        assertEquals(0, asked.exit(), asked.all());
        assertTrue(asked.err().contains("org.apache.mina") && asked.err().contains("io.netty")
                && asked.err().contains("ClosedChannelException"), asked.err());

        Path log = dir.resolve("libs.log");
        NbenchProcess.Result toFile = NbenchProcess.run(dir, NbenchProcess.command(List.of(
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", "-Dorg.slf4j.simpleLogger.logFile=" + log),
                Child.class.getName()));
        assertEquals("", toFile.err());
        assertTrue(Files.readString(log).contains("ClosedChannelException"), Files.readString(log));
    }

    /** The child JVM: MINA's and Netty's loggers as a real nbench client has them. */
    public static final class Child {
        public static void main(String[] args) throws Exception {
            ClientTransport client = TransportTesting.newClient(TransportRegistry.load().get("mina"), Protocol.FRAMED,
                    false);
            try {
                ExceptionMonitor.getInstance().exceptionCaught(new ClosedChannelException());
                InternalLoggerFactory.getInstance(AbstractChannel.class)
                        .warn("Failed to close a channel.", new ClosedChannelException());
            } finally {
                client.close(); // a MINA client's threads up, as in a real run, while its loggers are used
            }
        }
    }
}
