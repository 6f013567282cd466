"""Multi-card PyPTO programs: one rank per MPI process, comm through libpto-mpi's windows.

PyPTO compiles a program with a HOST orchestrator (``@pl.jit.host``, a
``DistributedConfig``) into ``orchestration/host_orch.py``, Python that
allocates comm domains (``orch.allocate_domain``: each rank's window and the
buffers in it) and dispatches chip orchestrations to ranks
(``_submit_chip(orch, callables[NAME], task_args, config, rank)``), and one
chip sub-build per chip orchestration under ``next_levels/NAME/`` (kernels
and ``orchestration/NAME.cpp``, as a single-card compile writes them).

Under ``mpiexec -n N`` (N the program's device count) every process runs the
model file and the whole host orchestration, in the same order: a comm
domain is a ``pto.mpi.Window`` (collective) holding its buffers at the same
offsets on every rank, and a dispatch runs, on the process whose rank it
names and there only, the chip orchestration on libpto's host runtime with
the domain's buffers as tensors, its context (``pto_mpi_context``, PyPTO's
CommDeviceContext) as the CommCtx scalar and declared memory of the run. The
kernels reach their peers through the window as on the NPU.

Host tensors are each process's own (PyPTO's runtime shares them between
the chips' processes): the inputs are made on rank 0 and sent to the others
before the run, every dispatch's host tensor writes are tracked, a dispatch
that reads what another rank's dispatch wrote is refused (the ranks share no
host memory here), and after the run each rank's writes are gathered on
rank 0, which runs the golden and the comparison and sends the verdict back.
"""

from __future__ import annotations

import builtins
import contextlib
import os
import time
import types
from pathlib import Path
from typing import Any, Callable, Dict, Iterator, List, NamedTuple, Optional, Sequence, Tuple

from . import _compile, _runtime
from ._common import Platform, PyptoError, require

HOST_ORCH = Path("orchestration") / "host_orch.py"

# simpler.task_interface.DataType's names (the generated window views) as the
# host runtime's dtype names, with their element sizes.
_DTYPES = {
    "FLOAT16": ("float16", 2), "FLOAT32": ("float32", 4), "BFLOAT16": ("bfloat16", 2),
    "INT8": ("int8", 1), "INT16": ("int16", 2), "INT32": ("int32", 4), "INT64": ("int64", 8),
    "UINT8": ("uint8", 1), "UINT16": ("uint16", 2), "UINT32": ("uint32", 4), "UINT64": ("uint64", 8),
    "BOOL": ("bool", 1),
}
_WRITES = ("OUTPUT_EXISTING", "OUTPUT", "INOUT")


class Build(NamedTuple):
    """A multi-card compile: the output directory, each chip orchestration's
    kernel table (by name, under next_levels/NAME/), the HOST orchestrator's
    parameter names in order, and the device count."""

    output_dir: Path
    chips: Dict[str, _compile.Compiled]
    params: Tuple[str, ...]
    devices: int


def is_distributed(compiled_program: Any) -> bool:
    return type(compiled_program).__name__ == "DistributedCompiledProgram"


def build(compiled_program: Any, recorder: Any) -> Build:
    """The Build of a DistributedCompiledProgram: a kernel table for every
    chip orchestration the compile generated (kernel_table.txt in its
    next_levels/ directory), PyptoError for what libpto cannot run."""
    output_dir = Path(str(compiled_program.output_dir)).resolve()
    if not (output_dir / HOST_ORCH).is_file():
        raise PyptoError(f"the multi-card compile wrote no {output_dir / HOST_ORCH}")
    chips: Dict[str, _compile.Compiled] = {}
    for name, program, result in recorder.results:
        chip_dir = output_dir / "next_levels" / name
        if not chip_dir.is_dir():
            raise PyptoError(f"the multi-card compile wrote no {chip_dir} for chip orchestration {name}")
        chips[name] = _compile.kernel_table(chip_dir, name, program, result)
    nl = output_dir / "next_levels"
    others = sorted(d.name for d in nl.iterdir() if d.is_dir() and d.name not in chips) if nl.is_dir() else []
    if others:
        raise PyptoError(f"chip callables {', '.join(others)} are PyPTO builtins with C++ kernels "
                         "(next_levels/NAME/kernels/*.cpp), which libpto cannot run")
    if not chips:
        raise PyptoError("the multi-card compile generated no chip orchestration")
    infos, _, _ = compiled_program._get_metadata()
    devices = len(compiled_program._distributed_config.device_ids)
    return Build(output_dir, chips, tuple(p.name for p in infos), devices)


