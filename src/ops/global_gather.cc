// MGATHER and MSCATTER (the rows mgather and mscatter, their table a Table
// or TableDst operand; pto_mgather_oob and pto_mscatter_ex, their modes): a
// tile's valid region from or to a table in memory by row or element index.
// Every index is checked before anything is read or written, so a refused
// call changes nothing.
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <initializer_list>

#include "checked.h"
#include "dtype_rules.h"
#include "float_scalars.h"
#include "kernels/kernels.h"
#include "ops/common.h"
#include "profile.h"
#include "validate.h"
#include "pto_c.h"
#include "tile.h"

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

const char* const kAtomicNames[] = {"none", "add", "max", "min"};

bool DtypeIn(pto_dtype d, std::initializer_list<pto_dtype> list) {
  for (pto_dtype x : list)
    if (x == d) return true;
  return false;
}

// MSCATTER's atomic dtypes per profile (the page's "Atomic Type Support"):
// A2A3's and A5's lists; HOST takes their union and the CPU contract's.
bool AtomicAccepts(int atomic, pto_dtype d, pto_profile profile) {
  if (atomic == PTO_SCATTER_ATOMIC_NONE) return true;
  if (atomic == PTO_SCATTER_ATOMIC_ADD) {
    if (profile == PTO_PROFILE_A2A3)
      return DtypeIn(d, {PTO_INT8, PTO_INT16, PTO_INT32, PTO_FLOAT16, PTO_BFLOAT16, PTO_FLOAT32});
    if (profile == PTO_PROFILE_A5)
      return DtypeIn(d, {PTO_INT32, PTO_UINT32, PTO_FLOAT16, PTO_BFLOAT16, PTO_FLOAT32});
    return DtypeIn(d, {PTO_INT8, PTO_INT16, PTO_INT32, PTO_UINT32, PTO_FLOAT16, PTO_BFLOAT16,
                       PTO_FLOAT32});
  }
  if (profile == PTO_PROFILE_A2A3) return false;  // no atomic max / min unit
  return DtypeIn(d, {PTO_INT32, PTO_UINT32, PTO_FLOAT32});
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
                       pto_profile profile, const GlobalModes& modes) {
  Validator v(function);
  v.NotNull(tile_name, t).NotNull("table", table.data).NotNull("indices", indices);
  if (!v.ok()) return v.status();
  v.OnVec(tile_name, t).OnVec("indices", indices);
  v.EnumInRange("coalesce", coalesce, 2);
  if (!gather) v.EnumInRange("atomic", modes.atomic, 4);
  v.EnumInRange("oob", modes.oob, 4);
  if (!v.ok()) return v.status();
  const size_t element = pto_dtype_size(t->dtype);
  v.DtypeAccepted(gather ? OpDtypes::kMGather : OpDtypes::kMScatter, profile, tile_name, t);
  v.Require(AtomicAccepts(modes.atomic, t->dtype, profile), PTO_ERR_UNSUPPORTED_DTYPE,
            "atomic %s takes no %s %s under %s (the page's Atomic Type Support)",
            kAtomicNames[modes.atomic], pto_dtype_string(t->dtype), tile_name,
            pto_profile_string(profile));
  v.DtypeAccepted(OpDtypes::kGlobalIndices, profile, "indices", indices);
  if (!v.ok()) return v.status();
  // table_elements is the caller's count: its bytes from the table's
  // address must fit the address space (checked.h).
  size_t table_bytes = 0;
  v.Require(MulFits(table.elements, element, &table_bytes) &&
                RangeInAddressSpace(table.data, table_bytes),
            PTO_ERR_INVALID_ARGUMENT,
            "table_elements %zu of %zu bytes each run past the end of the address space",
            table.elements, element);
  char raw[16];
  snprintf(raw, sizeof raw, "%d", table.dtype);
  const bool known = table.dtype >= 0 && table.dtype < static_cast<int>(kDtypeCount);
  v.Require(table.dtype == static_cast<int>(t->dtype), PTO_ERR_DTYPE_MISMATCH,
            "table_dtype %s is not %s's %s",
            known ? pto_dtype_string(static_cast<pto_dtype>(table.dtype)) : raw, tile_name,
            pto_dtype_string(t->dtype));
  if (!v.ok()) return v.status();
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

// A float element of dtype d at p as a double, and x (already of d's
// precision) stored back.
double LoadFloat(const void* p, pto_dtype d) {
  if (d == PTO_FLOAT32) {
    float f;
    memcpy(&f, p, 4);
    return f;
  }
  uint16_t bits;
  memcpy(&bits, p, 2);
  return HalfBitsToDouble(bits, d);
}
void StoreFloat(void* p, pto_dtype d, double x) {
  if (d == PTO_FLOAT32) {
    const float f = static_cast<float>(x);
    memcpy(p, &f, 4);
    return;
  }
  const uint16_t bits = DoubleToHalfBits(x, d);
  memcpy(p, &bits, 2);
}

// An integer element of dtype d at p, sign- or zero-extended.
int64_t LoadInt(const void* p, pto_dtype d, size_t size) {
  uint64_t bits = 0;
  memcpy(&bits, p, size);  // little-endian: the low bytes
  const bool is_signed = d == PTO_INT8 || d == PTO_INT16 || d == PTO_INT32;
  const unsigned shift = 64 - 8 * static_cast<unsigned>(size);
  return is_signed ? static_cast<int64_t>(bits << shift) >> shift
                   : static_cast<int64_t>(bits);
}

// table element at `to` combined with the source element at `from`: ADD
// rounds once (a sum of two FLOAT32, FLOAT16 or BFLOAT16 values is exact or
// rounded once in double, at least 2p + 2 bits, so rounding it again to the
// dtype is correct rounding) or wraps; MAX / MIN replace by comparison.
void Combine(int atomic, pto_dtype d, size_t size, void* to, const void* from) {
  const bool is_float = d == PTO_FLOAT32 || d == PTO_FLOAT16 || d == PTO_BFLOAT16;
  if (is_float) {
    const double a = LoadFloat(to, d), b = LoadFloat(from, d);
    // A NaN sum is the positive quiet NaN whatever its operands' signs and
    // payloads (the host's NaN sign is not portable).
    if (atomic == PTO_SCATTER_ATOMIC_ADD)
      StoreFloat(to, d, isnan(a + b) ? fabs(NAN)
                                     : RoundToFloatType(a + b, d, d == PTO_FLOAT32 ? 32 : 16));
    else if (atomic == PTO_SCATTER_ATOMIC_MAX ? b > a : b < a)
      memcpy(to, from, size);
    return;
  }
  const int64_t a = LoadInt(to, d, size), b = LoadInt(from, d, size);
  if (atomic == PTO_SCATTER_ATOMIC_ADD) {
    const uint64_t sum = static_cast<uint64_t>(a) + static_cast<uint64_t>(b);
    memcpy(to, &sum, size);  // modulo 2^bits: the low bytes
  } else if (atomic == PTO_SCATTER_ATOMIC_MAX ? b > a : b < a) {
    memcpy(to, from, size);
  }
}

// MSCATTER with an atomic: each element of src's valid region combined
// with the table element it names, one at a time in row-major order (the
// indices were checked).
void RunAtomicScatter(int atomic, const pto_tile* src, const GlobalTable& table,
                      const pto_tile* indices, int coalesce) {
  const uint64_t capacity = Capacity(src, table, coalesce);
  const bool per_row = coalesce == PTO_COALESCE_ROW;
  const size_t size = pto_dtype_size(src->dtype), cols = src->valid_cols;
  char* base = static_cast<char*>(table.data);
  for (uint32_t r = 0; r < src->valid_rows; ++r) {
    uint64_t slot = 0;
    if (per_row) SlotOf(table, capacity, indices, r, &slot);
    const char* from = static_cast<const char*>(Offset(src, r, 0).data);
    for (size_t c = 0; c < cols; ++c) {
      if (!per_row) SlotOf(table, capacity, indices, r * cols + c, &slot);
      if (slot == kernels::kNoElement) continue;  // skipped: past the table
      const size_t at = static_cast<size_t>(per_row ? slot * cols + c : slot);
      Combine(atomic, src->dtype, size, base + at * size, from + c * size);
    }
  }
}

}  // namespace

