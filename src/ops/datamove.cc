// The Special rows of the data-movement group, which move elements rather
// than compute on them: tfillpad (and its modes tfillpad_inplace,
// tfillpad_expand), treshape, talias, ttrans, tconcat, tconcatidx, tinterleave,
// tdeinterleave. Each
// has a check (every rule of its C function, in order, under a profile) and a
// run (the copies and loops of kernels/).
#include "ops/common.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmath>

#include "dtype_rules.h"
#include "kernels/kernels.h"
#include "overlap.h"
#include "profile.h"
#include "pto_c.h"
#include "tile.h"
#include "validate.h"

namespace pto {
namespace ops {

// ---- tfillpad ------------------------------------------------------------

namespace {

// Whether src is dst itself or placed exactly on it (same address and row
// length; its dtype has dst's size by the dtype rule): TFILLPAD_INPLACE.
bool FillpadInPlace(const pto_tile* src, const pto_tile* dst) {
  return src == dst || (src->data == dst->data && src->cols == dst->cols);
}

// Which of pto-isa's TFillPadMode a C function is: TFILLPAD (Normal),
// TFILLPAD_INPLACE, TFILLPAD_EXPAND. Each mode's shape rule is its own.
enum class FillMode { kNormal, kInPlace, kExpand };

// Every rule of pto_tfillpad, pto_tfillpad_inplace and pto_tfillpad_expand,
// in the contract's order: the common ones, then the mode's shape rule.
pto_status CheckFillPadMode(const Operands& o, pto_profile profile, OpDtypes rule,
                            const char* c_function, FillMode mode) {
  pto_tile* dst = o.dst;
  const pto_tile* src = o.src0;
  Validator v(c_function);
  v.NotNull("dst", dst).NotNull("src", src);
  v.EnumInRange("pad", o.attr, AttrValueCount(AttrKind::kPadValue))
      .Require(o.attr != PTO_PAD_NULL, PTO_ERR_INVALID_ARGUMENT,
               "pad PTO_PAD_NULL is not a value to fill with (the page: a vector tile's "
               "PadVal is not Null)");
  if (!v.ok()) return v.status();
  v.DtypeAccepted(rule, profile, "dst", dst)
      .Require(ElementBytes(src->dtype) == ElementBytes(dst->dtype), PTO_ERR_DTYPE_MISMATCH,
               "src dtype %s differs in size from dst dtype %s", DtypeName(src->dtype),
               DtypeName(dst->dtype));
  if (!v.ok()) return v.status();
  if (mode == FillMode::kInPlace) {
    // TFILLPAD_INPLACE: src is dst's storage (every implementation's
    // static_assert: the same rows and cols; only the padding is written).
    v.Require(FillpadInPlace(src, dst) && src->rows == dst->rows, PTO_ERR_INVALID_ARGUMENT,
              "src is not dst itself or placed exactly on it (same address, rows and cols), "
              "which the in-place form requires");
  } else {
    // dst is written over its whole rows x cols: src must be on it exactly
    // or apart from every element of it.
    pto_tile whole = *dst;
    whole.valid_rows = dst->rows;
    whole.valid_cols = dst->cols;
    v.Require(FillpadInPlace(src, dst) || !ValidRegionsOverlapSlow(src, &whole),
              PTO_ERR_ALIASING,
              "src's valid elements share storage with dst's %ux%u elements without being "
              "placed exactly on them",
              dst->rows, dst->cols);
  }
  v.Require(src->valid_rows <= dst->rows && src->valid_cols <= dst->cols,
            PTO_ERR_SHAPE_MISMATCH, "src valid region %ux%u does not fit in dst's %ux%u",
            src->valid_rows, src->valid_cols, dst->rows, dst->cols);
  if (mode == FillMode::kExpand)
    // TFILLPAD_EXPAND on every profile (a2a3/, a5/ and cpu/ TFillPad.hpp:
    // dst's rows and cols each at least src's).
    v.Require(dst->rows >= src->rows && dst->cols >= src->cols, PTO_ERR_SHAPE_MISMATCH,
              "dst shape %ux%u is smaller than src shape %ux%u in rows or cols, which the "
              "expanding form requires at least as large",
              dst->rows, dst->cols, src->rows, src->cols);
  else if (mode == FillMode::kNormal && profile != PTO_PROFILE_HOST)
    v.Require(src->rows == dst->rows && src->cols == dst->cols, PTO_ERR_SHAPE_MISMATCH,
              "dst shape %ux%u differs from src shape %ux%u, which %s requires equal",
              dst->rows, dst->cols, src->rows, src->cols, pto_profile_string(profile));
  return v.status();
}

}  // namespace

pto_status CheckTFillPad(const Operands& o, pto_profile profile) {
  return CheckFillPadMode(o, profile, OpDtypes::kTFillPad, "pto_tfillpad", FillMode::kNormal);
}

pto_status CheckTFillPadInplace(const Operands& o, pto_profile profile) {
  return CheckFillPadMode(o, profile, OpDtypes::kTFillPadInplace, "pto_tfillpad_inplace",
                          FillMode::kInPlace);
}

pto_status CheckTFillPadExpand(const Operands& o, pto_profile profile) {
  return CheckFillPadMode(o, profile, OpDtypes::kTFillPadExpand, "pto_tfillpad_expand",
                          FillMode::kExpand);
}

namespace {

// A pto_pad_value as an element value of dtype (pto-isa's PadValueMap):
// zero, +/-inf for float dtypes, the dtype's largest or smallest integer.
double PadScalar(pto_dtype dtype, int pad) {
  if (pad == PTO_PAD_ZERO) return 0;
  const bool max = pad == PTO_PAD_MAX;
  if (IsFloatDtype(dtype)) return max ? HUGE_VAL : -HUGE_VAL;
  const unsigned bits = 8 * static_cast<unsigned>(ElementBytes(dtype));
  const bool is_signed = dtype == PTO_INT8 || dtype == PTO_INT16 || dtype == PTO_INT32;
  if (!is_signed) return max ? std::ldexp(1.0, static_cast<int>(bits)) - 1 : 0;
  return max ? std::ldexp(1.0, static_cast<int>(bits) - 1) - 1
             : -std::ldexp(1.0, static_cast<int>(bits) - 1);
}

// An 8-byte tile's pad, which is zero (TLOAD's A5 check: PadValue Null or
// Zero for int64_t/uint64_t; programs refuse the others): all bits clear.
void ZeroPad64(pto_tile* t, uint32_t valid_rows, uint32_t valid_cols, uint32_t rows,
               uint32_t cols) {
  char* data = static_cast<char*>(t->data);
  const size_t row_bytes = size_t{t->cols} * 8;
  for (uint32_t r = 0; r < rows; ++r) {
    const uint32_t from = r < valid_rows ? valid_cols : 0;
    if (from < cols) memset(data + r * row_bytes + size_t{from} * 8, 0, size_t{cols - from} * 8);
  }
}

}  // namespace

void FillPad(pto_tile* t, uint32_t valid_rows, uint32_t valid_cols, uint32_t rows, uint32_t cols,
             int pad) {
  if (Is64BitDtype(t->dtype)) return ZeroPad64(t, valid_rows, valid_cols, rows, cols);
  const double value = PadScalar(t->dtype, pad);
  const pto_tile* view = t;
  if (valid_cols < cols && valid_rows != 0)
    kernels::TExpands(t->dtype, valid_rows, cols - valid_cols, Offset(t, 0, valid_cols),
                      Offset(view, 0, valid_cols), value);
  if (valid_rows < rows)
    kernels::TExpands(t->dtype, rows - valid_rows, cols, Offset(t, valid_rows, 0),
                      Offset(view, valid_rows, 0), value);
}

// The copy of src's valid region (skipped in place: the bits are already
// there), then the pad to the right of it in its rows and in every row
// below it, up to dst's rows x cols.
void RunTFillPad(const Operands& o, pto_profile) {
  pto_tile* dst = o.dst;
  const pto_tile* src = o.src0;
  const uint32_t rows = src->valid_rows, cols = src->valid_cols;
  if (!FillpadInPlace(src, dst) && rows != 0 && cols != 0)
    kernels::Copy(src->dtype, rows, cols, PlaneOf(dst), ConstPlaneOf(src));
  FillPad(dst, rows, cols, dst->rows, dst->cols, o.attr);
}

// Both modes run tfillpad's copy and fill; their checks differ.
void RunTFillPadInplace(const Operands& o, pto_profile profile) { RunTFillPad(o, profile); }
void RunTFillPadExpand(const Operands& o, pto_profile profile) { RunTFillPad(o, profile); }

// ---- treshape -------------------------------------------------------------

namespace {
size_t TileBytes(const pto_tile* t) { return ElementCount(t) * ElementBytes(t->dtype); }

// treshape's rules, which talias shares: dst's dtype, the storages at one
// address or apart, the same total size (`source` names src, `why` the size
// rule's reason).
pto_status CheckSameBytes(const Operands& o, pto_profile profile, const char* function,
                          OpDtypes rule, const char* source, const char* why) {
  pto_tile* dst = o.dst;
  const pto_tile* src = o.src0;
  Validator v(function);
  v.NotNull("dst", dst).NotNull(source, src);
  if (!v.ok()) return v.status();
  v.DtypeAccepted(rule, profile, "dst", dst);
  if (!v.ok()) return v.status();
  // Whole storages: [data, data + bytes) of each.
  pto_tile whole_dst = *dst, whole_src = *src;
  whole_dst.valid_rows = dst->rows, whole_dst.valid_cols = dst->cols;
  whole_src.valid_rows = src->rows, whole_src.valid_cols = src->cols;
  v.Require(src->data == dst->data || !ValidRegionsOverlapSlow(&whole_src, &whole_dst),
            PTO_ERR_ALIASING,
            "%s's storage shares bytes with dst's without starting at the same address", source);
  v.Require(TileBytes(src) == TileBytes(dst), PTO_ERR_SHAPE_MISMATCH,
            "%s %ux%u %s is %zu bytes, dst %ux%u %s %zu (%s)", source, src->rows, src->cols,
            DtypeName(src->dtype), TileBytes(src), dst->rows, dst->cols, DtypeName(dst->dtype),
            TileBytes(dst), why);
  return v.status();
}
}  // namespace

pto_status CheckTReshape(const Operands& o, pto_profile profile) {
  return CheckSameBytes(o, profile, "pto_treshape", OpDtypes::kTReshape, "src",
                        "a reshape keeps the size");
}

// The bytes, unless they are already there (dst at src's address).
void RunTReshape(const Operands& o, pto_profile) {
  if (o.src0->data != o.dst->data) memcpy(o.dst->data, o.src0->data, TileBytes(o.dst));
}

// ---- talias ---------------------------------------------------------------

// pto-isa's TALIAS asserts TRESHAPE's rules and moves nothing, its compiler
// giving alias the original's storage: here the original (dst) takes alias's
// bytes under treshape's rules, which writes nothing when they share storage.
pto_status CheckTAlias(const Operands& o, pto_profile profile) {
  return CheckSameBytes(o, profile, "pto_talias", OpDtypes::kTAlias, "alias",
                        "an alias has the original's size");
}

void RunTAlias(const Operands& o, pto_profile profile) { RunTReshape(o, profile); }

// ---- ttrans ---------------------------------------------------------------

pto_status CheckTTrans(const Operands& o, pto_profile profile) {
  pto_tile* dst = o.dst;
  const pto_tile* src = o.src0;
  const pto_tile* tmp = o.tmp;
  Validator v("pto_ttrans");
  v.NotNull("dst", dst).NotNull("src", src).NotNull("tmp", tmp);
  if (!v.ok()) return v.status();
  v.DtypeAccepted(OpDtypes::kTTrans, profile, "dst", dst)
      .DtypeAccepted(OpDtypes::kTTrans, profile, "src", src)
      .Require(ElementBytes(src->dtype) == ElementBytes(dst->dtype), PTO_ERR_DTYPE_MISMATCH,
               "src dtype %s differs in size from dst dtype %s", DtypeName(src->dtype),
               DtypeName(dst->dtype))
      .Distinct("tmp", tmp, "dst", dst)
      .Distinct("tmp", tmp, "src", src);
  v.Require(src != dst && !ValidRegionsOverlapSlow(src, dst), PTO_ERR_ALIASING,
            "src's valid elements share storage with dst's (a transpose cannot run in place)");
  v.Require(dst->valid_rows == src->valid_cols && dst->valid_cols == src->valid_rows,
            PTO_ERR_SHAPE_MISMATCH, "dst valid region %ux%u is not src's %ux%u transposed",
            dst->valid_rows, dst->valid_cols, src->valid_rows, src->valid_cols);
  if (profile == PTO_PROFILE_A5)
    v.Require((src->cols * ElementBytes(src->dtype)) % 32 == 0 &&
                  (dst->cols * ElementBytes(dst->dtype)) % 32 == 0,
              PTO_ERR_SHAPE_MISMATCH,
              "src cols %u and dst cols %u of %zu-byte elements are not both a multiple of 32 "
              "bytes, which A5 requires",
              src->cols, dst->cols, ElementBytes(dst->dtype));
  return v.status();
}

void RunTTrans(const Operands& o, pto_profile) {
  kernels::Transpose(ElementBytes(o.dst->dtype), o.src0->valid_rows, o.src0->valid_cols,
                     PlaneOf(o.dst), ConstPlaneOf(o.src0));
}

// ---- tconcat -------------------------------------------------------------

pto_status CheckTConcat(const Operands& o, pto_profile profile) {
  pto_tile* dst = o.dst;
  const pto_tile *src0 = o.src0, *src1 = o.src1;
  Validator v("pto_tconcat");
  v.NotNull("dst", dst).NotNull("src0", src0).NotNull("src1", src1);
  if (!v.ok()) return v.status();
  v.DtypeAccepted(OpDtypes::kTConcat, profile, "dst", dst)
      .SameDtype("src0", src0, "dst", dst)
      .SameDtype("src1", src1, "dst", dst)
      .InPlaceOrApart("src0", src0, dst);
  v.Require(src1 != dst && !SamePlacement(src1, dst) && !ValidRegionsOverlapSlow(src1, dst),
            PTO_ERR_ALIASING,
            "src1's valid elements share storage with dst's (they are written at other columns)");
  v.Require(src0->valid_rows == dst->valid_rows && src1->valid_rows == dst->valid_rows,
            PTO_ERR_SHAPE_MISMATCH, "src0 valid rows %u and src1 valid rows %u differ from dst's %u",
            src0->valid_rows, src1->valid_rows, dst->valid_rows);
  v.Require(size_t{src0->valid_cols} + src1->valid_cols == dst->valid_cols,
            PTO_ERR_SHAPE_MISMATCH, "src0 valid cols %u + src1 valid cols %u differ from dst's %u",
            src0->valid_cols, src1->valid_cols, dst->valid_cols);
  return v.status();
}

void RunTConcat(const Operands& o, pto_profile) {
  pto_tile* dst = o.dst;
  const uint32_t rows = dst->valid_rows, left = o.src0->valid_cols, right = o.src1->valid_cols;
  if (left != 0 && o.src0->data != dst->data)
    kernels::Copy(dst->dtype, rows, left, PlaneOf(dst), ConstPlaneOf(o.src0));
  if (right != 0) kernels::Copy(dst->dtype, rows, right, Offset(dst, 0, left), ConstPlaneOf(o.src1));
}

// ---- tconcatidx -----------------------------------------------------------

pto_status CheckTConcatIdx(const Operands& o, pto_profile profile) {
  pto_tile* dst = o.dst;
  const pto_tile *src0 = o.src0, *src1 = o.src1, *idx0 = o.ext->src2, *idx1 = o.ext->src3;
  Validator v("pto_tconcatidx");
  v.NotNull("dst", dst).NotNull("src0", src0).NotNull("src1", src1).NotNull("src0_idx", idx0)
      .NotNull("src1_idx", idx1);
  if (!v.ok()) return v.status();
  v.DtypeAccepted(OpDtypes::kTConcatIdx, profile, "dst", dst)
      .SameDtype("src0", src0, "dst", dst)
      .SameDtype("src1", src1, "dst", dst);
  v.Require(idx0->dtype == PTO_INT8 || idx0->dtype == PTO_INT16 || idx0->dtype == PTO_INT32,
            PTO_ERR_UNSUPPORTED_DTYPE, "src0_idx dtype %s is not INT8, INT16 or INT32",
            DtypeName(idx0->dtype));
  v.SameDtype("src1_idx", idx1, "src0_idx", idx0).InPlaceOrApart("src0", src0, dst);
  v.Require(src1 != dst && !SamePlacement(src1, dst) && !ValidRegionsOverlapSlow(src1, dst),
            PTO_ERR_ALIASING,
            "src1's valid elements share storage with dst's (they are written at other columns)");
  v.Require(idx0 != dst && !SamePlacement(idx0, dst) && !ValidRegionsOverlapSlow(idx0, dst) &&
                idx1 != dst && !SamePlacement(idx1, dst) && !ValidRegionsOverlapSlow(idx1, dst),
            PTO_ERR_ALIASING, "src0_idx or src1_idx shares storage with dst's valid elements");
  const uint32_t rows = dst->valid_rows;
  v.Require(src0->valid_rows == rows && src1->valid_rows == rows && idx0->valid_rows == rows &&
                idx1->valid_rows == rows,
            PTO_ERR_SHAPE_MISMATCH,
            "the valid rows of src0 (%u), src1 (%u), src0_idx (%u) and src1_idx (%u) are not "
            "dst's %u",
            src0->valid_rows, src1->valid_rows, idx0->valid_rows, idx1->valid_rows, rows);
  v.Require(idx0->valid_cols >= 1 && idx1->valid_cols >= 1, PTO_ERR_SHAPE_MISMATCH,
            "src0_idx valid cols %u and src1_idx valid cols %u must be at least 1 (column 0 "
            "holds each row's count)",
            idx0->valid_cols, idx1->valid_cols);
  return v.status();
}

// Row i: the first n0 columns of src0 (at most src0's and dst's valid
// cols), then n1 of src1 (at most src1's valid cols and what dst's row has
// left); a negative count copies nothing. The rest of dst's row is not
// written. Under HOST n0 = src0_idx[i,0] and n1 = src1_idx[i,0], element
// counts as PTOAS's manual defines them; under A2A3 and A5 each is the index
// element divided by the index dtype's size (a byte count, truncated), as
// pto-isa's a2a3/TConcat.hpp and a5/TConcat.hpp read it (docs/profiles.md
// [F-TCONCATIDX]).
void RunTConcatIdx(const Operands& o, pto_profile profile) {
  pto_tile* dst = o.dst;
  const double unit = profile == PTO_PROFILE_HOST ? 1.0 : pto_dtype_size(o.ext->src2->dtype);
  const auto count = [unit](const pto_tile* idx, uint32_t row, uint32_t most) -> uint32_t {
    const double n = std::trunc(ElementValue(idx, static_cast<size_t>(row) * idx->cols) / unit);
    return n <= 0 ? 0u : n >= most ? most : static_cast<uint32_t>(n);
  };
  for (uint32_t r = 0; r < dst->valid_rows; ++r) {
    const uint32_t n0 = count(o.ext->src2, r, std::min(o.src0->valid_cols, dst->valid_cols));
    const uint32_t n1 = count(o.ext->src3, r, std::min(o.src1->valid_cols, dst->valid_cols - n0));
    if (n0 != 0 && o.src0->data != dst->data)
      kernels::Copy(dst->dtype, 1, n0, Offset(dst, r, 0), Offset(o.src0, r, 0));
    if (n1 != 0) kernels::Copy(dst->dtype, 1, n1, Offset(dst, r, n0), Offset(o.src1, r, 0));
  }
}

// ---- tinterleave, tdeinterleave -------------------------------------------

namespace {

// The rules of both (the pages' A5 checks; pto-isa's CPU model asserts the
// same): four tiles of one dtype and one valid region with even valid cols;
// an element moves to another column, so no destination shares storage with
// a source or with the other destination.
pto_status CheckInterleaving(const Operands& o, pto_profile profile, OpDtypes rule,
                             const char* c_function) {
  pto_tile *dst = o.dst, *dst1 = o.tmp;
  const pto_tile *src0 = o.src0, *src1 = o.src1;
  Validator v(c_function);
  v.NotNull("dst", dst).NotNull("src0", src0).NotNull("src1", src1).NotNull("dst1", dst1);
  if (!v.ok()) return v.status();
  v.DtypeAccepted(rule, profile, "dst", dst)
      .SameDtype("src0", src0, "dst", dst)
      .SameDtype("src1", src1, "dst", dst)
      .SameDtype("dst1", dst1, "dst", dst);
  if (!v.ok()) return v.status();
  const pto_tile* sources[] = {src0, src1};
  static const char* const kSources[] = {"src0", "src1"};
  v.Require(!SharesStorage(dst1, dst), PTO_ERR_ALIASING, "dst1 shares storage with dst");
  for (int k = 0; k < 2; ++k)
    v.Require(!SharesStorage(sources[k], dst) && !SharesStorage(sources[k], dst1), PTO_ERR_ALIASING,
              "%s shares storage with dst or dst1 (its elements move to other columns)",
              kSources[k]);
  v.SameValidRegion("src0", src0, "dst", dst)
      .SameValidRegion("src1", src1, "dst", dst)
      .SameValidRegion("dst1", dst1, "dst", dst);
  v.Require(dst->valid_cols % 2 == 0, PTO_ERR_SHAPE_MISMATCH,
            "dst valid cols %u are odd (a row's stream is split in halves)", dst->valid_cols);
  return v.status();
}

void RunInterleaving(const Operands& o, bool interleave) {
  kernels::Interleave(interleave, ElementBytes(o.dst->dtype), o.dst->valid_rows, o.dst->valid_cols,
                      PlaneOf(o.dst), PlaneOf(o.tmp), ConstPlaneOf(o.src0), ConstPlaneOf(o.src1));
}

}  // namespace

// The single-source form: src's row is the whole stream, so dst and dst1
// hold half its valid cols (the CPU model's TDEINTERLEAVE_IMPL(dst1, dst0,
// src), A5's "validCols of dst0/dst1 must be half the validCols of src").
pto_status CheckTDeInterleaveSingle(const Operands& o, pto_profile profile) {
  pto_tile *dst = o.dst, *dst1 = o.tmp;
  const pto_tile* src = o.src0;
  Validator v("pto_tdeinterleave_single");
  v.NotNull("dst", dst).NotNull("src", src).NotNull("dst1", dst1);
  if (!v.ok()) return v.status();
  v.DtypeAccepted(OpDtypes::kTDeInterleaveSingle, profile, "dst", dst)
      .SameDtype("src", src, "dst", dst)
      .SameDtype("dst1", dst1, "dst", dst);
  if (!v.ok()) return v.status();
  v.Require(!SharesStorage(dst1, dst), PTO_ERR_ALIASING, "dst1 shares storage with dst");
  v.Require(!SharesStorage(src, dst) && !SharesStorage(src, dst1), PTO_ERR_ALIASING,
            "src shares storage with dst or dst1 (its elements move to other columns)");
  v.SameValidRegion("dst1", dst1, "dst", dst);
  v.Require(src->valid_rows == dst->valid_rows && src->valid_cols == 2 * uint64_t{dst->valid_cols},
            PTO_ERR_SHAPE_MISMATCH,
            "src valid region %ux%u is not dst's %ux%u with twice its cols (dst and dst1 take "
            "every other element)",
            src->valid_rows, src->valid_cols, dst->valid_rows, dst->valid_cols);
  return v.status();
}
// The stream of 2C elements is src's row: its halves as the two sources.
void RunTDeInterleaveSingle(const Operands& o, pto_profile) {
  const uint32_t cols = o.dst->valid_cols;
  kernels::Interleave(false, ElementBytes(o.dst->dtype), o.dst->valid_rows, cols, PlaneOf(o.dst),
                      PlaneOf(o.tmp), ConstPlaneOf(o.src0), Offset(o.src0, 0, cols));
}

pto_status CheckTInterleave(const Operands& o, pto_profile profile) {
  return CheckInterleaving(o, profile, OpDtypes::kTInterleave, "pto_tinterleave");
}
void RunTInterleave(const Operands& o, pto_profile) { RunInterleaving(o, true); }

pto_status CheckTDeInterleave(const Operands& o, pto_profile profile) {
  return CheckInterleaving(o, profile, OpDtypes::kTDeInterleave, "pto_tdeinterleave");
}
void RunTDeInterleave(const Operands& o, pto_profile) { RunInterleaving(o, false); }

}  // namespace ops
}  // namespace pto
