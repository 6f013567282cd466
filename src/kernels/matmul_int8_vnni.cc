// INT8 matrix multiply by AVX512-VNNI's 8-bit dot products (VPDPBUSD): the
// one target-specific path of the INT8 rows of matmul.cc, which chooses it
// at run time (Int8DotEnabled, and an AVX-512 dispatch target) and keeps the
// widening int32 path as its portable twin. Highway 1.0.3 has no 8-bit dot
// product operation, so this file is plain C++ with intrinsics in functions
// compiled for AVX512F/BW/VL/VNNI by the target attribute, whatever the
// flags of the build; elsewhere (not x86-64, a compiler without the
// attribute, or -Dx86_specializations=false) it compiles to stubs.
//
// What it computes is Matmul's INT32 chains: dst(i, j) = seed + sum over k
// of a(i,k) b(k,j), modulo 2^32. Every step is an int32 addition or an exact
// product, and addition modulo 2^32 is associative and commutative, so any
// grouping of the sum gives the plain loop's bits. VPDPBUSD multiplies
// unsigned bytes by signed ones, four at a time, and adds the four products
// (each within 16 bits, their sum within 18) to an int32 lane modulo 2^32
// (it does not saturate). a's bytes are made unsigned by adding 128 (an XOR
// of the sign bit), so each lane gathers sum (a + 128) b = sum a b +
// 128 sum b; the per-column 128 sum b over the same rows is subtracted at
// the end, also modulo 2^32. Nothing here can wrap differently from the
// portable chains, for any K and any seed.
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "src/kernels/kernels.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && \
    !defined(PTO_PORTABLE_KERNELS_ONLY)
#define PTO_INT8_DOT 1
#if defined(__GNUC__) && !defined(__clang__)
// GCC 12's intrinsics start from _mm512_undefined_epi32(), a self-initialised
// variable that -Wmaybe-uninitialized reports where they are inlined (GCC
// bug 105593, fixed in GCC 13): no value of it reaches a result.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <immintrin.h>
#else
#define PTO_INT8_DOT 0
#endif

