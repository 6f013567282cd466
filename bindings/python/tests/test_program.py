"""pto.Program: PTO assembly text verified once and run from Python, against
the direct calls on the same data (bit for bit), kernels over global memory on
several blocks, diagnostics and argument errors, threads."""

import gc
import pickle
import threading

import numpy as np
import pytest

import pto
from helpers import D, other_thread_progresses, source_file

F32_F16 = [(D.FLOAT32, "f32", np.float32), (D.FLOAT16, "f16", np.float16)]


def bits(a):
    a = np.ascontiguousarray(a)
    return a.view({1: np.uint8, 2: np.uint16, 4: np.uint32}[a.dtype.itemsize])


def assert_same_bits(got, want):
    assert got.dtype == want.dtype and got.shape == want.shape
    assert np.array_equal(bits(got), bits(want))


def tile(a):
    return pto.Tile.from_numpy(a)


def direct(fn, shape, dtype, *sources, **kwargs):
    """dst of fn(dst, *sources) run with the direct API, as an array."""
    dst = pto.Tile(dtype, *shape)
    fn(dst, *[tile(s) if isinstance(s, np.ndarray) else s for s in sources], **kwargs)
    return dst.numpy().copy()


def pow_inputs(rng, npt):
    base = rng.uniform(0.25, 4.0, (16, 16)).astype(npt)
    exp = rng.uniform(-6.0, 6.0, (16, 16)).astype(npt)
    base[0, :4] = [0.0, -2.0, np.inf, np.nan]
    exp[0, :4] = [-1.0, 3.0, 0.5, 0.0]
    return base, exp


# ---- the snippet forms against the direct calls ---------------------------


@pytest.mark.parametrize("dtype,spelling,npt", F32_F16)
@pytest.mark.parametrize("algorithm", list(pto.PowAlgorithm))
def test_tpow_ssa_and_synchronous_forms(rng, dtype, spelling, npt, algorithm):
    base, exp = pow_inputs(rng, npt)
    t = f"!pto.tile<16x16x{spelling}>"
    attr = (" {precisionType = #pto<pow_precision high_precision>}"
            if algorithm is pto.PowAlgorithm.HIGH_PRECISION else "")
    want = direct(pto.tpow, (16, 16), dtype, base, exp, pto.Tile(dtype, 16, 16), algorithm)
    ssa = pto.Program(f"%dst = pto.tpow %base, %exp{attr} : ({t}, {t}) -> {t}")
    sync = pto.Program(f"%dst = tpow %base, %exp{attr} : {t}")
    for prog in (ssa, sync):
        out = prog(base=base, exp=exp)
        assert list(out) == ["dst"]
        assert_same_bits(out["dst"], want)


@pytest.mark.parametrize("dtype,spelling,npt", F32_F16)
def test_tpow_with_manual_placement(rng, dtype, spelling, npt):
    base, exp = pow_inputs(rng, npt)
    prog = pto.Program(
        "pto.tassign %base, @tile(0x1000)\n"
        "pto.tassign %exp, @tile(0x2000)\n"
        f"%dst = tpow %base, %exp : !pto.tile<16x16x{spelling}>\n")
    want = direct(pto.tpow, (16, 16), dtype, base, exp, pto.Tile(dtype, 16, 16))
    assert_same_bits(prog(base=base, exp=exp)["dst"], want)


@pytest.mark.parametrize("dtype,spelling,npt", F32_F16)
def test_trsqrt_synchronous(rng, dtype, spelling, npt):
    src = rng.uniform(0, 100, (16, 16)).astype(npt)
    src[0, :5] = [0.0, -0.0, -1.0, np.inf, np.nan]
    prog = pto.Program(f"%dst = trsqrt %src : !pto.tile<16x16x{spelling}>")
    assert_same_bits(prog(src=src)["dst"], direct(pto.trsqrt, (16, 16), dtype, src))


