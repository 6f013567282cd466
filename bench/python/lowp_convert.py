"""tcvt into and out of the low-precision formats against tcvt float32 ->
float16, per element, on one 1024 x 1024 tile (the goal: float32 -> FP8 at
most 1.5x float32 -> float16's time; TCVT has no bfloat16 -> FP8 pair, so
bfloat16 -> FP4 stands for the narrow source). A pair the profile does not
offer is printed as such.

    PYTHONPATH=build/bindings/python python bench/python/lowp_convert.py [--rounds 7] [--size 1024] [--target AVX2]

Each figure is the best of --rounds rounds of enough calls for ~50 ms, the
conversions taking turns so that all see the same load; ratio = the
conversion's time / float32 -> float16's. Rounding RINT (nearest even)
unless the label names a mode, saturation on. --target restricts libpto's
kernels to one Highway target as vs_numpy.py's --target does.
"""

import argparse
import time

import numpy as np

import pto
from vs_numpy import select_target

D = pto.DType
R = pto.RoundMode
CASES = [  # (src, dst, label[, mode]): RINT unless a mode is given
    (D.FLOAT32, D.FLOAT16, "float32 -> float16 (the line)"),
    (D.FLOAT32, D.BFLOAT16, "float32 -> bfloat16"),
    (D.FLOAT32, D.FLOAT8_E4M3, "float32 -> FP8 E4M3"),
    (D.FLOAT32, D.FLOAT8_E5M2, "float32 -> FP8 E5M2"),
    (D.FLOAT32, D.FLOAT8_E4M3, "float32 -> FP8 E4M3 FLOOR", R.FLOOR),
    (D.FLOAT32, D.HIFLOAT8, "float32 -> HiFloat8"),
    (D.FLOAT32, D.HIFLOAT8, "float32 -> HiFloat8 ROUND", R.ROUND),
    (D.FLOAT32, D.HIFLOAT8, "float32 -> HiFloat8 TRUNC", R.TRUNC),
    (D.FLOAT16, D.HIFLOAT8, "float16 -> HiFloat8 ROUND", R.ROUND),
    (D.BFLOAT16, D.FLOAT4_E2M1X2, "bfloat16 -> FP4 E2M1"),
    (D.BFLOAT16, D.FLOAT4_E1M2X2, "bfloat16 -> FP4 E1M2 CEIL", R.CEIL),
    (D.BFLOAT16, D.FLOAT8_E4M3, "bfloat16 -> FP8 E4M3"),
    (D.FLOAT16, D.FLOAT8_E4M3, "float16 -> FP8 E4M3"),
    (D.FLOAT8_E4M3, D.FLOAT32, "FP8 E4M3 -> float32"),
    (D.FLOAT8_E5M2, D.FLOAT32, "FP8 E5M2 -> float32"),
    (D.HIFLOAT8, D.FLOAT32, "HiFloat8 -> float32"),
    (D.FLOAT4_E2M1X2, D.BFLOAT16, "FP4 E2M1 -> bfloat16"),
    (D.FLOAT8_E5M2, D.BFLOAT16, "FP8 E5M2 -> bfloat16"),
]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--size", type=int, default=1024)
    parser.add_argument("--target", help="restrict libpto to this Highway target, e.g. AVX2")
    args = parser.parse_args()
    if args.target:
        select_target(args.target)
    n = args.size
    rng = np.random.default_rng(3)
    values = (rng.standard_normal((n, n)) * 8).astype(np.float32)
    source = pto.Tile.from_numpy(values)
    calls = []
    packed = (D.FLOAT4_E2M1X2, D.FLOAT4_E1M2X2, D.INT4X2)  # two values a byte

    def tile(dt):
        return pto.Tile(dt, n, n // 2 if dt in packed else n)

    for src_dt, dst_dt, label, *mode in CASES:
        mode = mode[0] if mode else R.RINT
        src = source
        if src_dt in packed:  # no FLOAT32 -> FP4 pair: random codes
            src = tile(src_dt)
            src.numpy().view(np.uint8)[...] = rng.integers(0, 256, src.numpy().view(np.uint8).shape)
        elif src_dt != D.FLOAT32:
            src = tile(src_dt)
            pto.tcvt(src, source, None, pto.RoundMode.RINT, pto.Saturation.ON)
        dst = tile(dst_dt)
        call = (lambda d=dst, s=src, m=mode: pto.tcvt(d, s, None, m, pto.Saturation.ON))
        try:
            call()
        except pto.Error as e:
            print(f"{label}: not offered ({e})")
            continue
        calls.append((label, call))
    best = [float("inf")] * len(calls)
    reps = 20
    for _ in range(args.rounds):
        for i, (_, call) in enumerate(calls):
            start = time.perf_counter()
            for _ in range(reps):
                call()
            best[i] = min(best[i], (time.perf_counter() - start) / reps)
    print(f"libpto {pto.__version__}, target {pto.simd_target()}; {n}x{n} tiles, best of {args.rounds}")
    print(f"{'conversion':<32} {'ns/elem':>8} {'ratio':>6}")
    for (label, _), t in zip(calls, best):
        print(f"{label:<32} {t / (n * n) * 1e9:>8.3f} {t / best[0]:>6.2f}")


if __name__ == "__main__":
    main()
