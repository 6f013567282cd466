#!/usr/bin/env python3
"""The port bound of a kernel's hot loop, from its machine code.

Finds the hot loop of a function in libpto.so (the longest innermost
loop whose body neither calls nor returns), hands its instructions to llvm-mca
for a CPU model, and prints per element: instructions, FMA-unit operations
(multiplies and FMAs), and two bounds from llvm-mca's model of the CPU: the block reciprocal
throughput (the cycles the loop's resources need, perfectly spread over the
pipes that can take each operation) and the busiest pipe's cycles as
llvm-mca assigns the work (its resource pressure per iteration). Pipe pressure ignores
dependencies, so it is the least a loop can take on that CPU whatever the
scheduling, if the model is right. It is not always: LLVM 14's Zen 3 model
(znver3) gives a 256-bit FMA or multiply a cycle of both FMA pipes, one a
cycle, where Zen 3 starts two a cycle (pow-chain measures it), so
for FMA-heavy loops its figures are up to twice the real bound. The script
therefore also counts the loop's vector operations by register width and
prints bounds from the counts alone: multiplies and FMAs at two a cycle (two
FMA units: Zen 3, Zen 4, Intel since Haswell), all vector operations at four
a cycle (the most any of these x86 cores starts), and, for an AVX-512 loop,
two 512-bit operations a cycle, which neither Intel's AVX-512 server cores
nor Zen 4 exceed.

  bench/lab/loop_bound.py build/src/libpto.so.0 'N_AVX2::PowFloatRows<float, true>' 16 znver3

ELEMENTS is the number of elements one iteration computes (two AVX2 vectors
of float32: 16). An optional fifth argument, a regular expression, picks the
longest innermost loop with an instruction matching it (for kernels whose
longest loop is a tail: 'vfnmadd.*ymm'), and --without REGEX passes over
loops with an instruction matching it, as in loop_replay.py (tpow
HIGH_PRECISION's passes: 'vcvtps2pd --without vcvtpd2ps' picks the first). Needs objdump (binutils) and llvm-mca (Debian: llvm).
"""
import argparse
import re
import subprocess
import sys


