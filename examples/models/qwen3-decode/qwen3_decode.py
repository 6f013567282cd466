#!/usr/bin/env python3
"""One Qwen3-32B decode step (one layer, batch 16) from PyPTO's own export, on libpto's host runtime.

PyPTO compiles pypto-lib's models/qwen3_32b/decode.py into PTO-assembly
kernels and an orchestration (C++ against simpler's PTO2 runtime API);
libpto-runtime compiles the orchestration, verifies the kernels and runs the
step with them: every launch, view, intermediate tensor and dependency is
PyPTO's. This script only makes the inputs (numpy), calls the orchestration
(`pto.pypto.Session`) and checks the step against a numpy reference written
from decode.py's golden (f32 accumulation, bf16 rounding where the kernels
store bf16), timing it on 1 and 2 workers against numpy doing the same math.

Usage: qwen3_decode.py [EXPORT_DIR] [--export PYPTO_LIB] [--platform a5|a2a3]
                       [--inputs goldens|peaked] [--max-ctx N] [--full-ctx]
                       [--workers 1,2] [--seed S]
EXPORT_DIR (default $QWEN3_DECODE_EXPORT) holds the export: kernels/,
orchestration/ and kernel_table.txt. --export PYPTO_LIB writes it first from
PYPTO_LIB/models/qwen3_32b/decode.py (needs PyPTO; the run needs only libpto
and numpy). See README.md.
"""

import argparse
import os
import sys
import time

import numpy as np

# decode.py's sizes (the kernels' shapes are fixed to them in the .pto files).
BATCH = 16
HIDDEN = 8192
INTERMEDIATE = 25600
NUM_HEADS = 64
NUM_KV_HEADS = 8
HEAD_DIM = 128
HALF = HEAD_DIM // 2
KV_HIDDEN = NUM_KV_HEADS * HEAD_DIM
MAX_SEQ = 4096
CACHE_ROWS = BATCH * NUM_KV_HEADS * MAX_SEQ
SEQ_TILE = 256
MAX_CTX_BLOCKS = MAX_SEQ // SEQ_TILE
Q_HEAD_BATCH = 8              # query heads of one group (one KV head)
Q_HEAD_PAD = 16               # a group's rows in the padded buffers
GROUPS = NUM_KV_HEADS         # Q_PER_KV == Q_HEAD_BATCH: one group per KV head
Q_OUT_TILE = 256
KV_OUT_TILE = 256
MLP_OUT_TILE = 256
MLP_SPMD_INNER = 2
MLP_GROUP = MLP_SPMD_INNER * MLP_OUT_TILE
DOWN_N_TILE = 256
EPS = np.float32(1e-6)
HIDDEN_INV = np.float32(1.0 / HIDDEN)
ATTN_SCALE = np.float32(1.0 / np.sqrt(HEAD_DIM))
F32_MIN = np.finfo(np.float32).min

# decode.py's orchestration parameters in order (its out last).
PARAMS = ("hidden_states", "input_rms_weight", "wq", "wk", "wv", "seq_lens", "rope_cos", "rope_sin", "k_cache",
          "v_cache", "wo", "post_rms_weight", "w_gate", "w_up", "w_down", "out")
# bf16 tensors, held here as numpy uint16 bits.
BF16 = {"hidden_states", "wq", "wk", "wv", "k_cache", "v_cache", "wo", "w_gate", "w_up", "w_down", "out"}

# pypto-lib's decode.py test: rtol = atol = 3e-3 on the step's output.
STEP_TOL = 3e-3
# The layer's update (out - hidden_states) against the reference's, as the
# norm of the difference over the reference's norm: on the goldens' inputs
# the update is about 2e-3 rms, below what `out`'s tolerance can see; bf16
# roundings that land differently stay far below 1% (docs/qwen3-decode.md).
PART_TOL = 1e-2
# Qwen3's RoPE base (rope_theta), for the peaked inputs' real angles.
ROPE_THETA = 1e6
# The peaked inputs' first context lengths: one position, one block, one
# block and one, all blocks (each clipped to --max-ctx).
PEAKED_CTX = (1, SEQ_TILE, SEQ_TILE + 1, MAX_SEQ)


