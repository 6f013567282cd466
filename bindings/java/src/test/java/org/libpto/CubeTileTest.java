package org.libpto;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * Cube tiles keep their location and layout and exchange values row-major;
 * under A2A3 and A5 the matrix multiply on the NPU's cube tiles gives HOST's
 * bits on row-major tiles, and a row-major a is refused naming the profile.
 */
class CubeTileTest {
    @Test
    void npuMatmulEqualsHost() {
        final int m = 16, k = 32, n = 16;
        float[] a = new float[m * k];
        float[] b = new float[k * n];
        for (int i = 0; i < a.length; i++) {
            a[i] = (i % 7) - 3.5f;
        }
        for (int i = 0; i < b.length; i++) {
            b[i] = (i % 5) * 0.25f;
        }
        try (Tile ha = new Tile(DType.FLOAT16, m, k); Tile hb = new Tile(DType.FLOAT16, k, n);
                Tile host = new Tile(DType.FLOAT32, m, n)) {
            ha.write(a);
            hb.write(b);
            Pto.tmatmul(host, ha, hb);
            assertEquals(Location.VEC, host.location());
            assertEquals(Layout.ND, host.layout());
            Profile[] profiles = {Profile.A2A3, Profile.A5};
            Layout[] lefts = {Layout.ZZ, Layout.NZ};
            for (int p = 0; p < 2; p++) {
                try (Tile ca = Tile.cube(DType.FLOAT16, m, k, Location.LEFT, lefts[p]);
                        Tile cb = Tile.cube(DType.FLOAT16, k, n, Location.RIGHT, Layout.ZN);
                        Tile cc = Tile.cube(DType.FLOAT32, m, n, Location.ACC, Layout.NZ)) {
                    assertEquals(Location.LEFT, ca.location());
                    assertEquals(lefts[p], ca.layout());
                    ca.write(a);
                    cb.write(b);
                    try (Profile.Scope s = profiles[p].activate()) {
                        PtoException e = assertThrows(PtoException.class, () -> Pto.tmatmul(cc, ha, cb));
                        assertEquals(Status.INVALID_ARGUMENT, e.status());
                        assertTrue(e.detail().contains("under " + profiles[p] + " a must be a left"), e.detail());
                        Pto.tmatmul(cc, ca, cb);
                    }
                    assertArrayEquals(host.readFloats(), cc.readFloats());
                }
            }
        }
        PtoException e = assertThrows(PtoException.class,
                () -> Tile.cube(DType.FLOAT32, 16, 12, Location.LEFT, Layout.NZ));
        assertEquals(Status.INVALID_ARGUMENT, e.status());
        assertTrue(e.detail().contains("do not tile 16x12"), e.detail());
    }
}
