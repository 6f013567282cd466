"""Every failing status raises its own pto.Error subclass, which also derives
from the matching built-in; the message is libpto's sentence for this thread,
.status the pto.Status; a failed call writes nothing."""

import resource
import subprocess
import sys
import textwrap
import threading

import numpy as np
import pytest

import pto
from helpers import D, make, raw

CLASSES = [
    (pto.NullArgumentError, ValueError, pto.Status.ERR_NULL_ARGUMENT),
    (pto.InvalidArgumentError, ValueError, pto.Status.ERR_INVALID_ARGUMENT),
    (pto.UnsupportedDTypeError, TypeError, pto.Status.ERR_UNSUPPORTED_DTYPE),
    (pto.DTypeMismatchError, TypeError, pto.Status.ERR_DTYPE_MISMATCH),
    (pto.ShapeMismatchError, ValueError, pto.Status.ERR_SHAPE_MISMATCH),
    (pto.OutOfRangeError, IndexError, pto.Status.ERR_OUT_OF_RANGE),
    (pto.AliasingError, ValueError, pto.Status.ERR_ALIASING),
    (pto.OutOfMemoryError, MemoryError, pto.Status.ERR_OUT_OF_MEMORY),
]


@pytest.mark.parametrize("cls,builtin,status", CLASSES, ids=lambda c: getattr(c, "__name__", str(c)))
def test_hierarchy(cls, builtin, status):
    assert issubclass(cls, pto.Error) and issubclass(cls, builtin) and issubclass(pto.Error, Exception)
    assert cls.__doc__ and status.name in cls.__doc__


def f32(rows, cols, fill=1.0):
    return make(D.FLOAT32, np.full((rows, cols), fill))


def failing_calls():
    """(expected class, status, function name in the sentence, call, dst)."""
    x, y, dst, tmp = f32(2, 4, 2.0), f32(2, 4, 3.0), f32(2, 4, 5.0), f32(2, 4)
    small = f32(1, 2)
    half = make(D.FLOAT16, np.ones((2, 4)))
    ints = make(D.INT32, np.ones((2, 4)))
    return [
        (pto.NullArgumentError, "pto_tpow", lambda: pto.tpow(dst, x, y, None), dst),
        (pto.NullArgumentError, "pto_trsqrt", lambda: pto.trsqrt(dst, None), dst),
        (pto.InvalidArgumentError, "pto_tile_create", lambda: pto.Tile(D.FLOAT32, 0, 4), None),
        (pto.InvalidArgumentError, "pto_tile_create", lambda: pto.Tile(42, 1, 1), None),
        (pto.InvalidArgumentError, "pto_tile_create", lambda: pto.Tile(D.FLOAT32, 1 << 14, 1 << 14), None),
        (pto.InvalidArgumentError, "pto_tpow", lambda: pto.tpow(dst, x, y, tmp, algorithm=7), dst),
        (pto.InvalidArgumentError, "pto_buffer_create", lambda: pto.Buffer(0), None),
        (pto.InvalidArgumentError, "pto_set_profile", lambda: pto.set_profile(9), None),
        (pto.UnsupportedDTypeError, "pto_trsqrt", lambda: pto.trsqrt(ints, ints), ints),
        (pto.UnsupportedDTypeError, "pto_tpow",
         lambda: pto.tpow(ints, ints, ints, make(D.INT32, np.ones((2, 4))), pto.PowAlgorithm.HIGH_PRECISION), ints),
        (pto.DTypeMismatchError, "pto_trsqrt", lambda: pto.trsqrt(dst, half), dst),
        (pto.ShapeMismatchError, "pto_tpow", lambda: pto.tpow(dst, small, x, tmp), dst),
        (pto.ShapeMismatchError, "pto_tprelu", lambda: pto.tprelu(dst, x, small), dst),
        (pto.OutOfRangeError, "pto_tile_set_valid", lambda: setattr(dst, "valid", (3, 4)), dst),
        (pto.OutOfRangeError, "pto_tile_create_at", lambda: pto.Tile.at(pto.Buffer(64), 32, D.FLOAT32, 2, 8), None),
        (pto.AliasingError, "pto_tpow", lambda: pto.tpow(dst, x, y, dst), dst),
        (pto.AliasingError, "pto_tprelu", lambda: pto.tprelu(dst, x, y, x), dst),
    ]


@pytest.mark.parametrize("index", range(len(failing_calls())))
def test_failing_call_raises_its_class_with_the_sentence(index):
    cls, function, call, dst = failing_calls()[index]
    before = raw(dst) if dst is not None else None
    valid_before = dst.valid if dst is not None else None
    with pytest.raises(cls) as info:
        call()
    e = info.value
    assert type(e) is cls
    assert isinstance(e.status, pto.Status) and e.status.name in cls.__doc__
    assert str(e).startswith(function + ":"), str(e)
    if dst is not None:
        np.testing.assert_array_equal(raw(dst), before)  # nothing written
        assert dst.valid == valid_before


