// Elementwise binary family: PReLU and addition (and the copy that TPARTADD
// uses where only one source is valid).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "src/kernels/binary.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "src/kernels/simd-inl.h"

HWY_BEFORE_NAMESPACE();
namespace pto {
namespace HWY_NAMESPACE {

// x > 0, spelled x != 0 for unsigned lanes.
template <class D, HWY_IF_NOT_FLOAT_D(D)>
HWY_INLINE hn::Mask<D> IsPositive(D d, hn::Vec<D> x) {
  if constexpr (hwy::IsSigned<hn::TFromD<D>>()) return hn::Gt(x, hn::Zero(d));
  else return hn::Ne(x, hn::Zero(d));
}
template <class D, HWY_IF_FLOAT_D(D)>
HWY_INLINE hn::Mask<D> IsPositive(D d, hn::Vec<D> x) {
  return hn::Gt(x, hn::Zero(d));
}

// Addition needs no widening for 8-bit lanes; everything else uses the
// common compute lanes.
template <typename T>
using AddTag = std::conditional_t<sizeof(T) == 1, hn::ScalableTag<T>, ComputeTag<T>>;

template <typename T>
void PreluTyped(size_t rows, size_t cols, const kernels::Plane& dst, const kernels::ConstPlane& a,
                const kernels::ConstPlane& b) {
  ForEachElementwise(ComputeTag<T>(), rows, cols, static_cast<T*>(dst.data), dst.stride,
                     static_cast<const T*>(a.data), a.stride, static_cast<const T*>(b.data),
                     b.stride, [](auto d, auto x, auto slope) {
                       return hn::IfThenElse(IsPositive(d, x), x, hn::Mul(x, slope));
                     });
}

template <typename T>
void AddTyped(size_t rows, size_t cols, const kernels::Plane& dst, const kernels::ConstPlane& a,
              const kernels::ConstPlane& b) {
  ForEachElementwise(AddTag<T>(), rows, cols, static_cast<T*>(dst.data), dst.stride,
                     static_cast<const T*>(a.data), a.stride, static_cast<const T*>(b.data),
                     b.stride, [](auto, auto x, auto y) { return hn::Add(x, y); });
}

void PreluImpl(pto_dtype dtype, size_t rows, size_t cols, const kernels::Plane& dst,
               const kernels::ConstPlane& a, const kernels::ConstPlane& b) {
  VisitDtype(dtype, [&](auto tag) { PreluTyped<decltype(tag)>(rows, cols, dst, a, b); });
}

void AddImpl(pto_dtype dtype, size_t rows, size_t cols, const kernels::Plane& dst,
             const kernels::ConstPlane& a, const kernels::ConstPlane& b) {
  VisitDtype(dtype, [&](auto tag) { AddTyped<decltype(tag)>(rows, cols, dst, a, b); });
}

}  // namespace HWY_NAMESPACE
}  // namespace pto
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include <string.h>

#include "src/kernels/kernels.h"
namespace pto {
HWY_EXPORT(PreluImpl);
HWY_EXPORT(AddImpl);
namespace kernels {

void Prelu(pto_dtype dtype, size_t rows, size_t cols, const Plane& dst, const ConstPlane& a, const ConstPlane& b) {
  PTO_DYNAMIC_DISPATCH(PreluImpl)(dtype, rows, cols, dst, a, b);
}

void Add(pto_dtype dtype, size_t rows, size_t cols, const Plane& dst, const ConstPlane& a, const ConstPlane& b) {
  PTO_DYNAMIC_DISPATCH(AddImpl)(dtype, rows, cols, dst, a, b);
}

void Copy(pto_dtype dtype, size_t rows, size_t cols, const Plane& dst, const ConstPlane& src) {
  // Rows of distinct tiles never overlap; memcpy is already vectorised.
  const size_t size = pto_dtype_size(dtype);
  for (size_t r = 0; r < rows; ++r) {
    memcpy(static_cast<char*>(dst.data) + r * dst.stride * size,
           static_cast<const char*>(src.data) + r * src.stride * size, cols * size);
  }
}

}  // namespace kernels
}  // namespace pto
#endif
