// The low-precision element types' encodings (pto_c.h describes them): a
// code's value, exactly, as (-1)^negative * mantissa * 2^exponent, or NaN or
// an infinity. Read by tcvt's converter (kernels/tcvt.cc) and by a program's
// printing of a tile; plain integer arithmetic, no table.
#ifndef PTO_LOW_PRECISION_H_
#define PTO_LOW_PRECISION_H_

#include <math.h>
#include <stdint.h>

#include "dtype_rules.h"
#include "pto_c.h"

namespace pto {
namespace lowp {

struct Decoded {
  bool nan, inf, negative;
  uint32_t mantissa;  // the value's integer significand (0 for zero)
  int exponent;
};

// FP8 E4M3FN, E5M2 and FP4 E2M1, E1M2: sign, exp_bits, frac_bits, the
// bias; E4M3FN's S.1111.111 is its only NaN, E5M2's all-ones exponent is
// IEEE's infinity and NaN, the FP4 formats have neither.
struct MiniFormat {
  int exp_bits, frac_bits, bias;
  bool ieee_specials;  // E5M2
  bool single_nan;     // E4M3FN
};
inline MiniFormat MiniFormatOf(pto_dtype t) {
  switch (t) {
    case PTO_FLOAT8_E4M3: return {4, 3, 7, false, true};
    case PTO_FLOAT8_E5M2: return {5, 2, 15, true, false};
    case PTO_FLOAT4_E2M1X2: return {2, 1, 1, false, false};
    default: return {1, 2, 1, false, false};  // FLOAT4_E1M2X2
  }
}

inline Decoded DecodeMini(const MiniFormat& f, uint32_t code) {
  Decoded d{false, false, false, 0, 0};
  const uint32_t frac_mask = (1u << f.frac_bits) - 1, exp_mask = (1u << f.exp_bits) - 1;
  const uint32_t e = (code >> f.frac_bits) & exp_mask, frac = code & frac_mask;
  d.negative = ((code >> (f.frac_bits + f.exp_bits)) & 1) != 0;
  if (f.ieee_specials && e == exp_mask) {
    d.nan = frac != 0;
    d.inf = frac == 0;
    return d;
  }
  if (f.single_nan && e == exp_mask && frac == frac_mask) {
    d.nan = true;
    return d;
  }
  d.mantissa = e == 0 ? frac : (frac | (1u << f.frac_bits));
  d.exponent = (e == 0 ? 1 : static_cast<int>(e)) - f.bias - f.frac_bits;
  return d;
}

// HiFloat8: after the sign, the dot field's prefix code gives D exponent
// bits (11: 4, 10: 3, 01: 2, 001: 1, 0001: 0) and the mantissa the rest
// (1, 2, 3, 3, 3 bits); the exponent is sign-magnitude with an implicit
// leading 1 (D bits: the sign, then D - 1 bits below the 1). 0000mmm is
// 2^(m - 23) for m >= 1, 0x00 zero, 0x80 NaN; exponent 15 with mantissa 1
// (0x6F, 0xEF) is infinity.
inline Decoded DecodeHiF8(uint32_t code) {
  Decoded d{false, false, (code & 0x80u) != 0, 0, 0};
  const uint32_t rest = code & 0x7Fu;
  if (rest < 0x08u) {
    if (rest == 0) {
      d.nan = d.negative;
      d.negative = d.negative && !d.nan;
      return d;
    }
    d.mantissa = 1;
    d.exponent = static_cast<int>(rest) - 23;
    return d;
  }
  int dot_bits, exp_bits;
  if (rest >= 0x60u) dot_bits = 2, exp_bits = 4;
  else if (rest >= 0x40u) dot_bits = 2, exp_bits = 3;
  else if (rest >= 0x20u) dot_bits = 2, exp_bits = 2;
  else if (rest >= 0x10u) dot_bits = 3, exp_bits = 1;
  else dot_bits = 4, exp_bits = 0;
  const int man_bits = 7 - dot_bits - exp_bits;
  const uint32_t field = rest & ((1u << (exp_bits + man_bits)) - 1);
  const uint32_t man = field & ((1u << man_bits) - 1);
  int e = 0;
  if (exp_bits > 0) {
    const uint32_t bits = field >> man_bits;
    const uint32_t sign_bit = 1u << (exp_bits - 1);
    const int magnitude = static_cast<int>((bits & (sign_bit - 1)) | sign_bit);
    e = (bits & sign_bit) != 0 ? -magnitude : magnitude;
  }
  if (e == 15 && man == 1) {
    d.inf = true;
    return d;
  }
  d.mantissa = man | (1u << man_bits);
  d.exponent = e - man_bits;
  return d;
}

// E8M0 (E8M0FNU): 2^(e - 127), 0xFF NaN.
inline Decoded DecodeE8M0(uint32_t code) {
  Decoded d{code == 0xFFu, false, false, 1, static_cast<int>(code) - 127};
  return d;
}

// INT4: two's complement in 4 bits.
inline Decoded DecodeInt4(uint32_t code) {
  const bool negative = (code & 8u) != 0;
  return Decoded{false, false, negative, negative ? 16u - code : code, 0};
}

// One value of a low-precision type: an 8-bit code, or a packed type's
// 4-bit nibble.
inline Decoded Decode(pto_dtype t, uint32_t code) {
  switch (t) {
    case PTO_HIFLOAT8: return DecodeHiF8(code & 0xFFu);
    case PTO_FLOAT8_E8M0: return DecodeE8M0(code & 0xFFu);
    case PTO_INT4X2: return DecodeInt4(code & 0xFu);
    default: return DecodeMini(MiniFormatOf(t), code);
  }
}

inline double ToDouble(pto_dtype t, uint32_t code) {
  const Decoded d = Decode(t, code);
  if (d.nan) return NAN;
  const double magnitude = d.inf ? INFINITY : ldexp(static_cast<double>(d.mantissa), d.exponent);
  return d.negative ? -magnitude : magnitude;
}

}  // namespace lowp
}  // namespace pto

#endif  // PTO_LOW_PRECISION_H_
