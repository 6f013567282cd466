// The five tile instructions: validate every rule, then hand the dst valid
// region to a kernel. Kernels never see invalid arguments.
#include "float_env.h"
#include "kernels/kernels.h"
#include "profile.h"
#include "pto_c.h"
#include "tile.h"
#include "validate.h"

namespace {

using pto::ConstPlaneOf;
using pto::OpDtypes;
using pto::PlaneOf;
using pto::Validator;

bool IsEmptyRegion(const pto_tile* t) { return t->valid_rows == 0 || t->valid_cols == 0; }

bool RegionFits(const pto_tile* inner, const pto_tile* outer) {
  return inner->valid_rows <= outer->valid_rows && inner->valid_cols <= outer->valid_cols;
}

bool SameRegion(const pto_tile* a, const pto_tile* b) {
  return a->valid_rows == b->valid_rows && a->valid_cols == b->valid_cols;
}

// Moves a plane by (row, col) elements of its tile's dtype.
pto::kernels::ConstPlane Offset(const pto_tile* t, uint32_t row, uint32_t col) {
  const char* base = static_cast<const char*>(t->data);
  return {base + (static_cast<size_t>(row) * t->cols + col) * pto_dtype_size(t->dtype), t->cols};
}
pto::kernels::Plane Offset(pto_tile* t, uint32_t row, uint32_t col) {
  char* base = static_cast<char*>(t->data);
  return {base + (static_cast<size_t>(row) * t->cols + col) * pto_dtype_size(t->dtype), t->cols};
}

}  // namespace

