"""Every operation and dtype against numpy references, with the contract's
bounds: tpow float32 HIGH_PRECISION <= 1 ulp, DEFAULT <= 8 ulp on normal
results, float16/bfloat16 <= 1 ulp; trsqrt <= 1 ulp; tprelu, tcolexpanddiv and
tpartadd correctly rounded; integers exact and wrapping; special cases as C99
Annex F (numpy's float64 power is libm's pow)."""

import numpy as np
import pytest

import pto
from helpers import (ALL_TYPES, D, FLOAT_TYPES, INT_TYPES, RAW, int_pow, make, random_ints, raw,
                     round_to, same_bits, to_float64, ulp_error, values)

POW_SPECIALS = [  # (base, exponent): every C99 Annex F pow rule
    (0.0, -1.0), (-0.0, -1.0), (0.0, -2.0), (-0.0, -2.0), (0.0, -np.inf), (-0.0, -np.inf),
    (0.0, 1.0), (-0.0, 1.0), (0.0, 2.0), (-0.0, 2.0), (-0.0, 0.5), (-1.0, np.inf), (-1.0, -np.inf),
    (1.0, np.nan), (1.0, -3.0), (np.nan, 0.0), (np.inf, -0.0), (-2.0, 0.5), (-2.0, -1.5),
    (0.5, -np.inf), (2.0, -np.inf), (0.5, np.inf), (2.0, np.inf), (-0.5, np.inf), (-2.0, -np.inf),
    (-np.inf, -1.0), (-np.inf, -2.0), (-np.inf, -0.5), (-np.inf, 3.0), (-np.inf, 2.0), (-np.inf, 0.5),
    (np.inf, -1.0), (np.inf, 2.0), (np.nan, 1.0), (2.0, np.nan), (np.nan, np.nan), (-3.0, 3.0),
    (-2.0, 2.0), (2.0, 0.5), (4.0, -0.5), (10.0, 3.0), (-1.0, 5.0),
]


def float_tiles(dtype, *arrays):
    return [make(dtype, a) for a in arrays]


def pow_inputs(rng, n=32):
    """Bases and exponents whose results are normal numbers in every float type:
    positive bases in [1/4, 4] with exponents in [-6, 6], negative bases with
    integer exponents."""
    base = np.exp2(rng.uniform(-2, 2, (n, n)))
    exp = rng.uniform(-6, 6, (n, n))
    neg = rng.random((n, n)) < 0.25
    base = np.where(neg, -base, base)
    exp = np.where(neg, np.round(exp), exp)
    return base, exp


POW_BOUNDS = [(D.FLOAT32, pto.PowAlgorithm.HIGH_PRECISION, 1.0), (D.FLOAT32, pto.PowAlgorithm.DEFAULT, 8.0),
              (D.FLOAT16, pto.PowAlgorithm.HIGH_PRECISION, 1.0), (D.FLOAT16, pto.PowAlgorithm.DEFAULT, 1.0),
              (D.BFLOAT16, pto.PowAlgorithm.HIGH_PRECISION, 1.0), (D.BFLOAT16, pto.PowAlgorithm.DEFAULT, 1.0)]


@pytest.mark.parametrize("dtype,algorithm,bound", POW_BOUNDS, ids=lambda p: getattr(p, "name", str(p)))
def test_tpow_float_within_bound(rng, dtype, algorithm, bound):
    base, exp = pow_inputs(rng)
    b, e = float_tiles(dtype, base, exp)
    dst, tmp = pto.Tile(dtype, *b.shape), pto.Tile(dtype, *b.shape)
    assert pto.tpow(dst, b, e, tmp, algorithm) is dst
    exact = np.power(values(b), values(e))
    err = ulp_error(dtype, values(dst), exact)
    assert err.max() <= bound, f"max {err.max():.3f} ulp at base {values(b).flat[err.argmax()]}"


@pytest.mark.parametrize("dtype", FLOAT_TYPES, ids=lambda d: d.name)
def test_tpow_high_precision_exact_when_representable(dtype):
    b, e = make(dtype, [[2, 3, -5, 0.25, 9, 1024]]), make(dtype, [[5, 4, 3, -3, 0.5, -0.5]])
    dst, tmp = pto.Tile(dtype, 1, 6), pto.Tile(dtype, 1, 6)
    pto.tpow(dst, b, e, tmp, algorithm=pto.PowAlgorithm.HIGH_PRECISION)
    assert values(dst).tolist() == [[32, 81, -125, 64, 3, 1 / 32]]


