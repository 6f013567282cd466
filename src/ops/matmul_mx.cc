// The MX matrix multiplies TMATMUL_MX, TMATMUL_MX_ACC, TGEMV_MX, TGEMV_MX_ACC
// and their bias forms (FLOAT8/FLOAT4 operands, e8m0 scale tiles in
// PTO_LOC_SCALING), and TMATMUL_MX_HIF4 (HiFloat4, HOST only, no text
// form): their rules and runs (the kernels are kernels/matmul.cc's
// MatmulMx and MatmulMxHif4). Operands in a fractal layout are staged
// row-major first, as matmul.cc stages the plain rows'.
#include <string.h>

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
  const pto_tile* operands[5] = {o.src0, o.src1, o.ext->src2, o.ext->src3, o.dst};
  RequirePlaced(v, profile, wants, operands, 5);
  // The bias form's bias: a PTO_LOC_BIAS tile (pto-isa TMATMUL_MX.md "Bias
  // form": TileBias::Loc == TileType::Bias; such tiles are one row, as its
  // TileBias::Rows == 1 asks, by pto_tile_create_cube's rule).
  if (o.ext->src4 == nullptr) return;
  const Placement bias = {"bias", PTO_LOC_BIAS, PTO_LAYOUT_ND};
  RequirePlaced(v, profile, &bias, &o.ext->src4, 1);
}

// dst FLOAT32 (no A2A3 form), a and b both FLOAT8 or both FLOAT4, the scales
// FLOAT8_E8M0; then dst apart from every source.
void CheckMxDtypesApart(Validator& v, const Operands& o, pto_profile profile) {
  const pto_tile *a = o.src0, *as = o.src1, *b = o.ext->src2, *bs = o.ext->src3;
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
  if (o.ext->src4 != nullptr) v.SameDtype("bias", o.ext->src4, "dst", o.dst);
  const char* names[5] = {"a", "a_scale", "b", "b_scale", "bias"};
  const pto_tile* sources[5] = {a, as, b, bs, o.ext->src4};
  const int count = o.ext->src4 != nullptr ? 5 : 4;
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
  const pto_tile *a = o.src0, *as = o.src1, *b = o.ext->src2, *bs = o.ext->src3, *dst = o.dst;
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
  if (o.ext->src4 != nullptr)
    v.Require(o.ext->src4->valid_rows >= 1 && o.ext->src4->valid_cols == n, PTO_ERR_SHAPE_MISMATCH,
              "bias valid region %ux%u is not one row (or more) of N = %u valid cols",
              o.ext->src4->valid_rows, o.ext->src4->valid_cols, n);
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
         IsRowMajorFromData(o.src1) && IsRowMajorFromData(o.ext->src2) &&
         IsRowMajorFromData(o.ext->src3) &&
         (o.ext->src4 == nullptr || IsRowMajorFromData(o.ext->src4));
}

size_t StagingBytesMx(const Operands& o) {
  size_t bytes = StagedBytes(o.dst->dtype, o.dst->valid_rows, o.dst->valid_cols);
  for (const pto_tile* t : {o.src0, o.src1, o.ext->src2, o.ext->src3})
    bytes += StagedBytes(t->dtype, t->valid_rows, t->valid_cols);
  if (o.ext->src4 != nullptr) bytes += StagedBytes(o.ext->src4->dtype, 1, o.ext->src4->valid_cols);
  return bytes;
}

