// TREM, TREMS, TFMOD and TFMODS on floats as the NPU implementations compute
// them (run under PTO_PROFILE_A2A3 and PTO_PROFILE_A5 only; HOST's exact
// results are binary.cc's): a - floor(a / b) * b (TREM) or a - trunc(a / b) * b
// (TFMOD) through intermediates each rounded to its register's type, then the
// sign correction where the implementation has one. docs/profiles.md
// [F-REM-NPU] and [F-TFMOD] cite each step's source.
//
// Plain loops, one element at a time: scalar IEEE float32 arithmetic (the
// build contracts nothing, -ffp-contract=off) gives the same bits on every
// machine, and these paths stand for a target, not for speed.
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "kernels/kernels.h"

namespace pto {
namespace kernels {
namespace {

float Load(pto_dtype dtype, const void* row, size_t j) {
  float x = 0;
  ToF32(dtype, 1, &x, static_cast<const char*>(row) + j * (dtype == PTO_FLOAT16 ? 2 : 4));
  return x;
}

void Store(pto_dtype dtype, void* row, size_t j, float x) {
  FromF32(dtype, 1, static_cast<char*>(row) + j * (dtype == PTO_FLOAT16 ? 2 : 4), &x);
}

// x (a float32 result) rounded to nearest even in dtype: the vector
// instruction's own rounding when it computes in dtype's lanes (float32 holds
// a float16 sum, product or quotient's nearest value closely enough that
// rounding it again to float16 gives the directly rounded result).
float RoundTo(pto_dtype dtype, float x) {
  return dtype == PTO_FLOAT32 ? x : static_cast<float>(ValueInDtype(dtype, x));
}

// x rounded toward zero to float16, saturating: A5's vcvt(..., ROUND_Z,
// RS_ENABLE) from the float32 lanes back to half. NaN stays NaN.
float TruncateToHalf(float x) {
  uint16_t bits = 0;
  FromF32(PTO_FLOAT16, 1, &bits, &x);
  float back = 0;
  ToF32(PTO_FLOAT16, 1, &back, &bits);
  if (!isnan(x) && fabsf(back) > fabsf(x)) {
    bits = static_cast<uint16_t>(bits - 1);  // one step toward zero, same sign
    ToF32(PTO_FLOAT16, 1, &back, &bits);
  }
  return back;
}

// One element: a and b are values of dtype (FLOAT32, or FLOAT16 on A5).
// The quotient, its floor, the product and the difference are float32
// registers on both targets (A5 widens float16 to float32 first, exactly);
// the difference is narrowed to float16 toward zero; then, with
// sign_correction, t = b * r in dtype and r + b in dtype where t < 0.
// With truncate, the quotient is rounded toward zero instead of down (TFMOD:
// A2A3's vconv_f322f32z, A5's vtrc ROUND_Z) and there is no sign correction.
float RemElement(pto_dtype dtype, float a, float b, bool sign_correction, bool truncate = false) {
  const float q = a / b;
  const float f = truncate ? truncf(q) : floorf(q);
  const float p = f * b;
  float r = a - p;
  if (dtype == PTO_FLOAT16) r = TruncateToHalf(r);
  if (sign_correction && RoundTo(dtype, b * r) < 0.0f) r = RoundTo(dtype, r + b);
  return r;
}

// f(a_j, b_j) into dst over rows x cols; b of one element per row element.
template <typename F>
void EachPair(pto_dtype dtype, size_t rows, size_t cols, const Plane& dst, const ConstPlane& a,
              const ConstPlane& b, F f) {
  const size_t size = dtype == PTO_FLOAT16 ? 2 : 4;
  for (size_t i = 0; i < rows; ++i) {
    const char* ra = static_cast<const char*>(a.data) + i * a.stride * size;
    const char* rb = static_cast<const char*>(b.data) + i * b.stride * size;
    char* out = static_cast<char*>(dst.data) + i * dst.stride * size;
    for (size_t j = 0; j < cols; ++j) Store(dtype, out, j, f(Load(dtype, ra, j), Load(dtype, rb, j)));
  }
}

// f(a_j, scalar) into dst over rows x cols.
template <typename F>
void EachWithScalar(pto_dtype dtype, size_t rows, size_t cols, const Plane& dst, const ConstPlane& a,
                    double scalar, F f) {
  const size_t size = dtype == PTO_FLOAT16 ? 2 : 4;
  const float b = static_cast<float>(scalar);
  for (size_t i = 0; i < rows; ++i) {
    const char* ra = static_cast<const char*>(a.data) + i * a.stride * size;
    char* out = static_cast<char*>(dst.data) + i * dst.stride * size;
    for (size_t j = 0; j < cols; ++j) Store(dtype, out, j, f(Load(dtype, ra, j), b));
  }
}

}  // namespace

void NpuRem(pto_dtype dtype, size_t rows, size_t cols, const Plane& dst, const ConstPlane& a,
            const ConstPlane& b) {
  EachPair(dtype, rows, cols, dst, a, b,
           [dtype](float x, float y) { return RemElement(dtype, x, y, true); });
}

void NpuRems(pto_dtype dtype, size_t rows, size_t cols, const Plane& dst, const ConstPlane& a,
             double scalar, bool sign_correction) {
  EachWithScalar(dtype, rows, cols, dst, a, scalar, [dtype, sign_correction](float x, float y) {
    return RemElement(dtype, x, y, sign_correction);
  });
}

void NpuFmod(pto_dtype dtype, size_t rows, size_t cols, const Plane& dst, const ConstPlane& a,
             const ConstPlane& b) {
  EachPair(dtype, rows, cols, dst, a, b,
           [dtype](float x, float y) { return RemElement(dtype, x, y, false, true); });
}

void NpuFmods(pto_dtype dtype, size_t rows, size_t cols, const Plane& dst, const ConstPlane& a,
              double scalar) {
  EachWithScalar(dtype, rows, cols, dst, a, scalar,
                 [dtype](float x, float y) { return RemElement(dtype, x, y, false, true); });
}

}  // namespace kernels
}  // namespace pto
