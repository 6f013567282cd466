// The fused group: two arithmetic steps in one instruction, taxpy,
// tfusedmuladd, tfusedmuladdrelu and tmuladddst (fused multiply-adds with
// dst's old values an input, rounded once), taddc, tsubc, taddsc and tsubsc
// (two steps, each rounded), taddreluconv, tsubreluconv and tadddeqrelu
// (steps to a narrower dtype, each rounded). Each has a check (every rule of its C function, in order, under
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
  const pto_tile* src[3] = {o.src0, o.src1, o.ext->src2};
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
  const pto_tile* last = first_scalar != nullptr ? o.src1 : o.ext->src2;
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

// ---- taddreluconv, tsubreluconv, tadddeqrelu --------------------------------

namespace {

// The (src, dst) pairs of taddreluconv and tsubreluconv (both pages, both
// NPU implementations' static_asserts): float32 to float16, float16 to int8,
// int16 to int8.
bool ReluConvPair(pto_dtype src, pto_dtype dst) {
  return (src == PTO_FLOAT32 && dst == PTO_FLOAT16) ||
         (src == PTO_FLOAT16 && dst == PTO_INT8) || (src == PTO_INT16 && dst == PTO_INT8);
}

// The rules of dst = convert(f(src0, src1)) with dst of a narrower dtype:
// every tile given, dst's dtype on the list, src0's dtype one of dst's
// pairs and src1's src0's, each source's valid region dst's, each source
// apart from dst (its elements are of another size: no in-place form).
pto_status CheckConverting(const Operands& o, pto_profile profile, OpDtypes rule,
                           const char* c_function, bool (*pair)(pto_dtype, pto_dtype)) {
  pto_tile* dst = o.dst;
  Validator v(c_function);
  v.NotNull("dst", dst).NotNull("src0", o.src0).NotNull("src1", o.src1);
  if (!v.ok()) return v.status();
  v.DtypeAccepted(rule, profile, "dst", dst)
      .Require(pair(o.src0->dtype, dst->dtype), PTO_ERR_DTYPE_MISMATCH,
               "src0 dtype %s with dst dtype %s is not one of the instruction's (src, dst) "
               "pairs",
               DtypeName(o.src0->dtype), DtypeName(dst->dtype))
      .SameDtype("src1", o.src1, "src0", o.src0);
  if (!v.ok()) return v.status();
  v.Require(!SharesStorage(o.src0, dst), PTO_ERR_ALIASING,
            "src0 shares storage with dst, which is of another dtype (no in-place form)")
      .Require(!SharesStorage(o.src1, dst), PTO_ERR_ALIASING,
               "src1 shares storage with dst, which is of another dtype (no in-place form)")
      .SameValidRegion("src0", o.src0, "dst", dst)
      .SameValidRegion("src1", o.src1, "dst", dst);
  return v.status();
}

// Rows of kChunk elements through scratch: each step one existing row's
// kernel on the chunk, rounded to its dtype as that row rounds, then the
// conversion to dst's dtype, nearest even, saturating.
constexpr size_t kConvChunk = 256;

using ChunkSteps = void (*)(const Operands& o, uint32_t r, uint32_t c, size_t n,
                            const kernels::Plane& scratch);

void RunConverting(const Operands& o, pto_dtype wide, ChunkSteps steps) {
  pto_tile* dst = o.dst;
  // Nearest even; float results beyond float16's range saturate to its
  // largest finite value; integers saturate (the pages: "saturating").
  const kernels::ConvertSpec spec{dst->dtype, wide, PTO_ROUND_RINT, true,
                                  kernels::IntOverflow::kSaturate};
  alignas(64) unsigned char partial[kConvChunk * 4];
  const kernels::Plane scratch{partial, 0};
  for (uint32_t r = 0; r < dst->valid_rows; ++r) {
    for (uint32_t c = 0; c < dst->valid_cols; c += kConvChunk) {
      const size_t n = std::min<size_t>(kConvChunk, dst->valid_cols - c);
      steps(o, r, c, n, scratch);
      kernels::Convert(spec, 1, n, Offset(dst, r, c), kernels::ConstPlane{partial, 0});
    }
  }
}

// relu(src0 op src1) in src0's dtype: the float rows' taddrelu or
// tsubrelu (+0 unless > 0, NaN kept), int16's tadd or tsub (wrapping) then
// tmaxs with 0.
template <bool kSub>
void ReluSteps(const Operands& o, uint32_t r, uint32_t c, size_t n,
               const kernels::Plane& scratch) {
  const pto_dtype wide = o.src0->dtype;
  const kernels::ConstPlane a = Offset(o.src0, r, c), b = Offset(o.src1, r, c);
  if (wide == PTO_INT16) {
    (kSub ? kernels::TSub : kernels::TAdd)(wide, 1, n, scratch, a, b);
    kernels::TMaxs(wide, 1, n, scratch, kernels::ConstPlane{scratch.data, 0}, 0);
  } else {
    (kSub ? kernels::TSubRelu : kernels::TAddRelu)(wide, 1, n, scratch, a, b);
  }
}

// The A2A3 and A5 sequence of TADDDEQRELU, each step float32 rounded once:
// the int32 sum (wrapping), converted to float32 (nearest even), times
// 2^-17, deqScale and 2^17 in that order, then relu (+0 unless > 0, NaN
// kept) and the saturation at float16's largest value, infinity included
// (the page: "saturating"; the ST golden clips to [0, 65504]).
void DeqReluSteps(const Operands& o, uint32_t r, uint32_t c, size_t n,
                  const kernels::Plane& scratch) {
  const kernels::ConstPlane in{scratch.data, 0};
  kernels::TAdd(PTO_INT32, 1, n, scratch, Offset(o.src0, r, c), Offset(o.src1, r, c));
  const kernels::ConvertSpec to_float{PTO_FLOAT32, PTO_INT32, PTO_ROUND_RINT, false,
                                      kernels::IntOverflow::kSaturate};
  kernels::Convert(to_float, 1, n, scratch, in);
  const double scale = kernels::ValueInDtype(PTO_FLOAT32, o.scalar);
  kernels::TMuls(PTO_FLOAT32, 1, n, scratch, in, 0x1p-17);
  kernels::TMuls(PTO_FLOAT32, 1, n, scratch, in, scale);
  kernels::TMuls(PTO_FLOAT32, 1, n, scratch, in, 0x1p17);
  kernels::TRelu(PTO_FLOAT32, 1, n, scratch, in, in);
  kernels::TMins(PTO_FLOAT32, 1, n, scratch, in, 65504.0);
}

}  // namespace

