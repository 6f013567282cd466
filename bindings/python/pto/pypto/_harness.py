"""run and run_jit: pypto-lib's golden.run and golden.run_jit, on libpto.

The same arguments and the same stages as pypto-lib's harness (compile,
inputs from the specs, the golden on clones of them, the run, the comparison
by golden.validate_golden with the caller's rtol, atol and compare_fn), with
the compile stopped before ptoas and the run on libpto's host runtime. The
result says PASS or FAIL, the largest errors per output and each stage's time.
"""

from __future__ import annotations

import dataclasses
import os
import time
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Tuple

from . import _compile, _distributed, _runtime
from ._common import Platform, PyptoError, platform, require

# runtime_cfg keys of golden.run that concern an NPU or simpler's runtime
# (device selection, swimlanes, profiling dumps, AICPU threads, ring sizes):
# accepted and ignored here.
_DEVICE_KEYS = ("device_id", "enable_chip_swimlane", "enable_dump_args", "enable_pmu", "enable_dep_gen",
                "enable_scope_stats", "log_level", "level", "aicpu_thread_num", "analyze_auto_scopes_for_deps",
                "ring_heap")

DEFAULT_PLATFORM = "a5"


@dataclasses.dataclass
class RunResult:
    """What run and run_jit return: golden.runner.RunResult's fields
    (passed, error, execution_time, work_dir, bench) and libpto's figures:
    the platform, the number of kernels, each stage's seconds (compile:
    PyPTO's passes and codegen plus libpto's verification; prepare: the
    orchestration's C++ compile or cache hit; run: the orchestration on the
    host runtime; golden: the torch reference, on golden_threads torch
    threads) and the process's CPU seconds in the run and the golden
    (cpu_times: on a busy machine they compare where wall times do not), the tasks the run launched and the most at once, and per output
    its largest absolute and relative error against the golden; board: the
    run was in libpto's board mode, board_warnings its warnings' counts by
    rule (the session's verification and run); kernel_times (runtime_cfg's
    "profile") each kernel's tasks and their summed seconds in the run;
    order the tasks' orders ("all", or "pto2": runtime_cfg's "order");
    reruns (runtime_cfg's "compare_workers") one Rerun per further run of
    the orchestration on the same inputs, each with its worker count,
    verdict and seconds (passed holds only when every run passed)."""

    passed: bool
    error: Optional[str] = None
    execution_time: Optional[float] = None
    work_dir: Optional[Path] = None
    bench: Any = None
    platform: str = DEFAULT_PLATFORM
    kernels: int = 0
    workers: Optional[int] = None
    times: Dict[str, float] = dataclasses.field(default_factory=dict)
    cpu_times: Dict[str, float] = dataclasses.field(default_factory=dict)
    tasks: int = 0
    max_concurrent: int = 0
    max_errors: Dict[str, Tuple[float, float]] = dataclasses.field(default_factory=dict)
    golden_threads: int = 0
    board: bool = False
    board_warnings: Dict[str, int] = dataclasses.field(default_factory=dict)
    kernel_times: Dict[str, Tuple[int, float]] = dataclasses.field(default_factory=dict)
    order: str = "all"
    reruns: List["Rerun"] = dataclasses.field(default_factory=list)

    def board_text(self) -> str:
        """"board mode, N warnings: COUNT x RULE; ..." ("" when not in board mode)."""
        if not self.board:
            return ""
        total = sum(self.board_warnings.values())
        text = f"board mode, {total} warning{'s' if total != 1 else ''}"
        rules = sorted(self.board_warnings.items(), key=lambda kv: -kv[1])
        if rules:
            text += ": " + "; ".join(f"{n} x {rule}" for rule, n in rules[:4])
            text += f"; {len(rules) - 4} more rules" if len(rules) > 4 else ""
        return text

    def __str__(self) -> str:
        verdict = "PASS" if self.passed else "FAIL"
        times = ", ".join(f"{k} {v:.3f}s" for k, v in self.times.items())
        text = f"{verdict} on libpto ({self.platform}, {self.kernels} kernels"
        text += f", {self.board_text()}" if self.board else ""
        text += ", PTO2's orders" if self.order == "pto2" else ""
        text += f", {self.tasks} tasks" if self.tasks else ""
        text += f"; {times}" if times else ""
        cpu = ", ".join(f"{k} {v:.3f}s" for k, v in self.cpu_times.items())
        text += f"; CPU {cpu})" if cpu else ")"
        if not self.passed and self.error:
            text += f": {self.error}"
        return text

    def as_dict(self) -> Dict[str, Any]:
        """The result's fields as JSON's types (work_dir a string, bench left out)."""
        d = dataclasses.asdict(self)
        d.pop("bench")
        d["work_dir"] = str(self.work_dir) if self.work_dir is not None else None
        d["max_errors"] = {k: list(v) for k, v in self.max_errors.items()}
        d["kernel_times"] = {k: list(v) for k, v in self.kernel_times.items()}
        return d

    def report(self) -> str:
        """The result's lines: the verdict, each rerun's, then each output's
        largest errors (the first run's) and the profile."""
        lines = [str(self)] + [f"  {r}" for r in self.reruns]
        for name, (abs_err, rel_err) in self.max_errors.items():
            lines.append(f"  {name}: max abs error {abs_err:.3g}, max rel error {rel_err:.3g}")
        busy = sum(seconds for _, seconds in self.kernel_times.values())
        for name, (tasks, seconds) in sorted(self.kernel_times.items(), key=lambda kv: -kv[1][1]):
            share = seconds / busy if busy > 0 else 0.0
            lines.append(f"  kernel {name}: {tasks} task{'s' if tasks != 1 else ''}, {seconds:.4f}s"
                         f" ({share:.0%} of the kernels' time)")
        return "\n".join(lines)


