"""Multi-rank fault jobs: random ring kernels on 2 and 3 ranks of
pto-run-mpi, most with one fault injected into one rank, each job under a
hard time limit that counts as a failure (a hang).

Run through test_mpi.py (test_mpi.py MPIEXEC PTO_RUN_MPI RANKS faults);
PTO_FAULT_JOBS (default 12) jobs, PTO_FAULT_SEED (default: random, printed)
draws them. A kernel: every rank puts its ROWSxCOLS source (f32, i32 or
f16) into rows OFF.. of the next rank's dst, notifies the next rank's
signal, and waits for its own. The faults, one rank each:
  none      the control: every rank's dst holds the previous rank's rows
  broken    the rank's kernel text mutated so that it does not parse or
            verify: its located error, then the others' "stopped" line
  refused   the rank's OFF outside its view: refused at run time, located
            (FILE:LINE:COL) on that rank, while the others wait for its
            notify: they stop at their next poll
  usage     an unknown parameter on the rank's command line
  timeout   every rank waits for a notify that never comes (PTO_COMM_TIMEOUT
            2 s): the first rank's time limit ends every rank
  kill      the rank killed by a signal (SIGKILL, SIGSEGV or SIGTERM) while
            every rank waits: the launcher ends the job; the rank says
            "ended by signal" first where it can catch the signal
Every faulty job must exit non-zero within its bound (PTO_COMM_TIMEOUT is 30
s for the other faults, so no wait's own limit can end them), the failing
rank's message once and whole, every other rank's one line naming it, no
line merged with another.
"""
import os
import random
import re
import signal
import subprocess
import sys
import time

import numpy as np

HARD_LIMIT = 40      # seconds for one job, whatever happens: past it, a hang
FAULT_BOUND = 10     # seconds from a fault to the job's end (the contract's default)
STARTUP = 8          # seconds mpiexec may take to start and stop ranks on a busy machine
DTYPES = {"f32": np.float32, "i32": np.int32, "f16": np.float16}


def kernel(dt, rows, cols):
    rows2 = 2 * rows
    return f"""// A ring: src into rows %off.. of the next rank's dst, then a notify.
module {{
  func.func @ring(%src: !pto.ptr<{dt}>, %dst: !pto.ptr<{dt}>, %sig: !pto.ptr<i32>,
      %nxt: !pto.ptr<{dt}>, %nsig: !pto.ptr<i32>, %off: index, %want: i32) {{
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %cr = arith.constant {rows} : index
    %cr2 = arith.constant {rows2} : index
    %cc = arith.constant {cols} : index
    %one = arith.constant 1 : i32
    %sv = pto.make_tensor_view %src, shape = [%cr, %cc], strides = [%cc, %c1] : !pto.tensor_view<{rows}x{cols}x{dt}>
    %nv = pto.make_tensor_view %nxt, shape = [%cr2, %cc], strides = [%cc, %c1] : !pto.tensor_view<{rows2}x{cols}x{dt}>
    %part = pto.partition_view %nv, offsets = [%off, %c0], sizes = [%cr, %cc] : !pto.tensor_view<{rows2}x{cols}x{dt}> -> !pto.partition_tensor_view<{rows}x{cols}x{dt}>
    %buf = pto.alloc_tile : !pto.tile_buf<vec, {rows}x{cols}x{dt}>
    pto.comm.tput(%part, %sv, buf(%buf) : !pto.partition_tensor_view<{rows}x{cols}x{dt}>, !pto.tensor_view<{rows}x{cols}x{dt}>, !pto.tile_buf<vec, {rows}x{cols}x{dt}>) {{atomicType = #pto<atomic_type atomic_none>}}
    %ns = pto.make_tensor_view %nsig, shape = [%c1, %c1], strides = [%c1, %c1] : !pto.tensor_view<1x1xi32>
    pto.comm.tnotify(%ns, %one : !pto.tensor_view<1x1xi32>, i32) {{notifyOp = #pto<notify_op atomic_add>}}
    %own = pto.make_tensor_view %sig, shape = [%c1, %c1], strides = [%c1, %c1] : !pto.tensor_view<1x1xi32>
    pto.comm.twait(%own, %want : !pto.tensor_view<1x1xi32>, i32) {{cmp = #pto<wait_cmp ge>}}
    return
  }}
}}
"""