def test_tpow_float32_high_precision_subnormal_results(rng):
    base = np.exp2(rng.uniform(-140, -127, (8, 8))).astype(np.float32)
    b, e = make(D.FLOAT32, base), make(D.FLOAT32, np.ones((8, 8)) * 1.0)
    e.numpy()[:] = rng.choice([1.0, 1.03125, 0.98], size=(8, 8))
    dst, tmp = pto.Tile(D.FLOAT32, 8, 8), pto.Tile(D.FLOAT32, 8, 8)
    pto.tpow(dst, b, e, tmp, pto.PowAlgorithm.HIGH_PRECISION)
    exact = np.power(values(b), values(e))
    assert ulp_error(D.FLOAT32, values(dst), exact).max() <= 1.0


@pytest.mark.parametrize("algorithm", list(pto.PowAlgorithm), ids=lambda a: a.name)
@pytest.mark.parametrize("dtype", FLOAT_TYPES, ids=lambda d: d.name)
def test_tpow_special_cases(dtype, algorithm):
    base = np.array([[p[0] for p in POW_SPECIALS]])
    exp = np.array([[p[1] for p in POW_SPECIALS]])
    b, e = float_tiles(dtype, base, exp)
    dst, tmp = pto.Tile(dtype, *b.shape), pto.Tile(dtype, *b.shape)
    pto.tpow(dst, b, e, tmp, algorithm)
    with np.errstate(all="ignore"):
        want = to_float64(dtype, round_to(dtype, np.power(values(b), values(e))))
    got = values(dst)
    bad = ~same_bits(got, want)
    assert not bad.any(), list(zip(base[bad], exp[bad], got[bad], want[bad]))


@pytest.mark.parametrize("dtype", INT_TYPES, ids=lambda d: d.name)
def test_tpow_integers_exact_and_wrapping(rng, dtype):
    signed = np.issubdtype(RAW[dtype], np.signedinteger)
    small = rng.integers(-5 if signed else 0, 6, (16, 16))
    exps = rng.integers(-3 if signed else 0, 40, (16, 16))
    full = random_ints(rng, dtype, (16, 16))
    base = np.vstack([small, full])
    exp = np.vstack([exps, rng.integers(0, 4, (16, 16))])
    if signed:  # every negative-exponent rule, and 0 ** 0
        base[0, :6], exp[0, :6] = [1, -1, -1, 2, 0, -7], [-3, -3, -4, -1, 0, -2]
    b, e = make(dtype, base), make(dtype, exp)
    dst, tmp = pto.Tile(dtype, 32, 16), pto.Tile(dtype, 32, 16)
    pto.tpow(dst, b, e, tmp)
    want = np.array([[int_pow(dtype, int(x), int(y)) for x, y in zip(rb, re)] for rb, re in zip(base, exp)])
    np.testing.assert_array_equal(values(dst), want)


@pytest.mark.parametrize("dtype", [D.FLOAT32, D.FLOAT16], ids=lambda d: d.name)
def test_trsqrt_within_one_ulp(rng, dtype):
    lo, hi = (-149, 127) if dtype is D.FLOAT32 else (-24, 15)
    x = make(dtype, np.exp2(rng.uniform(lo, hi, (32, 32))))
    dst = pto.Tile(dtype, 32, 32)
    assert pto.trsqrt(dst, x) is dst
    exact = 1.0 / np.sqrt(values(x))
    assert ulp_error(dtype, values(dst), exact).max() <= 1.0


@pytest.mark.parametrize("dtype", [D.FLOAT32, D.FLOAT16], ids=lambda d: d.name)
def test_trsqrt_special_cases(dtype):
    x = make(dtype, [[0.0, -0.0, -1.0, np.inf, np.nan, -np.inf, 4.0, 0.25]])
    dst = pto.Tile(dtype, 1, 8)
    pto.trsqrt(dst, x)
    want = [np.inf, -np.inf, np.nan, 0.0, np.nan, np.nan, 0.5, 2.0]
    assert same_bits(values(dst), [want]).all(), values(dst)


@pytest.mark.parametrize("dtype", FLOAT_TYPES, ids=lambda d: d.name)
def test_tprelu_float_correctly_rounded(rng, dtype):
    x = rng.standard_normal((24, 24)) * np.exp2(rng.integers(-8, 8, (24, 24)))
    x[0, :6] = [0.0, -0.0, np.inf, -np.inf, np.nan, -1e-3]
    s = rng.standard_normal((24, 24))
    a, slope = make(dtype, x), make(dtype, s)
    dst = pto.Tile(dtype, 24, 24)
    assert pto.tprelu(dst, a, slope) is dst
    xa, sa = values(a), values(slope)
    with np.errstate(all="ignore"):
        want = np.where(xa > 0, xa, to_float64(dtype, round_to(dtype, xa * sa)))
    assert same_bits(values(dst), want).all()


