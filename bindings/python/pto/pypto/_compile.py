"""PyPTO's compile for libpto: .pto kernels, the orchestration, the kernel table.

PyPTO's ``ir.compile(..., skip_ptoas=True)`` writes ``kernels/aic|aiv/<fn>.pto``
(``kernels/<group>.pto`` for a mixed AIC/AIV group) and
``orchestration/<orch>.cpp`` and stops before ptoas; with skip_ptoas it writes
no ``kernel_config.py``, the table a runtime needs (each kernel's func id, core
type and argument directions). The orchestration codegen computes that table
(``generate_orchestration``'s result), so the compile here records the result as
the backend asks for it and writes the table as ``kernel_table.txt``, the host
runtime's format (include/pto_runtime.h). Every kernel
is then parsed and verified by libpto, under the platform's profile, before
anything runs.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import re
from pathlib import Path
from typing import Any, Callable, Dict, Iterator, List, NamedTuple, Optional, Tuple

from ._common import Platform, PyptoError, require

KERNEL_TABLE = "kernel_table.txt"


class Kernel(NamedTuple):
    """One row of the kernel table: the id the orchestration submits, the
    function's name, its core ("aic" or "aiv"), the .pto file defining it
    (relative to the output directory) and the values of its dynamic
    dimensions (the parameters after its scalars), each an expression of
    the runtime's `dims` form over the task's tensors' shapes."""

    func_id: int
    name: str
    core_type: str
    path: str
    dims: Tuple[str, ...] = ()


class Compiled(NamedTuple):
    """A program compiled for libpto: its output directory, the orchestration
    .cpp (absolute) and the kernel table."""

    output_dir: Path
    orchestration: Path
    kernels: Tuple[Kernel, ...]


class _Recorder:
    """Stands for PyPTO's codegen module inside its PTO backend during one
    compile: every name passes through, generate_orchestration's results are
    kept as (orchestration name, the program it was given, result)."""

    def __init__(self, core: Any) -> None:
        self._core = core
        self.results: List[Tuple[str, Any, Any]] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self._core, name)

    def generate_orchestration(self, program: Any, func: Any, *args: Any, **kwargs: Any) -> Any:
        result = self._core.generate_orchestration(program, func, *args, **kwargs)
        self.results.append((func.name, program, result))
        return result


@contextlib.contextmanager
def recording() -> Iterator[_Recorder]:
    """PyPTO's backend with its orchestration results recorded, and its JIT
    told that no ptoas is installed (so a @pl.jit compile skips ptoas too)."""
    backend: Any = require("pypto.backend.pto_backend")
    try:
        jit: Any = importlib.import_module("pypto.jit.decorator")
    except ImportError:
        jit = None
    saved = getattr(jit, "_ptoas_available", None)
    recorder = _Recorder(backend._codegen_core)
    backend._codegen_core = recorder
    if saved is not None:
        jit._ptoas_available = lambda: False
    try:
        yield recorder
    finally:
        backend._codegen_core = recorder._core
        if saved is not None:
            jit._ptoas_available = saved


def compile_program(program: Any, target: Platform, compile_cfg: Optional[Dict[str, Any]] = None,
                    output_dir: Optional[str] = None) -> Tuple[Any, _Recorder]:
    """ir.compile(program) with skip_ptoas for the target's backend; the
    compiled program and the recorded orchestration results."""
    ir = require("pypto.ir")
    backend_mod = require("pypto.backend")
    kwargs = dict(compile_cfg or {})
    kwargs["skip_ptoas"] = True
    kwargs.setdefault("backend_type", getattr(backend_mod.BackendType, target.backend))
    kwargs.setdefault("platform", target.name)
    if output_dir is not None:
        kwargs.setdefault("output_dir", output_dir)
    with recording() as recorder:
        compiled = ir.compile(program, **kwargs)
    return compiled, recorder


