#!/usr/bin/env python3
"""How fast this CPU runs the AVX2 instructions that pow's loops are made of.

Each kind is timed in a loop of its own (bench/loop_replay.py's harness):
groups of instructions that read registers none of them writes and write
twelve registers in rotation, so that nothing waits for a result (an FMA,
which also reads its destination, chains through a register every twelve
instructions: six cycles apart at two a cycle, more than its latency of four). A pair of kinds shows
whether they share a pipe: if two kinds that each start once a cycle take
two cycles a pair, they do. A dependent vaddpd chain gives the clock: cycles
are ns times (3 / ns per dependent add), 3 cycles an add on AMD Zen 2-4 (on
Intel since Skylake an add takes 4: multiply the cycles by 4/3).

  taskset -c 1 bench/instruction_rates.py

x86-64 with AVX2 and FMA only; needs a C compiler (cc).
"""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import loop_replay  # noqa: E402

MUL = "vmulpd %ymm12,%ymm13,D"
ADD = "vaddpd %ymm12,%ymm13,D"
PERMPS = "vpermps %ymm12,%ymm13,D"
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
]
REPEAT = 24  # groups per loop iteration


def run(code_by_name):
    """ns per loop iteration of each named instruction list."""
    names = list(code_by_name)
    with tempfile.TemporaryDirectory() as tmp:
        asm = [".text"]
        for i, name in enumerate(names):
            asm.append(loop_replay.function_asm(f"kind{i}", 8, "rsp", code_by_name[name]))
        asm.append('.section .note.GNU-stack,"",@progbits')
        with open(os.path.join(tmp, "kinds.S"), "w") as f:
            f.write("\n".join(asm) + "\n")
        driver = ["#include <stdio.h>", "#include <stdlib.h>", "#include <time.h>",
                  *[f"void kind{i}(void *, long);" for i in range(len(names))],
                  "static double now(void) { struct timespec ts; clock_gettime(CLOCK_MONOTONIC, &ts);"
                  " return ts.tv_sec * 1e9 + ts.tv_nsec; }",
                  "int main(void) {",
                  "  float *buf = aligned_alloc(64, 8192);",
                  "  for (int i = 0; i < 2048; ++i) buf[i] = 1.0f + (float)(i % 7) / 8;",
                  f"  void (*f[])(void *, long) = {{{', '.join(f'kind{i}' for i in range(len(names)))}}};",
                  "  for (unsigned k = 0; k < sizeof f / sizeof f[0]; ++k) {",
                  "    double best = 1e300;",
                  "    for (int r = 0; r < 12; ++r) {",
                  "      double t = now(); f[k](buf, 20000); t = (now() - t) / 20000;",
                  "      if (r >= 2 && t < best) best = t;",
                  "    }",
                  "    printf(\"%.4f\\n\", best);",
                  "  }",
                  "  return 0;",
                  "}"]
        with open(os.path.join(tmp, "driver.c"), "w") as f:
            f.write("\n".join(driver) + "\n")
        exe = os.path.join(tmp, "kinds")
        subprocess.run(["cc", "-O2", "-o", exe, os.path.join(tmp, "driver.c"), os.path.join(tmp, "kinds.S")],
                       check=True)
        out = subprocess.run([exe], capture_output=True, text=True)
        if out.returncode != 0:
            sys.exit(f"instruction_rates: the timing loop failed (status {out.returncode}: "
                     "SIGILL where this CPU lacks AVX2 or FMA)")
    return dict(zip(names, (float(v) for v in out.stdout.split())))


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
    code = {"dependent vaddpd": chain}
    code.update((name, expand(group)) for name, group in KINDS)
    ns = run(code)
    add_ns = ns.pop("dependent vaddpd") / 64
    ghz = 3 / add_ns
    print(f"dependent vaddpd: {add_ns:.3f} ns an add, {ghz:.2f} GHz at 3 cycles an add")
    for name, group in KINDS:
        per_group = ns[name] / REPEAT * ghz
        print(f"  {name:28s} {per_group:5.2f} cycles a group of {len(group)}, "
              f"{per_group / len(group):.2f} an instruction")


if __name__ == "__main__":
    main()