# --- bf16 as uint16 bits

def to_bf16(x):
    """f32 to bf16 as the kernels' tcvt rounds (rmode ROUND: to nearest, ties
    away from zero; the goldens' float32_to_bf16 rounds ties to even, which
    differs on ties only, by 1 ulp). Adding half an ulp to the magnitude's
    bits and truncating does it (no NaN or overflow arises here)."""
    bits = np.ascontiguousarray(x, dtype=np.float32).view(np.uint32)
    return ((bits + np.uint32(0x8000)) >> 16).astype(np.uint16)


def from_bf16(b):
    return (np.asarray(b, dtype=np.uint16).astype(np.uint32) << 16).view(np.float32)


# --- inputs: decode.py's tensors, values in the sample goldens' ranges

def random_bf16(rng, shape, scale=0.05):
    """Uniform in [-scale, scale), rounded to bf16, made 1024 rows at a time
    (a whole 8192 x 25600 weight as f32 would be 800 MB more)."""
    out = np.empty(shape, np.uint16)
    flat = out.reshape(shape[0], -1)
    for r in range(0, flat.shape[0], 1024):
        v = rng.random((min(1024, flat.shape[0] - r), flat.shape[1]), dtype=np.float32)
        flat[r:r + v.shape[0]] = to_bf16(v * np.float32(2 * scale) - np.float32(scale))
    return out


def rope_tables():
    """rope_cos / rope_sin [MAX_SEQ, HEAD_DIM]: row pos holds the goldens'
    cos_lo|cos_hi and sin_lo|sin_hi of that position."""
    phase = np.linspace(0.0, 1.0, HALF, dtype=np.float32)[None, :]
    ps = (np.arange(MAX_SEQ, dtype=np.float32) + np.float32(1))[:, None]
    t = phase * ps / np.float32(MAX_SEQ)
    cos = np.concatenate([np.float32(1.0) - np.float32(0.05) * t, np.float32(0.97) - np.float32(0.04) * t], 1)
    sin = np.concatenate([np.float32(0.01) + np.float32(0.02) * t, np.float32(0.015) + np.float32(0.02) * t], 1)
    return np.ascontiguousarray(cos, np.float32), np.ascontiguousarray(sin, np.float32)


def real_rope_tables():
    """rope_cos / rope_sin [MAX_SEQ, HEAD_DIM] with Qwen3's angles: position
    p, pair i at p * ROPE_THETA^(-2i / HEAD_DIM), cos and sin of it in both
    halves (the kernels rotate lo * cos - hi * sin, hi * cos + lo * sin)."""
    inv = ROPE_THETA ** (-np.arange(HALF, dtype=np.float64) * 2 / HEAD_DIM)
    angle = np.arange(MAX_SEQ, dtype=np.float64)[:, None] * inv[None, :]
    cos, sin = np.cos(angle).astype(np.float32), np.sin(angle).astype(np.float32)
    return np.ascontiguousarray(np.concatenate([cos, cos], 1)), np.ascontiguousarray(np.concatenate([sin, sin], 1))


