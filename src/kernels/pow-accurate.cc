// The accurate path of correctly rounded pow (pow-accurate.h).
//
// |x|^y is either
//   - computed exactly (ExactPower): every case in which x^y is a dyadic
//     number of at most 53 significant bits, which includes every x^y that
//     some format represents or that lies exactly halfway between two of its
//     numbers (x^2, x^3, x^0.5 of small-significand x, powers of two); or
//   - computed as a double-double hi + lo (Log, then Exp) with a relative
//     error below 2^-93.5 wherever the result is within the formats' range,
//     |ln x^y| <= 104 (the bound is derived next to each step: Log below
//     2^-101, t = y ln x below 2^-101 + 2u^2, hence an absolute error below
//     2^-94.4 in t, and Exp's own below 2^-96),
// and then rounded once to the format (RoundToFormat), ties to even.
//
// Why that rounds correctly: RoundToFormat returns the correct rounding of
// hi + lo, and hi + lo rounds like x^y unless a rounding boundary (a
// midpoint between two numbers of the format) lies between them, that is,
// unless x^y is within 2^-93.5 |x^y| of a midpoint without being one
// (midpoints themselves are exact cases). That is not proven here for all
// 2^64 pairs of float32 inputs (it would take a search of the worst cases);
// for random-like digits the expected number of such pairs among all of them
// is about 2^64 * 2^-(93.5 - 25) = 2^-4.5, and none occurred in the tests
// (tests/test_accuracy.c compares with MPFR). Structured inputs are not
// random-like, but the closest ones known, x = 2^e (1 + j 2^-24) to small
// dyadic powers (see ScaledLn2), stay about 2^-49 away.
//
// Compiled without contraction (-ffp-contract=off): the error-free
// transformations below need each operation rounded on its own, and the
// same bits on every compiler and target.
#include "src/kernels/pow-accurate.h"

#include <math.h>
#include <stdint.h>

#include <algorithm>
#include <array>