@pytest.mark.parametrize("dtype,spelling,npt", F32_F16)
def test_tprelu_dps(rng, dtype, spelling, npt):
    src0 = rng.standard_normal((16, 16)).astype(npt)
    src1 = rng.standard_normal((16, 16)).astype(npt)
    t = f"!pto.tile_buf<vec, 16x16x{spelling}>"
    prog = pto.Program(f"pto.tprelu ins(%src0, %src1 : {t}, {t}) outs(%dst : {t})")
    assert [(p.name, p.kind, p.dtype) for p in prog.parameters] == [
        ("src0", pto.ParamKind.TILE, dtype), ("src1", pto.ParamKind.TILE, dtype), ("dst", pto.ParamKind.TILE, dtype)]
    out = prog(src0=src0, src1=src1)
    assert_same_bits(out["dst"], direct(pto.tprelu, (16, 16), dtype, src0, src1))
    assert_same_bits(out["dst"], np.where(src0 > 0, src0, src0 * src1))


@pytest.mark.parametrize("dtype,spelling,npt", F32_F16)
def test_tcolexpanddiv_ssa(rng, dtype, spelling, npt):
    src0 = rng.standard_normal((16, 16)).astype(npt)
    src1 = rng.standard_normal((1, 16)).astype(npt)
    src1[0, 3] = 0.0
    prog = pto.Program(f"%dst = pto.tcolexpanddiv %a, %b : (!pto.tile<16x16x{spelling}>, "
                       f"!pto.tile<1x16x{spelling}>) -> !pto.tile<16x16x{spelling}>")
    assert prog.tile_shape("b") == (1, 16)
    assert_same_bits(prog(a=src0, b=src1)["dst"], direct(pto.tcolexpanddiv, (16, 16), dtype, src0, src1))


@pytest.mark.parametrize("dtype,spelling,npt", F32_F16)
def test_tpartadd_with_a_partial_source_as_a_tile(rng, dtype, spelling, npt):
    a = rng.standard_normal((16, 16)).astype(npt)
    b = rng.standard_normal((16, 16)).astype(npt)
    prog = pto.Program(f"%dst = pto.tpartadd %a, %b : (!pto.tile<16x16x{spelling}>, "
                       f"!pto.tile<16x16x{spelling}, valid=8x8>) -> !pto.tile<16x16x{spelling}>")
    tb = tile(b)
    tb.valid = (8, 8)  # the declared valid region
    want = direct(pto.tpartadd, (16, 16), dtype, a, tb)
    assert_same_bits(prog(a=a, b=tb)["dst"], want)
    assert_same_bits(prog(a=a, b=b)["dst"], want)  # a numpy array gets the declared region
    tb.valid = (16, 16)  # a pto.Tile is bound as is: its region must be the declared one
    with pytest.raises(ValueError, match="valid region"):
        prog(a=a, b=tb)


def test_integer_and_bfloat16_tiles(rng):
    a = rng.integers(-100, 100, (16, 16)).astype(np.int16)
    b = rng.integers(-100, 100, (16, 16)).astype(np.int16)
    prog = pto.Program("%dst = pto.tpartadd %a, %b : (!pto.tile<16x16xi16>, !pto.tile<16x16xi16>) "
                       "-> !pto.tile<16x16xi16>")
    assert_same_bits(prog(a=a, b=b)["dst"], a + b)
    raw = (rng.integers(0x3F00, 0x4100, (16, 16))).astype(np.uint16)  # bfloat16 bits near 1
    with pytest.raises(pto.ProgramError) as info:  # refused at creation, as the direct call is
        pto.Program("%dst = trsqrt %src : !pto.tile<16x16xbf16>")
    assert info.value.status is pto.Status.ERR_UNSUPPORTED_DTYPE
    with pytest.raises(pto.UnsupportedDTypeError):
        direct(pto.trsqrt, (16, 16), D.BFLOAT16, pto.Tile.from_numpy(raw, dtype=D.BFLOAT16))
    bp = pto.Program("%dst = tpow %base, %exp : !pto.tile<16x16xbf16>")
    want = direct(pto.tpow, (16, 16), D.BFLOAT16, pto.Tile.from_numpy(raw, dtype=D.BFLOAT16),
                  pto.Tile.from_numpy(raw, dtype=D.BFLOAT16), pto.Tile(D.BFLOAT16, 16, 16))
    got = bp(base=raw, exp=raw)["dst"]
    assert got.dtype == D.BFLOAT16.numpy_dtype
    assert np.array_equal(bits(got), bits(want))


