"""Tiles: attributes, valid regions, from_numpy copies, numpy() zero-copy views
and their lifetime (close() never leaves a view dangling)."""

import gc
import sys

import numpy as np
import pytest

import pto
from helpers import ALL_TYPES, D, RAW, bf16_bits_from_f32, make, raw

try:
    import ml_dtypes
except ImportError:
    ml_dtypes = None


def test_attributes_and_zero_fill():
    t = pto.Tile(D.INT16, 3, 5)
    assert (t.dtype, t.rows, t.cols, t.shape, t.valid) == (D.INT16, 3, 5, (3, 5), (3, 5))
    assert isinstance(t.dtype, pto.DType) and t.nbytes == 30 and t.buffer is None and t.offset == 0
    assert not t.closed and not raw(t).any()
    t.valid = (2, 0)
    assert t.valid == (2, 0)
    t.valid = [3, 5]
    assert t.valid == (3, 5)
    assert "INT16 3x5" in repr(t)


@pytest.mark.parametrize("dtype", ALL_TYPES, ids=lambda d: d.name)
def test_numpy_dtype_mapping(dtype):
    t = pto.Tile(dtype, 2, 3)
    a = t.numpy()
    assert a.shape == (2, 3) and a.flags.writeable and a.flags.c_contiguous
    if dtype is D.BFLOAT16:
        want = ml_dtypes.bfloat16 if ml_dtypes is not None else np.uint16
    else:
        want = RAW[dtype]
        assert np.dtype(want).name == dtype.name.lower()
    assert a.dtype == np.dtype(want) == dtype.numpy_dtype
    assert a.itemsize == dtype.itemsize


@pytest.mark.parametrize("dtype", ALL_TYPES, ids=lambda d: d.name)
def test_numpy_is_a_zero_copy_view(dtype):
    t = pto.Tile(dtype, 4, 4)
    a = t.numpy()
    a[1, 2] = 1
    assert raw(t)[1, 2] != 0
    assert np.shares_memory(a, np.asarray(memoryview(t)))
    pto.tpartadd(t, t, make(dtype, np.ones((4, 4))))  # a write by libpto shows in the view
    assert raw(t)[0, 0] == raw(make(dtype, np.ones((1, 1))))[0, 0]
    np.testing.assert_array_equal(np.asarray(a).view(np.uint8), np.asarray(memoryview(t)).view(np.uint8))


def holds(array, obj):
    """Whether array's base chain (arrays, memoryviews) reaches obj."""
    base = array
    while base is not None:
        if base is obj or getattr(base, "obj", None) is obj:
            return True
        base = getattr(base, "base", None)
    return False


def test_view_keeps_the_tile_alive():
    t = make(D.FLOAT32, np.arange(12.0).reshape(3, 4))
    a = t.numpy()
    assert holds(a, t)
    refs = sys.getrefcount(t)
    b = t.numpy()
    assert sys.getrefcount(t) > refs
    del b, t
    gc.collect()
    others = [make(D.FLOAT32, np.full((3, 4), 99.0)) for _ in range(50)]  # reuse freed memory, if any
    np.testing.assert_array_equal(a, np.arange(12.0).reshape(3, 4))
    a[0, 0] = -1
    assert a[0, 0] == -1 and len(others) == 50


def test_close_with_live_view_keeps_the_memory_until_the_view_dies():
    t = make(D.INT32, np.arange(6).reshape(2, 3))
    a = t.numpy()
    with t:
        pass  # __exit__ closes
    assert t.closed
    with pytest.raises(ValueError):
        t.numpy()
    with pytest.raises(ValueError):
        pto.tpartadd(t, t, t)
    [make(D.INT32, np.full((2, 3), 7)) for _ in range(50)]
    np.testing.assert_array_equal(a, np.arange(6).reshape(2, 3))  # still the tile's memory
    a += 1
    assert a.sum() == 21
    del a  # the deferred destroy runs here
    gc.collect()


def test_context_manager_and_closed_repr():
    with pto.Tile(D.UINT8, 1, 1) as t:
        assert isinstance(t, pto.Tile)
    assert t.closed and repr(t) == "<pto.Tile (closed)>"
    with pytest.raises(ValueError):
        with t:
            pass


def test_from_numpy_copies_and_infers_the_dtype():
    a = np.arange(12, dtype=np.int16).reshape(3, 4)
    t = pto.Tile.from_numpy(a)
    assert t.dtype is D.INT16 and t.shape == (3, 4) and t.valid == (3, 4)
    a[0, 0] = 100
    assert t.numpy()[0, 0] == 0  # a copy
    assert not np.shares_memory(a, t.numpy())
    nc = np.arange(20, dtype=np.float32).reshape(4, 5)[:, ::2]  # not contiguous
    np.testing.assert_array_equal(pto.Tile.from_numpy(nc).numpy(), nc)
    f = pto.Tile.from_numpy(np.array([[1.5, 2.25]]), dtype=D.FLOAT32)  # float64 converted
    assert f.dtype is D.FLOAT32 and f.numpy().tolist() == [[1.5, 2.25]]
    assert pto.Tile.from_numpy([[1, 2]], dtype=D.UINT8).numpy().dtype == np.uint8


