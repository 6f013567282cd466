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
// cheap float results (RsqrtBracket below) and keep the upper one where one
// compare shows both equal and the input in range (RsqrtFastPathHolds). The
// rare vector failing that goes to an exact decision (RsqrtNearMidpoint)
// when its inputs lie in [2^-126, 2^64), else to RsqrtViaDouble (zeros,
// negatives, infinities, NaN, subnormals, huge values).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "src/kernels/rsqrt.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "src/kernels/portable-inl.h"
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
    return DemoteToF32(dd,
                       f(dd, hn::PromoteTo(dd, va), hn::PromoteTo(dd, vb), hn::PromoteTo(dd, vc)));
  };
#if HWY_TARGET == HWY_SCALAR
  return whole(d, a, b, c);
#else
  if constexpr (hn::MaxLanes(D()) == 1) {
    return whole(d, a, b, c);
  } else {
    const hn::Half<D> dh;
    return hn::Combine(d,
                       whole(dh, hn::UpperHalf(dh, a), hn::UpperHalf(dh, b), hn::UpperHalf(dh, c)),
                       whole(dh, hn::LowerHalf(dh, a), hn::LowerHalf(dh, b), hn::LowerHalf(dh, c)));
  }
#endif
}

// Any input, IEEE results for zeros (+-inf), negatives (NaN), +inf (+0) and NaN.
template <class D>
HWY_NOINLINE hn::Vec<D> RsqrtViaDouble(D d, hn::Vec<D> x) {
  return InDoubleLanes(
      d, [](auto dd, auto xd, auto, auto) { return hn::Div(hn::Set(dd, 1.0), hn::Sqrt(xd)); }, x, x,
      x);
}

#if HWY_NATIVE_FMA
// For x > 0 below 2^125 whose y0 (below) is below 2^64 (every x from
// 2^-126 up is): y_lo < 1/sqrt(x) < y_hi (or the reverse), rounded once
// each, so that where they are the same float, that float is 1/sqrt(x)
// correctly rounded (rounding is monotonic). Elsewhere they are adjacent
// floats (the interval is narrower than 2^-30.8 y).
//
// y0 is the estimate (EstimateTo12Bits: x86-inl.h, portable-inl.h, both
// within (1 + e)/sqrt(x), |e| <= 1.5 * 2^-12) with its low 12 bits cleared (12 significant bits;
// one AND, no carry to handle): y0 = est (1 - t), 0 <= t < 2^-11, so y0 = (1 + e)/sqrt(x) with -3.5
// * 2^-12 < e <= 1.5 * 2^-12. Then y0 = M 2^j, M < 2^12, j >= -74 (y0 > 2^-63), so y0^2 is exact in
// float32. The residual r = 1 - x*y0^2 = -e (2 + e), |r| < 7 * 2^-12 = R, is rounded once (the FMA;
// relative error <= u = 2^-24). r is 0 or above 2^-49 in size (1 and x*y0^2 = X M^2 2^k, X < 2^24,
// are multiples of 2^k >= 2^-49), so y0 r stays a normal number. Then
//   1/sqrt(x) = y0 (1 - r)^(-1/2) = y0 + y0 r P*,
//   P* = 1/2 + 3r/8 + 5r^2/16 + 35r^3/128 + ... (< 0.501).
// Computed: y0r = RN(y0 r), q = RN(3/8 + 5r/16), so that y0 r P* = y0r P'
// with P' = P* / ((1 + d0)(1 + d1)), |d0|, |d1| <= u (y0r's and r's
// roundings). With E = 1/2 + r q exactly (the computed r and q),
// |P' - E| <= 2u * 0.501 (d0, d1) + 0.276 R^3 (the series' tail)
//   + 3R/8 u (r's rounding in 3r/8) + R u/4 (q's rounding) < 1.03u.
// p_hi = RN(E + 2u) and p_lo = RN(E - 2u), each one FMA from q and r and
// within u/2 of its exact value (both near 1/2), thus p_lo < P' < p_hi and
// p_hi - p_lo <= 5u. y_hi, y_lo are RN(y0 + y0r * p_hi), RN(y0 + y0r * p_lo),
// the exact value lying strictly between y0 + y0r*p_lo and y0 + y0r*p_hi.
// The interval is at most 5u |y0r| < 35 * 2^-36 (1 + 2^-11) y < 2^-30.8 y
// wide: random inputs see two different floats in about 0.1% of lanes.
//
// Other inputs give y_lo and y_hi that RsqrtFastPathHolds rejects:
// x >= 2^125 finite: only y0^2's rounding (relative error <= 2^-21, y0^2
//   >= 2^-128) adds to the above, so both are below 2^-62.5 (1 + 2^-20).
// +-0, +inf, negatives and NaN: an estimate of +-inf, 0 or NaN makes r NaN.
// Tiny x whose y0 is +inf or 2^64 or more (RSQRTPS reads subnormals as 0):
//   y0^2 = inf, r = -inf, and y_hi = y_lo = -inf or NaN.
template <class D>
HWY_INLINE hn::Vec<D> RsqrtBracket(D d, hn::Vec<D> x, hn::Vec<D>& y_lo) {
  const hn::RebindToSigned<D> di;
  const auto y0 =
      hn::BitCast(d, hn::And(hn::BitCast(di, EstimateTo12Bits(d, x)), hn::Set(di, ~0xFFF)));
  const auto r = hn::NegMulAdd(x, hn::Mul(y0, y0), hn::Set(d, 1.0f));
  const auto q = hn::MulAdd(r, hn::Set(d, 0.3125f), hn::Set(d, 0.375f));
  // Two FMAs side by side rather than p_hi - 4u: one step less on the
  // longest dependency chain.
  const auto p_hi = hn::MulAdd(q, r, hn::Set(d, 0.5f + 0x1p-23f));
  const auto p_lo = hn::MulAdd(q, r, hn::Set(d, 0.5f - 0x1p-23f));
  const auto y0r = hn::Mul(y0, r);
  y_lo = hn::MulAdd(y0r, p_lo, y0);
  return hn::MulAdd(y0r, p_hi, y0);
}

