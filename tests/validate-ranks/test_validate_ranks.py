#!/usr/bin/env python3
"""pto-validate on its multi-rank cases (tests/validate-ranks/, PTOAS's
sample format): a two-rank exchange that passes against each rank's golden
and the same exchange against a wrong golden, which must fail; both on 2
ranks through mpiexec and pto-run-mpi, every run under a hard time limit.
Usage: test_validate_ranks.py VALIDATE_PY PTO_RUN PTO_RUN_MPI MPIEXEC CASES_DIR"""
import subprocess
import sys
import tempfile
import time
from pathlib import Path

validate, pto_run, pto_run_mpi, mpiexec, cases = sys.argv[1:5] + [Path(sys.argv[5])]
HARD_LIMIT = 150  # seconds for one pto-validate run, whatever happens
failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


def run(*args):
    start = time.monotonic()
    proc = subprocess.run([sys.executable, validate, "--pto-run", pto_run, "--pto-run-mpi", pto_run_mpi,
                           "--mpiexec", mpiexec, "--python", sys.executable, "--ranks-comm-timeout", "20",
                           *args], capture_output=True, text=True, timeout=HARD_LIMIT)
    return proc, time.monotonic() - start


with tempfile.TemporaryDirectory() as scratch:
    proc, seconds = run("--all", str(cases), "--scratch", scratch)
    print(proc.stdout, proc.stderr, sep="\n")
    lines = {ln.split()[1]: ln for ln in proc.stdout.splitlines()
             if len(ln.split()) > 1 and ln.split()[0].isupper() and "/" in ln.split()[1]}
    ok = lines.get("Exchange/exchange.pto", "")
    check(ok.startswith("PASS ") and "(golden, max abs 0, max rel 0," in ok and "on 2 ranks (" in ok,
          f"the exchange passes against both ranks' goldens on 2 ranks (got: {ok!r})")
    bad = lines.get("WrongGolden/exchange.pto", "")
    check(bad.startswith("FAIL ") and "rank 0: [ERROR] v2: max diff 100.0" in bad and "on 2 ranks (" in bad,
          f"the wrong golden fails, rank 0's first mismatch named (got: {bad!r})")
    check("2 cases: FAIL 1, PASS 1" in proc.stdout, "the summary counts each result")
    check(proc.returncode == 1, f"--all exits 1 when a case fails (got {proc.returncode})")
    check(not any(Path(scratch).iterdir()), "every scratch directory is removed as its case ends")
    print(f"{seconds:.1f} s")

proc, _ = run(str(cases / "Exchange" / "exchange.pto"), "--ranks", "2")
check(proc.returncode == 0 and proc.stdout.startswith("PASS "), f"one passing case exits 0 ({proc.stdout.strip()})")
proc, _ = run(str(cases / "WrongGolden" / "exchange.pto"))
check(proc.returncode == 1 and proc.stdout.startswith("FAIL "), f"one failing case exits 1 ({proc.stdout.strip()})")

print(f"{len(failures)} failed")
sys.exit(1 if failures else 0)
