// TMATMUL, TMATMUL_ACC, TMATMUL_BIAS and TGEMV, TGEMV_ACC, TGEMV_BIAS (the
// same rows with one row of a: M = 1), and the MX rows TMATMUL_MX,
// TMATMUL_MX_ACC, TGEMV_MX, TGEMV_MX_ACC, and TMATMUL_MX_HIF4 (HiFloat4,
// pto_tmatmul_mx_hif4, not a row): their rules and runs (the kernel is
// kernels/matmul.cc). Under HOST the operands are tiles of any location and
// layout (row-major vec tiles the plain case); under A2A3 and A5 they are
// the cube tiles that profile's NPU takes (pto_c.h, "Cube tiles"). Operands
// in a fractal layout (or windows of an image, a program's subviews) are
// multiplied through row-major copies of their valid regions, so every
// layout runs the one kernel and gets its bits. A cube mode (HF32 under
// A2A3, TF32 under A5: cube_mode.h) rounds FLOAT32 a and b in such copies
// before the same kernel.
#include <string.h>

#include "alloc.h"
#include "cube_mode.h"
#include "error.h"
#include "float_env.h"
#include "ops/common.h"
#include "overlap.h"
#include "profile.h"
#include "validate.h"

namespace pto {
namespace ops {

namespace {

// Where each chain of dst starts.
enum class Seed : uint8_t {
  kZero,  // tmatmul
  kDst,   // tmatmul_acc: dst as it was
  kBias,  // tmatmul_bias: bias(0, j)
};

// The source dtype that goes with dst's: FLOAT32 takes BFLOAT16, FLOAT16 or
// FLOAT32 sources, INT32 takes INT8.
bool PairAccepted(pto_dtype dst, pto_dtype source) {
  if (dst == PTO_FLOAT32)
    return source == PTO_BFLOAT16 || source == PTO_FLOAT16 || source == PTO_FLOAT32;
  return dst == PTO_INT32 && source == PTO_INT8;
}

constexpr const char* kTriples =
    "(FLOAT32; BFLOAT16), (FLOAT32; FLOAT16), (FLOAT32; FLOAT32), (INT32; INT8)";

// The location and layout each operand must have under an NPU profile (the
// NPU's TileLeft, TileRight, TileAcc: pto-isa include/pto/common/pto_tile.hpp,
// whose TileLeft is ZZ on A2A3 and NZ on A5, and the static checks of
// include/pto/npu/a2a3|a5/TMatmul.hpp; a bias is a one-row bias tile).
struct Placement {
  const char* operand;
  pto_location location;
  pto_layout layout;
};

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

// Whether the thread's cube mode rounds this call's inputs under profile
// (FLOAT32 a and b in HF32 under A2A3, TF32 under A5).
bool InputsRounded(const Operands& o, pto_profile profile) {
  return o.src0 != nullptr && o.src0->dtype == PTO_FLOAT32 &&
         MatmulInputRounding(profile).fraction_bits != 23;
}

bool RowMajorOperands(const Operands& o) {
  return IsRowMajorFromData(o.dst) && IsRowMajorFromData(o.src0) && IsRowMajorFromData(o.src1) &&
         (o.src2 == nullptr || IsRowMajorFromData(o.src2));
}

// Bytes of a rows x cols row-major copy of elements of dtype, 64-byte rounded.
size_t StagedBytes(pto_dtype dtype, size_t rows, size_t cols) {
  return (rows * cols * pto_dtype_size(dtype) + 63) / 64 * 64;
}

size_t StagingBytes(const Operands& o) {
  const size_t m = o.src0->valid_rows, n = o.src1->valid_cols, k = o.src0->valid_cols;
  return StagedBytes(o.src0->dtype, m, k) + StagedBytes(o.src1->dtype, k, n) +
         2 * StagedBytes(o.dst->dtype, m, n);  // dst, and bias's row (at most n of dst's dtype)
}

// The thread's staging grown to `bytes`; false when it cannot be.
bool ReserveStaging(size_t bytes) {
  if (bytes <= staging.size) return true;
  char* grown = static_cast<char*>(AllocateZeroed(bytes));
  if (grown == nullptr) return false;
  Free(staging.data);
  staging.data = grown;
  staging.size = bytes;
  return true;
}

// The instruction's shape: a matrix multiply's M x K by K x N, or GEMV's
// one row by K x N (pto-isa TGEMV.md: M = 1, K and N b's valid rows and
// cols).
enum class Shape : uint8_t { kMatmul, kGemv };

// Each of the n operands where its Placement says, in order.
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

// Under A2A3 and A5, each operand's Placement (TGEMV's implementations
// share TMatmul.hpp's static checks).
void CheckPlacements(Validator& v, const Operands& o, pto_profile profile, Seed seed) {
  const pto_layout left = profile == PTO_PROFILE_A2A3 ? PTO_LAYOUT_ZZ : PTO_LAYOUT_NZ;
  const Placement wants[4] = {{"a", PTO_LOC_LEFT, left},
                              {"b", PTO_LOC_RIGHT, PTO_LAYOUT_ZN},
                              {"dst", PTO_LOC_ACC, PTO_LAYOUT_NZ},
                              {"bias", PTO_LOC_BIAS, PTO_LAYOUT_ND}};
  const pto_tile* operands[4] = {o.src0, o.src1, o.dst, o.src2};
  RequirePlaced(v, profile, wants, operands, seed == Seed::kBias ? 4 : 3);
}

// The (dst; a, b) triple, bias's dtype; then dst apart from every source.
void CheckDtypesApart(Validator& v, const Operands& o, Seed seed) {
  pto_tile* dst = o.dst;
  const pto_tile *a = o.src0, *b = o.src1, *bias = o.src2;
  v.Require(dst->dtype == PTO_FLOAT32 || dst->dtype == PTO_INT32, PTO_ERR_UNSUPPORTED_DTYPE,
            "dst dtype %s is not one of a matrix multiply's (dst; a, b) triples %s",
            DtypeName(dst->dtype), kTriples)
      .SameDtype("b", b, "a", a)
      .Require(PairAccepted(dst->dtype, a->dtype), PTO_ERR_UNSUPPORTED_DTYPE,
               "(dst %s; a, b %s) is not one of a matrix multiply's (dst; a, b) triples %s",
               DtypeName(dst->dtype), DtypeName(a->dtype), kTriples);
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
  v.Require(o.src2->valid_rows >= 1 && o.src2->valid_cols == o.dst->valid_cols,
            PTO_ERR_SHAPE_MISMATCH,
            "bias valid region %ux%u is not one row (or more) of dst valid cols %u",
            o.src2->valid_rows, o.src2->valid_cols, o.dst->valid_cols);
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
  const pto_tile *a = o.src0, *b = o.src1, *bias = o.src2;
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
  if (seed == Seed::kBias) v.NotNull("bias", o.src2);
  if (!v.ok()) return v.status();
  if (profile != PTO_PROFILE_HOST && !o.cube_placements_checked)
    CheckPlacements(v, o, profile, seed);
  CheckDtypesApart(v, o, seed);
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
      memcpy(Offset(dst, static_cast<uint32_t>(i), 0).data, o.src2->data, row_bytes);
  }
  kernels::Matmul(a->dtype, m, k, n, Offset(dst, 0, 0), Offset(a, 0, 0), Offset(b, 0, 0),
                  seed == Seed::kZero);
}

// A rows x cols row-major tile on the next bytes of the staging, holding
// t's valid region from (0, 0) in its values unless `empty`.
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

// Operands in a fractal layout (or windows), or inputs a cube mode rounds:
// the row-major run on copies of the valid regions (dst's as it was for
// tmatmul_acc, bias's row 0; a and b rounded to the mode's format), dst's
// valid region written back in its layout.
void RunMatmul(const Operands& o, Seed seed, pto_profile profile) {
  const bool rounded = InputsRounded(o, profile);
  if (RowMajorOperands(o) && !rounded) return RunRowMajor(o, seed);
  pto_tile* dst = o.dst;
  const uint32_t m = o.src0->valid_rows, n = o.src1->valid_cols, k = o.src0->valid_cols;
  char* next = staging.data;
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
  const pto_tile sbias = seed == Seed::kBias ? Staged(o.src2, 1, n, &next, false) : pto_tile{};
  Operands staged{&sd, &sa, &sb, nullptr, 0};
  staged.src2 = seed == Seed::kBias ? &sbias : nullptr;
  RunRowMajor(staged, seed);
  CopyRegion(TileLayout(dst), static_cast<char*>(dst->data), dst->origin_row, dst->origin_col,
             RowMajorLayout(m, n), static_cast<const char*>(sd.data), 0, 0, m, n,
             pto_dtype_size(dst->dtype));
}

// The MX matrix multiplies (TMATMUL_MX, TMATMUL_MX_ACC, TGEMV_MX,
// TGEMV_MX_ACC and the bias forms): Operands src0 a, src1 a_scale, src2 b,
// src3 b_scale, src4 the bias forms' bias (null elsewhere).

bool IsFp8(pto_dtype t) { return t == PTO_FLOAT8_E4M3 || t == PTO_FLOAT8_E5M2; }
bool IsFp4(pto_dtype t) { return t == PTO_FLOAT4_E2M1X2 || t == PTO_FLOAT4_E1M2X2; }

constexpr const char* kMxPairs =
    "(FLOAT8_E4M3 or FLOAT8_E5M2; FLOAT8_E4M3 or FLOAT8_E5M2), (FLOAT4_E2M1X2 or FLOAT4_E1M2X2; "
    "FLOAT4_E2M1X2 or FLOAT4_E1M2X2)";

// Values per byte of an MX operand: 2 for the packed FLOAT4 types.
uint32_t PerByte(pto_dtype t) { return IsFp4(t) ? 2 : 1; }

// Under A5, each operand's place (pto-isa include/pto/npu/a5/TMatmul.hpp
// CheckMadMxValid: TileLeft NZ, TileRight ZN, TileAcc NZ; PTOAS's verifier:
// the left scale row_major/row_major (ZZ), the right scale col_major/col_major
// (NN), both loc=scaling).
void CheckMxPlacements(Validator& v, const Operands& o, pto_profile profile) {
  const Placement wants[5] = {{"a", PTO_LOC_LEFT, PTO_LAYOUT_NZ},
                              {"a_scale", PTO_LOC_SCALING, PTO_LAYOUT_ZZ},
                              {"b", PTO_LOC_RIGHT, PTO_LAYOUT_ZN},
                              {"b_scale", PTO_LOC_SCALING, PTO_LAYOUT_NN},
                              {"dst", PTO_LOC_ACC, PTO_LAYOUT_NZ}};
  const pto_tile* operands[5] = {o.src0, o.src1, o.src2, o.src3, o.dst};
  RequirePlaced(v, profile, wants, operands, 5);
  // The bias form's bias: a PTO_LOC_BIAS tile (pto-isa TMATMUL_MX.md "Bias
  // form": TileBias::Loc == TileType::Bias; such tiles are one row, as its
  // TileBias::Rows == 1 asks, by pto_tile_create_cube's rule).
  if (o.src4 == nullptr) return;
  const Placement bias = {"bias", PTO_LOC_BIAS, PTO_LAYOUT_ND};
  RequirePlaced(v, profile, &bias, &o.src4, 1);
}

// dst FLOAT32 (no A2A3 form), a and b both FLOAT8 or both FLOAT4, the scales
// FLOAT8_E8M0; then dst apart from every source.
void CheckMxDtypesApart(Validator& v, const Operands& o, pto_profile profile) {
  const pto_tile *a = o.src0, *as = o.src1, *b = o.src2, *bs = o.src3;
  v.DtypeAccepted(OpDtypes::kTMatmulMx, profile, "dst", o.dst)
      .Require((IsFp8(a->dtype) && IsFp8(b->dtype)) || (IsFp4(a->dtype) && IsFp4(b->dtype)),
               PTO_ERR_UNSUPPORTED_DTYPE,
               "(a %s; b %s) is not one of an MX matrix multiply's (a; b) pairs %s",
               DtypeName(a->dtype), DtypeName(b->dtype), kMxPairs)
      .Require(as->dtype == PTO_FLOAT8_E8M0, PTO_ERR_UNSUPPORTED_DTYPE,
               "a_scale dtype %s is not FLOAT8_E8M0 (MX scales are e8m0 exponents)",
               DtypeName(as->dtype))
      .Require(bs->dtype == PTO_FLOAT8_E8M0, PTO_ERR_UNSUPPORTED_DTYPE,
               "b_scale dtype %s is not FLOAT8_E8M0 (MX scales are e8m0 exponents)",
               DtypeName(bs->dtype));
  if (o.src4 != nullptr) v.SameDtype("bias", o.src4, "dst", o.dst);
  const char* names[5] = {"a", "a_scale", "b", "b_scale", "bias"};
  const pto_tile* sources[5] = {a, as, b, bs, o.src4};
  const int count = o.src4 != nullptr ? 5 : 4;
  for (int i = 0; i < count; ++i) v.Distinct(names[i], sources[i], "dst", o.dst);
  for (int i = 0; i < count; ++i)
    v.Require(!ValidRegionsOverlap(sources[i], o.dst), PTO_ERR_ALIASING,
              "%s overlaps the storage of dst, which a matrix multiply writes while it reads %s",
              names[i], names[i]);
}

// The valid regions: M = a's valid rows (1 for GEMV), K = a's values per
// row = b's valid rows, N = b's values per row; dst M x N, a_scale M x
// ceil(K/32), b_scale ceil(K/32) x N. Under A5 the cube's 1 to 4095 and
// a's storage columns a multiple of 64 values (CheckMadMxValid's BASEK).
void CheckMxShapes(Validator& v, const Operands& o, pto_profile profile, Shape shape) {
  const pto_tile *a = o.src0, *as = o.src1, *b = o.src2, *bs = o.src3, *dst = o.dst;
  const uint32_t m = a->valid_rows, k = a->valid_cols * PerByte(a->dtype);
  const uint32_t n = b->valid_cols * PerByte(b->dtype), blocks = (k + 31) / 32;
  if (shape == Shape::kGemv)
    v.Require(m == 1, PTO_ERR_SHAPE_MISMATCH,
              "a valid rows %u: a GEMV multiplies one row (M = 1)", m);
  v.Require(dst->valid_rows == m, PTO_ERR_SHAPE_MISMATCH,
            "a valid rows %u differ from dst valid rows %u (M)", m, dst->valid_rows)
      .Require(b->valid_rows == k, PTO_ERR_SHAPE_MISMATCH,
               "a holds K = %u values per valid row (%u per byte), b %u valid rows", k,
               PerByte(a->dtype), b->valid_rows)
      .Require(dst->valid_cols == n, PTO_ERR_SHAPE_MISMATCH,
               "b holds N = %u values per valid row (%u per byte), dst %u valid cols", n,
               PerByte(b->dtype), dst->valid_cols)
      .Require(as->valid_rows == m && as->valid_cols == blocks, PTO_ERR_SHAPE_MISMATCH,
               "a_scale valid region %ux%u is not M x ceil(K/32) = %ux%u (one e8m0 scale per "
               "32 values of a row of a)",
               as->valid_rows, as->valid_cols, m, blocks)
      .Require(bs->valid_rows == blocks && bs->valid_cols == n, PTO_ERR_SHAPE_MISMATCH,
               "b_scale valid region %ux%u is not ceil(K/32) x N = %ux%u (one e8m0 scale per "
               "32 values of a column of b)",
               bs->valid_rows, bs->valid_cols, blocks, n);
  if (o.src4 != nullptr)
    v.Require(o.src4->valid_rows >= 1 && o.src4->valid_cols == n, PTO_ERR_SHAPE_MISMATCH,
              "bias valid region %ux%u is not one row (or more) of N = %u valid cols",
              o.src4->valid_rows, o.src4->valid_cols, n);
  if (profile == PTO_PROFILE_HOST || !v.ok()) return;
  v.Require(a->cols * PerByte(a->dtype) % 64 == 0, PTO_ERR_SHAPE_MISMATCH,
            "under %s a's columns hold %u values, not a multiple of 64 (the MX cube takes K "
            "in blocks of 64)",
            pto_profile_string(profile), a->cols * PerByte(a->dtype));
  const uint32_t dims[3] = {m, k, n};
  const char* dim_names[3] = {"M", "K", "N"};
  for (int i = 0; i < 3; ++i)
    v.Require(dims[i] >= 1 && dims[i] <= 4095, PTO_ERR_SHAPE_MISMATCH,
              "%s = %u is outside the cube's 1 to 4095 under %s", dim_names[i], dims[i],
              pto_profile_string(profile));
}

bool RowMajorMx(const Operands& o) {
  return IsRowMajorFromData(o.dst) && IsRowMajorFromData(o.src0) &&
         IsRowMajorFromData(o.src1) && IsRowMajorFromData(o.src2) && IsRowMajorFromData(o.src3) &&
         (o.src4 == nullptr || IsRowMajorFromData(o.src4));
}

size_t StagingBytesMx(const Operands& o) {
  size_t bytes = StagedBytes(o.dst->dtype, o.dst->valid_rows, o.dst->valid_cols);
  for (const pto_tile* t : {o.src0, o.src1, o.src2, o.src3})
    bytes += StagedBytes(t->dtype, t->valid_rows, t->valid_cols);
  if (o.src4 != nullptr) bytes += StagedBytes(o.src4->dtype, 1, o.src4->valid_cols);
  return bytes;
}

// dst, a, a_scale, b, b_scale under `profile`, in the contract's order:
// NULL handles; locations and layouts (A5); dtypes; aliasing; valid
// regions (and A5's shapes); the staging of operands in a fractal layout.
pto_status CheckMatmulMx(const Operands& o, pto_profile profile, const char* function,
                         Shape shape, Seed seed) {
  Validator v(function);
  v.NotNull("dst", o.dst).NotNull("a", o.src0).NotNull("a_scale", o.src1).NotNull("b", o.src2)
      .NotNull("b_scale", o.src3);
  if (seed == Seed::kBias) v.NotNull("bias", o.src4);
  if (!v.ok()) return v.status();
  if (profile == PTO_PROFILE_A5 && !o.cube_placements_checked) CheckMxPlacements(v, o, profile);
  CheckMxDtypesApart(v, o, profile);
  CheckMxShapes(v, o, profile, shape);
  if (v.ok() && !RowMajorMx(o) && !ReserveStaging(StagingBytesMx(o)))
    return Fail(PTO_ERR_OUT_OF_MEMORY, function,
                "cannot allocate %zu bytes to stage the operands' fractal layouts row-major",
                StagingBytesMx(o));
  return v.status();
}

// The MX kernel on row-major operands (dst seeded unless kDst).
void RunRowMajorMx(const Operands& o, Seed seed, bool hif4) {
  pto_tile* dst = o.dst;
  const size_t m = dst->valid_rows, n = dst->valid_cols;
  const size_t k = o.src0->valid_cols * PerByte(o.src0->dtype);
  if (seed == Seed::kZero)
    for (size_t i = 0; i < m; ++i)
      memset(Offset(dst, static_cast<uint32_t>(i), 0).data, 0, n * sizeof(float));
  if (seed == Seed::kBias)
    for (size_t i = 0; i < m; ++i)
      memcpy(Offset(dst, static_cast<uint32_t>(i), 0).data, o.src4->data, n * sizeof(float));
  if (hif4)
    return kernels::MatmulMxHif4(m, k, n, Offset(dst, 0, 0), Offset(o.src0, 0, 0),
                                 Offset(o.src1, 0, 0), Offset(o.src2, 0, 0), Offset(o.src3, 0, 0));
  kernels::MatmulMx(o.src0->dtype, o.src2->dtype, m, k, n, Offset(dst, 0, 0), Offset(o.src0, 0, 0),
                    Offset(o.src1, 0, 0), Offset(o.src2, 0, 0), Offset(o.src3, 0, 0));
}

// The MX kernel (HiFloat4's with hif4) on any layouts: fractal operands
// staged row-major first.
void RunMatmulMx(const Operands& o, Seed seed, bool hif4 = false) {
  if (RowMajorMx(o)) return RunRowMajorMx(o, seed, hif4);
  pto_tile* dst = o.dst;
  char* next = staging.data;
  const pto_tile* in[4] = {o.src0, o.src1, o.src2, o.src3};
  pto_tile staged[4];
  for (int i = 0; i < 4; ++i)
    staged[i] = Staged(in[i], in[i]->valid_rows, in[i]->valid_cols, &next, false);
  const uint32_t m = dst->valid_rows, n = dst->valid_cols;
  pto_tile sd = Staged(dst, m, n, &next, seed != Seed::kDst);
  const pto_tile sbias = seed == Seed::kBias ? Staged(o.src4, 1, n, &next, false) : pto_tile{};
  Operands s{&sd, &staged[0], &staged[1], nullptr, 0};
  s.src2 = &staged[2];
  s.src3 = &staged[3];
  s.src4 = seed == Seed::kBias ? &sbias : nullptr;
  RunRowMajorMx(s, seed, hif4);
  CopyRegion(TileLayout(dst), static_cast<char*>(dst->data), dst->origin_row, dst->origin_col,
             RowMajorLayout(m, n), static_cast<const char*>(sd.data), 0, 0, m, n,
             pto_dtype_size(dst->dtype));
}

}  // namespace

pto_status CheckTMatmulMx(const Operands& o, pto_profile profile) {
  return CheckMatmulMx(o, profile, "pto_tmatmul_mx", Shape::kMatmul, Seed::kZero);
}
void RunTMatmulMx(const Operands& o, pto_profile) { RunMatmulMx(o, Seed::kZero); }

pto_status CheckTMatmulMxAcc(const Operands& o, pto_profile profile) {
  return CheckMatmulMx(o, profile, "pto_tmatmul_mx_acc", Shape::kMatmul, Seed::kDst);
}
void RunTMatmulMxAcc(const Operands& o, pto_profile) { RunMatmulMx(o, Seed::kDst); }

pto_status CheckTGemvMx(const Operands& o, pto_profile profile) {
  return CheckMatmulMx(o, profile, "pto_tgemv_mx", Shape::kGemv, Seed::kZero);
}
void RunTGemvMx(const Operands& o, pto_profile) { RunMatmulMx(o, Seed::kZero); }

pto_status CheckTGemvMxAcc(const Operands& o, pto_profile profile) {
  return CheckMatmulMx(o, profile, "pto_tgemv_mx_acc", Shape::kGemv, Seed::kDst);
}
void RunTGemvMxAcc(const Operands& o, pto_profile) { RunMatmulMx(o, Seed::kDst); }

pto_status CheckTMatmulMxBias(const Operands& o, pto_profile profile) {
  return CheckMatmulMx(o, profile, "pto_tmatmul_mx_bias", Shape::kMatmul, Seed::kBias);
}
void RunTMatmulMxBias(const Operands& o, pto_profile) { RunMatmulMx(o, Seed::kBias); }

pto_status CheckTGemvMxBias(const Operands& o, pto_profile profile) {
  return CheckMatmulMx(o, profile, "pto_tgemv_mx_bias", Shape::kGemv, Seed::kBias);
}
void RunTGemvMxBias(const Operands& o, pto_profile) { RunMatmulMx(o, Seed::kBias); }
// ---- TMATMUL_MX_HIF4 (pto_tmatmul_mx_hif4, not a row) ----------------------

namespace {

// dst FLOAT32, a and b FLOAT4_E1M2X2 codes, the scales UINT32 metadata words;
// A2A3 and A5 have no HiFloat4 (pto-isa's A6 instruction).
void CheckHif4DtypesApart(Validator& v, const Operands& o, pto_profile profile) {
  const pto_tile *a = o.src0, *as = o.src1, *b = o.src2, *bs = o.src3;
  v.Require(profile == PTO_PROFILE_HOST, PTO_ERR_UNSUPPORTED_DTYPE,
            "%s has no HiFloat4 matrix multiply (TMATMUL_MX_HIF4 is pto-isa's A6 instruction; "
            "PTO_PROFILE_HOST computes it)",
            pto_profile_string(profile))
      .Require(o.dst->dtype == PTO_FLOAT32, PTO_ERR_UNSUPPORTED_DTYPE,
               "dst dtype %s is not FLOAT32 (the cube accumulates HiFloat4 products in float32)",
               DtypeName(o.dst->dtype));
  const char* names[4] = {"a", "a_scale", "b", "b_scale"};
  const pto_tile* sources[4] = {a, as, b, bs};
  for (int i = 0; i < 4; ++i) {
    const bool scale = i % 2 == 1;
    v.Require(sources[i]->dtype == (scale ? PTO_UINT32 : PTO_FLOAT4_E1M2X2),
              PTO_ERR_UNSUPPORTED_DTYPE, "%s dtype %s is not %s", names[i],
              DtypeName(sources[i]->dtype),
              scale ? "UINT32 (one HiFloat4 metadata word per 64 values of K)"
                    : "FLOAT4_E1M2X2 (HiFloat4's element codes)");
  }
  for (int i = 0; i < 4; ++i) v.Distinct(names[i], sources[i], "dst", o.dst);
  for (int i = 0; i < 4; ++i)
    v.Require(!ValidRegionsOverlap(sources[i], o.dst), PTO_ERR_ALIASING,
              "%s overlaps the storage of dst, which a matrix multiply writes while it reads %s",
              names[i], names[i]);
}

// M = a's valid rows, K = a's values per row (2 a byte) = b's valid rows,
// N = b's values per row = dst's valid cols; a_scale M x ceil(K/64),
// b_scale ceil(K/64) x N.
void CheckHif4Shapes(Validator& v, const Operands& o) {
  const pto_tile *a = o.src0, *as = o.src1, *b = o.src2, *bs = o.src3, *dst = o.dst;
  const uint32_t m = a->valid_rows, k = a->valid_cols * 2, n = b->valid_cols * 2;
  const uint32_t groups = (k + 63) / 64;
  v.Require(dst->valid_rows == m, PTO_ERR_SHAPE_MISMATCH,
            "a valid rows %u differ from dst valid rows %u (M)", m, dst->valid_rows)
      .Require(b->valid_rows == k, PTO_ERR_SHAPE_MISMATCH,
               "a holds K = %u values per valid row (2 per byte), b %u valid rows", k,
               b->valid_rows)
      .Require(dst->valid_cols == n, PTO_ERR_SHAPE_MISMATCH,
               "b holds N = %u values per valid row (2 per byte), dst %u valid cols", n,
               dst->valid_cols)
      .Require(as->valid_rows == m && as->valid_cols == groups, PTO_ERR_SHAPE_MISMATCH,
               "a_scale valid region %ux%u is not M x ceil(K/64) = %ux%u (one metadata word "
               "per 64 values of a row of a)",
               as->valid_rows, as->valid_cols, m, groups)
      .Require(bs->valid_rows == groups && bs->valid_cols == n, PTO_ERR_SHAPE_MISMATCH,
               "b_scale valid region %ux%u is not ceil(K/64) x N = %ux%u (one metadata word "
               "per 64 values of a column of b)",
               bs->valid_rows, bs->valid_cols, groups, n);
}

}  // namespace

pto_status CheckTMatmulMxHif4(const Operands& o, pto_profile profile) {
  static const char* const kFunction = "pto_tmatmul_mx_hif4";
  Validator v(kFunction);
  v.NotNull("dst", o.dst).NotNull("a", o.src0).NotNull("a_scale", o.src1).NotNull("b", o.src2)
      .NotNull("b_scale", o.src3);
  if (!v.ok()) return v.status();
  CheckHif4DtypesApart(v, o, profile);
  if (v.ok()) CheckHif4Shapes(v, o);
  if (v.ok() && !RowMajorMx(o) && !ReserveStaging(StagingBytesMx(o)))
    return Fail(PTO_ERR_OUT_OF_MEMORY, kFunction,
                "cannot allocate %zu bytes to stage the operands' fractal layouts row-major",
                StagingBytesMx(o));
  return v.status();
}
void RunTMatmulMxHif4(const Operands& o) { RunMatmulMx(o, Seed::kZero, true); }

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

extern "C" {

pto_status pto_tmatmul_mx_hif4(pto_tile* dst, const pto_tile* a, const pto_tile* a_scale,
                               const pto_tile* b, const pto_tile* b_scale) {
  pto::ops::Operands o{dst, a, a_scale, nullptr, 0};
  o.src2 = b;
  o.src3 = b_scale;
  const pto_status status = pto::ops::CheckTMatmulMxHif4(o, pto::CurrentProfile());
  if (status != PTO_OK) return status;
  // tmatmul's float32 chains: each step a fused multiply-add rounded once.
  const pto::FloatEnvironmentGuard float_env(true);
  pto::ops::RunTMatmulMxHif4(o);
  return PTO_OK;
}

}  // extern "C"