def one_build(compiled_program: Any, recorder: Any) -> Any:
    """What a compile gives the harness: a Build for a multi-card program,
    else the single orchestration's table (_compile.single_orchestration)."""
    if is_distributed(compiled_program):
        return build(compiled_program, recorder)
    return _compile.single_orchestration(compiled_program, recorder)


_RANK_VARIABLES = ("OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK", "MPI_LOCALRANKID")


def launcher_rank() -> Optional[int]:
    """This process's rank as mpiexec's environment says (Open MPI, MPICH,
    PMIx), or None outside an MPI job."""
    for var in _RANK_VARIABLES:
        value = os.environ.get(var)
        if value is not None and value.isdigit():
            return int(value)
    return None


def separate_build_dirs() -> None:
    """Under mpiexec, every rank compiles the model: each into a directory of
    its own (PYPTO_PROG_BUILD_DIR/rankR), since PyPTO names a compile's
    directory by the program and the second."""
    rank = launcher_rank()
    if rank is None:
        return
    base = os.environ.get("PYPTO_PROG_BUILD_DIR") or "build_output"
    os.environ["PYPTO_PROG_BUILD_DIR"] = os.path.join(base, f"rank{rank}")


def strip_ssa(name: str) -> str:
    """A parameter's name without PyPTO's SSA suffix (``x__ssa_v2`` -> ``x``),
    as pypto-lib's harness maps specs to them."""
    return name.split("__ssa_")[0]


# --- MPI


def _comm() -> Any:
    """MPI_COMM_WORLD through mpi4py, or PyptoError saying how to run."""
    try:
        from mpi4py import MPI
    except ImportError as e:
        raise PyptoError(f"a multi-card program runs under mpiexec with mpi4py installed: import mpi4py failed "
                         f"({e})") from e
    return MPI.COMM_WORLD


def _window_class() -> Any:
    try:
        import pto.mpi
    except (ImportError, OSError) as e:
        raise PyptoError(f"a multi-card program needs pto.mpi (libpto-mpi, mpi4py): {e}") from e
    return pto.mpi.Window


# --- what host_orch.py imports, for libpto


class _TensorArgType:
    INPUT = "INPUT"
    OUTPUT = "OUTPUT"
    OUTPUT_EXISTING = "OUTPUT_EXISTING"
    INOUT = "INOUT"
    NO_DEP = "NO_DEP"


class _DataType:
    pass


for _name in _DTYPES:
    setattr(_DataType, _name, _name)


class _CommBufferSpec(NamedTuple):
    name: str
    dtype: str
    count: int
    nbytes: int


class _CallConfig:
    """Accepted and unused: the dispatch's ring sizes and DFX flags concern simpler."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.output_prefix = ""


_Raw = _runtime.TensorView


class _TaskArgs:
    """simpler's TaskArgs: tensors (each with its tag) before scalars."""

    def __init__(self) -> None:
        self.tensors: List[Tuple[Any, str]] = []
        self.scalars: List[Any] = []

    def add_tensor(self, tensor: Any, tag: str = _TensorArgType.INPUT) -> None:
        if self.scalars:
            raise PyptoError("host_orch.py added a tensor after a scalar")
        self.tensors.append((tensor, str(tag).rsplit(".", 1)[-1]))

    def add_scalar(self, value: Any) -> None:
        self.scalars.append(value)


def _make_tensor_arg(_worker: Any, tensor: Any) -> Any:
    return tensor


class _Peer:
    """handle[r] of a domain for a rank r other than this process's: its
    dispatches run elsewhere, so its views are never bound here."""

    def __init__(self, rank: int) -> None:
        self.rank = rank
        self.device_ctx = ("peer context", rank)
        self.buffers = _PeerBuffers(rank)


class _PeerBuffers:
    def __init__(self, rank: int) -> None:
        self.rank = rank

    def __getitem__(self, name: str) -> Any:
        return self

    def tensor(self, shapes: Sequence[int] = (), dtype: Any = None) -> Any:
        return ("peer buffer", self.rank)


class _Buffer:
    def __init__(self, address: int, nbytes: int) -> None:
        self.address, self.nbytes = address, nbytes

    def tensor(self, shapes: Sequence[int], dtype: str) -> _Raw:
        name, size = _DTYPES[str(dtype).rsplit(".", 1)[-1]]
        shape = tuple(int(s) for s in shapes)
        count = 1
        for s in shape:
            count *= s
        if count * size > self.nbytes:
            raise PyptoError(f"a window view of {shape} {name} is larger than its buffer's {self.nbytes} bytes")
        return _Raw(self.address, count * size, name, shape)


