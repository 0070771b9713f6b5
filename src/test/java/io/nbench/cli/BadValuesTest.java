package io.nbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.nbench.client.ExitCode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Values that are meaningless or would end in an exception later (a negative thread count, an address that
 * does not exist, an -O key nobody uses, counts that overflow) are refused before anything starts: exit 2
 * and exactly one line on stderr naming the problem and the fix, nothing on stdout. The client lines
 * point at a port where nothing listens, so a value that is wrongly accepted ends in exit 1, not 2.
 */
class BadValuesTest {

    private static final String FREE_PORT = freePort();

    private static String freePort() {
        try (ServerSocket s = new ServerSocket(0)) {
            return Integer.toString(s.getLocalPort());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "client --io-threads -1 --msgs 10"
            + "| --io-threads -1 is negative: use 0 (automatic) or a positive count (see 'nbench client --help')",
        // --size 0 alone: the error names what the user gave, not the --response-size it defaulted from.
        "client --size 0 --msgs 10"
            + "| --size 0 sends empty requests, and the response is as large as the request unless --response-size "
            + "says otherwise, so there is no response to time: give --response-size 1 or more, or use --measure "
            + "send (see 'nbench client --help')",
        "client --max-errors 150% --msgs 10"
            + "| --max-errors '150%' is more than 100%: use a percentage from 0% to 100%, or a count such as 10 "
            + "(see 'nbench client --help')",
        "client --max-errors -3 --msgs 10"
            + "| --max-errors '-3' is negative: use 0 (no error tolerated) or more, or a percentage such as 0.1% "
            + "(see 'nbench client --help')",
        "server --io-threads -3 --duration 1s"
            + "| --io-threads -3 is negative: use 0 (automatic) or a positive count (see 'nbench server --help')",
        "run --server-io-threads -2"
            + "| --server-io-threads -2 is negative: use 0 (automatic) or a positive count (see 'nbench run --help')",
        "server --bind 999.1.1.1 --duration 1s"
            + "| --bind 999.1.1.1 is not an address of this machine: use an IP address such as 127.0.0.1, ::1 or "
            + "0.0.0.0, or a host name that resolves (see 'nbench server --help')",
        "server --bind= --duration 1s"
            + "| --bind is empty: use an IP address such as 127.0.0.1, ::1 or 0.0.0.0 (see 'nbench server --help')",
        "client --host= --msgs 10"
            + "| --host is empty: name the server, e.g. --host 127.0.0.1 (see 'nbench client --help')",
        "client --impl nio -O netty.io=epoll --msgs 10"
            + "| -O netty.io is an option of transport netty, which this command does not use (--impl nio): leave it "
            + "out or add netty to --impl (see 'nbench client --help')",
        "server --impl mina -O netty.io=epoll --duration 1s"
            + "| -O netty.io is an option of transport netty, which this command does not use (--impl mina): leave "
            + "it out or use --impl netty (see 'nbench server --help')",
        "run --servers nio --impl nio -O mina.stats=off"
            + "| -O mina.stats is an option of transport mina, which neither the client (--impl nio) nor a server "
            + "(--servers nio) uses: leave it out (see 'nbench run --help')",
        "client --msgs 4611686018427387904 --warmup 0 --iterations 1"
            + "| --msgs 4611686018427387904 x --threads 4 x 1 iterations (warmup included) is more messages than "
            + "nbench counts: use a smaller --msgs (see 'nbench client --help')",
        "client --msgs 2305843009213693952 --warmup 3 --iterations 10 --threads 1"
            + "| --msgs 2305843009213693952 x --threads 1 x 13 iterations (warmup included) is more messages than "
            + "nbench counts: use a smaller --msgs (see 'nbench client --help')",
        "client --window 300000000 --msgs 10"
            + "| --window 300000000 is more than one connection tracks: use at most 268435456 (see 'nbench client --help')",
        "client --rate 1k --max-inflight 300000000 --msgs 10"
            + "| --max-inflight 300000000 is more than one connection tracks: use at most 268435456 (see 'nbench "
            + "client --help')",
        "client --batch 2000000000 --threads 8 --connections 1 --msgs 10"
            + "| --batch 2000000000 x 8 threads per connection is more than one connection tracks: use at most "
            + "268435456 messages in flight per connection (see 'nbench client --help')",
        "server --bind 8.8.8.8 --duration 1s"
            + "| --bind 8.8.8.8 is not an address of this machine: use an IP address such as 127.0.0.1, ::1 or "
            + "0.0.0.0, or a host name that resolves (see 'nbench server --help')",
        "client --warmup 2147483647 --iterations 1 --msgs 1"
            + "| --warmup 2147483647 + --iterations 1 is more iterations than nbench counts: use at most 2147483647 "
            + "in all (see 'nbench client --help')",
        "client --iteration-time 1000000h --iterations 1000 --warmup 0"
            + "| --iteration-time 60000000 min x 1000 iterations (warmup included) is longer than nbench times: use a "
            + "shorter --iteration-time or fewer iterations (see 'nbench client --help')",
        "client --rate 1e300 --msgs 1"
            + "| --rate 1.0E300 over 4 connections is more than one message per nanosecond per connection: use at "
            + "most 4000000000 (see 'nbench client --help')",
        "server --backlog 0 --duration 1s"
            + "| --backlog 0 queues no connection: use at least 1 (default 1024; Linux caps it at net.core.somaxconn) "
            + "(see 'nbench server --help')",
        "server --tcp-fastopen -1 --duration 1s"
            + "| --tcp-fastopen -1 is negative: use the number of pending Fast Open requests to queue, e.g. 256 (0 = "
            + "off) (see 'nbench server --help')",
        "server --impl netty -O netty.io=nio --tcp-fastopen 16 --duration 1s"
            + "| --tcp-fastopen 16: netty.io=nio has no TCP_FASTOPEN (Java's NIO channels): use -O netty.io=epoll or "
            + "io_uring (see 'nbench server --help')",
        "server --max-frame 0 --duration 1s"
            + "| --max-frame 0 accepts no payload: use at least 1 byte (default 16m) (see 'nbench server --help')",
        "server --work 0ms --duration 1s"
            + "| --work must be positive, e.g. 50us or 1s (leave it out for none) (see 'nbench server --help')",
        "server --work-mode nap --duration 1s"
            + "| Invalid value for option '--work-mode': 'nap' is not a work mode: use sleep, spin or delay (see "
            + "'nbench server --help')",
        "server --work 1s --work-mode delay --executor-threads 4 --duration 1s"
            + "| --work-mode delay holds no thread while it waits, so --executor-threads has nothing to run: leave "
            + "out --executor-threads, or use --work-mode sleep to block pool threads (see 'nbench server --help')",
        "server --executor-threads 200:100 --duration 1s"
            + "| --executor-threads 200:100: CORE 200 > MAX 100: use N or CORE:MAX with 1 <= CORE <= MAX, e.g. 8 or "
            + "100:200 (0 = on the I/O thread) (see 'nbench server --help')",
        "server --executor-threads -1 --duration 1s"
            + "| --executor-threads -1 has no thread: use N or CORE:MAX with 1 <= CORE <= MAX, e.g. 8 or 100:200 (0 = "
            + "on the I/O thread) (see 'nbench server --help')",
        "server --executor-threads 4:x --duration 1s"
            + "| --executor-threads '4:x' is not a thread count: use N or CORE:MAX with 1 <= CORE <= MAX, e.g. 8 or "
            + "100:200 (0 = on the I/O thread) (see 'nbench server --help')",
        "server --executor-threads 4 --executor-queue 0 --duration 1s"
            + "| --executor-queue 0 holds no request: use at least 1 (default 1000) (see 'nbench server --help')",
        "server --executor-queue 10 --duration 1s"
            + "| --executor-queue needs --executor-threads (the queue of the business pool; without it requests are "
            + "processed on the I/O thread) (see 'nbench server --help')",
        "server --protocol echo --work 1ms --duration 1s"
            + "| --work needs --protocol framed or http (echo has no requests to process, only bytes) (see 'nbench server "
            + "--help')",
        "server --protocol echo --executor-threads 2 --duration 1s"
            + "| --executor-threads needs --protocol framed or http (echo has no requests to process, only bytes) (see "
            + "'nbench server --help')",
        "server --response-size 100 --duration 1s"
            + "| --response-size needs --protocol http (framed requests say how large their response is) (see "
            + "'nbench server --help')",
        "server --monitor-port 70000 --duration 1s"
            + "| --monitor-port 70000 is not a TCP port: use 0 to 65535 (see 'nbench server --help')",
        "server --report-interval 10ms --duration 1s"
            + "| --report-interval 10 ms is too short to read: use at least 100ms, e.g. 5s (see 'nbench server --help')",
        "client --server-stats --msgs 10"
            + "| --server-stats needs --monitor-port: the port the server was started with (nbench server "
            + "--monitor-port N) (see 'nbench client --help')",
        "client --monitor-port 7070 --msgs 10"
            + "| --monitor-host, --monitor-port and --monitor-token-file are for --server-stats: add it, or leave "
            + "them out (see 'nbench client --help')",
        "console --monitor-port 0"
            + "| --monitor-port 0 is not a TCP port: use 1 to 65535 (see 'nbench console --help')",
        // A port inside --host was looked up as a host name: 'unknown host', exit 1 (issue 41).
        "client --host 127.0.0.1:7007 --msgs 10"
            + "| Invalid value for option '--host': '127.0.0.1:7007' holds a port: a host takes none; give "
            + "--host 127.0.0.1 --port 7007 (see 'nbench client --help')",
        "client --host [::1]:7007 --msgs 10"
            + "| Invalid value for option '--host': '[::1]:7007' holds a port: a host takes none; give "
            + "--host ::1 --port 7007 (see 'nbench client --help')",
        // An in-JVM transport can never serve or reach a network peer: a usage error, not exit 1 (issue 41).
        "server --impl netty-local"
            + "| transport netty-local runs inside one JVM only; it has no network server or client (use it through "
            + "the in-process tests or nbench run --in-process) (see 'nbench server --help')",
        "console"
            + "| nbench console needs --monitor-port: the port the server was started with (nbench server "
            + "--monitor-port N) (see 'nbench console --help')",
    })
    void refusedWithExit2AndOneLine(String line, String message) {
        String[] args = (line + (line.startsWith("client") ? " --port " + FREE_PORT
                : line.startsWith("server") ? " --port 0" : "")).split(" ");
        CliTest.Outcome o = CliTest.run(args);
        assertEquals("nbench: " + message + "\n", o.err(), line);
        assertEquals(ExitCode.USAGE, o.code(), line);
        assertEquals("", o.out(), line);
    }

    @org.junit.jupiter.api.Test
    void theMonitorCannotShareTheBenchmarksPort() {
        CliTest.Outcome o = CliTest.run("server", "--port", "27123", "--monitor-port", "27123", "--duration", "1s");
        assertEquals("nbench: --monitor-port 27123 is the benchmark's --port: give the monitor a port of its own "
                + "(see 'nbench server --help')\n", o.err());
        assertEquals(ExitCode.USAGE, o.code());
    }
}
