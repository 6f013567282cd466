"""The functions bound by hand beyond the rows of src/operations.def: the cube
modes (set_tf32_mode, set_hf32_mode) changing a float32 matrix multiply's
bits on their profile, the fixpipe's thread configuration (set_quant_scalar,
set_quant_vector) read by tmov_fp, tquant_mx against values worked by hand,
mgather and mscatter over numpy tables; each refusal with libpto's sentence
and nothing written; each setting per OS thread."""

import inspect
import threading

import numpy as np
import pytest

import pto

D, L, Y, R = pto.DType, pto.Location, pto.Layout, pto.RoundMode

ONE_PLUS = np.float32(1 + 2.0 ** -20)  # 1 + 2^-20: 1.0 in TF32 (e8m10) and HF32 (e8m11)


def in_thread(f):
    """f's result when called on a new OS thread."""
    out = []
    t = threading.Thread(target=lambda: out.append(f()))
    t.start()
    t.join()
    return out[0]


def cube_matmul(profile, left):
    """c = a @ b on profile's cube tiles: a all 1 + 2^-20, b's row 0 all 1 (so
    c's elements are a's, exactly, without a mode)."""
    m, k, n = 16, 32, 16
    a_values = np.full((m, k), ONE_PLUS, np.float32)
    b_values = np.zeros((k, n), np.float32)
    b_values[0] = 1
    a = pto.Tile.cube(D.FLOAT32, m, k, L.LEFT, left)
    b = pto.Tile.cube(D.FLOAT32, k, n, L.RIGHT, Y.ZN)
    c = pto.Tile.cube(D.FLOAT32, m, n, L.ACC, Y.NZ)
    a.write_values(a_values)
    b.write_values(b_values)
    with pto.profile(profile):
        pto.tmatmul(c, a, b)
    return c.values()


@pytest.mark.parametrize("profile, left, set_mode, get_mode, other", [
    (pto.Profile.A5, Y.NZ, pto.set_tf32_mode, pto.tf32_mode, pto.set_hf32_mode),
    (pto.Profile.A2A3, Y.ZZ, pto.set_hf32_mode, pto.hf32_mode, pto.set_tf32_mode)])
def test_cube_mode_rounds_float32_inputs(profile, left, set_mode, get_mode, other):
    assert get_mode() == (False, R.ROUND)
    assert (cube_matmul(profile, left) == ONE_PLUS).all()
    other(True, R.RINT)  # the other profile's mode changes nothing here
    assert (cube_matmul(profile, left) == ONE_PLUS).all()
    other(False)
    try:
        set_mode(True, R.RINT)
        assert get_mode() == (True, R.RINT)
        assert (cube_matmul(profile, left) == 1.0).all()
        assert in_thread(get_mode) == (False, R.ROUND)  # another thread keeps its own
        assert (in_thread(lambda: cube_matmul(profile, left)) == ONE_PLUS).all()
        with pytest.raises(pto.InvalidArgumentError, match="round mode 3 is not PTO_ROUND_ROUND") as e:
            set_mode(False, R.FLOOR)
        assert "pto_set_" in str(e.value) and e.value.status is pto.Status.ERR_INVALID_ARGUMENT
        assert get_mode() == (True, R.RINT)  # kept by the refusal
    finally:
        set_mode(False)
    assert get_mode() == (False, R.ROUND)
    assert (cube_matmul(profile, left) == ONE_PLUS).all()


def acc_tile(values):
    acc = pto.Tile.cube(D.FLOAT32, 16, 32, L.ACC, Y.NZ)
    acc.write_values(values)
    return acc