def test_a_tile_written_in_place_is_updated_and_returned(rng):
    a = rng.standard_normal((16, 16)).astype(np.float32)
    s = rng.standard_normal((16, 16)).astype(np.float32)
    t = "!pto.tile_buf<vec, 16x16xf32>"
    prog = pto.Program(f"pto.tprelu ins(%a, %s : {t}, {t}) outs(%a : {t})")
    assert prog.reads("a") and prog.writes("a") and prog.reads("s") and not prog.writes("s")
    want = np.where(a > 0, a, a * s)
    before = a.copy()
    out = prog(a=a, s=s)  # a numpy array is copied in: the caller's array is not changed
    assert_same_bits(out["a"], want)
    assert_same_bits(a, before)
    ta = tile(a)
    out = prog(a=ta, s=s)  # a pto.Tile is bound as is
    assert_same_bits(ta.numpy(), want)
    assert np.shares_memory(out["a"], ta.numpy())


@pytest.mark.parametrize("dtype,spelling,npt", F32_F16)
def test_declared_valid_region_from_numpy(rng, dtype, spelling, npt):
    prog = pto.Program(f"%dst = pto.tprelu %a, %b : !pto.tile<16x16x{spelling}, valid=8x8>")
    for name in ("a", "b", "dst"):
        assert prog.tile_shape(name) == (16, 16)
        assert prog.tile_valid(name) == (8, 8)
    assert [tuple(p) for p in prog.parameters] == [(n, pto.ParamKind.TILE, dtype) for n in ("a", "b", "dst")]
    assert all(len(p) == 3 for p in prog.parameters)
    assert "16x16 valid=8x8" in repr(prog)
    a = rng.standard_normal((16, 16)).astype(npt)
    b = rng.standard_normal((16, 16)).astype(npt)
    before = a.copy()
    out = prog(a=a, b=b)  # full 16x16 arrays: copied whole, the declared region set
    ta, tb, want = tile(a), tile(b), pto.Tile(dtype, 16, 16)
    for t in (ta, tb, want):
        t.valid = (8, 8)
    pto.tprelu(want, ta, tb)
    assert out["dst"].shape == (8, 8)
    assert_same_bits(out["dst"], want.numpy()[:8, :8])
    assert_same_bits(a, before)
    # a dst the caller gives keeps its region, which must be the declared one
    dst = pto.Tile(dtype, 16, 16)
    dst.valid = (8, 8)
    assert_same_bits(prog(a=a, b=b, dst=dst)["dst"], want.numpy()[:8, :8])
    with pytest.raises(ValueError, match="valid region"):
        prog(a=a, b=b, dst=pto.Tile(dtype, 16, 16))

    dyn = pto.Program(f"%dst = pto.tprelu %a, %b : !pto.tile<16x16x{spelling}, valid=?x?>")
    assert dyn.tile_valid("a") == (None, None) and dyn.tile_valid("%dst") == (None, None)
    assert "16x16 valid=?x?" in repr(dyn)
    mixed = pto.Program(f"%dst = pto.tprelu %a, %b : !pto.tile<16x16x{spelling}, valid=8x?>")
    assert mixed.tile_valid("b") == (8, None)
    assert "16x16 valid=8x?" in repr(mixed)

    plain = pto.Program(f"%dst = pto.tprelu %a, %b : !pto.tile<16x16x{spelling}>")
    assert plain.tile_valid("a") == (16, 16)
    with pytest.raises(KeyError):
        plain.tile_valid("nope")
    kernel = pto.Program(PRELU_KERNEL)
    with pytest.raises(ValueError, match="not TILE"):
        kernel.tile_valid("x")


def test_results_are_the_valid_region():
    prog = pto.Program("%dst = trsqrt %src : !pto.tile<4x8xf32, valid=2x3>")
    src = pto.Tile.from_numpy(np.full((4, 8), 4.0, np.float32))
    src.valid = (2, 3)
    dst = pto.Tile(D.FLOAT32, 4, 8)
    dst.valid = (2, 3)
    out = prog(src=src, dst=dst)
    assert out["dst"].shape == (2, 3) and (out["dst"] == 0.5).all()


# ---- kernels over global memory -------------------------------------------

