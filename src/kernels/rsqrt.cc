// Reciprocal square root family.
//
// With FMA (AVX2, AVX-512, NEON, SVE): a hardware estimate and one
// higher-order correction whose residual is formed exactly with FMAs; the
// last FMA rounds once, so results are within ~0.5 ulp (an exhaustive test
// over [1, 4) measures the bound on every target), cheaper than sqrt +
// divide. The estimate's precision differs per target: 12 bits (AVX2) or 14
// (AVX-512) on x86, about 8 on Arm (FRSQRTE), so the correction has three
// terms on x86 and five elsewhere. Targets without FMA compute sqrt and
// divide in double lanes and round once.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "src/kernels/rsqrt.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "src/kernels/simd-inl.h"

HWY_BEFORE_NAMESPACE();
namespace pto {
namespace HWY_NAMESPACE {

#if HWY_NATIVE_FMA
// y ~ 1/sqrt(x) from the estimate y0 = (1 + e) / sqrt(x): with the residual
// r = 1 - x*y0^2 (~ -2e), 1/sqrt(x) = y0 * (1 - r)^(-1/2)
// = y0 * (1 + r/2 + 3r^2/8 + 5r^3/16 + 35r^4/128 + ...). r is formed from
// the exact square y0^2 = yy + lo with FMAs, so the final FMA is the only
// rounding that matters, plus the truncation of the series:
//   x86, |e| <= 1.5 * 2^-12: terms up to r^2 leave 5r^3/16 < 2^-31;
//   other targets (Arm's FRSQRTE, |e| < 2^-7.5; the portable assumption):
//   terms up to r^4 leave 63r^5/256 < 2^-34.
// Requires x in [2^-126, 2^64) so that y0^2 is a normal number.
template <class D>
HWY_INLINE hn::Vec<D> RsqrtInRange(D d, hn::Vec<D> x) {
  const auto one = hn::Set(d, 1.0f);
  const auto y0 = hn::ApproximateReciprocalSqrt(x);
  const auto yy = hn::Mul(y0, y0);
  const auto lo = hn::MulSub(y0, y0, yy);  // y0*y0 - yy, exact
  auto r = hn::NegMulAdd(x, yy, one);
  r = hn::NegMulAdd(x, lo, r);
#if PTO_X86_SPECIALIZED
  const auto poly = hn::MulAdd(r, hn::Set(d, 0.375f), hn::Set(d, 0.5f));
#else
  auto poly = hn::MulAdd(r, hn::Set(d, 0.2734375f), hn::Set(d, 0.3125f));
  poly = hn::MulAdd(poly, r, hn::Set(d, 0.375f));
  poly = hn::MulAdd(poly, r, hn::Set(d, 0.5f));
#endif
  return hn::MulAdd(hn::Mul(y0, r), poly, y0);
}

// Any input: scales subnormals up by 2^24 (result by 2^12) and inputs of
// 2^64 and above down by 2^-64 (result by 2^-32), and gives the IEEE results
// for zeros, negatives, infinity and NaN.
template <class D>
HWY_NOINLINE hn::Vec<D> RsqrtAnyInput(D d, hn::Vec<D> x) {
  const auto one = hn::Set(d, 1.0f);
  const auto tiny = hn::Lt(x, hn::Set(d, 0x1p-126f));
  const auto huge = hn::Ge(x, hn::Set(d, 0x1p64f));
  auto x_scale = hn::IfThenElse(tiny, hn::Set(d, 0x1p24f), one);
  x_scale = hn::IfThenElse(huge, hn::Set(d, 0x1p-64f), x_scale);
  auto y_scale = hn::IfThenElse(tiny, hn::Set(d, 0x1p12f), one);
  y_scale = hn::IfThenElse(huge, hn::Set(d, 0x1p-32f), y_scale);
  const auto y = hn::Mul(RsqrtInRange(d, hn::Mul(x, x_scale)), y_scale);
  const auto regular = hn::And(hn::Gt(x, hn::Zero(d)), hn::Lt(x, hn::Set(d, HUGE_VALF)));
  return hn::IfThenElse(regular, y, hn::Div(one, hn::Sqrt(x)));
}

template <class D>
HWY_INLINE hn::Vec<D> Rsqrt(D d, hn::Vec<D> x) {
  const auto in_range = hn::And(hn::Ge(x, hn::Set(d, 0x1p-126f)), hn::Lt(x, hn::Set(d, 0x1p64f)));
  if (HWY_LIKELY(hn::AllTrue(d, in_range))) return RsqrtInRange(d, x);
  return RsqrtAnyInput(d, x);
}
#else
// Without fused multiply-add the residual above loses its accuracy, so these
// targets take sqrt and divide in double lanes and round once.
template <class D>
HWY_INLINE hn::Vec<D> RsqrtViaDouble(D d, hn::Vec<D> x) {
  const hn::Rebind<double, D> dd;
  (void)d;
  return DemoteToF32(dd, hn::Div(hn::Set(dd, 1.0), hn::Sqrt(hn::PromoteTo(dd, x))));
}

template <class D>
HWY_INLINE hn::Vec<D> Rsqrt(D d, hn::Vec<D> x) {
#if HWY_TARGET == HWY_SCALAR
  return RsqrtViaDouble(d, x);
#else
  if constexpr (hn::MaxLanes(D()) == 1) {
    return RsqrtViaDouble(d, x);
  } else {
    const hn::Half<D> dh;
    return hn::Combine(d, RsqrtViaDouble(dh, hn::UpperHalf(dh, x)),
                       RsqrtViaDouble(dh, hn::LowerHalf(dh, x)));
  }
#endif
}
#endif  // HWY_NATIVE_FMA

template <typename T>
void RsqrtTyped(size_t rows, size_t cols, const kernels::Plane& dst, const kernels::ConstPlane& src) {
  ForEachUnaryAnyWidth(ComputeTag<T>(), rows, cols, static_cast<T*>(dst.data), dst.stride,
               static_cast<const T*>(src.data), src.stride,
               [](auto d, const T* in, T* out) { StoreAs(d, Rsqrt(d, LoadAs(d, in)), out); });
}

void RsqrtImpl(pto_dtype dtype, size_t rows, size_t cols, const kernels::Plane& dst,
               const kernels::ConstPlane& src) {
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
void Rsqrt(pto_dtype dtype, size_t rows, size_t cols, const Plane& dst, const ConstPlane& src) {
  HWY_DYNAMIC_DISPATCH(RsqrtImpl)(dtype, rows, cols, dst, src);
}
}  // namespace kernels
}  // namespace pto
#endif
