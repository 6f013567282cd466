// Elementwise power, dst = base ^ exp, for every element type.
//
// Floating point (FLOAT32, and FLOAT16/BFLOAT16 through f32 lanes):
//   |x|^y = 2^(y * log2|x|), evaluated in double lanes after the design of
//   the glibc / ARM optimized-routines powf, with tables small enough to
//   live in one register (a lane permute instead of a gather):
//   - log2: |x| = 2^k * z with z in [0.674, 1.349); the top two mantissa
//     bits of z pick c from a 4-entry table holding invc ~ 1/c (an f32
//     value, so r = z * invc - 1 is exact in double) and log2(c); then
//     log2|x| = k + log2(c) + r * P(r) with |r| <= 0.1022. The bucket around
//     1 has c = 1 exactly, so x near 1 loses nothing to cancellation.
//   - exp2: t = y * log2|x| in double, clamped to +-200 so that 2^t stays a
//     normal double whose f64 -> f32 conversion rounds once to the right
//     f32, subnormal, zero or infinity. 2^t = 2^(k + i/4) * Q(r) with
//     round(4 t) = 4 k + i, |r| <= 1/8 and Q(0) = 1.
//   HIGH_PRECISION: P of degree 7 and Q of degree 5, so the double result is
//   within ~2^-29 of the exact value: the f32 result is within 0.52 ulp and
//   exact whenever the exact value is representable.
//   DEFAULT: P of degree 6 and Q of degree 4 (within ~0.8 ulp measured).
//   f32 subnormal inputs become normal doubles and need no handling.
//   The sign (negative base, odd integer exponent), NaN for a negative base
//   with a non-integer exponent and the Annex F special cases (zeros,
//   infinities, NaN, y = 0, x = 1) are applied in f32 lanes, the special
//   cases only in vectors that contain one.
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
// have 8 entries (4 used) so that one vector load holds them on every target.
constexpr uint64_t kLogOff = 0x3FE5933333333333ull;  // 0.674...
alignas(64) constexpr double kInvC[8] = {
    0x1.5b7c9cp+0, 0x1.2914a8p+0, 0x1p+0, 0x1.a27e34p-1, 0, 0, 0, 0,
};
alignas(64) constexpr double kLogC[8] = {
    -0x1.c364cad46f359p-2, -0x1.b7ba68d3676b5p-3, 0x0p+0, 0x1.29ec46b0525adp-2, 0, 0, 0, 0,
};

// exp2 reduction: the bits of 2^(i/4) minus i << 50, so that adding
// round(4 t) << 50 to entry (round(4 t) mod 4) also sets the exponent.
alignas(64) constexpr uint64_t kExp2Bits[8] = {
    0x3ff0000000000000, 0x3fef06fe0a31b715, 0x3feea09e667f3bcd, 0x3feee89f995ad3ad, 0, 0, 0, 0,
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

}  // namespace pow_tables
}  // namespace pto
#endif  // PTO_KERNELS_POW_TABLES_