namespace pto {
namespace pow_accurate {
namespace {

// ln 2 = kLn2Hi + kLn2Lo to 2^-109.9 relative. kLn2Hi is ln 2 rounded to
// double: all 53 of its bits are significant, so n * kLn2Hi is NOT exact
// for an integer n (see ScaledLn2).
constexpr double kLn2Hi = 0x1.62e42fefa39efp-1;
constexpr double kLn2Lo = 0x1.abc9e3b39803fp-56;
constexpr double kInvLn2 = 0x1.71547652b82fep+0;

// A double-double: the unevaluated sum hi + lo with |lo| <= ulp(hi) / 2.
// u = 2^-53 below is the unit roundoff of double.
struct DD {
  double hi, lo;
};

DD TwoSum(double a, double b) {
  const double s = a + b;
  const double bb = s - a;
  return {s, (a - (s - bb)) + (b - bb)};
}

// Requires |a| >= |b| (or a = 0).
DD FastTwoSum(double a, double b) {
  const double s = a + b;
  return {s, b - (s - a)};
}

DD TwoProd(double a, double b) {
  const double p = a * b;
  return {p, fma(a, b, -p)};
}

// Relative error <= 3u^2 unless a + b cancels.
DD Add(DD a, DD b) {
  DD s = TwoSum(a.hi, b.hi);
  const DD t = TwoSum(a.lo, b.lo);
  s = FastTwoSum(s.hi, s.lo + t.hi);
  return FastTwoSum(s.hi, s.lo + t.lo);
}

// Relative error <= 4u^2.
DD Mul(DD a, DD b) {
  const DD p = TwoProd(a.hi, b.hi);
  return FastTwoSum(p.hi, p.lo + (a.hi * b.lo + a.lo * b.hi));
}

DD MulD(DD a, double b) {
  const DD p = TwoProd(a.hi, b);
  return FastTwoSum(p.hi, p.lo + a.lo * b);
}

// n ln 2 for an integer |n| < 2^10, relative error below 2^-105.2: n kLn2Hi
// exactly (TwoProd), n kLn2Lo to u, their sum's tail rounded once (u^2 of
// the whole), and kLn2Hi + kLn2Lo's own 2^-109.9. Log (k ln 2) and Exp
// (n ln 2) both use it.
//
// n * kLn2Hi alone is not exact: that needs a kLn2Hi with 11 trailing zero
// bits (a Cody-Waite split), and this kLn2Hi has none. Rounded, the product
// would carry up to half an ulp of n ln 2 (2^-47 where 64 <= |n ln 2| <
// 128): about 2^-53 relative in ln x, carried by t = y ln x into e^t as an
// absolute error in t, and again in Exp's reduction t - n ln 2, where it is
// a relative error of the result itself, so the accurate path would be
// good to about 2^-49, not 2^-94, far from x = 1 (exponent k != 0) or for
// results away from 1 (n != 0). Random inputs almost never lie that close
// to a rounding boundary, but the ones the fast path's rounding test sends
// here are exactly those within 2^-41.3 of one, among them a whole
// structured class: x = 2^e (1 + j 2^-24) for a few j, y = k/2^m, whose
// x^y = 2^(e y) (1 + y j 2^-24 + y (y - 1)/2 j^2 2^-48 + ...) sits about
// 2^-49 beyond a midpoint whenever the first-order term lands on one
// (16777215^1.5 = 2^36 - 6144 + 3/8 2^-12); about 1 in 400 of them would
// be misrounded. tests/test_accuracy.c checks the class, for every format
// and the whole exponent range.
DD ScaledLn2(double n) { return MulD({kLn2Hi, kLn2Lo}, n); }

// a / n for a small positive integer n, relative error <= 3u^2: the
// remainder a.hi - q n of a rounded quotient q is exact in double.
DD DivN(DD a, double n) {
  const double q = a.hi / n;
  const double rem = fma(-q, n, a.hi) + a.lo;
  return FastTwoSum(q, rem / n);
}

// sum of c[j] x^j for j < kN by Horner's rule: the terms from c[kFirstDouble]
// on in double (x.hi and c[j].hi, each step a rounded product and sum), the
// lower ones in double-double (a product and a sum each). Callers choose
// kFirstDouble so that the double tail's error, weighted by x^kFirstDouble,
// stays below u^2 of the sum.
template <int kFirstDouble, size_t kN>
DD HornerWithDoubleTail(const std::array<DD, kN>& c, DD x) {
  double tail = c[kN - 1].hi;
  for (int j = static_cast<int>(kN) - 2; j >= kFirstDouble; --j) tail = c[j].hi + x.hi * tail;
  DD sum = {tail, 0.0};
  for (int j = kFirstDouble - 1; j >= 0; --j) sum = Add(c[j], Mul(x, sum));
  return sum;
}

// S's coefficients 1 / (2n + 3), n < kLogTerms (see Log), each to 3u^2,
// computed on first use.
constexpr int kLogTerms = 20;
constexpr int kLogFirstDouble = 11;
const std::array<DD, kLogTerms>& InverseOddNumbers() {
  static const std::array<DD, kLogTerms> table = [] {
    std::array<DD, kLogTerms> t;
    for (int n = 0; n < kLogTerms; ++n) t[n] = DivN({1.0, 0.0}, 2 * n + 3);
    return t;
  }();
  return table;
}

// ln x for a positive normal double x of at most 24 significant bits (a
// float). x = 2^k z with z in [sqrt(1/2), sqrt(2)), and
//   ln z = 2 atanh(s) = 2 s + 2 s^3 S(s^2),  S(w) = sum_n w^n / (2n + 3),
// with s = (z - 1) / (z + 1), |s| <= 0.1716, w = s^2 <= 0.02944. The sum is
// cut after n = 19: the rest is below w^20 / 43 < 2^-106 of S (~1/3).
// z - 1 and z + 1 are exact (24-bit z), s is formed to 2u^2, and Horner's
// rule (HornerWithDoubleTail) adds to the relative error of S <= 11 * 7u^2
// in its 11 double-double steps and below u^2 from the terms n >= 11 summed
// in double (w^11 S' < 2^-59 of S, S' carried to 17u), less than the 20 *
// 7u^2 of 20 double-double steps; S's weight in ln z is w / 3 < 2^-6.6: ln
// z carries <= 12u^2 = 2^-102.4. For k != 0,
// |ln x| >= |k| ln 2 - ln 2 / 2 >= max(|k ln 2| / 2, |ln z|), so the errors
// of ln z and of k ln 2 (2^-105.2, ScaledLn2) grow by at most a factor of 1
// and 2, and the addition adds 3u^2: ln x carries a relative error below
// 2^-102.4 + 2^-104.2 + 2^-104.4 < 2^-101.
DD Log(double x) {
  int k;
  double z = frexp(x, &k);  // z in [1/2, 1)
  if (z < 0x1.6a09e667f3bcdp-1) {
    z *= 2;
    k -= 1;
  }
  const double num = z - 1.0;
  const double den = z + 1.0;
  const double s_hi = num / den;
  const DD s = {s_hi, fma(-s_hi, den, num) / den};
  const DD w = Mul(s, s);
  const DD sum = HornerWithDoubleTail<kLogFirstDouble>(InverseOddNumbers(), w);
  DD ln_z = Add(s, Mul(Mul(s, w), sum));
  ln_z = {2 * ln_z.hi, 2 * ln_z.lo};
  return Add(ScaledLn2(k), ln_z);
}

// e^r's Taylor coefficients 1/j!, j <= kExpDegree, each to 3j u^2 (j
// divisions by DivN), computed on first use.
constexpr int kExpDegree = 22;
constexpr int kExpFirstDouble = 14;
const std::array<DD, kExpDegree + 1>& InverseFactorials() {
  static const std::array<DD, kExpDegree + 1> table = [] {
    std::array<DD, kExpDegree + 1> t;
    t[0] = {1.0, 0.0};
    for (int j = 1; j <= kExpDegree; ++j) t[j] = DivN(t[j - 1], j);
    return t;
  }();
  return table;
}

// e^t for |t| <= 200, as a double-double with relative error below 2^-96
// plus t's own absolute error: t = n ln 2 + r, |r| <= 0.3466 + 2^-40, r
// formed with absolute error <= |t| 2^-104 + 2^-101 (n ln 2 to 2^-105.2
// relative by ScaledLn2, |n| <= 289); e^r by its Taylor series to r^22,
// whose remainder is below 0.35^23 / 23! < 2^-103, by Horner's rule over
// the coefficients 1/j! (InverseFactorials: 3j u^2 each, weighted by r^j /
// j! below 2.1u^2 of e^r >= 0.707 in all) in HornerWithDoubleTail: the
// terms from r^14 on (r^14 / 14! < 2^-57.5) summed in double to 17u, below
// u^2, and 14 double-double steps of a product (4u^2) and a sum (3u^2, at
// most doubled by the cancellation of 1 + r e' for r < 0): below 144u^2 =
// 2^-98.8 in all. The coefficients come from a table, so no step divides,
// and the terms from r^14 on are summed in double: the double-double steps
// set the cost of a lane of the accurate path (bench/lab/pow_hard_lanes.c
// times it).
DD Exp(DD t) {
  const double n = nearbyint(t.hi * kInvLn2);
  const DD n_ln2 = ScaledLn2(n);
  const DD r = Add(t, {-n_ln2.hi, -n_ln2.lo});
  const DD e = HornerWithDoubleTail<kExpFirstDouble>(InverseFactorials(), r);
  const int ni = static_cast<int>(n);
  return {ldexp(e.hi, ni), ldexp(e.lo, ni)};
}

// x = m 2^e with m odd (as an integer); x > 0 finite, its significand at
// most 53 bits.
void OddSignificand(double x, int64_t* m, int* e) {
  int ex;
  const double frac = frexp(x, &ex);
  uint64_t mant = static_cast<uint64_t>(ldexp(frac, 53));
  ex -= 53;
  const int tz = __builtin_ctzll(mant);
  mant >>= tz;
  *m = static_cast<int64_t>(mant);
  *e = ex + tz;
}

// x^y exactly, where it is a number of at most 53 significant bits that
// stays well inside the double range (|log2| <= ~950); false otherwise. x > 0
// finite, y finite and nonzero, x != 1.
//
// With x = mx 2^ex and y = Y 2^ey (mx, Y odd): for ey < 0, x^y is rational
// only if x is a perfect 2^-ey-th power (mx a perfect power, ex divisible by
// 2^-ey); then x^y = x'^Y with x' = mx' 2^ex' the root. For integer y, x^Y
// = mx^Y 2^(ex Y) is dyadic for Y > 0, or for Y < 0 only if mx = 1. Results
// whose odd part has more than 53 bits are neither representable in a
// format nor a midpoint of one, so the double-double path may round them.
bool ExactPower(double x, double y, double* out) {
  int64_t mx, yy;
  int ex, ey;
  OddSignificand(x, &mx, &ex);
  OddSignificand(fabs(y), &yy, &ey);
  if (y < 0) yy = -yy;
  for (; ey < 0; ++ey) {  // take square roots while y has a fraction
    if ((ex & 1) != 0) return false;
    const int64_t s = static_cast<int64_t>(sqrt(static_cast<double>(mx)));  // exact for squares
    if (s * s != mx) return false;
    mx = s;
    ex /= 2;
  }
  // x'^Y with Y = yy 2^ey an integer; x' = mx 2^ex.
  if (ey > 20 || (yy > 0 ? yy : -yy) > (int64_t{1} << 20) >> ey) return false;  // |Y| > 2^20
  const int64_t big_y = yy * (int64_t{1} << ey);
  if (big_y < 0 && mx != 1) return false;
  uint64_t odd = 1;
  if (mx != 1) {
    for (int64_t i = 0; i < big_y; ++i) {
      if (odd > (uint64_t{1} << 53) / static_cast<uint64_t>(mx)) return false;
      odd *= static_cast<uint64_t>(mx);
    }
  }
  const int64_t e = static_cast<int64_t>(ex) * big_y;
  if (e < -900 || e > 900) return false;
  *out = ldexp(static_cast<double>(odd), static_cast<int>(e));
  return true;
}

// hi + lo (hi > 0, |lo| <= ulp(hi) / 2) rounded to nearest-even in fmt.
// The format's ulp at hi is 2^q; hi / 2^q is exact, and it is a midpoint
// exactly when its fraction is 1/2: then lo decides (lo = 0: a true tie,
// to even). Otherwise no boundary lies between hi and hi + lo.
float RoundToFormat(DD v, const Format& fmt) {
  if (!(v.hi <= 0x1p300)) return HUGE_VALF;
  if (v.hi < 0x1p-300) return 0.0f;
  int e;
  frexp(v.hi, &e);  // v.hi in [2^(e-1), 2^e)
  const int q = std::max(e - 1, fmt.emin) - (fmt.precision - 1);
  const double scaled = ldexp(v.hi, -q);
  double n = nearbyint(scaled);  // ties to even: float calls run in the default mode
  if (fabs(scaled - n) == 0.5 && v.lo != 0) n = v.lo > 0 ? scaled + 0.5 : scaled - 0.5;
  const double rounded = ldexp(n, q);
  const double max_finite = ldexp(2.0 - ldexp(1.0, 1 - fmt.precision), fmt.emax);
  return rounded > max_finite ? HUGE_VALF : static_cast<float>(rounded);
}

bool IsInteger(float y) { return nearbyintf(y) == y; }

bool IsOddInteger(float y) {
  return fabsf(y) < 0x1p24f && IsInteger(y) && (static_cast<int32_t>(y) & 1) != 0;
}

}  // namespace

float PowMagnitude(float x, float y, const Format& fmt) {
  const double ax = fabs(static_cast<double>(x));
  if (y == 0 || ax == 1.0) return 1.0f;
  double exact;
  if (ExactPower(ax, y, &exact)) return RoundToFormat({exact, 0.0}, fmt);
  const DD t = MulD(Log(ax), y);
  // e^200 and e^-200 lie beyond every format's range (2^288, 2^-288).
  if (t.hi > 200) return HUGE_VALF;
  if (t.hi < -200) return 0.0f;
  return RoundToFormat(Exp(t), fmt);
}

float Pow(float x, float y, const Format& fmt) {
  if (y == 0 || x == 1.0f) return 1.0f;
  if (isnan(x) || isnan(y)) return x + y;
  const bool x_neg = signbit(x);
  const float ax = fabsf(x);
  if (isinf(y)) {
    if (ax == 1.0f) return 1.0f;
    return (ax < 1.0f) == (y < 0) ? HUGE_VALF : 0.0f;
  }
  const bool odd = IsOddInteger(y);
  if (ax == 0.0f || isinf(ax)) {
    // 0^y and inf^y: 0 or inf (inf^y = 1 / 0^-y), negative for odd y.
    const float mag = (ax == 0.0f) == (y < 0) ? HUGE_VALF : 0.0f;
    return x_neg && odd ? -mag : mag;
  }
  if (x_neg && !IsInteger(y)) return NAN;
  const float mag = PowMagnitude(ax, y, fmt);
  return x_neg && odd ? -mag : mag;
}

}  // namespace pow_accurate
}  // namespace pto