PRELU_KERNEL = """module {
  func.func @prelu_rows(%x: !pto.ptr<f32>, %s: !pto.ptr<f32>, %y: !pto.ptr<f32>, %rows: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %xv = pto.make_tensor_view %x, shape = [%rows, %c16], strides = [%c16, %c1] : !pto.tensor_view<?x16xf32>
    %sv = pto.make_tensor_view %s, shape = [%rows, %c16], strides = [%c16, %c1] : !pto.tensor_view<?x16xf32>
    %yv = pto.make_tensor_view %y, shape = [%rows, %c16], strides = [%c16, %c1] : !pto.tensor_view<?x16xf32>
    %a = pto.alloc_tile : !pto.tile_buf<vec, 4x16xf32>
    %b = pto.alloc_tile : !pto.tile_buf<vec, 4x16xf32>
    %o = pto.alloc_tile : !pto.tile_buf<vec, 4x16xf32>
    %bid = pto.get_block_idx
    %bnum = pto.get_block_num
    %bi = arith.index_cast %bid : i64 to index
    %bn = arith.index_cast %bnum : i64 to index
    %start = arith.muli %bi, %c4 : index
    %step = arith.muli %bn, %c4 : index
    scf.for %r = %start to %rows step %step {
      %xp = pto.partition_view %xv, offsets = [%r, %c0], sizes = [%c4, %c16] : !pto.tensor_view<?x16xf32> -> !pto.partition_tensor_view<4x16xf32>
      %sp = pto.partition_view %sv, offsets = [%r, %c0], sizes = [%c4, %c16] : !pto.tensor_view<?x16xf32> -> !pto.partition_tensor_view<4x16xf32>
      %yp = pto.partition_view %yv, offsets = [%r, %c0], sizes = [%c4, %c16] : !pto.tensor_view<?x16xf32> -> !pto.partition_tensor_view<4x16xf32>
      pto.tload ins(%xp : !pto.partition_tensor_view<4x16xf32>) outs(%a : !pto.tile_buf<vec, 4x16xf32>)
      pto.tload ins(%sp : !pto.partition_tensor_view<4x16xf32>) outs(%b : !pto.tile_buf<vec, 4x16xf32>)
      pto.tprelu ins(%a, %b : !pto.tile_buf<vec, 4x16xf32>, !pto.tile_buf<vec, 4x16xf32>) outs(%o : !pto.tile_buf<vec, 4x16xf32>)
      pto.tstore ins(%o : !pto.tile_buf<vec, 4x16xf32>) outs(%yp : !pto.partition_tensor_view<4x16xf32>)
    }
    return
  }
}
"""


@pytest.fixture(scope="module")
def prelu_kernel():
    return pto.Program(PRELU_KERNEL, name="prelu.pto")


def test_kernel_parameters_and_repr(prelu_kernel):
    K = pto.ParamKind
    assert prelu_kernel.parameters == [("x", K.POINTER, D.FLOAT32), ("s", K.POINTER, D.FLOAT32),
                                       ("y", K.POINTER, D.FLOAT32), ("rows", K.INT, D.INT32)]
    assert prelu_kernel.name == "prelu.pto" and prelu_kernel.profile is pto.Profile.HOST
    assert prelu_kernel.writes("y") and not prelu_kernel.writes("x") and prelu_kernel.reads("%x")
    text = repr(prelu_kernel)
    assert "prelu.pto" in text and "HOST" in text and "y: pointer FLOAT32" in text


@pytest.mark.parametrize("blocks", [1, 2, 4])
def test_kernel_on_blocks_updates_in_place(rng, prelu_kernel, blocks):
    x = rng.standard_normal((64, 16)).astype(np.float32)
    s = rng.standard_normal((64, 16)).astype(np.float32)
    y = np.full((64, 16), np.nan, np.float32)
    assert prelu_kernel(blocks, x=x, s=s, y=y, rows=64) == {}
    assert_same_bits(y, np.where(x > 0, x, x * s))
    y2 = np.zeros_like(y)
    prelu_kernel(blocks=blocks, x=x, s=s, y=y2, rows=64)  # blocks by keyword too
    assert_same_bits(y2, y)


