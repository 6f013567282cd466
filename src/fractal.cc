// The copy between two layouts (fractal.h): each element kept at its (row,
// column), moved in the longest runs both images hold one after another.
#include "fractal.h"

#include <string.h>

namespace pto {

namespace {

// CopyRegion for elements of type T: runs both images hold one after another
// along a row (ZZ, NZ, ND), or where both run down columns (ZN, NN, DN),
// down a column; single elements otherwise.
template <typename T>
void CopyRegionOf(const Layout& ld, T* d, const Layout& ls, const T* s, uint64_t sr, uint64_t sc,
                  uint64_t rows, uint64_t cols) {
  const bool by_columns = ColumnRun(ld, 0, 2) > 1 && ColumnRun(ls, sr, 2) > 1;
  if (by_columns) {
    for (uint64_t c = 0; c < cols; ++c) {
      for (uint64_t r = 0; r < rows;) {
        const uint64_t run = ColumnRun(ld, r, ColumnRun(ls, sr + r, rows - r));
        T* to = d + ElementOffset(ld, r, c);
        const T* from = s + ElementOffset(ls, sr + r, sc + c);
        for (uint64_t i = 0; i < run; ++i) to[i] = from[i];
        r += run;
      }
    }
    return;
  }
  for (uint64_t r = 0; r < rows; ++r) {
    for (uint64_t c = 0; c < cols;) {
      const uint64_t run = RowRun(ld, c, RowRun(ls, sc + c, cols - c));
      T* to = d + ElementOffset(ld, r, c);
      const T* from = s + ElementOffset(ls, sr + r, sc + c);
      for (uint64_t i = 0; i < run; ++i) to[i] = from[i];
      c += run;
    }
  }
}

}  // namespace

void CopyRegion(const Layout& ld, char* d, const Layout& ls, const char* s, uint64_t sr,
                uint64_t sc, uint64_t rows, uint64_t cols, size_t size) {
  if (SameLayout(ld, ls) && sr == 0 && sc == 0 && rows == ld.rows && cols == ld.cols) {
    memcpy(d, s, rows * cols * size);
    return;
  }
  switch (size) {
    case 1:
      return CopyRegionOf(ld, reinterpret_cast<uint8_t*>(d), ls, reinterpret_cast<const uint8_t*>(s),
                          sr, sc, rows, cols);
    case 2:
      return CopyRegionOf(ld, reinterpret_cast<uint16_t*>(d), ls,
                          reinterpret_cast<const uint16_t*>(s), sr, sc, rows, cols);
    case 4:
      return CopyRegionOf(ld, reinterpret_cast<uint32_t*>(d), ls,
                          reinterpret_cast<const uint32_t*>(s), sr, sc, rows, cols);
    default:
      return CopyRegionOf(ld, reinterpret_cast<uint64_t*>(d), ls,
                          reinterpret_cast<const uint64_t*>(s), sr, sc, rows, cols);
  }
}

}  // namespace pto
