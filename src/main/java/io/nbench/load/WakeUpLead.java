package io.nbench.load;

/**
 * How long before its next message a {@code --pacer hybrid} pacer stops sleeping, learned from how late its
 * own sleeps wake up on this machine. A park overshoots by the OS timer slack plus the wake-up of a thread
 * that was descheduled: on a 2-core VM, a no-work HTTP round trip at 2,000/s measured 136-192 µs with the
 * pacers parking and 42-81 µs with them spinning (bench/http-client.sh), so most of a sub-millisecond
 * figure was the client's own lateness. Parking that much early and spinning the rest sends on time for the
 * price of a short spin per message.
 *
 * <p>Only when messages are far enough apart that the spin stays a small share of the time ({@link #SHARE}):
 * at higher rates the pacer parks to the due time, as {@code --pacer sleep} does, because
 * a pacer spinning most of the time would take the core a local server needs, and at those rates the
 * catch-up after a late wake-up sends several messages at once anyway.
 *
 * <p>One per pacer thread; not thread-safe.
 */
final class WakeUpLead {

    /**
     * Parks early only while the expected spin is at most 1/(SHARE x pacers) of the wait: all the pacers of a run
     * together spin at most a quarter of one core, however many there are ({@code --threads 50} is 50 pacers).
     * An eighth was too tight: on a 2-core VM whose parks wake 100-150 µs late the spin after a wake-up is 60-85
     * µs, more than 1/16 of a millisecond, so the 2 pacers of bench/http-client.sh (1,000 messages/s each) parked
     * whole and measured what {@code sleep} did (+11 to +17 % over the server's own 1 ms, against +4 to +5 % for
     * {@code spin}).
     */
    static final int SHARE = 4;
    /**
     * The lead is the mean overshoot, half as much again and this: a wake-up somewhat later than the mean is still
     * early, and what is left to spin after a wake-up of the mean lateness is half of it and this.
     */
    static final long MARGIN_NANOS = 10_000;
    /** What one wake-up may teach at most: a GC pause or a descheduled VM is not the timer's slack. */
    static final long CAP_NANOS = 500_000;

    /** SHARE x the run's pacers. */
    private final long share;
    /** The mean overshoot of this thread's parks, in ns, weighted to the recent ones (1/8 each). */
    private long meanOvershoot;
    /** The due time an early park woke ahead of (spin until then), or {@link Long#MIN_VALUE}. */
    private long spinningUntil = Long.MIN_VALUE;

    /** @param pacers the pacer threads of the run, this one included */
    WakeUpLead(int pacers) {
        this.share = (long) SHARE * Math.max(1, pacers);
    }

    /**
     * How long to park for a message due at {@code due}, {@code now} being the time: the wait less the lead
     * when the lead is a small share of it (the pacer then spins until {@code due}: {@link #spinsUntil}), else
     * the whole wait.
     */
    long parkFor(long due, long now) {
        long wait = due - now;
        long spin = meanOvershoot / 2 + MARGIN_NANOS; // what is left to spin after a wake-up of the mean lateness
        long lead = meanOvershoot + spin;
        if (wait >= share * spin && wait > lead) {
            spinningUntil = due;
            return wait - lead;
        }
        spinningUntil = Long.MIN_VALUE;
        return wait;
    }

    /** True when the message due at {@code due} is the one an early park woke ahead of: spin, do not park again. */
    boolean spinsUntil(long due) {
        return due == spinningUntil;
    }

    /**
     * A park of {@code asked} ns returned after {@code slept}. One that returned early (an unpark, an abort)
     * says nothing about the timer and is not counted.
     */
    void woke(long asked, long slept) {
        long over = slept - asked;
        if (over >= 0) {
            meanOvershoot += (Math.min(over, CAP_NANOS) - meanOvershoot) / 8;
        }
    }

    /** The current estimate, in ns (for tests and the docs' figures). */
    long meanOvershoot() {
        return meanOvershoot;
    }
}
