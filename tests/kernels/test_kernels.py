"""The example kernels of examples/kernels/ against numpy references in
float64, each within the bound its operations imply (u = 2^-24, float32's
unit roundoff; the derivation beside each reference), on 1 and 3 blocks
(bit-identical), through pto.Program and through pto-run (bit-identical to
pto.Program)."""

import os
import pathlib
import subprocess

import numpy as np
import pytest

import pto

ROOT = pathlib.Path(os.environ.get("PTO_SOURCE_ROOT") or pathlib.Path(__file__).resolve().parents[2])
KERNELS = ROOT / "examples" / "kernels"
U = 2.0 ** -24


def program(name, entry=None):
    return pto.Program((KERNELS / f"{name}.pto").read_text(), entry=entry)


def run_blocks(prog, outputs, **args):
    """Runs prog on 1 and on 3 blocks from the same inputs; the outputs must
    be bit-identical; returns the 1-block outputs."""
    results = []
    for blocks in (1, 3):
        fresh = {k: (v.copy() if isinstance(v, np.ndarray) else v) for k, v in args.items()}
        prog(blocks, **fresh)
        results.append({k: fresh[k] for k in outputs})
    for k in outputs:
        assert np.array_equal(results[0][k].view(np.uint8), results[1][k].view(np.uint8)), k
    return results[0]


