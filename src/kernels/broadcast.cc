// Column-broadcast family: every row of src divided by one divisor row.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "src/kernels/broadcast.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "src/kernels/simd-inl.h"

HWY_BEFORE_NAMESPACE();
namespace pto {
namespace HWY_NAMESPACE {

// Division of FLOAT16 values in f32 lanes is correctly rounded: f32 has more
// than 2*11+2 significand bits, so rounding twice equals rounding once.
template <typename T>
void ColExpandDivTyped(size_t rows, size_t cols, const kernels::Plane& dst, const kernels::ConstPlane& src,
                       const void* divisor) {
  T* out = static_cast<T*>(dst.data);
  const T* in = static_cast<const T*>(src.data);
  const T* div = static_cast<const T*>(divisor);
  const auto body = [](auto d, const T* pa, const T* pb, T* po) {
    StoreAs(d, hn::Div(LoadAs(d, pa), LoadAs(d, pb)), po);
  };
  // Row 0 last: the divisor may be dst's own row 0 (in-place on src1).
  ForEachBinaryAnyWidth(ComputeTag<T>(), rows - 1, cols, out + dst.stride, dst.stride,
                in + src.stride, src.stride, div, 0, body);
  ForEachBinaryAnyWidth(ComputeTag<T>(), 1, cols, out, dst.stride, in, src.stride, div, 0, body);
}

void ColExpandDivImpl(pto_dtype dtype, size_t rows, size_t cols, const kernels::Plane& dst,
                      const kernels::ConstPlane& src, const void* divisor) {
  VisitDtypeAmong<float, hwy::float16_t>(dtype, [&](auto tag) {
    ColExpandDivTyped<decltype(tag)>(rows, cols, dst, src, divisor);
  });
}

}  // namespace HWY_NAMESPACE
}  // namespace pto
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include "src/kernels/kernels.h"
namespace pto {
HWY_EXPORT(ColExpandDivImpl);
namespace kernels {
void ColExpandDiv(pto_dtype dtype, size_t rows, size_t cols, const Plane& dst, const ConstPlane& src,
                  const void* divisor) {
  HWY_DYNAMIC_DISPATCH(ColExpandDivImpl)(dtype, rows, cols, dst, src, divisor);
}
}  // namespace kernels
}  // namespace pto
#endif
