"""Cube tiles: Tile.cube's location and layout, values() and write_values()
row-major whatever the layout (numpy() the byte image), and the matrix
multiplies under A2A3 and A5 on the NPU's cube tiles giving HOST's bits on
row-major tiles; the refusals naming the profile."""

import numpy as np
import pytest

import pto

L, Y, D = pto.Location, pto.Layout, pto.DType


def test_cube_tile_attributes_and_values():
    t = pto.Tile.cube(D.FLOAT32, 16, 16, L.LEFT, Y.NZ)
    assert (t.location, t.layout, t.shape, t.valid) == (L.LEFT, Y.NZ, (16, 16), (16, 16))
    assert pto.Tile(D.FLOAT32, 2, 2).location is L.VEC and pto.Tile(D.FLOAT32, 2, 2).layout is Y.ND
    values = np.arange(256, dtype=np.float32).reshape(16, 16)
    t.write_values(values)
    assert np.array_equal(t.values(), values)
    # NZ of float32: 16 x 8 boxes in column order, so (0, 8) opens the second box.
    image = t.numpy().reshape(-1)
    assert image[1] == values[0, 1] and image[8] == values[1, 0] and image[128] == values[0, 8]
    with pytest.raises(ValueError):
        t.write_values(values[:8])


def test_cube_tile_refusals():
    with pytest.raises(pto.InvalidArgumentError, match="a vec tile is row-major"):
        pto.Tile.cube(D.FLOAT32, 16, 16, L.VEC, Y.ZZ)
    with pytest.raises(pto.InvalidArgumentError, match="do not tile 16x12"):
        pto.Tile.cube(D.FLOAT32, 16, 12, L.LEFT, Y.NZ)


@pytest.mark.parametrize("profile, left", [(pto.Profile.A2A3, Y.ZZ), (pto.Profile.A5, Y.NZ)])
@pytest.mark.parametrize("dst_dtype, src_dtype", [(D.FLOAT32, D.FLOAT16), (D.FLOAT32, D.FLOAT32),
                                                  (D.INT32, D.INT8)])
def test_npu_matmul_equals_host(profile, left, dst_dtype, src_dtype):
    rng = np.random.default_rng(7)
    m, k, n = 32, 64, 16
    if src_dtype is D.INT8:
        a_values = rng.integers(-128, 128, (m, k)).astype(np.int8)
        b_values = rng.integers(-128, 128, (k, n)).astype(np.int8)
    else:
        a_values = rng.standard_normal((m, k)).astype(np.float16 if src_dtype is D.FLOAT16 else np.float32)
        b_values = rng.standard_normal((k, n)).astype(a_values.dtype)
    bias_values = np.arange(n, dtype=np.float32 if dst_dtype is D.FLOAT32 else np.int32).reshape(1, n)
    ha, hb = pto.Tile.from_numpy(a_values), pto.Tile.from_numpy(b_values)
    hc, hbias = pto.Tile(dst_dtype, m, n), pto.Tile.from_numpy(bias_values)
    pto.tmatmul_bias(hc, ha, hb, hbias)
    ca, cb = pto.Tile.cube(src_dtype, m, k, L.LEFT, left), pto.Tile.cube(src_dtype, k, n, L.RIGHT, Y.ZN)
    cc, cbias = pto.Tile.cube(dst_dtype, m, n, L.ACC, Y.NZ), pto.Tile.cube(dst_dtype, 1, n, L.BIAS, Y.ND)
    ca.write_values(a_values)
    cb.write_values(b_values)
    cbias.write_values(bias_values)
    with pto.profile(profile):
        pto.tmatmul_bias(cc, ca, cb, cbias)
        with pytest.raises(pto.InvalidArgumentError, match=f"under {profile.name} a must be a left"):
            pto.tmatmul(hc, ha, hb)
    assert cc.values().tobytes() == hc.numpy().tobytes()
