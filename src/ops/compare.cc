// The compare and select instructions (TCMP, TCMPS, TSEL, TSELS): every rule
// of pto_c.h in its order under the calling thread's profile, then the
// kernels of kernels/compare.cc; the four are rows of operations.def (their
// checks and runs here, their C functions table.cc's). A mask is
// a UINT8 tile of ceil(C / 8) bytes per row for C compared columns.
#include "ops/common.h"

#include <stdio.h>

#include <stddef.h>
#include <stdint.h>

#include "dtype_rules.h"
#include "float_env.h"
#include "kernels/kernels.h"
#include "overlap.h"
#include "profile.h"
#include "pto_c.h"
#include "tile.h"
#include "validate.h"

namespace pto {
namespace {

constexpr int kCmpModeCount = 6;

const char* CmpModeName(int mode) {
  static const char* const kNames[kCmpModeCount] = {"PTO_CMP_EQ", "PTO_CMP_NE", "PTO_CMP_LT",
                                                    "PTO_CMP_GT", "PTO_CMP_GE", "PTO_CMP_LE"};
  return kNames[mode];
}

using ops::MaskBytes;

// A tile read while another is written, where the two must not share a byte
// of their valid elements (the same handle included).
Validator& Apart(Validator& v, const char* operand, const pto_tile* t, const char* other_name,
                 const pto_tile* other) {
  if (t == other && t->valid_rows != 0 && t->valid_cols != 0)
    return v.Distinct(operand, t, other_name, other);
  return v.Require(!ValidRegionsOverlap(t, other), PTO_ERR_ALIASING,
                   "%s storage overlaps %s storage", operand, other_name);
}

// The compares' dtype rules (mode already in range): the source's dtype
// under the profile, A2A3's INT32 modes, the mask's dtype.
void CheckCompare(Validator& v, pto_profile profile, OpDtypes rule, pto_tile* dst,
                  const pto_tile* src, const char* src_name, int mode) {
  v.DtypeAccepted(rule, profile, src_name, src);
  v.Require(!(profile == PTO_PROFILE_A2A3 && src->dtype == PTO_INT32 && mode != PTO_CMP_EQ &&
              mode != PTO_CMP_NE),
            PTO_ERR_UNSUPPORTED_DTYPE,
            "%s dtype INT32 is compared with PTO_CMP_EQ or PTO_CMP_NE only on A2A3 "
            "(mode %s)",
            src_name, CmpModeName(mode));
  v.DtypeAccepted(OpDtypes::kCompareMask, profile, "dst", dst);
}

void CheckMaskRegion(Validator& v, const pto_tile* dst, const pto_tile* src,
                     const char* src_name) {
  v.Require(dst->valid_rows == src->valid_rows && dst->valid_cols == MaskBytes(src->valid_cols),
            PTO_ERR_SHAPE_MISMATCH,
            "dst valid region %ux%u is not the mask of %s valid region %ux%u (%ux%u: "
            "ceil(cols / 8) bytes per row)",
            dst->valid_rows, dst->valid_cols, src_name, src->valid_rows, src->valid_cols,
            src->valid_rows, MaskBytes(src->valid_cols));
}

pto_status CheckTCmpOperands(pto_tile* dst, const pto_tile* src0, const pto_tile* src1, int mode,
                             pto_profile profile) {
  Validator v("pto_tcmp");
  v.NotNull("dst", dst).NotNull("src0", src0).NotNull("src1", src1);
  v.EnumInRange("mode", mode, kCmpModeCount);
  if (!v.ok()) return v.status();
  CheckCompare(v, profile, OpDtypes::kTCmp, dst, src0, "src0", mode);
  v.SameDtype("src1", src1, "src0", src0);
  v.SameValidRegion("src1", src1, "src0", src0);
  CheckMaskRegion(v, dst, src0, "src0");
  Apart(v, "src0", src0, "dst", dst);
  Apart(v, "src1", src1, "dst", dst);
  return v.status();
}

pto_status CheckTCmpsOperands(pto_tile* dst, const pto_tile* src, double scalar, int mode,
                              pto_profile profile) {
  Validator v("pto_tcmps");
  v.NotNull("dst", dst).NotNull("src", src);
  v.EnumInRange("mode", mode, kCmpModeCount);
  if (!v.ok()) return v.status();
  CheckCompare(v, profile, OpDtypes::kTCmps, dst, src, "src", mode);
  if (!v.ok()) return v.status();
  ops::RequireScalarOf(v, "scalar", scalar, "src", src->dtype);
  CheckMaskRegion(v, dst, src, "src");
  Apart(v, "src", src, "dst", dst);
  return v.status();
}

// The selects' mask covers dst's valid region.
void CheckMaskRegion(Validator& v, const pto_tile* dst, const pto_tile* mask) {
  v.Require(mask->valid_rows >= dst->valid_rows && mask->valid_cols >= MaskBytes(dst->valid_cols),
            PTO_ERR_SHAPE_MISMATCH,
            "mask valid region %ux%u is smaller than the mask of dst valid region %ux%u (%ux%u: "
            "ceil(cols / 8) bytes per row)",
            mask->valid_rows, mask->valid_cols, dst->valid_rows, dst->valid_cols,
            dst->valid_rows, MaskBytes(dst->valid_cols));
}

// A2A3's tmp: a handle of its own.
void CheckA2A3Tmp(Validator& v, const pto_tile* tmp, const pto_tile* dst, const pto_tile* mask,
                  const pto_tile* src0, const pto_tile* src1) {
  v.Distinct("tmp", tmp, "dst", dst).Distinct("tmp", tmp, "mask", mask);
  v.Distinct("tmp", tmp, src1 != nullptr ? "src0" : "src", src0);
  if (src1 != nullptr) v.Distinct("tmp", tmp, "src1", src1);
}

pto_status CheckTselRules(pto_tile* dst, const pto_tile* mask, const pto_tile* src0,
                          const pto_tile* src1, const pto_tile* tmp, pto_profile profile) {
  Validator v("pto_tsel");
  v.OnVec("dst", dst).OnVec("mask", mask).OnVec("src0", src0).OnVec("src1", src1).OnVec("tmp", tmp);
  v.NotNull("dst", dst).NotNull("mask", mask).NotNull("src0", src0).NotNull("src1", src1);
  const bool a2a3 = profile == PTO_PROFILE_A2A3;
  if (a2a3) v.NotNull("tmp", tmp);
  if (!v.ok()) return v.status();
  v.DtypeAccepted(OpDtypes::kTSel, profile, "dst", dst);
  v.DtypeAccepted(OpDtypes::kCompareMask, profile, "mask", mask);
  v.SameDtype("src0", src0, "dst", dst).SameDtype("src1", src1, "dst", dst);
  if (a2a3) {
    v.Require(tmp->dtype == PTO_UINT32, PTO_ERR_UNSUPPORTED_DTYPE,
              "tmp dtype %s is not supported on A2A3 (UINT32)",
              DtypeName(tmp->dtype));
  }
  CheckMaskRegion(v, dst, mask);
  v.SameValidRegion("src0", src0, "dst", dst).SameValidRegion("src1", src1, "dst", dst);
  if (a2a3 && v.ok()) {
    const uint32_t need = ElementBytes(dst->dtype) == 2 ? 4 : 2;
    v.Require(tmp->valid_rows >= 1 && tmp->valid_cols >= need, PTO_ERR_SHAPE_MISMATCH,
              "tmp valid region %ux%u holds fewer than %u mask words, which A2A3 requires",
              tmp->valid_rows, tmp->valid_cols, need);
  }
  v.InPlaceOrApart("src0", src0, dst).InPlaceOrApart("src1", src1, dst);
  Apart(v, "mask", mask, "dst", dst);
  if (a2a3) CheckA2A3Tmp(v, tmp, dst, mask, src0, src1);
  return v.status();
}

pto_status CheckTSelsOperands(pto_tile* dst, const pto_tile* mask, const pto_tile* src,
                              const pto_tile* tmp, double scalar, pto_profile profile) {
  Validator v("pto_tsels");
  v.NotNull("dst", dst).NotNull("mask", mask).NotNull("src", src);
  const bool a2a3 = profile == PTO_PROFILE_A2A3;
  if (a2a3) v.NotNull("tmp", tmp);
  if (!v.ok()) return v.status();
  v.DtypeAccepted(OpDtypes::kTSels, profile, "dst", dst);
  v.DtypeAccepted(OpDtypes::kCompareMask, profile, "mask", mask);
  v.SameDtype("src", src, "dst", dst);
  if (a2a3) v.SameDtype("tmp", tmp, "dst", dst);
  if (!v.ok()) return v.status();
  ops::RequireScalarOf(v, "scalar", scalar, "dst", dst->dtype);
  CheckMaskRegion(v, dst, mask);
  v.SameValidRegion("src", src, "dst", dst);
  if (a2a3) {
    v.Require(tmp->valid_rows >= 1 && tmp->valid_cols >= 1, PTO_ERR_SHAPE_MISMATCH,
              "tmp valid region %ux%u holds no element for the scalar, which A2A3 requires",
              tmp->valid_rows, tmp->valid_cols);
  }
  v.InPlaceOrApart("src", src, dst);
  Apart(v, "mask", mask, "dst", dst);
  if (a2a3) CheckA2A3Tmp(v, tmp, dst, mask, src, nullptr);
  return v.status();
}

}  // namespace
}  // namespace pto