def broken(text, rng):
    """The kernel mutated so that it cannot run: a line cut short, an unknown
    operation, a value defined under another name (its uses undefined), or
    the staging tile's dtype unlike its views'."""
    lines = text.splitlines()
    ops = [i for i, line in enumerate(lines) if "pto." in line and "=" in line]
    defs = [i for i, line in enumerate(lines) if re.match(r"\s*%\w+ = ", line)]
    kind = rng.randrange(4)
    if kind == 0:
        i = rng.choice(defs)
        lines[i] = lines[i][:len(lines[i]) // 2]
    elif kind == 1:
        i = rng.choice(ops)
        lines[i] = re.sub(r"pto\.([\w.]+)", r"pto.\1_x", lines[i], count=1)
    elif kind == 2:
        i = rng.choice(defs)
        lines[i] = re.sub(r"%(\w+) = ", r"%\1_gone = ", lines[i], count=1)
    else:
        i = next(i for i, line in enumerate(lines) if "pto.alloc_tile" in line)
        other = "f32" if "xf16>" in lines[i] else "f16"
        lines[i] = re.sub(r"x(f32|i32|f16)>", f"x{other}>", lines[i])
    return "\n".join(lines) + "\n"


def catches_sigterm(pid):
    """Whether process pid has a handler for SIGTERM (pto-run-mpi installs
    its handlers right after MPI starts: a signal before that ends the
    process silently)."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("SigCgt:"):
                    return bool(int(line.split()[1], 16) >> (signal.SIGTERM - 1) & 1)
    except OSError:
        pass
    return False


def env_for(timeout):
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_rmaps_base_oversubscribe="1",
               OMPI_MCA_btl_vader_single_copy_mechanism="none", OMPI_MCA_mpi_yield_when_idle="1",
               PTO_COMM_TIMEOUT=str(timeout))
    return env


def run_job(launcher, tool, tmp, job, rng):
    n = rng.choice((2, 3))
    dt = rng.choice(sorted(DTYPES))
    rows, cols = rng.choice((1, 2, 4)), rng.choice((16, 32, 64))
    fault = job["fault"]
    victim = rng.randrange(n)
    text = kernel(dt, rows, cols)
    with open(os.path.join(tmp, "k.pto"), "w") as f:
        f.write(text)
    with open(os.path.join(tmp, "k_bad.pto"), "w") as f:
        f.write(broken(text, rng))
    srcs = []
    for r in range(n):
        a = (np.arange(rows * cols) % 97 - 40 + 100 * r).reshape(rows, cols).astype(DTYPES[dt])
        np.save(os.path.join(tmp, f"src{r}.npy"), a)
        srcs.append(a)
    want = 2 if fault in ("timeout", "kill") else 1
    cmd = [launcher]
    pidfile = os.path.join(tmp, "victim.pid")
    if os.path.exists(pidfile):
        os.remove(pidfile)
    for r in range(n):
        nxt = (r + 1) % n
        k = "k_bad.pto" if fault == "broken" and r == victim else "k.pto"
        off = rows + 1 if fault == "refused" and r == victim else 0
        args = [tool, os.path.join(tmp, k), f"src=src{r}.npy", f"dst=zeros:{dt}:{2 * rows}x{cols}",
                "sig=zeros:i32:1", f"nxt=dst@{nxt}", f"nsig=sig@{nxt}", f"off={off}",
                f"want={want}", "--out", f"dst=dst{r}.npy"]
        if fault == "usage" and r == victim:
            args.append("nosuch=1")
        if fault == "kill" and r == victim:
            args = ["sh", "-c", f'echo $$ > "{pidfile}"; exec "$@"', "sh"] + args
        cmd += ([":"] if r else []) + ["-n", "1"] + args
    timeout = 2 if fault == "timeout" else 30
    start = time.monotonic()
    p = subprocess.Popen(cmd, cwd=tmp, env=env_for(timeout), stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, start_new_session=True)
    fault_at = start
    if fault == "kill":
        sig = rng.choice((signal.SIGKILL, signal.SIGSEGV, signal.SIGTERM))
        # Once every rank waits (the victim's pid written, then a moment).
        while not os.path.exists(pidfile) and time.monotonic() - start < HARD_LIMIT / 2:
            time.sleep(0.05)
        time.sleep(0.5 + rng.random())
        try:
            with open(pidfile) as f:
                pid = int(f.read().strip())
            job["caught"] = catches_sigterm(pid) and sig != signal.SIGKILL
            os.kill(pid, sig)
            job["signal"] = sig.name
        except (OSError, ValueError):
            pass
        fault_at = time.monotonic()
    try:
        out, err = p.communicate(timeout=HARD_LIMIT - (time.monotonic() - start))
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out, err = p.communicate()
        return f"HANG: no end within {HARD_LIMIT} s (ranks {n}, fault {fault} on rank {victim})\n{err}"
    took = time.monotonic() - fault_at
    job.update(ranks=n, victim=victim, took=time.monotonic() - start)
    where = f"{fault} on rank {victim} of {n} ({dt} {rows}x{cols})"
    lines = err.splitlines()
    merged = [l for l in lines if l.count("pto-run-mpi:") > 1 or re.search(r"rank \d+: .*rank \d+: .*error:", l)]
    if merged:
        return f"{where}: merged lines {merged}\n{err}"
    if fault == "none":
        if p.returncode != 0:
            return f"{where}: exit {p.returncode}\n{err}"
        for r in range(n):
            got = np.load(os.path.join(tmp, f"dst{r}.npy"))
            exp = np.zeros((2 * rows, cols), DTYPES[dt])
            exp[:rows] = srcs[(r - 1) % n]
            if got.tobytes() != exp.tobytes():
                return f"{where}: rank {r}'s dst differs"
        return None
    if p.returncode == 0:
        return f"{where}: the job exited 0\n{err}"
    bound = FAULT_BOUND + STARTUP + (timeout if fault == "timeout" else 0)
    if took > bound:
        return f"{where}: ended {took:.1f} s after the fault (bound {bound} s)\n{err}"
    if fault == "kill":
        # The launcher names the rank it lost; nobody waited out the 30 s limit;
        # a rank that had its handlers when a catchable signal came said so once.
        if "no notify within" in err:
            return f"{where}: a rank waited out its time limit\n{err}"
        said = err.count(f"pto-run-mpi: rank {victim}: ended by signal {job.get('signal')}\n")
        if job.get("caught") and said != 1:
            return f"{where}: the killed rank's line {said} times, not once\n{err}"
        return None
    own = {
        "broken": re.compile(rf"^rank {victim}: .*k_bad\.pto:\d+:\d+: error: "),
        "refused": re.compile(rf"^rank {victim}: .*k\.pto:\d+:\d+: error: "),
        "usage": re.compile(rf"^pto-run-mpi: rank {victim}: unknown parameter 'nosuch'"),
        "timeout": re.compile(r"^rank (\d+): .*k\.pto:\d+:\d+: error: pto\.comm\.twait: no notify within 2 s"),
    }[fault]
    mine = [l for l in lines if own.search(l)]
    if fault == "timeout":
        timed_out = {int(own.search(l).group(1)) for l in mine}
        if not timed_out:
            return f"{where}: no rank reported its wait's time limit\n{err}"
        first = min(timed_out)
        for r in range(n):
            stopped = [l for l in lines if l.startswith(f"pto-run-mpi: rank {r}: stopped: rank ")]
            said = len(stopped) + len([l for l in mine if l.startswith(f"rank {r}: ")])
            if said != 1:
                return f"{where}: rank {r} printed {said} lines, not 1\n{err}"
        return None
    if len(mine) != 1:
        return f"{where}: the failing rank's message {len(mine)} times, not once\n{err}"
    for r in range(n):
        if r == victim:
            continue
        stopped = [l for l in lines if l == f"pto-run-mpi: rank {r}: stopped: rank {victim} failed"]
        others = [l for l in lines if l.startswith(f"rank {r}: ") or
                  (l.startswith(f"pto-run-mpi: rank {r}: ") and l not in stopped)]
        if len(stopped) != 1 or others:
            return f"{where}: rank {r}: {len(stopped)} 'stopped' lines and {others}\n{err}"
    return None


def case_faults(launcher, tool, n, tmp):
    jobs = int(os.environ.get("PTO_FAULT_JOBS", "12"))
    seed = int(os.environ.get("PTO_FAULT_SEED", str(random.randrange(1 << 30))))
    print(f"seed {seed} (PTO_FAULT_SEED={seed} draws the same jobs)")
    rng = random.Random(seed)
    kinds = ["none", "broken", "refused", "usage", "timeout", "kill"]
    failures, faults, counts, slowest = [], 0, {}, 0.0
    for j in range(jobs):
        # Every kind once first, then drawn.
        job = {"fault": kinds[j] if j < len(kinds) else rng.choice(kinds)}
        d = os.path.join(tmp, f"job{j}")
        os.makedirs(d)
        problem = run_job(launcher, tool, d, job, rng)
        counts[job["fault"]] = counts.get(job["fault"], 0) + 1
        faults += job["fault"] != "none"
        slowest = max(slowest, job.get("took", HARD_LIMIT))
        sig = (f" ({job['signal']}{', its line checked' if job.get('caught') else ''})"
               if "signal" in job else "")
        what = (f"job {j}: {job['fault']}{sig} "
                f"on rank {job.get('victim', '?')} of {job.get('ranks', '?')}, "
                f"{job.get('took', HARD_LIMIT):.1f} s")
        if problem:
            failures.append(f"job {j}: {problem}")
            print(f"{what}: FAILED: {problem.splitlines()[0]}")
        else:
            print(f"{what}: ok")
    summary = ", ".join(f"{k} {counts[k]}" for k in kinds if k in counts)
    print(f"{jobs} jobs, {faults} faults injected ({summary}); slowest job {slowest:.1f} s; "
          f"{len([f for f in failures if 'HANG' in f])} hangs, {len(failures)} failures")
    if failures:
        sys.stderr.write("\n\n".join(failures) + "\n")
        raise SystemExit(1)
