"""libpto against numpy, the Python user's alternative: ns per element of each
operation and of numpy's spellings of it, float32, same process, same input
memory, timed interleaved; plus the accuracy of float32 power (libpto's tpow,
both algorithms, and np.power) against a long double reference.

    python bench/python/vs_numpy.py [--rounds 15] [--target AVX2] [--shapes 1024,64]

Each figure is one timeit sample (a loop of calls lasting about --sample-ms)
per round; the rounds run every candidate in turn, so all of them see the same
background load. ns/elem is the best sample, "median" the median; the ratio is
libpto's time / numpy's (below 1: libpto is faster), taken on best samples.
numpy's elementwise loops and these libpto calls are single-threaded.

numpy 2.x computes contiguous float32 np.power with Intel's SVML (AVX-512 only,
about 1 ulp) when its build links SVML and the CPU has AVX512_SKX; otherwise
with the C library's powf one element at a time. The script says which. The
goals (AVX3 target, 1024x1024) for tpow are checked only against SVML's
np.power. NPY_DISABLE_CPU_FEATURES=X86_V4 (numpy >= 2.4; AVX512_SKX before)
shows numpy without it on an AVX-512 CPU.

--target restricts libpto's kernels to one Highway target (AVX2, SSE4, ...)
by calling Highway's hwy::SetSupportedTargetsForTest through ctypes, as
pto-bench --target does; pto.simd_target() confirms the choice. It is a
benchmarking hook of Highway's, not an API of libpto.
"""

import argparse
import ctypes
import statistics
import timeit

import numpy as np

import pto

F32 = pto.DType.FLOAT32
HIGH = pto.PowAlgorithm.HIGH_PRECISION
DEFAULT = pto.PowAlgorithm.DEFAULT

# Highway 1.0's target bits (hwy/detect_targets.h); pto.simd_target() checks the result.
HWY_TARGET_BITS = {"AVX3_DL": 1 << 7, "AVX3": 1 << 8, "AVX2": 1 << 9, "SSE4": 1 << 11,
                   "SSSE3": 1 << 12}


def select_target(name):
    hwy = ctypes.CDLL("libhwy.so.1")  # the copy libpto already loaded
    bits = HWY_TARGET_BITS.get(name.upper())
    if bits is None:
        raise SystemExit(f"vs_numpy: unknown target {name} (one of {', '.join(HWY_TARGET_BITS)})")
    hwy._ZN3hwy26SetSupportedTargetsForTestEl.argtypes = [ctypes.c_int64]
    hwy._ZN3hwy26SetSupportedTargetsForTestEl(bits)
    if pto.simd_target().upper() != name.upper():
        raise SystemExit(f"vs_numpy: libpto dispatches to {pto.simd_target()}, not {name} "
                         "(not supported by this CPU, or not compiled in)")


def numpy_svml():
    """(True, why) when numpy's float32 np.power runs on SVML here, else (False, why)."""
    try:  # numpy 2.x
        from numpy._core import _multiarray_umath as umath
    except ImportError:  # numpy 1.x
        from numpy.core import _multiarray_umath as umath
    features = umath.__cpu_features__
    with open(umath.__file__, "rb") as f:
        linked = b"__svml_powf16" in f.read()
    # Behaviour: a contiguous call takes the vector loop, ** on float32 scalars
    # libm's powf; SVML's ~1 ulp results differ from powf's on some inputs.
    rng = np.random.default_rng(7)
    x = (4 * (1 - rng.random(4096))).astype(np.float32)
    y = rng.uniform(-4, 4, 4096).astype(np.float32)
    contiguous = np.power(x, y)
    scalar = np.array([p ** q for p, q in zip(x, y)], np.float32)  # scalarmath: powf
    differs = int(np.count_nonzero(contiguous != scalar))
    skx = bool(features.get("AVX512_SKX"))
    facts = (f"SVML {'linked' if linked else 'not linked'} into numpy, CPU AVX512_SKX "
             f"{'yes' if skx else 'no'}, contiguous np.power differs from scalar powf on "
             f"{differs}/4096 inputs")
    if not skx:
        return False, (f"numpy does not dispatch to AVX512_SKX here (the CPU lacks it, or "
                       f"NPY_DISABLE_CPU_FEATURES), so float32 np.power is libm's powf ({facts})")
    if not linked:
        return False, f"this numpy was built without SVML ({facts})"
    return True, facts


