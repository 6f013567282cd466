// Float scalars (f64, f32, f16, bf16) as doubles: a value rounded to nearest
// even in one of those formats, and the 16 bits of an f16 or bf16 value and
// back (float_scalars.cc). A program's scalar arithmetic, its element reads
// and writes, the global gather's adds and the comm transport's atomic adds
// share them.
#ifndef PTO_FLOAT_SCALARS_H_
#define PTO_FLOAT_SCALARS_H_

#include <stdint.h>

#include "pto_c.h"

namespace pto {

// x rounded to nearest even in a float scalar type (f64, f32, f16, bf16;
// f16/bf16 overflow to infinity as IEEE 754 says).
double RoundToFloatType(double x, pto_dtype dtype, unsigned bits);
// The 16 bits of an f16 / bf16 value and back (the value already rounded).
double HalfBitsToDouble(uint16_t bits, pto_dtype dtype);
uint16_t DoubleToHalfBits(double x, pto_dtype dtype);

}  // namespace pto

#endif  // PTO_FLOAT_SCALARS_H_
