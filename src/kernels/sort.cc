// TSORT32 and TMRGSORT's single-list form: value-index pairs in descending
// order of value. Plain loops over exact keys (no SIMD: a sort is compares
// and moves), the same result on every target.
//
// Order: a value before a smaller one; NaN before every number (the pages
// leave NaN's place undefined); equal values (+0 and -0 among them) by the
// smaller index (tsort32) or the earlier list (tmrgsort's merge), as
// pto-isa's CPU model breaks ties. A pair is 8 bytes: the value's bits (a
// 2-byte value zero-padded to 4 bytes), then the index as a uint32.
#include <stdint.h>
#include <string.h>

#include <algorithm>

#include "src/kernels/kernels.h"

namespace pto {
namespace kernels {
namespace {

struct Pair {
  float key;  // the value, exactly (every 2- and 4-byte value of these dtypes is a float)
  bool nan;
  uint32_t index;
  uint32_t bits;  // the value's own bits
};

// Whether a goes before b in descending order.
inline bool Greater(const Pair& a, const Pair& b) {
  if (a.nan || b.nan) return a.nan && !b.nan;
  return a.key > b.key;
}

Pair PairOf(pto_dtype dtype, const char* value, uint32_t index) {
  Pair p;
  p.index = index;
  p.bits = 0;
  const size_t size = dtype == PTO_FLOAT32 || dtype == PTO_INT32 ? 4 : 2;
  memcpy(&p.bits, value, size);
  if (dtype == PTO_INT32) {
    int32_t v;
    memcpy(&v, value, 4);
    p.key = static_cast<float>(v);  // only for order: ties of rounded keys are settled below
  } else if (dtype == PTO_INT16) {
    int16_t v;
    memcpy(&v, value, 2);
    p.key = v;
  } else {
    ToF32(dtype, 1, &p.key, value);
  }
  p.nan = p.key != p.key;
  return p;
}

// a before b for an integer dtype compares the integers, not their float keys.
bool Before(pto_dtype dtype, const Pair& a, const Pair& b) {
  if (dtype == PTO_INT32) {
    const int32_t x = static_cast<int32_t>(a.bits), y = static_cast<int32_t>(b.bits);
    return x > y;
  }
  return Greater(a, b);
}

void WritePair(pto_dtype dtype, char* out, const Pair& p) {
  const uint32_t value = dtype == PTO_FLOAT32 || dtype == PTO_INT32 ? p.bits : p.bits & 0xFFFFu;
  memcpy(out, &value, 4);
  memcpy(out + 4, &p.index, 4);
}

Pair ReadPair(pto_dtype dtype, const char* in) {
  uint32_t index;
  memcpy(&index, in + 4, 4);
  return PairOf(dtype, in, index);
}

}  // namespace

void Sort32(pto_dtype dtype, size_t rows, size_t cols, const Plane& dst, const ConstPlane& src,
            const ConstPlane& idx) {
  const size_t size = dtype == PTO_FLOAT32 || dtype == PTO_INT32 ? 4 : 2;
  Pair block[32];
  for (size_t r = 0; r < rows; ++r) {
    const char* in = static_cast<const char*>(src.data) + r * src.stride * size;
    const uint32_t* ids = static_cast<const uint32_t*>(idx.data) + r * idx.stride;
    char* out = static_cast<char*>(dst.data) + r * dst.stride * size;
    for (size_t c = 0; c < cols; c += 32) {
      const size_t n = std::min<size_t>(32, cols - c);
      for (size_t k = 0; k < n; ++k) block[k] = PairOf(dtype, in + (c + k) * size, ids[c + k]);
      std::stable_sort(block, block + n, [dtype](const Pair& a, const Pair& b) {
        if (Before(dtype, a, b)) return true;
        if (Before(dtype, b, a)) return false;
        return a.index < b.index;
      });
      for (size_t k = 0; k < n; ++k) WritePair(dtype, out + (c + k) * 8, block[k]);
    }
  }
}

void MergeLists(pto_dtype dtype, size_t count, const void* const* lists, const size_t* pairs,
                bool exhausted, size_t dst_pairs, void* dst, size_t* taken) {
  char* out = static_cast<char*>(dst);
  for (size_t k = 0; k < count; ++k) taken[k] = 0;
  for (size_t n = 0;; ++n) {
    // The first list with pairs left, then a later one only where its head
    // goes strictly before (ties: the earlier list).
    int pick = -1;
    Pair best{};
    for (size_t k = 0; k < count; ++k) {
      if (taken[k] == pairs[k]) continue;
      const Pair head = ReadPair(dtype, static_cast<const char*>(lists[k]) + taken[k] * 8);
      if (pick < 0 || Before(dtype, head, best)) {
        pick = static_cast<int>(k);
        best = head;
      }
    }
    if (pick < 0) return;
    if (n < dst_pairs) WritePair(dtype, out + n * 8, best);
    if (++taken[pick] == pairs[pick] && exhausted) return;
  }
}

void MergeSort4(pto_dtype dtype, size_t pairs, size_t block_pairs, void* dst, const void* src) {
  const char* in = static_cast<const char*>(src);
  char* out = static_cast<char*>(dst);
  const size_t lengths[4] = {block_pairs, block_pairs, block_pairs, block_pairs};
  size_t taken[4];
  for (size_t base = 0; base + 4 * block_pairs <= pairs; base += 4 * block_pairs) {
    const void* lists[4];
    for (size_t k = 0; k < 4; ++k) lists[k] = in + (base + k * block_pairs) * 8;
    MergeLists(dtype, 4, lists, lengths, false, 4 * block_pairs, out + base * 8, taken);
  }
}

}  // namespace kernels
}  // namespace pto