@pytest.mark.parametrize("dtype", INT_TYPES, ids=lambda d: d.name)
def test_tprelu_integers_wrap(rng, dtype):
    x, s = random_ints(rng, dtype, (16, 16)), random_ints(rng, dtype, (16, 16))
    a, slope = make(dtype, x), make(dtype, s)
    dst, tmp = pto.Tile(dtype, 16, 16), pto.Tile(dtype, 16, 16)
    pto.tprelu(dst, a, slope, tmp)
    xr, sr = raw(a), raw(slope)
    want = np.where(xr > 0, xr, xr * sr)  # numpy arrays wrap in their own type
    np.testing.assert_array_equal(raw(dst), want)
    assert not raw(tmp).any(), "tmp is never written"


@pytest.mark.parametrize("dtype", [D.FLOAT32, D.FLOAT16], ids=lambda d: d.name)
def test_tcolexpanddiv_correctly_rounded(rng, dtype):
    x = rng.standard_normal((20, 24)) * 100
    x[0, 1] = 0.0
    d = rng.standard_normal((3, 24))
    d[0, :3] = [0.0, 0.0, -0.0]
    a, div = make(dtype, x), make(dtype, d)
    dst = pto.Tile(dtype, 20, 24)
    assert pto.tcolexpanddiv(dst, a, div) is dst
    with np.errstate(all="ignore"):
        want = to_float64(dtype, round_to(dtype, values(a) / values(div)[0]))
    assert same_bits(values(dst), want).all()


def partadd_reference(a, b, valid_a, valid_b, valid_dst, initial):
    """Sum where both sources are valid, the one valid source elsewhere (in the
    arrays' own type, so integer sums wrap)."""
    def region(valid):
        m = np.zeros(initial.shape, bool)
        m[:valid[0], :valid[1]] = True
        return m
    in_a, in_b, in_dst = region(valid_a), region(valid_b), region(valid_dst)
    out = initial.copy()
    out[in_dst & in_a & in_b] = (a + b)[in_dst & in_a & in_b]
    out[in_dst & in_a & ~in_b] = a[in_dst & in_a & ~in_b]
    out[in_dst & ~in_a & in_b] = b[in_dst & ~in_a & in_b]
    return out


@pytest.mark.parametrize("pattern", ["src1_smaller", "src0_smaller", "equal"])
@pytest.mark.parametrize("dtype", ALL_TYPES, ids=lambda d: d.name)
def test_tpartadd(rng, dtype, pattern):
    full, part = (12, 20), {"src1_smaller": (5, 7), "src0_smaller": (12, 3), "equal": (12, 20)}[pattern]
    va, vb = (part, full) if pattern == "src0_smaller" else (full, part)
    if dtype in FLOAT_TYPES:
        xa, xb = rng.standard_normal(full) * 1e3, rng.standard_normal(full)
    else:
        xa, xb = random_ints(rng, dtype, full), random_ints(rng, dtype, full)
    a, b = make(dtype, xa, valid=va), make(dtype, xb, valid=vb)
    dst = pto.Tile(dtype, *full)
    assert pto.tpartadd(dst, a, b) is dst
    if dtype in FLOAT_TYPES:
        va64, vb64 = values(a), values(b)
        want = partadd_reference(va64, vb64, va, vb, full, np.zeros(full))
        want = to_float64(dtype, round_to(dtype, want))
        assert same_bits(values(dst), want).all()
    else:
        want = partadd_reference(raw(a), raw(b), va, vb, full, raw(dst))  # wraps in its type
        np.testing.assert_array_equal(raw(dst), want)


OPS = {
    "tpow": (lambda d, a, b, t: pto.tpow(d, a, b, t), D.FLOAT32),
    "trsqrt": (lambda d, a, b, t: pto.trsqrt(d, a), D.FLOAT32),
    "tprelu": (lambda d, a, b, t: pto.tprelu(d, a, b), D.INT16),
    "tcolexpanddiv": (lambda d, a, b, t: pto.tcolexpanddiv(d, a, b), D.FLOAT16),
    "tpartadd": (lambda d, a, b, t: pto.tpartadd(d, a, b), D.UINT8),
}


