"""The multi-rank tests of libpto-mpi: pto-run-mpi under mpiexec on N ranks.

Usage: test_mpi.py MPIEXEC PTO_RUN_MPI RANKS CASE
MPIEXEC "-" runs PTO_RUN_MPI (then plain pto-run) alone as rank 0 of 1.
CASE: allgather, allreduce (tests/mpi/*.pto, checked against exact values
computed here), timeout (a wait that is never satisfied: every rank reports
it and the job exits non-zero within the limit), blocks (the intra-rank
barrier of block_barrier.pto on 8 blocks per rank). Every run has a hard
time limit.
"""
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

import comm_cases  # the cases of pto-isa's comm ST forms (comm_cases.py)
import fault_jobs  # random kernels with one rank's fault (fault_jobs.py)

HERE = os.path.dirname(os.path.abspath(__file__))
HARD_LIMIT = 120  # seconds for one mpiexec run, whatever happens


def mpiexec(launcher, n, args, env_extra=None, cwd=None):
    env = dict(os.environ)
    # Open MPI: as root, more ranks than cores, no single-copy mechanism in
    # containers; MPICH ignores these.
    env.update({"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
                "OMPI_MCA_rmaps_base_oversubscribe": "1",
                "OMPI_MCA_btl_vader_single_copy_mechanism": "none",
                "OMPI_MCA_mpi_yield_when_idle": "1"})
    env.update(env_extra or {})
    # "-": the program alone, one process (libpto's built-in transport).
    cmd = args if launcher == "-" else [launcher, "-n", str(n)] + args
    start = time.monotonic()
    p = subprocess.run(cmd, env=env, cwd=cwd, capture_output=True, text=True,
                       timeout=HARD_LIMIT)
    return p, time.monotonic() - start


def peers(n, name):
    # name@r for the four peer slots; slots past the last rank point at rank 0's.
    return [f"{name[0]}{k}={name}@{k if k < n else 0}" for k in range(4)]


def gather_args(tool, kernel, n, extra):
    return [tool, os.path.join(HERE, kernel), "src=src{rank}.npy", "gath=zeros:f32:4x64",
            "sig=zeros:i32:1"] + extra + \
        [f"d{k}=gath@{k if k < n else 0}" for k in range(4)] + \
        [f"s{k}=sig@{k if k < n else 0}" for k in range(4)] + ["me={rank}", "n={size}"]


def sources(tmp, n):
    # Distinct, exactly representable values per rank.
    rows = []
    for r in range(n):
        row = (np.arange(64, dtype=np.float32) * 0.25 + 1000 * r - 7).astype(np.float32)
        np.save(os.path.join(tmp, f"src{r}.npy"), row)
        rows.append(row)
    return rows


def ptoas_samples():
    """A PTOAS checkout's test/samples (PTOAS_SAMPLES); a skip without it."""
    samples = os.environ.get("PTOAS_SAMPLES")
    if not samples:
        print("PTOAS_SAMPLES is not set (a PTOAS checkout's test/samples): skipped")
        raise SystemExit(77)
    return samples


def check_run(p):
    if p.returncode != 0:
        sys.stderr.write(p.stdout + p.stderr)
        raise SystemExit(f"mpiexec exited {p.returncode}")


def case_allgather(launcher, tool, n, tmp):
    rows = sources(tmp, n)
    p, _ = mpiexec(launcher, n, gather_args(tool, "allgather.pto", n, []) +
                   ["--out", "gath=gath{rank}.npy", "--out", "sig=sig{rank}.npy"], cwd=tmp)
    check_run(p)
    want = np.zeros((4, 64), np.float32)
    want[:n] = np.stack(rows)
    for r in range(n):
        got = np.load(os.path.join(tmp, f"gath{r}.npy"))
        assert got.tobytes() == want.tobytes(), f"rank {r}: gath differs:\n{got}\n{want}"
        sig = np.load(os.path.join(tmp, f"sig{r}.npy"))
        assert sig.tolist() == [n], f"rank {r}: sig {sig.tolist()}, want [{n}]"