def compile_jit(fn: Any, dummy_args: List[Any], target: Platform,
                compile_cfg: Optional[Dict[str, Any]] = None) -> Tuple[Any, _Recorder]:
    """A @pl.jit function compiled as golden.run_jit compiles it, without
    ptoas; the compiled program and the recorded orchestration results."""
    runtime = require("pypto.runtime")
    cfg = dict(compile_cfg or {})
    cfg["platform"] = target.name
    with recording() as recorder:
        compiled = fn.compile(*dummy_args, config=runtime.RunConfig(**cfg))
    return compiled, recorder


_FUNC = re.compile(r"func\.func\s+(?:private\s+|public\s+)?@([A-Za-z_][\w$.]*)\s*\(")


def _functions_by_file(output_dir: Path) -> Dict[str, str]:
    """{function name: the .pto file defining it, relative to output_dir} over
    kernels/ (a definition's line ends with the body's `{`; a declaration of a
    peer has no body)."""
    found: Dict[str, str] = {}
    kernels = output_dir / "kernels"
    if not kernels.is_dir():
        return found
    for path in sorted(kernels.rglob("*.pto")):
        rel = path.relative_to(output_dir).as_posix()
        for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
            m = _FUNC.search(line)
            if m and line.rstrip().endswith("{"):
                found.setdefault(m.group(1), rel)
    return found


def _core_name(core_type: Any) -> str:
    name = getattr(core_type, "name", str(core_type)).upper()
    if name.endswith("VECTOR") or name.endswith("AIV"):
        return "aiv"
    if name.endswith("CUBE") or name.endswith("AIC"):
        return "aic"
    raise PyptoError(f"the orchestration codegen gave core type {core_type!r}, neither VECTOR nor CUBE")


_SHAPE = re.compile(r"static_cast<int64_t>\((\w+)_tensor->shapes\[(\d+)\]\)")
_DIM_LINE = re.compile(r"^\s*int64_t\s+\w+\s*=\s*(.*);\s*$")


def dynamic_dims(func: Any) -> Tuple[str, ...]:
    """The values of func's dynamic-dimension parameters (those after its
    scalars), in the runtime's `dims` form: PyPTO's own kernel-wrapper
    unpacking (pto_backend._generate_arg_unpacking) writes each as a C++
    expression over the tensors' shapes; shapes[D] of the tensor parameter
    called NAME becomes shape(T,D), T its place among the tensors."""
    backend = require("pypto.backend.pto_backend")
    tensors = [p.name_hint for p in func.params if isinstance(p.type, backend._ir_core.TensorType)]
    code, _names = backend._generate_arg_unpacking(func)
    dims: List[str] = []
    lines = code.splitlines()
    for i, line in enumerate(lines):
        if not line.strip().startswith("// Extract dynamic dim:"):
            continue
        m = _DIM_LINE.match(lines[i + 1]) if i + 1 < len(lines) else None
        if m is None:
            raise PyptoError(f"kernel {func.name}: PyPTO's unpacking of a dynamic dimension is not "
                             f"`int64_t NAME = EXPR;`: {lines[i + 1:i + 2]}")

        def tensor_dim(t: "re.Match[str]") -> str:
            if t.group(1) not in tensors:
                raise PyptoError(f"kernel {func.name}: dynamic dimension from {t.group(1)}, not a tensor parameter")
            return f"shape({tensors.index(t.group(1))},{t.group(2)})"

        dims.append(_SHAPE.sub(tensor_dim, m.group(1)).replace(" ", ""))
    return tuple(dims)


def kernel_table(output_dir: Path, orch_name: str, program: Any, result: Any) -> Compiled:
    """The kernel table of one orchestration from its codegen result and the
    program it was generated from; every kernel it submits must be defined
    by a .pto file under kernels/. Written as kernel_table.txt."""
    where = _functions_by_file(output_dir)
    cores = dict(result.func_name_to_core_type)
    rows = []
    for name, func_id in sorted(dict(result.func_name_to_id).items(), key=lambda kv: kv[1]):
        if name not in where:
            raise PyptoError(f"kernel {name} (func id {func_id}) has no .pto under {output_dir / 'kernels'}: "
                             "an external (pl.jit.extern) kernel libpto cannot run")
        func = program.get_function(name) if program is not None else None
        dims = dynamic_dims(func) if func is not None else ()
        rows.append(Kernel(int(func_id), name, _core_name(cores[name]), where[name], dims))
    orchestration = output_dir / "orchestration" / f"{orch_name}.cpp"
    if not orchestration.is_file():
        raise PyptoError(f"the compile wrote no {orchestration}")
    compiled = Compiled(output_dir, orchestration, tuple(rows))
    write_table(compiled)
    return compiled


