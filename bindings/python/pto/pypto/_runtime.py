"""libpto-runtime (include/pto_runtime.h) from Python, through ctypes.

A session opens on a compile's output directory (its kernel_table.txt), is
prepared once (the orchestration compiled, every kernel verified) and runs
the orchestration on one set of arguments: the tensors' host memory, in
place, then the scalars' 64 bits.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import re
import struct
import time
from pathlib import Path
from typing import Any, List, NamedTuple, Optional, Sequence, Tuple

from ._common import PyptoError

_lib: Optional[ctypes.CDLL] = None

# The functions the front end calls: (name, restype, argtypes).
_VP = ctypes.c_void_p
_SIGNATURES = [
    ("pto_runtime_open", ctypes.c_int, [ctypes.c_char_p, ctypes.POINTER(_VP)]),
    ("pto_runtime_close", None, [_VP]),
    ("pto_runtime_set_workers", ctypes.c_int, [_VP, ctypes.c_uint32]),
    ("pto_runtime_prepare", ctypes.c_int, [_VP]),
    ("pto_runtime_args_create", ctypes.c_int, [ctypes.POINTER(_VP)]),
    ("pto_runtime_args_destroy", None, [_VP]),
    ("pto_runtime_args_add_tensor", ctypes.c_int,
     [_VP, _VP, ctypes.c_size_t, ctypes.c_char_p, ctypes.POINTER(ctypes.c_uint64), ctypes.c_uint32]),
    ("pto_runtime_args_add_scalar", ctypes.c_int, [_VP, ctypes.c_uint64]),
    ("pto_runtime_args_add_memory", ctypes.c_int, [_VP, _VP, ctypes.c_size_t]),
    ("pto_runtime_run", ctypes.c_int, [_VP, _VP]),
    ("pto_runtime_last_run_stats", ctypes.c_int, [_VP, ctypes.POINTER(ctypes.c_uint64), ctypes.POINTER(ctypes.c_uint32)]),
    ("pto_runtime_last_error", ctypes.c_char_p, []),
]


def _candidates() -> List[str]:
    """Where libpto-runtime may be: $PTO_RUNTIME_LIBRARY, beside the pto
    package's libpto (a wheel), beside the libpto the extension loaded (a
    build tree), the linker's search path."""
    found: List[str] = []
    env = os.environ.get("PTO_RUNTIME_LIBRARY")
    if env:
        return [env]
    import pto

    here = Path(pto.__file__).resolve().parent
    for d in (here, here.parent.parent.parent / "src", here.parent.parent.parent / "src" / "runtime"):
        found += [str(p) for p in sorted(d.glob("libpto-runtime.so*"))]
    name = ctypes.util.find_library("pto-runtime")
    if name:
        found.append(name)
    found.append("libpto-runtime.so")
    return found


def library() -> ctypes.CDLL:
    """libpto-runtime, loaded once; PyptoError where none loads or one lacks a
    function the front end calls."""
    global _lib
    if _lib is not None:
        return _lib
    errors = []
    for path in _candidates():
        try:
            lib = ctypes.CDLL(path)
        except OSError as e:
            errors.append(str(e))
            continue
        for name, restype, argtypes in _SIGNATURES:
            try:
                fn = getattr(lib, name)
            except AttributeError:
                raise PyptoError(f"{path} has no {name}: not the host runtime this front end calls") from None
            fn.restype = restype
            fn.argtypes = argtypes
        _lib = lib
        return lib
    raise PyptoError("libpto-runtime (the host runtime) is not found: build libpto with -Druntime=enabled "
                     f"or set PTO_RUNTIME_LIBRARY ({'; '.join(errors[:2])})")


# A name the orchestration uses that the runtime's header does not declare,
# as g++ and clang say it (g++ quotes with ‘’ under a UTF-8 locale).
_Q, _E = "['\u2018`]", "['\u2019`]"
_UNDECLARED = [re.compile(p.format(q=_Q, e=_E)) for p in (
    r"{q}([\w:]+){e} was not declared in this scope",
    r"{q}([\w:]+){e} is not a member of {q}[\w:]+{e}",
    r"has no member named {q}(\w+){e}",
    r"use of undeclared identifier {q}([\w:]+){e}",
    r"no member named {q}(\w+){e} in",
    r"{q}([\w:]+){e} does not name a type",
    r"unknown type name {q}([\w:]+){e}",
)]


def explain(sentence: str) -> str:
    """The runtime's sentence, led by the API name it lacks when the
    orchestration's compile failed on one."""
    for pattern in _UNDECLARED:
        m = pattern.search(sentence)
        if m:
            return f"the orchestration uses {m.group(1)}, which libpto's host runtime lacks: {sentence}"
    return sentence


