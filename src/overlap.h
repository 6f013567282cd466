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

}  // namespace pto

#endif  // PTO_OVERLAP_H_