namespace pto {
namespace kernels {

#if PTO_INT8_DOT

namespace {

#define PTO_VNNI __attribute__((target("avx512f,avx512bw,avx512vl,avx512vnni")))

// Blocks, all on the stack (about 37 KiB): b's rows in blocks of kBlockK by
// kBlockN columns packed for VPDPBUSD (for each group of four rows, each
// column's four bytes in one int32 lane), and up to kRows rows of a by
// kBlockK columns made unsigned. A register block is 16 accumulators: 4
// rows by 3 or 4 vectors of 16 int32 lanes (kBlockN columns), or 8 rows by
// 1 or 2 vectors, so that narrow blocks of b still have enough independent
// sums in flight to cover the instruction's latency.
constexpr size_t kBlockK = 512, kBlockN = 64, kRows = 8;
constexpr size_t kGroupBytes = 4 * kBlockN;  // one group of four rows of a packed block of b

// The 64 x 64 bytes of four rows of b (r0..r3, 64 columns each) as four
// vectors of 16 columns' 4 bytes (row order within each int32 lane), stored
// at out; sums (one int32 per column) += each column's four bytes.
PTO_VNNI inline void PackGroup(__m512i r0, __m512i r1, __m512i r2, __m512i r3, int8_t* out,
                               __m512i sums[4]) {
  // Per 128-bit lane L (columns 16L..16L+15): bytes of rows 0, 1 and 2, 3
  // interleaved, then their pairs: q0 holds columns 16L+0..3, q1 16L+4..7,
  // q2 16L+8..11, q3 16L+12..15, each as four row bytes.
  const __m512i lo01 = _mm512_unpacklo_epi8(r0, r1), hi01 = _mm512_unpackhi_epi8(r0, r1);
  const __m512i lo23 = _mm512_unpacklo_epi8(r2, r3), hi23 = _mm512_unpackhi_epi8(r2, r3);
  const __m512i q0 = _mm512_unpacklo_epi16(lo01, lo23), q1 = _mm512_unpackhi_epi16(lo01, lo23);
  const __m512i q2 = _mm512_unpacklo_epi16(hi01, hi23), q3 = _mm512_unpackhi_epi16(hi01, hi23);
  // The 4 x 4 transpose of 128-bit lanes: vector L = (q0, q1, q2, q3)'s lane L.
  const __m512i t0 = _mm512_shuffle_i64x2(q0, q1, 0x44), t1 = _mm512_shuffle_i64x2(q2, q3, 0x44);
  const __m512i t2 = _mm512_shuffle_i64x2(q0, q1, 0xEE), t3 = _mm512_shuffle_i64x2(q2, q3, 0xEE);
  const __m512i v[4] = {_mm512_shuffle_i64x2(t0, t1, 0x88), _mm512_shuffle_i64x2(t0, t1, 0xDD),
                        _mm512_shuffle_i64x2(t2, t3, 0x88), _mm512_shuffle_i64x2(t2, t3, 0xDD)};
  const __m512i ones = _mm512_set1_epi8(1);
  for (int c = 0; c < 4; ++c) {
    _mm512_store_si512(reinterpret_cast<__m512i*>(out + 64 * c), v[c]);
    sums[c] = _mm512_dpbusd_epi32(sums[c], ones, v[c]);
  }
}

// b's rows k0..k0+kc-1, columns j0..j0+nc-1 (nc <= kBlockN) packed into
// `packed` (ceil(kc / 4) groups; rows past kc and columns past nc are zeros,
// which add nothing), and corr[c] = 128 times column c's sum over those rows
// (modulo 2^32), what the offset of a adds to each dot product.
PTO_VNNI void PackB(const int8_t* b, size_t ldb, size_t kc, size_t nc, int8_t* packed,
                    int32_t* corr) {
  const __mmask64 cols = nc >= 64 ? ~__mmask64{0} : (__mmask64{1} << nc) - 1;
  __m512i sums[4] = {_mm512_setzero_si512(), _mm512_setzero_si512(), _mm512_setzero_si512(),
                     _mm512_setzero_si512()};
  for (size_t k = 0, g = 0; k < kc; k += 4, ++g) {
    __m512i r[4];
    for (size_t t = 0; t < 4; ++t)
      r[t] = k + t < kc ? _mm512_maskz_loadu_epi8(cols, b + (k + t) * ldb) : _mm512_setzero_si512();
    PackGroup(r[0], r[1], r[2], r[3], packed + g * kGroupBytes, sums);
  }
  for (int c = 0; c < 4; ++c)
    _mm512_store_si512(reinterpret_cast<__m512i*>(corr + 16 * c), _mm512_slli_epi32(sums[c], 7));
}

// rows rows of a (columns k0..k0+kc-1 from a), each byte plus 128 (as an
// unsigned byte), into rows of kBlockK bytes of out; the bytes of the last
// group past kc are zeros.
PTO_VNNI void PackA(const int8_t* a, size_t lda, size_t rows, size_t kc, uint8_t* out) {
  const __m512i sign = _mm512_set1_epi8(static_cast<char>(0x80));
  const size_t full = kc / 64 * 64;
  const __mmask64 tail = (__mmask64{1} << (kc - full)) - 1;  // kc - full < 64
  for (size_t r = 0; r < rows; ++r) {
    const int8_t* in = a + r * lda;
    uint8_t* o = out + r * kBlockK;
    for (size_t c = 0; c < full; c += 64)
      _mm512_store_si512(reinterpret_cast<__m512i*>(o + c),
                         _mm512_xor_si512(_mm512_loadu_si512(in + c), sign));
    if (tail != 0)
      _mm512_store_si512(
          reinterpret_cast<__m512i*>(o + full),
          _mm512_maskz_mov_epi8(tail, _mm512_xor_si512(_mm512_maskz_loadu_epi8(tail, in + full), sign)));
  }
}

// acc += the dot products of u's unsigned and s's signed bytes, four per
// int32 lane (VPDPBUSD). Written as an instruction: GCC 12 copies the
// accumulators of the intrinsic around every use inside a loop (and spills
// some of them), three times the instructions of the product itself.
PTO_VNNI inline void DotAcc(__m512i& acc, __m512i u, __m512i s) {
  asm("vpdpbusd %2, %1, %0" : "+v"(acc) : "v"(u), "v"(s));
}

// dst's kRowsT rows by kVecs vectors of 16 columns (the last one's columns
// `last`) += the dot products of `groups` groups of packed a (rows of
// kBlockK bytes) and packed b, minus corr; modulo 2^32. Unless `seeded`,
// dst's values are not read: the sums start from zero.
template <size_t kRowsT, size_t kVecs>
PTO_VNNI void DotBlock(size_t groups, const uint8_t* a, const int8_t* b, const int32_t* corr,
                       int32_t* dst, size_t ldd, __mmask16 last, bool seeded) {
  __m512i acc[kRowsT][kVecs];
  for (size_t r = 0; r < kRowsT; ++r)
    for (size_t v = 0; v < kVecs; ++v) acc[r][v] = _mm512_setzero_si512();
  for (size_t g = 0; g < groups; ++g) {
    const int8_t* bg = b + g * kGroupBytes;
    __m512i bv[kVecs];
    for (size_t v = 0; v < kVecs; ++v) {
      bv[v] = _mm512_load_si512(reinterpret_cast<const __m512i*>(bg + 64 * v));
      // Held in a register for every row: GCC would load it again per row.
      asm("" : "+v"(bv[v]));
    }
    for (size_t r = 0; r < kRowsT; ++r) {
      int32_t quad;
      memcpy(&quad, a + r * kBlockK + 4 * g, 4);
      const __m512i av = _mm512_set1_epi32(quad);
      for (size_t v = 0; v < kVecs; ++v) DotAcc(acc[r][v], av, bv[v]);
    }
  }
  for (size_t v = 0; v < kVecs; ++v) {
    const __mmask16 m = v + 1 == kVecs ? last : __mmask16{0xFFFF};
    const __m512i c = _mm512_load_si512(reinterpret_cast<const __m512i*>(corr + 16 * v));
    for (size_t r = 0; r < kRowsT; ++r) {
      int32_t* p = dst + r * ldd + 16 * v;
      const __m512i d = seeded ? _mm512_maskz_loadu_epi32(m, p) : _mm512_setzero_si512();
      _mm512_mask_storeu_epi32(p, m, _mm512_add_epi32(d, _mm512_sub_epi32(acc[r][v], c)));
    }
  }
}

// kRowsT rows (more than 4 only with vecs <= 2) by vecs vectors.
template <size_t kRowsT>
PTO_VNNI void DotRows(size_t vecs, size_t groups, const uint8_t* a, const int8_t* b,
                      const int32_t* corr, int32_t* dst, size_t ldd, __mmask16 last, bool seeded) {
  if constexpr (kRowsT <= 4) {
    if (vecs == 4) return DotBlock<kRowsT, 4>(groups, a, b, corr, dst, ldd, last, seeded);
    if (vecs == 3) return DotBlock<kRowsT, 3>(groups, a, b, corr, dst, ldd, last, seeded);
  }
  if (vecs == 2) return DotBlock<kRowsT, 2>(groups, a, b, corr, dst, ldd, last, seeded);
  return DotBlock<kRowsT, 1>(groups, a, b, corr, dst, ldd, last, seeded);
}

// Every row of dst against one packed block of b (nc columns, kc rows).
PTO_VNNI void DotPanel(size_t m, size_t kc, size_t nc, int32_t* dst, size_t ldd, const int8_t* a,
                       size_t lda, const int8_t* packed_b, const int32_t* corr, uint8_t* packed_a,
                       bool seeded) {
  const size_t groups = (kc + 3) / 4, vecs = (nc + 15) / 16;
  const size_t tail = nc - 16 * (vecs - 1);  // 1 to 16 columns in the last vector
  const __mmask16 last = static_cast<__mmask16>((uint32_t{1} << tail) - 1);
  const size_t step = vecs <= 2 ? 8 : 4;
  for (size_t i = 0; i < m; i += step) {
    const size_t rows = m - i < step ? m - i : step;
    PackA(a + i * lda, lda, rows, kc, packed_a);
    int32_t* d = dst + i * ldd;
    switch (rows) {
      case 8: DotRows<8>(vecs, groups, packed_a, packed_b, corr, d, ldd, last, seeded); break;
      case 7: DotRows<7>(vecs, groups, packed_a, packed_b, corr, d, ldd, last, seeded); break;
      case 6: DotRows<6>(vecs, groups, packed_a, packed_b, corr, d, ldd, last, seeded); break;
      case 5: DotRows<5>(vecs, groups, packed_a, packed_b, corr, d, ldd, last, seeded); break;
      case 4: DotRows<4>(vecs, groups, packed_a, packed_b, corr, d, ldd, last, seeded); break;
      case 3: DotRows<3>(vecs, groups, packed_a, packed_b, corr, d, ldd, last, seeded); break;
      case 2: DotRows<2>(vecs, groups, packed_a, packed_b, corr, d, ldd, last, seeded); break;
      default: DotRows<1>(vecs, groups, packed_a, packed_b, corr, d, ldd, last, seeded); break;
    }
  }
}

// The first block of k of a zero-seeded product writes dst without reading
// it; with k = 0 its seeds are the result.
PTO_VNNI void MatmulDot(size_t m, size_t k, size_t n, int32_t* dst, size_t ldd, const int8_t* a,
                        size_t lda, const int8_t* b, size_t ldb, bool zero_seed) {
  if (k == 0 && zero_seed) {
    for (size_t i = 0; i < m; ++i) memset(dst + i * ldd, 0, n * sizeof(int32_t));
    return;
  }
  alignas(64) int8_t packed_b[kBlockK / 4 * kGroupBytes];
  alignas(64) uint8_t packed_a[kRows * kBlockK];
  alignas(64) int32_t corr[kBlockN];
  for (size_t j = 0; j < n; j += kBlockN) {
    const size_t nc = n - j < kBlockN ? n - j : kBlockN;
    for (size_t kk = 0; kk < k; kk += kBlockK) {
      const size_t kc = k - kk < kBlockK ? k - kk : kBlockK;
      PackB(b + kk * ldb + j, ldb, kc, nc, packed_b, corr);
      DotPanel(m, kc, nc, dst + j, ldd, a + kk, lda, packed_b, corr, packed_a,
               kk > 0 || !zero_seed);
    }
  }
}

// This CPU (and its operating system, which must save the AVX-512 state)
// runs AVX512F, AVX512BW, AVX512VL and AVX512-VNNI code: the compiler's
// CPUID cache, which checks both.
bool CpuHasDot() {
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
         __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512vnni");
}

}  // namespace

bool Int8DotSupported() { return CpuHasDot(); }

void MatmulInt8Dot(size_t m, size_t k, size_t n, const Plane& dst, const ConstPlane& a,
                   const ConstPlane& b, bool zero_seed) {
  MatmulDot(m, k, n, static_cast<int32_t*>(dst.data), dst.stride,
            static_cast<const int8_t*>(a.data), a.stride, static_cast<const int8_t*>(b.data),
            b.stride, zero_seed);
}

#else  // !PTO_INT8_DOT

bool Int8DotSupported() { return false; }

// Never called: Int8DotSupported() is false.
void MatmulInt8Dot(size_t, size_t, size_t, const Plane&, const ConstPlane&, const ConstPlane&,
                   bool) {
  abort();
}

#endif  // PTO_INT8_DOT

bool Int8DotEnabled() {
  // Read once: PTO_INT8_MATMUL=portable keeps every INT8 product on the
  // widening path (to compare the two, e.g. with pto-bench --gemm).
  static const bool enabled = [] {
    const char* env = getenv("PTO_INT8_MATMUL");
    return Int8DotSupported() && !(env != nullptr && strcmp(env, "portable") == 0);
  }();
  return enabled;
}

}  // namespace kernels
}  // namespace pto