def test_from_numpy_refusals():
    with pytest.raises(ValueError, match="2-D"):
        pto.Tile.from_numpy(np.zeros(4, np.float32))
    with pytest.raises(TypeError, match="float64"):
        pto.Tile.from_numpy(np.zeros((2, 2)))
    with pytest.raises(TypeError):
        pto.Tile.from_numpy(np.ones((2, 2), np.float32), dtype=D.INT32)  # float -> int is not same-kind
    with pytest.raises(pto.InvalidArgumentError):
        pto.Tile.from_numpy(np.zeros((0, 3), np.float32))


def test_bfloat16_raw_bits():
    bits = bf16_bits_from_f32(np.array([[1.0, -2.5, 3.140625]], np.float32))
    t = pto.Tile.from_numpy(bits, dtype=D.BFLOAT16)
    assert t.dtype is D.BFLOAT16
    np.testing.assert_array_equal(np.asarray(memoryview(t)), bits)
    view = t.numpy()
    if ml_dtypes is None:
        assert view.dtype == np.uint16
        np.testing.assert_array_equal(view, bits)
    else:
        assert view.dtype == ml_dtypes.bfloat16
        assert view.astype(np.float32).tolist() == [[1.0, -2.5, 3.140625]]


@pytest.mark.skipif(ml_dtypes is None, reason="ml_dtypes is not installed: BFLOAT16 maps to uint16 here")
def test_bfloat16_with_ml_dtypes():
    a = np.array([[1.0, 0.5], [-4.0, 8.0]], dtype=ml_dtypes.bfloat16)
    t = pto.Tile.from_numpy(a)
    assert t.dtype is D.BFLOAT16
    np.testing.assert_array_equal(t.numpy(), a)
    f = pto.Tile.from_numpy(np.array([[3.0]], np.float32), dtype=D.BFLOAT16)
    assert f.numpy().astype(np.float32)[0, 0] == 3.0


def test_uint16_array_is_uint16_unless_told():
    assert pto.Tile.from_numpy(np.zeros((1, 1), np.uint16)).dtype is D.UINT16


def test_buffer_protocol_formats():
    for dtype, fmt in [(D.INT8, "b"), (D.UINT32, "I"), (D.FLOAT16, "e"), (D.BFLOAT16, "H"), (D.FLOAT32, "f")]:
        m = memoryview(pto.Tile(dtype, 2, 3))
        assert (m.format, m.shape, m.itemsize, m.readonly) == (fmt, (2, 3), dtype.itemsize, False)
        assert m.strides == (3 * dtype.itemsize, dtype.itemsize)
        m.release()


@pytest.mark.parametrize("dtype", [D.INT64, D.UINT64], ids=lambda d: d.name)
def test_int64_dtypes(dtype):
    """INT64 and UINT64 map to numpy's int64 and uint64, both ways, and their
    bits survive a tile, tmov and tadd (wrapping modulo 2^64)."""
    want = np.int64 if dtype is D.INT64 else np.uint64
    assert dtype.numpy_dtype == np.dtype(want) and dtype.itemsize == 8
    bits = np.array([0, 1, 2**63 - 1, 2**63, 2**64 - 1, 0x0123456789ABCDEF], dtype=np.uint64)
    a = bits.view(want).reshape(2, 3)
    t = pto.Tile.from_numpy(a)
    assert t.dtype is dtype
    np.testing.assert_array_equal(t.numpy(), a)
    assert np.asarray(memoryview(t)).dtype == np.dtype(want)
    moved = pto.Tile(dtype, 2, 3)
    pto.tmov(moved, t)
    np.testing.assert_array_equal(moved.numpy(), a)
    total = pto.Tile(dtype, 2, 3)
    pto.tadd(total, t, t)
    np.testing.assert_array_equal(total.numpy().view(np.uint64), bits.reshape(2, 3) * np.uint64(2))


