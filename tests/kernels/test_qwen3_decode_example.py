"""examples/models/qwen3-decode without PyPTO's export of decode.py (not part
of the repository: PyPTO writes it): the script says in one line what is
missing; its tap (the host runtime's, through pto.pypto.Session.set_tap)
copies the run's own tensors and times each phase, on the runtime suite's
orchestrations; the pieces of its numpy reference that the real run cannot
check by themselves (bf16 rounding, the online softmax, the ulp distance,
the down projection's and the parts' checks) hold on small cases. Where
$QWEN3_DECODE_EXPORT names an export, the whole step runs from it, and with
a 5% error planted in its down projection it fails."""

import os
import pathlib
import shutil
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
    assert f"{tmp_path} holds no kernel_table.txt" in r.stderr and "needs PyPTO" in r.stderr
    assert "Traceback" not in r.stderr and len(r.stderr.strip().splitlines()) == 1


def test_export_without_pypto_is_one_line(tmp_path):
    # --export needs PyPTO (and pypto-lib's decode.py): without them, one line
    # that says so.
    pytest.importorskip("pto")
    try:
        import pypto  # noqa: F401
        pytest.skip("PyPTO is installed here: the export would run")
    except ImportError:
        pass
    r = run([str(tmp_path / "export"), "--export", str(tmp_path / "pypto-lib")])
    assert r.returncode == 2
    assert "--export needs PyPTO" in r.stderr and "Traceback" not in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1


def runtime_work(tmp_path, orchestration):
    """The runtime suite's axpy kernel and one of its orchestrations as an
    export (no PyPTO): a kernel table naming both."""
    pp = pytest.importorskip("pto.pypto")
    try:
        pp._runtime.library()
    except pp.PyptoError as e:
        pytest.skip(f"the host runtime is not built here: {e}")
    src = ROOT / "tests" / "runtime" / "work"
    work = tmp_path / "work"
    (work / "kernels").mkdir(parents=True)
    (work / "orchestration").mkdir()
    shutil.copyfile(src / "orchestration" / orchestration, work / "orchestration" / orchestration)
    shutil.copyfile(src / "kernels" / "axpy.pto", work / "kernels" / "axpy.pto")
    (work / "kernel_table.txt").write_text(f"orchestration orchestration/{orchestration}\n"
                                           "kernel 0 aiv kernels/axpy.pto\ndims 0 shape(0,0)\n")
    return pp, work


def test_tap_copies_the_runs_own_tensors_and_times_the_kernels(tmp_path):
    # scopes.cpp (13 axpy tasks for n = 4, most on tensors the run allocates
    # and frees): the example's Tap copies those and not the caller's arrays,
    # each copy out = alpha x + y as the task left it, and every kernel timed.
    pp, work = runtime_work(tmp_path, "scopes.cpp")
    x = (np.arange(256, dtype=np.float32).reshape(16, 16) % 9) - 4
    out = np.zeros((16, 16), np.float32)
    tap = q.Tap([x, out], keep=True)
    with pp.Session(work, workers=2) as s:
        s.set_tap(tap)
        s.run([x, out], [4])
    tasks = tap.task_list("axpy", 13)
    copied = 0
    for scalars, arrays in tasks:
        alpha = np.frombuffer(np.uint32(scalars[0]).tobytes(), np.float32)[0]
        xs = x if arrays[0] is None else arrays[0]
        if arrays[2] is not None:  # out of the run's own tensors: as the task wrote it
            assert np.array_equal(arrays[2], alpha * xs + arrays[1])
        copied += sum(a is not None for a in arrays)
    assert copied == 8 * 4 + 2  # every view of the run's tensors, none of x and out
    assert [k for k, *_ in tap.times] == ["axpy"] * 13
    (name, (wall, busy)), = tap.phases().items()  # axpy is in no phase of decode.py: its own row
    assert name == "axpy" and 0 < busy and 0 < wall
    with pytest.raises(ValueError, match="the export ran 13 axpy tasks; decode.py's orchestration runs 12"):
        tap.task_list("axpy", 12)


