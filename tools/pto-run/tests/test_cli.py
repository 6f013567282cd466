"""pto-run from the command line: usage errors (exit 2), verifier and run-time
errors (exit 1, "FILE:LINE:COL: error:"), --help, --version, --check, and
end-to-end runs of snippets and kernels checked against numpy.

Usage: python3 test_cli.py PATH/TO/pto-run   (standard library and numpy only)
"""
import os
import re
import subprocess
import sys
import tempfile
import unittest

import numpy as np

PTO_RUN = None

TILE = "!pto.tile_buf<vec, 16x16xf32>"
PRELU = (f"pto.tprelu ins(%src0, %src1 : {TILE}, {TILE})\n"
         f"           outs(%dst : {TILE})\n")
# A 16x64 reciprocal square root over global memory (the PTOAS smoke test's shape).
RSQRT_KERNEL = """module {
  func.func @rsqrt(%a_ptr: !pto.ptr<f32>, %b_ptr: !pto.ptr<f32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %c64 = arith.constant 64 : index
    %a_view = pto.make_tensor_view %a_ptr, shape = [%c16, %c64], strides = [%c64, %c1] : !pto.tensor_view<16x64xf32>
    %b_view = pto.make_tensor_view %b_ptr, shape = [%c16, %c64], strides = [%c64, %c1] : !pto.tensor_view<16x64xf32>
    %a_part = pto.partition_view %a_view, offsets = [%c0, %c0], sizes = [%c16, %c64] : !pto.tensor_view<16x64xf32> -> !pto.partition_tensor_view<16x64xf32>
    %b_part = pto.partition_view %b_view, offsets = [%c0, %c0], sizes = [%c16, %c64] : !pto.tensor_view<16x64xf32> -> !pto.partition_tensor_view<16x64xf32>
    %a = pto.alloc_tile : !pto.tile_buf<vec, 16x64xf32>
    %b = pto.alloc_tile : !pto.tile_buf<vec, 16x64xf32>
    pto.tload ins(%a_part : !pto.partition_tensor_view<16x64xf32>) outs(%a : !pto.tile_buf<vec, 16x64xf32>)
    pto.trsqrt ins(%a : !pto.tile_buf<vec, 16x64xf32>) outs(%b : !pto.tile_buf<vec, 16x64xf32>)
    pto.tstore ins(%b : !pto.tile_buf<vec, 16x64xf32>) outs(%b_part : !pto.partition_tensor_view<16x64xf32>)
    return
  }
}
"""
# 8-byte integers through a tile and one element through scalar registers.
FP8_KERNEL = """module {
  func.func @k(%src: !pto.ptr<f8E4M3FN>, %dst: !pto.ptr<f32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c8 = arith.constant 8 : index
    %sv = pto.make_tensor_view %src, shape = [%c2, %c8], strides = [%c8, %c1] : !pto.tensor_view<2x8xf8E4M3FN>
    %dv = pto.make_tensor_view %dst, shape = [%c2, %c8], strides = [%c8, %c1] : !pto.tensor_view<2x8xf32>
    %sp = pto.partition_view %sv, offsets = [%c0, %c0], sizes = [%c2, %c8] : !pto.tensor_view<2x8xf8E4M3FN> -> !pto.partition_tensor_view<2x8xf8E4M3FN>
    %dp = pto.partition_view %dv, offsets = [%c0, %c0], sizes = [%c2, %c8] : !pto.tensor_view<2x8xf32> -> !pto.partition_tensor_view<2x8xf32>
    %t = pto.alloc_tile : !pto.tile_buf<vec, 2x8xf8E4M3FN>
    %f = pto.alloc_tile : !pto.tile_buf<vec, 2x8xf32>
    pto.tload ins(%sp : !pto.partition_tensor_view<2x8xf8E4M3FN>) outs(%t : !pto.tile_buf<vec, 2x8xf8E4M3FN>)
    pto.tcvt ins(%t {rmode = #pto<round_mode CAST_RINT>} : !pto.tile_buf<vec, 2x8xf8E4M3FN>) outs(%f : !pto.tile_buf<vec, 2x8xf32>)
    pto.tstore ins(%f : !pto.tile_buf<vec, 2x8xf32>) outs(%dp : !pto.partition_tensor_view<2x8xf32>)
    return
  }
}
"""

