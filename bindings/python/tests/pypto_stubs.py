"""Stand-ins for PyPTO, pypto-lib's golden package and torch, for the tests of
pto.pypto where none of them is installed.

- ``pypto``: ``ir.compile`` writes a StubProgram's files (kernels/*.pto and
  orchestration/*.cpp, the fixtures of pypto_fixture/) into the output
  directory and asks ``pypto.backend.pto_backend._codegen_core`` for the
  orchestration's result, as PyPTO's backend does; ``backend.BackendType``.
- ``golden``: TensorSpec (numpy arrays), ScalarSpec and validate_golden
  (numpy.allclose, AssertionError on a mismatch), golden.run and run_jit.
- ``torch``: an empty module, installed only where torch is missing (the
  front end only checks that it imports; the stubs' tensors are numpy's).
"""

from __future__ import annotations

import dataclasses
import enum
import pathlib
import sys
import types
from typing import Any, Callable, Dict, List, Optional, Tuple

import numpy as np

FIXTURES = pathlib.Path(__file__).resolve().parent / "pypto_fixture"

# Fixtures made from another by one replacement: (source, old, new).
DERIVED = {
    # The second submission through a name the PTO2 API does not have: the
    # runtime's compile of the orchestration fails on it.
    "missing_api.cpp": ("add_twice.cpp", "rt_submit_aiv_task(0, second)", "rt_submit_vector_task(0, second)"),
    # out = (out + x) + y: out, an inout of the program, read before it is
    # written.
    "accumulate.cpp": ("add_twice.cpp", "first.add_input(x);\n        first.add_input(y);",
                       "first.add_input(out);\n        first.add_input(x);"),
    # y's tile declared int32: libpto's verifier refuses the load of y's
    # float32 view into it (a located error).
    "refused.pto": ("add.pto", "%ty = pto.alloc_tile addr = %a1 : !pto.tile_buf<loc=vec, dtype=f32",
                    "%ty = pto.alloc_tile addr = %a1 : !pto.tile_buf<loc=vec, dtype=i32"),
}


def fixture_text(name: str) -> str:
    """A fixture's text, or a derived fixture's (DERIVED)."""
    if name not in DERIVED:
        return (FIXTURES / name).read_text()
    source, old, new = DERIVED[name]
    text = (FIXTURES / source).read_text()
    assert old in text, f"{source} lacks {old!r}"
    return text.replace(old, new)


class CoreType(enum.Enum):
    VECTOR = 0
    CUBE = 1


class BackendType(enum.Enum):
    Ascend910B = 0
    Ascend950 = 1


@dataclasses.dataclass
class OrchestrationResult:
    code: str
    func_name_to_id: Dict[str, int]
    func_name_to_core_type: Dict[str, CoreType]


@dataclasses.dataclass
class StubProgram:
    """A compiled program's files: {path in the output directory: fixture
    file name}, the orchestration's name and its kernels {name: (id, core)}."""

    name: str
    files: Dict[str, str]
    kernels: Dict[str, Tuple[int, CoreType]]

    def get_function(self, name: str) -> Any:
        return None


@dataclasses.dataclass
class _Func:
    name: str


class Compiler:
    """pypto.ir.compile's stand-in; remembers its calls' keyword arguments."""

    def __init__(self, base: pathlib.Path) -> None:
        self.base = base
        self.calls: List[Dict[str, Any]] = []

    def __call__(self, program: StubProgram, output_dir: Optional[str] = None, **kwargs: Any) -> Any:
        self.calls.append(dict(kwargs, output_dir=output_dir))
        out = pathlib.Path(output_dir or self.base / f"{program.name}_{len(self.calls)}")
        # The kernels name their target as PyPTO's backends do.
        arch = "a2a3" if kwargs.get("backend_type") is BackendType.Ascend910B else "a5"
        for rel, fixture in program.files.items():
            (out / rel).parent.mkdir(parents=True, exist_ok=True)
            (out / rel).write_text(fixture_text(fixture).replace('pto.target_arch = "a5"',
                                                                  f'pto.target_arch = "{arch}"'))
        # Through the backend module's attribute, as PyPTO's backend calls it.
        sys.modules["pypto.backend.pto_backend"]._codegen_core.generate_orchestration(program, _Func(program.name))
        return types.SimpleNamespace(output_dir=str(out))


class _CodegenCore:
    """pypto_core.codegen's stand-in: the orchestration result of the
    program being compiled."""

    def generate_orchestration(self, program: StubProgram, func: _Func) -> OrchestrationResult:
        return OrchestrationResult("", {k: v[0] for k, v in program.kernels.items()},
                                   {k: v[1] for k, v in program.kernels.items()})


