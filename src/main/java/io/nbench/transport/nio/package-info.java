/**
 * {@code nio}: plain JDK NIO, no framework, the baseline the frameworks are judged against.
 *
 * <p><b>Threads.</b> Server: one acceptor thread blocking in {@code accept()} and {@code --io-threads}
 * selector loops (default: cores); each accepted connection is handed to a loop round-robin once and
 * stays there. Client: {@code --io-threads} loops shared by all connections, round-robin; connecting is
 * a blocking connect on the caller's thread, bounded by {@code --connect-timeout}. Loops use
 * {@code Selector.select(Consumer)}, which does not allocate per ready key.
 *
 * <p><b>Server.</b> Per connection a read buffer and a write buffer of {@code nio.buffer} bytes
 * (direct unless {@code nio.direct=false}), never grown: each read is parsed by the protocol's
 * {@link io.nbench.protocol.ServerCodec} (framed's checks headers as soon as their bytes arrive and
 * streams payloads into the responses; echo's copies the bytes back), and the responses of one read go out
 * with one write. A partial write arms OP_WRITE and stops reading until the backlog is written, so a
 * connection buffers at most its two buffers whatever its peer does, and a 16 MiB frame passes through
 * 64 KiB buffers.
 *
 * <p><b>Client.</b> All connections of a loop read into the loop's one read buffer
 * ({@link io.nbench.transport.nio.SharedReadBuffer}, {@code nio.buffer} bytes, grown only if the server sends a
 * larger frame), which stays in the core's cache however many connections there are; responses are decoded
 * there, in place ({@link io.nbench.transport.support.ResponseDecoder}), and a connection keeps only the
 * bytes of an incomplete response. Each connection has its own write buffer. {@code send(id)} may come
 * from any thread; the loop thread's sends during a read batch are written under one lock acquisition
 * when it ends; see {@link io.nbench.transport.nio.NioClientConnection} for the locking argument. In rtt mode the client's
 * selector threads allocate nothing per message ({@code NioAllocationTest}), with one exception outside
 * nbench's reach: the JDK's epoll selector looks each ready file descriptor up in a
 * {@code HashMap<Integer, SelectionKeyImpl>}, boxing it, and descriptors of 128 and above are outside
 * the Integer cache, so past a hundred or so connections every ready event allocates 16 bytes
 * (measured: 9.8 B/msg with 300 connections). {@code -XX:AutoBoxCacheMax=65536} on the client JVM
 * removes it (measured: 0.0 B/msg); it affects every NIO-based transport alike (MINA, Netty's nio).
 *
 * <p><b>{@code --measure send}</b>: the request's last byte was accepted by {@code SocketChannel.write} (with
 * {@code --tls}: wrapped into a TLS record and handed to the socket, or kept to write on OP_WRITE).
 *
 * <p><b>TLS</b> ({@code --tls}): each connection reads and writes through a {@link io.nbench.transport.nio.Wire},
 * the channel itself or {@link io.nbench.transport.nio.TlsWire} (the JDK's {@code SSLEngine}, {@link
 * io.nbench.transport.nio.NioTls}); the connections' buffers, backpressure and locking are the same with both.
 */
package io.nbench.transport.nio;
