// The data-movement kernels: loops that move or make elements without
// arithmetic on them (tgather, tscatter, tci; ttrans is transpose.cc's),
// element by element in plain C++. A moved element is copied by its size, so its bits are kept
// whatever the dtype.
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "dtype_rules.h"
#include "src/kernels/kernels.h"

namespace pto {
namespace kernels {
namespace {

template <typename T, typename I>
void GatherAs(size_t rows, size_t cols, const Plane& dst, const void* src,
              const ConstPlane& indices) {
  const T* in = static_cast<const T*>(src);
  const I* index = static_cast<const I*>(indices.data);
  T* out = static_cast<T*>(dst.data);
  for (size_t i = 0; i < rows; ++i) {
    const I* row = index + i * indices.stride;
    T* to = out + i * dst.stride;
    for (size_t j = 0; j < cols; ++j) to[j] = in[static_cast<size_t>(row[j])];
  }
}

template <typename T>
void GatherBy(size_t index_bytes, size_t rows, size_t cols, const Plane& dst, const void* src,
              const ConstPlane& indices) {
  if (index_bytes == 2) return GatherAs<T, uint16_t>(rows, cols, dst, src, indices);
  GatherAs<T, uint32_t>(rows, cols, dst, src, indices);
}

template <typename T>
void GatherColumnsAs(size_t rows, size_t cols, size_t period, size_t phase, void* dst,
                     const ConstPlane& src) {
  T* out = static_cast<T*>(dst);
  const T* in = static_cast<const T*>(src.data);
  for (size_t i = 0; i < rows; ++i) {
    const T* from = in + i * src.stride;
    for (size_t j = phase; j < cols; j += period) *out++ = from[j];
  }
}

// src's rows x cols spread into dst's: src[i][j] to dst[i * row_step +
// row_phase][j * col_step + col_phase] (dst's other elements untouched).
template <typename T>
void SpreadAs(size_t rows, size_t cols, size_t row_step, size_t row_phase, size_t col_step,
              size_t col_phase, const Plane& dst, const ConstPlane& src) {
  T* out = static_cast<T*>(dst.data);
  const T* in = static_cast<const T*>(src.data);
  for (size_t i = 0; i < rows; ++i) {
    T* to = out + (i * row_step + row_phase) * dst.stride + col_phase;
    const T* from = in + i * src.stride;
    for (size_t j = 0; j < cols; ++j) to[j * col_step] = from[j];
  }
}

// dst's dst_elements zeroed, then src[i][j] to dst's element indices[i][j]
// in row order (a later index of the same element wins).
template <typename T, typename I>
void ScatterAs(size_t dst_elements, size_t rows, size_t cols, void* dst, const ConstPlane& src,
               const ConstPlane& indices) {
  T* out = static_cast<T*>(dst);
  const T* in = static_cast<const T*>(src.data);
  const I* index = static_cast<const I*>(indices.data);
  memset(out, 0, dst_elements * sizeof(T));
  for (size_t i = 0; i < rows; ++i) {
    const I* row = index + i * indices.stride;
    const T* from = in + i * src.stride;
    for (size_t j = 0; j < cols; ++j) out[static_cast<size_t>(row[j])] = from[j];
  }
}

template <typename T>
void ScatterBy(size_t index_bytes, size_t dst_elements, size_t rows, size_t cols, void* dst,
               const ConstPlane& src, const ConstPlane& indices) {
  if (index_bytes == 2) return ScatterAs<T, uint16_t>(dst_elements, rows, cols, dst, src, indices);
  ScatterAs<T, uint32_t>(dst_elements, rows, cols, dst, src, indices);
}

}  // namespace

void Gather(size_t element_bytes, size_t index_bytes, size_t rows, size_t cols, const Plane& dst,
            const void* src, const ConstPlane& indices) {
  switch (element_bytes) {
    case 1: return GatherBy<uint8_t>(index_bytes, rows, cols, dst, src, indices);
    case 2: return GatherBy<uint16_t>(index_bytes, rows, cols, dst, src, indices);
    case 8: return GatherBy<uint64_t>(index_bytes, rows, cols, dst, src, indices);
    default: return GatherBy<uint32_t>(index_bytes, rows, cols, dst, src, indices);
  }
}

void Interleave(bool interleave, size_t element_bytes, size_t rows, size_t cols, const Plane& dst0,
                const Plane& dst1, const ConstPlane& src0, const ConstPlane& src1) {
  const size_t e = element_bytes;
  for (size_t i = 0; i < rows; ++i) {
    char* d[2] = {static_cast<char*>(dst0.data) + i * dst0.stride * e,
                  static_cast<char*>(dst1.data) + i * dst1.stride * e};
    const char* s[2] = {static_cast<const char*>(src0.data) + i * src0.stride * e,
                        static_cast<const char*>(src1.data) + i * src1.stride * e};
    // Stream position p (0 <= p < 2 cols): interleave's element p / 2 of
    // source p % 2, deinterleave's element p % cols of source p / cols; dst
    // p % 2 at p / 2 (deinterleave) or dst p / cols at p % cols (interleave).
    for (size_t p = 0; p < 2 * cols; ++p) {
      const char* from = interleave ? s[p % 2] + (p / 2) * e : s[p / cols] + (p % cols) * e;
      char* to = interleave ? d[p / cols] + (p % cols) * e : d[p % 2] + (p / 2) * e;
      memcpy(to, from, e);
    }
  }
}

void GatherBlocks(size_t rows, size_t row_bytes, const Plane& dst, const void* src,
                  const ConstPlane& offsets) {
  constexpr size_t kBlock = 32;
  const uint8_t* in = static_cast<const uint8_t*>(src);
  const uint32_t* offset = static_cast<const uint32_t*>(offsets.data);
  for (size_t i = 0; i < rows; ++i) {
    uint8_t* to = static_cast<uint8_t*>(dst.data) + i * dst.stride;
    const uint32_t* row = offset + i * offsets.stride;
    for (size_t k = 0, at = 0; at < row_bytes; ++k, at += kBlock)
      memcpy(to + at, in + row[k], std::min(kBlock, row_bytes - at));
  }
}

void GatherColumns(size_t element_bytes, size_t rows, size_t cols, size_t period, size_t phase,
                   void* dst, const ConstPlane& src) {
  switch (element_bytes) {
    case 1: return GatherColumnsAs<uint8_t>(rows, cols, period, phase, dst, src);
    case 2: return GatherColumnsAs<uint16_t>(rows, cols, period, phase, dst, src);
    case 4: return GatherColumnsAs<uint32_t>(rows, cols, period, phase, dst, src);
    default: return GatherColumnsAs<uint64_t>(rows, cols, period, phase, dst, src);
  }
}

void Spread(size_t element_bytes, size_t rows, size_t cols, size_t row_step, size_t row_phase,
            size_t col_step, size_t col_phase, const Plane& dst, const ConstPlane& src) {
  switch (element_bytes) {
    case 1: return SpreadAs<uint8_t>(rows, cols, row_step, row_phase, col_step, col_phase, dst, src);
    case 2: return SpreadAs<uint16_t>(rows, cols, row_step, row_phase, col_step, col_phase, dst, src);
    case 4: return SpreadAs<uint32_t>(rows, cols, row_step, row_phase, col_step, col_phase, dst, src);
    default: return SpreadAs<uint64_t>(rows, cols, row_step, row_phase, col_step, col_phase, dst, src);
  }
}

namespace {
// GatherCompareRow over values already as doubles (every value of the
// accepted dtypes is one exactly): the compares, then the indices.
size_t CompareValues(bool greater, size_t n, const double* value, double threshold, uint32_t base,
                     uint32_t* out, size_t count) {
  for (size_t j = 0; j < n; ++j) {
    if (!(greater ? value[j] > threshold : value[j] == threshold)) continue;
    if (out != nullptr) out[count] = base + static_cast<uint32_t>(j);
    ++count;
  }
  return count;
}

template <typename T>
void RowValues(const void* row, size_t from, size_t n, double* value) {
  for (size_t j = 0; j < n; ++j) {
    T e;
    memcpy(&e, static_cast<const char*>(row) + (from + j) * sizeof(T), sizeof e);
    value[j] = static_cast<double>(e);
  }
}
}  // namespace

size_t GatherCompareRow(pto_dtype src_dtype, bool greater, size_t cols, const void* row,
                        double threshold, uint32_t base, uint32_t* out) {
  // In chunks of 64 elements, each decoded to doubles first.
  constexpr size_t kChunk = 64;
  double value[kChunk];
  float narrow[kChunk];
  size_t count = 0;
  for (size_t from = 0; from < cols; from += kChunk) {
    const size_t n = std::min(kChunk, cols - from);
    switch (src_dtype) {
      case PTO_INT16: RowValues<int16_t>(row, from, n, value); break;
      case PTO_UINT16: RowValues<uint16_t>(row, from, n, value); break;
      case PTO_INT32: RowValues<int32_t>(row, from, n, value); break;
      case PTO_UINT32: RowValues<uint32_t>(row, from, n, value); break;
      default:  // FLOAT16, FLOAT32: through float32, which holds them exactly
        ToF32(src_dtype, n, narrow,
              static_cast<const char*>(row) + from * ElementBytes(src_dtype));
        for (size_t j = 0; j < n; ++j) value[j] = narrow[j];
        break;
    }
    count = CompareValues(greater, n, value, threshold, base + static_cast<uint32_t>(from), out,
                          count);
  }
  return count;
}

void Scatter(size_t element_bytes, size_t index_bytes, size_t dst_elements, size_t rows,
             size_t cols, void* dst, const ConstPlane& src, const ConstPlane& indices) {
  switch (element_bytes) {
    case 1: return ScatterBy<uint8_t>(index_bytes, dst_elements, rows, cols, dst, src, indices);
    case 2: return ScatterBy<uint16_t>(index_bytes, dst_elements, rows, cols, dst, src, indices);
    case 8: return ScatterBy<uint64_t>(index_bytes, dst_elements, rows, cols, dst, src, indices);
    default: return ScatterBy<uint32_t>(index_bytes, dst_elements, rows, cols, dst, src, indices);
  }
}

double ValueInDtype(pto_dtype dtype, double value) {
  // A NaN is the positive quiet NaN whatever its sign and payload (neither
  // has a meaning in arithmetic, and a double's payload has no element-type
  // counterpart), so every way of giving it computes the same.
  if (std::isnan(value)) return std::nan("");
  if (!IsFloatDtype(dtype) || dtype == PTO_FLOAT32)
    return dtype == PTO_FLOAT32 ? static_cast<double>(static_cast<float>(value)) : value;
  float f = static_cast<float>(value);
  if (std::isfinite(f) && static_cast<double>(f) != value) {
    if (std::fabs(static_cast<double>(f)) > std::fabs(value)) f = std::nextafter(f, 0.0f);
    uint32_t bits;
    memcpy(&bits, &f, sizeof bits);
    bits |= 1;  // round to odd: the sticky bit of what was cut
    memcpy(&f, &bits, sizeof bits);
  }
  uint16_t narrow = 0;
  FromF32(dtype, 1, &narrow, &f);
  float back = 0;
  ToF32(dtype, 1, &back, &narrow);
  return back;
}

void Sequence(pto_dtype dtype, size_t rows, size_t cols, const Plane& dst, double start,
              bool down) {
  const size_t size = ElementBytes(dtype);
  std::vector<float> row(IsFloatDtype(dtype) ? cols : 0);
  for (size_t i = 0; i < rows; ++i) {
    char* out = static_cast<char*>(dst.data) + i * dst.stride * size;
    const uint64_t first = static_cast<uint64_t>(i) * cols;
    if (IsFloatDtype(dtype)) {
      for (size_t j = 0; j < cols; ++j) {
        const double k = static_cast<double>(first + j);
        row[j] = static_cast<float>(ValueInDtype(dtype, down ? start - k : start + k));
      }
      FromF32(dtype, cols, out, row.data());
      continue;
    }
    // The integer start plus or minus k, low bits.
    const uint64_t base = static_cast<uint64_t>(static_cast<int64_t>(start));
    for (size_t j = 0; j < cols; ++j) {
      const uint64_t v = down ? base - (first + j) : base + (first + j);
      if (size == 2) {
        const uint16_t e = static_cast<uint16_t>(v);
        memcpy(out + j * 2, &e, 2);
      } else {
        const uint32_t e = static_cast<uint32_t>(v);
        memcpy(out + j * 4, &e, 4);
      }
    }
  }
}

// Each row: the columns before the boundary get one value, the rest the
// other (lower: ones through column i + diagonal; upper: zeros before column
// i + diagonal), as element bit patterns of the dtype.
void Triangle(pto_dtype dtype, size_t rows, size_t cols, const Plane& dst, int64_t diagonal,
              bool upper) {
  const size_t size = ElementBytes(dtype);
  uint64_t one = 1;
  if (dtype == PTO_FLOAT32) one = 0x3F800000u;
  if (dtype == PTO_FLOAT16) one = 0x3C00u;
  if (dtype == PTO_BFLOAT16) one = 0x3F80u;
  const uint64_t zero = 0;
  for (size_t i = 0; i < rows; ++i) {
    char* out = static_cast<char*>(dst.data) + i * dst.stride * size;
    // lower: first column of zeros i + diagonal + 1; upper: first column of ones i + diagonal
    const int64_t edge = static_cast<int64_t>(i) + diagonal + (upper ? 0 : 1);
    const size_t split = static_cast<size_t>(std::clamp<int64_t>(edge, 0, static_cast<int64_t>(cols)));
    const uint64_t before = upper ? zero : one, after = upper ? one : zero;
    for (size_t j = 0; j < cols; ++j) {
      const uint64_t v = j < split ? before : after;
      const uint8_t v8 = static_cast<uint8_t>(v);
      const uint16_t v16 = static_cast<uint16_t>(v);
      const uint32_t v32 = static_cast<uint32_t>(v);
      const void* from = size == 1 ? static_cast<const void*>(&v8)
                         : size == 2 ? static_cast<const void*>(&v16)
                         : size == 4 ? static_cast<const void*>(&v32)
                                     : static_cast<const void*>(&v);
      memcpy(out + j * size, from, size);
    }
  }
}

}  // namespace kernels
}  // namespace pto
