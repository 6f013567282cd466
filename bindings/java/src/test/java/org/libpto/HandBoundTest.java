package org.libpto;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * The functions bound by hand beyond the rows of src/operations.def: the cube modes changing a
 * FLOAT32 matrix multiply's bits on their profile, the fixpipe's thread configuration read by
 * tmovFp, tquantMx against values worked by hand, mgather and mscatter over direct ByteBuffers;
 * each refusal with libpto's sentence and nothing written; the settings per thread.
 */
class HandBoundTest {
    /** 1 + 2^-20: 1.0 in TF32 (e8m10) and HF32 (e8m11). */
    static final float ONE_PLUS = (float) (1 + Math.pow(2, -20));

    static void expect(Status status, String inDetail, Executable call) {
        PtoException e = assertThrows(PtoException.class, call);
        assertEquals(status, e.status());
        assertTrue(e.detail().contains(inDetail), e.detail());
    }

    static <T> T onNewThread(java.util.function.Supplier<T> f) throws InterruptedException {
        AtomicReference<T> out = new AtomicReference<>();
        Thread t = new Thread(() -> out.set(f.get()));
        t.start();
        t.join();
        return out.get();
    }

    /** a @ b on the profile's cube tiles: a all ONE_PLUS, b's row 0 all 1 (so c is a's values). */
    static float[] cubeMatmul(Profile profile, Layout left) {
        final int m = 16, k = 32, n = 16;
        float[] a = new float[m * k];
        java.util.Arrays.fill(a, ONE_PLUS);
        float[] b = new float[k * n];
        java.util.Arrays.fill(b, 0, n, 1f);
        try (Tile ca = Tile.cube(DType.FLOAT32, m, k, Location.LEFT, left);
                Tile cb = Tile.cube(DType.FLOAT32, k, n, Location.RIGHT, Layout.ZN);
                Tile cc = Tile.cube(DType.FLOAT32, m, n, Location.ACC, Layout.NZ)) {
            ca.write(a);
            cb.write(b);
            try (Profile.Scope s = profile.activate()) {
                Pto.tmatmul(cc, ca, cb);
            }
            return cc.readFloats();
        }
    }

    static boolean all(float[] values, float want) {
        for (float v : values) {
            if (v != want) return false;
        }
        return true;
    }

    @Test
    void cubeModesRoundFloat32Inputs() throws InterruptedException {
        assertFalse(ThreadSettings.tf32Mode());
        assertEquals(RoundMode.ROUND, ThreadSettings.tf32Round());
        assertTrue(all(cubeMatmul(Profile.A5, Layout.NZ), ONE_PLUS));
        try {
            ThreadSettings.setTf32Mode(true, RoundMode.RINT);
            assertTrue(ThreadSettings.tf32Mode());
            assertEquals(RoundMode.RINT, ThreadSettings.tf32Round());
            assertTrue(all(cubeMatmul(Profile.A5, Layout.NZ), 1f));
            assertFalse(onNewThread(ThreadSettings::tf32Mode)); // another thread keeps its own
            assertTrue(all(onNewThread(() -> cubeMatmul(Profile.A5, Layout.NZ)), ONE_PLUS));
            expect(Status.INVALID_ARGUMENT, "pto_set_tf32_mode: round mode 3",
                    () -> ThreadSettings.setTf32Mode(false, RoundMode.FLOOR));
            assertTrue(ThreadSettings.tf32Mode()); // kept by the refusal
            ThreadSettings.setHf32Mode(true, RoundMode.ROUND);
            assertTrue(all(cubeMatmul(Profile.A2A3, Layout.ZZ), 1f));
        } finally {
            ThreadSettings.setTf32Mode(false, RoundMode.ROUND);
            ThreadSettings.setHf32Mode(false, RoundMode.ROUND);
        }
        assertFalse(ThreadSettings.hf32Mode());
        assertTrue(all(cubeMatmul(Profile.A5, Layout.NZ), ONE_PLUS));
        expect(Status.INVALID_ARGUMENT, "pto_set_hf32_mode", () -> ThreadSettings.setHf32Mode(true, RoundMode.ODD));
    }

