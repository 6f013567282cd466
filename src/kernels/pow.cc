// Elementwise power, dst = base ^ exp, for every element type.
//
// Floating point, |x|^y = 2^(y * log2|x|), two algorithms:
//
// HIGH_PRECISION, FLOAT32: double lanes after the design of the glibc / ARM
// optimized-routines powf, with tables small enough to live in one register
// (a lane permute instead of a gather):
//   - log2: |x| = 2^k * z with z in [0.674, 1.349); the top two mantissa
//     bits of z pick c from a 4-entry table holding invc ~ 1/c (an f32
//     value, so r = z * invc - 1 is exact in double) and log2(c); then
//     log2|x| = k + log2(c) + r * P(r) with |r| <= 0.1022, P of degree 7.
//     The bucket around 1 has c = 1 exactly, so x near 1 loses nothing.
//   - exp2: t = y * log2|x| in double, clamped to +-200 so that 2^t stays a
//     normal double whose f64 -> f32 conversion rounds once to the right
//     f32, subnormal, zero or infinity. 2^t = 2^(k + i/4) * Q(r) with
//     round(4 t) = 4 k + i, |r| <= 1/8, Q of degree 5 and Q(0) = 1.
//   The double result is within ~2^-29 of the exact value: measured max
//   0.514 ulp, exact whenever the exact value is representable. A row tail
//   of at most half a vector (a 1x1 tile) computes one double vector, not
//   two, with the polynomials by Estrin's scheme (a shorter dependency chain;
//   the double results differ from Horner's in the last bits only, same
//   measured max).
//   On AVX2/AVX-512 the fast path takes k, z and the bucket from the f32
//   bits once per f32 vector and builds unmasked permute indices; it covers
//   vectors whose x are all positive normal and y all finite (negative bases
//   only add their sign), the rest goes through the general path (same
//   arithmetic plus the special cases).
//
// DEFAULT, FLOAT32 (targets with FMA): f32 lanes only, with exact FMA splits
// (see PowF32Default): 16 register-table buckets for log2 (r exact,
// |r| <= 0.0333, tail polynomial of degree 4), t = y * log2|x| carried as an
// unevaluated sum of f32 terms, 2^f on |f| <= 0.5 by a degree-6 polynomial
// and the exponent added to the bits. It covers |y log2 x| <= 125 with x
// normal; other vectors (special cases, subnormal x, results near overflow
// or underflow) take the HIGH_PRECISION general path. Measured max 3.16 ulp
// for normal results (1.7M single-element tiles: random, bases near 1 with
// huge exponents, near overflow/underflow; 2.46 with a degree-5 tail; a
// degree-5 2^f reaches 8.2). The per-vector check costs 8 instructions; the
// fast path does not clear x's sign (a negative x leaves it anyway) and
// the slow path recomputes from |x|. AVX2 loop: 65 instructions per 8 f32.
// Targets without FMA (SSE4, SSSE3) use the double-lane path with P of
// degree 6 and Q of degree 4 (max 0.86 ulp).
//
// FLOAT16/BFLOAT16 (both algorithms): the DEFAULT f32 result rounded once to
// the narrow type (a few f32 ulp stay far inside 1 ulp of the narrow type).
//
// f32 subnormal inputs become normal doubles in the general path. The sign
// (negative base, odd integer exponent), NaN for a negative base with a
// non-integer exponent and the Annex F special cases (zeros, infinities, NaN,
// y = 0, x = 1) are applied in f32 lanes, only in vectors that need them.
//
// Row tails (AVX2, AVX-512): masked loads and stores instead of stack
// buffers, the unused lanes set to x = y = 1 (see PowFloat). A 1x1 call is
// then bound by the latency of one vector's dependency chain (~25 FMAs and
// conversions) plus validation and dispatch outside this file.
//
// Integers: exponentiation by squaring in wrapping lanes (8-bit types in
// 16-bit lanes), one squaring per exponent bit until every lane's remaining
// exponent is zero.
#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "src/kernels/kernels.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "src/kernels/pow.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "src/kernels/simd-inl.h"