pto_status CheckTAddReluConv(const Operands& o, pto_profile profile) {
  return CheckConverting(o, profile, OpDtypes::kTAddReluConv, "pto_taddreluconv", ReluConvPair);
}

void RunTAddReluConv(const Operands& o, pto_profile) {
  RunConverting(o, o.src0->dtype, ReluSteps<false>);
}

pto_status CheckTSubReluConv(const Operands& o, pto_profile profile) {
  return CheckConverting(o, profile, OpDtypes::kTSubReluConv, "pto_tsubreluconv", ReluConvPair);
}

void RunTSubReluConv(const Operands& o, pto_profile) {
  RunConverting(o, o.src0->dtype, ReluSteps<true>);
}

namespace {

bool DeqReluPair(pto_dtype src, pto_dtype dst) {
  return src == PTO_INT32 && dst == PTO_FLOAT16;
}

}  // namespace

// The converting rules, deqScale any float (taken as float32 holds it,
// nearest even), then tmp: INT32, its valid region at least dst's, sharing
// no byte with dst or either source (A2A3's sequence writes it).
pto_status CheckTAddDeqRelu(const Operands& o, pto_profile profile) {
  const pto_status status =
      CheckConverting(o, profile, OpDtypes::kTAddDeqRelu, "pto_tadddeqrelu", DeqReluPair);
  if (status != PTO_OK) return status;
  const pto_tile* tmp = o.tmp;
  Validator v("pto_tadddeqrelu");
  v.NotNull("tmp", tmp);
  if (!v.ok()) return v.status();
  v.Require(tmp->dtype == PTO_INT32, PTO_ERR_DTYPE_MISMATCH,
            "tmp dtype %s is not INT32 (the page: tmp must be int32_t)", DtypeName(tmp->dtype))
      .Require(!SharesStorage(tmp, o.dst) && !SharesStorage(tmp, o.src0) &&
                   !SharesStorage(tmp, o.src1),
               PTO_ERR_ALIASING, "tmp shares storage with dst, src0 or src1")
      .Require(tmp->valid_rows >= o.dst->valid_rows && tmp->valid_cols >= o.dst->valid_cols,
               PTO_ERR_SHAPE_MISMATCH,
               "tmp valid region %ux%u is smaller than dst's %ux%u (the page: at least as large)",
               tmp->valid_rows, tmp->valid_cols, o.dst->valid_rows, o.dst->valid_cols);
  return v.status();
}

// tmp is neither read nor written: the steps run in a chunk of scratch.
void RunTAddDeqRelu(const Operands& o, pto_profile) {
  RunConverting(o, PTO_FLOAT32, DeqReluSteps);
}

}  // namespace ops
}  // namespace pto
