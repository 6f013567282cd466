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

bool RepeatsOverwriteEarlierRemainder(const pto_tile* src, const pto_tile* dst,
                                      uint32_t* dst_row, uint32_t* src_row) {
  const uint64_t src_size = pto_dtype_size(src->dtype), dst_size = pto_dtype_size(dst->dtype);
  const uint64_t repeat = 256 / std::max(src_size, dst_size);  // elements per repeat
  const uint64_t cols = dst->valid_cols;
  const uint64_t whole = cols / repeat * repeat;  // columns the repeats convert
  if (whole == 0 || whole == cols) return false;
  const uint64_t src_stride = src->cols * src_size, dst_stride = dst->cols * dst_size;
  // Source row r's remainder is bytes [r*S + whole*ss, r*S + cols*ss); dst
  // row i's repeats write [i*D, i*D + whole*ds). Both move forward with their
  // row, so for each i the rows r that meet it are one range, found by
  // division.
  const uint64_t tail_begin = whole * src_size, tail_end = cols * src_size;
  for (uint64_t i = 1; i < dst->valid_rows; ++i) {
    const uint64_t lo = i * dst_stride, hi = lo + whole * dst_size;
    // r meets i when r*S + tail_begin < hi and r*S + tail_end > lo.
    if (hi <= tail_begin) continue;
    const uint64_t r_last = std::min<uint64_t>((hi - tail_begin - 1) / src_stride, i - 1);
    const uint64_t r_first = lo < tail_end ? 0 : (lo - tail_end) / src_stride + 1;
    if (r_first <= r_last) {
      *dst_row = static_cast<uint32_t>(i);
      *src_row = static_cast<uint32_t>(r_first);
      return true;
    }
  }
  return false;
}

}  // namespace pto