def a5_row_sum_depth(n):
    """The additions a float32 value passes through in A5's row sum: a
    64-lane tree per 256-byte chunk, then the chunks in order
    (docs/reductions.md)."""
    return 6 + -(-n // 64)


SHAPES = [(8, 64), (13, 100), (37, 1000), (5, 4096)]


@pytest.mark.parametrize("m,n", SHAPES)
def test_softmax(rng, m, n):
    x = (rng.standard_normal((m, n)) * 4).astype(np.float32)
    y = run_blocks(program("softmax"), ["y"], x=x, y=np.zeros_like(x), m=m, n=n)["y"]
    xd = x.astype(np.float64)
    shifted = xd - xd.max(axis=1, keepdims=True)
    ref = np.exp(shifted) / np.exp(shifted).sum(axis=1, keepdims=True)
    # x - max rounds once (u |x - max| in the exponent), exp and the
    # division once each, the sum of positive terms at most depth roundings.
    bound = U * (np.abs(shifted) + a5_row_sum_depth(n) + 3) * 1.01
    assert np.all(np.abs(y - ref) <= bound * ref)


@pytest.mark.parametrize("m,n", [(8, 64), (13, 100), (37, 1000), (3, 1024), (9, 1)])
def test_softmax_padded(rng, m, n):
    """The ragged form: rows padded with -inf to the tile's 1024 columns by
    tfillpad; the same bound with the sum over all 1024 columns (the -inf
    columns add exact zeros), and the same bits as the unpadded kernel where
    A5's sum order meets the same nonzero terms in the same chunks."""
    x = (rng.standard_normal((m, n)) * 4).astype(np.float32)
    y = run_blocks(program("softmax_padded"), ["y"], x=x, y=np.zeros_like(x), m=m, n=n)["y"]
    xd = x.astype(np.float64)
    shifted = xd - xd.max(axis=1, keepdims=True)
    ref = np.exp(shifted) / np.exp(shifted).sum(axis=1, keepdims=True)
    bound = U * (np.abs(shifted) + a5_row_sum_depth(1024) + 3) * 1.01
    assert np.all(np.abs(y - ref) <= bound * ref)
    plain = run_blocks(program("softmax"), ["y"], x=x, y=np.zeros_like(x), m=m, n=n)["y"]
    if n % 64 == 0:
        assert np.array_equal(y.view(np.uint32), plain.view(np.uint32))


@pytest.mark.parametrize("m,n", SHAPES)
def test_rmsnorm(rng, m, n):
    x = rng.standard_normal((m, n)).astype(np.float32)
    w = rng.uniform(0.5, 1.5, (1, n)).astype(np.float32)
    inv_n, eps = np.float32(1.0 / n), np.float32(1e-6)
    y = run_blocks(program("rmsnorm"), ["y"], x=x, w=w, y=np.zeros_like(x), m=m, n=n,
                   inv_n=float(inv_n), eps=float(eps))["y"]
    xd = x.astype(np.float64)
    ref = xd / np.sqrt((xd * xd).sum(axis=1, keepdims=True) * float(inv_n) + float(eps)) * w
    # x^2, the sum (depth), * inv_n, + eps, sqrt (half of its argument's),
    # the division and * w: relative.
    bound = U * (a5_row_sum_depth(n) / 2 + 6) * 1.01
    assert np.all(np.abs(y - ref) <= bound * np.abs(ref) + 1e-30)


@pytest.mark.parametrize("m,n", SHAPES)
def test_layernorm(rng, m, n):
    x = (rng.standard_normal((m, n)) + 3).astype(np.float32)
    w = rng.uniform(0.5, 1.5, (1, n)).astype(np.float32)
    b = rng.uniform(-1, 1, (1, n)).astype(np.float32)
    inv_n, eps = np.float32(1.0 / n), np.float32(1e-5)
    y = run_blocks(program("layernorm"), ["y"], x=x, w=w, b=b, y=np.zeros_like(x), m=m, n=n,
                   inv_n=float(inv_n), eps=float(eps))["y"]
    xd = x.astype(np.float64)
    mean = xd.sum(axis=1, keepdims=True) * float(inv_n)
    c = xd - mean
    sigma = np.sqrt((c * c).sum(axis=1, keepdims=True) * float(inv_n) + float(eps))
    ref = c / sigma * w + b
    # The mean's error (depth roundings of sum |x|) shifts every centred
    # value by up to u (depth + 1) mean(|x|); the rest is relative to
    # |x - mean| / sigma; * w and + b add one rounding each.
    depth = a5_row_sum_depth(n)
    scale = np.abs(xd).sum(axis=1, keepdims=True) * float(inv_n)
    bound = U * ((depth + 2) * scale / sigma * np.abs(w) + (depth + 8) * np.abs(c / sigma * w) +
                 np.abs(ref)) * 1.01
    assert np.all(np.abs(y - ref) <= bound)


@pytest.mark.parametrize("m", [1, 7, 37, 300])
def test_layernorm_f16(rng, m):
    """The float16 LayerNorm of 1x128 row tiles: computed in float32 (the
    float32 LayerNorm's bound without weight and bias, and three more
    roundings for the Newton step, which moves a correctly rounded 1/sqrt by
    at most an ulp), then rounded once to float16 (half an ulp, 2^-11
    relative, of the float32 result); a float16 output is a multiple of
    2^-24, so one within the bound of 0 is fine at 0."""
    x = (rng.standard_normal((m, 128)) * 2 + 3).astype(np.float16)
    inv_n, eps = np.float32(1.0 / 128), np.float32(1e-5)
    y = run_blocks(program("layernorm_f16"), ["y"], x=x, y=np.zeros_like(x), m=m,
                   inv_n=float(inv_n), eps=float(eps))["y"]
    assert y.dtype == np.float16
    xd = x.astype(np.float64)
    c = xd - xd.mean(axis=1, keepdims=True)
    sigma = np.sqrt((c * c).sum(axis=1, keepdims=True) * float(inv_n) + float(eps))
    ref = c / sigma
    depth = a5_row_sum_depth(128)
    scale = np.abs(xd).sum(axis=1, keepdims=True) * float(inv_n)
    f32 = U * ((depth + 2) * scale / sigma + (depth + 12) * np.abs(ref))
    bound = (2.0 ** -11 * (np.abs(ref) + f32) + f32) * 1.01 + 2.0 ** -25
    assert np.all(np.abs(y.astype(np.float64) - ref) <= bound)


@pytest.mark.parametrize("m,n", [(8, 64), (13, 100), (37, 1000)])
def test_silu_and_swiglu(rng, m, n):
    g = (rng.standard_normal((m, n)) * 6).astype(np.float32)
    u = rng.standard_normal((m, n)).astype(np.float32)
    gd = g.astype(np.float64)
    silu = gd / (1 + np.exp(-gd))
    y = run_blocks(program("swiglu", "silu"), ["y"], g=g, y=np.zeros_like(g), m=m, n=n)["y"]
    # -g exact; exp, + 1, / each one rounding: relative 3u (+ a rounding).
    assert np.all(np.abs(y - silu) <= U * 4 * np.abs(silu))
    y = run_blocks(program("swiglu", "swiglu"), ["y"], g=g, u=u, y=np.zeros_like(g), m=m, n=n)["y"]
    ref = silu * u
    assert np.all(np.abs(y - ref) <= U * 5 * np.abs(ref))


@pytest.mark.parametrize("m,d", [(8, 64), (13, 128), (37, 1024)])
def test_rope(rng, m, d):
    h = d // 2
    x = rng.standard_normal((m, d)).astype(np.float32)
    pos = np.arange(m)[:, None] * (10000.0 ** (-np.arange(h) / h))[None, :]
    cos, sin = np.cos(pos).astype(np.float32), np.sin(pos).astype(np.float32)
    y = run_blocks(program("rope"), ["y"], x=x, cos=cos, sin=sin, y=np.zeros_like(x), m=m, d=d)["y"]
    x1, x2 = x[:, :h].astype(np.float64), x[:, h:].astype(np.float64)
    a, b = x1 * cos, x2 * sin
    c, e = x2 * cos, x1 * sin
    # Two products and their sum or difference: one rounding each, absolute
    # in the terms (the difference may cancel).
    assert np.all(np.abs(y[:, :h] - (a - b)) <= U * (np.abs(a) + np.abs(b) + np.abs(a - b)))
    assert np.all(np.abs(y[:, h:] - (c + e)) <= U * (np.abs(c) + np.abs(e) + np.abs(c + e)))


@pytest.mark.parametrize("m,n", [(8, 64), (13, 100), (37, 2048)])
def test_quantize(rng, m, n):
    x = (rng.standard_normal((m, n)) * rng.uniform(0.1, 10, (m, 1))).astype(np.float32)
    out = run_blocks(program("quantize"), ["q", "scale"], x=x, q=np.zeros((m, n), np.int8),
                     scale=np.zeros((m, 1), np.float32), m=m, n=n)
    # The same float32 operations in numpy (each IEEE, correctly rounded):
    # bit-exact.
    scale = np.abs(x).max(axis=1, keepdims=True) * np.float32(1 / 127)
    assert np.array_equal(out["scale"], scale)
    q = np.rint((x / scale).astype(np.float16).astype(np.float64))
    assert np.array_equal(out["q"], q.astype(np.int8))
    assert np.all(np.abs(out["q"].astype(np.float64) * scale - x) <= scale * 0.51 + np.abs(x) * 2 ** -11)


@pytest.mark.parametrize("m,n,d", [(8, 64, 32), (13, 100, 64), (37, 1024, 256)])
def test_online_softmax(rng, m, n, d):
    s = (rng.standard_normal((m, n)) * 3).astype(np.float32)
    pv = rng.standard_normal((m, d)).astype(np.float32)
    mx = (rng.standard_normal((m, 1)) * 3).astype(np.float32)
    l = rng.uniform(1, 50, (m, 1)).astype(np.float32)
    o = rng.standard_normal((m, d)).astype(np.float32)
    out = run_blocks(program("online_softmax"), ["mx", "l", "o"], s=s, pv=pv, mx=mx, l=l, o=o,
                     m=m, n=n, d=d)
    sd, md = s.astype(np.float64), mx.astype(np.float64)
    mnew = np.maximum(md, sd.max(axis=1, keepdims=True))
    alpha = np.exp(md - mnew)
    p = np.exp(sd - mnew)
    lref = alpha * l + p.sum(axis=1, keepdims=True)
    oref = alpha * o + pv
    assert np.array_equal(out["mx"], mnew.astype(np.float32))  # exact: a maximum
    # alpha and each p: under A5 (the kernel's target) *expdif rounds the
    # difference to float32 first, as the NPU does, which moves e^d by up to
    # u |d|, then e^d is correctly rounded; the sum (depth) of positive
    # terms, the product and the sum with l: relative.
    shift_p = U * np.abs(sd - mnew).max(axis=1, keepdims=True)
    shift_a = U * np.abs(md - mnew)
    assert np.all(np.abs(out["l"] - lref) <= (U * (a5_row_sum_depth(n) + 4) + shift_p + shift_a) * lref)
    assert np.all(np.abs(out["o"] - oref) <=
                  (U * 2 + shift_a) * (np.abs(alpha * o) + np.abs(pv) + np.abs(oref)))


def test_pto_run_gives_the_programs_bits(rng, tmp_path):
    """pto-run on .npy files computes what pto.Program computes."""
    pto_run = os.environ.get("PTO_RUN")
    if not pto_run:
        pytest.skip("PTO_RUN (the pto-run binary) is not set: run under meson test")
    m, n = 13, 100
    x = (rng.standard_normal((m, n)) * 4).astype(np.float32)
    want = run_blocks(program("softmax"), ["y"], x=x, y=np.zeros_like(x), m=m, n=n)["y"]
    np.save(tmp_path / "x.npy", x)
    subprocess.run([pto_run, str(KERNELS / "softmax.pto"), "--blocks", "2", f"x={tmp_path / 'x.npy'}",
                    f"y=zeros:f32:{m}x{n}", f"m={m}", f"n={n}", "--out", f"y={tmp_path / 'y.npy'}"],
                   check=True, capture_output=True)
    assert np.array_equal(np.load(tmp_path / "y.npy").view(np.uint32), want.view(np.uint32))


def bf16_bits(x):
    """x rounded to nearest even bfloat16, as raw uint16 bits."""
    u = np.asarray(x, np.float32).view(np.uint32).astype(np.uint64)
    return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)