I64_KERNEL = """module {
  func.func @ids(%src: !pto.ptr<i64>, %dst: !pto.ptr<i64>, %u: !pto.ptr<ui64>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %sv = pto.make_tensor_view %src, shape = [%c4, %c8], strides = [%c8, %c1] : !pto.tensor_view<4x8xi64>
    %dv = pto.make_tensor_view %dst, shape = [%c4, %c8], strides = [%c8, %c1] : !pto.tensor_view<4x8xi64>
    %sp = pto.partition_view %sv, offsets = [%c0, %c0], sizes = [%c4, %c8] : !pto.tensor_view<4x8xi64> -> !pto.partition_tensor_view<4x8xi64>
    %dp = pto.partition_view %dv, offsets = [%c0, %c0], sizes = [%c4, %c8] : !pto.tensor_view<4x8xi64> -> !pto.partition_tensor_view<4x8xi64>
    %t = pto.alloc_tile : !pto.tile_buf<vec, 4x8xi64>
    pto.tload ins(%sp : !pto.partition_tensor_view<4x8xi64>) outs(%t : !pto.tile_buf<vec, 4x8xi64>)
    pto.tstore ins(%t : !pto.tile_buf<vec, 4x8xi64>) outs(%dp : !pto.partition_tensor_view<4x8xi64>)
    %x = pto.load_scalar %u[%c0] : !pto.ptr<ui64> -> i64
    pto.store_scalar %x, %u[%c1] : !pto.ptr<ui64>, i64
    return
  }
}
"""
# Scalars the program does not use still need valid values.
SCALARS_KERNEL = """module {
  func.func @k(%n: i8, %m: index, %x: f32) {
    return
  }
}
"""


def rng_f32(shape, seed):
    rng = np.random.default_rng(seed)
    return rng.uniform(-4.0, 4.0, size=shape).astype(np.float32)


class PtoRun(unittest.TestCase):
    def setUp(self):
        self._dir = tempfile.TemporaryDirectory()
        self.dir = self._dir.name

    def tearDown(self):
        self._dir.cleanup()

    def path(self, name):
        return os.path.join(self.dir, name)

    def write_text(self, name, text):
        with open(self.path(name), "w") as f:
            f.write(text)
        return self.path(name)

    def save(self, name, array):
        np.save(self.path(name), array)
        return self.path(name)

    def run_tool(self, *args):
        done = subprocess.run([PTO_RUN, *args], cwd=self.dir, capture_output=True, text=True, timeout=60)
        return done.returncode, done.stdout, done.stderr

    def assert_exit(self, expected, args, stderr_pattern=None):
        rc, out, err = self.run_tool(*args)
        self.assertEqual(rc, expected, f"pto-run {' '.join(args)}\nstdout: {out}\nstderr: {err}")
        if stderr_pattern is not None:
            self.assertRegex(err, stderr_pattern)
        return out, err


