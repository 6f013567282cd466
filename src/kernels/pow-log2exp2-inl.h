// Log2Exp2: |x|^y = 2^(y * log2|x|) in double lanes, after the design of the
// glibc / ARM optimized-routines powf, with 4-entry tables (a lane permute
// or selects instead of a gather). HIGH_PRECISION for every float type, and
// DEFAULT on targets without FMA.
//   - log2: |x| = 2^k * z with z in [0.674, 1.349) (SplitLog2Argument); the
//     top two mantissa bits of z pick c from a table holding invc ~ 1/c (an
//     f32 value, so r = z * invc - 1 is exact in double) and log2(c); then
//     log2|x| = k + log2(c) + r * P(r) with |r| <= 0.1022. The bucket around
//     1 has c = 1 exactly, so x near 1 loses nothing.
//   - exp2: t = y * log2|x| in double, clamped to +-200 so that 2^t stays a
//     normal double. 2^t = 2^(k + i/4) * Q(r) with round(4 t) = 4 k + i,
//     |r| <= 1/8.
// HIGH_PRECISION is correctly rounded (to nearest, ties to even) in the
// storage type: P of degree 10 and Q of degree 6 (see HighPolynomial)
// bound the double result's error by 2^-41.3 relative (MarkHardToRound
// derives it); a lane whose result lies closer than that to a rounding
// boundary of the format, or below its normal range (FLOAT16: below
// 2^-150), goes to the accurate path (pow-accurate.cc), one lane at a time.
// DEFAULT without FMA uses P of degree 6 and Q of degree 4 by Horner's rule
// and rounds the double result once: Q's fit 2^-27.5 and log2's 2^-32.0,
// which t = y log2|x| carries into 2^t as up to ln 2 * 129 * 2^-32 =
// 2^-25.2 (|t| <= 129 for normal results), keep it within about 2^-24.9 of
// x^y before that rounding.
//
// Re-included once per target by foreach_target.h, hence the toggle guard.
#if defined(PTO_KERNELS_POW_LOG2EXP2_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef PTO_KERNELS_POW_LOG2EXP2_INL_H_
#undef PTO_KERNELS_POW_LOG2EXP2_INL_H_
#else
#define PTO_KERNELS_POW_LOG2EXP2_INL_H_
#endif

#include <stddef.h>
#include <stdint.h>

#include "hwy/highway.h"
#include "src/kernels/polynomial-inl.h"
#include "src/kernels/pow-accurate.h"
#include "src/kernels/pow-argument-inl.h"
#include "src/kernels/portable-inl.h"
#include "src/kernels/pow-tables.h"
#include "src/kernels/pow-tuning-inl.h"
#include "src/kernels/simd-inl.h"

