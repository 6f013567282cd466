// TPAIRREDUCESUM's pair sums and THISTOGRAM's byte counts: plain loops over
// rows. A pair sum is one float32 addition of two FLOAT32 or FLOAT16 values,
// rounded once to the dtype: for FLOAT16 the float32 sum then rounded to
// FLOAT16 is the exact sum rounded once (24 >= 2 x 11 + 2 bits, so the
// double rounding is innocuous). The counts are exact integers.
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <array>

#include "src/kernels/kernels.h"

namespace pto {
namespace kernels {

void PairSum(pto_dtype dtype, size_t rows, size_t cols, const Plane& dst, const ConstPlane& src) {
  // Pairs a pass, widened on the stack (no allocation, nothing that could
  // fail). In place, a pass reads sources from 2 k0 on and writes from k0:
  // no later pass's sources are written before it reads them.
  constexpr size_t kChunk = 256;
  float in[2 * kChunk], out[kChunk];
  const size_t size = dtype == PTO_FLOAT32 ? 4 : 2;
  const size_t half = (cols + 1) / 2;
  for (size_t i = 0; i < rows; ++i) {
    const char* from = static_cast<const char*>(src.data) + i * src.stride * size;
    char* to = static_cast<char*>(dst.data) + i * dst.stride * size;
    for (size_t k0 = 0; k0 < half; k0 += kChunk) {
      const size_t n = half - k0 < kChunk ? half - k0 : kChunk;
      const size_t count = 2 * n < cols - 2 * k0 ? 2 * n : cols - 2 * k0;
      ToF32(dtype, count, in, from + 2 * k0 * size);
      if (count < 2 * n) in[count] = 0.0f;  // the element past an odd row's last counts as 0
      for (size_t k = 0; k < n; ++k) out[k] = in[2 * k] + in[2 * k + 1];
      FromF32(dtype, n, to + k0 * size, out);
    }
    memset(to + half * size, 0, (cols - half) * size);  // +0 in FLOAT32 and FLOAT16
  }
}

namespace {

// Whether a UINT32 element's bytes above `byte` equal the filter bytes
// (filter[0] byte 3, filter[1] byte 2, filter[2] byte 1).
bool PassesFilter(uint32_t x, unsigned byte, const uint8_t filter[3]) {
  for (unsigned b = 3, k = 0; b > byte; --b, ++k)
    if (((x >> (8 * b)) & 0xFFu) != filter[k]) return false;
  return true;
}

void StoreCumulative(const std::array<uint32_t, 256>& counts, uint32_t* row) {
  uint32_t total = 0;
  for (size_t b = 0; b < 256; ++b) {
    total += counts[b];
    row[b] = total;
  }
}

}  // namespace

void Histogram(bool wide, unsigned byte, size_t rows, size_t cols, const Plane& dst,
               const ConstPlane& src, const ConstPlane& idx) {
  const uint8_t* filter_rows = static_cast<const uint8_t*>(idx.data);
  uint8_t filter[3] = {0, 0, 0};
  if (wide)
    for (unsigned k = 0; k < 3 - byte; ++k) filter[k] = filter_rows[k * idx.stride];
  for (size_t i = 0; i < rows; ++i) {
    std::array<uint32_t, 256> counts{};
    if (wide) {
      const uint32_t* row = static_cast<const uint32_t*>(src.data) + i * src.stride;
      for (size_t j = 0; j < cols; ++j)
        if (PassesFilter(row[j], byte, filter)) ++counts[(row[j] >> (8 * byte)) & 0xFFu];
    } else {
      const uint16_t* row = static_cast<const uint16_t*>(src.data) + i * src.stride;
      const unsigned upper = byte == 0 ? filter_rows[i * idx.stride] : 0;
      for (size_t j = 0; j < cols; ++j) {
        const unsigned x = row[j];
        if (byte == 1) ++counts[x >> 8];
        else if ((x >> 8) == upper) ++counts[x & 0xFFu];
      }
    }
    StoreCumulative(counts, static_cast<uint32_t*>(dst.data) + i * dst.stride);
  }
}

}  // namespace kernels
}  // namespace pto