// dst, a, a_scale, b, b_scale under `profile`, in the contract's order:
// NULL handles; locations and layouts (A5); dtypes; aliasing; valid
// regions (and A5's shapes); the staging of operands in a fractal layout.
pto_status CheckMatmulMx(const Operands& o, pto_profile profile, const char* function,
                         Shape shape, Seed seed) {
  Validator v(function);
  v.NotNull("dst", o.dst).NotNull("a", o.src0).NotNull("a_scale", o.src1).NotNull("b", o.ext->src2)
      .NotNull("b_scale", o.ext->src3);
  if (seed == Seed::kBias) v.NotNull("bias", o.ext->src4);
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
  if (seed == Seed::kZero) {
    // One call where the rows are contiguous (a call per row costs a small
    // product a few percent).
    const kernels::Plane out = Offset(dst, 0, 0);
    if (out.stride == n) memset(out.data, 0, m * n * sizeof(float));
    else
      for (size_t i = 0; i < m; ++i)
        memset(Offset(dst, static_cast<uint32_t>(i), 0).data, 0, n * sizeof(float));
  }
  if (seed == Seed::kBias)
    for (size_t i = 0; i < m; ++i)
      memcpy(Offset(dst, static_cast<uint32_t>(i), 0).data, o.ext->src4->data, n * sizeof(float));
  if (hif4)
    return kernels::MatmulMxHif4(m, k, n, Offset(dst, 0, 0), Offset(o.src0, 0, 0),
                                 Offset(o.src1, 0, 0), Offset(o.ext->src2, 0, 0),
                                 Offset(o.ext->src3, 0, 0));
  kernels::MatmulMx(o.src0->dtype, o.ext->src2->dtype, m, k, n, Offset(dst, 0, 0),
                    Offset(o.src0, 0, 0), Offset(o.src1, 0, 0), Offset(o.ext->src2, 0, 0),
                    Offset(o.ext->src3, 0, 0));
}

// The MX kernel (HiFloat4's with hif4) on any layouts: fractal operands
// staged row-major first.
void RunMatmulMx(const Operands& o, Seed seed, bool hif4 = false) {
  if (RowMajorMx(o)) return RunRowMajorMx(o, seed, hif4);
  pto_tile* dst = o.dst;
  char* next = StagingStart();
  const pto_tile* in[4] = {o.src0, o.src1, o.ext->src2, o.ext->src3};
  pto_tile staged[4];
  for (int i = 0; i < 4; ++i)
    staged[i] = Staged(in[i], in[i]->valid_rows, in[i]->valid_cols, &next, false);
  const uint32_t m = dst->valid_rows, n = dst->valid_cols;
  pto_tile sd = Staged(dst, m, n, &next, seed != Seed::kDst);
  const pto_tile sbias = seed == Seed::kBias ? Staged(o.ext->src4, 1, n, &next, false) : pto_tile{};
  Operands s{&sd, &staged[0], &staged[1], nullptr, 0};
  OperandsExt s_ext;
  s_ext.src2 = &staged[2];
  s_ext.src3 = &staged[3];
  s_ext.src4 = seed == Seed::kBias ? &sbias : nullptr;
  s.ext = &s_ext;
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
// ---- TMATMUL_MX_HIF4 (pto_tmatmul_mx_hif4) ----------------------------------

namespace {

// dst FLOAT32, a and b FLOAT4_E1M2X2 codes, the scales UINT32 metadata words;
// A2A3 and A5 have no HiFloat4 (pto-isa's A6 instruction).
void CheckHif4DtypesApart(Validator& v, const Operands& o, pto_profile profile) {
  const pto_tile *a = o.src0, *as = o.src1, *b = o.ext->src2, *bs = o.ext->src3;
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
  const pto_tile *a = o.src0, *as = o.src1, *b = o.ext->src2, *bs = o.ext->src3, *dst = o.dst;
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

pto_status CheckTMatmulMXHif4(const Operands& o, pto_profile profile) {
  static const char* const kFunction = "pto_tmatmul_mx_hif4";
  Validator v(kFunction);
  v.NotNull("dst", o.dst).NotNull("a", o.src0).NotNull("a_scale", o.src1).NotNull("b", o.ext->src2)
      .NotNull("b_scale", o.ext->src3);
  if (!v.ok()) return v.status();
  CheckHif4DtypesApart(v, o, profile);
  if (v.ok()) CheckHif4Shapes(v, o);
  if (v.ok() && !RowMajorMx(o) && !ReserveStaging(StagingBytesMx(o)))
    return Fail(PTO_ERR_OUT_OF_MEMORY, kFunction,
                "cannot allocate %zu bytes to stage the operands' fractal layouts row-major",
                StagingBytesMx(o));
  return v.status();
}
// (In tmatmul's float32 chains, each step a fused multiply-add rounded
// once: the table runs it under IEEE defaults, dst being FLOAT32.)
void RunTMatmulMXHif4(const Operands& o, pto_profile) { RunMatmulMx(o, Seed::kZero, true); }

}  // namespace ops
}  // namespace pto
