// Quickstart: runs tpow, trsqrt, tprelu, tcolexpanddiv and tpartadd on small
// tiles and prints inputs and results (the Java version of
// examples/quickstart.c).
//
// With the binding's jar built (`meson test --suite java`, or mvn package in
// bindings/java; it carries its native libraries), run this single file:
//
//   java -cp build/bindings/java/maven/pto-0.5.0.jar examples/java/Quickstart.java

import org.libpto.DType;
import org.libpto.PowAlgorithm;
import org.libpto.Pto;
import org.libpto.PtoException;
import org.libpto.Status;
import org.libpto.Tile;

public class Quickstart {
    static final int ROWS = 2;
    static final int COLS = 4;

    static void show(String name, Tile t) {
        System.out.printf("  %-6s [%dx%d valid %dx%d]", name, t.rows(), t.cols(), t.validRows(), t.validCols());
        float[] v = t.readFloats();
        for (int i = 0; i < v.length; i++) {
            System.out.print((i % t.cols() == 0 ? "\n    " : " ") + String.format("%10.6g", v[i]));
        }
        System.out.println();
    }

    public static void main(String[] args) {
        System.out.printf("libpto %s, SIMD target %s%n%n", Pto.version(), Pto.simdTarget());

        try (Tile x = new Tile(DType.FLOAT32, ROWS, COLS);
                Tile y = new Tile(DType.FLOAT32, ROWS, COLS);
                Tile dst = new Tile(DType.FLOAT32, ROWS, COLS);
                Tile tmp = new Tile(DType.FLOAT32, ROWS, COLS)) {
            x.write(new float[] {2, -3, 0.5f, 9, -1.5f, 4, 10, 0});
            y.write(new float[] {10, 3, -2, 0.5f, 0.25f, 0.25f, -1, 0.1f});
            show("x", x);
            show("y", y);

            System.out.println("\nTPOW dst = x ^ y (high precision)");
            Pto.tpow(dst, x, y, tmp, PowAlgorithm.HIGH_PRECISION);
            show("dst", dst);

            System.out.println("\nTRSQRT dst = 1 / sqrt(x)  (negative -> NaN, 0 -> inf)");
            Pto.trsqrt(dst, x);
            show("dst", dst);

            System.out.println("\nTPRELU dst = x > 0 ? x : x * y");
            Pto.tprelu(dst, x, y);
            show("dst", dst);

            System.out.println("\nTCOLEXPANDDIV dst[i,j] = x[i,j] / y[0,j]");
            Pto.tcolexpanddiv(dst, x, y);
            show("dst", dst);

            System.out.println("\nTPARTADD with y valid only in its 1x2 corner: sum there, copy of x elsewhere");
            y.setValid(1, 2);
            Pto.tpartadd(dst, x, y);
            show("dst", dst);

            System.out.println("\nErrors are exceptions: a 1x2 base against a 2x4 dst");
            try {
                Pto.tpow(dst, y, x, tmp, PowAlgorithm.DEFAULT);
                throw new AssertionError("a 1x2 base against a 2x4 dst was accepted");
            } catch (PtoException e) {
                System.out.printf("  %s: %s%n", e.status().cName(), e.detail());
                if (e.status() != Status.SHAPE_MISMATCH) {
                    throw e;
                }
            }
        }
    }
}
