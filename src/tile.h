// The tile object behind the opaque pto_tile handle, and the views of it that
// kernels and checks read. A ground header: it includes no other layer of
// src/ but the kernels' interface; the C functions of tiles are tile_api.cc.
#ifndef PTO_TILE_H_
#define PTO_TILE_H_

#include <stdint.h>

#include "kernels/kernels.h"
#include "pto_c.h"

struct pto_tile {
  pto_dtype dtype;
  uint32_t rows;
  uint32_t cols;
  uint32_t valid_rows;
  uint32_t valid_cols;
  void* data;          // rows * cols elements: owned (64-byte aligned) or in `buffer`
  pto_buffer* buffer;  // the buffer a placed tile holds a reference to; NULL if owned
  size_t offset;       // data - buffer->data for a placed tile; 0 if owned
};

namespace pto {

inline size_t ElementCount(const pto_tile* t) {
  return static_cast<size_t>(t->rows) * t->cols;
}

inline kernels::Plane PlaneOf(pto_tile* t) { return {t->data, t->cols}; }
inline kernels::ConstPlane ConstPlaneOf(const pto_tile* t) {
  return {t->data, t->cols};
}

}  // namespace pto

#endif  // PTO_TILE_H_
