"""Buffers and placed tiles (TASSIGN): owned and wrapped memory, zero-copy
both ways, lifetimes, overlap rules."""

import gc

import numpy as np
import pytest

import pto
from helpers import D, make, raw


def test_owned_buffer():
    b = pto.Buffer(256)
    assert b.nbytes == 256 and not b.closed and "256 bytes" in repr(b)
    v = b.numpy()
    assert v.dtype == np.uint8 and v.shape == (256,) and not v.any()
    t = pto.Tile.at(b, 64, D.INT32, 2, 4)
    assert t.buffer is b and t.offset == 64 and t.shape == (2, 4)
    t.numpy()[:] = np.arange(8).reshape(2, 4)
    np.testing.assert_array_equal(v[64:96].view(np.int32), np.arange(8))


def test_wrap_numpy_array_zero_copy():
    host = np.zeros((4, 8), np.float32)
    with pto.Buffer.wrap(host) as b:
        assert b.nbytes == host.nbytes
        row1 = pto.Tile.at(b, 32, D.FLOAT32, 1, 8)  # row 1 of host
        src = make(D.FLOAT32, np.full((1, 8), 16.0))
        pto.trsqrt(row1, src)
        np.testing.assert_array_equal(host[1], 0.25)  # the op wrote into the caller's array
        assert not host[0].any() and not host[2:].any()
        host[1, 0] = 9.0
        assert row1.numpy()[0, 0] == 9.0  # and the tile sees the caller's writes
        assert np.shares_memory(row1.numpy(), host)


def test_placed_tiles_are_not_zero_filled_and_keep_offsets():
    host = np.arange(16, dtype=np.uint8)
    b = pto.Buffer.wrap(host)
    t = pto.Tile.at(b, 4, D.UINT8, 2, 2)
    assert raw(t).tolist() == [[4, 5], [6, 7]]


def test_wrap_keeps_a_reference_and_locks_resizing():
    data = bytearray(64)
    b = pto.Buffer.wrap(data)
    t = pto.Tile.at(b, 0, D.UINT16, 4, 8)
    t.numpy()[0, 0] = 0x0102
    assert data[:2] == b"\x02\x01"
    with pytest.raises(BufferError):
        data.extend(b"x")  # exported to the buffer: cannot move
    b.close()
    with pytest.raises(BufferError):
        data.extend(b"x")  # the placed tile still uses it
    t.close()
    data.extend(b"x")  # now released
    assert len(data) == 65


def test_wrapped_memory_outlives_the_callers_name():
    arr = np.arange(32, dtype=np.int32)
    b = pto.Buffer.wrap(arr)
    del arr
    gc.collect()
    t = pto.Tile.at(b, 0, D.INT32, 4, 8)
    np.testing.assert_array_equal(t.numpy().ravel(), np.arange(32))


def test_wrap_refusals():
    with pytest.raises(BufferError):
        pto.Buffer.wrap(b"read-only bytes")
    with pytest.raises((BufferError, ValueError)):  # numpy raises ValueError here
        pto.Buffer.wrap(np.zeros((4, 4), np.float32)[:, ::2])  # not contiguous
    with pytest.raises(TypeError):
        pto.Buffer.wrap(12)
    with pytest.raises(pto.InvalidArgumentError):
        pto.Buffer.wrap(bytearray())


def test_buffer_closed_while_tiles_and_views_live():
    b = pto.Buffer(128)
    view = b.numpy()
    t = pto.Tile.at(b, 0, D.FLOAT32, 4, 8)
    b.close()
    with pytest.raises(ValueError):
        pto.Tile.at(b, 0, D.FLOAT32, 1, 1)
    pto.trsqrt(t, make(D.FLOAT32, np.full((4, 8), 4.0)))  # the tile still works
    assert view[:4].view(np.float32)[0] == 0.5  # and the closed buffer's view sees it
    t.close()
    del view
    gc.collect()


def test_placement_checks():
    b = pto.Buffer(64)
    with pytest.raises(pto.OutOfRangeError):
        pto.Tile.at(b, 0, D.FLOAT32, 4, 5)
    with pytest.raises(pto.InvalidArgumentError):
        pto.Tile.at(b, 2, D.FLOAT32, 1, 1)  # misaligned
    with pytest.raises(pto.NullArgumentError):
        pto.Tile.at(None, 0, D.FLOAT32, 1, 1)
    assert pto.Tile.at(b, 60, D.FLOAT32, 1, 1).offset == 60


def test_partial_overlap_is_aliasing_identical_placement_is_in_place():
    b = pto.Buffer(256)
    x = pto.Tile.at(b, 0, D.FLOAT32, 2, 8)
    x.numpy()[:] = np.arange(1, 17).reshape(2, 8)
    shifted = pto.Tile.at(b, 4, D.FLOAT32, 2, 8)  # one element further: partial overlap
    before = b.numpy().copy()
    with pytest.raises(pto.AliasingError):
        pto.trsqrt(shifted, x)
    np.testing.assert_array_equal(b.numpy(), before)  # nothing written
    same = pto.Tile.at(b, 0, D.FLOAT32, 2, 8)  # identical placement: in place
    owned = pto.trsqrt(pto.Tile(D.FLOAT32, 2, 8), make(D.FLOAT32, np.arange(1, 17).reshape(2, 8)))
    pto.trsqrt(same, x)
    np.testing.assert_array_equal(x.numpy(), owned.numpy())  # bit-identical to owned tiles


def test_tile_wrapping_another_tiles_memory():
    owner = make(D.INT32, np.arange(16).reshape(4, 4))
    b = pto.Buffer.wrap(owner.numpy())
    lower = pto.Tile.at(b, 32, D.INT32, 2, 4)  # rows 2-3 of owner
    np.testing.assert_array_equal(lower.numpy(), np.arange(8, 16).reshape(2, 4))
    with pytest.raises(pto.AliasingError):
        pto.tpartadd(lower, owner, owner)  # overlap judged by address, across buffers
