// TAXPY: dst = scalar * src + dst, one fused multiply-add rounded once to
// dst's dtype (the NPUs' vaxpy), the same bits on every target.
//
// float32 dst (src float32, or float16 widened exactly): ExactMulAdd.
// float16 dst: the product of two float16 values is exact in float32, the
// sum is rounded to odd there (MulAddToOdd) and then to float16 by StoreAs's
// round-to-nearest-even, which gives the exact sum rounded once.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "src/kernels/axpy.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "src/kernels/fused-inl.h"
#include "src/kernels/simd-inl.h"

HWY_BEFORE_NAMESPACE();
namespace pto {
namespace HWY_NAMESPACE {

template <typename TD, typename TS>
HWY_INLINE void AxpyTyped(size_t rows, size_t cols, const kernels::Plane& dst,
                          const kernels::ConstPlane& src, float scalar) {
  const hn::ScalableTag<float> d;
  TD* out = static_cast<TD*>(dst.data);
  const TS* x = static_cast<const TS*>(src.data);
  // ForEachBinary's operands: a = src, b = dst's old values, out = dst (the
  // same row; each vector is read before it is written).
  ForEachBinary(d, rows, cols, out, dst.stride, x, src.stride, static_cast<const TD*>(out),
                dst.stride, [scalar](auto dv, const TS* px, const TD* py, TD* po) {
                  const auto a = hn::Set(dv, scalar);
                  const auto vx = LoadAs(dv, px);
                  const auto vy = LoadAs(dv, py);
                  if constexpr (hwy::IsSame<TD, float>()) {
                    StoreAs(dv, ExactMulAdd(dv, a, vx, vy), po);
                  } else {
                    StoreAs(dv, MulAddToOdd(dv, a, vx, vy), po);
                  }
                });
}

void AxpyImpl(pto_dtype dst_dtype, pto_dtype src_dtype, size_t rows, size_t cols,
              const kernels::Plane& dst, const kernels::ConstPlane& src, float scalar) {
  if (dst_dtype == PTO_FLOAT32 && src_dtype == PTO_FLOAT32)
    return AxpyTyped<float, float>(rows, cols, dst, src, scalar);
  if (dst_dtype == PTO_FLOAT32 && src_dtype == PTO_FLOAT16)
    return AxpyTyped<float, hwy::float16_t>(rows, cols, dst, src, scalar);
  if (dst_dtype == PTO_FLOAT16 && src_dtype == PTO_FLOAT16)
    return AxpyTyped<hwy::float16_t, hwy::float16_t>(rows, cols, dst, src, scalar);
  DtypeWithoutKernel(dst_dtype);
}

}  // namespace HWY_NAMESPACE
}  // namespace pto
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include "src/kernels/kernels.h"
namespace pto {
HWY_EXPORT(AxpyImpl);
namespace kernels {

void Axpy(pto_dtype dst_dtype, pto_dtype src_dtype, size_t rows, size_t cols, const Plane& dst,
          const ConstPlane& src, float scalar) {
  PTO_DYNAMIC_DISPATCH(AxpyImpl)(dst_dtype, src_dtype, rows, cols, dst, src, scalar);
}

}  // namespace kernels
}  // namespace pto
#endif  // HWY_ONCE
