"""pto.Program: PTO assembly text, parsed and verified once, then run.

Imported by pto/__init__.py after its enums, exceptions and Tile exist; the C
core is pto._pto.ProgramCore (src/program.c).
"""

from __future__ import annotations

import numbers
import operator
import re
from typing import Any, Dict, List, NamedTuple, NoReturn, Optional, Tuple, Union

import numpy as np

from . import _pto
from ._enums import ParamKind
from . import DType, Error, Profile, Status, Tile, _ERROR_CLASSES, _NUMPY_TYPES, _RAW_TYPES

__all__ = ["ParamKind", "Parameter", "Program", "ProgramError"]


class Parameter(NamedTuple):
    """One parameter of a Program, as ``(name, kind, dtype)``: its name without
    ``%``, its ParamKind and its DType (a pointer's element type, a tile's, or
    for scalars INT8/INT16/INT32 and FLOAT16/BFLOAT16/FLOAT32 as
    pto_program_param_dtype says)."""

    name: str
    kind: ParamKind
    dtype: DType


class ProgramError(Error, ValueError):
    """A program was refused: at construction (a syntax error, a construct
    outside the subset, or a rule an operation checks, under the program's
    profile) or during a run (an access outside a bound array or a view, a
    run-time valid region a rule refuses).

    ``str(e)`` is libpto's diagnostic ``NAME:LINE:COL: error: SENTENCE``;
    ``e.line`` and ``e.column`` (1-based) locate the offending token, or are
    None where the message has no location; ``e.status`` is the Status the C
    API returns for the same mistake (ERR_INVALID_ARGUMENT for syntax).
    """

    line: Optional[int]
    column: Optional[int]

    def __init__(self, message: str, status: Union[Status, int], line: Optional[int] = None,
                 column: Optional[int] = None) -> None:
        """An error with libpto's diagnostic, its Status and location."""
        super().__init__(message, status)
        self.line = line
        self.column = column

    def __reduce__(self) -> Tuple[Any, ...]:
        return (type(self), (str(self), self.status, self.line, self.column))


_LOCATION = re.compile(r"(\d+):(\d+): error: ")


def _status(code: int) -> Union[Status, int]:
    try:
        return Status(code)
    except ValueError:
        return code


def _diagnostic(name: str, message: str) -> Optional[Tuple[int, int]]:
    """(line, column) of a "NAME:LINE:COL: error: ..." diagnostic, else None."""
    prefix = name + ":"
    if not message.startswith(prefix):
        return None
    m = _LOCATION.match(message, len(prefix))
    return (int(m.group(1)), int(m.group(2))) if m else None


def _raise_failure(name: str, failure: Tuple[str, int, str, int], params: List[Any]) -> NoReturn:
    stage, code, message, index = failure
    status = _status(code)
    where = _diagnostic(name, message)
    if stage == "create" or where is not None:
        line, column = where if where is not None else (None, None)
        raise ProgramError(message, status, line, column)
    if stage == "bind" and index >= 0:  # a value the declared type refuses (e.g. an i8 out of range)
        raise ValueError(f"argument '{params[index][0]}': {message}")
    cls = _ERROR_CLASSES[code] if 0 < code < len(_ERROR_CLASSES) else Error
    raise cls(message, status)


def _array_dtype(array: np.ndarray, want: DType) -> bool:
    """Whether array's dtype is want's numpy type (BFLOAT16: also uint16 raw bits)."""
    if array.dtype == np.dtype(_NUMPY_TYPES[want]):
        return True
    return want is DType.BFLOAT16 and array.dtype == np.dtype(np.uint16)


def _dtype_names(want: DType) -> str:
    if want is DType.BFLOAT16:
        return "ml_dtypes.bfloat16 or uint16 raw bits" if _NUMPY_TYPES[want] is not np.uint16 else "uint16 raw bits"
    return str(np.dtype(_NUMPY_TYPES[want]))


_Param = Tuple[str, ParamKind, DType, int, int, int, Optional[int], Optional[int]]


def _new_tile(p: _Param, tile: Any) -> Any:
    """Gives a tile made for parameter p the declared valid region where the
    type gives a static one (pto_args_set_tile requires it); returns tile."""
    rows, cols, vrows, vcols = p[3], p[4], p[6], p[7]
    if vrows is not None or vcols is not None:
        tile.valid = (rows if vrows is None else vrows, cols if vcols is None else vcols)
    return tile