def test_every_error_class_is_reachable():
    """Out of memory needs its own process (test below); the rest appear above."""
    reached = {c for c, *_ in failing_calls()}
    assert reached | {pto.OutOfMemoryError} == {c for c, _, _ in CLASSES}


def test_out_of_memory_in_a_limited_process():
    script = textwrap.dedent("""
        import resource, pto
        with open("/proc/self/statm") as f:
            vm = int(f.read().split()[0]) * resource.getpagesize()
        limit = vm + (128 << 20)
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        for make in (lambda: pto.Tile(pto.DType.UINT8, 1 << 14, 1 << 14),
                     lambda: pto.Buffer(1 << 28)):
            try:
                make()
            except pto.OutOfMemoryError as e:
                assert isinstance(e, MemoryError) and e.status == pto.Status.ERR_OUT_OF_MEMORY
                print("raised", e)
            else:
                raise SystemExit("256 MiB under a 128 MiB headroom succeeded")
    """)
    if resource.getrlimit(resource.RLIMIT_AS)[1] != resource.RLIM_INFINITY:
        pytest.skip("RLIMIT_AS is already limited here; cannot lower it reliably")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.count("raised pto_") == 2, done.stdout


def test_closed_and_uninitialised_objects_raise_value_error():
    t = f32(2, 2)
    t.close()
    t.close()  # twice is harmless
    for use in (lambda: t.numpy(), lambda: t.rows, lambda: t.valid, lambda: pto.trsqrt(t, t),
                lambda: pto.trsqrt(f32(2, 2), t), lambda: setattr(t, "valid", (1, 1)), lambda: memoryview(t)):
        with pytest.raises(ValueError, match="closed"):
            use()
    b = pto.Buffer(64)
    b.close()
    for use in (lambda: b.numpy(), lambda: b.nbytes, lambda: pto.Tile.at(b, 0, D.UINT8, 1, 1)):
        with pytest.raises(ValueError, match="closed"):
            use()
    bare = pto.Tile.__new__(pto.Tile)
    with pytest.raises(ValueError, match="not initialised"):
        pto.trsqrt(bare, bare)


def test_python_level_argument_errors():
    with pytest.raises(ValueError, match="rows"):
        pto.Tile(D.FLOAT32, -1, 2)
    with pytest.raises(ValueError, match="cols"):
        pto.Tile(D.FLOAT32, 1, 1 << 40)
    with pytest.raises(TypeError, match="dtype"):
        pto.Tile("float32", 1, 1)
    with pytest.raises(ValueError, match="offset"):
        pto.Tile.at(pto.Buffer(8), -1, D.UINT8, 1, 1)
    with pytest.raises(TypeError, match="pto.Buffer"):
        pto.Tile.at(bytearray(8), 0, D.UINT8, 1, 1)
    with pytest.raises(ValueError, match="pair"):
        f32(2, 2).valid = (1, 1, 1)
    with pytest.raises(TypeError, match="already initialised"):
        f32(1, 1).__init__(D.FLOAT32, 1, 1)


def test_messages_are_per_thread():
    """Two threads failing differently at once each get their own sentence (the
    large tiles make the calls run without the GIL, so they interleave)."""
    big = [make(D.FLOAT32, np.ones((64, 64))) for _ in range(3)]
    narrow = make(D.FLOAT32, np.ones((64, 32)))
    half = make(D.FLOAT16, np.ones((64, 64)))
    failures = []

    def shape_errors():
        for _ in range(2000):
            try:
                pto.tprelu(big[0], big[1], narrow)
            except pto.ShapeMismatchError as e:
                if "src1" not in str(e):
                    failures.append(str(e))

    def dtype_errors():
        for _ in range(2000):
            try:
                pto.tprelu(big[2], half, big[1])
            except pto.DTypeMismatchError as e:
                if "src0" not in str(e):
                    failures.append(str(e))

    threads = [threading.Thread(target=shape_errors), threading.Thread(target=dtype_errors)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not failures, failures[:3]


def test_errors_pickle():
    import pickle
    try:
        pto.trsqrt(pto.Tile(D.INT8, 1, 1), pto.Tile(D.INT8, 1, 1))
    except pto.UnsupportedDTypeError as e:
        copy = pickle.loads(pickle.dumps(e))
        assert type(copy) is pto.UnsupportedDTypeError and copy.status is pto.Status.ERR_UNSUPPORTED_DTYPE
        assert str(copy) == str(e)
