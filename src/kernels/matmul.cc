// Matrix multiply (TMATMUL, TMATMUL_ACC, TMATMUL_BIAS, and TGEMV, TGEMV_ACC,
// TGEMV_BIAS with M = 1): dst = seed + a b. The MX rows (matmul_mx.cc) run
// the same float32 chains, MatmulF32Impl, on their operands decoded and
// scaled into float32 blocks.
//
// Every dst(i, j) is one chain over k = 0, 1, ..., K-1 in that order: a float
// one acc = fma(a(i,k), b(k,j), acc), each step rounded once to float32 (a
// and b widened exactly to float32 first), an INT32 one acc += a(i,k) b(k,j)
// modulo 2^32. Vector lanes hold the chains of neighbouring columns, and
// register blocks hold several rows' chains; neither regroups a chain, so
// every target, block shape and thread count gives the bits of the plain
// loop. The one target-specific piece is ExactMulAdd (fused-inl.h): the
// target's fused multiply-add where it has one, else the same result
// computed in double (exact product, sum rounded to odd, then to float).
// INT8 sources take the CPU's 8-bit dot products instead of the widened
// int32 chains where the dispatch target is AVX-512 and the CPU has
// AVX512-VNNI (matmul_int8_vnni.cc: the same sums modulo 2^32, in groups of
// four k, which integer addition does not tell apart).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "src/kernels/matmul.cc"
#include <stdint.h>
#include <string.h>

#include <type_traits>

#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "src/kernels/kernels.h"
#include "src/kernels/fused-inl.h"
#include "src/kernels/simd-inl.h"
#include "src/kernels/transpose-inl.h"
#include "src/kernels/matmul-block-inl.h"

#ifndef PTO_KERNELS_MATMUL_PACK_BUFFER_
#define PTO_KERNELS_MATMUL_PACK_BUFFER_
namespace pto::kernels {
// The thread's buffer of kMatmulPackBytes for the packed blocks of the large
// products (MatmulPacked), or NULL where it cannot be had (those products
// then run on the tiles in place: the same chains).
// kPackM x (kPackN + kStripK) + kPackK x kPackN float32 elements: 5 MiB.
constexpr size_t kMatmulPackBytes = (size_t{256} * (512 + 256) + size_t{2048} * 512) * 4;
void* MatmulPackBuffer();
// dst's m x n int32 or float32 elements set to zero bits (0, +0.0f): the
// seeds of a zero-seeded product.
void ZeroSeeds(size_t m, size_t n, const Plane& dst);
}  // namespace pto::kernels
#endif  // PTO_KERNELS_MATMUL_PACK_BUFFER_

#include "src/kernels/matmul-packed-inl.h"