class Program:
    """PTO assembly text, parsed and verified once, then run any number of times.

    ``Program(text, *, profile=None, name="<string>", entry=None)`` parses
    and verifies ``text`` (str or bytes): a snippet in the synchronous, SSA
    (AS Level 1) or DPS (AS Level 2) form, with manual placement
    (``pto.tassign``), or a module whose ``func.func`` is a kernel over global
    memory. The profile is the module's ``pto.target_arch`` when present, else
    ``profile``, else the calling thread's (``profile`` is set on this thread
    for the creation only; the previous one is restored). ``name`` names the
    text in diagnostics. ``entry`` names the module's entry function (with or
    without ``@``); None or "" chooses the function marked ``pto.entry`` (or
    ``pto.kernel``, or with a ``pto.kernel_kind`` attribute), else the
    module's only public function, else its only function. Every function of
    a module is verified, the others too. Raises ProgramError (a ValueError)
    with ``.line``, ``.column`` and ``.status`` when the text does not parse
    or verify, when no function is called ``entry``, or, with no entry, when
    the module has several public functions and marks none.

    ``prog(blocks=1, **args)`` runs it; see ``__call__``. A program is
    immutable: one may run from several threads at once.

    Attributes: ``parameters`` (a list of Parameter, i.e. ``(name, kind,
    dtype)`` tuples), ``profile``, ``name``; a tile's declared shape and valid
    region: ``tile_shape(name)``, ``tile_valid(name)``; the functions and the
    memory plan as text: ``describe()``.
    """

    __slots__ = ("_core", "_params", "_index")

    def __init__(self, text: Union[str, bytes], *, profile: Optional[Profile] = None,
                 name: str = "<string>", entry: Optional[str] = None) -> None:
        """Parses and verifies text; see the class documentation."""
        if not isinstance(text, (str, bytes)):
            raise TypeError(f"Program text must be str or bytes, not {type(text).__name__}")
        if not isinstance(name, str):
            raise TypeError(f"Program name must be a str, not {type(name).__name__}")
        if entry is not None and not isinstance(entry, str):
            raise TypeError(f"Program entry must be a str or None, not {type(entry).__name__}")
        if profile is not None:
            profile = Profile(profile)
        core = _pto._program_create(text, name, profile, entry)
        if isinstance(core, tuple):
            _raise_failure(name, core, [])
        assert isinstance(core, _pto.ProgramCore)
        self._core: _pto.ProgramCore = core
        # (name, kind, dtype, rows, cols, access, valid_rows, valid_cols) per
        # parameter; a valid dimension is None where the type says `?`
        self._params: List[_Param] = []
        for i in range(core.param_count):
            pname, kind, dtype, rows, cols, access, vrows, vcols = core.param(i)
            self._params.append((pname, ParamKind(kind), DType(dtype), rows, cols, access,
                                 None if vrows < 0 else vrows, None if vcols < 0 else vcols))
        self._index = {p[0]: i for i, p in enumerate(self._params)}

    @property
    def parameters(self) -> List[Parameter]:
        """The parameters in order, each a Parameter ``(name, kind, dtype)``:
        a kernel's func.func arguments, or a snippet's free tile names and the
        tiles it defines as results, in order of first appearance."""
        return [Parameter(p[0], p[1], p[2]) for p in self._params]

    @property
    def profile(self) -> Profile:
        """The Profile the program was verified under and runs under."""
        return Profile(self._core.profile)

    @property
    def name(self) -> str:
        """The source name used in diagnostics ("<string>" unless given)."""
        return str(self._core.name)

    def describe(self) -> str:
        """The verified program as lines of text (pto_program_describe, what
        ``pto-run --check`` prints): the module's functions with their
        parameters, the entry marked ``(entry)``, the unified buffer's use and
        every tile's place in it."""
        return str(self._core.describe())

    def tile_shape(self, name: str) -> Tuple[int, int]:
        """A TILE parameter's declared (rows, cols). KeyError for an unknown
        name, ValueError for a parameter of another kind."""
        p = self._params[self._index[name.lstrip("%")]]
        if p[1] is not ParamKind.TILE:
            raise ValueError(f"parameter '{p[0]}' is {p[1].name}, not TILE")
        return (p[3], p[4])

    def tile_valid(self, name: str) -> Tuple[Optional[int], Optional[int]]:
        """A TILE parameter's declared valid region (rows, cols): the type's
        static values, None for a dimension the type gives as ``?`` (the bound
        tile's own region is then taken). A tile without ``valid=`` declares
        its whole shape. KeyError for an unknown name, ValueError for a
        parameter of another kind."""
        p = self._params[self._index[name.lstrip("%")]]
        if p[1] is not ParamKind.TILE:
            raise ValueError(f"parameter '{p[0]}' is {p[1].name}, not TILE")
        return (p[6], p[7])

    def reads(self, name: str) -> bool:
        """Whether the program reads the parameter's value as bound (scalars:
        always; pointers: loads from it; tiles: uses it before writing it)."""
        return bool(self._params[self._index[name.lstrip("%")]][5] & _pto.PTO_PARAM_READ)

    def writes(self, name: str) -> bool:
        """Whether the program writes the parameter (pointers: stores to it;
        tiles: a result, returned by a call)."""
        return bool(self._params[self._index[name.lstrip("%")]][5] & _pto.PTO_PARAM_WRITE)

    def _describe(self, p: _Param) -> str:
        pname, kind, dtype, rows, cols, access, vrows, vcols = p
        shape = f" {rows}x{cols}" if kind is ParamKind.TILE else ""
        if kind is ParamKind.TILE and (vrows, vcols) != (rows, cols):
            shape += f" valid={'?' if vrows is None else vrows}x{'?' if vcols is None else vcols}"
        rw = ("r" if access & _pto.PTO_PARAM_READ else "") + ("w" if access & _pto.PTO_PARAM_WRITE else "")
        return f"{pname}: {kind.name.lower()} {dtype.name}{shape} ({rw or '-'})"

    def __repr__(self) -> str:
        params = ", ".join(self._describe(p) for p in self._params)
        return f"<pto.Program {self.name!r} {self.profile.name} ({params})>"

    def _bind(self, index: int, value: Any) -> Tuple[Any, Optional[_pto.TileCore]]:
        """The value passed to the C core for parameter index, and the tile
        bound for a TILE parameter."""
        p = self._params[index]
        pname, kind, dtype, rows, cols, access = p[:6]
        if kind is ParamKind.POINTER:
            try:
                array = np.asarray(memoryview(value)) if not isinstance(value, np.ndarray) else value
            except TypeError:
                raise TypeError(f"argument '{pname}' (global memory of {dtype.name}) must be a numpy array "
                                f"or another buffer, not {type(value).__name__}") from None
            if not _array_dtype(array, dtype):
                raise TypeError(f"argument '{pname}' must have dtype {_dtype_names(dtype)} "
                                f"(the program's !pto.ptr is {dtype.name}), not {array.dtype}")
            if not array.flags.c_contiguous:
                raise ValueError(f"argument '{pname}' must be C-contiguous")
            if access & _pto.PTO_PARAM_WRITE and not array.flags.writeable:
                raise ValueError(f"argument '{pname}' must be writable (the program stores to it)")
            raw = _RAW_TYPES[dtype]
            return (array if array.dtype == np.dtype(raw) else array.view(raw)), None
        if kind is ParamKind.INT:
            if isinstance(value, (float, np.floating)):
                raise TypeError(f"argument '{pname}' must be an int, not {type(value).__name__}")
            try:
                v = operator.index(value)
            except TypeError:
                raise TypeError(f"argument '{pname}' must be an int, not {type(value).__name__}") from None
            if not -(1 << 63) <= v < (1 << 63):
                raise ValueError(f"argument '{pname}' ({v}) does not fit a 64-bit integer")
            return v, None
        if kind is ParamKind.FLOAT:
            if not isinstance(value, numbers.Real):
                raise TypeError(f"argument '{pname}' must be a float, not {type(value).__name__}")
            return float(value), None
        # TILE
        if isinstance(value, _pto.TileCore):
            if value.closed:
                raise ValueError(f"argument '{pname}' is a closed pto.Tile")
            if value.dtype is not dtype:
                raise TypeError(f"argument '{pname}' must be a {dtype.name} tile, not {value.dtype.name}")
            if value.shape != (rows, cols):
                raise ValueError(f"argument '{pname}' must be a {rows}x{cols} tile, not "
                                 f"{value.shape[0]}x{value.shape[1]}")
            return value, value
        if isinstance(value, np.ndarray):
            array = value
        else:
            want = _NUMPY_TYPES[dtype]
            try:
                array = np.asarray(value, dtype=want if want is not np.uint16 or dtype is DType.UINT16 else None)
            except (TypeError, ValueError) as e:
                raise TypeError(f"argument '{pname}' must be a {rows}x{cols} array of {dtype.name}: {e}") from None
        if not _array_dtype(array, dtype):
            raise TypeError(f"argument '{pname}' must have dtype {_dtype_names(dtype)} "
                            f"(the program's tile is {dtype.name}), not {array.dtype}")
        if array.shape != (rows, cols):
            raise ValueError(f"argument '{pname}' must have shape ({rows}, {cols}), not {array.shape}")
        # The whole array is copied in; a static declared valid region is then
        # the tile's (the results are that region).
        tile = _new_tile(p, Tile.from_numpy(array, dtype=dtype))
        return tile, tile

    def __call__(self, blocks: int = 1, /, **args: Any) -> Dict[str, np.ndarray]:
        """Runs the program on blocks 0..blocks-1 and returns the tiles it wrote.

        Each keyword names a parameter (without ``%``):
         - POINTER: a C-contiguous numpy array (or other buffer) of the
           parameter's dtype, bound zero-copy: loads and stores go to its
           memory, so results appear in it in place. It must be writable if
           the program stores to it. BFLOAT16: ml_dtypes.bfloat16 or uint16 raw
           bits. Any shape; its size in bytes bounds every access.
         - INT: an int; FLOAT: a float (rounded to the declared type).
         - TILE: a numpy array of the declared rows x cols and dtype (the
           whole array is copied into a new tile whose valid region is the
           declared one where the type gives a static one, e.g. ``valid=8x8``,
           and the whole tile otherwise; the array itself is not changed), or
           a pto.Tile of that dtype and shape (bound as is, with its own
           valid region, which must equal a static declared one: a tile the
           program writes is updated in place).
        Every pointer and scalar and every tile the program reads must be
        given; a tile the program only writes may be left out (it starts
        zero-filled, with the declared valid region where it is static). ``blocks`` (1..65536) may also be given by keyword
        unless the program has a parameter named ``blocks``; the blocks run
        concurrently, each with its own unified buffer.

        Returns a dict mapping the name of every tile parameter the program
        writes to a numpy array of that tile's valid region after the run (a
        view of the tile: no copy); empty for a kernel over global memory.

        Raises, before anything runs: TypeError for an unknown or missing
        argument or a wrong dtype, ValueError for a wrong shape, a
        non-contiguous or read-only array, a scalar out of the declared
        type's range or ``blocks`` outside 1..65536; libpto's status errors
        (e.g. InvalidArgumentError for ``blocks > 1`` with a tile the program
        writes). During the run: ProgramError with the diagnostic
        ``NAME:LINE:COL: error: SENTENCE`` and its ``.line``, ``.column`` and
        ``.status`` (e.g. ERR_OUT_OF_RANGE for an access outside a bound
        array); the instruction that failed wrote nothing. The GIL is
        released while the blocks run.
        """
        if "blocks" in args and "blocks" not in self._index:
            blocks = args.pop("blocks")
        try:
            nblocks = operator.index(blocks)
        except TypeError:
            raise TypeError(f"blocks must be an int, not {type(blocks).__name__}") from None
        if not 1 <= nblocks <= 65536:
            raise ValueError(f"blocks must be in 1..65536, not {nblocks}")
        unknown = [k for k in args if k.lstrip("%") not in self._index]
        if unknown:
            raise TypeError(f"{self.name}: unexpected argument {unknown[0]!r} (parameters: "
                            f"{', '.join(p[0] for p in self._params) or 'none'})")
        given: Dict[int, Any] = {}
        for key, value in args.items():
            i = self._index[key.lstrip("%")]
            if i in given:
                raise TypeError(f"{self.name}: argument {self._params[i][0]!r} given twice")
            given[i] = value
        missing = [p[0] for i, p in enumerate(self._params)
                   if i not in given and (p[1] is not ParamKind.TILE or p[5] & _pto.PTO_PARAM_READ)]
        if missing:
            raise TypeError(f"{self.name}: missing argument{'s' if len(missing) > 1 else ''} "
                            f"{', '.join(repr(m) for m in missing)}")
        values: List[Any] = [None] * len(self._params)
        tiles: Dict[str, _pto.TileCore] = {}
        for i, p in enumerate(self._params):
            if i in given:
                values[i], tile = self._bind(i, given[i])
            elif p[1] is ParamKind.TILE and p[5] & _pto.PTO_PARAM_WRITE:
                tile = _new_tile(p, Tile(p[2], p[3], p[4]))
                values[i] = tile
            else:
                tile = None
            if tile is not None and p[5] & _pto.PTO_PARAM_WRITE:
                tiles[p[0]] = tile
        failure = self._core.run(nblocks, tuple(values))
        if failure is not None:
            _raise_failure(self.name, failure, self._params)
        out: Dict[str, np.ndarray] = {}
        for pname, tile in tiles.items():
            vr, vc = tile.valid
            out[pname] = Tile.numpy(tile)[:vr, :vc]  # type: ignore[arg-type]  # a TileCore will do
        return out


for _cls in (ParamKind, Parameter, Program, ProgramError):
    _cls.__module__ = "pto"  # shown and pickled as pto.NAME
