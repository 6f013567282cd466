"""Cost of calling libpto from Python: ns per call on 1x1 float32 tiles and ns
per element on 64x64 float32 tiles, next to C's figures from pto-bench (same
machine, same run). Speed is measured here, never asserted by tests.

    python bench/lab/python/overhead.py [--pto-bench build/bench/pto-bench]

Python times are the best of 7 repeats of timeit loops (a bound call with its
arguments in locals, as in a user's inner loop); C times are pto-bench's medians.
"""

import argparse
import csv
import os
import subprocess
import tempfile
import timeit

import numpy as np

import pto

F32 = pto.DType.FLOAT32
CASES = [  # (label, pto-bench op, algo column, statement)
    ("tpow DEFAULT", "tpow", "default", "tpow(d, a, b, t)"),
    ("tpow HIGH_PRECISION", "tpow", "high", "tpow(d, a, b, t, HIGH)"),
    ("trsqrt", "trsqrt", "-", "trsqrt(d, a)"),
    ("tprelu", "tprelu", "-", "tprelu(d, a, b)"),
    ("tcolexpanddiv", "tcolexpanddiv", "-", "tcolexpanddiv(d, a, b)"),
    ("tpartadd", "tpartadd", "full", "tpartadd(d, a, b)"),
]


def python_ns_per_call(statement, n):
    rng = np.random.default_rng(1)
    names = {
        "a": pto.Tile.from_numpy((4 * (1 - rng.random((n, n)))).astype(np.float32)),  # (0, 4]: as pto-bench
        "b": pto.Tile.from_numpy(rng.uniform(-4, 4, (n, n)).astype(np.float32)),
        "d": pto.Tile(F32, n, n), "t": pto.Tile(F32, n, n),
        "HIGH": pto.PowAlgorithm.HIGH_PRECISION,
        "tpow": pto.tpow, "trsqrt": pto.trsqrt, "tprelu": pto.tprelu,
        "tcolexpanddiv": pto.tcolexpanddiv, "tpartadd": pto.tpartadd,
    }
    number = 200_000 if n == 1 else 2_000
    return min(timeit.repeat(statement, globals=names, number=number, repeat=7)) / number * 1e9


def c_figures(pto_bench):
    """{(op, algo, shape): median ns per element} from one pto-bench run."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "c.csv")
        subprocess.run([pto_bench, "--csv", out], check=True, stdout=subprocess.DEVNULL)
        with open(out, newline="") as f:
            return {(r["op"], r["algo"], r["shape"]): float(r["libpto_ns_median"])
                    for r in csv.DictReader(f) if r["dtype"] == "float32"}


def lowest(runs):
    """Per key, the lowest figure over several runs' dicts."""
    return {k: min(run[k] for run in runs) for k in runs[0]}


def python_figures():
    return {(label, n): python_ns_per_call(statement, n) / (n * n)
            for label, _, _, statement in CASES for n in (1, 64)}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pto-bench", help="path of pto-bench, for C's figures beside Python's")
    parser.add_argument("--runs", type=int, default=1, help="runs; each figure is the lowest")
    args = parser.parse_args()
    c_runs, py_runs = [], []
    for _ in range(args.runs):  # interleaved, so that both see the same background load
        if args.pto_bench:
            c_runs.append(c_figures(args.pto_bench))
        py_runs.append(python_figures())
    c, py = lowest(c_runs) if c_runs else {}, lowest(py_runs)
    print(f"libpto {pto.__version__}, target {pto.simd_target()}, float32")
    print(f"{'operation':<22}{'1x1 ns/call':>14}{'C':>8}{'overhead':>10}"
          f"{'64x64 ns/elem':>16}{'C':>8}{'ratio':>8}")
    for label, op, algo, _ in CASES:
        py1, py64 = py[(label, 1)], py[(label, 64)]
        c1, c64 = c.get((op, algo, "1x1")), c.get((op, algo, "64x64"))
        fmt = lambda v, spec: format(v, spec) if v is not None else "-".rjust(len(format(0.0, spec)))
        print(f"{label:<22}{py1:>14.1f}{fmt(c1, '8.1f')}{fmt(c1 and py1 - c1, '10.1f')}"
              f"{py64:>16.3f}{fmt(c64, '8.3f')}{fmt(c64 and py64 / c64, '8.2f')}")


if __name__ == "__main__":
    main()
