// Quickstart: a row softmax, y = exp(x - max(x)) / sum(exp(x - max(x)))
// along each row of a 64x256 float32 matrix, from the binding's calls
// (trowmax, trowexpandsub, texp, trowsum, trowexpanddiv) and from the kernel
// examples/kernels/softmax.pto run as a Program on 2 blocks; the two must
// agree bit for bit (the Java version of examples/quickstart.c).
//
// With the binding's jar built (`meson test --suite java`, or mvn package in
// bindings/java; it carries its native libraries), run this single file from
// the checkout (KERNEL.pto defaults to examples/kernels/softmax.pto):
//
//   java -cp build/bindings/java/maven/pto-0.6.0.jar examples/java/Quickstart.java [KERNEL.pto]

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.libpto.DType;
import org.libpto.Profile;
import org.libpto.Program;
import org.libpto.Pto;
import org.libpto.PtoException;
import org.libpto.Status;
import org.libpto.Tile;

public class Quickstart {
    static final int ROWS = 64;
    static final int COLS = 256;
    static final int BLOCKS = 2;

    /** x in [-8, 8) from the linear congruential sequence every quickstart uses, so each prints the same numbers. */
    static float[] input() {
        float[] x = new float[ROWS * COLS];
        int state = 12345;
        for (int i = 0; i < x.length; i++) {
            state = state * 1664525 + 1013904223;  // modulo 2^32
            x[i] = (float) (state >>> 8) / (float) (1 << 24) * 16f - 8f;
        }
        return x;
    }

    /** The five instructions on one 64x256 tile, in place; max and sum are one column of 64 rows. */
    static float[] softmaxFromCalls(float[] x) {
        try (Tile t = new Tile(DType.FLOAT32, ROWS, COLS);
                Tile max = new Tile(DType.FLOAT32, ROWS, 1);
                Tile sum = new Tile(DType.FLOAT32, ROWS, 1)) {
            t.write(x);
            Pto.trowmax(max, t);              // max(i) = max_j x(i,j)
            Pto.trowexpandsub(t, t, max);     // x(i,j) - max(i)
            Pto.texp(t, t);                   // e^(x - max)
            Pto.trowsum(sum, t);              // sum(i) = sum_j e^(...)
            Pto.trowexpanddiv(t, t, sum);     // e^(...) / sum(i)
            return t.readFloats();
        }
    }

    /** The kernel file, verified once, run on BLOCKS blocks; x and y are bound zero-copy. */
    static float[] softmaxFromKernel(Path path, float[] x) throws IOException {
        ByteBuffer xb = ByteBuffer.allocateDirect(x.length * 4).order(ByteOrder.nativeOrder());
        xb.asFloatBuffer().put(x);
        ByteBuffer yb = ByteBuffer.allocateDirect(x.length * 4).order(ByteOrder.nativeOrder());
        try (Program p = new Program(Files.readString(path), path.toString(), "softmax", null);
                Program.Arguments args = p.arguments()) {
            args.set("x", xb).set("y", yb).set("m", ROWS).set("n", COLS);
            p.launch(BLOCKS, args);
            System.out.printf("  %s: verified under profile %s, run on %d blocks%n", path, p.profile(), BLOCKS);
        }
        float[] y = new float[x.length];
        yb.asFloatBuffer().get(y);
        return y;
    }

    /** The largest relative deviation of y from a softmax of x computed in double. */
    static double largestDeviation(float[] x, float[] y) {
        double worst = 0;
        for (int i = 0; i < ROWS; i++) {
            double max = Double.NEGATIVE_INFINITY;
            double sum = 0;
            for (int j = 0; j < COLS; j++) {
                max = Math.max(max, x[i * COLS + j]);
            }
            for (int j = 0; j < COLS; j++) {
                sum += Math.exp(x[i * COLS + j] - max);
            }
            for (int j = 0; j < COLS; j++) {
                double exact = Math.exp(x[i * COLS + j] - max) / sum;
                worst = Math.max(worst, Math.abs(y[i * COLS + j] - exact) / exact);
            }
        }
        return worst;
    }

    public static void main(String[] args) throws IOException {
        Path kernel = Path.of(args.length > 0 ? args[0] : "examples/kernels/softmax.pto");
        System.out.printf("libpto %s, SIMD target %s%n%n", Pto.version(), Pto.simdTarget());
        System.out.printf("Row softmax of a %dx%d float32 matrix, y = exp(x - max(x)) / sum(exp(x - max(x)))%n", ROWS, COLS);
        float[] x = input();

        float[] yCalls;
        // The calls check the rules of the profile the kernel declares (A5).
        try (Profile.Scope s = Profile.A5.activate()) {
            yCalls = softmaxFromCalls(x);
        }
        System.out.printf("  calls: trowmax, trowexpandsub, texp, trowsum, trowexpanddiv on one %dx%d tile%n", ROWS, COLS);
        float[] yKernel = softmaxFromKernel(kernel, x);

        System.out.printf("%n  x[0][0..3] %10.6f %10.6f %10.6f %10.6f%n", x[0], x[1], x[2], x[3]);
        System.out.printf("  y[0][0..3] %10.6g %10.6g %10.6g %10.6g%n", yCalls[0], yCalls[1], yCalls[2], yCalls[3]);
        System.out.printf("  largest relative deviation from a softmax in double: %.3g (float32's epsilon %.3g)%n",
                largestDeviation(x, yCalls), Math.ulp(1f));
        // Arrays.equals on float[] compares the bits (floatToIntBits; every NaN alike, none here).
        boolean same = Arrays.equals(yCalls, yKernel);
        System.out.printf("  calls and the kernel on %d blocks: %s%n", BLOCKS, same ? "the same bits" : "DIFFERENT bits");

        System.out.printf("%nErrors are exceptions: trowexpanddiv by a 32-row column against %d rows%n", ROWS);
        try (Tile t = new Tile(DType.FLOAT32, ROWS, COLS); Tile half = new Tile(DType.FLOAT32, ROWS / 2, 1)) {
            Pto.trowexpanddiv(t, t, half);
            throw new AssertionError("a 32-row column against 64 rows was accepted");
        } catch (PtoException e) {
            System.out.printf("  %s: %s%n", e.status().cName(), e.detail());
            if (e.status() != Status.SHAPE_MISMATCH) {
                throw e;
            }
        }
        if (!same) {
            System.exit(1);
        }
    }
}
