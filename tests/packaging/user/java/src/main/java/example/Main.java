package example;

import java.util.Arrays;
import org.libpto.DType;
import org.libpto.Pto;
import org.libpto.PtoException;
import org.libpto.Status;
import org.libpto.Tile;

/** A user program of the Java binding, built from the published artifact alone. */
public final class Main {
    public static void main(String[] args) {
        try (Tile x = new Tile(DType.FLOAT32, 1, 4); Tile bad = new Tile(DType.INT32, 1, 4)) {
            x.write(new float[] {1, 4, 16, 64});
            Pto.trsqrt(x, x);
            float[] v = x.readFloats();
            System.out.println("java: " + Pto.version() + " " + Arrays.toString(v));
            try {
                Pto.trsqrt(x, bad);
                throw new AssertionError("no error");
            } catch (PtoException e) {
                if (e.status() != Status.DTYPE_MISMATCH) {
                    throw e;
                }
            }
            if (v[3] != 0.125f) {
                throw new AssertionError(Arrays.toString(v));
            }
        }
    }
}