def _check(status: int, what: str) -> None:
    if status != 0:
        err = library().pto_runtime_last_error()
        sentence = err.decode("utf-8", "replace") if err else f"status {status}"
        raise PyptoError(explain(sentence) if what == "prepare" else sentence)


def scalar_bits(value: Any) -> int:
    """The 64 bits orch_args.scalar(i) reads for a scalar argument: an
    integer (or bool) as its two's complement, a float32 as its 32 bits in
    the low half, a ctypes value as its own type says (c_float: 32 bits,
    c_double: 64, a 16-bit float carried as c_uint16: those bits)."""
    if isinstance(value, ctypes.c_float):
        return int(struct.unpack("<I", struct.pack("<f", value.value))[0])
    if isinstance(value, ctypes.c_double):
        return int(struct.unpack("<Q", struct.pack("<d", value.value))[0])
    if isinstance(value, ctypes._SimpleCData):
        value = value.value
    if isinstance(value, float):
        return int(struct.unpack("<I", struct.pack("<f", value))[0])
    return int(value) & 0xFFFFFFFFFFFFFFFF


def tensor_view(t: Any) -> Tuple[int, int, str, Tuple[int, ...]]:
    """(address, bytes, dtype name, shape) of a contiguous torch tensor or
    numpy array; PyptoError for a strided one."""
    if hasattr(t, "data_ptr"):  # torch
        if not t.is_contiguous():
            raise PyptoError("a tensor argument is not contiguous")
        return t.data_ptr(), t.numel() * t.element_size(), str(t.dtype).replace("torch.", ""), tuple(t.shape)
    if not t.flags["C_CONTIGUOUS"]:
        raise PyptoError("an array argument is not C-contiguous")
    return t.ctypes.data, t.nbytes, t.dtype.name, tuple(t.shape)


class TensorView(NamedTuple):
    """A tensor argument by address: its first byte, its bytes, the host
    runtime's dtype name (torch's: "bfloat16", "float32", ...) and its
    shape (row-major, contiguous). For memory neither torch nor numpy
    describes with the kernel's dtype (bf16 held as numpy uint16, a window)."""

    address: int
    nbytes: int
    dtype: str
    shape: Tuple[int, ...]


def as_view(t: Any) -> TensorView:
    """t as a TensorView: itself, or a contiguous torch tensor or numpy array."""
    return t if isinstance(t, TensorView) else TensorView(*tensor_view(t))


class Session:
    """One compile's program on the host runtime: prepared at creation
    (orchestration compiled, kernels verified), run any number of times."""

    def __init__(self, work_dir: Path, workers: Optional[int] = None) -> None:
        lib = library()
        self._lib = lib
        self._rt = _VP()
        _check(lib.pto_runtime_open(str(work_dir).encode(), ctypes.byref(self._rt)), "open")
        try:
            if workers is not None:
                _check(lib.pto_runtime_set_workers(self._rt, int(workers)), "workers")
            _check(lib.pto_runtime_prepare(self._rt), "prepare")
        except BaseException:
            self.close()
            raise

    def run(self, tensors: Sequence[Any], scalars: Sequence[Any],
            memory: Sequence[Tuple[int, int]] = ()) -> float:
        """Runs the orchestration on the tensors (in place: torch tensors,
        numpy arrays or TensorViews) and scalars; memory lists (address,
        bytes) the program reaches through a pointer scalar
        (pto_runtime_args_add_memory). Returns the run's seconds."""
        lib = self._lib
        args = _VP()
        _check(lib.pto_runtime_args_create(ctypes.byref(args)), "args")
        try:
            for t in tensors:
                addr, nbytes, dtype, shape = as_view(t)
                dims = (ctypes.c_uint64 * max(len(shape), 1))(*shape)
                _check(lib.pto_runtime_args_add_tensor(args, _VP(addr), nbytes, dtype.encode(), dims, len(shape)),
                       "tensor")
            for s in scalars:
                _check(lib.pto_runtime_args_add_scalar(args, scalar_bits(s)), "scalar")
            for addr, nbytes in memory:
                _check(lib.pto_runtime_args_add_memory(args, _VP(addr), nbytes), "memory")
            start = time.perf_counter()
            _check(lib.pto_runtime_run(self._rt, args), "run")
            return time.perf_counter() - start
        finally:
            lib.pto_runtime_args_destroy(args)

    def stats(self) -> Tuple[int, int]:
        """(tasks, most tasks at once) of the last run."""
        tasks, most = ctypes.c_uint64(), ctypes.c_uint32()
        _check(self._lib.pto_runtime_last_run_stats(self._rt, ctypes.byref(tasks), ctypes.byref(most)), "stats")
        return tasks.value, most.value

    def close(self) -> None:
        if self._rt:
            self._lib.pto_runtime_close(self._rt)
            self._rt = _VP()

    def __enter__(self) -> "Session":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()
