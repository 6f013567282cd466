// The index reductions (TROWARGMAX, TROWARGMIN, TCOLARGMAX, TCOLARGMIN):
// plain loops, each element compared as an integer key that orders the
// values exactly (floats: -0 below +0, a NaN taken apart), so every target
// gives the same indices.
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "src/kernels/kernels.h"

namespace pto {
namespace kernels {
namespace {

// An element's place in the order of its dtype's values, and whether it is
// a NaN (which has none: it wins as it does in trowmax).
struct Key {
  int64_t order;
  bool nan;
};

// Float bits of `bits` width with an all-ones exponent at `inf`: the
// magnitude, negated below zero, -0 one below +0.
template <typename Bits, Bits kInf>
struct FloatKey {
  static Key Of(const void* p) {
    Bits b;
    memcpy(&b, p, sizeof b);
    constexpr Bits kSign = static_cast<Bits>(Bits{1} << (sizeof(Bits) * 8 - 1));
    const Bits magnitude = static_cast<Bits>(b & ~kSign);
    const int64_t m = static_cast<int64_t>(magnitude);
    return {(b & kSign) != 0 ? -m - 1 : m, magnitude > kInf};
  }
};

template <typename T>
struct IntegerKey {
  static Key Of(const void* p) {
    T v;
    memcpy(&v, p, sizeof v);
    return {static_cast<int64_t>(v), false};
  }
};

// The index among n elements (element k at base + k * step bytes) of the
// first NaN, else of the first largest (kMax) or smallest element.
template <class K, bool kMax>
uint32_t FirstExtreme(const char* base, size_t step, size_t n) {
  uint32_t best = 0;
  Key best_key = K::Of(base);
  for (size_t k = 1; k < n && !best_key.nan; ++k) {
    const Key key = K::Of(base + k * step);
    if (key.nan || (kMax ? key.order > best_key.order : key.order < best_key.order)) {
      best = static_cast<uint32_t>(k);
      best_key = key;
    }
  }
  return best;
}

template <class K, bool kMax>
void ArgReduceTyped(bool along_rows, size_t element_bytes, size_t rows, size_t cols,
                    const Plane& dst, const ConstPlane& src) {
  const char* s = static_cast<const char*>(src.data);
  uint32_t* d = static_cast<uint32_t*>(dst.data);
  const size_t row_bytes = src.stride * element_bytes;
  if (along_rows) {
    for (size_t r = 0; r < rows; ++r)
      d[r * dst.stride] = FirstExtreme<K, kMax>(s + r * row_bytes, element_bytes, cols);
  } else {
    for (size_t c = 0; c < cols; ++c)
      d[c] = FirstExtreme<K, kMax>(s + c * element_bytes, row_bytes, rows);
  }
}

template <bool kMax>
void ArgReduceIn(pto_dtype dtype, bool along_rows, size_t rows, size_t cols, const Plane& dst,
                 const ConstPlane& src) {
  const size_t size = pto_dtype_size(dtype);
  switch (dtype) {
    case PTO_INT8: return ArgReduceTyped<IntegerKey<int8_t>, kMax>(along_rows, size, rows, cols, dst, src);
    case PTO_UINT8: return ArgReduceTyped<IntegerKey<uint8_t>, kMax>(along_rows, size, rows, cols, dst, src);
    case PTO_INT16: return ArgReduceTyped<IntegerKey<int16_t>, kMax>(along_rows, size, rows, cols, dst, src);
    case PTO_UINT16: return ArgReduceTyped<IntegerKey<uint16_t>, kMax>(along_rows, size, rows, cols, dst, src);
    case PTO_INT32: return ArgReduceTyped<IntegerKey<int32_t>, kMax>(along_rows, size, rows, cols, dst, src);
    case PTO_UINT32: return ArgReduceTyped<IntegerKey<uint32_t>, kMax>(along_rows, size, rows, cols, dst, src);
    case PTO_FLOAT16: return ArgReduceTyped<FloatKey<uint16_t, 0x7C00>, kMax>(along_rows, size, rows, cols, dst, src);
    case PTO_BFLOAT16: return ArgReduceTyped<FloatKey<uint16_t, 0x7F80>, kMax>(along_rows, size, rows, cols, dst, src);
    case PTO_FLOAT32: return ArgReduceTyped<FloatKey<uint32_t, 0x7F800000u>, kMax>(along_rows, size, rows, cols, dst, src);
    default: break;  // INT64, UINT64, the low-precision types: no index reduction lists them
  }
}

// A FLOAT16 or FLOAT32 element's value, exactly.
float FloatAt(bool half, const char* p) {
  if (!half) {
    float f;
    memcpy(&f, p, sizeof f);
    return f;
  }
  uint16_t h;
  memcpy(&h, p, sizeof h);
  const int exponent = (h >> 10) & 0x1F, mantissa = h & 0x3FF;
  const float sign = (h & 0x8000) != 0 ? -1.0f : 1.0f;
  if (exponent == 0x1F) return mantissa != 0 ? NAN : sign * INFINITY;
  if (exponent == 0) return sign * ldexpf(static_cast<float>(mantissa), -24);
  return sign * ldexpf(static_cast<float>(mantissa | 0x400), exponent - 25);
}

// Whether a is better than b: larger (largest) or smaller; false with a NaN.
inline bool Better(bool largest, float a, float b) { return largest ? a > b : a < b; }

// Source 0 or 1 for an element both sources hold.
inline int Pick(bool largest, PartArgRule rule, float a, float b) {
  switch (rule) {
    case PartArgRule::kSrc0IfBetter: return Better(largest, a, b) ? 0 : 1;
    case PartArgRule::kSrc0IfNotWorse: return Better(largest, a, b) || a == b ? 0 : 1;
    default: return Better(largest, b, a) ? 1 : 0;
  }
}

}  // namespace

void PartArg(bool largest, PartArgRule rule, pto_dtype dtype, size_t idx_bytes, size_t rows,
             size_t cols, const PartArgTiles& t) {
  const size_t size = pto_dtype_size(dtype);
  const bool half = dtype == PTO_FLOAT16;
  for (size_t i = 0; i < rows; ++i)
    for (size_t j = 0; j < cols; ++j) {
      const bool in0 = i < t.rows[0] && j < t.cols[0], in1 = i < t.rows[1] && j < t.cols[1];
      const char* v[2] = {static_cast<const char*>(t.src[0].data) + (i * t.src[0].stride + j) * size,
                          static_cast<const char*>(t.src[1].data) + (i * t.src[1].stride + j) * size};
      const int k = in0 && in1 ? Pick(largest, rule, FloatAt(half, v[0]), FloatAt(half, v[1]))
                               : in0 ? 0 : 1;
      // Read both of the picked source's elements before either is written.
      char value[4], index[4];
      memcpy(value, v[k], size);
      memcpy(index, static_cast<const char*>(t.idx[k].data) + (i * t.idx[k].stride + j) * idx_bytes,
             idx_bytes);
      memcpy(static_cast<char*>(t.dst.data) + (i * t.dst.stride + j) * size, value, size);
      memcpy(static_cast<char*>(t.dst_idx.data) + (i * t.dst_idx.stride + j) * idx_bytes, index,
             idx_bytes);
    }
}

void ArgReduce(bool largest, bool along_rows, pto_dtype dtype, size_t rows, size_t cols,
               const Plane& dst, const ConstPlane& src) {
  if (largest)
    ArgReduceIn<true>(dtype, along_rows, rows, cols, dst, src);
  else
    ArgReduceIn<false>(dtype, along_rows, rows, cols, dst, src);
}

}  // namespace kernels
}  // namespace pto
