"""texp and tlog against numpy's np.exp and np.log: ns per element, float32,
1024x1024 (and 64x64), same process, same input memory, interleaved rounds;
the ratio libpto time / numpy time on best samples, and issue 46's goal
(<= 1.0x on an AVX-512 target at 1024x1024) as PASS or MISS.

    /usr/bin/python3 bench/python/exp_log_vs_numpy.py [--lib build/src/libpto.so] [--target AVX2]

vs_numpy.py measures the same through the Python binding (pto); this script
calls the C library through ctypes, for a build without the binding
(-Dpython=disabled). The inputs are vs_numpy.py's: x uniform in [-10, 10]
for exp, 2^u with u uniform in [-60, 60] for log (drawn in its order).
numpy writes into a preallocated array (out=); libpto into a tile, and
numpy reads the tiles' own memory.
"""

import argparse
import ctypes
import statistics
import timeit

import numpy as np

PTO_FLOAT32 = 8
# Highway 1.0's target bits (hwy/detect_targets.h), as vs_numpy.py.
HWY_TARGET_BITS = {"AVX3_DL": 1 << 7, "AVX3": 1 << 8, "AVX2": 1 << 9, "SSE4": 1 << 11,
                   "SSSE3": 1 << 12}


def load(path, target):
    lib = ctypes.CDLL(path)
    lib.pto_simd_target.restype = ctypes.c_char_p
    lib.pto_tile_create.argtypes = [ctypes.c_int, ctypes.c_uint32, ctypes.c_uint32,
                                    ctypes.POINTER(ctypes.c_void_p)]
    lib.pto_tile_data.restype = ctypes.c_void_p
    lib.pto_tile_data.argtypes = [ctypes.c_void_p]
    lib.pto_texp.argtypes = lib.pto_tlog.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
    if target:
        hwy = ctypes.CDLL("libhwy.so.1")  # the copy libpto loaded
        hwy._ZN3hwy26SetSupportedTargetsForTestEl.argtypes = [ctypes.c_int64]
        hwy._ZN3hwy26SetSupportedTargetsForTestEl(HWY_TARGET_BITS[target.upper()])
    return lib


def tile(lib, values):
    """A float32 tile holding values, and the numpy view of its memory."""
    handle = ctypes.c_void_p()
    n, m = values.shape
    if lib.pto_tile_create(PTO_FLOAT32, n, m, ctypes.byref(handle)) != 0:
        raise SystemExit("exp_log_vs_numpy: pto_tile_create failed")
    buf = (ctypes.c_float * (n * m)).from_address(lib.pto_tile_data(handle))
    view = np.frombuffer(buf, dtype=np.float32).reshape(n, m)
    view[:] = values
    return handle, view


def inputs(n):
    rng = np.random.default_rng(1)
    rng.random((n, n))               # vs_numpy.py's "base"
    rng.uniform(-4, 4, (n, n))       # "exp"
    rsq = np.exp2(rng.uniform(-60, 60, (n, n)))
    x = rng.uniform(-10, 10, (n, n))
    return x.astype(np.float32), rsq.astype(np.float32)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lib", default="build/src/libpto.so")
    parser.add_argument("--target", help="restrict libpto to this Highway target, e.g. AVX2")
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--sample-ms", type=float, default=20)
    parser.add_argument("--shapes", default="1024,64")
    args = parser.parse_args()
    lib = load(args.lib, args.target)
    target = lib.pto_simd_target().decode()
    cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo")
                if l.startswith("model name")), "?")
    print(f"CPU {cpu}; libpto {args.lib} target {target}; numpy {np.__version__}")
    candidates = []  # (shape, op, label, callable)
    keep = []
    for n in (int(s) for s in args.shapes.split(",")):
        x, rsq = inputs(n)
        tx, vx = tile(lib, x)
        tr, vr = tile(lib, rsq)
        dst, _ = tile(lib, np.zeros((n, n), np.float32))
        o = np.empty((n, n), np.float32)
        keep += [tx, tr, dst, vx, vr, o]
        if lib.pto_texp(dst, tx) != 0 or lib.pto_tlog(dst, tr) != 0:
            raise SystemExit("exp_log_vs_numpy: pto_texp/pto_tlog failed")
        candidates += [
            (n, "texp", "libpto", lambda d=dst, s=tx: lib.pto_texp(d, s)),
            (n, "texp", "np.exp(x, out=o)", lambda v=vx, o=o: np.exp(v, out=o)),
            (n, "tlog", "libpto", lambda d=dst, s=tr: lib.pto_tlog(d, s)),
            (n, "tlog", "np.log(rsq, out=o)", lambda v=vr, o=o: np.log(v, out=o)),
        ]
    loops = {}
    for shape, op, label, fn in candidates:  # loops of about sample-ms
        t = timeit.timeit(fn, number=3) / 3
        loops[(shape, op, label)] = max(1, int(args.sample_ms / 1e3 / t))
    samples = {k: [] for k in loops}
    for _ in range(args.rounds):
        for shape, op, label, fn in candidates:
            k = (shape, op, label)
            samples[k].append(timeit.timeit(fn, number=loops[k]) / loops[k] / shape / shape * 1e9)
    print(f"float32; {args.rounds} interleaved rounds; ns/elem = best sample, median beside it; "
          "ratio = libpto time / numpy time (best samples)")
    print(f"{'shape':<11}{'operation':<7}{'candidate':<22}{'ns/elem':>9}{'median':>9}{'ratio':>8}")
    for shape, op, label, _ in candidates:
        k = (shape, op, label)
        best = min(samples[k])
        ratio = "" if label == "libpto" else f"{min(samples[(shape, op, 'libpto')]) / best:.2f}"
        print(f"{f'{shape}x{shape}':<11}{op:<7}{label:<22}{best:>9.3f}"
              f"{statistics.median(samples[k]):>9.3f}{ratio:>8}")
    if (1024, "texp", "libpto") in samples:
        for op, label in (("texp", "np.exp(x, out=o)"), ("tlog", "np.log(rsq, out=o)")):
            ratio = min(samples[(1024, op, "libpto")]) / min(samples[(1024, op, label)])
            verdict = ("PASS" if ratio <= 1.0 else "MISS") if target.startswith("AVX3") else \
                f"---- (the goal is for AVX-512; this run is {target})"
            print(f"goal 1024x1024 AVX-512: {op} (correctly rounded) <= 1.0x {label.split('(')[0]}: "
                  f"{ratio:.2f}x {verdict}")


if __name__ == "__main__":
    main()
