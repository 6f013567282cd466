"""libpto quickstart in Python: a row softmax, y = exp(x - max(x)) /
sum(exp(x - max(x))) along each row of a 64x256 float32 matrix, from the
binding's calls (trowmax, trowexpandsub, texp, trowsum, trowexpanddiv) and
from the kernel examples/kernels/softmax.pto run as a Program on 2 blocks;
the two must agree bit for bit (examples/quickstart.c in C).

    pip install .            # in a libpto checkout
    python examples/python/quickstart.py
"""

import pathlib

import numpy as np

import pto

ROWS, COLS, BLOCKS = 64, 256, 2
KERNEL = pathlib.Path(__file__).resolve().parent.parent / "kernels" / "softmax.pto"


def lcg_input():
    """Inputs in [-8, 8) from the linear congruential sequence every quickstart
    uses, so each prints the same numbers."""
    state, values = 12345, []
    for _ in range(ROWS * COLS):
        state = (state * 1664525 + 1013904223) % 2**32
        values.append(state >> 8)
    return (np.array(values, np.float32) / np.float32(2**24) * np.float32(16) - np.float32(8)).reshape(ROWS, COLS)


def softmax_from_calls(x):
    """The five instructions on one 64x256 tile, in place; max and sum are one
    column of 64 rows."""
    t = pto.Tile.from_numpy(x)  # a copy
    mx = pto.Tile(pto.DType.FLOAT32, ROWS, 1)
    total = pto.Tile(pto.DType.FLOAT32, ROWS, 1)
    pto.trowmax(mx, t)  # max(i) = max_j x(i,j)
    pto.trowexpandsub(t, t, mx)  # x(i,j) - max(i)
    pto.texp(t, t)  # e^(x - max)
    pto.trowsum(total, t)  # sum(i) = sum_j e^(...)
    pto.trowexpanddiv(t, t, total)  # e^(...) / sum(i)
    return t.numpy()  # a view of the tile's memory, no copy


def softmax_from_kernel(x):
    """The kernel file, verified once, run on BLOCKS blocks; y is bound
    zero-copy and holds the result after the run."""
    prog = pto.Program(KERNEL.read_text(), name=str(KERNEL), entry="softmax")
    y = np.zeros_like(x)
    prog(BLOCKS, x=x, y=y, m=ROWS, n=COLS)
    print(f"  {KERNEL.name}: verified under profile {prog.profile.name}, run on {BLOCKS} blocks")
    return y


def main():
    print(f"libpto {pto.__version__}, SIMD target {pto.simd_target()}\n")
    print(f"Row softmax of a {ROWS}x{COLS} float32 matrix, y = exp(x - max(x)) / sum(exp(x - max(x)))")
    x = lcg_input()

    # The calls check the rules of the profile the kernel declares (A5).
    with pto.profile(pto.Profile.A5):
        y_calls = softmax_from_calls(x)
    print(f"  calls: trowmax, trowexpandsub, texp, trowsum, trowexpanddiv on one {ROWS}x{COLS} tile")
    y_kernel = softmax_from_kernel(x)

    e = np.exp(x.astype(np.float64) - x.max(axis=1, keepdims=True))
    exact = e / e.sum(axis=1, keepdims=True)
    print("\n  x[0][0..3] " + " ".join(f"{v:10.6f}" for v in x[0, :4]))
    print("  y[0][0..3] " + " ".join(f"{v:10.6g}" for v in y_calls[0, :4]))
    deviation = np.max(np.abs(y_calls - exact) / exact)
    print(f"  largest relative deviation from a softmax in double: {deviation:.3g} "
          f"(float32's epsilon {np.finfo(np.float32).eps:.3g})")
    same = y_calls.tobytes() == y_kernel.tobytes()
    print(f"  calls and the kernel on {BLOCKS} blocks: {'the same bits' if same else 'DIFFERENT bits'}")

    print(f"\nErrors are exceptions: trowexpanddiv by a 32-row column against {ROWS} rows")
    t = pto.Tile(pto.DType.FLOAT32, ROWS, COLS)
    try:
        pto.trowexpanddiv(t, t, pto.Tile(pto.DType.FLOAT32, ROWS // 2, 1))
    except pto.ShapeMismatchError as e:  # also a ValueError
        print(f"  PTO_{e.status.name}: {e}")
    if not same:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
