// The transpose (ttrans, and the cube's moves between layouts whose runs
// cross: NZ and ZN, a ZN tile and a row-major one; src/fractal.cc): dst's
// column i is src's row i, each element's bits kept. Squares of 16 bytes
// by 16 bytes (8 x 8 16-bit elements, 4 x 4 32-bit, 16 x 16 bytes, 2 x 2
// 64-bit) go through 128-bit vectors: log2 of the lanes rounds of
// interleaves, each pairing row i with row i + lanes / 2 (a perfect
// shuffle, so that after the last round vector j holds column j); 16-bit
// elements go 16 x 16 at a time where they can (TransposeBox16: on AVX2
// and AVX-512 the same interleaves on whole vectors, 2 or 4 squares at
// once). The
// edges past the last whole square, the SCALAR target and the scalable
// ones (SVE, RVV: their vectors cannot be held in an array) copy element by
// element. Every path copies bits, so every target gives the same bytes.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "src/kernels/transpose.cc"
#include <stddef.h>
#include <stdint.h>

#include <type_traits>

#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "src/kernels/kernels.h"
#include "src/kernels/simd-inl.h"
#include "src/kernels/transpose-inl.h"

HWY_BEFORE_NAMESPACE();
namespace pto {
namespace HWY_NAMESPACE {

// dst[j * ds + i] = src[i * ss + j] for i in [i0, i1) and j in [j0, j1).
template <typename T>
HWY_INLINE void TransposeByElements(size_t i0, size_t i1, size_t j0, size_t j1, T* dst, size_t ds,
                                    const T* src, size_t ss) {
  for (size_t j = j0; j < j1; ++j)
    for (size_t i = i0; i < i1; ++i) dst[j * ds + i] = src[i * ss + j];
}

template <typename T>
void TransposeAs(size_t rows, size_t cols, T* dst, size_t ds, const T* src, size_t ss) {
#if HWY_TARGET == HWY_SCALAR || HWY_HAVE_SCALABLE
  TransposeByElements(0, rows, 0, cols, dst, ds, src, ss);
#else
  constexpr size_t kLanes = 16 / sizeof(T);
  const size_t whole_rows = rows / kLanes * kLanes, whole_cols = cols / kLanes * kLanes;
  // 16-bit elements: whole 16 x 16 squares first (a bf16 box in one go),
  // then the 8 x 8 squares right of them and below.
  size_t box_rows = 0, box_cols = 0;
  if constexpr (std::is_same<T, uint16_t>::value) {
    box_rows = rows / 16 * 16;
    box_cols = cols / 16 * 16;
    for (size_t i = 0; i < box_rows; i += 16)
      for (size_t j = 0; j < box_cols; j += 16)
        TransposeBox16(dst + j * ds + i, ds, src + i * ss + j, ss);
  }
  for (size_t i = 0; i < whole_rows; i += kLanes)
    for (size_t j = i < box_rows ? box_cols : 0; j < whole_cols; j += kLanes)
      TransposeSquare(dst + j * ds + i, ds, src + i * ss + j, ss);
  TransposeByElements(0, whole_rows, whole_cols, cols, dst, ds, src, ss);
  TransposeByElements(whole_rows, rows, 0, cols, dst, ds, src, ss);
#endif
}

// `count` cells of rows x cols, cell k at k * dst_step and k * src_step
// elements from dst and src.
template <typename T>
void TransposeCellsAs(size_t count, size_t rows, size_t cols, T* dst, size_t ds, size_t dst_step,
                      const T* src, size_t ss, size_t src_step) {
#if HWY_TARGET != HWY_SCALAR && !HWY_HAVE_SCALABLE
  if constexpr (std::is_same<T, uint16_t>::value) {
    if (rows == 16 && cols == 16) {  // bf16 and f16 boxes: each one TransposeBox16
      for (size_t k = 0; k < count; ++k)
        TransposeBox16(dst + k * dst_step, ds, src + k * src_step, ss);
      return;
    }
  }
#endif
  for (size_t k = 0; k < count; ++k)
    TransposeAs(rows, cols, dst + k * dst_step, ds, src + k * src_step, ss);
}

void TransposeCellsImpl(size_t element_bytes, size_t count, size_t rows, size_t cols, void* dst,
                        size_t ds, size_t dst_step, const void* src, size_t ss, size_t src_step) {
  switch (element_bytes) {
    case 1:
      return TransposeCellsAs(count, rows, cols, static_cast<uint8_t*>(dst), ds, dst_step,
                              static_cast<const uint8_t*>(src), ss, src_step);
    case 2:
      return TransposeCellsAs(count, rows, cols, static_cast<uint16_t*>(dst), ds, dst_step,
                              static_cast<const uint16_t*>(src), ss, src_step);
    case 4:
      return TransposeCellsAs(count, rows, cols, static_cast<uint32_t*>(dst), ds, dst_step,
                              static_cast<const uint32_t*>(src), ss, src_step);
    default:
      return TransposeCellsAs(count, rows, cols, static_cast<uint64_t*>(dst), ds, dst_step,
                              static_cast<const uint64_t*>(src), ss, src_step);
  }
}

// Blocks of 64 x 64 elements at most, so that both images are walked a few
// cache lines at a time.
void TransposeImpl(size_t element_bytes, size_t rows, size_t cols, void* dst, size_t ds,
                   const void* src, size_t ss) {
  constexpr size_t kBlock = 64;
  for (size_t i = 0; i < rows; i += kBlock)
    for (size_t j = 0; j < cols; j += kBlock) {
      const size_t h = rows - i < kBlock ? rows - i : kBlock;
      const size_t w = cols - j < kBlock ? cols - j : kBlock;
      switch (element_bytes) {
        case 1:
          TransposeAs(h, w, static_cast<uint8_t*>(dst) + j * ds + i, ds,
                      static_cast<const uint8_t*>(src) + i * ss + j, ss);
          break;
        case 2:
          TransposeAs(h, w, static_cast<uint16_t*>(dst) + j * ds + i, ds,
                      static_cast<const uint16_t*>(src) + i * ss + j, ss);
          break;
        case 4:
          TransposeAs(h, w, static_cast<uint32_t*>(dst) + j * ds + i, ds,
                      static_cast<const uint32_t*>(src) + i * ss + j, ss);
          break;
        default:
          TransposeAs(h, w, static_cast<uint64_t*>(dst) + j * ds + i, ds,
                      static_cast<const uint64_t*>(src) + i * ss + j, ss);
          break;
      }
    }
}

}  // namespace HWY_NAMESPACE
}  // namespace pto
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace pto {
HWY_EXPORT(TransposeImpl);
HWY_EXPORT(TransposeCellsImpl);
namespace kernels {
void Transpose(size_t element_bytes, size_t rows, size_t cols, const Plane& dst,
               const ConstPlane& src) {
  PTO_DYNAMIC_DISPATCH(TransposeImpl)(element_bytes, rows, cols, dst.data, dst.stride, src.data,
                                      src.stride);
}
void TransposeCells(size_t element_bytes, size_t count, size_t rows, size_t cols, const Plane& dst,
                    size_t dst_step, const ConstPlane& src, size_t src_step) {
  PTO_DYNAMIC_DISPATCH(TransposeCellsImpl)(element_bytes, count, rows, cols, dst.data, dst.stride,
                                           dst_step, src.data, src.stride, src_step);
}
}  // namespace kernels
}  // namespace pto
#endif
