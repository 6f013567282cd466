package org.libpto;

import java.lang.ref.Cleaner;
import java.lang.ref.Reference;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A libpto tile: a {@code rows x cols} row-major array of one element type
 * with a valid region anchored at (0, 0), zero-filled at creation.
 *
 * <p>A Tile owns a native handle. {@link #close()} frees it (use
 * try-with-resources); a {@link Cleaner} frees a tile that becomes unreachable
 * without being closed, as a safety net only, and the binding forces a
 * collection when unclosed tiles pile up in libpto's memory. A tile lives in
 * libpto's memory ({@code new Tile}) or in Java memory ({@link #direct},
 * {@link Buffer#tileAt}), which {@link #asByteBuffer()} shows without copying. After {@code close()} every
 * method throws {@link PtoException} with {@link Status#NULL_ARGUMENT};
 * closing again does nothing.
 *
 * <p>Bulk copies move the whole tile (not just the valid region) in one
 * native call: {@code byte[]} for INT8/UINT8, {@code short[]} for
 * INT16/UINT16, {@code int[]} for INT32/UINT32 (unsigned types as their bit
 * patterns, see {@link Byte#toUnsignedInt} and friends), and {@code float[]}
 * for FLOAT32, FLOAT16 and BFLOAT16 (narrowing rounds to nearest even).
 *
 * <p>Distinct tiles may be used from different threads at once; one tile must
 * not be written by one thread while another uses or closes it.
 */
public final class Tile implements AutoCloseable {
    private final NativeHandle handle;
    /** For a tile placed in a {@link Buffer}: its Java memory, kept reachable; else null. */
    private final ByteBuffer memory;

    /**
     * Creates a zero-filled tile whose valid region is the whole tile, in
     * libpto's memory.
     *
     * @throws PtoException INVALID_ARGUMENT for a dimension of 0 (or negative)
     *     or a size above libpto's limit; OUT_OF_MEMORY
     */
    public Tile(DType dtype, int rows, int cols) {
        if (dtype == null) {
            throw new PtoException(Status.INVALID_ARGUMENT, "Tile: dtype is null");
        }
        if (rows < 0 || cols < 0) {
            throw new PtoException(Status.INVALID_ARGUMENT, "Tile: rows and cols must be positive");
        }
        long[] out = new long[1];
        PtoNative.pto_tile_create(dtype.code(), rows, cols, out);
        this.handle = NativeHandle.register(this, out[0], (long) rows * cols * dtype.size(), PtoNative::pto_tile_destroy);
        this.memory = null;
    }

    /** A tile in libpto's memory, of nbytes of storage. */
    private Tile(long pointer, long nbytes) {
        this.handle = NativeHandle.register(this, pointer, nbytes, PtoNative::pto_tile_destroy);
        this.memory = null;
    }

    /**
     * Creates a zero-filled tile of one of the cube's memories in a layout
     * (pto_tile_create_cube), in libpto's memory: its storage is the byte
     * image the NPU's memory holds, while {@code write} and {@code read}
     * exchange its values row-major whatever the layout. Under
     * {@link Profile#A2A3} and {@link Profile#A5} the matrix multiplies take
     * such tiles (a {@link Location#LEFT}, b {@link Location#RIGHT}, dst
     * {@link Location#ACC}, bias {@link Location#BIAS}, in the layouts that
     * profile's NPU takes).
     *
     * @throws PtoException as {@code new Tile}, and INVALID_ARGUMENT for a vec
     *     or bias tile not {@link Layout#ND}, a bias tile of more than one row,
     *     or fractal boxes that do not tile {@code rows x cols}
     */
    public static Tile cube(DType dtype, int rows, int cols, Location location, Layout layout) {
        if (dtype == null || location == null || layout == null) {
            throw new PtoException(Status.INVALID_ARGUMENT, "Tile.cube: dtype, location and layout must not be null");
        }
        if (rows < 0 || cols < 0) {
            throw new PtoException(Status.INVALID_ARGUMENT, "Tile.cube: rows and cols must be positive");
        }
        long[] out = new long[1];
        PtoNative.pto_tile_create_cube(dtype.code(), rows, cols, location.code(), layout.code(), out);
        return new Tile(out[0], (long) rows * cols * dtype.size());
    }

    /** A tile placed in memory (see Buffer.tileAt). */
    Tile(long pointer, ByteBuffer memory) {
        this.handle = NativeHandle.register(this, pointer, 0, PtoNative::pto_tile_destroy);
        this.memory = memory;
    }

    /**
     * Creates a zero-filled tile in Java memory (a direct {@link ByteBuffer},
     * 64-byte aligned), whose storage {@link #asByteBuffer()} shows without
     * copying. The JVM counts that memory (-XX:MaxDirectMemorySize).
     */
    public static Tile direct(DType dtype, int rows, int cols) {
        if (dtype == null) {
            throw new PtoException(Status.INVALID_ARGUMENT, "Tile.direct: dtype is null");
        }
        long nbytes = (long) rows * cols * dtype.size();
        if (rows <= 0 || cols <= 0 || nbytes > Integer.MAX_VALUE - 64) {
            throw new PtoException(Status.INVALID_ARGUMENT, "Tile.direct: " + rows + "x" + cols + " " + dtype
                    + " is empty or too large for one ByteBuffer");
        }
        try (Buffer buffer = Buffer.allocate((int) nbytes)) {
            return buffer.tileAt(dtype, rows, cols, 0);
        }
    }

    /** Frees the tile; closing a closed tile does nothing. */
    @Override
    public void close() {
        handle.close();
    }

    /** Whether {@link #close()} has been called. */
    public boolean isClosed() {
        return handle.isClosed();
    }

    /** Whether the tile lives in a {@link Buffer} (made by {@link Buffer#tileAt} or {@link #direct}). */
    public boolean isPlaced() {
        return memory != null;
    }

    /** A placed tile's byte offset in its buffer; 0 for a tile in libpto's memory. */
    public long offset() {
        try {
            return PtoNative.pto_tile_offset(handle("Tile.offset", "this"));
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    /**
     * The tile's storage without copying: its rows*cols elements in the
     * tile's encoding, in native byte order (use asFloatBuffer(),
     * asShortBuffer(), ... for typed views). Writes through it change the
     * tile. Only for tiles in Java memory ({@link #direct}, {@link Buffer}):
     * the view keeps that memory alive, so it stays valid even after close().
     *
     * @throws PtoException INVALID_ARGUMENT for a tile in libpto's memory
     */
    public ByteBuffer asByteBuffer() {
        if (memory == null) {
            throw new PtoException(Status.INVALID_ARGUMENT,
                    "Tile.asByteBuffer: the tile is in libpto's memory; create it with Tile.direct or Buffer.tileAt");
        }
        int offset = Math.toIntExact(offset());
        int nbytes = Math.multiplyExact(size(), dtype().size());
        ByteBuffer view = memory.duplicate();
        view.position(offset).limit(offset + nbytes);
        return view.slice().order(ByteOrder.nativeOrder());
    }

    /**
     * The native handle for an operation; callers keep {@code this} reachable
     * (Reference.reachabilityFence) until the native call returns.
     */
    long handle(String op, String operand) {
        long p = handle.pointer();
        if (p == 0) {
            throw new PtoException(Status.NULL_ARGUMENT, op + ": " + operand + " tile is closed");
        }
        return p;
    }

    /** The handle of a tile that may be null (libpto reports a missing required one). */
    static long handleOf(Tile tile, String op, String operand) {
        return tile == null ? 0 : tile.handle(op, operand);
    }

    public DType dtype() {
        try {
            return DType.of(PtoNative.pto_tile_dtype(handle("Tile.dtype", "this")));
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    public int rows() {
        try {
            return (int) PtoNative.pto_tile_rows(handle("Tile.rows", "this"));
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    public int cols() {
        try {
            return (int) PtoNative.pto_tile_cols(handle("Tile.cols", "this"));
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    /** Where the tile lives: {@link Location#VEC} but for a tile of {@link #cube}. */
    public Location location() {
        try {
            return byCode(Location.values(), Location::code,
                    PtoNative.pto_tile_location(handle("Tile.location", "this")), "Tile.location");
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    /** How its elements lie in its storage: {@link Layout#ND} (row-major) but for a tile of {@link #cube}. */
    public Layout layout() {
        try {
            return byCode(Layout.values(), Layout::code,
                    PtoNative.pto_tile_layout(handle("Tile.layout", "this")), "Tile.layout");
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    /** The member of an enum whose C value is code. */
    private static <E> E byCode(E[] values, java.util.function.ToIntFunction<E> codeOf, int code, String op) {
        for (E e : values) {
            if (codeOf.applyAsInt(e) == code) {
                return e;
            }
        }
        throw new PtoException(Status.INVALID_ARGUMENT, op + ": unknown value " + code);
    }

    public int validRows() {
        try {
            return (int) PtoNative.pto_tile_valid_rows(handle("Tile.validRows", "this"));
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    public int validCols() {
        try {
            return (int) PtoNative.pto_tile_valid_cols(handle("Tile.validCols", "this"));
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    /** Number of elements, {@code rows() * cols()}. */
    public int size() {
        return Math.multiplyExact(rows(), cols());
    }

    /**
     * Sets the valid region, anchored at (0, 0); 0 dimensions are allowed.
     *
     * @throws PtoException OUT_OF_RANGE if the region exceeds the tile (it is then unchanged)
     */
    public Tile setValid(int validRows, int validCols) {
        if (validRows < 0 || validCols < 0) {
            throw new PtoException(Status.OUT_OF_RANGE, "Tile.setValid: negative valid region");
        }
        try {
            PtoNative.pto_tile_set_valid(handle("Tile.setValid", "this"), validRows, validCols);
            return this;
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    // ------------------------------------------------------------ bulk copies

    private long handleForArray(String op, DType a, DType b, String arrayType) {
        long p = handle(op, "this");
        DType d = DType.of(PtoNative.pto_tile_dtype(p));
        if (d != a && d != b) {
            throw new PtoException(Status.DTYPE_MISMATCH,
                    op + ": tile is " + d + ", " + arrayType + " needs " + a + " or " + b);
        }
        return p;
    }

    /** Copies {@code size()} values into an INT8 or UINT8 tile. */
    public Tile write(byte[] data) {
        try {
            PtoNative.pto_tile_write_i8(handleForArray("Tile.write", DType.INT8, DType.UINT8, "byte[]"), data);
            return this;
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    /** Copies {@code size()} values into an INT16 or UINT16 tile. */
    public Tile write(short[] data) {
        try {
            PtoNative.pto_tile_write_i16(handleForArray("Tile.write", DType.INT16, DType.UINT16, "short[]"), data);
            return this;
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    /** Copies {@code size()} values into an INT32 or UINT32 tile. */
    public Tile write(int[] data) {
        try {
            PtoNative.pto_tile_write_i32(handleForArray("Tile.write", DType.INT32, DType.UINT32, "int[]"), data);
            return this;
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    /**
     * Copies {@code size()} floats into a FLOAT32, FLOAT16 or BFLOAT16 tile.
     *
     * @throws PtoException UNSUPPORTED_DTYPE for an integer tile; INVALID_ARGUMENT for a wrong length
     */
    public Tile write(float[] data) {
        try {
            PtoNative.pto_tile_write_f32(handle("Tile.write", "this"), data);
            return this;
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    /** Copies an INT8 or UINT8 tile into {@code dst} ({@code size()} elements). */
    public void read(byte[] dst) {
        try {
            PtoNative.pto_tile_read_i8(handleForArray("Tile.read", DType.INT8, DType.UINT8, "byte[]"), dst);
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    /** Copies an INT16 or UINT16 tile into {@code dst} ({@code size()} elements). */
    public void read(short[] dst) {
        try {
            PtoNative.pto_tile_read_i16(handleForArray("Tile.read", DType.INT16, DType.UINT16, "short[]"), dst);
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    /** Copies an INT32 or UINT32 tile into {@code dst} ({@code size()} elements). */
    public void read(int[] dst) {
        try {
            PtoNative.pto_tile_read_i32(handleForArray("Tile.read", DType.INT32, DType.UINT32, "int[]"), dst);
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    /** Copies a FLOAT32, FLOAT16 or BFLOAT16 tile into {@code dst} (widening is exact). */
    public void read(float[] dst) {
        try {
            PtoNative.pto_tile_read_f32(handle("Tile.read", "this"), dst);
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    /** The values of an INT8 or UINT8 tile. */
    public byte[] readBytes() {
        byte[] out = new byte[size()];
        read(out);
        return out;
    }

    /** The values of an INT16 or UINT16 tile. */
    public short[] readShorts() {
        short[] out = new short[size()];
        read(out);
        return out;
    }

    /** The values of an INT32 or UINT32 tile. */
    public int[] readInts() {
        int[] out = new int[size()];
        read(out);
        return out;
    }

    /** The values of a FLOAT32, FLOAT16 or BFLOAT16 tile as floats. */
    public float[] readFloats() {
        float[] out = new float[size()];
        read(out);
        return out;
    }

    @Override
    public String toString() {
        if (isClosed()) {
            return "Tile[closed]";
        }
        return "Tile[" + dtype() + " " + rows() + "x" + cols() + " valid " + validRows() + "x" + validCols() + "]";
    }
}
