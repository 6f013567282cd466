#!/usr/bin/env python3
"""Writes the fuzz seed corpus (tests/fuzz/corpus/) in the encoding that
the API harness decodes (tests/fuzz/fuzz_api.c, the opcodes, and the files
fuzz_api.h lists): one opcode byte per API call, then its argument bytes. Deterministic: rerun after changing the encoding, then commit
the corpus. Usage: make-corpus.py [OUTDIR]"""
import os
import random
import struct
import sys

CREATE, DESTROY, SET_VALID, WRITE, WRITE_F32, READ, QUERIES, CREATE_CUBE = 0, 1, 2, 3, 4, 5, 6, 7
BUFFER, BUFFER_DESTROY, CREATE_AT, PROFILE = 8, 9, 10, 11


def operation_rows():
    """The Camel names of src/operations.def's rows, in order."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "src", "operations.def")
    with open(path) as f:
        return [line.split("(", 1)[1].split(",", 1)[0] for line in f if line.startswith("PTO_OPERATION(")]


def opcode(camel):
    """The harness's opcode of a row of src/operations.def (after the 12
    calls above), found by its Camel name."""
    return 12 + operation_rows().index(camel)


# One opcode per operation, in the order of src/operations.def.
POW, RSQRT, PRELU, COLDIV, PARTADD = (opcode(c) for c in ("TPow", "TRsqrt", "TPrelu", "TColExpandDiv",
                                                          "TPartAdd"))
EXTRACT, GATHER, SETVAL = opcode("TExtract"), opcode("TGather"), opcode("TSetVal")
TADD, TMOV = opcode("TAdd"), opcode("TMov")
MATMUL, MATMUL_ACC, MATMUL_BIAS = opcode("TMatmul"), opcode("TMatmulAcc"), opcode("TMatmulBias")
GEMV, GEMV_ACC, GEMV_BIAS = opcode("TGemv"), opcode("TGemvAcc"), opcode("TGemvBias")
# After the operations' opcodes: any operation on INT64 / UINT64 tiles.
INSTRUCTION64 = 12 + len(operation_rows())
INT64_ROWS = ("TAdd", "TSub", "TMul", "TDiv", "TMax", "TMin", "TRem", "TMov", "TAddC", "TSubC", "TCvt",
              "TAdds", "TSubs", "TMuls", "TDivs", "TDivsScalarByTile", "TMaxs", "TMins", "TRems",
              "TExpands", "TRowSum", "TRowMax", "TRowMin", "TColSum", "TColMax", "TColMin",
              "TRowExpand", "TColExpand", "TPartAdd", "TCmp", "TCmps", "TSels", "TGather",
              "TScatter", "TShl", "TShr", "TShls", "TShrs")
# After it, the calls outside the table (fuzz_api_outside.c).
BOARD_MODE, CUBE_MODES, TABLES, FIXPIPE, PROGRAM, TSEL = range(INSTRUCTION64 + 1, INSTRUCTION64 + 7)
# tmrgsort's list form, a row whose opcode calls it with its counts (fuzz_mrgsort_lists).
MRGSORT_LISTS = opcode("TMrgSortLists")
LOC_VEC, LOC_MAT, LOC_LEFT, LOC_RIGHT, LOC_ACC, LOC_BIAS, LOC_SCALING = range(7)
ND, NZ, ZN, ZZ, NN = range(5)
BUF_CREATE, BUF_WRAP_ARENA, BUF_WRAP_TILE, BUF_WRAP_NULL = 0, 1, 2, 3
HOST, A2A3, A5 = 0, 1, 2
DTYPES = range(9)
FLOATS = (6, 7, 8)
F32_F16 = (6, 8)
SIZE = {0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 2, 7: 2, 8: 4}
NULL = 8        # a tile-operand byte meaning NULL
HUGE = 0xF0     # first take_dim code of the huge table (UINT32_MAX, ...)
BAD_DTYPE = 0xF0  # first take_dtype code of the out-of-range table

rng = random.Random(20261122)


def dim(n):
    """take_dim code of a small dimension 1..40."""
    assert 1 <= n <= 40
    return n - 1


class Program:
    def __init__(self):
        self.b = bytearray()
        self.shape = {}

    def create(self, slot, dtype, rows, cols):
        self.b += bytes([CREATE, slot, dtype, dim(rows), dim(cols), 1])
        self.shape[slot] = (dtype, rows, cols)
        return self

    def cube(self, slot, dtype, rows, cols, location, layout):
        """A cube tile; rows and cols multiples of 16 up to 64, or 1."""
        def code(n):
            return [1, n // 16 - 1] if n % 16 == 0 else [0, dim(n)]
        self.b += bytes([CREATE_CUBE, slot, dtype, *code(rows), *code(cols), location, layout, 1])
        self.shape[slot] = (dtype, rows, cols)
        return self

    def raw(self, *codes):
        self.b += bytes(codes)
        return self

    def fill(self, slot, specials=False):
        dtype, rows, cols = self.shape[slot]
        n = rows * cols
        if specials and dtype in FLOATS:
            self.b += bytes([WRITE_F32, slot, 0, 1])
            for _ in range(n):
                self.b.append(rng.choice([rng.randrange(0x10), rng.randrange(0x10, 0xF0)]))
        else:
            self.b += bytes([WRITE, slot, 0, 1])
            self.b += bytes(rng.randrange(256) for _ in range(n * SIZE[dtype]))
        return self

    def valid(self, slot, vr, vc):
        self.b += bytes([SET_VALID, slot, vr, vc])
        return self

    def op(self, code, *tiles):
        self.b += bytes([code, *tiles])
        return self

    @staticmethod
    def size_code(n):
        """take_size code of a size 1..limit."""
        assert 1 <= n and (n - 1) >> 8 < 0xF0
        return [(n - 1) >> 8, (n - 1) & 0xFF]

    def buffer(self, slot, kind, size, arg=None):
        """A buffer: created, wrapping the arena at offset arg*61 (arg < 256),
        wrapping tile slot arg's storage, or wrapping NULL."""
        self.b += bytes([BUFFER, slot, kind, 1])
        if kind == BUF_WRAP_ARENA:
            self.b += bytes([arg, 0])
        elif kind == BUF_WRAP_TILE:
            self.b += bytes([arg])
        self.b += bytes(self.size_code(size))
        return self

    def place(self, slot, bslot, dtype, rows, cols, offset):
        """TASSIGN: a tile at byte `offset` (below 0xE000) of buffer slot bslot."""
        assert offset >> 8 < 0xE0
        self.b += bytes([CREATE_AT, slot, bslot, dtype, dim(rows), dim(cols),
                         offset >> 8, offset & 0xFF, 1])
        self.shape[slot] = (dtype, rows, cols)
        return self

    def profile(self, code):
        self.b += bytes([PROFILE, code])
        return self