@dataclasses.dataclass
class Rerun:
    """One further run of a result's orchestration (runtime_cfg's
    "compare_workers"): its worker count, its verdict by the same
    comparison (error: why it failed), its wall and CPU seconds."""

    workers: int
    passed: bool
    run: float
    run_cpu: float
    error: Optional[str] = None

    def __str__(self) -> str:
        text = (f"rerun on {self.workers} worker{'s' if self.workers != 1 else ''}: {'PASS' if self.passed else 'FAIL'}"
                f" (run {self.run:.3f}s; CPU run {self.run_cpu:.3f}s)")
        return text + (f": {self.error}" if not self.passed and self.error else "")


def _as_float64(t: Any) -> Any:
    """A float64 numpy copy of a torch tensor or numpy array."""
    import numpy as np

    if hasattr(t, "detach"):
        return t.detach().cpu().double().numpy()
    return np.asarray(t, dtype=np.float64)


def largest_errors(actual: Any, expected: Any) -> Tuple[float, float]:
    """(largest |a - e|, largest |a - e| / |e| over finite e != 0), NaN
    where a non-finite value differs from the golden's (both NaN, or equal
    infinities, count as equal)."""
    import numpy as np

    a, e = _as_float64(actual).ravel(), _as_float64(expected).ravel()
    if a.shape != e.shape:
        return float("nan"), float("nan")
    same = (a == e) | (np.isnan(a) & np.isnan(e))
    with np.errstate(invalid="ignore", over="ignore"):
        diff = np.where(same, 0.0, np.abs(a - e))
        if np.isnan(diff).any():
            return float("nan"), float("nan")
        finite = (e != 0) & np.isfinite(e)
        rel = diff[finite] / np.abs(e[finite]) if finite.any() else np.zeros(1)
    return (float(diff.max()) if diff.size else 0.0), (float(rel.max()) if rel.size else 0.0)


def _target(runtime_cfg: Dict[str, Any]) -> Platform:
    return platform(runtime_cfg.get("platform") or DEFAULT_PLATFORM)


def _workers(runtime_cfg: Dict[str, Any]) -> Optional[int]:
    w = runtime_cfg.get("workers")
    if w is None:
        env = os.environ.get("PTO_PYPTO_WORKERS")
        w = int(env) if env else None
    if w is not None and (not isinstance(w, int) or w < 1):
        raise PyptoError(f"workers must be a positive integer, not {w!r}")
    return w


def _compare_workers(runtime_cfg: Dict[str, Any]) -> List[int]:
    counts = runtime_cfg.get("compare_workers") or []
    if isinstance(counts, int) or not all(isinstance(w, int) and not isinstance(w, bool) and w >= 1 for w in counts):
        raise PyptoError(f"compare_workers must be a list of positive integers, not {counts!r}")
    return list(counts)


