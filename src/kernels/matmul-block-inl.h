// The matrix multiplies' register blocks (kernels/matmul.cc): the chains'
// steps (one rounding a step, the fixed order of k), the quads of rows and
// vectors a block keeps in registers, the row blocks over m, b's packed
// strips, and a panel of k over them (MatmulPanel). Kept apart from
// matmul.cc so that its entry points stay short.
//
// Re-included once per target by foreach_target.h, hence the toggle guard.
#if defined(PTO_KERNELS_MATMUL_BLOCK_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef PTO_KERNELS_MATMUL_BLOCK_INL_H_
#undef PTO_KERNELS_MATMUL_BLOCK_INL_H_
#else
#define PTO_KERNELS_MATMUL_BLOCK_INL_H_
#endif

#include <stddef.h>
#include <string.h>

#include "hwy/cache_control.h"
#include "hwy/highway.h"
#include "src/kernels/fused-inl.h"
#include "src/kernels/simd-inl.h"

HWY_BEFORE_NAMESPACE();
namespace pto {
namespace HWY_NAMESPACE {

// One step of an integer chain: acc + a * b modulo 2^32.
template <class D>
HWY_INLINE hn::Vec<D> WrappingMulAdd(D, hn::Vec<D> a, hn::Vec<D> b, hn::Vec<D> c) {
  return hn::Add(c, hn::Mul(a, b));
}

template <class D>
HWY_INLINE hn::Vec<D> StepOf(D d, hn::Vec<D> a, hn::Vec<D> b, hn::Vec<D> c) {
  if constexpr (hwy::IsFloat<hn::TFromD<D>>()) {
    return ExactMulAdd(d, a, b, c);
  } else {
    return WrappingMulAdd(d, a, b, c);
  }
}

// A vector of p + offset where kUse, else zeros (a register block's unused
// slot: nothing is read).
template <bool kUse, class D, typename T>
HWY_INLINE hn::Vec<D> LoadIf(D d, const T* p, size_t offset) {
  if constexpr (kUse) {
    return hn::LoadU(d, p + offset);
  } else {
    (void)p, (void)offset;
    return hn::Zero(d);
  }
}
template <bool kUse, class D, typename T>
HWY_INLINE void StoreIf(D d, hn::Vec<D> v, T* p, size_t offset) {
  if constexpr (kUse) {
    hn::StoreU(v, d, p + offset);
  } else {
    (void)d, (void)v, (void)p, (void)offset;
  }
}

// One k of one row's chains: a(row, k) times the k-th row of b's one or two
// vectors, into c0 and c1.
template <size_t kVecs, class D, typename T>
HWY_INLINE void RowStep(D d, T a, hn::Vec<D> b0, hn::Vec<D> b1, hn::Vec<D>& c0,
                        hn::Vec<D>& c1) {
  const hn::Vec<D> av = hn::Set(d, a);
  c0 = StepOf(d, av, b0, c0);
  if constexpr (kVecs > 1) c1 = StepOf(d, av, b1, c1);
}

// A register block is two quads of up to four rows each, kRows (0 to 4) of
// a quad's rows used, kVecs (1 or 2) vectors of each: cR0 and cR1 hold row
// R's chains (named, not an array: SVE's vectors cannot be array elements).
// Their seeds: dst's values (zeros in unused slots: nothing is read).
// A row's second vector lies `second` elements after its first (the lanes
// that follow in a row-major tile; the next box in an acc tile's NZ image).
template <size_t kRows, size_t kVecs, class D, typename T, class V = hn::Vec<D>>
HWY_INLINE void LoadQuad(D d, const T* dst, size_t ldd, size_t second, V& c00, V& c01, V& c10,
                         V& c11, V& c20, V& c21, V& c30, V& c31) {
  constexpr bool k2 = kVecs > 1;
  const size_t lanes = second;
  c00 = LoadIf<(kRows > 0)>(d, dst, 0), c01 = LoadIf<(kRows > 0 && k2)>(d, dst, lanes);
  c10 = LoadIf<(kRows > 1)>(d, dst, ldd), c11 = LoadIf<(kRows > 1 && k2)>(d, dst, ldd + lanes);
  c20 = LoadIf<(kRows > 2)>(d, dst, 2 * ldd);
  c21 = LoadIf<(kRows > 2 && k2)>(d, dst, 2 * ldd + lanes);
  c30 = LoadIf<(kRows > 3)>(d, dst, 3 * ldd);
  c31 = LoadIf<(kRows > 3 && k2)>(d, dst, 3 * ldd + lanes);
}

// One k of a quad's chains, a at its first row's element k.
template <size_t kRows, size_t kVecs, class D, typename T, class V = hn::Vec<D>>
HWY_INLINE void StepQuad(D d, const T* a, size_t lda, V b0, V b1, V& c00, V& c01, V& c10, V& c11,
                         V& c20, V& c21, V& c30, V& c31) {
  if constexpr (kRows > 0) RowStep<kVecs>(d, a[0], b0, b1, c00, c01);
  if constexpr (kRows > 1) RowStep<kVecs>(d, a[lda], b0, b1, c10, c11);
  if constexpr (kRows > 2) RowStep<kVecs>(d, a[2 * lda], b0, b1, c20, c21);
  if constexpr (kRows > 3) RowStep<kVecs>(d, a[3 * lda], b0, b1, c30, c31);
}

template <size_t kRows, size_t kVecs, class D, typename T, class V = hn::Vec<D>>
HWY_INLINE void StoreQuad(D d, T* dst, size_t ldd, size_t second, V c00, V c01, V c10, V c11,
                          V c20, V c21, V c30, V c31) {
  constexpr bool k2 = kVecs > 1;
  const size_t lanes = second;
  StoreIf<(kRows > 0)>(d, c00, dst, 0), StoreIf<(kRows > 0 && k2)>(d, c01, dst, lanes);
  StoreIf<(kRows > 1)>(d, c10, dst, ldd), StoreIf<(kRows > 1 && k2)>(d, c11, dst, ldd + lanes);
  StoreIf<(kRows > 2)>(d, c20, dst, 2 * ldd);
  StoreIf<(kRows > 2 && k2)>(d, c21, dst, 2 * ldd + lanes);
  StoreIf<(kRows > 3)>(d, c30, dst, 3 * ldd);
  StoreIf<(kRows > 3 && k2)>(d, c31, dst, 3 * ldd + lanes);
}

// kRows (1 to 8) rows x kVecs (1 or 2) vectors of dst: the chains over every
// k, seeded by dst's values there (row r's vectors at dst + r ldd and
// `second` elements further); a(r, k) at a + r lda + k ka (a row-major
// block: ka = 1; an interleaved one, each k's rows side by side: lda = 1,
// ka = kRows); b's k-th row at b + k ldb (a packed strip has ldb = its two
// vectors).
template <size_t kRows, size_t kVecs, class D, typename T>
HWY_INLINE void Block(D d, size_t k_count, T* dst, size_t ldd, size_t second, const T* a,
                      size_t lda, const T* b, size_t ldb, size_t ka = 1) {
  static_assert(kRows >= 1 && kRows <= 8 && kVecs >= 1 && kVecs <= 2, "an 8 x 2 block at most");
  constexpr size_t kLow = kRows < 4 ? kRows : 4, kHigh = kRows - kLow;
  const size_t lanes = hn::Lanes(d);
  const size_t high = kHigh > 0 ? 4 : 0;  // the second quad's first row, where there is one
  hn::Vec<D> c00, c01, c10, c11, c20, c21, c30, c31;  // rows 0-3
  hn::Vec<D> c40, c41, c50, c51, c60, c61, c70, c71;  // rows 4-7
  LoadQuad<kLow, kVecs>(d, dst, ldd, second, c00, c01, c10, c11, c20, c21, c30, c31);
  LoadQuad<kHigh, kVecs>(d, dst + high * ldd, ldd, second, c40, c41, c50, c51, c60, c61, c70,
                         c71);
  for (size_t k = 0; k < k_count; ++k) {
    const T* bk = b + k * ldb;
    const hn::Vec<D> b0 = hn::LoadU(d, bk);
    const hn::Vec<D> b1 = LoadIf<(kVecs > 1)>(d, bk, lanes);
    StepQuad<kLow, kVecs>(d, a + k * ka, lda, b0, b1, c00, c01, c10, c11, c20, c21, c30, c31);
    StepQuad<kHigh, kVecs>(d, a + high * lda + k * ka, lda, b0, b1, c40, c41, c50, c51, c60, c61,
                           c70, c71);
  }
  StoreQuad<kLow, kVecs>(d, dst, ldd, second, c00, c01, c10, c11, c20, c21, c30, c31);
  StoreQuad<kHigh, kVecs>(d, dst + high * ldd, ldd, second, c40, c41, c50, c51, c60, c61, c70,
                          c71);
}

// The register block's rows on this target, the one target-specific choice
// of the product (its bits do not depend on it: every shape runs the same
// chains, and the tests run each target's): 8 rows x 2 vectors where there
// are 32 vector registers and a fused multiply-add (16 accumulators, b's two
// vectors and a broadcast), 6 on AVX2's 16 registers, and 4 where
// ExactMulAdd goes through double (SSE4, SSSE3, EMU128, SCALAR: its
// temporaries need the registers).
constexpr size_t BlockRows() {
#if PTO_FUSED_MULADD && (HWY_ARCH_ARM_A64 || HWY_TARGET <= HWY_AVX3)
  return 8;
#elif PTO_FUSED_MULADD
  return 6;
#else
  return 4;
#endif
}

// f(rows, i) over m rows: blocks of kRows rows at i = 0, kRows, ..., then
// one block of the m % kRows left (rows a std::integral_constant).
template <size_t kRows, class F>
HWY_INLINE void LastRows(size_t rows, size_t i, const F& f) {
  if (rows == kRows) return f(std::integral_constant<size_t, kRows>(), i);
  if constexpr (kRows > 1) LastRows<kRows - 1>(rows, i, f);
}
template <size_t kRows, class F>
HWY_INLINE void ForRowBlocks(size_t m, const F& f) {
  size_t i = 0;
  for (; i + kRows <= m; i += kRows) f(std::integral_constant<size_t, kRows>(), i);
  if constexpr (kRows > 1) {
    if (i < m) LastRows<kRows - 1>(m - i, i, f);
  }
}

// k of b's packed strips: kStripK rows of two vectors, 32 KiB at most (256
// rows of two AVX-512 vectors of float32), held in the first-level cache
// while every row block of a passes over it.
constexpr size_t kStripK = HWY_MIN(256, 32768 / (2 * HWY_MAX_BYTES));

// b's k_count (<= kStripK) rows of two vectors from b, one after another, in
// T: b's own elements, or FLOAT16 / BFLOAT16 ones widened exactly to float32
// (LoadAs: ToF32's conversion).
template <class D, typename TB, typename T>
HWY_INLINE void PackStrip(D d, size_t k_count, const TB* b, size_t ldb, T* strip) {
  const size_t lanes = hn::Lanes(d);
  for (size_t k = 0; k < k_count; ++k, b += ldb, strip += 2 * lanes) {
    hn::Store(LoadAs(d, b), d, strip);
    hn::Store(LoadAs(d, b + lanes), d, strip + lanes);
  }
}

// The same for b's last `cols` columns (fewer than two vectors), each row of
// the strip filled out with zeros.
template <class D, typename TB, typename T>
HWY_INLINE void PackLastStrip(D d, size_t k_count, const TB* b, size_t ldb, size_t cols, T* strip) {
  const size_t lanes = hn::Lanes(d);
  TB row[2 * HWY_MAX_BYTES / sizeof(T)] = {};  // zero bits: +0 in every type
  for (size_t k = 0; k < k_count; ++k, b += ldb, strip += 2 * lanes) {
    memcpy(row, b, cols * sizeof(TB));
    hn::Store(LoadAs(d, row), d, strip);
    hn::Store(LoadAs(d, row + lanes), d, strip + lanes);
  }
}

// The rows of the register block from row i of a (m x k_count) for
// Block: a row-major block (row stride lda), or with kInterleaved one whose
// blocks of BlockRows() rows (the last one's kRows) are each interleaved,
// block after block (InterleaveRows).
template <bool kInterleaved, size_t kRows, class D, typename T>
HWY_INLINE void RowBlock(D d, size_t k_count, T* dst, size_t ldd, size_t second, const T* a,
                         size_t lda, size_t i, const T* strip, size_t width) {
  if constexpr (kInterleaved) {
    Block<kRows, 2>(d, k_count, dst, ldd, second, a + i * k_count, 1, strip, width, kRows);
  } else {
    Block<kRows, 2>(d, k_count, dst, ldd, second, a + i * lda, lda, strip, width);
  }
}

// Every row block of a (m rows; RowBlock's) over the padded strip of dst's
// last `cols` columns (fewer than two vectors), on a copy of their rows of
// dst whose padding is dropped: the same chains for the columns that exist.
template <bool kInterleaved = false, class D, typename T>
HWY_INLINE void LastStripRows(D d, size_t m, size_t k_count, size_t cols, T* dst, size_t ldd,
                              const T* a, size_t lda, const T* strip) {
  const size_t width = 2 * hn::Lanes(d);
  constexpr size_t kMaxWidth = 2 * HWY_MAX_BYTES / sizeof(T);
  HWY_ALIGN T seeds[BlockRows() * kMaxWidth] = {};
  ForRowBlocks<BlockRows()>(m, [&](auto rows, size_t i) {
    constexpr size_t kRows = decltype(rows)::value;
    T* out = dst + i * ldd;
    for (size_t r = 0; r < kRows; ++r) memcpy(seeds + r * width, out + r * ldd, cols * sizeof(T));
    RowBlock<kInterleaved, kRows>(d, k_count, seeds, width, width / 2, a, lda, i, strip, width);
    for (size_t r = 0; r < kRows; ++r) memcpy(out + r * ldd, seeds + r * width, cols * sizeof(T));
  });
}

// dst (m x n, row stride ldd, holding the seeds) = the chains over k of the
// rows of a (m x k_count, k_count <= kStripK) and b (k_count x n), all of
// element type T. Each two vectors' worth of b's columns are packed into a
// strip, which every row block of a then reads front to back (b's rows are
// a page or more apart in a large matrix: read in place, each k of a column
// block would be another page); the last columns, fewer than two vectors,
// as LastStripRows.
template <typename T, typename TB = T>
void MatmulPanel(size_t m, size_t k_count, size_t n, T* dst, size_t ldd, const T* a, size_t lda,
                 const TB* b, size_t ldb) {
  const hn::ScalableTag<T> d;
  const size_t width = 2 * hn::Lanes(d);
  constexpr size_t kMaxWidth = 2 * HWY_MAX_BYTES / sizeof(T);
  HWY_ALIGN T strip[kStripK * kMaxWidth];
  // Where b's rows lie a page or more apart (beyond the hardware's
  // prefetchers), each row block asks for its share of the next strip's
  // rows, so that they are on their way when that strip is packed (nearer
  // rows are in cache or fetched anyway: asking costs 1.1x at 16 x 128 x 256).
  const size_t row_blocks = (m + BlockRows() - 1) / BlockRows();
  const size_t share = (k_count + row_blocks - 1) / row_blocks;
  const bool far = ldb * sizeof(TB) >= 4096;
  size_t j = 0;
  for (; j + width <= n; j += width) {
    PackStrip(d, k_count, b + j, ldb, strip);
    const TB* next = far && j + 2 * width <= n ? b + j + width : nullptr;
    ForRowBlocks<BlockRows()>(m, [&](auto rows, size_t i) {
      if (next != nullptr) {
        const size_t first = i / BlockRows() * share;
        const size_t last = HWY_MIN(first + share, k_count);
        for (size_t k = first; k < last; ++k) {
          hwy::Prefetch(next + k * ldb);
          hwy::Prefetch(next + k * ldb + width - 1);
        }
      }
      Block<decltype(rows)::value, 2>(d, k_count, dst + i * ldd + j, ldd, width / 2, a + i * lda,
                                      lda, strip, width);
    });
  }
  if (j == n) return;
  PackLastStrip(d, k_count, b + j, ldb, n - j, strip);
  LastStripRows(d, m, k_count, n - j, dst + j, ldd, a, lda, strip);
}

}  // namespace HWY_NAMESPACE
}  // namespace pto
HWY_AFTER_NAMESPACE();

#endif  // PTO_KERNELS_MATMUL_BLOCK_INL_H_
