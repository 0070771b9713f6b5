/**
 * {@code blocking}: {@code java.net.Socket} with a thread per connection, server and client, and the
 * code {@code vthreads} runs on virtual threads ({@link io.nbench.transport.blocking.ThreadMaker} is the
 * only difference).
 *
 * <p><b>Server.</b> An acceptor thread and one thread per connection that reads into a
 * {@code <name>.buffer} buffer, parses with the protocol's {@link io.nbench.protocol.ServerCodec}
 * and writes the responses of each read with one write. A peer that does not read blocks that thread in
 * its write, which stops it reading: per-connection buffering is bounded by the two buffers.
 *
 * <p><b>Client.</b> One reader thread per connection decodes responses
 * ({@link io.nbench.transport.support.ResponseDecoder}) and calls the handler. {@code send(id)} writes on the
 * calling thread under a per-connection lock (inherent to blocking sockets: a write blocks until the
 * kernel has every byte, so concurrent senders must take turns); the reader thread never waits for that
 * lock. {@code --io-threads} does not apply.
 *
 * <p><b>{@code --measure send}</b>: {@code OutputStream.write} of the request returned, i.e. the kernel
 * accepted its last byte.
 */
package io.nbench.transport.blocking;