def _check_runtime_cfg(runtime_cfg: Dict[str, Any]) -> None:
    unknown = sorted(set(runtime_cfg) - set(_DEVICE_KEYS) -
                     {"platform", "workers", "board", "profile", "order", "compare_workers"})
    if unknown:
        raise PyptoError(f"runtime_cfg has keys libpto does not know: {', '.join(unknown)}")


def _golden_inputs(specs: List[Any], golden_data: Optional[str]) -> Tuple[Dict[str, Any], Dict[str, Any]]:
    """(tensors by name, a snapshot of every input's values) as golden.run
    makes them: each TensorSpec's create_tensor(), or golden_data's
    in/NAME.pt (pure outputs zero); scalars as their specs hold them."""
    tensors: Dict[str, Any] = {}
    scalars: Dict[str, Any] = {}
    for spec in specs:
        if _is_tensor_spec(spec):
            if golden_data is not None and (not spec.is_output or spec.init_value is not None):
                torch = require("torch")
                tensors[spec.name] = torch.load(Path(golden_data) / "in" / f"{spec.name}.pt", weights_only=True)
            elif golden_data is not None:
                tensors[spec.name] = _zeros_like_spec(spec)
            else:
                tensors[spec.name] = spec.create_tensor()
        else:
            scalars[spec.name] = spec
    return tensors, scalars


def _zeros_like_spec(spec: Any) -> Any:
    torch = require("torch")
    return torch.zeros(spec.shape, dtype=spec.dtype)


def _is_tensor_spec(spec: Any) -> bool:
    return hasattr(spec, "shape") and hasattr(spec, "is_output")


def _clone(t: Any) -> Any:
    return t.clone() if hasattr(t, "clone") else t.copy()


def _scalar_python(spec: Any) -> Any:
    return spec.to_python() if hasattr(spec, "to_python") else spec.value


def _scalar_arg(spec: Any) -> Any:
    return spec.to_ctypes() if hasattr(spec, "to_ctypes") else spec.value


def _compute_golden(specs: List[Any], tensors: Dict[str, Any], scalars: Dict[str, Any],
                    golden_fn: Optional[Callable[[Dict[str, Any]], None]],
                    golden_data: Optional[str]) -> Dict[str, Any]:
    """The golden outputs: golden_data's out/NAME.pt, else golden_fn on
    clones of the tensors before the run (pure outputs are still zero) and
    the scalars' Python values, as golden.run computes them."""
    outputs = [s for s in specs if _is_tensor_spec(s) and s.is_output]
    if golden_data is not None:
        torch = require("torch")
        return {s.name: torch.load(Path(golden_data) / "out" / f"{s.name}.pt", weights_only=True) for s in outputs}
    assert golden_fn is not None
    scratch: Dict[str, Any] = {}
    for spec in specs:
        if _is_tensor_spec(spec):
            scratch[spec.name] = _clone(tensors[spec.name])
        else:
            scratch[spec.name] = _scalar_python(scalars[spec.name])
    golden_fn(scratch)
    return {s.name: scratch[s.name] for s in outputs}