class _Local:
    """handle[r] for this process's rank: the buffers in its window and the
    window's context."""

    def __init__(self, window: Any, specs: Sequence[Any]) -> None:
        import numpy as np

        self.window = window
        self.buffers: Dict[str, _Buffer] = {}
        for spec in specs:
            arr = window.array(np.uint8, int(spec.nbytes))
            self.buffers[spec.name] = _Buffer(arr.ctypes.data, int(spec.nbytes))
        self.context = window.context()
        self.device_ctx = ("context", self.context.ctypes.data)


class _Domain:
    def __init__(self, rank: int, local: Optional[_Local], workers: Sequence[int]) -> None:
        self._rank, self._local, self._workers = rank, local, list(workers)

    def __getitem__(self, r: int) -> Any:
        r = int(r)
        if r not in self._workers:
            raise PyptoError(f"host_orch.py indexes rank {r} of a comm domain over ranks {self._workers}")
        return self._local if r == self._rank and self._local is not None else _Peer(r)


# --- a chip orchestration on this rank


def _host_view(t: Any) -> Tuple[_Raw, Any, int]:
    """(the tensor as a _Raw, its storage's identity, its byte offset in the
    storage) of a torch tensor or numpy array."""
    if hasattr(t, "data_ptr"):
        if not t.is_contiguous():
            raise PyptoError("host_orch.py passed a strided host tensor view; the host runtime takes contiguous ones")
        storage = t.untyped_storage()
        base = storage.data_ptr()
        raw = _Raw(t.data_ptr(), t.numel() * t.element_size(), str(t.dtype).replace("torch.", ""), tuple(t.shape))
        return raw, base, t.data_ptr() - base
    address, nbytes, dtype, shape = _runtime.tensor_view(t)
    base = t.__array_interface__["data"][0] if t.base is None else t.base.__array_interface__["data"][0]
    return _Raw(address, nbytes, dtype, shape), base, address - base


class _Orch:
    """The ``orch`` host_orch.py drives: comm domains as pto.mpi windows,
    each dispatch run where its rank says."""

    def __init__(self, build: Build, rank: int, size: int, sessions: Dict[str, _runtime.Session],
                 ord_tokens: List[Any]) -> None:
        self._worker = None
        self._build, self._rank, self._size = build, rank, size
        self._sessions = sessions
        self._ord = {id(t) for t in ord_tokens}
        self._window_open = False
        self._commless = 0
        # host writes: storage identity -> [(start, end, rank)]
        self.writes: Dict[Any, List[Tuple[int, int, int]]] = {}
        self.tasks = 0
        self.run_seconds = 0.0

    @contextlib.contextmanager
    def allocate_domain(self, name: str, workers: Sequence[int], window_size: int,
                        buffers: Sequence[_CommBufferSpec]) -> Iterator[_Domain]:
        workers = [int(w) for w in workers]
        if sorted(workers) != list(range(self._size)):
            raise PyptoError(f"comm domain {name} spans ranks {workers}; libpto runs domains over every rank "
                             f"of the job (0..{self._size - 1})")
        if self._window_open:
            raise PyptoError(f"comm domain {name} opens inside another: libpto-mpi has one window at a time")
        Window = _window_class()
        window = Window(int(window_size))
        self._window_open = True
        failed = True
        try:
            yield _Domain(self._rank, _Local(window, buffers), workers)
            failed = False
        finally:
            # Collective: a rank that failed ends the others' waits on it.
            stopped = window.agree(failed)
            window.close()
            self._window_open = False
        if stopped is not None:
            raise PyptoError(f"rank {stopped} failed in comm domain {name}")

    def submit_sub(self, *_args: Any, **_kwargs: Any) -> None:
        raise PyptoError("host_orch.py submits a HOST sub-worker (orch.submit_sub), which libpto does not run")

    def submit_next_level(self, *_args: Any, **_kwargs: Any) -> None:
        raise PyptoError("host_orch.py calls orch.submit_next_level directly; libpto runs PyPTO's _submit_chip")

    def _track(self, storage: Any, start: int, end: int, tag: str, worker: int, name: str) -> None:
        spans = self.writes.setdefault(storage, [])
        for s, e, r in spans:
            if r != worker and s < end and start < e:
                raise PyptoError(f"chip orchestration {name} on rank {worker} uses host memory that a dispatch on "
                                 f"rank {r} wrote: the ranks share no host memory on libpto")
        if tag in _WRITES:
            spans.append((start, end, worker))

    def submit_chip(self, name: str, task: _TaskArgs, worker: Optional[int]) -> None:
        if worker is None:  # a comm-less dispatch: round-robin, as PyPTO places it
            worker = self._commless % self._size
            self._commless += 1
        worker = int(worker)
        if not 0 <= worker < self._size:
            raise PyptoError(f"a dispatch of {name} to rank {worker}; the job has {self._size} ranks")
        mine = worker == self._rank
        tensors: List[_Raw] = []
        memory: List[Tuple[int, int]] = []
        for t, tag in task.tensors:
            if id(t) in self._ord:
                continue  # PyPTO's per-rank ordering token: dispatches here run in program order already
            if isinstance(t, tuple) and t and t[0] == "peer buffer":
                if mine:
                    raise PyptoError(f"{name} on rank {worker} takes rank {t[1]}'s window buffer")
                continue
            if isinstance(t, _Raw):
                tensors.append(t)
                continue
            raw, storage, offset = _host_view(t)
            self._track(storage, offset, offset + raw.nbytes, tag, worker, name)
            tensors.append(raw)
        scalars: List[Any] = []
        for s in task.scalars:
            if isinstance(s, tuple) and s and s[0] == "context":
                scalars.append(int(s[1]))
                if (int(s[1]), 1056) not in memory:
                    memory.append((int(s[1]), 1056))
            elif isinstance(s, tuple) and s and s[0] == "peer context":
                if mine:
                    raise PyptoError(f"{name} on rank {worker} takes rank {s[1]}'s comm context")
                scalars.append(0)
            else:
                scalars.append(s.item() if hasattr(s, "item") else s)
        if not mine:
            return
        session = self._sessions.get(name)
        if session is None:
            raise PyptoError(f"host_orch.py dispatches {name}, which the compile built no chip orchestration for")
        self.run_seconds += session.run(tensors, scalars, memory)
        self.tasks += session.stats()[0]