def test_quant_scalar_then_tmov_fp():
    values = np.zeros((16, 32), np.float32)
    values[0, :6] = [3, 5, -7, 300, -300, 1.25]
    acc, q = acc_tile(values), pto.Tile(D.INT8, 16, 32)
    # x * 0.5, to nearest even, clamped to int8: 1.5 -> 2, 2.5 -> 2, -3.5 -> -4, 150 -> 127.
    pto.set_quant_scalar(0.5, D.INT8)
    assert pto.tmov_fp(q, acc, None) is q
    assert q.numpy()[0, :6].tolist() == [2, 2, -4, 127, -128, 1]
    assert not q.numpy()[1:].any()
    # The same with the fixpipe's relu: the negative products give 0.
    assert pto.tmov_fp_ex(q, acc, flags=pto.FIXPIPE_RELU) is q
    assert q.numpy()[0, :6].tolist() == [2, 2, 0, 127, 0, 1]
    with pytest.raises(pto.InvalidArgumentError, match="pto_tmov_fp_ex"):
        pto.tmov_fp_ex(q, acc, None, 8)
    # tmov_fp_ex is a row (its flags an attribute of the role Flags): a
    # value past the unsigned range reaches the C call as every bit set,
    # refused with the undefined bits named, q unchanged.
    with pytest.raises(pto.InvalidArgumentError, match="flags 0xffffffff has bits other than"):
        pto.tmov_fp_ex(q, acc, flags=1 << 40)
    assert q.numpy()[0, :6].tolist() == [2, 2, 0, 127, 0, 1]
    # A fresh thread has no configuration: the move is refused there.
    def fresh():
        try:
            pto.tmov_fp(pto.Tile(D.INT8, 16, 32), acc, None)
        except pto.InvalidArgumentError as e:
            return str(e)
    assert "pto_tmov_fp" in in_thread(fresh)
    with pytest.raises(pto.UnsupportedDTypeError, match="pto_set_quant_scalar"):
        pto.set_quant_scalar(1.0, D.FLOAT32)
    pto.tmov_fp(q, acc, None)  # the refusal kept 0.5
    assert q.numpy()[0, :3].tolist() == [2, 2, -4]


def test_quant_vector_is_copied():
    values = np.zeros((16, 32), np.float32)
    values[0, :4] = 8
    acc, q = acc_tile(values), pto.Tile(D.INT8, 16, 32)
    fp = pto.Tile.cube(D.FLOAT32, 1, 32, L.SCALING, Y.ND)
    fp.write_values(np.array([[0.25, 0.5, 1, 2] + [1] * 28], np.float32))
    pto.set_quant_vector(fp)
    fp.write_values(np.zeros((1, 32), np.float32))  # not seen: copied when set
    pto.tmov_fp(q, acc, None)
    assert q.numpy()[0, :4].tolist() == [2, 4, 8, 16]
    with pytest.raises(pto.InvalidArgumentError, match="pto_set_quant_vector"):
        pto.set_quant_vector(pto.Tile(D.FLOAT32, 1, 32))  # a vec tile
    with pytest.raises(pto.NullArgumentError, match="pto_set_quant_vector"):
        pto.set_quant_vector(None)


def test_tquant_mx_hand_values():
    # One block: max 3 has biased exponent 128, so E8M0 120 (OCP: less 8), the
    # scale 2^7; 3 -> 384 = 1.5 * 2^8 (E4M3 0x7C), 1 -> 2^7 (0x70), 2 -> 2^8
    # (0x78), -0.5 -> -2^6 (0xE8), 0 -> 0x00.
    src = pto.Tile(D.FLOAT32, 1, 32)
    src.numpy()[0, :4] = [3, 1, 2, -0.5]
    dst, exp = pto.Tile(D.UINT8, 1, 32), pto.Tile(D.UINT8, 1, 1)
    mx, sc = pto.Tile(D.FLOAT32, 1, 1), pto.Tile(D.FLOAT32, 1, 1)
    assert pto.tquant_mx(dst, src, exp, mx, sc) is dst
    assert dst.numpy()[0, :5].tolist() == [0x7C, 0x70, 0x78, 0xE8, 0]
    assert (exp.numpy()[0, 0], mx.numpy()[0, 0], sc.numpy()[0, 0]) == (120, 3.0, 128.0)
    # NV: 3 / 448 = 0.0067 has exponent 119, rounded up to 120: the same code.
    pto.tquant_mx(dst, src, exp, alg=pto.MxAlg.NV_FP8_E4M3, group_axis=1)
    assert exp.numpy()[0, 0] == 120 and dst.numpy()[0, 0] == 0x7C
    kept = dst.numpy().copy()
    with pto.profile(pto.Profile.A2A3), pytest.raises(pto.UnsupportedDTypeError, match="pto_tquant_mx"):
        pto.tquant_mx(dst, src, exp)
    with pytest.raises(pto.NullArgumentError, match="pto_tquant_mx"):
        pto.tquant_mx(dst, src, None)
    with pytest.raises(pto.InvalidArgumentError, match="pto_tquant_mx"):
        pto.tquant_mx(dst, src, exp, group_axis=2)
    assert np.array_equal(dst.numpy(), kept)