def make_inputs(seed, max_ctx, full_ctx, peaked=False):
    """decode.py's inputs. goldens: the samples' goldens' ranges (every value
    in +-0.05), on which attention's softmax is nearly uniform. peaked:
    wider ranges (hidden states +-1, RMSNorm weights in [0.5, 1.5), caches
    +-4) and Qwen3's RoPE angles, which give scores of several units and a
    softmax far from uniform, and context lengths 1, 256, 257 and 4096 first
    (clipped to max_ctx)."""
    rng = np.random.default_rng(seed)
    x = {}
    x["hidden_states"] = random_bf16(rng, (BATCH, HIDDEN), 1.0 if peaked else 0.05)

    def rms_weight():
        if peaked:
            return rng.uniform(0.5, 1.5, (1, HIDDEN)).astype(np.float32)
        return rng.uniform(-0.05, 0.05, (1, HIDDEN)).astype(np.float32)

    x["input_rms_weight"] = rms_weight()
    x["wq"] = random_bf16(rng, (HIDDEN, HIDDEN))
    x["wk"] = random_bf16(rng, (HIDDEN, KV_HIDDEN))
    x["wv"] = random_bf16(rng, (HIDDEN, KV_HIDDEN))
    if full_ctx:
        x["seq_lens"] = np.full(BATCH, max_ctx, np.int32)
    else:  # decode.py: randint(1, MAX_SEQ + 1), here up to max_ctx
        x["seq_lens"] = rng.integers(1, max_ctx + 1, BATCH).astype(np.int32)
        if peaked:
            x["seq_lens"][:len(PEAKED_CTX)] = np.minimum(PEAKED_CTX, max_ctx)
    x["rope_cos"], x["rope_sin"] = real_rope_tables() if peaked else rope_tables()
    x["k_cache"] = random_bf16(rng, (CACHE_ROWS, HEAD_DIM), 4.0 if peaked else 0.05)
    x["v_cache"] = random_bf16(rng, (CACHE_ROWS, HEAD_DIM), 4.0 if peaked else 0.05)
    x["wo"] = random_bf16(rng, (HIDDEN, HIDDEN))
    x["post_rms_weight"] = rms_weight()
    x["w_gate"] = random_bf16(rng, (HIDDEN, INTERMEDIATE))
    x["w_up"] = random_bf16(rng, (HIDDEN, INTERMEDIATE))
    x["w_down"] = random_bf16(rng, (INTERMEDIATE, HIDDEN))
    return x


def ctx_of(seq_lens, b):
    ctx = int(seq_lens[b])
    return ctx, ctx - 1, (ctx + SEQ_TILE - 1) // SEQ_TILE


# --- the numpy reference, stage by stage (decode.py's golden and the sample goldens' math)

def matmul_bf16(a, w, absolute=False):
    """a (f32) @ w (bf16 bits) in f32 through numpy's BLAS; w widened to f32
    2048 columns at a time (all of a 8192 x 25600 weight would be 800 MB);
    absolute: a @ |w|."""
    out = np.empty((a.shape[0], w.shape[1]), np.float32)
    for n in range(0, w.shape[1], 2048):
        wn = from_bf16(w[:, n:n + 2048])
        out[:, n:n + 2048] = a @ (np.abs(wn) if absolute else wn)
    return out


def exp32(x):
    """e^x rounded once to f32, as texp computes it (numpy's f32 exp is not
    correctly rounded; its f64 exp rounded to f32 is, but for ties closer
    than 2^-29 relative, which these values do not meet)."""
    return np.exp(x.astype(np.float64)).astype(np.float32)


def ref_rmsnorm(x, gamma):
    """decode.py: x * (1 / sqrt(sum(x^2) / HIDDEN + EPS)) * gamma, stored as bf16."""
    sq = np.sum(x * x, axis=1, keepdims=True, dtype=np.float32)
    inv = np.float32(1) / np.sqrt(sq * HIDDEN_INV + EPS)
    return to_bf16(x * inv * gamma)


def ref_rope(q_row, k_row, v_row, cos, sin):
    """decode.py's stage 1 for one batch row: the rotated K and the V row as
    stored in the caches ([8, 128] bf16 each) and the padded query groups
    ([8, 16, 128] bf16; rows 8..15 of a group zero)."""
    cl, ch, sl, sh = cos[:HALF], cos[HALF:], sin[:HALF], sin[HALF:]

    def rotate(v):
        lo, hi = v[..., :HALF], v[..., HALF:]
        return np.concatenate([lo * cl - hi * sl, hi * ch + lo * sh], -1)

    k = to_bf16(rotate(k_row.reshape(NUM_KV_HEADS, HEAD_DIM)))
    qpad = np.zeros((GROUPS, Q_HEAD_PAD, HEAD_DIM), np.uint16)
    qpad[:, :Q_HEAD_BATCH] = to_bf16(rotate(q_row.reshape(GROUPS, Q_HEAD_BATCH, HEAD_DIM)))
    return k, to_bf16(v_row.reshape(NUM_KV_HEADS, HEAD_DIM)), qpad


def ref_qk(qpad, kseg, blocks):
    """Raw scores [group, block, 16, 256]: the padded query group times the K tile's transpose."""
    s = np.matmul(from_bf16(qpad), from_bf16(kseg).transpose(0, 2, 1))
    return s.reshape(GROUPS, Q_HEAD_PAD, blocks, SEQ_TILE).transpose(0, 2, 1, 3)


