package io.nbench.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.nbench.protocol.Protocol;
import io.nbench.server.runtime.WorkMode;
import io.nbench.transport.ListenSettings;
import java.time.Duration;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each rule of a {@link ServerPlan}, broken through the builder a library caller uses: the message is the one
 * {@code nbench server} prints for the same option (BadValuesTest checks those through the jar), and the
 * plan's own constructor refuses what the builder would.
 */
class ServerPlanTest {

    private static ServerPlan.Business business(Duration work, int core, int max, Integer queue) {
        return new ServerPlan.Business(work, WorkMode.SLEEP, core, max, queue);
    }

    static Stream<Arguments> broken() {
        return Stream.of(
                broken(b -> b.port(-1), "--port -1 is not a TCP port: use 0 to 65535"),
                broken(b -> b.port(65536), "--port 65536 is not a TCP port: use 0 to 65535"),
                broken(b -> b.duration(Duration.ofSeconds(-1)), "--duration must not be negative"),
                broken(b -> b.idleTimeout(Duration.ZERO),
                        "--idle-timeout must be positive (leave it out to keep idle connections open)"),
                broken(b -> b.reportInterval(Duration.ofMillis(10)),
                        "--report-interval 10 ms is too short to read: use at least 100ms, e.g. 5s"),
                broken(b -> b.monitorPort(70000), "--monitor-port 70000 is not a TCP port: use 0 to 65535"),
                broken(b -> b.port(7123).monitorPort(7123),
                        "--monitor-port 7123 is the benchmark's --port: give the monitor a port of its own"),
                broken(b -> b.listen(new ListenSettings(0, 0)), "--backlog 0 queues no connection: use at least 1 "
                        + "(default 1024; Linux caps it at net.core.somaxconn)"),
                broken(b -> b.listen(new ListenSettings(1024, -1)), "--tcp-fastopen -1 is negative: use the number of "
                        + "pending Fast Open requests to queue, e.g. 256 (0 = off)"),
                broken(b -> b.transport("netty", Map.of("netty.io", "nio")).listen(new ListenSettings(1024, 16)),
                        "--tcp-fastopen 16: netty.io=nio has no TCP_FASTOPEN (Java's NIO channels): use -O "
                        + "netty.io=epoll or io_uring"),
                broken(b -> b.maxFrame(0), "--max-frame 0 accepts no payload: use at least 1 byte (default 16m)"),
                broken(b -> b.maxConnections(0), "--max-connections 0 serves nothing: use at least 1 (leave it out "
                        + "for a limit from the JVM's memory and ulimit -n)"),
                broken(b -> b.business(business(null, 200, 100, null)), "--executor-threads 200:100 is not a pool: "
                        + "use N or CORE:MAX with 1 <= CORE <= MAX, e.g. 8 or 100:200 (0 = on the I/O thread)"),
                broken(b -> b.business(business(Duration.ZERO, 0, 0, null)),
                        "--work must be positive, e.g. 50us or 1s (leave it out for none)"),
                broken(b -> b.business(business(null, 4, 4, 0)),
                        "--executor-queue 0 holds no request: use at least 1 (default 1000)"),
                broken(b -> b.business(business(null, 0, 0, 10)), "--executor-queue needs --executor-threads (the "
                        + "queue of the business pool; without it requests are processed on the I/O thread)"),
                broken(b -> b.protocol(Protocol.ECHO).business(business(Duration.ofMillis(1), 0, 0, null)),
                        "--work needs --protocol framed or http (echo has no requests to process, only bytes)"),
                broken(b -> b.protocol(Protocol.ECHO).business(business(null, 2, 2, null)),
                        "--executor-threads needs --protocol framed or http (echo has no requests to process, only bytes)"),
                broken(b -> b.responseSize(100), "--response-size needs --protocol http (framed requests say how "
                        + "large their response is)"),
                broken(b -> b.protocol(Protocol.ECHO).responseSize(1), "--response-size needs --protocol http (echo's "
                        + "response is its request)"),
                broken(b -> b.protocol(Protocol.HTTP).maxFrame(10).responseSize(11), "--response-size 11 > "
                        + "--max-frame 10: use a smaller --response-size or raise --max-frame"),
                broken(b -> b.bind(""), "--bind is empty: use an IP address such as 127.0.0.1, ::1 or 0.0.0.0"),
                broken(b -> b.bind("8.8.8.8"), "--bind 8.8.8.8 is not an address of this machine: use an IP address "
                        + "such as 127.0.0.1, ::1 or 0.0.0.0, or a host name that resolves"),
                broken(b -> b.monitorPort(0).monitorBind("8.8.8.8"), "--monitor-bind 8.8.8.8 is not an address of "
                        + "this machine: use an IP address such as 127.0.0.1, ::1 or 0.0.0.0, or a host name that "
                        + "resolves"));
    }

    private static Arguments broken(UnaryOperator<ServerPlanBuilder> change, String message) {
        return Arguments.of(message, change);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("broken")
    void eachRuleNamesTheOptionAndItsFix(String message, UnaryOperator<ServerPlanBuilder> change) {
        assertEquals(message, assertThrows(InvalidServerPlan.class,
                () -> change.apply(ServerPlan.builder().transport("nio", Map.of())).build()).getMessage());
    }

    @Test
    void theConstructorAppliesTheRulesToo() {
        ServerPlan ok = ServerPlan.builder().transport("nio", Map.of()).build();
        assertEquals("--max-frame 0 accepts no payload: use at least 1 byte (default 16m)",
                assertThrows(InvalidServerPlan.class, () -> new ServerPlan(ok.transport(), ok.transportOptions(),
                        ok.bind(), ok.port(), ok.protocol(), ok.socket(), ok.listen(), 0, 0, null, null, null, null,
                        ServerPlan.Business.NONE, null, false, null)).getMessage());
    }

    @Test
    void defaultsAreTheServerCommands() {
        ServerPlan plan = ServerPlan.builder().build();
        assertEquals(16 * 1024 * 1024, plan.maxFrame());
        assertEquals("127.0.0.1", plan.bind().getHostAddress());
        assertEquals(Protocol.FRAMED, plan.protocol());
        assertEquals(0, plan.port());
    }
}
