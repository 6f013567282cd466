// tcvt: every supported (src, dst) dtype pair, rounded once by the mode.
//
// One exact element converter (ConvertElement) decides every pair with
// integer arithmetic on the value as sign * mantissa * 2^exponent; it is the
// definition, and it converts the pairs without a vector path and the tail
// of each row. The vector paths, over Highway's `D d` in 32-bit lanes,
// compute the same bits for the pairs kernels use most: FLOAT32 <->
// FLOAT16/BFLOAT16, FLOAT32 -> FP8 (E4M3FN, E5M2), INT32 <-> FLOAT32, float
// -> integer, FLOAT32 -> FLOAT32, every low-precision type -> FLOAT32
// (tcvt-lowp-inl.h: a table of the element converter's answers), and the
// float types -> HiFloat8 and FP4 (tcvt-lowp-inl.h), every mode.
// Rounding to the narrower float is integer arithmetic on the bit pattern
// (the mode picks the increment), so no rounding-mode register takes part;
// only F16C's conversion, its rounding given by its immediate, computes
// FLOAT32 -> FLOAT16 and (rounded to odd first) FP8 under RINT on x86
// (tcvt-f16c-inl.h).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "src/kernels/tcvt.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "src/dtype_rules.h"
#include "src/kernels/kernels.h"
#include "src/low_precision.h"
#include "src/kernels/simd-inl.h"

#include "src/kernels/tcvt-element.h"

