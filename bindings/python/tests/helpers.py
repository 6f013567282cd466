"""Reference values, dtype conversions and ulp distances for the pto tests.

References are computed in float64 from the tiles' exact values and rounded once
to the tile's type. For +, *, / and sqrt of float16/bfloat16/float32 inputs that
single rounding from float64 (or through float32 for the 16-bit types) is the
correctly rounded result: 53 >= 2*24 + 2 and 24 >= 2*11 + 2 (double rounding is
innocuous, Figueroa 1995).
"""

from __future__ import annotations

import os
import pathlib
import sys
import threading
import time

import numpy as np

import pto

D = pto.DType


def source_file(*parts: str) -> pathlib.Path | None:
    """A file of the source tree (PTO_SOURCE_ROOT, as meson sets it, or the
    tree these tests lie in), or None outside one."""
    for root in (os.environ.get("PTO_SOURCE_ROOT"), pathlib.Path(__file__).resolve().parents[3]):
        if root and pathlib.Path(root, *parts).is_file():
            return pathlib.Path(root, *parts)
    return None

INT_TYPES = [D.INT8, D.UINT8, D.INT16, D.UINT16, D.INT32, D.UINT32]
FLOAT_TYPES = [D.FLOAT16, D.BFLOAT16, D.FLOAT32]
ALL_TYPES = INT_TYPES + FLOAT_TYPES
RAW = {D.INT8: np.int8, D.UINT8: np.uint8, D.INT16: np.int16, D.UINT16: np.uint16,
       D.INT32: np.int32, D.UINT32: np.uint32, D.FLOAT16: np.float16, D.BFLOAT16: np.uint16,
       D.FLOAT32: np.float32}
# (precision in bits, smallest normal exponent)
FLOAT_FORMAT = {D.FLOAT16: (11, -14), D.BFLOAT16: (8, -126), D.FLOAT32: (24, -126)}


def bf16_bits_from_f32(values: np.ndarray) -> np.ndarray:
    """float32 -> bfloat16 bits, round to nearest even; NaN stays NaN."""
    u = np.asarray(values, dtype=np.float32).view(np.uint32).astype(np.uint64)
    rounded = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)
    nan = (u & 0x7FFFFFFF) > 0x7F800000
    return np.where(nan, ((u >> 16) | 0x40).astype(np.uint16), rounded)


def bf16_bits_to_f32(bits: np.ndarray) -> np.ndarray:
    return (np.asarray(bits, dtype=np.uint16).astype(np.uint32) << 16).view(np.float32)


def round_to(dtype: pto.DType, values: np.ndarray) -> np.ndarray:
    """float64 values rounded once to dtype, returned as raw storage values."""
    v = np.asarray(values, dtype=np.float64)
    if dtype is D.FLOAT32:
        return v.astype(np.float32)
    if dtype is D.FLOAT16:
        return v.astype(np.float16)
    return bf16_bits_from_f32(v.astype(np.float32))


def raw(tile: pto.Tile) -> np.ndarray:
    """The tile's storage (bfloat16 as uint16 bits), a copy."""
    return np.asarray(tile).copy()


def to_float64(dtype: pto.DType, raw_values: np.ndarray) -> np.ndarray:
    if dtype is D.BFLOAT16:
        return bf16_bits_to_f32(raw_values).astype(np.float64)
    return np.asarray(raw_values).astype(np.float64)


def values(tile: pto.Tile) -> np.ndarray:
    """The tile's elements as float64 (floats) or int64 (integers)."""
    r = raw(tile)
    if tile.dtype in FLOAT_TYPES:
        return to_float64(tile.dtype, r)
    return r.astype(np.int64)


def make(dtype: pto.DType, data, valid=None) -> pto.Tile:
    """A tile of dtype from float or int data (floats rounded to dtype)."""
    arr = np.asarray(data)
    if dtype in FLOAT_TYPES:
        t = pto.Tile.from_numpy(round_to(dtype, arr), dtype=dtype)
    else:
        t = pto.Tile.from_numpy(arr.astype(RAW[dtype]), dtype=dtype)
    if valid is not None:
        t.valid = valid
    return t


def same_bits(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Elementwise: equal values, or both NaN (signed zeros must match)."""
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    return ((a == b) & (np.signbit(a) == np.signbit(b))) | (np.isnan(a) & np.isnan(b))


def ulp_error(dtype: pto.DType, got: np.ndarray, exact: np.ndarray) -> np.ndarray:
    """|got - exact| in ulps of dtype at exact (finite, nonzero exact values)."""
    precision, emin = FLOAT_FORMAT[dtype]
    exact = np.asarray(exact, dtype=np.float64)
    e = np.floor(np.log2(np.abs(exact)))
    e = np.maximum(e, emin)
    return np.abs(np.asarray(got, dtype=np.float64) - exact) / np.exp2(e - (precision - 1))


def int_bits(dtype: pto.DType) -> int:
    return np.dtype(RAW[dtype]).itemsize * 8


def wrap_int(dtype: pto.DType, v: int) -> int:
    bits = int_bits(dtype)
    v &= (1 << bits) - 1
    if np.issubdtype(RAW[dtype], np.signedinteger) and v >= 1 << (bits - 1):
        v -= 1 << bits
    return v


def int_pow(dtype: pto.DType, base: int, exp: int) -> int:
    """The contract's integer pow: exact, wrapping; negative exponents give 1
    for base 1, +/-1 for base -1 by parity, 0 otherwise."""
    if exp < 0:
        if base == 1:
            return 1
        if base == -1:
            return 1 if exp % 2 == 0 else -1
        return 0
    return wrap_int(dtype, pow(base, exp, 1 << int_bits(dtype)))


def random_ints(rng: np.random.Generator, dtype: pto.DType, shape) -> np.ndarray:
    info = np.iinfo(RAW[dtype])
    return rng.integers(info.min, info.max, size=shape, endpoint=True, dtype=np.int64)


def other_thread_progresses(call) -> int:
    """How far a spinning Python thread counted while call() ran on this one
    (tried up to 5 times until it is nonzero). With a 100 s switch interval the
    interpreter never takes the GIL from this thread: the spinner can only count
    while call() releases it."""
    counter = [0]
    stop = threading.Event()

    def spin():
        while not stop.is_set():
            counter[0] += 1
            time.sleep(0)  # lets the calling thread take the GIL back at once

    interval = sys.getswitchinterval()
    sys.setswitchinterval(100)
    spinner = threading.Thread(target=spin)
    progressed = 0
    try:
        spinner.start()
        for _ in range(5):  # a busy machine may not schedule the spinner at once
            time.sleep(0.02)
            before = counter[0]
            call()
            progressed = counter[0] - before
            if progressed:
                break
    finally:
        stop.set()
        spinner.join()
        sys.setswitchinterval(interval)
    return progressed