def write_table(compiled: Compiled) -> Path:
    """kernel_table.txt in the output directory, the host runtime's format
    (include/pto_runtime.h): the orchestration, one `kernel ID CORE PATH
    FUNCTION` line per kernel and a `dims ID EXPR...` line for each kernel
    with dynamic dimensions."""
    lines = ["# written by pto.pypto from PyPTO's orchestration codegen",
             f"orchestration {os.path.relpath(compiled.orchestration, compiled.output_dir)}"]
    for k in compiled.kernels:
        lines.append(f"kernel {k.func_id} {k.core_type} {k.path} {k.name}")
        if k.dims:
            lines.append(f"dims {k.func_id} {' '.join(k.dims)}")
    path = compiled.output_dir / KERNEL_TABLE
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def read_table(output_dir: Path) -> Compiled:
    """The table write_table wrote (a runtime_dir replay)."""
    orchestration: Optional[Path] = None
    kernels: Dict[int, Kernel] = {}
    for line in (output_dir / KERNEL_TABLE).read_text(encoding="utf-8").splitlines():
        words = line.split("#", 1)[0].split()
        if not words:
            continue
        if words[0] == "orchestration":
            orchestration = output_dir / words[1]
        elif words[0] == "kernel":
            kernels[int(words[1])] = Kernel(int(words[1]), words[4] if len(words) > 4 else "", words[2], words[3])
        elif words[0] == "dims":
            kernels[int(words[1])] = kernels[int(words[1])]._replace(dims=tuple(words[2:]))
    if orchestration is None:
        raise PyptoError(f"{output_dir / KERNEL_TABLE} names no orchestration")
    return Compiled(output_dir, orchestration, tuple(kernels[i] for i in sorted(kernels)))


def single_orchestration(compiled_program: Any, recorder: _Recorder) -> Compiled:
    """The one orchestration of a single-card compile, with its kernel table;
    PyptoError for a multi-card program or one without an orchestration."""
    kind = type(compiled_program).__name__
    if kind == "DistributedCompiledProgram" or len(recorder.results) > 1:
        raise PyptoError(f"a multi-card program ({kind}, {len(recorder.results)} orchestrations): "
                         "pto.pypto runs single-card programs")
    output_dir = Path(str(getattr(compiled_program, "output_dir", compiled_program))).resolve()
    if not recorder.results:
        # A @pl.jit cache hit returns an earlier compile without codegen:
        # its table is the one written then.
        if (output_dir / KERNEL_TABLE).is_file():
            return read_table(output_dir)
        raise PyptoError("the compile generated no orchestration (a program without an orchestration function)")
    name, program, result = recorder.results[0]
    return kernel_table(output_dir, name, program, result)


def verify_kernels(compiled: Compiled, target: Platform,
                   program_class: Optional[Callable[..., Any]] = None, board: bool = False) -> int:
    """Parses and verifies every kernel of the table with libpto under the
    target's profile (each file and entry once), in board mode if board
    (its warnings on stderr; the run's session counts its own); PyptoError
    with the verifier's FILE:LINE:COL sentence for the first it refuses.
    Returns the number of kernels."""
    import pto

    make = program_class or pto.Program
    profile = pto.Profile[target.profile]
    texts: Dict[str, str] = {}
    was_board = pto.board_mode()
    pto.set_board_mode(board)
    try:
        for k in compiled.kernels:
            text = texts.get(k.path)
            if text is None:
                text = texts[k.path] = (compiled.output_dir / k.path).read_text(encoding="utf-8")
            try:
                make(text, profile=profile, name=str(compiled.output_dir / k.path), entry=k.name)
            except pto.ProgramError as e:
                raise PyptoError(f"libpto refuses kernel {k.name}: {e}") from e
    finally:
        pto.set_board_mode(was_board)
    return len(compiled.kernels)
