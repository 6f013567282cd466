// Floating-point pow, |x|^y = 2^(y * log2|x|), in f32 lanes (FLOAT16 and
// BFLOAT16 are widened to f32 by LoadAs and rounded back once by StoreAs).
// Constants in pow-tables.h; x86-specific variants of some building blocks
// in pow-x86-inl.h, each with its portable twin here.
//
// Two algorithms for the magnitude:
//
// Log2Exp2 (HIGH_PRECISION, every float type; DEFAULT on targets without
// FMA): double lanes after the design of the glibc / ARM optimized-routines
// powf, with 4-entry tables (a lane permute or selects instead of a gather):
//   - log2: |x| = 2^k * z with z in [0.674, 1.349), split from the f32 bits
//     (SplitLog2Argument); the top two mantissa bits of z pick c from a
//     table holding invc ~ 1/c (an f32 value, so r = z * invc - 1 is exact
//     in double) and log2(c); then log2|x| = k + log2(c) + r * P(r) with
//     |r| <= 0.1022. The bucket around 1 has c = 1 exactly, so x near 1
//     loses nothing.
//   - exp2: t = y * log2|x| in double, clamped to +-200 so that 2^t stays a
//     normal double. 2^t = 2^(k + i/4) * Q(r) with round(4 t) = 4 k + i,
//     |r| <= 1/8.
//   HIGH_PRECISION is correctly rounded (to nearest, ties to even) in the
//   storage type: P of degree 10 and Q of degree 6 bound the double result's
//   error by 2^-41.3 relative (MarkHardToRound derives it); a lane whose
//   result lies closer than that to a rounding boundary of the format, or
//   below its normal range (FLOAT16: below 2^-150), goes to the accurate
//   path (pow-accurate.cc), one lane at a time. Both polynomials by
//   Estrin's scheme (a dependency chain of about log2 of their length: the
//   loop is latency bound).
//   DEFAULT without FMA uses P of degree 6 and Q of degree 4 by Horner and
//   rounds the double result once: Q's fit 2^-27.5 and log2's 2^-32.0,
//   which t = y log2|x| carries into 2^t as up to ln 2 * 129 * 2^-32 =
//   2^-25.2 (|t| <= 129 for normal results), keep it within about 2^-24.9
//   of x^y before that rounding.
//
// PowDefaultF32 (DEFAULT on targets with FMA): f32 lanes only, with exact FMA
// splits: 16 table buckets for log2 (r exact, |r| <= 0.0333, tail
// polynomial of degree 4), t = y * log2|x| carried as an unevaluated sum of
// f32 terms, 2^f on |f| <= 0.5 by a degree-6 polynomial and the exponent
// added to the bits. It covers |y log2 x| <= 125 with x positive normal;
// other vectors take the general path. The exact splits need each product
// rounded on its own: the kernels are compiled with -ffp-contract=off.
//
// Both fast paths cover vectors whose x are all positive normal and y all
// finite (and, for DEFAULT, |t| <= 125; for HIGH_PRECISION, results safely
// rounded); PowFinishSlow gives negative bases their sign, and PowGeneral
// runs the rest (f32 subnormal x scaled to normal, the same magnitude
// arithmetic and accurate path, then the sign and the Annex F special
// cases: zeros, infinities, NaN, y = 0, x = 1). The one-lane SCALAR target
// runs the accurate path for HIGH_PRECISION.
//
// Re-included once per target by foreach_target.h, hence the toggle guard.
#if defined(PTO_KERNELS_POW_FLOAT_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef PTO_KERNELS_POW_FLOAT_INL_H_
#undef PTO_KERNELS_POW_FLOAT_INL_H_
#else
#define PTO_KERNELS_POW_FLOAT_INL_H_
#endif

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "hwy/highway.h"
#include "src/kernels/pow-accurate.h"
#include "src/kernels/pow-tables.h"
#include "src/kernels/pow-x86-inl.h"
#include "src/kernels/simd-inl.h"

