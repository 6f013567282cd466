// Element access: one element of a tile as a scalar (TGETVAL, TSETVAL), a
// window of a tile (TEXTRACT) and a tile written into one (TINSERT); the
// index-tile forms (TGATHER, TGATHERB, TSCATTER) are element_access_gather.cc's.
// TGETVAL and TSETVAL address the element at a flat offset, index = row *
// cols + col, as pto-isa's Tile::GetValue and Tile::SetValue address it
// (include/pto/common/pto_tile.hpp) and PTOAS's tgetval/tsetval take it (a
// linear element offset); the index tiles hold such offsets. tgetval,
// tsetval, textract and tinsert are rows of operations.def (their checks and
// runs here); tgetval's row has no dst: its value goes to the out argument.
#include "ops/common.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "checked.h"
#include "dtype_rules.h"
#include "kernels/kernels.h"
#include "overlap.h"
#include "profile.h"
#include "pto_c.h"
#include "tile.h"
#include "validate.h"

namespace pto {
namespace ops {

namespace {

// Whether flat offset `index` names an element of t's valid region.
bool AddressesValidElement(const pto_tile* t, size_t index) {
  return index / t->cols < t->valid_rows && index % t->cols < t->valid_cols;
}

// In board mode under A2A3 and A5 an index inside the tile's rows x cols
// but outside its valid region is a warning: Tile::SetValue and GetValue
// (pto-isa's common/pto_tile.hpp, TSETVAL's and TGETVAL's implementation)
// address the element at the offset unchecked.
Validator& RequireValidElement(Validator& v, const char* operand, const pto_tile* t,
                               size_t index, pto_profile profile) {
  return v.RequireOrBoard(AddressesValidElement(t, index),
                          index < static_cast<size_t>(t->rows) * t->cols, profile,
                          PTO_ERR_OUT_OF_RANGE,
                          "index %zu (row %zu, col %zu of %u cols) is outside %s's valid region "
                          "%ux%u",
                          index, index / t->cols, index % t->cols, t->cols, operand,
                          t->valid_rows, t->valid_cols);
}

}  // namespace

pto_status CheckTgetval(const pto_tile* src, size_t index, bool out_given, bool index_known,
                        pto_profile profile) {
  Validator v("pto_tgetval");
  v.OnVec("src", src).NotNull("src", src).Require(out_given, PTO_ERR_NULL_ARGUMENT, "out is NULL");
  if (!v.ok()) return v.status();
  v.DtypeAccepted(OpDtypes::kTGetVal, profile, "src", src);
  if (index_known) RequireValidElement(v, "src", src, index, profile);
  return v.status();
}

// The row's check and run: src0 the tile, index[0] the offset, out the
// result.
pto_status CheckTGetVal(const Operands& o, pto_profile profile) {
  return CheckTgetval(o.src0, o.index[0], o.ext->out != nullptr, o.contents_known, profile);
}

void RunTGetVal(const Operands& o, pto_profile) { *o.ext->out = ElementValue(o.src0, o.index[0]); }

namespace {
template <typename T>
double ValueAt(const char* at) {
  T e;
  memcpy(&e, at, sizeof e);
  return static_cast<double>(e);
}
}  // namespace

double ElementValue(const pto_tile* t, size_t index) {
  const char* at = static_cast<const char*>(t->data) + index * ElementBytes(t->dtype);
  switch (t->dtype) {
    case PTO_INT8: return ValueAt<int8_t>(at);
    case PTO_UINT8: return ValueAt<uint8_t>(at);
    case PTO_INT16: return ValueAt<int16_t>(at);
    case PTO_UINT16: return ValueAt<uint16_t>(at);
    case PTO_INT32: return ValueAt<int32_t>(at);
    case PTO_UINT32: return ValueAt<uint32_t>(at);
    default: {  // the float dtypes: every value is a float's, and so a double's
      float f;
      kernels::ToF32(t->dtype, 1, &f, at);
      return f;
    }
  }
}

// ---- tsetval --------------------------------------------------------------

pto_status CheckTSetVal(const Operands& o, pto_profile profile) {
  pto_tile* dst = o.dst;
  Validator v("pto_tsetval");
  v.NotNull("dst", dst);
  if (!v.ok()) return v.status();
  v.DtypeAccepted(OpDtypes::kTSetVal, profile, "dst", dst);
  RequireScalarOf(v, "value", o.scalar, "dst", dst->dtype);
  if (o.contents_known) RequireValidElement(v, "dst", dst, o.index[0], profile);
  return v.status();
}

// The value's bits (ScalarBits: under the run's float environment) in the
// element's width.
void RunTSetVal(const Operands& o, pto_profile) {
  const size_t size = ElementBytes(o.dst->dtype);
  const uint32_t bits = ScalarBits(o.dst->dtype, o.scalar);
  char* at = static_cast<char*>(o.dst->data) + o.index[0] * size;
  const uint8_t b8 = static_cast<uint8_t>(bits);
  const uint16_t b16 = static_cast<uint16_t>(bits);
  memcpy(at, size == 1 ? static_cast<const void*>(&b8)
             : size == 2 ? static_cast<const void*>(&b16)
                         : static_cast<const void*>(&bits),
         size);
}

namespace {

// ---- textract --------------------------------------------------------------

// A2A3's copies start a window's rows on 32-byte boundaries: index_col *
// size a multiple of 32 unless the window (`window`'s valid region) is 1x1.
Validator& RequireA2A3IndexCol(Validator& v, pto_profile profile, bool one_element, size_t col,
                               size_t size, const char* window) {
  if (profile != PTO_PROFILE_A2A3) return v;
  return v.Require(one_element || (col * size) % 32 == 0, PTO_ERR_OUT_OF_RANGE,
                   "index_col %zu of %zu-byte elements is not a multiple of 32 bytes, which A2A3 "
                   "requires (but for a 1x1 %s)",
                   col, size, window);
}

}  // namespace

pto_status CheckTExtract(const Operands& o, pto_profile profile) {
  pto_tile* dst = o.dst;
  const pto_tile* src = o.src0;
  const size_t row = o.index[0], col = o.index[1];
  const char* const target = pto_profile_string(profile);
  Validator v("pto_textract");
  v.NotNull("dst", dst).NotNull("src", src);
  if (!v.ok()) return v.status();
  v.DtypeAccepted(OpDtypes::kTExtract, profile, "dst", dst).SameDtype("src", src, "dst", dst);
  const size_t size = ElementBytes(dst->dtype);
  // dst row i reads the window's row i: a dst placed on the window exactly,
  // or on earlier window rows, is the row order's (the offsets must be known).
  if (v.ok() && SharesStorage(src, dst)) {
    const bool window_known = src != dst && o.contents_known &&
                              SpanInside(row, dst->valid_rows, src->valid_rows) &&
                              SpanInside(col, dst->valid_cols, src->valid_cols);
    v.Require(window_known, PTO_ERR_ALIASING,
              "src's valid elements share storage with dst's (the window is copied into dst)");
    if (window_known) {
      pto_tile window = *src;
      window.data = static_cast<char*>(src->data) + (row * src->cols + col) * size;
      window.rows = static_cast<uint32_t>(src->rows - row);
      window.valid_rows = dst->valid_rows;
      window.valid_cols = dst->valid_cols;
      v.InRowOrderOrApart("the window of src", &window, dst, profile);
    }
  }
  if (profile != PTO_PROFILE_HOST)
    v.Require(dst->rows <= src->rows && dst->cols <= src->cols, PTO_ERR_SHAPE_MISMATCH,
              "dst %ux%u exceeds src %ux%u, which %s forbids", dst->rows, dst->cols, src->rows,
              src->cols, target);
  const bool one_element = dst->valid_rows == 1 && dst->valid_cols == 1;
  if (profile == PTO_PROFILE_A2A3) {
    v.Require((src->cols * size) % 32 == 0 && (dst->cols * size) % 32 == 0,
              PTO_ERR_SHAPE_MISMATCH,
              "src cols %u and dst cols %u of %zu-byte elements are not both a multiple of 32 "
              "bytes, which A2A3 requires",
              src->cols, dst->cols, size)
        .Require(one_element || (dst->valid_cols * size) % 2 == 0, PTO_ERR_SHAPE_MISMATCH,
                 "dst valid cols %u of 1-byte elements is odd, which A2A3 refuses (its copy "
                 "moves 2 bytes at a time)",
                 dst->valid_cols);
  }
  // A5 moves a packed FP4 window by its byte copy only (TExtract.hpp's ND
  // Vec -> Vec dispatch): rows, the window's width and its start in whole
  // 32-byte blocks, but for a 1x1 window (one byte, its scalar path).
  const bool fp4_a5 = profile == PTO_PROFILE_A5 && IsPackedDtype(dst->dtype) && !one_element;
  if (fp4_a5)
    v.Require(src->cols % 32 == 0 && dst->cols % 32 == 0 && dst->valid_cols % 32 == 0,
              PTO_ERR_SHAPE_MISMATCH,
              "src cols %u, dst cols %u and dst valid cols %u of a packed FP4 tile are not all "
              "multiples of 32 bytes, which A5 requires",
              src->cols, dst->cols, dst->valid_cols);
  // The offsets, where known: the window inside src's valid region (and,
  // under A2A3 and A5, dst's whole rows x cols inside src's, the page's
  // bound).
  if (!o.contents_known) return v.status();
  v.Require(SpanInside(row, dst->valid_rows, src->valid_rows) &&
                SpanInside(col, dst->valid_cols, src->valid_cols),
            PTO_ERR_OUT_OF_RANGE,
            "the window at (%zu, %zu) of dst's valid region %ux%u is outside src's valid region "
            "%ux%u",
            row, col, dst->valid_rows, dst->valid_cols, src->valid_rows, src->valid_cols);
  // A5 bounds dst's whole rows x cols (the page's bound) but copies a 1x1
  // window by its scalar path, which bounds the index only (TExtract.hpp:
  // indexRow < src rows, indexCol < src cols; its ST extracts one element
  // near src's right edge into a 32-byte dst). A2A3's ND Vec -> Vec dispatch
  // bounds index + dst's valid rows and cols, which the valid-region check
  // above covers (its ST has windows whose dst rows run past src's).
  if (profile == PTO_PROFILE_A5 && !one_element)
    v.Require(SpanInside(row, dst->rows, src->rows) && SpanInside(col, dst->cols, src->cols),
              PTO_ERR_OUT_OF_RANGE,
              "index_row %zu + dst rows %u or index_col %zu + dst cols %u exceeds src %ux%u, "
              "which %s forbids",
              row, dst->rows, col, dst->cols, src->rows, src->cols, target);
  if (fp4_a5)
    v.Require(col % 32 == 0, PTO_ERR_OUT_OF_RANGE,
              "index_col %zu of a packed FP4 tile is not a multiple of 32 bytes, which A5 "
              "requires (but for a 1x1 dst)",
              col);
  return RequireA2A3IndexCol(v, profile, one_element, col, size, "dst").status();
}

void RunTExtract(const Operands& o, pto_profile) {
  pto_tile* dst = o.dst;
  kernels::Copy(dst->dtype, dst->valid_rows, dst->valid_cols, PlaneOf(dst),
                Offset(o.src0, static_cast<uint32_t>(o.index[0]), static_cast<uint32_t>(o.index[1])));
}

// ---- tinsert ------------------------------------------------------------------

pto_status CheckTInsert(const Operands& o, pto_profile profile) {
  pto_tile* dst = o.dst;
  const pto_tile* src = o.src0;
  const size_t row = o.index[0], col = o.index[1];
  const char* const target = pto_profile_string(profile);
  Validator v("pto_tinsert");
  v.NotNull("dst", dst).NotNull("src", src);
  if (!v.ok()) return v.status();
  v.DtypeAccepted(OpDtypes::kTInsert, profile, "dst", dst).SameDtype("src", src, "dst", dst);
  // src's elements land in another place of dst: no storage in common.
  v.Require(!SharesStorage(src, dst), PTO_ERR_ALIASING,
            "src's valid elements share storage with dst's (it is copied into dst)");
  if (!v.ok()) return v.status();
  const size_t size = ElementBytes(dst->dtype);
  const bool one_element = src->valid_rows == 1 && src->valid_cols == 1;
  // The NPUs' static_asserts (common/arch/memory/tinsert_common.hpp, a5/TInsert.hpp).
  if (profile != PTO_PROFILE_HOST) {
    v.Require(src->rows <= dst->rows && src->cols <= dst->cols, PTO_ERR_SHAPE_MISMATCH,
              "src %ux%u exceeds dst %ux%u, which %s forbids", src->rows, src->cols, dst->rows,
              dst->cols, target)
        .Require(one_element || (src->valid_cols * size) % 2 == 0, PTO_ERR_SHAPE_MISMATCH,
                 "src valid cols %u of 1-byte elements is odd, which %s refuses (its copy moves "
                 "2 bytes at a time)",
                 src->valid_cols, target);
  }
  if (profile == PTO_PROFILE_A2A3)
    v.Require((src->cols * size) % 32 == 0 && (dst->cols * size) % 32 == 0,
              PTO_ERR_SHAPE_MISMATCH,
              "src cols %u and dst cols %u of %zu-byte elements are not both a multiple of 32 "
              "bytes, which A2A3 requires",
              src->cols, dst->cols, size);
  // The offsets, where known: src's valid region lands inside dst's (pto-isa's
  // CPU model asserts it; the NPUs bound it by dst's rows x cols).
  if (!v.ok() || !o.contents_known) return v.status();
  v.Require(SpanInside(row, src->valid_rows, dst->valid_rows) &&
                SpanInside(col, src->valid_cols, dst->valid_cols),
            PTO_ERR_OUT_OF_RANGE,
            "src's valid region %ux%u at (%zu, %zu) is outside dst's valid region %ux%u",
            src->valid_rows, src->valid_cols, row, col, dst->valid_rows, dst->valid_cols);
  return RequireA2A3IndexCol(v, profile, one_element, col, size, "src").status();
}

void RunTInsert(const Operands& o, pto_profile) {
  pto_tile* dst = o.dst;
  const pto_tile* src = o.src0;
  const size_t size = ElementBytes(dst->dtype);
  char* at = static_cast<char*>(dst->data) + (o.index[0] * dst->cols + o.index[1]) * size;
  kernels::Copy(dst->dtype, src->valid_rows, src->valid_cols, {at, dst->cols}, ConstPlaneOf(src));
}

}  // namespace ops
}  // namespace pto
