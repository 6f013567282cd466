"""Multi-card programs from Python: libpto-mpi's window beside mpi4py.

One MPI process is one card. mpi4py starts MPI (this module imports it
first, so mpi4py owns MPI's initialisation and its finalisation at exit);
libpto-mpi (pto_mpi.h) then opens one MPI-3 window per rank and registers
it as libpto's multi-card transport, so a program's ``pto.comm.*``
operations reach the peers::

    from mpi4py import MPI
    import numpy as np, pto, pto.mpi

    with pto.mpi.Window(1 << 20) as win:         # collective
        gath = win.array(np.float32, (4, 64))    # this rank's copy, in its window
        peers = [win.peer(gath, r) for r in range(win.size)]
        prog(src=src, gath=gath, d0=peers[0], d1=peers[1], me=win.rank, n=win.size)
        win.barrier()                            # every put has landed

Every rank places the buffers it shares with the others at the same offsets
of its window (``array``'s offset; it defaults to the next free 64-byte
aligned one, so the same calls in the same order give the same layout on
every rank). ``peer(a, r)`` is the array standing for rank r's copy of a: an
address libpto turns into (rank, offset) when a program's comm operation
uses it. Its memory is never readable from this process: bind it to a
program's pointer, never read or write it from Python (the process would
fault).

The library is found as $PTO_MPI_LIBRARY, else as the system's
``libpto-mpi.so.0`` (the Debian package or a meson install; the wheel does
not ship it). It must be built on the MPI that mpi4py uses: Window checks
that both report the same MPI library version and raises RuntimeError
otherwise.
"""
from __future__ import annotations

import atexit
import ctypes
import ctypes.util
import os
import weakref
from typing import Any, Optional, Tuple, Union

import numpy as np

try:
    from mpi4py import MPI as _MPI
except ImportError as _e:  # pragma: no cover - depends on the installation
    raise ImportError("pto.mpi needs mpi4py (Debian: python3-mpi4py; PyPI: mpi4py), built on the "
                      "MPI that libpto-mpi is built on") from _e

from . import Error, Status, _ERROR_CLASSES

__all__ = ["Window", "library_path"]

_CONTEXT_BYTES = 1056  # PTO_MPI_CONTEXT_BYTES
_ALIGN = 64

_lib: Optional[ctypes.CDLL] = None
_lib_path: Optional[str] = None


def _find() -> str:
    path = os.environ.get("PTO_MPI_LIBRARY")
    if path:
        return path
    found = ctypes.util.find_library("pto-mpi")
    if found is None:
        raise OSError("libpto-mpi not found: install it (meson install of a build with MPI, or "
                      "the Debian package) or name it in PTO_MPI_LIBRARY")
    return found


def _load() -> ctypes.CDLL:
    global _lib, _lib_path
    if _lib is not None:
        return _lib
    path = _find()
    lib = ctypes.CDLL(path, mode=ctypes.RTLD_GLOBAL)
    vp, i, st, sz = ctypes.c_void_p, ctypes.c_int, ctypes.c_int, ctypes.c_size_t
    for name, res, args in (
            ("pto_mpi_init", st, [vp, vp]),
            ("pto_mpi_rank", i, []),
            ("pto_mpi_size", i, []),
            ("pto_mpi_thread_multiple", i, []),
            ("pto_mpi_window_create", st, [sz, ctypes.POINTER(vp)]),
            ("pto_mpi_window_create_on", st, [i, sz, ctypes.POINTER(vp)]),
            ("pto_mpi_window_rank", i, [vp]),
            ("pto_mpi_window_ranks", i, [vp]),
            ("pto_mpi_window_base", vp, [vp]),
            ("pto_mpi_window_size", sz, [vp]),
            ("pto_mpi_peer_address", vp, [vp, i, vp]),
            ("pto_mpi_context", st, [vp, vp]),
            ("pto_mpi_barrier", st, [vp]),
            ("pto_mpi_window_destroy", None, [vp]),
            ("pto_mpi_agree", i, [vp, i]),
            ("pto_mpi_window_stopped_by", i, [vp]),
            ("pto_mpi_last_error", ctypes.c_char_p, [])):
        f = getattr(lib, name)
        f.restype, f.argtypes = res, args
    _lib, _lib_path = lib, path
    return lib


