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
void CopyRegionOf(const Layout& ld, T* d, uint64_t dr, uint64_t dc, const Layout& ls, const T* s,
                  uint64_t sr, uint64_t sc, uint64_t rows, uint64_t cols) {
  const bool by_columns = ColumnRun(ld, dr, 2) > 1 && ColumnRun(ls, sr, 2) > 1;
  if (by_columns) {
    for (uint64_t c = 0; c < cols; ++c) {
      for (uint64_t r = 0; r < rows;) {
        const uint64_t run = ColumnRun(ld, dr + r, ColumnRun(ls, sr + r, rows - r));
        T* to = d + ElementOffset(ld, dr + r, dc + c);
        const T* from = s + ElementOffset(ls, sr + r, sc + c);
        for (uint64_t i = 0; i < run; ++i) to[i] = from[i];
        r += run;
      }
    }
    return;
  }
  for (uint64_t r = 0; r < rows; ++r) {
    for (uint64_t c = 0; c < cols;) {
      const uint64_t run = RowRun(ld, dc + c, RowRun(ls, sc + c, cols - c));
      T* to = d + ElementOffset(ld, dr + r, dc + c);
      const T* from = s + ElementOffset(ls, sr + r, sc + c);
      for (uint64_t i = 0; i < run; ++i) to[i] = from[i];
      c += run;
    }
  }
}

}  // namespace

void CopyRegion(const Layout& ld, char* d, uint64_t dr, uint64_t dc, const Layout& ls,
                const char* s, uint64_t sr, uint64_t sc, uint64_t rows, uint64_t cols,
                size_t size) {
  if (SameLayout(ld, ls) && dr == 0 && dc == 0 && sr == 0 && sc == 0 && rows == ld.rows &&
      cols == ld.cols) {
    memcpy(d, s, rows * cols * size);
    return;
  }
  switch (size) {
    case 1:
      return CopyRegionOf(ld, reinterpret_cast<uint8_t*>(d), dr, dc, ls,
                          reinterpret_cast<const uint8_t*>(s), sr, sc, rows, cols);
    case 2:
      return CopyRegionOf(ld, reinterpret_cast<uint16_t*>(d), dr, dc, ls,
                          reinterpret_cast<const uint16_t*>(s), sr, sc, rows, cols);
    case 4:
      return CopyRegionOf(ld, reinterpret_cast<uint32_t*>(d), dr, dc, ls,
                          reinterpret_cast<const uint32_t*>(s), sr, sc, rows, cols);
    default:
      return CopyRegionOf(ld, reinterpret_cast<uint64_t*>(d), dr, dc, ls,
                          reinterpret_cast<const uint64_t*>(s), sr, sc, rows, cols);
  }
}

void FillRegion(const Layout& l, char* d, uint64_t r, uint64_t c, uint64_t rows, uint64_t cols,
                const void* value, size_t size) {
  for (uint64_t i = 0; i < rows; ++i)
    for (uint64_t j = 0; j < cols; ++j)
      memcpy(d + ElementOffset(l, r + i, c + j) * size, value, size);
}

uint64_t MxZzBytes(uint64_t rows, uint64_t cols, bool dn) {
  if (dn) return (rows + 1) / 2 * 2 * ((cols + 15) / 16 * 16);
  return (rows + 15) / 16 * 16 * ((cols + 1) / 2 * 2);
}

void MxExponentsToZz(const uint8_t* exp, uint64_t stride, uint64_t rows, uint64_t cols, bool dn,
                     uint8_t* zz) {
  const auto at = [&](uint64_t r, uint64_t c) -> uint8_t {
    return r < rows && c < cols ? exp[r * stride + c] : 0;
  };
  uint64_t k = 0;
  if (dn) {
    const uint64_t pairs = (rows + 1) / 2, col_boxes = (cols + 15) / 16;
    for (uint64_t cb = 0; cb < col_boxes; ++cb)
      for (uint64_t p = 0; p < pairs; ++p)
        for (uint64_t q = 0; q < 16; ++q)
          for (uint64_t d = 0; d < 2; ++d) zz[k++] = at(2 * p + d, 16 * cb + q);
    return;
  }
  const uint64_t row_boxes = (rows + 15) / 16, col_pairs = (cols + 1) / 2;
  for (uint64_t rb = 0; rb < row_boxes; ++rb)
    for (uint64_t cp = 0; cp < col_pairs; ++cp)
      for (uint64_t r = 0; r < 16; ++r)
        for (uint64_t l = 0; l < 2; ++l) zz[k++] = at(16 * rb + r, 2 * cp + l);
}

}  // namespace pto
