#!/usr/bin/env python3
"""Replays a kernel's hot loop on this CPU: what its instructions cost here.

loop_bound.py bounds a loop from counts and from llvm-mca's models; this
script measures. It takes the same hot loop out of libpto.so (loop_bound's
search), writes its instructions into a loop of their own (jumps dropped,
every memory operand redirected to a slot on the replay's stack, one slot
per distinct operand, so that a spill and its reload still meet, and
%rsp-relative as the compiled loop's spills are; a store through a pointer
other than %rsp or %rbp gets a slot apart from the loads through the same
operand, since the loop moves that pointer on before it loads again) and times both forms, best
of 20 alternating rounds of 20,000 iterations:

  as compiled   the instructions with their registers: the loop's own
                dependencies, spills and reloads. Its time should be close to
                the kernel's per element (less the row loop's and the call's
                share), which checks the replay.
  independent   the same instructions in the same order, each reading
                registers that no instruction of the loop writes and writing
                registers in rotation (an FMA, which also reads its
                destination, rotates over eight registers of its own, so its
                chain through them is eight FMAs long). Nothing waits for a
                result: the time is what the instructions themselves take on
                this CPU's decoders, schedulers and pipes.

The independent time is a measured floor for the loop as compiled: its
instructions with nothing to wait for (in this order; the out-of-order core
picks their pipes as they come). Where the kernel is much slower, the
dependencies (chains, spills, the reach of the out-of-order window) cost the
difference. --drop REGEX leaves matching instructions out of both forms: the
difference to the full replay is what they cost among the others. In the
as-compiled form that is rough either way, since the registers a left-out
instruction would have written keep older values, whose chains may be
shorter or longer.

  bench/lab/loop_replay.py build/src/libpto.so.0 N_AVX2::PowContiguousF32 16
  bench/lab/loop_replay.py build/src/libpto.so.0 N_AVX2::PowContiguousF32 16 --drop '^vpermps'
  bench/lab/loop_replay.py build/src/libpto.so.0 N_AVX2::PowContiguousF32 16 vcvtpd2ps --without vcvtps2pd

ELEMENTS is the number of elements one iteration computes; an optional
fourth argument picks the loop as loop_bound's fifth does, and --without
REGEX passes over loops with an instruction matching it (the third example:
HIGH_PRECISION's third pass, which converts to f32 and not from it). Pin it to one CPU
(taskset -c 1) as pto-bench is. x86-64 only, and the CPU must run the loop's
instructions (an AVX-512 loop needs AVX-512); the independent form needs VEX
or EVEX code (AVX2, AVX-512). Needs objdump and a C compiler (cc). The
replay runs with denormals flushed (MXCSR FTZ and DAZ), since the
as-compiled form computes on the slots' values, not the kernel's.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import loop_bound  # noqa: E402

GPR_NAMES = {
    "rax": ("rax", "eax", "ax", "al"), "rbx": ("rbx", "ebx", "bx", "bl"),
    "rcx": ("rcx", "ecx", "cx", "cl"), "rdx": ("rdx", "edx", "dx", "dl"),
    "rsi": ("rsi", "esi", "si", "sil"), "rdi": ("rdi", "edi", "di", "dil"),
    "rbp": ("rbp", "ebp", "bp", "bpl"), "rsp": ("rsp", "esp", "sp", "spl"),
}
for _i in range(8, 16):
    GPR_NAMES[f"r{_i}"] = (f"r{_i}", f"r{_i}d", f"r{_i}w", f"r{_i}b")
GPR_OF = {name: (base, width) for base, names in GPR_NAMES.items() for width, name in enumerate(names)}

SLOT = 64  # bytes per memory slot (a 512-bit vector, aligned)


def split_operands(text):
    """'op a, b(c,d), e' -> ('op', ['a', 'b(c,d)', 'e'])."""
    op, _, rest = text.partition(" ")
    operands, depth, cur = [], 0, ""
    for ch in rest.strip():
        if ch == "," and depth == 0:
            operands.append(cur.strip())
            cur = ""
            continue
        depth += ch == "("
        depth -= ch == ")"
        cur += ch
    if cur.strip():
        operands.append(cur.strip())
    return op, operands


def is_memory(operand):
    return "(" in operand and not operand.startswith("%")


def vector_reg(operand):
    m = re.fullmatch(r"%([xyz])mm(\d+)", operand)
    return (m.group(1), int(m.group(2))) if m else None


def mask_reg(operand):
    m = re.fullmatch(r"%k(\d)", operand)
    return int(m.group(1)) if m else None


def decorations(operand):
    """'%zmm1{%k2}{z}' -> ('%zmm1', '{%k2}{z}'); '(%rax){1to8}' likewise."""
    m = re.fullmatch(r"(.*?)((?:\{[^}]*\})*)", operand)
    return m.group(1), m.group(2)


def gpr(operand):
    m = re.fullmatch(r"%(\w+)", operand)
    return GPR_OF.get(m.group(1)) if m else None


def gpr_name(base, width):
    return "%" + GPR_NAMES[base][width]


def writes_last_operand(op):
    """Whether op writes its last operand (compares and tests only read it)."""
    return (op not in ("cmp", "test", "vptest", "vucomiss", "vucomisd", "vcomiss", "vcomisd")
            and not op.startswith(("kortest", "ktest")))


class Rewriter:
    """Rewrites one instruction: memory operands to %rsp-relative slots; in
    the independent form, registers as the docstring says."""

    # Destinations of general registers in the independent form (not %r12,
    # which sources read, nor %rsp and %rbp).
    GPR_POOL = ("rax", "rcx", "rdx", "rsi", "rdi", "r8", "r9", "r10", "r11")

    def __init__(self, independent):
        self.independent = independent
        self.slots = {}
        self.fma_next = self.other_next = self.gpr_next = self.mask_next = 0

    def memory(self, operand, store=False):
        core, deco = decorations(operand)
        # A store through a pointer other than the stack's gets a slot of its
        # own: the loop moves such a pointer on, so its next iteration's loads
        # through the same operand read other memory, not this store.
        key = ("store", core) if store and not re.search(r"\(%r[sb]p\b", core) else core
        if key not in self.slots:
            self.slots[key] = len(self.slots)
        return f"{self.slots[key] * SLOT}(%rsp){deco}"

    def rewrite(self, text):
        op, operands = split_operands(text)
        if op == "lea":
            # Address arithmetic only: keep it an ALU operation.
            operands[0] = "16(%rsp)"
            if self.independent:
                operands[1] = self.gpr_dest(gpr(operands[1])[1])
            return f"{op} {', '.join(operands)}"
        writes = writes_last_operand(op)
        operands = [self.memory(o, writes and i == len(operands) - 1) if is_memory(o) else o
                    for i, o in enumerate(operands)]
        if not self.independent:
            return f"{op} {', '.join(operands)}"
        zero_idiom = op in ("vpxor", "vxorps", "vxorpd", "vpcmpeqd") and len(set(operands)) == 1
        writes_last = writes and not is_memory(operands[-1])
        fma = re.match(r"^vfn?m(add|sub)", op) is not None
        out = list(operands)
        dest = None
        last, last_deco = decorations(operands[-1])
        if writes_last and (vector_reg(last) or gpr(last) or mask_reg(last) is not None):
            if vector_reg(last):
                width = vector_reg(last)[0]
                if fma:
                    reg = self.fma_next % 8
                    self.fma_next += 1
                else:
                    reg = 8 + self.other_next % 6
                    self.other_next += 1
                dest = f"%{width}mm{reg}"
            elif mask_reg(last) is not None:
                dest = f"%k{1 + self.mask_next % 5}"
                self.mask_next += 1
            else:
                dest = self.gpr_dest(gpr(last)[1])
            # A write mask ({%kN}) reads a mask no instruction here writes.
            out[-1] = dest + re.sub(r"%k\d", "%k7", last_deco)
        for i, o in enumerate(operands[:-1] if dest else operands):
            core, deco = decorations(o)
            v = vector_reg(core)
            if v:
                out[i] = dest if zero_idiom else f"%{v[0]}mm{15 - i % 2}"
            elif mask_reg(core) is not None:
                out[i] = f"%k{6 + i % 2}"
            elif gpr(core):
                out[i] = gpr_name("r12", gpr(core)[1])
        return f"{op} {', '.join(out)}"

    def gpr_dest(self, width):
        reg = self.GPR_POOL[self.gpr_next % len(self.GPR_POOL)]
        self.gpr_next += 1
        return gpr_name(reg, width)


DRIVER = r"""
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <xmmintrin.h>
DECLARATIONS
static void (*const functions[])(void *, long) = {NAMES};
enum { kCount = sizeof functions / sizeof functions[0] };
static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e9 + ts.tv_nsec;
}
int main(int argc, char **argv) {
  size_t bytes = strtoul(argv[1], 0, 10) + 4096;
  float *buf = aligned_alloc(64, bytes);
  for (size_t i = 0; i < bytes / 4; ++i) buf[i] = 1.0f + (float)(i % 7) / 8;
  _mm_setcsr(_mm_getcsr() | 0x8040); /* FTZ, DAZ */
  const long iterations = 20000;
  /* Best of 20 rounds, the functions alternating, after two to warm up. */
  double best[kCount];
  for (int k = 0; k < kCount; ++k) best[k] = 1e300;
  for (int r = 0; r < 22; ++r) {
    for (int k = 0; k < kCount; ++k) {
      double t = now();
      functions[k](buf, iterations);
      t = (now() - t) / iterations;
      if (r >= 2 && t < best[k]) best[k] = t;
    }
  }
  for (int k = 0; k < kCount; ++k) printf("%.4f\n", best[k]);
  return 0;
}
"""


def function_asm(name, slots, code):
    """A timed function: (buffer, iterations). Its slots live on its own
    stack (%rsp-relative); the iteration count and the caller's %rsp sit in
    the slots after them."""
    size = slots * SLOT
    lines = [f".globl {name}", f".type {name}, @function", f"{name}:",
             "push %rbx", "push %rbp", "push %r12", "push %r13", "push %r14", "push %r15",
             "mov %rsp, %rax", f"sub ${size + 2 * SLOT}, %rsp", f"and ${-SLOT}, %rsp",
             f"mov %rax, {size + 8}(%rsp)", f"mov %rsi, {size}(%rsp)",
             # The slots start as a copy of the buffer (normal floats), and so
             # do every vector register and the GPR that sources read.
             "mov %rdi, %rsi", "mov %rsp, %rdi", f"mov ${size}, %rcx", "rep movsb",
             *[f"vmovups {32 * i}(%rsp), %ymm{i}" for i in range(16)],
             "mov 8(%rsp), %r12", ".p2align 6", "1:"]
    lines += code
    lines += [f"decq {size}(%rsp)", "jnz 1b", "vzeroupper", f"mov {size + 8}(%rsp), %rsp",
              "pop %r15", "pop %r14", "pop %r13", "pop %r12", "pop %rbp", "pop %rbx", "ret",
              f".size {name}, .-{name}"]
    return "\n".join(lines) + "\n"


def time_loops(loops, slots, who):
    """ns per iteration of each instruction list in `loops`, each run as a
    loop of its own over `slots` memory slots (DRIVER: best of 20 alternating
    rounds of 20,000 iterations). `who` names the script in errors."""
    names = [f"loop{k}" for k in range(len(loops))]
    driver = (DRIVER.replace("DECLARATIONS", "".join(f"void {n}(void *, long);\n" for n in names))
              .replace("NAMES", ", ".join(names)))
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "loops.S"), "w") as f:
            f.write(".text\n" + "".join(function_asm(n, slots, code) for n, code in zip(names, loops))
                    + '.section .note.GNU-stack,"",@progbits\n')
        with open(os.path.join(tmp, "driver.c"), "w") as f:
            f.write(driver)
        exe = os.path.join(tmp, "loops")
        build = subprocess.run(["cc", "-O2", "-o", exe, os.path.join(tmp, "driver.c"),
                                os.path.join(tmp, "loops.S")], capture_output=True, text=True)
        if build.returncode != 0:
            sys.exit(f"{who}: the timed loops did not assemble:\n" + build.stderr[:2000])
        run = subprocess.run([exe, str(slots * SLOT)], capture_output=True, text=True)
        if run.returncode != 0:
            sys.exit(f"{who}: the timed loops failed (exit status {run.returncode}; a negative status is a "
                     "signal: SIGILL where this CPU lacks their instructions)")
    return [float(v) for v in run.stdout.split()]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("lib")
    parser.add_argument("function")
    parser.add_argument("elements", type=int)
    parser.add_argument("pick", nargs="?", help="a regular expression the loop must match (loop_bound's fifth argument)")
    parser.add_argument("--without", help="pick a loop with no instruction matching this regular expression")
    parser.add_argument("--drop", help="leave out the instructions matching this regular expression "
                        "(what they cost: the difference to the full replay)")
    args = parser.parse_args()
    start, end, name = loop_bound.function_range(args.lib, args.function)
    body = loop_bound.hot_loop(loop_bound.disassemble(args.lib, start, end), args.pick, args.without)
    code = loop_bound.operations(body)
    dropped = 0
    if args.drop:
        kept = [t for t in code if not re.search(args.drop, t)]
        dropped, code = len(code) - len(kept), kept
        if not code:
            sys.exit(f"loop_replay: --drop {args.drop!r} leaves no instruction of the loop")
    written = {gpr(ops[-1])[0] for ops in (split_operands(t)[1] for t in code) if ops and gpr(ops[-1])}
    if "rsp" in written:
        sys.exit("loop_replay: the loop writes %rsp, which the replay keeps for its slots")
    dep = Rewriter(independent=False)
    ind = Rewriter(independent=True)
    dependent = [dep.rewrite(t) for t in code]
    # Legacy SSE operations overwrite a source (two operands): their
    # chains through the destination cannot be cut by renaming alone.
    legacy = [t for t in code if not t.startswith(("v", "k")) and "%xmm" in t]
    independent = dependent if legacy else [ind.rewrite(t) for t in code]
    slots = max(len(dep.slots), len(ind.slots)) + 1
    dep_ns, ind_ns = time_loops([dependent, independent], slots, "loop_replay")
    elements = args.elements
    print(f"{name}: hot loop of {len(code)} instructions for {elements} elements, "
          f"{len(dep.slots)} memory slots" + (f" ({dropped} matching {args.drop!r} left out)" if dropped else ""))
    print(f"  as compiled: {dep_ns:.2f} ns per iteration = {dep_ns / elements:.3f} ns per element")
    if legacy:
        print(f"  independent: not measured: legacy SSE code ({len(legacy)} instructions without VEX, most "
              f"of which overwrite a source: chains that renaming cannot cut); it needs VEX or EVEX code")
    else:
        print(f"  independent: {ind_ns:.2f} ns per iteration = {ind_ns / elements:.3f} ns per element "
              f"(the instructions alone)")


if __name__ == "__main__":
    main()