@pytest.mark.parametrize("op", sorted(OPS))
def test_only_dst_valid_region_is_written(rng, op):
    """Operands of other physical shapes; dst's valid region is the domain."""
    call, dtype = OPS[op]
    dst = make(dtype, np.full((8, 12), 7), valid=(3, 5))
    a = make(dtype, rng.integers(1, 9, (3, 5)))
    b = make(dtype, rng.integers(1, 9, (3, 16)), valid=(3, 5))
    tmp = pto.Tile(dtype, 3, 5)
    before = raw(dst)
    call(dst, a, b, tmp)
    after = raw(dst)
    outside = np.ones((8, 12), bool)
    outside[:3, :5] = False
    np.testing.assert_array_equal(after[outside], before[outside])
    assert (after[:3, :5] != 7).any()


@pytest.mark.parametrize("op", sorted(OPS))
def test_empty_valid_region_writes_nothing(op):
    call, dtype = OPS[op]
    dst, a, tmp = (make(dtype, np.full((4, 4), 3), valid=(0, 4)) for _ in range(3))
    b = make(dtype, np.full((4, 4), 3), valid=(0, 4) if op != "tcolexpanddiv" else (1, 4))
    call(dst, a, b, tmp)
    assert (raw(dst) == raw(a)).all()


@pytest.mark.parametrize("op", sorted(OPS))
def test_in_place_equals_separate_dst(rng, op):
    call, dtype = OPS[op]
    x, y = rng.integers(1, 9, (6, 6)), rng.integers(1, 9, (6, 6))
    separate = pto.Tile(dtype, 6, 6)
    call(separate, make(dtype, x), make(dtype, y), pto.Tile(dtype, 6, 6))
    a = make(dtype, x)
    call(a, a, make(dtype, y), pto.Tile(dtype, 6, 6))
    np.testing.assert_array_equal(raw(a), raw(separate))


def test_keyword_arguments():
    x = make(D.FLOAT32, [[4.0, 16.0]])
    dst, tmp = pto.Tile(D.FLOAT32, 1, 2), pto.Tile(D.FLOAT32, 1, 2)
    pto.tpow(dst=dst, base=x, exp=x, tmp=tmp, algorithm=pto.PowAlgorithm.HIGH_PRECISION)
    assert values(dst).tolist() == [[256.0, 16.0 ** 16]]
    assert pto.trsqrt(dst, src=x).numpy().tolist() == [[0.5, 0.25]]
    pto.tprelu(dst, src0=x, src1=x, tmp=None)
    with pytest.raises(TypeError, match="unexpected keyword"):
        pto.trsqrt(dst, source=x)
    with pytest.raises(TypeError, match="multiple values"):
        pto.trsqrt(dst, x, src=x)
    with pytest.raises(TypeError, match="missing required argument 'tmp'"):
        pto.tpow(dst, x, x)
    with pytest.raises(TypeError, match="pto.Tile or None"):
        pto.trsqrt(dst, np.zeros((1, 2), np.float32))


def test_scalar_first_and_fill_argument_orders():
    """tdivs_scalar_by_tile takes the scalar before the tile, as its C function;
    texpands takes only dst and the scalar."""
    x = make(D.FLOAT32, [[1.0, 4.0], [8.0, -2.0]])
    dst = pto.Tile(D.FLOAT32, 2, 2)
    assert pto.tdivs_scalar_by_tile(dst, 2.0, x).numpy().tolist() == [[2.0, 0.5], [0.25, -1.0]]
    assert pto.tdivs_scalar_by_tile(dst, src=x, scalar=4.0).numpy().tolist() == [[4.0, 1.0], [0.5, -2.0]]
    assert pto.tdivs(dst, x, 2.0).numpy().tolist() == [[0.5, 2.0], [4.0, -1.0]]
    dst.valid = (1, 2)
    pto.texpands(dst, -3.5)
    assert dst.numpy().tolist() == [[-3.5, -3.5], [4.0, -1.0]]  # row 1 is outside the valid region
    with pytest.raises(TypeError):
        pto.tdivs_scalar_by_tile(dst, x, 2.0)
    ints = pto.Tile(D.INT16, 1, 3)
    with pytest.raises(pto.Error, match="scalar 1.5 is not a value"):
        pto.texpands(ints, 1.5)


def test_large_tiles_release_the_gil_and_match_small_results(rng):
    """1024+ elements take the GIL-free path; results equal a tile-by-tile run."""
    x = rng.uniform(0.5, 2, (64, 64)).astype(np.float32)
    big = pto.trsqrt(pto.Tile(D.FLOAT32, 64, 64), make(D.FLOAT32, x))
    rows = [pto.trsqrt(pto.Tile(D.FLOAT32, 1, 64), make(D.FLOAT32, x[i:i + 1])).numpy() for i in range(64)]
    np.testing.assert_array_equal(big.numpy(), np.vstack(rows))


