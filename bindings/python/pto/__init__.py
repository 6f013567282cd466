"""pto: the PTO tile instructions on CPUs, from Python (libpto).

libpto runs PTO tile instructions with the exact semantics of the instruction
pages (results, valid regions, errors, per-target refusals) and SIMD kernels
picked for the running CPU. This package is its
Python binding; numpy arrays and tiles share memory both ways without copies.

Quick start::

    import numpy as np, pto
    x = pto.Tile.from_numpy(np.array([[2, -3, 0.5, 9]], dtype=np.float32))
    y = pto.Tile.from_numpy(np.array([[10, 3, -2, 0.5]], dtype=np.float32))
    dst, tmp = pto.Tile(pto.DType.FLOAT32, 1, 4), pto.Tile(pto.DType.FLOAT32, 1, 4)
    pto.tpow(dst, x, y, tmp, pto.PowAlgorithm.HIGH_PRECISION)
    print(dst.numpy())                  # a view of the tile's memory

Tiles. ``Tile(dtype, rows, cols)`` is a zero-filled row-major tile with a valid
region (``tile.valid``, anchored at (0, 0)); operations iterate over dst's valid
region and never write outside it. ``Tile.from_numpy(a)`` copies a 2-D array,
``tile.numpy()`` is a writable view of all rows x cols elements.

Buffers and placement. ``Buffer(nbytes)`` is a byte arena, ``Buffer.wrap(obj)``
one over the memory of a numpy array or bytearray (zero-copy); ``Tile.at(buffer,
offset, dtype, rows, cols)`` places a tile in it (TASSIGN). Tiles may overlap;
an operation that would read and write overlapping storage raises AliasingError.

Operations. One function per instruction, named after it (``pto.tpow`` runs
TPOW; help(pto) lists them all under FUNCTIONS): destination first, each
returns dst; the GIL is released while the kernel runs.

Profiles. ``set_profile(Profile.A2A3)`` or ``with profile(Profile.A5):`` makes
the calling thread's operations enforce that NPU target's checks too.

Errors. A failing call raises a subclass of ``pto.Error`` that also derives from
the matching built-in (e.g. ShapeMismatchError is a ValueError); its message is
libpto's sentence (pto_last_error) and ``.status`` the ``Status``. A failed call
writes nothing. A closed tile or buffer raises ValueError when used.

Lifetimes. ``close()`` (or leaving a ``with`` block) ends a tile's or buffer's
use at once; memory still seen by a live numpy view, or by tiles placed in a
buffer, is freed only when the last of them is gone, so a view never dangles.

dtypes. INT8..UINT32, INT64, UINT64, FLOAT16 and FLOAT32 map to the numpy types
of the same name; BFLOAT16 to ``ml_dtypes.bfloat16`` when ml_dtypes is installed, otherwise
to ``numpy.uint16`` holding the raw bits. Of the low-precision types FLOAT8_E4M3,
FLOAT8_E5M2 and FLOAT8_E8M0 map to ml_dtypes' ``float8_e4m3fn``, ``float8_e5m2`` and
``float8_e8m0fnu`` when installed; they and HIFLOAT8 (which ml_dtypes lacks) are
otherwise ``numpy.uint8`` raw bytes, and the packed FLOAT4_E2M1X2, FLOAT4_E1M2X2
and INT4X2 always are (a byte holds two values, ml_dtypes' 4-bit types one).

Threads. Distinct tiles may be used from any threads at once; a tile (or
storage) one thread writes must not be used by another at the same time.
The profile, board mode, cube modes (``set_tf32_mode``, ``set_hf32_mode``),
the fixpipe's configuration (``set_quant_scalar``, ``set_quant_vector``) and
the img2col registers belong to the calling OS thread: a Python thread sees
only the settings it made itself.

Programs. ``Program(text)`` parses and verifies PTO assembly once (raising
ProgramError, with ``.line`` and ``.column``, for a text it refuses);
``prog(blocks=1, **args)`` runs it with numpy arrays as global memory (updated
in place, zero-copy) or as input tiles, and returns the tiles it writes as a
dict of numpy arrays. ``prog.parameters`` lists ``(name, kind, dtype)``.

Multi-card. ``pto.mpi`` (beside mpi4py, under ``mpiexec``) opens libpto-mpi's
window, whose arrays and their peers' copies a program's ``pto.comm.*``
operations move between ranks (docs/multi-card.md).
"""