HWY_BEFORE_NAMESPACE();
namespace pto {
namespace HWY_NAMESPACE {

using kernels::ConvertSpec;
using kernels::IntOverflow;

// ---- narrower floats from f32 lanes ----------------------------------------

// The rounding increment (0 or 1) of kept = value >> shift, from the bits
// shifted out (`rest`, with `half` = 2^(shift-1)), for the mode; the sign
// bit `negative` (all ones or zero) decides the directed modes. ODD is
// handled by the caller.
template <class DU>
HWY_INLINE hn::Vec<DU> RoundIncrement(DU du, pto_round_mode mode, hn::Vec<DU> kept,
                                      hn::Vec<DU> rest, hn::Vec<DU> half, hn::Mask<DU> negative) {
  const auto one = hn::Set(du, 1u);
  const auto nonzero = hn::Not(hn::Eq(rest, hn::Zero(du)));
  switch (mode) {
    case PTO_ROUND_ROUND:
      return hn::IfThenElseZero(hn::Not(hn::Lt(rest, half)), one);
    case PTO_ROUND_FLOOR:
      return hn::IfThenElseZero(hn::And(negative, nonzero), one);
    case PTO_ROUND_CEIL:
      return hn::IfThenElseZero(hn::AndNot(negative, nonzero), one);
    case PTO_ROUND_TRUNC:
    case PTO_ROUND_ODD:
      return hn::Zero(du);
    default: {  // RINT
      const auto odd = hn::Eq(hn::And(kept, one), one);
      const auto up = hn::Or(hn::Gt(rest, half), hn::And(hn::Eq(rest, half), odd));
      return hn::IfThenElseZero(up, one);
    }
  }
}

// f32 bits (du lanes) -> FLOAT16 (kFrac 10) or BFLOAT16 (kFrac 7) bits in
// the low 16 of each lane, rounded by the mode, overflow as
// tcvt::EncodeFloat.
template <int kFrac, class DU>
HWY_INLINE hn::Vec<DU> NarrowFloatBits(DU du, hn::Vec<DU> bits, pto_round_mode mode,
                                       bool saturate) {
  constexpr bool kHalf = kFrac == 10;
  constexpr uint32_t kInf = kHalf ? 0x7C00u : 0x7F80u;
  constexpr uint32_t kQuiet = 1u << (kFrac - 1);
  const auto magnitude = hn::And(bits, hn::Set(du, 0x7FFFFFFFu));
  const auto sign = hn::And(hn::ShiftRight<16>(bits), hn::Set(du, 0x8000u));
  const auto negative = hn::Ne(sign, hn::Zero(du));
  const auto is_nan = hn::Gt(magnitude, hn::Set(du, 0x7F800000u));
  const auto is_inf = hn::Eq(magnitude, hn::Set(du, 0x7F800000u));
  // value = mantissa * 2^(e - 150) for e = max(biased exponent, 1).
  const auto biased = hn::ShiftRight<23>(magnitude);
  hn::Vec<DU> kept, rest, half;
  hn::Mask<DU> too_big;
  if constexpr (kHalf) {
    // FLOAT16 keeps exponent - 112 where that is >= 1; below, subnormals:
    // the full mantissa shifted right by 126 - e (at most 31 here: all of
    // it is then below half of FLOAT16's smallest subnormal).
    const auto fraction = hn::And(magnitude, hn::Set(du, 0x7FFFFFu));
    const auto is_normal_here = hn::Gt(biased, hn::Set(du, 112u));
    const auto mantissa =
        hn::IfThenElse(hn::Eq(biased, hn::Zero(du)), fraction,
                       hn::Or(fraction, hn::Set(du, 0x800000u)));
    const auto sub_shift = hn::Min(hn::Sub(hn::Set(du, 126u), hn::Min(biased, hn::Set(du, 112u))),
                                   hn::Set(du, 31u));
    const auto rebased = hn::Sub(magnitude, hn::Set(du, 112u << 23));
    const auto value = hn::IfThenElse(is_normal_here, rebased, mantissa);
    const auto shift = hn::IfThenElse(is_normal_here, hn::Set(du, 13u), sub_shift);
    kept = hn::Shr(value, shift);
    rest = hn::Sub(value, hn::Shl(kept, shift));
    half = hn::Shl(hn::Set(du, 1u), hn::Sub(shift, hn::Set(du, 1u)));
    too_big = hn::Gt(biased, hn::Set(du, 142u));  // >= 65536: beyond FLOAT16 at any rounding
  } else {
    kept = hn::ShiftRight<16>(magnitude);
    rest = hn::And(magnitude, hn::Set(du, 0xFFFFu));
    half = hn::Set(du, 0x8000u);
    too_big = hn::Lt(hn::Zero(du), hn::Zero(du));
  }
  auto result = mode == PTO_ROUND_ODD
                    ? hn::Or(kept, hn::IfThenElseZero(hn::Ne(rest, hn::Zero(du)), hn::Set(du, 1u)))
                    : hn::Add(kept, RoundIncrement(du, mode, kept, rest, half, negative));
  // Beyond the largest finite: infinity or the largest finite by the mode.
  const auto max_finite = hn::Set(du, kInf - 1);
  const auto overflow_value =
      mode == PTO_ROUND_RINT || mode == PTO_ROUND_ROUND
          ? hn::Set(du, kInf)
      : mode == PTO_ROUND_FLOOR ? hn::IfThenElse(negative, hn::Set(du, kInf), max_finite)
      : mode == PTO_ROUND_CEIL  ? hn::IfThenElse(negative, max_finite, hn::Set(du, kInf))
                                : max_finite;
  result = hn::IfThenElse(too_big, overflow_value, result);
  if (saturate) result = hn::Min(result, max_finite);
  // Specials: infinity stays infinite, NaN quiet with its leading payload.
  result = hn::IfThenElse(is_inf, hn::Set(du, kInf), result);
  const auto nan_bits = hn::Or(hn::Set(du, kInf | kQuiet),
                               hn::ShiftRight<23 - kFrac>(hn::And(magnitude, hn::Set(du, 0x7FFFFFu))));
  result = hn::IfThenElse(is_nan, nan_bits, result);
  return hn::Or(result, sign);
}

// The magnitude of f32 bits (du lanes, `magnitude` without the sign) as a
// code of a small float with kFrac fraction bits and exponent bias kBias
// (exponent field above the fraction), rounded by the mode (`negative`:
// the sign, for the directed modes); beyond the largest code the result
// exceeds every finite code. Infinity and NaN are the caller's.
template <int kBias, int kFrac, class DU>
HWY_INLINE hn::Vec<DU> RoundToMiniCode(DU du, hn::Vec<DU> magnitude, pto_round_mode mode,
                                       hn::Mask<DU> negative) {
  // value = mantissa * 2^(e - 150) for e = max(biased exponent, 1); dst's
  // normal numbers from e = 128 - bias, its subnormals in units of
  // 2^(1 - bias - frac): the mantissa shifted right by 151 - bias - frac -
  // e (capped at 31: all of it then lies below half a unit).
  constexpr uint32_t kLowest = 127u - kBias;
  const auto biased = hn::ShiftRight<23>(magnitude);
  const auto fraction = hn::And(magnitude, hn::Set(du, 0x7FFFFFu));
  const auto is_normal_here = hn::Gt(biased, hn::Set(du, kLowest));
  const auto mantissa = hn::IfThenElse(hn::Eq(biased, hn::Zero(du)), fraction,
                                       hn::Or(fraction, hn::Set(du, 0x800000u)));
  const auto low = hn::Max(hn::Min(biased, hn::Set(du, kLowest)), hn::Set(du, 1u));
  const auto sub_shift = hn::Min(hn::Sub(hn::Set(du, 151u - kBias - kFrac), low), hn::Set(du, 31u));
  const auto rebased = hn::Sub(magnitude, hn::Set(du, kLowest << 23));
  const auto value = hn::IfThenElse(is_normal_here, rebased, mantissa);
  const auto shift = hn::IfThenElse(is_normal_here, hn::Set(du, 23u - kFrac), sub_shift);
  const auto kept = hn::Shr(value, shift);
  const auto rest = hn::Sub(value, hn::Shl(kept, shift));
  const auto half = hn::Shl(hn::Set(du, 1u), hn::Sub(shift, hn::Set(du, 1u)));
  return mode == PTO_ROUND_ODD
             ? hn::Or(kept, hn::IfThenElseZero(hn::Ne(rest, hn::Zero(du)), hn::Set(du, 1u)))
             : hn::Add(kept, RoundIncrement(du, mode, kept, rest, half, negative));
}

// f32 bits (du lanes) -> FP8 E5M2 (kExp 5, kFrac 2) or E4M3FN (kExp 4,
// kFrac 3) codes in the low 8 bits of each lane, rounded by the mode, with
// tcvt::EncodeMini's specials and overflow: E5M2 keeps infinity and its
// quiet NaN 0x7E; E4M3FN's one NaN 0x7F stands for NaN, and for infinity
// and overflow unless saturated or the mode rounds toward the largest
// finite (0x7E, 448). The sign bit stays on NaN and zero.
template <int kExp, int kFrac, class DU>
HWY_INLINE hn::Vec<DU> NarrowFp8Bits(DU du, hn::Vec<DU> bits, pto_round_mode mode, bool saturate) {
  constexpr bool kE5M2 = kExp == 5;
  constexpr int kBias = (1 << (kExp - 1)) - 1;
  constexpr uint32_t kInfCode = 0x7Cu, kNaNCode = kE5M2 ? 0x7Eu : 0x7Fu;
  constexpr uint32_t kMaxCode = kE5M2 ? 0x7Bu : 0x7Eu;
  const auto magnitude = hn::And(bits, hn::Set(du, 0x7FFFFFFFu));
  const auto sign = hn::And(hn::ShiftRight<24>(bits), hn::Set(du, 0x80u));
  const auto negative = hn::Ne(sign, hn::Zero(du));
  const auto is_nan = hn::Gt(magnitude, hn::Set(du, 0x7F800000u));
  const auto is_inf = hn::Eq(magnitude, hn::Set(du, 0x7F800000u));
  auto result = RoundToMiniCode<kBias, kFrac>(du, magnitude, mode, negative);
  // Beyond the largest finite (a huge value's code is beyond it too).
  const auto max_code = hn::Set(du, kMaxCode);
  const auto beyond = hn::Set(du, kE5M2 ? kInfCode : kNaNCode);
  const auto overflow_value =
      saturate ? max_code
      : mode == PTO_ROUND_RINT || mode == PTO_ROUND_ROUND ? beyond
      : mode == PTO_ROUND_FLOOR ? hn::IfThenElse(negative, beyond, max_code)
      : mode == PTO_ROUND_CEIL  ? hn::IfThenElse(negative, max_code, beyond)
                                : max_code;
  result = hn::IfThenElse(hn::Gt(result, max_code), overflow_value, result);
  const auto inf_value = hn::Set(du, kE5M2 ? kInfCode : saturate ? kMaxCode : kNaNCode);
  result = hn::IfThenElse(is_inf, inf_value, result);
  result = hn::IfThenElse(is_nan, hn::Set(du, kNaNCode), result);
  return hn::Or(result, sign);
}

// f32 bits (du lanes) -> FP4 E2M1 (kExp 2, kFrac 1) or E1M2 (kExp 1,
// kFrac 2; both bias 1) codes in the low 4 bits of each lane, rounded by
// the mode, as tcvt::EncodeMini: FP4 has neither infinity nor NaN, so
// overflow and infinity give the largest finite (code 7) whatever the mode
// and saturation, and NaN (which tcvt's check refuses where it sees the
// data) gives zero; the sign bit stays, zero's too.
template <int kExp, int kFrac, class DU>
HWY_INLINE hn::Vec<DU> NarrowFp4Bits(DU du, hn::Vec<DU> bits, pto_round_mode mode) {
  const auto magnitude = hn::And(bits, hn::Set(du, 0x7FFFFFFFu));
  const auto sign = hn::And(hn::ShiftRight<28>(bits), hn::Set(du, 0x8u));
  const auto negative = hn::Ne(sign, hn::Zero(du));
  auto result = hn::Min(RoundToMiniCode<1, kFrac>(du, magnitude, mode, negative), hn::Set(du, 7u));
  result = hn::IfThenElseZero(hn::Not(hn::Gt(magnitude, hn::Set(du, 0x7F800000u))), result);
  return hn::Or(result, sign);
}

// ---- rounding to an integral value in f32 lanes ---------------------------

template <class DF>
HWY_INLINE hn::Vec<DF> RoundIntegralAnySignedZero(DF df, hn::Vec<DF> v, pto_round_mode mode) {
  switch (mode) {
    case PTO_ROUND_FLOOR: return hn::Floor(v);
    case PTO_ROUND_CEIL: return hn::Ceil(v);
    case PTO_ROUND_TRUNC: return hn::Trunc(v);
    case PTO_ROUND_ROUND: {
      // x - trunc(x) is exact; a distance of one half or more moves away.
      const auto t = hn::Trunc(v);
      const auto away = hn::Ge(hn::Abs(hn::Sub(v, t)), hn::Set(df, 0.5f));
      return hn::IfThenElse(away, hn::Add(t, hn::CopySign(hn::Set(df, 1.0f), v)), t);
    }
    default: return hn::Round(v);  // RINT: ties to even
  }
}

// The sign of the input is copied onto the result: a zero result keeps it
// (IEEE 754 roundToIntegral), which Highway's emulated Floor/Ceil/Round do
// not all do, and a non-zero result has it already.
template <class DF>
HWY_INLINE hn::Vec<DF> RoundIntegral(DF df, hn::Vec<DF> v, pto_round_mode mode) {
  return hn::CopySign(RoundIntegralAnySignedZero(df, v, mode), v);
}

// Integral f32 lanes -> int32 lanes in [lo, hi] (NaN -> 0) by `overflow`:
// clamped to [lo, hi], or clamped to INT32 and kept as is (the caller keeps
// the low bits).
template <class DF>
HWY_INLINE hn::Vec<hn::RebindToSigned<DF>> IntegralToInt32(DF df, hn::Vec<DF> r, double lo,
                                                           double hi, bool to_int32) {
  const hn::RebindToSigned<DF> di;
  const double low = to_int32 ? -2147483648.0 : lo;
  const double high = to_int32 ? 2147483647.0 : hi;
  const auto not_nan = hn::Eq(r, r);
  const auto below = hn::Lt(r, hn::Set(df, static_cast<float>(low)));
  // high is exact in float for every dst but INT32, whose 2^31 - 1 is not:
  // r >= 2^31 is the overflow test there.
  const auto above = high > 16777216.0 ? hn::Ge(r, hn::Set(df, 2147483648.0f))
                                       : hn::Gt(r, hn::Set(df, static_cast<float>(high)));
  const auto in_range = hn::And(not_nan, hn::Not(hn::Or(below, above)));
  auto x = hn::ConvertTo(di, hn::IfThenElseZero(in_range, r));
  x = hn::IfThenElse(hn::RebindMask(di, below), hn::Set(di, static_cast<int32_t>(low)), x);
  x = hn::IfThenElse(hn::RebindMask(di, above), hn::Set(di, static_cast<int32_t>(high)), x);
  return x;
}

// ---- INT32 -> f32 rounded by the mode --------------------------------------

template <class DI>
HWY_INLINE hn::Vec<hn::RebindToFloat<DI>> Int32ToFloat(DI di, hn::Vec<DI> x,
                                                       pto_round_mode mode) {
  const hn::RebindToFloat<DI> df;
  const hn::RebindToUnsigned<DI> du;
  if (mode == PTO_ROUND_RINT) return hn::ConvertTo(df, x);
  const auto negative_i = hn::Lt(x, hn::Zero(di));
  const auto negative = hn::RebindMask(du, negative_i);
  // |x| as unsigned (INT32_MIN gives 2^31).
  const auto magnitude = hn::BitCast(du, hn::IfThenElse(negative_i, hn::Neg(x), x));
  // Its exponent: that of |x| converted (to nearest) is the true one or one
  // more; 2^k > |x| shows the latter.
  const auto approx = hn::ConvertTo(df, hn::BitCast(di, hn::ShiftRight<1>(magnitude)));
  auto k = hn::Sub(hn::ShiftRight<23>(hn::BitCast(du, approx)), hn::Set(du, 126u));
  k = hn::IfThenElse(hn::Eq(magnitude, hn::Zero(du)), hn::Zero(du), k);
  k = hn::IfThenElse(hn::Eq(magnitude, hn::Set(du, 1u)), hn::Zero(du), k);
  const auto big = hn::Gt(k, hn::Set(du, 31u));  // 2^k over 31 bits: none here, guard
  k = hn::IfThenElse(big, hn::Set(du, 31u), k);
  const auto pow_k = hn::Shl(hn::Set(du, 1u), k);
  k = hn::IfThenElse(hn::And(hn::Gt(pow_k, magnitude), hn::Gt(k, hn::Zero(du))),
                     hn::Sub(k, hn::Set(du, 1u)), k);
  // |x| in [2^k, 2^(k+1)): 24 significant bits keep shift = k - 23 bits off.
  const auto shift = hn::IfThenElse(hn::Gt(k, hn::Set(du, 23u)), hn::Sub(k, hn::Set(du, 23u)),
                                    hn::Zero(du));
  const auto kept = hn::Shr(magnitude, shift);
  const auto rest = hn::Sub(magnitude, hn::Shl(kept, shift));
  const auto half = hn::ShiftRight<1>(hn::Shl(hn::Set(du, 1u), shift));
  const auto half_or_max = hn::IfThenElse(hn::Eq(shift, hn::Zero(du)), hn::Set(du, 1u), half);
  const auto rounded = hn::Add(kept, RoundIncrement(du, mode, kept, rest, half_or_max, negative));
  // rounded <= 2^24, exact in float; times 2^shift is exact too.
  const auto scale = hn::BitCast(df, hn::ShiftLeft<23>(hn::Add(shift, hn::Set(du, 127u))));
  const auto value = hn::Mul(hn::ConvertTo(df, hn::BitCast(di, rounded)), scale);
  return hn::IfThenElse(hn::RebindMask(df, negative_i), hn::Neg(value), value);
}

// ---- rows -----------------------------------------------------------------

// f32 lanes of src elements (exact: FLOAT32, FLOAT16, BFLOAT16), NaN quiet.
template <class DF>
HWY_INLINE hn::Vec<DF> LoadFloatLanes(DF df, pto_dtype src, const void* p) {
  const hn::RebindToUnsigned<DF> du;
  hn::Vec<DF> v;
  if (src == PTO_FLOAT32) {
    v = hn::LoadU(df, static_cast<const float*>(p));
  } else if (src == PTO_FLOAT16) {
    v = LoadAs(df, static_cast<const hwy::float16_t*>(p));
  } else {
    v = LoadAs(df, static_cast<const hwy::bfloat16_t*>(p));
  }
  const auto quiet = hn::BitCast(df, hn::Or(hn::BitCast(du, v), hn::Set(du, 0x400000u)));
  return hn::IfThenElse(hn::IsNaN(v), quiet, v);
}

template <class DU, typename T>
HWY_INLINE void StoreLowBits(DU /*du*/, hn::Vec<DU> bits, T* p) {
  const hn::Rebind<T, DU> dn;
  hn::StoreU(TruncateLanes(dn, bits), dn, p);
}

}  // namespace HWY_NAMESPACE
}  // namespace pto
HWY_AFTER_NAMESPACE();