def function_range(lib, pattern):
    out = subprocess.run(["nm", "-C", "-S", lib], capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        parts = line.split(None, 3)
        if len(parts) == 4 and pattern in parts[3]:
            start = int(parts[0], 16)
            return start, start + int(parts[1], 16), parts[3]
    sys.exit(f"loop_bound: no function matching {pattern!r} in {lib}")


def disassemble(lib, start, end):
    out = subprocess.run(["objdump", "-d", "--no-show-raw-insn", f"--start-address={start}",
                          f"--stop-address={end}", lib], capture_output=True, text=True, check=True).stdout
    insns = []
    for line in out.splitlines():
        m = re.match(r"^\s+([0-9a-f]+):\s+(.*)$", line)
        if m:
            insns.append((int(m.group(1), 16), re.sub(r"\s*#.*$", "", m.group(2)).strip()))
    return insns


def hot_loop(insns, must_match=None, must_not_match=None):
    """The longest innermost loop without calls: a backward jump's span that
    holds no other backward jump and no call or return (and, if given, an
    instruction matching must_match and none matching must_not_match)."""
    loops = []
    for addr, text in insns:
        m = re.match(r"^j\w+\s+([0-9a-f]+)\b", text)
        if m and int(m.group(1), 16) < addr:
            loops.append((int(m.group(1), 16), addr))
    best = None
    for start, end in loops:
        if any((s, e) != (start, end) and start <= s and e <= end for s, e in loops):
            continue
        body = [t for a, t in insns if start <= a <= end]
        if any(t.startswith(("call", "ret")) for t in body):
            continue
        if must_match and not any(re.search(must_match, t) for t in body):
            continue
        if must_not_match and any(re.search(must_not_match, t) for t in body):
            continue
        if best is None or len(body) > len(best):
            best = body
    if best is None:
        sys.exit("loop_bound: no innermost loop without calls found")
    return best


def operations(body):
    """A loop body's instructions without its jumps and padding."""
    return [t for t in body if not re.match(r"^(j\w+|nop|xchg\s+%ax,%ax|cs nop)", t)]


def vector_operations(code):
    """Vector operations that need an execution pipe, by register width: not
    the plain loads and stores (vmov* with a memory operand: load and store
    ports) nor register-to-register moves (which the renamer may remove); an
    operation with a folded memory operand counts; mask-register operations
    (k*) are counted apart."""
    widths = {"zmm": 0, "ymm": 0, "xmm": 0, "mask": 0}
    for t in code:
        op, _, operands = t.partition(" ")
        if not op.startswith(("v", "k")) or op == "vzeroupper":
            continue
        if op.startswith("vmov") and ("(" in operands or operands.count("%") == 2):
            continue
        if op.startswith("k"):
            widths["mask"] += 1
            continue
        for width in ("zmm", "ymm", "xmm"):
            if width in operands:
                widths[width] += 1
                break
    return widths


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("lib")
    parser.add_argument("function")
    parser.add_argument("elements", type=int)
    parser.add_argument("cpu", help="llvm-mca's -mcpu")
    parser.add_argument("pick", nargs="?", help="a regular expression the loop must match")
    parser.add_argument("--without", help="pick a loop with no instruction matching this regular expression")
    args = parser.parse_args()
    lib, elements, cpu = args.lib, args.elements, args.cpu
    start, end, name = function_range(lib, args.function)
    body = hot_loop(disassemble(lib, start, end), args.pick, args.without)
    code = operations(body)
    fma = sum(1 for t in code if re.match(r"^v(fn?m(add|sub)\d*[ps][sd]|mul[ps][sd])\b", t))
    run = subprocess.run(["llvm-mca", f"-mcpu={cpu}", "-iterations=100"], input="\n".join(code) + "\n",
                         capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"loop_bound: llvm-mca -mcpu={cpu} failed: {run.stderr.strip()[:300]}")
    mca = run.stdout
    names = dict(re.findall(r"^\[(\d+(?:\.\d+)?)\]\s+-\s+(\S+)", mca, re.M))
    lines = mca.splitlines()
    i = lines.index("Resource pressure per iteration:")
    header, values = lines[i + 1].split(), lines[i + 2].split()
    pressure = {}
    for col, val in zip(header, values):
        key = col.strip("[]")
        if val != "-":
            pressure[names.get(key, key) + (key[key.index("."):] if "." in key else "")] = float(val)
    busiest = max(pressure, key=pressure.get)
    print(f"{name}: hot loop of {len(code)} instructions for {elements} elements ({cpu})")
    print(f"  per element: {len(code) / elements:.1f} instructions, {fma / elements:.2f} multiplies and FMAs")
    rthroughput = float(re.search(r"Block RThroughput:\s+([\d.]+)", mca).group(1))
    print(f"  llvm-mca's block reciprocal throughput: {rthroughput:.1f} cycles per iteration = "
          f"{rthroughput / elements:.2f} cycles per element (the resources alone, perfectly spread)")
    print(f"  busiest pipe: {busiest}, {pressure[busiest]:.1f} cycles per iteration = "
          f"{pressure[busiest] / elements:.2f} cycles per element (as llvm-mca assigns the work)")
    top = sorted(pressure.items(), key=lambda kv: -kv[1])[:6]
    print("  busiest resources, cycles per iteration: " + ", ".join(f"{k} {v:.1f}" for k, v in top))
    widths = vector_operations(code)
    print("  vector operations per iteration (not plain loads, stores, register moves): " +
          ", ".join(f"{n} {w}" for w, n in widths.items() if n))
    total = sum(widths.values())
    print(f"  from counts alone: multiplies and FMAs at two a cycle, at least {fma / 2 / elements:.2f} "
          f"cycles per element; vector operations at four a cycle, at least {total / 4 / elements:.2f}")
    if widths["zmm"]:
        # Intel's AVX-512 server cores run 512-bit operations on ports 0 and 5
        # only; Zen 4 runs each on two of its four 256-bit pipes. Narrower and
        # mask operations count as half a 512-bit one, so the bound holds on both.
        wide = widths["zmm"] + (widths["ymm"] + widths["xmm"] + widths["mask"]) / 2
        print(f"  at most two 512-bit operations a cycle (Intel's AVX-512 server cores: ports 0 and 5; "
              f"Zen 4: each on two of its four 256-bit pipes; narrower and mask operations counted as half): "
              f"at least {wide / 2:.1f} cycles per iteration = {wide / 2 / elements:.2f} cycles per element")


if __name__ == "__main__":
    main()
