#!/usr/bin/env python3
"""pto-validate: PTOAS's board validation with libpto (pto-run) as the board.

A PTOAS sample case is a kernel (its .pto file), a golden script
(TESTCASE_golden.py: writes the inputs NAME.bin and the expected outputs
golden_NAME.bin) and a compare script (TESTCASE_compare.py: reads
golden_NAME.bin and NAME.bin, exits non-zero on a mismatch). For each case
this tool:

1. describes the case as PTOAS's generate_testcase.py does: one buffer per
   pointer parameter (named v1, v2, ... by position, as PTOAS's C++ names
   them), its element count and type, the integer parameters' values and the
   launch's block count. The description is written as the two files the
   golden scripts read (main.cpp's declarations, outputs.txt);
2. runs the golden script in a scratch directory;
3. runs the kernel with pto-run under the case's profile (A5 or A2A3), the
   inputs as .npy files, and writes the outputs as NAME.bin;
4. runs the compare script and reports PASS or FAIL with the largest
   absolute and relative error and the kernel run's time.

A case without a golden script gets inputs of its own (seeded) and runs
twice, as does one whose golden script writes inputs only: the first run's
outputs are the second's golden (the board's determinism check). Every step has a timeout; a failing step gives one line. Usage:

  pto-validate SAMPLE.pto|SAMPLE.py [--pto FILE.pto] [options]
  pto-validate --all DIR [options]

Only the standard library and numpy are needed; the kernel runs in pto-run.
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib.util
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

# PTOAS's dtype spellings -> (numpy dtype string, C host type the golden
# scripts' validation_runtime.py reads back from main.cpp, npy descr).
# bf16 travels as raw uint16 bits, as on the board.
DTYPES = {
    "f32": ("float32", "float", "<f4"),
    "f16": ("float16", "half", "<f2"),
    "bf16": ("uint16", "bfloat16_t", "<u2"),
    "i8": ("int8", "int8_t", "|i1"),
    "si8": ("int8", "int8_t", "|i1"),
    "ui8": ("uint8", "uint8_t", "|u1"),
    "i16": ("int16", "int16_t", "<i2"),
    "si16": ("int16", "int16_t", "<i2"),
    "ui16": ("uint16", "uint16_t", "<u2"),
    "i32": ("int32", "int32_t", "<i4"),
    "si32": ("int32", "int32_t", "<i4"),
    "ui32": ("uint32", "uint32_t", "<u4"),
    "i64": ("int64", "int64_t", "<i8"),
    "ui64": ("uint64", "uint64_t", "<u8"),
    # The low-precision formats travel as their bytes (the board's uint8
    # buffers; two 4-bit codes a byte for the x2 types).
    "f8E4M3FN": ("uint8", "float8_e4m3_t", "|u1"),
    "f8E5M2": ("uint8", "float8_e5m2_t", "|u1"),
    "f8E8M0": ("uint8", "float8_e8m0_t", "|u1"),
    "f8E8M0FNU": ("uint8", "float8_e8m0_t", "|u1"),
    "hif8": ("uint8", "hifloat8_t", "|u1"),
    "f4E2M1x2": ("uint8", "float4_e2m1x2_t", "|u1"),
    "f4E1M2x2": ("uint8", "float4_e1m2x2_t", "|u1"),
}
# Scalar parameter types -> C host type (the board's main.cpp declares them so).
SCALAR_HOST = {"i1": "bool", "i8": "int8_t", "i16": "int16_t", "i32": "int32_t",
               "i64": "int64_t", "index": "int64_t", "f32": "float", "f16": "half",
               "bf16": "bfloat16_t", "f64": "double"}
# Directories whose kernels PTOAS validates under A5 (runop.sh's rule; every
# other sample runs under A3, libpto's A2A3 profile). A module's own
# pto.target_arch attribute wins.
A5_DIRS = re.compile(r"^(Qwen.*A5|Deepseek.*A5|TquantMx|TquantMxDn)$")
A3_DIRS = re.compile(r"^(Qwen.*A3|Deepseek.*A3)$")
SEED = 19


@dataclasses.dataclass
class Param:
    name: str          # pto-run's name (the SSA name without '%')
    board_name: str    # PTOAS's C++ name: v1, v2, ... by position
    kind: str          # 'ptr', 'int', 'float'
    dtype: str         # PTOAS spelling: f32, bf16, i32, index, ...
    used: bool = True  # listed by pto-run --check (an unused scalar is not)
    read: bool = False
    written: bool = False
    count: int = 0     # elements (pointers)
    reach: int = 0     # elements its tensor views reach (0: unknown)
    value: str = ""    # scalars


@dataclasses.dataclass
class Result:
    case: str
    result: str = "ERROR"   # PASS FAIL DEFECT SAMPLE-DEFECT XFAIL REFUSED ERROR TIMEOUT NEEDS-PTOAS-PY NEEDS-RANKS
    check: str = ""         # golden | determinism
    max_abs: Optional[float] = None
    max_rel: Optional[float] = None
    seconds: Optional[float] = None
    detail: str = ""


class CaseError(Exception):
    """A step of a case failed; result is the reported result, the message its line."""

    def __init__(self, result: str, message: str):
        super().__init__(message)
        self.result = result


# --------------------------------------------------------------------------
# Steps run as subprocesses, in their own process group, each with a timeout.

def run_step(what: str, argv: Sequence[str], cwd: Path, timeout: float,
             env: Optional[dict] = None) -> subprocess.CompletedProcess:
    """Runs argv; a timeout kills the whole process group (a hung script's
    children too) and raises CaseError('TIMEOUT')."""
    try:
        proc = subprocess.Popen(list(argv), cwd=str(cwd), env=env, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                                text=True, errors="replace", start_new_session=True)
    except OSError as e:
        raise CaseError("ERROR", f"{what}: cannot start {argv[0]}: {e.strerror}")
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        kill_group(proc)
        raise CaseError("TIMEOUT", f"{what}: no result after {timeout:g} s (killed)")
    except BaseException:
        # Interrupted (Ctrl-C): the step runs in a session of its own, which
        # the terminal's signal does not reach; end it too.
        kill_group(proc)
        raise
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


def kill_group(proc: subprocess.Popen):
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.communicate()


def last_line(text: str) -> str:
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    return lines[-1] if lines else ""


def script_failure(what: str, proc: subprocess.CompletedProcess) -> CaseError:
    """One line for a script that exited non-zero or died on a signal."""
    if proc.returncode < 0:
        return CaseError("ERROR", f"{what} crashed (signal {-proc.returncode})")
    tail = last_line(proc.stderr) or last_line(proc.stdout) or "no output"
    return CaseError("ERROR", f"{what} failed (exit {proc.returncode}): {tail}")


# --------------------------------------------------------------------------
# PTOAS's own choices, read from its generate_testcase.py when the sample tree
# is a PTOAS checkout (test/samples beside test/npu_validation).

class BoardChoices:
    """The integer arguments and buffer minimums PTOAS's generator picks per
    case; without the generator, the generator's general rule (integers 1)."""

    def __init__(self, generator: Optional[Path]):
        self.module = None
        self.source = None
        if generator is not None and generator.is_file():
            spec = importlib.util.spec_from_file_location("ptoas_generate_testcase", generator)
            module = importlib.util.module_from_spec(spec)
            try:
                spec.loader.exec_module(module)
            except Exception as e:  # a broken checkout: fall back, and say so
                print(f"pto-validate: {generator}: not loaded ({e}); integer arguments are 1",
                      file=sys.stderr)
            else:
                self.module = module
                self.source = generator

    def integer(self, testcase: str, name: str, host_type: str, sample: str) -> int:
        if self.module is not None and hasattr(self.module, "_integer_scalar_default_value"):
            value = self.module._integer_scalar_default_value(testcase, name, host_type, sample)
            if value is not None:
                return int(value)
        return 1

    # generate_testcase.py's inline rule for two Sync repro kernels: their
    # integer scalar is a row offset, kept at 0, and their bf16 buffers hold
    # a whole 16 x hidden window (decode_projection_incore_0's f32 gamma
    # 8192 elements).
    INLINE_CASES = {"rmsnorm_incore_0": {"bf16": 16 * 5120},
                    "decode_projection_incore_0": {"bf16": 16 * 8192, "f32": 8192}}

    def inline_integer(self, testcase: str) -> Optional[int]:
        return 0 if testcase in self.INLINE_CASES else None

    def inline_floor(self, testcase: str, dtype: str) -> int:
        return self.INLINE_CASES.get(testcase, {}).get(dtype, 0)

    def minimums(self, testcase: str, sample: str) -> Dict[str, int]:
        if self.module is not None and hasattr(self.module, "_pointer_count_minimums_for_case"):
            return dict(self.module._pointer_count_minimums_for_case(sample, testcase))
        return {}


def default_output(params: List[Param]):
    """generate_testcase.py's outputs when the kernel stores to no pointer:
    the last pointer parameter (the only one, if one) is the output, read
    back and compared as any (the golden expects what the kernel leaves
    there)."""
    ptrs = [p for p in params if p.kind == "ptr" and p.used]
    if ptrs and not any(p.written for p in ptrs):
        ptrs[-1].written = True


def find_generator(start: Path) -> Optional[Path]:
    for d in [start] + list(start.parents):
        for cand in (d / "npu_validation" / "scripts" / "generate_testcase.py",
                     d / "test" / "npu_validation" / "scripts" / "generate_testcase.py"):
            if cand.is_file():
                return cand
    return None


# --------------------------------------------------------------------------
# The kernel: its parameters (pto-run --check) and its buffers' footprints
# (the .pto's tensor views, evaluated with the integer arguments' values).

_CONST = re.compile(r"^\s*(%[\w.$-]+)\s*=\s*arith\.constant\s+(-?\d+)\s*:\s*(i\d+|index)\b")
_BINOP = re.compile(r"^\s*(%[\w.$-]+)\s*=\s*arith\.(addi|subi|muli|divsi|divui|ceildivsi|remsi|"
                    r"maxsi|minsi)\s+(%[\w.$-]+)\s*,\s*(%[\w.$-]+)")
_CAST = re.compile(r"^\s*(%[\w.$-]+)\s*=\s*arith\.(index_cast|extsi|extui|trunci)\s+(%[\w.$-]+)")
_ADDPTR = re.compile(r"^\s*(%[\w.$-]+)\s*=\s*pto\.addptr\s+(%[\w.$-]+)\s*,\s*(%[\w.$-]+)")
_VIEW = re.compile(r"pto\.make_tensor_view\s+(%[\w.$-]+)\s*,\s*shape\s*=\s*\[([^\]]*)\]\s*,"
                   r"\s*strides\s*=\s*\[([^\]]*)\]")
# `%r = pto.make_tensor_view %p` / `%r = pto.partition_view %v`: which
# pointer a view comes from.
_VIEW_OF = re.compile(r"^\s*(%[\w.$-]+)\s*=\s*pto\.(?:make_tensor_view|partition_view)\s+(%[\w.$-]+)")
# tload of MX scales into a mat tile: PTOAS gives the global tensor the
# tile's shape (MX_B_NN, and MX_A_ZZ for more than one row), so the board
# sizes the buffer from the tile, not the view.
_MX_SCALE_LOAD = re.compile(r"pto\.tload\s+ins\(\s*(%[\w.$-]+)\s*:.*?outs\(\s*%[\w.$-]+\s*:\s*"
                            r"!pto\.tile_buf<\s*mat\s*,\s*(\d+)x(\d+)x!pto\.f8E8M0\b([^>]*)>")
_PARTITION = re.compile(r"pto\.partition_view\s+%[\w.$-]+\s*,\s*offsets\s*=\s*\[[^\]]*\]\s*,"
                        r"\s*sizes\s*=\s*\[([^\]]*)\]")