@pytest.mark.parametrize("dtype", ALL_TYPES, ids=lambda d: d.name)
def test_dtype_support_per_operation(dtype):
    """trsqrt: FLOAT32 and FLOAT16; tcolexpanddiv: those and INT16, INT32,
    UINT16, UINT32; tpow HIGH_PRECISION: the float types; everything else
    takes all nine."""
    t = [make(dtype, np.ones((2, 2))) for _ in range(4)]
    div_types = (D.FLOAT32, D.FLOAT16, D.INT16, D.INT32, D.UINT16, D.UINT32)
    limited = [(lambda: pto.trsqrt(t[0], t[1]), (D.FLOAT32, D.FLOAT16)),
               (lambda: pto.tcolexpanddiv(t[0], t[1], t[2]), div_types)]
    for call, accepted in limited:
        if dtype in accepted:
            call()
        else:
            with pytest.raises(pto.UnsupportedDTypeError):
                call()
    if dtype in FLOAT_TYPES:
        pto.tpow(*t, pto.PowAlgorithm.HIGH_PRECISION)
    else:
        with pytest.raises(pto.UnsupportedDTypeError):
            pto.tpow(*t, pto.PowAlgorithm.HIGH_PRECISION)
    pto.tpow(*t)
    pto.tprelu(*t)
    pto.tpartadd(*t[:3])


def test_tfillpad_pad_values():
    """tfillpad through the binding: the pad reaches the C call; NULL is refused."""
    src = make(D.FLOAT32, [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], valid=(1, 2))
    dst = pto.Tile(D.FLOAT32, 2, 3)
    pto.tfillpad(dst, src, pto.PadValue.MIN)
    assert raw(dst).tolist() == [[1.0, 2.0, -np.inf], [-np.inf, -np.inf, -np.inf]]
    pto.tfillpad(dst, src, pad=pto.PadValue.MAX)
    assert raw(dst)[1, 0] == np.inf
    small = make(D.UINT8, [[7, 8]], valid=(1, 1))
    out = pto.Tile(D.UINT8, 1, 2)
    pto.tfillpad(out, small, pto.PadValue.MAX)
    assert raw(out).tolist() == [[7, 255]]
    with pytest.raises(pto.Error, match="PTO_PAD_NULL"):
        pto.tfillpad(dst, src, pto.PadValue.NULL)


def test_tci_sequences():
    """tci through the binding: the start and the order reach the C call."""
    t = pto.Tile(D.INT32, 1, 5)
    pto.tci(t, 10)
    assert raw(t).tolist() == [[10, 11, 12, 13, 14]]
    pto.tci(t, -2, descending=True)
    assert raw(t).tolist() == [[-2, -3, -4, -5, -6]]
    f = pto.Tile(D.FLOAT32, 2, 2)
    pto.tci(f, 0.5, True)
    assert raw(f).tolist() == [[0.5, -0.5], [-1.5, -2.5]]
    with pytest.raises(pto.Error, match="start 0.5"):
        pto.tci(t, 0.5)


def test_tpows_scalar_exponent():
    """tpows through the binding: the exponent and the algorithm reach the C call."""
    b = make(D.FLOAT32, [[1.0, 2.0, 3.0, -2.0]])
    d = pto.Tile(D.FLOAT32, 1, 4)
    pto.tpows(d, b, 3.0)
    assert raw(d).tolist() == [[1.0, 8.0, 27.0, -8.0]]
    pto.tpows(d, b, 0.5, pto.PowAlgorithm.HIGH_PRECISION)
    assert raw(d)[0, 1] == np.float32(np.sqrt(np.float32(2.0)))
    i = pto.Tile(D.INT16, 1, 4)
    with pytest.raises(pto.Error, match="exp 0.5"):
        pto.tpows(i, i, 0.5)


def test_textract_window():
    """textract through the binding: the offsets reach the C call; a window
    past the source raises OutOfRangeError; a negative offset ValueError."""
    src = make(D.INT32, [[0, 1, 2, 3], [10, 11, 12, 13], [20, 21, 22, 23]])
    dst = pto.Tile(D.INT32, 2, 2)
    pto.textract(dst, src, 1, 2)
    assert raw(dst).tolist() == [[12, 13], [22, 23]]
    pto.textract(dst, src, index_row=0, index_col=1)
    assert raw(dst).tolist() == [[1, 2], [11, 12]]
    with pytest.raises(pto.OutOfRangeError, match="window"):
        pto.textract(dst, src, 2, 0)
    with pytest.raises(ValueError):
        pto.textract(dst, src, -1, 0)