from __future__ import annotations

import contextlib
from typing import Any, Iterator, Optional, Tuple, Type, TypeVar, Union

import numpy as np

from . import _enums, _operations, _pto
from ._enums import *  # noqa: F401,F403  (every enum of include/pto_c.h, generated)
from ._enums import DType, Layout, Location, Profile, Status
from ._operations import *  # noqa: F401,F403  (one function per operation of src/operations.def)
from ._pto import get_profile as _get_profile, simd_target

# tmov_fp_ex's flags (include/pto_c.h's PTO_FIXPIPE_*), combined with |.
FIXPIPE_RELU = 1  # the fixpipe's relu before the rounding (ReluPreMode::NormalRelu)
FIXPIPE_CAST = 2  # no quantisation word (fp None): the fixpipe's cast modes
FIXPIPE_STORE = 4  # TSTORE's pairs: also FLOAT32 -> FLOAT32 scaled

__all__ = [
    "__version__",
    "simd_target",
    "FIXPIPE_RELU",
    "FIXPIPE_CAST",
    "FIXPIPE_STORE",
    "Tile",
    "Buffer",
    "set_profile",
    "get_profile",
    "profile",
    "set_board_mode",
    "board_mode",
    "Error",
    "NullArgumentError",
    "InvalidArgumentError",
    "UnsupportedDTypeError",
    "DTypeMismatchError",
    "ShapeMismatchError",
    "OutOfRangeError",
    "AliasingError",
    "OutOfMemoryError",
    "Program",
    "ProgramError",
    "Parameter",
]
__all__ += _enums.__all__  # the enums of include/pto_c.h
__all__ += _operations.__all__

__version__: str = _pto.version()
"""The version of the libpto inside this package (pto_version_string())."""

try:  # optional: a real numpy bfloat16 and 8-bit floats
    import ml_dtypes as _ml_dtypes
    _bfloat16 = _ml_dtypes.bfloat16
except ImportError:  # pragma: no cover - depends on the environment
    _ml_dtypes = None
    _bfloat16 = None


_RAW_TYPES = {
    DType.INT8: np.int8,
    DType.UINT8: np.uint8,
    DType.INT16: np.int16,
    DType.UINT16: np.uint16,
    DType.INT32: np.int32,
    DType.UINT32: np.uint32,
    DType.FLOAT16: np.float16,
    DType.BFLOAT16: np.uint16,
    DType.FLOAT32: np.float32,
    DType.INT64: np.int64,
    DType.UINT64: np.uint64,
    DType.FLOAT8_E4M3: np.uint8,
    DType.FLOAT8_E5M2: np.uint8,
    DType.HIFLOAT8: np.uint8,
    DType.FLOAT8_E8M0: np.uint8,
    DType.FLOAT4_E2M1X2: np.uint8,
    DType.FLOAT4_E1M2X2: np.uint8,
    DType.INT4X2: np.uint8,
}
# The dtypes whose raw-bits array (_RAW_TYPES' type) is taken as their bits.
_BITS_TYPES = frozenset((DType.BFLOAT16, DType.FLOAT8_E4M3, DType.FLOAT8_E5M2, DType.HIFLOAT8,
                         DType.FLOAT8_E8M0, DType.FLOAT4_E2M1X2, DType.FLOAT4_E1M2X2,
                         DType.INT4X2))