    @Test
    void quantConfigurationFeedsTheFixpipe() throws InterruptedException {
        float[] values = new float[16 * 32];
        System.arraycopy(new float[] {3, 5, -7, 300, -300, 1.25f}, 0, values, 0, 6);
        try (Tile acc = Tile.cube(DType.FLOAT32, 16, 32, Location.ACC, Layout.NZ);
                Tile q = new Tile(DType.INT8, 16, 32);
                Tile fp = Tile.cube(DType.FLOAT32, 1, 32, Location.SCALING, Layout.ND);
                Tile vec = new Tile(DType.FLOAT32, 1, 32)) {
            acc.write(values);
            // x * 0.5, to nearest even, clamped to int8.
            ThreadSettings.setQuantScalar(0.5f, DType.INT8);
            Pto.tmovFp(q, acc, null);
            assertArrayEquals(new byte[] {2, 2, -4, 127, -128, 1, 0},
                    java.util.Arrays.copyOf(q.readBytes(), 7));
            // The same with the fixpipe's relu: the negative products give 0.
            Pto.tmovFpEx(q, acc, null, Pto.FIXPIPE_RELU);
            assertArrayEquals(new byte[] {2, 2, 0, 127, 0, 1, 0},
                    java.util.Arrays.copyOf(q.readBytes(), 7));
            expect(Status.INVALID_ARGUMENT, "pto_tmov_fp_ex", () -> Pto.tmovFpEx(q, acc, null, 8));
            expect(Status.UNSUPPORTED_DTYPE, "pto_set_quant_scalar",
                    () -> ThreadSettings.setQuantScalar(1f, DType.FLOAT32));
            float[] words = new float[32];
            System.arraycopy(new float[] {0.25f, 0.5f, 1, 2}, 0, words, 0, 4);
            fp.write(words);
            ThreadSettings.setQuantVector(fp);
            fp.write(new float[32]); // not seen: copied when set
            Pto.tmovFp(q, acc, null);
            assertArrayEquals(new byte[] {1, 2, -7, 127}, java.util.Arrays.copyOf(q.readBytes(), 4));
            expect(Status.INVALID_ARGUMENT, "pto_set_quant_vector", () -> ThreadSettings.setQuantVector(vec));
            expect(Status.NULL_ARGUMENT, "pto_set_quant_vector", () -> ThreadSettings.setQuantVector(null));
            // A fresh thread has no configuration.
            Status fresh = onNewThread(() -> {
                try {
                    Pto.tmovFp(q, acc, null);
                    return null; // no refusal
                } catch (PtoException e) {
                    return e.status();
                }
            });
            assertEquals(Status.INVALID_ARGUMENT, fresh);
        }
    }

    @Test
    void tquantMxHandValues() {
        // One block: max 3 has biased exponent 128, so E8M0 120 (OCP: less 8), the scale 2^7;
        // 3 -> 1.5 * 2^8 (E4M3 0x7C), 1 -> 0x70, 2 -> 0x78, -0.5 -> -2^6 (0xE8), 0 -> 0.
        float[] values = new float[32];
        System.arraycopy(new float[] {3, 1, 2, -0.5f}, 0, values, 0, 4);
        try (Tile src = new Tile(DType.FLOAT32, 1, 32); Tile dst = new Tile(DType.UINT8, 1, 32);
                Tile exp = new Tile(DType.UINT8, 1, 1); Tile mx = new Tile(DType.FLOAT32, 1, 1);
                Tile sc = new Tile(DType.FLOAT32, 1, 1)) {
            src.write(values);
            Pto.tquantMx(dst, src, exp, mx, sc, MxAlg.OCP_FP8_E4M3, 1);
            assertArrayEquals(new byte[] {0x7C, 0x70, 0x78, (byte) 0xE8, 0},
                    java.util.Arrays.copyOf(dst.readBytes(), 5));
            assertEquals(120, Byte.toUnsignedInt(exp.readBytes()[0]));
            assertEquals(3f, mx.readFloats()[0]);
            assertEquals(128f, sc.readFloats()[0]);
            Pto.tquantMx(dst, src, exp, null, null, MxAlg.NV_FP8_E4M3, 1); // 3/448: 2^-8.2, rounded up
            assertEquals(120, Byte.toUnsignedInt(exp.readBytes()[0]));
            try (Profile.Scope s = Profile.A2A3.activate()) {
                expect(Status.UNSUPPORTED_DTYPE, "pto_tquant_mx",
                        () -> Pto.tquantMx(dst, src, exp, null, null, MxAlg.OCP_FP8_E4M3, 1));
            }
            expect(Status.NULL_ARGUMENT, "pto_tquant_mx",
                    () -> Pto.tquantMx(dst, src, null, null, null, MxAlg.OCP_FP8_E4M3, 1));
            expect(Status.INVALID_ARGUMENT, "pto_tquant_mx",
                    () -> Pto.tquantMx(dst, src, exp, null, null, MxAlg.OCP_FP8_E4M3, 2));
            assertEquals(0x7C, dst.readBytes()[0]);
        }
    }

