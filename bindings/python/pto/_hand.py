"""The functions bound by hand whose arguments need more than a tile: the
calling thread's cube modes, MGATHER's and MSCATTER's modes over a numpy table.
(TQUANT's MX forms, tquant_mx, and the fixpipe's configuration,
set_quant_scalar and set_quant_vector, are rows of src/operations.def and
src/settings.def, generated with the operations.)

Imported by pto/__init__.py after its enums, exceptions and Tile exist; the C
side is src/thread_settings.c and src/hand_ops.c.

Per-thread settings. libpto keeps the cube modes and the fixpipe's
configuration per OS thread, like the profile: a setting made on one Python
thread applies to the calls that thread makes afterwards, never to another
thread's (a new thread starts with both modes off and no configuration).
"""

from __future__ import annotations

from typing import Any, Tuple

import numpy as np

from . import _pto
from ._enums import Coalesce, DType, GatherOob, RoundMode, ScatterAtomic, ScatterOob
from . import Tile, _NUMPY_TYPES, _RAW_TYPES, _dtype_of_array

__all__ = ["set_hf32_mode", "hf32_mode", "set_tf32_mode", "tf32_mode", "mgather_oob", "mscatter_ex"]


def set_hf32_mode(enable: bool, round: RoundMode = RoundMode.ROUND) -> None:
    """SETHF32MODE (pto_set_hf32_mode): on the calling OS thread, from now on
    (enable) or no longer, the FLOAT32 inputs a and b of tmatmul, tmatmul_acc,
    tmatmul_bias, tgemv, tgemv_acc and tgemv_bias under Profile.A2A3 are
    rounded to HF32 (e8m11: 11 fraction bits) before the multiply, to nearest
    with ties by ``round``: RoundMode.ROUND (away from zero, the pages'
    default) or RoundMode.RINT (to even). It changes nothing under HOST or A5,
    nor on other threads, nor for other input dtypes. Raises
    InvalidArgumentError for another round mode (the mode is then kept).
    """
    _pto.set_hf32_mode(bool(enable), round)


def hf32_mode() -> Tuple[bool, RoundMode]:
    """The calling OS thread's HF32 mode: (enabled, round); (False,
    RoundMode.ROUND) on a thread that never set it."""
    on, round = _pto.hf32_mode()
    return bool(on), RoundMode(round)


def set_tf32_mode(enable: bool, round: RoundMode = RoundMode.ROUND) -> None:
    """SETTF32MODE (pto_set_tf32_mode): as set_hf32_mode, for Profile.A5's
    TF32 (e8m10: 10 fraction bits); it changes nothing under HOST or A2A3.
    Applies to the calling OS thread only."""
    _pto.set_tf32_mode(bool(enable), round)


def tf32_mode() -> Tuple[bool, RoundMode]:
    """The calling OS thread's TF32 mode: (enabled, round)."""
    on, round = _pto.tf32_mode()
    return bool(on), RoundMode(round)


def _table_dtype(table: Any, tile: Tile, writable: bool, fname: str) -> DType:
    """The DType of a table array for a tile of `tile`'s dtype: the tile's when
    the array's numpy type is its type or raw bits (uint16 for BFLOAT16), else
    the array's own (which libpto then refuses as DTypeMismatchError). The
    generated operations with a table (mgather, mscatter: operations.c's
    table_operand) call it too."""
    if not isinstance(table, np.ndarray):
        raise TypeError(f"{fname}: table must be a numpy array, not {type(table).__name__}")
    if not table.flags.c_contiguous:
        raise ValueError(f"{fname}: table must be C-contiguous")
    if writable and not table.flags.writeable:
        raise ValueError(f"{fname}: table is read-only")
    if isinstance(tile, Tile) and not tile.closed:
        own = tile.dtype
        if table.dtype in (np.dtype(_NUMPY_TYPES[own]), np.dtype(_RAW_TYPES[own])):
            return DType(own)
    return _dtype_of_array(table.dtype)


def mgather_oob(dst: Tile, table: np.ndarray, indices: Tile, coalesce: Coalesce = Coalesce.ELEM,
                oob: GatherOob = GatherOob.UNDEFINED) -> Tile:
    """MGATHER with the page's GatherOOB (pto_mgather_oob): as mgather, except
    that an index past the table (its rows under Coalesce.ROW, its elements
    under Coalesce.ELEM; an index read as a uint32) is clamped to the last
    (GatherOob.CLAMP), taken modulo the capacity (GatherOob.WRAP) or gives
    zero bits (GatherOob.ZERO); GatherOob.UNDEFINED refuses it as mgather
    does. Returns dst. Raises InvalidArgumentError for an oob out of the enum.
    """
    return _pto._mgather_oob(dst, table, _table_dtype(table, dst, False, "mgather_oob"), indices, coalesce, oob)


def mscatter_ex(table: np.ndarray, src: Tile, indices: Tile, coalesce: Coalesce = Coalesce.ELEM,
                atomic: ScatterAtomic = ScatterAtomic.NONE, oob: ScatterOob = ScatterOob.UNDEFINED) -> None:
    """MSCATTER with the page's ScatterAtomicOp and ScatterOOB
    (pto_mscatter_ex): as mscatter, except that ScatterAtomic.ADD, MAX and
    MIN combine each source element with the table's, one at a time in
    row-major order (dtypes per profile as pto_c.h lists them; another raises
    UnsupportedDTypeError), and an index past the table is skipped
    (ScatterOob.SKIP), clamped or wrapped; ScatterOob.UNDEFINED refuses it as
    mscatter does.
    """
    _pto._mscatter_ex(table, _table_dtype(table, src, True, "mscatter_ex"), src, indices, coalesce, atomic, oob)