// The low-precision kernels use RoundIncrement and LoadFloatLanes above.
#include "src/kernels/tcvt-lowp-inl.h"
// F16C's narrowings on x86 (PTO_F16C_NARROWING: 1 where this target has them).
#include "src/kernels/tcvt-f16c-inl.h"

HWY_BEFORE_NAMESPACE();
namespace pto {
namespace HWY_NAMESPACE {

using kernels::ConvertSpec;
using kernels::IntOverflow;

// Whether a vector path computes this pair (else every element goes through
// tcvt::Element).
inline bool HasVectorPath(const ConvertSpec& s) {
  const bool float_src = s.src == PTO_FLOAT32 || s.src == PTO_FLOAT16 || s.src == PTO_BFLOAT16;
  if (float_src && (s.dst == PTO_FLOAT16 || s.dst == PTO_BFLOAT16)) return s.src == PTO_FLOAT32;
  if (s.dst == PTO_FLOAT8_E4M3 || s.dst == PTO_FLOAT8_E5M2) return s.src == PTO_FLOAT32;
  if (float_src && s.dst == PTO_FLOAT32) return true;
  if (float_src && (s.dst == PTO_INT32 || s.dst == PTO_INT16 || s.dst == PTO_INT8 ||
                    s.dst == PTO_UINT8))
    return true;
  return s.src == PTO_INT32 && s.dst == PTO_FLOAT32;
}

// Lanes(df) elements from `in` to `out`.
template <class DF>
HWY_INLINE void ConvertVector(DF df, const ConvertSpec& s, void* out, const void* in) {
  const hn::RebindToUnsigned<DF> du;
  const hn::RebindToSigned<DF> di;
  if (s.src == PTO_INT32) {
    const auto v = Int32ToFloat(di, hn::LoadU(di, static_cast<const int32_t*>(in)), s.round);
    hn::StoreU(v, df, static_cast<float*>(out));
    return;
  }
  const auto v = LoadFloatLanes(df, s.src, in);
  switch (s.dst) {
    case PTO_FLOAT16:
#if PTO_F16C_NARROWING
      if (s.round == PTO_ROUND_RINT)
        return NarrowToHalfRint(df, v, s.saturate_float, static_cast<uint16_t*>(out));
#endif
      StoreLowBits(du, NarrowFloatBits<10>(du, hn::BitCast(du, v), s.round, s.saturate_float),
                   static_cast<uint16_t*>(out));
      return;
    case PTO_BFLOAT16:
      StoreLowBits(du, NarrowFloatBits<7>(du, hn::BitCast(du, v), s.round, s.saturate_float),
                   static_cast<uint16_t*>(out));
      return;
    case PTO_FLOAT8_E4M3:
      StoreLowBits(du, NarrowFp8Bits<4, 3>(du, hn::BitCast(du, v), s.round, s.saturate_float),
                   static_cast<uint8_t*>(out));
      return;
    case PTO_FLOAT8_E5M2:
      StoreLowBits(du, NarrowFp8Bits<5, 2>(du, hn::BitCast(du, v), s.round, s.saturate_float),
                   static_cast<uint8_t*>(out));
      return;
    case PTO_FLOAT32:
      // FLOAT32 -> FLOAT32 rounds to an integral value; the others widen.
      hn::StoreU(s.src == PTO_FLOAT32 ? RoundIntegral(df, v, s.round) : v, df,
                 static_cast<float*>(out));
      return;
    default: break;
  }
  // float -> integer
  const int bits = s.dst == PTO_INT32 ? 32 : s.dst == PTO_INT16 ? 16 : 8;
  const bool is_signed = s.dst != PTO_UINT8;
  const double lo = is_signed ? -std::ldexp(1.0, bits - 1) : 0.0;
  const double hi = std::ldexp(1.0, is_signed ? bits - 1 : bits) - 1;
  const auto x = IntegralToInt32(df, RoundIntegral(df, v, s.round), lo, hi,
                                 s.int_overflow == IntOverflow::kInt32ThenWrap);
  const auto xu = hn::BitCast(du, x);
  if (s.dst == PTO_INT32) {
    hn::StoreU(x, di, static_cast<int32_t*>(out));
  } else if (s.dst == PTO_INT16) {
    StoreLowBits(du, xu, static_cast<uint16_t*>(out));
  } else {
    StoreLowBits(du, xu, static_cast<uint8_t*>(out));
  }
}

// The rows: whole vectors by ConvertVector where the pair has a vector path,
// the rest of each row element by element.
HWY_INLINE void ConvertRows(const ConvertSpec& spec, size_t rows, size_t cols, void* dst,
                            size_t dst_stride, const void* src, size_t src_stride) {
  const hn::ScalableTag<float> df;
  const size_t lanes = hn::Lanes(df);
  const bool vector = HasVectorPath(spec);
  const size_t in_size = ElementBytes(spec.src), out_size = ElementBytes(spec.dst);
  for (size_t r = 0; r < rows; ++r) {
    char* out = static_cast<char*>(dst) + r * dst_stride * out_size;
    const char* in = static_cast<const char*>(src) + r * src_stride * in_size;
    if (IsPackedDtype(spec.src) || IsPackedDtype(spec.dst)) {  // cols counts values
      kernels::tcvt::PackedRange(spec, cols, out, in);
      continue;
    }
    size_t i = 0;
#if PTO_F16C_NARROWING
    if (spec.src == PTO_FLOAT32 && spec.round == PTO_ROUND_RINT &&
        (spec.dst == PTO_FLOAT8_E4M3 || spec.dst == PTO_FLOAT8_E5M2)) {
      i = cols / lanes * lanes;
      const auto* from = reinterpret_cast<const float*>(in);
      auto* to = reinterpret_cast<uint8_t*>(out);
      if (spec.dst == PTO_FLOAT8_E5M2)
        Fp8RintRangeByF16C<true>(df, spec.saturate_float, i, to, from);
      else
        Fp8RintRangeByF16C<false>(df, spec.saturate_float, i, to, from);
    }
#endif
    if (vector) {
      for (; i + lanes <= cols; i += lanes)
        ConvertVector(df, spec, out + i * out_size, in + i * in_size);
    }
    kernels::tcvt::ElementRange(spec, i, cols, out, in);
  }
}

// ConvertRows of one pair, its round mode and (narrowing) saturation fixed,
// each equal to the spec's: the fields are constants here, so ConvertVector's
// choices on them fold away (the float16 kernels' conversions in and out, on
// small tiles as often as once a row).
template <pto_dtype kSrc, pto_dtype kDst, pto_round_mode kRound, bool kSaturate>
HWY_NOINLINE void ConvertPair(const ConvertSpec& spec, size_t rows, size_t cols, void* dst,
                              size_t dst_stride, const void* src, size_t src_stride) {
  ConvertSpec fixed = spec;
  fixed.src = kSrc;
  fixed.dst = kDst;
  fixed.round = kRound;
  if (kDst != PTO_FLOAT32) fixed.saturate_float = kSaturate;  // widening: never read
  ConvertRows(fixed, rows, cols, dst, dst_stride, src, src_stride);
}

// FLOAT32 -> dst under RINT (A5's one mode for FP8; the float16 kernels'
// conversion out), saturation fixed too.
template <pto_dtype kDst>
HWY_INLINE void ConvertRintFrom32(const ConvertSpec& spec, size_t rows, size_t cols, void* dst,
                                  size_t dst_stride, const void* src, size_t src_stride) {
  if (spec.saturate_float)
    return ConvertPair<PTO_FLOAT32, kDst, PTO_ROUND_RINT, true>(spec, rows, cols, dst, dst_stride,
                                                                 src, src_stride);
  ConvertPair<PTO_FLOAT32, kDst, PTO_ROUND_RINT, false>(spec, rows, cols, dst, dst_stride, src,
                                                         src_stride);
}

void ConvertImpl(const ConvertSpec& spec, size_t rows, size_t cols, void* dst, size_t dst_stride,
                 const void* src, size_t src_stride) {
  if (IsLowpWidening(spec))  // tcvt-lowp-inl.h
    return WidenLowpRows(spec, rows, cols, dst, dst_stride, src, src_stride);
  if (IsHiF8Narrowing(spec))  // tcvt-lowp-inl.h
    return NarrowHiF8Rows(spec, rows, cols, dst, dst_stride, src, src_stride);
  if (IsFp4Narrowing(spec))  // tcvt-lowp-inl.h
    return NarrowFp4Rows(spec, rows, cols, dst, dst_stride, src, src_stride);
  if (spec.src == PTO_FLOAT16 && spec.dst == PTO_FLOAT32 && spec.round == PTO_ROUND_RINT)
    return ConvertPair<PTO_FLOAT16, PTO_FLOAT32, PTO_ROUND_RINT, false>(
        spec, rows, cols, dst, dst_stride, src, src_stride);
  if (spec.src == PTO_FLOAT32 && spec.round == PTO_ROUND_RINT) {
    if (spec.dst == PTO_FLOAT8_E4M3)
      return ConvertRintFrom32<PTO_FLOAT8_E4M3>(spec, rows, cols, dst, dst_stride, src, src_stride);
    if (spec.dst == PTO_FLOAT8_E5M2)
      return ConvertRintFrom32<PTO_FLOAT8_E5M2>(spec, rows, cols, dst, dst_stride, src, src_stride);
    if (spec.dst == PTO_FLOAT16)
      return ConvertRintFrom32<PTO_FLOAT16>(spec, rows, cols, dst, dst_stride, src, src_stride);
  }
  ConvertRows(spec, rows, cols, dst, dst_stride, src, src_stride);
}

}  // namespace HWY_NAMESPACE
}  // namespace pto
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace pto {
HWY_EXPORT(ConvertImpl);
namespace kernels {
void Convert(const ConvertSpec& spec, size_t rows, size_t cols, const Plane& dst,
             const ConstPlane& src) {
  PTO_DYNAMIC_DISPATCH(ConvertImpl)(spec, rows, cols, dst.data, dst.stride, src.data, src.stride);
}
uint64_t ConvertElement(const ConvertSpec& spec, uint64_t bits) {
  return tcvt::Element(spec, bits);
}
}  // namespace kernels
}  // namespace pto
#endif