def _run(compile_step: Callable[[Platform], Any], specs: List[Any], golden_fn: Optional[Callable[..., Any]],
         golden_data: Optional[str], runtime_cfg: Optional[Dict[str, Any]], rtol: float, atol: float,
         compare_fn: Optional[Dict[str, Callable[..., Any]]], compile_only: bool, runtime_dir: Optional[str]) -> RunResult:
    start = time.perf_counter()
    runtime_cfg = dict(runtime_cfg or {})
    _check_runtime_cfg(runtime_cfg)
    target = _target(runtime_cfg)
    workers = _workers(runtime_cfg)
    board = bool(runtime_cfg.get("board", False))
    profile = bool(runtime_cfg.get("profile", False))
    order = str(runtime_cfg.get("order", "all"))
    _runtime.check_order(order)
    compare_workers = _compare_workers(runtime_cfg)
    require("torch")
    golden = require("golden")
    result = RunResult(passed=False, platform=target.name, workers=workers, board=board, order=order)

    t0 = time.perf_counter()
    if runtime_dir is not None:
        if compile_only:
            raise PyptoError("runtime_dir is incompatible with compile_only")
        compiled = _compile.read_table(Path(runtime_dir).resolve())
    else:
        compiled = compile_step(target)
    result.work_dir = compiled.output_dir
    if isinstance(compiled, _distributed.Build):
        if board or profile or order != "all" or compare_workers:
            what = ("board mode" if board else "profile" if profile else "order" if order != "all"
                    else "compare_workers")
            raise PyptoError(f"{what} is not offered for a multi-card program")
        result.kernels = sum(_compile.verify_kernels(c, target) for c in compiled.chips.values())
        result.times["compile"] = time.perf_counter() - t0
        if compile_only:
            result.passed = True
            result.execution_time = time.perf_counter() - start
            return result
        return _distributed.run(compiled, target, workers, specs, golden_fn, golden_data, rtol, atol, compare_fn,
                                result, start)
    result.kernels = _compile.verify_kernels(compiled, target, board=board)
    result.times["compile"] = time.perf_counter() - t0
    if compile_only:
        result.passed = True
        result.execution_time = time.perf_counter() - start
        return result

    tensors, scalars = _golden_inputs(specs, golden_data)
    # The reruns start from the inputs as the first run found them.
    pristine = {name: _clone(t) for name, t in tensors.items()} if compare_workers else {}
    expected: Optional[Dict[str, Any]] = None
    if golden_fn is not None or golden_data is not None:
        t0, c0 = time.perf_counter(), time.process_time()
        expected = _compute_golden(specs, tensors, scalars, golden_fn, golden_data)
        result.times["golden"] = time.perf_counter() - t0
        result.cpu_times["golden"] = time.process_time() - c0
        threads = getattr(require("torch"), "get_num_threads", None)
        result.golden_threads = threads() if threads else 0

    _run_once(result, compiled.output_dir, specs, tensors, scalars, profile)
    if expected is None:
        result.passed = True
        result.error = "validation skipped: no golden_fn or golden_data"
    else:
        judge(result, golden, specs, tensors, scalars, expected, rtol, atol, compare_fn)
    for count in compare_workers:
        again = RunResult(passed=expected is None, platform=target.name, workers=count, board=board, order=order)
        fresh = {name: _clone(t) for name, t in pristine.items()}
        _run_once(again, compiled.output_dir, specs, fresh, scalars, False)
        if expected is not None:
            judge(again, golden, specs, fresh, scalars, expected, rtol, atol, compare_fn)
        result.reruns.append(Rerun(count, again.passed, again.times["run"], again.cpu_times["run"], again.error))
        if not again.passed and result.passed:
            result.passed = False
            result.error = f"the run on {count} workers: {again.error}"
    result.execution_time = time.perf_counter() - start
    return result


def _run_once(result: RunResult, output_dir: Path, specs: List[Any], tensors: Dict[str, Any],
              scalars: Dict[str, Any], profile: bool) -> None:
    """One run of the orchestration in output_dir on result.workers threads
    over tensors (written in place): its prepare and run seconds, CPU
    seconds, board warnings and task counts into result."""
    t0 = time.perf_counter()
    with _runtime.Session(output_dir, result.workers, board=result.board, order=result.order) as session:
        result.times["prepare"] = time.perf_counter() - t0
        if profile:
            session.set_tap(lambda task: _count_kernel(result.kernel_times, task))
        tensor_args = [tensors[s.name] for s in specs if _is_tensor_spec(s)]
        scalar_args = [_scalar_arg(scalars[s.name]) for s in specs if not _is_tensor_spec(s)]
        c0 = time.process_time()
        try:
            result.times["run"] = session.run(tensor_args, scalar_args)
            result.cpu_times["run"] = time.process_time() - c0
        finally:
            result.board_warnings = dict(session.board_warnings)
        result.tasks, result.max_concurrent = session.stats()


def _count_kernel(kernel_times: Dict[str, Tuple[int, float]], task: Any) -> None:
    """The profile's tap: one more task of task.kernel, its seconds added."""
    tasks, seconds = kernel_times.get(task.kernel, (0, 0.0))
    kernel_times[task.kernel] = (tasks + 1, seconds + (task.end_ns - task.start_ns) * 1e-9)