def bf16_value(bits):
    return (bits.astype(np.uint32) << 16).view(np.float32).astype(np.float64)


def gamma(n):
    """gamma_n = n u / (1 - n u): the bound of a chain of n float32 roundings."""
    return n * U / (1 - n * U)


@pytest.mark.parametrize("m,n,k", [(16, 64, 64), (200, 300, 150), (128, 128, 1), (1, 257, 129)])
def test_gemm(rng, m, n, k):
    a = bf16_bits(rng.standard_normal((m, k)))
    b = bf16_bits(rng.standard_normal((k, n)))
    c = run_blocks(program("gemm"), ["c"], a=a, b=b, c=np.zeros((m, n), np.uint16), m=m, n=n, k=k)["c"]
    ad, bd = bf16_value(a), bf16_value(b)
    ref = ad @ bd
    # Each element: a chain of K fused multiply-adds in float32 (products of
    # bfloat16 values exact), gamma_K sum |a||b|; then one rounding to
    # bfloat16 (unit roundoff 2^-8) of the float32 sum.
    chain = gamma(k) * (np.abs(ad) @ np.abs(bd))
    bound = chain + 2.0 ** -8 * (np.abs(ref) + chain)
    assert np.all(np.abs(bf16_value(c) - ref) <= bound)


@pytest.mark.parametrize("m,n,k", [(16, 128, 64), (100, 300, 300), (65, 129, 1024)])
def test_int8_gemm(rng, m, n, k):
    a = rng.integers(-128, 128, (m, k)).astype(np.int8)
    b = rng.integers(-128, 128, (k, n)).astype(np.int8)
    s = rng.uniform(1e-3, 1e-2, (m, 1)).astype(np.float32)
    y = run_blocks(program("int8_gemm"), ["y"], a=a, b=b, s=s, y=np.zeros((m, n), np.float32),
                   m=m, n=n, k=k)["y"]
    # The int32 sums are exact, their float32 conversion too (|A B| <= 2^24),
    # and the scaling is one float32 product: numpy's float32 product, bit
    # for bit.
    exact = a.astype(np.int64) @ b.astype(np.int64)
    assert np.array_equal(y.view(np.uint32), (exact.astype(np.float32) * s).view(np.uint32))


