// Whole-tile conversions between float arrays and FLOAT16/BFLOAT16 tiles
// (FLOAT32 tiles are copied as they are).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "src/kernels/convert.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "src/kernels/simd-inl.h"

HWY_BEFORE_NAMESPACE();
namespace pto {
namespace HWY_NAMESPACE {

template <typename T>
void FromF32Typed(size_t n, T* dst, const float* src) {
  const hn::ScalableTag<float> d;
  ForEachUnaryAnyWidth(d, 1, n, dst, n, src, n, [](auto dd, const float* in, T* out) {
    StoreAs(dd, hn::LoadU(dd, in), out);
  });
}

template <typename T>
void ToF32Typed(size_t n, float* dst, const T* src) {
  const hn::ScalableTag<float> d;
  ForEachUnaryAnyWidth(d, 1, n, dst, n, src, n, [](auto dd, const T* in, float* out) {
    hn::StoreU(LoadAs(dd, in), dd, out);
  });
}

void FromF32Impl(pto_dtype dtype, size_t n, void* dst, const float* src) {
  VisitDtypeAmong<hwy::float16_t, hwy::bfloat16_t>(dtype, [&](auto tag) {
    FromF32Typed(n, static_cast<decltype(tag)*>(dst), src);
  });
}

void ToF32Impl(pto_dtype dtype, size_t n, float* dst, const void* src) {
  VisitDtypeAmong<hwy::float16_t, hwy::bfloat16_t>(dtype, [&](auto tag) {
    ToF32Typed(n, dst, static_cast<const decltype(tag)*>(src));
  });
}

}  // namespace HWY_NAMESPACE
}  // namespace pto
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include <string.h>

#include "src/kernels/kernels.h"
namespace pto {
HWY_EXPORT(FromF32Impl);
HWY_EXPORT(ToF32Impl);
namespace kernels {

void FromF32(pto_dtype dtype, size_t n, void* dst, const float* src) {
  if (dtype == PTO_FLOAT32) {
    memmove(dst, src, n * sizeof(float));
    return;
  }
  PTO_DYNAMIC_DISPATCH(FromF32Impl)(dtype, n, dst, src);
}

void ToF32(pto_dtype dtype, size_t n, float* dst, const void* src) {
  if (dtype == PTO_FLOAT32) {
    memmove(dst, src, n * sizeof(float));
    return;
  }
  PTO_DYNAMIC_DISPATCH(ToF32Impl)(dtype, n, dst, src);
}

}  // namespace kernels
}  // namespace pto
#endif