def test_tap_phases_span_and_sum_their_kernels():
    tap = q.Tap([], keep=False)
    for kernel, start, end in (("q_proj", 0, 4_000), ("kv_proj", 1_000, 2_000), ("rmsnorm", 5_000, 6_000),
                               ("qk_matmul", 10_000, 11_000)):
        tap.times.append((kernel, start, end))
    phases = tap.phases()
    assert list(phases) == ["rmsnorm", "q/k/v projections", "attention"]  # decode.py's order
    assert phases["q/k/v projections"] == pytest.approx((4e-6, 5e-6))  # span 0..4 us; 4 + 1 us of kernels
    assert phases["rmsnorm"] == pytest.approx((1e-6, 1e-6)) and phases["attention"] == pytest.approx((1e-6, 1e-6))


def test_handoffs_compare_bits():
    a = np.array([1.0, -0.0], np.float32)
    assert q.handoffs_hold([("a", a, a.copy())])
    assert not q.handoffs_hold([("a", a, np.array([1.0, 0.0], np.float32))])  # -0 and +0: other bits
    assert not q.handoffs_hold([("a", a, a[:1])])


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


def test_down_proj_check_catches_a_product_five_percent_off(rng):
    # down_proj_residual's out against the float64 product rounded to bf16:
    # the kernel's own f32 sum passes, the product scaled by 0.95 before the
    # residual (a planted 5% error) fails nearly everywhere.
    k, n = 2048, 256
    m = q.from_bf16(q.random_bf16(rng, (16, k)))
    w = q.random_bf16(rng, (k, n))
    resid = rng.uniform(-0.05, 0.05, (16, n)).astype(np.float32)
    want, floor = q.down_proj_exact(m, w, resid)
    e = q.Errors(q.F32_TOL)
    e("f32 sum", q.to_bf16(q.matmul_bf16(m, w) + resid), want, slack=floor)
    e("5% off", q.to_bf16(np.float32(0.95) * q.matmul_bf16(m, w) + resid), want, slack=floor)
    assert e.rows["f32 sum"]["bad"] == 0
    assert e.rows["5% off"]["bad"] > n * 16 // 2
    # the floor is the f32 sum's own rounding, thousands of times below the
    # two-orders bound (2 gamma_K sum |a||w|) it replaces
    gamma = 2 * k * 2.0 ** -24 / (1 - k * 2.0 ** -24)
    assert float(floor.max()) < gamma * float(q.matmul_bf16(np.abs(m), w, absolute=True).max()) / 100


def test_parts_check_catches_the_update_five_percent_off(rng):
    # out = resid1 + the down projection's part, resid1 = hidden +
    # attention's part, out rounded to bf16 as the kernel rounds: with the
    # down part 5% off, the MLP's update (out - resid1) is outside PART_TOL
    # even where attention's part is six times the MLP's (a short context),
    # and so is the whole update where it is not; the same out with the odd
    # element a bf16 ulp away (roundings landing differently) is inside; so
    # is an attention output one ulp off here and there, and not one 5% off.
    shape = (16, 1024)
    hidden = q.random_bf16(rng, shape)
    h = q.from_bf16(hidden)
    down = rng.uniform(-0.014, 0.014, shape).astype(np.float32)
    attn_bits = q.to_bf16(rng.uniform(-0.05, 0.05, shape).astype(np.float32))
    attn_near = attn_bits.copy()
    attn_near.reshape(-1)[::89] += 1
    x = {"hidden_states": hidden}
    for attn_scale, whole_update_caught in ((2e-3, True), (0.08, False)):
        resid1 = h + rng.uniform(-attn_scale, attn_scale, shape).astype(np.float32)
        ref_out = q.to_bf16(resid1 + down)
        near = ref_out.copy()
        near.reshape(-1)[::97] += 1
        ref = {"out": ref_out, "attn_out": attn_bits, "resid1": resid1}
        ok = q.parts_against_chain(x, {"out": near, "attn_out": attn_near, "resid1": resid1}, ref)
        assert all(e <= q.PART_TOL for e in ok.values()), ok
        off = q.parts_against_chain(x, {"out": q.to_bf16(resid1 + np.float32(0.95) * down),
                                        "attn_out": q.to_bf16(np.float32(0.95) * q.from_bf16(attn_bits)),
                                        "resid1": resid1}, ref)
        assert off["MLP's update (out - resid1)"] > q.PART_TOL, off
        assert off["attn_out"] > q.PART_TOL, off
        assert (off["update (out - hidden_states)"] > q.PART_TOL) == whole_update_caught, off


