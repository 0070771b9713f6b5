package io.nbench.transport.blocking;

/**
 * Makes the threads of the blocking transport: platform threads for {@code blocking}, virtual threads
 * for {@code vthreads}. The only thing the two transports do differently.
 */
public interface ThreadMaker {

    /** An unstarted thread that runs {@code task}. */
    Thread newThread(String name, Runnable task);

    /** For the effective configuration, e.g. "platform thread per connection". */
    String describe();

    /** Daemon platform threads. */
    ThreadMaker PLATFORM = new ThreadMaker() {
        @Override
        public Thread newThread(String name, Runnable task) {
            Thread t = new Thread(task, name);
            t.setDaemon(true);
            return t;
        }

        @Override
        public String describe() {
            return "platform thread per connection";
        }
    };
}
