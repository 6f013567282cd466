// TMATMUL, TMATMUL_ACC, TMATMUL_BIAS and TGEMV, TGEMV_ACC, TGEMV_BIAS (the
// same rows with one row of a: M = 1): their rules and runs (the kernel is
// kernels/matmul.cc; the MX rows are matmul_mx.cc's). Under HOST the
// operands are tiles of any location and layout (row-major vec tiles the
// plain case); under A2A3 and A5 they are the cube tiles that profile's NPU
// takes (pto_c.h, "Cube tiles"). Operands in a fractal layout (or windows of
// an image, a program's subviews) are multiplied through row-major copies of
// their valid regions, so every layout runs the one kernel and gets its bits.
// A cube mode (HF32 under A2A3, TF32 under A5: cube_mode.h) rounds FLOAT32 a
// and b in such copies before the same kernel.
#include <string.h>

#include "alloc.h"
#include "cube_mode.h"
#include "error.h"
#include "float_env.h"
#include "ops/common.h"
#include "ops/matmul_common.h"
#include "overlap.h"
#include "profile.h"
#include "validate.h"

namespace pto {
namespace ops {

namespace {

bool Placed(const pto_tile* t, const Placement& want) {
  return t->location == want.location && t->layout == want.layout;
}

// The thread's staging for operands in a fractal layout: reserved by the
// check (which can report running out of memory), used by the run that
// follows it on the same thread.
struct Staging {
  char* data = nullptr;
  size_t size = 0;
  ~Staging() { Free(data); }
};
thread_local Staging staging;

}  // namespace

void RequirePlaced(Validator& v, pto_profile profile, const Placement* wants,
                   const pto_tile* const* operands, int n) {
  for (int i = 0; i < n; ++i) {
    const pto_tile* t = operands[i];
    v.Require(Placed(t, wants[i]), PTO_ERR_INVALID_ARGUMENT,
              "under %s %s must be %s %s %s tile (pto_tile_create_cube), not %s %s %s tile",
              pto_profile_string(profile), wants[i].operand, LocationArticle(wants[i].location),
              LocationName(wants[i].location), LayoutName(wants[i].layout),
              LocationArticle(static_cast<pto_location>(t->location)),
              LocationName(static_cast<pto_location>(t->location)),
              LayoutName(static_cast<pto_layout>(t->layout)));
  }
}

size_t StagedBytes(pto_dtype dtype, size_t rows, size_t cols) {
  return (rows * cols * pto_dtype_size(dtype) + 63) / 64 * 64;
}

bool ReserveStaging(size_t bytes) {
  if (bytes <= staging.size) return true;
  char* grown = static_cast<char*>(AllocateZeroed(bytes));
  if (grown == nullptr) return false;
  Free(staging.data);
  staging.data = grown;
  staging.size = bytes;
  return true;
}

char* StagingStart() { return staging.data; }

pto_tile Staged(const pto_tile* t, uint32_t rows, uint32_t cols, char** next, bool empty) {
  pto_tile s{};
  s.dtype = t->dtype;
  s.rows = s.valid_rows = s.image_rows = rows;
  s.cols = s.valid_cols = s.image_cols = cols;
  s.data = *next;
  *next += StagedBytes(t->dtype, rows, cols);
  if (!empty)
    CopyRegion(RowMajorLayout(rows, cols), static_cast<char*>(s.data), TileLayout(t),
               static_cast<const char*>(t->data), t->origin_row, t->origin_col, rows, cols,
               pto_dtype_size(t->dtype));
  return s;
}

namespace {

// The source dtype that goes with dst's: FLOAT32 takes BFLOAT16, FLOAT16 or
// FLOAT32 sources, INT32 takes INT8.
bool PairAccepted(pto_dtype dst, pto_dtype source) {
  if (dst == PTO_FLOAT32)
    return source == PTO_BFLOAT16 || source == PTO_FLOAT16 || source == PTO_FLOAT32;
  return dst == PTO_INT32 && source == PTO_INT8;
}

constexpr const char* kTriples =
    "(FLOAT32; BFLOAT16), (FLOAT32; FLOAT16), (FLOAT32; FLOAT32), (INT32; INT8)";

bool IsFp8(pto_dtype t) { return t == PTO_FLOAT8_E4M3 || t == PTO_FLOAT8_E5M2; }

// A5's 8-bit floating sources (a5/TMatmul.hpp): a and b each FLOAT8_E4M3
// or FLOAT8_E5M2 (any of the four pairs), or both HIFLOAT8; dst FLOAT32.
bool Float8Sources(const Operands& o) {
  const pto_dtype a = o.src0->dtype, b = o.src1->dtype;
  return (IsFp8(a) && IsFp8(b)) || (a == PTO_HIFLOAT8 && b == PTO_HIFLOAT8);
}

bool Float8Source(pto_dtype t) { return IsFp8(t) || t == PTO_HIFLOAT8; }

// Whether the thread's cube mode rounds this call's inputs under profile
// (FLOAT32 a and b in HF32 under A2A3, TF32 under A5).
bool InputsRounded(const Operands& o, pto_profile profile) {
  return o.src0 != nullptr && o.src0->dtype == PTO_FLOAT32 &&
         MatmulInputRounding(profile).fraction_bits != 23;
}

bool RowMajorOperands(const Operands& o) {
  return IsRowMajorFromData(o.dst) && IsRowMajorFromData(o.src0) && IsRowMajorFromData(o.src1) &&
         (o.ext->src2 == nullptr || IsRowMajorFromData(o.ext->src2));
}

size_t StagingBytes(const Operands& o) {
  const size_t m = o.src0->valid_rows, n = o.src1->valid_cols, k = o.src0->valid_cols;
  return StagedBytes(o.src0->dtype, m, k) + StagedBytes(o.src1->dtype, k, n) +
         2 * StagedBytes(o.dst->dtype, m, n);  // dst, and bias's row (at most n of dst's dtype)
}

// Under A2A3 and A5, each operand's Placement (TGEMV's implementations
// share TMatmul.hpp's static checks).
void CheckPlacements(Validator& v, const Operands& o, pto_profile profile, Seed seed) {
  const pto_layout left = profile == PTO_PROFILE_A2A3 ? PTO_LAYOUT_ZZ : PTO_LAYOUT_NZ;
  const Placement wants[4] = {{"a", PTO_LOC_LEFT, left},
                              {"b", PTO_LOC_RIGHT, PTO_LAYOUT_ZN},
                              {"dst", PTO_LOC_ACC, PTO_LAYOUT_NZ},
                              {"bias", PTO_LOC_BIAS, PTO_LAYOUT_ND}};
  const pto_tile* operands[4] = {o.src0, o.src1, o.dst, o.ext->src2};
  RequirePlaced(v, profile, wants, operands, seed == Seed::kBias ? 4 : 3);
}

// The (dst; a, b) triple, bias's dtype; then dst apart from every source.
// Under A5, 8-bit floating sources too (Float8Sources) with dst FLOAT32.
void CheckDtypesApart(Validator& v, const Operands& o, pto_profile profile, Seed seed) {
  pto_tile* dst = o.dst;
  const pto_tile *a = o.src0, *b = o.src1, *bias = o.ext->src2;
  if (Float8Source(a->dtype) || Float8Source(b->dtype)) {
    v.Require(profile == PTO_PROFILE_A5, PTO_ERR_UNSUPPORTED_DTYPE,
              "(a %s; b %s): 8-bit floating sources are A5's (PTO_PROFILE_A5), not %s's",
              DtypeName(a->dtype), DtypeName(b->dtype), pto_profile_string(profile))
        .Require(Float8Sources(o), PTO_ERR_DTYPE_MISMATCH,
                 "(a %s; b %s) is not one of A5's 8-bit pairs: FLOAT8_E4M3 or FLOAT8_E5M2 "
                 "each, or both HIFLOAT8",
                 DtypeName(a->dtype), DtypeName(b->dtype))
        .Require(dst->dtype == PTO_FLOAT32, PTO_ERR_UNSUPPORTED_DTYPE,
                 "dst dtype %s: 8-bit floating sources accumulate into FLOAT32",
                 DtypeName(dst->dtype));
  } else {
    v.Require(dst->dtype == PTO_FLOAT32 || dst->dtype == PTO_INT32, PTO_ERR_UNSUPPORTED_DTYPE,
              "dst dtype %s is not one of a matrix multiply's (dst; a, b) triples %s",
              DtypeName(dst->dtype), kTriples)
        .SameDtype("b", b, "a", a)
        .Require(PairAccepted(dst->dtype, a->dtype), PTO_ERR_UNSUPPORTED_DTYPE,
                 "(dst %s; a, b %s) is not one of a matrix multiply's (dst; a, b) triples %s",
                 DtypeName(dst->dtype), DtypeName(a->dtype), kTriples);
  }
  if (seed == Seed::kBias) v.SameDtype("bias", bias, "dst", dst);
  v.Distinct("a", a, "dst", dst).Distinct("b", b, "dst", dst);
  if (seed == Seed::kBias) v.Distinct("bias", bias, "dst", dst);
  v.Require(!ValidRegionsOverlap(a, dst), PTO_ERR_ALIASING,
            "a overlaps the storage of dst, which a matrix multiply writes while it reads a")
      .Require(!ValidRegionsOverlap(b, dst), PTO_ERR_ALIASING,
               "b overlaps the storage of dst, which a matrix multiply writes while it reads b");
  if (seed == Seed::kBias)
    v.Require(!ValidRegionsOverlap(bias, dst), PTO_ERR_ALIASING,
              "bias overlaps the storage of dst, which a matrix multiply writes while it reads "
              "bias");
}

// bias: at least one valid row, dst's valid cols (its row 0 is read).
void CheckBiasRow(Validator& v, const Operands& o) {
  v.Require(o.ext->src2->valid_rows >= 1 && o.ext->src2->valid_cols == o.dst->valid_cols,
            PTO_ERR_SHAPE_MISMATCH,
            "bias valid region %ux%u is not one row (or more) of dst valid cols %u",
            o.ext->src2->valid_rows, o.ext->src2->valid_cols, o.dst->valid_cols);
}

// Under A2A3 and A5, the mad's range of each valid dimension.
void CheckCubeRange(Validator& v, const Operands& o, pto_profile profile) {
  const uint32_t dims[3] = {o.src0->valid_rows, o.src0->valid_cols, o.src1->valid_cols};
  const char* names[3] = {"M", "K", "N"};
  for (int i = 0; i < 3; ++i)
    v.Require(dims[i] >= 1 && dims[i] <= 4095, PTO_ERR_SHAPE_MISMATCH,
              "%s = %u is outside the cube's 1 to 4095 under %s", names[i], dims[i],
              pto_profile_string(profile));
}

// A matrix multiply's valid regions and, under A2A3 and A5, its tiles'
// shapes.
void CheckMatmulShapes(Validator& v, const Operands& o, pto_profile profile, Seed seed) {
  pto_tile* dst = o.dst;
  const pto_tile *a = o.src0, *b = o.src1, *bias = o.ext->src2;
  // M, K and N are a's valid rows, a's valid cols and b's valid cols in
  // both implementations (a2a3/ and a5/TMatmul.hpp read nothing else), which
  // leave these equalities unchecked: board-mode warnings under A2A3 and A5,
  // whose equal storage shapes (checked below) keep every read and write
  // inside its tile.
  v.RequireOrBoard(a->valid_rows == dst->valid_rows, true, profile, PTO_ERR_SHAPE_MISMATCH,
                   "a valid rows %u differ from dst valid rows %u (M)", a->valid_rows,
                   dst->valid_rows)
      .RequireOrBoard(a->valid_cols == b->valid_rows, true, profile, PTO_ERR_SHAPE_MISMATCH,
                      "a valid cols %u differ from b valid rows %u (K)", a->valid_cols,
                      b->valid_rows)
      .RequireOrBoard(b->valid_cols == dst->valid_cols,
                      seed != Seed::kBias || b->valid_cols <= bias->cols, profile,
                      PTO_ERR_SHAPE_MISMATCH,
                      "b valid cols %u differ from dst valid cols %u (N)", b->valid_cols,
                      dst->valid_cols);
  if (seed == Seed::kBias) CheckBiasRow(v, o);
  if (profile == PTO_PROFILE_HOST) return;
  // The NPU implementations' static shapes (A [M, K], B [K, N], C [M, N]).
  v.Require(a->rows == dst->rows && a->cols == b->rows && b->cols == dst->cols,
            PTO_ERR_SHAPE_MISMATCH,
            "under %s the tiles are a [M, K], b [K, N], dst [M, N]; here a is %ux%u, b %ux%u, "
            "dst %ux%u",
            pto_profile_string(profile), a->rows, a->cols, b->rows, b->cols, dst->rows, dst->cols);
  CheckCubeRange(v, o, profile);
}

// GEMV's valid regions: a and dst one row (M = 1), a's K columns b's valid
// rows, b's N columns dst's. Both implementations take K and N from b and
// M = 1 (a2a3|a5/TMatmul.hpp TGEMV_IMPL), and PTOAS's verifier asks each
// equality of the valid shapes, so none is a board-mode warning: with them
// every read and write stays inside its tile's valid region, whatever the
// tiles' storage shapes (pto-isa's own cases pair a 1 x 256 left tile with
// a 16 x 32 acc tile, which neither implementation refuses).
void CheckGemvShapes(Validator& v, const Operands& o, pto_profile profile, Seed seed) {
  pto_tile* dst = o.dst;
  const pto_tile *a = o.src0, *b = o.src1;
  v.Require(a->valid_rows == 1, PTO_ERR_SHAPE_MISMATCH,
            "a valid rows %u: a GEMV multiplies one row (M = 1)", a->valid_rows)
      .Require(dst->valid_rows == 1, PTO_ERR_SHAPE_MISMATCH,
               "dst valid rows %u: a GEMV writes one row (M = 1)", dst->valid_rows)
      .Require(a->valid_cols == b->valid_rows, PTO_ERR_SHAPE_MISMATCH,
               "a valid cols %u differ from b valid rows %u (K)", a->valid_cols, b->valid_rows)
      .Require(b->valid_cols == dst->valid_cols, PTO_ERR_SHAPE_MISMATCH,
               "b valid cols %u differ from dst valid cols %u (N)", b->valid_cols,
               dst->valid_cols);
  if (seed == Seed::kBias) CheckBiasRow(v, o);
  if (profile != PTO_PROFILE_HOST) CheckCubeRange(v, o, profile);
}

// dst, a, b (and bias) under `profile`, in the contract's order: NULL
// handles; locations and layouts (A2A3, A5); dtypes; aliasing (same
// handles, then shared bytes); valid regions (and the NPU's shapes); the
// staging of operands in a fractal layout. Locations and layouts are left
// out where the caller judged them (Operands::cube_placements_checked).
pto_status CheckMatmul(const Operands& o, pto_profile profile, const char* function, Seed seed,
                       Shape shape) {
  Validator v(function);
  v.NotNull("dst", o.dst).NotNull("a", o.src0).NotNull("b", o.src1);
  if (seed == Seed::kBias) v.NotNull("bias", o.ext->src2);
  if (!v.ok()) return v.status();
  if (profile != PTO_PROFILE_HOST && !o.cube_placements_checked)
    CheckPlacements(v, o, profile, seed);
  CheckDtypesApart(v, o, profile, seed);
  if (shape == Shape::kGemv) CheckGemvShapes(v, o, profile, seed);
  else CheckMatmulShapes(v, o, profile, seed);
  if (v.ok() && (!RowMajorOperands(o) || InputsRounded(o, profile)) &&
      !ReserveStaging(StagingBytes(o)))
    return Fail(PTO_ERR_OUT_OF_MEMORY, function,
                "cannot allocate %zu bytes to stage the operands row-major (a fractal layout "
                "or a cube mode's rounded inputs)",
                StagingBytes(o));
  return v.status();
}

// Seeds dst's M x N (a's valid rows by b's valid cols: dst's valid region
// unless board mode let them differ) with bias's row, then runs the chains
// over a's valid cols (from zero seeds, +0.0f and 0, for tmatmul, which the
// kernel sets itself): all four tiles row-major.
void RunRowMajor(const Operands& o, Seed seed) {
  pto_tile* dst = o.dst;
  const pto_tile *a = o.src0, *b = o.src1;
  const size_t m = a->valid_rows, n = o.src1->valid_cols, k = a->valid_cols;
  if (seed == Seed::kBias) {
    const size_t row_bytes = n * pto_dtype_size(dst->dtype);
    for (size_t i = 0; i < m; ++i)
      memcpy(Offset(dst, static_cast<uint32_t>(i), 0).data, o.ext->src2->data, row_bytes);
  }
  if (Float8Source(a->dtype))
    kernels::MatmulFloat8(a->dtype, o.src1->dtype, m, k, n, Offset(dst, 0, 0), Offset(a, 0, 0),
                          Offset(o.src1, 0, 0), seed == Seed::kZero);
  else
    kernels::Matmul(a->dtype, m, k, n, Offset(dst, 0, 0), Offset(a, 0, 0), Offset(b, 0, 0),
                    seed == Seed::kZero);
}

// Whether the small-M product on the cube's own layouts takes o
// (kernels::MatmulCube): FLOAT16 or BFLOAT16 sources, b a ZN image of
// 16 x 16 boxes (any location but scaling, whose boxes are 2 x 16) and dst
// an acc tile's NZ image, both from their (0, 0), and a target and row
// count the kernel runs. a may lie in any layout: it is staged row-major (M
// rows, the smallest operand).
bool OnCubeLayouts(const Operands& o) {
  const pto_tile *dst = o.dst, *a = o.src0, *b = o.src1;
  if (a->dtype != PTO_BFLOAT16 && a->dtype != PTO_FLOAT16) return false;
  const bool b_zn = b->layout == PTO_LAYOUT_ZN && b->location != PTO_LOC_SCALING &&
                    b->origin_row == 0 && b->origin_col == 0 && b->image_rows % 16 == 0 &&
                    b->image_cols % 16 == 0;
  const bool dst_nz = dst->location == PTO_LOC_ACC && dst->layout == PTO_LAYOUT_NZ &&
                      dst->origin_row == 0 && dst->origin_col == 0 &&
                      (dst->image_rows % 16 == 0 || dst->image_rows < 16) &&
                      dst->image_cols % 16 == 0;
  return b_zn && dst_nz && kernels::MatmulCubeFits(a->valid_rows);
}

// The product on the cube's layouts: dst seeded where it lies (zeros, or
// bias's row in each row), a staged row-major unless it is already.
void RunOnCubeLayouts(const Operands& o, Seed seed) {
  pto_tile* dst = o.dst;
  const pto_tile *a = o.src0, *b = o.src1;
  const uint32_t m = a->valid_rows, n = b->valid_cols, k = a->valid_cols;
  const Layout acc = TileLayout(dst);
  if (seed == Seed::kZero) {
    const float zero = 0.0f;
    FillRegion(acc, static_cast<char*>(dst->data), 0, 0, m, n, &zero, sizeof zero);
  } else if (seed == Seed::kBias) {
    for (uint32_t i = 0; i < m; ++i)
      CopyRegion(acc, static_cast<char*>(dst->data), i, 0, TileLayout(o.ext->src2),
                 static_cast<const char*>(o.ext->src2->data), o.ext->src2->origin_row,
                 o.ext->src2->origin_col, 1, n, sizeof(float));
  }
  const uint16_t* a_rows = static_cast<const uint16_t*>(a->data);
  size_t lda = a->cols;
  if (!IsRowMajorFromData(a)) {
    char* next = StagingStart();
    a_rows = static_cast<const uint16_t*>(Staged(a, m, k, &next, false).data);
    lda = k;
  }
  kernels::MatmulCube(a->dtype, m, k, n, static_cast<float*>(dst->data), dst->image_rows, a_rows,
                      lda, static_cast<const uint16_t*>(b->data), b->image_cols);
}

// Operands in a fractal layout (or windows), or inputs a cube mode rounds:
// the row-major run on copies of the valid regions (dst's as it was for
// tmatmul_acc, bias's row 0; a and b rounded to the mode's format), dst's
// valid region written back in its layout.
void RunMatmul(const Operands& o, Seed seed, pto_profile profile) {
  const bool rounded = InputsRounded(o, profile);
  if (RowMajorOperands(o) && !rounded) return RunRowMajor(o, seed);
  if (!rounded && OnCubeLayouts(o)) return RunOnCubeLayouts(o, seed);
  pto_tile* dst = o.dst;
  const uint32_t m = o.src0->valid_rows, n = o.src1->valid_cols, k = o.src0->valid_cols;
  char* next = StagingStart();
  const pto_tile sa = Staged(o.src0, m, k, &next, false);
  const pto_tile sb = Staged(o.src1, k, n, &next, false);
  if (rounded) {
    const InputRounding r = MatmulInputRounding(profile);
    kernels::RoundFloat32Fraction(size_t{m} * k, static_cast<float*>(sa.data), r.fraction_bits,
                                  r.ties_away);
    kernels::RoundFloat32Fraction(size_t{k} * n, static_cast<float*>(sb.data), r.fraction_bits,
                                  r.ties_away);
  }
  pto_tile sd = Staged(dst, m, n, &next, seed != Seed::kDst);
  const pto_tile sbias = seed == Seed::kBias ? Staged(o.ext->src2, 1, n, &next, false) : pto_tile{};
  Operands staged{&sd, &sa, &sb, nullptr, 0};
  OperandsExt staged_ext;
  staged_ext.src2 = seed == Seed::kBias ? &sbias : nullptr;
  staged.ext = &staged_ext;
  RunRowMajor(staged, seed);
  CopyRegion(TileLayout(dst), static_cast<char*>(dst->data), dst->origin_row, dst->origin_col,
             RowMajorLayout(m, n), static_cast<const char*>(sd.data), 0, 0, m, n,
             pto_dtype_size(dst->dtype));
}

}  // namespace

pto_status CheckTMatmul(const Operands& o, pto_profile profile) {
  return CheckMatmul(o, profile, "pto_tmatmul", Seed::kZero, Shape::kMatmul);
}
void RunTMatmul(const Operands& o, pto_profile profile) {
  RunMatmul(o, Seed::kZero, profile);
}

pto_status CheckTMatmulAcc(const Operands& o, pto_profile profile) {
  return CheckMatmul(o, profile, "pto_tmatmul_acc", Seed::kDst, Shape::kMatmul);
}
void RunTMatmulAcc(const Operands& o, pto_profile profile) {
  RunMatmul(o, Seed::kDst, profile);
}

pto_status CheckTMatmulBias(const Operands& o, pto_profile profile) {
  return CheckMatmul(o, profile, "pto_tmatmul_bias", Seed::kBias, Shape::kMatmul);
}
void RunTMatmulBias(const Operands& o, pto_profile profile) {
  RunMatmul(o, Seed::kBias, profile);
}

// TGEMV, TGEMV_ACC, TGEMV_BIAS: the matrix multiplies' rows with M = 1,
// their one kernel and order.
pto_status CheckTGemv(const Operands& o, pto_profile profile) {
  return CheckMatmul(o, profile, "pto_tgemv", Seed::kZero, Shape::kGemv);
}
void RunTGemv(const Operands& o, pto_profile profile) {
  RunMatmul(o, Seed::kZero, profile);
}

pto_status CheckTGemvAcc(const Operands& o, pto_profile profile) {
  return CheckMatmul(o, profile, "pto_tgemv_acc", Seed::kDst, Shape::kGemv);
}
void RunTGemvAcc(const Operands& o, pto_profile profile) {
  RunMatmul(o, Seed::kDst, profile);
}

pto_status CheckTGemvBias(const Operands& o, pto_profile profile) {
  return CheckMatmul(o, profile, "pto_tgemv_bias", Seed::kBias, Shape::kGemv);
}
void RunTGemvBias(const Operands& o, pto_profile profile) {
  RunMatmul(o, Seed::kBias, profile);
}

}  // namespace ops
}  // namespace pto
