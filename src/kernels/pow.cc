// Elementwise power, dst = base ^ exp, for every element type: the
// dispatch by dtype and algorithm, and integer powers. The floating-point
// kernels are in pow-float-inl.h.
//
// Integers: exponentiation by squaring in wrapping lanes (8-bit types in
// 16-bit lanes), one squaring per exponent bit until every lane's remaining
// exponent is zero.
#include <stddef.h>
#include <stdint.h>

#include "src/kernels/kernels.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "src/kernels/pow.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "src/kernels/pow-float-inl.h"
#include "src/kernels/simd-inl.h"

HWY_BEFORE_NAMESPACE();
namespace pto {
namespace HWY_NAMESPACE {

// ---------------------------------------------------------------------------
// Integers.

template <class D>
HWY_INLINE hn::Vec<D> PowInteger(D d, hn::Vec<D> base, hn::Vec<D> exp) {
  using T = hn::TFromD<D>;
  const hn::RebindToUnsigned<D> du;
  const auto one = hn::Set(du, 1);
  auto e = hn::BitCast(du, exp);
  auto b = hn::BitCast(du, base);
  // Negative exponents: 1 for base 1, +-1 for base -1 by parity, else 0.
  // Only the parity bit survives; zero_out marks the lanes to clear.
  auto zero_out = hn::MaskFromVec(hn::Zero(du));
  if (hwy::IsSigned<T>()) {
    const auto negative = hn::RebindMask(du, hn::Lt(exp, hn::Zero(d)));
    const auto unit = hn::Or(hn::Eq(b, one), hn::Eq(b, hn::Set(du, static_cast<T>(-1))));
    e = hn::IfThenElse(negative, hn::And(e, one), e);
    zero_out = hn::AndNot(unit, negative);
  }
  // Multiplication wraps identically in unsigned lanes.
  auto result = one;
  while (!hn::AllTrue(du, hn::Eq(e, hn::Zero(du)))) {
    const auto bit = hn::Eq(hn::And(e, one), one);
    result = hn::IfThenElse(bit, hn::Mul(result, b), result);
    b = hn::Mul(b, b);
    e = hn::ShiftRight<1>(e);
  }
  return hn::BitCast(d, hn::IfThenZeroElse(zero_out, result));
}

template <typename T>
void PowInt(size_t rows, size_t cols, void* dst, size_t dst_stride, const void* base,
            size_t base_stride, const void* exp, size_t exp_stride) {
  ForEachBinary(ComputeTag<T>(), rows, cols, static_cast<T*>(dst), dst_stride,
                static_cast<const T*>(base), base_stride, static_cast<const T*>(exp), exp_stride,
                [](auto d, const T* pb, const T* pe, T* out) {
                  StoreAs(d, PowInteger(d, LoadAs(d, pb), LoadAs(d, pe)), out);
                });
}

template <typename T>
void PowFloatAlgo(pto_pow_algorithm algo, size_t rows, size_t cols, void* dst, size_t ds,
                  const void* base, size_t bs, const void* exp, size_t es) {
  if (algo == PTO_POW_HIGH_PRECISION) {
    PowFloatRows<T, true>(rows, cols, dst, ds, base, bs, exp, es);
  } else {
    PowFloatRows<T, false>(rows, cols, dst, ds, base, bs, exp, es);
  }
}

template <typename T>
HWY_INLINE void PowTyped(pto_pow_algorithm algo, size_t rows, size_t cols, void* dst, size_t ds,
                         const void* base, size_t bs, const void* exp, size_t es) {
  if constexpr (std::is_integral_v<T>) {
    PowInt<T>(rows, cols, dst, ds, base, bs, exp, es);
  } else {
    PowFloatAlgo<T>(algo, rows, cols, dst, ds, base, bs, exp, es);
  }
}

void PowImpl(pto_dtype dtype, pto_pow_algorithm algo, size_t rows, size_t cols, void* dst,
             size_t ds, const void* base, size_t bs, const void* exp, size_t es) {
  VisitDtype(dtype, [&](auto tag) {
    PowTyped<decltype(tag)>(algo, rows, cols, dst, ds, base, bs, exp, es);
  });
}

// n contiguous float32 elements, both algorithms inline.
HWY_NOINLINE void PowContiguousF32(pto_pow_algorithm algo, size_t n, void* dst, const void* base,
                                   const void* exp) {
  float* out = static_cast<float*>(dst);
  const float* pb = static_cast<const float*>(base);
  const float* pe = static_cast<const float*>(exp);
  if (algo == PTO_POW_HIGH_PRECISION) return PowFloatRow<float, true>(n, out, pb, pe);
  PowFloatRow<float, false>(n, out, pb, pe);
}

// n contiguous elements as one row: float32 decided first (a tail call, so
// it pays for no other dtype's frame), the others by dtype.
void PowContiguousImpl(pto_dtype dtype, pto_pow_algorithm algo, size_t n, void* dst,
                       const void* base, const void* exp) {
  if (HWY_LIKELY(dtype == PTO_FLOAT32)) return PowContiguousF32(algo, n, dst, base, exp);
  VisitDtype(dtype,
             [&](auto tag) { PowTyped<decltype(tag)>(algo, 1, n, dst, 0, base, 0, exp, 0); });
}

}  // namespace HWY_NAMESPACE
}  // namespace pto
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace pto {
HWY_EXPORT(PowImpl);
HWY_EXPORT(PowContiguousImpl);
namespace kernels {
void Pow(pto_dtype dtype, pto_pow_algorithm algo, size_t rows, size_t cols, const Plane& dst,
         const ConstPlane& base, const ConstPlane& exp) {
  PTO_DYNAMIC_DISPATCH(PowImpl)(dtype, algo, rows, cols, dst.data, dst.stride, base.data,
                                base.stride, exp.data, exp.stride);
}

void PowContiguous(pto_dtype dtype, pto_pow_algorithm algo, size_t n, void* dst, const void* base,
                   const void* exp) {
  PTO_DYNAMIC_DISPATCH(PowContiguousImpl)(dtype, algo, n, dst, base, exp);
}
}  // namespace kernels
}  // namespace pto
#endif
