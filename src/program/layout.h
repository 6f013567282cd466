// Where element (r, c) of a tile lies in its bytes: row-major for vec tiles,
// and for the cube's tiles the layout their type names (blayout, slayout,
// fractal), as pto-isa lays them out (include/pto/cpu/tile_offsets.hpp,
// include/pto/common/pto_tile.hpp): a grid of fractal boxes, InnerRows x
// InnerCols elements each, the boxes in column order (blayout col_major:
// NZ, NN) or row order (row_major: ZZ, ZN), the elements of a box along its
// rows (slayout row_major: NZ, ZZ) or down its columns (col_major: ZN, NN).
// Because the offsets are the image, an NZ [R, C] tile and a ZN [C, R] tile
// on the same bytes are each other's transpose.
#ifndef PTO_PROGRAM_LAYOUT_H_
#define PTO_PROGRAM_LAYOUT_H_

#include <stdint.h>

#include "program/types.h"

namespace pto {
namespace program {

struct Layout {
  uint32_t rows = 0, cols = 0;
  bool col_major = false;  // blayout
  Box box = Box::kNone;    // slayout
  uint32_t inner_rows = 1, inner_cols = 1;  // powers of two (1, 8, 16, 32)
  uint32_t row_shift = 0, col_shift = 0;    // their log2
};

inline uint32_t Log2(uint32_t power_of_two) {
  uint32_t n = 0;
  while ((1u << n) < power_of_two) ++n;
  return n;
}

// The box of a fractal of `fractal` bytes for elements of `size` bytes:
// 1024 (acc) is 16 x 16; 512 is 16 rows of 32 bytes (slayout row_major) or
// 32 bytes of rows by 16 columns (col_major).
inline Layout LayoutOf(const Type& t) {
  Layout l;
  l.rows = t.rows;
  l.cols = t.cols;
  l.col_major = t.col_major;
  l.box = t.box;
  if (t.box == Box::kNone) return l;
  const uint32_t c0 = 32 / static_cast<uint32_t>(pto_dtype_size(t.dtype));
  if (t.fractal == 1024) {
    l.inner_rows = l.inner_cols = 16;
  } else if (t.box == Box::kRowMajor) {
    l.inner_rows = 16, l.inner_cols = c0;
  } else {
    l.inner_rows = c0, l.inner_cols = 16;
  }
  // A tile of one row (the one shape whose rows need not fill a box) has
  // boxes of one row, so its elements stay inside its bytes in every layout.
  if (t.rows < l.inner_rows) l.inner_rows = t.rows;
  l.row_shift = Log2(l.inner_rows);
  l.col_shift = Log2(l.inner_cols);
  return l;
}

inline uint64_t ElementOffset(const Layout& l, uint64_t r, uint64_t c) {
  if (l.box == Box::kNone) return l.col_major ? c * l.rows + r : r * l.cols + c;
  const uint64_t br = r >> l.row_shift, ir = r & (l.inner_rows - 1);
  const uint64_t bc = c >> l.col_shift, ic = c & (l.inner_cols - 1);
  const uint32_t box_shift = l.row_shift + l.col_shift;
  const uint64_t in_box = l.box == Box::kRowMajor ? (ir << l.col_shift) + ic : (ic << l.row_shift) + ir;
  return l.col_major ? ((bc * l.rows) << l.col_shift) + (br << box_shift) + in_box
                     : ((br * l.cols) << l.row_shift) + (bc << box_shift) + in_box;
}

// How many elements from (r, c) on, along the row and at most `most`, lie
// one after another in the image: to the end of the box's row where the
// boxes' elements run along rows (ZZ, NZ), the rest of the row for ND, one
// where they run down columns.
inline uint64_t RowRun(const Layout& l, uint64_t c, uint64_t most) {
  if (l.box == Box::kNone) return l.col_major && l.rows != 1 ? 1 : most;
  if (l.box == Box::kColMajor) return 1;
  const uint64_t left = l.inner_cols - (c & (l.inner_cols - 1));
  return left < most ? left : most;
}

// The same down a column: to the end of the box's column where the boxes'
// elements run down columns (ZN, NN), the rest of the column for DN, one
// where they run along rows.
inline uint64_t ColumnRun(const Layout& l, uint64_t r, uint64_t most) {
  if (l.box == Box::kNone) return l.col_major || l.cols == 1 ? most : 1;
  if (l.box == Box::kRowMajor) return 1;
  const uint64_t left = l.inner_rows - (r & (l.inner_rows - 1));
  return left < most ? left : most;
}

// Whether t's elements lie row-major, as a vec tile's (and a C tile's) do.
inline bool IsRowMajor(const Type& t) {
  return t.box == Box::kNone && (!t.col_major || t.rows == 1 || t.cols == 1);
}

// The layout's name as pto-isa's pages write it (NZ, ZN, ZZ, NN, ND, DN).
inline const char* LayoutName(const Type& t) {
  if (t.box == Box::kNone) return t.col_major ? "DN" : "ND";
  if (t.box == Box::kRowMajor) return t.col_major ? "NZ" : "ZZ";
  return t.col_major ? "NN" : "ZN";
}

}  // namespace program
}  // namespace pto

#endif  // PTO_PROGRAM_LAYOUT_H_
