package io.nbench.transport.vthreads;

import io.nbench.transport.Availability;
import io.nbench.transport.blocking.ThreadMaker;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * Virtual threads reached at run time: nbench compiles with {@code --release 17}, where
 * {@code Thread.ofVirtual()} does not exist, so its builder is looked up with method handles when the
 * JVM is 21 or newer (on 19 and 20 it was a preview API, off by default).
 */
final class VirtualThreads {

    private static final int REQUIRED = 21;

    private VirtualThreads() {
    }

    private static final class Handles {
        static final MethodHandle OF_VIRTUAL;
        static final MethodHandle NAME;
        static final MethodHandle UNSTARTED;
        static final Throwable FAILURE;

        static {
            MethodHandle ofVirtual = null;
            MethodHandle name = null;
            MethodHandle unstarted = null;
            Throwable failure = null;
            try {
                MethodHandles.Lookup lookup = MethodHandles.publicLookup();
                Class<?> builder = Class.forName("java.lang.Thread$Builder");
                Class<?> ofVirtualBuilder = Class.forName("java.lang.Thread$Builder$OfVirtual");
                ofVirtual = lookup.findStatic(Thread.class, "ofVirtual", MethodType.methodType(ofVirtualBuilder));
                name = lookup.findVirtual(ofVirtualBuilder, "name", MethodType.methodType(ofVirtualBuilder, String.class));
                unstarted = lookup.findVirtual(builder, "unstarted", MethodType.methodType(Thread.class, Runnable.class));
            } catch (ReflectiveOperationException | RuntimeException e) {
                failure = e;
            }
            OF_VIRTUAL = ofVirtual;
            NAME = name;
            UNSTARTED = unstarted;
            FAILURE = failure;
        }
    }

    static Availability availability() {
        int feature = Runtime.version().feature();
        if (feature < REQUIRED) {
            return Availability.no("requires Java " + REQUIRED + "+ (this JVM is " + Runtime.version() + ")");
        }
        if (Handles.FAILURE != null) {
            return Availability.no("Thread.ofVirtual() is not usable here: " + Handles.FAILURE);
        }
        return Availability.yes();
    }

    /** Makes virtual threads; call only when {@link #availability()} said yes. */
    static ThreadMaker maker() {
        return new ThreadMaker() {
            @Override
            public Thread newThread(String name, Runnable task) {
                try {
                    Object builder = Handles.NAME.invoke(Handles.OF_VIRTUAL.invoke(), name);
                    return (Thread) Handles.UNSTARTED.invoke(builder, task);
                } catch (RuntimeException | Error e) {
                    throw e;
                } catch (Throwable e) {
                    throw new IllegalStateException("cannot start a virtual thread", e);
                }
            }

            @Override
            public String describe() {
                return "virtual thread per connection (Java " + Runtime.version().feature() + ")";
            }
        };
    }
}
