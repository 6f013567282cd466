// A program tile's layout: row-major for vec tiles, and for the cube's tiles
// the layout their type names (blayout, slayout, fractal), whose offsets
// fractal.h computes.
#ifndef PTO_PROGRAM_LAYOUT_H_
#define PTO_PROGRAM_LAYOUT_H_

#include <stdint.h>

#include "fractal.h"
#include "program/types.h"

namespace pto {
namespace program {

// The layout of t (fractal.h), its boxes of t's fractal size.
inline Layout LayoutOf(const Type& t) {
  return MakeLayout(t.dtype, t.rows, t.cols, t.col_major, t.box, t.fractal);
}

// Whether t's elements lie row-major, as a vec tile's (and a C tile's) do.
inline bool IsRowMajor(const Type& t) {
  return t.box == Box::kNone && (!t.col_major || t.rows == 1 || t.cols == 1);
}

// The memory of t as the C API names it (pto_location; Space lists the
// same memories in the same order, then scaling, which no program tile has:
// types.cc refuses MX scale tiles).
inline pto_location LocationOf(const Type& t) {
  static_assert(static_cast<int>(Space::kBias) == PTO_LOC_BIAS, "Space follows pto_location");
  return static_cast<pto_location>(t.space);
}

// t's box order and the order inside a box as the C API names them
// (pto_layout): ND for a tile without boxes (a DN vec tile is one row or
// column, the same bytes). With the boxes of C's tiles in its memory (1024
// bytes in acc, 512 elsewhere), which every operand of a matrix multiply has
// (compile_cube.cc), TileLayout then places each element as LayoutOf(t)
// does; a mat tile of 1024-byte boxes or DN has no such name, and is read
// through its type only (Block::Image): no row takes a mat tile from a
// program.
inline pto_layout PtoLayoutOf(const Type& t) {
  if (t.box == Box::kNone) return PTO_LAYOUT_ND;
  if (t.box == Box::kRowMajor) return t.col_major ? PTO_LAYOUT_NZ : PTO_LAYOUT_ZZ;
  return t.col_major ? PTO_LAYOUT_NN : PTO_LAYOUT_ZN;
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