def _submit_chip(orch: _Orch, callable_id: Any, task_args: _TaskArgs, config: Any, worker: Optional[int]) -> None:
    orch.submit_chip(str(callable_id), task_args, worker)


_SHIMS: Dict[str, Dict[str, Any]] = {
    "simpler.task_interface": dict(CallConfig=_CallConfig, CommBufferSpec=_CommBufferSpec, DataType=_DataType,
                                   TaskArgs=_TaskArgs, TensorArgType=_TensorArgType),
    "pypto.runtime.tensor_arg": dict(make_tensor_arg=_make_tensor_arg),
    "pypto.runtime.distributed_runner": dict(_submit_chip=_submit_chip),
}


def load_host_orch(path: Path) -> Tuple[Callable[..., Any], Optional[Callable[..., Any]]]:
    """(the entry marked _pypto_distributed_entry, _alloc_intermediates or
    None) of host_orch.py, its imports of simpler and PyPTO's runtime
    answered by this module; PyptoError naming a name it lacks."""
    real_import = builtins.__import__

    def shim_import(name: str, globals_: Any = None, locals_: Any = None, fromlist: Any = (), level: int = 0) -> Any:
        if name in _SHIMS and level == 0:
            module = types.ModuleType(name)
            names = _SHIMS[name]
            for wanted in fromlist or ():
                if wanted not in names:
                    raise PyptoError(f"{path}: imports {wanted} from {name}, which libpto's multi-card runner "
                                     "lacks")
            module.__dict__.update(names)
            return module
        return real_import(name, globals_, locals_, fromlist, level)

    namespace: Dict[str, Any] = {"__name__": "_pto_pypto_host_orch", "__file__": str(path),
                                 "__builtins__": dict(vars(builtins), __import__=shim_import)}
    code = compile(path.read_text(encoding="utf-8"), str(path), "exec")
    exec(code, namespace)  # noqa: S102 - PyPTO's generated host orchestration
    entries = [v for v in namespace.values() if isinstance(v, types.FunctionType)
               and getattr(v, "_pypto_distributed_entry", False)]
    if len(entries) != 1:
        raise PyptoError(f"{path}: {len(entries)} functions marked _pypto_distributed_entry, expected 1")
    return entries[0], namespace.get("_alloc_intermediates")


# --- the run