pto_status CheckGlobalGather(const pto_tile* dst, const GlobalTable& table, const pto_tile* indices,
                             int coalesce, pto_profile profile, const GlobalModes& modes) {
  return CheckGlobal(modes.function != nullptr ? modes.function : "pto_mgather", "dst", true, dst,
                     table, indices, coalesce, profile, modes);
}
void RunGlobalGather(pto_tile* dst, const GlobalTable& table, const pto_tile* indices, int coalesce) {
  RunGlobal(false, dst, table, indices, coalesce);
}

pto_status CheckGlobalScatter(const GlobalTable& table, const pto_tile* src, const pto_tile* indices,
                              int coalesce, pto_profile profile, const GlobalModes& modes) {
  return CheckGlobal(modes.function != nullptr ? modes.function : "pto_mscatter", "src", false,
                     src, table, indices, coalesce, profile, modes);
}
void RunGlobalScatter(const GlobalTable& table, const pto_tile* src, const pto_tile* indices,
                      int coalesce, int atomic) {
  if (atomic != PTO_SCATTER_ATOMIC_NONE) return RunAtomicScatter(atomic, src, table, indices, coalesce);
  // The tile is only read: the copy's plane is src's.
  RunGlobal(true, const_cast<pto_tile*>(src), table, indices, coalesce);
}

