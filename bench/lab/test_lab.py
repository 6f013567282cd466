#!/usr/bin/env python3
"""meson test 'bench-lab': the lab's instruments run on this build and print
output of the form they document. No figure is checked (speed is the
instruments' business, not the tests'); what is checked is that each one
runs, parses what it measures and prints well-formed lines.

  bench/lab/test_lab.py --lib build/src/libpto.so.0 --pow-chain build/bench/lab/pow-chain ...

The programs run everywhere. The scripts (loop_replay.py, loop_bound.py,
instruction_rates.py) need an x86-64 CPU with AVX2 and FMA, objdump and cc
(loop_bound.py also llvm-mca); where one is missing they are left out and
the test says so. overhead.py and call_instructions.py need the Python
package (and valgrind, minutes), qwen3_steps.py PyPTO's export of a model:
they are only compiled.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
NUM = r"-?[0-9.]+"


def run(*args, expect=0):
    out = subprocess.run(list(args), capture_output=True, text=True)
    if out.returncode != expect:
        sys.exit(f"FAIL: {' '.join(args)} exited {out.returncode}, not {expect}:\n{out.stdout}{out.stderr}")
    return out.stdout


def script(name, *args):
    return run(sys.executable, os.path.join(HERE, name), *args)


def check_programs(opts):
    chain = run(opts.pow_chain)
    pair = rf"{NUM} \(\s*{NUM}\)\s+{NUM}"
    row = rf"^(\S+)\s+{NUM}\s+(\d+)\s+{pair}\s+{pair}\s+{NUM}$"
    rows = re.findall(row, chain, re.M)
    assert rows and all(int(lanes) > 0 for _, lanes in rows), chain
    one = run(opts.pow_chain, "--target", rows[0][0])
    assert [name for name, _ in re.findall(row, one, re.M)] == [rows[0][0]], one
    run(opts.pow_chain, "--target", "NO-SUCH-TARGET", expect=1)

    hard = run(opts.pow_hard_lanes, "200", "2")
    assert re.search(rf"1x8 tile: {NUM} ns a call with 4 lanes .*, {NUM} ns with none: {NUM} ns a hard lane", hard), hard

    worst = run(opts.pow_worst_region, "0.85", "1.2", "100", "125", "1")
    found = re.search(rf"worst ({NUM}) ulp over (\d+) inputs", worst)
    assert found and int(found.group(2)) > 0, worst

    for op in ("tpow", "tpow-high", "trsqrt", "tprelu", "tcolexpanddiv", "tpartadd", "empty"):
        run(opts.one_element_calls, op, "100")
    run(opts.one_element_calls, "no-such-op", "1", expect=2)

    mode = run(opts.mode_read_cost, "2")
    assert re.search(rf"stmxcsr +{NUM} ns per iteration", mode) or "x86-64 only" in mode, mode
    run(opts.mode_read_cost, "0", expect=2)

    rows = os.path.join(HERE, "small_tile_rows.pto")
    program = run(opts.small_tile_rows, "program", "2", rows)
    direct = run(opts.small_tile_rows, "direct", "2", rows)
    # Both sides compute the same last element.
    assert program.split("=")[-1] == direct.split("=")[-1], (program, direct)
    run(opts.small_tile_rows, "neither", "1", rows, expect=2)

    moves = run(opts.cube_moves, "1")
    timed = re.findall(rf"^  (pto_\S+) .* +({NUM})$", moves, re.M)
    assert len(timed) == 7 and all(float(us) > 0 for _, us in timed), moves

    roof = run(opts.roofline, "--rounds", "1", "--mib", "16")
    bounds = {(name, cores): float(v) for name, cores, v in re.findall(rf"^bound (\S+) ([12]) ({NUM})$", roof, re.M)}
    for name in ("fma_registers_gflops", "fma_block4_gflops", "fma_block8_gflops", "read_gbs",
                 "tile_read_gbs"):
        assert bounds.get((name, "1"), 0) > 0, roof
    run(opts.roofline, "--rounds", "0", expect=2)


def script_blocker():
    flags = open("/proc/cpuinfo").read() if os.path.exists("/proc/cpuinfo") else ""
    if not (re.search(r"\bavx2\b", flags) and re.search(r"\bfma\b", flags)):
        return "this CPU lacks AVX2 or FMA, which the replayed loops and timed instructions need"
    for tool in ("objdump", "cc"):
        if shutil.which(tool) is None:
            return f"{tool} not found"
    return None


def check_scripts(lib):
    ns = rf"({NUM}) ns per iteration = {NUM} ns per element"
    kernel = "N_AVX2::PowContiguousF32"
    out = script("loop_replay.py", lib, kernel, "16")
    count = re.search(r"hot loop of (\d+) instructions for 16 elements", out)
    assert count and int(count.group(1)) > 0, out
    assert re.search(r"as compiled: " + ns, out) and re.search(r"independent: " + ns, out), out
    # --drop leaves out what it matches, and says how many.
    dropped = script("loop_replay.py", lib, kernel, "16", "--drop", "^vpermps")
    left = re.search(r"hot loop of (\d+) instructions .*\((\d+) matching", dropped)
    assert left and int(left.group(1)) + int(left.group(2)) == int(count.group(1)), dropped
    # A selector picks an innermost loop no longer than the longest.
    part = script("loop_replay.py", lib, kernel, "16", "vcvtps2pd", "--without", "vcvtpd2ps")
    size = re.search(r"hot loop of (\d+) instructions", part)
    assert size and 0 < int(size.group(1)) <= int(count.group(1)), part
    # Memory slots: a spill and its reload meet; a store through a moving
    # pointer and the loads through the same operand do not.
    sys.path.insert(0, HERE)
    import loop_replay  # noqa: E402
    rewriter = loop_replay.Rewriter(False)
    slot = lambda text: re.search(r"(\d+)\(%rsp\)", rewriter.rewrite(text)).group(1)  # noqa: E731
    assert slot("vmovapd %ymm2,-0x20(%rbp)") == slot("vmovapd -0x20(%rbp),%ymm3")
    assert slot("vmovapd (%rax),%ymm1") != slot("vmovapd %ymm1,(%rax)")
    assert slot("vaddpd (%rax),%ymm1,%ymm1") == slot("vmovapd (%rax),%ymm4")
    # Legacy SSE code: the as-compiled form only, and says why.
    sse = script("loop_replay.py", lib, "N_SSE4::PowContiguousF32", "8")
    assert re.search(r"as compiled: " + ns, sse) and "independent: not measured: legacy SSE" in sse, sse

    if shutil.which("llvm-mca") is None:
        print("loop_bound.py not run: llvm-mca not found")
    else:
        bound = script("loop_bound.py", lib, kernel, "16", "znver3", "vcvtps2pd")
        assert re.search(r"hot loop of \d+ instructions", bound), bound
        assert re.search(r"vector operations per iteration .*: \d+ ymm", bound), bound

    rates = script("instruction_rates.py")
    assert re.search(rf"dependent vaddpd: {NUM} ns an add", rates), rates
    for kind in ("vfmadd231pd", "vpermps", "vcvtps2pd", "vmulpd x2 + vpermps"):
        assert re.search(r"^  " + re.escape(kind) + rf" +{NUM} cycles a group", rates, re.M), rates


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for name in ("--lib", "--pow-chain", "--pow-hard-lanes", "--pow-worst-region", "--one-element-calls",
                 "--mode-read-cost", "--small-tile-rows", "--cube-moves", "--roofline"):
        parser.add_argument(name, required=True)
    opts = parser.parse_args()
    check_programs(opts)
    for name in ("python/overhead.py", "python/call_instructions.py", "python/qwen3_steps.py"):
        path = os.path.join(HERE, name)
        with open(path) as f:
            compile(f.read(), path, "exec")
    blocker = script_blocker()
    if blocker:
        print(f"the programs ran; the scripts not run: {blocker}")
    else:
        check_scripts(opts.lib)
        print("the instruments ran; output well-formed")


if __name__ == "__main__":
    main()