def test_hif4_hand_values():
    # One group: 7 gives Ea 0xC0 (7/7 = 1) with Eb and Ec set in the first 8
    # and 4 (7 -> 1.75, 1 -> 0.25); -0.5 and 0.30078125 keep scale 1. b's
    # column 0 is 1.0 (Ea 0xC0, no Eb, Ec), column 1 zero: a b = 7.75.
    values = np.zeros((1, 64), dtype=np.float32)
    values[0, [0, 1, 8, 9]] = [7, 1, -0.5, 0.30078125]
    src = pto.Tile.from_numpy((values.view(np.uint32) >> 16).astype(np.uint16), dtype=D.BFLOAT16)
    dst, exp = pto.Tile(D.FLOAT4_E1M2X2, 1, 32), pto.Tile(D.UINT32, 1, 1)
    assert pto.tquant_hif4(dst, src, exp) is dst
    assert exp.numpy()[0, 0] == 0x101C0
    bv = np.zeros((64, 2), dtype=np.float32)
    bv[:, 0] = 1
    bsrc = pto.Tile.from_numpy((bv.view(np.uint32) >> 16).astype(np.uint16), dtype=D.BFLOAT16)
    b, bs = pto.Tile(D.FLOAT4_E1M2X2, 64, 1), pto.Tile(D.UINT32, 1, 2)
    pto.tcvt(b, bsrc, None, pto.RoundMode.RINT, pto.Saturation.OFF)
    bs.numpy()[0, :] = [0xC0, 0xC0]
    out = pto.Tile(D.FLOAT32, 1, 2)
    assert pto.tmatmul_mx_hif4(out, dst, exp, b, bs) is out
    assert out.numpy()[0].tolist() == [7.75, 0.0]
    with pto.profile(pto.Profile.A5), pytest.raises(pto.UnsupportedDTypeError, match="pto_tquant_hif4"):
        pto.tquant_hif4(dst, src, exp)
    with pytest.raises(pto.NullArgumentError, match="pto_tmatmul_mx_hif4"):
        pto.tmatmul_mx_hif4(out, dst, None, b, bs)


def test_mgather_and_mscatter():
    table = np.arange(16, dtype=np.int32) * 10
    dst = pto.Tile(D.INT32, 1, 4)
    idx = pto.Tile.from_numpy(np.array([[3, 0, 15, 7]], np.int32))
    assert pto.mgather(dst, table, idx) is dst
    assert dst.numpy().tolist() == [[30, 0, 150, 70]]
    # Row: a 4 x 4 table (any shape: its elements in order), rows 2 and 0.
    rows = pto.Tile(D.INT32, 2, 4)
    pto.mgather(rows, table.reshape(4, 4), pto.Tile.from_numpy(np.array([[2], [0]], np.int32)), pto.Coalesce.ROW)
    assert rows.numpy().tolist() == [[80, 90, 100, 110], [0, 10, 20, 30]]
    # An index past the table: refused, naming it; nothing written.
    idx.numpy()[0, 2] = 16
    with pytest.raises(pto.OutOfRangeError, match=r"pto_mgather: indices \(0, 2\) is 16"):
        pto.mgather(pto.Tile(D.INT32, 1, 4), table, idx)
    assert dst.numpy().tolist() == [[30, 0, 150, 70]]
    out = np.zeros(8, np.int32)
    src = pto.Tile.from_numpy(np.array([[1, 2, 3, 4]], np.int32))
    with pytest.raises(pto.OutOfRangeError, match="pto_mscatter"):
        pto.mscatter(out, src, idx)
    assert not out.any()
    # The last writer wins.
    pto.mscatter(out, src, pto.Tile.from_numpy(np.array([[0, 5, 5, 2]], np.int32)))
    assert out.tolist() == [1, 0, 4, 0, 0, 3, 0, 0]


