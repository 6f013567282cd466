// tcvt's element arithmetic: an element's value as sign * mantissa *
// 2^exponent (or NaN, infinity), decoded from any dtype, and the rounding of
// a mantissa by a mode. Shared by tcvt's converter (tcvt.cc) and the
// low-precision encoders (lowp-encode.cc); plain integer arithmetic.
#ifndef PTO_KERNELS_TCVT_VALUE_H_
#define PTO_KERNELS_TCVT_VALUE_H_

#include <stdint.h>

#include "pto_c.h"
#include "src/dtype_rules.h"
#include "src/low_precision.h"

namespace pto {
namespace kernels {
namespace tcvt {

struct FloatFormat {
  int frac_bits;  // explicit fraction bits
  int exp_bits;
};
inline FloatFormat FormatOf(pto_dtype t) {
  return t == PTO_FLOAT16 ? FloatFormat{10, 5}
         : t == PTO_BFLOAT16 ? FloatFormat{7, 8}
                             : FloatFormat{23, 8};
}
inline bool IsFloat(pto_dtype t) {
  return t == PTO_FLOAT16 || t == PTO_BFLOAT16 || t == PTO_FLOAT32;
}
inline int IntBits(pto_dtype t) {
  return t == PTO_INT4X2                     ? 4
         : t == PTO_INT8 || t == PTO_UINT8   ? 8
         : t == PTO_INT16 || t == PTO_UINT16 ? 16
         : t == PTO_INT64 || t == PTO_UINT64 ? 64
                                             : 32;
}
inline bool IsSigned(pto_dtype t) {
  return t == PTO_INT8 || t == PTO_INT16 || t == PTO_INT32 || t == PTO_INT64 || t == PTO_INT4X2;
}

// (-1)^negative * mantissa * 2^exponent, or a NaN (payload: the fraction
// bits left-aligned in 32) or an infinity.
struct Value {
  bool nan, inf, negative;
  uint64_t mantissa;
  int exponent;
  uint32_t payload;
};

// bits: the element zero-extended (an integer's magnitude, |INT64_MIN| =
// 2^63 included, fits the 64-bit mantissa).
inline Value Decode(pto_dtype t, uint64_t element) {
  Value v{false, false, false, 0, 0, 0};
  if (IsLowPrecisionDtype(t)) {
    // A NaN of these types carries no payload: float32's is its quiet NaN.
    const lowp::Decoded d = lowp::Decode(t, static_cast<uint32_t>(element));
    return Value{d.nan, d.inf, d.negative, d.mantissa, d.exponent, 0};
  }
  if (!IsFloat(t)) {
    const int n = IntBits(t);
    v.negative = IsSigned(t) && ((element >> (n - 1)) & 1) != 0;
    // the two's complement magnitude: 2^n - element, modulo 2^64 for n = 64
    const uint64_t modulus_minus_element =
        n == 64 ? uint64_t{0} - element : (uint64_t{1} << n) - element;
    v.mantissa = v.negative ? modulus_minus_element : element;
    return v;
  }
  const uint32_t bits = static_cast<uint32_t>(element);
  const FloatFormat f = FormatOf(t);
  const uint32_t exp_mask = (1u << f.exp_bits) - 1, frac_mask = (1u << f.frac_bits) - 1;
  const int bias = static_cast<int>(exp_mask >> 1);
  const uint32_t e = (bits >> f.frac_bits) & exp_mask, frac = bits & frac_mask;
  v.negative = ((bits >> (f.frac_bits + f.exp_bits)) & 1) != 0;
  if (e == exp_mask) {
    v.nan = frac != 0;
    v.inf = frac == 0;
    v.payload = frac << (32 - f.frac_bits);
    return v;
  }
  v.mantissa = e == 0 ? frac : (frac | (1u << f.frac_bits));
  v.exponent = (e == 0 ? 1 : static_cast<int>(e)) - bias - f.frac_bits;
  return v;
}

// mantissa / 2^shift rounded to an integer by the mode (shift > 0), the
// sign `negative` deciding the directed modes. Left shifts (shift <= 0)
// only of a mantissa below 2^40 (a float's), which stay below 2^64.
inline uint64_t RoundShift(uint64_t mantissa, int shift, bool negative, pto_round_mode mode) {
  if (shift <= 0) return mantissa << -shift;
  const uint64_t kept = shift >= 64 ? 0 : mantissa >> shift;
  const uint64_t rest = shift >= 64 ? mantissa : mantissa & ((uint64_t{1} << shift) - 1);
  // rest against half of 2^shift, without forming 2^shift past 63 bits.
  const int cmp_half = shift > 63   ? -1
                       : rest == (uint64_t{1} << (shift - 1)) ? 0
                       : rest > (uint64_t{1} << (shift - 1))  ? 1
                                                               : -1;
  bool up = false;
  switch (mode) {
    case PTO_ROUND_ROUND: up = cmp_half >= 0; break;
    case PTO_ROUND_FLOOR: up = negative && rest != 0; break;
    case PTO_ROUND_CEIL: up = !negative && rest != 0; break;
    case PTO_ROUND_TRUNC: up = false; break;
    case PTO_ROUND_ODD: return rest != 0 ? (kept | 1) : kept;
    default: up = cmp_half > 0 || (cmp_half == 0 && (kept & 1)); break;  // RINT
  }
  return kept + (up ? 1 : 0);
}

inline int BitLength(uint64_t x) {
  int n = 0;
  while (x != 0) ++n, x >>= 1;
  return n;
}

// Whether an overflowing result of the mode is infinity (IEEE 754: the modes
// that round away from zero on the value's side), else the largest finite.
inline bool OverflowsToInfinity(pto_round_mode mode, bool negative) {
  switch (mode) {
    case PTO_ROUND_RINT:
    case PTO_ROUND_ROUND: return true;
    case PTO_ROUND_FLOOR: return negative;
    case PTO_ROUND_CEIL: return !negative;
    default: return false;
  }
}

}  // namespace tcvt
}  // namespace kernels
}  // namespace pto
#endif  // PTO_KERNELS_TCVT_VALUE_H_