    @Test
    void hif4HandValues() {
        // One group: 7 gives Ea 0xC0 (7/7 = 1) with Eb and Ec set in the first 8 and 4
        // (7 -> 1.75, 1 -> 0.25); -0.5 and 0.30078125 keep scale 1. b's column 0 is 1.0 (Ea
        // 0xC0, no Eb, Ec), column 1 zero: a b = 7 + 1 - 0.5 + 0.25.
        float[] values = new float[64];
        values[0] = 7;
        values[1] = 1;
        values[8] = -0.5f;
        values[9] = 0.30078125f;
        float[] bv = new float[128];
        for (int k = 0; k < 64; ++k) {
            bv[2 * k] = 1;
        }
        try (Tile src = new Tile(DType.BFLOAT16, 1, 64); Tile dst = new Tile(DType.FLOAT4_E1M2X2, 1, 32);
                Tile exp = new Tile(DType.UINT32, 1, 1); Tile bsrc = new Tile(DType.BFLOAT16, 64, 2);
                Tile b = new Tile(DType.FLOAT4_E1M2X2, 64, 1); Tile bs = new Tile(DType.UINT32, 1, 2);
                Tile out = new Tile(DType.FLOAT32, 1, 2)) {
            src.write(values);
            Pto.tquantHif4(dst, src, exp, null, null);
            assertEquals(0x101C0, exp.readInts()[0]);
            bsrc.write(bv);
            Pto.tcvt(b, bsrc, null, RoundMode.RINT, Saturation.OFF);
            bs.write(new int[] {0xC0, 0xC0});
            Pto.tmatmulMxHif4(out, dst, exp, b, bs);
            assertArrayEquals(new float[] {7.75f, 0f}, out.readFloats());
            try (Profile.Scope s = Profile.A5.activate()) {
                expect(Status.UNSUPPORTED_DTYPE, "pto_tquant_hif4",
                        () -> Pto.tquantHif4(dst, src, exp, null, null));
            }
            expect(Status.NULL_ARGUMENT, "pto_tmatmul_mx_hif4", () -> Pto.tmatmulMxHif4(out, dst, null, b, bs));
        }
    }

    static ByteBuffer intTable(int... values) {
        ByteBuffer b = ByteBuffer.allocateDirect(4 * values.length).order(ByteOrder.nativeOrder());
        b.asIntBuffer().put(values);
        return b;
    }