@pytest.mark.parametrize("dtype", [D.INT64, D.UINT64], ids=lambda d: d.name)
def test_int64_rows(dtype):
    """The rows that take the 8-byte integers, through the binding: a scalar
    beyond 2^32 (a double's integer), a compare's mask, a row sum wrapping
    modulo 2^64, a gather by INT32 indices; A2A3 refuses them, and a scalar
    out of the dtype's range is refused."""
    want = np.int64 if dtype is D.INT64 else np.uint64
    bits = np.array([[0, 1, 2**63 - 1, 2**63], [2**64 - 1, 5, 2**40, 7]], dtype=np.uint64)
    a = pto.Tile.from_numpy(bits.view(want))
    d = pto.Tile(dtype, 2, 4)
    pto.tadds(d, a, 2.0**40)
    np.testing.assert_array_equal(d.numpy().view(np.uint64), bits + np.uint64(2**40))
    m = pto.Tile(D.UINT8, 2, 1)
    pto.tcmps(m, a, 2.0**40, mode=pto.CmpMode.GE)
    signed = dtype is D.INT64
    ge = (bits.view(np.int64) >= 2**40) if signed else (bits >= np.uint64(2**40))
    assert raw(m).ravel().tolist() == [int(sum(int(b) << j for j, b in enumerate(row))) for row in ge]
    s = pto.Tile(dtype, 2, 1)
    pto.trowsum(s, a)
    np.testing.assert_array_equal(s.numpy().view(np.uint64).ravel(), bits.sum(axis=1, dtype=np.uint64))
    idx = make(D.INT32, [[7, 0, 3, 3], [1, 2, 6, 4]])
    g = pto.Tile(dtype, 2, 4)
    pto.tgather(g, a, idx)
    np.testing.assert_array_equal(g.numpy().view(np.uint64).ravel(), bits.ravel()[[7, 0, 3, 3, 1, 2, 6, 4]])
    with pytest.raises(pto.InvalidArgumentError, match="scalar"):
        pto.tadds(d, a, 2.0**63 if signed else -1.0)
    with pto.profile(pto.Profile.A2A3):
        with pytest.raises(pto.UnsupportedDTypeError, match="A2A3"):
            pto.tadds(d, a, 1.0)


def test_int64_program():
    """A kernel over !pto.ptr<i64>: global memory as a numpy int64 array."""
    prog = pto.Program("""module {
  func.func @k(%p: !pto.ptr<i64>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %x = pto.load_scalar %p[%c0] : !pto.ptr<i64> -> i64
    pto.store_scalar %x, %p[%c1] : !pto.ptr<i64>, i64
    return
  }
}
""")
    assert prog.parameters[0].dtype is D.INT64
    mem = np.array([-(2**62) - 5, 0], dtype=np.int64)
    prog(p=mem)
    assert mem[1] == -(2**62) - 5


LOW_PRECISION = [D.FLOAT8_E4M3, D.FLOAT8_E5M2, D.HIFLOAT8, D.FLOAT8_E8M0, D.FLOAT4_E2M1X2,
                 D.FLOAT4_E1M2X2, D.INT4X2]


@pytest.mark.parametrize("dtype", LOW_PRECISION, ids=lambda d: d.name)
def test_low_precision_bytes(dtype):
    """The low-precision types take uint8 arrays as their raw bytes, one byte
    an element, and give them back (as ml_dtypes' type where it has one and
    is installed, else uint8); every elementwise row refuses them."""
    assert dtype.itemsize == 1
    codes = np.arange(32, dtype=np.uint8).reshape(2, 16)
    t = pto.Tile.from_numpy(codes, dtype=dtype)
    assert t.dtype is dtype and t.shape == (2, 16)
    np.testing.assert_array_equal(t.numpy().view(np.uint8), codes)
    assert t.numpy().dtype == dtype.numpy_dtype
    if dtype in (D.HIFLOAT8, D.FLOAT4_E2M1X2, D.FLOAT4_E1M2X2, D.INT4X2):
        assert dtype.numpy_dtype == np.dtype(np.uint8)
    with pytest.raises(pto.UnsupportedDTypeError):
        pto.tadd(pto.Tile(dtype, 2, 16), t, t)


def test_float8_tcvt_against_ml_dtypes():
    """FLOAT32 -> FLOAT8_E4M3 and FLOAT8_E5M2 (nearest even, not saturating)
    and back, against ml_dtypes' conversions: a cross-check beside
    test_lowp's reference, run where ml_dtypes is installed."""
    ml = pytest.importorskip("ml_dtypes", reason="ml_dtypes is not installed: the cross-check needs it")
    x = np.random.default_rng(8).standard_normal((4, 64)).astype(np.float32) * np.float32(300)
    src = pto.Tile.from_numpy(x)
    for dtype, ml_type in ((D.FLOAT8_E4M3, ml.float8_e4m3fn), (D.FLOAT8_E5M2, ml.float8_e5m2)):
        dst = pto.Tile(dtype, 4, 64)
        pto.tcvt(dst, src, None, pto.RoundMode.RINT, pto.Saturation.OFF)
        np.testing.assert_array_equal(dst.numpy().view(np.uint8), x.astype(ml_type).view(np.uint8))
        back = pto.Tile(D.FLOAT32, 4, 64)
        pto.tcvt(back, dst, None, pto.RoundMode.RINT, pto.Saturation.ON)
        np.testing.assert_array_equal(back.numpy(), x.astype(ml_type).astype(np.float32))
