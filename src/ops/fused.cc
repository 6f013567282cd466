// The fused group: two arithmetic steps in one instruction, taxpy,
// tfusedmuladd, tfusedmuladdrelu and tmuladddst (fused multiply-adds with
// dst's old values an input, rounded once), taddc, tsubc, taddsc and tsubsc
// (two steps, each rounded). Each has a check (every rule of its C function, in order, under
// a profile) and a run (its kernels).
#include "ops/common.h"

#include <stddef.h>
#include <stdint.h>

#include <algorithm>

#include "dtype_rules.h"
#include "kernels/kernels.h"
#include "pto_c.h"
#include "tile.h"
#include "validate.h"

namespace pto {
namespace ops {

// ---- taxpy ----------------------------------------------------------------

pto_status CheckTAxpy(const Operands& o, pto_profile profile) {
  pto_tile* dst = o.dst;
  const pto_tile* src0 = o.src0;
  Validator v("pto_taxpy");
  v.NotNull("dst", dst).NotNull("src0", src0);
  if (!v.ok()) return v.status();
  v.DtypeAccepted(OpDtypes::kTAxpy, profile, "dst", dst);
  if (!v.ok()) return v.status();
  // Both NPU implementations: src0 of dst's dtype, or float16 accumulated
  // into float32 (the widening form).
  if (!(dst->dtype == PTO_FLOAT32 && src0->dtype == PTO_FLOAT16))
    v.SameDtype("src0", src0, "dst", dst);
  RequireScalarOf(v, "scalar", o.scalar, "src0", src0->dtype)
      .InPlaceOrApart("src0", src0, dst)
      .SameValidRegion("src0", src0, "dst", dst);
  return v.status();
}

// The scalar as src0's dtype holds it (float16: rounded to nearest even),
// then one fused multiply-add per element rounded to dst's dtype.
void RunTAxpy(const Operands& o, pto_profile) {
  pto_tile* dst = o.dst;
  const float scalar = static_cast<float>(kernels::ValueInDtype(o.src0->dtype, o.scalar));
  kernels::Axpy(dst->dtype, o.src0->dtype, dst->valid_rows, dst->valid_cols, PlaneOf(dst),
                ConstPlaneOf(o.src0), scalar);
}

// ---- taddc, tsubc, taddsc, tsubsc -----------------------------------------

namespace {

// The rules of a row dst = f(src0, src1[, src2]) of one dtype: every tile
// given, dst's dtype on the profile's list, every source of dst's dtype and
// valid region, dst any of them or apart from all; a row with a scalar, a
// value of dst's dtype.
pto_status CheckSameShaped(const Operands& o, pto_profile profile, OpDtypes rule,
                           const char* c_function, int sources, bool scalar) {
  pto_tile* dst = o.dst;
  const pto_tile* src[3] = {o.src0, o.src1, o.src2};
  static const char* const kNames[3] = {"src0", "src1", "src2"};
  Validator v(c_function);
  v.NotNull("dst", dst);
  for (int k = 0; k < sources; ++k) v.NotNull(kNames[k], src[k]);
  if (!v.ok()) return v.status();
  v.DtypeAccepted(rule, profile, "dst", dst);
  for (int k = 0; k < sources; ++k) v.SameDtype(kNames[k], src[k], "dst", dst);
  if (!v.ok()) return v.status();
  if (scalar) RequireScalarOf(v, "scalar", o.scalar, "dst", dst->dtype);
  for (int k = 0; k < sources; ++k) v.InPlaceOrApart(kNames[k], src[k], dst);
  for (int k = 0; k < sources; ++k) v.SameValidRegion(kNames[k], src[k], "dst", dst);
  return v.status();
}

using TileKernel = void (*)(pto_dtype, size_t, size_t, const kernels::Plane&,
                            const kernels::ConstPlane&, const kernels::ConstPlane&);
using ScalarKernel = void (*)(pto_dtype, size_t, size_t, const kernels::Plane&,
                              const kernels::ConstPlane&, double);

// dst = second(first(src0, src1 or the scalar), the last source): each step
// its own row's kernel, rounded to the dtype as that row rounds (integers
// wrapping), row by row through a row of scratch so that dst may be any of
// the sources.
void RunTwoSteps(const Operands& o, TileKernel first, ScalarKernel first_scalar,
                 TileKernel second) {
  constexpr size_t kChunk = 256;
  pto_tile* dst = o.dst;
  const pto_dtype dtype = dst->dtype;
  const pto_tile* last = first_scalar != nullptr ? o.src1 : o.src2;
  const double value = first_scalar != nullptr ? kernels::ValueInDtype(dtype, o.scalar) : 0;
  alignas(64) unsigned char partial[kChunk * 8];
  const kernels::Plane scratch{partial, 0};
  for (uint32_t r = 0; r < dst->valid_rows; ++r) {
    for (uint32_t c = 0; c < dst->valid_cols; c += kChunk) {
      const size_t n = std::min<size_t>(kChunk, dst->valid_cols - c);
      if (first_scalar != nullptr)
        first_scalar(dtype, 1, n, scratch, Offset(o.src0, r, c), value);
      else
        first(dtype, 1, n, scratch, Offset(o.src0, r, c), Offset(o.src1, r, c));
      second(dtype, 1, n, Offset(dst, r, c), kernels::ConstPlane{partial, 0}, Offset(last, r, c));
    }
  }
}

}  // namespace

pto_status CheckTAddC(const Operands& o, pto_profile profile) {
  return CheckSameShaped(o, profile, OpDtypes::kTAddC, "pto_taddc", 3, false);
}

// (src0 + src1) + src2, each addition tadd's.
void RunTAddC(const Operands& o, pto_profile) {
  RunTwoSteps(o, kernels::TAdd, nullptr, kernels::TAdd);
}

pto_status CheckTSubC(const Operands& o, pto_profile profile) {
  return CheckSameShaped(o, profile, OpDtypes::kTSubC, "pto_tsubc", 3, false);
}

// (src0 - src1) + src2: tsub's difference, rounded, then tadd's sum (the
// page's src0 - src1 + src2 evaluated left to right, as pto-isa's CPU model
// and PTOAS's lowering to TSUB then TADD compute it).
void RunTSubC(const Operands& o, pto_profile) {
  RunTwoSteps(o, kernels::TSub, nullptr, kernels::TAdd);
}

pto_status CheckTAddSC(const Operands& o, pto_profile profile) {
  return CheckSameShaped(o, profile, OpDtypes::kTAddSC, "pto_taddsc", 2, true);
}

// (src0 + scalar) + src1: tadds's sum, rounded, then tadd's (PTOAS lowers
// taddsc to TADDS then TADD).
void RunTAddSC(const Operands& o, pto_profile) {
  RunTwoSteps(o, nullptr, kernels::TAdds, kernels::TAdd);
}

pto_status CheckTSubSC(const Operands& o, pto_profile profile) {
  return CheckSameShaped(o, profile, OpDtypes::kTSubSC, "pto_tsubsc", 2, true);
}

// (src0 - scalar) + src1: tsubs's difference, rounded, then tadd's sum
// (PTOAS lowers tsubsc to TSUBS then TADD).
void RunTSubSC(const Operands& o, pto_profile) {
  RunTwoSteps(o, nullptr, kernels::TSubs, kernels::TAdd);
}

// ---- tfusedmuladd, tfusedmuladdrelu, tmuladddst ---------------------------

pto_status CheckTFusedMulAdd(const Operands& o, pto_profile profile) {
  return CheckSameShaped(o, profile, OpDtypes::kTFusedMulAdd, "pto_tfusedmuladd", 2, false);
}

// src0 * dst + src1, rounded once (both NPUs' vmadd).
void RunTFusedMulAdd(const Operands& o, pto_profile) {
  pto_tile* dst = o.dst;
  kernels::MulAdd(dst->dtype, dst->valid_rows, dst->valid_cols, PlaneOf(dst), ConstPlaneOf(o.src0),
                  ConstPlaneOf(dst), ConstPlaneOf(o.src1), false);
}

pto_status CheckTFusedMulAddRelu(const Operands& o, pto_profile profile) {
  return CheckSameShaped(o, profile, OpDtypes::kTFusedMulAddRelu, "pto_tfusedmuladdrelu", 2,
                         false);
}

// max(src0 * dst + src1, 0): the multiply-add rounded once, the relu exact
// (A2A3's vmaddrelu; A5's vmadd then vrelu).
void RunTFusedMulAddRelu(const Operands& o, pto_profile) {
  pto_tile* dst = o.dst;
  kernels::MulAdd(dst->dtype, dst->valid_rows, dst->valid_cols, PlaneOf(dst), ConstPlaneOf(o.src0),
                  ConstPlaneOf(dst), ConstPlaneOf(o.src1), true);
}

pto_status CheckTMulAddDst(const Operands& o, pto_profile profile) {
  return CheckSameShaped(o, profile, OpDtypes::kTMulAddDst, "pto_tmuladddst", 2, false);
}

// src0 * src1 + dst, rounded once (A2A3's vmla, A5's vmula).
void RunTMulAddDst(const Operands& o, pto_profile) {
  pto_tile* dst = o.dst;
  kernels::MulAdd(dst->dtype, dst->valid_rows, dst->valid_cols, PlaneOf(dst), ConstPlaneOf(o.src0),
                  ConstPlaneOf(o.src1), ConstPlaneOf(dst), false);
}

}  // namespace ops
}  // namespace pto
