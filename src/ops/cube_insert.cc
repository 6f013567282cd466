// pto_tinsert with a vec tile in a fractal layout (pto_c.h, pto_tinsert's
// fractal form): A5's TINSERT of a vec NZ tile into a mat or vec NZ tile and
// of a vec ZN tile into a mat ZN tile (pto-isa TINSERT.md; a5/TInsert.hpp
// TInsertVecToMatImpl, TInsertVecToVecImpl), each element of src's valid
// region kept at its (row, column), moved to (index_row + row, index_col +
// column) of dst and laid out as dst's layout says, bits unchanged. The
// row-major vec form is element_access.cc's.
#include "checked.h"
#include "fractal.h"
#include "ops/common.h"
#include "validate.h"

namespace pto {
namespace ops {

namespace {

// A5's TINSERT_IMPL dtypes (the same list for the vec and the mat
// destination); A2A3's nine; HOST both.
bool FractalInsertDtype(pto_dtype d, pto_profile profile) {
  if (profile == PTO_PROFILE_A2A3) return A2a3VecNineDtype(d);
  if (profile == PTO_PROFILE_HOST && A2a3VecNineDtype(d)) return true;
  return d == PTO_FLOAT16 || d == PTO_BFLOAT16 || d == PTO_FLOAT32 || d == PTO_INT32 ||
         d == PTO_INT8 || d == PTO_HIFLOAT8 || d == PTO_FLOAT8_E4M3 || d == PTO_FLOAT8_E5M2 ||
         d == PTO_FLOAT8_E8M0 || d == PTO_FLOAT4_E2M1X2 || d == PTO_FLOAT4_E1M2X2;
}

// A5 copies whole 32-byte box lines: along cols for NZ (its column blocks
// of src's valid rows), along rows for ZN (TInsertZNImpl asserts index_row
// and valid rows aligned), so the window starts and spans whole lines.
Validator& RequireA5Lines(Validator& v, const Operands& o, size_t size) {
  const pto_tile* src = o.src0;
  const bool nz = src->layout == PTO_LAYOUT_NZ;
  const size_t index = nz ? o.index[1] : o.index[0];
  const uint32_t extent = nz ? src->valid_cols : src->valid_rows;
  const char* what = nz ? "index_col" : "index_row";
  const char* span = nz ? "valid cols" : "valid rows";
  v.Require((extent * size) % 32 == 0, PTO_ERR_SHAPE_MISMATCH,
            "src %s %u of %zu-byte elements are not a multiple of 32 bytes, which A5's %s "
            "insert requires",
            span, extent, size, nz ? "NZ" : "ZN");
  if (v.ok() && o.contents_known)
    v.Require((index * size) % 32 == 0, PTO_ERR_OUT_OF_RANGE,
              "%s %zu of %zu-byte elements is not a multiple of 32 bytes, which A5's %s insert "
              "requires",
              what, index, size, nz ? "NZ" : "ZN");
  return v;
}

}  // namespace

bool IsFractalInsert(const Operands& o) {
  return o.dst != nullptr && o.src0 != nullptr && (IsCubeTile(o.dst) || IsCubeTile(o.src0));
}

// The rules, in order: the form (vec NZ into mat or vec NZ, vec ZN into mat
// ZN; A2A3 vec NZ into vec NZ only); dtypes; aliasing; A5's whole box lines
// and src cols (NZ into vec NZ) at most dst's; A2A3's shapes; A2A3's box
// start; the window inside dst's valid region.
pto_status CheckFractalInsert(const Operands& o, pto_profile profile) {
  pto_tile* dst = o.dst;
  const pto_tile* src = o.src0;
  Validator v("pto_tinsert");
  const auto location = [](const pto_tile* t) { return static_cast<pto_location>(t->location); };
  const auto layout = [](const pto_tile* t) { return static_cast<pto_layout>(t->layout); };
  const bool vec_src = src->location == PTO_LOC_VEC;
  const bool nz = vec_src && src->layout == PTO_LAYOUT_NZ && dst->layout == PTO_LAYOUT_NZ &&
                  (dst->location == PTO_LOC_MAT || dst->location == PTO_LOC_VEC);
  const bool zn = vec_src && src->layout == PTO_LAYOUT_ZN && dst->layout == PTO_LAYOUT_ZN &&
                  dst->location == PTO_LOC_MAT;
  v.Require(nz || zn, PTO_ERR_INVALID_ARGUMENT,
            "from %s %s %s tile into %s %s %s tile is not an insert libpto has (vec ND into vec "
            "ND; vec NZ into mat or vec NZ; vec ZN into mat ZN)",
            LocationArticle(location(src)), LocationName(location(src)), LayoutName(layout(src)),
            LocationArticle(location(dst)), LocationName(location(dst)), LayoutName(layout(dst)))
      .Require(profile != PTO_PROFILE_A2A3 || (nz && dst->location == PTO_LOC_VEC),
               PTO_ERR_INVALID_ARGUMENT,
               "A2A3 inserts a vec NZ tile into a vec NZ tile only (into a mat tile is A5's)");
  if (!v.ok()) return v.status();
  v.Require(src->dtype == dst->dtype, PTO_ERR_DTYPE_MISMATCH,
            "src is %s and dst %s; the insert keeps the dtype", DtypeName(src->dtype),
            DtypeName(dst->dtype));
  if (v.ok())
    v.Require(FractalInsertDtype(dst->dtype, profile), PTO_ERR_UNSUPPORTED_DTYPE,
              "the insert of a vec %s tile on %s does not carry %s", LayoutName(layout(src)),
              pto_profile_string(profile), DtypeName(dst->dtype));
  v.Distinct("src", src, "dst", dst);
  if (!v.ok()) return v.status();
  if (profile == PTO_PROFILE_A5) {
    v.Require(dst->location != PTO_LOC_VEC || src->cols <= dst->cols, PTO_ERR_SHAPE_MISMATCH,
              "src cols %u exceed dst cols %u, which A5 forbids", src->cols, dst->cols);
    if (v.ok()) RequireA5Lines(v, o, ElementBytes(dst->dtype));
  }
  const size_t size = ElementBytes(dst->dtype);
  const bool one_element = src->valid_rows == 1 && src->valid_cols == 1;
  if (profile == PTO_PROFILE_A2A3)
    v.Require(src->rows <= dst->rows && src->cols <= dst->cols, PTO_ERR_SHAPE_MISMATCH,
              "src %ux%u exceeds dst %ux%u, which A2A3 forbids", src->rows, src->cols, dst->rows,
              dst->cols)
        .Require(one_element || (src->valid_cols * size) % 2 == 0, PTO_ERR_SHAPE_MISMATCH,
                 "src valid cols %u of 1-byte elements is odd, which A2A3 refuses (its copy "
                 "moves 2 bytes at a time)",
                 src->valid_cols);
  if (!v.ok() || !o.contents_known) return v.status();
  const size_t row = o.index[0], col = o.index[1];
  // A2A3 starts a window on a whole box (its "A3 limitation") but for a 1x1 one.
  if (profile == PTO_PROFILE_A2A3 && !one_element)
    v.Require(row % 16 == 0 && (col * size) % 32 == 0, PTO_ERR_OUT_OF_RANGE,
              "the window at (%zu, %zu) does not start on a 16 x 32-byte box, which A2A3's NZ "
              "copy requires (but for a 1x1 src)",
              row, col);
  return v
      .Require(SpanInside(row, src->valid_rows, dst->valid_rows) &&
                   SpanInside(col, src->valid_cols, dst->valid_cols),
               PTO_ERR_OUT_OF_RANGE,
               "src's valid region %ux%u at (%zu, %zu) is outside dst's valid region %ux%u",
               src->valid_rows, src->valid_cols, row, col, dst->valid_rows, dst->valid_cols)
      .status();
}

// src's valid region, element (i, j) written at (index_row + i, index_col +
// j) of dst.
void RunFractalInsert(const Operands& o) {
  pto_tile* dst = o.dst;
  const pto_tile* src = o.src0;
  CopyRegion(TileLayout(dst), static_cast<char*>(dst->data), dst->origin_row + o.index[0],
             dst->origin_col + o.index[1], TileLayout(src), static_cast<const char*>(src->data),
             src->origin_row, src->origin_col, src->valid_rows, src->valid_cols,
             pto_dtype_size(dst->dtype));
}

}  // namespace ops
}  // namespace pto
