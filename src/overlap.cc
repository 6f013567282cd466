// Exact overlap of two tiles' valid elements, by arithmetic on row ranges.
//
// A tile's valid elements are `count` byte intervals of `length` bytes whose
// starts are `stride` bytes apart. Within the span both tiles cover, the
// pattern of shared bytes repeats every lcm(stride_a, stride_b) bytes (a row
// moved by whole periods is again a row of each tile), so if any byte is
// shared, one is within the first period of that span. Walking the rows of
// the tile with the larger stride through that window and asking, per row,
// whether the first row of the other tile that ends after it starts before
// its end, therefore decides overlap exactly in at most
// min(stride_small / gcd, rows) + 2 steps; equal strides (the usual case)
// take one or two.
#include "overlap.h"

#include <stdint.h>

#include <algorithm>

namespace pto {
namespace {

struct RowRanges {
  uintptr_t start;   // address of element (0, 0)
  uintptr_t stride;  // bytes from one row to the next (cols * element size)
  uintptr_t length;  // valid bytes per row (valid_cols * element size)
  uintptr_t count;   // valid rows
};

RowRanges ValidRowRanges(const pto_tile* t) {
  const uintptr_t size = pto_dtype_size(t->dtype);
  return {reinterpret_cast<uintptr_t>(t->data), t->cols * size, t->valid_cols * size,
          t->valid_rows};
}

// One past the last valid byte; count and length are non-zero.
uintptr_t End(const RowRanges& r) { return r.start + (r.count - 1) * r.stride + r.length; }

// The first row of r that ends after address x.
uintptr_t FirstRowEndingAfter(const RowRanges& r, uintptr_t x) {
  if (x < r.start + r.length) return 0;
  return (x - r.start - r.length) / r.stride + 1;
}

uintptr_t Gcd(uintptr_t a, uintptr_t b) {
  while (b != 0) {
    const uintptr_t t = a % b;
    a = b;
    b = t;
  }
  return a;
}

}  // namespace

bool ValidRegionsOverlapSlow(const pto_tile* a, const pto_tile* b) {
  RowRanges wide = ValidRowRanges(a);
  RowRanges narrow = ValidRowRanges(b);
  if (wide.count == 0 || wide.length == 0 || narrow.count == 0 || narrow.length == 0)
    return false;
  const uintptr_t lo = std::max(wide.start, narrow.start);
  const uintptr_t hi = std::min(End(wide), End(narrow));
  if (lo >= hi) return false;
  if (wide.stride < narrow.stride) std::swap(wide, narrow);
  // Strides are at most PTO_TILE_MAX_BYTES (2^28), so the period fits.
  const uintptr_t period = wide.stride / Gcd(wide.stride, narrow.stride) * narrow.stride;
  const uintptr_t window_end = hi - lo <= period ? hi : lo + period;
  for (uintptr_t i = FirstRowEndingAfter(wide, lo); i < wide.count; ++i) {
    const uintptr_t row_start = wide.start + i * wide.stride;
    if (row_start >= window_end) break;
    const uintptr_t k = FirstRowEndingAfter(narrow, row_start);
    if (k < narrow.count && narrow.start + k * narrow.stride < row_start + wide.length)
      return true;
  }
  return false;
}

bool ConvertsInPlaceInOrder(const pto_tile* src, const pto_tile* dst) {
  const uintptr_t src_size = pto_dtype_size(src->dtype), dst_size = pto_dtype_size(dst->dtype);
  return src->data == dst->data && dst_size <= src_size &&
         dst->cols * dst_size <= src->cols * src_size;
}

RowOrder RowOrderOf(const pto_tile* src, const pto_tile* dst) {
  RowOrder out;
  const RowRanges s = ValidRowRanges(src), d = ValidRowRanges(dst);
  if (s.count == 0 || s.length == 0 || d.count == 0 || d.length == 0) return out;
  for (uintptr_t i = FirstRowEndingAfter(d, s.start); i < d.count; ++i) {
    const uintptr_t lo = d.start + i * d.stride, hi = lo + d.length;
    if (lo >= End(s)) break;
    // Source rows [first, last] share a byte with dst row i.
    const uintptr_t first = FirstRowEndingAfter(s, lo);
    if (first >= s.count || hi <= s.start + first * s.stride) continue;
    const uintptr_t last = std::min((hi - 1 - s.start) / s.stride, s.count - 1);
    const bool exact = s.start + i * s.stride == lo && s.length == d.length;
    if (last > i || (first <= i && i <= last && !exact)) {
      out.kind = RowOrder::kClobbers;
      out.dst_row = static_cast<uint32_t>(i);
      out.src_row = static_cast<uint32_t>(last > i ? std::max(first, i + 1) : i);
      return out;
    }
    out.kind = RowOrder::kRowOrder;
  }
  return out;
}

bool RepeatsOverwriteEarlierRemainder(const pto_tile* src, const pto_tile* dst,
                                      uint32_t* dst_row, uint32_t* src_row, uint32_t* whole) {
  const uintptr_t src_size = pto_dtype_size(src->dtype), dst_size = pto_dtype_size(dst->dtype);
  const uintptr_t repeat = 256 / std::max(src_size, dst_size);  // elements per repeat
  const uintptr_t cols = dst->valid_cols;
  const uintptr_t covered = cols / repeat * repeat;  // columns the repeats convert
  if (covered == 0 || covered == cols) return false;
  // Source row r's remainder is bytes [s + r*S + covered*ss, s + r*S +
  // cols*ss); dst row i's repeats write [d + i*D, d + i*D + covered*ds).
  // Both move forward with their row: the remainders are rows of a tile
  // placed `covered` elements into src.
  pto_tile remainders = *src;
  remainders.data = static_cast<char*>(src->data) + covered * src_size;
  remainders.valid_cols = static_cast<uint32_t>(cols - covered);
  pto_tile repeats = *dst;
  repeats.valid_cols = static_cast<uint32_t>(covered);
  const RowRanges r = ValidRowRanges(&remainders), w = ValidRowRanges(&repeats);
  for (uintptr_t i = 1; i < w.count; ++i) {
    const uintptr_t lo = w.start + i * w.stride, hi = lo + w.length;
    const uintptr_t first = FirstRowEndingAfter(r, lo);
    if (first >= std::min<uintptr_t>(r.count, i) || hi <= r.start + first * r.stride) continue;
    *dst_row = static_cast<uint32_t>(i);
    *src_row = static_cast<uint32_t>(first);
    *whole = static_cast<uint32_t>(covered);
    return true;
  }
  return false;
}

}  // namespace pto