def test_kernel_takes_read_only_inputs_and_other_buffers(rng, prelu_kernel):
    x = rng.standard_normal((8, 16)).astype(np.float32)
    x.flags.writeable = False  # only loaded from
    s = bytearray(np.full(8 * 16, 0.5, np.float32).tobytes())
    y = np.zeros(8 * 16, np.float32)  # any shape: the bytes bound the accesses
    with pytest.raises(TypeError, match="dtype float32"):
        prelu_kernel(x=x, s=s, y=y, rows=8)  # a bytearray is uint8
    prelu_kernel(x=x, s=np.frombuffer(s, np.float32), y=y, rows=8)
    assert_same_bits(y.reshape(8, 16), np.where(x > 0, x, x * np.float32(0.5)))
    with pytest.raises(ValueError, match="writable"):
        prelu_kernel(x=x, s=x, y=x, rows=8)
    with pytest.raises(ValueError, match="C-contiguous"):
        prelu_kernel(x=x, s=x, y=np.zeros((16, 16), np.float32)[:, :8], rows=8)


def test_kernel_access_outside_the_array_writes_nothing_beyond_it(rng, prelu_kernel):
    x = rng.standard_normal((32, 16)).astype(np.float32)
    s = rng.standard_normal((32, 16)).astype(np.float32)
    backing = np.full((40, 16), 7.0, np.float32)
    y = backing[:16]  # 16 rows bound; the kernel is told 32
    with pytest.raises(pto.ProgramError) as info:
        prelu_kernel(x=x, s=s, y=y, rows=32)
    e = info.value
    assert str(e).startswith("prelu.pto:%d:%d: error: " % (e.line, e.column))
    assert e.status is pto.Status.ERR_OUT_OF_RANGE and isinstance(e, ValueError)
    assert (backing[16:] == 7.0).all()


def test_kernel_fault_during_the_loop(rng):
    # The view is checked when it is made; a partition beyond it faults in the
    # loop, after earlier iterations stored their rows.
    text = PRELU_KERNEL.replace("scf.for %r = %start to %rows step %step",
                                "%rows4 = arith.addi %rows, %c4 : index\n"
                                "    scf.for %r = %start to %rows4 step %step")
    prog = pto.Program(text, name="over.pto")
    x = np.ones((8, 16), np.float32)
    backing = np.full((12, 16), 7.0, np.float32)
    with pytest.raises(pto.ProgramError) as info:
        prog(x=x, s=x, y=backing[:8], rows=8)
    assert info.value.line == 21 and info.value.status is pto.Status.ERR_OUT_OF_RANGE
    assert (backing[:8] == 1.0).all() and (backing[8:] == 7.0).all()


def test_scalar_arguments():
    prog = pto.Program("module { func.func @k(%a: i8, %b: index, %f: f32) { return } }")
    K = pto.ParamKind
    assert prog.parameters == [("a", K.INT, D.INT8), ("b", K.INT, D.INT32), ("f", K.FLOAT, D.FLOAT32)]
    assert prog(a=-128, b=1 << 40, f=2) == {}
    assert prog(a=np.int8(5), b=np.int64(-3), f=np.float32(0.5)) == {}
    with pytest.raises(ValueError, match="'a'"):
        prog(a=128, b=0, f=0.0)
    with pytest.raises(ValueError, match="64-bit"):
        prog(a=0, b=1 << 64, f=0.0)
    with pytest.raises(TypeError, match="'a' must be an int"):
        prog(a=1.5, b=0, f=0.0)
    with pytest.raises(TypeError, match="'f' must be a float"):
        prog(a=1, b=0, f="1")


# Two public functions and no pto.entry mark: the entry is chosen by name.
TWO_PUBLIC = source_file("examples", "pto", "entry-by-name.pto").read_text()


def test_entry_chosen_by_name_and_describe():
    # Two public functions and no pto.entry mark: refused without an entry.
    for entry in (None, ""):
        with pytest.raises(pto.ProgramError, match=r"2 public functions \(@fill, @twice\)") as info:
            pto.Program(TWO_PUBLIC, name="two.pto", entry=entry)
        assert info.value.status is pto.Status.ERR_INVALID_ARGUMENT
    with pytest.raises(pto.ProgramError, match="no function @nope") as info:
        pto.Program(TWO_PUBLIC, entry="nope")
    assert info.value.status is pto.Status.ERR_INVALID_ARGUMENT
    with pytest.raises(TypeError, match="entry"):
        pto.Program(TWO_PUBLIC, entry=b"twice")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="NUL"):
        pto.Program(TWO_PUBLIC, entry="twi\0ce")

    prog = pto.Program(TWO_PUBLIC, name="two.pto", entry="twice")
    K = pto.ParamKind
    assert prog.parameters == [("p", K.POINTER, D.INT32), ("n", K.INT, D.INT32)]
    listing = prog.describe()
    assert "@twice(" in listing and "(entry)" in listing and "@fill(" in listing, listing
    out = np.zeros(1, np.int32)
    assert prog(p=out, n=21) == {}
    assert out[0] == 42

    # With a leading '@', under a profile: the other function.
    fill = pto.Program(TWO_PUBLIC, entry="@fill", profile=pto.Profile.A5)
    assert [p.name for p in fill.parameters] == ["p"] and fill.profile is pto.Profile.A5
    assert "@fill(%p: !pto.ptr<i32>)  (entry)" in fill.describe()
    fill(p=out)
    assert out[0] == 7


