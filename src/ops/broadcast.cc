// The broadcast group: the RowExpand and ColExpand families and the Special
// row tcolexpanddiv. Each row's check (every rule of its C function, in
// order, under a profile) and run (the broadcast kernels of
// kernels/broadcast.cc over dst's valid region).
#include "ops/common.h"

#include <stddef.h>
#include <stdint.h>

#include <algorithm>

#include "dtype_rules.h"
#include "kernels/kernels.h"
#include "pto_c.h"
#include "tile.h"
#include "validate.h"

namespace pto {
namespace ops {
namespace {

// ---- the RowExpand and ColExpand families ---------------------------------

// Which source of a two-source broadcast covers dst's valid region (`full`)
// and which gives one value per row or column (`expanded`): src0 when its
// valid region is dst's, else src1 when its is (NULL, NULL when neither is).
// When both are, src0 is the full one, as the NPU implementations decide.
struct BroadcastOperands {
  const pto_tile* full;
  const pto_tile* expanded;
  const char* expanded_name;
};
BroadcastOperands BroadcastOperandsOf(const Operands& o) {
  if (SameRegion(o.src0, o.dst)) return {o.src0, o.src1, "src1"};
  if (SameRegion(o.src1, o.dst)) return {o.src1, o.src0, "src0"};
  return {nullptr, nullptr, nullptr};
}

// The elements of a Mode 2 row operand's block: 32 bytes of the dtype.
uint32_t BlockElements(pto_dtype dtype) {
  return static_cast<uint32_t>(32 / pto_dtype_size(dtype));
}

// The rules before the shapes, common to both families: NULLs, dtypes, a
// given tmp distinct from every other operand (it is never read or written,
// of any dtype and shape), sources in place or apart from dst.
void CheckBroadcastOperands(Validator& v, const Operands& o, OpDtypes rule, pto_profile profile,
                            bool two_sources, bool row) {
  pto_tile* dst = o.dst;
  const char* src0_name = two_sources ? "src0" : "src";
  v.NotNull("dst", dst).NotNull(src0_name, o.src0);
  if (two_sources) v.NotNull("src1", o.src1);
  if (!v.ok()) return;
  v.DtypeAccepted(rule, profile, "dst", dst).SameDtype(src0_name, o.src0, "dst", dst);
  if (two_sources) v.SameDtype("src1", o.src1, "dst", dst);
  if (o.tmp != nullptr) {
    v.Distinct("tmp", o.tmp, "dst", dst).Distinct("tmp", o.tmp, "src0", o.src0);
    if (two_sources) v.Distinct("tmp", o.tmp, "src1", o.src1);
  }
  // A row broadcast reads row i of each source for dst row i (its R x 1
  // operand's row i too): the row order's overlaps are allowed.
  if (row) {
    v.InRowOrderOrApart(src0_name, o.src0, dst, profile);
    if (two_sources) v.InRowOrderOrApart("src1", o.src1, dst, profile);
  } else {
    v.InPlaceOrApart(src0_name, o.src0, dst);
    if (two_sources) v.InPlaceOrApart("src1", o.src1, dst);
  }
}

// The full-size source: one source's valid region must be dst's.
void CheckFullSource(Validator& v, const Operands& o, const BroadcastOperands& b) {
  v.Require(b.full != nullptr, PTO_ERR_SHAPE_MISMATCH,
            "neither src0 valid region %ux%u nor src1 valid region %ux%u equals dst valid "
            "region %ux%u: one source must cover dst",
            o.src0->valid_rows, o.src0->valid_cols, o.src1->valid_rows, o.src1->valid_cols,
            o.dst->valid_rows, o.dst->valid_cols);
}

// One source: dst[i,j] = src[i,0] (row) or src[0,j] (column), src of dst's
// valid rows (row) or columns (column, as the NPU implementations assert)
// and at least one column (row) or row (column) where dst's region is not
// empty. tcolexpand's equal columns are a board-mode warning under A2A3 and
// A5 (a2a3/ and a5/TColExpand.hpp check them with PTO_ASSERT only, then
// write dst's valid columns from src's row 0 at the same columns), where
// those columns lie in src's storage and src's region is not empty (A2A3's
// implementation writes nothing for an empty one).
void CheckOneSource(Validator& v, const Operands& o, bool row, pto_profile profile) {
  const pto_tile *src = o.src0, *dst = o.dst;
  const char* along = row ? "rows" : "cols";
  const bool board_safe =
      !row && dst->valid_cols <= src->cols && !IsEmptyRegion(src);
  v.RequireOrBoard((row ? src->valid_rows : src->valid_cols) ==
                       (row ? dst->valid_rows : dst->valid_cols),
                   board_safe, profile, PTO_ERR_SHAPE_MISMATCH,
                   "src valid %s %u differs from dst valid %s %u", along,
                   row ? src->valid_rows : src->valid_cols, along,
                   row ? dst->valid_rows : dst->valid_cols)
      .Require((row ? src->valid_cols : src->valid_rows) >= 1 || IsEmptyRegion(dst),
               PTO_ERR_SHAPE_MISMATCH, "src valid region %ux%u has no %s 0 to broadcast",
               src->valid_rows, src->valid_cols, row ? "column" : "row");
}

// Row broadcasts: dst[i,j] = f(full[i,j], s) (or f(s, full[i,j]) where src0
// is the expanded source e), s row i's value: Mode 1, e of valid region
// R x 1 (s = e[i,0]); Mode 2, R x 32/sizeof(T) (s = e[i, j mod
// 32/sizeof(T)]). A2A3: a given tmp is the NPU's broadcast buffer, Mode 1
// only, of at least ceil(R / 8) 256-byte repeats, 30 at most
// (docs/profiles.md).
void CheckRowOperand(Validator& v, const Operands& o, const BroadcastOperands& b,
                     pto_profile profile) {
  const pto_tile *dst = o.dst, *e = b.expanded;
  const uint32_t block = BlockElements(dst->dtype);
  // Both shapes are board-mode warnings under A2A3 and A5: a2a3/ and
  // a5/TRowExpandMul.hpp (and the other TRowExpand*.hpp) check them with
  // PTO_ASSERT only, then read the expanded operand's rows 0..dst's valid
  // rows - 1 from its storage, a 32-byte block per row for a row-major one
  // (the run takes a block where e's valid cols and cols are not 1), so e's
  // rows x cols must hold what is read.
  // A one-column operand (a DN 16x1 tile's) gives one value per row
  // whatever its valid cols, as the col-major case of those files does.
  const bool rows_in_storage = dst->valid_rows <= e->rows;
  const bool per_row = e->valid_cols == 1 || e->cols == 1;
  const bool read_in_storage = rows_in_storage && (per_row || e->cols >= block);
  v.RequireOrBoard(e->valid_rows == dst->valid_rows, read_in_storage, profile,
                   PTO_ERR_SHAPE_MISMATCH, "%s valid rows %u differs from dst valid rows %u",
                   b.expanded_name, e->valid_rows, dst->valid_rows)
      .RequireOrBoard(e->valid_cols == 1 || e->valid_cols == block, read_in_storage, profile,
                      PTO_ERR_SHAPE_MISMATCH,
                      "%s valid cols %u is neither 1 (one value per row) nor %u (a 32-byte "
                      "block per row)",
                      b.expanded_name, e->valid_cols, block);
  if (profile != PTO_PROFILE_A2A3 || o.tmp == nullptr) return;
  const uint64_t repeats = std::min<uint64_t>((uint64_t{dst->valid_rows} + 7) / 8, 30);
  const uint64_t tmp_bytes = uint64_t{o.tmp->rows} * o.tmp->cols * pto_dtype_size(o.tmp->dtype);
  v.Require(e->valid_cols == 1, PTO_ERR_SHAPE_MISMATCH,
            "%s valid cols %u is not 1: on A2A3 a tmp broadcasts one value per row only",
            b.expanded_name, e->valid_cols)
      .Require(tmp_bytes >= repeats * 256, PTO_ERR_SHAPE_MISMATCH,
               "tmp holds %llu bytes, less than the %llu that A2A3 broadcasts %u rows through",
               static_cast<unsigned long long>(tmp_bytes),
               static_cast<unsigned long long>(repeats * 256), dst->valid_rows);
}

// Column broadcasts: dst[i,j] = f(full[i,j], e[0,j]) (or f(e[0,j],
// full[i,j])), e of at least one valid row and dst's valid columns (as
// tcolexpanddiv).
void CheckColOperand(Validator& v, const Operands& o, const BroadcastOperands& b) {
  const pto_tile *dst = o.dst, *e = b.expanded;
  v.Require(e->valid_rows >= 1 || IsEmptyRegion(dst), PTO_ERR_SHAPE_MISMATCH,
            "%s valid region %ux%u has no row 0 to broadcast", b.expanded_name, e->valid_rows,
            e->valid_cols)
      .Require(e->valid_cols >= dst->valid_cols, PTO_ERR_SHAPE_MISMATCH,
               "%s valid cols %u is less than dst valid cols %u", b.expanded_name, e->valid_cols,
               dst->valid_cols);
}

// Every rule of a RowExpand (row) or ColExpand row, in the contract's order.
pto_status CheckBroadcast(const Operands& o, pto_profile profile, OpDtypes rule,
                          const char* c_function, bool two_sources, bool row) {
  Validator v(c_function);
  CheckBroadcastOperands(v, o, rule, profile, two_sources, row);
  if (!v.ok()) return v.status();
  if (!two_sources) {
    CheckOneSource(v, o, row, profile);
    return v.status();
  }
  const BroadcastOperands b = BroadcastOperandsOf(o);
  CheckFullSource(v, o, b);
  if (!v.ok()) return v.status();
  if (row) {
    CheckRowOperand(v, o, b, profile);
  } else {
    CheckColOperand(v, o, b);
  }
  return v.status();
}

// The kernel of a RowExpand or ColExpand row (kernels.h).
using BroadcastKernel = void (*)(pto_dtype, size_t, size_t, const kernels::Plane&,
                                 const kernels::ConstPlane&, const kernels::ConstPlane&, size_t,
                                 bool);

// One source: the broadcast itself (the kernel reads only the expanded
// plane). Two: the full and expanded sources as the check found them, the
// expanded one first in f's operands when it is src0.
void RunBroadcast(const Operands& o, BroadcastKernel kernel, bool row, bool two_sources) {
  pto_tile* dst = o.dst;
  const BroadcastOperands b =
      two_sources ? BroadcastOperandsOf(o) : BroadcastOperands{o.src0, o.src0, "src"};
  const bool per_row = b.expanded->valid_cols == 1 || b.expanded->cols == 1;
  const size_t block = row && !per_row && two_sources ? BlockElements(dst->dtype) : 1;
  kernel(dst->dtype, dst->valid_rows, dst->valid_cols, PlaneOf(dst), ConstPlaneOf(b.full),
         ConstPlaneOf(b.expanded), block, two_sources && b.expanded == o.src0 && b.full != o.src0);
}

// *expdif under A2A3 and A5: the NPU implementations subtract into dst,
// then take exp in place (pto-isa include/pto/npu/a2a3/TRowExpandExpdif.hpp,
// TColExpandExpdif.hpp, and A5's), so the difference is rounded to the dtype
// before the exponential (../shared/API.md, "v0.5 change to a v0.4 rule"):
// the sub row's kernel, then texp's in place, each correctly rounded. HOST
// takes e^(a - b) of the exact difference, rounded once.
void RunBroadcastRow(const Operands& o, pto_profile profile, OpId id, BroadcastKernel kernel,
                     bool row, bool two_sources) {
  const bool expdif = id == OpId::kTRowExpandExpDif || id == OpId::kTColExpandExpDif;
  if (!expdif || profile == PTO_PROFILE_HOST) return RunBroadcast(o, kernel, row, two_sources);
  RunBroadcast(o, row ? kernels::TRowExpandSub : kernels::TColExpandSub, row, true);
  pto_tile* dst = o.dst;
  kernels::TExp(dst->dtype, dst->valid_rows, dst->valid_cols, PlaneOf(dst), ConstPlaneOf(dst),
                ConstPlaneOf(dst));
}

#define PTO_FAMILY_FUNCTIONS_BROADCAST(Camel, mnemonic, n, row)                             \
  PTO_FAMILY_FUNCTIONS(                                                                     \
      Camel, CheckBroadcast(o, profile, OpDtypes::k##Camel, "pto_" #mnemonic, n == 2, row), \
      RunBroadcastRow(o, profile, OpId::k##Camel, kernels::Camel, row, n == 2))
#define PTO_FAMILY_FUNCTIONS_RowExpand(Camel, mnemonic, n) \
  PTO_FAMILY_FUNCTIONS_BROADCAST(Camel, mnemonic, n, true)
#define PTO_FAMILY_FUNCTIONS_ColExpand(Camel, mnemonic, n) \
  PTO_FAMILY_FUNCTIONS_BROADCAST(Camel, mnemonic, n, false)
}  // namespace

#include "ops/family_rows.inc"


// ---- tcolexpanddiv -------------------------------------------------------

pto_status CheckTColExpandDiv(const Operands& o, pto_profile profile) {
  pto_tile* dst = o.dst;
  const pto_tile *src0 = o.src0, *src1 = o.src1;
  Validator v("pto_tcolexpanddiv");
  v.NotNull("dst", dst).NotNull("src0", src0).NotNull("src1", src1);
  if (!v.ok()) return v.status();
  v.DtypeAccepted(OpDtypes::kTColExpandDiv, profile, "dst", dst)
      .SameDtype("src0", src0, "dst", dst)
      .SameDtype("src1", src1, "dst", dst)
      .InPlaceOrApart("src0", src0, dst)
      .InPlaceOrApart("src1", src1, dst)
      .SameValidRegion("src0", src0, "dst", dst);
  if (!v.ok()) return v.status();
  v.Require(src1->valid_rows >= 1, PTO_ERR_SHAPE_MISMATCH,
            "src1 valid region %ux%u has no row 0 to divide by", src1->valid_rows,
            src1->valid_cols)
      .Require(src1->valid_cols >= dst->valid_cols, PTO_ERR_SHAPE_MISMATCH,
               "src1 valid cols %u is less than dst valid cols %u", src1->valid_cols,
               dst->valid_cols);
  return v.status();
}

void RunTColExpandDiv(const Operands& o, pto_profile) {
  // src1 is dst itself or placed exactly on it, or apart from dst's valid
  // region: row 0 is written last, so the divisor row is read intact.
  pto_tile* dst = o.dst;
  if (!IsFloatDtype(dst->dtype)) {
    // Integers divide as tdiv does (truncation, its division by zero): tdiv's
    // kernel with the divisor row repeated (a plane of stride 0).
    const kernels::ConstPlane divisor{o.src1->data, 0};
    const kernels::ConstPlane src = ConstPlaneOf(o.src0);
    const size_t size = ElementBytes(dst->dtype);
    if (dst->valid_rows > 1)
      kernels::TDiv(dst->dtype, dst->valid_rows - 1, dst->valid_cols,
                    {static_cast<char*>(dst->data) + dst->cols * size, dst->cols},
                    {static_cast<const char*>(src.data) + src.stride * size, src.stride}, divisor);
    return kernels::TDiv(dst->dtype, 1, dst->valid_cols, PlaneOf(dst), src, divisor);
  }
  kernels::ColExpandDiv(dst->dtype, dst->valid_rows, dst->valid_cols, PlaneOf(dst),
                        ConstPlaneOf(o.src0), o.src1->data);
}

}  // namespace ops
}  // namespace pto
