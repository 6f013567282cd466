// tscratch_fma's kernel, a dummy of tests/ci/new-operation.sh: dst = scalar *
// src0 + src1 in FLOAT32, one fused multiply-add rounded once (ExactMulAdd),
// the same bits on every target.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "src/kernels/scratch_fma.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "src/kernels/fused-inl.h"
#include "src/kernels/simd-inl.h"

HWY_BEFORE_NAMESPACE();
namespace pto {
namespace HWY_NAMESPACE {

void ScratchFmaImpl(size_t rows, size_t cols, const kernels::Plane& dst,
                    const kernels::ConstPlane& src0, const kernels::ConstPlane& src1,
                    float scalar) {
  const hn::ScalableTag<float> d;
  ForEachBinary(d, rows, cols, static_cast<float*>(dst.data), dst.stride,
                static_cast<const float*>(src0.data), src0.stride,
                static_cast<const float*>(src1.data), src1.stride,
                [scalar](auto dv, const float* pa, const float* pb, float* po) {
                  StoreAs(dv, ExactMulAdd(dv, hn::Set(dv, scalar), LoadAs(dv, pa), LoadAs(dv, pb)),
                          po);
                });
}

}  // namespace HWY_NAMESPACE
}  // namespace pto
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include "src/kernels/kernels.h"
namespace pto {
HWY_EXPORT(ScratchFmaImpl);
namespace kernels {

void ScratchFma(size_t rows, size_t cols, const Plane& dst, const ConstPlane& src0,
                const ConstPlane& src1, float scalar) {
  PTO_DYNAMIC_DISPATCH(ScratchFmaImpl)(rows, cols, dst, src0, src1, scalar);
}

}  // namespace kernels
}  // namespace pto
#endif  // HWY_ONCE