class Usage(PtoRun):
    def test_help_and_version(self):
        out, _ = self.assert_exit(0, ["--help"])
        self.assertIn("Usage: pto-run FILE.pto", out)
        self.assertIn("zeros:DTYPE:SHAPE", out)
        out, _ = self.assert_exit(0, ["--version"])
        self.assertRegex(out, r"^pto-run \(libpto\) \d+\.\d+\.\d+")

    def test_command_line_errors(self):
        prelu = self.write_text("prelu.pto", PRELU)
        self.assert_exit(2, [], "missing FILE.pto")
        self.assert_exit(2, ["--frobnicate", prelu], "unknown option '--frobnicate'")
        self.assert_exit(2, ["-x", prelu], "unknown option '-x'")
        self.assert_exit(2, [self.path("absent.pto")], "cannot read .*absent.pto")
        self.assert_exit(2, [prelu, "--profile", "A9"], "unknown profile 'A9'")
        self.assert_exit(2, [prelu, "--profile"], "--profile needs a value")
        self.assert_exit(2, [prelu, "--blocks", "0"], "--blocks '0'")
        self.assert_exit(2, [prelu, "--blocks=65537"], "--blocks '65537'")
        self.assert_exit(2, [prelu, "--out", "dst"], "--out 'dst' is not NAME=FILE.npy")
        self.assert_exit(2, [prelu, "stray"], "extra argument 'stray'")

    def test_value_errors(self):
        prelu = self.write_text("prelu.pto", PRELU)
        a = self.save("a.npy", rng_f32((16, 16), 1))
        self.assert_exit(2, [prelu, "src0=a.npy"], "missing value for src1")
        self.assert_exit(2, [prelu, "src0=a.npy", "src1=a.npy", "bogus=a.npy"], "unknown parameter 'bogus'")
        self.assert_exit(2, [prelu, "src0=a.npy", "src0=a.npy", "src1=a.npy"], "src0 is given twice")
        self.assert_exit(2, [prelu, "src0=missing.npy", "src1=a.npy"], "cannot open missing.npy")
        self.save("h.npy", rng_f32((16, 16), 2).astype(np.float16))
        self.assert_exit(2, [prelu, "src0=h.npy", "src1=a.npy"], "dtype f16 does not match src0, a tile 16x16xf32")
        self.save("small.npy", rng_f32((8, 8), 3))
        self.assert_exit(2, [prelu, "src0=small.npy", "src1=a.npy"], r"shape \(8, 8\) does not match src0")
        self.save("f.npy", np.asfortranarray(rng_f32((16, 16), 4)))
        self.assert_exit(2, [prelu, "src0=f.npy", "src1=a.npy"], "Fortran order")
        self.save("be.npy", rng_f32((16, 16), 5).astype(">f4"))
        self.assert_exit(2, [prelu, "src0=be.npy", "src1=a.npy"], "big-endian")
        self.save("d.npy", rng_f32((16, 16), 6).astype(np.float64))
        self.assert_exit(2, [prelu, "src0=d.npy", "src1=a.npy"], "unsupported .npy dtype '<f8'")
        self.assert_exit(2, [prelu, "src0=1.5", "src1=a.npy"], "src0 is a tile 16x16xf32")
        self.assert_exit(2, [prelu, "src0=zeros:f64:16x16", "src1=a.npy"], "zeros:DTYPE:SHAPE")
        self.assert_exit(2, [prelu, "src0=zeros:f32:16y16", "src1=a.npy"], "SHAPE must be")
        self.assert_exit(2, [prelu, "src0=zeros:i32:16x16", "src1=a.npy"], "dtype i32 does not match")
        self.assert_exit(2, [prelu, "src0=a.npy", "src1=a.npy", "--out", "nothing=o.npy"], "unknown parameter 'nothing'")
        self.assert_exit(2, [prelu, "src0=a.npy", "src1=a.npy", "--out", "dst=" + self.path("no/such/dir.npy")],
                         "cannot write")

    def test_scalars(self):
        k = self.write_text("scalars.pto", SCALARS_KERNEL)
        for n in ["0", "-128", "127", "0x7f", "-0x80"]:
            self.assert_exit(0, [k, "n=" + n, "m=-5", "x=1.5"])
        for x in ["inf", "-inf", "nan", "0x1p-3", "-2e-3", "7"]:
            self.assert_exit(0, [k, "n=1", "m=0x123456789", "x=" + x])
        self.assert_exit(2, [k, "n=128", "m=0", "x=0"], "n=128: .*does not fit")
        self.assert_exit(2, [k, "n=1.5", "m=0", "x=0"], "n=1.5: n is an integer scalar")
        self.assert_exit(2, [k, "n=010z", "m=0", "x=0"], "integer")
        self.assert_exit(2, [k, "n=1", "m=0", "x=a.npy"], "x=a.npy: x is a float scalar")
        self.assert_exit(2, [k, "n=1", "m=0"], "missing value for x")
        self.assert_exit(2, [k, "n=1", "m=0", "x=1", "--out", "x=o.npy"], "x is a scalar")


