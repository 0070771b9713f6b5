package io.nbench.transport.probe;

import io.nbench.protocol.Framed;
import io.nbench.protocol.Protocol;
import io.nbench.transport.BaseTransport;
import io.nbench.transport.ClientSettings;
import io.nbench.transport.ClientTransport;
import io.nbench.transport.RunningServer;
import io.nbench.transport.ServerEvents;
import io.nbench.transport.ServerSettings;
import io.nbench.transport.support.RequestPipeline;
import io.nbench.transport.support.Threads;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The proof of docs/architecture.md's "add a server transport" recipe: a server transport in one class that
 * only moves bytes, with the plainest blocking code (an acceptor thread, a thread per connection reading whole
 * frames), and hands every decoded request to a {@link RequestPipeline}, which does the rest: {@code --work},
 * nbench's business pool, response order, rejection, processing time and the request counts. Registered by
 * one line, {@code src/test/resources/probe-transport/META-INF/services/io.nbench.transport.Transport},
 * which {@link ProbeTransportTest} puts on the class path of a real {@code nbench server --impl probe}.
 * Framed protocol only; it allocates per request, which a test may.
 */
public final class ProbeTransport extends BaseTransport {

    public ProbeTransport() {
        super("probe", "a test's server transport: blocking, a thread per connection, whole frames", List.of(), null);
    }

    @Override
    public RunningServer startServer(ServerSettings settings, ServerEvents events) throws IOException {
        if (settings.protocol() != Protocol.FRAMED) {
            throw new IOException("the probe transport serves the framed protocol only");
        }
        ServerSocket server = new ServerSocket();
        server.bind(settings.bind());
        Set<Socket> open = ConcurrentHashMap.newKeySet();
        Thread acceptor = new Thread(() -> {
            while (true) {
                try {
                    Socket socket = server.accept();
                    if (!events.connectionOpened()) {
                        socket.close();
                        continue;
                    }
                    open.add(socket);
                    Thread t = new Thread(() -> serve(socket, settings, events, open), "probe-connection");
                    t.setDaemon(true);
                    t.start();
                } catch (IOException e) {
                    return; // closed
                }
            }
        }, "probe-accept");
        acceptor.start();
        return new RunningServer() {
            @Override
            public InetSocketAddress address() {
                return (InetSocketAddress) server.getLocalSocketAddress();
            }

            @Override
            public Map<String, String> effectiveConfig() {
                return Map.of("threads", "one per connection");
            }

            @Override
            public void close() {
                try {
                    server.close();
                    for (Socket s : open) {
                        s.close();
                    }
                } catch (IOException e) {
                    // closing anyway
                }
                Threads.join(acceptor);
            }
        };
    }

    private static void serve(Socket socket, ServerSettings settings, ServerEvents events, Set<Socket> open) {
        try (socket) {
            DataInputStream in = new DataInputStream(new BufferedInputStream(socket.getInputStream()));
            OutputStream out = new BufferedOutputStream(socket.getOutputStream());
            RequestPipeline<ByteBuffer> requests = RequestPipeline.of(settings.runtime(), events, new Responses(socket, out));
            try {
                while (true) {
                    long frameLength = Framed.unsigned(in.readInt());
                    long responseLength = Framed.unsigned(in.readInt());
                    String bad = Framed.checkRequest(frameLength, responseLength, settings.maxFrame());
                    if (bad != null) {
                        events.protocolError(String.valueOf(socket.getRemoteSocketAddress()), bad);
                        return;
                    }
                    long id = in.readLong();
                    byte[] payload = new byte[(int) frameLength - Framed.MIN_REQUEST_FRAME];
                    in.readFully(payload);
                    ByteBuffer response = responseLength > 0 ? response(id, payload, (int) responseLength) : null;
                    requests.decoded(id, 4 + (int) frameLength, responseLength > 0
                            ? Framed.RESPONSE_HEADER + (int) responseLength : 0, response);
                    if (in.available() == 0) {
                        synchronized (out) {
                            out.flush();
                        }
                        requests.flushed();
                    }
                }
            } finally {
                requests.close();
            }
        } catch (IOException e) {
            // the peer left (EOFException), reset, or closed by close()
        } finally {
            open.remove(socket);
            events.connectionClosed();
        }
    }

    /** Puts responses on the connection: inline into the read batch, from the pool one by one. */
    private record Responses(Socket socket, OutputStream out) implements RequestPipeline.Writer<ByteBuffer> {
        @Override
        public void write(ByteBuffer response) {
            synchronized (out) {
                try {
                    out.write(response.array(), 0, response.limit()); // flushed with the read batch
                } catch (IOException e) {
                    close(socket);
                }
            }
        }

        @Override
        public void send(ByteBuffer response) {
            synchronized (out) {
                write(response);
                try {
                    out.flush();
                } catch (IOException e) {
                    close(socket);
                }
            }
        }

        @Override
        public int reject(long id, ByteBuffer response) {
            send(ByteBuffer.wrap(Framed.rejectedResponse(id)));
            return Framed.RESPONSE_HEADER;
        }

        @Override
        public void end() {
            close(socket); // framed never ends a connection: not reached
        }

        @Override
        public void discard(ByteBuffer response) {
            // a heap buffer: nothing to give back
        }
    }

    private static ByteBuffer response(long id, byte[] payload, int responseLength) {
        ByteBuffer r = ByteBuffer.allocate(Framed.RESPONSE_HEADER + responseLength);
        r.putInt(Framed.responseFrameLength(Framed.STATUS_OK, responseLength)).putLong(id).put((byte) Framed.STATUS_OK);
        r.put(payload, 0, Math.min(payload.length, responseLength));
        return r.clear();
    }

    private static void close(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // already gone
        }
    }

    @Override
    public ClientTransport newClient(ClientSettings settings) throws IOException {
        throw new IOException("the probe is a server transport only: run the client with another --impl");
    }
}
