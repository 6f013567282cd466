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
from typing import Any, Callable, Dict, List, NamedTuple, Optional, Sequence, Tuple

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


# --- the tap (pto_runtime_set_tap): each task's kernel, views and times

class _CView(ctypes.Structure):
    _fields_ = [("data", _VP), ("dtype", ctypes.c_char_p), ("element_size", ctypes.c_uint32),
                ("ndims", ctypes.c_uint32), ("shape", ctypes.c_uint64 * 5), ("strides", ctypes.c_uint64 * 5),
                ("tensor", _VP), ("tensor_bytes", ctypes.c_uint64), ("written", ctypes.c_uint32)]


class _CTask(ctypes.Structure):
    _fields_ = [("event", ctypes.c_uint32), ("id", ctypes.c_uint64), ("kernel_id", ctypes.c_int32),
                ("kernel", ctypes.c_char_p), ("kernel_file", ctypes.c_char_p), ("site_file", ctypes.c_char_p),
                ("site_line", ctypes.c_int32), ("blocks", ctypes.c_uint32), ("tensor_count", ctypes.c_uint32),
                ("tensors", ctypes.POINTER(_CView)), ("scalar_count", ctypes.c_uint32),
                ("scalars", ctypes.POINTER(ctypes.c_uint64)), ("start_ns", ctypes.c_uint64), ("end_ns", ctypes.c_uint64)]


_TAP_FN = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(_CTask), _VP)
TAP_BEFORE, TAP_AFTER = 1, 2

# numpy's dtype for the runtime's names; bf16, fp8 and fp4 as their bits.
_NUMPY_DTYPES = {"float32": "float32", "float16": "float16", "bfloat16": "uint16", "int8": "int8", "int16": "int16",
                 "int32": "int32", "int64": "int64", "uint8": "uint8", "uint16": "uint16", "uint32": "uint32",
                 "uint64": "uint64", "bool": "bool", "float8_e4m3fn": "uint8", "float8_e5m2": "uint8",
                 "float8_e8m0fnu": "uint8", "float4_e2m1fn_x2": "uint8"}


class TapView(NamedTuple):
    """One tensor of a tapped task (pto_runtime_view): a strided view, its
    strides in elements; tensor and tensor_bytes the tensor it lies in (the
    caller's or one the run allocated); written if the task may write it."""

    address: int
    dtype: str
    element_size: int
    shape: Tuple[int, ...]
    strides: Tuple[int, ...]
    tensor: int
    tensor_bytes: int
    written: bool

    def array(self) -> Any:
        """The view as a numpy array on the task's memory (no copy: valid
        during the tap only; copy() what must outlive it). bfloat16 and the
        8- and 4-bit floats as their bits (uint16, uint8)."""
        import numpy as np

        dt = np.dtype(_NUMPY_DTYPES[self.dtype])
        if 0 in self.shape:
            return np.zeros(self.shape, dt)
        span = (sum((n - 1) * s for n, s in zip(self.shape, self.strides)) + 1) * self.element_size
        buf = (ctypes.c_char * span).from_address(self.address)
        return np.ndarray(self.shape, dt, buffer=buf, strides=tuple(s * self.element_size for s in self.strides))

    def within(self, address: int, nbytes: int) -> bool:
        """Whether the view's tensor lies in [address, address + nbytes)."""
        return address <= self.tensor and self.tensor + self.tensor_bytes <= address + nbytes


class TapTask(NamedTuple):
    """A tapped task (pto_runtime_task): event "before" or "after" its
    kernel ran, its submission number, the kernel (the table's function
    name, id and file), the orchestration's file and line, its blocks,
    tensors (TapViews, in the task's order) and scalars (their 64 bits),
    and after: CLOCK_MONOTONIC nanoseconds (time.monotonic_ns()) when the
    kernel started and ended."""

    event: str
    id: int
    kernel: str
    kernel_id: int
    kernel_file: str
    site: Tuple[str, int]
    blocks: int
    tensors: Tuple[TapView, ...]
    scalars: Tuple[int, ...]
    start_ns: int
    end_ns: int


def _tap_task(c: _CTask) -> TapTask:
    views = tuple(TapView(v.data or 0, v.dtype.decode(), v.element_size, tuple(v.shape[:v.ndims]),
                          tuple(v.strides[:v.ndims]), v.tensor or 0, v.tensor_bytes, bool(v.written))
                  for v in (c.tensors[i] for i in range(c.tensor_count)))
    return TapTask("before" if c.event == TAP_BEFORE else "after", c.id, c.kernel.decode(), c.kernel_id,
                   c.kernel_file.decode(), (c.site_file.decode(), c.site_line), c.blocks, views,
                   tuple(c.scalars[i] for i in range(c.scalar_count)), c.start_ns, c.end_ns)


_WARNING_FN = ctypes.CFUNCTYPE(None, ctypes.c_char_p, _VP)