def ref_softmax(raw, ctx):
    """Per block: scores past ctx padded with f32's lowest, scaled, row max mi,
    exp(s - mi) stored as bf16, li the sum of the stored exps."""
    blocks = raw.shape[1]
    col = np.arange(blocks * SEQ_TILE).reshape(1, blocks, 1, SEQ_TILE)
    s = np.where(col >= ctx, F32_MIN, raw).astype(np.float32) * ATTN_SCALE
    mi = s.max(-1)
    e = to_bf16(exp32(s - mi[..., None]))
    return e, mi, np.sum(from_bf16(e), axis=-1, dtype=np.float32)


def ref_sv(exp, vseg):
    blocks = exp.shape[1]
    return np.matmul(from_bf16(exp), from_bf16(vseg).reshape(GROUPS, blocks, SEQ_TILE, HEAD_DIM))


def ref_online(oi, mi, li):
    """Online softmax over the blocks, then oi / li: the row of attn_out (bf16)."""
    o, m, l = oi[:, 0], mi[:, 0, :, None], li[:, 0, :, None]
    for sb in range(1, oi.shape[1]):
        cm, cl = mi[:, sb, :, None], li[:, sb, :, None]
        m_new = np.maximum(m, cm)
        alpha, beta = exp32(m - m_new), exp32(cm - m_new)
        l = alpha * l + beta * cl
        o = o * alpha + oi[:, sb] * beta
        m = m_new
    return to_bf16((o / l).reshape(-1))


def cache_segment(cache, b, blocks):
    return cache.reshape(BATCH, NUM_KV_HEADS, MAX_SEQ, HEAD_DIM)[b, :, :blocks * SEQ_TILE]


def ref_attention(x, r):
    """Scope 2 for every batch row on the reference's own q/k/v projections:
    attn_out, and the rows each batch row writes into the caches (r["k_rows"],
    r["v_rows"])."""
    attn = np.zeros((BATCH, HIDDEN), np.uint16)
    r["k_rows"], r["v_rows"] = [], []
    for b in range(BATCH):
        ctx, pos, blocks = ctx_of(x["seq_lens"], b)
        k_new, v_new, qpad = ref_rope(r["q_proj"][b], r["k_proj"][b], r["v_proj"][b],
                                      x["rope_cos"][pos], x["rope_sin"][pos])
        # The caches as the step leaves them: the inputs with row pos of every KV head replaced.
        kseg = cache_segment(x["k_cache0"], b, blocks).copy()
        vseg = cache_segment(x["v_cache0"], b, blocks).copy()
        kseg[:, pos], vseg[:, pos] = k_new, v_new
        exp, mi, li = ref_softmax(ref_qk(qpad, kseg, blocks)[:, :, :Q_HEAD_BATCH], ctx)
        attn[b] = ref_online(ref_sv(exp, vseg), mi, li)
        r["k_rows"].append(k_new)
        r["v_rows"].append(v_new)
    return attn


def reference(x):
    """The whole step in numpy, each stage on the previous stage's result;
    returns every result (bf16 as uint16 bits)."""
    r = {"normed": ref_rmsnorm(from_bf16(x["hidden_states"]), x["input_rms_weight"])}
    a = from_bf16(r["normed"])
    r["q_proj"], r["k_proj"], r["v_proj"] = (matmul_bf16(a, x[w]) for w in ("wq", "wk", "wv"))
    r["attn_out"] = ref_attention(x, r)
    r["resid1"] = matmul_bf16(from_bf16(r["attn_out"]), x["wo"]) + from_bf16(x["hidden_states"])
    r["post_norm"] = ref_rmsnorm(r["resid1"], x["post_rms_weight"])
    p = from_bf16(r["post_norm"])
    g, u = matmul_bf16(p, x["w_gate"]), matmul_bf16(p, x["w_up"])
    r["mlp"] = to_bf16(g * (np.float32(1) / (exp32(-g) + np.float32(1))) * u)
    r["out"] = to_bf16(matmul_bf16(from_bf16(r["mlp"]), x["w_down"]) + r["resid1"])
    return r