def test_mgather_and_mscatter_are_rows():
    # Generated from their rows of src/operations.def (a Table / TableDst
    # operand), not bound by hand: the extension's functions themselves,
    # keywords as the rows name them, mscatter returning None.
    assert pto.mgather is pto._pto.mgather and pto.mscatter is pto._pto.mscatter
    assert "table" in pto.mgather.__doc__.split("\n")[0]
    table = np.arange(8, dtype=np.float32)
    dst = pto.Tile(D.FLOAT32, 1, 2)
    idx = pto.Tile.from_numpy(np.array([[6, 1]], np.int32))
    assert pto.mgather(dst=dst, table=table, indices=idx, coalesce=pto.Coalesce.ELEM) is dst
    assert dst.numpy().tolist() == [[6.0, 1.0]]
    assert pto.mscatter(table=table, src=pto.Tile.from_numpy(np.array([[-1, -2]], np.float32)), indices=idx) is None
    assert table.tolist() == [0, -2, 2, 3, 4, 5, -1, 7]


def test_trandom_is_a_row():
    # Generated from its row of src/operations.def (Words2 / Words4 operands,
    # a Word attribute), not bound by hand: the extension's function itself,
    # keywords as the row names them, rounds 10 by default, each word checked.
    assert pto.trandom is pto._pto.trandom
    params = inspect.signature(pto.trandom).parameters
    assert list(params) == ["dst", "key", "counter", "rounds"] and params["rounds"].default == 10
    t, u = pto.Tile(D.UINT32, 1, 8), pto.Tile(D.UINT32, 1, 8)
    assert pto.trandom(dst=t, key=[1, 2], counter=(3, 4, 5, 6)) is t
    assert pto.trandom(u, (1, 2), (3, 4, 5, 6), rounds=10) is u
    assert t.numpy().tolist() == u.numpy().tolist()
    pto.trandom(u, (1, 2), (3, 4, 5, 6), rounds=7)
    assert t.numpy().tolist() != u.numpy().tolist()
    with pytest.raises(TypeError):
        pto.trandom(t, 5, (3, 4, 5, 6))
    with pytest.raises(ValueError, match="key"):
        pto.trandom(t, (1, 2, 3), (3, 4, 5, 6))
    with pytest.raises((OverflowError, ValueError), match=r"counter\[3\]"):
        pto.trandom(t, (1, 2), (3, 4, 5, 1 << 32))


def test_tmrgsort_lists_is_a_row():
    # Generated from its row of src/operations.def (OptionalSrc src2 and
    # src3, an optional tmp, the attribute kind ListCounts: exhausted, and
    # the counts it returns), not bound by hand: the extension's function
    # itself, its keywords, exhausted any truth value, a tuple of four ints.
    assert pto.tmrgsort_lists is pto._pto.tmrgsort_lists
    params = inspect.signature(pto.tmrgsort_lists).parameters
    assert list(params) == ["dst", "src0", "src1", "src2", "src3", "tmp", "exhausted"]
    assert [params[n].default for n in ("src2", "src3", "tmp", "exhausted")] == [None, None, None, False]
    l0 = pto.Tile.from_numpy(np.array([[9, 0, 5, 0]], np.float32))
    l1 = pto.Tile.from_numpy(np.array([[7, 0]], np.float32))
    l2 = pto.Tile.from_numpy(np.array([[6, 0]], np.float32))
    merged = pto.Tile(D.FLOAT32, 1, 8)
    assert pto.tmrgsort_lists(dst=merged, src0=l0, src1=l1, src2=l2, exhausted=[1]) == (1, 1, 0, 0)
    assert pto.tmrgsort_lists(merged, l0, l1, l2) == (2, 1, 1, 0)
    assert merged.numpy()[0].tolist() == [9, 0, 7, 0, 6, 0, 5, 0]
    with pytest.raises(pto.InvalidArgumentError, match="src3 is given without src2"):
        pto.tmrgsort_lists(merged, l0, l1, src3=l2)
    with pytest.raises(pto.NullArgumentError, match="src1"):
        pto.tmrgsort_lists(merged, l0, None)


