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

// The layout's name as pto-isa's pages write it (NZ, ZN, ZZ, NN, ND, DN).
inline const char* LayoutName(const Type& t) {
  if (t.box == Box::kNone) return t.col_major ? "DN" : "ND";
  if (t.box == Box::kRowMajor) return t.col_major ? "NZ" : "ZZ";
  return t.col_major ? "NN" : "ZN";
}

}  // namespace program
}  // namespace pto

#endif  // PTO_PROGRAM_LAYOUT_H_