def relative_error(got, want):
    """The norm of got - want over the norm of want (float64); inf where
    want is all zero and got is not."""
    got, want = np.asarray(got, np.float64), np.asarray(want, np.float64)
    diff, scale = np.linalg.norm(got - want), np.linalg.norm(want)
    return float(diff / scale) if scale > 0 else (0.0 if diff == 0 else float("inf"))


def update_against_chain(x, lib, ref):
    """The layer's update (out - hidden_states) against the reference's: the
    relative error (float64)."""
    hidden = from_bf16(x["hidden_states"]).astype(np.float64)
    return relative_error(from_bf16(lib["out"]).astype(np.float64) - hidden,
                          from_bf16(ref["out"]).astype(np.float64) - hidden)


# --- comparing

class Errors:
    """The largest absolute and relative error of each output and the count
    of its elements outside the tolerance: bf16 more than bf16_ulps apart
    (None: as f32), f32 beyond atol + rtol |want| with atol = rtol = f32_tol."""

    def __init__(self, f32_tol, bf16_ulps=1):
        self.f32_tol, self.bf16_ulps = f32_tol, bf16_ulps
        self.rows = {}

    def __call__(self, name, got, want):
        got, want = np.asarray(got), np.asarray(want)
        bf16 = want.dtype == np.uint16
        g = from_bf16(got) if bf16 else got
        w = from_bf16(want) if bf16 else want
        err = np.abs(g.astype(np.float64) - w.astype(np.float64))
        mag = np.abs(w.astype(np.float64))
        rel = np.divide(err, mag, out=np.where(err > 0, np.inf, 0.0), where=mag > 0)
        worst_ulps = None
        if bf16:  # bf16 bits in an order where neighbours differ by 1
            def ordered(v):
                v = v.astype(np.int32)
                return np.where(v & 0x8000, 0x8000 - (v & 0x7FFF), 0x8000 + v)
            ulps = np.abs(ordered(got) - ordered(want))
            worst_ulps = int(ulps.max(initial=0))
        if bf16 and self.bf16_ulps is not None:
            bad = (ulps > self.bf16_ulps) & ~((g == 0) & (w == 0))
        else:
            bad = ~np.isclose(g, w, rtol=self.f32_tol, atol=self.f32_tol)
        row = self.rows.setdefault(name, {"abs": 0.0, "rel": 0.0, "bad": 0, "n": 0, "ulps": None,
                                          "differ": 0, "dtype": "bf16" if bf16 else "f32"})
        bits = np.uint16 if bf16 else np.uint32  # elements whose bits differ at all
        row["differ"] += int(np.count_nonzero(np.ascontiguousarray(got).view(bits)
                                              != np.ascontiguousarray(want).view(bits)))
        row["abs"] = max(row["abs"], float(err.max(initial=0)))
        row["rel"] = max(row["rel"], float(rel.max(initial=0)))
        row["bad"] += int(bad.sum())
        row["n"] += err.size
        if worst_ulps is not None:
            row["ulps"] = max(row["ulps"] or 0, worst_ulps)

    def report(self, title, tolerance):
        print(f"\n{title} ({tolerance})")
        print(f"  {'output':36} {'dtype':5} {'elements':>9} {'differ':>7} {'max abs err':>11} "
              f"{'max rel err':>11} {'ulps':>5} {'outside':>7}")
        for name, r in self.rows.items():
            ulps = "" if r["ulps"] is None else str(r["ulps"])
            print(f"  {name:36} {r['dtype']:5} {r['n']:>9} {r['differ']:>7} {r['abs']:>11.3e} {r['rel']:>11.3e}"
                  f" {ulps:>5} {r['bad']:>7}")
        worst_abs = max(r["abs"] for r in self.rows.values())
        worst_rel = max(r["rel"] for r in self.rows.values())
        print(f"  overall: max abs err {worst_abs:.3e}, max rel err {worst_rel:.3e}, "
              f"{sum(r['bad'] for r in self.rows.values())} elements outside")
        return all(r["bad"] == 0 for r in self.rows.values())