// True when y_hi is 1/sqrt(x) correctly rounded in every lane, for any x:
// max(y_lo, 2^-62) == y_hi, one compare for both conditions, y_lo == y_hi
// and x in RsqrtBracket's range. Lanes with y_lo >= 2^-62 pass exactly when
// y_lo == y_hi >= 2^-62, which rules out the x >= 2^125 above; -inf and NaN
// fail the compare (y_lo and y_hi differ only in p_lo, p_hi, which are both
// NaN, both +inf or both above 0.38, so one is NaN exactly when the other
// is; Max with a NaN gives NaN or 2^-62). Lanes with y_lo < 2^-62 pass only
// if y_hi == 2^-62 != y_lo, impossible in range: 1/sqrt(x) would lie within
// 2^-30.8 of the midpoint 2^-62 (1 - 2^-25), so x = 2^124 (1 + 2^-24 +- 2^-29),
// not a float.
template <class D>
HWY_INLINE bool RsqrtFastPathHolds(D d, hn::Vec<D> y_lo, hn::Vec<D> y_hi) {
  return hn::AllTrue(d, hn::Eq(hn::Max(y_lo, hn::Set(d, 0x1p-62f)), y_hi));
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
  hn::Vec<D> y_lo;
  const auto y_hi = RsqrtBracket(d, x, y_lo);
  if (HWY_LIKELY(RsqrtFastPathHolds(d, y_lo, y_hi))) return y_hi;
  // x in [2^-126, 2^64), bits in [0x00800000, 0x5F800000): moved to start
  // at INT32_MIN, one signed compare.
  const hn::RebindToSigned<D> di;
  const auto moved = hn::Add(hn::BitCast(di, x), hn::Set(di, 0x7F800000));
  if (!hn::AllTrue(di, hn::Lt(moved, hn::Set(di, -0x21000000)))) return RsqrtViaDouble(d, x);
  return RsqrtNearMidpoint(d, x, y_lo, y_hi);
}
#else
template <class D>
HWY_INLINE hn::Vec<D> Rsqrt(D d, hn::Vec<D> x) {
  return RsqrtViaDouble(d, x);
}
#endif  // HWY_NATIVE_FMA

template <typename T>
HWY_INLINE void RsqrtTyped(size_t rows, size_t cols, T* dst, size_t dst_stride, const T* src,
                           size_t src_stride) {
  ForEachUnaryAnyWidth(
      ComputeTag<T>(), rows, cols, dst, dst_stride, src, src_stride,
      [](auto d, const T* in, T* out) { StoreAs(d, Rsqrt(d, LoadAs(d, in)), out); });
}

void RsqrtImpl(pto_dtype dtype, size_t rows, size_t cols, const kernels::Plane& dst,
               const kernels::ConstPlane& src) {
  VisitDtypeAmong<float, hwy::float16_t>(dtype, [&](auto tag) {
    using T = decltype(tag);
    RsqrtTyped<T>(rows, cols, static_cast<T*>(dst.data), dst.stride,
                  static_cast<const T*>(src.data), src.stride);
  });
}

// n contiguous elements as one row, float32 decided first.
void RsqrtContiguousImpl(pto_dtype dtype, size_t n, void* dst, const void* src) {
  if (HWY_LIKELY(dtype == PTO_FLOAT32)) {
    return RsqrtTyped<float>(1, n, static_cast<float*>(dst), 0, static_cast<const float*>(src), 0);
  }
  VisitDtypeAmong<hwy::float16_t>(dtype, [&](auto tag) {
    using T = decltype(tag);
    RsqrtTyped<T>(1, n, static_cast<T*>(dst), 0, static_cast<const T*>(src), 0);
  });
}

}  // namespace HWY_NAMESPACE
}  // namespace pto
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include "src/kernels/kernels.h"
namespace pto {
HWY_EXPORT(RsqrtImpl);
HWY_EXPORT(RsqrtContiguousImpl);
namespace kernels {
void Rsqrt(pto_dtype dtype, size_t rows, size_t cols, const Plane& dst, const ConstPlane& src) {
  PTO_DYNAMIC_DISPATCH(RsqrtImpl)(dtype, rows, cols, dst, src);
}
void RsqrtContiguous(pto_dtype dtype, size_t n, void* dst, const void* src) {
  PTO_DYNAMIC_DISPATCH(RsqrtContiguousImpl)(dtype, n, dst, src);
}
}  // namespace kernels
}  // namespace pto
#endif
