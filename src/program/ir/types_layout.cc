// tile_buf's memory and layout keys, and the rules that tie a tile's
// layout to its memory and shape.
#include "program/ir/types_layout.h"

#include <string>

namespace pto {
namespace program {

// Layout keys shared by both !pto.tile_buf spellings, recorded in *t: the
// location (vec or one of the cube's memories), blayout, slayout, fractal;
// pad= is ParsePadKey's. Whether the layout suits the location and shape is
// CheckLayout's, once the shape is known.
bool LayoutKey(std::string_view key, std::string_view value, Type* t, std::string* what) {
  int64_t n;
  if (key == "loc") {
    for (int s = 0; s < kSpaceCount; ++s) {
      if (value == SpaceSpelling(static_cast<Space>(s))) {
        t->space = static_cast<Space>(s);
        return true;
      }
    }
    *what = "loc=" + std::string(value) +
            " is not a tile location (vec, mat, left, right, acc, bias, scaling)";
    return false;
  }
  if (key == "blayout") {
    if (value == "row_major" || value == "col_major") {
      t->col_major = value == "col_major";
      return true;
    }
    *what = "blayout=" + std::string(value) + " is not row_major or col_major";
    return false;
  }
  if (key == "slayout") {
    if (value == "none_box") t->box = Box::kNone;
    else if (value == "row_major") t->box = Box::kRowMajor;
    else if (value == "col_major") t->box = Box::kColMajor;
    else {
      *what = "slayout=" + std::string(value) + " is not none_box, row_major or col_major";
      return false;
    }
    return true;
  }
  if (key == "fractal") {
    if (ParseInt(value, &n) && (n == 32 || n == 512 || n == 1024)) {
      t->fractal = static_cast<uint16_t>(n);
      return true;
    }
    *what = "fractal=" + std::string(value) + " is not one of 32, 512, 1024";
    return false;
  }
  // compact=1 (pto-isa's CompactMode::Normal) lets the NPU's moves pack a
  // partly valid tile's boxes by its valid rows; here such a tile keeps
  // compact=0's layout (every instruction reads it as it was written, so
  // the values are the same; only another tile aliasing its bytes would see
  // the difference). compact=2 (RowPlusOne): CheckLayout.
  if (key == "compact") {
    if (value == "0" || value == "1" || value == "2") {
      t->compact = static_cast<uint8_t>(value[0] - '0');
      return true;
    }
    *what = "compact=" + std::string(value) + " is not 0, 1 or 2 (row_plus_one)";
    return false;
  }
  *what = "unknown tile_buf key '" + std::string(key) + "'";
  return false;
}

namespace {

// compact=2 (pto-isa's CompactMode::RowPlusOne). pto-isa's Tile keeps its
// row stride (Cols) whatever the mode, so a tile without boxes is laid out
// as compact=0's (PTOAS plans a row of one more element, which only makes
// room). In boxes, the mode is A5's NZ+1: TMOV and TEXTRACT into an NZ tile
// (and TINSERT from one) step its column strips align16(valid rows) + 1
// rows apart (include/pto/npu/a5/TMov.hpp, TExtract.hpp, TInsert.hpp), which
// is the NZ layout of a tile of that many rows: an NZ tile of 16k + 1 rows
// whose static valid rows round up to 16k. Other boxed layouts have no
// such mode.
bool CheckRowPlusOne(const Type& t, std::string* what) {
  if (t.box == Box::kNone) return true;
  const std::string shape = std::to_string(t.rows) + "x" + std::to_string(t.cols);
  if (!(t.col_major && t.box == Box::kRowMajor)) {
    *what = std::string("compact=2 (row_plus_one) is A5's NZ+1 layout: a boxed tile with it is "
                        "NZ (blayout=col_major, slayout=row_major), not ") +
            LayoutName(t);
    return false;
  }
  if (t.rows % 16 != 1 || t.rows < 17) {
    *what = "an NZ tile with compact=2 (row_plus_one) has 16k + 1 rows (its column strips lie "
            "one row further apart than its boxes need), not " + shape;
    return false;
  }
  if (t.valid_rows == kDynamic || (t.valid_rows + 15) / 16 * 16 + 1 != t.rows) {
    *what = "an NZ tile with compact=2 (row_plus_one) of " + std::to_string(t.rows) +
            " rows has static valid rows " + std::to_string(t.rows - 16) + " to " +
            std::to_string(t.rows - 1) +
            " (the NPU's moves step its column strips by the valid rows rounded up to 16, "
            "plus one)";
    return false;
  }
  return true;
}

}  // namespace

// The layout against the location and shape. A vec tile is row-major
// without boxes (a col_major one of one row or column has the same bytes);
// a cube tile's boxes tile it exactly (pto-isa pto_tile.hpp: Rows a multiple
// of InnerRows unless 1, Cols of InnerCols); MX scale boxes (fractal=32) are
// not supported.
bool CheckLayout(const Type& t, std::string* what) {
  const std::string shape = std::to_string(t.rows) + "x" + std::to_string(t.cols);
  if (t.compact == 2 && !CheckRowPlusOne(t, what)) return false;
  if (t.space == Space::kVec && t.box == Box::kNone) {
    if (t.col_major && t.cols != 1 && t.rows != 1) {
      *what = "blayout=col_major is supported for tiles of one column or one row (the same "
              "bytes as row_major), not " + shape + ", in the unified buffer (vec)";
      return false;
    }
    return true;
  }
  // A boxed vec tile (A5's TMOV repacks ND into NZ or ZN in the unified
  // buffer, for the cube) is made of boxes as a cube tile is. ZZ in vec is
  // TMOV's X-to-ZZ, the layout of MX scale exponents.
  if (t.space == Space::kVec && t.box == Box::kRowMajor && !t.col_major) {
    *what = "a vec tile laid out ZZ (blayout=row_major, slayout=row_major) holds MX scale "
            "exponents (TMOV's X to ZZ): one-byte elements (ui8, i8, e8m0), not " +
            std::string(DtypeSpelling(t.dtype));
    return false;
  }
  if (t.space == Space::kVec && t.box == Box::kColMajor && t.col_major) {
    *what = "a vec tile laid out NN is not supported (a boxed vec tile is NZ or ZN, TMOV's "
            "repacks for the cube)";
    return false;
  }
  // loc=scaling holds MX scales (fractal=32: 16 x 2 or 2 x 16 boxes, ZZ or
  // NN; mat tiles hold them too on their way) or, without boxes, the
  // fixpipe's quantisation parameters (below).
  if (t.space == Space::kScaling && t.box != Box::kNone && t.fractal != 32) {
    *what = "a boxed scaling tile holds MX scales (ZZ or NN, fractal=32); the fixpipe's "
            "quantisation parameters are one row without boxes";
    return false;
  }
  if (t.fractal == 32 && t.space != Space::kScaling && t.space != Space::kMat) {
    *what = "fractal=32 (MX scales) is for mat and scaling tiles, not " +
            std::string(SpaceSpelling(t.space)) + " ones";
    return false;
  }
  // The fixpipe's quantisation parameters (SET_QUANT_VECTOR, TMOV_FP): one
  // row of 64-bit words or of f16, bf16, f32 scales.
  const bool fixpipe_dtype = t.dtype == PTO_UINT64 || t.dtype == PTO_INT64 ||
                             t.dtype == PTO_FLOAT16 || t.dtype == PTO_BFLOAT16 ||
                             t.dtype == PTO_FLOAT32;
  if (t.space == Space::kScaling && t.box == Box::kNone && (t.rows != 1 || !fixpipe_dtype)) {
    *what = "a scaling tile without boxes holds the fixpipe's quantisation parameters, one row "
            "of i64, ui64, f16, bf16 or f32 (MX scales are ZZ or NN with fractal=32)";
    return false;
  }
  if (t.box == Box::kNone) return true;
  const Layout l = LayoutOf(t);
  const bool plus_one = t.compact == 2 && t.rows % l.inner_rows == 1;
  if ((t.rows % l.inner_rows != 0 && t.rows != 1 && !plus_one) || t.cols % l.inner_cols != 0) {
    *what = std::string("a ") + LayoutName(t) + " " + SpaceSpelling(t.space) + " tile of " +
            DtypeSpelling(t.dtype) + " with fractal=" + std::to_string(t.fractal) +
            " is made of " + std::to_string(l.inner_rows) + "x" + std::to_string(l.inner_cols) +
            " boxes, which do not tile " + shape;
    return false;
  }
  return true;
}

}  // namespace program
}  // namespace pto
