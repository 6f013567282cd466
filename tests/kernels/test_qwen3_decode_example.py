"""examples/models/qwen3-decode without PyPTO's export (not part of the
repository: PyPTO writes it): the script says clearly what is missing, and the
pieces of its numpy reference that the real run cannot check by themselves
(bf16 rounding, the online softmax, the ulp distance) hold on small cases.
Where $QWEN3_DECODE_EXPORT names an export, the step runs from it."""

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


def test_unset_export_variable_named():
    r = run([], unset=("QWEN3_DECODE_EXPORT",))
    assert r.returncode == 2
    assert "$QWEN3_DECODE_EXPORT is not set" in r.stderr
    assert "Traceback" not in r.stderr and r.stdout == ""


def test_directory_without_export_named(tmp_path):
    pytest.importorskip("pto")
    r = run([str(tmp_path)])
    assert r.returncode == 2
    assert f"{tmp_path} holds no kernel_table.txt" in r.stderr and "--export" in r.stderr
    assert "Traceback" not in r.stderr


def test_export_without_pypto_named(tmp_path):
    # --export needs PyPTO (and pypto-lib's decode.py): without them, one line.
    pytest.importorskip("pto")
    try:
        import pypto  # noqa: F401
        pytest.skip("PyPTO is installed: the export would run")
    except ImportError:
        pass
    r = run([str(tmp_path / "export"), "--export", str(tmp_path / "pypto-lib")])
    assert r.returncode == 2
    assert "cannot export" in r.stderr and "Traceback" not in r.stderr


def test_step_from_export():
    export = os.environ.get("QWEN3_DECODE_EXPORT")
    if not export:
        pytest.skip("$QWEN3_DECODE_EXPORT names no export of decode.py (PyPTO writes it: see the example's README)")
    r = subprocess.run([sys.executable, str(SCRIPT), export, "--max-ctx", "300", "--workers", "2"],
                       capture_output=True, text=True, timeout=900)
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.rstrip().endswith("PASS")


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


def test_step_tolerance_as_f32():
    # bf16_ulps=None: bf16 outputs judged as f32 within atol = rtol = 3e-3.
    e = q.Errors(q.STEP_TOL, bf16_ulps=None)
    want = q.to_bf16(np.array([1.0, 0.0], np.float32))
    e("in", q.to_bf16(np.array([1.0 + 2.0 ** -7, 2e-3], np.float32)), want)   # 1 ulp of 1 (0.0078): outside
    e("close", q.to_bf16(np.array([1.0, 2e-3], np.float32)), want)
    assert e.rows["in"]["bad"] == 1 and e.rows["close"]["bad"] == 0


def test_update_check_catches_the_mlp_five_percent_off(rng):
    # out = resid1 + the down projection's part, resid1 = hidden +
    # attention's part, rounded to bf16 as the kernel rounds: with the down
    # part 5% off, the layer's update is outside PART_TOL where the MLP's
    # part is not dwarfed by attention's; the same out with the odd element
    # a bf16 ulp away (roundings landing differently) is inside.
    shape = (16, 1024)
    hidden = q.random_bf16(rng, shape)
    h = q.from_bf16(hidden)
    down = rng.uniform(-0.014, 0.014, shape).astype(np.float32)
    resid1 = h + rng.uniform(-2e-3, 2e-3, shape).astype(np.float32)
    ref = {"out": q.to_bf16(resid1 + down)}
    near = ref["out"].copy()
    near.reshape(-1)[::97] += 1
    x = {"hidden_states": hidden}
    assert q.update_against_chain(x, {"out": near}, ref) <= q.PART_TOL
    off = {"out": q.to_bf16(resid1 + np.float32(0.95) * down)}
    assert q.update_against_chain(x, off, ref) > q.PART_TOL


def test_peaked_inputs_real_rope_and_context_lengths():
    # Qwen3's RoPE angles (cos^2 + sin^2 = 1, position 0 the identity) and
    # the first context lengths 1, 256, 257, 4096, clipped to --max-ctx.
    cos, sin = q.real_rope_tables()
    assert np.allclose(cos * cos + sin * sin, 1, atol=1e-6)
    assert np.all(cos[0] == 1) and np.all(sin[0] == 0)
    assert np.array_equal(cos[:, :q.HALF], cos[:, q.HALF:])
    assert abs(float(sin[1, 0]) - np.sin(1.0)) < 1e-7  # pair 0 turns one radian a position
