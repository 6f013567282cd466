package example;

import java.util.Arrays;
import java.util.Map;
import org.libpto.DType;
import org.libpto.Program;
import org.libpto.ProgramException;
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
        // A program: a snippet whose result tile run creates.
        try (Program prog = new Program("%y = pto.trsqrt %x : (!pto.tile<1x4xf32>) -> !pto.tile<1x4xf32>", "user.pto");
             Program.Arguments bound = prog.arguments();
             Tile x = new Tile(DType.FLOAT32, 1, 4)) {
            x.write(new float[] {1, 4, 16, 64});
            Map<String, Tile> out = prog.run(bound.set("x", x));
            try (Tile y = out.get("y")) {
                float[] r = y.readFloats();
                System.out.println("java program: " + Arrays.toString(r));
                if (r[3] != 0.125f) {
                    throw new AssertionError(Arrays.toString(r));
                }
            }
        }
        try {
            new Program("pto.tfoo ins()").close();
            throw new AssertionError("no error");
        } catch (ProgramException e) {
            if (e.line() != 1 || e.column() != 1) {
                throw e;
            }
        }
    }
}
