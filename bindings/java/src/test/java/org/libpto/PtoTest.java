package org.libpto;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class PtoTest {
    private static final float INF = Float.POSITIVE_INFINITY;
    private static final float NAN = Float.NaN;

    private final List<Tile> tiles = new ArrayList<>();

    @AfterEach
    void closeTiles() {
        tiles.forEach(Tile::close);
    }

    private Tile tile(DType dtype, int rows, int cols) {
        Tile t = new Tile(dtype, rows, cols);
        tiles.add(t);
        return t;
    }

    private Tile tile(DType dtype, int rows, int cols, float... values) {
        return tile(dtype, rows, cols).write(values);
    }

    /** Bitwise float comparison: NaN equals NaN, -0 differs from +0. */
    private static void assertFloats(float[] want, float[] got) {
        assertEquals(want.length, got.length, "length");
        for (int i = 0; i < want.length; i++) {
            assertEquals(want[i], got[i], 0.0f, "element " + i);
            assertEquals(Float.isNaN(want[i]) ? 0 : Math.copySign(1, want[i]),
                    Float.isNaN(got[i]) ? 0 : Math.copySign(1, got[i]), "sign of element " + i);
        }
    }

    private static PtoException assertStatus(Status want, String inDetail, Executable call) {
        PtoException e = assertThrows(PtoException.class, call);
        assertEquals(want, e.status(), e.getMessage());
        assertTrue(e.detail().contains(inDetail), () -> "detail '" + e.detail() + "' lacks '" + inDetail + "'");
        assertTrue(e.getMessage().startsWith(want.cName()), e.getMessage());
        return e;
    }

    @Test
    void tselPicksByTheMask() {
        Tile a = tile(DType.FLOAT32, 1, 9, 1, 5, -2, 4, 3, 0, 7, 8, 9);
        Tile b = tile(DType.FLOAT32, 1, 9, 2, 4, -1, 0, 3, -0.0f, 0, 9, 8);
        Tile mask = tile(DType.UINT8, 1, 2);
        Pto.tcmp(mask, a, b, CmpMode.GT);
        Tile dst = tile(DType.FLOAT32, 1, 9);
        Pto.tsel(dst, mask, a, b);
        assertFloats(new float[] {2, 5, -1, 4, 3, -0.0f, 7, 9, 9}, dst.readFloats());
        Pto.tsel(dst, mask, b, a, null);
        assertFloats(new float[] {1, 4, -2, 0, 3, 0, 0, 8, 8}, dst.readFloats());
        assertStatus(Status.UNSUPPORTED_DTYPE, "mask", () -> Pto.tsel(dst, dst, a, b));
    }

    // ------------------------------------------------------- data movement

    @Test
    void indexedDataMovement() {
        Tile src = tile(DType.FLOAT32, 3, 4, 0, 1, 2, 3, 10, 11, 12, 13, 20, 21, 22, 23);
        Tile dst = tile(DType.FLOAT32, 2, 2);
        Pto.textract(dst, src, 1, 2);
        assertFloats(new float[] {12, 13, 22, 23}, dst.readFloats());
        assertStatus(Status.OUT_OF_RANGE, "window", () -> Pto.textract(dst, src, 2, 0));
        Tile idx = tile(DType.INT32, 1, 4).write(new int[] {11, 0, 5, 5});
        Tile g = tile(DType.FLOAT32, 1, 4);
        Pto.tgather(g, src, idx);
        assertFloats(new float[] {23, 0, 11, 11}, g.readFloats());
        Tile fidx = tile(DType.FLOAT32, 1, 4);
        assertStatus(Status.UNSUPPORTED_DTYPE, "indices", () -> Pto.tgather(g, src, fidx));
        Tile l0 = tile(DType.FLOAT32, 1, 4, 9, 0, 5, 0);
        Tile l1 = tile(DType.FLOAT32, 1, 2, 7, 0);
        Tile merged = tile(DType.FLOAT32, 1, 6);
        assertArrayEquals(new int[] {1, 1, 0, 0}, Pto.tmrgsortLists(merged, l0, l1, null, null, null, true));
        assertFloats(new float[] {9, 0, 7, 0, 0, 0}, merged.readFloats());
        Tile m = tile(DType.FLOAT32, 3, 2);
        Pto.tgatherMask(m, src, MaskPattern.P1010, GatherAxis.ROW);
        assertFloats(new float[] {1, 3, 11, 13, 21, 23}, m.readFloats());
        Tile r = tile(DType.FLOAT32, 1, 4);
        Pto.tgatherMask(r, src, MaskPattern.P1010, GatherAxis.COL);
        assertFloats(new float[] {10, 11, 12, 13}, r.readFloats());
        assertStatus(Status.SHAPE_MISMATCH, "12 elements", () -> Pto.tgatherMask(m, src, MaskPattern.P1111, GatherAxis.ROW));
        Tile h = tile(DType.FLOAT16, 2, 3);
        Pto.tsetval(h, 4, 1.0 / 3.0);
        assertEquals(0.333251953125, Pto.tgetval(h, 4), 0.0);
        assertEquals(0.0, Pto.tgetval(h, 0), 0.0);
        assertStatus(Status.OUT_OF_RANGE, "index 6", () -> Pto.tgetval(h, 6));
        // trandom: Random123's philox4x32_10 known answer (counter 0, key 0)
        Tile rnd = tile(DType.UINT32, 1, 8);
        Pto.trandom(rnd, new int[] {0, 0}, new int[] {0, 0, 0, 0}, 10);
        int[] words = rnd.readInts();
        assertArrayEquals(new int[] {0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8},
                java.util.Arrays.copyOf(words, 4));
        assertStatus(Status.INVALID_ARGUMENT, "rounds",
                () -> Pto.trandom(rnd, new int[] {0, 0}, new int[] {0, 0, 0, 0}, 8));

        // timg2col: a 2x2 map of one channel under a 2x2 filter is one row of its four
        // pixels; the row past the matrix is the pad element.
        Tile fmap = tile(DType.UINT32, 4, 1);
        fmap.write(new int[] {1, 2, 3, 4});
        Tile col = tile(DType.UINT32, 2, 4);
        Pto.Img2colConfig cfg = new Pto.Img2colConfig();
        cfg.fmapH = 2;
        cfg.fmapW = 2;
        cfg.padBits = 9;
        cfg.filterH = 2;
        cfg.filterW = 2;
        cfg.channelSize = 1;
        Pto.setfmatrix(cfg);
        Pto.setImg2colPadding(cfg);
        Pto.setImg2colRpt(cfg);
        Pto.timg2col(col, fmap, cfg, 0, 0);
        assertArrayEquals(new int[] {1, 2, 3, 4, 9, 9, 9, 9}, col.readInts());
        cfg.strideW = 0;
        assertStatus(Status.INVALID_ARGUMENT, "strides 1x0", () -> Pto.timg2col(col, fmap, cfg, 0, 0));
        cfg.repeatMode = 2;
        assertStatus(Status.INVALID_ARGUMENT, "repeat_mode 2", () -> Pto.setImg2colRpt(cfg));
        // Each field's range is its src/settings.def row's, checked by the C call.
        cfg.fmapH = 0;
        assertStatus(Status.INVALID_ARGUMENT, "config's fmap_h 0 is outside", () -> Pto.setfmatrix(cfg));
    }

    // ------------------------------------------------------------- library

    @Test
    void versionAndTarget() {
        assertTrue(Pto.version().matches("\\d+\\.\\d+\\.\\d+"), Pto.version());
        assertFalse(Pto.simdTarget().isEmpty());
    }

    @Test
    void dtypesAndStatuses() {
        int[] sizes = {1, 1, 2, 2, 4, 4, 2, 2, 4, 8, 8, 1, 1, 1, 1, 1, 1, 1};
        for (DType d : DType.values()) {
            assertEquals(sizes[d.ordinal()], d.size(), d.toString());
        }
        assertEquals("PTO_ERR_SHAPE_MISMATCH", Status.SHAPE_MISMATCH.cName());
        assertEquals("PTO_ERR_OUT_OF_MEMORY", Status.OUT_OF_MEMORY.cName());
        assertEquals(Status.ALIASING, Status.of(7));
        assertEquals(Status.UNKNOWN, Status.of(1234));
    }

    // --------------------------------------------------------------- tiles

    @Test
    void shapeAndValidRegion() {
        Tile t = tile(DType.INT16, 3, 5);
        assertEquals(DType.INT16, t.dtype());
        assertEquals(3, t.rows());
        assertEquals(5, t.cols());
        assertEquals(15, t.size());
        assertEquals(3, t.validRows());
        assertEquals(5, t.validCols());
        t.setValid(2, 0);
        assertEquals(2, t.validRows());
        assertEquals(0, t.validCols());
        assertStatus(Status.OUT_OF_RANGE, "", () -> t.setValid(4, 1));
        assertStatus(Status.OUT_OF_RANGE, "", () -> t.setValid(-1, 1));
        assertEquals(2, t.validRows());
        assertArrayEquals(new short[15], t.readShorts(), "zero-filled");
        assertEquals("Tile[INT16 3x5 valid 2x0]", t.toString());
    }

    @Test
    void createErrors() {
        assertStatus(Status.INVALID_ARGUMENT, "pto_tile_create", () -> new Tile(DType.FLOAT32, 0, 4));
        assertStatus(Status.INVALID_ARGUMENT, "pto_tile_create", () -> new Tile(DType.FLOAT32, 1 << 20, 1 << 20));
        assertStatus(Status.INVALID_ARGUMENT, "Tile", () -> new Tile(DType.FLOAT32, -1, 4));
        assertStatus(Status.INVALID_ARGUMENT, "Tile", () -> new Tile(null, 1, 1));
    }

    @Test
    void lifetime() {
        Tile a = new Tile(DType.FLOAT32, 2, 2);
        Tile b = tile(DType.FLOAT32, 2, 2, 1, 4, 16, 64);
        a.close();
        a.close(); // harmless
        assertTrue(a.isClosed());
        assertFalse(b.isClosed());
        assertEquals("Tile[closed]", a.toString());
        Executable[] uses = {
            a::rows, a::cols, a::dtype, a::validRows, a::validCols, () -> a.setValid(1, 1),
            () -> a.write(new float[4]), a::readFloats, () -> a.write(new int[4]), a::readBytes,
            () -> Pto.trsqrt(a, b), () -> Pto.trsqrt(b, a), () -> Pto.tpow(b, b, b, a),
            () -> Pto.tprelu(b, b, b, a), () -> Pto.tcolexpanddiv(b, a, b), () -> Pto.tpartadd(b, b, a),
        };
        for (Executable use : uses) {
            assertStatus(Status.NULL_ARGUMENT, "closed", use);
        }
        assertFloats(new float[] {1, 4, 16, 64}, b.readFloats());

        try (Tile c = new Tile(DType.UINT8, 1, 1)) {
            assertEquals(1, c.size());
        }
        // Tiles dropped without close() are freed by the Cleaner.
        for (int i = 0; i < 200; i++) {
            new Tile(DType.UINT8, 64, 64);
        }
        System.gc();
    }

    // --------------------------------------------------------- bulk copies

    @Test
    void roundTripIntegers() {
        byte[] i8 = {Byte.MIN_VALUE, -1, 0, 1, 42, Byte.MAX_VALUE};
        assertArrayEquals(i8, tile(DType.INT8, 2, 3).write(i8).readBytes());
        byte[] u8 = {0, 1, (byte) 200, (byte) 255};
        byte[] u8back = tile(DType.UINT8, 1, 4).write(u8).readBytes();
        assertArrayEquals(u8, u8back);
        assertEquals(200, Byte.toUnsignedInt(u8back[2]));
        short[] i16 = {Short.MIN_VALUE, -2, 300, Short.MAX_VALUE};
        assertArrayEquals(i16, tile(DType.INT16, 2, 2).write(i16).readShorts());
        short[] u16 = {0, 1, (short) 40000, (short) 65535};
        assertArrayEquals(u16, tile(DType.UINT16, 2, 2).write(u16).readShorts());
        int[] i32 = {Integer.MIN_VALUE, -7, 0, 123456789, Integer.MAX_VALUE};
        assertArrayEquals(i32, tile(DType.INT32, 1, 5).write(i32).readInts());
        int[] u32 = {0, (int) 3000000000L, -1};
        int[] u32back = tile(DType.UINT32, 1, 3).write(u32).readInts();
        assertArrayEquals(u32, u32back);
        assertEquals(4294967295L, Integer.toUnsignedLong(u32back[2]));
        // Reading into a caller's array.
        int[] into = new int[3];
        tile(DType.UINT32, 1, 3).write(u32).read(into);
        assertArrayEquals(u32, into);
    }

    @Test
    void roundTripFloats() {
        float denormal = Float.MIN_VALUE;
        float[] f32 = {0, -0.0f, 1.5f, -2.25f, INF, -INF, NAN, denormal};
        assertFloats(f32, tile(DType.FLOAT32, 2, 4, f32).readFloats());
        // float16: 1 + 2^-11 rounds to even (1), 65520 overflows, 2^-24 is the smallest subnormal.
        float[] f16in = {1.5f, -0.099975586f, 1 + 1.0f / 2048, 65520, 65504, NAN, 0x1p-24f, -INF};
        float[] f16out = {1.5f, -0.099975586f, 1, INF, 65504, NAN, 0x1p-24f, -INF};
        assertFloats(f16out, tile(DType.FLOAT16, 2, 4, f16in).readFloats());
        // bfloat16 keeps 8 significant bits.
        float[] bfin = {1.5f, 1 + 1.0f / 256, 1 + 3.0f / 256, 3.0e38f, -INF, NAN};
        float[] bfout = {1.5f, 1, 1 + 1.0f / 64, Float.intBitsToFloat(0x7f62 << 16), -INF, NAN};
        assertFloats(bfout, tile(DType.BFLOAT16, 2, 3, bfin).readFloats());
    }

    @Test
    void bulkCopyErrors() {
        Tile i8 = tile(DType.INT8, 2, 2);
        assertStatus(Status.INVALID_ARGUMENT, "pto_tile_write", () -> i8.write(new byte[3]));
        assertStatus(Status.INVALID_ARGUMENT, "pto_tile_read", () -> i8.read(new byte[5]));
        assertStatus(Status.DTYPE_MISMATCH, "short[]", () -> i8.write(new short[2]));
        assertStatus(Status.DTYPE_MISMATCH, "int[]", i8::readInts);
        assertStatus(Status.UNSUPPORTED_DTYPE, "pto_tile_write_f32", () -> i8.write(new float[4]));
        assertStatus(Status.UNSUPPORTED_DTYPE, "pto_tile_read_f32", i8::readFloats);
        Tile f = tile(DType.FLOAT32, 2, 2);
        assertStatus(Status.INVALID_ARGUMENT, "pto_tile_write_f32", () -> f.write(new float[1]));
        assertThrows(NullPointerException.class, () -> f.write((float[]) null));
    }

    // ---------------------------------------------------------- operations

    @Nested
    class Pow {
        @ParameterizedTest
        @EnumSource(value = DType.class, names = {"FLOAT32", "FLOAT16", "BFLOAT16"})
        void floats(DType dtype) {
            for (PowAlgorithm algo : PowAlgorithm.values()) {
                Tile base = tile(dtype, 2, 3, 2, 3, -2, 4, 1, 0);
                Tile exp = tile(dtype, 2, 3, 10, 2, 3, 0.5f, 100, 0);
                Tile dst = tile(dtype, 2, 3);
                Pto.tpow(dst, base, exp, tile(dtype, 2, 3), algo);
                assertFloats(new float[] {1024, 9, -8, 2, 1, 1}, dst.readFloats());
            }
        }

        @Test
        void specialCases() {
            Tile dst = tile(DType.FLOAT32, 1, 2);
            Pto.tpow(dst, tile(DType.FLOAT32, 1, 2, -2, 0), tile(DType.FLOAT32, 1, 2, 0.5f, -1),
                    tile(DType.FLOAT32, 1, 2), PowAlgorithm.HIGH_PRECISION);
            assertFloats(new float[] {NAN, INF}, dst.readFloats());
        }

        @Test
        void integers() {
            Tile dst = tile(DType.INT32, 1, 6);
            Pto.tpow(dst, tile(DType.INT32, 1, 6).write(new int[] {2, 3, -2, 0, 1, -1}),
                    tile(DType.INT32, 1, 6).write(new int[] {10, 4, 3, 0, -5, -3}), tile(DType.INT32, 1, 6));
            assertArrayEquals(new int[] {1024, 81, -8, 1, 1, -1}, dst.readInts());
            // Wrapping modulo 2^8.
            Tile d8 = tile(DType.INT8, 1, 2);
            Pto.tpow(d8, tile(DType.INT8, 1, 2).write(new byte[] {2, 2}),
                    tile(DType.INT8, 1, 2).write(new byte[] {7, 9}), tile(DType.INT8, 1, 2));
            assertArrayEquals(new byte[] {-128, 0}, d8.readBytes());
            Tile u8 = tile(DType.UINT8, 1, 1);
            Pto.tpow(u8, tile(DType.UINT8, 1, 1).write(new byte[] {3}),
                    tile(DType.UINT8, 1, 1).write(new byte[] {5}), tile(DType.UINT8, 1, 1));
            assertEquals(243, Byte.toUnsignedInt(u8.readBytes()[0]));
            Tile u16 = tile(DType.UINT16, 1, 1);
            Pto.tpow(u16, tile(DType.UINT16, 1, 1).write(new short[] {2}),
                    tile(DType.UINT16, 1, 1).write(new short[] {10}), tile(DType.UINT16, 1, 1));
            assertArrayEquals(new short[] {1024}, u16.readShorts());
        }

        @Test
        void errors() {
            Tile dst = tile(DType.FLOAT32, 2, 2);
            Tile base = tile(DType.FLOAT32, 2, 2);
            Tile exp = tile(DType.FLOAT32, 2, 2);
            Tile tmp = tile(DType.FLOAT32, 2, 2);
            assertStatus(Status.NULL_ARGUMENT, "pto_tpow", () -> Pto.tpow(dst, base, exp, null));
            assertStatus(Status.NULL_ARGUMENT, "pto_tpow", () -> Pto.tpow(null, base, exp, tmp));
            assertStatus(Status.INVALID_ARGUMENT, "Pto.tpow", () -> Pto.tpow(dst, base, exp, tmp, null));
            assertStatus(Status.ALIASING, "pto_tpow", () -> Pto.tpow(dst, base, exp, dst));
            assertStatus(Status.DTYPE_MISMATCH, "pto_tpow",
                    () -> Pto.tpow(dst, base, tile(DType.FLOAT16, 2, 2), tmp));
            assertStatus(Status.SHAPE_MISMATCH, "pto_tpow",
                    () -> Pto.tpow(dst, tile(DType.FLOAT32, 1, 2), exp, tmp));
            Tile i = tile(DType.INT32, 2, 2);
            assertStatus(Status.UNSUPPORTED_DTYPE, "pto_tpow",
                    () -> Pto.tpow(i, tile(DType.INT32, 2, 2), tile(DType.INT32, 2, 2), tile(DType.INT32, 2, 2),
                            PowAlgorithm.HIGH_PRECISION));
        }
    }

    @ParameterizedTest
    @EnumSource(value = DType.class, names = {"FLOAT32", "FLOAT16"})
    void trsqrt(DType dtype) {
        Tile src = tile(dtype, 2, 3, 4, 0.25f, 0, -0.0f, -1, INF);
        Tile dst = tile(dtype, 2, 3);
        Pto.trsqrt(dst, src);
        assertFloats(new float[] {0.5f, 2, INF, -INF, NAN, 0}, dst.readFloats());
        Pto.trsqrt(src, src); // in place
        assertEquals(0.5f, src.readFloats()[0]);
    }

    @Test
    void trsqrtErrors() {
        assertStatus(Status.UNSUPPORTED_DTYPE, "pto_trsqrt",
                () -> Pto.trsqrt(tile(DType.BFLOAT16, 1, 1), tile(DType.BFLOAT16, 1, 1)));
        assertStatus(Status.DTYPE_MISMATCH, "pto_trsqrt",
                () -> Pto.trsqrt(tile(DType.FLOAT32, 1, 1), tile(DType.FLOAT16, 1, 1)));
        assertStatus(Status.SHAPE_MISMATCH, "pto_trsqrt",
                () -> Pto.trsqrt(tile(DType.FLOAT32, 2, 2), tile(DType.FLOAT32, 2, 1)));
        assertStatus(Status.NULL_ARGUMENT, "pto_trsqrt", () -> Pto.trsqrt(tile(DType.FLOAT32, 2, 2), null));
    }

    @Test
    void tprelu() {
        Tile src0 = tile(DType.FLOAT32, 1, 4, 2, -3, 0, -0.5f);
        Tile src1 = tile(DType.FLOAT32, 1, 4, 10, 0.5f, 7, -2);
        Tile dst = tile(DType.FLOAT32, 1, 4);
        Pto.tprelu(dst, src0, src1);
        assertFloats(new float[] {2, -1.5f, 0, 1}, dst.readFloats());
        Pto.tprelu(dst, src0, src1, tile(DType.FLOAT32, 1, 4));
        assertFloats(new float[] {2, -1.5f, 0, 1}, dst.readFloats());
        // Integers wrap: -100 * 2 = -200 is 56 in int8; in place.
        Tile a = tile(DType.INT8, 1, 3).write(new byte[] {5, -3, -100});
        Pto.tprelu(a, a, tile(DType.INT8, 1, 3).write(new byte[] {9, 4, 2}));
        assertArrayEquals(new byte[] {5, -12, 56}, a.readBytes());

        assertStatus(Status.ALIASING, "pto_tprelu", () -> Pto.tprelu(dst, src0, src1, src0));
        assertStatus(Status.DTYPE_MISMATCH, "pto_tprelu", () -> Pto.tprelu(dst, src0, tile(DType.INT32, 1, 4)));
        assertStatus(Status.SHAPE_MISMATCH, "pto_tprelu", () -> Pto.tprelu(dst, src0, tile(DType.FLOAT32, 1, 3)));
        assertStatus(Status.NULL_ARGUMENT, "pto_tprelu", () -> Pto.tprelu(dst, null, src1));
    }

    @ParameterizedTest
    @EnumSource(value = DType.class, names = {"FLOAT32", "FLOAT16"})
    void tcolexpanddiv(DType dtype) {
        Tile dst = tile(dtype, 2, 3);
        Pto.tcolexpanddiv(dst, tile(dtype, 2, 3, 2, 9, 1, 4, -3, 0), tile(dtype, 2, 3, 2, 3, 0, 100, 100, 100));
        assertFloats(new float[] {1, 3, INF, 2, -1, NAN}, dst.readFloats());
    }

    @Test
    void tcolexpanddivRowsAndErrors() {
        Tile s = tile(DType.FLOAT32, 2, 2, 2, 4, 8, 16);
        Pto.tcolexpanddiv(s, s, s); // every row divided by the original row 0
        assertFloats(new float[] {1, 1, 4, 4}, s.readFloats());
        Tile src0 = tile(DType.FLOAT32, 2, 2, 2, 4, 6, 8);
        Tile row = tile(DType.FLOAT32, 1, 2, 2, 4);
        Tile dst = tile(DType.FLOAT32, 2, 2);
        Pto.tcolexpanddiv(dst, src0, row);
        assertFloats(new float[] {1, 1, 3, 2}, dst.readFloats());
        row.setValid(1, 1);
        assertStatus(Status.SHAPE_MISMATCH, "pto_tcolexpanddiv", () -> Pto.tcolexpanddiv(dst, src0, row));
        Tile i = tile(DType.INT8, 2, 2);
        assertStatus(Status.UNSUPPORTED_DTYPE, "pto_tcolexpanddiv", () -> Pto.tcolexpanddiv(i, i, i));
    }

    @Test
    void tpartadd() {
        Tile src0 = tile(DType.FLOAT32, 2, 3, 1, 2, 3, 4, 5, 6);
        Tile src1 = tile(DType.FLOAT32, 2, 3, 10, 20, 30, 40, 50, 60).setValid(1, 2);
        Tile dst = tile(DType.FLOAT32, 2, 3, -1, -1, -1, -1, -1, -1);
        Pto.tpartadd(dst, src0, src1);
        assertFloats(new float[] {11, 22, 3, 4, 5, 6}, dst.readFloats());
        // Only dst's valid region is written.
        dst.write(new float[] {-1, -1, -1, -1, -1, -1}).setValid(1, 3);
        Pto.tpartadd(dst, src1, src0.setValid(1, 3));
        assertFloats(new float[] {11, 22, 3, -1, -1, -1}, dst.readFloats());
        // Integers wrap.
        Tile u = tile(DType.UINT16, 1, 2).write(new short[] {(short) 65535, 1});
        Pto.tpartadd(u, u, u);
        assertArrayEquals(new short[] {(short) 65534, 2}, u.readShorts());

        Tile d = tile(DType.FLOAT32, 2, 2);
        Tile x = tile(DType.FLOAT32, 2, 2).setValid(1, 2);
        Tile y = tile(DType.FLOAT32, 2, 2).setValid(2, 1);
        assertStatus(Status.SHAPE_MISMATCH, "pto_tpartadd", () -> Pto.tpartadd(d, x, y));
        assertStatus(Status.DTYPE_MISMATCH, "pto_tpartadd", () -> Pto.tpartadd(d, x, tile(DType.INT8, 2, 2)));
    }

    /** pto_last_error is per thread: concurrent failures keep their own messages. */
    @Test
    void errorsFromManyThreads() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> results = new ArrayList<>();
            for (int g = 0; g < 8; g++) {
                final int id = g;
                results.add(pool.submit(() -> {
                    try (Tile dst = new Tile(DType.FLOAT32, 2, 2); Tile other = new Tile(DType.FLOAT32, 2, 2);
                            Tile bad = new Tile(DType.INT16, 2, 2)) {
                        for (int i = 0; i < 200; i++) {
                            boolean rsqrt = (i + id) % 2 == 0;
                            PtoException e = assertThrows(PtoException.class,
                                    () -> {
                                        if (rsqrt) {
                                            Pto.trsqrt(dst, bad);
                                        } else {
                                            Pto.tpartadd(dst, other, bad);
                                        }
                                    });
                            assertTrue(e.detail().contains(rsqrt ? "pto_trsqrt" : "pto_tpartadd"), e.detail());
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : results) {
                f.get();
            }
        } finally {
            pool.shutdown();
        }
    }
}