extern "C" {

pto_status pto_tpow(pto_tile* dst, const pto_tile* base, const pto_tile* exp, pto_tile* tmp,
                    pto_pow_algorithm algo) {
  const pto_profile profile = pto::CurrentProfile();
  Validator v("pto_tpow");
  v.NotNull("dst", dst).NotNull("base", base).NotNull("exp", exp).NotNull("tmp", tmp);
  v.EnumInRange("algo", pto::RawEnumValue(algo), 2);
  if (!v.ok()) return v.status();
  // The A2A3 page: "the precision option is ignored" there, so HIGH_PRECISION
  // computes exactly what DEFAULT computes. (Decided here, so that neither
  // the profile nor algo stays live through the checks.)
  const pto_pow_algorithm computed = profile == PTO_PROFILE_A2A3 ? PTO_POW_DEFAULT : algo;
  const bool high_precision = algo == PTO_POW_HIGH_PRECISION;
  v.DtypeAccepted(high_precision ? OpDtypes::kPowHighPrecision : OpDtypes::kPowDefault, profile,
                  "dst", dst)
      .SameDtype("base", base, "dst", dst)
      .SameDtype("exp", exp, "dst", dst)
      .SameDtype("tmp", tmp, "dst", dst)
      .Distinct("tmp", tmp, "dst", dst)
      .Distinct("tmp", tmp, "base", base)
      .Distinct("tmp", tmp, "exp", exp)
      .InPlaceOrApart("base", base, dst)
      .InPlaceOrApart("exp", exp, dst)
      .SameValidRegion("base", base, "dst", dst)
      .SameValidRegion("exp", exp, "dst", dst)
      .SameValidRegion("tmp", tmp, "dst", dst);
  if (!v.ok() || IsEmptyRegion(dst)) return v.status();
  const pto::FloatEnvironmentGuard float_env(pto::IsFloatDtype(dst->dtype));
  pto::kernels::Pow(dst->dtype, computed, dst->valid_rows, dst->valid_cols, PlaneOf(dst),
                    ConstPlaneOf(base), ConstPlaneOf(exp));
  return PTO_OK;
}

pto_status pto_trsqrt(pto_tile* dst, const pto_tile* src) {
  const pto_profile profile = pto::CurrentProfile();
  Validator v("pto_trsqrt");
  v.NotNull("dst", dst).NotNull("src", src);
  if (!v.ok()) return v.status();
  v.DtypeAccepted(OpDtypes::kRsqrt, profile, "dst", dst)
      .SameDtype("src", src, "dst", dst)
      .InPlaceOrApart("src", src, dst)
      .SameValidRegion("src", src, "dst", dst);
  if (!v.ok() || IsEmptyRegion(dst)) return v.status();
  const pto::FloatEnvironmentGuard float_env(pto::IsFloatDtype(dst->dtype));
  pto::kernels::Rsqrt(dst->dtype, dst->valid_rows, dst->valid_cols, PlaneOf(dst),
                      ConstPlaneOf(src));
  return PTO_OK;
}

pto_status pto_tprelu(pto_tile* dst, const pto_tile* src0, const pto_tile* src1,
                      pto_tile* tmp) {
  const pto_profile profile = pto::CurrentProfile();
  // A2A3 (README.md, "Target profiles"): the A3 page's "2 source Tile,
  // destination Tile, temporary space must in different memory range without
  // overlapping" and tmp valid_rows >= dst valid_cols + 1; the NPU
  // implementation's UINT8 tmp holding a one-bit-per-element mask in
  // ceil(dst valid_cols / 8) columns, plus one physical scratch row.
  const bool a2a3 = profile == PTO_PROFILE_A2A3;
  static const char kA2A3Apart[] = "dst, src0, src1 and tmp must not overlap";
  Validator v("pto_tprelu");
  v.NotNull("dst", dst).NotNull("src0", src0).NotNull("src1", src1);
  if (a2a3) {
    v.Require(tmp != nullptr, PTO_ERR_NULL_ARGUMENT, "tmp is NULL, but on %s tprelu needs a tmp",
              pto_profile_string(profile));
  }
  if (!v.ok()) return v.status();
  v.DtypeAccepted(OpDtypes::kPrelu, profile, "dst", dst)
      .SameDtype("src0", src0, "dst", dst)
      .SameDtype("src1", src1, "dst", dst);
  if (tmp != nullptr) {
    v.DtypeAccepted(OpDtypes::kPreluTmp, profile, "tmp", tmp)
        .Distinct("tmp", tmp, "dst", dst)
        .Distinct("tmp", tmp, "src0", src0)
        .Distinct("tmp", tmp, "src1", src1);
  }
  v.InPlaceOrApart("src0", src0, dst).InPlaceOrApart("src1", src1, dst);
  if (a2a3) {
    v.ApartOn(profile, kA2A3Apart, "src0", src0, "dst", dst)
        .ApartOn(profile, kA2A3Apart, "src1", src1, "dst", dst)
        .ApartOn(profile, kA2A3Apart, "src1", src1, "src0", src0)
        .ApartOn(profile, kA2A3Apart, "tmp", tmp, "dst", dst)
        .ApartOn(profile, kA2A3Apart, "tmp", tmp, "src0", src0)
        .ApartOn(profile, kA2A3Apart, "tmp", tmp, "src1", src1);
  }
  v.SameValidRegion("src0", src0, "dst", dst).SameValidRegion("src1", src1, "dst", dst);
  if (a2a3) {
    const uint32_t mask_cols = dst->valid_cols / 8 + (dst->valid_cols % 8 != 0);
    v.Require(uint64_t{tmp->valid_rows} >= uint64_t{dst->valid_cols} + 1, PTO_ERR_SHAPE_MISMATCH,
              "tmp valid rows %u is less than dst valid cols %u + 1, which A2A3 requires",
              tmp->valid_rows, dst->valid_cols)
        .Require(uint64_t{tmp->rows} >= uint64_t{dst->valid_rows} + 1, PTO_ERR_SHAPE_MISMATCH,
                 "tmp rows %u is less than dst valid rows %u + 1, which A2A3 requires",
                 tmp->rows, dst->valid_rows)
        .Require(tmp->valid_cols >= mask_cols, PTO_ERR_SHAPE_MISMATCH,
                 "tmp valid cols %u is less than ceil(dst valid cols %u / 8) = %u, which A2A3 "
                 "requires",
                 tmp->valid_cols, dst->valid_cols, mask_cols);
  }
  if (!v.ok() || IsEmptyRegion(dst)) return v.status();
  const pto::FloatEnvironmentGuard float_env(pto::IsFloatDtype(dst->dtype));
  pto::kernels::Prelu(dst->dtype, dst->valid_rows, dst->valid_cols, PlaneOf(dst),
                      ConstPlaneOf(src0), ConstPlaneOf(src1));
  return PTO_OK;
}

pto_status pto_tcolexpanddiv(pto_tile* dst, const pto_tile* src0, const pto_tile* src1) {
  const pto_profile profile = pto::CurrentProfile();
  Validator v("pto_tcolexpanddiv");
  v.NotNull("dst", dst).NotNull("src0", src0).NotNull("src1", src1);
  if (!v.ok()) return v.status();
  v.DtypeAccepted(OpDtypes::kColExpandDiv, profile, "dst", dst)
      .SameDtype("src0", src0, "dst", dst)
      .SameDtype("src1", src1, "dst", dst)
      .InPlaceOrApart("src0", src0, dst)
      .InPlaceOrApart("src1", src1, dst)
      .SameValidRegion("src0", src0, "dst", dst);
  if (!v.ok()) return v.status();
  v.Require(src1->valid_rows >= 1, PTO_ERR_SHAPE_MISMATCH,
            "src1 valid region %ux%u has no row 0 to divide by", src1->valid_rows,
            src1->valid_cols)
      .Require(src1->valid_cols >= dst->valid_cols, PTO_ERR_SHAPE_MISMATCH,
               "src1 valid cols %u is less than dst valid cols %u", src1->valid_cols,
               dst->valid_cols);
  if (!v.ok() || IsEmptyRegion(dst)) return v.status();
  // src1 is dst itself or placed exactly on it, or apart from dst's valid
  // region: the kernel writes row 0 last, so the divisor row is read intact.
  const pto::FloatEnvironmentGuard float_env(pto::IsFloatDtype(dst->dtype));
  pto::kernels::ColExpandDiv(dst->dtype, dst->valid_rows, dst->valid_cols, PlaneOf(dst),
                             ConstPlaneOf(src0), src1->data);
  return PTO_OK;
}

pto_status pto_tpartadd(pto_tile* dst, const pto_tile* src0, const pto_tile* src1) {
  const pto_profile profile = pto::CurrentProfile();
  Validator v("pto_tpartadd");
  v.NotNull("dst", dst).NotNull("src0", src0).NotNull("src1", src1);
  if (!v.ok()) return v.status();
  v.DtypeAccepted(OpDtypes::kPartAdd, profile, "dst", dst)
      .SameDtype("src0", src0, "dst", dst)
      .SameDtype("src1", src1, "dst", dst)
      .InPlaceOrApart("src0", src0, dst)
      .InPlaceOrApart("src1", src1, dst);
  if (!v.ok()) return v.status();
  const bool src0_full = SameRegion(src0, dst) && RegionFits(src1, dst);
  const bool src1_full = SameRegion(src1, dst) && RegionFits(src0, dst);
  v.Require(src0_full || src1_full, PTO_ERR_SHAPE_MISMATCH,
            "src0 valid region %ux%u and src1 valid region %ux%u do not fit dst valid region "
            "%ux%u: one must equal it and the other must not exceed it",
            src0->valid_rows, src0->valid_cols, src1->valid_rows, src1->valid_cols,
            dst->valid_rows, dst->valid_cols);
  if (!v.ok() || IsEmptyRegion(dst)) return v.status();

  // `full` covers dst's whole valid region; `part` its top-left corner. The
  // corner is summed, the rest of dst is a copy of `full`.
  const pto::FloatEnvironmentGuard float_env(pto::IsFloatDtype(dst->dtype));
  const pto_tile* full = src0_full ? src0 : src1;
  const pto_tile* part = src0_full ? src1 : src0;
  const pto_dtype dtype = dst->dtype;
  const uint32_t rows = dst->valid_rows, cols = dst->valid_cols;
  const uint32_t part_rows = part->valid_rows, part_cols = part->valid_cols;
  if (part_rows > 0 && part_cols > 0) {
    pto::kernels::Add(dtype, part_rows, part_cols, PlaneOf(dst), ConstPlaneOf(src0),
                      ConstPlaneOf(src1));
  }
  if (!pto::SamePlacement(full, dst)) {
    if (part_cols < cols && part_rows > 0) {
      pto::kernels::Copy(dtype, part_rows, cols - part_cols, Offset(dst, 0, part_cols),
                         Offset(full, 0, part_cols));
    }
    if (part_rows < rows) {
      pto::kernels::Copy(dtype, rows - part_rows, cols, Offset(dst, part_rows, 0),
                         Offset(full, part_rows, 0));
    }
  }
  return PTO_OK;
}

}  // extern "C"