def data(n):
    """The inputs pto-bench uses, as float32 n x n arrays."""
    rng = np.random.default_rng(1)
    f = lambda v: np.ascontiguousarray(v, dtype=np.float32)
    return {
        "base": f(4 * (1 - rng.random((n, n)))),           # (0, 4]
        "exp": f(rng.uniform(-4, 4, (n, n))),
        "rsq": f(np.exp2(rng.uniform(-60, 60, (n, n)))),    # log-uniform
        "x": f(rng.uniform(-10, 10, (n, n))),
        "slope": f(rng.uniform(-1, 1, (n, n))),
        "num": f(rng.uniform(-100, 100, (n, n))),
        "row": f(rng.choice([-1, 1], (1, n)) * rng.uniform(0.5, 10, (1, n))),
        "p": f(rng.uniform(-100, 100, (n, n))),
        "q": f(rng.uniform(-100, 100, (n, n))),
    }


def prelu_variants():
    """numpy spellings of PReLU: (label, statement). o, t, m are preallocated."""
    return [
        ("np.where(a>0, a, a*s)", "np.where(x > 0, x, x * s)"),
        ("out=: mul, copyto where=", "np.greater(x, 0, out=m); np.multiply(x, s, out=o); "
                                     "np.copyto(o, x, where=m)"),
        ("out=: copy, mul where=", "np.less(x, 0, out=m); np.copyto(o, x); "
                                   "np.multiply(x, s, out=o, where=m)"),
        ("out=: max+min*s", "np.maximum(x, 0, out=o); np.minimum(x, 0, out=t); "
                            "np.multiply(t, s, out=t); np.add(o, t, out=o)"),
    ]


def cases(n):
    """(operation, [(label, statement, is_libpto)]) with the shared namespace."""
    d = data(n)
    T = {k: pto.Tile.from_numpy(v) for k, v in d.items()}
    ns = {"np": np, "pto": pto, "HIGH": HIGH, "DEFAULT": DEFAULT,
          "tpow": pto.tpow, "trsqrt": pto.trsqrt, "tprelu": pto.tprelu,
          "tcolexpanddiv": pto.tcolexpanddiv, "tpartadd": pto.tpartadd,
          "D": pto.Tile(F32, n, n), "TMP": pto.Tile(F32, n, n),
          "o": np.empty((n, n), np.float32), "t": np.empty((n, n), np.float32),
          "m": np.empty((n, n), np.bool_)}
    for k, tile in T.items():  # numpy works on the tiles' own memory: same data, same alignment
        ns["T_" + k] = tile
        ns[k] = tile.numpy()
    ns["a"], ns["b"], ns["x"], ns["s"] = ns["base"], ns["exp"], ns["x"], ns["slope"]
    ops = [
        ("tpow", [
            ("libpto HIGH_PRECISION", "tpow(D, T_base, T_exp, TMP, HIGH)", True),
            ("libpto DEFAULT", "tpow(D, T_base, T_exp, TMP, DEFAULT)", True),
            ("np.power(a, b, out=o)", "np.power(base, exp, out=o)", False),
        ]),
        ("trsqrt", [
            ("libpto", "trsqrt(D, T_rsq)", True),
            ("np.reciprocal(np.sqrt(a, out=o), out=o)", "np.reciprocal(np.sqrt(rsq, out=o), out=o)", False),
            ("1/np.sqrt(a)", "1 / np.sqrt(rsq)", False),
        ]),
        ("tprelu", [("libpto", "tprelu(D, T_x, T_slope)", True)]
         + [(label, stmt, False) for label, stmt in prelu_variants()]),
        ("tcolexpanddiv", [
            ("libpto", "tcolexpanddiv(D, T_num, T_row)", True),
            ("np.divide(a, row, out=o)", "np.divide(num, row, out=o)", False),
        ]),
        ("tpartadd (full)", [
            ("libpto", "tpartadd(D, T_p, T_q)", True),
            ("np.add(a, b, out=o)", "np.add(p, q, out=o)", False),
        ]),
    ]
    # The 0.4 families' rows that numpy spells as one ufunc call.
    for name, libpto_args, numpy_stmt in FAMILY_ROWS:
        ns[name] = getattr(pto, name)
        ops.append((name, [("libpto", f"{name}(D, {libpto_args})", True),
                           (numpy_stmt, numpy_stmt, False)]))
    return ops, ns


