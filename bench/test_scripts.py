#!/usr/bin/env python3
"""meson test 'bench-scripts': loop_replay.py, instruction_rates.py and
loop_bound.py (where llvm-mca is installed) run on this build and print what
the README quotes from them. Asserts their output,
not their speed (speed is the benchmarks' business, not the tests').

  bench/test_scripts.py build/src/libpto.so.0

Skips (exit 77) where the CPU lacks AVX2 or FMA, or objdump or cc is missing.
"""
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SKIP = 77


def run(*args):
    out = subprocess.run([sys.executable, *args], capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"FAIL: {' '.join(args)} exited {out.returncode}:\n{out.stdout}{out.stderr}")
    return out.stdout


def main():
    lib = sys.argv[1]
    flags = open("/proc/cpuinfo").read() if os.path.exists("/proc/cpuinfo") else ""
    if not (re.search(r"\bavx2\b", flags) and re.search(r"\bfma\b", flags)):
        print("SKIP: this CPU lacks AVX2 or FMA, which the replayed loops and timed instructions need")
        sys.exit(SKIP)
    for tool in ("objdump", "cc"):
        if shutil.which(tool) is None:
            print(f"SKIP: {tool} not found (the scripts need it)")
            sys.exit(SKIP)
    replay = os.path.join(HERE, "loop_replay.py")
    ns = r"([0-9.]+) ns per iteration = ([0-9.]+) ns per element"
    out = run(replay, lib, "N_AVX2::PowContiguousF32", "16")
    count = re.search(r"hot loop of (\d+) instructions for 16 elements", out)
    assert count and int(count.group(1)) > 100, out
    assert re.search(r"as compiled: " + ns, out) and re.search(r"independent: " + ns, out), out
    for name, value in re.findall(r"(as compiled|independent): ([0-9.]+) ns per iteration", out):
        assert float(value) > 0, f"{name}: {value}"
    dropped = run(replay, lib, "N_AVX2::PowContiguousF32", "16", "--drop", "^vpermps")
    left = re.search(r"hot loop of (\d+) instructions .*\((\d+) matching", dropped)
    assert left and int(left.group(1)) + int(left.group(2)) == int(count.group(1)) and int(left.group(2)) > 0, dropped
    # Slots: a spill and its reload meet; a store through a moving pointer
    # and the loads through the same operand do not.
    sys.path.insert(0, HERE)
    import loop_replay  # noqa: E402
    rewriter = loop_replay.Rewriter(False)
    slot = lambda text: re.search(r"(\d+)\(%rsp\)", rewriter.rewrite(text)).group(1)  # noqa: E731
    assert slot("vmovapd %ymm2,-0x20(%rbp)") == slot("vmovapd -0x20(%rbp),%ymm3")
    assert slot("vmovapd (%rax),%ymm1") != slot("vmovapd %ymm1,(%rax)")
    assert slot("vaddpd (%rax),%ymm1,%ymm1") == slot("vmovapd (%rax),%ymm4")
    # HIGH_PRECISION's first and last passes: loops shorter than the one-pass
    # loop (the last about 50 instructions).
    for pick, without in (("vcvtps2pd", "vcvtpd2ps"), ("vcvtpd2ps", "vcvtps2pd")):
        part = run(replay, lib, "N_AVX2::PowContiguousF32", "16", pick, "--without", without)
        size = re.search(r"hot loop of (\d+) instructions", part)
        assert size and 30 < int(size.group(1)) < int(count.group(1)), part
    # loop_bound.py picks the same passes (it only reads the code; llvm-mca
    # gives its model's figures beside the counts).
    if shutil.which("llvm-mca") is None:
        print("loop_bound.py not run: llvm-mca not found")
    else:
        bound = os.path.join(HERE, "loop_bound.py")
        whole = run(bound, lib, "N_AVX2::PowContiguousF32", "16", "znver3", "vcvtps2pd")
        first = run(bound, lib, "N_AVX2::PowContiguousF32", "16", "znver3", "vcvtps2pd", "--without", "vcvtpd2ps")
        sizes = [re.search(r"hot loop of (\d+) instructions", o) for o in (whole, first)]
        assert all(sizes) and 50 < int(sizes[1].group(1)) < int(sizes[0].group(1)), whole + first
        assert re.search(r"vector operations per iteration .*: \d+ ymm", first), first
    # SSE code: the as-compiled form only, and says why.
    sse = run(replay, lib, "N_SSE4::PowContiguousF32", "8")
    assert re.search(r"as compiled: " + ns, sse) and "independent: not measured: legacy SSE" in sse, sse
    rates = run(os.path.join(HERE, "instruction_rates.py"))
    assert re.search(r"dependent vaddpd: [0-9.]+ ns an add", rates), rates
    for kind in ("vfmadd231pd", "vpermps", "vcvtps2pd", "vmulpd x2 + vpermps"):
        assert re.search(r"^  " + re.escape(kind) + r" +[0-9.]+ cycles a group", rates, re.M), rates
    print("the analysis scripts ran; output as documented")


if __name__ == "__main__":
    main()