@pytest.mark.parametrize("s,t,d", [(64, 64, 64), (100, 150, 64), (37, 300, 128), (1, 5, 16)])
def test_attention(rng, s, t, d):
    q, k, v = (bf16_bits(rng.standard_normal(shape)) for shape in ((s, d), (t, d), (t, d)))
    scale = np.float32(1 / np.sqrt(d))
    o = run_blocks(program("attention"), ["o"], q=q, k=k, v=v, ws=np.zeros(3 * 64 * 64, np.uint16),
                   o=np.zeros((s, d), np.float32), s=s, t=t, d=d, scale=float(scale))["o"]
    qd, kd, vd = bf16_value(q), bf16_value(k), bf16_value(v)
    scores = (qd @ kd.T) * float(scale)
    p = np.exp(scores - scores.max(axis=1, keepdims=True))
    ref = (p @ vd) / p.sum(axis=1, keepdims=True)
    # A score's error (the D-long chain, then * scale, then the difference
    # with the row maximum rounded to float32, as A5's *expdif does) shifts
    # its weight's exponent: delta per row, relative in p. Then exp (one
    # rounding), the
    # rescaling by a (one per block of 64 keys), the bfloat16 rounding of P
    # in the numerator (2^-8), the P V chains (gamma_64) and their sums over
    # the blocks, the row sum (depth) and the division: relative to
    # sum p |v| / sum p in the numerator, to |O| in the denominator.
    shifted = scores - scores.max(axis=1, keepdims=True)
    delta = (gamma(d) * (np.abs(qd) @ np.abs(kd.T)) * float(scale) + U * np.abs(scores) +
             U * np.abs(shifted)).max(axis=1, keepdims=True)
    steps = -(-t // 64)
    rel = 2.0 ** -8 + 2 * delta + U * (64 + 2 * steps + a5_row_sum_depth(64) + steps + 8)
    weighted = (p @ np.abs(vd)) / p.sum(axis=1, keepdims=True)
    assert np.all(np.abs(o - ref) <= rel * (weighted + np.abs(ref)) * 1.01)