# ---- diagnostics ------------------------------------------------------------


def test_syntax_error_has_line_and_column():
    text = "pto.tassign %base, @tile(0x1000)\n%dst = tpow %base, %exp : !pto.tile<16x16xf3>\n"
    with pytest.raises(pto.ProgramError) as info:
        pto.Program(text, name="bad.pto")
    e = info.value
    assert (e.line, e.column) == (2, 37)  # the element type f3
    assert e.status is pto.Status.ERR_INVALID_ARGUMENT
    assert str(e).startswith("bad.pto:2:37: error: ")
    assert isinstance(e, pto.Error) and isinstance(e, ValueError)
    copy = pickle.loads(pickle.dumps(e))
    assert type(copy) is pto.ProgramError and (copy.line, copy.column, copy.status) == (2, 37, e.status)
    assert str(copy) == str(e)


def test_a_name_with_colons_and_digits_still_locates():
    with pytest.raises(pto.ProgramError) as info:
        pto.Program("\n\n  %x = bogus", name="C:12:34: odd")
    assert (info.value.line, info.value.column) == (3, 8)


def test_dtype_refused_under_a2a3_names_the_profile():
    text = ("%dst = pto.tpartadd %a, %b : (!pto.tile<16x16xui8>, !pto.tile<16x16xui8>) "
            "-> !pto.tile<16x16xui8>")
    assert pto.Program(text).profile is pto.Profile.HOST
    with pto.profile(pto.Profile.A5):
        with pytest.raises(pto.ProgramError) as info:
            pto.Program(text, profile=pto.Profile.A2A3)
        assert pto.get_profile() is pto.Profile.A5  # restored
    e = info.value
    assert e.status is pto.Status.ERR_UNSUPPORTED_DTYPE and "A2A3" in str(e)
    assert (e.line, e.column) == (1, 8)
    prog = pto.Program(text, profile=pto.Profile.A5)
    assert prog.profile is pto.Profile.A5 and pto.get_profile() is pto.Profile.HOST
    with pto.profile(pto.Profile.A2A3):
        with pytest.raises(pto.ProgramError):
            pto.Program(text)  # the thread's profile


def test_module_target_sets_the_profile():
    text = 'module attributes {pto.target_arch = "a5"} {\n  func.func @k(%x: !pto.ptr<f32>) { return }\n}'
    prog = pto.Program(text)
    assert prog.profile is pto.Profile.A5
    assert pto.Program(text, profile=pto.Profile.A5).profile is pto.Profile.A5
    with pytest.raises(pto.ProgramError) as info:
        pto.Program(text, profile=pto.Profile.A2A3)
    assert info.value.status is pto.Status.ERR_INVALID_ARGUMENT and info.value.line == 1


def test_bad_profile_and_text_types():
    with pytest.raises(ValueError):
        pto.Program("%dst = trsqrt %src : !pto.tile<1x1xf32>", profile=7)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        pto.Program(42)  # type: ignore[arg-type]
    assert pto.Program(b"%dst = trsqrt %src : !pto.tile<1x1xf32>").parameters[0].name == "src"


# ---- argument errors, before anything runs ----------------------------------


