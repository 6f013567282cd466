// tquant's and tdequant's kernels: plain loops over rows, one scale (and
// offset) per row. Each float32 operation is rounded once (the build keeps
// a * b + c as two operations: -ffp-contract=off), under the IEEE defaults
// the caller sets, so the results are the NPUs' bit for bit.
#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "src/kernels/kernels.h"

namespace pto {
namespace kernels {
namespace {

// A float32 rounded to an integer, ties to even, in [lo, hi]; NaN gives 0.
// This is the NPUs' chain FLOAT32 -> INT32 -> FLOAT32 -> FLOAT16 -> (U)INT8,
// each step round-to-nearest-even and saturating: the first rounds, the
// others are exact on integers or clamp, and clamping commutes with them.
inline int RoundSaturated(float v, float lo, float hi) {
  if (v != v) return 0;
  const float r = nearbyintf(v);
  return static_cast<int>(r < lo ? lo : r > hi ? hi : r);
}

inline float ParamAt(const ConstPlane& p, size_t row) {
  return static_cast<const float*>(p.data)[row * p.stride];
}

template <typename Code>
void QuantizeAs(size_t rows, size_t cols, const Plane& dst, const ConstPlane& src,
                const ConstPlane& scale, const ConstPlane* offset, float lo, float hi) {
  for (size_t i = 0; i < rows; ++i) {
    const float* in = static_cast<const float*>(src.data) + i * src.stride;
    Code* out = static_cast<Code*>(dst.data) + i * dst.stride;
    const float s = ParamAt(scale, i);
    if (offset == nullptr) {
      for (size_t j = 0; j < cols; ++j) out[j] = static_cast<Code>(RoundSaturated(in[j] * s, lo, hi));
    } else {
      const float z = ParamAt(*offset, i);
      for (size_t j = 0; j < cols; ++j) {
        const float scaled = in[j] * s;
        out[j] = static_cast<Code>(RoundSaturated(scaled + z, lo, hi));
      }
    }
  }
}

template <typename Code>
void DequantizeAs(size_t rows, size_t cols, const Plane& dst, const ConstPlane& src,
                  const ConstPlane& scale, const ConstPlane& offset) {
  for (size_t i = 0; i < rows; ++i) {
    const Code* in = static_cast<const Code*>(src.data) + i * src.stride;
    float* out = static_cast<float*>(dst.data) + i * dst.stride;
    const float s = ParamAt(scale, i), z = ParamAt(offset, i);
    for (size_t j = 0; j < cols; ++j) {
      const float shifted = static_cast<float>(in[j]) - z;
      out[j] = shifted * s;
    }
  }
}

}  // namespace

void Quantize(bool to_unsigned, size_t rows, size_t cols, const Plane& dst, const ConstPlane& src,
              const ConstPlane& scale, const ConstPlane* offset) {
  if (to_unsigned) QuantizeAs<uint8_t>(rows, cols, dst, src, scale, offset, 0.0f, 255.0f);
  else QuantizeAs<int8_t>(rows, cols, dst, src, scale, offset, -128.0f, 127.0f);
}

void Dequantize(bool from_int16, size_t rows, size_t cols, const Plane& dst, const ConstPlane& src,
                const ConstPlane& scale, const ConstPlane& offset) {
  if (from_int16) DequantizeAs<int16_t>(rows, cols, dst, src, scale, offset);
  else DequantizeAs<int8_t>(rows, cols, dst, src, scale, offset);
}

}  // namespace kernels
}  // namespace pto
