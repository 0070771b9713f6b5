package io.nbench.testkit;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;

/**
 * A framed-protocol server that misbehaves on purpose, for testing how the client copes: per request
 * (numbered from 0 across all connections) a script says to answer, stay silent, answer late, reject,
 * corrupt the payload or close every connection. Plain blocking sockets, one thread per connection;
 * {@link #close()} stops everything.
 */
public final class ScriptedServer implements AutoCloseable {

    /**
     * What to do with one request. DELAY_400MS and PAUSE_300MS hold up the connection (later requests
     * wait behind it); LATE_900MS answers this request 900 ms later from another thread while later
     * requests are answered at once. ANSWER_TWICE writes the same response twice in one write, as a broken
     * server might: the second answers no request.
     */
    public enum Action { ANSWER, SILENT, REJECT, CORRUPT, CLOSE_ALL, DELAY_400MS, PAUSE_300MS, LATE_900MS, SLOW_1MS,
        ANSWER_TWICE }

    private final ServerSocket listener;
    private final IntFunction<Action> script;
    private final AtomicInteger requests = new AtomicInteger();
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private final List<Thread> threads = new CopyOnWriteArrayList<>();
    private volatile boolean closed;

    public ScriptedServer(IntFunction<Action> script) throws IOException {
        this.script = script;
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(this::accept, "scripted-accept");
        acceptor.setDaemon(true);
        threads.add(acceptor);
        acceptor.start();
    }

    public InetSocketAddress address() {
        return new InetSocketAddress(listener.getInetAddress(), listener.getLocalPort());
    }

    public int requests() {
        return requests.get();
    }

    private void accept() {
        while (!closed) {
            try {
                Socket s = listener.accept();
                s.setTcpNoDelay(true);
                sockets.add(s);
                Thread t = new Thread(() -> serve(s), "scripted-conn");
                t.setDaemon(true);
                threads.add(t);
                t.start();
            } catch (IOException e) {
                return;
            }
        }
    }

    private void serve(Socket s) {
        try (s) {
            DataInputStream in = new DataInputStream(s.getInputStream());
            DataOutputStream out = new DataOutputStream(s.getOutputStream());
            while (!closed) {
                int frameLength = in.readInt();
                int responseLength = in.readInt();
                long id = in.readLong();
                byte[] payload = in.readNBytes(frameLength - 12);
                Action action = script.apply(requests.getAndIncrement());
                switch (action) {
                    case SILENT -> {
                        continue;
                    }
                    case CLOSE_ALL -> {
                        closeConnections();
                        return;
                    }
                    case DELAY_400MS -> sleep(400);
                    case PAUSE_300MS -> sleep(300);
                    case SLOW_1MS -> sleep(1);
                    default -> {
                    }
                }
                if (responseLength == 0) {
                    continue;
                }
                if (action == Action.LATE_900MS) {
                    byte[] late = response(id, responseLength, payload, false);
                    Thread t = new Thread(() -> {
                        sleep(900);
                        synchronized (out) {
                            try {
                                out.write(late);
                                out.flush();
                            } catch (IOException ignored) {
                                // the client is gone: nothing to be late for
                            }
                        }
                    }, "scripted-late");
                    t.setDaemon(true);
                    threads.add(t);
                    t.start();
                    continue;
                }
                synchronized (out) {
                    if (action == Action.REJECT) {
                        out.writeInt(9);
                        out.writeLong(id);
                        out.writeByte(1);
                    } else {
                        byte[] response = response(id, responseLength, payload, action == Action.CORRUPT);
                        if (action == Action.ANSWER_TWICE) {
                            byte[] twice = Arrays.copyOf(response, 2 * response.length);
                            System.arraycopy(response, 0, twice, response.length, response.length);
                            response = twice;
                        }
                        out.write(response);
                    }
                    out.flush();
                }
            }
        } catch (IOException e) {
            // peer closed or we closed: done
        }
    }

    private static byte[] response(long id, int responseLength, byte[] payload, boolean corrupt) {
        ByteBuffer b = ByteBuffer.allocate(13 + responseLength);
        b.putInt(9 + responseLength).putLong(id).put((byte) 0);
        byte[] body = new byte[responseLength];
        System.arraycopy(payload, 0, body, 0, Math.min(payload.length, responseLength));
        if (corrupt) {
            body[responseLength - 1] ^= 0x5A;
        }
        return b.put(body).array();
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void closeConnections() {
        for (Socket s : sockets) {
            try {
                s.close();
            } catch (IOException ignored) {
                // closing anyway
            }
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
        closeConnections();
        for (Thread t : threads) {
            try {
                t.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
