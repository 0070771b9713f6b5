/**
 * {@code vthreads}: the {@code blocking} transport's code on virtual threads (JDK 21+), reached by
 * method handles because nbench compiles for Java 17; on older JVMs it is listed as unavailable with
 * the reason. Same sockets, parsing and locking as {@code blocking}, so the two compare the thread
 * model alone. Locks are {@code ReentrantLock}s, which do not pin a virtual thread's carrier while it
 * is blocked in a socket write (JDK 21-23). Unlike {@code blocking}, each park and unpark of a virtual
 * thread allocates (its stack is copied to the heap), so this client allocates per message.
 */
package io.nbench.transport.vthreads;