def caches_untouched_elsewhere(x):
    """Whether the kernels changed no cache row but row pos of each KV head of each batch row."""
    written = np.zeros(CACHE_ROWS, bool)
    for b in range(BATCH):
        pos = ctx_of(x["seq_lens"], b)[1]
        written[b * NUM_KV_HEADS * MAX_SEQ + np.arange(NUM_KV_HEADS) * MAX_SEQ + pos] = True
    for name in ("k_cache", "v_cache"):
        changed = np.any(x[name] != x[name + "0"], axis=1)
        if np.any(changed & ~written):
            return False
    return True


# --- the export and the run

def export(pypto_lib, platform, export_dir):
    """PyPTO's compile of decode.py's program without ptoas (pto.pypto's, as
    `python -m pto.pypto decode.py --compile-only` does) into export_dir:
    kernels/, orchestration/ and the host runtime's kernel_table.txt."""
    from pto.pypto import PLATFORMS, _compile
    model = os.path.join(pypto_lib, "models", "qwen3_32b")
    sys.path[:0] = [pypto_lib, model]
    import decode
    target = PLATFORMS[platform]
    compiled, recorder = _compile.compile_program(decode.build_qwen3_decode_program(), target,
                                                  output_dir=os.path.abspath(export_dir))
    table = _compile.single_orchestration(compiled, recorder)
    return _compile.verify_kernels(table, target)


def orchestration_args(x, out):
    """decode.py's parameters as the host runtime takes them (bf16 given by name)."""
    from pto.pypto import TensorView
    args = []
    for name in PARAMS:
        a = out if name == "out" else x[name]
        if name in BF16:
            a = TensorView(a.ctypes.data, a.nbytes, "bfloat16", a.shape)
        args.append(a)
    return args


def run_all(export_dir, x, workers):
    """The step once per entry of workers, each on fresh caches (copies of
    the inputs'): returns the first run's out and caches, every run's seconds
    and whether the later runs gave the same bits as the first."""
    from pto.pypto import Session
    first, times, same = None, [], True
    for w in workers:
        t0 = time.perf_counter()
        with Session(export_dir, workers=w) as session:
            prepare = time.perf_counter() - t0
            y = dict(x, k_cache=x["k_cache0"].copy(), v_cache=x["v_cache0"].copy())
            out = np.zeros((BATCH, HIDDEN), np.uint16)
            c0 = time.process_time()
            seconds = session.run(orchestration_args(y, out), [])
            cpu = time.process_time() - c0
            tasks, most = session.stats()
        got = {"out": out, "k_cache": y["k_cache"], "v_cache": y["v_cache"]}
        times.append((w, seconds, cpu))
        if first is None:
            first = got
        else:
            same = same and all(np.array_equal(first[n], got[n]) for n in first)
        print(f"libpto, {w} worker{'s' if w > 1 else ''}: {seconds:.2f} s ({cpu:.2f} s of CPU; {tasks} tasks, "
              f"at most {most} at once; prepare {prepare:.2f} s; load average {os.getloadavg()[0]:.1f})")
    return first, times, same


def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("export_dir", nargs="?", default=os.environ.get("QWEN3_DECODE_EXPORT"),
                    help="PyPTO's export of decode.py (default $QWEN3_DECODE_EXPORT)")
    ap.add_argument("--export", metavar="PYPTO_LIB",
                    help="first write the export from this pypto-lib checkout's models/qwen3_32b/decode.py (needs PyPTO)")
    ap.add_argument("--platform", choices=("a5", "a2a3"), default="a5", help="the export's target (default a5)")
    ap.add_argument("--inputs", choices=("goldens", "peaked"), default="goldens",
                    help="goldens: the ranges of PTOAS's Qwen3Decode goldens (a nearly uniform softmax); peaked: "
                         "wider ranges, Qwen3's RoPE angles, contexts 1, 256, 257, 4096 first")
    ap.add_argument("--max-ctx", type=int, default=MAX_SEQ,
                    help="context lengths drawn from 1..N as decode.py draws them from 1..MAX_SEQ (default 4096)")
    ap.add_argument("--full-ctx", action="store_true", help="every batch row at context length --max-ctx")
    ap.add_argument("--workers", default="1,2", help="host runtime workers to time the step on, comma-separated "
                    "(default 1,2)")
    ap.add_argument("--seed", type=int, default=19)
    a = ap.parse_args(argv)
    if not 1 <= a.max_ctx <= MAX_SEQ:
        ap.error(f"--max-ctx must be in 1..{MAX_SEQ}")
    a.workers = [int(w) for w in a.workers.split(",")]
    return a


