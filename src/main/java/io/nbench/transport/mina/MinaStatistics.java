package io.nbench.transport.mina;

import java.lang.reflect.Field;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;
import org.apache.mina.core.service.IoService;
import org.apache.mina.core.service.IoServiceStatistics;

/**
 * The {@code mina.stats} modes. MINA 2.2's {@link IoServiceStatistics} guards every counter with one
 * {@code ReentrantLock} per service, taken by every thread that writes to a session and by every
 * NioProcessor, which is the cost a MINA client pays by default. Its methods are final, so the only ways to change the
 * cost are MINA's own switch ({@code Config.setStatisticsCalcEnabled}) or swapping the lock object.
 */
final class MinaStatistics {

    static final String ON = "on";
    static final String OFF = "off";
    static final String SPIN_LOCK = "spin-lock";
    static final String NOOP_LOCK = "noop-lock";
    static final List<String> MODES = List.of(ON, OFF, SPIN_LOCK, NOOP_LOCK);

    private static final String LOCK_FIELD = "throughputCalculationLock";

    private MinaStatistics() {
    }

    /** Applies {@code mode} to the service's statistics; call before the service binds or connects. */
    static void apply(IoService service, String mode) {
        IoServiceStatistics stats = service.getStatistics();
        switch (mode) {
            case ON -> {
            }
            case OFF -> stats.getConfig().setStatisticsCalcEnabled(false);
            case SPIN_LOCK -> replaceLock(stats, new SpinLock());
            case NOOP_LOCK -> replaceLock(stats, new NoopLock());
            default -> throw new IllegalArgumentException("unknown mina statistics mode " + mode);
        }
    }

    /** The mode as the output header shows it: what it costs and whether the counts can be trusted. */
    static String describe(String mode) {
        return switch (mode) {
            case ON -> "on (ReentrantLock)";
            case OFF -> "off (setStatisticsCalcEnabled(false))";
            case SPIN_LOCK -> "spin-lock (counts exact)";
            default -> "noop-lock (counts unreliable)";
        };
    }

    static void replaceLock(IoServiceStatistics stats, Lock lock) {
        try {
            Field f = IoServiceStatistics.class.getDeclaredField(LOCK_FIELD);
            f.setAccessible(true);
            f.set(stats, lock);
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalStateException("cannot replace IoServiceStatistics." + LOCK_FIELD
                    + " in this MINA version: " + e, e);
        }
    }

    static Lock currentLock(IoServiceStatistics stats) {
        try {
            Field f = IoServiceStatistics.class.getDeclaredField(LOCK_FIELD);
            f.setAccessible(true);
            return (Lock) f.get(stats);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * A reentrant lock that never parks: waiters spin, so a contended counter update costs a few cache
     * misses instead of a park/unpark pair. Reentrant because the lock is MINA's to use as it likes.
     * With 2 cores the holder may be descheduled while others spin, so spinners yield now and then.
     */
    static final class SpinLock implements Lock {

        private static final int SPINS_BEFORE_YIELD = 64;

        private final AtomicReference<Thread> owner = new AtomicReference<>();
        /** Touched only by the owner. */
        private int holds;

        @Override
        public void lock() {
            Thread me = Thread.currentThread();
            if (owner.get() == me) {
                holds++;
                return;
            }
            int spins = 0;
            while (!owner.compareAndSet(null, me)) {
                if (++spins % SPINS_BEFORE_YIELD == 0) {
                    Thread.yield();
                } else {
                    Thread.onSpinWait();
                }
            }
            holds = 1;
        }

        @Override
        public void lockInterruptibly() throws InterruptedException {
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
            lock();
        }

        @Override
        public boolean tryLock() {
            Thread me = Thread.currentThread();
            if (owner.get() == me) {
                holds++;
                return true;
            }
            if (owner.compareAndSet(null, me)) {
                holds = 1;
                return true;
            }
            return false;
        }

        @Override
        public boolean tryLock(long time, TimeUnit unit) throws InterruptedException {
            long deadline = System.nanoTime() + unit.toNanos(time);
            while (!tryLock()) {
                if (Thread.interrupted()) {
                    throw new InterruptedException();
                }
                if (System.nanoTime() - deadline >= 0) {
                    return false;
                }
                Thread.onSpinWait();
            }
            return true;
        }

        @Override
        public void unlock() {
            if (owner.get() != Thread.currentThread()) {
                throw new IllegalMonitorStateException("spin lock not held by " + Thread.currentThread().getName());
            }
            if (--holds == 0) {
                owner.set(null);
            }
        }

        @Override
        public Condition newCondition() {
            throw new UnsupportedOperationException("IoServiceStatistics never waits on its lock");
        }
    }

    /** The lock removed outright (as some patched MINA builds do): concurrent counter updates can be lost. */
    static final class NoopLock implements Lock {

        @Override
        public void lock() {
        }

        @Override
        public void lockInterruptibly() {
        }

        @Override
        public boolean tryLock() {
            return true;
        }

        @Override
        public boolean tryLock(long time, TimeUnit unit) {
            return true;
        }

        @Override
        public void unlock() {
        }

        @Override
        public Condition newCondition() {
            throw new UnsupportedOperationException("IoServiceStatistics never waits on its lock");
        }
    }
}