def test_missing_unknown_and_mistyped_arguments(prelu_kernel):
    x = np.zeros((4, 16), np.float32)
    y = np.full((4, 16), 3.0, np.float32)
    with pytest.raises(TypeError, match="missing argument 'rows'"):
        prelu_kernel(x=x, s=x, y=y)
    with pytest.raises(TypeError, match="missing arguments 's', 'y'"):
        prelu_kernel(x=x, rows=4)
    with pytest.raises(TypeError, match="unexpected argument 'z'"):
        prelu_kernel(x=x, s=x, y=y, rows=4, z=1)
    with pytest.raises(TypeError, match="'s' must have dtype float32"):
        prelu_kernel(x=x, s=x.astype(np.float16), y=y, rows=4)
    with pytest.raises(TypeError, match="'x'"):
        prelu_kernel(x=[1.0] * 64, s=x, y=y, rows=4)
    with pytest.raises(ValueError, match="blocks"):
        prelu_kernel(0, x=x, s=x, y=y, rows=4)
    assert (y == 3.0).all()  # nothing ran


def test_tile_argument_errors(rng):
    prog = pto.Program("%dst = tpow %base, %exp : !pto.tile<16x16xf32>")
    good = np.ones((16, 16), np.float32)
    with pytest.raises(TypeError, match="missing argument 'exp'"):
        prog(base=good)
    with pytest.raises(TypeError, match="'exp' must have dtype float32"):
        prog(base=good, exp=good.astype(np.float64))
    with pytest.raises(ValueError, match=r"shape \(16, 16\)"):
        prog(base=good, exp=good[:8])
    with pytest.raises(TypeError, match="FLOAT32 tile"):
        prog(base=good, exp=pto.Tile(D.FLOAT16, 16, 16))
    with pytest.raises(ValueError, match="16x16 tile"):
        prog(base=good, exp=pto.Tile(D.FLOAT32, 8, 16))
    closed = pto.Tile(D.FLOAT32, 16, 16)
    closed.close()
    with pytest.raises(ValueError, match="closed"):
        prog(base=good, exp=closed)
    # A list converts to the tile's dtype.
    assert (prog(base=good.tolist(), exp=np.zeros((16, 16), np.float32))["dst"] == 1).all()
    # A snippet's result tiles cannot be copied back from several blocks.
    with pytest.raises(pto.InvalidArgumentError):
        prog(2, base=good, exp=good)


# ---- threads ----------------------------------------------------------------


def test_one_program_from_several_threads(prelu_kernel):
    rng = np.random.default_rng(7)
    inputs = [(rng.standard_normal((256, 16)).astype(np.float32),
               rng.standard_normal((256, 16)).astype(np.float32)) for _ in range(4)]
    snippet = pto.Program("%dst = tpow %base, %exp : !pto.tile<16x16xf32>")
    errors = []

    def work(k):
        try:
            x, s = inputs[k]
            want = np.where(x > 0, x, x * s)
            base = np.abs(x[:16]) + 0.5
            pow_want = snippet(base=base, exp=s[:16])["dst"].copy()
            for i in range(50):
                y = np.zeros_like(x)
                prelu_kernel(1 + i % 3, x=x, s=s, y=y, rows=256)
                assert np.array_equal(bits(y), bits(want))
                assert np.array_equal(bits(snippet(base=base, exp=s[:16])["dst"]), bits(pow_want))
        except BaseException as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors


def test_run_releases_the_gil(prelu_kernel):
    x = np.ones((1 << 16, 16), np.float32)  # 4 MiB per array: long enough to observe
    y = np.zeros_like(x)
    progressed = other_thread_progresses(lambda: prelu_kernel(x=x, s=x, y=y, rows=1 << 16))
    assert progressed > 0, "no other thread ran while the program was inside libpto"
    assert (y == 1).all()


# ---- the package surface ------------------------------------------------------


def test_param_kind_matches_the_header():
    import test_api
    path = test_api.header_path()
    if path is None:
        pytest.skip("include/pto_c.h not found beside the tests (set PTO_SOURCE_ROOT)")
    c = test_api.header_enum(path.read_text(), "pto_param_kind")
    assert {k[len("PTO_PARAM_"):]: v for k, v in c.items()} == {m.name: int(m) for m in pto.ParamKind}


def test_exports_and_docs():
    for name in ("Program", "ProgramError", "ParamKind", "Parameter"):
        assert name in pto.__all__ and getattr(pto, name).__module__ == "pto"
    assert issubclass(pto.ProgramError, pto.Error) and issubclass(pto.ProgramError, ValueError)
    assert pto.Program.__call__.__doc__ and "ProgramError" in pto.Program.__call__.__doc__
    assert "Programs." in pto.__doc__


