// The transpose of one square of 16 x 16 bytes in 128-bit vectors, and of
// a square of 16 x 16 16-bit elements (TransposeBox16: a bf16 or f16 box of
// the cube's layouts; its x86 variant in transpose-x86-inl.h, its portable
// twin here), shared by the transpose (transpose.cc) and the matrix
// multiply's strips packed from the cube's ZN layout (matmul.cc).
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
// The variant first: the twin below is compiled only if it toggled no flag
// in this pass.
#include "src/kernels/transpose-x86-inl.h"

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

#if defined(PTO_NATIVE_TRANSPOSE_BOX16) == defined(HWY_TARGET_TOGGLE)
#ifdef PTO_NATIVE_TRANSPOSE_BOX16
#undef PTO_NATIVE_TRANSPOSE_BOX16
#else
#define PTO_NATIVE_TRANSPOSE_BOX16
#endif
#if HWY_TARGET != HWY_SCALAR && !HWY_HAVE_SCALABLE
// dst's row r is src's column r over 16 x 16 16-bit elements (rows ss and
// ds elements apart): its four 8 x 8 squares one after another.
HWY_INLINE void TransposeBox16(uint16_t* dst, size_t ds, const uint16_t* src, size_t ss) {
  for (size_t i = 0; i < 16; i += 8)
    for (size_t j = 0; j < 16; j += 8) TransposeSquare(dst + j * ds + i, ds, src + i * ss + j, ss);
}
#endif
#endif  // PTO_NATIVE_TRANSPOSE_BOX16

}  // namespace HWY_NAMESPACE
}  // namespace pto
HWY_AFTER_NAMESPACE();

#endif  // PTO_KERNELS_TRANSPOSE_INL_H_