def judge(result: RunResult, golden: Any, specs: List[Any], tensors: Dict[str, Any], scalars: Dict[str, Any],
          expected: Dict[str, Any], rtol: float, atol: float,
          compare_fn: Optional[Dict[str, Callable[..., Any]]]) -> None:
    """The verdict on the run's outputs: each one's largest errors, then
    golden.validate_golden with the caller's tolerances and comparators."""
    outputs = {s.name: tensors[s.name] for s in specs if _is_tensor_spec(s) and s.is_output}
    for name, actual in outputs.items():
        result.max_errors[name] = largest_errors(actual, expected[name])
    inputs = {s.name: tensors[s.name] for s in specs if _is_tensor_spec(s) and not s.is_output}
    inputs.update({name: spec.value for name, spec in scalars.items()})
    try:
        golden.validate_golden(outputs, expected, rtol=rtol, atol=atol, compare_fn=compare_fn or {},
                               inputs=inputs)
        result.passed = True
    except AssertionError as e:
        result.error = str(e)


def _with_board(runtime_cfg: Optional[Dict[str, Any]], board: bool) -> Optional[Dict[str, Any]]:
    """runtime_cfg with board mode on when board is (else as given)."""
    return dict(runtime_cfg or {}, board=True) if board else runtime_cfg


def run(program: Any, specs: List[Any], golden_fn: Optional[Callable[..., Any]] = None, golden_data: Optional[str] = None,
        compile_cfg: Optional[Dict[str, Any]] = None, runtime_cfg: Optional[Dict[str, Any]] = None,
        rtol: float = 1e-5, atol: float = 1e-5, compare_fn: Optional[Dict[str, Callable[..., Any]]] = None,
        compile_only: bool = False, runtime_dir: Optional[str] = None, save_data: bool = False,
        board: bool = False) -> RunResult:
    """golden.run on libpto: compiles program (a @pl.program class or an
    ir.Program) with PyPTO for runtime_cfg["platform"]'s backend (a5, a5sim:
    Ascend950; a2a3, a2a3sim: Ascend910B; default a5) without ptoas, verifies
    the kernels with libpto under that target's profile, runs the
    orchestration on libpto's host runtime (runtime_cfg["workers"] threads,
    default every CPU) and compares the outputs with golden_fn's (or
    golden_data's) through golden.validate_golden with rtol, atol and
    compare_fn. board=True (or runtime_cfg["board"]) verifies and runs the
    kernels in libpto's board mode (pto_runtime_set_board_mode): a rule
    pto-isa's implementation leaves unchecked runs as the NPU runs it, each
    occurrence a warning, counted by rule in the result's board_warnings.
    save_data is accepted and ignored (nothing is written but the compile's
    output). Raises PyptoError for what cannot run; returns a RunResult
    whose passed is the comparison's verdict."""
    del save_data
    runtime_cfg = _with_board(runtime_cfg, board)

    def compile_step(target: Platform) -> Any:
        compiled, recorder = _compile.compile_program(program, target, compile_cfg)
        return _distributed.one_build(compiled, recorder)

    return _run(compile_step, specs, golden_fn, golden_data, runtime_cfg, rtol, atol, compare_fn, compile_only,
                runtime_dir)


def run_jit(fn: Any, specs: List[Any], golden_fn: Optional[Callable[..., Any]] = None, golden_data: Optional[str] = None,
            compile_cfg: Optional[Dict[str, Any]] = None, runtime_cfg: Optional[Dict[str, Any]] = None,
            rtol: float = 1e-5, atol: float = 1e-5, compare_fn: Optional[Dict[str, Callable[..., Any]]] = None,
            compile_only: bool = False, runtime_dir: Optional[str] = None, save_data: bool = False,
            board: bool = False) -> RunResult:
    """golden.run_jit on libpto: fn (a @pl.jit function) compiled for the
    specs' shapes and dtypes as golden.run_jit compiles it, then as run."""
    del save_data
    runtime_cfg = _with_board(runtime_cfg, board)

    def compile_step(target: Platform) -> Any:
        torch = require("torch")
        dummy = [s.value.item() if not _is_tensor_spec(s) else torch.empty(s.shape, dtype=s.dtype) for s in specs]
        compiled, recorder = _compile.compile_jit(fn, dummy, target, compile_cfg)
        return _distributed.one_build(compiled, recorder)

    return _run(compile_step, specs, golden_fn, golden_data, runtime_cfg, rtol, atol, compare_fn, compile_only,
                runtime_dir)
