// Reciprocal square root family.
//
// A hardware estimate (12 to 14 bits), one Newton step, then a final
// correction whose residual 1 - x*y*y is formed with FMAs from the exact
// square of y. The last FMA rounds once, so results are within ~0.5 ulp
// (tests measure the bound) at a fraction of the cost of sqrt + divide.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "src/kernels/rsqrt.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "src/kernels/simd-inl.h"

HWY_BEFORE_NAMESPACE();
namespace pto {
namespace HWY_NAMESPACE {

#if HWY_NATIVE_FMA
template <class D>
HWY_INLINE hn::Vec<D> Rsqrt(D d, hn::Vec<D> x) {
  const auto one = hn::Set(d, 1.0f);
  const auto zero = hn::Zero(d);
  const auto inf = hn::Set(d, HUGE_VALF);
  // Subnormal inputs (which estimates treat as zero) are scaled up by 2^24
  // and the result by 2^12; inputs above 2^64 are scaled down by 2^-64 so
  // that y*y below stays a normal number.
  const auto tiny = hn::Lt(x, hn::Set(d, 0x1p-126f));
  const auto huge = hn::Gt(x, hn::Set(d, 0x1p64f));
  auto x_scale = hn::IfThenElse(tiny, hn::Set(d, 0x1p24f), one);
  x_scale = hn::IfThenElse(huge, hn::Set(d, 0x1p-64f), x_scale);
  auto scale = hn::IfThenElse(tiny, hn::Set(d, 0x1p12f), one);
  scale = hn::IfThenElse(huge, hn::Set(d, 0x1p-32f), scale);
  const auto xs = hn::Mul(x, x_scale);

  auto y = hn::ApproximateReciprocalSqrt(xs);
  const auto half_x = hn::Mul(xs, hn::Set(d, 0.5f));
  y = hn::Mul(y, hn::NegMulAdd(hn::Mul(half_x, y), y, hn::Set(d, 1.5f)));
  const auto yy = hn::Mul(y, y);
  const auto yy_low = hn::MulSub(y, y, yy);  // y*y - yy, exact
  auto residual = hn::NegMulAdd(xs, yy, one);
  residual = hn::NegMulAdd(xs, yy_low, residual);
  y = hn::MulAdd(hn::Mul(y, hn::Set(d, 0.5f)), residual, y);
  y = hn::Mul(y, scale);

  // Zeros, negatives, infinity and NaN: rare, handled per vector.
  const auto regular = hn::And(hn::Gt(x, zero), hn::Lt(x, inf));
  if (HWY_UNLIKELY(!hn::AllTrue(d, regular))) {
    y = hn::IfThenElse(regular, y, hn::Div(one, hn::Sqrt(x)));
  }
  return y;
}
#elif HWY_TARGET == HWY_SCALAR
// The one-lane fallback: sqrt and divide in double, rounded once.
template <class D>
HWY_INLINE hn::Vec<D> Rsqrt(D d, hn::Vec<D> x) {
  const hn::Rebind<double, D> dd;
  return hn::DemoteTo(d, hn::Div(hn::Set(dd, 1.0), hn::Sqrt(hn::PromoteTo(dd, x))));
}
#else
// Without fused multiply-add the residual above loses its accuracy, so these
// targets take sqrt and divide in double lanes and round once.
template <class D>
HWY_INLINE hn::Vec<D> Rsqrt(D d, hn::Vec<D> x) {
  const hn::Half<D> dh;
  const hn::Rebind<double, decltype(dh)> dd;
  const auto one = hn::Set(dd, 1.0);
  const auto lo = hn::Div(one, hn::Sqrt(hn::PromoteTo(dd, hn::LowerHalf(dh, x))));
  const auto hi = hn::Div(one, hn::Sqrt(hn::PromoteTo(dd, hn::UpperHalf(dh, x))));
  return hn::Combine(d, hn::DemoteTo(dh, hi), hn::DemoteTo(dh, lo));
}
#endif

template <typename T>
void RsqrtTyped(size_t rows, size_t cols, kernels::Plane dst, kernels::ConstPlane src) {
  ForEachUnary(ComputeTag<T>(), rows, cols, static_cast<T*>(dst.data), dst.stride,
               static_cast<const T*>(src.data), src.stride,
               [](auto d, const T* in, T* out) { StoreAs(d, Rsqrt(d, LoadAs(d, in)), out); });
}

void RsqrtImpl(pto_dtype dtype, size_t rows, size_t cols, kernels::Plane dst,
               kernels::ConstPlane src) {
  if (dtype == PTO_FLOAT32) RsqrtTyped<float>(rows, cols, dst, src);
  if (dtype == PTO_FLOAT16) RsqrtTyped<hwy::float16_t>(rows, cols, dst, src);
}

}  // namespace HWY_NAMESPACE
}  // namespace pto
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include "src/kernels/kernels.h"
namespace pto {
HWY_EXPORT(RsqrtImpl);
namespace kernels {
void Rsqrt(pto_dtype dtype, size_t rows, size_t cols, Plane dst, ConstPlane src) {
  HWY_DYNAMIC_DISPATCH(RsqrtImpl)(dtype, rows, cols, dst, src);
}
}  // namespace kernels
}  // namespace pto
#endif