HWY_BEFORE_NAMESPACE();
namespace pto {
namespace HWY_NAMESPACE {

// ---------------------------------------------------------------------------
// Floating point.

// Horner evaluation of c[0] + c[1] x + ... + c[n-1] x^(n-1).
template <size_t kN, class D>
HWY_INLINE hn::Vec<D> Polynomial(D d, hn::Vec<D> x, const double (&c)[kN]) {
  auto p = hn::Set(d, c[kN - 1]);
  for (size_t i = kN - 1; i > 0; --i) p = hn::MulAdd(p, x, hn::Set(d, c[i - 1]));
  return p;
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

// pow(x, y) on f32 lanes; the magnitude is computed in double halves.
template <bool kHigh, class DF>
HWY_INLINE hn::Vec<DF> PowF32(DF df, hn::Vec<DF> x, hn::Vec<DF> y) {
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

  // Integer and odd-integer exponents. Every f32 of magnitude >= 2^24 is an
  // even integer; smaller ones convert to int32 exactly.
  const auto y_big = hn::Ge(hn::BitCast(df, ayb), hn::Set(df, 16777216.0f));
  const auto y_small = hn::IfThenZeroElse(y_big, y);
  const auto y_int32 = hn::ConvertTo(di, y_small);
  const auto y_integer = hn::Or(y_big, hn::Eq(hn::ConvertTo(df, y_int32), y_small));
  const auto y_odd = hn::And(
      y_integer, hn::RebindMask(df, hn::Ne(hn::And(hn::BitCast(du, y_int32), hn::Set(du, 1u)),
                                           hn::Zero(du))));

  // Negative base: odd powers are negative, non-integer powers NaN.
  const auto x_sign = hn::And(xb, sign);
  auto result = hn::Or(mag, hn::BitCast(df, hn::IfThenElseZero(hn::RebindMask(du, y_odd), x_sign)));
  const auto x_neg = hn::RebindMask(df, hn::Ne(x_sign, hn::Zero(du)));
  result = hn::IfThenElse(hn::AndNot(y_integer, x_neg), hn::Set(df, NAN), result);

  // x zero, infinite or NaN; y infinite or NaN.
  const auto axb_i = hn::BitCast(di, axb);
  const auto x_special = hn::Or(hn::Eq(axb_i, hn::Zero(di)), hn::Gt(axb_i, hn::Set(di, 0x7F7FFFFF)));
  const auto y_special = hn::Gt(hn::BitCast(di, ayb), hn::Set(di, 0x7F7FFFFF));
  const auto special = hn::RebindMask(df, hn::Or(x_special, y_special));
  if (HWY_UNLIKELY(!hn::AllFalse(df, special))) {
    result = hn::IfThenElse(special, PowSpecial(df, x, y, y_odd), result);
  }
  return result;
}

#else  // HWY_TARGET == HWY_SCALAR

// The one-lane fallback: the C library's pow in double, rounded once.
template <bool kHigh, class DF>
HWY_INLINE hn::Vec<DF> PowF32(DF df, hn::Vec<DF> x, hn::Vec<DF> y) {
  return hn::Set(df, static_cast<float>(pow(static_cast<double>(hn::GetLane(x)),
                                            static_cast<double>(hn::GetLane(y)))));
}

#endif  // HWY_TARGET != HWY_SCALAR

template <typename T, bool kHigh>
void PowFloat(size_t rows, size_t cols, kernels::Plane dst, kernels::ConstPlane base,
              kernels::ConstPlane exp) {
  ForEachBinary(ComputeTag<T>(), rows, cols, static_cast<T*>(dst.data), dst.stride,
                static_cast<const T*>(base.data), base.stride,
                static_cast<const T*>(exp.data), exp.stride,
                [](auto d, const T* pb, const T* pe, T* out) {
                  StoreAs(d, PowF32<kHigh>(d, LoadAs(d, pb), LoadAs(d, pe)), out);
                });
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
void PowInt(size_t rows, size_t cols, kernels::Plane dst, kernels::ConstPlane base,
            kernels::ConstPlane exp) {
  ForEachBinary(ComputeTag<T>(), rows, cols, static_cast<T*>(dst.data), dst.stride,
                static_cast<const T*>(base.data), base.stride,
                static_cast<const T*>(exp.data), exp.stride,
                [](auto d, const T* pb, const T* pe, T* out) {
                  StoreAs(d, PowInteger(d, LoadAs(d, pb), LoadAs(d, pe)), out);
                });
}

template <typename T>
void PowFloatAlgo(pto_pow_algorithm algo, size_t rows, size_t cols, kernels::Plane dst,
                  kernels::ConstPlane base, kernels::ConstPlane exp) {
  if (algo == PTO_POW_HIGH_PRECISION) {
    PowFloat<T, true>(rows, cols, dst, base, exp);
  } else {
    PowFloat<T, false>(rows, cols, dst, base, exp);
  }
}

void PowImpl(pto_dtype dtype, pto_pow_algorithm algo, size_t rows, size_t cols,
             kernels::Plane dst, kernels::ConstPlane base, kernels::ConstPlane exp) {
  switch (dtype) {
    case PTO_INT8: return PowInt<int8_t>(rows, cols, dst, base, exp);
    case PTO_UINT8: return PowInt<uint8_t>(rows, cols, dst, base, exp);
    case PTO_INT16: return PowInt<int16_t>(rows, cols, dst, base, exp);
    case PTO_UINT16: return PowInt<uint16_t>(rows, cols, dst, base, exp);
    case PTO_INT32: return PowInt<int32_t>(rows, cols, dst, base, exp);
    case PTO_UINT32: return PowInt<uint32_t>(rows, cols, dst, base, exp);
    case PTO_FLOAT16: return PowFloatAlgo<hwy::float16_t>(algo, rows, cols, dst, base, exp);
    case PTO_BFLOAT16: return PowFloatAlgo<hwy::bfloat16_t>(algo, rows, cols, dst, base, exp);
    case PTO_FLOAT32: return PowFloatAlgo<float>(algo, rows, cols, dst, base, exp);
  }
}

}  // namespace HWY_NAMESPACE
}  // namespace pto
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace pto {
HWY_EXPORT(PowImpl);
namespace kernels {
void Pow(pto_dtype dtype, pto_pow_algorithm algo, size_t rows, size_t cols, Plane dst,
         ConstPlane base, ConstPlane exp) {
  HWY_DYNAMIC_DISPATCH(PowImpl)(dtype, algo, rows, cols, dst, base, exp);
}
}  // namespace kernels
}  // namespace pto
#endif
