// The fused group: two arithmetic steps in one instruction, taxpy (a fused
// multiply-add into dst) and taddc (two additions). Each has a check (every
// rule of its C function, in order, under a profile) and a run (its kernels).
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

// ---- taddc ----------------------------------------------------------------

pto_status CheckTAddC(const Operands& o, pto_profile profile) {
  pto_tile* dst = o.dst;
  const pto_tile *src0 = o.src0, *src1 = o.src1, *src2 = o.src2;
  Validator v("pto_taddc");
  v.NotNull("dst", dst).NotNull("src0", src0).NotNull("src1", src1).NotNull("src2", src2);
  if (!v.ok()) return v.status();
  v.DtypeAccepted(OpDtypes::kTAddC, profile, "dst", dst)
      .SameDtype("src0", src0, "dst", dst)
      .SameDtype("src1", src1, "dst", dst)
      .SameDtype("src2", src2, "dst", dst)
      .InPlaceOrApart("src0", src0, dst)
      .InPlaceOrApart("src1", src1, dst)
      .InPlaceOrApart("src2", src2, dst)
      .SameValidRegion("src0", src0, "dst", dst)
      .SameValidRegion("src1", src1, "dst", dst)
      .SameValidRegion("src2", src2, "dst", dst);
  return v.status();
}

// (src0 + src1) + src2, each addition tadd's (rounded once, integers
// wrapping), row by row through a row of scratch so that dst may be any of
// the sources.
void RunTAddC(const Operands& o, pto_profile) {
  constexpr size_t kChunk = 256;
  pto_tile* dst = o.dst;
  const pto_dtype dtype = dst->dtype;
  alignas(64) unsigned char partial[kChunk * 8];
  for (uint32_t r = 0; r < dst->valid_rows; ++r) {
    for (uint32_t c = 0; c < dst->valid_cols; c += kChunk) {
      const size_t n = std::min<size_t>(kChunk, dst->valid_cols - c);
      kernels::TAdd(dtype, 1, n, kernels::Plane{partial, 0}, Offset(o.src0, r, c),
                   Offset(o.src1, r, c));
      kernels::TAdd(dtype, 1, n, Offset(dst, r, c), kernels::ConstPlane{partial, 0},
                   Offset(o.src2, r, c));
    }
  }
}

}  // namespace ops
}  // namespace pto
