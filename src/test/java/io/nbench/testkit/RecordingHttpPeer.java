package io.nbench.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * An HTTP peer that answers every request on every connection with one scripted reply and keeps each request's
 * head as it read it off the wire: its request line, then its header lines in name order, and the body its
 * Content-Length gives, byte for byte. Blocking sockets on one daemon thread; {@link #close()} stops it.
 */
public final class RecordingHttpPeer implements AutoCloseable {

    private final ServerSocket server;
    private final byte[] reply;
    private final Queue<List<String>> heads = new ConcurrentLinkedQueue<>();
    private final Queue<byte[]> bodies = new ConcurrentLinkedQueue<>();

    public RecordingHttpPeer(byte[] reply) throws IOException {
        this.reply = reply;
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread peer = new Thread(this::serve, "recording-http");
        peer.setDaemon(true);
        peer.start();
    }

    public int port() {
        return server.getLocalPort();
    }

    /** The heads read so far, each its request line and then its header lines in name order. */
    public List<List<String>> heads() {
        return List.copyOf(heads);
    }

    /** The bodies read so far, one per request in the order read (empty for a request without one). */
    public List<byte[]> bodies() {
        return List.copyOf(bodies);
    }

    private void serve() {
        while (!server.isClosed()) {
            try (Socket s = server.accept()) {
                InputStream in = s.getInputStream();
                StringBuilder line = new StringBuilder();
                List<String> head = new ArrayList<>();
                int b;
                while ((b = in.read()) >= 0) {
                    if (b != '\n') {
                        line.append((char) b);
                        continue;
                    }
                    String text = line.toString().strip();
                    line.setLength(0);
                    if (!text.isEmpty()) {
                        head.add(text);
                        continue;
                    }
                    bodies.add(in.readNBytes(contentLength(head)));
                    List<String> sorted = new ArrayList<>(head.subList(1, head.size()));
                    sorted.sort(null);
                    sorted.add(0, head.get(0));
                    heads.add(List.copyOf(sorted));
                    head.clear();
                    s.getOutputStream().write(reply);
                    s.getOutputStream().flush();
                }
            } catch (IOException closed) {
                // the client went away, or the test ended: accept the next or stop
            }
        }
    }

    private static int contentLength(List<String> head) {
        return head.stream().filter(h -> h.toLowerCase(Locale.ROOT).startsWith("content-length:"))
                .mapToInt(h -> Integer.parseInt(h.substring(h.indexOf(':') + 1).trim())).findFirst().orElse(0);
    }

    @Override
    public void close() throws IOException {
        server.close();
    }
}
