// The RowReduce and ColReduce families: each row's check (every rule of its
// C function, in order, under a profile) and run (the reductions of
// kernels/reduce.cc, in the profile's order of additions).
#include "ops/common.h"

#include <stddef.h>
#include <stdint.h>

#include "dtype_rules.h"
#include "overlap.h"
#include "kernels/kernels.h"
#include "profile.h"
#include "pto_c.h"
#include "tile.h"
#include "validate.h"

namespace pto {
namespace ops {
namespace {

// ---- the RowReduce and ColReduce families --------------------------------

constexpr kernels::Reduction ReductionOf(OpId id) {
  return id == OpId::kTRowSum || id == OpId::kTColSum     ? kernels::Reduction::kSum
         : id == OpId::kTRowMax || id == OpId::kTColMax   ? kernels::Reduction::kMax
         : id == OpId::kTRowProd || id == OpId::kTColProd ? kernels::Reduction::kProd
                                                          : kernels::Reduction::kMin;
}

// The dtype and aliasing rules of both reduction families: dst's dtype
// accepted, src's (and, where the profile uses one, tmp's) equal to it; a
// given tmp another handle than dst and src; src dst itself, placed exactly
// on it, or apart.
void ReductionOperandRules(Validator& v, const Operands& o, pto_profile profile, OpId id,
                           bool tmp_used) {
  const pto_tile *dst = o.dst, *src = o.src0, *tmp = o.tmp;
  v.DtypeAccepted(static_cast<OpDtypes>(id), profile, "dst", dst)
      .SameDtype("src", src, "dst", dst);
  if (tmp_used) v.SameDtype("tmp", tmp, "dst", dst);
  if (tmp != nullptr) v.Distinct("tmp", tmp, "dst", dst).Distinct("tmp", tmp, "src", src);
  v.InPlaceOrApart("src", src, dst);
}

// dst and src given, and tmp where the profile's implementation needs one
// (`tmp_needed`): false with the first NULL's refusal recorded in v.
bool OperandsGiven(Validator& v, const Operands& o, pto_profile profile, bool tmp_needed,
                   const char* c_function) {
  v.NotNull("dst", o.dst).NotNull("src", o.src0);
  if (tmp_needed) {
    v.Require(o.tmp != nullptr, PTO_ERR_NULL_ARGUMENT, "tmp is NULL, but on %s %s needs a tmp",
              pto_profile_string(profile), c_function + 4);
  }
  return v.ok();
}

// dst(i,0) = the reduction of src's valid row i, for every valid row i of
// src (the iteration domain): src of dst's dtype and not empty, dst of as
// many valid rows and at least one valid column (an [R,1] tile, or column 0
// of a wider one), dst itself (in place) or apart from src. tmp is never
// read or written; A2A3 requires one of dst's dtype, large enough for its
// implementation's scratch (docs/profiles.md).
pto_status CheckRowReduce(const Operands& o, pto_profile profile, OpId id,
                          const char* c_function) {
  pto_tile* dst = o.dst;
  const pto_tile* src = o.src0;
  const pto_tile* tmp = o.tmp;
  const bool a2a3 = profile == PTO_PROFILE_A2A3;
  Validator v(c_function);
  if (!OperandsGiven(v, o, profile, a2a3, c_function)) return v.status();
  ReductionOperandRules(v, o, profile, id, a2a3);
  if (!v.ok()) return v.status();
  v.Require(src->valid_rows != 0 && src->valid_cols != 0, PTO_ERR_SHAPE_MISMATCH,
            "src valid region %ux%u is empty: a row reduction needs at least one element per "
            "row",
            src->valid_rows, src->valid_cols)
      .Require(dst->valid_rows == src->valid_rows, PTO_ERR_SHAPE_MISMATCH,
               "dst valid rows %u differs from src valid rows %u", dst->valid_rows,
               src->valid_rows)
      .Require(dst->valid_cols >= 1, PTO_ERR_SHAPE_MISMATCH,
               "dst valid cols is 0: the results go to column 0");
  if (a2a3 && v.ok()) {
    // TRowSum.hpp / TRowReduceOps.hpp: integers accumulate in one 32-byte
    // block of tmp; floats longer than one 256-byte repeat sum repeat pairs
    // into tmp rows of max(1, repeats / 2) repeats. TRowProd.hpp: every
    // dtype's products in one 32-byte block.
    const size_t size = pto_dtype_size(dst->dtype);
    const size_t per_repeat = 256 / size;
    const size_t repeats = src->valid_cols / per_repeat;
    if (!IsFloatDtype(dst->dtype) || id == OpId::kTRowProd) {
      v.Require(tmp->cols >= 32 / size, PTO_ERR_SHAPE_MISMATCH,
                "tmp cols %u is less than %zu (one 32-byte block), which A2A3 requires",
                tmp->cols, 32 / size);
    } else if (src->valid_cols > per_repeat) {
      const size_t need = per_repeat * (repeats / 2 > 1 ? repeats / 2 : 1);
      v.Require(tmp->rows >= src->valid_rows, PTO_ERR_SHAPE_MISMATCH,
                "tmp rows %u is less than src valid rows %u, which A2A3 requires", tmp->rows,
                src->valid_rows)
          .Require(tmp->cols >= need, PTO_ERR_SHAPE_MISMATCH,
                   "tmp cols %u is less than %zu (src valid cols %u in 256-byte repeats, summed "
                   "in pairs), which A2A3 requires",
                   tmp->cols, need, src->valid_cols);
    }
  }
  return v.status();
}

void RunRowReduce(const Operands& o, pto_profile profile, OpId id) {
  const pto_tile* src = o.src0;
  kernels::RowReduce(ReductionOf(id),
                     profile == PTO_PROFILE_A2A3 ? kernels::SumOrder::kA2A3
                                                 : kernels::SumOrder::kA5,
                     src->dtype, src->valid_rows, src->valid_cols, PlaneOf(o.dst),
                     ConstPlaneOf(src));
}

// dst(0,j) = the reduction of src's valid column j, for every valid column j
// of src: src of dst's dtype, dst of as many valid columns and, unless src's
// region is empty (nothing is computed then), at least one valid row. tmp is
// never read or written; tcolsum's binary order under A2A3 and A5 requires
// one of dst's dtype with at least src valid cols columns and
// ceil(src valid rows / 2) rows.
pto_status CheckColReduce(const Operands& o, pto_profile profile, OpId id,
                          const char* c_function) {
  pto_tile* dst = o.dst;
  const pto_tile* src = o.src0;
  const pto_tile* tmp = o.tmp;
  const bool binary = id == OpId::kTColSum && o.attr == 1;
  const bool tmp_rules = binary && profile != PTO_PROFILE_HOST;
  Validator v(c_function);
  v.NotNull("dst", dst).NotNull("src", src);
  if (id == OpId::kTColSum) v.EnumInRange("binary_order", o.attr, 2);
  if (tmp_rules) {
    v.Require(tmp != nullptr, PTO_ERR_NULL_ARGUMENT,
              "tmp is NULL, but on %s the binary order of tcolsum needs a tmp",
              pto_profile_string(profile));
  }
  if (!v.ok()) return v.status();
  ReductionOperandRules(v, o, profile, id, tmp_rules);
  if (!v.ok()) return v.status();
  const bool empty = IsEmptyRegion(src);
  v.Require(dst->valid_cols == src->valid_cols, PTO_ERR_SHAPE_MISMATCH,
            "dst valid cols %u differs from src valid cols %u", dst->valid_cols,
            src->valid_cols)
      .Require(empty || dst->valid_rows >= 1, PTO_ERR_SHAPE_MISMATCH,
               "dst valid rows is 0: the results go to row 0");
  if (tmp_rules && !empty) {
    const uint32_t half = src->valid_rows / 2 + src->valid_rows % 2;
    v.Require(tmp->cols >= src->valid_cols, PTO_ERR_SHAPE_MISMATCH,
              "tmp cols %u is less than src valid cols %u, which the binary order requires on "
              "%s",
              tmp->cols, src->valid_cols, pto_profile_string(profile))
        .Require(tmp->rows >= half, PTO_ERR_SHAPE_MISMATCH,
                 "tmp rows %u is less than ceil(src valid rows %u / 2) = %u, which the binary "
                 "order requires on %s",
                 tmp->rows, src->valid_rows, half, pto_profile_string(profile));
  }
  return v.status();
}

void RunColReduce(const Operands& o, pto_profile profile, OpId id) {
  const pto_tile* src = o.src0;
  if (IsEmptyRegion(src)) return;
  const bool a2a3 = profile == PTO_PROFILE_A2A3;
  const bool binary = id == OpId::kTColSum && o.attr == 1;
  const kernels::SumOrder order =
      binary ? (a2a3 ? kernels::SumOrder::kA2A3Binary : kernels::SumOrder::kA5Binary)
             : (a2a3 ? kernels::SumOrder::kA2A3 : kernels::SumOrder::kA5);
  kernels::ColReduce(ReductionOf(id), order, src->dtype, src->valid_rows, src->valid_cols,
                     PlaneOf(o.dst), ConstPlaneOf(src));
}

// ---- the index reductions: trowargmax, trowargmin, tcolargmax, tcolargmin ----

// dst(i,0) (along rows) or dst(0,j) = the index of the first NaN, else of
// the first largest or smallest element, of src's valid row i (column j):
// src of an accepted dtype and not empty, dst INT32 or UINT32 with src's
// valid rows and at least one valid column (along rows), or src's valid
// columns and at least one valid row, sharing no byte with src. tmp is
// never read or written; A2A3 requires one of src's dtype (docs/profiles.md).
pto_status CheckArgReduce(const Operands& o, pto_profile profile, OpId id, bool along_rows,
                          const char* c_function) {
  pto_tile* dst = o.dst;
  const pto_tile *src = o.src0, *tmp = o.tmp;
  const bool a2a3 = profile == PTO_PROFILE_A2A3;
  Validator v(c_function);
  if (!OperandsGiven(v, o, profile, a2a3, c_function)) return v.status();
  v.DtypeAccepted(static_cast<OpDtypes>(id), profile, "src", src)
      .Require(dst->dtype == PTO_INT32 || dst->dtype == PTO_UINT32, PTO_ERR_UNSUPPORTED_DTYPE,
               "dst dtype %s is not an index dtype (INT32, UINT32)", DtypeName(dst->dtype));
  if (a2a3) v.SameDtype("tmp", tmp, "src", src);
  if (tmp != nullptr) v.Distinct("tmp", tmp, "dst", dst).Distinct("tmp", tmp, "src", src);
  v.Distinct("src", src, "dst", dst)
      .Require(!ValidRegionsOverlap(src, dst), PTO_ERR_ALIASING,
               "src and dst share storage: the indices are written apart from src");
  if (!v.ok()) return v.status();
  v.Require(!IsEmptyRegion(src), PTO_ERR_SHAPE_MISMATCH,
            "src valid region %ux%u is empty: an index reduction needs at least one element",
            src->valid_rows, src->valid_cols);
  if (along_rows) {
    v.Require(dst->valid_rows == src->valid_rows, PTO_ERR_SHAPE_MISMATCH,
              "dst valid rows %u differs from src valid rows %u", dst->valid_rows,
              src->valid_rows)
        .Require(dst->valid_cols >= 1, PTO_ERR_SHAPE_MISMATCH,
                 "dst valid cols is 0: the indices go to column 0");
  } else {
    v.Require(dst->valid_cols == src->valid_cols, PTO_ERR_SHAPE_MISMATCH,
              "dst valid cols %u differs from src valid cols %u", dst->valid_cols,
              src->valid_cols)
        .Require(dst->valid_rows >= 1, PTO_ERR_SHAPE_MISMATCH,
                 "dst valid rows is 0: the indices go to row 0");
  }
  return v.status();
}

void RunArgReduce(const Operands& o, bool largest, bool along_rows) {
  const pto_tile* src = o.src0;
  kernels::ArgReduce(largest, along_rows, src->dtype, src->valid_rows, src->valid_cols,
                     PlaneOf(o.dst), ConstPlaneOf(src));
}

}  // namespace

#define PTO_ARG_REDUCE_FUNCTIONS(Camel, mnemonic, largest, along_rows)                          \
  pto_status Check##Camel(const Operands& o, pto_profile profile) {                             \
    return CheckArgReduce(o, profile, OpId::k##Camel, along_rows, "pto_" #mnemonic);             \
  }                                                                                             \
  void Run##Camel(const Operands& o, pto_profile) { RunArgReduce(o, largest, along_rows); }
PTO_ARG_REDUCE_FUNCTIONS(TRowArgMax, trowargmax, true, true)
PTO_ARG_REDUCE_FUNCTIONS(TRowArgMin, trowargmin, false, true)
PTO_ARG_REDUCE_FUNCTIONS(TColArgMax, tcolargmax, true, false)
PTO_ARG_REDUCE_FUNCTIONS(TColArgMin, tcolargmin, false, false)
#undef PTO_ARG_REDUCE_FUNCTIONS

namespace {

#define PTO_FAMILY_FUNCTIONS_RowReduce(Camel, mnemonic, n)                                \
  PTO_FAMILY_FUNCTIONS(Camel, CheckRowReduce(o, profile, OpId::k##Camel, "pto_" #mnemonic), \
                       RunRowReduce(o, profile, OpId::k##Camel))
#define PTO_FAMILY_FUNCTIONS_ColReduce(Camel, mnemonic, n)                                \
  PTO_FAMILY_FUNCTIONS(Camel, CheckColReduce(o, profile, OpId::k##Camel, "pto_" #mnemonic), \
                       RunColReduce(o, profile, OpId::k##Camel))
}  // namespace

// ---- tpairreducesum, thistogram --------------------------------------------

// The page's and the NPUs' checks: one dtype, one valid region. The sums are
// computed from a copy of each row, so src may be dst itself.
pto_status CheckTPairReduceSum(const Operands& o, pto_profile profile) {
  pto_tile* dst = o.dst;
  const pto_tile* src = o.src0;
  Validator v("pto_tpairreducesum");
  v.NotNull("dst", dst).NotNull("src", src);
  if (!v.ok()) return v.status();
  v.OnVec("dst", dst).OnVec("src", src);
  v.DtypeAccepted(OpDtypes::kTPairReduceSum, profile, "dst", dst).SameDtype("src", src, "dst", dst);
  v.InPlaceOrApart("src", src, dst);
  v.SameValidRegion("src", src, "dst", dst);
  return v.status();
}
void RunTPairReduceSum(const Operands& o, pto_profile) {
  kernels::PairSum(o.dst->dtype, o.dst->valid_rows, o.dst->valid_cols, PlaneOf(o.dst),
                   ConstPlaneOf(o.src0));
}

namespace {

// How many idx rows and columns a byte's filter reads (the page's table):
// UINT16 byte 0 one byte per src row; UINT32 byte k the first element of
// 3 - k rows.
bool HistogramReadsIdx(pto_dtype src, unsigned byte) {
  return src == PTO_UINT16 ? byte == 0 : byte < 3;
}

}  // namespace

pto_status CheckTHistogram(const Operands& o, pto_profile profile) {
  pto_tile* dst = o.dst;
  const pto_tile *src = o.src0, *idx = o.src1;
  const int byte = o.attr;
  Validator v("pto_thistogram");
  v.NotNull("dst", dst).NotNull("src", src);
  if (!v.ok()) return v.status();
  const bool reads_idx = HistogramReadsIdx(src->dtype, static_cast<unsigned>(byte));
  if (reads_idx) v.NotNull("idx", idx);
  v.OnVec("dst", dst).OnVec("src", src).OnVec("idx", idx);
  v.EnumInRange("byte", byte, 4);
  v.Require(src->dtype != PTO_UINT16 || byte <= 1, PTO_ERR_INVALID_ARGUMENT,
            "byte %d of a UINT16 src does not exist (PTO_HIST_BYTE0 or PTO_HIST_BYTE1)", byte);
  if (!v.ok()) return v.status();
  v.DtypeAccepted(OpDtypes::kTHistogram, profile, "dst", dst);
  v.Require(src->dtype == PTO_UINT16 || src->dtype == PTO_UINT32, PTO_ERR_DTYPE_MISMATCH,
            "src is %s, not UINT16 or UINT32", pto_dtype_string(src->dtype));
  v.Require(idx == nullptr || idx->dtype == PTO_UINT8, PTO_ERR_DTYPE_MISMATCH,
            "idx is %s, not UINT8", idx == nullptr ? "" : pto_dtype_string(idx->dtype));
  if (!v.ok()) return v.status();
  v.Require(!SharesStorage(src, dst), PTO_ERR_ALIASING, "src shares storage with dst");
  v.Require(idx == nullptr || !SharesStorage(idx, dst), PTO_ERR_ALIASING,
            "idx shares storage with dst");
  v.Require(dst->valid_rows == src->valid_rows, PTO_ERR_SHAPE_MISMATCH,
            "dst valid rows %u are not src valid rows %u (one row of 256 bins per src row)",
            dst->valid_rows, src->valid_rows);
  v.Require(dst->valid_cols >= 256, PTO_ERR_SHAPE_MISMATCH,
            "dst valid cols %u are fewer than the 256 bins", dst->valid_cols);
  if (!v.ok() || !reads_idx) return v.status();
  const uint32_t need_rows = src->dtype == PTO_UINT16 ? src->valid_rows : 3u - byte;
  v.Require(idx->valid_rows >= need_rows && idx->valid_cols >= 1, PTO_ERR_SHAPE_MISMATCH,
            "idx valid region %ux%u has fewer than the %u rows and 1 column the filter reads",
            idx->valid_rows, idx->valid_cols, need_rows);
  return v.status();
}
void RunTHistogram(const Operands& o, pto_profile) {
  const pto_tile *src = o.src0, *idx = o.src1;
  const kernels::ConstPlane none = {nullptr, 0};
  kernels::Histogram(src->dtype == PTO_UINT32, static_cast<unsigned>(o.attr), src->valid_rows,
                     src->valid_cols, PlaneOf(o.dst), ConstPlaneOf(src), idx == nullptr ? none : ConstPlaneOf(idx));
}

#include "ops/family_rows.inc"

}  // namespace ops
}  // namespace pto
