// The float scalars (f64, f32, f16, bf16): a value rounded to nearest even
// in one of those formats, and the 16 bits of an f16 or bf16 value and back
// (float_scalars.h declares them).
#include "float_scalars.h"

#include <math.h>
#include <string.h>

namespace pto {

namespace {

// x to p significant bits, exponents down to emin (subnormals below), and
// infinity above the largest finite value of emax.
double RoundToBits(double x, int p, int emin, int emax) {
  if (!isfinite(x) || x == 0) return x;
  int e;
  frexp(x, &e);
  const int exponent = e - 1 < emin ? emin : e - 1;
  const double r = ldexp(nearbyint(ldexp(x, p - 1 - exponent)), exponent - (p - 1));
  const double largest = ldexp(2.0 - ldexp(1.0, 1 - p), emax);
  return fabs(r) > largest ? copysign(INFINITY, x) : r;
}

}  // namespace

double RoundToFloatType(double x, pto_dtype dtype, unsigned bits) {
  if (bits == 64) return x;
  switch (dtype) {
    case PTO_FLOAT16: return RoundToBits(x, 11, -14, 15);
    case PTO_BFLOAT16: return RoundToBits(x, 8, -126, 127);
    default: return static_cast<double>(static_cast<float>(x));
  }
}

double HalfBitsToDouble(uint16_t bits, pto_dtype dtype) {
  if (dtype == PTO_BFLOAT16) {
    const uint32_t word = uint32_t{bits} << 16;
    float f;
    memcpy(&f, &word, sizeof f);
    return f;
  }
  const double sign = (bits & 0x8000) != 0 ? -1.0 : 1.0;
  const int exponent = (bits >> 10) & 0x1F;
  const int mantissa = bits & 0x3FF;
  if (exponent == 0x1F) return mantissa != 0 ? NAN : sign * INFINITY;
  if (exponent == 0) return sign * ldexp(mantissa, -24);
  return sign * ldexp(1024 + mantissa, exponent - 25);
}

uint16_t DoubleToHalfBits(double x, pto_dtype dtype) {
  const uint16_t sign = signbit(x) ? 0x8000 : 0;
  if (dtype == PTO_BFLOAT16) {
    if (isnan(x)) return sign | 0x7FC0;
    const float f = static_cast<float>(x);
    uint32_t word;
    memcpy(&word, &f, sizeof word);
    return static_cast<uint16_t>(word >> 16);
  }
  if (isnan(x)) return sign | 0x7E00;
  if (isinf(x)) return sign | 0x7C00;
  const double a = fabs(x);
  if (a == 0) return sign;
  int e;
  frexp(a, &e);
  if (e - 1 < -14) return sign | static_cast<uint16_t>(ldexp(a, 24));
  return sign | static_cast<uint16_t>(((e - 1 + 15) << 10) |
                                      (static_cast<int>(ldexp(a, 11 - e)) - 1024));
}

}  // namespace pto
