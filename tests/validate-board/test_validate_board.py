#!/usr/bin/env python3
"""pto-validate's board rules on its own cases (tests/validate-board/): the
generator's buffer sizes (an unused view's pointer gets the fallback, a
window's footprint counts), a scalar access past the board's buffer and a valid region past its tile
(DEFECT),
a table read only with load_scalar given the generator's fallback (the first
all-static shape, 32 elements, not the first view's 4096: DEFECT past it),
a store of a ZZ tile (DEFECT, naming TStore's dispatch), an integer division
by a count the zero inputs give (REFUSED, saying so),
a golden that computes one vector sub-block (SAMPLE-DEFECT; a golden wrong
elsewhere stays FAIL), an *_invalid sample refused (XFAIL), a hand-written
npu_validation project's golden not run for one kernel, PyPTO's block index
and count bound to the generator's values (not the launch's), a tgather
kernel without a golden given the generator's inputs (indices arange % its
logical element count, floats from its seed); in the default mode and with
--board. Usage: test_validate_board.py VALIDATE_PY PTO_RUN CASES_DIR"""
import re
import subprocess
import sys
import tempfile
from pathlib import Path

validate, pto_run, cases = sys.argv[1], sys.argv[2], Path(sys.argv[3])
failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


def run(*args):
    return subprocess.run([sys.executable, validate, "--pto-run", pto_run, "--python", sys.executable, *args],
                          capture_output=True, text=True, timeout=120)


def results(stdout):
    return {ln.split()[1]: ln for ln in stdout.splitlines()
            if ln.split() and ln.split()[0].isupper() and len(ln.split()) > 1 and "/" in ln.split()[1]}


common = {
    "Project/chain_part.pto": ("PASS ", "(determinism,"),
    "Qwen3DecodeA5/kernels/down_proj_residual.pto": ("FAIL ", "v2 differs from its golden"),
    "Qwen3DecodeA5/kernels/out_proj_residual.pto": ("SAMPLE-DEFECT ", "(the sample's defect, the board fails "
                                                    "too: the golden computes the rows of one vector sub-block"),
    "Scalar/lookup.pto": ("PASS ", "(determinism,"),
    "Spmd/block_row.pto": ("PASS ", "(golden,"),
    "Store/zz_row.pto": ("DEFECT ", "(the kernel's defect: a store of a ZZ tile (row-major boxes, "
                                    "slayout=row_major): pto-isa's TStore"),
    "Scalar/count_zero.pto": ("REFUSED ", "integer division by zero (libpto does not invent the quotient"),
    "Scalar/fallback.pto": ("DEFECT ", "pto.load_scalar: element 40 of %table, which holds 32 elements"),
    "Gather/gather_index.pto": ("PASS ", "(determinism,"),
    "Scalar/past_end.pto": ("DEFECT ", "pto.load_scalar: element 200 of %idx, which holds 128 elements (the "
                                       "kernel's defect: a scalar access outside the memory the case gives"),
    "Tile/wide.pto": ("DEFECT ", "valid region 1x33 of %t is outside its 1x32 (the kernel's defect: a valid "
                                 "region larger than its tile: pto.alloc_tile's valid_row / valid_col go to "
                                 "pto-isa common/pto_tile.hpp's Tile(VR, VC) constructor, which assigns them "
                                 "unchecked (no SetValidRow / SetValidCol is called)"),
}
modes = {
    "default": ({**common,
                 "Window/rows.pto": ("REFUSED ", "pto.partition_view: [8, 16) of dimension 0 is outside the view's 8"),
                 "Xfail/window_invalid.pto": ("XFAIL ", "outside the view's 8 (refused, as PTOAS expects: "
                                                        "runop.sh's *_invalid / *_xfail samples")},
                "13 cases: DEFECT 4, FAIL 1, PASS 4, REFUSED 2, SAMPLE-DEFECT 1, XFAIL 1"),
    "--board": ({**common,
                 "Window/rows.pto": ("PASS ", "(determinism,"),
                 "Xfail/window_invalid.pto": ("PASS ", "(determinism,")},
                "13 cases: DEFECT 4, FAIL 1, PASS 6, REFUSED 1, SAMPLE-DEFECT 1"),
}
for mode, (expected, summary) in modes.items():
    with tempfile.TemporaryDirectory() as scratch:
        proc = run("--all", str(cases), "--scratch", scratch, *([mode] if mode != "default" else []))
        print(proc.stdout, proc.stderr, sep="\n")
        lines = results(proc.stdout)
        for case, (result, text) in expected.items():
            line = lines.get(case, "")
            check(line.startswith(result) and text in line,
                  f"{mode}: {case}: {result.strip()} with '{text}' (got: {line!r})")
        check(len(lines) == len(expected), f"{mode}: {len(expected)} cases reported (got {len(lines)})")
        check(summary in proc.stdout, f"{mode}: the summary '{summary}'")
        check(proc.returncode == 1, f"{mode}: --all exits 1 (a FAIL, DEFECT, SAMPLE-DEFECT) (got {proc.returncode})")
        check(not any(Path(scratch).iterdir()), f"{mode}: every scratch directory is removed")

# One case: XFAIL exits 0, SAMPLE-DEFECT 1.
proc = run(str(cases / "Xfail" / "window_invalid.pto"))
check(proc.returncode == 0 and proc.stdout.startswith("XFAIL "), f"an XFAIL case exits 0 ({proc.stdout.strip()})")
proc = run(str(cases / "Qwen3DecodeA5" / "kernels" / "out_proj_residual.pto"))
check(proc.returncode == 1 and proc.stdout.startswith("SAMPLE-DEFECT "),
      f"a SAMPLE-DEFECT case exits 1 ({proc.stdout.strip()[:80]})")

# The generator's inputs of a case without a golden (its golden_template.py:
# np.random.seed(19), each pointer in order): src uniform floats from that
# seed, the tgather indices arange % 128 (the first 4 x 32 view), dst zero.
import numpy as np  # noqa: E402
with tempfile.TemporaryDirectory() as scratch:
    proc = run(str(cases / "Gather" / "gather_index.pto"), "--keep", "--scratch", scratch)
    kept = re.search(r"scratch kept: ([^)]+)\)", proc.stdout)
    check(proc.returncode == 0 and kept is not None, f"the tgather case passes, its scratch kept ({proc.stdout.strip()[:120]})")
    if kept:
        work = Path(kept.group(1))
        src = np.fromfile(work / "v1.bin", dtype=np.float32)
        idx = np.fromfile(work / "v2.bin", dtype=np.int32)
        check(np.array_equal(src, np.random.RandomState(19).random_sample(128).astype(np.float32)),
              "the float input is the generator's (seed 19, random_sample)")
        check(np.array_equal(idx, np.arange(32) % 128), f"the indices are arange % 128 (got {idx[:6]}...)")

# A division by a count the case's zero inputs give: said so.
proc = run(str(cases / "Scalar" / "count_zero.pto"))
check(proc.returncode == 1 and "the divisor comes from the case's inputs, every integer input zero" in proc.stdout,
      f"a division by a zero input is named ({proc.stdout.strip()[-120:]})")

# The block index and count: the golden expects row 1 (the generator's
# integer 1 for both); run as the launch's block 0 the kernel copies row 0.
proc = run(str(cases / "Spmd" / "block_row.pto"))
check(proc.returncode == 0 and proc.stdout.startswith("PASS "), f"the block-row case passes ({proc.stdout.strip()[:100]})")

print(f"{len(failures)} failed")
sys.exit(1 if failures else 0)
