// The tile C functions: lifetime, valid regions and whole-tile copies. The
// object itself (tile.h) sits below validation; these functions above it.
#include "tile.h"

#include <stdint.h>
#include <string.h>

#include "alloc.h"
#include "buffer.h"
#include "checked.h"
#include "error.h"
#include "float_env.h"
#include "kernels/kernels.h"
#include "validate.h"

namespace {

size_t ByteCount(const pto_tile* tile) {
  return pto::ElementCount(tile) * pto_dtype_size(tile->dtype);
}

// How a whole-tile copy counts its buffer: bytes in the tile's encoding, or
// floats (FLOAT16, BFLOAT16 and FLOAT32 tiles only).
enum CopyUnit { kBytes, kFloats };

// The rules shared by the four whole-tile copies.
pto_status CheckWholeTileCopy(const char* function, const pto_tile* tile, const char* buffer_name,
                              const void* buffer, size_t count, CopyUnit unit) {
  pto::Validator v(function);
  v.NotNull("tile", tile).NotNull(buffer_name, buffer);
  if (!v.ok()) return v.status();
  if (unit == kBytes) {
    v.Require(count == ByteCount(tile), PTO_ERR_INVALID_ARGUMENT,
              "nbytes %zu differs from the tile's %zu bytes", count, ByteCount(tile));
  } else {
    v.DtypeAccepted(pto::OpDtypes::kFloatCopy, PTO_PROFILE_HOST, "tile", tile)
        .Require(count == pto::ElementCount(tile), PTO_ERR_INVALID_ARGUMENT,
                 "count %zu differs from the tile's %zu elements", count,
                 pto::ElementCount(tile));
  }
  return v.status();
}

// The dtype and dimension rules of pto_tile_create and pto_tile_create_at,
// on v's chain; when they hold, *bytes is the tile's byte size. dtype comes
// by reference: it may hold any int a C caller passed, and copying such an
// enum is undefined in C++ (see RawEnumValue).
void CheckTileShape(pto::Validator& v, const pto_dtype& dtype, uint32_t rows, uint32_t cols,
                    size_t* bytes) {
  const int raw_dtype = pto::RawEnumValue(dtype);
  v.Require(raw_dtype >= PTO_INT8 && raw_dtype < static_cast<int>(pto::kDtypeCount), PTO_ERR_INVALID_ARGUMENT,
            "dtype %d is not a pto_dtype value", raw_dtype);
  if (!v.ok()) return;
  // rows and cols are below 2^32, so the element count fits in 64 bits; the
  // byte count is compared by division to stay clear of overflow.
  const size_t element_size = pto_dtype_size(dtype);
  const uint64_t elements = static_cast<uint64_t>(rows) * cols;
  v.Require(rows != 0 && cols != 0, PTO_ERR_INVALID_ARGUMENT, "shape %ux%u has a zero dimension",
            rows, cols)
      .Require(elements <= PTO_TILE_MAX_BYTES / element_size, PTO_ERR_INVALID_ARGUMENT,
               "shape %ux%u of %zu-byte elements exceeds PTO_TILE_MAX_BYTES (%zu bytes)", rows,
               cols, element_size, static_cast<size_t>(PTO_TILE_MAX_BYTES));
  *bytes = static_cast<size_t>(elements) * element_size;
}

// Whether t's values lie row-major in its storage, so that the whole-tile
// copies move its bytes as they are.
bool IsRowMajorImage(const pto_tile* t) { return t->layout == PTO_LAYOUT_ND; }

// Copies between a fractal tile's image and row-major values (pto_c.h, "Cube
// tiles": the copies exchange values row-major whatever the layout).
void ImageFromRowMajor(pto_tile* tile, const void* values) {
  const pto::Layout image = pto::TileLayout(tile);
  pto::CopyRegion(image, static_cast<char*>(tile->data),
                  pto::RowMajorLayout(tile->rows, tile->cols), static_cast<const char*>(values),
                  0, 0, tile->rows, tile->cols, pto_dtype_size(tile->dtype));
}
void RowMajorFromImage(const pto_tile* tile, void* values) {
  const pto::Layout image = pto::TileLayout(tile);
  pto::CopyRegion(pto::RowMajorLayout(tile->rows, tile->cols), static_cast<char*>(values), image,
                  static_cast<const char*>(tile->data), 0, 0, tile->rows, tile->cols,
                  pto_dtype_size(tile->dtype));
}

// A row-major copy of a fractal tile's values, for the copies whose caller's
// array may overlap the image (a caller may pass pto_tile_data itself).
// NULL after recording PTO_ERR_OUT_OF_MEMORY.
void* RowMajorScratch(const char* function, const pto_tile* tile) {
  void* scratch = pto::AllocateZeroed(ByteCount(tile));
  if (scratch == nullptr)
    pto::Fail(PTO_ERR_OUT_OF_MEMORY, function, "cannot allocate %zu bytes to lay out a %s tile",
              ByteCount(tile), pto::LayoutName(static_cast<pto_layout>(tile->layout)));
  return scratch;
}

// The rules pto_tile_create_cube adds to pto_tile_create's, on v's chain,
// in the header's order. location and layout come by reference, as dtype
// (see RawEnumValue).
void CheckCubePlacement(pto::Validator& v, const pto_dtype& dtype, uint32_t rows, uint32_t cols,
                        const pto_location& location, const pto_layout& layout) {
  const int raw_location = pto::RawEnumValue(location), raw_layout = pto::RawEnumValue(layout);
  v.Require(raw_location >= PTO_LOC_VEC && raw_location <= PTO_LOC_SCALING,
            PTO_ERR_INVALID_ARGUMENT, "location %d is not a pto_location value", raw_location)
      .Require(raw_layout >= PTO_LAYOUT_ND && raw_layout <= PTO_LAYOUT_NN,
               PTO_ERR_INVALID_ARGUMENT, "layout %d is not a pto_layout value", raw_layout);
  if (!v.ok()) return;
  const bool row_major_only = location == PTO_LOC_BIAS;
  // A vec tile is ND, or NZ / ZN as A5's vec moves lay it out (pto_tmov).
  const bool vec_layout = location != PTO_LOC_VEC || layout == PTO_LAYOUT_ND ||
                          layout == PTO_LAYOUT_NZ || layout == PTO_LAYOUT_ZN;
  // A scaling tile is the fixpipe's quantisation row (ND, one row) or MX
  // scales (ZZ for a's, NN for b's).
  const bool one_row = location == PTO_LOC_BIAS || (location == PTO_LOC_SCALING && layout == PTO_LAYOUT_ND);
  v.Require(!row_major_only || layout == PTO_LAYOUT_ND, PTO_ERR_INVALID_ARGUMENT,
            "a %s tile is row-major (PTO_LAYOUT_ND), not %s", pto::LocationName(location),
            pto::LayoutName(layout))
      .Require(vec_layout, PTO_ERR_INVALID_ARGUMENT,
               "a vec tile is row-major (PTO_LAYOUT_ND) or NZ or ZN, not %s",
               pto::LayoutName(layout))
      .Require(location != PTO_LOC_SCALING || layout == PTO_LAYOUT_ND ||
                   layout == PTO_LAYOUT_ZZ || layout == PTO_LAYOUT_NN,
               PTO_ERR_INVALID_ARGUMENT,
               "a scaling tile is the fixpipe's quantisation row (PTO_LAYOUT_ND) or MX scales "
               "(PTO_LAYOUT_ZZ, PTO_LAYOUT_NN), not %s",
               pto::LayoutName(layout))
      .Require(!one_row || rows == 1, PTO_ERR_INVALID_ARGUMENT, "a %s%s tile is one row, not %u",
               location == PTO_LOC_SCALING ? "row-major " : "", pto::LocationName(location), rows);
  if (!v.ok()) return;
  // The boxes as a tile of at least a box's rows has them (the largest box
  // is 32 rows): only a one-row tile has shorter ones.
  const pto::Layout l = pto::LayoutOfTile(dtype, 32, cols, location, layout);
  v.Require((rows % l.inner_rows == 0 || rows == 1) && cols % l.inner_cols == 0,
            PTO_ERR_INVALID_ARGUMENT,
            "a %s %s tile of %s is made of %ux%u boxes, which do not tile %ux%u (rows a "
            "multiple of %u or 1, cols of %u)",
            pto::LayoutName(layout), pto::LocationName(location), pto_dtype_string(dtype),
            l.inner_rows, l.inner_cols, rows, cols, l.inner_rows, l.inner_cols);
}

// An owned, zero-filled tile of `bytes` (its checked size) in *out, or
// PTO_ERR_OUT_OF_MEMORY with *out unchanged.
pto_status CreateOwned(const char* function, pto_dtype dtype, uint32_t rows, uint32_t cols,
                       size_t bytes, pto_location location, pto_layout layout, pto_tile** out) {
  pto_tile* tile = static_cast<pto_tile*>(pto::AllocateZeroed(sizeof(pto_tile)));
  void* data = tile != nullptr ? pto::AllocateZeroed(bytes) : nullptr;
  if (data == nullptr) {
    pto::Free(tile);
    return pto::Fail(PTO_ERR_OUT_OF_MEMORY, function, "cannot allocate %zu bytes for a %ux%u tile",
                     bytes, rows, cols);
  }
  *tile = pto_tile{dtype, rows, cols, rows, cols, data, nullptr, 0,
                   static_cast<uint8_t>(location), static_cast<uint8_t>(layout), rows, cols, 0, 0};
  *out = tile;
  return PTO_OK;
}

}  // namespace

