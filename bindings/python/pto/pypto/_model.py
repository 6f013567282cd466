"""A pypto-lib model file, unmodified, run on libpto.

A model's ``__main__`` block parses its arguments and calls pypto-lib's
harness, ``golden.run(program=..., specs=..., golden_fn=..., rtol=..., ...)``
(or ``golden.run_jit``) with the program, the specs, the golden and the
tolerances it is judged by. The file is run as ``__main__`` with
``-p PLATFORM`` and with golden.run and golden.run_jit standing for this
package's run and run_jit, so every argument of its call, tolerances and
comparators included, is the model's own. A file whose ``__main__`` never
calls the harness is run from its definitions instead: its one
``build_*_program`` (or ``build_program``), its ``build_tensor_specs`` (or
``build_specs``) and its one ``golden_*`` function, at golden.run's default
tolerances.
"""

from __future__ import annotations

import contextlib
import runpy
import sys
from pathlib import Path
from typing import Any, Callable, Dict, Iterator, List, Optional

from . import _distributed, _harness
from ._common import PyptoError, require


def pypto_lib_root(model: Path) -> Optional[Path]:
    """The nearest directory above model holding pypto-lib's golden package."""
    for d in model.resolve().parents:
        if (d / "golden" / "__init__.py").is_file():
            return d
    return None


@contextlib.contextmanager
def _harness_replaced(golden: Any, calls: List[Any], runtime_extra: Dict[str, Any],
                      compile_only: bool) -> Iterator[None]:
    """golden.run and golden.run_jit (and golden.runner's) stand for this
    package's while the model runs; each call's result is kept in calls."""

    def wrap(ours: Callable[..., Any], name: str) -> Callable[..., Any]:
        def harness(*args: Any, **kwargs: Any) -> Any:
            params = ["program" if name == "run" else "fn", "specs", "golden_fn", "golden_data"]
            bound = dict(zip(params, args))
            bound.update(kwargs)
            if bound.get("golden_fn") is None and bound.get("golden_data") is None and not bound.get("compile_only"):
                raise PyptoError(f"the model calls golden.{name} without a golden (no golden_fn, no golden_data)")
            if compile_only:
                bound["compile_only"] = True
            cfg = dict(bound.get("runtime_cfg") or {})
            cfg.update(runtime_extra)
            bound["runtime_cfg"] = cfg
            result = ours(**bound)
            calls.append(result)
            print(result.report(), flush=True)
            return result

        return harness

    targets = [golden] + ([golden.runner] if hasattr(golden, "runner") else [])
    saved = [(t, n, getattr(t, n)) for t in targets for n in ("run", "run_jit") if hasattr(t, n)]
    for t, n, _ in saved:
        setattr(t, n, wrap(_harness.run if n == "run" else _harness.run_jit, n))
    try:
        yield
    finally:
        for t, n, fn in saved:
            setattr(t, n, fn)


def _one(namespace: Dict[str, Any], what: str, accept: Callable[[str], bool]) -> Optional[Callable[..., Any]]:
    names = sorted(n for n, v in namespace.items() if callable(v) and accept(n))
    if len(names) > 1:
        raise PyptoError(f"the model defines several {what}: {', '.join(names)}")
    return namespace[names[0]] if names else None


def _from_definitions(path: Path, namespace: Dict[str, Any], platform: str, runtime_extra: Dict[str, Any],
                      compile_only: bool) -> Any:
    build = _one(namespace, "build_*_program functions",
                 lambda n: n == "build_program" or (n.startswith("build_") and n.endswith("_program")))
    specs = namespace.get("build_tensor_specs") or namespace.get("build_specs")
    golden_fn = _one(namespace, "golden_* functions", lambda n: n.startswith("golden_"))
    if build is None or specs is None:
        raise PyptoError(f"{path.name}: its __main__ calls neither golden.run nor golden.run_jit, and it defines "
                         "no build_*_program with build_tensor_specs")
    if golden_fn is None:
        raise PyptoError(f"{path.name} has no golden: no golden_* function and no golden.run call with golden_fn")
    print(f"[pto.pypto] {path.name}: __main__ runs no harness; {build.__name__}, {specs.__name__} and "
          f"{golden_fn.__name__} at golden.run's default tolerances", flush=True)
    result = _harness.run(program=build(), specs=specs(), golden_fn=golden_fn,
                          runtime_cfg=dict(platform=platform, **runtime_extra), compile_only=compile_only)
    print(result.report(), flush=True)
    return result


def run_model(path: str, platform: str = _harness.DEFAULT_PLATFORM, workers: Optional[int] = None,
              argv: Optional[List[str]] = None, compile_only: bool = False, board: bool = False,
              profile: bool = False, order: str = "all", compare_workers: Optional[List[int]] = None) -> List[Any]:
    """Runs the model file at path on libpto as its own ``__main__`` would run
    it on a board; argv (default ``-p PLATFORM``) are its arguments;
    compile_only stops each harness call after libpto's verification; board
    verifies and runs its kernels in libpto's board mode; profile times each
    kernel (RunResult.kernel_times); order "pto2" keeps only the orders
    PTO2's runtime keeps (runtime_cfg's "order"); compare_workers runs
    the orchestration again on each of those worker counts, on the same
    inputs, each run judged (runtime_cfg's "compare_workers"). Returns
    one RunResult per harness call the model made. Raises PyptoError for a
    model that cannot run (a missing package, no golden, a kernel libpto
    refuses, ...)."""
    model = Path(path)
    if not model.is_file():
        raise PyptoError(f"{path}: no such model file")
    require("torch")
    require("pypto")
    _distributed.separate_build_dirs()
    root = pypto_lib_root(model)
    if root is not None and str(root) not in sys.path:
        sys.path.insert(0, str(root))
    golden = require("golden")
    runtime_extra: Dict[str, Any] = {} if workers is None else {"workers": workers}
    if board:
        runtime_extra["board"] = True
    if profile:
        runtime_extra["profile"] = True
    if order != "all":
        runtime_extra["order"] = order
    if compare_workers:
        runtime_extra["compare_workers"] = list(compare_workers)
    calls: List[Any] = []
    saved_argv, saved_path = sys.argv, list(sys.path)
    sys.argv = [str(model)] + (argv if argv is not None else ["-p", platform])
    # As `python MODEL.py` does: the model's directory first on the path (its
    # sibling modules import by their names).
    sys.path.insert(0, str(model.resolve().parent))
    try:
        with _harness_replaced(golden, calls, runtime_extra, compile_only):
            try:
                namespace = runpy.run_path(str(model), run_name="__main__")
            except SystemExit as e:
                if not calls:
                    raise PyptoError(f"{model.name} exited (status {e.code}) before calling the harness") from e
                return calls
    finally:
        sys.argv = saved_argv
        sys.path[:] = saved_path
    if calls:
        return calls
    return [_from_definitions(model, namespace, platform, runtime_extra, compile_only)]
