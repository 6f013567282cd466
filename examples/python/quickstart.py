"""libpto quickstart in Python: runs tpow, trsqrt, tprelu, tcolexpanddiv and
tpartadd on small tiles and prints inputs and results (examples/quickstart.c in
C).

    pip install .            # in a libpto checkout
    python examples/python/quickstart.py
"""

import numpy as np

import pto


def show(name, tile):
    print(f"  {name:<6} [{tile.rows}x{tile.cols} valid {tile.valid[0]}x{tile.valid[1]}]")
    for row in tile.numpy():  # a view of the tile's memory, no copy
        print("    " + " ".join(f"{v:10.6g}" for v in row))


def main():
    print(f"libpto {pto.__version__}, SIMD target {pto.simd_target()}\n")

    x = pto.Tile.from_numpy(np.array([[2, -3, 0.5, 9], [-1.5, 4, 10, 0]], dtype=np.float32))
    y = pto.Tile.from_numpy(np.array([[10, 3, -2, 0.5], [0.25, 0.25, -1, 0.1]], dtype=np.float32))
    dst = pto.Tile(pto.DType.FLOAT32, 2, 4)
    tmp = pto.Tile(pto.DType.FLOAT32, 2, 4)
    show("x", x)
    show("y", y)

    print("\nTPOW dst = x ^ y (high precision)")
    show("dst", pto.tpow(dst, x, y, tmp, pto.PowAlgorithm.HIGH_PRECISION))

    print("\nTRSQRT dst = 1 / sqrt(x)  (negative -> NaN, 0 -> inf)")
    show("dst", pto.trsqrt(dst, x))

    print("\nTPRELU dst = x > 0 ? x : x * y")
    show("dst", pto.tprelu(dst, x, y))

    print("\nTCOLEXPANDDIV dst[i,j] = x[i,j] / y[0,j]")
    show("dst", pto.tcolexpanddiv(dst, x, y))

    print("\nTPARTADD with y valid only in its 1x2 corner: sum there, copy of x elsewhere")
    y.valid = (1, 2)
    show("dst", pto.tpartadd(dst, x, y))

    print("\nErrors are exceptions: a 1x2 base against a 2x4 dst")
    try:
        pto.tpow(dst, y, x, tmp)
    except pto.ShapeMismatchError as e:  # also a ValueError
        print(f"  PTO_{e.status.name}: {e}")


if __name__ == "__main__":
    main()
