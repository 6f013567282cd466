// The copy between two layouts (fractal.h): each element kept at its (row,
// column), the region cut into cells that lie inside one box of each
// image, each cell moved by the runs both images hold one after another or,
// where one image's rows are the other's columns, by the transpose kernel.
// FillRegion sets a region's elements run by run the same way.
#include "fractal.h"

#include <string.h>

#include <algorithm>

#include "kernels/kernels.h"

namespace pto {

namespace {

// Rows or columns without a bound: ND's and DN's strides hold over the whole
// image. A power of two, so the cells' alignment below needs no case.
constexpr uint64_t kUnbounded = uint64_t{1} << 62;

// How a layout places the elements of one of its boxes: element (r, c) of
// a box at r * row_stride + c * col_stride from the box's first, for
// `height` rows and `width` columns from a row and column that are
// multiples of them (the box's shape; unbounded for ND and DN, whose
// offsets are r * cols + c and c * rows + r everywhere).
struct Strides {
  uint64_t row_stride, col_stride, height, width;
};

Strides StridesOf(const Layout& l) {
  if (l.box == Box::kNone)
    return l.col_major ? Strides{1, l.rows, kUnbounded, kUnbounded}
                       : Strides{l.cols, 1, kUnbounded, kUnbounded};
  if (l.box == Box::kRowMajor) return Strides{l.inner_cols, 1, l.inner_rows, l.inner_cols};
  return Strides{1, l.inner_rows, l.inner_rows, l.inner_cols};
}

// The largest power of two at most `most` (>= 1).
uint64_t FloorPowerOfTwo(uint64_t most) {
  uint64_t p = 1;
  while (p * 2 <= most) p *= 2;
  return p;
}

// The side of a cell along one axis: a power of two at most both layouts'
// box side, halved until each bounded side's start is a multiple of it, so
// that every cell from there on lies inside one box of each image.
uint64_t CellSide(uint64_t d_side, uint64_t d_start, uint64_t s_side, uint64_t s_start,
                  uint64_t cap) {
  uint64_t side = FloorPowerOfTwo(std::min(std::min(d_side, s_side), cap));
  while (side > 1 && ((d_side != kUnbounded && d_start % side != 0) ||
                      (s_side != kUnbounded && s_start % side != 0)))
    side /= 2;
  return side;
}

// n elements of T one after another: the run lengths the boxes give (16
// and 32 bytes, 64 for acc's float32 rows) as fixed-size copies.
template <typename T>
inline void CopyRun(T* d, const T* s, uint64_t n) {
  const size_t bytes = n * sizeof(T);
  if (bytes == 32) memcpy(d, s, 32);
  else if (bytes == 64) memcpy(d, s, 64);
  else if (bytes == 16) memcpy(d, s, 16);
  else memcpy(d, s, bytes);
}

// One cell of h x w elements, each image's elements at its strides from
// the cell's first: runs both hold along rows or down columns copied whole
// (the whole cell in one copy where both hold it in one piece), one
// image's rows as the other's columns by the transpose kernel, else one
// element at a time in the order dst's image lies.
template <typename T>
void CopyCell(T* d, const Strides& ds, const T* s, const Strides& ss, uint64_t h, uint64_t w) {
  if (ds.col_stride == 1 && ss.col_stride == 1) {
    if (ds.row_stride == w && ss.row_stride == w) return CopyRun(d, s, h * w);
    for (uint64_t i = 0; i < h; ++i) CopyRun(d + i * ds.row_stride, s + i * ss.row_stride, w);
    return;
  }
  if (ds.row_stride == 1 && ss.row_stride == 1) {
    if (ds.col_stride == h && ss.col_stride == h) return CopyRun(d, s, h * w);
    for (uint64_t j = 0; j < w; ++j) CopyRun(d + j * ds.col_stride, s + j * ss.col_stride, h);
    return;
  }
  // Where one image's rows are the other's columns: the transpose kernel.
  if (ds.row_stride == 1 && ss.col_stride == 1)
    return kernels::Transpose(sizeof(T), h, w, kernels::Plane{d, ds.col_stride},
                              kernels::ConstPlane{s, ss.row_stride});
  if (ds.col_stride == 1 && ss.row_stride == 1)
    return kernels::Transpose(sizeof(T), w, h, kernels::Plane{d, ds.row_stride},
                              kernels::ConstPlane{s, ss.col_stride});
  if (ds.col_stride == 1) {  // along dst's rows
    for (uint64_t i = 0; i < h; ++i) {
      T* to = d + i * ds.row_stride;
      const T* from = s + i * ss.row_stride;
      for (uint64_t j = 0; j < w; ++j) to[j] = from[j * ss.col_stride];
    }
    return;
  }
  for (uint64_t j = 0; j < w; ++j) {  // down dst's columns
    T* to = d + j * ds.col_stride;
    const T* from = s + j * ss.col_stride;
    for (uint64_t i = 0; i < h; ++i) to[i * ds.row_stride] = from[i * ss.row_stride];
  }
}

// Asks the CPU to bring `rows` rows of `bytes` bytes, `pitch` bytes apart
// from p, into its cache, a line of 64 bytes at a time.
void PrefetchRows(const char* p, uint64_t pitch, uint64_t rows, uint64_t bytes) {
  for (uint64_t r = 0; r < rows; ++r)
    for (uint64_t b = 0; b < bytes; b += 64) __builtin_prefetch(p + r * pitch + b);
}

// CopyRegion for elements of type T, cell by cell: the region cut into
// cells that lie inside one box of each image (CellSide), where both
// images' offsets are linear in the row and column (StridesOf); the cells
// taken in the order of dst's boxes, or, where only dst has boxes (a load
// from an ND or DN image: global memory, its rows a pitch apart), in src's
// order, so that src's rows are read front to back (dst's boxes down a
// column of a wide matrix would touch another page at every row). Where
// the two images' runs cross (NZ and ZN, fractal and row-major) cells of at
// most 32 x 32 keep both images' lines in cache.
template <typename T>
void CopyRegionOf(const Layout& ld, T* d, uint64_t dr, uint64_t dc, const Layout& ls, const T* s,
                  uint64_t sr, uint64_t sc, uint64_t rows, uint64_t cols) {
  const Strides ds = StridesOf(ld), ss = StridesOf(ls);
  const bool runs = (ds.col_stride == 1 && ss.col_stride == 1) ||
                    (ds.row_stride == 1 && ss.row_stride == 1);
  const uint64_t cap = runs ? kUnbounded : 32;
  const uint64_t h = CellSide(ds.height, dr, ss.height, sr, cap);
  const uint64_t w = CellSide(ds.width, dc, ss.width, sc, cap);
  const auto cell = [&](uint64_t i, uint64_t j) {
    CopyCell(d + ElementOffset(ld, dr + i, dc + j), ds, s + ElementOffset(ls, sr + i, sc + j), ss,
             std::min(h, rows - i), std::min(w, cols - j));
  };
  // Where one image's rows are the other's columns, the cells of a row (or
  // a column) of whole boxes lie a fixed step apart in both images: their
  // transposes go to the kernel in one call. Returns the cells it moved
  // (count of them from (i, j), each (di, dj) from the last), 0 if their
  // offsets do not step evenly.
  const bool crossed = !runs && ((ds.row_stride == 1 && ss.col_stride == 1) ||
                                 (ds.col_stride == 1 && ss.row_stride == 1));
  const auto cells = [&](uint64_t i, uint64_t j, uint64_t di, uint64_t dj, uint64_t count) {
    const uint64_t d0 = ElementOffset(ld, dr + i, dc + j), s0 = ElementOffset(ls, sr + i, sc + j);
    const uint64_t d1 = ElementOffset(ld, dr + i + di, dc + j + dj);
    const uint64_t s1 = ElementOffset(ls, sr + i + di, sc + j + dj);
    if (count < 2 || d1 <= d0 || s1 <= s0) return uint64_t{0};
    for (uint64_t k = 2; k < count; ++k)
      if (ElementOffset(ld, dr + i + k * di, dc + j + k * dj) != d0 + k * (d1 - d0) ||
          ElementOffset(ls, sr + i + k * di, sc + j + k * dj) != s0 + k * (s1 - s0))
        return uint64_t{0};
    const uint64_t ch = std::min(h, rows - i), cw = std::min(w, cols - j);
    if (ds.row_stride == 1)
      kernels::TransposeCells(sizeof(T), count, ch, cw, kernels::Plane{d + d0, ds.col_stride},
                              d1 - d0, kernels::ConstPlane{s + s0, ss.row_stride}, s1 - s0);
    else
      kernels::TransposeCells(sizeof(T), count, cw, ch, kernels::Plane{d + d0, ds.row_stride},
                              d1 - d0, kernels::ConstPlane{s + s0, ss.col_stride}, s1 - s0);
    return count;
  };
  const bool from_plain = ls.box == Box::kNone && ld.box != Box::kNone;
  const bool by_columns = from_plain ? ls.col_major : ld.col_major;
  if (by_columns) {
    for (uint64_t j = 0; j < cols; j += w) {
      uint64_t i = crossed ? cells(0, j, h, 0, rows / h) * h : 0;
      for (; i < rows; i += h) cell(i, j);
    }
    return;
  }
  // From an ND image, the next row of cells' source rows are fetched into
  // the cache while this one is copied: each lies a pitch from the last,
  // on a page of its own, where the CPU's own prefetch does not follow.
  const bool fetch_ahead = from_plain && !ls.col_major;
  for (uint64_t i = 0; i < rows; i += h) {
    if (fetch_ahead && rows - i > h)
      PrefetchRows(reinterpret_cast<const char*>(s + ElementOffset(ls, sr + i + h, sc)),
                   ls.cols * sizeof(T), std::min(h, rows - i - h), cols * sizeof(T));
    uint64_t j = crossed ? cells(i, 0, 0, w, cols / w) * w : 0;
    for (; j < cols; j += w) cell(i, j);
  }
}

// FillRegion for elements of type T, cell by cell as CopyRegionOf cuts
// them: each run of the image (a row of a box, a column of a box, an ND
// row or a DN column) filled at once.
template <typename T>
void FillRegionOf(const Layout& l, T* d, uint64_t r, uint64_t c, uint64_t rows, uint64_t cols,
                  const void* value) {
  T v;
  memcpy(&v, value, sizeof v);
  const Strides st = StridesOf(l);
  const uint64_t h = CellSide(st.height, r, st.height, r, kUnbounded);
  const uint64_t w = CellSide(st.width, c, st.width, c, kUnbounded);
  for (uint64_t i = 0; i < rows; i += h)
    for (uint64_t j = 0; j < cols; j += w) {
      T* p = d + ElementOffset(l, r + i, c + j);
      const uint64_t cell_rows = std::min(h, rows - i), cell_cols = std::min(w, cols - j);
      const bool along_rows = st.col_stride == 1;
      const uint64_t runs = along_rows ? cell_rows : cell_cols;
      const uint64_t length = along_rows ? cell_cols : cell_rows;
      const uint64_t run_stride = along_rows ? st.row_stride : st.col_stride;
      const uint64_t step = along_rows ? st.col_stride : st.row_stride;
      for (uint64_t k = 0; k < runs; ++k)
        for (uint64_t e = 0; e < length; ++e) p[k * run_stride + e * step] = v;
    }
}

}  // namespace

void CopyRegion(const Layout& ld, char* d, uint64_t dr, uint64_t dc, const Layout& ls,
                const char* s, uint64_t sr, uint64_t sc, uint64_t rows, uint64_t cols,
                size_t size) {
  if (rows == 0 || cols == 0) return;
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
  if (rows == 0 || cols == 0) return;
  switch (size) {
    case 1: return FillRegionOf(l, reinterpret_cast<uint8_t*>(d), r, c, rows, cols, value);
    case 2: return FillRegionOf(l, reinterpret_cast<uint16_t*>(d), r, c, rows, cols, value);
    case 4: return FillRegionOf(l, reinterpret_cast<uint32_t*>(d), r, c, rows, cols, value);
    default: return FillRegionOf(l, reinterpret_cast<uint64_t*>(d), r, c, rows, cols, value);
  }
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