// The rows of operations.def (table.cc defines their C functions): the
// operands as the table passes them (tsel, tsels: src0 the mask).
namespace pto {
namespace ops {

pto_status CheckTCmp(const Operands& o, pto_profile profile) {
  return CheckTCmpOperands(o.dst, o.src0, o.src1, o.attr, profile);
}

// PTOAS's verifier under A5: the compared tiles and the mask have one
// shape (rows x cols as declared).
bool TextRulesTCmp(const TextOperands& o, char* sentence, size_t size) {
  if (o.profile != PTO_PROFILE_A5) return true;
  for (const TextTile& s : {o.sources[0], o.sources[1]}) {
    if (s.rows != o.dst.rows || s.cols != o.dst.cols) {
      snprintf(sentence, size,
               "tcmp's mask shape %ux%u differs from its sources' %ux%u (PTOAS's rule under A5)",
               o.dst.rows, o.dst.cols, s.rows, s.cols);
      return false;
    }
  }
  return true;
}

void RunTCmp(const Operands& o, pto_profile) {
  const pto_tile* src0 = o.src0;
  if (ops::IsEmptyRegion(src0)) return;
  // (table.cc's run keeps IEEE defaults: subnormals compare as themselves.)
  kernels::Compare(static_cast<pto_cmp_mode>(o.attr), src0->dtype, src0->valid_rows,
                   src0->valid_cols, PlaneOf(o.dst), ConstPlaneOf(src0), ConstPlaneOf(o.src1));
}

pto_status CheckTCmps(const Operands& o, pto_profile profile) {
  return CheckTCmpsOperands(o.dst, o.src0, o.scalar, o.attr, profile);
}

void RunTCmps(const Operands& o, pto_profile) {
  const pto_tile* src = o.src0;
  if (ops::IsEmptyRegion(src)) return;
  kernels::CompareScalar(static_cast<pto_cmp_mode>(o.attr), src->dtype, src->valid_rows,
                         src->valid_cols, PlaneOf(o.dst), ConstPlaneOf(src),
                         ScalarBits64(src->dtype, o.scalar));
}

pto_status CheckTSels(const Operands& o, pto_profile profile) {
  return CheckTSelsOperands(o.dst, o.src0, o.src1, o.tmp, o.scalar, profile);
}

// tsel: src0 the mask, src1 and src2 the selected sources.
pto_status CheckTSel(const Operands& o, pto_profile profile) {
  return CheckTselRules(o.dst, o.src0, o.src1, o.ext->src2, o.tmp, profile);
}

void RunTSel(const Operands& o, pto_profile) {
  pto_tile* dst = o.dst;
  if (ops::IsEmptyRegion(dst)) return;
  kernels::Select(dst->dtype, dst->valid_rows, dst->valid_cols, PlaneOf(dst), ConstPlaneOf(o.src0),
                  ConstPlaneOf(o.src1), ConstPlaneOf(o.ext->src2));
}

void RunTSels(const Operands& o, pto_profile) {
  pto_tile* dst = o.dst;
  if (ops::IsEmptyRegion(dst)) return;
  kernels::SelectScalar(dst->dtype, dst->valid_rows, dst->valid_cols, PlaneOf(dst),
                        ConstPlaneOf(o.src0), ConstPlaneOf(o.src1),
                        ScalarBits64(dst->dtype, o.scalar));
}

}  // namespace ops
}  // namespace pto