def test_peaked_inputs_real_rope_and_context_lengths():
    # Qwen3's RoPE angles (cos^2 + sin^2 = 1, position 0 the identity) and
    # the first context lengths 1, 256, 257, 4096, clipped to --max-ctx.
    cos, sin = q.real_rope_tables()
    assert np.allclose(cos * cos + sin * sin, 1, atol=1e-6)
    assert np.all(cos[0] == 1) and np.all(sin[0] == 0)
    assert np.array_equal(cos[:, :q.HALF], cos[:, q.HALF:])
    assert abs(float(sin[1, 0]) - np.sin(1.0)) < 1e-7  # pair 0 turns one radian a position


def _plant(export, tmp_path):
    """A copy of the export with the down projection scaled by 0.95 before
    its residual: a pto.tmuls on the popped product, in place."""
    import re
    planted = tmp_path / "export"
    shutil.copytree(export, planted, ignore=shutil.ignore_patterns("passes_dump", "report", "debug"))
    path = planted / "kernels" / "down_proj_residual.pto"
    text = path.read_text()
    m = re.search(r"^(\s*)(%[\w.]+) = pto\.tpop_from_aic \{[^}]*\} -> (!pto\.tile_buf<[^>]*>)[^\n]*\n", text, re.M)
    assert m, "down_proj_residual.pto: no tpop_from_aic to plant the error after"
    indent, tile, ty = m.groups()
    plant = (f"{indent}%plant_scale = arith.constant 0.95 : f32\n"
             f"{indent}pto.tmuls ins({tile}, %plant_scale : {ty}, f32) outs({tile} : {ty})\n")
    path.write_text(text[:m.end()] + plant + text[m.end():])
    return planted


def export_or_skip():
    export = os.environ.get("QWEN3_DECODE_EXPORT")
    if not export or not (pathlib.Path(export) / "kernel_table.txt").is_file():
        pytest.skip("$QWEN3_DECODE_EXPORT names no export of decode.py (PyPTO writes it: the example's --export)")
    pytest.importorskip("pto.pypto")
    return pathlib.Path(export)


def test_step_from_export_passes():
    r = subprocess.run([sys.executable, str(SCRIPT), str(export_or_skip()), "--max-ctx", "4", "--workers", "1"],
                       capture_output=True, text=True, timeout=3600)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-2000:]
    assert r.stdout.rstrip().endswith("PASS")
    assert "bit for bit what the kernel before wrote: yes" in r.stdout


def test_planted_down_projection_error_fails_the_example(tmp_path):
    # The whole step (one worker, context lengths up to 4) with the planted
    # 5% error in the down projection: the example says FAIL, and why.
    planted = _plant(export_or_skip(), tmp_path)
    r = subprocess.run([sys.executable, str(SCRIPT), str(planted), "--max-ctx", "4", "--workers", "1"],
                       capture_output=True, text=True, timeout=3600)
    assert r.returncode == 1, r.stdout[-2000:] + r.stderr[-2000:]
    assert r.stdout.rstrip().endswith("FAIL")
    row = next(ln for ln in r.stdout.splitlines() if ln.strip().startswith("down_proj_residual: out"))
    assert int(row.split()[-1]) > 0, row  # elements outside
    mlp = next((ln for ln in r.stdout.splitlines() if ln.startswith("MLP's update (out - resid1)")), "")
    assert mlp.endswith("NO"), r.stdout[-3000:]


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