extern "C" {

pto_status pto_tile_create(pto_dtype dtype, uint32_t rows, uint32_t cols, pto_tile** out) {
  pto::Validator v("pto_tile_create");
  size_t bytes = 0;
  v.NotNull("out", out);
  CheckTileShape(v, dtype, rows, cols, &bytes);
  if (!v.ok()) return v.status();
  return CreateOwned(v.function(), dtype, rows, cols, bytes, PTO_LOC_VEC, PTO_LAYOUT_ND, out);
}

pto_status pto_tile_create_cube(pto_dtype dtype, uint32_t rows, uint32_t cols,
                                pto_location location, pto_layout layout, pto_tile** out) {
  pto::Validator v("pto_tile_create_cube");
  size_t bytes = 0;
  v.NotNull("out", out);
  CheckTileShape(v, dtype, rows, cols, &bytes);
  if (v.ok()) CheckCubePlacement(v, dtype, rows, cols, location, layout);
  if (!v.ok()) return v.status();
  return CreateOwned(v.function(), dtype, rows, cols, bytes, location, layout, out);
}

pto_status pto_tile_create_at(pto_dtype dtype, uint32_t rows, uint32_t cols, pto_buffer* buffer,
                              size_t offset, pto_tile** out) {
  pto::Validator v("pto_tile_create_at");
  size_t bytes = 0;
  v.NotNull("buffer", buffer).NotNull("out", out);
  CheckTileShape(v, dtype, rows, cols, &bytes);
  if (!v.ok()) return v.status();
  const size_t element_size = pto_dtype_size(dtype);
  // The address, not just the offset, must be element-aligned: a wrapped
  // buffer may start anywhere. Unsigned wrap-around keeps the remainder right.
  const uintptr_t address = reinterpret_cast<uintptr_t>(buffer->data) + offset;
  v.Require(address % element_size == 0, PTO_ERR_INVALID_ARGUMENT,
            "offset %zu puts the tile at address %p, not a multiple of its %zu-byte element size",
            offset, reinterpret_cast<void*>(address), element_size)
      // offset + bytes <= size, without a sum that could wrap (checked.h).
      .Require(pto::SpanInside(offset, bytes, buffer->size), PTO_ERR_OUT_OF_RANGE,
               "a %ux%u tile of %zu bytes at offset %zu does not fit in the %zu-byte buffer", rows,
               cols, bytes, offset, buffer->size);
  if (!v.ok()) return v.status();

  pto_tile* tile = static_cast<pto_tile*>(pto::AllocateZeroed(sizeof(pto_tile)));
  if (tile == nullptr)
    return pto::Fail(PTO_ERR_OUT_OF_MEMORY, v.function(), "cannot allocate a tile handle");
  pto::RetainBuffer(buffer);
  *tile = pto_tile{dtype, rows, cols, rows, cols, static_cast<char*>(buffer->data) + offset,
                   buffer, offset, PTO_LOC_VEC, PTO_LAYOUT_ND, rows, cols, 0, 0};
  *out = tile;
  return PTO_OK;
}

void pto_tile_destroy(pto_tile* tile) {
  if (tile == nullptr) return;
  if (tile->buffer != nullptr) {
    pto::ReleaseBuffer(tile->buffer);
  } else {
    pto::Free(tile->data);
  }
  pto::Free(tile);
}

pto_buffer* pto_tile_buffer(pto_tile* tile) { return tile != nullptr ? tile->buffer : nullptr; }

size_t pto_tile_offset(const pto_tile* tile) { return tile != nullptr ? tile->offset : 0; }

pto_status pto_tile_set_valid(pto_tile* tile, uint32_t valid_rows, uint32_t valid_cols) {
  pto::Validator v("pto_tile_set_valid");
  v.NotNull("tile", tile);
  if (!v.ok()) return v.status();
  v.Require(valid_rows <= tile->rows && valid_cols <= tile->cols, PTO_ERR_OUT_OF_RANGE,
            "valid region %ux%u exceeds the %ux%u tile", valid_rows, valid_cols, tile->rows,
            tile->cols);
  if (!v.ok()) return v.status();
  tile->valid_rows = valid_rows;
  tile->valid_cols = valid_cols;
  return PTO_OK;
}

pto_dtype pto_tile_dtype(const pto_tile* tile) {
  return tile != nullptr ? tile->dtype : static_cast<pto_dtype>(0);
}
uint32_t pto_tile_rows(const pto_tile* tile) { return tile != nullptr ? tile->rows : 0; }
uint32_t pto_tile_cols(const pto_tile* tile) { return tile != nullptr ? tile->cols : 0; }
uint32_t pto_tile_valid_rows(const pto_tile* tile) {
  return tile != nullptr ? tile->valid_rows : 0;
}
uint32_t pto_tile_valid_cols(const pto_tile* tile) {
  return tile != nullptr ? tile->valid_cols : 0;
}
void* pto_tile_data(pto_tile* tile) { return tile != nullptr ? tile->data : nullptr; }
pto_location pto_tile_location(const pto_tile* tile) {
  return tile != nullptr ? static_cast<pto_location>(tile->location) : PTO_LOC_VEC;
}
pto_layout pto_tile_layout(const pto_tile* tile) {
  return tile != nullptr ? static_cast<pto_layout>(tile->layout) : PTO_LAYOUT_ND;
}

pto_status pto_tile_write(pto_tile* tile, const void* src, size_t nbytes) {
  const pto_status s = CheckWholeTileCopy("pto_tile_write", tile, "src", src, nbytes, kBytes);
  if (s != PTO_OK) return s;
  if (IsRowMajorImage(tile)) {
    memmove(tile->data, src, nbytes);
    return PTO_OK;
  }
  void* values = RowMajorScratch("pto_tile_write", tile);
  if (values == nullptr) return PTO_ERR_OUT_OF_MEMORY;
  memcpy(values, src, nbytes);
  ImageFromRowMajor(tile, values);
  pto::Free(values);
  return PTO_OK;
}

pto_status pto_tile_read(const pto_tile* tile, void* dst, size_t nbytes) {
  const pto_status s = CheckWholeTileCopy("pto_tile_read", tile, "dst", dst, nbytes, kBytes);
  if (s != PTO_OK) return s;
  if (IsRowMajorImage(tile)) {
    memmove(dst, tile->data, nbytes);
    return PTO_OK;
  }
  void* values = RowMajorScratch("pto_tile_read", tile);
  if (values == nullptr) return PTO_ERR_OUT_OF_MEMORY;
  RowMajorFromImage(tile, values);
  memcpy(dst, values, nbytes);
  pto::Free(values);
  return PTO_OK;
}

pto_status pto_tile_write_f32(pto_tile* tile, const float* src, size_t count) {
  const pto_status s =
      CheckWholeTileCopy("pto_tile_write_f32", tile, "src", src, count, kFloats);
  if (s != PTO_OK) return s;
  const pto::FloatEnvironmentGuard float_env(true);
  if (IsRowMajorImage(tile)) {
    pto::kernels::FromF32(tile->dtype, count, tile->data, src);
    return PTO_OK;
  }
  void* values = RowMajorScratch("pto_tile_write_f32", tile);
  if (values == nullptr) return PTO_ERR_OUT_OF_MEMORY;
  pto::kernels::FromF32(tile->dtype, count, values, src);
  ImageFromRowMajor(tile, values);
  pto::Free(values);
  return PTO_OK;
}

pto_status pto_tile_read_f32(const pto_tile* tile, float* dst, size_t count) {
  const pto_status s =
      CheckWholeTileCopy("pto_tile_read_f32", tile, "dst", dst, count, kFloats);
  if (s != PTO_OK) return s;
  const pto::FloatEnvironmentGuard float_env(true);
  if (IsRowMajorImage(tile)) {
    pto::kernels::ToF32(tile->dtype, count, dst, tile->data);
    return PTO_OK;
  }
  void* values = RowMajorScratch("pto_tile_read_f32", tile);
  if (values == nullptr) return PTO_ERR_OUT_OF_MEMORY;
  RowMajorFromImage(tile, values);
  pto::kernels::ToF32(tile->dtype, count, dst, values);
  pto::Free(values);
  return PTO_OK;
}

}  // extern "C"