def test_tquant_mx_is_a_row():
    # Generated from its row of src/operations.def (exp an Aux operand, max
    # and scaling OptionalAux ones, the attribute kind MxQuant: an Enum and
    # an Int), not bound by hand: the extension's function itself, its
    # keywords and defaults.
    assert pto.tquant_mx is pto._pto.tquant_mx
    params = inspect.signature(pto.tquant_mx).parameters
    assert list(params) == ["dst", "src", "exp", "max", "scaling", "alg", "group_axis"]
    assert params["alg"].default == pto.MxAlg.OCP_FP8_E4M3 and params["group_axis"].default == 1
    src = pto.Tile(D.FLOAT32, 1, 32)
    dst, exp = pto.Tile(D.INT8, 1, 32), pto.Tile(D.UINT8, 1, 1)
    assert pto.tquant_mx(dst=dst, src=src, exp=exp, alg=pto.MxAlg.NV_FP8_E4M3, group_axis=1) is dst
    with pytest.raises(pto.InvalidArgumentError, match="group_axis"):
        pto.tquant_mx(dst, src, exp, group_axis=-1)


def test_tquant_hif4_is_a_row():
    # Generated from its row of src/operations.def (exp an Aux operand, max
    # and scaling OptionalAux ones), not bound by hand: the extension's
    # function itself, its keywords and defaults, dst returned.
    assert pto.tquant_hif4 is pto._pto.tquant_hif4
    params = inspect.signature(pto.tquant_hif4).parameters
    assert list(params) == ["dst", "src", "exp", "max", "scaling"]
    assert params["max"].default is None and params["scaling"].default is None
    src = pto.Tile(D.BFLOAT16, 1, 64)
    dst, exp = pto.Tile(D.FLOAT4_E1M2X2, 1, 32), pto.Tile(D.UINT32, 1, 1)
    assert pto.tquant_hif4(dst=dst, src=src, exp=exp, max=None) is dst
    with pytest.raises(pto.NullArgumentError, match="exp"):
        pto.tquant_hif4(dst, src, None)


def test_timg2col_is_a_row():
    # Generated from its row of src/operations.def (config a Config operand,
    # its fields the keywords; pos_m and pos_k the attribute kind
    # Img2colWindow), not bound by hand: the extension's function itself,
    # its keywords and defaults, positional fields, the C types' ranges.
    assert pto.timg2col is pto._pto.timg2col
    params = inspect.signature(pto.timg2col).parameters
    assert list(params) == ["dst", "src", "channel_size", "filter_h", "filter_w", "stride_h", "stride_w",
                            "dilation_h", "dilation_w", "pos_m", "pos_k"]
    assert params["channel_size"].default is inspect.Parameter.empty
    assert [params[n].default for n in list(params)[3:]] == [1, 1, 1, 1, 1, 1, 0, 0]
    src = pto.Tile.from_numpy(np.array([[1], [2], [3], [4]], np.uint32))
    dst = pto.Tile(D.UINT32, 1, 4)
    pto.setfmatrix(2, 2)
    pto.set_img2col_padding(0)
    pto.set_img2col_rpt()
    assert pto.timg2col(dst, src, 1, 2, 2) is dst
    assert dst.numpy().tolist() == [[1, 2, 3, 4]]
    assert pto.timg2col(dst, src, 1, 2, 2, pos_k=1) is dst
    assert dst.numpy().tolist() == [[2, 3, 4, 0]]
    with pytest.raises(ValueError, match="stride_w"):
        pto.timg2col(dst, src, 1, stride_w=256)
    with pytest.raises(ValueError, match="pos_m"):
        pto.timg2col(dst, src, 1, pos_m=65536)
    with pytest.raises(TypeError):
        pto.timg2col(dst, src)