def case_allreduce(launcher, tool, n, tmp):
    rows = sources(tmp, n)
    p, _ = mpiexec(launcher, n, gather_args(tool, "allreduce.pto", n, ["out=zeros:f32:64"]) +
                   ["--out", "out=out{rank}.npy"], cwd=tmp)
    check_run(p)
    # Rows summed in rank order, each sum rounded to float32.
    want = rows[0].copy()
    for r in range(1, n):
        want = (want + rows[r]).astype(np.float32)
    for r in range(n):
        got = np.load(os.path.join(tmp, f"out{r}.npy"))
        assert got.tobytes() == want.tobytes(), f"rank {r}: out differs:\n{got}\n{want}"


def run_mpi4py_script(launcher, tool, n, tmp, script, says):
    """SCRIPT (in tests/mpi) on n ranks of TOOL, a Python interpreter with
    PYTHONPATH and PTO_MPI_LIBRARY naming the build tree's package and
    libpto-mpi (the test's environment); every rank must print SAYS."""
    try:
        subprocess.run([tool, "-c", "import mpi4py"], check=True, capture_output=True)
    except subprocess.CalledProcessError:
        print(f"mpi4py is not installed for {tool} (Debian: python3-mpi4py): skipped")
        raise SystemExit(77)
    p, _ = mpiexec(launcher, n, [tool, os.path.join(HERE, script)], cwd=tmp)
    check_run(p)
    # Counted, not split into lines: mpiexec may join two ranks' lines.
    assert p.stdout.count(says) == n, p.stdout + p.stderr


def case_mpi4py(launcher, tool, n, tmp):
    """allgather.pto from Python (pto.Program on a pto.mpi.Window) beside
    mpi4py."""
    run_mpi4py_script(launcher, tool, n, tmp, "mpi4py_allgather.py", "mpi4py allgather matches")


def case_lm_head(launcher, tool, n, tmp):
    """DeepSeek V4's LM-head exchange (PTOAS_SAMPLES' seven lm_head_*.pto
    kernels) from Python on one window kept across the launches."""
    ptoas_samples()
    run_mpi4py_script(launcher, tool, n, tmp, "mpi4py_lm_head.py", "lm_head exchange matches (2 steps)")


def case_moe(launcher, tool, n, tmp):
    """DeepSeek V4's MoE dispatch (meta, push, wait) and combine (combine,
    wait) from PTOAS_SAMPLES, with the experts in numpy between them, from
    Python on one window kept across the launches."""
    ptoas_samples()
    run_mpi4py_script(launcher, tool, n, tmp, "mpi4py_moe.py", "moe dispatch and combine match")


def case_pypto_host(launcher, tool, n, tmp):
    """pto.pypto's multi-card runner on a host orchestration in the form
    PyPTO writes host_orch.py, its chip orchestration the runtime suite's
    exchange (where libpto-runtime is built: PTO_RUNTIME_LIBRARY)."""
    if not os.environ.get("PTO_RUNTIME_LIBRARY"):
        print("libpto-runtime is not built (PTO_RUNTIME_LIBRARY unset): skipped")
        raise SystemExit(77)
    run_mpi4py_script(launcher, tool, n, tmp, "mpi4py_pypto_host.py", "pypto host orchestration exchange matches")


def case_timeout(launcher, tool, n, tmp):
    sources(tmp, n)
    # n + 1 notifies awaited, n sent: never satisfied.
    args = gather_args(tool, "allgather.pto", n, [])
    args[-1] = f"n={n + 1}"
    limit = 2.0
    p, took = mpiexec(launcher, n, args, {"PTO_COMM_TIMEOUT": str(limit)}, cwd=tmp)
    assert p.returncode != 0, "a wait that is never satisfied must fail the job"
    # Each rank reports its own wait; MPICH's launcher may end the job (and
    # drop a rank's last output) once the first rank exits non-zero, so at
    # least one report must be there, and every report is this one.
    reports = [line for line in p.stderr.splitlines() if "no notify within" in line]
    assert reports, f"no rank reported its wait:\n{p.stderr}"
    for line in reports:
        assert f"block 0: element 0 of the signal %sig is {n}, waiting for >= {n + 1}" in line, line
    assert "allgather.pto:" in p.stderr and "no notify within 2 s" in p.stderr, p.stderr
    assert took < limit + 60, f"took {took:.1f} s"