class Programs(PtoRun):
    def test_prelu_snippet(self):
        prelu = self.write_text("prelu.pto", PRELU)
        a = rng_f32((16, 16), 10)
        b = rng_f32((16, 16), 11)
        self.save("a.npy", a)
        self.save("b.npy", b.reshape(256))  # 1-D of rows*cols is accepted
        self.assert_exit(0, [prelu, "src0=a.npy", "src1=b.npy", "--out", "dst=o.npy"])
        o = np.load(self.path("o.npy"))
        self.assertEqual(o.dtype, np.float32)
        self.assertEqual(o.shape, (16, 16))
        np.testing.assert_array_equal(o, np.where(a > 0, a, a * b))
        # The file is what np.save writes for the same array, byte for byte.
        np.save(self.path("expected.npy"), o)
        with open(self.path("o.npy"), "rb") as f1, open(self.path("expected.npy"), "rb") as f2:
            self.assertEqual(f1.read(), f2.read())
        # zeros as the slope: negatives become (signed) zeros.
        self.assert_exit(0, [prelu, "--out=dst=z.npy", "src0=a.npy", "%src1=zeros:f32:16x16"])
        np.testing.assert_array_equal(np.load(self.path("z.npy")), np.where(a > 0, a, a * 0))

    def test_partial_valid_region(self):
        part = "!pto.tile_buf<vec, 16x16xf32, valid=16x8>"
        prelu = self.write_text("part.pto", f"pto.tprelu ins(%src0, %src1 : {part}, {part}) outs(%dst : {part})\n")
        a = rng_f32((16, 16), 13)
        self.save("a.npy", a)
        self.assert_exit(0, [prelu, "src0=a.npy", "src1=a.npy", "--out", "dst=o.npy"])
        # --out writes the valid region.
        np.testing.assert_array_equal(np.load(self.path("o.npy")), np.where(a > 0, a, a * a)[:, :8])

    def test_bfloat16(self):
        bf16 = "!pto.tile_buf<vec, 4x8xbf16>"
        add = self.write_text("add.pto", f"pto.tpartadd ins(%src0, %src1 : {bf16}, {bf16}) outs(%dst : {bf16})\n")
        a = rng_f32((4, 8), 14)
        b = rng_f32((4, 8), 15)
        # bfloat16 bits: the upper halves of float32 values that bfloat16 holds exactly.
        a_bits = (a.view(np.uint32) >> 16).astype(np.uint16)
        b_bits = (b.view(np.uint32) >> 16).astype(np.uint16)
        self.save("a.npy", a_bits)  # "<u2" raw bits
        # ml_dtypes' bfloat16 as np.save writes it: descr "<V2".
        header = "{'descr': '<V2', 'fortran_order': False, 'shape': (4, 8), }"
        header += " " * (63 - (10 + len(header)) % 64) + "\n"
        with open(self.path("b.npy"), "wb") as f:
            f.write(b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") + header.encode() + b_bits.tobytes())
        self.assert_exit(0, [add, "src0=a.npy", "src1=b.npy", "--out", "dst=o.npy"])
        with open(self.path("o.npy"), "rb") as f:
            self.assertIn(b"'descr': '<u2'", f.read(128))
        o = np.load(self.path("o.npy"))
        self.assertEqual(o.dtype, np.uint16)
        exact = ((a_bits.astype(np.uint32) << 16).view(np.float32) + (b_bits.astype(np.uint32) << 16).view(np.float32))
        # Round the float32 sums to bfloat16, to nearest even.
        u = exact.view(np.uint32)
        expected = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)
        np.testing.assert_array_equal(o, expected)
        self.assert_exit(2, [add, "src0=a.npy", "src1=zeros:ui16:4x8"], "dtype ui16 does not match src1, a tile 4x8xbf16")
        self.assert_exit(0, [add, "src0=a.npy", "src1=zeros:bf16:32"])

    def test_prelu_profiles(self):
        prelu = self.write_text("prelu.pto", PRELU)
        self.save("a.npy", rng_f32((16, 16), 12))
        self.assert_exit(0, [prelu, "--profile", "A5", "src0=a.npy", "src1=a.npy"])
        # A2A3's TPRELU needs a tmp tile: the verifier refuses the snippet.
        _, err = self.assert_exit(1, [prelu, "--profile=A2A3", "src0=a.npy", "src1=a.npy"],
                                  r"^.*prelu\.pto:\d+:\d+: error: ")
        self.assertIn("A2A3", err)

    def test_int64_kernel(self):
        k = self.write_text("ids.pto", I64_KERNEL)
        src = (np.arange(32, dtype=np.int64) - 16) * (1 << 40) + 7
        self.save("src.npy", src.reshape(4, 8))
        self.save("u.npy", np.array([2**64 - 3, 0], dtype=np.uint64))
        self.assert_exit(0, [k, "src=src.npy", "dst=zeros:i64:4x8", "u=u.npy",
                             "--out", "dst=dst.npy", "--out", "u=u_out.npy"])
        dst = np.load(self.path("dst.npy"))
        self.assertEqual(dst.dtype, np.int64)
        np.testing.assert_array_equal(dst.reshape(-1), src)
        u = np.load(self.path("u_out.npy"))
        self.assertEqual(u.dtype, np.uint64)
        np.testing.assert_array_equal(u, np.array([2**64 - 3, 2**64 - 3], dtype=np.uint64))
        self.assert_exit(2, [k, "src=src.npy", "dst=zeros:ui64:32", "u=u.npy"],
                         "dtype ui64 does not match dst, a pointer to i64")

    def test_fp8_kernel(self):
        """FLOAT8_E4M3 from a file's raw bytes: "|u1" (numpy's uint8) or "<V1"
        (how numpy saves ml_dtypes' float8_e4m3fn); written back as "|u1"."""
        k = self.write_text("fp8.pto", FP8_KERNEL)
        # E4M3FN codes and their values (bias 7, 3 fraction bits)
        codes = np.array([0x00, 0x38, 0x40, 0xC0, 0x7E, 0x01, 0x08, 0x3C] * 2, dtype=np.uint8)
        values = np.array([0, 1, 2, -2, 448, 2.0**-9, 2.0**-6, 1.5] * 2, dtype=np.float32)
        self.save("u8.npy", codes.reshape(2, 8))
        self.assert_exit(0, [k, "src=u8.npy", "dst=zeros:f32:2x8", "--out", "dst=d.npy",
                             "--out", "src=s.npy"])
        np.testing.assert_array_equal(np.load(self.path("d.npy")).reshape(-1), values)
        s = np.load(self.path("s.npy"))
        self.assertEqual(s.dtype, np.uint8)
        np.testing.assert_array_equal(s.reshape(-1), codes)
        header = "{'descr': '<V1', 'fortran_order': False, 'shape': (2, 8), }"
        header += " " * (63 - (10 + len(header)) % 64) + "\n"
        with open(self.path("v1.npy"), "wb") as f:
            f.write(b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") + header.encode())
            f.write(codes.tobytes())
        self.assert_exit(0, [k, "src=v1.npy", "dst=zeros:f32:2x8", "--out", "dst=d2.npy"])
        np.testing.assert_array_equal(np.load(self.path("d2.npy")).reshape(-1), values)
        self.assert_exit(2, [k, "src=zeros:i8:16", "dst=zeros:f32:2x8"],
                         "dtype i8 does not match src")

    def test_rsqrt_kernel(self):
        k = self.write_text("rsqrt.pto", RSQRT_KERNEL)
        a = np.random.default_rng(20).uniform(0.01, 100.0, size=(16, 64)).astype(np.float32)
        self.save("a.npy", a)
        self.assert_exit(0, [k, "a_ptr=a.npy", "b_ptr=zeros:f32:16x64", "--out", "b_ptr=b.npy"])
        b = np.load(self.path("b.npy"))
        self.assertEqual(b.shape, (16, 64))
        expected = (1.0 / np.sqrt(a.astype(np.float64))).astype(np.float32)
        np.testing.assert_array_max_ulp(b, expected, maxulp=1)
        # Every block computes the same thing into the same memory.
        self.assert_exit(0, [k, "--blocks", "3", "a_ptr=a.npy", "b_ptr=zeros:f32:1024", "--out", "b_ptr=b3.npy"])
        b3 = np.load(self.path("b3.npy"))
        self.assertEqual(b3.shape, (1024,))
        np.testing.assert_array_equal(b3.reshape(16, 64), b)
        # The output pointer needs an array.
        self.assert_exit(2, [k, "a_ptr=a.npy", "--out", "b_ptr=b.npy"], "give b_ptr an array")
        self.assert_exit(2, [k, "a_ptr=a.npy", "b_ptr=zeros:f16:1024"], "dtype f16 does not match b_ptr, a pointer to f32")
        # An array too small for the view is a run-time error.
        self.save("short.npy", a.reshape(-1)[:100])
        self.assert_exit(1, [k, "a_ptr=short.npy", "b_ptr=zeros:f32:16x64"], r"rsqrt\.pto:\d+:\d+: error: ")

    def test_trace(self):
        # --trace: each tile-writing instruction's location, name, tile and
        # first 4 x 8 elements; --trace=BLOCK that block's only; no trace
        # without the option, and the results are the same.
        k = self.write_text("rsqrt.pto", RSQRT_KERNEL)
        a = np.full((16, 64), 4.0, dtype=np.float32)
        self.save("a.npy", a)
        out, err = self.assert_exit(0, [k, "--trace", "a_ptr=a.npy", "b_ptr=zeros:f32:16x64", "--out", "b_ptr=b.npy"])
        lines = err.splitlines()
        heads = [line for line in lines if ": trace pto." in line]
        self.assertEqual([re.sub(r".*: trace (pto\.\w+ %\w+), block (\d+).*", r"\1 \2", h) for h in heads],
                         ["pto.tload %a 0", "pto.trsqrt %b 0", "pto.tstore %b 0"])
        self.assertRegex(heads[1], r"rsqrt\.pto:14:5: trace pto\.trsqrt %b, block 0: 16x64 valid of 16x64 f32")
        first = lines[lines.index(heads[1]) + 1].split()
        self.assertEqual(first, ["0.5000"] * 8 + ["..."])
        self.assertEqual(lines[lines.index(heads[1]) + 5].strip(), "...")  # rows past the fourth
        np.testing.assert_array_equal(np.load(self.path("b.npy")), np.full((16, 64), 0.5, np.float32))
        _, err = self.assert_exit(0, [k, "--blocks", "3", "--trace=2", "a_ptr=a.npy", "b_ptr=zeros:f32:1024"])
        self.assertEqual(len(re.findall(r"trace pto\.\w+ %\w+, block 2:", err)), 3)
        self.assertNotRegex(err, r"block [01]:")
        _, err = self.assert_exit(0, [k, "a_ptr=a.npy", "b_ptr=zeros:f32:16x64"])
        self.assertNotIn("trace", err)
        self.assert_exit(2, [k, "--trace=x"], "--trace=x: BLOCK is a block number")

    def test_trace_boxed(self):
        # A boxed (NZ) vec tile is traced by its elements' (row, column), not
        # its bytes' order.
        nz = ("!pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=16, v_row=16, v_col=16, "
              "blayout=col_major, slayout=row_major, fractal=512, pad=0>")
        k = self.write_text("nz.pto", (
            "func.func @k(%x: !pto.ptr<f32>) {\n"
            "  %c1 = arith.constant 1 : index\n"
            "  %c16 = arith.constant 16 : index\n"
            "  %v = pto.make_tensor_view %x, shape = [%c16, %c16], strides = [%c16, %c1] : !pto.tensor_view<16x16xf32>\n"
            "  %nd = pto.alloc_tile : !pto.tile_buf<vec, 16x16xf32>\n"
            f"  %nz = pto.alloc_tile : {nz}\n"
            "  pto.tload ins(%v : !pto.tensor_view<16x16xf32>) outs(%nd : !pto.tile_buf<vec, 16x16xf32>)\n"
            f"  pto.tmov ins(%nd : !pto.tile_buf<vec, 16x16xf32>) outs(%nz : {nz})\n"
            "  return\n}\n"))
        self.save("x.npy", np.arange(256, dtype=np.float32).reshape(16, 16))
        _, err = self.assert_exit(0, [k, "--trace", "x=x.npy"])
        lines = err.splitlines()
        head = next(i for i, line in enumerate(lines) if "trace pto.tmov %nz" in line)
        self.assertEqual(lines[head + 2].split(), [f"{v:.4f}" for v in range(16, 24)] + ["..."])

    def test_check(self):
        prelu = self.write_text("prelu.pto", PRELU)
        out, _ = self.assert_exit(0, ["--check", prelu])
        self.assertIn("verified under profile HOST", out)
        for name in ["src0", "src1", "dst"]:
            self.assertRegex(out, rf"\n  {name} +a tile 16x16xf32")
        k = self.write_text("rsqrt.pto", RSQRT_KERNEL)
        out, _ = self.assert_exit(0, [k, "--check"])
        self.assertRegex(out, r"a_ptr +a pointer to f32, read")
        self.assertRegex(out, r"b_ptr +a pointer to f32, written")

    def test_check_several_kernels(self):
        # --check verifies every kernel of a module and needs no entry; a run needs --entry.
        kernel = ("  func.func @{0}(%p: !pto.ptr<i32>) attributes {{pto.kernel_kind = #pto.kernel_kind<vector>}} {{\n"
                  "    return\n  }}\n")
        k = self.write_text("two.pto", "module {\n" + kernel.format("fill") + kernel.format("other") + "}\n")
        out, _ = self.assert_exit(0, ["--check", k])
        self.assertIn("no entry: the module marks 2 entry functions (@fill, @other)", out)
        self.assert_exit(1, [k, "p=zeros:i32:4"], r"two\.pto:2:3: error: the module marks 2 entry functions")
        self.assert_exit(0, [k, "--entry", "other", "p=zeros:i32:4"])

    def test_verifier_errors(self):
        bad_dtype = self.write_text(
            "bad.pto",
            "// a comment line\n"
            "pto.tprelu ins(%src0, %src1 : !pto.tile_buf<vec, 16x16xf16>, !pto.tile_buf<vec, 16x16xf32>)\n"
            "           outs(%dst : !pto.tile_buf<vec, 16x16xf32>)\n")
        _, err = self.assert_exit(1, ["--check", bad_dtype], r"^.*bad\.pto:\d+:\d+: error: ")
        self.assertEqual(len(err.strip().splitlines()), 1, err)
        self.assert_exit(1, [bad_dtype, "src0=zeros:f16:16x16", "src1=zeros:f32:16x16"],
                         r"^.*bad\.pto:\d+:\d+: error: ")
        syntax = self.write_text("syntax.pto", "pto.tprelu ins(%src0 %src1)\n")
        self.assert_exit(1, [syntax], r"^.*syntax\.pto:1:\d+: error: ")

    def test_board_mode(self):
        """--board: a partition window past its view but inside its memory runs
        under A2A3 with one located warning per block; by default, and under
        HOST with --board, it is the verifier's error; past the memory it stays
        an error in board mode."""
        k = self.write_text(
            "window.pto",
            "func.func @k(%a: !pto.ptr<f32>, %b: !pto.ptr<f32>) {\n"
            "  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n"
            "  %c2 = arith.constant 2 : index\n  %c8 = arith.constant 8 : index\n"
            "  %va = pto.make_tensor_view %a, shape = [%c2, %c8], strides = [%c8, %c1] : !pto.tensor_view<?x?xf32>\n"
            "  %vb = pto.make_tensor_view %b, shape = [%c2, %c8], strides = [%c8, %c1] : !pto.tensor_view<?x?xf32>\n"
            "  %pa = pto.partition_view %va, offsets = [%c2, %c0], sizes = [%c2, %c8]"
            " : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<2x8xf32>\n"
            "  %pb = pto.partition_view %vb, offsets = [%c0, %c0], sizes = [%c2, %c8]"
            " : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<2x8xf32>\n"
            "  %t = pto.alloc_tile : !pto.tile_buf<vec, 2x8xf32>\n"
            "  pto.tload ins(%pa : !pto.partition_tensor_view<2x8xf32>) outs(%t : !pto.tile_buf<vec, 2x8xf32>)\n"
            "  pto.tstore ins(%t : !pto.tile_buf<vec, 2x8xf32>) outs(%pb : !pto.partition_tensor_view<2x8xf32>)\n"
            "  return\n}\n")
        self.save("a.npy", np.arange(32, dtype=np.float32))
        args = [k, "a=a.npy", "b=zeros:f32:16", "--out", "b=b.npy"]
        self.assert_exit(1, [*args, "--profile", "A2A3"], r"window\.pto:\d+:\d+: error: partition \[2, 4\)")
        self.assert_exit(1, [*args, "--profile", "HOST", "--board"], r"error: partition \[2, 4\)")
        _, err = self.assert_exit(0, [*args, "--profile", "A2A3", "--board", "--blocks", "2"])
        self.assertEqual(err.count("warning: board mode: pto.partition_view: [2, 4) of dimension 0"), 2, err)
        self.assertTrue(np.array_equal(np.load(self.path("b.npy")), np.arange(16, 32, dtype=np.float32)))
        self.assert_exit(1, [k, "a=zeros:f32:16", "b=zeros:f32:16", "--profile", "A5", "--board"],
                         r"window\.pto:\d+:\d+: error: pto\.partition_view: \[2, 4\)")


def main():
    global PTO_RUN
    if len(sys.argv) < 2:
        sys.exit("usage: test_cli.py PATH/TO/pto-run [unittest arguments]")
    PTO_RUN = os.path.abspath(sys.argv.pop(1))
    unittest.main(verbosity=2)


if __name__ == "__main__":
    main()
