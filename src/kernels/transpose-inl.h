// The transpose of one square of 16 x 16 bytes in 128-bit vectors, shared by
// the transpose (transpose.cc) and the matrix multiply's strips packed from
// the cube's ZN layout (matmul.cc).
//
// Re-included once per target by foreach_target.h, hence the toggle guard.
#if defined(PTO_KERNELS_TRANSPOSE_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef PTO_KERNELS_TRANSPOSE_INL_H_
#undef PTO_KERNELS_TRANSPOSE_INL_H_
#else
#define PTO_KERNELS_TRANSPOSE_INL_H_
#endif

#include <stddef.h>

#include "hwy/highway.h"
#include "src/kernels/simd-inl.h"

HWY_BEFORE_NAMESPACE();
namespace pto {
namespace HWY_NAMESPACE {

#if HWY_TARGET != HWY_SCALAR && !HWY_HAVE_SCALABLE
// One square of kLanes x kLanes elements, kLanes of T filling 16 bytes:
// dst's column i is src's row i (rows ss and ds elements apart), by log2
// kLanes rounds of interleaves in 128-bit vectors, each pairing row i with
// row i + kLanes / 2 (a perfect shuffle, so that after the last round vector
// j holds column j). Not on SCALAR or the scalable targets, whose vectors
// cannot be held in an array.
template <typename T>
HWY_INLINE void TransposeSquare(T* dst, size_t ds, const T* src, size_t ss) {
  constexpr size_t kLanes = 16 / sizeof(T);
  const hn::FixedTag<T, kLanes> d;
  using V = hn::Vec<decltype(d)>;
  V rows[kLanes], next[kLanes];
  for (size_t i = 0; i < kLanes; ++i) rows[i] = hn::LoadU(d, src + i * ss);
  for (size_t round = 1; round < kLanes; round *= 2) {
    for (size_t i = 0; i < kLanes / 2; ++i) {
      next[2 * i] = hn::InterleaveLower(d, rows[i], rows[i + kLanes / 2]);
      next[2 * i + 1] = hn::InterleaveUpper(d, rows[i], rows[i + kLanes / 2]);
    }
    for (size_t i = 0; i < kLanes; ++i) rows[i] = next[i];
  }
  for (size_t j = 0; j < kLanes; ++j) hn::StoreU(rows[j], d, dst + j * ds);
}
#endif

}  // namespace HWY_NAMESPACE
}  // namespace pto
HWY_AFTER_NAMESPACE();

#endif  // PTO_KERNELS_TRANSPOSE_INL_H_
