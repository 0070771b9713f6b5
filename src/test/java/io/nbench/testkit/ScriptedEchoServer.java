package io.nbench.testkit;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An RFC 862 echo server that holds each message before echoing it, for testing first-in first-out
 * matching: it reads the client's fixed-size messages and echoes each one {@code hold(connection,
 * message)} nanoseconds after it arrived, in order, as a real echo server must (a message held longer
 * holds every later one on its connection behind it). Connections and messages are numbered from 0 in
 * the order they arrive. Plain blocking sockets, a reader and a writer thread per connection.
 */
public final class ScriptedEchoServer implements AutoCloseable {

    /** How long to hold message {@code message} of connection {@code connection}, in nanoseconds. */
    @FunctionalInterface
    public interface Hold {
        long nanos(int connection, int message);
    }

    private record Due(long at, byte[] bytes) {
    }

    private static final Due END = new Due(0, new byte[0]);

    private final ServerSocket listener;
    private final int size;
    private final Hold hold;
    private final AtomicInteger connections = new AtomicInteger();
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private final List<Thread> threads = new CopyOnWriteArrayList<>();
    private volatile boolean closed;

    public ScriptedEchoServer(int size, Hold hold) throws IOException {
        this.size = size;
        this.hold = hold;
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        start(this::accept, "echo-accept");
    }

    public InetSocketAddress address() {
        return new InetSocketAddress(listener.getInetAddress(), listener.getLocalPort());
    }

    /** Connections accepted so far. */
    public int connections() {
        return connections.get();
    }

    private void start(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        threads.add(t);
        t.start();
    }

    private void accept() {
        while (!closed) {
            try {
                Socket s = listener.accept();
                s.setTcpNoDelay(true);
                sockets.add(s);
                int number = connections.getAndIncrement();
                BlockingQueue<Due> queue = new LinkedBlockingQueue<>();
                start(() -> read(s, number, queue), "echo-read-" + number);
                start(() -> write(s, queue), "echo-write-" + number);
            } catch (IOException e) {
                return;
            }
        }
    }

    private void read(Socket s, int connection, BlockingQueue<Due> queue) {
        try {
            DataInputStream in = new DataInputStream(s.getInputStream());
            for (int message = 0; !closed; message++) {
                byte[] b = new byte[size];
                in.readFully(b);
                queue.add(new Due(System.nanoTime() + hold.nanos(connection, message), b));
            }
        } catch (IOException e) {
            // the client closed the connection, or we did
        } finally {
            queue.add(END);
        }
    }

    private void write(Socket s, BlockingQueue<Due> queue) {
        try (s) {
            OutputStream out = s.getOutputStream();
            for (;;) {
                Due d = queue.take();
                if (d == END) {
                    return;
                }
                long wait;
                while ((wait = d.at() - System.nanoTime()) > 0) {
                    TimeUnit.NANOSECONDS.sleep(wait);
                }
                out.write(d.bytes());
                out.flush();
            }
        } catch (IOException | InterruptedException e) {
            // closed
        }
    }

    @Override
    public void close() {
        closed = true;
        try {
            listener.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        for (Socket s : sockets) {
            try {
                s.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
        for (Thread t : threads) {
            t.interrupt();
            try {
                t.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
