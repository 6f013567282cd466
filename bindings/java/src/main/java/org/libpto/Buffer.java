package org.libpto;

import java.lang.ref.Reference;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A byte arena in Java memory (a direct {@link ByteBuffer}) in which tiles
 * are placed with {@link #tileAt} (the instruction pages' TASSIGN): placed
 * tiles read and write its bytes directly, zero-copy, and may overlap, as
 * programs reusing on-chip memory do (an instruction refuses with
 * ALIASING to write storage it also reads other than exactly in place).
 *
 * <pre>{@code
 * ByteBuffer memory = ByteBuffer.allocateDirect(32).order(ByteOrder.nativeOrder());
 * try (Buffer buf = Buffer.wrap(memory);
 *      Tile x = buf.tileAt(DType.FLOAT32, 1, 4, 0);
 *      Tile y = buf.tileAt(DType.FLOAT32, 1, 4, 16)) {
 *     memory.asFloatBuffer().put(new float[] {1, 4, 16, 64});
 *     Pto.trsqrt(y, x);
 *     float r = memory.getFloat(16); // 1.0
 * }
 * }</pre>
 *
 * <p>{@link #close()} releases the handle; tiles placed in the buffer stay
 * usable and keep the memory reachable. The memory is the JVM's, so it is
 * counted and freed by the JVM (-XX:MaxDirectMemorySize).
 */
public final class Buffer implements AutoCloseable {
    private final NativeHandle handle;
    private final ByteBuffer memory;

    private Buffer(ByteBuffer memory) {
        long[] out = new long[1];
        PtoNative.pto_buffer_wrap(memory, out);
        this.memory = memory;
        // The bytes are the JVM's; only the handle is libpto's.
        this.handle = NativeHandle.register(this, out[0], 0, PtoNative::pto_buffer_destroy);
    }

    /**
     * A zero-filled buffer of {@code nbytes} bytes, 64-byte aligned.
     *
     * @throws PtoException INVALID_ARGUMENT for 0 or more than libpto's limit (256 MiB)
     */
    public static Buffer allocate(int nbytes) {
        if (nbytes <= 0 || nbytes > (1 << 28)) {
            throw new PtoException(Status.INVALID_ARGUMENT, "Buffer.allocate: nbytes must be in [1, 2^28], got " + nbytes);
        }
        // alignedSlice would also round the end down to a multiple of 64, so
        // the aligned start is found with alignmentOffset instead.
        ByteBuffer raw = ByteBuffer.allocateDirect(nbytes + 63);
        int start = (64 - raw.alignmentOffset(0, 64)) % 64;
        raw.position(start).limit(start + nbytes);
        return new Buffer(raw.slice().order(ByteOrder.nativeOrder()));
    }

    /**
     * A buffer over {@code memory}'s bytes from its position to its limit,
     * without copying. The buffer and its tiles keep {@code memory} reachable.
     *
     * @throws IllegalArgumentException if {@code memory} is not direct
     * @throws PtoException INVALID_ARGUMENT for an empty range or one above 256 MiB
     */
    public static Buffer wrap(ByteBuffer memory) {
        if (memory == null) {
            throw new PtoException(Status.NULL_ARGUMENT, "Buffer.wrap: memory is null");
        }
        if (!memory.isDirect()) {
            throw new IllegalArgumentException("Buffer.wrap: the ByteBuffer must be direct (ByteBuffer.allocateDirect)");
        }
        return new Buffer(memory.slice().order(ByteOrder.nativeOrder()));
    }

    /** Size in bytes. */
    public int size() {
        return memory.capacity();
    }

    /** The buffer's bytes without copying, in native byte order (valid after close() too). */
    public ByteBuffer asByteBuffer() {
        return memory.duplicate().order(ByteOrder.nativeOrder());
    }

    /**
     * TASSIGN: a rows x cols tile whose elements are the bytes
     * {@code [offset, offset + rows*cols*size)} of this buffer, as they are
     * (no zero-fill). Close it like any tile.
     *
     * @throws PtoException as {@link Tile#Tile}; INVALID_ARGUMENT for an offset
     *     that is not a multiple of the element size; OUT_OF_RANGE if the tile
     *     does not fit; NULL_ARGUMENT once the buffer is closed
     */
    public Tile tileAt(DType dtype, int rows, int cols, long offset) {
        if (dtype == null) {
            throw new PtoException(Status.INVALID_ARGUMENT, "Buffer.tileAt: dtype is null");
        }
        if (rows < 0 || cols < 0 || offset < 0) {
            throw new PtoException(Status.INVALID_ARGUMENT, "Buffer.tileAt: negative rows, cols or offset");
        }
        long p = handle.pointer();
        if (p == 0) {
            throw new PtoException(Status.NULL_ARGUMENT, "Buffer.tileAt: the buffer is closed");
        }
        try {
            long[] out = new long[1];
            PtoNative.pto_tile_create_at(dtype.code(), rows, cols, p, offset, out);
            return new Tile(out[0], memory);
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    /** Releases the buffer handle (placed tiles stay usable); closing again does nothing. */
    @Override
    public void close() {
        handle.close();
    }

    /** Whether {@link #close()} has been called. */
    public boolean isClosed() {
        return handle.isClosed();
    }
}