def warning_rule(message: str) -> str:
    """The rule a board-mode warning names: libpto's sentence without its
    "board mode: " marker ("pto_tmatmul_acc: a valid rows 8 differ from dst
    valid rows 16 (M)"; a program's warning keeps its FILE:LINE:COL)."""
    return message.replace("warning: board mode: ", "").replace("board mode: ", "")


# pto_runtime_set_order's orders by the names runtime_cfg gives them.
ORDERS = {"all": 0, "pto2": 1}


def check_order(order: str) -> None:
    """Raises PyptoError unless order is one of ORDERS' names."""
    if order not in ORDERS:
        raise PyptoError(f"order {order!r} is neither 'all' nor 'pto2'")


class Session:
    """One compile's program on the host runtime: prepared at creation
    (orchestration compiled, kernels verified), run any number of times.
    board=True: the session's kernels are verified and its tasks run in
    libpto's board mode (pto_runtime_set_board_mode), each warning counted
    by rule in board_warnings (and not printed). order="pto2": the tasks
    keep only the orders simpler's PTO2 runtime keeps (pto_runtime_set_order,
    PTO_RUNTIME_ORDER_PTO2); "all" (the default): every order the tensors
    give, the same bytes on any number of workers."""

    def __init__(self, work_dir: Path, workers: Optional[int] = None, board: bool = False,
                 order: str = "all") -> None:
        check_order(order)
        lib = library()
        self._lib = lib
        self._rt = _VP()
        self._tap: Any = None
        self._tap_error: Optional[BaseException] = None
        self._warn: Any = None
        self.board = bool(board)
        self.board_warnings: Dict[str, int] = {}
        _check(lib.pto_runtime_open(str(work_dir).encode(), ctypes.byref(self._rt)), "open")
        try:
            if workers is not None:
                _check(lib.pto_runtime_set_workers(self._rt, int(workers)), "workers")
            if self.board:
                self._enter_board_mode()
            if order != "all":
                try:
                    set_order = lib.pto_runtime_set_order
                except AttributeError:
                    raise PyptoError("this libpto-runtime has no pto_runtime_set_order (PTO2's orders): "
                                     "build a newer one") from None
                set_order.restype = ctypes.c_int
                set_order.argtypes = [_VP, ctypes.c_uint32]
                _check(set_order(self._rt, ORDERS[order]), "order")
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
            self._tap_error = None
            status = lib.pto_runtime_run(self._rt, args)
            if status != 0 and self._tap_error is not None:
                error, self._tap_error = self._tap_error, None
                raise error
            _check(status, "run")
            return time.perf_counter() - start
        finally:
            lib.pto_runtime_args_destroy(args)

    def set_tap(self, tap: Optional[Callable[[TapTask], Any]], before: bool = False, after: bool = True) -> None:
        """Calls tap(TapTask) around each task of the runs that follow
        (pto_runtime_set_tap): before its kernel runs, after it, or both;
        None removes it. The tap runs on the worker running the task (taps
        of several workers one at a time, under the GIL) while the task's
        tensors hold still: their TapView.array()s may be read then. An
        exception in the tap stops the run, and run() raises it."""
        lib = self._lib
        try:
            set_tap = lib.pto_runtime_set_tap
        except AttributeError:
            raise PyptoError("this libpto-runtime has no pto_runtime_set_tap (the tap): build a newer one") from None
        set_tap.restype = ctypes.c_int
        set_tap.argtypes = [_VP, ctypes.c_uint32, _TAP_FN, _VP]
        if tap is None:
            _check(set_tap(self._rt, 0, _TAP_FN(), None), "tap")
            self._tap = None
            return

        def call(task: Any, _user: Any) -> int:
            try:
                tap(_tap_task(task.contents))
                return 0
            except BaseException as e:  # noqa: BLE001 - handed to run()
                if self._tap_error is None:
                    self._tap_error = e
                return 1

        events = (TAP_BEFORE if before else 0) | (TAP_AFTER if after else 0)
        fn = _TAP_FN(call)
        _check(set_tap(self._rt, events, fn, None), "tap")
        self._tap = fn  # kept alive while the runtime may call it

    def _enter_board_mode(self) -> None:
        lib = self._lib
        try:
            set_board = lib.pto_runtime_set_board_mode
            set_handler = lib.pto_runtime_set_warning_handler
        except AttributeError:
            raise PyptoError("this libpto-runtime has no pto_runtime_set_board_mode (board mode): "
                             "build a newer one") from None
        set_board.restype = set_handler.restype = ctypes.c_int
        set_board.argtypes = [_VP, ctypes.c_int]
        set_handler.argtypes = [_VP, _WARNING_FN, _VP]
        counts = self.board_warnings

        # Called on the runtime's threads one at a time (libpto's lock), under the GIL.
        def warn(message: bytes, _user: Any) -> None:
            rule = warning_rule(message.decode("utf-8", "replace"))
            counts[rule] = counts.get(rule, 0) + 1

        fn = _WARNING_FN(warn)
        _check(set_board(self._rt, 1), "board mode")
        _check(set_handler(self._rt, fn, None), "warning handler")
        self._warn = fn  # kept alive while the runtime may call it

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
