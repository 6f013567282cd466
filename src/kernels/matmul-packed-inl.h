// The large float32 products' cache blocks on packed copies (MatmulPacked,
// kernels/matmul.cc): b's strips packed once a panel, a's rows interleaved
// a register block at a time, dst's block copied in and out. Kept apart from
// matmul.cc so that its entry points stay short.
//
// Re-included once per target by foreach_target.h, hence the toggle guard.
#if defined(PTO_KERNELS_MATMUL_PACKED_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef PTO_KERNELS_MATMUL_PACKED_INL_H_
#undef PTO_KERNELS_MATMUL_PACKED_INL_H_
#else
#define PTO_KERNELS_MATMUL_PACKED_INL_H_
#endif

#include <stddef.h>
#include <string.h>

#include "hwy/highway.h"
#include "src/kernels/kernels.h"
#include "src/kernels/matmul-block-inl.h"

HWY_BEFORE_NAMESPACE();
namespace pto {
namespace HWY_NAMESPACE {

// rows x cols elements from `from` (row stride ld_from) to `to` (row stride
// ld_to): dst's block copied in and out, exact.
template <typename T>
HWY_INLINE void CopyRows(size_t rows, size_t cols, const T* from, size_t ld_from, T* to,
                         size_t ld_to) {
  for (size_t r = 0; r < rows; ++r) memcpy(to + r * ld_to, from + r * ld_from, cols * sizeof(T));
}

// a's rows x cols (row stride lda) in blocks of BlockRows() rows (the last
// one of what is left), each block's elements interleaved: (r, k) of the
// block from row i at to + i cols + k rows_in_block + r, so that a register
// block's broadcasts for one k read one run (the transpose kernel, exact).
HWY_INLINE void InterleaveRows(size_t rows, size_t cols, const float* a, size_t lda, float* to) {
  for (size_t i = 0; i < rows; i += BlockRows()) {
    const size_t block = rows - i < BlockRows() ? rows - i : BlockRows();
    kernels::Transpose(sizeof(float), block, cols, kernels::Plane{to + i * cols, block},
                       kernels::ConstPlane{a + i * lda, lda});
  }
}

// b's k_count x n (n at most kPackN) as the strips MatmulPanel packs one at a
// time, all of them one after another (the strip of columns [s, s + width)
// at panel + s k_count; the last columns, fewer than two vectors, padded
// with zeros), read a row of b at a time front to back.
template <class D>
HWY_INLINE void PackPanel(D d, size_t k_count, size_t n, const float* b, size_t ldb,
                          float* panel) {
  const size_t lanes = hn::Lanes(d), width = 2 * lanes, full = n / width * width;
  for (size_t k = 0; k < k_count; ++k, b += ldb) {
    float* to = panel + k * width;
    for (size_t s = 0; s < full; s += width) {
      hn::StoreU(hn::LoadU(d, b + s), d, to + s * k_count);
      hn::StoreU(hn::LoadU(d, b + s + lanes), d, to + s * k_count + lanes);
    }
    if (full == n) continue;
    float row[2 * HWY_MAX_BYTES / sizeof(float)] = {};
    memcpy(row, b + full, (n - full) * sizeof(float));
    hn::StoreU(hn::LoadU(d, row), d, to + full * k_count);
    hn::StoreU(hn::LoadU(d, row + lanes), d, to + full * k_count + lanes);
  }
}

// The float32 products of at least kPackRows rows and more than one panel of
// k (with one, b's strips are packed once in MatmulPanel and the copies
// cost more than they save: 16 x 128 x 256 took 1.3x as long packed), in
// cache blocks on packed copies. For each kPackN columns and kPackK k, b's
// strips are packed once (PackPanel, b read front to back a row at a time;
// 4 MiB, read back from the last-level cache); then each block of kPackM
// rows of dst is copied into a contiguous block (512 KiB, in the
// second-level cache) and each of its panels of kStripK k of a into
// interleaved row blocks (InterleaveRows, 256 KiB, also there), and the
// strips pass over them, each held in the first-level cache while the
// block's register blocks read it. In place, a large matrix's rows lie a
// multiple of 4 KiB apart, so that a register block's eight rows fall into
// the same cache sets and evict each other and b's strip; and b's strips,
// packed anew for every block of rows, were read a short run a page. The
// copies are exact and the panels of k run in order, each resuming the
// chains from dst, so every chain is the plain loop's. With zero_seed the
// chains begin at +0.0f in the block itself: dst is neither zeroed first nor
// read (a large product's dst would be written, read and written again).
constexpr size_t kPackRows = 16, kPackM = 256, kPackN = 512, kPackK = 2048;
static_assert((kPackM * (kPackN + kStripK) + kPackK * kPackN) * 4 <= kernels::kMatmulPackBytes,
              "packed blocks");

void MatmulPacked(size_t m, size_t k_count, size_t n, float* dst, size_t ldd, const float* a,
                  size_t lda, const float* b, size_t ldb, float* packed, bool zero_seed) {
  const hn::ScalableTag<float> d;
  const size_t width = 2 * hn::Lanes(d);
  float* const dst_block = packed;
  float* const a_block = dst_block + kPackM * kPackN;
  float* const panel = a_block + kPackM * kStripK;
  for (size_t j = 0; j < n; j += kPackN) {
    const size_t nc = n - j < kPackN ? n - j : kPackN, full = nc / width * width;
    const size_t padded = (nc + width - 1) / width * width;  // at most kPackN
    for (size_t kk = 0; kk < k_count; kk += kPackK) {
      const size_t kkc = k_count - kk < kPackK ? k_count - kk : kPackK;
      for (size_t k = 0; k < kkc; k += kStripK) {
        const size_t kc = kkc - k < kStripK ? kkc - k : kStripK;
        PackPanel(d, kc, nc, b + (kk + k) * ldb + j, ldb, panel + k * padded);
      }
      for (size_t i = 0; i < m; i += kPackM) {
        const size_t mc = m - i < kPackM ? m - i : kPackM;
        float* out = dst + i * ldd + j;
        if (zero_seed && kk == 0) {
          for (size_t r = 0; r < mc; ++r) memset(dst_block + r * kPackN, 0, nc * sizeof(float));
        } else {
          CopyRows(mc, nc, out, ldd, dst_block, kPackN);
        }
        for (size_t k = 0; k < kkc; k += kStripK) {
          const size_t kc = kkc - k < kStripK ? kkc - k : kStripK;
          const float* strips = panel + k * padded;
          InterleaveRows(mc, kc, a + i * lda + kk + k, lda, a_block);
          for (size_t s = 0; s < full; s += width)
            ForRowBlocks<BlockRows()>(mc, [&](auto rows, size_t r) {
              RowBlock<true, decltype(rows)::value>(d, kc, dst_block + r * kPackN + s, kPackN,
                                                    width / 2, a_block, kc, r, strips + s * kc,
                                                    width);
            });
          if (full < nc)
            LastStripRows<true>(d, mc, kc, nc - full, dst_block + full, kPackN, a_block, kc,
                                strips + full * kc);
        }
        CopyRows(mc, nc, dst_block, kPackN, out, ldd);
      }
    }
  }
}

}  // namespace HWY_NAMESPACE
}  // namespace pto
HWY_AFTER_NAMESPACE();

#endif  // PTO_KERNELS_MATMUL_PACKED_INL_H_
