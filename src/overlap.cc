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

}  // namespace pto