def write(out, name, program):
    data = program.b if isinstance(program, Program) else bytes(program)
    with open(os.path.join(out, name), "wb") as f:
        f.write(data)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "corpus")
    os.makedirs(out, exist_ok=True)
    for old in os.listdir(out):
        os.remove(os.path.join(out, old))

    # Every operation on every dtype with full and partial regions.
    for d in DTYPES:
        for rows, cols, tag in ((3, 37, "odd"), (1, 1, "one")):
            p = Program().create(0, d, rows, cols).create(1, d, rows, cols).create(2, d, rows, cols)
            p.fill(1).fill(2, specials=True)
            p.op(PRELU, 0, 1, 2, NULL).op(PARTADD, 0, 1, 2).op(COLDIV, 0, 1, 2).op(RSQRT, 0, 1)
            p.create(3, d, rows, cols).op(POW, 0, 1, 2, 3, 0).op(POW, 0, 1, 2, 3, 1)
            p.valid(2, rows - 1, cols // 2).op(PARTADD, 0, 1, 2).op(PARTADD, 0, 2, 1)
            p.raw(READ, 0, 0, 0, 1).raw(READ, 1, 0, 0, 1)
            write(out, f"ops-{d}-{tag}", p)

    # In place: dst is each source in turn, including colexpanddiv on src1.
    for d in (0, 4, 6, 7, 8):
        p = Program().create(0, d, 5, 40).create(1, d, 5, 40).fill(0).fill(1)
        p.op(PRELU, 0, 0, 1, NULL).op(PRELU, 1, 0, 1, NULL).op(PARTADD, 0, 0, 0)
        p.op(COLDIV, 1, 0, 1).op(COLDIV, 0, 0, 0).op(RSQRT, 0, 0)
        p.valid(1, 2, 7).op(PARTADD, 1, 0, 1)
        write(out, f"inplace-{d}", p)

    # Aliasing, mismatched dtypes and shapes, NULL operands.
    p = Program().create(0, 8, 4, 4).create(1, 8, 4, 4).create(2, 6, 4, 4).fill(0)
    p.op(PRELU, 0, 0, 1, 0).op(PRELU, 0, 1, 1, 1).op(POW, 0, 1, 1, 0, 0).op(POW, 0, 1, 1, 1, 1)
    p.op(PRELU, 0, 1, 2, NULL).op(PARTADD, 2, 0, 1).op(COLDIV, 0, 2, 1).op(RSQRT, 2, 0)
    p.op(PRELU, NULL, 0, 1, NULL).op(PARTADD, 0, NULL, 1).op(COLDIV, 0, 1, NULL)
    p.op(RSQRT, NULL, NULL).op(POW, 0, 1, 1, NULL, 0)
    write(out, "aliasing-mismatch", p)

    p = Program().create(0, 4, 6, 6).create(1, 4, 6, 6).create(2, 4, 6, 6)
    p.valid(1, 3, 6).op(PRELU, 0, 1, 2, NULL).valid(0, 3, 6).op(PRELU, 0, 1, 2, NULL)
    p.valid(2, 4, 2).op(PARTADD, 0, 1, 2).valid(2, 2, 2).op(PARTADD, 0, 1, 2)
    p.op(PARTADD, 0, 2, 1).valid(1, 2, 2).op(PARTADD, 0, 1, 2)
    p.valid(0, 0, 0).op(PARTADD, 0, 1, 2).valid(0, 6, 0).op(PRELU, 0, 0, 0, NULL)
    write(out, "regions", p)

    p = Program().create(0, 8, 4, 9).create(1, 8, 4, 9).create(2, 8, 1, 3).fill(1).fill(2)
    p.op(COLDIV, 0, 1, 2).valid(0, 4, 3).valid(1, 4, 3).op(COLDIV, 0, 1, 2)
    p.valid(2, 0, 3).op(COLDIV, 0, 1, 2).valid(0, 0, 0).valid(1, 0, 0).op(COLDIV, 0, 1, 2)
    write(out, "colexpanddiv-regions", p)

    # Region edges: beyond the tile, UINT32_MAX, zero.
    p = Program().create(0, 2, 3, 5)
    p.valid(0, 0xC0, 0).valid(0, 0, 0xC7).valid(0, 0xF1, 0xF1).valid(0, 0xE0, 0xE1)
    p.valid(0, 0xFF, 0xFF).raw(0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF).valid(NULL, 1, 1)
    write(out, "set-valid-edges", p)

    # Creation limits: zero, huge and overflowing dimensions, bad dtypes,
    # a NULL out pointer.
    for d in DTYPES:
        p = Program()
        for rows_code in range(HUGE, HUGE + 15):
            p.raw(CREATE, 0, d, rows_code, rows_code, 1)
            p.raw(CREATE, 1, d, rows_code, dim(2), 1)
            p.raw(CREATE, 2, d, dim(1), rows_code, 1)
        p.raw(CREATE, 0, d, 0xD0, dim(3), 1).raw(CREATE, 0, d, dim(3), 0xD0, 1)
        write(out, f"create-limits-{d}", p)
    p = Program()
    for code in range(BAD_DTYPE, BAD_DTYPE + 16):
        p.raw(CREATE, 0, code, dim(2), dim(2), 1)
    p.raw(CREATE, 0, 8, dim(2), dim(2), 0).raw(CREATE, 1, 8, 0xFF, 0, 0, 0, 0x10, 0xFF, 0, 0, 1, 0, 1)
    write(out, "create-bad-args", p)

    # Byte and element counts: every take_count variant and NULL buffers.
    for d in (1, 3, 6, 7, 8):
        p = Program().create(0, d, 2, 3)
        for variant in range(8):
            p.raw(WRITE, 0, 0xC0 + variant, 1, *range(2 * 3 * SIZE[d]))
            p.raw(WRITE_F32, 0, 0xC0 + variant, 1, *range(6))
            p.raw(READ, 0, 0, 0xC0 + variant, 1).raw(READ, 1, 0, 0xC0 + variant, 1)
        p.raw(WRITE, 0, 0, 0, *range(12)).raw(READ, 0, 0, 0, 0).raw(READ, 1, NULL, 0, 1)
        p.raw(WRITE_F32, NULL, 0, 1)
        write(out, f"counts-{d}", p)

    # Float edges through write_f32: every special, then the arithmetic.
    for d in FLOATS:
        p = Program().create(0, d, 4, 16).create(1, d, 4, 16).create(2, d, 4, 16)
        p.raw(WRITE_F32, 1, 0, 1, *range(16), *range(15, -1, -1), *range(16), *range(16))
        p.raw(WRITE_F32, 2, 0, 1, *([0, 1, 2, 3, 4, 5, 6, 7] * 2), *range(16), *range(16), *range(16))
        p.op(PRELU, 0, 1, 2, NULL).op(PARTADD, 0, 1, 2).op(COLDIV, 0, 1, 2).op(RSQRT, 0, 1)
        p.op(COLDIV, 0, 2, 1).op(RSQRT, 0, 2)
        p.raw(WRITE_F32, 1, 0, 1, *([0xFF, 1, 0, 0, 0] * 64)).op(RSQRT, 0, 1).op(PRELU, 0, 1, 1, NULL)
        write(out, f"float-edges-{d}", p)

    # Pow: every algorithm code, integer HIGH_PRECISION, tmp rules.
    p = Program().create(0, 8, 2, 2).create(1, 8, 2, 2).create(2, 8, 2, 2).create(3, 8, 2, 2)
    for code in list(range(0xF0, 0x100)) + [0, 1]:
        p.op(POW, 0, 1, 2, 3, code)
    p.create(0, 4, 2, 2).create(1, 4, 2, 2).create(2, 4, 2, 2).create(3, 4, 2, 2)
    p.op(POW, 0, 1, 2, 3, 1).op(POW, 0, 1, 2, 3, 0).valid(3, 1, 1).op(POW, 0, 1, 2, 3, 0)
    write(out, "pow-args", p)

    # tsubc, taddsc, tsubsc (Special: dst, three tile bytes, an algorithm
    # byte), tsubrelu and taddrelu (elementwise: dst, src0, src1) on each
    # profile: apart, in place, a narrower source region, a NULL source.
    SUBC, ADDSC, SUBSC = opcode("TSubC"), opcode("TAddSC"), opcode("TSubSC")
    SUBRELU, ADDRELU = opcode("TSubRelu"), opcode("TAddRelu")
    for prof in (HOST, A2A3, A5):
        for d in (1, 2, 4, 6, 8):
            p = Program().profile(prof).create(0, d, 3, 19).create(1, d, 3, 19).create(2, d, 3, 19)
            p.create(3, d, 3, 19).fill(1).fill(2, specials=True).fill(3)
            for code in (SUBC, ADDSC, SUBSC):
                p.op(code, 0, 1, 2, 3, 0).op(code, 1, 1, 2, 3, 0).op(code, 3, 1, 2, 3, 0)
            p.op(SUBRELU, 0, 1, 2).op(ADDRELU, 0, 1, 2).op(ADDRELU, 2, 1, 2)
            p.valid(3, 2, 19).op(SUBC, 0, 1, 2, 3, 0).op(ADDSC, 0, 1, 3, NULL, 0)
            p.op(SUBSC, 0, 1, NULL, 2, 0).op(SUBRELU, 0, 3, 2).op(SUBC, 0, 1, 2, NULL, 0)
            # trowprod, tcolprod (reductions: dst, src, a tmp byte and tile, an order byte)
            ROWPROD, COLPROD = opcode("TRowProd"), opcode("TColProd")
            p.create(0, d, 3, 1).op(ROWPROD, 0, 1, 1, 2, 0).op(ROWPROD, 0, 1, 0, 0)
            p.create(0, d, 1, 19).op(COLPROD, 0, 2, 0, 0).op(COLPROD, 0, 1, 1, 3, 0)
            # tpartmax, tpartmin, tpartmul (Special): src1 a corner of dst's region
            p.create(0, d, 3, 19)
            for camel in ("TPartMax", "TPartMin", "TPartMul"):
                p.op(opcode(camel), 0, 1, 3, NULL, 0).op(opcode(camel), 0, 3, 1, NULL, 0)
            p.raw(READ, 0, 0, 0, 1)
            write(out, f"fused-relu-{prof}-{d}", p)

    # tfusedmuladd, tfusedmuladdrelu, tmuladddst (Special, dst read: dst, two
    # source bytes, a tmp and an algorithm byte) and ttri (dst only; the
    # diagonal is src1's element (0, 0)) on each profile: apart, each source
    # dst itself, both, a source one element into dst's bytes, a narrower
    # source region, a NULL source; ttri over every dtype.
    MULADDS = [opcode(c) for c in ("TFusedMulAdd", "TFusedMulAddRelu", "TMulAddDst")]
    TRI = opcode("TTri")
    for prof in (HOST, A2A3, A5):
        for d in (6, 8, 4):
            e = SIZE[d]
            p = Program().profile(prof).buffer(0, BUF_CREATE, 4096)
            p.place(0, 0, d, 3, 21, 0x100).place(1, 0, d, 3, 21, 0x400).place(2, 0, d, 3, 21, 0x800)
            p.fill(0, specials=True).fill(1, specials=True).fill(2)
            for code in MULADDS:
                p.op(code, 0, 1, 2, NULL, 0).op(code, 0, 0, 2, NULL, 0).op(code, 0, 1, 0, NULL, 0)
                p.op(code, 0, 0, 0, NULL, 0).op(code, 0, NULL, 2, NULL, 0)
            p.place(3, 0, d, 3, 21, 0x100 + e)  # one element into dst: overlaps
            for code in MULADDS:
                p.op(code, 0, 3, 2, NULL, 0).op(code, 0, 1, 3, NULL, 0)
            p.valid(2, 2, 21)
            for code in MULADDS:
                p.op(code, 0, 1, 2, NULL, 0)
            p.raw(READ, 0, 0, 0, 1)
            write(out, f"muladd-{prof}-{d}", p)
        p = Program().profile(prof)
        for d in DTYPES:
            p.create(0, d, 5, 19).create(1, 4, 1, 1).fill(1)
            p.op(TRI, 0, NULL, 1, NULL, 0).valid(0, 3, 7).op(TRI, 0, NULL, 1, NULL, 0)
            p.raw(READ, 0, 0, 0, 1)
        write(out, f"ttri-{prof}", p)

    # taddreluconv, tsubreluconv (Special: dst, src0, src1), tadddeqrelu (its
    # tmp the fourth tile) and tfillpad_inplace, tfillpad_expand (dst, src)
    # on each profile: each (src, dst) pair, a pair that is none, a narrower
    # source region, a NULL tmp; the fills into a larger dst and onto src.
    RELUCONVS = [opcode(c) for c in ("TAddReluConv", "TSubReluConv")]
    DEQ, INPLACE, EXPAND = opcode("TAddDeqRelu"), opcode("TFillPadInplace"), opcode("TFillPadExpand")
    for prof in (HOST, A2A3, A5):
        p = Program().profile(prof)
        for src, dst in ((8, 6), (6, 0), (2, 0)):
            p.create(0, dst, 3, 19).create(1, src, 3, 19).create(2, src, 3, 19)
            p.fill(1, specials=True).fill(2, specials=True)
            for code in RELUCONVS:
                p.op(code, 0, 1, 2, NULL, 0).op(code, 1, 1, 2, NULL, 0).op(code, 0, 1, 0, NULL, 0)
            p.valid(2, 2, 19)
            for code in RELUCONVS:
                p.op(code, 0, 1, 2, NULL, 0)
            p.raw(READ, 0, 0, 0, 1)
        p.create(0, 6, 3, 19).create(1, 4, 3, 19).create(2, 4, 3, 19).create(3, 4, 3, 19)
        p.fill(1).fill(2)
        p.op(DEQ, 0, 1, 2, 3, 0).op(DEQ, 0, 1, 2, NULL, 0).op(DEQ, 0, 1, 2, 1, 0)
        p.valid(3, 3, 18).op(DEQ, 0, 1, 2, 3, 0).raw(READ, 0, 0, 0, 1)
        p.create(0, 8, 5, 24).create(1, 8, 3, 19).fill(1).valid(1, 2, 7)
        p.op(EXPAND, 0, 1, NULL, NULL, 0).op(EXPAND, 1, 0, NULL, NULL, 0)
        p.op(INPLACE, 0, 1, NULL, NULL, 0).op(INPLACE, 1, 1, NULL, NULL, 0).raw(READ, 0, 0, 0, 1)
        write(out, f"fused-conv-{prof}", p)

    # Queries with arbitrary values.
    q = bytearray()
    for s, d in ((0, 0), (8, 8), (9, 9), (0xFFFFFFFF, 0xFFFFFFFF), (0x80000000, 0x7FFFFFFF)):
        q += bytes([QUERIES]) + struct.pack("<II", s, d)
    write(out, "queries", q + bytes([DESTROY, 4, DESTROY, 0]))

    # Placed tiles at unaligned offsets of one buffer under each profile:
    # every operation apart, then in place by identical placement, then with
    # partial overlaps (refused) and tmp over a source (legal in HOST and A5).
    for prof in (HOST, A2A3, A5):
        for d in (8, 6, 4, 1):
            e = SIZE[d]
            p = Program().profile(prof).buffer(0, BUF_CREATE, 8192)
            p.place(0, 0, d, 3, 37, 0x100 + e).place(1, 0, d, 3, 37, 0x800 + 3 * e)
            p.place(2, 0, d, 3, 37, 0x1000 + 5 * e).place(3, 0, d, 40, 2, 0x1800 + 7 * e)
            p.fill(1).fill(2, specials=True)
            p.op(PRELU, 0, 1, 2, 3).op(PRELU, 0, 1, 2, NULL).op(PARTADD, 0, 1, 2)
            p.op(COLDIV, 0, 1, 2).op(RSQRT, 0, 1)
            p.place(3, 0, d, 3, 37, 0x100 + e)  # exactly on dst
            p.op(PRELU, 0, 3, 2, NULL).op(PARTADD, 0, 2, 3).op(COLDIV, 0, 1, 3).op(RSQRT, 0, 3)
            p.op(POW, 0, 3, 2, 1, 0).op(POW, 0, 1, 2, 3, 1)
            p.place(3, 0, d, 3, 37, 0x100 + 2 * e)  # one element off: overlaps
            p.op(PRELU, 0, 3, 2, NULL).op(PARTADD, 0, 1, 3).op(RSQRT, 0, 3).op(PRELU, 0, 1, 2, 3)
            p.place(3, 0, d, 3, 37, 0x800 + 3 * e)  # tmp exactly over src0
            p.op(POW, 0, 1, 2, 3, 0).op(PRELU, 0, 1, 2, 3)
            p.place(3, 0, d, 6, 3, 0x100 + e).valid(3, 6, 3).valid(0, 3, 2)  # interleaved rows
            p.op(RSQRT, 0, 3).op(PARTADD, 0, 1, 3)
            write(out, f"placed-{prof}-{d}", p)

    # Every dtype under A2A3 (refusals naming the profile) and A5.
    for prof in (A2A3, A5):
        p = Program().profile(prof).buffer(1, BUF_CREATE, 4096)
        for d in DTYPES:
            p.place(0, 1, d, 2, 9, 0).place(1, 1, d, 2, 9, 512).place(2, 1, d, 2, 9, 1024)
            p.place(3, 1, d, 12, 2, 2048).fill(1).fill(2)
            p.op(PARTADD, 0, 1, 2).op(POW, 0, 1, 2, 3, 0).op(POW, 0, 1, 2, 3, 1)
            p.op(PRELU, 0, 1, 2, 3).op(PRELU, 0, 1, 2, NULL).op(PRELU, 0, 0, 2, 3)
            p.op(PRELU, 0, 1, 1, 3).valid(3, 9, 2).op(PRELU, 0, 1, 2, 3)
        write(out, f"profile-dtypes-{prof}", p)

    # Buffers over the arena at odd bytes and over another tile's storage;
    # placement arguments at their limits; lifetime in several orders.
    p = Program().buffer(0, BUF_WRAP_ARENA, 3000, 1).buffer(1, BUF_WRAP_ARENA, 200, 255)
    for d in DTYPES:
        for off in (0, 1, 2, 3, 4, 2999, 3000):
            p.raw(CREATE_AT, 0, 0, d, dim(1), dim(1), off >> 8, off & 0xFF, 1)
    for code in range(0xE0, 0x100):
        p.raw(CREATE_AT, 1, 1, 8, dim(2), dim(2), code, 1)
    p.raw(CREATE_AT, 1, 2, 8, dim(2), dim(2), 0, 0, 1).raw(CREATE_AT, 1, 0, 8, dim(2), dim(2), 0, 0, 0)
    p.raw(CREATE_AT, 1, 0, 0xF0, dim(2), dim(2), 0, 0, 1).raw(CREATE_AT, 1, 0, 8, 0xF0, 0xF0, 0, 0, 1)
    p.buffer(0, BUF_WRAP_NULL, 10).raw(BUFFER, 0, BUF_CREATE, 0).raw(BUFFER, 0, BUF_CREATE, 1, 0xF1)
    p.raw(BUFFER, 0, BUF_CREATE, 1, 0xF2).raw(BUFFER, 0, BUF_WRAP_ARENA, 1, 3, 0, 0xF0)
    write(out, "placement-args", p)

    p = Program().create(0, 8, 8, 8).fill(0).buffer(1, BUF_WRAP_TILE, 256, 0)
    p.place(1, 1, 8, 8, 8, 0).place(2, 1, 8, 4, 8, 64).place(3, 1, 8, 2, 8, 4)
    p.op(RSQRT, 0, 1).op(RSQRT, 0, 2).op(RSQRT, 2, 0).op(PARTADD, 0, 1, 3).op(PRELU, 1, 0, 3, 2)
    p.valid(0, 2, 8).op(RSQRT, 0, 2).op(PARTADD, 2, 3, 3)
    p.raw(BUFFER_DESTROY, 1).raw(DESTROY, 0).op(RSQRT, 1, 3).create(0, 8, 8, 8)
    p.raw(BUFFER_DESTROY, 2).raw(DESTROY, 1).op(RSQRT, 2, 3).raw(DESTROY, 2).raw(DESTROY, 3)
    write(out, "wrap-tile-data", p)

    p = Program().buffer(0, BUF_CREATE, 1024).place(0, 0, 8, 4, 4, 0).place(1, 0, 8, 4, 4, 64)
    p.raw(BUFFER_DESTROY, 0).fill(0).op(RSQRT, 1, 0).raw(DESTROY, 0).op(RSQRT, 1, 1)
    p.buffer(0, BUF_CREATE, 512).place(2, 0, 6, 2, 2, 2).buffer(0, BUF_CREATE, 64)
    p.raw(DESTROY, 1).op(RSQRT, 2, 2).raw(DESTROY, 2)
    for code in [0, 1, 2] + list(range(0xF0, 0x100)) + [1, 0]:
        p.profile(code)
    write(out, "lifetime-profiles", p)

    # Random programs over small tiles.
    for i in range(8):
        write(out, f"random-{i}", bytes(rng.randrange(256) for _ in range(rng.randrange(16, 400))))

    # textract, tgather, tsetval/tgetval on each profile: windows inside and
    # beyond the source (a huge offset), gathers with valid and raw indices
    # (the byte after the operands: 1 writes valid ones), one element set at
    # an index inside and outside the valid region.
    for prof in (HOST, A2A3, A5):
        for d in (0, 4, 8):
            p = Program().profile(prof).create(0, d, 8, 32).create(1, d, 4, 32)
            p.create(2, 4, 4, 32).create(3, 4, 4, 32).fill(0)
            p.op(EXTRACT, 1, 0).raw(2, 0).op(EXTRACT, 1, 0).raw(0, 8).op(EXTRACT, 1, 0).raw(4, 0)
            p.op(EXTRACT, 1, 0).raw(0xFF, 0, 0).op(EXTRACT, 1, 1).raw(0, 0)
            p.op(GATHER, 1, 0, 2, 3).raw(1, *range(128)).op(GATHER, 1, 0, 2, NULL).raw(0)
            p.fill(2).op(GATHER, 1, 0, 2, 3).raw(0).op(GATHER, 1, 0, 1, 3).raw(0)
            p.op(SETVAL, 1).raw(5, 3, 1).op(SETVAL, 1).raw(40, 0, 1).op(SETVAL, 1).raw(0xFF, 9, 1, 1)
            p.op(SETVAL, 1).raw(1, 15, 0).valid(1, 2, 3).op(SETVAL, 1).raw(33, 1, 1)
            write(out, f"datamove-{prof}-{d}", p)

    # The bitwise operations, shifts and fmod on each profile: apart, in
    # place (refused by TXOR under A2A3, TANDS and TORS under A2A3 and A5),
    # scalar counts of 0, 3, the width and -3 (refused under A2A3 and A5).
    BINARY_BITS = [opcode(c) for c in ("TAnd", "TOr", "TXor", "TShl", "TShr", "TFmod")]
    SCALAR_BITS = [opcode(c) for c in ("TAnds", "TOrs", "TXors", "TShls", "TShrs", "TFmods")]
    for prof in (HOST, A2A3, A5):
        for d in (0, 3, 4, 8):
            p = Program().create(0, d, 3, 37).create(1, d, 3, 37).create(2, d, 3, 37)
            p.fill(0).fill(1).fill(2).profile(prof)
            for code in BINARY_BITS:
                p.op(code, 0, 1, 2).op(code, 0, 0, 1).op(code, 1, 2, 1)
            p.op(opcode("TNot"), 0, 1).op(opcode("TNot"), 1, 1)
            for code in SCALAR_BITS:
                for count in (0, 3, SIZE[d] * 8, 0xFD):
                    p.op(code, 0, 1, 0, count).op(code, 2, 2, 0, count)
            p.raw(READ, 0, 0, 0, 1)
            write(out, f"bitwise-{prof}-{d}", p)

    # Cube tiles on each profile and dtype triple: the NPU's locations and
    # layouts (a left ZZ on A2A3, NZ on A5), their values written row-major,
    # the three matrix multiplies, a wrong layout, a vector operation on a
    # cube tile (refused), a read of the result.
    for prof in (HOST, A2A3, A5):
        for src, dst in ((7, 8), (6, 8), (8, 8), (0, 4)):
            left = NZ if prof == A5 else ZZ
            p = Program().cube(0, src, 16, 32, LOC_LEFT, left).cube(1, src, 32, 16, LOC_RIGHT, ZN)
            p.cube(2, dst, 16, 16, LOC_ACC, NZ).cube(3, dst, 1, 16, LOC_BIAS, ND)
            p.fill(0).fill(1).fill(3).profile(prof)
            p.op(MATMUL, 2, 0, 1, NULL, 0).op(MATMUL_ACC, 2, 0, 1, NULL, 0).op(MATMUL_BIAS, 2, 0, 1, 3, 0)
            p.cube(3, src, 16, 32, LOC_LEFT, NZ if left == ZZ else ZZ).fill(3)
            p.op(MATMUL, 2, 3, 1, NULL, 0).op(MATMUL, 2, 0, 0, NULL, 0).op(TADD, 2, 2, 2)
            p.valid(2, 5, 7).op(MATMUL_ACC, 2, 0, 1, NULL, 0).raw(READ, 0, 2, 0, 1)
            # pto_tmov: mat to left (the profile's layout, then the other),
            # acc to vec, left to mat (no such move).
            p.cube(1, src, 16, 32, LOC_MAT, NZ).fill(1).op(TMOV, 0, 1).op(TMOV, 3, 1)
            p.create(1, dst, 16, 16).op(TMOV, 1, 2).op(TMOV, 3, 0)
            write(out, f"cube-{prof}-{src}", p)

    # GEMV on each profile and dtype triple, on pto-isa's ST tiles: a one-row
    # left tile, a right ZN tile, a 16-row acc tile with one valid row, a bias
    # row; the three calls, then dst's second valid row, a K that is not b's,
    # bias as dst (each refused), a wrong layout, a read of the result.
    for prof in (HOST, A2A3, A5):
        for src, dst in ((7, 8), (6, 8), (8, 8), (0, 4)):
            left = NZ if prof == A5 else ZZ
            p = Program().cube(0, src, 1, 32, LOC_LEFT, left).cube(1, src, 32, 16, LOC_RIGHT, ZN)
            p.cube(2, dst, 16, 16, LOC_ACC, NZ).cube(3, dst, 1, 16, LOC_BIAS, ND)
            p.fill(0).fill(1).fill(2).fill(3).profile(prof).valid(2, 1, 16)
            p.op(GEMV, 2, 0, 1, NULL, 0).op(GEMV_ACC, 2, 0, 1, NULL, 0).op(GEMV_BIAS, 2, 0, 1, 3, 0)
            p.valid(2, 2, 16).op(GEMV, 2, 0, 1, NULL, 0).valid(2, 1, 16)
            p.valid(0, 1, 16).op(GEMV_ACC, 2, 0, 1, NULL, 0).valid(0, 1, 32)
            p.op(GEMV_BIAS, 2, 0, 1, 2, 0)
            p.cube(3, src, 16, 32, LOC_LEFT, NZ if left == ZZ else ZZ).fill(3).valid(3, 1, 32)
            p.op(GEMV, 2, 3, 1, NULL, 0).raw(READ, 0, 2, 0, 1)
            write(out, f"gemv-{prof}-{src}", p)

    # The rows that take INT64 and UINT64, each on 8-byte tiles of its own
    # (kInstruction64: op, dtype bit, rows, cols, valid rows, valid cols, the
    # four operands' elements, the pow algorithm), on each profile, a full
    # and a partial valid region.
    for prof in (HOST, A2A3, A5):
        for d64 in (0, 1):
            for k, (rows, cols, vr, vc) in enumerate(((3, 13, 3, 13), (4, 9, 2, 5))):
                p = Program().profile(prof)
                for camel in INT64_ROWS:
                    p.raw(INSTRUCTION64, opcode(camel) - 12, d64, rows - 1, cols - 1, vr - 1, vc - 1)
                    # a compare's dst is its mask: a byte per 8 columns
                    dst = rows * ((cols + 7) // 8) if camel in ("TCmp", "TCmps") else rows * cols
                    p.raw(*(rng.randrange(256) for _ in range(dst + 3 * rows * cols)), 0)
                write(out, f"int64-{prof}-{d64}-{k}", p)

    # tgatherb on each profile: offsets inside src (INT32, whole blocks),
    # raw ones (UINT32, mostly past src: refused), offsets on dst (refused),
    # a valid width that cuts a row's last block (A5 only), and INT64 data.
    GATHERB = opcode("TGatherB")
    for prof in (HOST, A2A3, A5):
        for d in (0, 3, 4, 8):
            src_bytes = 4 * 32 * SIZE[d]
            p = Program().profile(prof).create(0, d, 4, 32).create(1, d, 2, 32)
            p.create(2, 4, 2, 8).create(3, 5, 2, 8).fill(0).fill(3)
            offsets = [(k * 44) % (src_bytes - 31) for k in range(16)]
            p.raw(WRITE, 2, 0, 1).raw(*b"".join(struct.pack("<i", o) for o in offsets))
            p.op(GATHERB, 1, 0, 2, NULL, 0).op(GATHERB, 1, 0, 3, NULL, 0).op(GATHERB, 2, 0, 2, NULL, 0)
            p.op(GATHERB, 1, 1, 2, NULL, 0).valid(1, 2, 31).op(GATHERB, 1, 0, 2, NULL, 0)
            p.raw(READ, 0, 1, 0, 1)
            p.raw(INSTRUCTION64, GATHERB - 12, 0, 3, 12, 3, 12)
            p.raw(*(((k * 7) % 64) for k in range(4 * 52)), 0)
            write(out, f"gatherb-{prof}-{d}", p)

    # tpartargmax, tpartargmin on each profile (the harness passes its tmp as
    # the three index tiles): FLOAT32 by UINT32 and FLOAT16 by INT16 indices,
    # full regions (accepted), the index tile on a value tile (refused), a
    # partial src1 whose index tile differs (refused), a wrong index dtype.
    ARGMAX, ARGMIN = opcode("TPartArgMax"), opcode("TPartArgMin")
    for prof in (HOST, A2A3, A5):
        for value, index in ((8, 5), (6, 2)):
            p = Program().profile(prof).create(0, value, 3, 19).create(1, value, 3, 19)
            p.create(2, value, 3, 19).create(3, index, 3, 19).fill(1, specials=True).fill(2).fill(3)
            p.op(ARGMAX, 0, 1, 2, 3, 0).op(ARGMIN, 0, 1, 2, 3, 0).op(ARGMAX, 1, 1, 2, 3, 0)
            p.op(ARGMAX, 0, 1, 2, 1, 0).op(ARGMIN, 0, 1, 2, 0, 0).op(ARGMAX, 0, 1, 2, NULL, 0)
            p.valid(2, 2, 10).op(ARGMAX, 0, 1, 2, 3, 0).valid(2, 3, 19)
            p.create(3, 0 if value == 6 else 2, 3, 19).fill(3).op(ARGMIN, 0, 1, 2, 3, 0)
            p.raw(READ, 0, 0, 0, 1)
            write(out, f"partarg-{prof}-{value}", p)

    # tinterleave, tdeinterleave on each profile (A2A3 refuses them): four
    # tiles apart (accepted), a source on a destination and dst1 on dst
    # (refused), odd valid cols (refused), a partial common region.
    INTERLEAVE, DEINTERLEAVE = opcode("TInterleave"), opcode("TDeInterleave")
    for prof in (HOST, A2A3, A5):
        for d in (0, 3, 8):
            p = Program().profile(prof).create(0, d, 3, 20).create(1, d, 3, 20).create(2, d, 3, 20)
            p.create(3, d, 3, 20).fill(1).fill(2)
            for code in (INTERLEAVE, DEINTERLEAVE):
                p.op(code, 0, 1, 2, 3, 0).op(code, 0, 0, 2, 3, 0).op(code, 0, 1, 2, 0, 0)
                p.op(code, 0, 1, 2, NULL, 0)
            for slot in range(4):
                p.valid(slot, 2, 19)
            p.op(INTERLEAVE, 0, 1, 2, 3, 0)
            for slot in range(4):
                p.valid(slot, 2, 12)
            p.op(DEINTERLEAVE, 0, 1, 2, 3, 0).raw(READ, 0, 3, 0, 1)
            # the single-source form: src twice dst's valid cols, then not
            SINGLE = opcode("TDeInterleaveSingle")
            p.create(1, d, 3, 24).fill(1).valid(0, 3, 12).valid(3, 3, 12)
            p.op(SINGLE, 0, 1, NULL, 3, 0).op(SINGLE, 0, 0, NULL, 3, 0).valid(3, 3, 11)
            p.op(SINGLE, 0, 1, NULL, 3, 0)
            write(out, f"interleave-{prof}-{d}", p)

    # tinsert on each profile (the harness's offsets are the attribute's
    # test values): src inside dst's valid region, src on dst (refused), src
    # larger than dst (refused), 1-byte odd columns.
    INSERT = opcode("TInsert")
    for prof in (HOST, A2A3, A5):
        for d in (0, 4, 8):
            p = Program().profile(prof).create(0, d, 8, 32).create(1, d, 4, 32).fill(0).fill(1)
            p.op(INSERT, 0, 1, NULL, NULL, 0).op(INSERT, 0, 0, NULL, NULL, 0).op(INSERT, 1, 0, NULL, NULL, 0)
            p.valid(1, 3, 7).op(INSERT, 0, 1, NULL, NULL, 0).raw(READ, 0, 0, 0, 1)
            write(out, f"insert-{prof}-{d}", p)

    # tpairreducesum on each profile (FLOAT32, FLOAT16; INT32 refused): a
    # copy, in place, valid regions that differ (refused). thistogram (the
    # attribute's test value, byte 1): UINT16 and UINT32 src into a 256-column
    # UINT32 dst with a UINT8 idx, idx on dst and src on dst (refused), dst's
    # rows not src's (refused); A2A3 refuses every call.
    PAIRSUM, HISTOGRAM = opcode("TPairReduceSum"), opcode("THistogram")
    for prof in (HOST, A2A3, A5):
        for d in (8, 6, 4):
            p = Program().profile(prof).create(0, d, 4, 17).create(1, d, 4, 17).fill(1, specials=True)
            p.op(PAIRSUM, 0, 1, NULL, NULL, 0).op(PAIRSUM, 1, 1, NULL, NULL, 0).valid(1, 3, 17)
            p.op(PAIRSUM, 0, 1, NULL, NULL, 0).raw(READ, 0, 0, 0, 1)
            write(out, f"pairsum-{prof}-{d}", p)
        for d in (3, 5):
            p = Program().profile(prof).raw(CREATE, 0, 5, dim(4), 0xD8, 1)
            p.shape[0] = (5, 4, 256)
            p.create(1, d, 4, 20).create(2, 1, 4, 20).fill(1).fill(2)
            p.op(HISTOGRAM, 0, 1, 2, NULL, 0).op(HISTOGRAM, 0, 1, 0, NULL, 0).op(HISTOGRAM, 0, 0, 2, NULL, 0)
            p.valid(1, 3, 20).op(HISTOGRAM, 0, 1, 2, NULL, 0).raw(READ, 0, 0, 0, 1)
            write(out, f"histogram-{prof}-{d}", p)


    # tquant's INT8 forms and tdequant on each profile: per-row parameter
    # tiles of one valid column, INT8_SYM without an offset (A2A3 refuses
    # it without tmp), an offset with an INT8 dst (refused), a UINT8 dst
    # whose offset is also its tmp (refused: they share storage), tdequant
    # from INT8 and INT16, then a src region that differs from dst's.
    TQUANT, TDEQUANT = opcode("TQuant"), opcode("TDequant")
    for prof in (HOST, A2A3, A5):
        p = Program().profile(prof)
        p.create(0, 0, 8, 32).create(1, 8, 8, 32).create(2, 8, 8, 8).create(3, 8, 8, 8)
        p.create(4, 1, 8, 32).create(5, 0, 8, 32).create(6, 8, 8, 32).create(7, 2, 8, 32)
        p.fill(1, specials=True).fill(2, specials=True).fill(3).fill(5).fill(7)
        p.valid(2, 8, 1).valid(3, 8, 1)
        p.op(TQUANT, 0, 1, 2, NULL, 0).op(TQUANT, 0, 1, 2, 3, 0).op(TQUANT, 4, 1, 2, 3, 0)
        p.op(TDEQUANT, 6, 5, 2, 3, 0).op(TDEQUANT, 6, 7, 2, 3, 0).op(TDEQUANT, 6, 1, 2, 3, 0)
        p.valid(1, 5, 7).op(TQUANT, 0, 1, 2, NULL, 0).valid(5, 3, 32).op(TDEQUANT, 6, 5, 2, 3, 0)
        p.raw(READ, 0, 0, 0, 1).raw(READ, 0, 6, 0, 1)
        write(out, f"quant-{prof}", p)

    # tpack on each profile (A2A3 refuses every call): INT32 -> INT16, INT32
    # and INT16 -> UINT8, widening INT16 -> INT32 (HOST only), a float on
    # either side (refused), the same tile, a NULL dst, valid regions that
    # differ; placed at one address: narrowing in place, widening in place
    # and another start (refused). talias: the same tile, another dtype and
    # shape of the same size, another size (refused), at the alias's address.
    PACK, ALIAS = opcode("TPack"), opcode("TAlias")
    for prof in (HOST, A2A3, A5):
        p = Program().profile(prof).create(0, 4, 5, 40).create(1, 2, 5, 40).create(2, 1, 5, 40)
        p.create(3, 8, 5, 40).fill(0).fill(1).fill(2).fill(3, specials=True)
        p.op(PACK, 1, 0).op(PACK, 2, 0).op(PACK, 2, 1).op(PACK, 0, 1).op(PACK, 3, 0).op(PACK, 1, 3)
        p.op(PACK, 0, 0).op(PACK, NULL, 0).valid(0, 4, 33).op(PACK, 1, 0).raw(READ, 1, 0, 0, 1)
        p.op(ALIAS, 0, 0).op(ALIAS, 1, 2).create(3, 1, 10, 40).fill(3).op(ALIAS, 1, 3).op(ALIAS, 3, NULL)
        p.raw(READ, 1, 0, 0, 1)
        write(out, f"pack-{prof}", p)
        p = Program().profile(prof).buffer(0, BUF_CREATE, 1024)
        p.place(0, 0, 4, 4, 32, 0).place(1, 0, 2, 4, 32, 0).place(2, 0, 2, 4, 32, 64).fill(0)
        p.op(PACK, 1, 0).op(PACK, 0, 1).op(PACK, 2, 0).place(3, 0, 1, 16, 32, 0)
        p.op(ALIAS, 0, 3).op(ALIAS, 3, 2).op(ALIAS, 1, 2).raw(READ, 1, 0, 0, 1)
        write(out, f"pack-placed-{prof}", p)

    # The overflow rule's edge values. tinsert_fp with index_row SIZE_MAX - 1
    # (fuzz_special draws its Index arguments: 0xFF then take_index's 0xFF,
    # 1) into a HIFLOAT8 vec tile, textract_fp with index_row SIZE_MAX under
    # a scalar configuration, then in range; tmov_fp_ex with and without
    # flags it does not know.
    TINSERT_FP, TEXTRACT_FP = opcode("TInsertFp"), opcode("TExtractFp")
    for prof in (HOST, A5):
        p = Program().profile(prof).cube(0, 8, 16, 32, LOC_ACC, NZ).valid(0, 16, 29)
        p.raw(CREATE, 1, 0xF1, dim(32), 0xE7, 1).valid(1, 3, 33)
        p.cube(2, 6, 1, 32, LOC_SCALING, ND).valid(2, 1, 29).cube(3, 7, 16, 16, LOC_MAT, NZ)
        p.op(TINSERT_FP, 1, 0, 2, NULL, 0, 0xFF, 0xFF, 1, 0x0D)
        p.op(TINSERT_FP, 1, 0, 2, NULL, 0, 0x0D, 0xF4, 0x03)
        p.raw(FIXPIPE, 0, 0, 7).op(TEXTRACT_FP, 3, 0, NULL, NULL, 0, 0xFF, 0xFF, 0, 0x0D)
        p.op(TEXTRACT_FP, 3, 0, NULL, NULL, 0, 0, 0xC0, 0xF7, 0x02).op(TEXTRACT_FP, 3, 0, NULL, NULL, 0, 0, 0x90)
        p.raw(FIXPIPE, 2, 1, 0, 1, 2, 1).raw(FIXPIPE, 2, 1, 0, 0, 0xF3).raw(FIXPIPE, 1, 2)
        write(out, f"edge-fixpipe-{prof}", p)

    # mgather and mscatter in every form on a table in the arena: honest
    # element counts, and counts whose bytes no memory holds (0xE0..0xE7).
    p = Program().create(0, 8, 4, 8).fill(0).create(1, 4, 4, 8)
    p.raw(WRITE, 1, 0, 1, *b"".join(struct.pack("<i", k % 32) for k in range(32)))
    for form in range(4):
        for elements in (0x40, 0x20, 0x10, 0xE0, 0xE3, 0xE7):
            for coalesce in (0, 1):
                p.raw(TABLES, 0, 1, form, 1, 0x10, elements, coalesce, form % 4, form % 3, 1)
    write(out, "edge-tables", p)

    # The program functions: queries and bindings at edge indices, nbytes
    # at edge values, a store at element indices inside and past the memory.
    p = Program()
    for q, bi, edge, elements, element, blocks in ((0, 0, 0, 15, 3, 0), (3, 3, 1, 64, 0xE2, 0),
                                                   (4, 0xF2, 6, 200, 0xE4, 0xF0), (0xFF, 1, 10, 4, 5, 0xF1),
                                                   (2, 0xF0, 9, 255, 0xE0, 0xF2), (1, 2, 3, 8, 0xEC, 1)):
        p.raw(PROGRAM, q, bi, edge, elements, element, blocks)
    write(out, "edge-program", p)

    # Board mode per call: an A5 tand whose src0 region differs from dst's,
    # then off; a value that is not 0 or 1; the cube modes.
    TAND = opcode("TAnd")
    for prof in (A2A3, A5):
        p = Program().profile(prof).create(0, 4, 4, 8).create(1, 4, 4, 8).create(2, 4, 4, 8).fill(1).fill(2)
        p.valid(1, 2, 8).raw(BOARD_MODE, 1).op(TAND, 0, 1, 2).raw(BOARD_MODE, 0).op(TAND, 0, 1, 2)
        p.raw(BOARD_MODE, 0xF7).raw(BOARD_MODE, 1).op(SETVAL, 0, 40, 0, 0).raw(BOARD_MODE, 0)
        p.raw(CUBE_MODES, 1, 2, 0).raw(CUBE_MODES, 1, 1, 1).raw(CUBE_MODES, 0xF5, 2, 0).raw(CUBE_MODES, 1, 7, 1)
        write(out, f"board-mode-{prof}", p)

    # tmrgsort's list form: FLOAT32 lists of 64 pairs, two to four of them.
    p = Program()
    for slot in range(5):
        p.create(slot, 8, 1, 32 if slot else 32).fill(slot)
    p.raw(MRGSORT_LISTS, 0, 1, 2, 0, 0, 3, 0, 0).raw(MRGSORT_LISTS, 0, 1, 2, 1, 3, 1, 4, 3, 1)
    p.raw(MRGSORT_LISTS, 0, 0, 2, 0, 0, 3, 0xF3)
    write(out, "mrgsort-lists", p)

    # tsel: a UINT8 mask of ceil(cols / 8) bytes a row, two FLOAT32 sources.
    p = Program().create(0, 8, 4, 16).create(1, 1, 4, 2).create(2, 8, 4, 16).create(3, 8, 4, 16)
    p.fill(1).fill(2).fill(3).raw(TSEL, 0, 1, 2, 3, 0).raw(TSEL, 0, 1, 0, 3, 1, 2).raw(TSEL, 2, 2, 2, 3, 0)
    write(out, "tsel", p)


if __name__ == "__main__":
    main()