HWY_BEFORE_NAMESPACE();
namespace pto {
namespace HWY_NAMESPACE {

// Cache blocks: dst in blocks of kChunkM rows by kPanelN columns (256 KiB
// of float32), held in the second-level cache while the panels of k pass
// over it: for each, a's kChunkM x kStripK elements (256 KiB on AVX-512,
// again in the second-level cache) against b's strips. The panels of k are
// taken in order, each resuming the chains from the values the previous one
// left in dst (float32 or int32 already: exact), so every chain's order is
// still the plain loop's.
constexpr size_t kPanelN = 256, kChunkM = 256;

// kRowsOfB (1 or 4) consecutive k of a one-row product over columns [0,
// nc): dst(j) = step(a(k+3), b(k+3, j), ... step(a(k), b(k, j), dst(j))),
// each chain's steps in order; every vector of dst independent of the next.
template <size_t kRowsOfB, class D, typename T>
HWY_INLINE void StreamRows(D d, size_t nc, T* dst, const T* a, const T* b, size_t ldb) {
  const size_t lanes = hn::Lanes(d);
  const hn::Vec<D> a0 = hn::Set(d, a[0]);
  const hn::Vec<D> a1 = hn::Set(d, kRowsOfB > 1 ? a[1] : a[0]);
  const hn::Vec<D> a2 = hn::Set(d, kRowsOfB > 1 ? a[2] : a[0]);
  const hn::Vec<D> a3 = hn::Set(d, kRowsOfB > 1 ? a[3] : a[0]);
  size_t j = 0;
  for (; j + lanes <= nc; j += lanes) {
    hn::Vec<D> acc = StepOf(d, a0, hn::LoadU(d, b + j), hn::LoadU(d, dst + j));
    if constexpr (kRowsOfB > 1) {
      acc = StepOf(d, a1, hn::LoadU(d, b + ldb + j), acc);
      acc = StepOf(d, a2, hn::LoadU(d, b + 2 * ldb + j), acc);
      acc = StepOf(d, a3, hn::LoadU(d, b + 3 * ldb + j), acc);
    }
    hn::StoreU(acc, d, dst + j);
  }
  if (j < nc) {
    const hn::CappedTag<T, 1> d1;
    for (; j < nc; ++j) {
      hn::Vec<decltype(d1)> acc =
          StepOf(d1, hn::Set(d1, a[0]), hn::LoadU(d1, b + j), hn::LoadU(d1, dst + j));
      if constexpr (kRowsOfB > 1) {
        acc = StepOf(d1, hn::Set(d1, a[1]), hn::LoadU(d1, b + ldb + j), acc);
        acc = StepOf(d1, hn::Set(d1, a[2]), hn::LoadU(d1, b + 2 * ldb + j), acc);
        acc = StepOf(d1, hn::Set(d1, a[3]), hn::LoadU(d1, b + 3 * ldb + j), acc);
      }
      hn::StoreU(acc, d1, dst + j);
    }
  }
}

// One row of a (a GEMV, M = 1): dst's columns in chunks that stay in the
// first-level cache while b's rows stream past them four at a time, each
// row read front to back (a column block would read b down its columns,
// one short run per row). The same chains in the same order as Block's.
constexpr size_t kStreamChunk = 2048;

template <typename T>
void GemvStream(size_t k_count, size_t n, T* dst, const T* a, const T* b, size_t ldb) {
  const hn::ScalableTag<T> d;
  for (size_t j = 0; j < n; j += kStreamChunk) {
    const size_t nc = n - j < kStreamChunk ? n - j : kStreamChunk;
    size_t k = 0;
    for (; k + 4 <= k_count; k += 4) StreamRows<4>(d, nc, dst + j, a + k, b + k * ldb + j, ldb);
    for (; k < k_count; ++k) StreamRows<1>(d, nc, dst + j, a + k, b + k * ldb + j, ldb);
  }
}

// FLOAT16 and BFLOAT16 sources, float32 chains: a widened into float32
// blocks of kNarrowRows x kStripK on the stack (LoadAs: ToF32's exact
// conversion), b widened as its strips are packed, so that b is read from
// the tile once per kNarrowRows rows of a and never staged whole (a decode
// step's M = 16 rows read each weight once). Blocks, panels and chains as
// float32's: the same bits as widening both first.
constexpr size_t kNarrowRows = 32;

template <class D, typename TB>
HWY_INLINE void WidenRows(D d, size_t rows, size_t cols, const TB* a, size_t lda, float* out) {
  const size_t lanes = hn::Lanes(d);
  for (size_t r = 0; r < rows; ++r, a += lda, out += cols) {
    size_t c = 0;
    for (; c + lanes <= cols; c += lanes) hn::StoreU(LoadAs(d, a + c), d, out + c);
    if (c == cols) continue;
    TB rest[HWY_MAX_BYTES / sizeof(float)] = {};
    memcpy(rest, a + c, (cols - c) * sizeof(TB));
    HWY_ALIGN float wide[HWY_MAX_BYTES / sizeof(float)];
    hn::Store(LoadAs(d, rest), d, wide);
    memcpy(out + c, wide, (cols - c) * sizeof(float));
  }
}

// dst = the chains of a and b, whose elements are T's or FLOAT16 / BFLOAT16
// ones for float32 chains (TS), seeded by dst's values or, with zero_seed,
// by zeros (+0.0f, 0). One row of a streams b (GemvStream); else the cache
// blocks above, a's narrow elements widened first a block of kNarrowRows x
// kStripK at a time, large float32 products on packed blocks (MatmulPacked,
// which sets zero seeds in its block: dst is then only written).
template <typename T, typename TS = T>
void MatmulTyped(size_t m, size_t k_count, size_t n, T* dst, size_t ldd, const TS* a, size_t lda,
                 const TS* b, size_t ldb, bool zero_seed = false) {
  constexpr bool kWiden = !std::is_same_v<T, TS>;
  if constexpr (std::is_same_v<T, float> && !kWiden) {
    if (m >= kPackRows && k_count > kStripK) {
      float* packed = static_cast<float*>(kernels::MatmulPackBuffer());
      if (packed != nullptr)
        return MatmulPacked(m, k_count, n, dst, ldd, a, lda, b, ldb, packed, zero_seed);
    }
  }
  if (zero_seed) kernels::ZeroSeeds(m, n, kernels::Plane{dst, ldd});
  if constexpr (!kWiden) {
    if (m == 1) return GemvStream<T>(k_count, n, dst, a, b, ldb);
  }
  constexpr size_t kRows = kWiden ? kNarrowRows : kChunkM;
  for (size_t j = 0; j < n; j += kPanelN) {
    const size_t nc = n - j < kPanelN ? n - j : kPanelN;
    for (size_t i = 0; i < m; i += kRows) {
      const size_t mc = m - i < kRows ? m - i : kRows;
      for (size_t k = 0; k < k_count; k += kStripK) {
        const size_t kc = k_count - k < kStripK ? k_count - k : kStripK;
        T* out = dst + i * ldd + j;
        if constexpr (kWiden) {
          HWY_ALIGN T wide_a[kNarrowRows * kStripK];
          WidenRows(hn::ScalableTag<T>(), mc, kc, a + i * lda + k, lda, wide_a);
          MatmulPanel<T, TS>(mc, kc, nc, out, ldd, wide_a, kc, b + k * ldb + j, ldb);
        } else {
          MatmulPanel<T>(mc, kc, nc, out, ldd, a + i * lda + k, lda, b + k * ldb + j, ldb);
        }
      }
    }
  }
}

void MatmulF32Impl(size_t m, size_t k, size_t n, float* dst, size_t ldd, const float* a,
                   size_t lda, const float* b, size_t ldb) {
  MatmulTyped<float>(m, k, n, dst, ldd, a, lda, b, ldb);
}

// MatmulF32Impl's chains from zero seeds (+0.0f): dst is only written (a
// large product sets the seeds in its packed block, not in dst first).
void MatmulF32ZeroImpl(size_t m, size_t k, size_t n, float* dst, size_t ldd, const float* a,
                       size_t lda, const float* b, size_t ldb) {
  MatmulTyped<float>(m, k, n, dst, ldd, a, lda, b, ldb, true);
}

void MatmulI32Impl(size_t m, size_t k, size_t n, int32_t* dst, size_t ldd, const int32_t* a,
                   size_t lda, const int32_t* b, size_t ldb) {
  MatmulTyped<int32_t>(m, k, n, dst, ldd, a, lda, b, ldb);
}

void MatmulF16Impl(size_t m, size_t k, size_t n, float* dst, size_t ldd, const uint16_t* a,
                   size_t lda, const uint16_t* b, size_t ldb) {
  MatmulTyped<float>(m, k, n, dst, ldd, reinterpret_cast<const hwy::float16_t*>(a), lda,
                     reinterpret_cast<const hwy::float16_t*>(b), ldb);
}

void MatmulBf16Impl(size_t m, size_t k, size_t n, float* dst, size_t ldd, const uint16_t* a,
                    size_t lda, const uint16_t* b, size_t ldb) {
  MatmulTyped<float>(m, k, n, dst, ldd, reinterpret_cast<const hwy::bfloat16_t*>(a), lda,
                     reinterpret_cast<const hwy::bfloat16_t*>(b), ldb);
}

// Products on the cube's own layouts at small M (a decode step's 1 to 32
// rows): b a right tile's ZN image and dst an acc tile's NZ image, read and
// written where they lie, so that no operand but a is staged. b's FLOAT16
// or BFLOAT16 elements lie in boxes of 16 k x 16 columns, a row of boxes
// after another, each box's columns one after another and a column's 16 k
// one after another: b(k, j) is element (k / 16) 16 ldz + (j / 16) 256 +
// (j % 16) 16 + k % 16 of a ZN image ldz columns wide. dst's float32
// elements lie in boxes of 16 x 16 (of its rows, where it has fewer than
// 16), a column of boxes after another, each box's rows one after another:
// dst(i, j) is element (j / 16) 16 rows + 16 i + j % 16 of an NZ image of
// `rows` rows, so that a row's vector of up to 16 lanes, from a column that
// is a multiple of its lanes, lies in one box's row.
constexpr size_t kBox = 16;

HWY_INLINE size_t ZnOffset(size_t k, size_t j, size_t ldz) {
  return (k / kBox) * kBox * ldz + (j / kBox) * kBox * kBox + (j % kBox) * kBox + k % kBox;
}
HWY_INLINE size_t NzAccOffset(size_t i, size_t j, size_t rows) {
  return (j / kBox) * kBox * rows + i * kBox + j % kBox;
}

// The 16 k of one row of b's boxes from (k0, j) (k0 a multiple of 16), over
// `cols` columns, into `width` columns of rows (16 rows of `width`
// elements, the columns from `cols` on zeros): each box's columns are its
// rows, so whole boxes (TransposeBox16) and then 8 x 8 squares are
// transposed in vectors, as 16-bit lanes (the tail and the targets without
// fixed vectors element by element, in TB, the type LoadAs then reads).
template <typename TB>
HWY_INLINE void ZnBoxRow(const TB* b, size_t ldz, size_t k0, size_t j, size_t cols, size_t width,
                         TB* rows) {
  size_t c = 0;
#if HWY_TARGET != HWY_SCALAR && !HWY_HAVE_SCALABLE
  constexpr size_t kSquare = 8;  // 16-bit elements: 8 x 8 in 128-bit vectors
  uint16_t* square_rows = reinterpret_cast<uint16_t*>(rows);
  const uint16_t* bits = reinterpret_cast<const uint16_t*>(b);
  if (j % kBox == 0)
    for (; c + kBox <= cols; c += kBox)
      TransposeBox16(square_rows + c, width, bits + ZnOffset(k0, j + c, ldz), kBox);
  for (; c + kSquare <= cols; c += kSquare)
    for (size_t half = 0; half < kBox; half += kSquare)
      TransposeSquare(square_rows + half * width + c, width,
                      bits + ZnOffset(k0 + half, j + c, ldz), kBox);
#endif
  const size_t present = cols < width ? cols : width;
  for (size_t kk = 0; kk < kBox; ++kk) {
    TB* row = rows + kk * width;
    for (size_t cc = c; cc < present; ++cc) row[cc] = b[ZnOffset(k0 + kk, j + cc, ldz)];
    for (size_t cc = present; cc < width; ++cc) row[cc] = TB();  // zero bits: +0
  }
}

// PackStrip's strip from b's ZN image: k_count rows from k0 (a multiple of
// 16) of the columns [j, j + cols), cols at most two vectors, widened
// exactly to float32 (LoadAs), the columns from cols on zeros.
template <class D, typename TB>
HWY_INLINE void PackStripZn(D d, size_t k0, size_t k_count, const TB* b, size_t ldz, size_t j,
                            size_t cols, float* strip) {
  const size_t lanes = hn::Lanes(d), width = 2 * lanes;
  HWY_ALIGN TB rows[kBox * 2 * HWY_MAX_BYTES / sizeof(float)];
  for (size_t k = 0; k < k_count; k += kBox) {
    ZnBoxRow(b, ldz, k0 + k, j, cols, width, rows);
    const size_t box_rows = k_count - k < kBox ? k_count - k : kBox;
    for (size_t kk = 0; kk < box_rows; ++kk, strip += width) {
      hn::Store(LoadAs(d, rows + kk * width), d, strip);
      hn::Store(LoadAs(d, rows + kk * width + lanes), d, strip + lanes);
    }
  }
}

// Whether this target's float32 vectors fit a box's row (at most 16 lanes)
// and m rows one widened block of a (kNarrowRows): the small-M product on
// the cube's layouts runs here.
bool MatmulCubeFitsImpl(size_t m) {
  return hn::Lanes(hn::ScalableTag<float>()) <= kBox && m <= kNarrowRows;
}

// dst (an acc NZ image of acc_rows rows, holding the seeds) = the chains of
// a (m x k_count, row-major, FLOAT16 or BFLOAT16: TB) and b (a ZN image ldz
// columns wide, from its (0, 0)), for MatmulCubeFitsImpl(m). Per panel of
// kStripK k: a widened once, then each strip of b decoded once from its
// boxes (transposed, widened) while every row block of a passes over it,
// the register blocks reading and writing dst in its boxes. Blocks, panels
// and chains as MatmulTyped's: the same bits.
template <typename TB>
void MatmulCubeTyped(size_t m, size_t k_count, size_t n, float* dst, size_t acc_rows, const TB* a,
                     size_t lda, const TB* b, size_t ldz) {
  const hn::ScalableTag<float> d;
  const size_t lanes = hn::Lanes(d), width = 2 * lanes;
  constexpr size_t kMaxWidth = 2 * HWY_MAX_BYTES / sizeof(float);
  HWY_ALIGN float wide_a[kNarrowRows * kStripK];
  HWY_ALIGN float strip[kStripK * kMaxWidth];
  for (size_t k = 0; k < k_count; k += kStripK) {
    const size_t kc = k_count - k < kStripK ? k_count - k : kStripK;
    WidenRows(d, m, kc, a + k, lda, wide_a);
    size_t j = 0;
    for (; j + width <= n; j += width) {
      PackStripZn(d, k, kc, b, ldz, j, width, strip);
      float* out = dst + NzAccOffset(0, j, acc_rows);
      const size_t second = NzAccOffset(0, j + lanes, acc_rows) - NzAccOffset(0, j, acc_rows);
      ForRowBlocks<BlockRows()>(m, [&](auto rows, size_t i) {
        Block<decltype(rows)::value, 2>(d, kc, out + i * kBox, kBox, second, wide_a + i * kc, kc,
                                        strip, width);
      });
    }
    if (j == n) continue;
    // The last columns, fewer than two vectors: a strip padded with zeros,
    // on a copy of their rows of dst (MatmulPanel's last strip).
    const size_t cols = n - j;
    PackStripZn(d, k, kc, b, ldz, j, cols, strip);
    HWY_ALIGN float seeds[BlockRows() * kMaxWidth] = {};
    ForRowBlocks<BlockRows()>(m, [&](auto rows, size_t i) {
      constexpr size_t kRows = decltype(rows)::value;
      for (size_t r = 0; r < kRows; ++r)
        for (size_t c = 0; c < cols; ++c)
          seeds[r * width + c] = dst[NzAccOffset(i + r, j + c, acc_rows)];
      Block<kRows, 2>(d, kc, seeds, width, lanes, wide_a + i * kc, kc, strip, width);
      for (size_t r = 0; r < kRows; ++r)
        for (size_t c = 0; c < cols; ++c)
          dst[NzAccOffset(i + r, j + c, acc_rows)] = seeds[r * width + c];
    });
  }
}

void MatmulCubeF16Impl(size_t m, size_t k, size_t n, float* dst, size_t acc_rows,
                       const uint16_t* a, size_t lda, const uint16_t* b, size_t ldz) {
  MatmulCubeTyped(m, k, n, dst, acc_rows, reinterpret_cast<const hwy::float16_t*>(a), lda,
                  reinterpret_cast<const hwy::float16_t*>(b), ldz);
}

void MatmulCubeBf16Impl(size_t m, size_t k, size_t n, float* dst, size_t acc_rows,
                        const uint16_t* a, size_t lda, const uint16_t* b, size_t ldz) {
  MatmulCubeTyped(m, k, n, dst, acc_rows, reinterpret_cast<const hwy::bfloat16_t*>(a), lda,
                  reinterpret_cast<const hwy::bfloat16_t*>(b), ldz);
}

// Whether INT8 products may take the 8-bit dot products on this target: the
// AVX-512 ones only, so that a selection of older targets (pto-bench
// --target AVX2, the tests' target loops) runs what a CPU without them runs.
bool Int8DotTargetImpl() {
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3
  return true;
#else
  return false;
#endif
}

}  // namespace HWY_NAMESPACE
}  // namespace pto
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include "src/alloc.h"
#include "src/low_precision.h"

