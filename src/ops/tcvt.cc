// tcvt's check (the profile's conversion pairs, the rounding mode, the
// placement rules) and run (the converter of kernels/tcvt.cc).
#include "ops/common.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "convert_rules.h"
#include "dtype_rules.h"
#include "kernels/kernels.h"
#include "overlap.h"
#include "profile.h"
#include "pto_c.h"
#include "tile.h"
#include "validate.h"

namespace pto {
namespace ops {

namespace {

// ---- tcvt ----------------------------------------------------------------

// "FLOAT32, INT16" (at most nine names).
struct DtypeListText {
  char text[128];
};
DtypeListText ListOf(const DtypeSet& set) {
  DtypeListText out{};
  size_t used = 0;
  for (uint32_t i = 0; i < set.count; ++i) {
    const int n = snprintf(out.text + used, sizeof out.text - used, "%s%s", i ? ", " : "",
                           DtypeName(set.members[i]));
    if (n < 0 || static_cast<size_t>(n) >= sizeof out.text - used) break;
    used += static_cast<size_t>(n);
  }
  return out;
}

}  // namespace

pto_status CheckTCvt(const Operands& o, pto_profile profile) {
  pto_tile* dst = o.dst;
  const pto_tile* src = o.src0;
  const pto_tile* tmp = o.tmp;
  Validator v("pto_tcvt");
  v.NotNull("dst", dst).NotNull("src", src);
  v.EnumInRange("mode", o.attr, AttrValueCount(AttrKind::kConversion))
      .EnumInRange("sat", o.sat, 2);
  if (!v.ok()) return v.status();
  // The pair: src's dtype must convert to dst's under the profile
  // (convert_rules.h); the refusal lists where src converts to there.
  const DtypeSet& targets = ConvertDestinations(src->dtype, profile);
  if (!targets.Contains(dst->dtype)) {
    v.Require(false, PTO_ERR_UNSUPPORTED_DTYPE,
              "converting %s to %s is not supported on %s (%s converts to: %s)",
              DtypeName(src->dtype), DtypeName(dst->dtype), pto_profile_string(profile),
              DtypeName(src->dtype), targets.count ? ListOf(targets).text : "nothing");
    return v.status();
  }
  if (o.attr == PTO_ROUND_ODD && !ConvertHasOdd(src->dtype, dst->dtype)) {
    v.Require(false, PTO_ERR_INVALID_ARGUMENT,
              "mode PTO_ROUND_ODD is not supported converting %s to %s (only FLOAT32 to "
              "FLOAT16 has it)",
              DtypeName(src->dtype), DtypeName(dst->dtype));
    return v.status();
  }
  if (tmp != nullptr) v.Distinct("tmp", tmp, "dst", dst).Distinct("tmp", tmp, "src", src);
  // Elementwise in place only where both dtypes have one size: a source
  // element then sits exactly under the dst element it becomes (the same
  // handle, or the same address and row length).
  const bool same_size = ElementBytes(src->dtype) == ElementBytes(dst->dtype);
  const bool in_place = same_size && (src == static_cast<const pto_tile*>(dst) ||
                                      (src->data == dst->data && src->cols == dst->cols));
  if (v.ok() && !in_place && (src == static_cast<const pto_tile*>(dst) || ValidRegionsOverlap(src, dst))) {
    v.Require(false, PTO_ERR_ALIASING,
              same_size ? "src's valid elements share storage with dst's without being placed "
                          "exactly on them"
                        : "src's valid elements share storage with dst's, and %s and %s differ "
                          "in size",
              DtypeName(src->dtype), DtypeName(dst->dtype));
  }
  v.SameValidRegion("src", src, "dst", dst);
  return v.status();
}

namespace {

// The kernel's reading of the arguments: PTO_ROUND_NONE resolved, and what
// happens beyond dst's range under the profile (pto_c.h).
kernels::ConvertSpec ConvertSpecOf(const Operands& o, pto_profile profile) {
  const pto_dtype to = o.dst->dtype, from = o.src0->dtype;
  const bool float_to_int = IsFloatDtype(from) && !IsFloatDtype(to);
  pto_round_mode round = static_cast<pto_round_mode>(o.attr);
  if (round == PTO_ROUND_NONE) round = float_to_int ? PTO_ROUND_TRUNC : PTO_ROUND_RINT;
  const bool sat = o.sat == PTO_SAT_ON;
  kernels::IntOverflow overflow = kernels::IntOverflow::kSaturate;
  if (!sat && !IsFloatDtype(from)) {
    overflow = kernels::IntOverflow::kWrap;
  } else if (!sat && profile != PTO_PROFILE_HOST && ConvertWrapsThroughInt32(from, to)) {
    overflow = kernels::IntOverflow::kInt32ThenWrap;
  }
  return {to, from, round, sat, overflow};
}

}  // namespace

void RunTCvt(const Operands& o, pto_profile profile) {
  pto_tile* dst = o.dst;
  const kernels::ConvertSpec spec = ConvertSpecOf(o, profile);
  if (dst->cols == dst->valid_cols && o.src0->cols == dst->valid_cols) {
    const size_t n = RegionElements(dst);
    return kernels::Convert(spec, 1, n, {dst->data, n}, {o.src0->data, n});
  }
  kernels::Convert(spec, dst->valid_rows, dst->valid_cols, PlaneOf(dst), ConstPlaneOf(o.src0));
}

void RoundFromF32(pto_dtype dtype, size_t n, void* dst, const float* src) {
  kernels::FromF32(dtype, n, dst, src);
}

}  // namespace ops
}  // namespace pto
