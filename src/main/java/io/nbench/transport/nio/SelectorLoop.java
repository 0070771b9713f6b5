package io.nbench.transport.nio;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Consumer;

/**
 * One selector and the thread that runs it. Uses {@link Selector#select(Consumer)} (JDK 11+), which
 * hands each ready key straight to the callback instead of adding it to the selected-key set: the set's
 * {@code HashSet.add} allocates a node per ready key, which would be an allocation per message on the
 * client's hot path.
 *
 * <p>Other threads reach the loop only through {@link #execute} (registration, close), never per message.
 */
final class SelectorLoop implements Runnable {

    /** What a key's attachment implements. Called on the loop thread only. */
    interface Selectable {
        /** The key is ready for what its interest set asked. */
        void ready(SelectionKey key);

        /** The loop is stopping: close without further events other than the closing ones. */
        void shutdown();
    }

    private final Selector selector;
    private final Thread thread;
    private final Queue<Runnable> tasks = new ConcurrentLinkedQueue<>();
    private final Consumer<SelectionKey> dispatch = SelectorLoop::dispatch;
    private volatile boolean stopping;
    private volatile boolean terminated;

    SelectorLoop(String name) throws IOException {
        this.selector = Selector.open();
        this.thread = new Thread(this, name);
        this.thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    Selector selector() {
        return selector;
    }

    boolean inLoop() {
        return Thread.currentThread() == thread;
    }

    /**
     * Runs {@code task} on the loop thread. Returns false, without running it, when the loop has
     * already stopped (the caller then does the work itself: nothing can race with a dead loop).
     */
    boolean execute(Runnable task) {
        if (terminated) {
            return false;
        }
        tasks.add(task);
        selector.wakeup();
        if (terminated && tasks.remove(task)) {
            return false;
        }
        return true;
    }

    /** Wakes the loop so that an interest-set change made by another thread takes effect. */
    void wakeup() {
        selector.wakeup();
    }

    private static void dispatch(SelectionKey key) {
        ((Selectable) key.attachment()).ready(key);
    }

    @Override
    public void run() {
        try {
            while (!stopping) {
                selector.select(dispatch);
                runTasks();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("selector loop " + thread.getName() + " failed", e);
        } catch (ClosedSelectorException e) {
            // closed under us: only happens on shutdown
        } finally {
            terminated = true;
            runTasks();
            List<SelectionKey> keys = new ArrayList<>(selector.keys());
            for (SelectionKey key : keys) {
                ((Selectable) key.attachment()).shutdown();
            }
            try {
                selector.close();
            } catch (IOException e) {
                // nothing left to release
            }
        }
    }

    private void runTasks() {
        Runnable task;
        while ((task = tasks.poll()) != null) {
            task.run();
        }
    }

    /** Stops the loop, closing every channel registered with it, and waits for its thread to end. */
    void close() {
        if (thread.getState() == Thread.State.NEW) {
            try {
                selector.close();
            } catch (IOException e) {
                // nothing left to release
            }
            return;
        }
        stopping = true;
        selector.wakeup();
        if (inLoop()) {
            return;
        }
        boolean interrupted = false;
        while (thread.isAlive()) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
