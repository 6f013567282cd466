"""pto.tmatmul_mx (FP8 E4M3 and FP4 E2M1 operands with e8m0 scales per 32
k) against pto.tmatmul on float32 tiles of the same M x K x N, in GFLOP/s
(the goal: the MX multiply at least 0.8x the float32 rate).

    PYTHONPATH=build/bindings/python python bench/python/mx_matmul_rate.py [--rounds 7]

Row-major HOST tiles; each figure the best of --rounds rounds, the
candidates taking turns.
"""

import argparse
import time

import numpy as np

import pto

D = pto.DType
SHAPES = [(16, 128, 256), (64, 64, 64), (128, 128, 128), (256, 256, 256), (512, 512, 512)]


def best(rounds, reps, fn):
    t = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        for _ in range(reps):
            fn()
        t = min(t, (time.perf_counter() - start) / reps)
    return t


def filled(dtype, rows, cols, rng, lo=0, hi=256):
    t = pto.Tile(dtype, rows, cols)
    t.numpy().view(np.uint8)[...] = rng.integers(lo, hi, t.numpy().view(np.uint8).shape)
    return t


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    rng = np.random.default_rng(5)
    print(f"libpto {pto.__version__}, target {pto.simd_target()}")
    print(f"{'M x K x N':>16} {'f32 GFLOP/s':>12} {'FP8 GFLOP/s':>12} {'ratio':>6} {'FP4 GFLOP/s':>12} {'ratio':>6}")
    for m, k, n in SHAPES:
        flops = 2.0 * m * k * n
        reps = max(3, int(1e8 // flops))
        a32 = pto.Tile.from_numpy(rng.standard_normal((m, k)).astype(np.float32))
        b32 = pto.Tile.from_numpy(rng.standard_normal((k, n)).astype(np.float32))
        d32 = pto.Tile(D.FLOAT32, m, n)
        # FP8 codes without NaN (E4M3's 0x7F, 0xFF) and scales near 2^0.
        a8, b8 = filled(D.FLOAT8_E4M3, m, k, rng, 0, 0x7F), filled(D.FLOAT8_E4M3, k, n, rng, 0, 0x7F)
        a4, b4 = filled(D.FLOAT4_E2M1X2, m, k // 2, rng), filled(D.FLOAT4_E2M1X2, k, n // 2, rng)
        sa = filled(D.FLOAT8_E8M0, m, k // 32, rng, 120, 135)
        sb = filled(D.FLOAT8_E8M0, k // 32, n, rng, 120, 135)
        dmx = pto.Tile(D.FLOAT32, m, n)
        calls = [lambda: pto.tmatmul(d32, a32, b32),
                 lambda: pto.tmatmul_mx(dmx, a8, sa, b8, sb),
                 lambda: pto.tmatmul_mx(dmx, a4, sa, b4, sb)]
        times = [float("inf")] * 3
        for _ in range(args.rounds):
            for i, call in enumerate(calls):
                times[i] = min(times[i], best(1, reps, call))
        rate = [flops / t / 1e9 for t in times]
        print(f"{m:>4} x {k:>4} x {n:>4} {rate[0]:>12.1f} {rate[1]:>12.1f} {rate[1] / rate[0]:>6.2f} "
              f"{rate[2]:>12.1f} {rate[2] / rate[0]:>6.2f}")


if __name__ == "__main__":
    main()