def case_bindings(launcher, tool, n, tmp):
    """bindings.c (TOOL) on n ranks: bindings past a window and the context's
    entries past the last rank refused with nothing written, a put inside
    the window landing; every rank says so."""
    p, _ = mpiexec(launcher, n, [tool], cwd=tmp)
    check_run(p)
    assert p.stdout.count("bindings: ok") == n, p.stdout + p.stderr


def case_usage(launcher, tool, n, tmp):
    """A usage error on every rank (a peer rank the job does not have), four
    times: each run exits non-zero with every rank's message, whole, never
    lost (pto-run-mpi ends such runs through pto_mpi_agree, not MPI_Abort)."""
    sources(tmp, n)
    args = gather_args(tool, "allgather.pto", n, [])
    args = [a if not a.startswith("d3=") else f"d3=gath@{n}" for a in args]
    for attempt in range(4):
        p, took = mpiexec(launcher, n, args, cwd=tmp)
        assert p.returncode != 0, f"run {attempt}: exit 0"
        for r in range(n):
            line = f"pto-run-mpi: rank {r}: d3=gath@{n}: @{n} is not a rank (0..{n - 1})"
            assert p.stderr.count(line) == 1, f"run {attempt}, rank {r}: {line!r} not once in\n{p.stderr}"
        assert took < 30, f"run {attempt} took {took:.1f} s"
    # The last rank given --check: no rank launches (none waits for it in a
    # window); the others say so.
    if launcher != "-":
        good = gather_args(tool, "allgather.pto", n, [])
        cmd = [launcher, "-n", str(n - 1)] + good + [":", "-n", "1", tool, "--check",
                                                      os.path.join(HERE, "allgather.pto")]
        env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
                   OMPI_MCA_rmaps_base_oversubscribe="1",
                   OMPI_MCA_btl_vader_single_copy_mechanism="none")
        p = subprocess.run(cmd, cwd=tmp, env=env, capture_output=True, text=True, timeout=HARD_LIMIT)
        assert p.returncode != 0 and "verified under profile" in p.stdout, p.stdout + p.stderr
        for r in range(n - 1):
            line = f"pto-run-mpi: rank {r}: stopped: rank {n - 1} does not launch"
            assert p.stderr.count(line) == 1, p.stderr


def case_blocks(launcher, tool, n, tmp):
    """8 blocks a rank meeting at a signal; under MPI with its calls
    serialised (PTO_MPI_SERIALIZE: an MPI below MPI_THREAD_MULTIPLE)."""
    src = np.arange(64, dtype=np.float32) - 3.5
    np.save(os.path.join(tmp, "src.npy"), src)
    rank = "0" if launcher == "-" else "{rank}"  # plain pto-run has no {rank}
    p, _ = mpiexec(launcher, n, [tool, os.path.join(HERE, "block_barrier.pto"), "--blocks", "8",
                                 "src=src.npy", "dst=zeros:f32:64", "counter=zeros:i32:1",
                                 "--out", f"dst=dst{rank}.npy", "--out", f"counter=c{rank}.npy"],
                   {"PTO_NUM_THREADS": "2", "PTO_MPI_SERIALIZE": "1"}, cwd=tmp)
    check_run(p)
    for r in range(n):
        assert np.load(os.path.join(tmp, f"dst{r}.npy")).tobytes() == src.tobytes()
        assert np.load(os.path.join(tmp, f"c{r}.npy")).tolist() == [8]


def add_rows(launcher, tool, n, tmp, t):
    """atomic_add.pto's add_T on 4 blocks a rank: src{rank}_T.npy into rank
    0's dst, each rank's dst written to dst{rank}_T.npy."""
    p, _ = mpiexec(launcher, n, [tool, os.path.join(HERE, "atomic_add.pto"), "--entry",
                                 f"add_{t}", "--blocks", "4", f"src=src{{rank}}_{t}.npy",
                                 f"dst=zeros:{t}:64@0", "--out", f"dst=dst{{rank}}_{t}.npy"],
                   cwd=tmp)
    check_run(p)


