// MGATHER and MSCATTER (pto_mgather, pto_mscatter): a tile's valid region
// from or to a table in memory by row or element index. Not rows of the
// table: the table is memory, not a tile. Every index is checked before
// anything is read or written, so a refused call changes nothing.
#include <stddef.h>
#include <stdint.h>
#include <string.h>


#include "dtype_rules.h"
#include "kernels/kernels.h"
#include "ops/common.h"
#include "profile.h"
#include "validate.h"
#include "pto_c.h"
#include "tile.h"
#include "validate.h"

namespace pto {
namespace ops {

namespace {

// Whether byte ranges [a, a + n) and [b, b + m) share a byte.
bool BytesOverlap(const void* a, size_t n, const void* b, size_t m) {
  const uintptr_t x = reinterpret_cast<uintptr_t>(a), y = reinterpret_cast<uintptr_t>(b);
  return n != 0 && m != 0 && x < y + m && y < x + n;
}

size_t TileBytes(const pto_tile* t) {
  return size_t{t->rows} * t->cols * pto_dtype_size(t->dtype);
}

// Index k of the indices' valid region in row-major order, as a signed value
// (INT32 read signed, UINT32 unsigned).
int64_t IndexAt(const pto_tile* indices, size_t k) {
  const size_t i = k / indices->valid_cols, j = k % indices->valid_cols;
  const char* at = static_cast<const char*>(indices->data) + (i * indices->cols + j) * 4;
  uint32_t bits;
  memcpy(&bits, at, 4);
  return indices->dtype == PTO_INT32 ? int64_t{static_cast<int32_t>(bits)} : int64_t{bits};
}

// How many table slots the indices address: rows of the tile's valid cols
// (ROW) or elements (ELEM).
uint64_t Capacity(const pto_tile* t, const GlobalTable& table, int coalesce) {
  if (coalesce != PTO_COALESCE_ROW) return table.elements;
  return t->valid_cols == 0 ? 0 : table.elements / t->valid_cols;
}

// The slot index k of indices names (kernels::kNoElement for one an OOB
// mode zeroes or skips); false when it is out of range and the mode refuses
// it. Under an OOB mode an index is read unsigned, as the NPUs read it
// (a2a3/MGather.hpp's mgather_remap).
bool SlotOf(const GlobalTable& table, uint64_t capacity, const pto_tile* indices, size_t k,
            uint64_t* slot) {
  int64_t v = IndexAt(indices, k);
  if (table.oob != GlobalTable::kOobRefuse) v = static_cast<uint32_t>(v);
  if (v >= 0 && static_cast<uint64_t>(v) < capacity) *slot = static_cast<uint64_t>(v);
  else if (table.oob == GlobalTable::kOobZeroOrSkip) *slot = kernels::kNoElement;
  else if (table.oob == GlobalTable::kOobClamp && capacity != 0) *slot = capacity - 1;
  else if (table.oob == GlobalTable::kOobWrap && capacity != 0) *slot = static_cast<uint64_t>(v) % capacity;
  else return false;
  return true;
}

// The first index (row-major) out of range under a refusing mode in *bad;
// false if there is none.
bool FirstBadIndex(const pto_tile* t, const GlobalTable& table, const pto_tile* indices,
                   int coalesce, size_t* bad) {
  const uint64_t capacity = Capacity(t, table, coalesce);
  const size_t count = coalesce == PTO_COALESCE_ROW ? size_t{t->valid_rows}
                                                    : size_t{t->valid_rows} * t->valid_cols;
  uint64_t slot = 0;
  for (size_t k = 0; k < count; ++k) {
    if (!SlotOf(table, capacity, indices, k, &slot)) {
      *bad = k;
      return true;
    }
  }
  return false;
}

// The rules of both, in the contract's order; `tile` is MGATHER's dst or
// MSCATTER's src, the destination being the tile (gather) or the table.
pto_status CheckGlobal(const char* function, const char* tile_name, bool gather, const pto_tile* t,
                       const GlobalTable& table, const pto_tile* indices, int coalesce,
                       pto_profile profile) {
  Validator v(function);
  v.NotNull(tile_name, t).NotNull("table", table.data).NotNull("indices", indices);
  if (!v.ok()) return v.status();
  v.OnVec(tile_name, t).OnVec("indices", indices);
  v.EnumInRange("coalesce", coalesce, 2);
  if (!v.ok()) return v.status();
  const size_t element = pto_dtype_size(t->dtype);
  v.DtypeAccepted(OpDtypes::kGlobalGather, profile, tile_name, t)
      .DtypeAccepted(OpDtypes::kGlobalIndices, profile, "indices", indices);
  if (!v.ok()) return v.status();
  v.Require(table.elements <= SIZE_MAX / element, PTO_ERR_INVALID_ARGUMENT,
            "table_elements %zu of %zu bytes each exceed the address space", table.elements,
            element);
  v.Require(table.dtype == t->dtype, PTO_ERR_DTYPE_MISMATCH, "table_dtype %s is not %s's %s",
            pto_dtype_string(table.dtype), tile_name, pto_dtype_string(t->dtype));
  if (!v.ok()) return v.status();
  const size_t table_bytes = table.elements * element;
  v.Require(!BytesOverlap(table.data, table_bytes, t->data, TileBytes(t)), PTO_ERR_ALIASING,
            "the table overlaps %s's storage", tile_name);
  v.Require(!BytesOverlap(table.data, table_bytes, indices->data, TileBytes(indices)),
            PTO_ERR_ALIASING, "the table overlaps indices' storage");
  v.Require(!gather || !SharesStorage(indices, t), PTO_ERR_ALIASING,
            "indices share storage with dst");
  const uint32_t rows = t->valid_rows, ir = indices->valid_rows, ic = indices->valid_cols;
  if (coalesce == PTO_COALESCE_ROW)
    v.Require((ir == 1 && ic == rows) || (ic == 1 && ir == rows), PTO_ERR_SHAPE_MISMATCH,
              "indices valid region %ux%u is neither 1x%u nor %ux1 (one index per %s row)", ir,
              ic, rows, rows, tile_name);
  else
    v.SameValidRegion("indices", indices, tile_name, t);
  if (!v.ok()) return v.status();
  size_t bad = 0;
  if (FirstBadIndex(t, table, indices, coalesce, &bad)) {
    const size_t i = bad / ic, j = bad % ic;
    const uint64_t capacity = Capacity(t, table, coalesce);
    v.Require(false, PTO_ERR_OUT_OF_RANGE, "indices (%zu, %zu) is %lld, not below the %llu table %s",
              i, j, static_cast<long long>(IndexAt(indices, bad)),
              static_cast<unsigned long long>(capacity),
              coalesce == PTO_COALESCE_ROW ? "rows" : "elements");
  }
  return v.status();
}

// The copy, a row's elements at a time in passes of kPass offsets on the
// stack (no allocation); the indices were checked. Passes go in row-major
// order, so a scatter's last writer is still the last in row order.
void RunGlobal(bool scatter, pto_tile* t, const GlobalTable& table, const pto_tile* indices,
               int coalesce) {
  constexpr size_t kPass = 256;
  size_t at[kPass];
  const uint64_t capacity = Capacity(t, table, coalesce);
  const bool per_row = coalesce == PTO_COALESCE_ROW;
  const size_t element = pto_dtype_size(t->dtype), cols = t->valid_cols;
  for (uint32_t r = 0; r < t->valid_rows; ++r) {
    uint64_t row_slot = 0;
    if (per_row) SlotOf(table, capacity, indices, r, &row_slot);
    for (size_t c0 = 0; c0 < cols; c0 += kPass) {
      const size_t n = cols - c0 < kPass ? cols - c0 : kPass;
      for (size_t c = 0; c < n; ++c) {
        uint64_t s = row_slot;
        if (!per_row) SlotOf(table, capacity, indices, r * cols + c0 + c, &s);
        at[c] = s == kernels::kNoElement ? kernels::kNoElement
                                         : static_cast<size_t>(per_row ? s * cols + c0 + c : s);
      }
      kernels::CopyByOffsets(scatter, element, 1, n, Offset(t, r, static_cast<uint32_t>(c0)),
                             table.data, at);
    }
  }
}

}  // namespace

pto_status CheckMgather(const pto_tile* dst, const GlobalTable& table, const pto_tile* indices,
                        int coalesce, pto_profile profile) {
  return CheckGlobal("pto_mgather", "dst", true, dst, table, indices, coalesce, profile);
}
void RunMgather(pto_tile* dst, const GlobalTable& table, const pto_tile* indices, int coalesce) {
  RunGlobal(false, dst, table, indices, coalesce);
}

pto_status CheckMscatter(const GlobalTable& table, const pto_tile* src, const pto_tile* indices,
                         int coalesce, pto_profile profile) {
  return CheckGlobal("pto_mscatter", "src", false, src, table, indices, coalesce, profile);
}
void RunMscatter(const GlobalTable& table, const pto_tile* src, const pto_tile* indices,
                 int coalesce) {
  // The tile is only read: the copy's plane is src's.
  RunGlobal(true, const_cast<pto_tile*>(src), table, indices, coalesce);
}

}  // namespace ops
}  // namespace pto

extern "C" {

pto_status pto_mgather(pto_tile* dst, const void* table, size_t table_elements,
                       pto_dtype table_dtype, const pto_tile* indices, pto_coalesce coalesce) {
  const pto::ops::GlobalTable t = {const_cast<void*>(table), table_elements, table_dtype};
  const pto_status status =
      pto::ops::CheckMgather(dst, t, indices, pto::RawEnumValue(coalesce), pto::CurrentProfile());
  if (status != PTO_OK) return status;
  pto::ops::RunMgather(dst, t, indices, pto::RawEnumValue(coalesce));
  return PTO_OK;
}

pto_status pto_mscatter(void* table, size_t table_elements, pto_dtype table_dtype,
                        const pto_tile* src, const pto_tile* indices, pto_coalesce coalesce) {
  const pto::ops::GlobalTable t = {table, table_elements, table_dtype};
  const pto_status status =
      pto::ops::CheckMscatter(t, src, indices, pto::RawEnumValue(coalesce), pto::CurrentProfile());
  if (status != PTO_OK) return status;
  pto::ops::RunMscatter(t, src, indices, pto::RawEnumValue(coalesce));
  return PTO_OK;
}

}  // extern "C"