namespace pto::kernels {

// kMatmulPackBytes of the thread's, kept for its next product (freed with the
// thread); a failed allocation is tried again at the next call.
namespace {
struct PackBuffer {
  void* data = nullptr;
  ~PackBuffer() { Free(data); }
};
thread_local PackBuffer pack_buffer;
}  // namespace

void* MatmulPackBuffer() {
  if (pack_buffer.data == nullptr) pack_buffer.data = AllocateZeroed(kMatmulPackBytes);
  return pack_buffer.data;
}

HWY_EXPORT(MatmulF32Impl);
HWY_EXPORT(MatmulF32ZeroImpl);
HWY_EXPORT(MatmulI32Impl);
HWY_EXPORT(MatmulF16Impl);
HWY_EXPORT(MatmulBf16Impl);
HWY_EXPORT(Int8DotTargetImpl);
HWY_EXPORT(MatmulCubeFitsImpl);
HWY_EXPORT(MatmulCubeF16Impl);
HWY_EXPORT(MatmulCubeBf16Impl);

namespace {

// The 8-bit sources (FLOAT8 E4M3 / E5M2, HIFLOAT8 through their tables; INT8
// without the dot products) are widened a block at a time into buffers on
// the stack (FLOAT16 and BFLOAT16 are widened inside the kernel instead):
// kBlockK rows of b by kBlockN columns, kBlockM rows of a by kBlockK columns.
// Each chain still takes k in order: a block of k ends with the running sums
// in dst (exactly: they are float32 or int32 already), and the next block
// resumes from them. No allocation, so nothing that could fail.
constexpr size_t kBlockM = 32, kBlockK = 64, kBlockN = 128;

// The float32 value of every code of an 8-bit floating type (FLOAT8_E4M3,
// FLOAT8_E5M2, HIFLOAT8: each exact in float32, NaN and infinities kept).
struct CodeTable {
  float value[256];
  explicit CodeTable(pto_dtype dtype) {
    for (uint32_t c = 0; c < 256; ++c) value[c] = static_cast<float>(lowp::ToDouble(dtype, c));
  }
};

// rows x cols elements of p from (row, col), widened (FLOAT16, BFLOAT16 to
// float32 exactly, an 8-bit floating type through its table; INT8 to
// int32), packed with stride cols into out.
template <typename T>
void WidenBlock(pto_dtype dtype, const CodeTable* codes, const ConstPlane& p, size_t row,
                size_t col, size_t rows, size_t cols, T* out) {
  const size_t bytes = pto_dtype_size(dtype);
  for (size_t r = 0; r < rows; ++r) {
    const char* in = static_cast<const char*>(p.data) + ((row + r) * p.stride + col) * bytes;
    if constexpr (std::is_same_v<T, float>) {
      if (codes != nullptr) {
        const uint8_t* u = reinterpret_cast<const uint8_t*>(in);
        for (size_t c = 0; c < cols; ++c) out[r * cols + c] = codes->value[u[c]];
      } else {
        ToF32(dtype, cols, out + r * cols, in);
      }
    } else {
      for (size_t c = 0; c < cols; ++c) out[r * cols + c] = reinterpret_cast<const int8_t*>(in)[c];
    }
  }
}

template <typename T, class Impl>
void MatmulWidened(Impl impl, pto_dtype a_dtype, pto_dtype b_dtype, size_t m, size_t k, size_t n,
                   const Plane& dst, const ConstPlane& a, const ConstPlane& b,
                   const CodeTable* a_codes = nullptr, const CodeTable* b_codes = nullptr) {
  T* out = static_cast<T*>(dst.data);
  T wa[kBlockM * kBlockK];
  T wb[kBlockK * kBlockN];
  for (size_t j = 0; j < n; j += kBlockN) {
    const size_t nc = n - j < kBlockN ? n - j : kBlockN;
    for (size_t kk = 0; kk < k; kk += kBlockK) {
      const size_t kc = k - kk < kBlockK ? k - kk : kBlockK;
      WidenBlock(b_dtype, b_codes, b, kk, j, kc, nc, wb);
      for (size_t i = 0; i < m; i += kBlockM) {
        const size_t mc = m - i < kBlockM ? m - i : kBlockM;
        WidenBlock(a_dtype, a_codes, a, i, kk, mc, kc, wa);
        impl(mc, kc, nc, out + i * dst.stride + j, dst.stride, wa, kc, wb, nc);
      }
    }
  }
}

}  // namespace

void ZeroSeeds(size_t m, size_t n, const Plane& dst) {
  char* out = static_cast<char*>(dst.data);
  if (dst.stride == n) {
    memset(out, 0, m * n * 4);
    return;
  }
  for (size_t i = 0; i < m; ++i) memset(out + i * dst.stride * 4, 0, n * 4);
}

void MatmulInt8Widened(size_t m, size_t k, size_t n, const Plane& dst, const ConstPlane& a,
                       const ConstPlane& b, bool zero_seed) {
  if (zero_seed) ZeroSeeds(m, n, dst);
  MatmulWidened<int32_t>(PTO_DYNAMIC_DISPATCH(MatmulI32Impl), PTO_INT8, PTO_INT8, m, k, n, dst,
                         a, b);
}

void Matmul(pto_dtype dtype, size_t m, size_t k, size_t n, const Plane& dst, const ConstPlane& a,
            const ConstPlane& b, bool zero_seed) {
  if (dtype == PTO_INT8) {
    if (Int8DotEnabled() && PTO_DYNAMIC_DISPATCH(Int8DotTargetImpl)())
      MatmulInt8Dot(m, k, n, dst, a, b, zero_seed);
    else
      MatmulInt8Widened(m, k, n, dst, a, b, zero_seed);
    return;
  }
  if (dtype == PTO_FLOAT32) {  // already float32: the tiles themselves
    const auto impl = zero_seed ? PTO_DYNAMIC_DISPATCH(MatmulF32ZeroImpl)
                                : PTO_DYNAMIC_DISPATCH(MatmulF32Impl);
    impl(m, k, n, static_cast<float*>(dst.data), dst.stride, static_cast<const float*>(a.data),
         a.stride, static_cast<const float*>(b.data), b.stride);
    return;
  }
  if (zero_seed) ZeroSeeds(m, n, dst);
  if (dtype == PTO_FLOAT16 || dtype == PTO_BFLOAT16) {
    const auto impl = dtype == PTO_FLOAT16 ? PTO_DYNAMIC_DISPATCH(MatmulF16Impl)
                                           : PTO_DYNAMIC_DISPATCH(MatmulBf16Impl);
    impl(m, k, n, static_cast<float*>(dst.data), dst.stride, static_cast<const uint16_t*>(a.data),
         a.stride, static_cast<const uint16_t*>(b.data), b.stride);
  } else {
    MatmulWidened<float>(PTO_DYNAMIC_DISPATCH(MatmulF32Impl), dtype, dtype, m, k, n, dst, a, b);
  }
}

bool MatmulCubeFits(size_t m) { return PTO_DYNAMIC_DISPATCH(MatmulCubeFitsImpl)(m); }

void MatmulCube(pto_dtype dtype, size_t m, size_t k, size_t n, float* acc, size_t acc_rows,
                const uint16_t* a, size_t lda, const uint16_t* b, size_t ldz) {
  const auto impl = dtype == PTO_FLOAT16 ? PTO_DYNAMIC_DISPATCH(MatmulCubeF16Impl)
                                         : PTO_DYNAMIC_DISPATCH(MatmulCubeBf16Impl);
  impl(m, k, n, acc, acc_rows, a, lda, b, ldz);
}

void MatmulFloat8(pto_dtype a_dtype, pto_dtype b_dtype, size_t m, size_t k, size_t n,
                  const Plane& dst, const ConstPlane& a, const ConstPlane& b, bool zero_seed) {
  if (zero_seed) ZeroSeeds(m, n, dst);
  const CodeTable a_codes(a_dtype), b_codes(b_dtype);
  MatmulWidened<float>(PTO_DYNAMIC_DISPATCH(MatmulF32Impl), a_dtype, b_dtype, m, k, n, dst, a, b,
                       &a_codes, &b_codes);
}

void RoundFloat32Fraction(size_t n, float* values, int fraction_bits, bool ties_away) {
  const int dropped = 23 - fraction_bits;
  const uint32_t half = uint32_t{1} << (dropped - 1);
  const uint32_t low_mask = (uint32_t{1} << dropped) - 1;
  for (size_t i = 0; i < n; ++i) {
    uint32_t bits;
    memcpy(&bits, &values[i], sizeof bits);
    const uint32_t exponent = (bits >> 23) & 0xFF;
    if (exponent == 0xFF) continue;  // infinity or NaN: as they are
    if (exponent == 0) {
      bits &= 0x80000000u;  // zero or subnormal: zero of its sign
    } else {
      // Adding half (ties away) or half - 1 plus the kept last bit (ties to
      // even) to the magnitude carries into the kept bits exactly when the
      // value rounds up; a carry out of the fraction steps the exponent.
      const uint32_t kept_last = (bits >> dropped) & 1;
      bits += ties_away ? half : half - 1 + kept_last;
      bits &= ~low_mask;
    }
    memcpy(&values[i], &bits, sizeof bits);
  }
}

}  // namespace pto::kernels
#endif
