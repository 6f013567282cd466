"""The example kernels of examples/kernels/ run as programs (pto.Program, 1
and 2 blocks) against numpy computing the same thing, on their natural
shapes (4096x4096 float32 for the row kernels; RoPE on 4096 rows of 1024;
online softmax on 4096 rows of 1024 scores and 256 outputs).

    python bench/python/kernels_vs_numpy.py [--rounds 5] [--numpy-only] [--kernels a,b]

Each figure is the best of --rounds runs, all candidates taking turns so
they see the same background load; ratio = the program's time / numpy's
(below 1: the program is faster). numpy makes a pass over memory per
operation; a tiled program keeps each tile in cache from load to store.

--numpy-only times numpy alone (no pto module needed) and prints one line
per kernel, "NAME MS", the best of --rounds: pto-bench --programs reads
these for its goal lines. --kernels keeps the kernels named (the first word
of a row's name).
"""

import argparse
import pathlib
import time

import numpy as np

KERNELS = pathlib.Path(__file__).resolve().parents[2] / "examples" / "kernels"


def program(name, entry=None):
    """The kernel's program, made when it is first run (--numpy-only makes
    none and needs no pto module)."""
    made = []

    def run(*args, **kwargs):
        if not made:
            import pto

            made.append(pto.Program((KERNELS / f"{name}.pto").read_text(), entry=entry))
        return made[0](*args, **kwargs)

    return run


def cases(rng):
    m = n = 4096
    x = rng.standard_normal((m, n)).astype(np.float32)
    w = rng.uniform(0.5, 1.5, (1, n)).astype(np.float32)
    b = rng.uniform(-1, 1, (1, n)).astype(np.float32)
    y = np.zeros_like(x)
    inv_n, eps = float(np.float32(1 / n)), 1e-5

    def np_softmax():
        e = np.exp(x - x.max(axis=1, keepdims=True))
        return e / e.sum(axis=1, keepdims=True)

    def np_rmsnorm():
        return x / np.sqrt((x * x).sum(axis=1, keepdims=True) * np.float32(inv_n) + np.float32(eps)) * w

    def np_layernorm():
        c = x - x.mean(axis=1, keepdims=True)
        return c / np.sqrt((c * c).mean(axis=1, keepdims=True) + np.float32(eps)) * w + b

    g, u = x[:, :1024].copy(), x[:, 1024:2048].copy()

    d, h = 1024, 512
    xr = x[:, :d].copy()
    pos = np.arange(m)[:, None] * (10000.0 ** (-np.arange(h) / h))[None, :]
    cos, sin = np.cos(pos).astype(np.float32), np.sin(pos).astype(np.float32)
    yr = np.zeros_like(xr)

    def np_rope():
        x1, x2 = xr[:, :h], xr[:, h:]
        return np.concatenate([x1 * cos - x2 * sin, x2 * cos + x1 * sin], axis=1)

    xq = x[:, :2048].copy()
    q = np.zeros(xq.shape, np.int8)
    scale = np.zeros((m, 1), np.float32)

    def np_quantize():
        s = np.abs(xq).max(axis=1, keepdims=True) * np.float32(1 / 127)
        return s, np.rint((xq / s).astype(np.float16)).astype(np.int8)

    s_ = x[:, :1024].copy()
    pv = x[:, 1024:1280].copy()
    o = x[:, 2048:2304].copy()
    mx = (x[:, :1] * 3).copy()
    l = np.abs(x[:, 1:2]) + 1

    def np_online():
        mn = np.maximum(mx, s_.max(axis=1, keepdims=True))
        a = np.exp(mx - mn)
        return mn, a * l + np.exp(s_ - mn).sum(axis=1, keepdims=True), a * o + pv

    # LayerNorm of 2048 rows of 128 float16 values without weight and bias
    # (layernorm_f16.pto, 1x128 tiles): numpy converts to float32, computes
    # there and converts back, as the kernel does.
    xh = x[:2048, :128].astype(np.float16)
    yh = np.zeros_like(xh)

    def np_layernorm_f16():
        xf = xh.astype(np.float32)
        c = xf - xf.mean(axis=1, keepdims=True)
        return (c / np.sqrt((c * c).mean(axis=1, keepdims=True) + np.float32(eps))).astype(np.float16)

    xp = x[:, :1000].copy()

    def np_softmax_ragged():
        e = np.exp(xp - xp.max(axis=1, keepdims=True))
        return e / e.sum(axis=1, keepdims=True)

    return [
        ("softmax 4096x4096", program("softmax"), dict(x=x, y=y, m=m, n=n), np_softmax, m * n),
        ("softmax_padded 4096x1000", program("softmax_padded"),
         dict(x=xp, y=np.zeros_like(xp), m=m, n=1000), np_softmax_ragged, m * 1000),
        ("rmsnorm 4096x4096", program("rmsnorm"),
         dict(x=x, w=w, y=y, m=m, n=n, inv_n=inv_n, eps=eps), np_rmsnorm, m * n),
        ("layernorm 4096x4096", program("layernorm"),
         dict(x=x, w=w, b=b, y=y, m=m, n=n, inv_n=inv_n, eps=eps), np_layernorm, m * n),
        ("layernorm_f16 2048x128", program("layernorm_f16"),
         dict(x=xh, y=yh, m=2048, inv_n=float(np.float32(1 / 128)), eps=eps), np_layernorm_f16,
         2048 * 128),
        ("swiglu 4096x1024", program("swiglu", "swiglu"),
         dict(g=g, u=u, y=np.zeros_like(g), m=m, n=1024),
         lambda: g / (1 + np.exp(-g)) * u, m * 1024),
        ("rope 4096x1024", program("rope"), dict(x=xr, cos=cos, sin=sin, y=yr, m=m, d=d), np_rope, m * d),
        ("quantize 4096x2048", program("quantize"), dict(x=xq, q=q, scale=scale, m=m, n=2048),
         np_quantize, m * 2048),
        ("online softmax 4096x1024", program("online_softmax"),
         dict(s=s_, pv=pv, mx=mx.copy(), l=l.copy(), o=o.copy(), m=m, n=1024, d=256), np_online,
         m * 1024),
    ]


def best(fn, rounds):
    times = []
    for _ in range(rounds):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--numpy-only", action="store_true")
    parser.add_argument("--kernels", default="")
    args = parser.parse_args()
    rng = np.random.default_rng(1)
    wanted = set(filter(None, args.kernels.split(",")))
    chosen = [c for c in cases(rng) if not wanted or c[0].split()[0] in wanted]
    if args.numpy_only:
        for name, _, _, reference, _ in chosen:
            print(f"{name.split()[0]} {best(reference, args.rounds) * 1e3:.4f}", flush=True)
        return
    import pto

    print(f"libpto {pto.__version__}, SIMD target {pto.simd_target()}, numpy {np.__version__}")
    print(f"{'kernel':28} {'1 block ms':>10} {'2 blocks ms':>11} {'numpy ms':>9} "
          f"{'1 block / numpy':>15} {'2 blocks / numpy':>16}")
    for name, prog, kwargs, reference, _ in chosen:
        t1 = best(lambda: prog(1, **kwargs), args.rounds)
        t2 = best(lambda: prog(2, **kwargs), args.rounds)
        tn = best(reference, args.rounds)
        print(f"{name:28} {t1 * 1e3:10.2f} {t2 * 1e3:11.2f} {tn * 1e3:9.2f} {t1 / tn:15.2f} {t2 / tn:16.2f}")


if __name__ == "__main__":
    main()