_NUMPY_TYPES = dict(_RAW_TYPES)
if _ml_dtypes is not None:
    _NUMPY_TYPES[DType.BFLOAT16] = _bfloat16
    for _member, _name in ((DType.FLOAT8_E4M3, "float8_e4m3fn"), (DType.FLOAT8_E5M2, "float8_e5m2"),
                           (DType.FLOAT8_E8M0, "float8_e8m0fnu")):
        if hasattr(_ml_dtypes, _name):  # float8_e8m0fnu: ml_dtypes 0.5 on
            _NUMPY_TYPES[_member] = getattr(_ml_dtypes, _name)


class Error(Exception):
    """A libpto call failed. ``str(e)`` is libpto's sentence naming the function,
    the operand and the rule (pto_last_error()); ``e.status`` is the Status.
    Each status raises its own subclass, which also derives from the matching
    built-in exception."""

    status: Status

    def __init__(self, message: str, status: Union[Status, int]) -> None:
        """An error with libpto's sentence and its Status."""
        super().__init__(message)
        self.status = status  # type: ignore[assignment]

    def __reduce__(self) -> Tuple[Any, ...]:
        return (type(self), (str(self), self.status))


class NullArgumentError(Error, ValueError):
    """ERR_NULL_ARGUMENT: a required tile or buffer is None."""


class InvalidArgumentError(Error, ValueError):
    """ERR_INVALID_ARGUMENT: a bad enum value, a zero dimension, a size above 256
    MiB, a wrong byte count or a misaligned placement."""


class UnsupportedDTypeError(Error, TypeError):
    """ERR_UNSUPPORTED_DTYPE: the operation (or the profile, or the algorithm)
    does not support dst's element type."""


class DTypeMismatchError(Error, TypeError):
    """ERR_DTYPE_MISMATCH: an operand's element type differs from dst's."""


class ShapeMismatchError(Error, ValueError):
    """ERR_SHAPE_MISMATCH: valid regions violate the operation's rules."""


class OutOfRangeError(Error, IndexError):
    """ERR_OUT_OF_RANGE: a valid region larger than the tile, or a placed tile
    that does not fit in its buffer."""


class AliasingError(Error, ValueError):
    """ERR_ALIASING: operands share storage where the operation forbids it."""


class OutOfMemoryError(Error, MemoryError):
    """ERR_OUT_OF_MEMORY: an allocation failed."""


_ERROR_CLASSES: Tuple[Type[Error], ...] = (
    Error,  # PTO_OK: never raised
    NullArgumentError,
    InvalidArgumentError,
    UnsupportedDTypeError,
    DTypeMismatchError,
    ShapeMismatchError,
    OutOfRangeError,
    AliasingError,
    OutOfMemoryError,
)
_pto._register(tuple(DType), Status, tuple(Profile), Error, _ERROR_CLASSES)
# The C functions' signatures name the modes' enums.
for _name in _enums.__all__:
    if not hasattr(_pto, _name):
        setattr(_pto, _name, getattr(_enums, _name))


def _dtype_of_array(dtype: np.dtype) -> DType:
    for member, numpy_type in _NUMPY_TYPES.items():
        if dtype == np.dtype(numpy_type):
            return member  # uint16 finds UINT16 first: raw bfloat16 bits need dtype=BFLOAT16
    raise TypeError(f"numpy dtype {dtype} has no pto.DType (int8..uint64, float16, float32"
                    f"{', ml_dtypes.bfloat16, float8_e4m3fn, float8_e5m2' if _bfloat16 is not None else ''})")


_T = TypeVar("_T", bound="Tile")


