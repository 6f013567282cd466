// TFMOD's functor (TFmodOp, TFMODS's too: binary.cc), a Binary row's of
// operations.def: C's fmod by vector on every dtype, floats bit for bit
// fmodf's.
//
// Re-included once per target by foreach_target.h, hence the toggle guard.
#if defined(PTO_KERNELS_FMOD_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef PTO_KERNELS_FMOD_INL_H_
#undef PTO_KERNELS_FMOD_INL_H_
#else
#define PTO_KERNELS_FMOD_INL_H_
#endif

#include <cmath>

#include "hwy/highway.h"
#include "src/kernels/binary-ops-inl.h"
#include "src/kernels/portable-inl.h"
#include "src/kernels/simd-inl.h"

HWY_BEFORE_NAMESPACE();
namespace pto {
namespace HWY_NAMESPACE {

// C's fmod: x - trunc(x / y) * y, zero or of x's sign. Floats: exact (the
// result is a value of x's format: in float32 lanes for float16 too, so
// rounding it back is exact); y = 0, an infinite x or a NaN give NaN, an
// infinite y gives x. Integers: the remainder of the truncated quotient,
// x fmod 0 = x (TDIV's x / 0 is -1: x - (-1) * 0) and the most negative
// value fmod -1 = 0.
//
// Both take the quotient from a reciprocal, not a division (a 512-bit
// division takes 8 to 16 cycles of one port; floats divide only in the
// rare vectors that FmodOfFloats takes): the reciprocal is biased so that
// the truncated quotient errs to one side only, by at most one, and one
// compare and add (or subtract) of the divisor corrects it.

// (1 + b)/y for a positive normal y (or b = -2^-20: below, kAbove false),
// b = 2^-18 within 1.5 * 2^-22: from the estimate (1 + e)/y, |e| <= 2^-11,
// one Newton step y0 + y0 (1 + b - y y0) = (1 + b + e b - e^2)/y, each of
// its two operations rounding by at most 2^-24 (relative to 1 / y) with or
// without a fused multiply-add. y0 is infinite or NaN where y is 0,
// infinite or NaN, and the result NaN.
template <bool kAbove, class D>
HWY_INLINE hn::Vec<D> BiasedReciprocal(D d, hn::Vec<D> y) {
  const hn::Vec<D> y0 = ReciprocalTo11Bits(d, y);
  const float one_plus_b = kAbove ? 1.0f + 0x1p-18f : 1.0f - 0x1p-20f;
  return hn::MulAdd(y0, hn::NegMulAdd(y, y0, hn::Set(d, one_plus_b)), y0);
}

// uint32 lanes as float32, correctly rounded: the high 16 bits times 2^16
// (exact) plus the low ones, one rounding (Highway 1.0.3 converts only
// signed lanes on every target).
template <class DF, class VU>
HWY_INLINE hn::Vec<DF> FloatOfUnsigned(DF df, VU v) {
  const hn::RebindToSigned<DF> di;
  const hn::Vec<DF> high = hn::ConvertTo(df, hn::BitCast(di, hn::ShiftRight<16>(v)));
  const hn::Vec<DF> low = hn::ConvertTo(df, hn::BitCast(di, hn::And(v, hn::Set(hn::DFromV<VU>(), 0xFFFFu))));
  return hn::MulAdd(high, hn::Set(df, 65536.0f), low);
}

// |x| fmod |y| for int32 lanes taken as unsigned magnitudes ux, uy (uy 0
// gives ux) from their float32 values xf, yf (each rounded by at most 2^-24,
// yf >= 1), ux / uy < 2^31 where uy > 0. The quotient's estimate t =
// xf (1 - b)/yf (BiasedReciprocal below: b = 2^-20 within 1.5 2^-22) is
// within (1 - 2^-19, 1) times the true one ux / uy (the roundings of xf, yf
// and the product add 3 2^-24 at most), so q = trunc(t) is floor(ux / uy)
// or less, r = ux - q uy >= 0 (exact in wrapping int32 arithmetic) and
// r < ux 2^-19 + uy: below 2 uy when t < 2^18, else after a second such
// step on r (r 2^-19 + uy < uy (1 + 2^-19) + 2^-6 then), so one
// subtraction of uy finishes. kLargeQuotients false: no lane's ux / uy
// reaches 2^18. kUnsigned: r may exceed 2^31 (uint32 magnitudes),
// converted through its 16-bit halves. A lane of uy 0 gives ux whatever q
// it gets (q uy = 0); one of uy 1 (kUnsigned) may get a quotient out of the
// conversions' range, a defined value that the caller replaces.
template <bool kLargeQuotients, bool kUnsigned, class DU, class DF>
HWY_INLINE hn::Vec<DU> MagnitudeRemainder(DU du, DF df, hn::Vec<DU> ux, hn::Vec<DU> uy, hn::Vec<DF> xf,
                                          hn::Vec<DF> yf) {
  const hn::RebindToSigned<DU> di;
  const hn::Vec<DF> inv = BiasedReciprocal<false>(df, yf);
  const hn::Vec<DF> t = hn::Mul(xf, inv);
  hn::Vec<DU> r = hn::Sub(ux, hn::Mul(hn::BitCast(du, TruncateInRange(di, t)), uy));
  if constexpr (kLargeQuotients) {
    if (HWY_UNLIKELY(!hn::AllTrue(df, hn::Lt(t, hn::Set(df, 0x1p18f))))) {
      const hn::Vec<DF> rf = kUnsigned ? FloatOfUnsigned(df, r) : hn::ConvertTo(df, hn::BitCast(di, r));
      // Saturating: a lane of uy 0 (or 1, kUnsigned) may overflow here.
      r = hn::Sub(r, hn::Mul(hn::BitCast(du, hn::ConvertTo(di, hn::Mul(rf, inv))), uy));
    }
  }
  // r - uy wraps above r where r < uy: the smaller is the remainder.
  return hn::Min(r, hn::Sub(r, uy));
}

// The truncated remainder of int32 lanes (x's magnitude, then its sign; the
// most negative value's magnitude 2^31 comes back as itself), and of 16-bit
// lanes widened to them (kLargeQuotients false).
template <bool kLargeQuotients, class DI>
HWY_INLINE hn::Vec<DI> Int32Remainder(DI di, hn::Vec<DI> x, hn::Vec<DI> y) {
  const hn::RebindToUnsigned<DI> du;
  const hn::Rebind<float, DI> df;
  const hn::Vec<decltype(du)> ux = hn::BitCast(du, hn::Abs(x)), uy = hn::BitCast(du, hn::Abs(y));
  const hn::Vec<decltype(df)> yf = hn::Max(FloatOfMagnitude(df, uy), hn::Set(df, 1.0f));
  const hn::Vec<DI> r = hn::BitCast(
      di, MagnitudeRemainder<kLargeQuotients, false>(du, df, ux, uy, FloatOfMagnitude(df, ux), yf));
  return hn::IfThenElse(hn::Lt(x, hn::Zero(di)), hn::Neg(r), r);
}

// uint32 lanes: y = 1 gives 0 (its quotient may not fit the conversions;
// the lane computes garbage and is replaced), y = 0 x.
template <class DU>
HWY_INLINE hn::Vec<DU> Uint32Remainder(DU du, hn::Vec<DU> x, hn::Vec<DU> y) {
  const hn::Rebind<float, DU> df;
  const hn::Vec<decltype(df)> yf = hn::Max(FloatOfUnsigned(df, y), hn::Set(df, 1.0f));
  const hn::Vec<DU> r = MagnitudeRemainder<true, true>(du, df, x, y, FloatOfUnsigned(df, x), yf);
  return hn::IfThenZeroElse(hn::Eq(y, hn::Set(du, 1u)), r);
}

// f(dn, xn, yn) over the whole vector where it has one lane, else over each
// half (f widens its lanes, so a half's widened lanes fit a vector).
template <class D, class F>
HWY_INLINE hn::Vec<D> ByHalves(D d, hn::Vec<D> x, hn::Vec<D> y, const F& f) {
#if HWY_TARGET == HWY_SCALAR
  return f(d, x, y);
#else
  if constexpr (hn::MaxLanes(D()) == 1) {
    return f(d, x, y);
  } else {
    const hn::Half<D> dh;
    return hn::Combine(d, f(dh, hn::UpperHalf(dh, x), hn::UpperHalf(dh, y)),
                       f(dh, hn::LowerHalf(dh, x), hn::LowerHalf(dh, y)));
  }
#endif
}

// int16 and uint16 lanes, widened to int32 (their magnitudes and quotients
// below 2^16), half a vector at a time.
template <class D>
HWY_INLINE hn::Vec<D> Int16Remainder(D d, hn::Vec<D> x, hn::Vec<D> y) {
  return ByHalves(d, x, y, [](auto dn, auto xn, auto yn) {
    const hn::Rebind<int32_t, decltype(dn)> dw;
    return hn::DemoteTo(dn, Int32Remainder<false>(dw, hn::PromoteTo(dw, xn), hn::PromoteTo(dw, yn)));
  });
}

#if HWY_HAVE_FLOAT64
// |x| fmod |y| for float32 values in double lanes (ax >= 0, ay > 0 finite),
// exact: r = ax, then r -= q Y until r < ay, Y = ay 2^k and q the truncated
// quotient r / Y, k chosen so that q <= 2^kBits. Each step is exact: q Y has
// at most kBits + 24 significant bits, 53 with a separate multiply (kBits
// 29; the fused one needs no bound: kBits 52), and the true r - q Y, a
// multiple of the smaller quantum of r and Y and below Y <= r in magnitude,
// is a double. q is floor(r / Y) or one more (the rounded quotient is
// monotone and below floor + 3/2), so r - q Y lies in (-Y, Y) and adding Y
// back where it is negative gives r's remainder mod Y, a remainder mod ay.
// A step takes kBits - 1 bits off the quotient: one step where r / ay <
// 2^kBits, at most 10 (kBits 29) or 6 (52) over float32's 277 binades.
// Lanes where r < ay get q = 0 and keep r.
template <class DD>
HWY_INLINE hn::Vec<DD> FmodMagnitude(DD dd, hn::Vec<DD> ax, hn::Vec<DD> ay) {
  const hn::RebindToUnsigned<DD> du;
#if HWY_NATIVE_FMA
  const double quotient_limit = 0x1p52, scale_down = 0x1p-51;  // kBits 52
#else
  const double quotient_limit = 0x1p29, scale_down = 0x1p-28;  // kBits 29
#endif
  hn::Vec<DD> r = ax;
  do {
    const hn::Vec<DD> t = hn::Div(r, ay);
    // p = 2^(e - kBits + 1) for t's exponent e where t >= 2^kBits (then
    // t / p < 2^kBits), else 1; 1 / p from p's exponent field. Y = ay p and
    // r / Y rounded is t / p, exactly.
    const auto scaled = hn::BitCast(du, hn::Mul(t, hn::Set(dd, scale_down)));
    const hn::Vec<DD> p =
        hn::IfThenElse(hn::Ge(t, hn::Set(dd, quotient_limit)),
                       hn::BitCast(dd, hn::And(scaled, hn::Set(du, uint64_t{0x7FF0000000000000}))),
                       hn::Set(dd, 1.0));
    const hn::Vec<DD> inv_p =
        hn::BitCast(dd, hn::Sub(hn::Set(du, uint64_t{0x7FE0000000000000}), hn::BitCast(du, p)));
    const hn::Vec<DD> big_y = hn::Mul(ay, p);
    const hn::Vec<DD> q = hn::Trunc(hn::Mul(t, inv_p));
#if HWY_NATIVE_FMA
    const hn::Vec<DD> rest = hn::NegMulAdd(q, big_y, r);
#else
    const hn::Vec<DD> rest = hn::Sub(r, hn::Mul(q, big_y));
#endif
    r = hn::IfThenElse(hn::Lt(rest, hn::Zero(dd)), hn::Add(rest, big_y), rest);
  } while (!hn::AllFalse(dd, hn::Ge(r, ay)));
  return r;
}

// The lanes whose fmod is NaN: y = 0, an infinite x or a NaN.
template <class D>
HWY_INLINE hn::Mask<D> FmodIsNaN(D d, hn::Vec<D> x, hn::Vec<D> y) {
  return hn::Or(hn::Or(hn::IsNaN(x), hn::IsNaN(y)), hn::Or(hn::IsInf(x), hn::Eq(y, hn::Zero(d))));
}

// FmodMagnitude of float32 lanes (dh: lanes that fit as doubles).
template <class DH>
HWY_INLINE hn::Vec<DH> FmodInDoubles(DH dh, hn::Vec<DH> ax, hn::Vec<DH> ay) {
  const hn::Rebind<double, DH> dd;
  return hn::DemoteTo(dh, FmodMagnitude(dd, hn::PromoteTo(dd, ax), hn::PromoteTo(dd, ay)));
}

// |x| fmod |y| of float32 lanes, both halves in double lanes.
template <class D>
HWY_INLINE hn::Vec<D> FmodMagnitudeF32(D d, hn::Vec<D> ax, hn::Vec<D> ay) {
  return ByHalves(d, ax, ay, [](auto dn, auto an, auto bn) { return FmodInDoubles(dn, an, bn); });
}
#endif

// Bit for bit C's fmodf on any operands: the remainder is a float32 value,
// so demoting it from double is exact; a zero has x's sign. NaN lanes as libm computes
// them, (x y) / (x y): x's NaN quieted, else y's, else the target's
// default NaN. With a fused multiply-add, where every quotient |x / y|
// rounded to float32 is below 2^24, one step in float32 lanes: q, its
// truncation, is floor(|x / y|) or one more (the rounding is monotone and
// the integers up to 2^24 are float32 values), and |x| - q |y| exact
// (fused, and the true value, a multiple of the smaller quantum of x and y
// below |y| <= |x| in magnitude, is a float32 value), then |y| added back
// where it is negative. The lanes whose result is NaN or x (an infinite
// y) compute 0 fmod 1 and are replaced. Without double lanes, fmodf per
// lane.
template <class D>
HWY_NOINLINE hn::Vec<D> FmodOfFloats(D d, hn::Vec<D> x, hn::Vec<D> y) {
#if HWY_HAVE_FLOAT64
  const hn::Mask<D> nan = FmodIsNaN(d, x, y);
  const hn::Mask<D> special = hn::Or(nan, hn::IsInf(y));
  const hn::Vec<D> ax = hn::IfThenZeroElse(special, hn::Abs(x));
  const hn::Vec<D> ay = hn::IfThenElse(special, hn::Set(d, 1.0f), hn::Abs(y));
  hn::Vec<D> r;
#if HWY_NATIVE_FMA
  const hn::Vec<D> t = hn::Div(ax, ay);
  if (HWY_LIKELY(hn::AllTrue(d, hn::Lt(t, hn::Set(d, 0x1p24f))))) {
    const hn::Vec<D> rest = hn::NegMulAdd(hn::Trunc(t), ay, ax);
    r = hn::IfThenElse(hn::Lt(rest, hn::Zero(d)), hn::Add(rest, ay), rest);
  } else {
    r = FmodMagnitudeF32(d, ax, ay);
  }
#else
  r = FmodMagnitudeF32(d, ax, ay);
#endif
  // CopySign, not CopySignToAbs: a zero remainder may come out of a
  // negated multiply-add as -0 (the sign of an exact zero sum is the
  // rounding's choice where an emulator negates the result); x's sign is
  // the answer either way.
  r = hn::CopySign(r, x);
  if (HWY_UNLIKELY(!hn::AllFalse(d, special))) {
    // x + x and y + y quiet a NaN alone; (x y) / (x y) of two non-NaNs is
    // the default NaN. Of two NaNs, the one x y gives, chosen here (the
    // compiler may swap x y's operands): x86 takes x's; Arm a signalling
    // one first (x's, then y's), then x's.
    hn::Mask<D> x_nan = hn::IsNaN(x);
#if HWY_ARCH_ARM
    const hn::RebindToUnsigned<D> du;
    const auto quiet_bit = hn::Set(du, 0x00400000u);
    const auto x_quiet = hn::RebindMask(d, hn::TestBit(hn::BitCast(du, x), quiet_bit));
    const auto y_quiet = hn::RebindMask(d, hn::TestBit(hn::BitCast(du, y), quiet_bit));
    const hn::Mask<D> y_signalling = hn::AndNot(y_quiet, hn::IsNaN(y));
    x_nan = hn::AndNot(hn::AndNot(hn::AndNot(x_quiet, x_nan), y_signalling), x_nan);
#endif
    const hn::Vec<D> product = hn::Mul(x, y);
    const hn::Vec<D> nan_value = hn::IfThenElse(
        x_nan, hn::Add(x, x), hn::IfThenElse(hn::IsNaN(y), hn::Add(y, y), hn::Div(product, product)));
    r = hn::IfThenElse(nan, nan_value, hn::IfThenElse(special, x, r));
  }
  return r;
#else
  return EachLane(d, x, y, [](auto a, auto b) { return std::fmod(a, b); });
#endif
}

struct TFmodOp : InLanes<ComputeTag> {
  // Floats, where every lane's |y| is below 2^125 and its quotient's
  // estimate t = |x| (1 + b)/|y| (BiasedReciprocal above: b in
  // (2^-18.3, 2^-17.8)) below 2^16, with a fused multiply-add: t rounded
  // exceeds |x / y| by less than 2^16 2^-17.7, so q = trunc(t) is
  // floor(|x / y|) or one more, |x| - q |y| (fused) is the exact value, a
  // multiple of the smaller quantum of x and y in [-|y|, |y|), and adding
  // |y| where it is negative gives the remainder, exactly; then x's sign.
  // |y| of 2^125 or more would make 1 / |y| lose bits; y = 0, an infinity
  // or a NaN make t NaN or infinite (so does a subnormal y whose estimate
  // is infinite); those vectors, and those of larger quotients, take
  // FmodOfFloats.
  template <class D, HWY_IF_FLOAT_D(D)>
  HWY_INLINE hn::Vec<D> operator()(D d, hn::Vec<D> x, hn::Vec<D> y) const {
#if HWY_HAVE_FLOAT64 && HWY_NATIVE_FMA
    const hn::Vec<D> ax = hn::Abs(x), ay = hn::Abs(y);
    const hn::Vec<D> t = hn::Mul(ax, BiasedReciprocal<true>(d, ay));
    if (HWY_LIKELY(hn::AllTrue(d, hn::And(hn::Lt(t, hn::Set(d, 0x1p16f)), hn::Lt(ay, hn::Set(d, 0x1p125f)))))) {
      const hn::Vec<D> rest = hn::NegMulAdd(hn::Trunc(t), ay, ax);
      return hn::CopySign(hn::IfThenElse(hn::Lt(rest, hn::Zero(d)), hn::Add(rest, ay), rest), x);
    }
#endif
    return FmodOfFloats(d, x, y);
  }
  // Integers: int32 and uint32 in their own lanes, 16-bit lanes widened.
  template <class D, HWY_IF_NOT_FLOAT_D(D)>
  HWY_INLINE hn::Vec<D> operator()(D d, hn::Vec<D> x, hn::Vec<D> y) const {
    using T = hn::TFromD<D>;
    if constexpr (hwy::IsSame<T, int32_t>()) {
      return Int32Remainder<true>(d, x, y);
    } else if constexpr (hwy::IsSame<T, uint32_t>()) {
      return Uint32Remainder(d, x, y);
    } else {
      static_assert(sizeof(T) == 2, "TFMOD's integer dtypes are 16- and 32-bit");
      return Int16Remainder(d, x, y);
    }
  }
};

}  // namespace HWY_NAMESPACE
}  // namespace pto
HWY_AFTER_NAMESPACE();

#endif  // PTO_KERNELS_FMOD_INL_H_