    @Test
    void mgatherAndMscatter() {
        int[] ten = new int[16];
        for (int i = 0; i < 16; i++) ten[i] = 10 * i;
        ByteBuffer table = intTable(ten);
        try (Tile dst = new Tile(DType.INT32, 1, 4); Tile idx = new Tile(DType.INT32, 1, 4);
                Tile rows = new Tile(DType.INT32, 2, 4); Tile ri = new Tile(DType.INT32, 2, 1);
                Tile src = new Tile(DType.INT32, 1, 4); Tile f = new Tile(DType.FLOAT32, 1, 4)) {
            idx.write(new int[] {3, 0, 15, 7});
            Pto.mgather(dst, table, idx, Coalesce.ELEM);
            assertArrayEquals(new int[] {30, 0, 150, 70}, dst.readInts());
            ri.write(new int[] {2, 0});
            Pto.mgather(rows, table, ri, Coalesce.ROW);
            assertArrayEquals(new int[] {80, 90, 100, 110, 0, 10, 20, 30}, rows.readInts());
            // An index past the table: refused, naming it; nothing written.
            idx.write(new int[] {3, 0, 16, 7});
            dst.write(new int[4]);
            expect(Status.OUT_OF_RANGE, "pto_mgather: indices (0, 2) is 16",
                    () -> Pto.mgather(dst, table, idx, Coalesce.ELEM));
            assertArrayEquals(new int[4], dst.readInts());
            ByteBuffer out = intTable(new int[8]);
            src.write(new int[] {1, 2, 3, 4});
            expect(Status.OUT_OF_RANGE, "pto_mscatter", () -> Pto.mscatter(out, src, idx, Coalesce.ELEM));
            int[] got = new int[8];
            out.asIntBuffer().get(got);
            assertArrayEquals(new int[8], got);
            idx.write(new int[] {0, 5, 5, 2});
            Pto.mscatter(out, src, idx, Coalesce.ELEM); // the last writer of 5 wins
            out.asIntBuffer().get(got);
            assertArrayEquals(new int[] {1, 0, 4, 0, 0, 3, 0, 0}, got);
            assertThrows(java.nio.ReadOnlyBufferException.class,
                    () -> Pto.mscatter(out.asReadOnlyBuffer(), src, idx, Coalesce.ELEM));
            assertThrows(IllegalArgumentException.class,
                    () -> Pto.mgather(dst, ByteBuffer.allocate(64), idx, Coalesce.ELEM));
            // A table too short for the indices, read as dst's dtype.
            expect(Status.OUT_OF_RANGE, "pto_mgather", () -> Pto.mgather(f, intTable(0, 0, 0), idx, Coalesce.ELEM));
        }
    }

    @Test
    void mgatherOobAndMscatterEx() {
        ByteBuffer table = intTable(10, 11, 12, 13, 14, 15);
        try (Tile dst = new Tile(DType.INT32, 1, 4); Tile idx = new Tile(DType.INT32, 1, 4);
                Tile src = new Tile(DType.INT32, 1, 4); Tile u = new Tile(DType.UINT8, 1, 4)) {
            idx.write(new int[] {5, 6, 13, -1});
            Pto.mgatherOob(dst, table, idx, Coalesce.ELEM, GatherOob.WRAP);
            assertArrayEquals(new int[] {15, 10, 11, 13}, dst.readInts()); // 4294967295 % 6 = 3
            Pto.mgatherOob(dst, table, idx, Coalesce.ELEM, GatherOob.ZERO);
            assertArrayEquals(new int[] {15, 0, 0, 0}, dst.readInts());
            expect(Status.OUT_OF_RANGE, "pto_mgather_oob: indices (0, 1) is 6",
                    () -> Pto.mgatherOob(dst, table, idx, Coalesce.ELEM, GatherOob.UNDEFINED));
            src.write(new int[] {1, 2, 3, 4});
            Pto.mscatterEx(table, src, idx, Coalesce.ELEM, ScatterAtomic.ADD, ScatterOob.CLAMP);
            int[] got = new int[6];
            table.asIntBuffer().get(got);
            assertArrayEquals(new int[] {10, 11, 12, 13, 14, 25}, got);
            expect(Status.UNSUPPORTED_DTYPE, "pto_mscatter_ex: atomic max",
                    () -> Pto.mscatterEx(ByteBuffer.allocateDirect(8), u, idx, Coalesce.ELEM, ScatterAtomic.MAX,
                            ScatterOob.SKIP));
        }
    }
}