def test_table_checks():
    dst = pto.Tile(D.FLOAT32, 1, 4)
    idx = pto.Tile.from_numpy(np.array([[0, 1, 2, 3]], np.int32))
    with pytest.raises(pto.DTypeMismatchError, match="pto_mgather"):
        pto.mgather(dst, np.zeros(8, np.int32), idx)
    with pytest.raises(TypeError, match="numpy array"):
        pto.mgather(dst, [0.0] * 8, idx)
    with pytest.raises(ValueError, match="C-contiguous"):
        pto.mgather(dst, np.zeros(16, np.float32)[::2], idx)
    frozen = np.zeros(8, np.float32)
    frozen.flags.writeable = False
    pto.mgather(dst, frozen, idx)  # reading a read-only table is fine
    with pytest.raises(ValueError, match="read-only"):
        pto.mscatter(frozen, dst, idx)
    # BFLOAT16 tables as raw uint16 bits.
    bf = pto.Tile(D.BFLOAT16, 1, 4)
    pto.mgather(bf, np.array([0x3F80, 0x4000, 0x4040, 0x4080], np.uint16), idx)
    assert np.asarray(bf).tolist() == [[0x3F80, 0x4000, 0x4040, 0x4080]]


def test_mgather_oob_and_mscatter_ex():
    table = np.array([10, 11, 12, 13, 14, 15], np.int32)
    idx = pto.Tile.from_numpy(np.array([[5, 6, 13, -1]], np.int32))
    dst = pto.Tile(D.INT32, 1, 4)
    assert pto.mgather_oob(dst, table, idx, pto.Coalesce.ELEM, pto.GatherOob.WRAP) is dst
    assert dst.numpy().tolist() == [[15, 10, 11, 13]]  # 4294967295 % 6 = 3
    pto.mgather_oob(dst, table, idx, pto.Coalesce.ELEM, pto.GatherOob.ZERO)
    assert dst.numpy().tolist() == [[15, 0, 0, 0]]
    with pytest.raises(pto.OutOfRangeError, match=r"pto_mgather_oob: indices \(0, 1\) is 6"):
        pto.mgather_oob(dst, table, idx)
    with pytest.raises(pto.InvalidArgumentError, match="pto_mgather_oob: oob"):
        pto.mgather_oob(dst, table, idx, pto.Coalesce.ELEM, 4)
    src = pto.Tile.from_numpy(np.array([[1, 2, 3, 4]], np.int32))
    pto.mscatter_ex(table, src, idx, pto.Coalesce.ELEM, pto.ScatterAtomic.ADD, pto.ScatterOob.CLAMP)
    assert table.tolist() == [10, 11, 12, 13, 14, 25]
    with pytest.raises(pto.InvalidArgumentError, match="pto_mscatter_ex: atomic"):
        pto.mscatter_ex(table, src, idx, pto.Coalesce.ELEM, 5, pto.ScatterOob.SKIP)
    with pytest.raises(pto.UnsupportedDTypeError, match="pto_mscatter_ex: atomic max"):
        pto.mscatter_ex(np.zeros(8, np.uint8), pto.Tile(D.UINT8, 1, 4), idx, pto.Coalesce.ELEM,
                        pto.ScatterAtomic.MAX, pto.ScatterOob.SKIP)
    assert table.tolist() == [10, 11, 12, 13, 14, 25]
