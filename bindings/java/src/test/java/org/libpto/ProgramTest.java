package org.libpto;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ProgramTest {
    static final String PRELU_DPS = "pto.tprelu ins(%src0, %src1 : !pto.tile_buf<vec, 16x16xf32>, "
            + "!pto.tile_buf<vec, 16x16xf32>) outs(%dst : !pto.tile_buf<vec, 16x16xf32>)";
    static final String POW_SSA = "%dst = pto.tpow %base, %exp : (!pto.tile<16x16xf32>, !pto.tile<16x16xf32>) "
            + "-> !pto.tile<16x16xf32>";
    /** examples/pto/prelu-rows.pto, the kernel that the Go, Java and Rust tests share. */
    static final String PRELU_KERNEL = readExample("prelu-rows.pto");

    /** A file of examples/pto; surefire runs in the pom's directory, bindings/java. */
    static String readExample(String name) {
        Path dir = Paths.get(System.getProperty("basedir", System.getProperty("user.dir")));
        try {
            return Files.readString(dir.resolve("../../examples/pto").resolve(name));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private final List<AutoCloseable> owned = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (AutoCloseable c : owned) {
            c.close();
        }
    }

    private <T extends AutoCloseable> T own(T c) {
        owned.add(c);
        return c;
    }

    /** n deterministic floats in [-lo, hi). */
    static float[] values(int n, int seed, float lo, float hi) {
        float[] out = new float[n];
        int x = seed;
        for (int i = 0; i < n; i++) {
            x = x * 1664525 + 1013904223;
            out[i] = -lo + (lo + hi) * (x >>> 8) / (float) (1 << 24);
        }
        return out;
    }

    static void assertSameBits(float[] want, float[] got) {
        assertEquals(want.length, got.length);
        for (int i = 0; i < want.length; i++) {
            assertEquals(Float.floatToRawIntBits(want[i]), Float.floatToRawIntBits(got[i]), "element " + i);
        }
    }

    static ByteBuffer direct(float[] values) {
        ByteBuffer b = ByteBuffer.allocateDirect(values.length * 4).order(ByteOrder.nativeOrder());
        b.asFloatBuffer().put(values);
        return b;
    }

    static float[] floats(ByteBuffer b) {
        FloatBuffer f = b.duplicate().order(ByteOrder.nativeOrder()).asFloatBuffer();
        float[] out = new float[f.remaining()];
        f.get(out);
        return out;
    }

    private Tile tile(float[] values) {
        return own(new Tile(DType.FLOAT32, 16, 16)).write(values);
    }

    @Test
    void dpsSnippetMatchesTprelu() {
        Program p = own(new Program(PRELU_DPS, "prelu.pto"));
        assertEquals("prelu.pto", p.sourceName());
        assertEquals(Profile.HOST, p.profile());
        assertEquals(3, p.parameters().size());
        for (Program.Parameter prm : p.parameters()) {
            assertEquals(Program.Kind.TILE, prm.kind());
            assertEquals(DType.FLOAT32, prm.dtype());
            assertEquals(16, prm.rows());
            assertEquals(16, prm.cols());
        }
        assertTrue(p.parameter("src0").reads());
        assertFalse(p.parameter("src0").writes());
        assertTrue(p.parameter("%dst").writes());

        Tile src0 = tile(values(256, 1, 4, 4));
        Tile src1 = tile(values(256, 2, 1, 1));
        Tile want = own(new Tile(DType.FLOAT32, 16, 16));
        Pto.tprelu(want, src0, src1, null);

        Tile dst = own(new Tile(DType.FLOAT32, 16, 16));
        try (Program.Arguments args = p.arguments()) {
            args.set("src0", src0).set(p.indexOf("src1"), src1).set("dst", dst);
            assertTrue(p.run(args).isEmpty());
        }
        assertSameBits(want.readFloats(), dst.readFloats());

        // dst left unbound: run creates it and returns it; the set stays reusable.
        try (Program.Arguments args = p.arguments()) {
            args.set("src0", src0).set("src1", src1);
            for (int k = 0; k < 2; k++) {
                Map<String, Tile> out = p.run(args);
                assertEquals(List.of("dst"), List.copyOf(out.keySet()));
                try (Tile got = out.get("dst")) {
                    assertEquals(16, got.rows());
                    assertSameBits(want.readFloats(), got.readFloats());
                }
            }
        }
    }

    static final String PRELU_VALID_8 = "%dst = pto.tprelu %a, %b : !pto.tile<16x16xf32, valid=8x8>";
    static final String PRELU_VALID_DYNAMIC = "%dst = pto.tprelu %a, %b : !pto.tile<16x16xf32, valid=?x?>";

    /** The top-left rows x cols elements of a 16-column tile's values, row by row. */
    static float[] validRegion(float[] all, int rows, int cols) {
        float[] out = new float[rows * cols];
        for (int r = 0; r < rows; r++) {
            System.arraycopy(all, r * 16, out, r * cols, cols);
        }
        return out;
    }

    @Test
    void declaredValidRegion() {
        Program p = own(new Program(PRELU_VALID_8));
        assertEquals(3, p.parameters().size());
        for (Program.Parameter prm : p.parameters()) {
            assertEquals(16, prm.rows());
            assertEquals(16, prm.cols());
            assertEquals(8, prm.validRows());
            assertEquals(8, prm.validCols());
            assertTrue(prm.hasStaticValid());
        }
        assertTrue(p.parameter("a").toString().contains("16x16 valid=8x8"), p.parameter("a").toString());

        // Full 16x16 inputs whose valid region is the declared one.
        Tile a = tile(values(256, 5, 4, 4)).setValid(8, 8);
        Tile b = tile(values(256, 6, 1, 1)).setValid(8, 8);
        Tile want = own(new Tile(DType.FLOAT32, 16, 16)).setValid(8, 8);
        Pto.tprelu(want, a, b, null);
        float[] wantValid = validRegion(want.readFloats(), 8, 8);

        // The created dst has the declared valid region.
        try (Program.Arguments args = p.arguments()) {
            Map<String, Tile> out = p.run(args.set("a", a).set("b", b));
            try (Tile dst = out.get("dst")) {
                assertNotNull(dst);
                assertEquals(16, dst.rows());
                assertEquals(16, dst.cols());
                assertEquals(8, dst.validRows());
                assertEquals(8, dst.validCols());
                assertSameBits(wantValid, validRegion(dst.readFloats(), 8, 8));
            }
            // A tile whose region differs from the declared one is refused.
            Tile full = own(new Tile(DType.FLOAT32, 16, 16));
            PtoException e = assertThrows(PtoException.class, () -> args.set("dst", full));
            assertEquals(Status.SHAPE_MISMATCH, e.status());
        }

        Program dyn = own(new Program(PRELU_VALID_DYNAMIC));
        for (Program.Parameter prm : dyn.parameters()) {
            assertEquals(-1, prm.validRows());
            assertEquals(-1, prm.validCols());
            assertFalse(prm.hasStaticValid());
        }
        assertTrue(dyn.parameter("a").toString().contains("16x16 valid=?x?"), dyn.parameter("a").toString());
    }

    @Test
    void ssaSnippetMatchesTpow() {
        Program p = own(new Program(POW_SSA));
        Tile base = tile(values(256, 3, 0, 8));
        Tile exp = tile(values(256, 4, 3, 3));
        Tile tmp = own(new Tile(DType.FLOAT32, 16, 16));
        Tile want = own(new Tile(DType.FLOAT32, 16, 16));
        Pto.tpow(want, base, exp, tmp, PowAlgorithm.DEFAULT);
        try (Program.Arguments args = p.arguments()) {
            Map<String, Tile> out = p.run(args.set("base", base).set("exp", exp));
            try (Tile dst = out.get("dst")) {
                assertNotNull(dst);
                assertSameBits(want.readFloats(), dst.readFloats());
            }
        }
    }

    @Test
    void kernelOnOneAndThreeBlocks() {
        Program p = own(new Program(PRELU_KERNEL, "prelu_rows.pto", null));
        List<Program.Parameter> ps = p.parameters();
        assertEquals(4, ps.size());
        assertEquals(Program.Kind.POINTER, ps.get(0).kind());
        assertEquals(Program.Kind.INT, ps.get(3).kind());
        assertTrue(ps.get(2).writes());
        assertFalse(ps.get(2).reads());
        int n = 7;
        float[] xv = values(n * 64, 5, 3, 3);
        float[] sv = values(n * 64, 6, 1, 1);
        ByteBuffer x = direct(xv);
        ByteBuffer s = direct(sv);
        ByteBuffer y1 = direct(new float[n * 64]);
        ByteBuffer y3 = direct(new float[n * 64]);
        try (Program.Arguments args = p.arguments()) {
            args.set("x", x).set("s", s).set("y", y1).set("n", n);
            assertTrue(p.run(args).isEmpty());
            args.set(2, y3);
            assertTrue(p.launch(3, args).isEmpty());
        }
        assertSameBits(floats(y1), floats(y3));
        // The same computation through the direct call, 4 rows at a time.
        float[] y = floats(y1);
        try (Tile a = new Tile(DType.FLOAT32, 4, 16); Tile b = new Tile(DType.FLOAT32, 4, 16);
             Tile o = new Tile(DType.FLOAT32, 4, 16)) {
            for (int r = 0; r < n; r++) {
                a.write(java.util.Arrays.copyOfRange(xv, r * 64, (r + 1) * 64));
                b.write(java.util.Arrays.copyOfRange(sv, r * 64, (r + 1) * 64));
                Pto.tprelu(o, a, b, null);
                assertSameBits(o.readFloats(), java.util.Arrays.copyOfRange(y, r * 64, (r + 1) * 64));
            }
        }
    }

    @Test
    void errorsCarryThePosition() {
        ProgramException e = assertThrows(ProgramException.class, () -> new Program("pto.tfoo ins()", "bad.pto"));
        assertEquals(Status.INVALID_ARGUMENT, e.status());
        assertEquals(1, e.line());
        assertEquals(1, e.column());
        assertEquals("bad.pto", e.sourceName());
        assertTrue(e.detail().startsWith("bad.pto:1:1: error: "), e.detail());

        e = assertThrows(ProgramException.class, () -> new Program("\n\n  pto.tfoo ins()"));
        assertEquals(3, e.line());
        assertEquals(3, e.column());
        assertTrue(e.detail().startsWith("<string>:3:3: error: "), e.detail());

        Program p = own(new Program(PRELU_KERNEL, "k.pto"));
        ByteBuffer small = direct(new float[64]);
        try (Program.Arguments args = p.arguments()) {
            // A missing argument that the program reads.
            args.set("s", small).set("y", small).set("n", 1);
            PtoException missing = assertThrows(PtoException.class, () -> p.run(args));
            assertEquals(Status.INVALID_ARGUMENT, missing.status());
            assertFalse(missing instanceof ProgramException);
            assertTrue(missing.detail().contains("%x is read but not bound"), missing.detail());
            // Unknown names and values of the wrong kind.
            assertEquals(Status.INVALID_ARGUMENT, assertThrows(PtoException.class, () -> args.set("nope", 1)).status());
            assertEquals(Status.INVALID_ARGUMENT, assertThrows(PtoException.class, () -> args.set("n", 1.5)).status());
            assertThrows(IllegalArgumentException.class, () -> args.set("x", ByteBuffer.allocate(64)));
            assertEquals(Status.INVALID_ARGUMENT,
                    assertThrows(PtoException.class, () -> args.set("y", small.asReadOnlyBuffer())).status());
            // A run-time fault, with its position: n larger than the arrays.
            args.set("x", small).set("n", 2);
            ProgramException fault = assertThrows(ProgramException.class, () -> p.run(args));
            assertEquals(Status.OUT_OF_RANGE, fault.status());
            assertTrue(fault.line() > 1);
            assertEquals("k.pto", fault.sourceName());
        }

        Program closed = new Program(POW_SSA);
        Program.Arguments args = closed.arguments();
        closed.close();
        closed.close();
        assertTrue(closed.isClosed());
        assertEquals(Status.NULL_ARGUMENT, assertThrows(PtoException.class, () -> closed.run(args)).status());
        args.close();
        args.close();
    }

    /** examples/pto/entry-by-name.pto: two public functions and no pto.entry mark, the entry chosen by name. */
    static final String TWO_PUBLIC = readExample("entry-by-name.pto");

    @Test
    void entryByNameAndDescribe() {
        ProgramException e = assertThrows(ProgramException.class, () -> new Program(TWO_PUBLIC, "two.pto"));
        assertEquals(Status.INVALID_ARGUMENT, e.status());
        assertTrue(e.detail().contains("2 public functions (@fill, @twice)"), e.detail());
        assertEquals(Status.INVALID_ARGUMENT,
                assertThrows(PtoException.class, () -> new Program(TWO_PUBLIC, null, "", null)).status());
        PtoException none = assertThrows(PtoException.class, () -> new Program(TWO_PUBLIC, null, "nope", null));
        assertEquals(Status.INVALID_ARGUMENT, none.status());
        assertTrue(none.detail().contains("no function @nope"), none.detail());

        Program p = own(new Program(TWO_PUBLIC, "two.pto", "twice", null));
        List<Program.Parameter> ps = p.parameters();
        assertEquals(2, ps.size());
        assertEquals("n", ps.get(1).name());
        assertEquals(Program.Kind.INT, ps.get(1).kind());
        String d = p.describe();
        assertTrue(d.contains("@twice(") && d.contains("(entry)") && d.contains("@fill("), d);
        ByteBuffer out = ByteBuffer.allocateDirect(4).order(ByteOrder.nativeOrder());
        try (Program.Arguments args = p.arguments()) {
            args.set("p", out).set("n", 21);
            p.run(args);
        }
        assertEquals(42, out.getInt(0));

        // With a leading '@', under a profile: the other function.
        Program q = new Program(TWO_PUBLIC, null, "@fill", Profile.A5);
        assertEquals(1, q.parameters().size());
        assertEquals(Profile.A5, q.profile());
        assertTrue(q.describe().contains("@fill(%p: !pto.ptr<i32>)  (entry)"), q.describe());
        q.close();
        assertEquals(Status.NULL_ARGUMENT, assertThrows(PtoException.class, q::describe).status());
    }

    @Test
    void profilesAndNames() {
        try (Program p = new Program(PRELU_DPS, null, Profile.A5)) {
            assertEquals(Profile.A5, p.profile());
        }
        assertEquals(Profile.HOST, Profile.current());
        assertEquals("FLOAT16", DType.FLOAT16.toString());
        assertEquals(pto_param_kind.PTO_PARAM_TILE, Program.Kind.TILE.code());
        assertEquals(pto_param_kind.PTO_PARAM_POINTER, Program.Kind.POINTER.code());
    }
}
