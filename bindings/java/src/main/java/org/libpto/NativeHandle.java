package org.libpto;

import java.lang.ref.Cleaner;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongConsumer;

/**
 * One native handle (a tile or a buffer), freed exactly once: by close(), or
 * by the Cleaner once its owner is unreachable. It must not reference its
 * owner, or the owner would never become unreachable.
 *
 * <p>The JVM does not see libpto's allocations, so a program that drops
 * tiles without closing them could pile up native memory while the Java
 * heap stays small and no collection runs. The bytes that handles hold in
 * libpto's own memory are therefore counted, and creating one forces a
 * collection (System.gc) once those created and neither closed nor cleaned
 * since the last forced one exceed both {@link #GC_TRIGGER_BYTES} and the
 * bytes that survived it. Tiles and buffers over Java memory
 * ({@link Buffer}) are counted by the JVM itself.
 */
final class NativeHandle implements Runnable {
    static final Cleaner CLEANER = Cleaner.create();
    /** See the class comment; the system property org.libpto.gcTriggerBytes overrides it. */
    static final long GC_TRIGGER_BYTES = Long.getLong("org.libpto.gcTriggerBytes", 64L << 20);
    /** Counted per handle on top of its storage: the C record and alignment. */
    static final long OVERHEAD_BYTES = 128;

    private static final AtomicLong LIVE = new AtomicLong();
    private static final AtomicLong PENDING = new AtomicLong();
    private static final AtomicLong FORCED = new AtomicLong();

    private volatile long pointer;
    private final long bytes;
    private final LongConsumer destroy;
    private volatile boolean explicit;
    /** The registration with CLEANER; set once by {@link #register}, before the handle is shared. */
    private Cleaner.Cleanable cleanable;

    private NativeHandle(long pointer, long nativeBytes, LongConsumer destroy) {
        this.pointer = pointer;
        this.bytes = nativeBytes + OVERHEAD_BYTES;
        this.destroy = destroy;
        LIVE.addAndGet(bytes);
        if (PENDING.addAndGet(bytes) >= GC_TRIGGER_BYTES) {
            maybeCollect();
        }
    }

    private static synchronized void maybeCollect() {
        long pending = PENDING.get();
        long survivors = LIVE.get() - pending;
        if (pending < GC_TRIGGER_BYTES || pending < survivors) {
            return;
        }
        PENDING.set(0);
        FORCED.incrementAndGet();
        System.gc();
    }

    /**
     * A handle owned by {@code owner}: freed by {@link #close()}, or by the
     * Cleaner once the owner is unreachable. Owners (tiles, buffers, programs,
     * argument sets) create theirs with this and delegate close() and
     * isClosed() to it.
     */
    static NativeHandle register(Object owner, long pointer, long nativeBytes, LongConsumer destroy) {
        NativeHandle handle = new NativeHandle(pointer, nativeBytes, destroy);
        handle.cleanable = CLEANER.register(owner, handle);
        return handle;
    }

    long pointer() {
        return pointer;
    }

    /** The owner's close(): frees the handle now; closing again does nothing. */
    void close() {
        explicit = true;
        cleanable.clean();
    }

    /** Whether the handle has been freed (by close() or the Cleaner). */
    boolean isClosed() {
        return pointer == 0;
    }

    @Override
    public synchronized void run() {
        long p = pointer;
        pointer = 0;
        if (p != 0) {
            destroy.accept(p);
            LIVE.addAndGet(-bytes);
            if (explicit) {
                PENDING.addAndGet(-bytes);
            }
        }
    }

    /** Bytes held by handles neither closed nor cleaned yet. */
    static long liveBytes() {
        return LIVE.get();
    }

    /** Collections forced because of unclosed handles. */
    static long forcedCollections() {
        return FORCED.get();
    }
}