def _binop(op: str, a: int, b: int) -> Optional[int]:
    if op in ("divsi", "divui", "ceildivsi", "remsi") and b == 0:
        return None
    return {"addi": lambda: a + b, "subi": lambda: a - b, "muli": lambda: a * b,
            "divsi": lambda: int(a / b), "divui": lambda: a // b,
            "ceildivsi": lambda: -(-a // b), "remsi": lambda: a - b * int(a / b),
            "maxsi": lambda: max(a, b), "minsi": lambda: min(a, b)}[op]()


def unused_views(text: str) -> set:
    """The tensor and partition views nothing uses (transitively: a view
    only an unused view reads is unused too). PTOAS declares both ops Pure
    (include/PTO/IR/PTOOps.td), so its canonicalisation drops them and the
    board's C++ builds no GlobalTensor for them: generate_testcase.py's
    footprint scan never sees them, and a pointer only such views describe
    (one the kernel reads with pto.load_scalar) gets the board's fallback
    element count."""
    token = re.compile(r"%[\w.$-]+")
    uses: Dict[str, int] = {}
    for tok in token.findall(text):
        uses[tok] = uses.get(tok, 0) + 1
    # A name may be defined in several functions (a cube and a vector
    # kernel's copies of one view): unused when nothing but its definitions
    # names it.
    defs: Dict[str, List[str]] = {}
    count: Dict[str, int] = {}
    for line in text.splitlines():
        m = _VIEW_OF.match(line)
        if m:
            defs.setdefault(m.group(1), []).extend(token.findall(line)[1:])  # the operands
            count[m.group(1)] = count.get(m.group(1), 0) + 1
    dead: set = set()
    work = [name for name in defs if uses.get(name, 0) <= count[name]]  # its definitions only
    while work:
        name = work.pop()
        if name in dead:
            continue
        dead.add(name)
        for tok in defs[name]:
            uses[tok] -= 1
            if tok in defs and tok not in dead and uses[tok] <= count[tok]:
                work.append(tok)
    return dead


_FOR = re.compile(r"scf\.for\s+(%[\w.$-]+)\s*=\s*(%[\w.$-]+|-?\d+)\s+to\s+(%[\w.$-]+|-?\d+)\s+"
                  r"step\s+(%[\w.$-]+|-?\d+)")
_PARTITION_OF = re.compile(r"^\s*(%[\w.$-]+)\s*=\s*pto\.partition_view\s+(%[\w.$-]+)\s*,\s*offsets\s*=\s*"
                           r"\[([^\]]*)\]\s*,\s*sizes\s*=\s*\[([^\]]*)\]")


def fold_scalar(line: str, env: Dict[str, int]) -> bool:
    """An arith constant, binary operation or cast whose operands env fixes:
    its value into env. Whether the line was such a statement."""
    m = _CONST.match(line)
    if m:
        env[m.group(1)] = int(m.group(2))
        return True
    m = _BINOP.match(line)
    if m and m.group(3) in env and m.group(4) in env:
        v = _binop(m.group(2), env[m.group(3)], env[m.group(4)])
        if v is not None:
            env[m.group(1)] = v
        return True
    m = _CAST.match(line)
    if m and m.group(3) in env:
        env[m.group(1)] = env[m.group(3)]
        return True
    return False


def _loop_maximum(line: str, env: Dict[str, int], values) -> bool:
    """scf.for: its induction variable at its largest value, as
    generate_testcase.py's _infer_int_var_maxima evaluates a loop's index
    (start + ((end - start - 1) // step) * step; start for an empty loop)."""
    m = _FOR.search(line)
    if not m:
        return False
    bounds = values(",".join(m.group(2, 3, 4)))
    if bounds and bounds[2] > 0:
        lo, hi, step = bounds
        env[m.group(1)] = lo if hi <= lo else lo + ((hi - lo - 1) // step) * step
    return True


def _partition_footprint(line: str, views: Dict[str, Tuple[str, int, List[int]]], values,
                         counts: Dict[str, int]):
    """A partition's window as a GlobalTensor at a pointer offset, which
    generate_testcase.py's footprint scan counts like a view: the elements
    it reaches (negative offsets as 0, as the generator takes them)."""
    m = _PARTITION_OF.match(line)
    if not m or m.group(2) not in views:
        return
    root, off, strides = views[m.group(2)]
    offsets, sizes = values(m.group(3)), values(m.group(4))
    if not offsets or not sizes or len(offsets) != len(strides) or len(sizes) != len(strides):
        return
    start = off + sum(max(o, 0) * st for o, st in zip(offsets, strides))
    views[m.group(1)] = (root, start, strides)
    if 0 not in sizes and all(z > 0 for z in sizes):
        reach = start + 1 + sum((z - 1) * st for z, st in zip(sizes, strides))
        counts[root[1:]] = max(counts.get(root[1:], 0), reach)


def footprints(text: str, ints: Dict[str, int], pointers: Sequence[str]) -> Tuple[Dict[str, int], Tuple[int, int]]:
    """Elements each pointer parameter's tensor views and their
    partition_view windows reach (1 + sum of (dim - 1) * stride, plus an
    addptr offset and a window's offsets), from the values the text and the
    integer arguments fix, an scf.for index at its largest value (the
    generator's GlobalTensor scan); views with an unknown dimension are left
    out, and so are views nothing uses (unused_views: absent from the board's
    C++; a view defined under one name in two functions counts as used).
    Also the board's logical shape (board_logical)."""
    env = {"%" + k: v for k, v in ints.items()}
    base: Dict[str, Tuple[str, int]] = {"%" + p: ("%" + p, 0) for p in pointers}
    view_root: Dict[str, str] = {}
    counts: Dict[str, int] = {}

    def values(blob: str) -> Optional[List[int]]:
        out = []
        for tok in (t.strip() for t in blob.split(",")):
            if tok in env:
                out.append(env[tok])
            elif re.fullmatch(r"-?\d+", tok):
                out.append(int(tok))
            else:
                return None
        return out

    # A statement continued over several lines (after a comma, before its
    # type) is read as one line.
    text = re.sub(r",[ \t]*\n\s*", ", ", text)
    text = re.sub(r"\n\s*(?=[:\]])", " ", text)
    dead = unused_views(text)
    floors: Dict[str, int] = {}
    views: Dict[str, Tuple[str, int, List[int]]] = {}  # live views: root, offset, strides
    for line in text.splitlines():
        if _loop_maximum(line, env, values):
            continue
        if fold_scalar(line, env):
            continue
        m = _ADDPTR.match(line)
        if m and m.group(2) in base and m.group(3) in env:
            root, off = base[m.group(2)]
            base[m.group(1)] = (root, off + env[m.group(3)])
            continue
        m = _VIEW_OF.match(line)
        if m and m.group(1) in dead:
            _unused_view_floor(line, base, values, floors)
            continue
        if m:
            src = m.group(2)
            root = base[src][0] if src in base else view_root.get(src)
            if root:
                view_root[m.group(1)] = root
        m = _MX_SCALE_LOAD.search(line)
        if m and m.group(1) in view_root:
            rows, cols, rest = int(m.group(2)), int(m.group(3)), m.group(4)
            nn = "slayout=col_major" in rest and "blayout=col_major" in rest
            zz = "slayout=row_major" in rest and "blayout=col_major" not in rest and rows != 1
            if nn or zz:
                name = view_root[m.group(1)][1:]
                counts[name] = max(counts.get(name, 0), rows * cols)
        _partition_footprint(line, views, values, counts)
        m = _VIEW.search(line)
        if m and m.group(1) in base:
            shape, strides = values(m.group(2)), values(m.group(3))
            defined = _VIEW_OF.match(line)
            if defined and strides is not None:
                views[defined.group(1)] = (base[m.group(1)][0], max(base[m.group(1)][1], 0), strides)
            if shape is None or strides is None or len(shape) != len(strides):
                continue
            root, off = base[m.group(1)]
            reach = 0 if 0 in shape else 1 + sum((d - 1) * s for d, s in zip(shape, strides))
            name = root[1:]
            counts[name] = max(counts.get(name, 0), reach + max(off, 0))
    shape = board_logical(text, dead)
    logical = shape[0] * shape[1]
    # A pointer that only unused views describe gets the board's fallback;
    # pto-run still verifies those views, so its buffer holds them too.
    for name, reach in floors.items():
        counts[name] = max(counts.get(name) or logical, reach)
    return counts, shape


# A view's result type (the last on its line): its dims, '?' where dynamic.
_VIEW_TYPE = re.compile(r"!pto\.(?:partition_)?tensor_view<([^>]*)>")
_FUNC = re.compile(r"func\.func\s+@([\w.$-]+)\s*\(")


def board_logical(text: str, dead: set) -> Tuple[int, int]:
    """generate_testcase.py's logical shape (its element count is the
    product), the rows and cols of the
    first all-static Shape in the launched function's C++ (its _parse_shape
    of the call text: a cube-and-vector pair's vector function, else the
    kernel), else 32 x 32. PTOAS gives each used view and window a
    GlobalTensor whose pto::Shape carries the result type's dims (a '?' is
    -1 there, which the generator's pattern skips; an unused view has none):
    the first used view or window with a static type, its last two dims
    (one: 1 x n)."""
    starts = [(m.start(), m.group(1)) for m in _FUNC.finditer(text)]
    names = [n for _, n in starts]
    scope = text
    for i, (pos, name) in enumerate(starts):
        if name.endswith("_aiv") and name[:-4] + "_aic" in names:
            end = starts[i + 1][0] if i + 1 < len(starts) else len(text)
            scope = text[pos:end]
            break
    for line in scope.splitlines():
        m = _VIEW_OF.match(line)
        types = _VIEW_TYPE.findall(line)
        if not m or m.group(1) in dead or not types:
            continue
        dims = types[-1].split("x")[:-1]
        if not dims or len(dims) > 5 or not all(d.isdigit() for d in dims):
            continue
        return (int(dims[-2]) if len(dims) >= 2 else 1), int(dims[-1])
    return 32, 32


def _unused_view_floor(line: str, base: Dict[str, Tuple[str, int]], values, floors: Dict[str, int]):
    """The elements an unused make_tensor_view reaches (see unused_views)."""
    m = _VIEW.search(line)
    if not m or m.group(1) not in base:
        return
    shape, strides = values(m.group(2)), values(m.group(3))
    if shape is None or strides is None or len(shape) != len(strides) or 0 in shape:
        return
    root, off = base[m.group(1)]
    reach = 1 + sum((d - 1) * s for d, s in zip(shape, strides)) + max(off, 0)
    floors[root[1:]] = max(floors.get(root[1:], 0), reach)


def split_top(blob: str) -> List[str]:
    """Splits a parameter list at the commas outside <...> and (...)."""
    parts, depth, cur = [], 0, ""
    for ch in blob:
        if ch in "<([":
            depth += 1
        elif ch in ">)]":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        parts.append(cur.strip())
    return parts


def kernel_params(check_output: str) -> List[Param]:
    """The entry's parameters in order, from pto-run --check's listing: the
    entry's signature (functions:) and which are used, read and written
    (parameters:)."""
    listed: Dict[str, str] = {}
    section = ""
    signature = None
    for line in check_output.splitlines():
        if not line.startswith(" "):
            section = line.rstrip(":").strip()
            continue
        if section == "parameters":
            fields = line.split(None, 1)
            if len(fields) == 2:
                listed[fields[0]] = fields[1]
        elif section == "functions" and line.rstrip().endswith("(entry)"):
            signature = line
    if signature is None:
        raise CaseError("ERROR", "pto-run --check names no entry function")
    m = re.search(r"@[\w.$-]+\((.*)\)\s*(->.*)?\(entry\)\s*$", signature)
    if not m:
        raise CaseError("ERROR", f"cannot read the entry's signature: {signature.strip()}")
    params = []
    for i, part in enumerate(split_top(m.group(1))):
        name, _, ty = part.partition(":")
        name, ty = name.strip().lstrip("%"), ty.strip()
        pm = re.match(r"!pto\.ptr<\s*(?:!pto\.)?(\w+)", ty)
        mm = re.match(r"memref<((?:\d+x)+)(\w+)", ty)
        if pm:
            p = Param(name, f"v{i + 1}", "ptr", pm.group(1))
        elif mm:
            # A global-memory memref: a pointer whose shape fixes its size.
            p = Param(name, f"v{i + 1}", "ptr", mm.group(2))
            p.reach = 1
            for dim in mm.group(1).rstrip("x").split("x"):
                p.reach *= int(dim)
        elif re.fullmatch(r"i\d+|index", ty):
            p = Param(name, f"v{i + 1}", "int", ty)
        elif re.fullmatch(r"f16|bf16|f32|f64", ty):
            p = Param(name, f"v{i + 1}", "float", ty)
        else:
            raise CaseError("ERROR", f"parameter %{name}: type {ty} is not one a board case passes")
        p.used = name in listed
        p.read = ", read" in listed.get(name, "")
        p.written = "written" in listed.get(name, "")
        params.append(p)
    return params


# --------------------------------------------------------------------------
# .npy files as pto-run reads and writes them (a header, then the raw bytes:
# exactly a NAME.bin), so that a buffer of gigabytes is copied, never parsed.

def write_npy(bin_path: Path, npy_path: Path, descr: str, count: int):
    header = "{'descr': '%s', 'fortran_order': False, 'shape': (%d,), }" % (descr, count)
    pad = 64 - (10 + len(header) + 1) % 64
    header = header + " " * pad + "\n"
    with open(npy_path, "wb") as out, open(bin_path, "rb") as src:
        out.write(b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") + header.encode("latin1"))
        shutil.copyfileobj(src, out, 1 << 22)


def npy_to_bin(npy_path: Path, bin_path: Path):
    with open(npy_path, "rb") as src, open(bin_path, "wb") as out:
        magic = src.read(8)
        if magic[:6] != b"\x93NUMPY":
            raise CaseError("ERROR", f"{npy_path.name}: not a .npy file")
        size = 4 if magic[6] >= 2 else 2
        src.read(int.from_bytes(src.read(size), "little"))
        shutil.copyfileobj(src, out, 1 << 22)


# --------------------------------------------------------------------------
# Cases: where a sample's files are, its profile and block count.

@dataclasses.dataclass
class Case:
    name: str                      # shown in the table
    testcase: str                  # PTOAS's testcase name (the file's stem)
    sample_root: Path              # the sample's directory (its golden scripts)
    pto: Optional[Path] = None
    builder: Optional[Path] = None # a Python builder without a .pto
    golden: Optional[Path] = None
    compare: Optional[Path] = None
    multi_card: bool = False       # has pto.comm.* operations (run on one card)
    kernel: Optional[Path] = None  # the file pto-run runs: pto, or launch_params_as_arguments' copy
    logical: Tuple[int, int] = (32, 32)  # the board's logical shape (board_logical)
    text: str = ""                 # the kernel's text (as pto-run runs it)


def testcase_name(path: Path) -> str:
    stem = path.stem
    for suffix in ("-pto", "_pto"):
        if stem.endswith(suffix):
            stem = stem[: -len(suffix)]
    return stem


def case_asset(sample_root: Path, testcase: str, kind: str) -> Optional[Path]:
    """The sample's golden or compare script for a testcase, where PTOAS's
    generator looks: TESTCASE_KIND.py, npu_validation/TESTCASE/KIND.py,
    npu_validation/KIND.py."""
    for cand in (sample_root / f"{testcase}_{kind}.py",
                 sample_root / "npu_validation" / testcase / f"{kind}.py",
                 sample_root / "npu_validation" / f"{kind}.py"):
        if cand.is_file():
            return cand
    return None


def make_case(path: Path, sample_root: Path, name: str, pto: Optional[Path] = None) -> Case:
    # Absolute paths: every step runs in a directory of its own.
    path, sample_root = path.resolve(), sample_root.resolve()
    pto = pto.resolve() if pto is not None else None
    tc = testcase_name(path)
    case = Case(name=name, testcase=tc, sample_root=sample_root)
    if path.suffix == ".pto":
        case.pto = path
    else:
        case.builder = path
        case.pto = pto if pto is not None else (path.with_suffix(".pto") if path.with_suffix(".pto").is_file() else None)
    case.golden = case_asset(sample_root, tc, "golden")
    case.compare = case_asset(sample_root, tc, "compare")
    if standalone_project(sample_root, case.golden):
        case.golden = case.compare = None
    return case


def standalone_project(sample_root: Path, golden: Optional[Path]) -> bool:
    """Whether a sample-wide npu_validation/golden.py belongs to a hand-written
    board project (its own main.cpp and CMakeLists.txt: ControlFlow, FFN,
    FlashAttention, GQA, MatmulVectorMix), whose one program chains several
    kernels (FFN's fc1, act and fc2) into the output its golden and compare
    scripts check. No single .pto of the sample is that program, and runop.sh
    generates no board case of these samples' .pto files (their directories
    are not in its PTO_PTO_DIRS and hold no Python builder), so each .pto
    runs as a case without a golden: twice, for determinism."""
    proj = sample_root / "npu_validation"
    return (golden is not None and golden == proj / "golden.py"
            and (proj / "main.cpp").is_file() and (proj / "CMakeLists.txt").is_file())


def sample_root_of(path: Path) -> Path:
    """A single file's sample directory: the nearest directory up from it that
    holds its golden script, else the one whose parent holds
    validation_runtime.py, else its own directory."""
    tc = testcase_name(path)
    ups = [path.parent] + list(path.parent.parents)[:3]
    for d in ups:
        if case_asset(d, tc, "golden") is not None:
            return d
    for d in ups:
        if (d.parent / "validation_runtime.py").is_file():
            return d
    return path.parent


def is_builder(path: Path) -> bool:
    n = path.name
    return not (n.endswith("_golden.py") or n.endswith("_compare.py") or "_golden_" in n
                or n in ("validation_runtime.py", "golden.py", "compare.py", "__init__.py")
                or "npu_validation" in path.parts)


def discover(tree: Path) -> List[Case]:
    """Every .pto file of a sample tree (a PTOAS checkout's test/samples or the
    tree itself), and every Python builder without a .pto beside it."""
    root = tree / "test" / "samples" if (tree / "test" / "samples").is_dir() else tree
    cases = []
    for path in sorted(root.rglob("*")):
        if not path.is_file() or path.suffix not in (".pto", ".py"):
            continue
        rel = path.relative_to(root)
        if path.suffix == ".py" and (len(rel.parts) < 2 or not is_builder(path)
                                     or path.with_suffix(".pto").is_file()):
            continue
        sample_root = root / rel.parts[0] if len(rel.parts) > 1 else root
        cases.append(make_case(path, sample_root, str(rel.with_suffix("")) + path.suffix))
    return cases


# runop.sh's per-case rules: these testcases are generated only with
# `--pto-arch a5` (every other target skips them "requires --pto-arch=a5").
A5_CASES = ("test_tmov_col_major_16x1_align_a5", "test_tmov_row_major_1x16_control_a5",
            "movfp_fixpipe_reuse", "decode_projection_incore_0", "rmsnorm_incore_0")
# A lit file's own target (`// RUN: ptoas --pto-arch a5 %s`): TPushTPop's
# kernels, which runop.sh does not run (the directory is not in its
# PTO_PTO_DIRS), are written for the target their RUN line names.
_RUN_ARCH = re.compile(r"^//\s*RUN:.*--pto-arch[ =](a5|a3)\b", re.M)


def case_profile(text: str, sample_root: Path, testcase: str = "") -> str:
    m = re.search(r'pto\.target_arch\s*=\s*"(\w+)"', text)
    if m:
        return "A5" if m.group(1).lower() == "a5" else "A2A3"
    if testcase in A5_CASES:
        return "A5"
    m = _RUN_ARCH.search(text)
    if m:
        return "A5" if m.group(1) == "a5" else "A2A3"
    return "A5" if A5_DIRS.match(sample_root.name) else "A2A3"


def case_blocks(text: str, testcase: str) -> int:
    # PTOAS launches one block, two for its inter-core synchronisation tests
    # (a producer and a consumer block).
    if testcase.startswith("test_intercore_sync_") and "pto.get_block_idx" in text:
        return 2
    return 1


# --------------------------------------------------------------------------
# One case, step by step, in a scratch directory.

class Validator:
    def __init__(self, opts: argparse.Namespace, pto_run: str):
        self.opts = opts
        self.pto_run = pto_run
        self.python = opts.python or sys.executable
        self.choices_cache: Dict[Optional[Path], BoardChoices] = {}

    def timeout(self, step: str) -> float:
        specific = getattr(self.opts, f"{step}_timeout", None)
        return specific if specific is not None else self.opts.timeout

    def choices(self, case: Case) -> BoardChoices:
        gen = find_generator(case.sample_root)
        if gen not in self.choices_cache:
            self.choices_cache[gen] = BoardChoices(gen)
        return self.choices_cache[gen]

    def pto_run_argv(self, pto: Path, profile: str, *extra: str) -> List[str]:
        argv = [self.pto_run, str(pto), "--profile", profile]
        if self.opts.board:
            argv.append("--board")
        return argv + list(extra)

    def setup(self, case: Case, text: str, profile: str) -> List[Param]:
        """pto-run --check, then each parameter's buffer or value as the board gives it."""
        proc = run_step("pto-run --check", self.pto_run_argv(case.kernel or case.pto, profile, "--check"),
                        case.pto.parent, self.timeout("run"))
        refusal_or_failure(proc, self.opts.board, case.text)
        params = kernel_params(proc.stdout)
        choices = self.choices(case)
        ints = {}
        for p in params:
            host = SCALAR_HOST.get(p.dtype, "int64_t")
            if p.kind == "int":
                p.value = "1" if p.dtype == "i1" else str(
                    choices.integer(case.testcase, p.board_name, host, case.sample_root.name))
                if p.dtype != "i1" and choices.inline_integer(case.testcase) is not None:
                    p.value = str(choices.inline_integer(case.testcase))
                ints[p.name] = int(p.value)
            elif p.kind == "float":
                p.value = "1.0"
        pointers = [p.name for p in params if p.kind == "ptr"]
        default_output(params)
        counts, case.logical = footprints(text, ints, pointers)
        logical = case.logical[0] * case.logical[1]
        minimums = choices.minimums(case.testcase, case.sample_root.name)
        for p in params:
            if p.kind == "ptr":
                if p.dtype not in DTYPES:
                    raise CaseError("ERROR", f"parameter %{p.name}: pointer to {p.dtype}, not a dtype pto-run reads")
                p.reach = max(p.reach, counts.get(p.name, 0))
                p.count = max(p.reach or logical, int(minimums.get(p.board_name, 0)),
                              choices.inline_floor(case.testcase, p.dtype))
        return params

    def describe(self, params: List[Param], work: Path):
        """The case in the declarations PTOAS's validation_runtime.py reads
        (main.cpp) and its outputs (outputs.txt)."""
        lines = ["// The board case as pto-validate sets it up (read by the golden scripts)."]
        for p in params:
            if p.kind == "int":
                host = SCALAR_HOST.get(p.dtype, "int64_t")
                lines.append(f"{host} {p.board_name} = {'true' if host == 'bool' else p.value};")
            elif p.kind == "float":
                lines.append(f"{SCALAR_HOST[p.dtype]} {p.board_name} = {p.value};")
        for p in params:
            if p.kind == "ptr":
                host = DTYPES[p.dtype][1] if p.dtype != "f16" else "aclFloat16"
                lines.append(f"size_t elemCount_{p.board_name} = {p.count};")
                lines.append(f"size_t fileSize_{p.board_name} = elemCount_{p.board_name} * sizeof({host});")
        for p in params:
            if p.kind == "ptr":
                lines.append(f'ReadFile("./{p.board_name}.bin", fileSize_{p.board_name});')
        (work / "main.cpp").write_text("\n".join(lines) + "\n")
        (work / "outputs.txt").write_text("".join(f"{p.board_name}\n" for p in params
                                                  if p.kind == "ptr" and p.written))

    def script_env(self, case: Case, profile: str) -> dict:
        env = dict(os.environ)
        env["SOC_VERSION"] = "Ascend950" if profile == "A5" else "Ascend910B"
        extra = [str(case.sample_root)] + ([str(case.golden.parent)] if case.golden else [])
        env["PYTHONPATH"] = os.pathsep.join(extra + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        return env

    def copy_scripts(self, case: Case, work: Path):
        shutil.copy2(case.golden, work / "golden.py")
        if case.compare is not None:
            shutil.copy2(case.compare, work / "compare.py")
        for helper in case.sample_root.glob("*_golden_*.py"):
            shutil.copy2(helper, work / helper.name)
        for d in (case.sample_root, case.sample_root.parent):
            if (d / "validation_runtime.py").is_file():
                shutil.copy2(d / "validation_runtime.py", work / "validation_runtime.py")
                break

    def run_kernel(self, case: Case, params: List[Param], profile: str, blocks: int,
                   work: Path, tag: str) -> float:
        """pto-run on the NAME.bin inputs; the written buffers back to NAME.bin.
        Returns the run's wall time in seconds."""
        run_dir = work / f"run{tag}"
        run_dir.mkdir()
        args, outs = [], []
        for p in params:
            if p.kind == "ptr" and p.used:
                src = work / f"{p.board_name}.bin"
                if not src.is_file() and not (p.read or p.written):
                    # A buffer the kernel neither reads nor writes (a prefetch
                    # workspace): the board leaves it out of the inputs.
                    with open(src, "wb") as f:
                        f.truncate(p.count * int(DTYPES[p.dtype][2][2:]))
                if not src.is_file():
                    raise CaseError("ERROR", f"missing file: {p.board_name}.bin (the golden script did not write it)")
                size = src.stat().st_size
                itemsize = int(DTYPES[p.dtype][2][2:])
                if size != p.count * itemsize:
                    raise CaseError("ERROR", f"{p.board_name}.bin holds {size} bytes, the case {p.count} x {itemsize}")
                write_npy(src, run_dir / f"{p.board_name}.npy", DTYPES[p.dtype][2], p.count)
                args.append(f"{p.name}={run_dir / (p.board_name + '.npy')}")
                if p.written:
                    outs += ["--out", f"{p.name}={run_dir / ('out_' + p.board_name + '.npy')}"]
            elif p.kind != "ptr" and p.used:
                args.append(f"{p.name}={p.value}")
        argv = self.pto_run_argv(case.kernel or case.pto, profile, "--blocks", str(blocks), *outs, *args)
        env = None
        if case.multi_card:
            # One card: every pointer is this card's memory (libpto's built-in
            # transport); a wait for a peer's signal ends after the comm timeout.
            env = dict(os.environ, PTO_COMM_TIMEOUT=f"{self.opts.comm_timeout:g}")
        start = time.monotonic()
        proc = run_step("pto-run", argv, run_dir, self.timeout("run"), env)
        seconds = time.monotonic() - start
        refusal_or_failure(proc, self.opts.board, case.text)
        for p in params:
            if p.kind == "ptr" and p.used and p.written:
                npy_to_bin(run_dir / f"out_{p.board_name}.npy", work / f"{p.board_name}{tag}.bin")
        shutil.rmtree(run_dir)
        return seconds


# libpto's refusals that are the kernel's own defect on the board too: the
# rule, and what on the NPU checks it or why its result is not defined there
# (docs/profiles.md, "Board mode": what stays an error). A refusal that
# matches none stays REFUSED (libpto's rule, which board mode may relax).
OUTSIDE_MEMORY = ("an access outside the memory the case gives the pointer (the board's "
                  "generate_testcase.py sizes each buffer from the kernel's used views and windows at its "
                  "integer values, loop indices at their largest): nothing on the NPU checks it, and the "
                  "kernel reads or writes another buffer's bytes")
KERNEL_DEFECTS = [
    (re.compile(r"pto_trow(sum|max|min|prod|argmax|argmin): src valid region \d+x0|"
                r"pto_trow(sum|max|min|prod|argmax|argmin): src valid region 0x\d+"),
     "a row reduction of an empty region: pto-isa a2a3/TRowReduceOps.hpp and "
     "a5/TRowReduce.hpp PTO_ASSERT(validCol != 0 && validRow != 0), which a debug build "
     "hits; a release build derives its repeat count from the zero"),
    (re.compile(r"outside the memory bound|outside its pointer's buffer|outside every allocation"),
     OUTSIDE_MEMORY),
    (re.compile(r"pto\.comm\.tgather: dst is \d+x\d+, not at least|"
                r"pto\.comm\.tscatter: src is \d+x\d+, not at least"),
     "the root's buffer holds fewer rows than the members' row blocks together: pto-isa "
     "docs/isa/comm/TGATHER.md and TSCATTER.md ask GetShape(DIM_3) >= N x H, and their NPU "
     "implementations (include/pto/comm/a2a3/, a5/ TGather.hpp, TScatter.hpp) check nothing "
     "and move member r's rows at row r x H of that buffer, past its view"),
    (re.compile(r"pto\.tstore: the tile's valid region \d+x\d+ does not fit in the view's"),
     "a store of a tile wider than its view's rows: pto-isa a5/TStore.hpp (TStoreVecND) "
     "PTO_ASSERT(validCol == gShape4), the tile's valid cols equal to the view's last "
     "dimension, which a debug build of the kernel hits"),
    (re.compile(r"pto_tgather: indices \(\d+, \d+\) is -?\d+, which names no element of src's \d+x\d+ storage"),
     "a gather index past the source tile's storage (the board mode reads one past its valid "
     "region from the tile, not past the tile): pto-isa a5/TGather.hpp (vgather2) and "
     "a2a3/TGather.hpp (vgather) compare no index with anything and read the unified buffer's bytes "
     "there, another tile's; the indices are the case's inputs (generate_testcase.py gives a "
     "tgather kernel's integer inputs arange % N, N the elements of its first shape)"),
    (re.compile(r"pto_tsetval: .*outside|pto_tgetval: .*outside"),
     "an element index outside the tile: pto-isa common/pto_tile.hpp Tile::SetValue/GetValue "
     "write or read past the tile's bytes"),
]


# An integer division by zero in the kernel's scalar code: libpto refuses it
# in both modes (docs/profiles.md, "Board mode"), but nothing on the NPU
# checks it, so it is no defect the board reports: the board's run goes on
# with whatever the AI core's scalar unit gives (a determinism case there).
DIVISION_BY_ZERO = re.compile(r"integer division by zero")
DIVISION_WHY = ("libpto does not invent the quotient: arith.divsi / remsi by zero in the AI core's "
                "scalar C++, which nothing on the NPU checks (no PTO_ASSERT) and no page defines; the "
                "board runs on with whatever its scalar unit gives, a determinism case there")


def zero_integer_inputs(params: List[Param], work: Path) -> bool:
    """Whether every integer input buffer the case wrote (NAME.bin of a
    pointer the kernel reads and does not write) is all zero."""
    import numpy as np
    found = False
    for p in params:
        if p.kind != "ptr" or p.written or not p.read or np.dtype(DTYPES[p.dtype][0]).kind not in "iu" \
                or p.dtype == "bf16" or not (work / f"{p.board_name}.bin").is_file():
            continue
        found = True
        if np.fromfile(work / f"{p.board_name}.bin", dtype=DTYPES[p.dtype][0]).any():
            return False
    return found


# In the board mode a window past its view is refused only where it leaves
# the memory bound to the pointer: the kernel's defect as above.
BOARD_WINDOW = re.compile(r"pto\.partition_view: .* is outside the view's ")


# pto.load_scalar / store_scalar past the buffer the case gives the pointer.
# PTOAS lowers both to a plain `ptr[offset]` (PTOAS__PTR_LOAD/STORE,
# tools/ptoas/ptoas.cpp), which nothing on the NPU checks; the buffer is the
# one generate_testcase.py allocates (footprints: the used views, else its
# fallback, raised to its per-case minimums), so the access leaves it on the
# board too, in both modes.
SCALAR_OUTSIDE = re.compile(r"pto\.(load|store)_scalar: element (-?\d+) of %[\w.$-]+, which holds \d+ elements")


def scalar_access_defect(message: str) -> Optional[str]:
    m = SCALAR_OUTSIDE.search(message)
    if not m:
        return None
    what = "reads" if m.group(1) == "load" else "writes"
    where = ("before the buffer's first element (an index the kernel computes from its inputs, "
             "negative for the board's inputs)" if int(m.group(2)) < 0 else "past the buffer's end")
    return (f"a scalar access outside the memory the case gives the pointer: PTOAS lowers "
            f"pto.{m.group(1)}_scalar to a plain ptr[offset] (tools/ptoas/ptoas.cpp "
            f"PTOAS__PTR_{m.group(1).upper()}) that nothing on the NPU checks, and the board's "
            f"generate_testcase.py allocates the buffer from the kernel's used tensor views (else its "
            f"fallback, the first tile's elements) and its per-case minimums; the kernel {what} "
            f"{where}, another allocation's bytes or unmapped memory")


# A tile whose dynamic valid region is larger than the tile (pto.alloc_tile
# valid_row / valid_col): its operations read and write past the tile's
# storage on the NPU too.
VALID_OUTSIDE_TILE = (
    re.compile(r"valid region \d+x\d+ of %[\w.$-]+ is outside its \d+x\d+"),
    "a valid region larger than its tile: pto.alloc_tile's valid_row / valid_col go to pto-isa "
    "common/pto_tile.hpp's Tile(VR, VC) constructor, which assigns them unchecked (no "
    "SetValidRow / SetValidCol is called); the tile's operations then reach past its storage, and "
    "a debug build stops at the first one's PTO_ASSERT on the valid region (a tload: "
    "common/arch/memory/tload_common.hpp TLoadGm2ubNd2nd, PTO_ASSERT(validCol == gShape4))")


# A tstore of a ZZ tile (row-major boxes: slayout=row_major, blayout
# row-major): pto-isa's TStore (common/arch/register/tstore_common.hpp, A5's
# vec path; common/arch/memory/ for A2A3) dispatches ND, DN and NZ tiles
# only, and CheckStaticVec admits a one-row tile of any layout, so the store
# compiles and moves nothing.
ZZ_STORE = re.compile(r"^(.*?):(\d+):\d+: pto\.tstore: ")


def zz_store_defect(message: str, text: str) -> Optional[str]:
    """The explanation of a refused tstore whose tile is ZZ, or None."""
    m = ZZ_STORE.match(message)
    lines = text.splitlines()
    if not m or not 0 < int(m.group(2)) <= len(lines):
        return None
    line = lines[int(m.group(2)) - 1]
    tile = re.search(r"ins\(\s*%[\w.$-]+\s*:\s*!pto\.tile_buf<([^>]*)>", line)
    if not tile or "slayout=row_major" not in tile.group(1) or "blayout=col_major" in tile.group(1):
        return None
    return ("a store of a ZZ tile (row-major boxes, slayout=row_major): pto-isa's TStore "
            "(common/arch/register/tstore_common.hpp on A5, common/arch/memory/tstore_common.hpp "
            "on A2A3) dispatches ND, DN and NZ tiles only, and its static check admits a one-row "
            "tile of any layout, so on the board (pto-isa 3186c381) this store compiles and writes "
            "nothing: the view keeps what it held")


def kernel_defect(message: str, board: bool, text: str = "") -> Optional[str]:
    """The kernel-defect explanation of a refusal (text: the kernel's, for
    the operation at the message's location), or None."""
    zz = zz_store_defect(message, text)
    if zz:
        return zz
    if board and BOARD_WINDOW.search(message):
        return OUTSIDE_MEMORY
    scalar = scalar_access_defect(message)
    if scalar:
        return scalar
    if VALID_OUTSIDE_TILE[0].search(message):
        return VALID_OUTSIDE_TILE[1]
    for pattern, why in KERNEL_DEFECTS:
        if pattern.search(message):
            return why
    return None


# A multi-card kernel's wait that its one card cannot satisfy (pto-run's
# PTO_COMM_TIMEOUT sentence).
NO_NOTIFY = re.compile(r"pto\.comm\.t(wait|test)\b.*: no notify within ")


def refusal_or_failure(proc: subprocess.CompletedProcess, board: bool = False, text: str = ""):
    """pto-run's exit: 1 is libpto's refusal (REFUSED, its sentence), 2 a usage
    error, a signal a crash."""
    if proc.returncode == 0:
        return
    if proc.returncode < 0:
        raise CaseError("ERROR", f"pto-run crashed (signal {-proc.returncode})")
    err = next((ln for ln in proc.stderr.splitlines() if "error:" in ln), last_line(proc.stderr))
    m = re.match(r"^(.*?):(\d+):(\d+): error: (.*)$", err)
    if m:
        err = f"{Path(m.group(1)).name}:{m.group(2)}:{m.group(3)}: {m.group(4)}"
    if proc.returncode == 1:
        if NO_NOTIFY.search(err):
            raise CaseError("NEEDS-RANKS", f"{err} (a multi-card kernel waiting for a signal that only "
                                           "its peers' launches send: run its ranks with mpiexec and "
                                           "pto-run-mpi, docs/multi-card.md)")
        if DIVISION_BY_ZERO.search(err):
            raise CaseError("REFUSED", f"{err} ({DIVISION_WHY})")
        why = kernel_defect(err, board, text)
        if why:
            raise CaseError("DEFECT", f"{err} (the kernel's defect: {why})")
        raise CaseError("REFUSED", err)
    raise CaseError("ERROR", err or f"pto-run exited {proc.returncode}")


# --------------------------------------------------------------------------
# Inputs for a case without a golden, errors against a golden, a compare
# script's absence.

# The operations whose index inputs generate_testcase.py makes in range (it
# looks for their C++ names in the kernel: TGATHER also in TGATHERB).
_GEN_OPS = {name: re.compile(rf"\bpto\.(?:comm\.)?{name}\b") for name in
            ("tscatter", "tgatherb", "mscatter", "mgather", "tmrgsort")}
_GEN_TGATHER = re.compile(r"\bpto\.(?:comm\.)?tgather")
_MRGSORT_BLOCK = re.compile(r"pto\.tmrgsort\s+ins\(\s*%[\w.$-]+\s*,\s*(%[\w.$-]+|\d+)\s*:")


def mrgsort_block_len(text: str) -> Optional[int]:
    """The block length of the kernel's first single-list pto.tmrgsort (a
    constant), as generate_testcase.py reads it from TMRGSORT(dst, src, n)."""
    m = _MRGSORT_BLOCK.search(text)
    if not m:
        return None
    if m.group(1).isdigit():
        return int(m.group(1))
    c = re.search(rf"^\s*{re.escape(m.group(1))}\s*=\s*arith\.constant\s+(\d+)", text, re.M)
    return int(c.group(1)) if c else None


def own_inputs(params: List[Param], work: Path, seed: int = SEED, text: str = "",
               shape: Tuple[int, int] = (32, 32)):
    """The inputs of a case without a golden script, as generate_testcase.py's
    golden (its golden_template.py: np.random.seed(19), then each pointer in
    order): a written buffer zero when the kernel has others; integer buffers
    (bf16 and the 8-bit float formats too: the board's uint16 / uint8
    buffers) zero, except index inputs, which it makes in range: arange % the
    logical element count for a kernel with tgather (not tgatherb) or
    tscatter, a row permutation for tscatter's indices, arange % the table
    for mgather and mscatter, 32-byte offsets for tgatherb; tmrgsort's float
    sources packed (value, index) structures sorted per block; every other
    float buffer uniform in [0, 1)."""
    import numpy as np
    rng = np.random.RandomState(seed)
    has = {name: bool(pat.search(text)) for name, pat in _GEN_OPS.items()}
    has_tgather = bool(_GEN_TGATHER.search(text))
    logical = shape[0] * shape[1]
    ptrs = [p for p in params if p.kind == "ptr"]
    inputs = [p for p in ptrs if not p.written]

    def integer(p):
        return np.dtype(DTYPES[p.dtype][0]).kind in "iu"

    index_mod = None
    if has["tscatter"] or (has_tgather and not has["tgatherb"]):
        index_mod = max(logical, 1)
    table = inputs[0] if has["mgather"] and inputs else None
    outputs = [p for p in ptrs if p.written]
    scatter_idx = next((p for p in reversed(inputs) if integer(p)), None) if has["mscatter"] else None
    if has["mscatter"] and outputs:
        index_mod = max(outputs[0].count, 1)
    block_len = mrgsort_block_len(text) if has["tmrgsort"] else None
    for p in ptrs:
        dt = np.dtype(DTYPES[p.dtype][0])
        n, is_int = p.count, integer(p)
        if p.written and len(ptrs) > 1:
            data = np.zeros(n, dtype=dt)
        elif has["tmrgsort"] and not p.written and p.dtype in ("f32", "f16"):
            data = mrgsort_input(rng, p, block_len)
        elif has["tscatter"] and not p.written and is_int and n == logical:
            rows, cols = shape
            perm = rng.permutation(rows).astype(np.int64).reshape(rows, 1)
            data = (perm * cols + np.arange(cols, dtype=np.int64).reshape(1, cols)).astype(dt).reshape(-1)
        elif scatter_idx is p:
            out_count = outputs[0].count if outputs else max(n, 1)
            data = (np.arange(n, dtype=np.int64) % out_count).astype(dt)
        elif table is not None and not p.written and is_int and p is not table:
            data = (np.arange(n, dtype=np.int64) % table.count).astype(dt)
        elif has["tgatherb"] and not p.written and is_int and n < logical:
            data = (np.arange(n, dtype=np.uint32) * 32).astype(dt)
        elif has["tgatherb"] and not p.written:
            data = np.arange(n, dtype=np.int64 if is_int else np.float32).astype(dt)
        elif is_int:
            data = (np.zeros(n, dtype=dt) if index_mod is None
                    else (np.arange(n, dtype=np.int64) % index_mod).astype(dt))
        else:
            data = rng.random_sample(n).astype(dt)
        data.tofile(work / f"{p.board_name}.bin")


def mrgsort_input(rng, p: Param, block_len: Optional[int]):
    """tmrgsort's source as generate_testcase.py packs it: (value, index)
    structures of 8 bytes (f32 value, u32 index; f16 value, 2 bytes of
    padding, u32 index), values uniform in [0, 1) sorted in descending order
    within each block of block_len words (or over the whole list)."""
    import numpy as np
    words = 2 if p.dtype == "f32" else 4
    value = np.float32 if p.dtype == "f32" else np.float16
    count = p.count // words
    values = rng.uniform(low=0, high=1, size=(count,)).astype(value)
    idx = np.arange(count, dtype=np.uint32)
    if block_len is not None:
        per = block_len // words
        if per > 0 and count > 0:
            pad = (-count) % per
            if pad:
                values = np.concatenate((values, np.zeros(pad, dtype=values.dtype)))
                idx = np.concatenate((idx, np.zeros(pad, dtype=idx.dtype)))
            v, i = values.reshape(-1, per), idx.reshape(-1, per)
            order = np.argsort(-v, kind="stable", axis=1)
            values = np.take_along_axis(v, order, axis=1).reshape(-1)[:count]
            idx = np.take_along_axis(i, order, axis=1).reshape(-1)[:count]
    elif count > 0:
        order = np.argsort(-values, kind="stable")
        values, idx = values[order], idx[order]
    if p.dtype == "f32":
        packed = np.empty((count,), dtype=np.dtype([("v", np.float32), ("i", np.uint32)]))
    else:
        packed = np.empty((count,), dtype=np.dtype([("v", np.float16), ("pad", np.uint16), ("i", np.uint32)]))
        packed["pad"] = 0
    packed["v"], packed["i"] = values, idx
    data = np.zeros(p.count, dtype=np.dtype(DTYPES[p.dtype][0]))
    raw = packed.view(np.uint8)
    data.view(np.uint8)[:raw.size] = raw
    return data


def as_float(data, dtype: str):
    import numpy as np
    if dtype == "bf16":
        return (data.astype(np.uint32) << 16).view(np.float32).astype(np.float64)
    return data.astype(np.float64)


def errors(params: List[Param], work: Path) -> Tuple[Optional[float], Optional[float]]:
    """The largest absolute and relative error over every output against its
    golden_NAME.bin (NaN against NaN counts as equal; relative errors over the
    elements whose golden value is not zero)."""
    import numpy as np
    max_abs = max_rel = None
    for p in params:
        if p.kind != "ptr" or not p.written:
            continue
        gpath, opath = work / f"golden_{p.board_name}.bin", work / f"{p.board_name}.bin"
        if not gpath.is_file() or not opath.is_file():
            continue
        dt = np.dtype(DTYPES[p.dtype][0])
        g, o = as_float(np.fromfile(gpath, dtype=dt), p.dtype), as_float(np.fromfile(opath, dtype=dt), p.dtype)
        if g.shape != o.shape or g.size == 0:
            continue
        with np.errstate(invalid="ignore", divide="ignore"):
            diff = np.abs(g - o)
            diff[np.isnan(g) & np.isnan(o)] = 0.0
            diff[(g == o)] = 0.0
            diff[np.isnan(diff)] = np.inf
            nz = g != 0
            rel = float(np.max(diff[nz] / np.abs(g[nz]))) if nz.any() else 0.0
        a = float(np.max(diff))
        max_abs = a if max_abs is None else max(max_abs, a)
        max_rel = rel if max_rel is None else max(max_rel, rel)
    return max_abs, max_rel


def default_compare(params: List[Param], work: Path) -> Tuple[bool, str]:
    """PTOAS's generated compare when a sample has a golden and no compare
    script: f32 within 1e-4, f16 within 1e-2 (absolute and relative), bf16
    within 1 ulp, integers exactly; over the elements the kernel's views
    reach when the buffer is larger."""
    import numpy as np
    for p in params:
        if p.kind != "ptr" or not p.written:
            continue
        gpath, opath = work / f"golden_{p.board_name}.bin", work / f"{p.board_name}.bin"
        if not gpath.is_file():
            return False, f"missing file: golden_{p.board_name}.bin (the golden script did not write it)"
        dt = np.dtype(DTYPES[p.dtype][0])
        g, o = np.fromfile(gpath, dtype=dt), np.fromfile(opath, dtype=dt)
        if g.shape != o.shape:
            return False, f"{p.board_name}: {o.size} elements, golden {g.size}"
        if 0 < p.reach < g.size:
            g, o = g[:p.reach], o[:p.reach]
        if p.dtype == "bf16":
            def ordered(b):
                b = b.astype(np.int32)
                return np.where(b & 0x8000, 0x8000 - (b & 0x7FFF), 0x8000 + b)
            gf, of = as_float(g, "bf16"), as_float(o, "bf16")
            ok = (np.abs(ordered(g) - ordered(o)) <= 1) | (np.isnan(gf) & np.isnan(of))
            ok = bool(ok.all())
        elif dt.kind == "f":
            eps = 1e-4 if p.dtype == "f32" else 1e-2
            ok = bool(np.allclose(g, o, atol=eps, rtol=eps, equal_nan=True))
        else:
            ok = bool(np.array_equal(g, o))
        if not ok:
            return False, f"{p.board_name} differs from its golden"
    return True, ""


def make_inputs(v: Validator, case: Case, params: List[Param], profile: str, work: Path):
    """The golden script (inputs NAME.bin, maybe golden_NAME.bin), or for a
    case without one, seeded inputs of the tool's own."""
    if case.golden is None:
        own_inputs(params, work, text=case.text, shape=case.logical)
        return
    proc = run_step("golden script", [v.python, "golden.py"], work, v.timeout("golden"),
                    v.script_env(case, profile))
    if proc.returncode != 0:
        raise script_failure(f"golden script {case.golden.name}", proc)


def run_board_flow(v: Validator, case: Case, params: List[Param], profile: str, blocks: int,
                   work: Path, res: Result):
    """The board's order: inputs (and goldens), the kernel, and where no
    golden_NAME.bin was written, the outputs kept as the golden and the
    inputs made and the kernel run again (determinism only); then the
    compare script (or PTOAS's generated compare, without one)."""
    if case.golden is not None:
        v.copy_scripts(case, work)
    make_inputs(v, case, params, profile, work)
    res.seconds = v.run_kernel(case, params, profile, blocks, work, "")
    outputs = [p for p in params if p.kind == "ptr" and p.written]
    if not any((work / f"golden_{p.board_name}.bin").is_file() for p in outputs):
        res.check = "determinism"
        for p in outputs:
            shutil.copyfile(work / f"{p.board_name}.bin", work / f"golden_{p.board_name}.bin")
        make_inputs(v, case, params, profile, work)
        res.seconds = max(res.seconds, v.run_kernel(case, params, profile, blocks, work, ""))
    else:
        res.check = "golden"
    res.max_abs, res.max_rel = errors(params, work)
    if case.compare is None:
        ok, why = default_compare(params, work)
        res.result, res.detail = ("PASS", "") if ok else ("FAIL", why)
        return
    proc = run_step("compare script", [v.python, "compare.py"], work, v.timeout("compare"),
                    v.script_env(case, profile))
    if proc.returncode < 0:
        raise script_failure(f"compare script {case.compare.name}", proc)
    if proc.returncode == 0:
        res.result = "PASS"
        return
    # A compare script that reports a mismatch prints [ERROR] lines and exits
    # non-zero; one that dies on an exception is a broken script, not a FAIL.
    if "Traceback (most recent call last)" in proc.stderr:
        raise script_failure(f"compare script {case.compare.name}", proc)
    out = proc.stdout + "\n" + proc.stderr
    res.result = "FAIL"
    mismatch = [ln.strip() for ln in out.splitlines() if "[ERROR]" in ln and "compare failed" not in ln]
    res.detail = mismatch[0] if mismatch else last_line(out)


# --------------------------------------------------------------------------
# Multi-card cases on their ranks: `mpiexec -n N pto-run-mpi`, one process a
# card, each rank with inputs, outputs, golden and compare of its own.

# Parameter names that are the card's rank and the number of ranks (PTOAS's
# builders name them; PyPTO's exports alias them in SSA names).
RANK_NAMES = {"me", "rank", "my_rank", "rank_id", "rankid", "my_rank_id"}
SIZE_NAMES = {"nranks", "n_ranks", "num_ranks", "rank_num", "ranknum", "world_size", "size"}
# The operations that reach another card (a kernel with none of them, e.g.
# an async prefetch session, runs on one card).
PEER_OPS = re.compile(r"pto\.comm\.(tput|tget|tnotify|twait|ttest|tbroadcast|tscatter|tgather|treduce|"
                      r"tput_async|tget_async)\b|@CommRemoteOffset")
_GROUP = re.compile(r"pto\.comm\.t(?:broadcast|scatter|gather|reduce)\b.*?\bgroup\(([^:)]*)")
_RANK_LOOP = re.compile(r"scf\.for\s+(%[\w.$-]+)\s*=\s*(%[\w.$-]+)\s+to\s+(%[\w.$-]+)")
_CMPI = re.compile(r"^\s*(%[\w.$-]+)\s*=\s*arith\.cmpi\s+(?:ne|eq)\s*,\s*(%[\w.$-]+)\s*,\s*(%[\w.$-]+)")
_ALIAS = re.compile(r"^\s*(%[\w.$-]+)\s*=\s*arith\.(?:index_cast|extsi|extui|trunci|remsi|remui)\s+(%[\w.$-]+)")
# A comm operation on a view: the view's SSA name (PyPTO's name for the
# tensor comes before "__").
_WAIT = re.compile(r"pto\.comm\.twait\(\s*(%[\w.$-]+)\s*,\s*(%[\w.$-]+)")
_NOTIFY = re.compile(r"pto\.comm\.tnotify\(\s*(%[\w.$-]+)\s*,\s*(%[\w.$-]+)")
_EP = re.compile(r"--ep[ =](\d+)")
_ADDI = re.compile(r"^\s*(%[\w.$-]+)\s*=\s*arith\.addi\s+(%[\w.$-]+)\s*,\s*(%[\w.$-]+)")
_REMOTE = re.compile(r"@CommRemoteOffset\w*\(\s*%[\w.$-]+\s*,\s*(%[\w.$-]+)")


@dataclasses.dataclass
class RankPlan:
    ranks: int
    why: str                                        # where the rank count comes from
    rank_params: List[str] = dataclasses.field(default_factory=list)   # bound to {rank}
    size_params: List[str] = dataclasses.field(default_factory=list)   # bound to {size}
    contexts: List[str] = dataclasses.field(default_factory=list)      # CommDeviceContext pointers
    bases: List[str] = dataclasses.field(default_factory=list)         # a rank group's first rank: 0
    members: Dict[str, Tuple[str, int]] = dataclasses.field(default_factory=dict)  # name -> (base, member)


def scalar_values(text: str, ints: Dict[str, int]) -> Dict[str, int]:
    """Every SSA integer the text's constants and the integer arguments fix."""
    env = {"%" + k: v for k, v in ints.items()}
    for line in text.splitlines():
        fold_scalar(line, env)
    return env


def view_roots(text: str, pointers: Sequence[str]) -> Dict[str, str]:
    """SSA view (or pointer) name -> the pointer parameter it comes from."""
    roots = {"%" + p: p for p in pointers}
    for line in text.splitlines():
        m = _VIEW_OF.match(line) or _ADDPTR.match(line)
        if m and m.group(2) in roots:
            roots[m.group(1)] = roots[m.group(2)]
    return roots


def builder_names(case: Case) -> List[str]:
    """The entry's parameter names as the sample's Python builder calls them
    (`a, b, my_rank, nranks = entry.arguments`), else []."""
    builder = case.builder or (case.pto.with_suffix(".py") if case.pto is not None else None)
    if builder is None or not builder.is_file():
        return []
    m = re.search(r"^\s*([\w\s,]+?)\s*=\s*entry\.arguments\b", builder.read_text(errors="replace"), re.M)
    return [n.strip() for n in m.group(1).split(",")] if m else []


def group_bases(text: str, params: List[Param], ranks: List[str]) -> List[str]:
    """Integer parameters added to the index of a loop over a group's ranks
    to name the peer of a CommRemoteOffset (PyPTO's `base + owner_tp`: the
    group's first rank); on ranks that form one group, 0."""
    alias = {"%" + p.name: p.name for p in params if p.kind == "int" and p.name not in ranks}
    loops = {m.group(1) for m in _RANK_LOOP.finditer(text)}
    peers = {m.group(1) for m in _REMOTE.finditer(text)}
    bases = []
    for line in text.splitlines():
        m = _ALIAS.match(line)
        if m and m.group(2) in alias:
            alias[m.group(1)] = alias[m.group(2)]
            continue
        m = _ADDI.match(line)
        if m and m.group(1) in peers:
            for iv, other in ((m.group(2), m.group(3)), (m.group(3), m.group(2))):
                if iv in loops and other in alias and alias[other] not in bases:
                    bases.append(alias[other])
    return bases


def rank_params(text: str, params: List[Param], case: Case) -> Tuple[List[str], List[str], Optional[int]]:
    """The integer parameters that are the rank and the rank count, and the
    bound of a loop over the ranks: by the builder's names, the parameter's
    own name, a PyPTO alias (`%my_rank__... = arith.index_cast %argK`), or a
    comparison of the parameter with the index of a loop over the ranks
    (PyPTO's `for peer in range(N): if peer != me`)."""
    ints = [p for p in params if p.kind == "int"]
    names = builder_names(case)
    by_pos = {p.name: names[i] for i, p in enumerate(params) if i < len(names)}
    ranks = [p.name for p in ints if (by_pos.get(p.name, p.name)).lower() in RANK_NAMES]
    sizes = [p.name for p in ints if (by_pos.get(p.name, p.name)).lower() in SIZE_NAMES]
    alias = {"%" + p.name: p.name for p in ints}
    loops = {m.group(1): m.group(3) for m in _RANK_LOOP.finditer(text)}
    consts = scalar_values(text, {})
    bound = None
    for line in text.splitlines():
        m = _ALIAS.match(line)
        if m and m.group(2) in alias:
            alias[m.group(1)] = alias[m.group(2)]
            if m.group(1).lstrip("%").split("__")[0].lower() in RANK_NAMES and alias[m.group(2)] not in ranks:
                ranks.append(alias[m.group(2)])
            continue
        m = _CMPI.match(line)
        if m:
            for iv, other in ((m.group(2), m.group(3)), (m.group(3), m.group(2))):
                if iv in loops and other in alias and alias[other] not in sizes:
                    if alias[other] not in ranks:
                        ranks.append(alias[other])
                    bound = bound or consts.get(loops[iv])
    return ranks, sizes, bound


def case_rank_count(text: str, case: Case, loop_bound: Optional[int],
                    groups: List[List[str]]) -> Tuple[int, str]:
    """The ranks a case runs on: a collective's group (one member a rank),
    the export's `--ep N` (the sample's README), the bound of the kernel's
    loop over the ranks, else 2."""
    if groups:
        return max(len(g) for g in groups), "its collective's group"
    d = case.pto.parent if case.pto is not None else case.sample_root
    while True:
        readme = d / "README.md"
        if readme.is_file():
            m = _EP.search(readme.read_text(errors="replace"))
            if m:
                return int(m.group(1)), f"the export's --ep {m.group(1)} ({readme.parent.name}/README.md)"
        if d == case.sample_root or d == d.parent:
            break
        d = d.parent
    if loop_bound:
        return loop_bound, "the kernel's loop over the ranks"
    return 2, "no rank count in the case: 2"


class RankTools:
    """mpiexec and pto-run-mpi, the launcher of the MPI pto-run-mpi is built
    on (Debian names both: mpiexec.mpich, mpiexec.openmpi)."""

    def __init__(self, opts: argparse.Namespace, pto_run: str):
        self.pto_run_mpi = self.mpiexec = None
        given = opts.pto_run_mpi or os.environ.get("PTO_RUN_MPI")
        for cand in ((given,) if given else (str(Path(pto_run).parent / "pto-run-mpi"),
                                             shutil.which("pto-run-mpi"))):
            if cand and Path(cand).is_file() and os.access(cand, os.X_OK):
                self.pto_run_mpi = os.path.abspath(cand)
                break
        launcher = opts.mpiexec or os.environ.get("MPIEXEC")
        if launcher is None and self.pto_run_mpi is not None:
            launcher = self.matching_launcher()
        self.mpiexec = shutil.which(launcher or "mpiexec")

    def matching_launcher(self) -> Optional[str]:
        try:
            libs = subprocess.run(["ldd", self.pto_run_mpi], capture_output=True, text=True,
                                  timeout=30).stdout
        except (OSError, subprocess.TimeoutExpired):
            return None
        if "libmpich" in libs:
            return "mpiexec.mpich" if shutil.which("mpiexec.mpich") else None
        if re.search(r"libmpi\.so", libs):
            return "mpiexec.openmpi" if shutil.which("mpiexec.openmpi") else None
        return None

    def missing(self) -> str:
        """'' when both are there, else the sentence saying what is missing."""
        if self.pto_run_mpi is None:
            return ("pto-run-mpi not found (libpto built with -Dmpi=enabled installs it; "
                    "--pto-run-mpi PATH or $PTO_RUN_MPI)")
        if self.mpiexec is None:
            return "mpiexec not found (the MPI pto-run-mpi is built on: --mpiexec PATH or $MPIEXEC)"
        return ""

    def env(self, comm_timeout: float) -> dict:
        env = dict(os.environ, PTO_COMM_TIMEOUT=f"{comm_timeout:g}")
        # Open MPI: more ranks than cores, containers, yielding idle ranks,
        # and root where the tool runs as root (MPICH ignores these).
        for k, val in (("OMPI_MCA_rmaps_base_oversubscribe", "1"),
                       ("OMPI_MCA_btl_vader_single_copy_mechanism", "none"),
                       ("OMPI_MCA_mpi_yield_when_idle", "1")):
            env.setdefault(k, val)
        if hasattr(os, "geteuid") and os.geteuid() == 0:
            env.setdefault("OMPI_ALLOW_RUN_AS_ROOT", "1")
            env.setdefault("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
        return env


def plan_ranks(v: Validator, case: Case, text: str, params: List[Param]) -> Optional[RankPlan]:
    """How a multi-card case runs on its ranks, or None for one card (no
    operation reaching another card, no context or group naming another
    rank, --ranks 1, or a count of 1)."""
    if not PEER_OPS.search(text) or v.opts.ranks == 1:
        return None
    pointers = [p.name for p in params if p.kind == "ptr"]
    roots = view_roots(text, pointers)
    groups = []
    for m in _GROUP.finditer(text):
        members = [roots.get(t.strip()) for t in m.group(1).split(",")]
        if members and all(members):
            groups.append(members)
    ranks, sizes, bound = rank_params(text, params, case)
    n, why = case_rank_count(text, case, bound, groups)
    if v.opts.ranks:
        n, why = v.opts.ranks, "--ranks"
    if n <= 1:
        return None
    plan = RankPlan(n, why, ranks, sizes)
    plan.bases = group_bases(text, params, ranks)
    viewed = {roots[k] for k in roots if k != "%" + roots[k]}
    # An i64 pointer the kernel never views as a tensor: PyPTO's
    # CommDeviceContext (its window bases, read with load_scalar).
    plan.contexts = [p.name for p in params if p.kind == "ptr" and p.dtype == "i64" and p.name not in viewed]
    for g in groups:
        for j, name in enumerate(g):
            if name not in plan.members:
                plan.members[name] = (g[0], j % n)
    # A kernel that names no other rank (no context, no group) gets its
    # peers' addresses from pointers the case cannot bind to other ranks:
    # it runs on one card, as the board flow runs it.
    return plan if plan.contexts or plan.members else None


def rank_params_for(params: List[Param], plan: RankPlan, rank: int) -> List[Param]:
    """The case's parameters as rank `rank` gets them (its rank, the count)."""
    out = []
    for p in params:
        q = dataclasses.replace(p)
        if p.name in plan.rank_params:
            q.value = str(rank)
        elif p.name in plan.bases:
            q.value = "0"
        elif p.name in plan.size_params:
            q.value = str(plan.ranks)
        out.append(q)
    return out


def rank_dir(work: Path, rank) -> Path:
    return work / f"rank{rank}"


def ranks_inputs(v: Validator, case: Case, params: List[Param], plan: RankPlan, profile: str,
                 work: Path, seed_base: int = SEED):
    """Each rank's inputs in its own directory: the golden script run there
    (PTO_RANK and PTO_RANKS set, the rank's integer arguments in main.cpp),
    or seeded inputs of the tool's own (a seed per rank)."""
    for r in range(plan.ranks):
        d = rank_dir(work, r)
        d.mkdir(exist_ok=True)
        ps = rank_params_for(params, plan, r)
        v.describe(ps, d)
        if case.golden is None:
            own_inputs(ps, d, seed_base + r, case.text, case.logical)
            continue
        v.copy_scripts(case, d)
        env = v.script_env(case, profile)
        env.update(PTO_RANK=str(r), PTO_RANKS=str(plan.ranks))
        proc = run_step("golden script", [v.python, "golden.py"], d, v.timeout("golden"), env)
        if proc.returncode != 0:
            e = script_failure(f"golden script {case.golden.name}", proc)
            raise CaseError(e.result, f"rank {r}: {e}")


def ranks_failure(proc: subprocess.CompletedProcess, board: bool, what: str = ""):
    """mpiexec's exit: a rank's located error classified as pto-run's (a
    refusal, the kernel's defect; a wait no rank satisfies is FAIL: its
    ranks ran), else ERROR with the last line."""
    if proc.returncode == 0:
        return
    lines = proc.stderr.splitlines()
    err = next((ln for ln in lines if " error: " in ln or ": error:" in ln), "")
    if not err:
        tail = last_line(proc.stderr) or last_line(proc.stdout) or "no output"
        raise CaseError("ERROR", f"{what}mpiexec exited {proc.returncode}: {tail}")
    m = re.match(r"^(rank \d+: )?(.*?):(\d+):(\d+): error: (.*)$", err.strip())
    if m:
        err = f"{m.group(1) or ''}{Path(m.group(2)).name}:{m.group(3)}:{m.group(4)}: {m.group(5)}"
    if NO_NOTIFY.search(err):
        raise CaseError("FAIL", f"{what}{err} (on its ranks: no rank's launch sent what it waits for)")
    why = kernel_defect(err, board)
    if why:
        raise CaseError("DEFECT", f"{what}{err} (the kernel's defect: {why})")
    raise CaseError("REFUSED", f"{what}{err}")


def run_ranks_kernel(v: Validator, case: Case, params: List[Param], plan: RankPlan, profile: str,
                     blocks: int, work: Path, tag: str, what: str = "") -> float:
    """One job of the case on its ranks: rank r's NAME.bin inputs from
    rank{r}/, its written buffers back to rank{r}/NAME{tag}.bin. A group
    member is the group's first buffer on the member's rank; a context
    pointer PyPTO's CommDeviceContext. Returns the job's wall time."""
    args, outs = [], []
    for r in range(plan.ranks):
        (rank_dir(work, r) / "run").mkdir()
    for p in params:
        if not p.used:
            continue
        if p.kind != "ptr":
            val = ("{rank}" if p.name in plan.rank_params else "{size}" if p.name in plan.size_params
                   else "0" if p.name in plan.bases else p.value)
            args.append(f"{p.name}={val}")
            continue
        if p.name in plan.contexts:
            args.append(f"{p.name}=context")
            continue
        base, member = plan.members.get(p.name, (p.name, -1))
        if base != p.name:
            args.append(f"{p.name}={base}@{member}")
            continue
        itemsize = int(DTYPES[p.dtype][2][2:])
        for r in range(plan.ranks):
            src = rank_dir(work, r) / f"{p.board_name}.bin"
            if not src.is_file() and not (p.read or p.written):
                with open(src, "wb") as f:
                    f.truncate(p.count * itemsize)
            if not src.is_file():
                raise CaseError("ERROR", f"rank {r}: missing file: {p.board_name}.bin (the golden script did not write it)")
            if src.stat().st_size != p.count * itemsize:
                raise CaseError("ERROR", f"rank {r}: {p.board_name}.bin holds {src.stat().st_size} bytes, "
                                         f"the case {p.count} x {itemsize}")
            write_npy(src, rank_dir(work, r) / "run" / f"{p.board_name}.npy", DTYPES[p.dtype][2], p.count)
        arg = f"{p.name}={work / 'rank{rank}' / 'run' / (p.board_name + '.npy')}"
        args.append(arg + ("@0" if member == 0 else ""))
        if p.written or member >= 0:
            outs += ["--out", f"{p.name}={work / 'rank{rank}' / 'run' / ('out_' + p.board_name + '.npy')}"]
    tools = v.rank_tools
    argv = [tools.mpiexec, "-n", str(plan.ranks), tools.pto_run_mpi, str(case.kernel or case.pto), "--profile",
            profile]
    if v.opts.board:
        argv.append("--board")
    argv += ["--blocks", str(blocks)] + outs + args
    start = time.monotonic()
    proc = run_step(f"{what}mpiexec", argv, work, v.timeout("run"), tools.env(v.opts.ranks_comm_timeout))
    seconds = time.monotonic() - start
    ranks_failure(proc, v.opts.board, what)
    for r in range(plan.ranks):
        for p in params:
            if p.kind != "ptr" or not p.used or not p.written or p.name in plan.contexts:
                continue
            base, member = plan.members.get(p.name, (p.name, -1))
            # A member's memory is the group's first buffer on the member's rank.
            src = rank_dir(work, member if base != p.name else r) / "run" / f"out_{board_name_of(params, base)}.npy"
            npy_to_bin(src, rank_dir(work, r) / f"{p.board_name}{tag}.bin")
    for r in range(plan.ranks):
        shutil.rmtree(rank_dir(work, r) / "run")
    return seconds


def board_name_of(params: List[Param], name: str) -> str:
    return next(p.board_name for p in params if p.name == name)


def tensor_name(view: str) -> str:
    """PyPTO's tensor name in an SSA view name (`%data_arrived__ssa_v0_view`)."""
    return view.lstrip("%").split("__")[0]


def find_senders(case: Case, text: str, params: List[Param], ints: Dict[str, int],
                 given: Sequence[Path] = ()) -> List[Tuple[Optional[Path], str, str, int]]:
    """For each counter the kernel waits on and never notifies itself: the
    kernel that notifies that tensor (a .pto of the sample beside it, else
    one of --sender's files), the waiting kernel's parameter holding it,
    the tensor's name and the number of launches' blocks the wait awaits
    (the awaited value over the sender's notify value): (sender, param,
    tensor, blocks). A counter without a sender is (None, ...)."""
    env = scalar_values(text, ints)
    roots = view_roots(text, [p.name for p in params if p.kind == "ptr"])
    notified = {roots.get(m.group(1)) for m in _NOTIFY.finditer(text)} - {None}
    out, seen = [], set()
    for m in _WAIT.finditer(text):
        t = tensor_name(m.group(1))
        param = roots.get(m.group(1)) or next((roots[k] for k in roots if k.startswith(f"%{t}__")), None)
        if param in notified or (param or t) in seen or not t:
            continue
        seen.add(param or t)
        sender, blocks = None, env.get(m.group(2), 0)
        for sib in sorted(case.pto.parent.glob("*.pto")) + list(given):
            if sib == case.pto or not sib.is_file():
                continue
            stext = sib.read_text(errors="replace")
            sent = [n for n in _NOTIFY.finditer(stext) if tensor_name(n.group(1)) == t]
            if sent:
                sender = sib.resolve()
                value = scalar_values(stext, {}).get(sent[0].group(2), 1)
                if value > 1 and blocks % value == 0:
                    blocks //= value
                break
        out.append((sender, param, t, blocks))
    return out


def run_senders(v: Validator, case: Case, text: str, params: List[Param], plan: RankPlan,
                profile: str, work: Path) -> List[str]:
    """The launches that send what the kernel waits for, before it, on the
    same ranks: each sender with its own inputs (its golden script's, else
    seeded), as many blocks as the wait awaits notifies (one a block, as the
    samples' exports launch them); the counters it leaves on each rank
    become the kernel's inputs. Returns the senders' names."""
    ints = {p.name: int(p.value) for p in params if p.kind == "int" and p.value}
    names = []
    for sender, param, tensor, awaited in find_senders(case, text, params, ints, v.opts.sender or ()):
        if sender is None or param is None:
            raise CaseError("NEEDS-RANKS", f"on {plan.ranks} ranks it waits for {tensor}, which no kernel "
                                           f"of {case.pto.parent.name}/ notifies (the sample does not include "
                                           "the launch that sends it; --sender FILE.pto names one)")
        sc = make_case(sender, sample_root_of(sender), sender.name)
        stext = sender.read_text(errors="replace")
        # The sender under its own target (another sample's kernel may be).
        sprofile = v.opts.profile or case_profile(stext, sc.sample_root)
        sparams = v.setup(sc, stext, sprofile)
        splan = plan_ranks(v, sc, stext, sparams) or RankPlan(plan.ranks, plan.why)
        splan.ranks = plan.ranks
        swork = work / f"sender-{sender.stem}"
        swork.mkdir()
        ranks_inputs(v, sc, sparams, splan, sprofile, swork, SEED + 100)
        blocks = max(1, awaited)
        what = f"sender {sender.name}: "
        run_ranks_kernel(v, sc, sparams, splan, sprofile, blocks, swork, "", what)
        sroots = view_roots(stext, [p.name for p in sparams if p.kind == "ptr"])
        sparam = next((sroots[k] for k in sroots if k.startswith(f"%{tensor}__")), None)
        if sparam is None:
            raise CaseError("ERROR", f"{what}no parameter holds {tensor}")
        sp = next(p for p in sparams if p.name == sparam)
        wp = next(p for p in params if p.name == param)
        for r in range(plan.ranks):
            data = (rank_dir(swork, r) / f"{sp.board_name}.bin").read_bytes()
            dst = rank_dir(work, r) / f"{wp.board_name}.bin"
            # Both cases size the one window buffer from their own views of
            # it (the board's rule), so the sender's may reach further: the
            # elements at the case's offsets are its first bytes, and those
            # the sender never reached stay zero, as the host zeroes signals.
            size = dst.stat().st_size
            dst.write_bytes(data[:size] + bytes(max(0, size - len(data))))
        names.append(f"{sender.stem} x {blocks} blocks" + (f" ({sender.parent.parent.parent.name})"
                                                           if sender.parent != case.pto.parent else ""))
    return names


def ranks_compare(v: Validator, case: Case, params: List[Param], plan: RankPlan, profile: str,
                  work: Path, res: Result):
    """The compare per rank (the script, else the generator's default); PASS
    when every rank passes, else the first rank's FAIL line."""
    abs_errs, rel_errs = [], []
    for r in range(plan.ranks):
        d = rank_dir(work, r)
        a, rel = errors(params, d)
        abs_errs += [a] if a is not None else []
        rel_errs += [rel] if rel is not None else []
        if case.compare is None:
            ok, why = default_compare(params, d)
            if not ok:
                res.result, res.detail = "FAIL", f"rank {r}: {why}"
                break
            continue
        proc = run_step("compare script", [v.python, "compare.py"], d, v.timeout("compare"),
                        dict(v.script_env(case, profile), PTO_RANK=str(r), PTO_RANKS=str(plan.ranks)))
        if proc.returncode != 0:
            if proc.returncode < 0 or "Traceback (most recent call last)" in proc.stderr:
                e = script_failure(f"compare script {case.compare.name}", proc)
                raise CaseError(e.result, f"rank {r}: {e}")
            out = proc.stdout + "\n" + proc.stderr
            mismatch = [ln.strip() for ln in out.splitlines() if "[ERROR]" in ln and "compare failed" not in ln]
            res.result, res.detail = "FAIL", f"rank {r}: " + (mismatch[0] if mismatch else last_line(out))
            break
    else:
        res.result = "PASS"
    res.max_abs = max(abs_errs) if abs_errs else None
    res.max_rel = max(rel_errs) if rel_errs else None


def run_ranks_flow(v: Validator, case: Case, text: str, params: List[Param], plan: RankPlan,
                   profile: str, blocks: int, work: Path, res: Result):
    """The board flow on every rank: per-rank inputs, the senders of what
    the kernel waits for, the kernel on all ranks at once, and where no rank
    got a golden, the determinism check (inputs and senders again, a second
    job, each rank's outputs against its first); then the compare per rank."""
    ranks_inputs(v, case, params, plan, profile, work)
    senders = run_senders(v, case, text, params, plan, profile, work)
    res.seconds = run_ranks_kernel(v, case, params, plan, profile, blocks, work, "")
    outputs = [p for p in params if p.kind == "ptr" and p.written and p.used]
    golden = any((rank_dir(work, r) / f"golden_{p.board_name}.bin").is_file()
                 for r in range(plan.ranks) for p in outputs)
    if not golden:
        res.check = "determinism"
        for r in range(plan.ranks):
            for p in outputs:
                d = rank_dir(work, r)
                shutil.copyfile(d / f"{p.board_name}.bin", d / f"golden_{p.board_name}.bin")
        for r in range(plan.ranks):
            for f in rank_dir(work, r).glob("*"):
                if f.is_file() and not f.name.startswith("golden_"):
                    f.unlink()
        for s in work.glob("sender-*"):
            shutil.rmtree(s)
        ranks_inputs(v, case, params, plan, profile, work)
        run_senders(v, case, text, params, plan, profile, work)
        res.seconds = max(res.seconds, run_ranks_kernel(v, case, params, plan, profile, blocks, work, ""))
    else:
        res.check = "golden"
    ranks_compare(v, case, params, plan, profile, work, res)
    where = f"on {plan.ranks} ranks ({Path(v.rank_tools.mpiexec).name}; {plan.why})"
    if senders:
        where += "; after " + ", ".join(senders)
    res.detail = f"{res.detail} ({where})".strip() if res.detail else where


def run_case_flow(v: Validator, case: Case, text: str, params: List[Param], profile: str, blocks: int,
                  work: Path, res: Result):
    """A multi-card case on its ranks where it has more than one and
    mpiexec and pto-run-mpi are there; otherwise (and every other case) the
    board flow on one card, where a wait for a peer ends as NEEDS-RANKS,
    saying what is missing for its ranks."""
    plan = plan_ranks(v, case, text, params) if case.multi_card else None
    missing = v.rank_tools.missing() if plan is not None else ""
    if plan is not None and not missing:
        try:
            run_ranks_flow(v, case, text, params, plan, profile, blocks, work, res)
        except CaseError as e:
            if f"on {plan.ranks} ranks" in str(e):
                raise
            raise CaseError(e.result, f"{e} (on {plan.ranks} ranks, "
                                      f"{Path(v.rank_tools.mpiexec).name}; {plan.why})")
        return
    try:
        run_board_flow(v, case, params, profile, blocks, work, res)
    except CaseError as e:
        if e.result == "NEEDS-RANKS" and missing:
            raise CaseError(e.result, f"{e}; its {plan.ranks} ranks ({plan.why}) cannot run: {missing}")
        raise


# --------------------------------------------------------------------------
# Results decided by the sample rather than the kernel run: a golden the
# board's own run disagrees with (SAMPLE-DEFECT), a sample PTOAS expects to be
# rejected (XFAIL).

# (sample directory, testcases, why the board's result differs from the
# golden). Applied to a FAIL only, and only when every element outside the
# tolerance is one the golden leaves zero (rows it does not compute): a wrong
# value anywhere else stays FAIL.
SAMPLE_DEFECTS = [
    (re.compile(r"^Qwen3Decode(A3|A5)$"), ("out_proj_residual", "down_proj_residual"),
     "the golden computes the rows of one vector sub-block and leaves the other's zero "
     "(qwen3_decode_golden_lib.py _select_aiv_subblock, sub-block 0: main.cpp declares no "
     "sub-block index, since generate_testcase.py binds the vector function's "
     "%__pypto_spmd_subblock_idx to get_subblockid()), while the board's mixed launch runs "
     "both vector sub-blocks of the block (pto-isa a2a3/ and a5/ TPop.hpp hand each its half "
     "by get_subblockid()) and the second writes rows 8-15, as libpto does"),
]


def only_unset_rows_differ(params: List[Param], work: Path) -> bool:
    """Whether the outputs differ from their goldens (beyond the generated
    compare's tolerance) only at elements the golden leaves zero."""
    import numpy as np
    differs = False
    for p in params:
        if p.kind != "ptr" or not p.written or not (work / f"golden_{p.board_name}.bin").is_file():
            continue
        dt = np.dtype(DTYPES[p.dtype][0])
        g = as_float(np.fromfile(work / f"golden_{p.board_name}.bin", dtype=dt), p.dtype)
        o = as_float(np.fromfile(work / f"{p.board_name}.bin", dtype=dt), p.dtype)
        if g.shape != o.shape:
            return False
        eps = {"f32": 1e-4, "f16": 1e-2, "bf16": 2.0 ** -7}.get(p.dtype, 0.0)
        bad = ~np.isclose(o, g, atol=eps, rtol=eps, equal_nan=True)
        if np.any(bad & (g != 0)):
            return False
        differs = differs or bool(bad.any())
    return differs


def sample_defect(case: Case, params: List[Param], work: Path, res: Result):
    for sample, testcases, why in SAMPLE_DEFECTS:
        if (sample.match(case.sample_root.name) and case.testcase in testcases
                and only_unset_rows_differ(params, work)):
            res.result = "SAMPLE-DEFECT"
            res.detail = f"{res.detail} (the sample's defect, the board fails too: {why})"
            return


def comm_context_read(case: Case, res: Result):
    """A multi-card kernel's scalar read past a pointer's buffer on one card:
    PyPTO's CommRemoteOffset helpers read the communication context (rank
    pair at element 2, window offsets from element 4), which the multi-card
    launcher supplies; the one-card run can only give that pointer the
    board's fallback size. The case waits for its ranks, not a defect."""
    if case.multi_card and res.result == "DEFECT" and SCALAR_OUTSIDE.search(res.detail):
        res.result = "NEEDS-RANKS"
        res.detail = (res.detail.split(" (the kernel's defect:")[0] + " (a multi-card kernel reading "
                      "its communication context, which only its ranks' launcher fills: run its ranks "
                      "with mpiexec and pto-run-mpi, docs/multi-card.md)")


def expected_rejection(case: Case, res: Result):
    """runop.sh's expect_fail: a `*_invalid` / `*_xfail` sample must fail to
    compile (XFAIL on the board); libpto refusing it is that outcome."""
    if re.search(r"_(invalid|xfail)$", case.testcase) and res.result in ("REFUSED", "DEFECT"):
        res.result = "XFAIL"
        res.detail = (f"{res.detail} (refused, as PTOAS expects: runop.sh's *_invalid / *_xfail "
                      "samples must fail to compile)")


# PyPTO's launch parameters. libpto's launch binds entry parameters of these
# names to the block's identity (docs/pto-assembly.md), as PyPTO's launcher
# does; the board's generate_testcase.py passes them as the integer
# arguments they are in the kernel's C++ (its per-case values, else 1) to a
# launch of one block. The vector sub-block's index stays the launch's (the
# generator binds it to get_subblockid()).
LAUNCH_PARAMS = re.compile(r"%__pypto_spmd_(block_idx|block_num)\b")
# Their names in the copy pto-run runs: as long as the originals, so that
# every location (line, column) in pto-run's messages is the sample's.
BOARD_PARAM = "__board_spmd_"


def launch_params_as_arguments(case: Case, text: str, work: Path) -> str:
    """A kernel with PyPTO's block index or count parameters runs as a copy
    in which they are ordinary integer parameters (renamed), so that they
    take the generator's values; returns the text pto-run runs."""
    if not LAUNCH_PARAMS.search(text):
        return text
    text = LAUNCH_PARAMS.sub(lambda m: "%" + BOARD_PARAM + m.group(1), text)
    (work / "kernel").mkdir()
    case.kernel = work / "kernel" / case.pto.name
    case.kernel.write_text(text, encoding="utf-8")
    return text


def validate_case(v: Validator, case: Case) -> Result:
    res = Result(case=case.name, check="-")
    if case.pto is None:
        res.result = "NEEDS-PTOAS-PY"
        res.detail = "a Python builder: needs PTOAS's Python package to print its .pto (or give --pto FILE.pto)"
        return res
    work = Path(tempfile.mkdtemp(prefix="pto-validate-", dir=v.opts.scratch))
    case.kernel = None
    params = None
    try:
        text = case.pto.read_text(encoding="utf-8", errors="replace")
        # A multi-card kernel runs as the board flow runs it, on one card:
        # its peers' pointers are buffers of this card; a wait for a signal
        # only the other ranks send makes it NEEDS-RANKS (refusal_or_failure).
        case.multi_card = "pto.comm." in text
        text = case.text = launch_params_as_arguments(case, text, work)
        profile = v.opts.profile or case_profile(text, case.sample_root, case.testcase)
        blocks = v.opts.blocks or case_blocks(text, case.testcase)
        params = v.setup(case, text, profile)
        v.describe(params, work)
        run_case_flow(v, case, text, params, profile, blocks, work, res)
        if res.result == "FAIL":
            sample_defect(case, params, work, res)
    except CaseError as e:
        res.result, res.detail = e.result, str(e)
        if DIVISION_BY_ZERO.search(res.detail) and params is not None and zero_integer_inputs(params, work):
            res.detail += ("; the divisor comes from the case's inputs, every integer input zero as its "
                           "golden script (or the generator) writes them")
    except OSError as e:
        res.result, res.detail = "ERROR", f"{e.filename or ''}: {e.strerror}".lstrip(": ")
    finally:
        res.detail = res.detail.replace("%" + BOARD_PARAM, "%__pypto_spmd_")
        if v.opts.keep:
            res.detail = (res.detail + f" (scratch kept: {work})").strip()
        else:
            shutil.rmtree(work, ignore_errors=True)
    comm_context_read(case, res)
    expected_rejection(case, res)
    return res


# --------------------------------------------------------------------------
# The command line.

FAILING = ("FAIL", "DEFECT", "SAMPLE-DEFECT", "REFUSED", "ERROR", "TIMEOUT")


def fmt(x: Optional[float]) -> str:
    return "-" if x is None else f"{x:.3g}"


def find_pto_run(opts: argparse.Namespace) -> str:
    for cand in (opts.pto_run, os.environ.get("PTO_RUN"),
                 str(Path(__file__).resolve().parent / "pto-run")):
        if cand and Path(cand).is_file() and os.access(cand, os.X_OK):
            return os.path.abspath(cand)
    found = shutil.which("pto-run")
    if found:
        return os.path.abspath(found)
    raise SystemExit("pto-validate: pto-run not found (give --pto-run PATH or set PTO_RUN)")


def parse_args(argv: Optional[Sequence[str]]) -> argparse.Namespace:
    ap = argparse.ArgumentParser(
        prog="pto-validate",
        description="PTOAS's board validation on libpto: each sample's golden script, its kernel "
                    "run with pto-run, its compare script; PASS/FAIL with the largest errors.")
    ap.add_argument("sample", nargs="?", type=Path, help="a sample's .pto file (or its Python builder)")
    ap.add_argument("--all", type=Path, metavar="DIR",
                    help="every case of a sample tree (a PTOAS checkout or its test/samples)")
    ap.add_argument("--pto", type=Path, help="the .pto a Python builder prints, built elsewhere")
    ap.add_argument("--pto-run", help="the pto-run to use (default: $PTO_RUN, beside this tool, $PATH)")
    ap.add_argument("--board", action="store_true", help="pass --board to pto-run (the board mode)")
    ap.add_argument("--profile", choices=["A2A3", "A5"], help="override the case's target")
    ap.add_argument("--blocks", type=int, help="override the launch's block count")
    ap.add_argument("--timeout", type=float, default=600.0, help="seconds per step (default 600)")
    ap.add_argument("--golden-timeout", type=float, help="seconds for a golden script")
    ap.add_argument("--run-timeout", type=float, help="seconds for a pto-run step")
    ap.add_argument("--compare-timeout", type=float, help="seconds for a compare script")
    ap.add_argument("--comm-timeout", type=float, default=5.0,
                    help="seconds a multi-card kernel's pto.comm.twait waits on one card before "
                         "the case is NEEDS-RANKS (PTO_COMM_TIMEOUT of its run; default 5)")
    ap.add_argument("--ranks", type=int, metavar="N",
                    help="run multi-card cases on N ranks (mpiexec -n N pto-run-mpi; 1: on one card); "
                         "default: the case's own count (its collective's group, the export's --ep, "
                         "its loop over the ranks)")
    ap.add_argument("--mpiexec", help="the MPI launcher (default: $MPIEXEC, else the one of the MPI "
                                      "pto-run-mpi is linked with, else mpiexec)")
    ap.add_argument("--pto-run-mpi", help="the pto-run-mpi to use (default: $PTO_RUN_MPI, beside pto-run, $PATH)")
    ap.add_argument("--sender", type=Path, action="append", metavar="FILE.pto",
                    help="on ranks: a kernel that notifies a counter the case waits for, when its sample "
                         "has none (repeatable; run first, under its own target)")
    ap.add_argument("--ranks-comm-timeout", type=float, default=30.0,
                    help="seconds a pto.comm.twait waits on its ranks (PTO_COMM_TIMEOUT; default 30)")
    ap.add_argument("--python", help="the interpreter for the scripts (default: this one)")
    ap.add_argument("--scratch", help="where scratch directories go (default: $TMPDIR)")
    ap.add_argument("--keep", action="store_true", help="keep each case's scratch directory")
    ap.add_argument("--filter", help="--all: only cases whose name contains this")
    ap.add_argument("--markdown", action="store_true",
                    help="--all: the summary table in Markdown (one row a case, as docs/validation.md's)")
    opts = ap.parse_args(argv)
    if (opts.sample is None) == (opts.all is None):
        ap.error("give one sample or --all DIR")
    return opts


def print_table(results: List[Result], out=sys.stdout, markdown: bool = False):
    """The summary table: aligned columns, or (markdown) a Markdown table
    whose cells are the fields themselves (a '|' in a detail escaped)."""
    if markdown:
        out.write("| case | result | check | max abs | max rel | time s | detail |\n")
        out.write("|---|---|---|---|---|---|---|\n")
        for r in results:
            cells = [r.case, r.result, r.check or "-", fmt(r.max_abs), fmt(r.max_rel), fmt(r.seconds), r.detail]
            out.write("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |\n")
    else:
        width = max([4] + [len(r.case) for r in results])
        out.write(f"{'case':<{width}}  {'result':<14} {'check':<11} {'max abs':>9} {'max rel':>9} {'time s':>8}  detail\n")
        for r in results:
            out.write(f"{r.case:<{width}}  {r.result:<14} {r.check:<11} {fmt(r.max_abs):>9} {fmt(r.max_rel):>9} "
                      f"{fmt(r.seconds):>8}  {r.detail}\n")
    counts: Dict[str, int] = {}
    for r in results:
        counts[r.result] = counts.get(r.result, 0) + 1
    out.write(f"{len(results)} cases: " + ", ".join(f"{k} {counts[k]}" for k in sorted(counts)) + "\n")


def main(argv: Optional[Sequence[str]] = None) -> int:
    opts = parse_args(argv)
    pto_run = find_pto_run(opts)
    if opts.board:
        helptext = subprocess.run([pto_run, "--help"], capture_output=True, text=True).stdout
        if "--board" not in helptext:
            print(f"pto-validate: {pto_run} has no --board option (a pto-run without the board mode)",
                  file=sys.stderr)
            return 2
    if opts.scratch and not Path(opts.scratch).is_dir():
        print(f"pto-validate: --scratch {opts.scratch}: no such directory", file=sys.stderr)
        return 2
    v = Validator(opts, pto_run)
    v.rank_tools = RankTools(opts, pto_run)
    if opts.all is not None:
        if not opts.all.is_dir():
            print(f"pto-validate: {opts.all}: no such directory", file=sys.stderr)
            return 2
        cases = [c for c in discover(opts.all) if not opts.filter or opts.filter in c.name]
    else:
        if not opts.sample.is_file():
            print(f"pto-validate: {opts.sample}: no such file", file=sys.stderr)
            return 2
        cases = [make_case(opts.sample, sample_root_of(opts.sample), str(opts.sample), opts.pto)]
    results = []
    for case in cases:
        res = validate_case(v, case)
        results.append(res)
        print(f"{res.result} {res.case} ({res.check}, max abs {fmt(res.max_abs)}, max rel "
              f"{fmt(res.max_rel)}, {fmt(res.seconds)} s){': ' + res.detail if res.detail else ''}",
              flush=True)
    if opts.all is not None:
        print()
        print_table(results, markdown=opts.markdown)
    if opts.sample is not None:
        return 0 if results[0].result in ("PASS", "XFAIL") else 1
    return 1 if any(r.result in FAILING for r in results) else 0


def entry() -> int:
    try:
        return main()
    except KeyboardInterrupt:
        print("pto-validate: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(entry())