class Tile(_pto.TileCore):
    """A rows x cols row-major tile of one DType, with a valid region.

    ``Tile(dtype, rows, cols)`` owns zero-filled, 64-byte aligned storage.
    ``Tile.from_numpy(array)`` copies a 2-D array; ``Tile.at(buffer, offset,
    dtype, rows, cols)`` places a tile in a Buffer (TASSIGN).

    ``Tile.cube(dtype, rows, cols, location, layout)`` makes a tile of one of
    the cube's memories in a fractal layout, for the matrix multiplies under
    Profile.A2A3 and A5; ``write_values`` and ``values()`` exchange its values
    row-major.

    Attributes: dtype, rows, cols, shape, valid (settable), nbytes, buffer,
    offset, closed, location, layout. ``numpy()`` is a zero-copy view (of a
    cube tile: its byte image). A tile is a context manager
    (close() on exit) and supports the buffer protocol (memoryview(tile)).
    Raises InvalidArgumentError for a zero dimension, an unknown dtype or more
    than 256 MiB, OutOfMemoryError when the allocation fails.
    """

    __slots__ = ()

    @classmethod
    def from_numpy(cls: Type[_T], array: Any, dtype: Optional[DType] = None) -> _T:
        """A new owned tile holding a copy of a 2-D array.

        The dtype comes from the array unless given. With ``dtype`` given, an
        array of another type is converted by numpy (``astype``, same-kind
        casting; a nested list is converted value by value);
        ``dtype=DType.BFLOAT16`` with a uint16 array takes the values as raw
        bfloat16 bits. Raises TypeError for a numpy dtype without a DType or a
        conversion across kinds, ValueError for an array that is not 2-D.
        """
        arr = np.asarray(array)
        if dtype is not None and not isinstance(array, np.ndarray):
            dtype = DType(dtype)  # a list: numpy converts the values themselves
            if dtype not in _BITS_TYPES or _NUMPY_TYPES[dtype] is not _RAW_TYPES[dtype]:
                arr = np.asarray(array, dtype=_NUMPY_TYPES[dtype])
        if arr.ndim != 2:
            raise ValueError(f"from_numpy needs a 2-D array, not {arr.ndim}-D")
        if dtype is None:
            dtype = _dtype_of_array(arr.dtype)
        else:
            dtype = DType(dtype)
            if dtype in _BITS_TYPES and arr.dtype == np.dtype(_RAW_TYPES[dtype]):
                pass  # raw bits
            elif arr.dtype != np.dtype(_NUMPY_TYPES[dtype]):
                if dtype in _BITS_TYPES and _NUMPY_TYPES[dtype] is _RAW_TYPES[dtype]:
                    raw = np.dtype(_RAW_TYPES[dtype]).name
                    raise TypeError(f"{dtype.name} from a non-{raw} array needs ml_dtypes' type "
                                    f"for it (or pass the raw bits as {raw})")
                arr = arr.astype(_NUMPY_TYPES[dtype], casting="same_kind")
        tile = cls(dtype, arr.shape[0], arr.shape[1])
        raw = np.asarray(memoryview(tile))
        np.copyto(raw, arr.view(_RAW_TYPES[dtype]) if arr.dtype != raw.dtype else arr)
        return tile

    def numpy(self) -> np.ndarray:
        """A writable numpy view of all rows x cols elements (zero-copy).

        The array keeps the tile alive (its ``base`` chain holds the tile) and
        sees every later write; writes to it change the tile. BFLOAT16 tiles give
        ml_dtypes.bfloat16 arrays, or uint16 raw bits without ml_dtypes.
        """
        raw = np.asarray(memoryview(self))  # memoryview: a closed tile raises
        want = _NUMPY_TYPES[self.dtype]
        return raw if raw.dtype == want else raw.view(want)

    @property
    def location(self) -> Location:
        """Where the tile lives: Location.VEC, or one of the cube's memories
        (a tile of ``Tile.cube``)."""
        return Location(self._location)

    @property
    def layout(self) -> Layout:
        """How its elements lie in its storage: Layout.ND (row-major), or the
        fractal layout of a ``Tile.cube`` tile."""
        return Layout(self._layout)

    def values(self) -> np.ndarray:
        """A row-major copy of all rows x cols values, whatever the layout
        (pto_tile_read): for a cube tile in a fractal layout, its values,
        where ``numpy()`` shows the byte image the NPU's memory holds."""
        raw = np.empty((self.rows, self.cols), dtype=_RAW_TYPES[self.dtype])
        self._read_values(raw)
        want = _NUMPY_TYPES[self.dtype]
        return raw if raw.dtype == want else raw.view(want)

    def write_values(self, array: Any) -> None:
        """Sets all rows x cols values from a 2-D array of the tile's shape,
        row-major whatever the layout (pto_tile_write); converted as
        ``from_numpy`` converts. Raises ValueError for another shape."""
        arr = np.asarray(array)
        if arr.shape != (self.rows, self.cols):
            raise ValueError(f"write_values needs a {self.rows}x{self.cols} array, not {arr.shape}")
        want = np.dtype(_NUMPY_TYPES[self.dtype])
        raw_bits = self.dtype in _BITS_TYPES and arr.dtype == np.dtype(_RAW_TYPES[self.dtype])
        if not raw_bits and arr.dtype != want:
            arr = arr.astype(want, casting="same_kind")
        self._write_values(np.ascontiguousarray(arr).view(_RAW_TYPES[self.dtype]))

    def __repr__(self) -> str:
        if self.closed:
            return "<pto.Tile (closed)>"
        placed = f" at offset {self.offset}" if self.buffer is not None else ""
        return (f"<pto.Tile {self.dtype.name} {self.rows}x{self.cols}, valid "
                f"{self.valid[0]}x{self.valid[1]}{placed}>")


