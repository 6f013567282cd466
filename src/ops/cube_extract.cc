// pto_textract with a cube tile on either side (pto_c.h, pto_textract's
// cube form): a window of a mat tile into a left or right tile (pto-isa
// TEXTRACT.md, "Mat -> Left/Right"; A5's TExtract.hpp TEXTRACT_TILE_IMPL,
// A2A3's TExtract.hpp), each element kept at its (row, column) of the window
// and laid out as dst's layout says, bits unchanged; and A5's vec windows
// into vec NZ tiles (TExtract.hpp's NZ Vec -> Vec and ND -> 2xNZ, one
// destination a call). The row-major vec form is element_access.cc's.
#include "checked.h"
#include "fractal.h"
#include "ops/common.h"
#include "validate.h"

namespace pto {
namespace ops {

namespace {

// The dtypes each profile's cube extract takes: A5's is_textract_supported_type
// (the 8-bit and 4-bit floats among them), A2A3's the page's four; HOST both.
bool CubeExtractDtype(pto_dtype d, pto_profile profile) {
  const bool common =
      d == PTO_INT8 || d == PTO_FLOAT16 || d == PTO_BFLOAT16 || d == PTO_FLOAT32;
  const bool a5_low = d == PTO_FLOAT8_E4M3 || d == PTO_FLOAT8_E5M2 || d == PTO_HIFLOAT8 ||
                      d == PTO_FLOAT8_E8M0 || d == PTO_FLOAT4_E2M1X2 || d == PTO_FLOAT4_E1M2X2;
  return common || (profile != PTO_PROFILE_A2A3 && a5_low);
}

// The dtypes of A5's Vec -> Vec extract (TEXTRACT_IMPL's list), taken by
// its NZ forms too.
bool VecExtractDtype(pto_dtype d) {
  return d == PTO_FLOAT16 || d == PTO_BFLOAT16 || d == PTO_FLOAT32 || d == PTO_INT32 ||
         d == PTO_INT8 || d == PTO_HIFLOAT8 || d == PTO_FLOAT8_E4M3 || d == PTO_FLOAT8_E5M2 ||
         d == PTO_FLOAT8_E8M0 || d == PTO_FLOAT4_E2M1X2 || d == PTO_FLOAT4_E1M2X2;
}

// The dtypes of a window into a vec NZ tile: A5's list; A2A3's nine from NZ
// and its ND -> 2xNZ five from ND (CheckTExtractNdToNz); HOST both.
bool VecNzExtractDtype(pto_dtype d, pto_profile profile, bool from_nz) {
  const bool a2a3 = from_nz ? A2a3VecNineDtype(d)
                            : d == PTO_INT8 || d == PTO_FLOAT16 || d == PTO_BFLOAT16 ||
                                  d == PTO_FLOAT32 || d == PTO_INT32;
  if (profile == PTO_PROFILE_A2A3) return a2a3;
  return VecExtractDtype(d) || (profile == PTO_PROFILE_HOST && a2a3);
}

// A window of a vec tile into a vec NZ tile (src NZ or ND). A5 copies an NZ window in whole 32-byte column blocks of
// src from a block's start (TExtractVecToVecNZImpl) and a 1x1 one by its
// scalar path, whose bound is the index only; A2A3 starts an NZ window on a
// whole box (index_row a multiple of 16, index_col of 32 bytes: its "A3
// limitation") but for a 1x1 one; on both an ND source's rows start on
// 32-byte boundaries (CheckTExtractNdToNz).
pto_status CheckVecNzExtract(Validator& v, const Operands& o, pto_profile profile) {
  pto_tile* dst = o.dst;
  const pto_tile* src = o.src0;
  const bool from_nz = src->layout == PTO_LAYOUT_NZ;
  v.Require(dst->layout == PTO_LAYOUT_NZ && (from_nz || src->layout == PTO_LAYOUT_ND),
               PTO_ERR_INVALID_ARGUMENT,
               "a vec %s tile into a vec %s tile is not a vec extract (ND or NZ into NZ, ND "
               "into ND)",
               LayoutName(static_cast<pto_layout>(src->layout)),
               LayoutName(static_cast<pto_layout>(dst->layout)));
  v.Require(src->dtype == dst->dtype, PTO_ERR_DTYPE_MISMATCH,
            "src is %s and dst %s; the extract keeps the dtype", DtypeName(src->dtype),
            DtypeName(dst->dtype));
  if (v.ok())
    v.Require(VecNzExtractDtype(dst->dtype, profile, from_nz), PTO_ERR_UNSUPPORTED_DTYPE,
              "the vec extract into an NZ tile on %s does not carry %s",
              pto_profile_string(profile), DtypeName(dst->dtype));
  v.Distinct("src", src, "dst", dst);
  if (!v.ok()) return v.status();
  const size_t size = ElementBytes(dst->dtype);
  const bool one_element = dst->valid_rows == 1 && dst->valid_cols == 1;
  if (profile == PTO_PROFILE_A2A3)
    v.Require(from_nz || (src->cols * size) % 32 == 0, PTO_ERR_SHAPE_MISMATCH,
              "src cols %u of %zu-byte elements are not a multiple of 32 bytes, which A2A3's "
              "extract into NZ requires",
              src->cols, size);
  if (profile == PTO_PROFILE_A5) {
    v.Require(!from_nz || dst->cols <= src->cols, PTO_ERR_SHAPE_MISMATCH,
              "dst cols %u exceed src cols %u, which A5 forbids", dst->cols, src->cols)
        .Require(from_nz || (src->cols * size) % 32 == 0, PTO_ERR_SHAPE_MISMATCH,
                 "src cols %u of %zu-byte elements are not a multiple of 32 bytes, which A5's "
                 "extract into NZ requires",
                 src->cols, size)
        .Require(!from_nz || one_element || (dst->valid_cols * size) % 32 == 0,
                 PTO_ERR_SHAPE_MISMATCH,
                 "dst valid cols %u of %zu-byte elements are not a multiple of 32 bytes, which "
                 "A5's NZ copy moves (but for a 1x1 dst)",
                 dst->valid_cols, size);
  }
  if (!v.ok() || !o.contents_known) return v.status();
  const size_t row = o.index[0], col = o.index[1];
  v.Require(SpanInside(row, dst->valid_rows, src->valid_rows) &&
                SpanInside(col, dst->valid_cols, src->valid_cols),
            PTO_ERR_OUT_OF_RANGE,
            "the window at (%zu, %zu) of dst's valid region %ux%u is outside src's valid region "
            "%ux%u",
            row, col, dst->valid_rows, dst->valid_cols, src->valid_rows, src->valid_cols);
  if (profile == PTO_PROFILE_A5 && from_nz && !one_element)
    v.Require((col * size) % 32 == 0, PTO_ERR_OUT_OF_RANGE,
              "index_col %zu of %zu-byte elements is not a multiple of 32 bytes, which A5's NZ "
              "copy requires (but for a 1x1 dst)",
              col, size);
  if (profile == PTO_PROFILE_A2A3 && from_nz && !one_element)
    v.Require(row % 16 == 0 && (col * size) % 32 == 0, PTO_ERR_OUT_OF_RANGE,
              "the window at (%zu, %zu) does not start on a 16 x 32-byte box, which A2A3's NZ "
              "copy requires (but for a 1x1 dst)",
              row, col);
  return v.status();
}

}  // namespace

// The rules, in order: NULL handles; the move (mat to left or right, or a
// vec window into a vec NZ tile, CheckVecNzExtract's); dst's layout and
// src's (A2A3, A5); dtypes; aliasing; the window.
pto_status CheckCubeExtract(const Operands& o, pto_profile profile) {
  pto_tile* dst = o.dst;
  const pto_tile* src = o.src0;
  Validator v("pto_textract");
  v.NotNull("dst", dst).NotNull("src", src);
  if (!v.ok()) return v.status();
  const auto location = [](const pto_tile* t) { return static_cast<pto_location>(t->location); };
  const auto layout = [](const pto_tile* t) { return static_cast<pto_layout>(t->layout); };
  const bool to_l0 = src->location == PTO_LOC_MAT &&
                     (dst->location == PTO_LOC_LEFT || dst->location == PTO_LOC_RIGHT);
  if (src->location == PTO_LOC_VEC && dst->location == PTO_LOC_VEC)
    return CheckVecNzExtract(v, o, profile);
  v.Require(to_l0, PTO_ERR_INVALID_ARGUMENT,
            "from %s %s %s tile to %s %s %s tile is not an extract the cube has (mat to left or "
            "right; vec ND or NZ to vec NZ; vec ND to vec ND is the vec form)",
            LocationArticle(location(src)), LocationName(location(src)), LayoutName(layout(src)),
            LocationArticle(location(dst)), LocationName(location(dst)), LayoutName(layout(dst)));
  if (!v.ok()) return v.status();
  if (profile != PTO_PROFILE_HOST) {
    const pto_layout want = dst->location == PTO_LOC_RIGHT ? PTO_LAYOUT_ZN
                            : profile == PTO_PROFILE_A2A3  ? PTO_LAYOUT_ZZ
                                                           : PTO_LAYOUT_NZ;
    v.Require(dst->layout == want, PTO_ERR_INVALID_ARGUMENT,
              "under %s a %s tile is laid out %s, not %s", pto_profile_string(profile),
              LocationName(location(dst)), LayoutName(want), LayoutName(layout(dst)))
        .Require(src->layout == PTO_LAYOUT_NZ || src->layout == PTO_LAYOUT_ZN,
                 PTO_ERR_INVALID_ARGUMENT,
                 "under %s the mat tile is laid out NZ or ZN (its transposed form), not %s",
                 pto_profile_string(profile), LayoutName(layout(src)));
  }
  v.Require(src->dtype == dst->dtype, PTO_ERR_DTYPE_MISMATCH,
            "src is %s and dst %s; the cube's extract keeps the dtype", DtypeName(src->dtype),
            DtypeName(dst->dtype));
  if (v.ok())
    v.Require(CubeExtractDtype(dst->dtype, profile), PTO_ERR_UNSUPPORTED_DTYPE,
              "the cube's extract on %s does not carry %s", pto_profile_string(profile),
              DtypeName(dst->dtype));
  v.Distinct("src", src, "dst", dst);
  if (!v.ok() || !o.contents_known) return v.status();
  const size_t row = o.index[0], col = o.index[1];
  return v
      .Require(SpanInside(row, dst->valid_rows, src->valid_rows) &&
                   SpanInside(col, dst->valid_cols, src->valid_cols),
               PTO_ERR_OUT_OF_RANGE,
               "the window at (%zu, %zu) of dst's valid region %ux%u is outside src's valid "
               "region %ux%u",
               row, col, dst->valid_rows, dst->valid_cols, src->valid_rows, src->valid_cols)
      .status();
}

// dst's valid region, element (i, j) read at (index_row + i, index_col + j)
// of src.
void RunCubeExtract(const Operands& o) {
  pto_tile* dst = o.dst;
  const pto_tile* src = o.src0;
  CopyRegion(TileLayout(dst), static_cast<char*>(dst->data), dst->origin_row, dst->origin_col,
             TileLayout(src), static_cast<const char*>(src->data), src->origin_row + o.index[0],
             src->origin_col + o.index[1], dst->valid_rows, dst->valid_cols,
             pto_dtype_size(dst->dtype));
}

}  // namespace ops
}  // namespace pto