HWY_BEFORE_NAMESPACE();
namespace pto {
namespace HWY_NAMESPACE {

// Horner evaluation of c[0] + c[1] x + ... + c[n-1] x^(n-1).
template <size_t kN, class D, typename T>
HWY_INLINE hn::Vec<D> Polynomial(D d, hn::Vec<D> x, const T (&c)[kN]) {
  auto p = hn::Set(d, c[kN - 1]);
  for (size_t i = kN - 1; i > 0; --i) p = hn::MulAdd(p, x, hn::Set(d, c[i - 1]));
  return p;
}

// The same polynomial by Estrin's scheme: pairs c[2i] + c[2i+1] x, then
// pairs of those with x^2, and so on. More multiplications, but a dependency
// chain of about log2(kN) FMAs instead of kN - 1: for a single vector, where
// latency rather than throughput bounds the time.
template <class D, typename T>
HWY_INLINE hn::Vec<D> PolynomialEstrin(D d, hn::Vec<D> x, const T (&c)[7]) {
  const auto x2 = hn::Mul(x, x);
  const auto x4 = hn::Mul(x2, x2);
  const auto p01 = hn::MulAdd(hn::Set(d, c[1]), x, hn::Set(d, c[0]));
  const auto p23 = hn::MulAdd(hn::Set(d, c[3]), x, hn::Set(d, c[2]));
  const auto p45 = hn::MulAdd(hn::Set(d, c[5]), x, hn::Set(d, c[4]));
  const auto p46 = hn::MulAdd(hn::Set(d, c[6]), x2, p45);
  return hn::MulAdd(p46, x4, hn::MulAdd(p23, x2, p01));
}
template <class D, typename T>
HWY_INLINE hn::Vec<D> PolynomialEstrin(D d, hn::Vec<D> x, const T (&c)[11]) {
  const auto x2 = hn::Mul(x, x);
  const auto x4 = hn::Mul(x2, x2);
  const auto p01 = hn::MulAdd(hn::Set(d, c[1]), x, hn::Set(d, c[0]));
  const auto p23 = hn::MulAdd(hn::Set(d, c[3]), x, hn::Set(d, c[2]));
  const auto p45 = hn::MulAdd(hn::Set(d, c[5]), x, hn::Set(d, c[4]));
  const auto p67 = hn::MulAdd(hn::Set(d, c[7]), x, hn::Set(d, c[6]));
  const auto p89 = hn::MulAdd(hn::Set(d, c[9]), x, hn::Set(d, c[8]));
  const auto p8a = hn::MulAdd(hn::Set(d, c[10]), x2, p89);
  const auto q03 = hn::MulAdd(p23, x2, p01);
  const auto q47 = hn::MulAdd(p67, x2, p45);
  return hn::MulAdd(hn::MulAdd(p8a, x4, q47), x4, q03);
}

// The format that HIGH_PRECISION rounds storage type T to.
template <typename T>
constexpr pow_accurate::Format FormatOf() {
  return hwy::IsSame<T, float>()            ? pow_accurate::kFloat32
         : hwy::IsSame<T, hwy::float16_t>() ? pow_accurate::kFloat16
                                            : pow_accurate::kBFloat16;
}

#if HWY_TARGET != HWY_SCALAR

// x > 0 and normal: x's bits + 0x7F800000 wrap, as int32, to
// [INT32_MIN, -2^24 - 1] exactly for positive normal x (zero and positive
// subnormals land above INT32_MAX - 2^23, infinity and NaN in
// [-2^24, -2^23 - 1], negative x in [-2^23, INT32_MAX - 2^23]).
template <class DF>
HWY_INLINE hn::Mask<DF> IsPositiveNormal(DF df, hn::Vec<DF> x) {
  const hn::RebindToUnsigned<DF> du;
  const hn::RebindToSigned<DF> di;
  const auto wrapped = hn::BitCast(di, hn::Add(hn::BitCast(du, x), hn::Set(du, 0x7F800000u)));
  return hn::RebindMask(df, hn::Lt(wrapped, hn::Set(di, -0x1000000)));
}

// ---------------------------------------------------------------------------
// Portable twins of the building blocks in pow-x86-inl.h.
#if !PTO_X86_SPECIALIZED

// table[i] for the low two bits i of each idx lane (64-bit lanes), by
// selects: correct for any vector length, with no load beyond the table.
template <class D>
HWY_INLINE hn::Vec<D> Lookup4(D d, const hn::TFromD<D>* table,
                              hn::Vec<hn::RebindToUnsigned<D>> idx) {
  const hn::RebindToUnsigned<D> du;
  const auto bit0 = hn::RebindMask(d, hn::Ne(hn::And(idx, hn::Set(du, 1)), hn::Zero(du)));
  const auto bit1 = hn::RebindMask(d, hn::Ne(hn::And(idx, hn::Set(du, 2)), hn::Zero(du)));
  return hn::IfThenElse(bit1, hn::IfThenElse(bit0, hn::Set(d, table[3]), hn::Set(d, table[2])),
                        hn::IfThenElse(bit0, hn::Set(d, table[1]), hn::Set(d, table[0])));
}

template <bool kUpper, class DF>
HWY_INLINE hn::Vec<hn::Rebind<uint64_t, hn::Half<DF>>> BucketIndexHalf(
    DF df, hn::Vec<hn::RebindToUnsigned<DF>> tmp) {
  (void)df;
  const hn::RebindToUnsigned<DF> du;
  const hn::Half<decltype(du)> dhu;
  const hn::Rebind<uint64_t, decltype(dhu)> du64;
  const auto bucket = hn::ShiftRight<21>(tmp);  // Lookup4 reads the low two bits
  return hn::PromoteTo(du64, kUpper ? hn::UpperHalf(dhu, bucket) : hn::LowerHalf(dhu, bucket));
}

template <class DU64>
HWY_INLINE hn::Vec<DU64> Exp2Index(DU64, hn::Vec<DU64> ki) {
  return ki;  // Lookup4 reads the low two bits
}

template <class DD>
HWY_INLINE hn::Vec<DD> ClampExponent(DD dd, hn::Vec<DD> t) {
  return hn::Min(hn::Max(t, hn::Set(dd, -200.0)), hn::Set(dd, 200.0));
}

// table[i] for the low four bits i of each idx lane (higher bits ignored).
template <class DF>
HWY_INLINE hn::Vec<DF> Lookup16(DF df, const float* table, hn::Vec<hn::RebindToUnsigned<DF>> idx) {
  const hn::RebindToUnsigned<DF> du;
  const hn::RebindToSigned<DF> di;
  return hn::GatherIndex(df, table, hn::BitCast(di, hn::And(idx, hn::Set(du, 15u))));
}

template <typename T>
constexpr bool HasMaskedTail() {
  return false;
}

#endif  // !PTO_X86_SPECIALIZED

// ---------------------------------------------------------------------------
// Log2Exp2: the double-lane core.

// log2|x| for |x| = 2^k z, z in [kLogOff, 2 kLogOff) and bucket its table
// entry (see SplitLog2Argument). The polynomial's fit is 2^-32.0 (kHigh:
// 2^-49.67, pow-tables.h); with the evaluation, the relative error of the
// kHigh result is bounded in MarkHardToRound.
template <bool kHigh, class DD>
HWY_INLINE hn::Vec<DD> Log2Reduced(DD dd, hn::Vec<DD> z, hn::Vec<DD> k,
                                   hn::Vec<hn::RebindToUnsigned<DD>> bucket) {
  namespace tab = pow_tables;
  const auto invc = Lookup4(dd, tab::kInvC, bucket);
  const auto logc = Lookup4(dd, tab::kLogC, bucket);
  const auto r = hn::MulAdd(z, invc, hn::Set(dd, -1.0));  // exact
  const auto poly = kHigh ? PolynomialEstrin(dd, r, tab::kLog2High) : Polynomial(dd, r, tab::kLog2Fast);
  return hn::MulAdd(r, poly, hn::Add(k, logc));
}

// 2^t, t clamped to +-200 first (beyond that the f32 result is already 0 or
// infinity; the clamp keeps 2^t a normal double). t = round(4 t) / 4 + r,
// |r| <= 1/8.
template <bool kHigh, class DD>
HWY_INLINE hn::Vec<DD> Exp2Clamped(DD dd, hn::Vec<DD> t) {
  namespace tab = pow_tables;
  const hn::RebindToUnsigned<DD> du;
  t = ClampExponent(dd, t);
  const auto shift = hn::Set(dd, 0x1.8p52 / 4);
  const auto t_shifted = hn::Add(t, shift);
  const auto ki = hn::BitCast(du, t_shifted);
  const auto r = hn::Sub(t, hn::Sub(t_shifted, shift));
  const auto entry = Lookup4(du, tab::kExp2Bits, Exp2Index(du, ki));
  const auto scale = hn::BitCast(dd, hn::Add(entry, hn::ShiftLeft<50>(ki)));
  const auto q = kHigh ? PolynomialEstrin(dd, r, tab::kExp2High) : Polynomial(dd, r, tab::kExp2Fast);
  return hn::Mul(scale, q);
}

// |x| = 2^k z from the bits axb of a positive normal f32 x: k = tmp >> 23
// (arithmetic), z = axb - (tmp & 0xFF800000) as f32 bits, and the bucket in
// bits 21-22 of tmp (see BucketIndexHalf).
template <class DF>
HWY_INLINE hn::Vec<hn::RebindToUnsigned<DF>> SplitLog2Argument(
    DF df, hn::Vec<hn::RebindToUnsigned<DF>> axb, hn::Vec<DF>* z, hn::Vec<hn::RebindToSigned<DF>>* k) {
  const hn::RebindToUnsigned<DF> du;
  const hn::RebindToSigned<DF> di;
  const auto tmp = hn::Sub(axb, hn::Set(du, pow_tables::kLogOffFromF32));
  *k = hn::ShiftRight<23>(hn::BitCast(di, tmp));
  *z = hn::BitCast(df, hn::Sub(axb, hn::And(tmp, hn::Set(du, 0xFF800000u))));
  return tmp;
}

// The rounding test of HIGH_PRECISION: v (> 0, a normal double) is the fast
// result and rounds correctly to T's format when no rounding boundary of
// the format lies within v's error of it; lanes where one may become 0,
// which HardLanes (below) sends to the accurate path together with the
// lanes whose results fall below the format's normal range (their
// boundaries lie on a coarser grid), except for FLOAT16 (below).
//
// Error of v, relative to x^y (u = 2^-53):
//   log2|x| = k + logc + r P(r): P's fit 2^-49.67, its Horner or Estrin
//   evaluation (|r| <= 0.1022) 1.5u, the table's logc 0.5u, the addition
//   and the FMA u each. Outside the table bucket holding 1, |log2 x| >=
//   0.114 while |r P(r)| <= 0.16 and |logc| <= 0.44, which bounds the
//   cancellation: relative error <= 8u + 1.4 * 2^-49.67 < 2^-48.5; in the
//   bucket of 1, k + logc = 0 and it is 2.5u + 2^-49.67. The product
//   t = y log2|x| adds u: t carries a relative error below 2^-48.4, and
//   |t| <= 129 wherever the result is a normal float or the boundary to
//   infinity (beyond, the result is 0 or infinity, or below the normal
//   range), so 2^t carries ln 2 * 129 * 2^-48.4 < 2^-41.9.
//   2^t = 2^(j/4) Q(r'), r' = t - j/4 exact: Q's fit 2^-42.89, its
//   evaluation 1.2u, the table entry u, the product u: below 2^-42.88.
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
template <int kLowBits, uint64_t kAllowed, class DU>
HWY_INLINE hn::Mask<DU> NearBoundary(DU du, hn::Vec<DU> bits) {
  const hn::RebindToSigned<DU> di;
  const auto from_lower_edge = hn::And(
      hn::Sub(bits, hn::Set(du, (uint64_t{1} << (kLowBits - 1)) - kAllowed)),
      hn::Set(du, (uint64_t{1} << kLowBits) - 1));
  return hn::RebindMask(du, hn::Lt(hn::BitCast(di, from_lower_edge),
                                   hn::Set(di, static_cast<int64_t>(2 * kAllowed + 1))));
}

template <typename T, class DD>
HWY_INLINE hn::Vec<DD> MarkHardToRound(DD dd, hn::Vec<DD> v) {
  constexpr pow_accurate::Format kFmt = FormatOf<T>();
  constexpr int kLowBits = 53 - kFmt.precision;
  constexpr uint64_t kAllowed = (uint64_t{1} << 13) + (kFmt.precision < 24 ? (uint64_t{1} << 28) + 2 : 0);
  const hn::RebindToUnsigned<DD> du;
  auto near = NearBoundary<kLowBits, kAllowed>(du, hn::BitCast(du, v));
  if constexpr (hwy::IsSame<T, hwy::float16_t>()) {
    constexpr uint64_t kAllowedLow = (uint64_t{1} << 26) + (uint64_t{1} << 13) + 2;
    const auto w = hn::BitCast(du, hn::Add(v, hn::Set(dd, 0x1p-12)));
    const auto low = hn::RebindMask(du, hn::Lt(v, hn::Set(dd, 0x1p-13)));
    near = hn::Or(hn::And(low, NearBoundary<40, kAllowedLow>(du, w)), hn::AndNot(low, near));
  }
  return hn::IfThenZeroElse(hn::RebindMask(dd, near), v);
}

// Lanes of |x|^y rounded to f32 that the accurate path must compute: those
// MarkHardToRound zeroed and those at or below T's smallest normal number
// (mag >= +0, so its bits compare as integers); for FLOAT16, whose test
// covers its whole range, only the zeroed ones (and results below 2^-150).
template <typename T, class DF>
HWY_INLINE hn::Mask<DF> HardLanes(DF df, hn::Vec<DF> mag) {
  const hn::RebindToSigned<DF> di;
  const int32_t last_hard_bits = hwy::IsSame<T, hwy::float16_t>() ? 0 : 0x00800000;
  return hn::RebindMask(df, hn::Lt(hn::BitCast(di, mag), hn::Set(di, last_hard_bits + 1)));
}

// |x|^y rounded to f32 for the lower or upper half of the f32 lanes; kHigh:
// 0 where MarkHardToRound finds the result too close to a boundary of T's
// format.
template <bool kHigh, typename T, bool kUpper, class DF>
HWY_INLINE hn::Vec<hn::Half<DF>> Log2Exp2Half(DF df, hn::Vec<DF> z, hn::Vec<hn::RebindToSigned<DF>> k,
                                              hn::Vec<DF> y, hn::Vec<hn::RebindToUnsigned<DF>> tmp) {
  const hn::Half<DF> dh;
  const hn::Half<hn::RebindToSigned<DF>> dhi;
  const hn::Rebind<double, decltype(dh)> dd;
  const auto zh = kUpper ? hn::UpperHalf(dh, z) : hn::LowerHalf(dh, z);
  const auto kh = kUpper ? hn::UpperHalf(dhi, k) : hn::LowerHalf(dhi, k);
  const auto yh = kUpper ? hn::UpperHalf(dh, y) : hn::LowerHalf(dh, y);
  const auto log2x = Log2Reduced<kHigh>(dd, hn::PromoteTo(dd, zh), hn::PromoteTo(dd, kh),
                                                 BucketIndexHalf<kUpper>(df, tmp));
  const auto t = hn::Mul(hn::PromoteTo(dd, yh), log2x);
  auto v = Exp2Clamped<kHigh>(dd, t);
  if constexpr (kHigh) v = MarkHardToRound<T>(dd, v);
  return DemoteToF32(dd, v);
}

// |x|^y for lanes with x positive normal and y finite (other lanes: any
// value), axb the bits of x; k_adjust is added to x's exponent (PowGeneral
// scales subnormals). kLowHalf: only the lower half of the lanes is wanted
// (a row tail of at most half a vector); the upper half of the result is 1.
template <bool kHigh, typename T, bool kLowHalf, class DF>
HWY_INLINE hn::Vec<DF> Log2Exp2(DF df, hn::Vec<hn::RebindToUnsigned<DF>> axb, hn::Vec<DF> y,
                                hn::Vec<hn::RebindToSigned<DF>> k_adjust) {
  hn::Vec<DF> z;
  hn::Vec<hn::RebindToSigned<DF>> k;
  const auto tmp = SplitLog2Argument(df, axb, &z, &k);
  k = hn::Add(k, k_adjust);
  const auto lo = Log2Exp2Half<kHigh, T, false>(df, z, k, y, tmp);
  if constexpr (kLowHalf) {
    return hn::Combine(df, hn::Set(hn::Half<DF>(), 1.0f), lo);
  } else {
    return hn::Combine(df, Log2Exp2Half<kHigh, T, true>(df, z, k, y, tmp), lo);
  }
}

// Lanes marked by hard get |x|^y from the accurate path.
template <typename T, class DF>
HWY_NOINLINE hn::Vec<DF> PatchHardLanes(DF df, hn::Vec<DF> x, hn::Vec<DF> y, hn::Vec<DF> mag,
                                        hn::Mask<DF> hard) {
  constexpr size_t kMax = hn::MaxLanes(DF());
  HWY_ALIGN float xs[kMax];
  HWY_ALIGN float ys[kMax];
  HWY_ALIGN float ms[kMax];
  HWY_ALIGN float hs[kMax];
  hn::Store(x, df, xs);
  hn::Store(y, df, ys);
  hn::Store(mag, df, ms);
  hn::Store(hn::IfThenElseZero(hard, hn::Set(df, 1.0f)), df, hs);
  for (size_t i = 0; i < hn::Lanes(df); ++i) {
    if (hs[i] != 0.0f) ms[i] = pow_accurate::PowMagnitude(xs[i], ys[i], FormatOf<T>());
  }
  return hn::Load(df, ms);
}

// ---------------------------------------------------------------------------
// Sign and special cases.

// y is an integer: every f32 of magnitude >= 2^24 is an even integer;
// smaller ones convert to int32 exactly. *y_int32: y as int32 where it is a
// smaller integer (its parity decides the sign of a negative base).
template <class DF>
HWY_INLINE hn::Mask<DF> IsIntegerExponent(DF df, hn::Vec<DF> y, hn::Vec<hn::RebindToSigned<DF>>* y_int32) {
  const hn::RebindToSigned<DF> di;
  const auto y_big = hn::Ge(hn::Abs(y), hn::Set(df, 16777216.0f));
  const auto y_small = hn::IfThenZeroElse(y_big, y);
  *y_int32 = hn::ConvertTo(di, y_small);
  return hn::Or(y_big, hn::Eq(hn::ConvertTo(df, *y_int32), y_small));
}

// y is an odd integer, given IsIntegerExponent's results.
template <class DF>
HWY_INLINE hn::Mask<DF> IsOddExponent(DF df, hn::Mask<DF> integer, hn::Vec<hn::RebindToSigned<DF>> y_int32) {
  const hn::RebindToSigned<DF> di;
  const auto odd_bit = hn::Ne(hn::And(y_int32, hn::Set(di, 1)), hn::Zero(di));
  return hn::And(integer, hn::RebindMask(df, odd_bit));
}

// mag = |x|^y; negative bases make odd integer powers negative and
// non-integer powers NaN.
template <class DF>
HWY_INLINE hn::Vec<DF> ApplyBaseSign(DF df, hn::Vec<DF> x, hn::Vec<DF> mag, hn::Mask<DF> y_integer,
                                     hn::Mask<DF> y_odd) {
  const hn::RebindToUnsigned<DF> du;
  const auto x_sign = hn::And(hn::BitCast(du, x), hn::Set(du, 0x80000000u));
  const auto result =
      hn::Or(mag, hn::BitCast(df, hn::IfThenElseZero(hn::RebindMask(du, y_odd), x_sign)));
  const auto x_neg = hn::RebindMask(df, hn::Ne(x_sign, hn::Zero(du)));
  return hn::IfThenElse(hn::AndNot(y_integer, x_neg), hn::Set(df, NAN), result);
}

// Annex F results for lanes where x is zero, infinite or NaN, or y is
// infinite or NaN. y_odd: y is an odd integer.
template <class DF>
HWY_INLINE hn::Vec<DF> PowSpecial(DF df, hn::Vec<DF> x, hn::Vec<DF> y, hn::Mask<DF> y_odd) {
  const hn::RebindToSigned<DF> di;
  // Magnitude bits compare as nonnegative int32.
  const auto magnitude = hn::Set(di, 0x7FFFFFFF);
  const auto xb = hn::BitCast(di, x);
  const auto yb = hn::BitCast(di, y);
  const auto axb = hn::And(xb, magnitude);
  const auto ayb = hn::And(yb, magnitude);
  const auto inf_bits = hn::Set(di, 0x7F800000);
  const auto one_bits = hn::Set(di, 0x3F800000);
  const auto one = hn::Set(df, 1.0f);
  const auto inf = hn::BitCast(df, inf_bits);
  const auto zero = hn::Zero(df);
  const auto x_neg = hn::RebindMask(df, hn::Lt(xb, hn::Zero(di)));
  const auto y_neg = hn::RebindMask(df, hn::Lt(yb, hn::Zero(di)));

  // x = +-0 or +-inf, y finite nonzero: 0 or inf, negative for x < 0 and
  // odd y.
  const auto x_zero = hn::RebindMask(df, hn::Eq(axb, hn::Zero(di)));
  auto result = hn::IfThenElse(hn::Xor(x_zero, y_neg), zero, inf);
  result = hn::IfThenElse(hn::And(x_neg, y_odd), hn::Neg(result), result);
  // y = +-inf: 1 for |x| = 1, inf when (|x| > 1) == (y > 0), else 0.
  const auto ax_below_one = hn::RebindMask(df, hn::Lt(axb, one_bits));
  const auto y_inf_result = hn::IfThenElse(
      hn::RebindMask(df, hn::Eq(axb, one_bits)), one,
      hn::IfThenElse(hn::Xor(ax_below_one, y_neg), zero, inf));
  result = hn::IfThenElse(hn::RebindMask(df, hn::Eq(ayb, inf_bits)), y_inf_result, result);
  // NaN in, NaN out, except below.
  const auto any_nan = hn::RebindMask(df, hn::Or(hn::Gt(axb, inf_bits), hn::Gt(ayb, inf_bits)));
  result = hn::IfThenElse(any_nan, hn::Add(x, y), result);
  // pow(x, +-0) = 1 and pow(1, y) = 1, even for NaN.
  const auto is_one = hn::Or(hn::Eq(ayb, hn::Zero(di)), hn::Eq(xb, one_bits));
  return hn::IfThenElse(hn::RebindMask(df, is_one), one, result);
}

// ---------------------------------------------------------------------------
// The general path and the fast paths' exits.

// pow(x, y) on f32 lanes for every input, the magnitude by Log2Exp2 (kHigh:
// correctly rounded to T's format, through the accurate path where the
// rounding test fails).
template <bool kHigh, typename T, class DF>
HWY_INLINE hn::Vec<DF> PowGeneral(DF df, hn::Vec<DF> x, hn::Vec<DF> y) {
  const hn::RebindToUnsigned<DF> du;
  const hn::RebindToSigned<DF> di;
  const auto axb = hn::And(hn::BitCast(du, x), hn::Set(du, 0x7FFFFFFFu));
  // Subnormal x: scaled by 2^23 to a normal f32 (exactly), its exponent
  // adjusted back.
  const auto subnormal = hn::RebindMask(df, hn::Lt(axb, hn::Set(du, 0x00800000u)));
  const auto ax = hn::BitCast(df, axb);
  const auto ax_normal = hn::IfThenElse(subnormal, hn::Mul(ax, hn::Set(df, 0x1p23f)), ax);
  const auto k_adjust = hn::IfThenElseZero(hn::RebindMask(di, subnormal), hn::Set(di, -23));
  auto mag = Log2Exp2<kHigh, T, false>(df, hn::BitCast(du, ax_normal), y, k_adjust);

  hn::Vec<decltype(di)> y_int32;
  const auto y_integer = IsIntegerExponent(df, y, &y_int32);
  const auto y_odd = IsOddExponent(df, y_integer, y_int32);

  // x zero, infinite or NaN; y infinite or NaN.
  const auto axb_i = hn::BitCast(di, axb);
  const auto ayb_i = hn::And(hn::BitCast(di, y), hn::Set(di, 0x7FFFFFFF));
  const auto x_special = hn::Or(hn::Eq(axb_i, hn::Zero(di)), hn::Gt(axb_i, hn::Set(di, 0x7F7FFFFF)));
  const auto y_special = hn::Gt(ayb_i, hn::Set(di, 0x7F7FFFFF));
  const auto special = hn::RebindMask(df, hn::Or(x_special, y_special));
  if constexpr (kHigh) {
    // Lanes the rounding test left undecided, unless their result is a
    // special case or NaN (a negative base with a non-integer exponent).
    const auto x_neg = hn::RebindMask(df, hn::Lt(hn::BitCast(di, x), hn::Zero(di)));
    const auto nan_result = hn::AndNot(y_integer, x_neg);
    const auto hard = hn::AndNot(hn::Or(special, nan_result), HardLanes<T>(df, mag));
    if (HWY_UNLIKELY(!hn::AllFalse(df, hard))) mag = PatchHardLanes<T>(df, x, y, mag, hard);
  }
  auto result = ApplyBaseSign(df, x, mag, y_integer, y_odd);
  if (HWY_UNLIKELY(!hn::AllFalse(df, special))) {
    result = hn::IfThenElse(special, PowSpecial(df, x, y, y_odd), result);
  }
  return result;
}

// A vector in which some lane left a fast path. mag_ok marks the lanes whose
// fast magnitude is valid when |x| is a normal number; if every lane is
// such, only negative bases remain (their sign), else the general path runs
// (HIGH_PRECISION: correctly rounded to T's format).
template <typename T, class DF>
HWY_NOINLINE hn::Vec<DF> PowFinishSlow(DF df, hn::Vec<DF> x, hn::Vec<DF> y, hn::Vec<DF> mag,
                                       hn::Mask<DF> mag_ok) {
  if (hn::AllTrue(df, hn::And(IsPositiveNormal(df, hn::Abs(x)), mag_ok))) {
    hn::Vec<hn::RebindToSigned<DF>> y_int32;
    const auto y_integer = IsIntegerExponent(df, y, &y_int32);
    return ApplyBaseSign(df, x, mag, y_integer, IsOddExponent(df, y_integer, y_int32));
  }
  return PowGeneral<true, T>(df, x, y);
}

// HIGH_PRECISION: Log2Exp2 straight from x's bits, for vectors whose x are
// all positive normal, y all finite and results all safely rounded; the
// rest through PowFinishSlow. kLowHalf: see Log2Exp2.
template <typename T, bool kLowHalf, class DF>
HWY_INLINE hn::Vec<DF> PowHigh(DF df, hn::Vec<DF> x, hn::Vec<DF> y) {
  const hn::RebindToUnsigned<DF> du;
  const hn::RebindToSigned<DF> di;
  const auto axb = hn::And(hn::BitCast(du, x), hn::Set(du, 0x7FFFFFFFu));
  const auto mag = Log2Exp2<true, T, kLowHalf>(df, axb, y, hn::Zero(di));
  const auto ayb = hn::And(hn::BitCast(du, y), hn::Set(du, 0x7FFFFFFFu));
  const auto y_finite = hn::RebindMask(df, hn::Lt(hn::BitCast(di, ayb), hn::Set(di, 0x7F800000)));
  const auto mag_ok = hn::AndNot(HardLanes<T>(df, mag), y_finite);
  if (HWY_LIKELY(hn::AllTrue(df, hn::And(mag_ok, IsPositiveNormal(df, x))))) return mag;
  return PowFinishSlow<T>(df, x, y, mag, mag_ok);
}

// ---------------------------------------------------------------------------
// DEFAULT in f32 lanes (targets with FMA).

// |x|^y for x > 0 normal and |y log2 x| <= 125:
//   |x| = 2^k z, bucket i (top four bits of z's offset mantissa):
//   log2|x| = A + kC1Hi r + r M(r) + kLogCLoF[i], A = k + kLogCHiF[i] exact.
//   t = y log2|x| is carried as the unevaluated sum
//   a_hi + b_hi + p_hi M + (a_lo + b_lo + p_lo kC1Hi + y kLogCLoF) with
//   a = y A, p = y r and b = kC1Hi p_hi split exactly by FMA; n = round(t)
//   and f = t - n come out with |f| <= 0.5 + 2^-16 and an absolute error of
//   a few 2^-25 for |t| <= 125, so 2^t = 2^n E(f).
// xb: the bits of x > 0 (the fast path passes x's own bits, so a negative x
// gives garbage there, and leaves the fast path by its sign); *s_out: ~t.
template <class DF>
HWY_INLINE hn::Vec<DF> PowDefaultCore(DF df, hn::Vec<hn::RebindToUnsigned<DF>> xb, hn::Vec<DF> y,
                                      hn::Vec<DF>* s_out) {
  namespace tab = pow_tables;
  const hn::RebindToUnsigned<DF> du;
  const hn::RebindToSigned<DF> di;

  const auto tmp = hn::Sub(xb, hn::Set(du, tab::kLogOffF));
  const auto k = hn::ConvertTo(df, hn::ShiftRight<23>(hn::BitCast(di, tmp)));
  const auto z = hn::BitCast(df, hn::Sub(xb, hn::And(tmp, hn::Set(du, 0xFF800000u))));
  const auto idx = hn::ShiftRight<19>(tmp);
  const auto invc = Lookup16(df, tab::kInvCF, idx);
  const auto logc_hi = Lookup16(df, tab::kLogCHiF, idx);
  const auto logc_lo = Lookup16(df, tab::kLogCLoF, idx);

  // Each product below is rounded on its own (no contraction, see the top).
  const auto r = hn::MulAdd(z, invc, hn::Set(df, -1.0f));  // exact
  const auto a = hn::Add(k, logc_hi);                      // exact
  const auto a_hi = hn::Mul(y, a);
  const auto a_lo = hn::MulSub(y, a, a_hi);
  const auto p_hi = hn::Mul(y, r);
  const auto p_lo = hn::MulSub(y, r, p_hi);
  const auto c1 = hn::Set(df, tab::kC1Hi);
  const auto b_hi = hn::Mul(c1, p_hi);
  const auto b_lo = hn::MulSub(c1, p_hi, b_hi);
  const auto m = Polynomial(df, r, tab::kLogTailF);

  const auto s = hn::MulAdd(p_hi, m, hn::Add(a_hi, b_hi));  // ~t, picks n
  const auto shifter = hn::Set(df, 0x1.8p23f);
  const auto s_shifted = hn::Add(s, shifter);
  const auto n = hn::Sub(s_shifted, shifter);
  auto lo = hn::Add(a_lo, b_lo);
  lo = hn::MulAdd(p_lo, c1, lo);
  lo = hn::MulAdd(y, logc_lo, lo);
  const auto u = hn::Add(hn::Sub(a_hi, n), b_hi);  // exact where it matters
  const auto f = hn::Add(hn::MulAdd(p_hi, m, u), lo);
  const auto e = Polynomial(df, f, tab::kExp2F);
  *s_out = s;
  return hn::BitCast(df, hn::Add(hn::BitCast(du, e), hn::ShiftLeft<23>(hn::BitCast(du, s_shifted))));
}

// Lanes inside the DEFAULT fast path's range: |s| <= 125, compared as
// integer bits, so NaN counts as out of range (and with it infinite or NaN y).
template <class DF>
HWY_INLINE hn::Mask<DF> DefaultInRange(DF df, hn::Vec<DF> s) {
  const hn::RebindToSigned<DF> di;
  const auto as = hn::And(hn::BitCast(di, s), hn::Set(di, 0x7FFFFFFF));
  return hn::RebindMask(df, hn::Lt(as, hn::Set(di, 0x42FA0001)));  // 125.0f
}

// A vector with some lane outside the DEFAULT fast path.
template <class DF>
HWY_NOINLINE hn::Vec<DF> PowDefaultSlow(DF df, hn::Vec<DF> x, hn::Vec<DF> y) {
  const hn::RebindToUnsigned<DF> du;
  hn::Vec<DF> s;
  const auto mag = PowDefaultCore(df, hn::And(hn::BitCast(du, x), hn::Set(du, 0x7FFFFFFFu)), y, &s);
  return PowFinishSlow<float>(df, x, y, mag, DefaultInRange(df, s));
}

template <class DF>
HWY_INLINE hn::Vec<DF> PowDefaultF32(DF df, hn::Vec<DF> x, hn::Vec<DF> y) {
  const hn::RebindToUnsigned<DF> du;
  hn::Vec<DF> s;
  const auto mag = PowDefaultCore(df, hn::BitCast(du, x), y, &s);
  if (HWY_LIKELY(hn::AllTrue(df, hn::And(DefaultInRange(df, s), IsPositiveNormal(df, x))))) {
    return mag;
  }
  return PowDefaultSlow(df, x, y);
}

// ---------------------------------------------------------------------------
// pow on f32 lanes for storage type T: HIGH_PRECISION is correctly rounded
// to T's format by the double-lane path; DEFAULT FLOAT16/BFLOAT16 results
// are within 1 of their ulp from the DEFAULT f32 result (a few f32 ulp).
// Targets without FMA cannot split products exactly in f32 and run DEFAULT
// through the double-lane path with the shorter polynomials.
template <bool kHigh, typename T, bool kLowHalf = false, class DF>
HWY_INLINE hn::Vec<DF> PowInF32Lanes(DF df, hn::Vec<DF> x, hn::Vec<DF> y) {
  if constexpr (kHigh) {
    return PowHigh<T, kLowHalf>(df, x, y);
  } else {
#if HWY_NATIVE_FMA
    return PowDefaultF32(df, x, y);
#else
    return PowGeneral<false, T>(df, x, y);
#endif
  }
}

#else  // HWY_TARGET == HWY_SCALAR

// The one-lane fallback: HIGH_PRECISION by the accurate path (the same
// correctly rounded results as every other target), DEFAULT by the C
// library's pow in double, rounded once.
template <bool kHigh, typename T, bool kLowHalf = false, class DF>
HWY_INLINE hn::Vec<DF> PowInF32Lanes(DF df, hn::Vec<DF> x, hn::Vec<DF> y) {
  if constexpr (kHigh) {
    return hn::Set(df, pow_accurate::Pow(hn::GetLane(x), hn::GetLane(y), FormatOf<T>()));
  } else {
    const hn::Rebind<double, DF> dd;
    return DemoteToF32(dd, hn::Set(dd, pow(static_cast<double>(hn::GetLane(x)),
                                           static_cast<double>(hn::GetLane(y)))));
  }
}

template <typename T>
constexpr bool HasMaskedTail() {
  return false;
}

#endif  // HWY_TARGET != HWY_SCALAR

// dst = base ^ exp over a region of storage type T.
template <typename T, bool kHigh>
void PowFloatRows(size_t rows, size_t cols, void* dst, size_t dst_stride, const void* base,
                  size_t base_stride, const void* exp, size_t exp_stride) {
  const ComputeTag<T> d;
  const auto body = [](auto dv, const T* pb, const T* pe, T* out) __attribute__((always_inline)) {
    StoreAs(dv, PowInF32Lanes<kHigh, T>(dv, LoadAs(dv, pb), LoadAs(dv, pe)), out);
  };
  T* out = static_cast<T*>(dst);
  const T* pb = static_cast<const T*>(base);
  const T* pe = static_cast<const T*>(exp);
#if PTO_X86_SPECIALIZED
  if constexpr (HasMaskedTail<T>()) {
    ForEachRow(d, rows, cols, out, dst_stride, pb, base_stride, pe, exp_stride, body,
               [d](size_t rest, T* o, const T* b, const T* e) __attribute__((always_inline)) {
                 const auto x = LoadTail(d, b, rest);
                 const auto y = LoadTail(d, e, rest);
                 // HIGH_PRECISION float32 computes in two double vectors;
                 // a short tail (a 1x1 tile) needs only the first.
                 if (kHigh && rest <= hn::Lanes(d) / 2) {
                   StoreTail(d, PowInF32Lanes<kHigh, T, true>(d, x, y), o, rest);
                 } else {
                   StoreTail(d, PowInF32Lanes<kHigh, T>(d, x, y), o, rest);
                 }
               });
    return;
  }
#endif
  ForEachBinary(d, rows, cols, out, dst_stride, pb, base_stride, pe, exp_stride, body);
}

}  // namespace HWY_NAMESPACE
}  // namespace pto
HWY_AFTER_NAMESPACE();

#endif  // PTO_KERNELS_POW_FLOAT_INL_H_