def main(argv):
    a = parse_args(argv)
    if a.export_dir is None:
        print("qwen3_decode: no export directory ($QWEN3_DECODE_EXPORT is not set): give the directory of PyPTO's "
              "export of decode.py, or --export PYPTO_LIB with a directory to write it to", file=sys.stderr)
        return 2
    try:
        import pto.pypto  # noqa: F401
    except ImportError as e:
        print(f"qwen3_decode: cannot import the pto package ({e}): pip install libpto, or put a build "
              "tree's bindings/python on PYTHONPATH", file=sys.stderr)
        return 2
    if a.export:
        try:
            t0 = time.perf_counter()
            kernels = export(a.export, a.platform, a.export_dir)
        except (ImportError, pto.pypto.PyptoError) as e:
            print(f"qwen3_decode: cannot export {a.export}'s decode.py: {e}", file=sys.stderr)
            return 2
        print(f"export: {kernels} kernels verified, {time.perf_counter() - t0:.1f} s")
    if not os.path.isfile(os.path.join(a.export_dir, "kernel_table.txt")):
        print(f"qwen3_decode: {a.export_dir} holds no kernel_table.txt: not an export of decode.py (write one with "
              "--export PYPTO_LIB)", file=sys.stderr)
        return 2

    t0 = time.perf_counter()
    x = make_inputs(a.seed, a.max_ctx, a.full_ctx, peaked=a.inputs == "peaked")
    x["k_cache0"], x["v_cache0"] = x["k_cache"], x["v_cache"]
    print(f"inputs: {time.perf_counter() - t0:.1f} s to make; seq_lens {x['seq_lens'].tolist()}")
    try:
        lib, times, same = run_all(a.export_dir, x, a.workers)
    except pto.pypto.PyptoError as e:
        print(f"qwen3_decode: {e}", file=sys.stderr)
        return 2

    t0, c0 = time.perf_counter(), time.process_time()
    ref = reference(x)
    numpy_s, numpy_cpu = time.perf_counter() - t0, time.process_time() - c0
    print(f"numpy (its BLAS, bf16 widened to f32): {numpy_s:.2f} s ({numpy_cpu:.2f} s of CPU)")

    chain = Errors(STEP_TOL, bf16_ulps=None)
    chain("out", lib["out"], ref["out"])
    for b in range(BATCH):
        _, pos, blocks = ctx_of(x["seq_lens"], b)
        chain("k_cache rows", cache_segment(lib["k_cache"], b, blocks)[:, pos], ref["k_rows"][b])
        chain("v_cache rows", cache_segment(lib["v_cache"], b, blocks)[:, pos], ref["v_rows"][b])
    ok = chain.report("the step against the numpy reference", f"atol = rtol = {STEP_TOL:g}, decode.py's")
    update = update_against_chain(x, lib, ref)
    ok_update = update <= PART_TOL
    print(f"the layer's update (out - hidden_states) against the reference's: {update:.2e} of its norm "
          f"(within {PART_TOL:g}: {'yes' if ok_update else 'NO'})")
    ok_cache = caches_untouched_elsewhere(dict(x, k_cache=lib["k_cache"], v_cache=lib["v_cache"]))
    print(f"caches changed only at each row's position: {'yes' if ok_cache else 'NO'}; "
          f"runs on {a.workers} workers gave the same bits: {'yes' if same else 'NO'}")
    print("times (s), wall / CPU: " + ", ".join(f"{w} worker{'s' if w > 1 else ''} {s:.2f} / {c:.2f}"
                                               for w, s, c in times)
          + f"; numpy {numpy_s:.2f} / {numpy_cpu:.2f}")
    verdict = ok and ok_update and ok_cache and same
    print("PASS" if verdict else "FAIL")
    return 0 if verdict else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
