"""examples/models/qwen3-decode without PTOAS's kernels (not part of the
repository): the script says clearly what is missing, and the pieces of its
numpy reference that the real run cannot check by themselves (bf16 rounding,
the online softmax, the ulp distance) hold on small cases."""

import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest

ROOT = pathlib.Path(os.environ.get("PTO_SOURCE_ROOT") or pathlib.Path(__file__).resolve().parents[2])
EXAMPLE = ROOT / "examples" / "models" / "qwen3-decode"
SCRIPT = EXAMPLE / "qwen3_decode.py"

sys.path.insert(0, str(EXAMPLE))
import qwen3_decode as q  # noqa: E402


def run(args, env_extra=None, unset=()):
    env = {k: v for k, v in os.environ.items() if k not in unset}
    env.update(env_extra or {})
    return subprocess.run([sys.executable, str(SCRIPT), *args], env=env, capture_output=True, text=True,
                          timeout=60)


def test_missing_directory_named(tmp_path):
    missing = tmp_path / "no-such-dir"
    r = run([str(missing)])
    assert r.returncode == 2
    assert str(missing) in r.stderr and "PTOAS_SAMPLES" in r.stderr
    assert "Traceback" not in r.stderr and r.stdout == ""


def test_unset_samples_variable_named():
    r = run([], unset=("PTOAS_SAMPLES",))
    assert r.returncode == 2
    assert "$PTOAS_SAMPLES is not set" in r.stderr


def test_samples_variable_gives_the_directory(tmp_path):
    r = run([], env_extra={"PTOAS_SAMPLES": str(tmp_path)})
    assert r.returncode == 2
    assert str(tmp_path / "Qwen3DecodeA5" / "kernels") in r.stderr


def test_missing_kernels_listed(tmp_path):
    pytest.importorskip("pto")
    (tmp_path / "rmsnorm.pto").write_text("module {}\n")
    r = run([str(tmp_path)])
    assert r.returncode == 2
    assert "silu.pto" in r.stderr and "down_proj_residual.pto" in r.stderr
    assert f"{tmp_path} lacks q_proj.pto, kv_proj.pto" in r.stderr  # rmsnorm.pto is there


def test_bf16_rounds_ties_away_from_zero():
    # The kernels' tcvt rmode ROUND: 1 + 2^-8, halfway between bf16 1 and
    # 1 + 2^-7, goes away from zero (to even it would stay 1); so does its
    # negative; below halfway goes down, above up.
    x = np.array([1.0, 1 + 2.0 ** -8, -(1 + 2.0 ** -8), 1 + 2.0 ** -8 - 2.0 ** -20, 1 + 3 * 2.0 ** -8, -2.5],
                 np.float32)
    assert q.from_bf16(q.to_bf16(x)).tolist() == [1.0, 1 + 2.0 ** -7, -(1 + 2.0 ** -7), 1.0, 1 + 2.0 ** -6, -2.5]
    assert q.to_bf16(x).dtype == np.uint16


def test_online_softmax_of_blocks_is_the_whole_softmax(rng):
    # Two blocks of scores for one group: combining the per-block (oi, mi, li)
    # must give what one softmax over both blocks gives.
    g, rows, cols, d = q.GROUPS, q.Q_HEAD_BATCH, 4, 3
    s = rng.uniform(-3, 3, (g, 2, rows, cols))
    v = rng.uniform(-1, 1, (g, 2, cols, d))
    mi = s.max(-1)
    e = np.exp(s - mi[..., None])
    oi = np.matmul(e, v).astype(np.float32)
    out = q.from_bf16(q.ref_online(oi, mi.astype(np.float32), e.sum(-1).astype(np.float32)))
    whole = np.concatenate([s[:, 0], s[:, 1]], -1)
    p = np.exp(whole - whole.max(-1, keepdims=True))
    want = np.matmul(p / p.sum(-1, keepdims=True), np.concatenate([v[:, 0], v[:, 1]], 1))
    assert np.allclose(out.reshape(g, rows, d), want, rtol=2 ** -7, atol=0)


def test_errors_count_ulps_across_zero():
    e = q.Errors(1e-4)
    one = q.to_bf16(np.array([1.0], np.float32))
    e("a", one + 1, one)           # 1 ulp: inside
    e("b", one + 2, one)           # 2 ulps: outside
    e("c", np.array([0x8000], np.uint16), np.array([0], np.uint16))  # -0 and +0: equal
    e("d", np.array([0x8001], np.uint16), np.array([0x0001], np.uint16))  # -tiny and +tiny: 2 ulps
    assert [e.rows[k]["bad"] for k in "abcd"] == [0, 1, 0, 1]
    assert e.rows["b"]["ulps"] == 2 and e.rows["d"]["ulps"] == 2


def test_order_slack_admits_only_what_two_sum_orders_allow():
    # 2^-10 and three bf16 ulps above it: outside 1 ulp; inside once the
    # slack (how far two orders of a sum may lie apart) covers the gap.
    want = q.to_bf16(np.array([2.0 ** -10, 1.0], np.float32))
    got = want.copy()
    got[0] += 3
    gap = float(q.from_bf16(got[:1])[0] - q.from_bf16(want[:1])[0])
    strict = q.Errors(q.F32_TOL)
    strict("x", got, want)
    assert strict.rows["x"]["bad"] == 1
    enough = q.Errors(q.F32_TOL)
    enough("x", got, want, slack=np.array([gap, 0.0]))
    assert enough.rows["x"]["bad"] == 0
    short = q.Errors(q.F32_TOL)
    # slack + one ulp of want falls short of three ulps
    short("x", got, want, slack=np.array([gap / 3, 0.0]))
    assert short.rows["x"]["bad"] == 1
