// The sign and the special cases of pow on f32 lanes: the parity of the
// exponent, the sign of a negative base's result, and the C99 Annex F
// results where x is zero, infinite or NaN or y is infinite or NaN.
//
// Re-included once per target by foreach_target.h, hence the toggle guard.
#if defined(PTO_KERNELS_POW_SPECIAL_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef PTO_KERNELS_POW_SPECIAL_INL_H_
#undef PTO_KERNELS_POW_SPECIAL_INL_H_
#else
#define PTO_KERNELS_POW_SPECIAL_INL_H_
#endif

#include <math.h>
#include <stdint.h>

#include "hwy/highway.h"
#include "src/kernels/simd-inl.h"

HWY_BEFORE_NAMESPACE();
namespace pto {
namespace HWY_NAMESPACE {

// y is an integer: every f32 of magnitude >= 2^24 is an even integer;
// smaller ones convert to int32 exactly. *y_int32: y as int32 where it is a
// smaller integer (its parity decides the sign of a negative base).
template <class DF>
HWY_INLINE hn::Mask<DF> IsIntegerExponent(DF df, hn::Vec<DF> y,
                                          hn::Vec<hn::RebindToSigned<DF>>* y_int32) {
  const hn::RebindToSigned<DF> di;
  const auto y_big = hn::Ge(hn::Abs(y), hn::Set(df, 16777216.0f));
  const auto y_small = hn::IfThenZeroElse(y_big, y);
  *y_int32 = hn::ConvertTo(di, y_small);
  return hn::Or(y_big, hn::Eq(hn::ConvertTo(df, *y_int32), y_small));
}

// y is an odd integer, given IsIntegerExponent's results.
template <class DF>
HWY_INLINE hn::Mask<DF> IsOddExponent(DF df, hn::Mask<DF> integer,
                                      hn::Vec<hn::RebindToSigned<DF>> y_int32) {
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

}  // namespace HWY_NAMESPACE
}  // namespace pto
HWY_AFTER_NAMESPACE();

#endif  // PTO_KERNELS_POW_SPECIAL_INL_H_
