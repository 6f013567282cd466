package org.libpto;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** The 0.2 additions: profiles, buffers, placed tiles, zero-copy views, and unclosed tiles. */
class PlacementAndProfileTest {
    @Test
    void profilesAreScopedPerThread() throws Exception {
        try (Tile t = new Tile(DType.UINT8, 1, 2)) {
            Pto.tpartadd(t, t, t);
            assertEquals(Profile.HOST, Profile.current());
            try (Profile.Scope s = Profile.A2A3.activate()) {
                assertEquals(Profile.A2A3, Profile.current());
                PtoException e = assertThrows(PtoException.class, () -> Pto.tpartadd(t, t, t));
                assertEquals(Status.UNSUPPORTED_DTYPE, e.status());
                assertTrue(e.detail().contains("A2A3"), e.detail());
                // Another thread keeps its own profile.
                ExecutorService pool = Executors.newSingleThreadExecutor();
                try {
                    Future<Profile> other = pool.submit(Profile::current);
                    assertEquals(Profile.HOST, other.get());
                    // A scope must be closed on its own thread.
                    Future<?> wrong = pool.submit(s::close);
                    Exception ex = assertThrows(Exception.class, wrong::get);
                    assertTrue(ex.getCause() instanceof IllegalStateException, ex.toString());
                } finally {
                    pool.shutdown();
                }
                try (Profile.Scope inner = Profile.A5.activate()) {
                    Pto.tpartadd(t, t, t);
                }
                assertEquals(Profile.A2A3, Profile.current());
            }
            assertEquals(Profile.HOST, Profile.current());
        }
    }

    @Test
    void placedTilesShareWrappedJavaMemory() {
        ByteBuffer memory = ByteBuffer.allocateDirect(32).order(ByteOrder.nativeOrder());
        try (Buffer buf = Buffer.wrap(memory);
                Tile x = buf.tileAt(DType.FLOAT32, 1, 4, 0);
                Tile y = buf.tileAt(DType.FLOAT32, 1, 4, 16)) {
            assertEquals(32, buf.size());
            assertTrue(x.isPlaced());
            assertEquals(16, y.offset());
            memory.asFloatBuffer().put(new float[] {1, 4, 16, 64});
            Pto.trsqrt(y, x);
            assertEquals(1.0f, memory.getFloat(16));
            assertEquals(0.125f, memory.getFloat(28));
            FloatBuffer view = y.asByteBuffer().asFloatBuffer();
            assertEquals(4, view.capacity());
            view.put(0, 9f); // writes the tile
            assertArrayEquals(new float[] {9, 0.5f, 0.25f, 0.125f}, y.readFloats());
            // A partial overlap between dst and a source is refused.
            try (Tile z = buf.tileAt(DType.FLOAT32, 1, 4, 8)) {
                PtoException e = assertThrows(PtoException.class, () -> Pto.trsqrt(z, x));
                assertEquals(Status.ALIASING, e.status());
            }
            assertEquals(Status.OUT_OF_RANGE,
                    assertThrows(PtoException.class, () -> buf.tileAt(DType.FLOAT32, 1, 8, 8)).status());
            assertEquals(Status.INVALID_ARGUMENT,
                    assertThrows(PtoException.class, () -> buf.tileAt(DType.FLOAT32, 1, 1, 2)).status());
            // The tiles outlive the buffer handle.
            buf.close();
            assertTrue(buf.isClosed());
            Pto.trsqrt(y, y);
            assertEquals(1 / 3f, y.readFloats()[0], 1e-7f);
            assertEquals(Status.NULL_ARGUMENT,
                    assertThrows(PtoException.class, () -> buf.tileAt(DType.FLOAT32, 1, 1, 0)).status());
        }
        assertThrows(IllegalArgumentException.class, () -> Buffer.wrap(ByteBuffer.allocate(8)));
        assertEquals(Status.INVALID_ARGUMENT, assertThrows(PtoException.class, () -> Buffer.allocate(0)).status());
    }

    /** Every size and every alignment the JVM's allocator happens to give. */
    @Test
    void allocatedBuffersAreAlignedAndExact() {
        for (int n = 1; n <= 300; n++) {
            try (Buffer b = Buffer.allocate(n)) {
                assertEquals(n, b.size());
                assertEquals(0, b.asByteBuffer().alignmentOffset(0, 64), "size " + n);
                try (Tile t = b.tileAt(DType.UINT8, 1, n, 0)) {
                    assertEquals(n, t.asByteBuffer().capacity());
                }
            }
        }
    }

    @Test
    void directTilesAreZeroCopy() {
        try (Tile t = Tile.direct(DType.FLOAT32, 2, 2); Tile owned = new Tile(DType.FLOAT32, 2, 2)) {
            assertArrayEquals(new float[4], t.readFloats(), "zero-filled");
            ByteBuffer bytes = t.asByteBuffer();
            bytes.asFloatBuffer().put(new float[] {1, 4, 16, 64});
            Pto.trsqrt(t, t);
            assertEquals(0.5f, bytes.getFloat(4));
            assertFalse(owned.isPlaced());
            assertEquals(Status.INVALID_ARGUMENT, assertThrows(PtoException.class, owned::asByteBuffer).status());
            Pto.tpartadd(owned, t, t); // placed and owned tiles mix
            assertArrayEquals(new float[] {2, 1, 0.5f, 0.25f}, owned.readFloats());
        }
    }

    /**
     * Tiles never closed are collected: their native bytes are counted and a
     * collection is forced once enough are pending, so the loop stays
     * bounded. (The binding's own accounting, not the OS's, is asserted.)
     */
    @Test
    void unclosedTilesAreCollected() {
        long forcedBefore = NativeHandle.forcedCollections();
        long perTile = 64 * 64 * 4 + NativeHandle.OVERHEAD_BYTES;
        long n = 3 * NativeHandle.GC_TRIGGER_BYTES / perTile + 1;
        for (long i = 0; i < n; i++) {
            new Tile(DType.FLOAT32, 64, 64);
        }
        assertTrue(NativeHandle.forcedCollections() - forcedBefore >= 2,
                () -> (NativeHandle.forcedCollections() - forcedBefore) + " forced collections");
        // Closed tiles never force one. The bytes of unclosed tiles (this
        // test's and earlier tests' in the same JVM) counted since the last
        // forced collection may lie within one tile of the trigger, and
        // whether a creation there forces one also depends on the bytes that
        // survived that collection, which the Cleaner thread lowers as it
        // frees them: so the count is first brought to zero by a forced
        // collection (unclosed tiles until one is forced). From there each
        // closed tile takes back what it added and the count stays far below
        // the trigger, whatever came before.
        long forced = NativeHandle.forcedCollections();
        for (long i = 0; i < 2 * n && NativeHandle.forcedCollections() == forced; i++) {
            new Tile(DType.FLOAT32, 64, 64);
        }
        long before = NativeHandle.forcedCollections();
        assertTrue(before > forced, "no collection forced by " + 2 * n + " unclosed tiles");
        for (long i = 0; i < n; i++) {
            new Tile(DType.FLOAT32, 64, 64).close();
        }
        assertEquals(before, NativeHandle.forcedCollections());
    }
}
