// x86 variant (AVX2, AVX-512) of TransposeBox16, the transpose of a square
// of 16 x 16 16-bit elements (a bf16 or f16 box of the cube's layouts),
// defined beside the flag PTO_NATIVE_TRANSPOSE_BOX16 that it toggles, as
// x86-inl.h's blocks are; its portable twin, of the same name and meaning,
// is in transpose-inl.h, compiled where this pass defined no variant:
// every non-x86 target, x86's older ones, and every x86 target in a build
// with -Dx86_specializations=false. CI tests the twin on SSE4, SSSE3 and
// EMU128 and under qemu on NEON.
//
// Re-included once per target by foreach_target.h, hence the toggle guard.
#if defined(PTO_KERNELS_TRANSPOSE_X86_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef PTO_KERNELS_TRANSPOSE_X86_INL_H_
#undef PTO_KERNELS_TRANSPOSE_X86_INL_H_
#else
#define PTO_KERNELS_TRANSPOSE_X86_INL_H_
#endif

#include <stddef.h>
#include <stdint.h>

#include "hwy/highway.h"
#include "src/kernels/simd-inl.h"

#if PTO_X86_SPECIALIZED
HWY_BEFORE_NAMESPACE();
namespace pto {
namespace HWY_NAMESPACE {

#ifdef PTO_NATIVE_TRANSPOSE_BOX16
#undef PTO_NATIVE_TRANSPOSE_BOX16
#else
#define PTO_NATIVE_TRANSPOSE_BOX16
#endif

// dst's row r is src's column r over 16 x 16 16-bit elements (rows ss and
// ds elements apart), in whole vectors of 2 (AVX2) or 4 (AVX-512) blocks of
// 128 bits where the twin fills one block each. Each of eight vectors holds
// the same 8 columns of src's row i and of row i + 8 (with 4 blocks, both
// halves of the columns: [row i, columns 0-7 | row i + 8, 0-7 | row i, 8-15
// | row i + 8, 8-15]), so that TransposeSquare's three rounds of per-block
// interleaves transpose 2 or 4 of the 8 x 8 squares at once, each vector
// coming out as one row of dst (2 blocks) or two (4 blocks).
HWY_INLINE void TransposeBox16(uint16_t* dst, size_t ds, const uint16_t* src, size_t ss) {
  const hn::ScalableTag<uint16_t> d;
  const hn::Half<decltype(d)> dh;
  using V = hn::Vec<decltype(d)>;
  constexpr size_t kBlocks = hn::MaxLanes(decltype(d)()) / 8;
  static_assert(kBlocks == 2 || kBlocks == 4, "AVX2 or AVX-512 vectors");
  V v[8], next[8];
  for (size_t half = 0; half < 16; half += 4 * kBlocks) {  // 4 blocks: one pass
    for (size_t i = 0; i < 8; ++i) {
      const uint16_t* row = src + i * ss + (kBlocks == 2 ? half : 0);
      // Rows i and i + 8: [i, 8 columns | i + 8, 8] or [i, 16 | i + 8, 16].
      v[i] = hn::Combine(d, hn::LoadU(dh, row + 8 * ss), hn::LoadU(dh, row));
      if constexpr (kBlocks == 4) {  // the middle two blocks swapped
        const hn::Repartition<uint64_t, decltype(d)> d64;
        alignas(64) static constexpr uint64_t kOrder[8] = {0, 1, 4, 5, 2, 3, 6, 7};
        v[i] = hn::BitCast(
            d, hn::TableLookupLanes(hn::BitCast(d64, v[i]), hn::SetTableIndices(d64, kOrder)));
      }
    }
    for (size_t round = 1; round < 8; round *= 2) {
      for (size_t i = 0; i < 4; ++i) {
        next[2 * i] = hn::InterleaveLower(d, v[i], v[i + 4]);
        next[2 * i + 1] = hn::InterleaveUpper(d, v[i], v[i + 4]);
      }
      for (size_t i = 0; i < 8; ++i) v[i] = next[i];
    }
    for (size_t r = 0; r < 8; ++r) {
      if constexpr (kBlocks == 2) {
        hn::StoreU(v[r], d, dst + (half + r) * ds);
      } else {
        hn::StoreU(hn::LowerHalf(dh, v[r]), dh, dst + r * ds);
        hn::StoreU(hn::UpperHalf(dh, v[r]), dh, dst + (r + 8) * ds);
      }
    }
  }
}

}  // namespace HWY_NAMESPACE
}  // namespace pto
HWY_AFTER_NAMESPACE();
#endif  // PTO_X86_SPECIALIZED

#endif  // PTO_KERNELS_TRANSPOSE_X86_INL_H_
