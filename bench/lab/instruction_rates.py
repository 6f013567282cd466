#!/usr/bin/env python3
"""How fast this CPU runs the AVX2 instructions that pow's loops are made of.

Each kind is timed in a loop of its own (loop_replay.py's harness,
best of 20 alternating rounds): groups of instructions that read registers
none of them writes and write twelve registers in rotation, so that nothing
waits for a result (an FMA, which also reads its destination, chains through
a register every twelve instructions: six cycles apart at two a cycle, more
than its latency of four). A pair of kinds shows
whether they share a pipe: if two kinds that each start once a cycle take
two cycles a pair, they do. A dependent vaddpd chain gives the clock: cycles
are ns times (3 / ns per dependent add), 3 cycles an add on AMD Zen 2-4 (on
Intel since Skylake an add takes 4: multiply the cycles by 4/3).

  taskset -c 1 bench/lab/instruction_rates.py

x86-64 with AVX2 and FMA only; needs a C compiler (cc).
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import loop_replay  # noqa: E402

MUL = "vmulpd %ymm12,%ymm13,D"
ADD = "vaddpd %ymm12,%ymm13,D"
PERMPS = "vpermps %ymm12,%ymm13,D"
MAX = "vmaxpd %ymm12,%ymm13,D"
MINSD = "vpminsd %ymm12,%ymm13,D"
KINDS = [
    ("vfmadd231pd", ["vfmadd231pd %ymm12,%ymm13,D"]),
    ("vmulpd", [MUL]),
    ("vaddpd", [ADD]),
    ("vpaddq", ["vpaddq %ymm12,%ymm13,D"]),
    ("vpsllq", ["vpsllq $12,%ymm12,D"]),
    ("vblendvpd", ["vblendvpd %ymm12,%ymm13,%ymm14,D"]),
    ("vpermilpd (variable)", ["vpermilpd %ymm12,%ymm13,D"]),
    ("vpermps", [PERMPS]),
    ("vpermps, table from memory", ["vpermps 64(%rsp),%ymm13,D"]),
    ("vpermd", ["vpermd %ymm12,%ymm13,D"]),
    ("vcvtps2pd", ["vcvtps2pd %xmm12,D"]),
    ("vcvtpd2ps", ["vcvtpd2ps %ymm12,X"]),
    ("vcvtdq2pd", ["vcvtdq2pd %xmm12,D"]),
    ("vinsertf128", ["vinsertf128 $1,%xmm12,%ymm13,D"]),
    ("vextractf128", ["vextractf128 $1,%ymm12,X"]),
    ("vpmovzxdq", ["vpmovzxdq %xmm12,D"]),
    ("vmulpd x2 + vpermps", [MUL, MUL, PERMPS]),
    ("vaddpd x2 + vpermps", [ADD, ADD, PERMPS]),
    ("vmulpd + vblendvpd", [MUL, "vblendvpd %ymm12,%ymm13,%ymm14,D"]),
    ("vmulpd x2 + vpermilpd", [MUL, MUL, "vpermilpd %ymm12,%ymm13,D"]),
    ("vcvtps2pd + vinsertf128", ["vcvtps2pd %xmm12,D", "vinsertf128 $1,%xmm12,%ymm13,D"]),
    ("vcvtps2pd + vpermps", ["vcvtps2pd %xmm12,D", PERMPS]),
    ("vmulpd x2 + vaddpd x2", [MUL, MUL, ADD, ADD]),
    ("vcvtps2pd from memory", ["vcvtps2pd 64(%rsp),D"]),
    ("vmulpd x2 + vcvtps2pd", [MUL, MUL, "vcvtps2pd %xmm12,D"]),
    ("vmulpd x2 + vcvtps2pd from memory", [MUL, MUL, "vcvtps2pd 64(%rsp),D"]),
    ("vmulpd x2 + vcvtdq2pd", [MUL, MUL, "vcvtdq2pd %xmm12,D"]),
    ("vmulpd x2 + vextractf128", [MUL, MUL, "vextractf128 $1,%ymm12,X"]),
    ("vmulpd x2 + vpermd", [MUL, MUL, "vpermd %ymm12,%ymm13,D"]),
    ("vmulpd x2 + vpaddd x2", [MUL, MUL, "vpaddd %ymm12,%ymm13,D", "vpaddd %ymm12,%ymm14,D"]),
    ("vaddpd x2 + vcvtps2pd", [ADD, ADD, "vcvtps2pd %xmm12,D"]),
    ("vmaxpd", [MAX]),
    ("vmulpd x2 + vmaxpd x2", [MUL, MUL, MAX, MAX]),
    ("vaddpd x2 + vmaxpd x2", [ADD, ADD, MAX, MAX]),
    ("vmulpd x2 + vaddpd x2 + vmaxpd x2", [MUL, MUL, ADD, ADD, MAX, MAX]),
    ("vpminsd", [MINSD]),
    ("vaddpd x2 + vpminsd x2", [ADD, ADD, MINSD, MINSD]),
    ("vmulpd x2 + vpminsd x2", [MUL, MUL, MINSD, MINSD]),
    ("vmulpd x2 + vaddpd x2 + vpminsd x2", [MUL, MUL, ADD, ADD, MINSD, MINSD]),
]
REPEAT = 24  # groups per loop iteration


def expand(group):
    code = []
    for _ in range(REPEAT):
        for line in group:
            reg = len(code) % 12
            code.append(line.replace("D", f"%ymm{reg}").replace("X", f"%xmm{reg}"))
    return code


def main():
    if len(sys.argv) > 1:
        sys.exit(__doc__)
    chain = ["vaddpd %ymm0,%ymm1,%ymm0"] * 64
    times = loop_replay.time_loops([chain] + [expand(group) for _, group in KINDS], 8, "instruction_rates")
    add_ns = times[0] / 64
    ghz = 3 / add_ns
    print(f"dependent vaddpd: {add_ns:.3f} ns an add, {ghz:.2f} GHz at 3 cycles an add")
    for (name, group), ns in zip(KINDS, times[1:]):
        per_group = ns / REPEAT * ghz
        print(f"  {name:28s} {per_group:5.2f} cycles a group of {len(group)}, "
              f"{per_group / len(group):.2f} an instruction")


if __name__ == "__main__":
    main()
