#!/usr/bin/env python3
"""pto-validate on its own cases (tests/validate/, PTOAS's sample format):
each case's reported result and line, the summary, the exit status, the
hanging compare script ended by its timeout, the scratch directories
removed. Usage: test_validate.py VALIDATE_PY PTO_RUN CASES_DIR"""
import subprocess
import sys
import tempfile
import time
from pathlib import Path

validate, pto_run, cases = sys.argv[1], sys.argv[2], Path(sys.argv[3])
failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


def run(*args, timeout=120):
    start = time.monotonic()
    proc = subprocess.run([sys.executable, validate, "--pto-run", pto_run, "--python", sys.executable,
                           *args], capture_output=True, text=True, timeout=timeout)
    return proc, time.monotonic() - start


# Every case of the tree, the compare script's timeout 2 s.
with tempfile.TemporaryDirectory() as scratch:
    proc, seconds = run("--all", str(cases), "--compare-timeout", "2", "--comm-timeout", "1",
                        "--scratch", scratch)
    print(proc.stdout, proc.stderr, sep="\n")
    lines = {ln.split()[1]: ln for ln in proc.stdout.splitlines()
             if ln.split() and ln.split()[0].isupper() and len(ln.split()) > 1 and "/" in ln.split()[1]}
    expected = {
        "Add/add.pto": ("PASS ", "(golden, max abs 0, max rel 0,"),
        "WrongGolden/mul.pto": ("FAIL ", "[ERROR] v3: max diff"),
        "CrashGolden/sub.pto": ("ERROR ", "golden script sub_golden.py crashed (signal 6)"),
        "HangCompare/max.pto": ("TIMEOUT ", "compare script: no result after 2 s (killed)"),
        "Refused/window.pto": ("REFUSED ", "pto.partition_view: [8, 16) of dimension 0 is outside the view's 8"),
        "Determinism/min.pto": ("PASS ", "(determinism,"),
        "MissingInput/div.pto": ("ERROR ", "missing file: v1.bin (the golden script did not write it)"),
        "Builder/builder.py": ("NEEDS-PTOAS-PY ", "needs PTOAS's Python package"),
        "DivZero/divzero.pto": ("REFUSED ", "divzero.pto:12:10: integer division by zero (libpto does not invent "
                                            "the quotient: arith.divsi / remsi by zero in the AI core's scalar C++, "
                                            "which nothing on the NPU checks"),
        "MultiCard/signal.pto": ("NEEDS-RANKS ", "pto.comm.twait: no notify within 1 s (PTO_COMM_TIMEOUT) "
                                                 "on rank 0, block 0: element 0 of the signal %own is 0, "
                                                 "waiting for >= 1 (a multi-card kernel waiting for a signal"),
        "MultiCardPut/put.pto": ("PASS ", "(golden, max abs 0, max rel 0,"),
        "GatherShort/gather.pto": ("DEFECT ", "pto.comm.tgather: dst is 1x64, not at least 4x64 (4 members "
                                              "of 1x64, a row block each) (the kernel's defect: the root's "
                                              "buffer holds fewer rows"),
    }
    for case, (result, text) in expected.items():
        line = lines.get(case, "")
        check(line.startswith(result) and text in line, f"{case}: {result.strip()} with '{text}' (got: {line!r})")
    check(len(lines) == len(expected), f"{len(expected)} cases reported (got {len(lines)})")
    check("12 cases: DEFECT 1, ERROR 2, FAIL 1, NEEDS-PTOAS-PY 1, NEEDS-RANKS 1, PASS 3, REFUSED 2, TIMEOUT 1"
          in proc.stdout,
          "the summary counts each result")
    check(proc.returncode == 1, f"--all exits 1 when a case fails (got {proc.returncode})")
    check(seconds < 60, f"the hanging compare script costs its 2 s timeout, not a hang ({seconds:.1f} s in all)")
    check(not any(Path(scratch).iterdir()), "every scratch directory is removed as its case ends")

# One case at a time: the exit status is the case's.
proc, _ = run(str(cases / "Add" / "add.pto"))
check(proc.returncode == 0 and proc.stdout.startswith("PASS "), f"one passing case exits 0 ({proc.stdout.strip()})")
proc, _ = run(str(cases / "WrongGolden" / "mul.pto"))
check(proc.returncode == 1 and proc.stdout.startswith("FAIL "), f"one failing case exits 1 ({proc.stdout.strip()})")
# A builder with the .pto it would print: the case runs (the .pto is the
# determinism case's kernel, and the builder has no golden script).
proc, _ = run(str(cases / "Builder" / "builder.py"), "--pto", str(cases / "Determinism" / "min.pto"))
check(proc.returncode == 0 and proc.stdout.startswith("PASS "), f"a builder given --pto runs ({proc.stdout.strip()})")
proc, _ = run(str(cases / "Add" / "none.pto"))
check(proc.returncode == 2 and "no such file" in proc.stderr, f"a missing sample is one line, exit 2 ({proc.stderr.strip()})")

# --board goes to pto-run; a pto-run without the board mode is named.
has_board = "--board" in subprocess.run([pto_run, "--help"], capture_output=True, text=True).stdout
proc, _ = run(str(cases / "Add" / "add.pto"), "--board")
if has_board:
    check(proc.returncode == 0 and proc.stdout.startswith("PASS "), "--board: the case passes in the board mode")
    # The window past its view is past the buffer the case gives it too:
    # refused in the board mode as well, and then the kernel's defect.
    proc, _ = run(str(cases / "Refused" / "window.pto"), "--board")
    check(proc.returncode == 1 and proc.stdout.startswith("DEFECT ") and "the kernel's defect: an access outside"
          in proc.stdout, f"--board: a window past its buffer is the kernel's defect ({proc.stdout.strip()})")
else:
    check(proc.returncode == 2 and "has no --board option" in proc.stderr,
          f"--board with a pto-run without it: one line, exit 2 ({proc.stderr.strip()})")

print(f"{len(failures)} failed")
sys.exit(1 if failures else 0)