def test_tgather_indices():
    """tgather through the binding: flat offsets into src, with and without
    tmp; an index outside src raises OutOfRangeError and writes nothing."""
    src = make(D.FLOAT32, [[1.5, 2.5, 3.5], [4.5, 5.5, 6.5]])
    idx = make(D.INT32, [[5, 0, 3, 3]])
    dst = pto.Tile(D.FLOAT32, 1, 4)
    pto.tgather(dst, src, idx)
    assert raw(dst).tolist() == [[6.5, 1.5, 4.5, 4.5]]
    pto.tgather(dst, src, make(D.UINT16, [[1, 1, 2, 4]]), pto.Tile(D.UINT16, 1, 4))
    assert raw(dst).tolist() == [[2.5, 2.5, 3.5, 5.5]]
    with pytest.raises(pto.OutOfRangeError, match="indices"):
        pto.tgather(dst, src, make(D.INT32, [[0, 6, 0, 0]]))
    assert raw(dst).tolist() == [[2.5, 2.5, 3.5, 5.5]]


def test_tgather_mask():
    """tgather_mask through the binding: the columns a pattern keeps, packed
    row after row, or the rows it keeps along COL; a dst too small raises
    ShapeMismatchError."""
    src = make(D.FLOAT32, [[0, 1, 2, 3], [10, 11, 12, 13], [20, 21, 22, 23]])
    dst = pto.Tile(D.FLOAT32, 3, 2)
    pto.tgather_mask(dst, src, pto.MaskPattern.P1010)
    assert raw(dst).tolist() == [[1, 3], [11, 13], [21, 23]]
    rows = pto.Tile(D.FLOAT32, 1, 4)
    pto.tgather_mask(rows, src, pto.MaskPattern.P1010, axis=pto.GatherAxis.COL)
    assert raw(rows).tolist() == [[10, 11, 12, 13]]
    with pytest.raises(pto.ShapeMismatchError, match="12 elements"):
        pto.tgather_mask(dst, src, pto.MaskPattern.P1111)


def test_tmrgsort_lists():
    """tmrgsort_lists merges sorted lists of (value, index) pairs and returns
    the pairs taken from each; with exhausted it stops at the first list used
    up."""
    l0 = make(D.FLOAT32, [[9, 0, 5, 0]])
    l1 = make(D.FLOAT32, [[7, 0]])
    merged = pto.Tile(D.FLOAT32, 1, 6)
    assert pto.tmrgsort_lists(merged, l0, l1, exhausted=True) == (1, 1, 0, 0)
    assert raw(merged).tolist()[0][:4] == [9, 0, 7, 0]
    assert pto.tmrgsort_lists(merged, l0, l1) == (2, 1, 0, 0)
    assert raw(merged).tolist() == [[9, 0, 7, 0, 5, 0]]


def test_tsetval_tgetval_one_element():
    """tsetval writes one element at row * cols + col, tgetval reads one back
    exactly; offsets outside the valid region raise OutOfRangeError."""
    t = pto.Tile(D.FLOAT16, 2, 3)
    pto.tsetval(t, 4, 1.0 / 3.0)
    assert raw(t).tolist() == [[0, 0, 0], [0, np.float16(1.0 / 3.0), 0]]
    assert pto.tgetval(t, 4) == float(np.float16(1.0 / 3.0))
    u = make(D.UINT32, [[4294967295, 7]])
    assert pto.tgetval(u, 0) == 4294967295.0
    pto.tsetval(u, index=1, value=-0.0 + 9)
    assert raw(u).tolist() == [[4294967295, 9]]
    with pytest.raises(pto.OutOfRangeError):
        pto.tgetval(u, 2)
    with pytest.raises(pto.InvalidArgumentError, match="value"):
        pto.tsetval(u, 0, -1.0)


def test_trandom_known_answer():
    """trandom: lane 0's four words from counter 0 and key 0 are Random123's
    philox4x32_10 known answer; rounds other than 7 or 10 raise."""
    t = pto.Tile(D.UINT32, 1, 8)
    assert pto.trandom(t, (0, 0), [0, 0, 0, 0]) is t
    assert raw(t).tolist()[0][:4] == [0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8]
    with pytest.raises(pto.InvalidArgumentError, match="rounds"):
        pto.trandom(t, (0, 0), (0, 0, 0, 0), rounds=8)
    with pytest.raises(ValueError):
        pto.trandom(t, (0, 0), (0, 0, 0))