def library_path() -> str:
    """The libpto-mpi this module uses (loading it if it is not yet)."""
    _load()
    assert _lib_path is not None
    return _lib_path


def _check(status: int) -> None:
    if status == 0:
        return
    sentence = (_load().pto_mpi_last_error() or b"").decode("utf-8", "replace")
    cls = _ERROR_CLASSES[status] if 0 < status < len(_ERROR_CLASSES) else Error
    raise cls(sentence or f"libpto-mpi failed with status {status}", Status(status))


def _same_mpi(lib: ctypes.CDLL) -> None:
    """Raises RuntimeError when libpto-mpi's MPI is not mpi4py's."""
    try:
        get = lib.MPI_Get_library_version  # resolved in libpto-mpi's own dependencies
    except AttributeError:
        return
    buf = ctypes.create_string_buffer(8192)
    n = ctypes.c_int(0)
    get.restype, get.argtypes = ctypes.c_int, [ctypes.c_char_p, ctypes.POINTER(ctypes.c_int)]
    if get(buf, ctypes.byref(n)) != 0:
        return
    def first_line(text: str) -> str:
        return text.replace("\x00", "").strip().split("\n")[0]

    theirs = first_line(buf.value.decode("utf-8", "replace"))
    ours = first_line(_MPI.Get_library_version())
    if theirs != ours:
        raise RuntimeError(f"libpto-mpi ({_lib_path}) is built on another MPI than mpi4py: "
                           f"{theirs!r} against {ours!r}")


_open: "weakref.WeakSet[Window]" = weakref.WeakSet()


