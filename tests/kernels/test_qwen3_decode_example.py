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


def test_step_work_counts_the_products_and_the_bytes():
    """The work --roofline divides by the machine's rates: 2 M K N per projection (M = 16
    rows), its bf16 weight's bytes, and the attention's QK and SV over whole 256-position
    blocks of 16 padded rows a query group, with the k and v rows they read."""
    work = q.step_work(np.full(q.BATCH, 300, np.int32))  # two 256-position blocks a row
    assert work["q/k/v projections"] == (2.0 * 16 * 8192 * (8192 + 2 * 1024), 2.0 * 8192 * 10240)
    assert work["gate/up/silu"] == (2.0 * 16 * 8192 * 51200, 2.0 * 8192 * 51200)
    assert work["down projection"] == (2.0 * 16 * 25600 * 8192, 2.0 * 25600 * 8192)
    positions = 512
    assert work["attention"] == (16 * 8 * 2 * 2.0 * 16 * 128 * positions, 16 * 8 * 2 * 2.0 * 128 * positions)
    total = sum(f for f, _ in work.values())
    assert 24e9 < total < 26e9  # 24.96 GFLOP of projections, 0.5 of attention at 300 positions


def test_roofline_report_divides_by_the_bound(tmp_path, capsys):
    roof = tmp_path / "roofline.txt"
    roof.write_text("some heading\nbound fma_block8_gflops 1 100.00\nbound read_gbs 1 10.00\n"
                    "bound fma_block8_gflops 2 50.00\nbound read_gbs 2 5.00\n")
    bounds = q.read_roofline(str(roof))
    assert bounds == {("fma_block8_gflops", 1): 100.0, ("read_gbs", 1): 10.0,
                      ("fma_block8_gflops", 2): 50.0, ("read_gbs", 2): 5.0}
    seq = np.full(q.BATCH, 300, np.int32)
    work = q.step_work(seq)
    # Every phase took 1 s of wall and CPU time on 1 thread and on 2.
    phases = {name: (1.0, 1.0) for name in work}
    q.report_roofline(bounds, seq, [(1, 5.0, phases, 5.0), (2, 5.0, phases, 5.0)])
    out = capsys.readouterr().out
    # 2 cores at 50 GFLOP/s and 5 GB/s each: the same totals as 1 core at 100 and 10.
    expected = sum(max(f / 100e9, b / 10e9) for f, b in work.values())
    step = [line for line in out.splitlines() if line.strip().startswith("step")][0].split()
    assert abs(float(step[3]) - expected) < 1e-3 and abs(float(step[6]) - expected) < 1e-3
    assert step[4] == f"{5.0 / float(step[3]):.2f}x"          # wall over the bound
    assert step[8] == f"{5.0 / (float(step[6]) * 2):.2f}x"   # CPU over the bound times 2 cores