// The rows: mgather (Dst(dst), Table(table), Src(indices)) and mscatter
// (TableDst(table), Src(src), Src(indices)), coalesce their attribute.
// The rows' check and run: o.attr the coalesce; o.sat a program's modes
// (ops.h's PacksSecondByte: the OOB mode in bits 0-3, the scatter's atomic
// in bits 4-7), 0 from the C functions.
namespace {
GlobalTable WithOob(const Operands& o) {
  GlobalTable t = o.ext->table;
  t.oob = o.sat & 15;
  return t;
}
GlobalModes ModesOf(const Operands& o) {
  GlobalModes modes;
  modes.atomic = o.sat >> 4;
  return modes;
}
}  // namespace

pto_status CheckMGather(const Operands& o, pto_profile profile) {
  return CheckGlobalGather(o.dst, WithOob(o), o.src0, o.attr, profile);
}
void RunMGather(const Operands& o, pto_profile) {
  RunGlobalGather(o.dst, WithOob(o), o.src0, o.attr);
}

pto_status CheckMScatter(const Operands& o, pto_profile profile) {
  return CheckGlobalScatter(WithOob(o), o.src0, o.src1, o.attr, profile, ModesOf(o));
}
void RunMScatter(const Operands& o, pto_profile) {
  RunGlobalScatter(WithOob(o), o.src0, o.src1, o.attr, ModesOf(o).atomic);
}

}  // namespace ops
}  // namespace pto

extern "C" {

// The pages' GatherOOB and ScatterOOB as GlobalTable's modes (a value out
// of the enums is refused by the checks before the mode is used).
pto_status pto_mgather_oob(pto_tile* dst, const void* table, size_t table_elements,
                           pto_dtype table_dtype, const pto_tile* indices, pto_coalesce coalesce,
                           pto_gather_oob oob) {
  pto::ops::GlobalModes modes;
  modes.function = "pto_mgather_oob";
  modes.oob = pto::RawEnumValue(oob);
  pto::ops::GlobalTable t = {const_cast<void*>(table), table_elements,
                             pto::RawEnumValue(table_dtype)};
  if (modes.oob >= 0 && modes.oob < 4) t.oob = modes.oob;  // numbered as GlobalTable's
  const int co = pto::RawEnumValue(coalesce);
  const pto_status status = pto::ops::CheckGlobalGather(dst, t, indices, co, pto::CurrentProfile(), modes);
  if (status != PTO_OK) return status;
  pto::ops::RunGlobalGather(dst, t, indices, co);
  return PTO_OK;
}

pto_status pto_mscatter_ex(void* table, size_t table_elements, pto_dtype table_dtype,
                           const pto_tile* src, const pto_tile* indices, pto_coalesce coalesce,
                           pto_scatter_atomic atomic, pto_scatter_oob oob) {
  static const int kOob[] = {pto::ops::GlobalTable::kOobRefuse, pto::ops::GlobalTable::kOobZeroOrSkip,
                             pto::ops::GlobalTable::kOobClamp, pto::ops::GlobalTable::kOobWrap};
  pto::ops::GlobalModes modes;
  modes.function = "pto_mscatter_ex";
  modes.oob = pto::RawEnumValue(oob);
  modes.atomic = pto::RawEnumValue(atomic);
  pto::ops::GlobalTable t = {table, table_elements, pto::RawEnumValue(table_dtype)};
  if (modes.oob >= 0 && modes.oob < 4) t.oob = kOob[modes.oob];
  const int co = pto::RawEnumValue(coalesce);
  const pto_status status = pto::ops::CheckGlobalScatter(t, src, indices, co, pto::CurrentProfile(), modes);
  if (status != PTO_OK) return status;
  pto::ops::RunGlobalScatter(t, src, indices, co, modes.atomic);
  return PTO_OK;
}

}  // extern "C"
