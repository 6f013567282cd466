// The index reductions (TROWARGMAX, TROWARGMIN, TCOLARGMAX, TCOLARGMIN):
// plain loops, each element compared as an integer key that orders the
// values exactly (floats: -0 below +0, a NaN taken apart), so every target
// gives the same indices.
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

}  // namespace

void ArgReduce(bool largest, bool along_rows, pto_dtype dtype, size_t rows, size_t cols,
               const Plane& dst, const ConstPlane& src) {
  if (largest)
    ArgReduceIn<true>(dtype, along_rows, rows, cols, dst, src);
  else
    ArgReduceIn<false>(dtype, along_rows, rows, cols, dst, src);
}

}  // namespace kernels
}  // namespace pto