class Buffer(_pto.BufferCore):
    """A byte arena in which tiles are placed with Tile.at (TASSIGN).

    ``Buffer(nbytes)`` owns zero-filled, 64-byte aligned memory;
    ``Buffer.wrap(obj)`` uses the memory of a writable C-contiguous
    buffer-protocol object (numpy array, bytearray...) without copying and keeps
    a reference to it. ``nbytes``, ``numpy()`` (a uint8 view), ``close()``; a
    context manager.
    """

    __slots__ = ()

    def numpy(self) -> np.ndarray:
        """A writable uint8 numpy view of the whole buffer (zero-copy), which
        keeps the buffer alive."""
        return np.asarray(memoryview(self))  # memoryview: a closed buffer raises

    def __repr__(self) -> str:
        if self.closed:
            return "<pto.Buffer (closed)>"
        return f"<pto.Buffer {self.nbytes} bytes>"


def set_profile(p: Profile) -> None:
    """Sets the calling thread's target profile (other threads keep theirs).

    Raises InvalidArgumentError for a value outside Profile, changing nothing.
    """
    _pto.set_profile(p)


def get_profile() -> Profile:
    """The calling thread's target profile; Profile.HOST until set."""
    return _get_profile()  # type: ignore[no-any-return]


@contextlib.contextmanager
def profile(p: Profile) -> Iterator[Profile]:
    """``with pto.profile(pto.Profile.A2A3): ...`` runs the block under that
    profile on the calling thread and restores the previous one afterwards,
    also when the block raises."""
    previous = _get_profile()
    _pto.set_profile(p)
    try:
        yield Profile(p)
    finally:
        _pto.set_profile(previous)


def set_board_mode(on: bool) -> None:
    """Sets the calling thread's board mode (pto_set_board_mode): under
    Profile.A2A3 and Profile.A5 a rule that the NPU implementation checks only
    in a debug build runs as that implementation does, with one warning per
    occurrence on stderr, instead of raising (docs/profiles.md, "Board mode").
    Profile.HOST ignores it. A program is verified in the mode in effect when
    it is created and checked at run time in the mode of the launching thread.
    """
    _pto.set_board_mode(bool(on))


def board_mode() -> bool:
    """The calling thread's board mode; False until set."""
    return bool(_pto.board_mode())


from ._program import Parameter, ParamKind, Program, ProgramError  # noqa: E402  (needs the names above)
from ._hand import *  # noqa: E402,F401,F403  (needs Tile; the per-thread settings, mgather_oob, mscatter_ex, tquant_mx)
from . import _hand  # noqa: E402

__all__ += _hand.__all__