USER_CODE = '''
from typing import List, Optional, Tuple
import numpy as np
import pto

prog = pto.Program("%dst = trsqrt %src : !pto.tile<2x2xf32>", profile=pto.Profile.A5, name="x.pto")
out = prog(src=np.ones((2, 2), np.float32))
dims: Tuple[int, ...] = out["dst"].shape
more = prog(1, src=np.ones((2, 2), np.float32))
params: List[pto.Parameter] = prog.parameters
name, kind, dtype = params[0]
k: pto.ParamKind = kind
d: pto.DType = dtype
p: pto.Profile = prog.profile
shape = prog.tile_shape("src")
listing: str = prog.describe()
two = pto.Program("func.func @a() { return }\\nfunc.func @b() { return }", entry="b")
try:
    pto.Program(b"bad")
except pto.ProgramError as e:
    line: Optional[int] = e.line
    s: pto.Status = e.status
'''


def test_type_checkers_see_the_program_api(tmp_path):
    api = pytest.importorskip("mypy.api", reason="mypy is not installed here (tests/ci/python.sh installs it)")
    (tmp_path / "use_program.py").write_text(USER_CODE)
    out, err, status = api.run(["--strict", "--cache-dir", str(tmp_path / "cache"), str(tmp_path / "use_program.py")])
    assert status == 0, out + err


@pytest.mark.parametrize("as_ml_dtypes", [False, True])
def test_bfloat16_kernel_raw_bits_or_ml_dtypes(rng, as_ml_dtypes):
    prog = pto.Program(PRELU_KERNEL.replace("f32", "bf16"))
    assert prog.parameters[0] == ("x", pto.ParamKind.POINTER, D.BFLOAT16)
    x = (rng.integers(0x3E00, 0x4200, (8, 16)) | (rng.integers(0, 2, (8, 16)) << 15)).astype(np.uint16)
    s = rng.integers(0x3E00, 0x4000, (8, 16)).astype(np.uint16)
    want = direct(pto.tprelu, (8, 16), D.BFLOAT16, pto.Tile.from_numpy(x, dtype=D.BFLOAT16),
                  pto.Tile.from_numpy(s, dtype=D.BFLOAT16))
    y = np.zeros((8, 16), np.uint16)
    if as_ml_dtypes:
        ml_dtypes = pytest.importorskip("ml_dtypes")
        x, s, y = (a.view(ml_dtypes.bfloat16) for a in (x, s, y))
    prog(x=x, s=s, y=y, rows=8)
    assert np.array_equal(bits(y), bits(want))
    with pytest.raises(TypeError, match="dtype"):
        prog(x=x.view(np.int16), s=s, y=y, rows=8)


def test_readme_program_example_runs(capsys):
    import test_api
    names = test_api.readme_example("## Programs: pto.Program")
    assert names["out"]["dst"].tolist() == [[1, 2, 4, 8], [16, 32, 64, 128]]
    x = names["x"]
    assert_same_bits(names["y"], np.where(x > 0, x, x * np.float32(0.25)))
    assert "ERR_OUT_OF_RANGE prelu.pto:" in capsys.readouterr().out


def test_runs_and_failures_keep_rss_bounded(prelu_kernel):
    from test_leaks import rss_bytes
    snippet = pto.Program("%dst = tpow %base, %exp : !pto.tile<16x16xf32>")
    x = np.ones((16, 16), np.float32)

    def churn(n):
        for _ in range(n):
            prelu_kernel(x=x, s=x, y=np.zeros_like(x), rows=16)  # 1 KiB array bound each time
            snippet(base=x, exp=x)
            try:
                prelu_kernel(x=x, s=x, y=x[:4].copy(), rows=16)
            except pto.ProgramError:
                pass
            try:
                pto.Program("%dst = bogus")
            except pto.ProgramError:
                pass
            pto.Program(PRELU_KERNEL)
        gc.collect()

    churn(2000)  # warm up allocator and caches
    before = rss_bytes()
    churn(10_000)
    grown = rss_bytes() - before
    assert grown < 4 << 20, f"RSS grew by {grown / 2**20:.1f} MiB over 10k runs"


def test_undecodable_bytes_in_the_text_still_give_a_program_error():
    with pytest.raises(pto.ProgramError) as info:
        pto.Program(b"%dst = \xff\xfe bogus")
    assert info.value.line == 1