# (operation, its libpto operands after D, numpy's spelling with out=o).
FAMILY_ROWS = [
    ("tadd", "T_p, T_q", "np.add(p, q, out=o)"),
    ("tsub", "T_p, T_q", "np.subtract(p, q, out=o)"),
    ("tmul", "T_p, T_q", "np.multiply(p, q, out=o)"),
    ("tdiv", "T_num, T_q", "np.divide(num, q, out=o)"),
    ("tmax", "T_p, T_q", "np.maximum(p, q, out=o)"),
    ("tmin", "T_p, T_q", "np.minimum(p, q, out=o)"),
    ("tabs", "T_x", "np.abs(x, out=o)"),
    ("tneg", "T_x", "np.negative(x, out=o)"),
    ("trelu", "T_x", "np.maximum(x, 0, out=o)"),
    ("tsqrt", "T_rsq", "np.sqrt(rsq, out=o)"),
    ("trecip", "T_num", "np.reciprocal(num, out=o)"),
    ("texp", "T_x", "np.exp(x, out=o)"),
    ("tlog", "T_rsq", "np.log(rsq, out=o)"),
    ("tadds", "T_p, 2.5", "np.add(p, np.float32(2.5), out=o)"),
    ("tmuls", "T_p, 2.5", "np.multiply(p, np.float32(2.5), out=o)"),
    ("tdivs", "T_p, 2.5", "np.divide(p, np.float32(2.5), out=o)"),
    ("tmaxs", "T_p, 2.5", "np.maximum(p, np.float32(2.5), out=o)"),
    ("tpows", "T_base, 2.5", "np.power(base, np.float32(2.5), out=o)"),
]


def check_prelu(ns):
    """Every numpy PReLU spelling gives libpto's result (== : -0 and 0 alike)."""
    pto.tprelu(ns["D"], ns["T_x"], ns["T_slope"])
    want = ns["D"].numpy().copy()
    for label, stmt in prelu_variants():
        ns["o"].fill(np.nan)
        if stmt.startswith("np.where"):
            got = eval(stmt, ns)
        else:
            exec(stmt, ns)
            got = ns["o"]
        if not np.array_equal(got, want):
            raise SystemExit(f"vs_numpy: numpy PReLU '{label}' differs from tprelu")


def check_family(ns):
    """The exact rows give numpy's results (IEEE operations both; == : -0 and 0
    alike). texp, tlog and tpows are not compared: numpy's are not correctly rounded."""
    for name, _, numpy_stmt in FAMILY_ROWS:
        if name in ("texp", "tlog", "tpows"):
            continue
        exec(f"{name}(D, {dict((r[0], r[1]) for r in FAMILY_ROWS)[name]})", ns)
        exec(numpy_stmt, ns)
        if not np.array_equal(ns["D"].numpy(), ns["o"]):
            raise SystemExit(f"vs_numpy: {name} differs from {numpy_stmt}")


def time_all(shapes, rounds, sample_ms):
    """{(n, op, label): [ns per element per sample]}"""
    plans = []
    for n in shapes:
        ops, ns = cases(n)
        check_prelu(ns)
        check_family(ns)
        for op, cands in ops:
            for label, stmt, _ in cands:
                t = timeit.Timer(stmt, globals=ns)
                per = min(t.repeat(repeat=3, number=1))  # warm up and calibrate
                number = max(1, int(sample_ms * 1e-3 / max(per, 1e-7)))
                plans.append(((n, op, label), t, number, n * n))
    samples = {key: [] for key, _, _, _ in plans}
    for _ in range(rounds):
        for key, t, number, elems in plans:
            samples[key].append(t.timeit(number) / number / elems * 1e9)
    return samples


def ulp_error(got, a, b):
    """(max ulp error, count not correctly rounded) of float32 got against a**b in
    long double (x86's 64-bit significand)."""
    ref = np.power(a.astype(np.longdouble), b.astype(np.longdouble))
    fmax = np.longdouble(np.finfo(np.float32).max)
    fin = np.isfinite(ref) & (np.abs(ref) <= fmax)
    r = ref[fin]
    _, e = np.frexp(r)
    ulp = np.ldexp(np.longdouble(1), np.maximum(e - 24, -149))
    err = np.abs(got[fin].astype(np.longdouble) - r) / ulp
    off = int(np.count_nonzero(got[fin] != r.astype(np.float32)))
    off += int(np.count_nonzero(got[~fin] != ref[~fin].astype(np.float32)))
    return float(err.max()), off


