// The tile object behind the opaque pto_tile handle, and the views of it that
// checks and runs read. A ground header: it includes no other layer of src/
// but fractal.h (the layouts); the C functions of tiles are tile_api.cc, the
// kernels' planes of a tile ops/common.h's PlaneOf.
#ifndef PTO_TILE_H_
#define PTO_TILE_H_

#include <stdint.h>

#include "fractal.h"
#include "pto_c.h"

struct pto_tile {
  pto_dtype dtype;
  uint32_t rows;
  uint32_t cols;
  uint32_t valid_rows;
  uint32_t valid_cols;
  void* data;          // the image's elements: owned (64-byte aligned) or in `buffer`
  pto_buffer* buffer;  // the buffer a placed tile holds a reference to; NULL if owned
  size_t offset;       // data - buffer->data for a placed tile; 0 if owned
  // pto_location and pto_layout (pto_tile_create_cube, a program's cube
  // tiles); 0 (PTO_LOC_VEC, PTO_LAYOUT_ND) for every other tile. A byte
  // each, so that the common call tests both with the other fields it reads.
  uint8_t location;
  uint8_t layout;
  // The image the tile's elements lie in, from data: its rows x cols (the
  // shape TileLayout lays out) and the (row, column) of it where the tile's
  // element (0, 0) is. A tile of pto_tile_create* is its own image from
  // (0, 0); a program's subview of a cube tile is a window of its root
  // tile's image, anywhere in it (program/execute_memory.cc).
  uint32_t image_rows;
  uint32_t image_cols;
  uint32_t origin_row;
  uint32_t origin_col;
};

namespace pto {

inline size_t ElementCount(const pto_tile* t) {
  return static_cast<size_t>(t->rows) * t->cols;
}

// Whether t is a tile of pto_tile_create_cube other than a row-major vec
// one: in one of the cube's memories, or a vec tile in a fractal layout.
// Only pto_tmov and the matrix multiplies take such tiles.
inline bool IsCubeTile(const pto_tile* t) {
  return t->location != PTO_LOC_VEC || t->layout != PTO_LAYOUT_ND;
}

// Where the elements of t's image lie in its storage (t's own element (r, c)
// is the image's (origin_row + r, origin_col + c)).
inline Layout TileLayout(const pto_tile* t) {
  return LayoutOfTile(t->dtype, t->image_rows, t->image_cols,
                      static_cast<pto_location>(t->location), static_cast<pto_layout>(t->layout));
}

// Whether element (r, c) of t is element r * cols + c of its data, as the
// kernels read a tile: row-major, its own image from (0, 0).
inline bool IsRowMajorFromData(const pto_tile* t) {
  return t->layout == PTO_LAYOUT_ND && t->origin_row == 0 && t->origin_col == 0;
}

}  // namespace pto

#endif  // PTO_TILE_H_
