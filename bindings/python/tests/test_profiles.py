"""Target profiles: per thread like the C API; the context manager restores."""

import threading

import numpy as np
import pytest

import pto
from helpers import D, make, raw


@pytest.fixture(autouse=True)
def host_profile():
    pto.set_profile(pto.Profile.HOST)
    yield
    pto.set_profile(pto.Profile.HOST)


def test_set_and_get():
    assert pto.get_profile() is pto.Profile.HOST
    pto.set_profile(pto.Profile.A5)
    assert pto.get_profile() is pto.Profile.A5
    with pytest.raises(pto.InvalidArgumentError, match="pto_set_profile"):
        pto.set_profile(3)
    assert pto.get_profile() is pto.Profile.A5  # unchanged


def test_context_manager_restores_also_on_error():
    with pto.profile(pto.Profile.A2A3) as p:
        assert p is pto.Profile.A2A3 and pto.get_profile() is pto.Profile.A2A3
        with pto.profile(pto.Profile.A5):
            assert pto.get_profile() is pto.Profile.A5
        assert pto.get_profile() is pto.Profile.A2A3
    assert pto.get_profile() is pto.Profile.HOST
    with pytest.raises(RuntimeError):
        with pto.profile(pto.Profile.A5):
            raise RuntimeError
    assert pto.get_profile() is pto.Profile.HOST


def test_profile_is_per_thread():
    pto.set_profile(pto.Profile.A2A3)
    seen = {}

    def worker():
        seen["start"] = pto.get_profile()
        pto.set_profile(pto.Profile.A5)
        seen["set"] = pto.get_profile()

    t = threading.Thread(target=worker)
    t.start()
    t.join()
    assert seen == {"start": pto.Profile.HOST, "set": pto.Profile.A5}
    assert pto.get_profile() is pto.Profile.A2A3


def u8(fill=1):
    return make(D.UINT8, np.full((2, 4), fill))


def test_a2a3_refusals_name_the_profile():
    dst, a, b = u8(), u8(2), u8(3)
    pto.tpartadd(dst, a, b)  # HOST computes it
    with pto.profile(pto.Profile.A2A3):
        with pytest.raises(pto.UnsupportedDTypeError, match="A2A3"):
            pto.tpartadd(dst, a, b)
        f16 = [make(D.FLOAT16, np.ones((2, 4))) for _ in range(4)]
        with pytest.raises(pto.UnsupportedDTypeError, match="A2A3"):
            pto.tpow(*f16)
        x = [make(D.FLOAT32, np.ones((2, 4))) for _ in range(3)]
        with pytest.raises(pto.NullArgumentError, match="A2A3"):
            pto.tprelu(x[0], x[1], x[2])  # tmp required there
        with pytest.raises(pto.UnsupportedDTypeError, match="A2A3 \\(UINT8\\)"):
            pto.tprelu(x[0], x[1], x[2], pto.Tile(D.INT8, 5, 1))  # tmp must be UINT8
        # UINT8; rows >= dst valid rows + 1, valid rows == dst valid rows,
        # valid cols >= ceil(dst valid cols / 8)
        tmp = pto.Tile(D.UINT8, 3, 1)
        with pytest.raises(pto.ShapeMismatchError, match="A2A3 requires them to equal"):
            pto.tprelu(x[0], x[1], x[2], tmp)
        tmp.valid = (2, 1)
        pto.tprelu(x[0], x[1], x[2], tmp)
        with pytest.raises(pto.AliasingError, match="A2A3"):
            pto.tprelu(x[0], x[0], x[2], tmp)  # no in place there
    with pto.profile(pto.Profile.A5):
        pto.tpartadd(dst, a, b)


def test_a2a3_ignores_high_precision():
    rng = np.random.default_rng(5)
    base, exp = rng.uniform(0.5, 3, (16, 16)), rng.uniform(-4, 4, (16, 16))
    results = {}
    for profile, algorithm in [(pto.Profile.HOST, pto.PowAlgorithm.DEFAULT),
                               (pto.Profile.A2A3, pto.PowAlgorithm.HIGH_PRECISION)]:
        with pto.profile(profile):
            dst = pto.Tile(D.FLOAT32, 16, 16)
            pto.tpow(dst, make(D.FLOAT32, base), make(D.FLOAT32, exp), pto.Tile(D.FLOAT32, 16, 16), algorithm)
            results[profile] = raw(dst)
    np.testing.assert_array_equal(results[pto.Profile.A2A3], results[pto.Profile.HOST])


def test_board_mode():
    """Board mode: per thread, off by default; under A2A3 a tadd of another
    valid region runs over dst's region (with a warning on stderr); HOST
    ignores it."""
    assert pto.board_mode() is False
    a = make(D.FLOAT32, np.arange(32).reshape(4, 8))
    b = make(D.FLOAT32, np.full((4, 8), 0.5), valid=(4, 4))
    dst = make(D.FLOAT32, np.zeros((4, 8)))
    with pto.profile(pto.Profile.A2A3):
        with pytest.raises(pto.ShapeMismatchError, match="src1 valid region"):
            pto.tadd(dst, a, b)
        pto.set_board_mode(True)
        try:
            assert pto.board_mode() is True
            seen = []
            t = threading.Thread(target=lambda: seen.append(pto.board_mode()))
            t.start()
            t.join()
            assert seen == [False]
            pto.tadd(dst, a, b)
            assert np.array_equal(raw(dst), np.arange(32).reshape(4, 8).astype(np.float32) + 0.5)
            with pto.profile(pto.Profile.HOST):
                with pytest.raises(pto.ShapeMismatchError):
                    pto.tadd(dst, a, b)
        finally:
            pto.set_board_mode(False)
    assert pto.board_mode() is False