def _default_workers(size: int) -> int:
    return max(1, (os.cpu_count() or 1) // size)


def run(b: Build, target: Platform, workers: Optional[int], specs: List[Any], golden_fn: Optional[Callable[..., Any]],
        golden_data: Optional[str], rtol: float, atol: float, compare_fn: Optional[Dict[str, Callable[..., Any]]],
        result: Any, start: float) -> Any:
    """Runs a Build on this process's rank of an MPI job; rank 0 judges the
    gathered outputs against the golden; every rank returns the verdict."""
    from . import _harness

    comm = _comm()
    rank, size = comm.Get_rank(), comm.Get_size()
    if size != b.devices:
        raise PyptoError(f"the program runs on {b.devices} devices; run it under mpiexec -n {b.devices} "
                         f"(this job has {size} rank{'s' if size != 1 else ''})")
    torch = require("torch")
    golden = require("golden")

    # Inputs: made once, on rank 0, the same on every rank.
    tensors: Dict[str, Any] = {}
    scalars: Dict[str, Any] = {}
    expected: Optional[Dict[str, Any]] = None
    if rank == 0:
        tensors, scalars = _harness._golden_inputs(specs, golden_data)
        if golden_fn is not None or golden_data is not None:
            t0 = time.perf_counter()
            expected = _harness._compute_golden(specs, tensors, scalars, golden_fn, golden_data)
            result.times["golden"] = time.perf_counter() - t0
            result.golden_threads = torch.get_num_threads()
    tensors = comm.bcast(tensors, root=0)
    scalars = comm.bcast(scalars, root=0)

    args: Dict[str, Any] = {}
    for name in b.params:
        key = strip_ssa(name)
        if key in tensors:
            args[name] = tensors[key]
        elif key in scalars:
            args[name] = _harness._scalar_python(scalars[key])
        else:
            raise PyptoError(f"the host orchestrator's parameter {name} has no spec")

    t0 = time.perf_counter()
    entry, alloc = load_host_orch(b.output_dir / HOST_ORCH)
    n = workers or _default_workers(size)
    sessions = {name: _runtime.Session(c.output_dir, n) for name, c in b.chips.items()}
    result.workers = n
    result.times["prepare"] = time.perf_counter() - t0
    error: Optional[str] = None
    orch = None
    try:
        if alloc is not None:
            alloc(args, world_size=size)
        ords = [t for k, v in args.items() if k.endswith("_ord") and isinstance(v, list) for t in v]
        orch = _Orch(b, rank, size, sessions, ords)
        comm.Barrier()
        t0 = time.perf_counter()
        entry(orch, None, _CallConfig(), tensors=args, callables={n_: n_ for n_ in b.chips}, sub_ids={}, _keep=[],
              world_size=size)
        result.times["run"] = time.perf_counter() - t0
    except Exception as e:  # noqa: BLE001 - every rank must reach the allgather below
        error = f"rank {rank}: {e}"
    finally:
        for s in sessions.values():
            s.close()
    errors = comm.allgather(error)
    failed = [e for e in errors if e]
    if failed:
        raise PyptoError(failed[0])
    assert orch is not None

    # Each rank's writes to the specs' tensors, to rank 0 (byte offsets in
    # the tensor; the tracking keeps them in its storage).
    def as_bytes(t: Any) -> Any:
        return t.contiguous().view(-1).view(torch.uint8)

    where = {t.untyped_storage().data_ptr(): (name, t.data_ptr() - t.untyped_storage().data_ptr())
             for name, t in tensors.items() if hasattr(t, "data_ptr") and t.numel()}
    mine = []
    for storage, spans in orch.writes.items():
        if storage not in where:
            continue  # an intermediate of host_orch.py, no output
        name, first = where[storage]
        for s, e, r in spans:
            if r == rank != 0:
                mine.append((name, s - first, as_bytes(tensors[name])[s - first:e - first].clone()))
    gathered = comm.gather(mine, root=0)
    result.tasks = sum(comm.allgather(orch.tasks))
    if rank != 0:
        verdict = comm.bcast(None, root=0)
        result.passed, result.error, result.max_errors = verdict
        result.execution_time = time.perf_counter() - start
        return result
    for chunks in gathered:
        for name, s, data in chunks:
            as_bytes(tensors[name])[s:s + data.numel()] = data
    if expected is None:
        result.passed, result.error = True, "validation skipped: no golden_fn or golden_data"
    else:
        _harness.judge(result, golden, specs, tensors, scalars, expected, rtol, atol, compare_fn)
    comm.bcast((result.passed, result.error, result.max_errors), root=0)
    result.execution_time = time.perf_counter() - start
    return result
