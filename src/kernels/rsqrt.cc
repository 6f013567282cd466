// Reciprocal square root family: float32 results correctly rounded (the
// nearest float to the exact 1/sqrt(x), ties cannot occur) on every target,
// so every target gives the same bits.
//
// Targets without FMA compute sqrt and divide in double lanes and round once
// (RsqrtViaDouble). The double result is within 2^-52 (relative) of the exact
// one; it rounds to the right float32 unless the exact value lies that close
// to a float32 midpoint. Every positive float32 is 4^k times one in [1, 4),
// and both the double operations and the final rounding commute with that
// scaling (double never under- or overflows here), so the test's exhaustive
// sweep of [1, 4) covers every input: it finds one close case (x = 0x403a18e3,
// 2^-52.2 from a midpoint) and that one rounds right too.
//
// FMA targets (AVX2, AVX-512, NEON, SVE) bracket the exact value between two
// cheap float results (RsqrtBracket below); the rare vector with a lane whose
// two results differ goes to an exact decision (RsqrtNearMidpoint), and vectors with inputs outside [2^-126, 2^64) (zeros,
// negatives, infinities, NaN, subnormals, huge values) to RsqrtViaDouble.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "src/kernels/rsqrt.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "src/kernels/simd-inl.h"

HWY_BEFORE_NAMESPACE();
namespace pto {
namespace HWY_NAMESPACE {

// f(dd, a, b, c) on the lanes of a, b, c widened to double, the double
// result rounded once to float32 (one split into halves where the doubles
// need two vectors).
template <class D, class F>
HWY_INLINE hn::Vec<D> InDoubleLanes(D d, const F& f, hn::Vec<D> a, hn::Vec<D> b, hn::Vec<D> c) {
  const auto whole = [&f](auto df, auto va, auto vb, auto vc) {
    const hn::Rebind<double, decltype(df)> dd;
    return DemoteToF32(dd, f(dd, hn::PromoteTo(dd, va), hn::PromoteTo(dd, vb), hn::PromoteTo(dd, vc)));
  };
#if HWY_TARGET == HWY_SCALAR
  return whole(d, a, b, c);
#else
  if constexpr (hn::MaxLanes(D()) == 1) {
    return whole(d, a, b, c);
  } else {
    const hn::Half<D> dh;
    return hn::Combine(d, whole(dh, hn::UpperHalf(dh, a), hn::UpperHalf(dh, b), hn::UpperHalf(dh, c)),
                       whole(dh, hn::LowerHalf(dh, a), hn::LowerHalf(dh, b), hn::LowerHalf(dh, c)));
  }
#endif
}

// Any input, IEEE results for zeros (+-inf), negatives (NaN), +inf (+0) and NaN.
template <class D>
HWY_NOINLINE hn::Vec<D> RsqrtViaDouble(D d, hn::Vec<D> x) {
  return InDoubleLanes(
      d, [](auto dd, auto xd, auto, auto) { return hn::Div(hn::Set(dd, 1.0), hn::Sqrt(xd)); }, x, x, x);
}

#if HWY_NATIVE_FMA
// An estimate y0 = (1 + e) / sqrt(x) with |e| <= 1.5 * 2^-12. x86's RSQRTPS
// guarantees that (AVX-512's RSQRT14PS 2^-14); elsewhere (Arm's FRSQRTE, about
// 8 bits; the portable assumption is |e| <= 2^-7) one Newton step
// y0 (1 + r0/2), r0 = 1 - x y0^2, leaves |e| <= 1.5 e^2 + 2^-22 < 0.4 * 2^-12.
template <class D>
HWY_INLINE hn::Vec<D> EstimateTo12Bits(D d, hn::Vec<D> x) {
  const auto y0 = hn::ApproximateReciprocalSqrt(x);
#if PTO_X86_SPECIALIZED
  (void)d;
  return y0;
#else
  const auto r0 = hn::NegMulAdd(x, hn::Mul(y0, y0), hn::Set(d, 1.0f));
  return hn::MulAdd(hn::Mul(y0, hn::Set(d, 0.5f)), r0, y0);
#endif
}

// For x in [2^-126, 2^64): y_lo <= 1/sqrt(x) <= y_hi (or the reverse),
// rounded once each, so that where they are the same float, that float is
// 1/sqrt(x) correctly rounded (rounding is monotonic). Elsewhere they are
// adjacent floats (the interval is narrower than 2^-31 y).
//
// y0 is the estimate rounded to 12 significant bits: y0 = (1 + e)/sqrt(x),
// |e| <= (1 + 1.5*2^-12)(1 + 2^-12) - 1 < 2.51 * 2^-12, and y0^2 is exact in
// float32. The residual r = 1 - x*y0^2, |r| <= 2|e| + e^2 < 5.03 * 2^-12 = R,
// is rounded once (the FMA; relative error <= u = 2^-24). Then
//   1/sqrt(x) = y0 (1 - r)^(-1/2) = y0 + y0 r P*,
//   P* = 1/2 + 3r/8 + 5r^2/16 + 35r^3/128 + ...
// Computed: y0r = RN(y0 r) and P = RN(1/2 + r (3/8 + 5r/16)), so that
// y0 r P* = y0r P' with P' = P* / ((1 + d0)(1 + d1)), |d0|, |d1| <= u, and
// |P' - P| <= 2u * 0.501 (d0, d1) + 2^-25 (rounding P near 1/2)
//   + 0.276 R^3 (the series' tail) + 2^-35 (r's and 3/8 + 5r/16's roundings
//   inside the polynomial) < 1.52u.
// p_hi = P + 2u (rounded together with P) and p_lo = p_hi - 4u (exact: both
// are multiples of 2^-25 in [1/4, 1)) thus bracket P', and y_hi, y_lo are
// RN(y0 + y0r * p_hi), RN(y0 + y0r * p_lo), the exact value lying between
// y0 + y0r*p_lo and y0 + y0r*p_hi. The interval is 4u |y0r| < 2^-31.6 y
// wide: random inputs see two different floats in about 1% of lanes.
template <class D>
HWY_INLINE hn::Vec<D> RsqrtBracket(D d, hn::Vec<D> x, hn::Vec<D>& y_lo) {
  const hn::RebindToSigned<D> di;
  // Round to nearest on the 12th significant bit; a carry into the exponent
  // gives the next power of two, still exact.
  const auto y0 = hn::BitCast(
      d, hn::And(hn::Add(hn::BitCast(di, EstimateTo12Bits(d, x)), hn::Set(di, 0x800)),
                 hn::Set(di, ~0xFFF)));
  const auto r = hn::NegMulAdd(x, hn::Mul(y0, y0), hn::Set(d, 1.0f));
  const auto q = hn::MulAdd(r, hn::Set(d, 0.3125f), hn::Set(d, 0.375f));
  const auto p_hi = hn::MulAdd(q, r, hn::Set(d, 0.5f + 0x1p-23f));
  const auto p_lo = hn::Sub(p_hi, hn::Set(d, 0x1p-22f));
  const auto y0r = hn::Mul(y0, r);
  y_lo = hn::MulAdd(y0r, p_lo, y0);
  return hn::MulAdd(y0r, p_hi, y0);
}

// The exact decision between adjacent y_lo and y_hi (or equal ones), for x
// in [2^-126, 2^64). With m = (y_lo + y_hi)/2 (25 significant bits; m^2
// exact in double), 1/sqrt(x) > m exactly when x m^2 < 1: the sign of the
// one rounding of x (2m)^2 - 4 is that of the exact value, which is never 0
// for a midpoint m (1/sqrt(x) is never a midpoint) and at least 2^-73 in
// size (x m^2 = X M^2 2^k with integers X < 2^24, M < 2^25), so it survives
// the rounding to float32.
template <class D>
HWY_NOINLINE hn::Vec<D> RsqrtNearMidpoint(D d, hn::Vec<D> x, hn::Vec<D> y_lo, hn::Vec<D> y_hi) {
  const auto s = InDoubleLanes(
      d,
      [](auto dd, auto xd, auto lo, auto hi) {
        const auto m2 = hn::Add(lo, hi);
        return hn::MulAdd(xd, hn::Mul(m2, m2), hn::Set(dd, -4.0));
      },
      x, y_lo, y_hi);
  const auto above = hn::Lt(s, hn::Zero(d));
  return hn::IfThenElse(above, hn::Max(y_lo, y_hi), hn::Min(y_lo, y_hi));
}

template <class D>
HWY_INLINE hn::Vec<D> Rsqrt(D d, hn::Vec<D> x) {
  const hn::RebindToSigned<D> di;
  hn::Vec<D> y_lo;
  const auto y_hi = RsqrtBracket(d, x, y_lo);
  // x in [2^-126, 2^64), bits in [0x00800000, 0x5F800000): moved to start
  // at INT32_MIN, one signed compare.
  const auto moved = hn::Add(hn::BitCast(di, x), hn::Set(di, 0x7F800000));
  const auto in_range = hn::RebindMask(d, hn::Lt(moved, hn::Set(di, -0x21000000)));
  if (HWY_LIKELY(hn::AllTrue(d, hn::And(hn::Eq(y_lo, y_hi), in_range)))) return y_hi;
  if (!hn::AllTrue(d, in_range)) return RsqrtViaDouble(d, x);
  return RsqrtNearMidpoint(d, x, y_lo, y_hi);
}
#else
template <class D>
HWY_INLINE hn::Vec<D> Rsqrt(D d, hn::Vec<D> x) {
  return RsqrtViaDouble(d, x);
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
