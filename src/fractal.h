// Where element (r, c) of a tile lies in its bytes: row-major (ND), and for
// the cube's tiles the fractal layouts, as pto-isa lays them out
// (include/pto/cpu/tile_offsets.hpp, include/pto/common/pto_tile.hpp): a
// grid of fractal boxes, InnerRows x InnerCols elements each, the boxes in
// column order (blayout col_major: NZ, NN) or row order (row_major: ZZ, ZN),
// the elements of a box along its rows (slayout row_major: NZ, ZZ) or down
// its columns (col_major: ZN, NN). Because the offsets are the image, an NZ
// [R, C] tile and a ZN [C, R] tile on the same bytes are each other's
// transpose. Shared by the C API's cube tiles (tile_api.cc, ops/matmul.cc)
// and programs' (program/ir/types.h, program/run/execute_cube.cc).
#ifndef PTO_FRACTAL_H_
#define PTO_FRACTAL_H_

#include <stddef.h>
#include <stdint.h>

#include "pto_c.h"

namespace pto {

// A tile's slayout (PTOAS's SLayout): none_box, or fractal boxes whose
// elements run along a row (row_major) or down a column (col_major).
enum class Box : uint8_t { kNone, kRowMajor, kColMajor };

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

// The rows and columns of a fractal box of `fractal` bytes of `dtype`:
// 1024 (acc) is 16 x 16; 32 (MX scales, pto-isa's fractalMxSize) 16 x 2 or
// 2 x 16; 512 is 16 rows of 32 bytes (slayout row_major) or
// 32 bytes of rows by 16 columns (col_major). 1 x 1 without boxes.
inline void BoxShape(pto_dtype dtype, Box box, uint32_t fractal, uint32_t* rows, uint32_t* cols) {
  const uint32_t c0 = 32 / static_cast<uint32_t>(pto_dtype_size(dtype));
  if (box == Box::kNone) {
    *rows = *cols = 1;
  } else if (fractal == 1024) {
    *rows = *cols = 16;
  } else if (fractal == 32) {  // MX scales: 16 x 2 (row_major), 2 x 16 (col_major)
    *rows = box == Box::kRowMajor ? 16 : 2;
    *cols = box == Box::kRowMajor ? 2 : 16;
  } else if (box == Box::kRowMajor) {
    *rows = 16, *cols = c0;
  } else {
    *rows = c0, *cols = 16;
  }
}

// The layout of a rows x cols tile of `dtype` with boxes of `fractal` bytes
// (BoxShape).
inline Layout MakeLayout(pto_dtype dtype, uint32_t rows, uint32_t cols, bool col_major, Box box,
                         uint32_t fractal) {
  Layout l;
  l.rows = rows;
  l.cols = cols;
  l.col_major = col_major;
  l.box = box;
  if (box == Box::kNone) return l;
  BoxShape(dtype, box, fractal, &l.inner_rows, &l.inner_cols);
  // A tile of one row (the one shape whose rows need not fill a box) has
  // boxes of one row, so its elements stay inside its bytes in every layout.
  if (rows < l.inner_rows) l.inner_rows = rows;
  l.row_shift = Log2(l.inner_rows);
  l.col_shift = Log2(l.inner_cols);
  return l;
}

// The layout of a C tile (pto_c.h, "Cube tiles"): pto_layout's blayout and
// slayout, with boxes of 1024 bytes in acc, 32 in scaling and 512 elsewhere.
inline Layout LayoutOfTile(pto_dtype dtype, uint32_t rows, uint32_t cols, pto_location location,
                           pto_layout layout) {
  const bool col_major = layout == PTO_LAYOUT_NZ || layout == PTO_LAYOUT_NN;
  const Box box = layout == PTO_LAYOUT_ND                                ? Box::kNone
                  : layout == PTO_LAYOUT_NZ || layout == PTO_LAYOUT_ZZ ? Box::kRowMajor
                                                                         : Box::kColMajor;
  const uint32_t fractal = location == PTO_LOC_ACC ? 1024 : location == PTO_LOC_SCALING ? 32 : 512;
  return MakeLayout(dtype, rows, cols, col_major, box, fractal);
}

// pto_layout's name as pto-isa's pages write it.
inline const char* LayoutName(pto_layout layout) {
  static const char* const kNames[] = {"ND", "NZ", "ZN", "ZZ", "NN"};
  return kNames[layout];
}

// pto_location's name as PTOAS's `loc=` writes it.
inline const char* LocationName(pto_location location) {
  static const char* const kNames[] = {"vec", "mat", "left", "right", "acc", "bias", "scaling"};
  return kNames[location];
}

// The article before LocationName's word ("an acc tile", "a left tile").
inline const char* LocationArticle(pto_location location) {
  return location == PTO_LOC_ACC ? "an" : "a";
}

// The row-major layout of a rows x cols region.
inline Layout RowMajorLayout(uint64_t rows, uint64_t cols) {
  Layout l;
  l.rows = static_cast<uint32_t>(rows);
  l.cols = static_cast<uint32_t>(cols);
  return l;
}

// Whether a and b put every element at the same offset.
inline bool SameLayout(const Layout& a, const Layout& b) {
  return a.rows == b.rows && a.cols == b.cols && a.col_major == b.col_major && a.box == b.box &&
         a.inner_rows == b.inner_rows && a.inner_cols == b.inner_cols;
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

// The rows x cols region of the image s (layout ls) from (sr, sc) into the
// image d (layout ld) from (dr, dc), each element of `size` bytes (1, 2, 4
// or 8) kept at its (row, column) relative to the regions' corners: a whole
// image of the same layout in one copy, else cell by cell (fractal.cc),
// the runs both images hold one after another copied whole. Allocates
// nothing. A program's subview of a cube tile is such a region of its
// root tile's image.
void CopyRegion(const Layout& ld, char* d, uint64_t dr, uint64_t dc, const Layout& ls,
                const char* s, uint64_t sr, uint64_t sc, uint64_t rows, uint64_t cols,
                size_t size);

// CopyRegion into d from its (0, 0).
inline void CopyRegion(const Layout& ld, char* d, const Layout& ls, const char* s, uint64_t sr,
                       uint64_t sc, uint64_t rows, uint64_t cols, size_t size) {
  CopyRegion(ld, d, 0, 0, ls, s, sr, sc, rows, cols, size);
}

// Every element of the rows x cols region of the image d (layout l) from
// (r, c) set to the `size` bytes at value.
void FillRegion(const Layout& l, char* d, uint64_t r, uint64_t c, uint64_t rows, uint64_t cols,
                const void* value, size_t size);

// MX scale exponents (one byte each, E8M0) in the ZZ order the cube's MX
// multiply reads them (TMOV's X-to-ZZ; pto-isa TQUANT.md, TQUANT_DN.md):
// ND exponents [rows, cols] (a block per row and group of 32 columns) go
// in boxes of 16 rows x 2 columns, box (rb, cp) holding rows 16rb.. and
// columns 2cp, 2cp + 1, row by row, the boxes rb-major; DN exponents
// [rows, cols] (a block per group of 32 rows and column) go as
// E[cb, p, q, d] = exp[2p + d][16cb + q]. Positions past the exponents
// (the last box's padding) are 0. MxZzBytes is the count written.
uint64_t MxZzBytes(uint64_t rows, uint64_t cols, bool dn);
void MxExponentsToZz(const uint8_t* exp, uint64_t stride, uint64_t rows, uint64_t cols, bool dn,
                     uint8_t* zz);

}  // namespace pto

#endif  // PTO_FRACTAL_H_
