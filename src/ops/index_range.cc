// The index rule of tgather and tscatter (ops/element_access.cc): every
// index of an index tile names an element of the target's valid region,
// checked over all indices before anything is written.
#include <stddef.h>
#include <stdint.h>

#include "board.h"
#include "ops/common.h"

namespace pto {
namespace ops {

namespace {

// Index (i, j) of an index tile, widened (negative ones stay negative;
// every value of the index dtypes is exact in a double).
int64_t IndexAt(const pto_tile* t, size_t i, size_t j) {
  return static_cast<int64_t>(ElementValue(t, i * t->cols + j));
}

// Whether every index of indices' valid region names an element of
// target's valid region (tgather's src, tscatter's dst); if not, the first
// that does not (row order) in *bad_i, *bad_j. The common case, target's
// valid rows whole, is one compare an index, without a branch; the position
// is looked for only when one fails.
template <typename I>
bool IndicesInRangeAs(const pto_tile* indices, const pto_tile* target, size_t* bad_i,
                      size_t* bad_j) {
  // A tile holds fewer than 2^32 elements (PTO_TILE_MAX_BYTES): 32 bits
  // hold every offset, and a negative index widened to 32 bits is past them.
  const uint32_t limit = target->valid_rows * target->cols;
  const bool whole_rows = target->valid_cols == target->cols;
  const I* base = static_cast<const I*>(indices->data);
  for (size_t i = 0; i < indices->valid_rows; ++i) {
    const I* row = base + i * indices->cols;
    bool bad = false;
    if (whole_rows) {
      // k >= limit, or k >= 2^31 (limit < 2^31), sets bit 31 of k | (limit
      // - 1 - k) (unsigned, wrapping): one OR an index, no compare.
      const uint32_t last = limit - 1;
      uint32_t any = 0;
      for (size_t j = 0; j < indices->valid_cols; ++j) {
        const uint32_t k = static_cast<uint32_t>(static_cast<int32_t>(row[j]));
        any |= k | (last - k);
      }
      bad = (any >> 31) != 0;
    } else {
      for (size_t j = 0; j < indices->valid_cols; ++j) {
        const uint32_t k = static_cast<uint32_t>(static_cast<int32_t>(row[j]));
        bad |= k >= limit || k % target->cols >= target->valid_cols;
      }
    }
    if (!bad) continue;
    for (size_t j = 0;; ++j) {
      const uint32_t k = static_cast<uint32_t>(static_cast<int32_t>(row[j]));
      if (k >= limit || k % target->cols >= target->valid_cols) {
        *bad_i = i, *bad_j = j;
        return false;
      }
    }
  }
  return true;
}

bool IndicesInRange(const pto_tile* indices, const pto_tile* target, size_t* bad_i,
                    size_t* bad_j) {
  switch (indices->dtype) {
    case PTO_INT16: return IndicesInRangeAs<int16_t>(indices, target, bad_i, bad_j);
    case PTO_UINT16: return IndicesInRangeAs<uint16_t>(indices, target, bad_i, bad_j);
    case PTO_INT32: return IndicesInRangeAs<int32_t>(indices, target, bad_i, bad_j);
    default: return IndicesInRangeAs<uint32_t>(indices, target, bad_i, bad_j);
  }
}

}  // namespace

// The rule that every index names an element of `target_name`'s valid
// region, the first index in row order that does not quoted. The indices
// are read once to check them all before anything is written.
Validator& RequireIndicesInRange(Validator& v, const pto_tile* indices, const char* target_name,
                                 const pto_tile* target) {
  size_t bad_i = 0, bad_j = 0;
  if (IndicesInRange(indices, target, &bad_i, &bad_j)) return v;
  return v.Require(false, PTO_ERR_OUT_OF_RANGE,
                   "indices (%zu, %zu) is %lld, which names no element of %s's valid region "
                   "%ux%u (an index is row * %u + col)",
                   bad_i, bad_j, static_cast<long long>(IndexAt(indices, bad_i, bad_j)),
                   target_name, target->valid_rows, target->valid_cols, target->cols);
}

Validator& RequireIndicesInRangeOrBoard(Validator& v, const pto_tile* indices,
                                        const char* target_name, const pto_tile* target,
                                        pto_profile profile) {
  if (!BoardRelaxes(profile)) return RequireIndicesInRange(v, indices, target_name, target);
  size_t bad_i = 0, bad_j = 0;
  if (IndicesInRange(indices, target, &bad_i, &bad_j)) return v;
  // Every index against target's whole storage: its valid region widened to
  // its rows x cols.
  pto_tile storage = *target;
  storage.valid_rows = target->rows;
  storage.valid_cols = target->cols;
  size_t out_i = 0, out_j = 0;
  if (!IndicesInRange(indices, &storage, &out_i, &out_j))
    return v.Require(false, PTO_ERR_OUT_OF_RANGE,
                     "indices (%zu, %zu) is %lld, which names no element of %s's %ux%u storage "
                     "(an index is row * %u + col)",
                     out_i, out_j, static_cast<long long>(IndexAt(indices, out_i, out_j)),
                     target_name, target->rows, target->cols, target->cols);
  return v.RequireOrBoard(false, true, profile, PTO_ERR_OUT_OF_RANGE,
                          "indices (%zu, %zu) is %lld, which names no element of %s's valid "
                          "region %ux%u (%s reads it from %s's %ux%u storage)",
                          bad_i, bad_j, static_cast<long long>(IndexAt(indices, bad_i, bad_j)),
                          target_name, target->valid_rows, target->valid_cols,
                          pto_profile_string(profile), target_name, target->rows, target->cols);
}

}  // namespace ops
}  // namespace pto