@dataclasses.dataclass
class TensorSpec:
    name: str
    shape: List[int]
    dtype: Any
    init_value: Any = None
    is_output: bool = False

    def create_tensor(self) -> np.ndarray:
        if self.init_value is None:
            return np.zeros(self.shape, dtype=self.dtype)
        if callable(self.init_value):
            return np.asarray(self.init_value(self.shape), dtype=self.dtype)
        return np.full(self.shape, self.init_value, dtype=self.dtype)


@dataclasses.dataclass
class ScalarSpec:
    name: str
    dtype: Any
    value: Any

    def to_python(self) -> Any:
        return self.value


def validate_golden(outputs: Dict[str, Any], golden: Dict[str, Any], rtol: float = 1e-5, atol: float = 1e-5,
                    compare_fn: Optional[Dict[str, Callable]] = None, inputs: Optional[Dict[str, Any]] = None) -> None:
    bad = [name for name, a in outputs.items() if not np.allclose(a, golden[name], rtol=rtol, atol=atol)]
    if bad:
        raise AssertionError(f"Output(s) does not match golden: {bad}")


def _unavailable(*_args: Any, **_kwargs: Any) -> Any:
    raise AssertionError("pypto-lib's own golden.run was called instead of pto.pypto's")


def install(monkeypatch: Any, base: pathlib.Path, *, pypto: bool = True, torch: bool = True,
            golden: bool = True) -> Compiler:
    """Puts the stand-ins in sys.modules (a missing one as None, so that its
    import fails); returns the stub compiler."""
    compiler = Compiler(base)
    if pypto:
        root = types.ModuleType("pypto")
        ir = types.ModuleType("pypto.ir")
        ir.compile = compiler
        backend = types.ModuleType("pypto.backend")
        backend.BackendType = BackendType
        pto_backend = types.ModuleType("pypto.backend.pto_backend")
        pto_backend._codegen_core = _CodegenCore()
        root.ir, root.backend, backend.pto_backend = ir, backend, pto_backend
        for name, mod in (("pypto", root), ("pypto.ir", ir), ("pypto.backend", backend),
                          ("pypto.backend.pto_backend", pto_backend), ("pypto.jit", None),
                          ("pypto.jit.decorator", None)):
            monkeypatch.setitem(sys.modules, name, mod)
    else:
        monkeypatch.setitem(sys.modules, "pypto", None)
    if not torch:
        monkeypatch.setitem(sys.modules, "torch", None)
    else:
        try:
            import torch as _torch  # noqa: F401
        except ImportError:
            monkeypatch.setitem(sys.modules, "torch", types.ModuleType("torch"))
    if golden:
        mod = types.ModuleType("golden")
        mod.TensorSpec, mod.ScalarSpec, mod.validate_golden = TensorSpec, ScalarSpec, validate_golden
        mod.run = mod.run_jit = _unavailable
        monkeypatch.setitem(sys.modules, "golden", mod)
    else:
        monkeypatch.setitem(sys.modules, "golden", None)
    monkeypatch.setenv("PYPTO_PROG_BUILD_DIR", str(base))
    return compiler


def add_program(orchestration: str = "add_twice.cpp", kernel: str = "add.pto") -> StubProgram:
    """The stub program out = (x + y) + y: add.pto's vec_add (kernel 0, AIV)
    submitted twice by the orchestration."""
    return StubProgram("add_twice", {"kernels/aiv/vec_add.pto": kernel, "orchestration/add_twice.cpp": orchestration},
                       {"vec_add": (0, CoreType.VECTOR)})


def add_specs() -> List[TensorSpec]:
    rng = np.random.default_rng(66)
    return [TensorSpec("x", [16, 16], np.float32, init_value=lambda s: rng.standard_normal(s)),
            TensorSpec("y", [16, 16], np.float32, init_value=lambda s: rng.standard_normal(s)),
            TensorSpec("out", [16, 16], np.float32, is_output=True)]


def accumulate_specs() -> List[TensorSpec]:
    """add_specs with out an inout: its values are read before the run writes it."""
    rng = np.random.default_rng(67)
    return [TensorSpec("x", [16, 16], np.float32, init_value=lambda s: rng.standard_normal(s)),
            TensorSpec("y", [16, 16], np.float32, init_value=lambda s: rng.standard_normal(s)),
            TensorSpec("out", [16, 16], np.float32, init_value=lambda s: rng.standard_normal(s), is_output=True)]


def golden_accumulate(t: Dict[str, Any]) -> None:
    t["out"][:] = (t["out"] + t["x"]) + t["y"]


def golden_add_twice(t: Dict[str, Any]) -> None:
    t["out"][:] = (t["x"] + t["y"]) + t["y"]


def golden_wrong(t: Dict[str, Any]) -> None:
    t["out"][:] = t["x"] + t["y"]