def case_atomic(launcher, tool, n, tmp):
    """tput atomic_add of float32, float16, bfloat16 and integer rows: every
    block of every rank adds its rank's row into rank 0's dst (4 blocks a
    rank); the float values are quarters whose sums are exact in each dtype,
    and integer sums wrap, so the result is the same whatever order the adds
    land in."""
    for t, np_t in (("f32", np.float32), ("f16", np.float16), ("bf16", np.float32)):
        rows = []
        for r in range(n):
            row = ((np.arange(64) % 7) * 0.25 + 0.25 * (r + 1)).astype(np.float32)
            rows.append(row)
            data = (row.view(np.uint32) >> 16).astype(np.uint16) if t == "bf16" else row.astype(np_t)
            np.save(os.path.join(tmp, f"src{r}_{t}.npy"), data)
        add_rows(launcher, tool, n, tmp, t)
        want = 4 * np.sum(rows, axis=0)
        got = np.load(os.path.join(tmp, f"dst0_{t}.npy"))
        if t == "bf16":
            got = (got.astype(np.uint32) << 16).view(np.float32)
        assert got.astype(np.float64).tolist() == want.astype(np.float64).tolist(), f"{t}: {got[:8]} != {want[:8]}"
    # The integers: int32 and int64 rows near the dtype's top, so that the
    # sum of 4 blocks x n ranks wraps around (two's complement, as MPI_SUM's
    # C sum converts); int16 and int8 rows whose sums stay in range (Open MPI
    # 4.1.4's MPI_Accumulate sum of them saturates where it overflows).
    for t, np_t in (("i32", np.int32), ("i16", np.int16), ("i8", np.int8), ("i64", np.int64)):
        top = np.iinfo(np_t).max
        rows = []
        for r in range(n):
            i = np.arange(64, dtype=np.int64)
            if np.dtype(np_t).itemsize >= 4:
                row = (top // 3 - i * 5 - r).astype(np_t)
            else:
                row = (i % 7 - 3 + r).astype(np_t)
            rows.append(row)
            np.save(os.path.join(tmp, f"src{r}_{t}.npy"), row)
        add_rows(launcher, tool, n, tmp, t)
        bits = 8 * np.dtype(np_t).itemsize
        want = [((4 * sum(int(row[i]) for row in rows) + (1 << (bits - 1))) % (1 << bits)) - (1 << (bits - 1))
                for i in range(64)]
        got = np.load(os.path.join(tmp, f"dst0_{t}.npy"))
        assert got.dtype == np_t and got.tolist() == want, f"{t}: {got[:8].tolist()} != {want[:8]}"


def case_async(launcher, tool, n, tmp):
    """tput_async, tget_async, wait and test of their events (async_put_get.pto)."""
    a = (np.arange(64, dtype=np.float32) * 1.5 - 20).astype(np.float32)
    np.save(os.path.join(tmp, "a.npy"), a)
    rank = "0" if launcher == "-" else "{rank}"
    p, _ = mpiexec(launcher, n, [tool, os.path.join(HERE, "async_put_get.pto"), "a=a.npy",
                                 "b=zeros:f32:64", "c=zeros:f32:64", "ws=zeros:i8:64",
                                 "done=zeros:i32:1", "--out", f"c=c{rank}.npy",
                                 "--out", f"done=done{rank}.npy"], cwd=tmp)
    check_run(p)
    for r in range(n):
        assert np.load(os.path.join(tmp, f"c{r}.npy")).tobytes() == a.tobytes()
        assert np.load(os.path.join(tmp, f"done{r}.npy")).tolist() == [1]


def case_commsync(launcher, tool, n, tmp):
    """PTOAS's CommSync samples (test/samples/CommSync of a PTOAS checkout
    named by PTOAS_SAMPLES; skipped without it), root 1 of 4 members."""
    samples = ptoas_samples()
    d = os.path.join(samples, "CommSync")
    vals = []
    for r in range(n):
        v = (np.arange(256, dtype=np.float32) * 0.5 + 10 * r).astype(np.float32)
        np.save(os.path.join(tmp, f"v{r}.npy"), v)
        vals.append(v)
    # m0..m3: each member's buffer (rank r's copy of one array, v{rank} in it).
    members = ["arg1=v{rank}.npy@0", "arg2=arg1@1", "arg3=arg1@2", "arg4=arg1@3"]
    common = ["arg5={rank}", "arg6={size}", "--out", "arg0=a0_{rank}.npy",
              "--out", "arg1=a1_{rank}.npy"]
    # tbroadcast: root 1's arg0 (v1) into every member.
    check_run(mpiexec(launcher, n, [tool, os.path.join(d, "tbroadcast_root_binding.pto"),
                                    "arg0=v{rank}.npy"] + members + common, cwd=tmp)[0])
    for r in range(n):
        got = np.load(os.path.join(tmp, f"a1_{r}.npy"))
        assert got.tobytes() == vals[1].tobytes(), f"tbroadcast: rank {r}'s member differs"
    # treduce: group (arg0..arg3), dst arg4; root 1 sums member 1 first,
    # then 0, 2, 3 (pto-isa's order). Members: arg0 = root's own v1,
    # arg1 = rank 0's v0, arg2 = rank 1's v1, arg3 = rank 2's v2; dst = rank 3's.
    check_run(mpiexec(launcher, n, [tool, os.path.join(d, "treduce_root_binding.pto"),
                                    "arg0=v{rank}.npy"] + members + common, cwd=tmp)[0])
    want = vals[0].copy()
    for x in (vals[1], vals[1], vals[2]):
        want = (want + x).astype(np.float32)
    got = np.load(os.path.join(tmp, "a1_3.npy"))
    assert got.tobytes() == want.tobytes(), f"treduce: {got[:4]} != {want[:4]}"
    # tnotify atomic_add: every rank adds 1 to rank 0's counter.
    check_run(mpiexec(launcher, n, [tool, os.path.join(d, "tnotify_atomic_add_binding-pto-ir.pto"),
                                    "arg0=zeros:i32:1@0", "--out", "arg0=c{rank}.npy"], cwd=tmp)[0])
    assert np.load(os.path.join(tmp, "c0.npy")).tolist() == [n]
    # tgather / tscatter: 256-element views hold 1 row, fewer than the 4
    # members' row blocks: refused on the root, nothing written.
    for k, role in (("tgather", "dst"), ("tscatter", "src")):
        p, _ = mpiexec(launcher, n, [tool, os.path.join(d, f"{k}_root_binding.pto"),
                                     "arg0=v{rank}.npy"] + members + ["arg5={rank}", "arg6={size}"],
                       cwd=tmp)
        assert p.returncode != 0 and f"pto.comm.{k}: {role} is 1x256, not at least 4x256" in p.stderr, p.stderr


def case_combine(launcher, tool, n, tmp):
    """DeepSeek V4's MoE combine (PTOAS_SAMPLES' DeepseekV4DecodeA5 combine.pto)
    on 2 ranks x 32 blocks: block e sends, for each source rank src, the
    recv_meta[src][e] rows that follow in its slots of recv_y_flat to row
    route[e][slot] of rank src's routed_y_buf (pto.addptr by the context's
    window bases), then adds 1 to combine_arrived[me] of every other rank."""
    samples = ptoas_samples()
    kernel = os.path.join(samples, "DeepseekV4DecodeA5", "kernels", "aiv", "combine.pto")
    rng = np.random.default_rng(5)
    meta = np.zeros((2, 32), np.int32)
    meta[0, 3], meta[1, 3], meta[1, 17] = 2, 1, 3  # rows per (source rank, block)
    ys, routes = [], []
    for r in range(n):
        route = np.zeros((32, 16), np.int32)
        # Each rank's rows land in rows of the destination no other rank uses.
        route[3, :3] = [r, 2 + r, 4 + r]
        route[17, :3] = [10 + r, 12 + r, 14 + r]
        y = rng.integers(-300, 300, size=(512, 4096)).astype(np.float32)
        y16 = (y.view(np.uint32) >> 16).astype(np.uint16)  # exact in bfloat16
        np.save(os.path.join(tmp, f"route{r}.npy"), route)
        np.save(os.path.join(tmp, f"y{r}.npy"), y16)
        ys.append(y16)
        routes.append(route)
    np.save(os.path.join(tmp, "meta.npy"), meta)
    p, _ = mpiexec(launcher, n, [tool, kernel, "--blocks", "32", "arg0=meta.npy",
                                 "arg1=route{rank}.npy", "arg2=zeros:bf16:48x4096",
                                 "arg3=y{rank}.npy", "arg4=zeros:i32:2", "arg5={rank}",
                                 "arg6=context", "arg7=context", "--out", "arg2=buf{rank}.npy",
                                 "--out", "arg4=arrived{rank}.npy"], cwd=tmp)
    check_run(p)
    want = [np.zeros((48, 4096), np.uint16) for _ in range(n)]
    for me in range(n):
        for e in range(32):
            b = 0
            for src in range(2):
                for slot in range(meta[src, e]):
                    want[src][routes[me][e, b + slot]] = ys[me][e * 16 + b + slot]
                b += meta[src, e]
    for r in range(n):
        got = np.load(os.path.join(tmp, f"buf{r}.npy")).view(np.uint16)
        assert got.tobytes() == want[r].tobytes(), f"rank {r}: routed_y_buf differs"
        arrived = np.load(os.path.join(tmp, f"arrived{r}.npy")).tolist()
        assert arrived == [32 if s != r else 0 for s in range(2)], arrived


def case_dispatch_meta(launcher, tool, n, tmp):
    """DeepSeek V4's MoE dispatch_meta (PTOAS_SAMPLES' DeepseekV4DecodeA5) on 2
    ranks: each rank counts its 8 tokens x top-6 expert ids per (destination
    rank, local expert), pto.tstores each row of counts into the destination's
    recv_meta[me] (a peer's window), notifies it, waits for every peer, then
    sums the rows it received into recv_count."""
    samples = ptoas_samples()
    kernel = os.path.join(samples, "DeepseekV4DecodeA5", "kernels", "aiv", "dispatch_meta.pto")
    rng = np.random.default_rng(11)
    ids = [rng.integers(0, 64, size=(8, 6)).astype(np.int32) for _ in range(n)]
    for r in range(n):
        np.save(os.path.join(tmp, f"ids{r}.npy"), ids[r])
    p, _ = mpiexec(launcher, n, [tool, kernel, "arg0=ids{rank}.npy", "arg1=zeros:i32:2x32",
                                 "arg2=zeros:i32:2", "arg3=zeros:i32:2x32", "arg4=zeros:i32:32",
                                 "arg5=8", "arg6={rank}", "arg7=context", "arg8=context",
                                 "--out", "arg1=meta{rank}.npy", "--out", "arg4=count{rank}.npy"],
                   cwd=tmp)
    check_run(p)
    for d in range(n):
        want = np.zeros((2, 32), np.int32)
        for s in range(n):
            for e in ids[s].ravel():
                if e // 32 == d:
                    want[s, e % 32] += 1
        got = np.load(os.path.join(tmp, f"meta{d}.npy"))
        assert (got == want).all(), f"rank {d}: recv_meta\n{got}\n{want}"
        count = np.load(os.path.join(tmp, f"count{d}.npy"))
        assert count.tolist() == want.sum(0).tolist(), f"rank {d}: recv_count {count}"


def main():
    launcher, tool, n, case = sys.argv[1], os.path.abspath(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    with tempfile.TemporaryDirectory() as tmp:
        run = (globals().get("case_" + case) or getattr(comm_cases, "case_" + case, None) or
               getattr(fault_jobs, "case_" + case))
        run(launcher, tool, n, tmp)
    print(f"{case} on {n} ranks: ok")


if __name__ == "__main__":
    main()