def test_timg2col():
    """timg2col: a 2x2 map of one channel under a 2x2 filter is one row of its
    four pixels; the row past the matrix is the pad element; the registers'
    and the instruction's rules raise."""
    src = make(D.UINT32, [[1], [2], [3], [4]])
    dst = pto.Tile(D.UINT32, 2, 4)
    pto.setfmatrix(2, 2)
    pto.set_img2col_padding(9)
    pto.set_img2col_rpt()
    assert pto.timg2col(dst, src, channel_size=1, filter_h=2, filter_w=2) is dst
    assert raw(dst).tolist() == [[1, 2, 3, 4], [9, 9, 9, 9]]
    with pytest.raises(pto.InvalidArgumentError, match="strides 1x0"):
        pto.timg2col(dst, src, channel_size=1, filter_h=2, filter_w=2, stride_w=0)
    with pytest.raises(pto.InvalidArgumentError, match="repeat_mode 2"):
        pto.set_img2col_rpt(repeat_mode=2)
    with pytest.raises(ValueError):
        pto.setfmatrix(2, 70000)
    # The settings' calls and checks come from src/settings.def: keywords,
    # each field's range in the C check (the field named), its C type's in
    # the binding's, a refusal keeping the registers.
    with pytest.raises(pto.InvalidArgumentError, match="config's fmap_h 0 is outside"):
        pto.setfmatrix(fmap_h=0, fmap_w=2)
    with pytest.raises(pto.InvalidArgumentError, match="repeat_time 0"):
        pto.set_img2col_rpt(repeat_time=0)
    with pytest.raises(ValueError, match="pad_left"):
        pto.setfmatrix(2, 2, pad_left=256)
    pto.set_img2col_padding(pad_bits=7)
    assert pto.timg2col(dst, src, channel_size=1, filter_h=2, filter_w=2) is dst
    assert raw(dst).tolist() == [[1, 2, 3, 4], [7, 7, 7, 7]]


def test_compare_and_select_scalar():
    """tcmp, tcmps and tsels through the binding: the mode, the scalar and the
    mask (bit j % 8 of byte j / 8 for column j) reach the C calls."""
    a = make(D.FLOAT32, [[1.0, 5.0, -2.0, np.nan, 3.0, 0.0, 7.0, 8.0, 9.0]])
    b = make(D.FLOAT32, [[1.0, 4.0, -1.0, 0.0, 3.0, -0.0, 0.0, 9.0, 9.0]])
    m = pto.Tile(D.UINT8, 1, 2)
    pto.tcmp(m, a, b, pto.CmpMode.GE)
    assert raw(m).tolist() == [[0b01110011, 0b1]]
    pto.tcmps(m, a, 3.0, mode=pto.CmpMode.LT)
    assert raw(m).tolist() == [[0b00100101, 0]]
    d = pto.Tile(D.FLOAT32, 1, 9)
    pto.tsels(d, m, a, None, -1.0)  # tmp: only A2A3 needs one
    assert raw(d).tolist() == [[1.0, -1.0, -2.0, -1.0, -1.0, 0.0, -1.0, -1.0, -1.0]]
    with pytest.raises(pto.Error, match="mode"):
        pto.tcmp(m, a, b, 6)


def test_tsel_picks_by_the_mask():
    """tsel through the binding: src0 where the mask bit is set, else src1; the
    optional tmp; a refusal names the operand."""
    a = make(D.FLOAT32, [[1.0, 5.0, -2.0, 4.0, 3.0, 0.0, 7.0, 8.0, 9.0]])
    b = make(D.FLOAT32, [[2.0, 4.0, -1.0, 0.0, 3.0, -0.0, 0.0, 9.0, 8.0]])
    m = pto.Tile(D.UINT8, 1, 2)
    pto.tcmp(m, a, b, pto.CmpMode.GT)
    d = pto.Tile(D.FLOAT32, 1, 9)
    assert pto.tsel(d, m, a, b) is d
    assert raw(d).tolist() == [[2.0, 5.0, -1.0, 4.0, 3.0, -0.0, 7.0, 9.0, 9.0]]
    pto.tsel(d, m, b, a, tmp=None)
    assert raw(d).tolist() == [[1.0, 4.0, -2.0, 0.0, 3.0, 0.0, 0.0, 8.0, 8.0]]
    assert np.signbit(raw(d)[0, 5]) == np.signbit(raw(a)[0, 5])
    with pytest.raises(pto.Error, match="mask"):
        pto.tsel(d, d, a, b)