class Window:
    """Every rank's window of ``nbytes`` (collective; the largest any rank asks
    for, zero-filled), registered as libpto's transport until ``close()``.
    One window at a time. Its ranks are ``comm``'s (an mpi4py
    intracommunicator, e.g. from ``Split``; default MPI_COMM_WORLD): ``rank``
    and ``size``, ``peer``, ``context`` and the programs' comm operations
    number them as ``comm`` does, and the window's calls are collective over
    them."""

    def __init__(self, nbytes: int, comm: Any = None) -> None:
        lib = _load()
        _same_mpi(lib)
        _check(lib.pto_mpi_init(None, None))
        handle = ctypes.c_void_p()
        if comm is None:
            _check(lib.pto_mpi_window_create(int(nbytes), ctypes.byref(handle)))
        else:
            if not hasattr(comm, "py2f"):
                raise TypeError("pto.mpi.Window's comm is an mpi4py communicator")
            _check(lib.pto_mpi_window_create_on(comm.py2f(), int(nbytes), ctypes.byref(handle)))
        self._h: Optional[ctypes.c_void_p] = handle
        self._lib = lib
        self._next = 0
        self.rank: int = lib.pto_mpi_window_rank(handle)
        self.size: int = lib.pto_mpi_window_ranks(handle)
        self.nbytes: int = lib.pto_mpi_window_size(handle)
        base = lib.pto_mpi_window_base(handle)
        self._base: int = base
        self._bytes = np.ctypeslib.as_array((ctypes.c_uint8 * self.nbytes).from_address(base))
        _open.add(self)

    def _handle(self) -> ctypes.c_void_p:
        if self._h is None:
            raise ValueError("the pto.mpi.Window is closed")
        return self._h

    def array(self, dtype: Any, shape: Union[int, Tuple[int, ...]],
              offset: Optional[int] = None) -> np.ndarray:
        """A C-contiguous array of this rank's window at byte ``offset`` (default:
        the next free 64-byte aligned offset after the previous array). Raises
        ValueError if it does not fit in the window."""
        self._handle()
        dt = np.dtype(dtype)
        shape_t = (shape,) if isinstance(shape, int) else tuple(shape)
        count = int(np.prod(shape_t, dtype=np.int64))
        at = self._next if offset is None else int(offset)
        end = at + count * dt.itemsize
        if at < 0 or end > self.nbytes or at % dt.alignment:
            raise ValueError(f"{count} elements of {dt} at byte {at} do not fit the window's "
                             f"{self.nbytes} bytes (or are misaligned)")
        self._next = max(self._next, (end + _ALIGN - 1) // _ALIGN * _ALIGN)
        return self._bytes[at:end].view(dt).reshape(shape_t)

    def peer(self, array: np.ndarray, rank: int) -> np.ndarray:
        """The array standing for rank's copy of ``array`` (an array of this
        window): ``array`` itself for this rank, else one at the address
        libpto-mpi reserved for that rank's bytes. Bind it to a program's
        pointer; never read or write it from Python."""
        h = self._handle()
        if not isinstance(array, np.ndarray):
            raise TypeError("pto.mpi.Window.peer takes an array of the window")
        start = array.__array_interface__["data"][0]
        if not (self._base <= start and start + array.nbytes <= self._base + self.nbytes):
            raise ValueError("the array does not lie in this window")
        if not 0 <= rank < self.size:
            raise ValueError(f"rank {rank} is not a rank of the window (0..{self.size - 1})")
        if rank == self.rank:
            return array
        address = self._lib.pto_mpi_peer_address(h, rank, start)
        raw = (ctypes.c_uint8 * array.nbytes).from_address(address)
        return np.frombuffer(raw, dtype=array.dtype).reshape(array.shape)

    def context(self) -> np.ndarray:
        """PyPTO's 1056-byte CommDeviceContext for this window (pto_mpi_context),
        as 132 int64: bind it to a kernel's ``!pto.ptr<i64>`` context."""
        out = np.zeros(_CONTEXT_BYTES // 8, dtype=np.int64)
        _check(self._lib.pto_mpi_context(self._handle(), out.ctypes.data))
        return out

    def barrier(self) -> None:
        """Collective: completes this rank's transfers, then waits for every
        rank (pto_mpi_barrier)."""
        _check(self._lib.pto_mpi_barrier(self._handle()))

    def agree(self, failed: bool = False) -> Optional[int]:
        """Collective, in place of the barrier after a launch: every rank says
        whether it failed; returns the lowest rank that did, or None
        (pto_mpi_agree). A failed rank first ends the others' pto.comm.twait
        and ttest at their next poll, then waits for them at most
        PTO_MPI_FAIL_WAIT seconds (default 5) before ending the job
        (MPI_Abort)."""
        first = self._lib.pto_mpi_agree(self._handle(), 1 if failed else 0)
        return None if first < 0 else first

    def stopped_by(self) -> Optional[int]:
        """The rank whose failure (``agree(True)``) ended one of this rank's
        waits, or None: a launch that raised because of it failed because of
        that rank (pto_mpi_window_stopped_by)."""
        r = self._lib.pto_mpi_window_stopped_by(self._handle())
        return None if r < 0 else r

    def close(self) -> None:
        """Collective: unregisters the transport and frees the window. The
        arrays of the window must no longer be used."""
        if self._h is not None:
            self._lib.pto_mpi_window_destroy(self._h)
            self._h = None
            _open.discard(self)

    def __enter__(self) -> "Window":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self._h is None else f"{self.nbytes} bytes"
        return f"<pto.mpi.Window rank {self.rank} of {self.size}, {state}>"


@atexit.register
def _close_all() -> None:
    # Registered after mpi4py's own exit handler, so it runs first: every
    # window is freed before mpi4py finalises MPI.
    for w in list(_open):
        w.close()