HWY_BEFORE_NAMESPACE();
namespace pto {
namespace HWY_NAMESPACE {

// The format that HIGH_PRECISION rounds storage type T to.
template <typename T>
constexpr pow_accurate::Format FormatOf() {
  return hwy::IsSame<T, float>()            ? pow_accurate::kFloat32
         : hwy::IsSame<T, hwy::float16_t>() ? pow_accurate::kFloat16
                                            : pow_accurate::kBFloat16;
}

#if HWY_TARGET != HWY_SCALAR

// kLoneChain where kShortChain (a row tail of at most half a vector), else
// kOverlapped (PolyUse, pow-tuning-inl.h).
constexpr PolyUse PolyUseFor(bool short_chain) {
  return short_chain ? PolyUse::kLoneChain : PolyUse::kOverlapped;
}

// One of HIGH_PRECISION's polynomials (P of degree 10, Q of degree 6) by the
// scheme that pow-tuning-inl.h picks for this target and kUse
// (HighPolyScheme). Every scheme keeps within the error that
// MarkHardToRound assumes, so the results are the same bits whichever it
// is.
template <PolyUse kUse, size_t kN, class DD>
HWY_INLINE hn::Vec<DD> HighPolynomial(DD dd, hn::Vec<DD> x, const double (&c)[kN]) {
  constexpr PolyScheme kScheme = HighPolyScheme(kUse);
  if constexpr (kScheme == PolyScheme::kHorner) {
    return Horner(dd, x, c);
  } else if constexpr (kScheme == PolyScheme::kEvenOdd) {
    return EvenOdd(dd, x, c);
  } else {
    return Estrin(dd, x, c);
  }
}

// kc + r P(r), P HIGH_PRECISION's log2 polynomial kLog2High, evaluated as
// HighPolynomial does for kUse; where that is EvenOdd, kc joins the even
// chain (EvenOddPlus: as many FMAs, one fewer on the chain).
template <PolyUse kUse, class DD>
HWY_INLINE hn::Vec<DD> HighLog2Sum(DD dd, hn::Vec<DD> r, hn::Vec<DD> kc) {
  if constexpr (HighPolyScheme(kUse) == PolyScheme::kEvenOdd) {
    return EvenOddPlus(dd, r, pow_tables::kLog2High, kc);
  } else {
    return hn::MulAdd(r, HighPolynomial<kUse>(dd, r, pow_tables::kLog2High), kc);
  }
}

// log2|x| for |x| = 2^k z, z in [kLogOff, 2 kLogOff) and bucket its table
// entry (see SplitLog2Argument). The polynomial's fit is 2^-32.0 (kHigh:
// 2^-49.67, pow-tables.h); with the evaluation, the relative error of the
// kHigh result is bounded in MarkHardToRound.
template <bool kHigh, bool kShortChain, class DD>
HWY_INLINE hn::Vec<DD> Log2Reduced(DD dd, hn::Vec<DD> z, hn::Vec<DD> k,
                                   hn::Vec<hn::RebindToUnsigned<DD>> bucket) {
  namespace tab = pow_tables;
  const auto invc = Lookup4(dd, tab::kInvC, bucket);
  const auto logc = Lookup4(dd, tab::kLogC, bucket);
  const auto r = hn::MulAdd(z, invc, hn::Set(dd, -1.0));  // exact
  const auto kc = hn::Add(k, logc);
  if constexpr (kHigh) return HighLog2Sum<PolyUseFor(kShortChain)>(dd, r, kc);
  return hn::MulAdd(r, Horner(dd, r, tab::kLog2Fast), kc);
}

// 2^t, t clamped to +-200 first (beyond that the f32 result is already 0 or
// infinity; the clamp keeps 2^t a normal double; a NaN t becomes -200, as
// HighDone requires). t = round(4 t) / 4 + r,
// |r| <= 1/8: Exp2Reduce returns r and sets *scale = 2^(round(4 t) / 4),
// and 2^t is *scale Q(r) (Exp2Clamped, Exp2Scaled).
template <class DD>
HWY_INLINE hn::Vec<DD> Exp2Reduce(DD dd, hn::Vec<DD> t, hn::Vec<DD>* scale) {
  const hn::RebindToUnsigned<DD> du;
  t = ClampExponent(dd, t);
  // t_shifted = t + shift holds j = round(4 t) in its low bits, and r =
  // t - (t_shifted - shift) is exact.
  const auto shift = hn::Set(dd, 0x1.8p52 / 4);
  const auto t_shifted = hn::Add(t, shift);
  const auto r = hn::Sub(t, hn::Sub(t_shifted, shift));
  const auto ki = hn::BitCast(du, t_shifted);
  const auto entry = Lookup4(du, pow_tables::kExp2Bits, Exp2Index(du, ki));
  *scale = hn::BitCast(dd, hn::Add(entry, hn::ShiftLeft<50>(ki)));
  return r;
}

// The fast path's 2^t without FMA (DEFAULT there): *scale times Q of
// degree 4; HIGH_PRECISION's is Exp2Scaled.
template <class DD>
HWY_INLINE hn::Vec<DD> Exp2Clamped(DD dd, hn::Vec<DD> t) {
  hn::Vec<DD> scale;
  const auto r = Exp2Reduce(dd, t, &scale);
  return hn::Mul(scale, Horner(dd, r, pow_tables::kExp2Fast));
}

// The lanes whose low kLowBits bits lie more than kAllowed last places from
// the pattern 10...0 of a rounding boundary, modulo 2^kLowBits (the
// rounding test, MarkHardToRound). bits: the doubles' bits, or their lower
// 32 (in 32-bit lanes) where the low kLowBits lie there.
template <int kLowBits, uint64_t kAllowed, class DU>
HWY_INLINE hn::Mask<DU> FarFromBoundary(DU du, hn::Vec<DU> bits) {
  using TU = hn::TFromD<DU>;
  static_assert(kLowBits < 8 * static_cast<int>(sizeof(TU)), "the low bits fit the lanes");
  const hn::RebindToSigned<DU> di;
  const auto from_lower_edge = hn::And(
      hn::Sub(bits, hn::Set(du, static_cast<TU>((uint64_t{1} << (kLowBits - 1)) - kAllowed))),
      hn::Set(du, static_cast<TU>((uint64_t{1} << kLowBits) - 1)));
  // Greater than, and the lanes kept rather than the ones zeroed: one compare
  // and one AND (a "less than" compiles to a compare and its negation).
  return hn::RebindMask(du,
                        hn::Gt(hn::BitCast(di, from_lower_edge),
                               hn::Set(di, static_cast<hn::TFromD<decltype(di)>>(2 * kAllowed))));
}

// The test's low bits of a double (53 - T's precision) and the last places
// it keeps from each boundary, for storage type T (see MarkHardToRound).
template <typename T>
constexpr int RoundingTestLowBits() {
  return 53 - FormatOf<T>().precision;
}
template <typename T>
constexpr uint64_t RoundingTestAllowed() {
  return (uint64_t{1} << 13) + (FormatOf<T>().precision < 24 ? (uint64_t{1} << 28) + 2 : 0);
}

// The rounding test of HIGH_PRECISION: v (> 0, a normal double) is the fast
// result and rounds correctly to T's format when no rounding boundary of
// the format lies within v's error of it; lanes where one may become 0,
// which RoundedLanes (below) leaves to the accurate path together with the
// lanes whose results fall below the format's normal range (their
// boundaries lie on a coarser grid), except for FLOAT16 (below).
//
// Error of v, relative to x^y (u = 2^-53):
//   log2|x| = k + logc + r P(r): P's fit 2^-49.67, its evaluation
//   (|r| <= 0.1022; Estrin: each of the four FMAs on the path of c0 rounds
//   once; Horner: the rounding of the FMA that adds c_i reaches the result
//   scaled by |r^i c_i / c_0| <= 0.1^i) 2u; EvenOdd (P = E(r^2) + r O(r^2),
//   |E| <= 1.058 |P|): the joining FMA u, the FMA that adds c0 to E 1.058u,
//   the one that adds c1 to O 0.054u (scaled by |r O / P|), r^2 and the
//   rest below 0.01u: 2.2u. The table's logc 0.5u, the addition and the FMA
//   u each. Outside the table bucket holding 1, |log2 x| >= 0.114 while
//   |r P(r)| <= 0.16 and |logc| <= 0.44, which bounds the cancellation:
//   relative error <= 8.5u + 1.4 * 2^-49.67 < 2^-48.5 (EvenOdd: 8.8u,
//   < 2^-48.48); in the bucket of 1, k + logc = 0 and it is 3.2u +
//   2^-49.67. HighLog2Sum's EvenOddPlus (kc = k + logc in E's chain) has
//   no separate final FMA; the FMA that adds kc to E rounds a value within
//   0.0076 of kc, E's other roundings and r^2 reach the result below
//   0.016u, O's 0.149u (the FMA that adds c0, scaled by |r|), the joining
//   FMA rounds once: with |r P(r)| <= 0.1556, 9.17u + 1.365 * 2^-49.67 <
//   2^-48.48 (bucket of 1: 2.2u + 2^-49.67). The product t = y log2|x|
//   adds u: t carries a relative error below 2^-48.4 (EvenOdd and
//   EvenOddPlus: 2^-48.42), and |t| <= 129 wherever the result is a normal
//   float or the boundary to infinity (beyond, the result is 0 or
//   infinity, or below the normal range), so 2^t carries
//   ln 2 * 129 * 2^-48.4 < 2^-41.9.
//   2^t = 2^(j/4) Q(r'), r' = t - j/4 exact: Q's fit 2^-42.89, its
//   evaluation (Horner or Estrin) 1.2u, EvenOdd 2.3u (Q >= 0.917, |E| <=
//   1.095 Q: the joining FMA u, the one that adds c0 1.095u, the one that
//   adds c1 to O 0.095u), the table entry u, the product u: below 2^-42.88.
//   (Exp2Scaled's scale + (scale r') Q1(r'), Q = 1 + r' Q1: Q1's
//   evaluation, at most 2.3u, and the rounding of scale r' reach the result
//   scaled by |r' Q1 / Q| <= 0.098, the final FMA rounds once: 1.33u in
//   place of Q's evaluation and the product, within the same bound.)
// So |v - x^y| < 2^-41.3 v, which in units of v's last place (v < 2^(e+1),
// ulp 2^(e-52)) is below 2^11.7; the test keeps 2^13 of them (a margin of
// 2.5) from each boundary. The format's boundaries are the doubles whose
// low 53 - precision bits are 10...0, so the test measures the distance of
// v's low bits from that pattern, modulo 2^(53 - precision). A FLOAT32
// lane fails it with a chance of about 2^-15.
//
// FLOAT16 and BFLOAT16 results are rounded to f32 (DemoteToF32) and then to
// the narrow type (StoreAs): the first rounding moves v by at most 2^28 of
// its last places, so the test also keeps that far from a boundary, and the
// f32 value rounds to the same narrow number as v (a lane fails with a
// chance of about 2^-13 for FLOAT16, 2^-16 for BFLOAT16).
//
// FLOAT16 below 2^-13 (its subnormals and lowest binade, one grid of step
// 2^-24, boundaries at the odd multiples of 2^-25) is tested on the bits of
// w = 2^-12 + v, whose last place is U = 2^-64, so that the boundaries are
// the w whose low 40 bits are 10...0. There |v - x^y| < 2^-54.3 = 2^9.7 U
// (the relative bound above for t >= -129; below, v and x^y are both under
// 2^-128, and with them their difference, the clamp of t included), the
// rounding to f32 moves v by at most 2^-38 = 2^26 U and the addition by
// U/2; the test keeps 2^26 + 2^13 + 2 U from each boundary (a lane fails it
// with a chance of about 2^-13). Such results are common (x^4 < 2^-14 for
// x < 0.09), and the accurate path costs as much as hundreds of fast lanes.
template <typename T, class DD>
HWY_INLINE hn::Vec<DD> MarkHardToRound(DD dd, hn::Vec<DD> v) {
  const hn::RebindToUnsigned<DD> du;
  auto far =
      FarFromBoundary<RoundingTestLowBits<T>(), RoundingTestAllowed<T>()>(du, hn::BitCast(du, v));
  if constexpr (hwy::IsSame<T, hwy::float16_t>()) {
    constexpr uint64_t kAllowedLow = (uint64_t{1} << 26) + (uint64_t{1} << 13) + 2;
    const auto w = hn::BitCast(du, hn::Add(v, hn::Set(dd, 0x1p-12)));
    const auto low = hn::RebindMask(du, hn::Lt(v, hn::Set(dd, 0x1p-13)));
    far = hn::Or(hn::And(low, FarFromBoundary<40, kAllowedLow>(du, w)), hn::AndNot(low, far));
  }
  return hn::IfThenElseZero(hn::RebindMask(dd, far), v);
}

// Lanes of |x|^y rounded to f32 that stand as they are: neither zeroed by
// MarkHardToRound nor at or below T's smallest normal number (mag >= +0,
// so its bits compare as integers); for FLOAT16, whose test covers its
// whole range, those not zeroed (nor below 2^-150). The others, the hard
// lanes, the accurate path computes. One compare that keeps the rounded
// lanes, rather than a mask of the hard ones to negate: GCC compiles a
// mask's negation, or AndNot with it, to a minimum and an equality.
template <typename T, class DF>
HWY_INLINE hn::Mask<DF> RoundedLanes(DF df, hn::Vec<DF> mag) {
  const hn::RebindToSigned<DF> di;
  const int32_t last_hard_bits = hwy::IsSame<T, hwy::float16_t>() ? 0 : 0x00800000;
  return hn::RebindMask(df, hn::Gt(hn::BitCast(di, mag), hn::Set(di, last_hard_bits)));
}

// log2|x| in double lanes for the lower or upper half of the f32 lanes (z,
// k and tmp from SplitLog2Argument).
template <bool kHigh, bool kUpper, bool kShortChain, class DF>
HWY_INLINE hn::Vec<hn::Rebind<double, hn::Half<DF>>> Log2Half(
    DF df, hn::Vec<DF> z, hn::Vec<hn::RebindToSigned<DF>> k,
    hn::Vec<hn::RebindToUnsigned<DF>> tmp) {
  const hn::Half<DF> dh;
  const hn::Half<hn::RebindToSigned<DF>> dhi;
  const hn::Rebind<double, decltype(dh)> dd;
  const auto zh = kUpper ? hn::UpperHalf(dh, z) : hn::LowerHalf(dh, z);
  const auto kh = kUpper ? hn::UpperHalf(dhi, k) : hn::LowerHalf(dhi, k);
  return Log2Reduced<kHigh, kShortChain>(dd, hn::PromoteTo(dd, zh), hn::PromoteTo(dd, kh),
                                         BucketIndexHalf<kUpper>(df, tmp));
}

// Q's coefficients from r's on: Q(r) = 1 + r Q1(r).
constexpr auto kExp2HighQ1 = WithoutFirst(pow_tables::kExp2High);
static_assert(pow_tables::kExp2High[0] == 1.0, "Q(r) = 1 + r Q1(r)");

// HIGH_PRECISION's 2^t in double lanes from Exp2Reduce's r and scale: scale
// Q(r), Q evaluated as HighPolynomial does for kUse; where Exp2ScaleInFma
// (pow-tuning-inl.h), as scale + (scale r) Q1(r): an FMA in place of Q's
// last one and the multiply by scale, which do not wait for each other.
template <PolyUse kUse, class DD>
HWY_INLINE hn::Vec<DD> Exp2Scaled(DD dd, hn::Vec<DD> r, hn::Vec<DD> scale) {
  if constexpr (Exp2ScaleInFma(kUse)) {
    return hn::MulAdd(hn::Mul(scale, r), HighPolynomial<kUse>(dd, r, kExp2HighQ1.c), scale);
  } else {
    return hn::Mul(scale, HighPolynomial<kUse>(dd, r, pow_tables::kExp2High));
  }
}

// HIGH_PRECISION's 2^t v rounded to f32: 0 where MarkHardToRound finds it too
// close to a boundary of T's format.
template <typename T, class DD>
HWY_INLINE hn::Vec<hn::Rebind<float, DD>> RoundedToF32(DD dd, hn::Vec<DD> v) {
  return DemoteToF32(dd, MarkHardToRound<T>(dd, v));
}

// RoundedToF32 of both halves of an f32 vector's 2^t (lo: its lower lanes),
// joined. Where the test's low bits lie in each double's lower 32 (FLOAT32:
// 29; FLOAT16 and BFLOAT16 read 42 and 45), those words of both halves go
// side by side in the f32 lanes' order (ConcatEven), one test covers them
// all, and the lanes it fails are zeroed after the conversion (the same
// zeros): one test in f32 lanes in place of one in each half's double
// lanes.
template <typename T, class DF, class DD = hn::Rebind<double, hn::Half<DF>>>
HWY_INLINE hn::Vec<DF> RoundedPairToF32(DF df, hn::Vec<DD> lo, hn::Vec<DD> hi) {
  const DD dd;
  if constexpr (RoundingTestLowBits<T>() < 32) {
    const hn::RebindToUnsigned<DF> du;
    const hn::Repartition<uint32_t, DD> dw;
    const auto low_words = hn::ConcatEven(du, hn::BitCast(dw, hi), hn::BitCast(dw, lo));
    const auto far =
        FarFromBoundary<RoundingTestLowBits<T>(), RoundingTestAllowed<T>()>(du, low_words);
    return hn::IfThenElseZero(hn::RebindMask(df, far),
                              hn::Combine(df, DemoteToF32(dd, hi), DemoteToF32(dd, lo)));
  } else {
    return hn::Combine(df, RoundedToF32<T>(dd, hi), RoundedToF32<T>(dd, lo));
  }
}

// 2^t rounded to f32 (kHigh: Exp2Scaled, then RoundedToF32).
template <bool kHigh, typename T, bool kShortChain, class DD>
HWY_INLINE hn::Vec<hn::Rebind<float, DD>> Exp2ToF32(DD dd, hn::Vec<DD> t) {
  if constexpr (kHigh) {
    hn::Vec<DD> scale;
    const auto r = Exp2Reduce(dd, t, &scale);
    return RoundedToF32<T>(dd, Exp2Scaled<PolyUseFor(kShortChain)>(dd, r, scale));
  } else {
    return DemoteToF32(dd, Exp2Clamped(dd, t));
  }
}

// t = y log2|x| in double lanes, yh the matching half of y's f32 lanes.
template <class DD>
HWY_INLINE hn::Vec<DD> YTimesLog2(DD dd, hn::Vec<hn::Rebind<float, DD>> yh, hn::Vec<DD> log2x) {
  return hn::Mul(hn::PromoteTo(dd, yh), log2x);
}

// log2|x| for lanes with x positive normal (other lanes: any value), axb
// the bits of x, in double lanes: *lo for the lower half of the f32 lanes,
// *hi for the upper (unless kLowHalf: only the lower half is wanted, a row
// tail of at most half a vector, and *hi is left alone); k_adjust is added
// to x's exponent (PowGeneral scales subnormals).
template <bool kHigh, bool kLowHalf, class DF, class DD = hn::Rebind<double, hn::Half<DF>>>
HWY_INLINE void Log2Halves(DF df, hn::Vec<hn::RebindToUnsigned<DF>> axb,
                           hn::Vec<hn::RebindToSigned<DF>> k_adjust, hn::Vec<DD>* lo,
                           hn::Vec<DD>* hi) {
  hn::Vec<DF> z;
  hn::Vec<hn::RebindToSigned<DF>> k;
  const auto tmp = SplitLog2Argument<pow_tables::kLogOffFromF32>(df, axb, &z, &k);
  k = hn::Add(k, k_adjust);
  *lo = Log2Half<kHigh, false, kLowHalf>(df, z, k, tmp);
  if constexpr (!kLowHalf) *hi = Log2Half<kHigh, true, kLowHalf>(df, z, k, tmp);
}

// |x|^y rounded to f32 for lanes with x positive normal and y finite, as
// 2^t with t = y log2|x| in double lanes (Log2Halves); kHigh: 0 where
// MarkHardToRound finds the result too close to a boundary of T's format.
// kLowHalf: the upper half of the result is 1, and the polynomials take
// their shortest chain (HighPolynomial).
template <bool kHigh, typename T, bool kLowHalf, class DF>
HWY_INLINE hn::Vec<DF> Log2Exp2(DF df, hn::Vec<hn::RebindToUnsigned<DF>> axb, hn::Vec<DF> y,
                                hn::Vec<hn::RebindToSigned<DF>> k_adjust) {
  const hn::Half<DF> dh;
  const hn::Rebind<double, decltype(dh)> dd;
  hn::Vec<decltype(dd)> log2_lo, log2_hi;
  Log2Halves<kHigh, kLowHalf>(df, axb, k_adjust, &log2_lo, &log2_hi);
  const auto t_lo = YTimesLog2(dd, hn::LowerHalf(dh, y), log2_lo);
  const auto lo = Exp2ToF32<kHigh, T, kLowHalf>(dd, t_lo);
  if constexpr (kLowHalf) {
    return hn::Combine(df, hn::Set(dh, 1.0f), lo);
  } else {
    const auto t_hi = YTimesLog2(dd, hn::UpperHalf(dh, y), log2_hi);
    return hn::Combine(df, Exp2ToF32<kHigh, T, kLowHalf>(dd, t_hi), lo);
  }
}

// Lanes marked by hard get |x|^y from the accurate path.
template <typename T, class DF>
HWY_INLINE hn::Vec<DF> PatchHardLanes(DF df, hn::Vec<DF> x, hn::Vec<DF> y, hn::Vec<DF> mag,
                                      hn::Mask<DF> hard) {
  return RecomputeLanes(df, x, y, mag, hard, [](float xi, float yi) {
    return pow_accurate::PowMagnitude(xi, yi, FormatOf<T>());
  });
}

#endif  // HWY_TARGET != HWY_SCALAR

}  // namespace HWY_NAMESPACE
}  // namespace pto
HWY_AFTER_NAMESPACE();

#endif  // PTO_KERNELS_POW_LOG2EXP2_INL_H_