#ifndef PTO_KERNELS_POW_TABLES_
#define PTO_KERNELS_POW_TABLES_
namespace pto {
namespace pow_tables {

// log2 reduction: bucket i holds z whose double bits lie in
// [kLogOff + i * 2^50, kLogOff + (i + 1) * 2^50); c is its midpoint (1 for
// bucket 2, which holds 1), kInvC[i] = 1/c rounded to f32 and
// kLogC[i] = -log2(kInvC[i]). kLogOff minimises max |r| = 0.1022. Tables
// have 8 entries (the 4 repeated) so that one vector load holds them on every
// target and an AVX-512 permute may index with three bits.
constexpr uint64_t kLogOff = 0x3FE5933333333333ull;  // 0.674...
alignas(64) constexpr double kInvC[8] = {
    0x1.5b7c9cp+0, 0x1.2914a8p+0, 0x1p+0, 0x1.a27e34p-1,
    0x1.5b7c9cp+0, 0x1.2914a8p+0, 0x1p+0, 0x1.a27e34p-1,
};
alignas(64) constexpr double kLogC[8] = {
    -0x1.c364cad46f359p-2, -0x1.b7ba68d3676b5p-3, 0x0p+0, 0x1.29ec46b0525adp-2,
    -0x1.c364cad46f359p-2, -0x1.b7ba68d3676b5p-3, 0x0p+0, 0x1.29ec46b0525adp-2,
};

// exp2 reduction: the bits of 2^(i/4) minus i << 50, so that adding
// round(4 t) << 50 to entry (round(4 t) mod 4) also sets the exponent.
alignas(64) constexpr uint64_t kExp2Bits[8] = {
    0x3ff0000000000000, 0x3fef06fe0a31b715, 0x3feea09e667f3bcd, 0x3feee89f995ad3ad,
    0x3ff0000000000000, 0x3fef06fe0a31b715, 0x3feea09e667f3bcd, 0x3feee89f995ad3ad,
};

// Minimax fits with relative error weighting. log2(1 + r) ~ r * P(r) for
// |r| <= 0.1022; 2^r ~ Q(r) for |r| <= 1/8 with Q(0) = 1, so that exact
// powers of two come out exact (and 2^-150 rounds to 0). Relative errors:
//   r P(r) degree 8: 2^-36.5     r P(r) degree 7: 2^-32.0
//   Q degree 5:      2^-34.6     Q degree 4:      2^-27.5
constexpr double kLog2High[8] = {
    0x1.71547652a7848p+0,  -0x1.715476523c951p-1, 0x1.ec70a0e1172aep-2,
    -0x1.71547b510572dp-2, 0x1.2770f3fc595a9p-2,  -0x1.ec62dde92f08ep-3,
    0x1.ad075394c852fp-3,  -0x1.78468289a4599p-3,
};
constexpr double kLog2Fast[7] = {
    0x1.71547652a99a9p+0,  -0x1.71547716971b8p-1, 0x1.ec70a0a8e1be7p-2,
    -0x1.714fe3b077715p-2, 0x1.27712c13dcdb3p-2,  -0x1.f3428fe7e7d6p-3,
    0x1.aceb56c357eep-3,
};
constexpr double kExp2High[6] = {
    0x1p+0,               0x1.62e42fef8fa21p-1, 0x1.ebfbde64812e3p-3,
    0x1.c6b08f502910fp-5, 0x1.3b43f386d948bp-7, 0x1.5d87fdc81b70ep-10,
};
constexpr double kExp2Fast[5] = {
    0x1p+0,               0x1.62e42e924e46dp-1, 0x1.ebfbe31fdffb9p-3,
    0x1.c6dc3e1aaef84p-5, 0x1.3b2ab61f78cf5p-7,
};


// HIGH_PRECISION fast path: the same buckets found from the f32 bits (the
// f32 image of kLogOff, rounded up, so every f32 lands in the same bucket).
constexpr uint32_t kLogOffHigh = 0x3F2C999Au;

// DEFAULT (f32 lanes): 16 buckets of 2^19 f32 bit patterns from
// kLogOffF, z in [0.704, 1.407); 1 sits 0.48 into bucket 9 (c = 1).
// kInvCF[i] has at most 6 significant bits, so r = z * invc - 1 is exact in
// one f32 FMA (|r| <= 0.0333); -log2(invc) = kLogCHiF + kLogCLoF with the
// high part a multiple of 2^-15, so k + kLogCHiF is exact for every
// |k| <= 255. The bucket position of 1 and each invc minimise
// max r^2 / |log2 z| (the weight of the f32 tail term in t near x = 1)
// subject to 1.55 |r| < |log2 invc| (which keeps a_hi - n exact below).
constexpr uint32_t kLogOffF = 0x3F3428F6u;
alignas(64) constexpr float kInvCF[16] = {
    0x1.6p+0, 0x1.58p+0, 0x1.48p+0, 0x1.38p+0,
    0x1.3p+0, 0x1.2p+0, 0x1.18p+0, 0x1.1p+0,
    0x1.08p+0, 0x1p+0, 0x1.ep-1, 0x1.c8p-1,
    0x1.bp-1, 0x1.98p-1, 0x1.88p-1, 0x1.7p-1,
};
alignas(64) constexpr float kLogCHiF[16] = {
    -0x1.d678p-2, -0x1.b48p-2, -0x1.6e2p-2, -0x1.244p-2,
    -0x1.fbcp-3, -0x1.5cp-3, -0x1.08cp-3, -0x1.664p-4,
    -0x1.6bcp-5, 0x0p+0, 0x1.7d6p-4, 0x1.564p-3,
    0x1.f6p-3, 0x1.4f7p-2, 0x1.8a88p-2, 0x1.e7ep-2,
};
alignas(64) constexpr float kLogCLoF[16] = {
    0x1.60fe68p-17, 0x1.408c78p-18, -0x1.0e6ce8p-17, -0x1.eac382p-20,
    -0x1.6b9026p-19, -0x1.a39fbep-19, -0x1.62336ap-17, 0x1.20a6dep-21,
    0x1.2c8a72p-17, 0x0p+0, 0x1.25b3eep-22, -0x1.1eb002p-18,
    -0x1.3ab7cep-18, -0x1.134c4ep-20, 0x1.80abfcp-18, -0x1.40358ep-19,
};

// log2(1 + r) = kC1Hi * r + r * M(r), M of degree 4 (absolute error 2^-30.4
// on [-0.03335, 0.03255]; M(0) holds the low part of 1/ln 2).
constexpr float kC1Hi = 0x1.715476p+0f;
constexpr float kLogTailF[5] = {
    0x1.4bc598p-26f, -0x1.715474p-1f, 0x1.ec7078p-2f, -0x1.71a47p-2f, 0x1.28593cp-2f,
};
// 2^f ~ E(f) on |f| <= 0.5002, E(0) = 1, degree 6, relative error 2^-28.3.
constexpr float kExp2F[7] = {
    0x1p+0f, 0x1.62e43p-1f, 0x1.ebfbdcp-3f, 0x1.c6af7ap-5f, 0x1.3b2dd6p-7f, 0x1.5f095cp-10f, 0x1.4176acp-13f,
};

}  // namespace pow_tables
}  // namespace pto
#endif  // PTO_KERNELS_POW_TABLES_

