"""pto.tmatmul (float32) against numpy's matmul
on the same arrays, in one process, on the tile shapes real cube kernels use
and on larger squares; each result also checked against float64 within the
order's bound gamma_K * sum_k |a||b|.

    OPENBLAS_NUM_THREADS=1 python bench/python/matmul_vs_numpy.py [--rounds 5] [--squares 512,1024]
        [--gemv 1024,4095]

--gemv K,... adds pto.tgemv (one row of a, M = 1) on K x K against numpy's
vector-matrix product (a 1-D vector @ b: BLAS sgemv), checked the same way;
a GEMV reads b once, so its bound is memory bandwidth (4 K^2 bytes).

Say which BLAS numpy uses (numpy.show_config()): Debian's python3-numpy
links the reference BLAS; a PyPI wheel bundles OpenBLAS. Each figure is the
best of --rounds rounds, the two candidates taking turns; ratio = libpto's
time / numpy's (below 1: libpto is faster).
"""

import argparse
import time

import numpy as np

import pto

SHAPES = [(16, 128, 256), (16, 64, 256), (32, 32, 32), (64, 64, 64), (128, 128, 128),
          (256, 256, 256)]


def best_of(rounds, reps, fn):
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        for _ in range(reps):
            fn()
        best = min(best, (time.perf_counter() - start) / reps)
    return best


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--gemv", default="",
                        help="comma-separated K: 1 x K x K GEMVs against numpy's sgemv")
    parser.add_argument("--squares", default="",
                        help="comma-separated N: N x N x N products after the tile shapes "
                             "(e.g. 512,1024,2048,4095)")
    args = parser.parse_args()
    shapes = SHAPES + [(int(n),) * 3 for n in args.squares.split(",") if n]
    rng = np.random.default_rng(1)
    print(f"libpto {pto.__version__}, target {pto.simd_target()}; numpy {np.__version__}")
    try:  # which BLAS library and kernel numpy runs, and on how many threads
        from threadpoolctl import threadpool_info
        for pool in threadpool_info():
            print(f"  {pool.get('internal_api')} {pool.get('version')}, kernel "
                  f"{pool.get('architecture')}, {pool.get('num_threads')} thread(s)")
    except ImportError:
        print("  (threadpoolctl not installed: numpy.show_config() names the BLAS)")
    print(f"{'M x K x N':>16} {'libpto us':>10} {'GFLOP/s':>8} {'numpy us':>10} {'GFLOP/s':>8} "
          f"{'ratio':>6}  bound")
    cases = [(m, k, n, False) for m, k, n in shapes]
    cases += [(1, int(k), int(k), True) for k in args.gemv.split(",") if k]
    for m, k, n, gemv in cases:
        a = rng.standard_normal((m, k)).astype(np.float32)
        b = rng.standard_normal((k, n)).astype(np.float32)
        ta, tb = pto.Tile.from_numpy(a), pto.Tile.from_numpy(b)
        dst = pto.Tile(pto.DType.FLOAT32, m, n)
        flops = 2.0 * m * k * n
        reps = max(3, int(2e8 // flops))
        ours = theirs = float("inf")
        ours_call = (lambda: pto.tgemv(dst, ta, tb)) if gemv else (lambda: pto.tmatmul(dst, ta, tb))
        a1 = a[0]
        theirs_call = (lambda: np.dot(a1, b)) if gemv else (lambda: np.matmul(a, b))
        for _ in range(args.rounds):  # interleaved: both see the same load
            ours = min(ours, best_of(1, reps, ours_call))
            theirs = min(theirs, best_of(1, reps, theirs_call))
        exact = a.astype(np.float64) @ b.astype(np.float64)
        u = 2.0 ** -24
        bound = k * u / (1 - k * u) * (np.abs(a).astype(np.float64) @ np.abs(b).astype(np.float64))
        within = bool((np.abs(dst.numpy() - exact) <= bound).all())
        label = "gemv " if gemv else ""
        print(f"{label}{m:>4} x {k:>4} x {n:>4} {ours * 1e6:>10.1f} {flops / ours / 1e9:>8.1f} "
              f"{theirs * 1e6:>10.1f} {flops / theirs / 1e9:>8.1f} {ours / theirs:>6.2f}  "
              f"{'within' if within else 'OUTSIDE'}")


if __name__ == "__main__":
    main()
