// The accurate path of TEXP and TLOG (exp-log-inl.h), one lane at a time:
// e^x, ln x and e^(a - b) in double-double arithmetic, relative error below
// 2^-97, rounded once to the storage format (RoundToFormat).
//
// Scalar code compiled for each target; the library is compiled without
// contraction (-ffp-contract=off), and it uses fma only where the
// error-free transformations need it, so every target computes the same
// bits here.
//
// Re-included once per target by foreach_target.h, hence the toggle guard.
#if defined(PTO_KERNELS_EXP_LOG_ACCURATE_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef PTO_KERNELS_EXP_LOG_ACCURATE_INL_H_
#undef PTO_KERNELS_EXP_LOG_ACCURATE_INL_H_
#else
#define PTO_KERNELS_EXP_LOG_ACCURATE_INL_H_
#endif

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace pto {
namespace HWY_NAMESPACE {
namespace exp_log {

// Bits of precision of storage type T.
template <typename T>
constexpr int PrecisionOf() {
  return hwy::IsSame<T, float>() ? 24 : hwy::IsSame<T, hwy::float16_t>() ? 11 : 8;
}

// A double-double: the unevaluated sum hi + lo, |lo| <= ulp(hi) / 2; u =
// 2^-53 below.
struct DD {
  double hi, lo;
};

HWY_INLINE DD TwoSum(double a, double b) {
  const double s = a + b;
  const double b_part = s - a;
  return {s, (a - (s - b_part)) + (b - b_part)};
}

// |a| >= |b| or a = 0.
HWY_INLINE DD QuickTwoSum(double a, double b) {
  const double s = a + b;
  return {s, b - (s - a)};
}

// a + b where neither cancels the other (same signs, or |b| < |a| / 4):
// relative error below 3u^2.
HWY_INLINE DD AddDD(DD a, DD b) {
  const DD s = TwoSum(a.hi, b.hi);
  return QuickTwoSum(s.hi, s.lo + (a.lo + b.lo));
}

// Relative error below 4u^2.
HWY_INLINE DD MulDD(DD a, DD b) {
  const double p = a.hi * b.hi;
  return QuickTwoSum(p, fma(a.hi, b.hi, -p) + (a.hi * b.lo + a.lo * b.hi));
}

// 1/(j + 1)! for j <= 20, each as a double-double to u^2/2.
constexpr DD kInverseFactorials[21] = {
    {0x1p+0, 0x0p+0},  // 1/1!
    {0x1p-1, 0x0p+0},  // 1/2!
    {0x1.5555555555555p-3, 0x1.5555555555555p-57},  // 1/3!
    {0x1.5555555555555p-5, 0x1.5555555555555p-59},  // 1/4!
    {0x1.1111111111111p-7, 0x1.1111111111111p-63},  // 1/5!
    {0x1.6c16c16c16c17p-10, -0x1.f49f49f49f49fp-65},  // 1/6!
    {0x1.a01a01a01a01ap-13, 0x1.a01a01a01a01ap-73},  // 1/7!
    {0x1.a01a01a01a01ap-16, 0x1.a01a01a01a01ap-76},  // 1/8!
    {0x1.71de3a556c734p-19, -0x1.c154f8ddc6cp-73},  // 1/9!
    {0x1.27e4fb7789f5cp-22, 0x1.cbbc05b4fa99ap-76},  // 1/10!
    {0x1.ae64567f544e4p-26, -0x1.c062e06d1f209p-80},  // 1/11!
    {0x1.1eed8eff8d898p-29, -0x1.2aec959e14c06p-83},  // 1/12!
    {0x1.6124613a86d09p-33, 0x1.f28e0cc748ebep-87},  // 1/13!
    {0x1.93974a8c07c9dp-37, 0x1.05d6f8a2efd1fp-92},  // 1/14!
    {0x1.ae7f3e733b81fp-41, 0x1.1d8656b0ee8cbp-97},  // 1/15!
    {0x1.ae7f3e733b81fp-45, 0x1.1d8656b0ee8cbp-101},  // 1/16!
    {0x1.952c77030ad4ap-49, 0x1.ac981465ddc6cp-103},  // 1/17!
    {0x1.6827863b97d97p-53, 0x1.eec01221a8b0bp-107},  // 1/18!
    {0x1.2f49b46814157p-57, 0x1.2650f61dbdcb4p-112},  // 1/19!
    {0x1.e542ba4020225p-62, 0x1.ea72b4afe3c2fp-120},  // 1/20!
    {0x1.71b8ef6dcf572p-66, -0x1.d043ae40c4647p-120},  // 1/21!
};

// e^t = 2^*n (1 + m) for |t| <= 105 (the result): t = n ln 2 + r, n =
// round(t / ln 2) (|n| <= 152), |r| <= ln 2 / 2 + 2^-45 < 0.34658 as a
// double-double: ln 2 = C1 + C2 + C3 with C1 of 32 bits, so n C1 is exact,
// and t - n C1 is exact (n = 0, or |t| > 0.34 whose last place is at least
// 2^-54, and the difference is below 2^-1); n C2 is exact (TwoProd), and
// n C3 with the sums adds below 2^-104 (0 when n = 0: r = t). m = r S(r),
// S(r) = sum of r^j/(j + 1)! for j <= 20, whose remainder is below 2^-101.7
// of S (S >= 0.83); the terms from r^12 on (below 2^-51.6) are summed in
// double, adding below 2^-103; the twelve double-double steps of Horner's
// rule (a product and a sum, no cancellation: |r S_(j+1)| < c_j / 4) add
// below 12 * 7u^2 * 1.3 < 2^-99.2, the coefficients and the last product
// below 5u^2. So m carries a relative error below 2^-98.5, plus an absolute
// one below 2^-104 when n != 0.
//   t may carry a tail t_lo (t + t_lo a double-double, |t_lo| <= 2^-46 for
// |t| < 128): it joins r's low part, rounded by at most 2^-99 there, so m
// keeps a relative error below 2^-98 (r is summed by TwoSum, which needs no
// order of magnitudes: with t_lo, r's parts may be of any size).
HWY_INLINE DD ExpM1Reduced(double t, int* n, double t_lo = 0.0) {
  const double nd = nearbyint(t * 0x1.71547652b82fep+0);
  const double r0 = t - nd * 0x1.62e42ffp-1;
  const double p_hi = nd * -0x1.718432a1b0e26p-35;
  const double p_lo = fma(nd, -0x1.718432a1b0e26p-35, -p_hi);
  const DD s = TwoSum(r0, -p_hi);
  const DD r = TwoSum(s.hi, (s.lo + t_lo) - (p_lo + nd * -0x1.9ff0342542fc3p-90));
  double tail = kInverseFactorials[20].hi;
  for (int j = 19; j >= 12; --j) tail = tail * r.hi + kInverseFactorials[j].hi;
  DD sum = {tail, 0.0};
  for (int j = 11; j >= 0; --j) sum = AddDD(kInverseFactorials[j], MulDD(r, sum));
  *n = static_cast<int>(nd);
  return MulDD(r, sum);
}

// A binary format: precision bits, exponents of the smallest normal and of
// the largest finite number.
struct Format {
  int precision, emin, emax;
};
template <typename T>
constexpr Format FormatFor() {
  return {PrecisionOf<T>(), hwy::IsSame<T, hwy::float16_t>() ? -14 : -126,
          hwy::IsSame<T, hwy::float16_t>() ? 15 : 127};
}

// 2^n (v.hi + v.lo), v.hi != 0, rounded to nearest even in fmt (subnormals
// on its grid, infinity beyond its range). With 2^q the format's last place
// at |v.hi|, |v.hi| / 2^q is exact; it is a midpoint only when its fraction
// is 1/2, and then v.lo decides (no tie: v is not a midpoint). Otherwise
// v.lo, below half a last place of v.hi, crosses no boundary.
HWY_INLINE float RoundToFormat(DD v, int n, Format fmt) {
  const double mag = fabs(v.hi);
  const double lo = v.hi < 0 ? -v.lo : v.lo;
  int e;
  frexp(mag, &e);  // mag in [2^(e - 1), 2^e)
  const int q = HWY_MAX(e - 1 + n, fmt.emin) - (fmt.precision - 1);
  const double scaled = ldexp(mag, n - q);
  double units = nearbyint(scaled);
  if (fabs(scaled - units) == 0.5 && lo != 0) units = lo > 0 ? scaled + 0.5 : scaled - 0.5;
  const double rounded = ldexp(units, q);
  const double largest = ldexp(2.0 - ldexp(1.0, 1 - fmt.precision), fmt.emax);
  const float out = rounded > largest ? HUGE_VALF : static_cast<float>(rounded);
  return v.hi < 0 ? -out : out;
}

// e^x correctly rounded in fmt, x finite: 2^n (1 + m) from ExpM1Reduced,
// relative error below 2^-98 (1 + m is summed to 2u^2), rounded once.
// Beyond the thresholds of ExpInDouble the result is +inf or 0.
HWY_NOINLINE inline float ExpAccurate(float x, Format fmt) {
  if (x > 88.8f) return HUGE_VALF;
  if (static_cast<double>(x) < -0x1.9fe3682cd3be4p+6) return 0.0f;
  int n;
  const DD m = ExpM1Reduced(x, &n);
  const DD e = QuickTwoSum(1.0, m.hi);
  return RoundToFormat(QuickTwoSum(e.hi, e.lo + m.lo), n, fmt);
}

// ln x correctly rounded in fmt, x positive and finite (subnormal too).
// y0 = k ln 2 + 2 atanh(s) in double (x = 2^k z, z in [sqrt(1/2), sqrt(2)),
// s = (z - 1)/(z + 1), |s| <= 0.1716, the series to s^21 (remainder below
// 2^-60)), within 2^-49 of ln x relative. Then one Newton step: with
// e^-y0 = 2^n (1 + m) (ExpM1Reduced) and X = 2^n x (exact), w = x e^-y0 - 1
// = (X - 1) + X m, X - 1 exact (X has 24 bits and lies in [0.7, 1.42]),
// X m as a double-double, summed exactly with it (TwoSum); ln x = y0 +
// ln(1 + w) = y0 + w - w^2/2 + (below |w|^3 < 2^-140). w's error is m's
// times X: below 2^-98 |m| + 2^-104, and |m| <= 1.2 |y0| (n = 0) or |m| <=
// 0.42 < 1.3 |ln x| (n != 0, |ln x| > 0.34): ln x carries a relative error
// below 2^-97, rounded once (ln x = 0 only at x = 1).
HWY_NOINLINE inline float LogAccurate(float x, Format fmt) {
  if (x == 1.0f) return 0.0f;
  int k;
  double z = frexp(static_cast<double>(x), &k);
  if (z < 0x1.6a09e667f3bcdp-1) {
    z *= 2;
    k -= 1;
  }
  const double s = (z - 1) / (z + 1);
  const double s2 = s * s;
  double series = 1.0 / 21;
  for (int i = 19; i >= 1; i -= 2) series = series * s2 + 1.0 / i;
  const double y0 = k * 0x1.62e42fefa39efp-1 + 2 * s * series;
  int n;
  const DD m = ExpM1Reduced(-y0, &n);
  const double big_x = ldexp(static_cast<double>(x), n);
  const double xm_hi = big_x * m.hi;
  const double xm_lo = fma(big_x, m.hi, -xm_hi) + big_x * m.lo;
  const DD w0 = TwoSum(big_x - 1.0, xm_hi);
  const DD w = QuickTwoSum(w0.hi, w0.lo + xm_lo);
  const DD sum = TwoSum(y0, w.hi);
  return RoundToFormat(QuickTwoSum(sum.hi, sum.lo + (w.lo - 0.5 * w.hi * w.hi)), 0, fmt);
}

// e^(a - b) correctly rounded in fmt, a and b finite: the difference t =
// a - b exactly as a double-double (TwoSum of the widened floats), then as
// ExpAccurate with t's tail joining the reduced argument (ExpM1Reduced),
// relative error below 2^-97, rounded once. e^t > 2^128 for t > 89 and
// below 2^-151 for t < -105 (ExpM1Reduced's range).
HWY_NOINLINE inline float ExpDifAccurate(float a, float b, Format fmt) {
  const DD t = TwoSum(static_cast<double>(a), -static_cast<double>(b));
  if (t.hi > 89.0) return HUGE_VALF;
  if (t.hi < -105.0) return 0.0f;
  int n;
  const DD m = ExpM1Reduced(t.hi, &n, t.lo);
  const DD e = QuickTwoSum(1.0, m.hi);
  return RoundToFormat(QuickTwoSum(e.hi, e.lo + m.lo), n, fmt);
}

}  // namespace exp_log
}  // namespace HWY_NAMESPACE
}  // namespace pto
HWY_AFTER_NAMESPACE();

#endif  // PTO_KERNELS_EXP_LOG_ACCURATE_INL_H_
