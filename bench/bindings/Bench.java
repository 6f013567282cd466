import java.util.Arrays;
import org.libpto.DType;
import org.libpto.Pto;
import org.libpto.Tile;

/** The Java row of bench/bindings/run.sh (best of 31 rounds after warm-up), printed as "java CASE NS". */
public final class Bench {
    static void run(String name, int n, long iters) {
        try (Tile dst = new Tile(DType.FLOAT32, n, n); Tile src = new Tile(DType.FLOAT32, n, n)) {
            float[] v = new float[n * n];
            for (int i = 0; i < v.length; i++) {
                v[i] = i + 1;
            }
            src.write(v);
            for (long i = 0; i < 10 * iters; i++) { // warm-up: JIT
                Pto.trsqrt(dst, src);
            }
            double[] rounds = new double[31];
            for (int r = 0; r < rounds.length; r++) {
                long t0 = System.nanoTime();
                for (long i = 0; i < iters; i++) {
                    Pto.trsqrt(dst, src);
                }
                rounds[r] = (double) (System.nanoTime() - t0) / iters;
            }
            Arrays.sort(rounds);
            System.out.printf("java %s %.1f%n", name, rounds[0]);
        }
    }

    public static void main(String[] args) {
        run("trsqrt_1x1", 1, 200_000);
        run("trsqrt_64x64", 64, 2_000);
    }
}