HWY_BEFORE_NAMESPACE();
namespace pto {
namespace HWY_NAMESPACE {

// ---------------------------------------------------------------------------
// Floating point.

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
HWY_INLINE hn::Vec<D> PolynomialEstrin(D d, hn::Vec<D> x, const T (&c)[6]) {
  const auto x2 = hn::Mul(x, x);
  const auto p01 = hn::MulAdd(hn::Set(d, c[1]), x, hn::Set(d, c[0]));
  const auto p23 = hn::MulAdd(hn::Set(d, c[3]), x, hn::Set(d, c[2]));
  const auto p45 = hn::MulAdd(hn::Set(d, c[5]), x, hn::Set(d, c[4]));
  return hn::MulAdd(hn::MulAdd(p45, x2, p23), x2, p01);
}
template <class D, typename T>
HWY_INLINE hn::Vec<D> PolynomialEstrin(D d, hn::Vec<D> x, const T (&c)[8]) {
  const auto x2 = hn::Mul(x, x);
  const auto x4 = hn::Mul(x2, x2);
  const auto p01 = hn::MulAdd(hn::Set(d, c[1]), x, hn::Set(d, c[0]));
  const auto p23 = hn::MulAdd(hn::Set(d, c[3]), x, hn::Set(d, c[2]));
  const auto p45 = hn::MulAdd(hn::Set(d, c[5]), x, hn::Set(d, c[4]));
  const auto p67 = hn::MulAdd(hn::Set(d, c[7]), x, hn::Set(d, c[6]));
  return hn::MulAdd(hn::MulAdd(p67, x2, p45), x4, hn::MulAdd(p23, x2, p01));
}

#if HWY_TARGET != HWY_SCALAR

// table[idx] for idx in [0, 4): a lane permute where a vector holds four
// doubles (one instruction on AVX2/AVX3), a gather on narrower targets.
template <class DD>
HWY_INLINE hn::Vec<DD> Lookup4(DD dd, const double* table, hn::Vec<hn::RebindToSigned<DD>> idx) {
  if (hn::MaxLanes(dd) >= 4) {
    return hn::TableLookupLanes(hn::LoadU(dd, table), hn::IndicesFromVec(dd, idx));
  }
  return hn::GatherIndex(dd, table, idx);
}

// |x|^y for lanes where |x| is finite and nonzero and y finite; other lanes
// get unspecified values. ax = |x| and y are f32 values widened to double.
template <bool kHigh, class DD>
HWY_INLINE hn::Vec<DD> PowMagnitude(DD dd, hn::Vec<DD> ax, hn::Vec<DD> y) {
  namespace tab = pow_tables;
  const hn::RebindToUnsigned<DD> du;
  const hn::RebindToSigned<DD> di;

  // |x| = 2^k * z, z in [kLogOff, 2 kLogOff): k is the signed top 12 bits of
  // tmp; biased by 2048 it becomes the mantissa of 2^52 + 2048 + k.
  const auto ix = hn::BitCast(du, ax);
  const auto tmp = hn::Sub(ix, hn::Set(du, tab::kLogOff));
  const auto bucket = hn::BitCast(di, hn::And(hn::ShiftRight<50>(tmp), hn::Set(du, 3)));
  const auto z = hn::BitCast(dd, hn::Sub(ix, hn::And(tmp, hn::Set(du, 0xFFF0000000000000ull))));
  const auto k_biased = hn::Or(hn::ShiftRight<52>(hn::Add(tmp, hn::Set(du, 2048ull << 52))),
                               hn::Set(du, 0x4330000000000000ull));
  const auto k = hn::Sub(hn::BitCast(dd, k_biased), hn::Set(dd, 0x1p52 + 2048.0));

  const auto invc = Lookup4(dd, tab::kInvC, bucket);
  const auto logc = Lookup4(dd, tab::kLogC, bucket);
  const auto r = hn::MulAdd(z, invc, hn::Set(dd, -1.0));  // exact
  const auto poly = kHigh ? Polynomial(dd, r, tab::kLog2High) : Polynomial(dd, r, tab::kLog2Fast);
  const auto log2x = hn::MulAdd(r, poly, hn::Add(k, logc));

  // 2^t with t = round(4 t) / 4 + r, |r| <= 1/8. Beyond +-200 the f32
  // result is already 0 or infinity; the clamp keeps 2^t a normal double.
  auto t = hn::Mul(y, log2x);
  t = hn::Min(hn::Max(t, hn::Set(dd, -200.0)), hn::Set(dd, 200.0));
  const auto shift = hn::Set(dd, 0x1.8p52 / 4);
  const auto t_shifted = hn::Add(t, shift);
  const auto ki = hn::BitCast(du, t_shifted);
  const auto rt = hn::Sub(t, hn::Sub(t_shifted, shift));
  const auto entry = hn::BitCast(
      du, Lookup4(dd, reinterpret_cast<const double*>(tab::kExp2Bits),
                  hn::BitCast(di, hn::And(ki, hn::Set(du, 3)))));
  const auto scale = hn::BitCast(dd, hn::Add(entry, hn::ShiftLeft<50>(ki)));
  const auto q = kHigh ? Polynomial(dd, rt, tab::kExp2High) : Polynomial(dd, rt, tab::kExp2Fast);
  return hn::Mul(scale, q);
}

// Rounds double lanes to f32 (nearest even, subnormals and infinity
// included). Highway's EMU128 DemoteTo saturates at FLT_MAX instead.
template <class DH, class DD>
HWY_INLINE hn::Vec<DH> DemoteToF32(DH dh, DD dd, hn::Vec<DD> v) {
#if HWY_TARGET == HWY_EMU128
  // Lanes that round to +-inf travel as +-1 in a second vector.
  const auto overflow = hn::Ge(hn::Abs(v), hn::Set(dd, 0x1.ffffffp127));
  const auto inf_sign = hn::DemoteTo(dh, hn::IfThenElseZero(overflow, hn::CopySign(hn::Set(dd, 1.0), v)));
  const auto finite = hn::DemoteTo(dh, hn::IfThenZeroElse(overflow, v));
  return hn::IfThenElse(hn::Eq(inf_sign, hn::Zero(dh)), finite,
                        hn::Mul(inf_sign, hn::Set(dh, HUGE_VALF)));
#else
  (void)dd;
  return hn::DemoteTo(dh, v);
#endif
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

// Which exponents are integers, and which odd integers. Every f32 of
// magnitude >= 2^24 is an even integer; smaller ones convert to int32
// exactly.
template <class DF>
struct ExponentKind {
  hn::Mask<DF> integer;
  hn::Mask<DF> odd;
};

template <class DF>
HWY_INLINE ExponentKind<DF> ClassifyExponent(DF df, hn::Vec<DF> y) {
  const hn::RebindToUnsigned<DF> du;
  const hn::RebindToSigned<DF> di;
  const auto y_big = hn::Ge(hn::Abs(y), hn::Set(df, 16777216.0f));
  const auto y_small = hn::IfThenZeroElse(y_big, y);
  const auto y_int32 = hn::ConvertTo(di, y_small);
  const auto integer = hn::Or(y_big, hn::Eq(hn::ConvertTo(df, y_int32), y_small));
  const auto odd = hn::And(
      integer, hn::RebindMask(df, hn::Ne(hn::And(hn::BitCast(du, y_int32), hn::Set(du, 1u)),
                                         hn::Zero(du))));
  return {integer, odd};
}

// mag = |x|^y; negative bases make odd integer powers negative and
// non-integer powers NaN.
template <class DF>
HWY_INLINE hn::Vec<DF> ApplyBaseSign(DF df, hn::Vec<DF> x, hn::Vec<DF> mag,
                                     const ExponentKind<DF>& kind) {
  const hn::RebindToUnsigned<DF> du;
  const auto x_sign = hn::And(hn::BitCast(du, x), hn::Set(du, 0x80000000u));
  const auto result =
      hn::Or(mag, hn::BitCast(df, hn::IfThenElseZero(hn::RebindMask(du, kind.odd), x_sign)));
  const auto x_neg = hn::RebindMask(df, hn::Ne(x_sign, hn::Zero(du)));
  return hn::IfThenElse(hn::AndNot(kind.integer, x_neg), hn::Set(df, NAN), result);
}

// pow(x, y) on f32 lanes for every input; the magnitude is computed in
// double halves. The fast paths below hand it the vectors they do not cover.
template <bool kHigh, class DF>
HWY_INLINE hn::Vec<DF> PowGeneral(DF df, hn::Vec<DF> x, hn::Vec<DF> y) {
  const hn::RebindToUnsigned<DF> du;
  const hn::RebindToSigned<DF> di;
  const hn::Half<DF> dh;
  const hn::Rebind<double, decltype(dh)> dd;

  const auto sign = hn::Set(du, 0x80000000u);
  const auto xb = hn::BitCast(du, x);
  const auto axb = hn::AndNot(sign, xb);
  const auto ayb = hn::AndNot(sign, hn::BitCast(du, y));
  const auto ax = hn::BitCast(df, axb);

  const auto mag_lo = PowMagnitude<kHigh>(dd, hn::PromoteTo(dd, hn::LowerHalf(dh, ax)),
                                          hn::PromoteTo(dd, hn::LowerHalf(dh, y)));
  const auto mag_hi = PowMagnitude<kHigh>(dd, hn::PromoteTo(dd, hn::UpperHalf(dh, ax)),
                                          hn::PromoteTo(dd, hn::UpperHalf(dh, y)));
  const auto mag = hn::Combine(df, DemoteToF32(dh, dd, mag_hi), DemoteToF32(dh, dd, mag_lo));

  const ExponentKind<DF> kind = ClassifyExponent(df, y);
  auto result = ApplyBaseSign(df, x, mag, kind);

  // x zero, infinite or NaN; y infinite or NaN.
  const auto axb_i = hn::BitCast(di, axb);
  const auto x_special = hn::Or(hn::Eq(axb_i, hn::Zero(di)), hn::Gt(axb_i, hn::Set(di, 0x7F7FFFFF)));
  const auto y_special = hn::Gt(hn::BitCast(di, ayb), hn::Set(di, 0x7F7FFFFF));
  const auto special = hn::RebindMask(df, hn::Or(x_special, y_special));
  if (HWY_UNLIKELY(!hn::AllFalse(df, special))) {
    result = hn::IfThenElse(special, PowSpecial(df, x, y, kind.odd), result);
  }
  return result;
}


// A vector in which some lane left a fast path. mag_ok marks the lanes whose
// fast magnitude is valid when |x| is a normal number; if every lane is
// such, only negative bases remain (their sign), else the general path runs.
template <class DF>
HWY_NOINLINE hn::Vec<DF> PowFinishSlow(DF df, hn::Vec<DF> x, hn::Vec<DF> y, hn::Vec<DF> mag,
                                       hn::Mask<DF> mag_ok) {
  const hn::RebindToUnsigned<DF> du;
  const hn::RebindToSigned<DF> di;
  // |x| normal: |x| bits + 0x7F800000 wrap to [INT32_MIN, -2^24 - 1] exactly
  // for the normal range (zero and subnormals land above INT32_MAX - 2^23,
  // infinity and NaN in [-2^24, -2^23 - 1]).
  const auto axb = hn::And(hn::BitCast(du, x), hn::Set(du, 0x7FFFFFFFu));
  const auto x_normal = hn::RebindMask(
      df, hn::Lt(hn::BitCast(di, hn::Add(axb, hn::Set(du, 0x7F800000u))), hn::Set(di, -0x1000000)));
  if (hn::AllTrue(df, hn::And(x_normal, mag_ok)))
    return ApplyBaseSign(df, x, mag, ClassifyExponent(df, y));
  return PowGeneral<true>(df, x, y);
}

// x > 0 normal (the same wrap-around as above on the signed bits: negative
// bases fall outside too).
template <class DF>
HWY_INLINE hn::Mask<DF> IsPositiveNormal(DF df, hn::Vec<DF> x) {
  const hn::RebindToUnsigned<DF> du;
  const hn::RebindToSigned<DF> di;
  return hn::RebindMask(df, hn::Lt(hn::BitCast(di, hn::Add(hn::BitCast(du, x), hn::Set(du, 0x7F800000u))),
                                   hn::Set(di, -0x1000000)));
}

// table[i] for the low four bits i of each idx lane (higher bits ignored):
// one permute of a 16-float register on AVX-512, two permutes and a blend on
// AVX2 (hi_sel: bit 3 of idx moved to the sign), a gather elsewhere.
template <class DF>
HWY_INLINE hn::Vec<DF> Lookup16(DF df, const float* table, hn::Vec<hn::RebindToUnsigned<DF>> idx,
                                hn::Vec<DF> hi_sel) {
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3
  (void)hi_sel;
  static_assert(hn::MaxLanes(DF()) == 16, "one register per table");
  return hn::Vec<DF>{_mm512_permutexvar_ps(idx.raw, hn::LoadU(df, table).raw)};
#elif HWY_ARCH_X86 && HWY_TARGET == HWY_AVX2
  static_assert(hn::MaxLanes(DF()) == 8, "two registers per table");
  const __m256 lo = _mm256_permutevar8x32_ps(hn::LoadU(df, table).raw, idx.raw);
  const __m256 hi = _mm256_permutevar8x32_ps(hn::LoadU(df, table + 8).raw, idx.raw);
  // Written out: GCC turns _mm256_blendv_ps on a shifted mask into a compare
  // with zero plus the blend (two more instructions per vector).
  __m256 out;
  asm("vblendvps %3, %2, %1, %0" : "=x"(out) : "x"(lo), "xm"(hi), "x"(hi_sel.raw));
  return hn::Vec<DF>{out};
#else
  (void)hi_sel;
  const hn::RebindToUnsigned<DF> du;
  const hn::RebindToSigned<DF> di;
  return hn::GatherIndex(df, table, hn::BitCast(di, hn::And(idx, hn::Set(du, 15u))));
#endif
}

// The value of v as rounded, hidden from the compiler so that it cannot fuse
// the product into a later addition (GCC contracts intrinsic mul + add into
// FMA): the exact splits below rely on each hi part being one rounding.
template <class V>
HWY_INLINE V Rounded(V v) {
#if HWY_ARCH_X86 && HWY_TARGET != HWY_SCALAR && HWY_TARGET != HWY_EMU128
  asm("" : "+v"(v.raw));
#endif
  return v;
}

// DEFAULT: |x|^y entirely in f32 lanes for x > 0 normal and |y log2 x| <=
// 125, other vectors through PowDefaultSlow.
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
  const auto hi_sel = hn::BitCast(df, hn::ShiftLeft<28>(idx));
  const auto invc = Lookup16(df, tab::kInvCF, idx, hi_sel);
  const auto logc_hi = Lookup16(df, tab::kLogCHiF, idx, hi_sel);
  const auto logc_lo = Lookup16(df, tab::kLogCLoF, idx, hi_sel);

  const auto r = hn::MulAdd(z, invc, hn::Set(df, -1.0f));  // exact
  const auto a = hn::Add(k, logc_hi);                      // exact
  const auto a_hi = Rounded(hn::Mul(y, a));
  const auto a_lo = hn::MulSub(y, a, a_hi);
  const auto p_hi = Rounded(hn::Mul(y, r));
  const auto p_lo = hn::MulSub(y, r, p_hi);
  const auto c1 = hn::Set(df, tab::kC1Hi);
  const auto b_hi = Rounded(hn::Mul(c1, p_hi));
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

// Lanes outside the DEFAULT fast path: |s| > 125 or NaN (compared as
// integer bits, so NaN counts as large) or x not positive normal (see
// IsPositiveNormal). Both as greater-than compares against a constant, which
// x86 encodes with the constant as a memory operand.
template <class DF>
HWY_INLINE hn::Mask<DF> DefaultOutOfRange(DF df, hn::Vec<DF> s) {
  const hn::RebindToSigned<DF> di;
  const auto as = hn::And(hn::BitCast(di, s), hn::Set(di, 0x7FFFFFFF));
  return hn::RebindMask(df, hn::Gt(as, hn::Set(di, 0x42FA0000)));  // 125.0f
}
template <class DF>
HWY_INLINE hn::Mask<DF> NotPositiveNormal(DF df, hn::Vec<DF> x) {
  const hn::RebindToUnsigned<DF> du;
  const hn::RebindToSigned<DF> di;
  // Hidden from GCC, which otherwise rewrites the compare as >= -2^24, a
  // min and an equality test (one instruction more).
  const auto limit = Rounded(hn::Set(di, -0x1000001));
  return hn::RebindMask(df, hn::Gt(hn::BitCast(di, hn::Add(hn::BitCast(du, x), hn::Set(du, 0x7F800000u))),
                                   limit));
}

// A vector with some lane outside the DEFAULT fast path.
template <class DF>
HWY_NOINLINE hn::Vec<DF> PowDefaultSlow(DF df, hn::Vec<DF> x, hn::Vec<DF> y) {
  const hn::RebindToUnsigned<DF> du;
  hn::Vec<DF> s;
  const auto mag = PowDefaultCore(df, hn::And(hn::BitCast(du, x), hn::Set(du, 0x7FFFFFFFu)), y, &s);
  return PowFinishSlow(df, x, y, mag, hn::Not(DefaultOutOfRange(df, s)));
}

template <class DF>
HWY_INLINE hn::Vec<DF> PowF32Default(DF df, hn::Vec<DF> x, hn::Vec<DF> y) {
  const hn::RebindToUnsigned<DF> du;
  hn::Vec<DF> s;
  const auto mag = PowDefaultCore(df, hn::BitCast(du, x), y, &s);
  // |s| <= 125 also rules out y infinite or NaN (s is then NaN or infinite).
  if (HWY_LIKELY(hn::AllFalse(df, hn::Or(DefaultOutOfRange(df, s), NotPositiveNormal(df, x))))) {
    return mag;
  }
  return PowDefaultSlow(df, x, y);
}

#if HWY_ARCH_X86 && (HWY_TARGET == HWY_AVX2 || HWY_TARGET <= HWY_AVX3)

// table[i] for double lanes; AVX2: idx holds the dword pair (2i, 2i + 1) in
// each 64-bit lane (bits above the low three ignored), AVX-512: i in the low
// three bits of each 64-bit lane (tables repeat after four entries).
template <class DD>
HWY_INLINE hn::Vec<DD> LookupPairs(DD dd, const void* table, hn::Vec<hn::RebindToUnsigned<DD>> idx) {
  (void)dd;
#if HWY_TARGET <= HWY_AVX3
  return hn::Vec<DD>{_mm512_permutexvar_pd(idx.raw, _mm512_loadu_pd(table))};
#else
  return hn::Vec<DD>{_mm256_castps_pd(
      _mm256_permutevar8x32_ps(_mm256_loadu_ps(static_cast<const float*>(table)), idx.raw))};
#endif
}

// HIGH_PRECISION, for x > 0 normal and y finite: the double-lane algorithm
// of PowMagnitude<true> (same buckets, polynomials and clamp, so the same
// results), with k, z and the bucket taken from the f32 bits once per f32
// vector and the table indices built without masking.
// kLowHalf: only the lower half of the lanes is wanted (a row tail of at
// most half a vector, whose other lanes hold x = y = 1); the upper half of
// the result repeats the lower one, and the second double vector is skipped.
template <bool kLowHalf = false, class DF>
HWY_INLINE hn::Vec<DF> PowF32High(DF df, hn::Vec<DF> x, hn::Vec<DF> y) {
  namespace tab = pow_tables;
  const hn::RebindToUnsigned<DF> du;
  const hn::RebindToSigned<DF> di;
  const hn::Half<DF> dh;
  const hn::Rebind<double, decltype(dh)> dd;
  const hn::RebindToUnsigned<decltype(dd)> du64;
  const hn::Rebind<int32_t, decltype(dh)> dhi;
  const hn::Rebind<uint32_t, decltype(dh)> dhu;

  const auto axb = hn::And(hn::BitCast(du, x), hn::Set(du, 0x7FFFFFFFu));
  const auto tmp = hn::Sub(axb, hn::Set(du, tab::kLogOffHigh));
  const auto k = hn::ShiftRight<23>(hn::BitCast(di, tmp));
  const auto z = hn::BitCast(df, hn::Sub(axb, hn::And(tmp, hn::Set(du, 0xFF800000u))));
#if HWY_TARGET <= HWY_AVX3
  const auto bucket = hn::ShiftRight<21>(tmp);  // low 3 bits; tables repeat
#else
  const auto bucket2 = hn::And(hn::ShiftRight<20>(tmp), hn::Set(du, 6u));  // 2 * bucket
#endif

  const auto half = [&](auto zh, auto kh, auto yh, auto bh) HWY_ATTR {
    const auto zd = hn::PromoteTo(dd, zh);
    const auto kd = hn::PromoteTo(dd, kh);
    const auto yd = hn::PromoteTo(dd, yh);
    const auto invc = LookupPairs(dd, tab::kInvC, bh);
    const auto logc = LookupPairs(dd, tab::kLogC, bh);
    const auto r = hn::MulAdd(zd, invc, hn::Set(dd, -1.0));  // exact
    const auto log2x = hn::MulAdd(
        r, kLowHalf ? PolynomialEstrin(dd, r, tab::kLog2High) : Polynomial(dd, r, tab::kLog2High),
        hn::Add(kd, logc));
    auto t = hn::Mul(yd, log2x);
#if HWY_TARGET <= HWY_AVX3
    // The same clamp in one instruction: |t| <= 200 keeps t, else 200 with
    // t's sign (VRANGEPD, absolute minimum, sign of the first operand).
    t = hn::Vec<decltype(dd)>{_mm512_range_pd(t.raw, _mm512_set1_pd(200.0), 2)};
#else
    t = hn::Min(hn::Max(t, hn::Set(dd, -200.0)), hn::Set(dd, 200.0));
#endif
    const auto shift = hn::Set(dd, 0x1.8p52 / 4);
    const auto t_shifted = hn::Add(t, shift);
    const auto ki = hn::BitCast(du64, t_shifted);
    const auto rt = hn::Sub(t, hn::Sub(t_shifted, shift));
#if HWY_TARGET <= HWY_AVX3
    const auto eidx = ki;
#else
    const auto eidx = hn::Vec<decltype(du64)>{_mm256_add_epi32(
        _mm256_castps_si256(_mm256_moveldup_ps(_mm256_castsi256_ps(_mm256_slli_epi32(ki.raw, 1)))),
        _mm256_setr_epi32(0, 1, 0, 1, 0, 1, 0, 1))};
#endif
    const auto entry = hn::BitCast(du64, LookupPairs(dd, tab::kExp2Bits, eidx));
    const auto scale = hn::BitCast(dd, hn::Add(entry, hn::ShiftLeft<50>(ki)));
    const auto q =
        kLowHalf ? PolynomialEstrin(dd, rt, tab::kExp2High) : Polynomial(dd, rt, tab::kExp2High);
    return hn::DemoteTo(dh, hn::Mul(scale, q));
  };
#if HWY_TARGET <= HWY_AVX3
  const auto b_lo = hn::PromoteTo(du64, hn::LowerHalf(dhu, bucket));
  const auto b_hi = hn::PromoteTo(du64, hn::UpperHalf(dhu, bucket));
#else
  const auto ones = _mm256_setr_epi32(0, 1, 0, 1, 0, 1, 0, 1);
  const auto b_lo = hn::Vec<decltype(du64)>{_mm256_add_epi32(
      _mm256_permutevar8x32_epi32(bucket2.raw, _mm256_setr_epi32(0, 0, 1, 1, 2, 2, 3, 3)), ones)};
  const auto b_hi = hn::Vec<decltype(du64)>{_mm256_add_epi32(
      _mm256_permutevar8x32_epi32(bucket2.raw, _mm256_setr_epi32(4, 4, 5, 5, 6, 6, 7, 7)), ones)};
#endif
  const auto mag_lo = half(hn::LowerHalf(dh, z), hn::LowerHalf(dhi, k), hn::LowerHalf(dh, y), b_lo);
  hn::Vec<DF> mag;
  if constexpr (kLowHalf) {
    (void)b_hi;
    mag = hn::ZeroExtendVector(df, mag_lo);  // upper lanes unused
  } else {
    mag = hn::Combine(df, half(hn::UpperHalf(dh, z), hn::UpperHalf(dhi, k), hn::UpperHalf(dh, y), b_hi),
                      mag_lo);
  }

  const auto ayb = hn::And(hn::BitCast(du, y), hn::Set(du, 0x7FFFFFFFu));
  const auto y_finite = hn::RebindMask(df, hn::Lt(hn::BitCast(di, ayb), hn::Set(di, 0x7F800000)));
  if (HWY_LIKELY(hn::AllTrue(df, hn::And(y_finite, IsPositiveNormal(df, x))))) return mag;
  return PowFinishSlow(df, x, y, mag, y_finite);
}

#else  // narrower vectors: the general path.

template <bool kLowHalf = false, class DF>
HWY_INLINE hn::Vec<DF> PowF32High(DF df, hn::Vec<DF> x, hn::Vec<DF> y) {
  return PowGeneral<true>(df, x, y);
}

#endif

// f32 HIGH_PRECISION needs the double-lane path; FLOAT16/BFLOAT16 results
// are within 1 of their ulp from the DEFAULT f32 result (a few f32 ulp).
// Targets without FMA (SSE4, SSSE3) cannot split products exactly in f32
// and run DEFAULT through the double-lane path with the shorter polynomials.
template <bool kHigh, typename T, bool kLowHalf = false, class DF>
HWY_INLINE hn::Vec<DF> PowF32(DF df, hn::Vec<DF> x, hn::Vec<DF> y) {
  if (kHigh && hwy::IsSame<T, float>()) return PowF32High<kLowHalf>(df, x, y);
#if HWY_NATIVE_FMA
  return PowF32Default(df, x, y);
#else
  return PowGeneral<false>(df, x, y);
#endif
}

#else  // HWY_TARGET == HWY_SCALAR

// The one-lane fallback: the C library's pow in double, rounded once.
template <bool kHigh, typename T, bool kLowHalf = false, class DF>
HWY_INLINE hn::Vec<DF> PowF32(DF df, hn::Vec<DF> x, hn::Vec<DF> y) {
  return hn::Set(df, static_cast<float>(pow(static_cast<double>(hn::GetLane(x)),
                                            static_cast<double>(hn::GetLane(y)))));
}

#endif  // HWY_TARGET != HWY_SCALAR

#undef PTO_POW_MASKED_TAIL
#if HWY_ARCH_X86 && (HWY_TARGET == HWY_AVX2 || HWY_TARGET <= HWY_AVX3)
#define PTO_POW_MASKED_TAIL 1

// Row tails by masked loads and stores, which neither touch memory outside
// the region nor write it back (AVX2 vmaskmovps, AVX-512 masked moves); the
// unused lanes get x = y = 1, which stays on the fast paths. A tail through
// stack buffers filled element by element costs more than the vector itself
// (a store-forwarding stall on the reload, the fill loop and a memcpy call).
// AVX2 has no 16-bit masked moves: FLOAT16/BFLOAT16 keep the buffered tail.
template <typename T>
constexpr bool HasMaskedTail() {
  return hwy::IsSame<T, float>() || HWY_TARGET <= HWY_AVX3;
}

template <class DF, typename T>
HWY_INLINE hn::Vec<DF> LoadTail(DF df, const T* p, size_t rest) {
  const auto one = hn::Set(df, 1.0f);
  if constexpr (hwy::IsSame<T, float>()) {
    const auto m = hn::FirstN(df, rest);
#if HWY_TARGET <= HWY_AVX3
    return hn::Vec<DF>{_mm512_mask_loadu_ps(one.raw, m.raw, p)};
#else
    return hn::IfThenElse(m, hn::MaskedLoad(m, df, p), one);
#endif
  } else {
    // 1.0 in the narrow type: 0x3C00 (FLOAT16) or 0x3F80 (BFLOAT16).
    const hn::Rebind<uint16_t, DF> du16;
    const uint16_t one_bits = hwy::IsSame<T, hwy::float16_t>() ? 0x3C00 : 0x3F80;
    const auto m = hn::FirstN(du16, rest);
    const auto bits = hn::IfThenElse(
        m, hn::MaskedLoad(m, du16, reinterpret_cast<const uint16_t*>(p)), hn::Set(du16, one_bits));
    if constexpr (hwy::IsSame<T, hwy::float16_t>()) {
      return hn::PromoteTo(df, hn::BitCast(hn::Rebind<hwy::float16_t, DF>(), bits));
    } else {
      const hn::RebindToUnsigned<DF> du;
      return F32FromBF16Bits(df, hn::PromoteTo(du, bits));
    }
  }
}

template <class DF, typename T>
HWY_INLINE void StoreTail(DF df, hn::Vec<DF> v, T* p, size_t rest) {
  if constexpr (hwy::IsSame<T, float>()) {
    hn::BlendedStore(v, hn::FirstN(df, rest), df, p);
  } else {
    const hn::Rebind<uint16_t, DF> du16;
    hn::Vec<decltype(du16)> bits;
    if constexpr (hwy::IsSame<T, hwy::float16_t>()) {
      bits = hn::BitCast(du16, hn::DemoteTo(hn::Rebind<hwy::float16_t, DF>(), v));
    } else {
      bits = hn::TruncateTo(du16, BF16BitsFromF32(df, v));
    }
    hn::BlendedStore(bits, hn::FirstN(du16, rest), du16, reinterpret_cast<uint16_t*>(p));
  }
}

#else
#define PTO_POW_MASKED_TAIL 0
template <typename T>
constexpr bool HasMaskedTail() {
  return false;
}
#endif

// The planes travel as separate pointer and stride arguments (see Pow below).
template <typename T, bool kHigh>
void PowFloat(size_t rows, size_t cols, void* dst, size_t dst_stride, const void* base,
              size_t base_stride, const void* exp, size_t exp_stride) {
  const ComputeTag<T> d;
  const auto body = [](auto dv, const T* pb, const T* pe, T* out) __attribute__((always_inline)) {
    StoreAs(dv, PowF32<kHigh, T>(dv, LoadAs(dv, pb), LoadAs(dv, pe)), out);
  };
  T* out = static_cast<T*>(dst);
  const T* pb = static_cast<const T*>(base);
  const T* pe = static_cast<const T*>(exp);
#if PTO_POW_MASKED_TAIL
  if constexpr (HasMaskedTail<T>()) {
    ForEachRow(d, rows, cols, out, dst_stride, pb, base_stride, pe, exp_stride, body,
               [d](size_t rest, T* o, const T* b, const T* e) __attribute__((always_inline)) {
                 const auto x = LoadTail(d, b, rest);
                 const auto y = LoadTail(d, e, rest);
                 // HIGH_PRECISION float32 computes in two double vectors;
                 // a short tail (a 1x1 tile) needs only the first.
                 if (kHigh && hwy::IsSame<T, float>() && rest <= hn::Lanes(d) / 2) {
                   StoreTail(d, PowF32<kHigh, T, true>(d, x, y), o, rest);
                 } else {
                   StoreTail(d, PowF32<kHigh, T>(d, x, y), o, rest);
                 }
               });
    return;
  }
#endif
  ForEachBinary(d, rows, cols, out, dst_stride, pb, base_stride, pe, exp_stride, body);
}

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
    PowFloat<T, true>(rows, cols, dst, ds, base, bs, exp, es);
  } else {
    PowFloat<T, false>(rows, cols, dst, ds, base, bs, exp, es);
  }
}

void PowImpl(pto_dtype dtype, pto_pow_algorithm algo, size_t rows, size_t cols, void* dst,
             size_t ds, const void* base, size_t bs, const void* exp, size_t es) {
  switch (dtype) {
    case PTO_INT8: return PowInt<int8_t>(rows, cols, dst, ds, base, bs, exp, es);
    case PTO_UINT8: return PowInt<uint8_t>(rows, cols, dst, ds, base, bs, exp, es);
    case PTO_INT16: return PowInt<int16_t>(rows, cols, dst, ds, base, bs, exp, es);
    case PTO_UINT16: return PowInt<uint16_t>(rows, cols, dst, ds, base, bs, exp, es);
    case PTO_INT32: return PowInt<int32_t>(rows, cols, dst, ds, base, bs, exp, es);
    case PTO_UINT32: return PowInt<uint32_t>(rows, cols, dst, ds, base, bs, exp, es);
    case PTO_FLOAT16: return PowFloatAlgo<hwy::float16_t>(algo, rows, cols, dst, ds, base, bs, exp, es);
    case PTO_BFLOAT16: return PowFloatAlgo<hwy::bfloat16_t>(algo, rows, cols, dst, ds, base, bs, exp, es);
    case PTO_FLOAT32: return PowFloatAlgo<float>(algo, rows, cols, dst, ds, base, bs, exp, es);
  }
}

}  // namespace HWY_NAMESPACE
}  // namespace pto
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace pto {
HWY_EXPORT(PowImpl);
namespace kernels {
void Pow(pto_dtype dtype, pto_pow_algorithm algo, size_t rows, size_t cols, const Plane& dst,
         const ConstPlane& base, const ConstPlane& exp) {
  HWY_DYNAMIC_DISPATCH(PowImpl)(dtype, algo, rows, cols, dst.data, dst.stride, base.data,
                                base.stride, exp.data, exp.stride);
}
}  // namespace kernels
}  // namespace pto
#endif