def test_treshape_bytes():
    """treshape through the binding: the bytes under another shape and dtype."""
    src = make(D.FLOAT32, [[1.0], [2.0]])
    dst = pto.Tile(D.UINT16, 1, 4)
    pto.treshape(dst, src)
    assert raw(dst).tobytes() == np.array([1.0, 2.0], dtype=np.float32).tobytes()
    with pytest.raises(pto.Error, match="a reshape keeps the size"):
        pto.treshape(pto.Tile(D.FLOAT32, 1, 3), src)


def test_ttrans_transposes():
    """ttrans through the binding: src's valid region transposed into dst."""
    src = make(D.INT16, [[1, 2, 3], [4, 5, 6]])
    dst = pto.Tile(D.INT16, 3, 2)
    pto.ttrans(dst, src, pto.Tile(D.INT16, 1, 1))
    assert raw(dst).tolist() == [[1, 4], [2, 5], [3, 6]]


def test_tconcat_rows():
    """tconcat through the binding: src0's row, then src1's."""
    a = make(D.FLOAT32, [[1.0], [2.0]])
    b = make(D.FLOAT32, [[3.0, 4.0], [5.0, 6.0]])
    dst = pto.Tile(D.FLOAT32, 2, 3)
    pto.tconcat(dst, a, b)
    assert raw(dst).tolist() == [[1.0, 3.0, 4.0], [2.0, 5.0, 6.0]]


def test_tquant_forms_and_tdequant():
    """tquant's INT8_SYM (offset None) and INT8_ASYM forms, tdequant back."""
    x = make(D.FLOAT32, [[0.5, 1.5, 2.5, -2.5, 200.0, -200.0, 3.0, 0.0]])
    scale = make(D.FLOAT32, [[2.0] + [0.0] * 7], valid=(1, 1))
    offset = make(D.FLOAT32, [[10.0] + [0.0] * 7], valid=(1, 1))
    q = pto.Tile(D.INT8, 1, 8)
    pto.tquant(q, x, scale, None, None)
    assert raw(q).tolist() == [[1, 3, 5, -5, 127, -128, 6, 0]]
    u = pto.Tile(D.UINT8, 1, 8)
    pto.tquant(u, x, scale, offset, None)
    assert raw(u).tolist() == [[11, 13, 15, 5, 255, 0, 16, 10]]
    with pytest.raises(pto.Error, match="INT8_ASYM"):
        pto.tquant(u, x, scale, None, None)
    back = pto.Tile(D.FLOAT32, 1, 8)
    pto.tdequant(back, q, scale, offset)
    assert values(back).tolist() == [[-18.0, -14.0, -10.0, -30.0, 234.0, -276.0, -8.0, -20.0]]


def test_tcvt_modes_and_saturation():
    """tcvt through the binding: the mode and saturation reach the C call."""
    x = make(D.FLOAT32, [[-2.5, -0.5, 0.5, 1.5, 2.5, 3e9]])
    want = {pto.RoundMode.RINT: [-2, 0, 0, 2, 2, 2147483647],
            pto.RoundMode.ROUND: [-3, -1, 1, 2, 3, 2147483647],
            pto.RoundMode.FLOOR: [-3, -1, 0, 1, 2, 2147483647],
            pto.RoundMode.CEIL: [-2, 0, 1, 2, 3, 2147483647],
            pto.RoundMode.TRUNC: [-2, 0, 0, 1, 2, 2147483647],
            pto.RoundMode.NONE: [-2, 0, 0, 1, 2, 2147483647]}
    for mode, expected in want.items():
        dst = pto.Tile(D.INT32, 1, 6)
        pto.tcvt(dst, x, None, mode, pto.Saturation.ON)
        assert raw(dst).tolist() == [expected], mode
    h = pto.Tile(D.FLOAT16, 1, 6)
    pto.tcvt(h, x, tmp=None, mode=pto.RoundMode.TRUNC, sat=pto.Saturation.OFF)
    assert values(h)[0, 5] == 65504.0  # TRUNC overflows to the largest finite
    pto.tcvt(h, x, None, pto.RoundMode.RINT, pto.Saturation.OFF)
    assert np.isinf(values(h)[0, 5])
    with pytest.raises(pto.Error, match="converting FLOAT32 to INT8"):
        pto.tcvt(pto.Tile(D.INT8, 1, 6), x, None, pto.RoundMode.RINT, pto.Saturation.ON)
    with pytest.raises(pto.Error, match="PTO_ROUND_ODD"):
        pto.tcvt(pto.Tile(D.BFLOAT16, 1, 6), x, None, pto.RoundMode.ODD, pto.Saturation.ON)