def accuracy(n):
    d = data(n)
    a, b = d["base"], d["exp"]
    ta, tb = pto.Tile.from_numpy(a), pto.Tile.from_numpy(b)
    dst, tmp = pto.Tile(F32, n, n), pto.Tile(F32, n, n)
    rows = []
    for label, algo in (("libpto HIGH_PRECISION", HIGH), ("libpto DEFAULT", DEFAULT)):
        pto.tpow(dst, ta, tb, tmp, algo)
        rows.append((label, *ulp_error(dst.numpy().copy(), a, b)))
    rows.append(("np.power", *ulp_error(np.power(a, b), a, b)))
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15, help="interleaved rounds (samples per figure)")
    parser.add_argument("--sample-ms", type=float, default=20, help="length of one sample")
    parser.add_argument("--shapes", default="1024,64", help="n of the n x n tiles, comma-separated")
    parser.add_argument("--target", help="restrict libpto to this Highway target, e.g. AVX2")
    args = parser.parse_args()
    if args.target:
        select_target(args.target)
    shapes = [int(s) for s in args.shapes.split(",")]
    svml, why = numpy_svml()
    cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
    print(f"CPU {cpu}; libpto {pto.__version__} target {pto.simd_target()}; numpy {np.__version__}")
    print(f"numpy float32 np.power: {'SVML' if svml else 'not SVML'}: {why}")
    print(f"float32; {args.rounds} interleaved rounds; ns/elem = best sample, median beside it; "
          "ratio = libpto time / numpy time (best samples)")
    samples = time_all(shapes, args.rounds, args.sample_ms)
    ops, _ = cases(1)
    best = {k: min(v) for k, v in samples.items()}
    print(f"{'shape':<10}{'operation':<16}{'candidate':<42}{'ns/elem':>9}{'median':>9}{'libpto/numpy':>14}")
    for n in shapes:
        for op, cands in ops:
            lib = [label for label, _, is_lib in cands if is_lib]
            for label, _, is_lib in cands:
                k = (n, op, label)
                ratios = "" if is_lib else " ".join(f"{best[(n, op, l)] / best[k]:.2f}" for l in lib)
                print(f"{f'{n}x{n}':<10}{op:<16}{label:<42}{best[k]:>9.3f}"
                      f"{statistics.median(samples[k]):>9.3f}{ratios:>14}")
    print("tpow accuracy on the {0}x{0} inputs (base (0, 4], exponent [-4, 4]) against "
          "long double pow:".format(max(shapes)))
    for label, err, off in accuracy(max(shapes)):
        print(f"  {label:<24} max {err:.3f} ulp, {off} of {max(shapes) ** 2} not correctly rounded")
    goals(shapes, best, svml, why)


def goals(shapes, best, svml, why):
    if 1024 not in shapes:
        return
    if pto.simd_target() != "AVX3":
        print(f"goals: skipped: libpto runs on {pto.simd_target()}, the goals are for AVX3")
        return
    if not svml:
        print(f"tpow goals against SVML's np.power: skipped: {why}")
    npow = best[(1024, "tpow", "np.power(a, b, out=o)")]
    fastest_prelu = min(best[(1024, "tprelu", l)] for l, _ in prelu_variants())
    fastest_rsqrt = min(best[(1024, "trsqrt", l)] for l in
                        ("np.reciprocal(np.sqrt(a, out=o), out=o)", "1/np.sqrt(a)"))
    hp = best[(1024, "tpow", "libpto HIGH_PRECISION")] / npow
    df = best[(1024, "tpow", "libpto DEFAULT")] / npow
    rs = best[(1024, "trsqrt", "libpto")] / fastest_rsqrt
    pr = best[(1024, "tprelu", "libpto")] / fastest_prelu
    ex = best[(1024, "texp", "libpto")] / best[(1024, "texp", "np.exp(x, out=o)")]
    lg = best[(1024, "tlog", "libpto")] / best[(1024, "tlog", "np.log(rsq, out=o)")]
    for text, ratio, ok in [
        ("tpow HIGH_PRECISION <= 1.0x np.power", hp, hp <= 1.0),
        ("tpow DEFAULT <= 0.5x np.power", df, df <= 0.5),
        ("trsqrt faster than numpy's fastest", rs, rs < 1.0),
        ("tprelu faster than numpy's fastest", pr, pr < 1.0),
        ("texp (correctly rounded) <= 1.0x np.exp", ex, ex <= 1.0),
        ("tlog (correctly rounded) <= 1.0x np.log", lg, lg <= 1.0),
    ]:
        if "np.power" in text and not svml:
            print(f"(not a goal: numpy without SVML) {text}: {ratio:.2f}x")
        else:
            print(f"goal 1024x1024 AVX3: {text}: {ratio:.2f}x {'PASS' if ok else 'MISS'}")


if __name__ == "__main__":
    main()
