// Whether two tiles' valid elements share storage, by memory address.
#ifndef PTO_OVERLAP_H_
#define PTO_OVERLAP_H_

#include "tile.h"

namespace pto {

// Identical placement: the same start address, dtype and cols, so element
// (i, j) of one is element (i, j) of the other. Such a source is in place.
inline bool SamePlacement(const pto_tile* a, const pto_tile* b) {
  return a->data == b->data && a->dtype == b->dtype && a->cols == b->cols;
}

// Whether some byte belongs to an element of a's valid region and to one of
// b's (row stride = cols), decided exactly.
bool ValidRegionsOverlapSlow(const pto_tile* a, const pto_tile* b);

// The same, cheap in the common case: two owned tiles are separate
// allocations, so only a placed tile (which may sit in a buffer wrapping any
// memory, even another tile's) needs the arithmetic.
inline bool ValidRegionsOverlap(const pto_tile* a, const pto_tile* b) {
  if (a->buffer == nullptr && b->buffer == nullptr) return a == b && a->valid_rows != 0 &&
                                                           a->valid_cols != 0;
  return ValidRegionsOverlapSlow(a, b);
}

// A conversion in place whose order of elements is well defined: src and dst
// start at the same byte, dst's elements are no wider than src's and dst's
// rows no longer in bytes. Converting rows in order, each row's source read
// before its destination is written, then reads every source element before
// any byte of it is overwritten (dst row i ends at or before src row i + 1
// starts, and dst element j at or before src element j).
bool ConvertsInPlaceInOrder(const pto_tile* src, const pto_tile* dst);

// Where src's rows lie under dst's when dst's valid rows are written in
// order, each after its source row is read: kApart (no shared byte),
// kRowOrder (dst row i shares bytes only with source rows r < i, already
// read, or exactly with row i: same start and byte length) or kClobbers (dst
// row `dst_row` covers source row `src_row` >= i before it is read, or lies
// on row i inexactly).
struct RowOrder {
  enum Kind { kApart, kRowOrder, kClobbers } kind = kApart;
  uint32_t dst_row = 0, src_row = 0;
};
RowOrder RowOrderOf(const pto_tile* src, const pto_tile* dst);

// Some NPU implementations (A2A3's conversion and binary operations) run
// every valid row's whole 256-byte repeats (E = 256 / the larger element size
// elements) before one pass over every row's remaining columns: whether,
// with storage shared in row order, a dst row's repeats overwrite an
// earlier source row's remainder before it is read. On true, *dst_row and
// *src_row name the first such pair and *whole the columns the repeats cover.
bool RepeatsOverwriteEarlierRemainder(const pto_tile* src, const pto_tile* dst,
                                      uint32_t* dst_row, uint32_t* src_row, uint32_t* whole);

}  // namespace pto

#endif  // PTO_OVERLAP_H_
