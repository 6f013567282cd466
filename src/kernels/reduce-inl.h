// What the row and column reductions share (reduce.cc, colreduce.cc): a
// lane rounded to its storage type, the IEEE maximum and minimum, the default
// NaN.
//
// Re-included once per target by foreach_target.h, hence the toggle guard.
#if defined(PTO_KERNELS_REDUCE_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef PTO_KERNELS_REDUCE_INL_H_
#undef PTO_KERNELS_REDUCE_INL_H_
#else
#define PTO_KERNELS_REDUCE_INL_H_
#endif

#include <limits>
#include <type_traits>

#include "hwy/highway.h"
#include "src/kernels/simd-inl.h"

HWY_BEFORE_NAMESPACE();
namespace pto {
namespace HWY_NAMESPACE {

// v rounded to storage type T, in T's compute lanes (float32 lanes for
// FLOAT16 and BFLOAT16; integers wrap when stored).
template <typename T, class D>
HWY_INLINE hn::Vec<D> RoundToStorage(D d, hn::Vec<D> v) {
  if constexpr (std::is_same_v<T, hwy::float16_t>) {
    return F32FromF16Bits(d, F16BitsFromF32(d, v));
  } else if constexpr (std::is_same_v<T, hwy::bfloat16_t>) {
    return F32FromBF16Bits(d, BF16BitsFromF32(d, v));
  } else {
    return v;
  }
}

// IEEE 754-2019 maximum / minimum (binary.cc's tmax / tmin): NaN when either
// is NaN, -0 < +0; integers Highway's Max / Min.
template <bool kMax, class D, HWY_IF_FLOAT_D(D)>
HWY_INLINE hn::Vec<D> Extreme(D, hn::Vec<D> x, hn::Vec<D> y) {
  const hn::Vec<D> larger = hn::IfThenElse(hn::Gt(x, y), kMax ? x : y, kMax ? y : x);
  const hn::Vec<D> equal = kMax ? hn::And(x, y) : hn::Or(x, y);
  const hn::Vec<D> ordered = hn::IfThenElse(hn::Eq(x, y), equal, larger);
  return hn::IfThenElse(hn::IsNaN(x), x, hn::IfThenElse(hn::IsNaN(y), y, ordered));
}
template <bool kMax, class D, HWY_IF_NOT_FLOAT_D(D)>
HWY_INLINE hn::Vec<D> Extreme(D, hn::Vec<D> x, hn::Vec<D> y) {
  return kMax ? hn::Max(x, y) : hn::Min(x, y);
}

// A NaN lane becomes the default NaN (+, quiet, no payload): which NaN a sum
// or an extreme would carry depends on the order of operations.
template <class D, HWY_IF_FLOAT_D(D)>
HWY_INLINE hn::Vec<D> DefaultNaN(D d, hn::Vec<D> v) {
  return hn::IfThenElse(hn::IsNaN(v), hn::Set(d, std::numeric_limits<float>::quiet_NaN()), v);
}
template <class D, HWY_IF_NOT_FLOAT_D(D)>
HWY_INLINE hn::Vec<D> DefaultNaN(D, hn::Vec<D> v) {
  return v;
}

}  // namespace HWY_NAMESPACE
}  // namespace pto
HWY_AFTER_NAMESPACE();

#endif  // PTO_KERNELS_REDUCE_INL_H_
