// MX matrix multiply (TMATMUL_MX, TGEMV_MX and TMATMUL_MX_HIF4): matmul.cc's
// float32 chains (MatmulF32Impl) on the operands decoded and scaled
// (exactly, or to an infinity) into float32 blocks.
//
// Up to kSmallRows rows (MatmulMxSmall): by panels of k, a's panel decoded
// once, then b decoded a strip of two vectors' columns at a time straight
// into the strip that matmul-block-inl.h's register blocks read. More rows:
// b in kBlockK x kBlockN panels, each decoded once a call; a in kBlockM x
// kBlockK blocks, decoded once per column panel of b. Each chain takes k in
// order: a block of k ends with the running sums in dst (float32 already:
// exact) and the next resumes from them, so the blocking does not change a
// bit. The buffers are on the stack: no allocation, nothing that could
// fail.
//
// The decode's building blocks are in mx-decode-inl.h. The FP4 codes of the
// small-M path are looked up in their 16-value table (Fp4Pair, x86-inl.h),
// each its exact value, then multiplied by the scale 2^(e - 127): one
// rounding, as the reference's. Elsewhere the FP8 and FP4 decode is a
// vector kernel: a code's sign and magnitude bits are moved into a
// float32's sign, exponent and fraction fields, which gives the code's value
// times 2^(bias - 127) exactly (a subnormal code a subnormal float32; the
// guard of every entry keeps subnormals unflushed), and one multiply by
// 2^(e - bias) (scale e) gives the value times 2^(e - 127) rounded once, as
// the reference's value * scale does. Where 2^(e -
// bias) is not a float32 (e > 127 + bias, e = 0xFF NaN) a row takes two
// multiplies: by 2^(127 - bias) (exact) and by the scale 2^(e - 127). A row
// holding a NaN or infinity code (E4M3FN's S.1111.111, E5M2's exponent 31)
// takes the exact table path, ScalarRow, one element at a time. The
// HiFloat4 operands are decoded element by element (Hif4Value).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "src/kernels/matmul_mx.cc"
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "src/kernels/kernels.h"
#include "src/kernels/matmul-block-inl.h"
#include "src/kernels/mx-decode-inl.h"
#include "src/kernels/portable-inl.h"
#include "src/kernels/simd-inl.h"
#include "src/low_precision.h"

#ifndef PTO_KERNELS_MATMUL_MX_SCALAR_
#define PTO_KERNELS_MATMUL_MX_SCALAR_
namespace pto {
namespace kernels {
namespace mx {

// Block sizes: b's panel (kBlockK x kBlockN float32, 32 KiB) stays in the
// first-level cache while a's row blocks pass over it.
constexpr size_t kBlockM = 32, kBlockK = 64, kBlockN = 128;

// A code table: each code's exact value as a float32 (every FLOAT8 and
// FLOAT4 value is one), and the e8m0 scales' 2^(e - 127) (0xFF NaN; 2^-127
// a subnormal float32, exact). Built once per dtype.
struct Table {
  float of[256];
  explicit Table(pto_dtype dtype) {
    for (uint32_t code = 0; code < 256; ++code)
      of[code] = static_cast<float>(lowp::ToDouble(dtype, code));
  }
};

inline const Table& TableOf(pto_dtype dtype) {
  static const Table e4m3(PTO_FLOAT8_E4M3), e5m2(PTO_FLOAT8_E5M2), e2m1(PTO_FLOAT4_E2M1X2),
      e1m2(PTO_FLOAT4_E1M2X2), e8m0(PTO_FLOAT8_E8M0);
  switch (dtype) {
    case PTO_FLOAT8_E4M3: return e4m3;
    case PTO_FLOAT8_E5M2: return e5m2;
    case PTO_FLOAT4_E2M1X2: return e2m1;
    case PTO_FLOAT4_E1M2X2: return e1m2;
    default: return e8m0;
  }
}

// Value c of a row of `dtype` (a packed type's nibble).
inline uint32_t Code(pto_dtype dtype, const uint8_t* row, size_t c) {
  if (dtype == PTO_FLOAT4_E2M1X2 || dtype == PTO_FLOAT4_E1M2X2)
    return (row[c / 2] >> (4 * (c % 2))) & 0xFu;
  return row[c];
}

// An operand: codes and their scale plane (a: scale(i, j / group), per_row;
// b: scale(i / group, j)), group 32 for MX, 64 for HiFloat4's words.
struct Operand {
  pto_dtype dtype;
  ConstPlane codes, scale;
  bool per_row;
  bool hif4;  // FLOAT4_E1M2X2 codes with HiFloat4's metadata words as scale
};

// The e8m0 scale of value (i, j).
inline uint8_t ScaleOf(const Operand& op, size_t i, size_t j) {
  const uint8_t* s = static_cast<const uint8_t*>(op.scale.data);
  return op.per_row ? s[i * op.scale.stride + j / 32] : s[(i / 32) * op.scale.stride + j];
}

// Values [col, col + cols) of row i, each its code's value times its scale
// rounded to float32, by the tables: the definition the vector path keeps.
inline void ScalarRow(const Operand& op, size_t i, size_t col, size_t cols, float* out) {
  const Table& values = TableOf(op.dtype);
  const Table& scales = TableOf(PTO_FLOAT8_E8M0);
  const uint8_t* in = static_cast<const uint8_t*>(op.codes.data) + i * op.codes.stride;
  for (size_t c = 0; c < cols; ++c)
    out[c] = values.of[Code(op.dtype, in, col + c)] * scales.of[ScaleOf(op, i, col + c)];
}

// A HiFloat4 value: code c's E1M2 value times 2^(Eb + Ec) times Ea's e6m2
// value, (1 + m/4) 2^(e - 48) for code e:m (code 0 is 0, 0xFF NaN), of the
// metadata word w; `pos` is the value's place in its group of 64. Exact in
// float32 (at most 6 significant bits, 2^-50 to 1.75^2 2^17).
inline float Hif4Value(const Table& e1m2, uint32_t c, uint32_t w, size_t pos) {
  const uint32_t ea = w & 0xFFu;
  if (ea == 0xFFu) return NAN;
  if (ea == 0) return 0.0f * e1m2.of[c];
  const int shift = static_cast<int>((w >> (8 + pos / 8)) & 1u) +
                    static_cast<int>((w >> (16 + pos / 4)) & 1u);
  const float ea_value = ldexpf(1.0f + 0.25f * static_cast<float>(ea & 3u),
                                static_cast<int>(ea >> 2) - 48);
  return ldexpf(e1m2.of[c] * ea_value, shift);
}

// rows x cols HiFloat4 values of op from (row, col), each with the metadata
// word of its group (a: word(i, j / 64); b: word(i / 64, j)), packed with
// stride cols into out.
inline void WidenHif4(const Operand& op, size_t row, size_t col, size_t rows, size_t cols,
                      float* out) {
  const Table& e1m2 = TableOf(PTO_FLOAT4_E1M2X2);
  const uint8_t* bytes = static_cast<const uint8_t*>(op.codes.data);
  const uint32_t* w = static_cast<const uint32_t*>(op.scale.data);
  for (size_t r = 0; r < rows; ++r) {
    const uint8_t* in = bytes + (row + r) * op.codes.stride;
    for (size_t c = 0; c < cols; ++c) {
      const size_t i = row + r, j = col + c;
      const uint32_t word =
          op.per_row ? w[i * op.scale.stride + j / 64] : w[(i / 64) * op.scale.stride + j];
      out[r * cols + c] = Hif4Value(e1m2, Code(PTO_FLOAT4_E1M2X2, in, j), word,
                                    op.per_row ? j % 64 : i % 64);
    }
  }
}

}  // namespace mx
}  // namespace kernels
}  // namespace pto
#endif  // PTO_KERNELS_MATMUL_MX_SCALAR_

HWY_BEFORE_NAMESPACE();
namespace pto {
namespace HWY_NAMESPACE {

using kernels::mx::Operand;

// matmul.cc's float32 chains for this target: dst (m x n, stride ldd,
// holding the seeds) += the chains over k of a (m x k) and b (k x n).
void MatmulF32Impl(size_t m, size_t k, size_t n, float* dst, size_t ldd, const float* a,
                   size_t lda, const float* b, size_t ldb);

// n codes of a row of a from column col (a multiple of 32), each group of
// 32 with its scale srow[c / 32], as DecodeRow: each group's factor
// broadcast where a group is whole vectors (lanes dividing 32), else
// written out.
template <class F>
HWY_INLINE void ScaledRowOfA(const int8_t* codes, const uint8_t* srow, size_t col, size_t n,
                             float* out) {
  const hn::ScalableTag<float> df;
  const hn::RebindToUnsigned<decltype(df)> du;
  const size_t lanes = hn::Lanes(df);
  for (size_t c = 0; c < n; c += 32) {
    const size_t count = n - c < 32 ? n - c : 32;
    const uint8_t e = srow[(col + c) / 32];
    const bool two_step = e > F::hi || e < F::lo;
    HWY_ALIGN float factors[32];
    if (lanes > 32 || 32 % lanes != 0 || count < 32) {
      uint8_t exps[32];
      memset(exps, e, count);
      Factors<F>(exps, count, two_step, factors);
      if (two_step) DecodeRow<F, true>(codes + c, factors, count, out + c);
      else DecodeRow<F, false>(codes + c, factors, count, out + c);
      continue;
    }
    const uint32_t bits =
        two_step ? ScaleBits(e) : (e + static_cast<uint32_t>(-F::place_exp)) << 23;
    const auto factor = hn::BitCast(df, hn::Set(du, bits));
    for (size_t x = 0; x < 32; x += lanes) {
      if (two_step) DecodeVector<F, true>(df, codes + c + x, factor, out + c + x);
      else DecodeVector<F, false>(df, codes + c + x, factor, out + c + x);
    }
  }
}

// rows x cols values of op from (row, col) (col even), decoded and scaled,
// packed with stride cols into out (cols <= kBlockN).
template <class F>
void WidenMx(const Operand& op, size_t row, size_t col, size_t rows, size_t cols, float* out) {
  using kernels::mx::kBlockN;
  constexpr bool kPacked = F::special == 0;
  uint8_t prepared[kBlockN + 2];
  float factors[kBlockN];
  bool two_step = false;
  const uint8_t* s = static_cast<const uint8_t*>(op.scale.data);
  for (size_t r = 0; r < rows; ++r) {
    const size_t i = row + r;
    const uint8_t* in = static_cast<const uint8_t*>(op.codes.data) + i * op.codes.stride;
    // b's factors, one per column, change every 32 rows; a's, one per 32
    // columns, are broadcast (ScaledRowOfA).
    if (!op.per_row && (r == 0 || i % 32 == 0)) {
      const uint8_t* srow = s + (i / 32) * op.scale.stride + col;
      two_step = NeedsTwoSteps<F>(srow, cols);
      Factors<F>(srow, cols, two_step, factors);
    }
    const uint8_t* codes = in + col;
    if constexpr (kPacked) {
      ExpandNibbles(in + col / 2, cols, prepared);
      codes = prepared;
    } else if (AnySpecial(F::special, codes, cols)) {
      kernels::mx::ScalarRow(op, i, col, cols, out + r * cols);
      continue;
    }
    const int8_t* c8 = reinterpret_cast<const int8_t*>(codes);
    if (op.per_row) ScaledRowOfA<F>(c8, s + i * op.scale.stride, col, cols, out + r * cols);
    else if (two_step) DecodeRow<F, true>(c8, factors, cols, out + r * cols);
    else DecodeRow<F, false>(c8, factors, cols, out + r * cols);
  }
}

// Whether any code of op's rows x cols (from its (0, 0)) has all of the
// format's special bits set: one pass over b before its strips, so that
// rows are checked one by one only where some row has one.
template <class F>
bool AnySpecialIn(const Operand& op, size_t rows, size_t cols) {
  if constexpr (F::special == 0) {
    return false;
  } else {
    const uint8_t* codes = static_cast<const uint8_t*>(op.codes.data);
    for (size_t r = 0; r < rows; ++r)
      if (AnySpecial(F::special, codes + r * op.codes.stride, cols)) return true;
    return false;
  }
}

// b's rows [k0, k0 + kc) of columns [j, j + cols) (j a multiple of 2
// Lanes, cols at most that), decoded and scaled into a strip of rows 2 Lanes
// wide (the columns from cols on zeros): a row's codes and its 32-row
// group's factors are two vectors each. `special`: b has some special code
// (then each row is checked, and one that has one takes ScalarRow).
template <class F>
void DecodeStripOfB(const Operand& b, size_t k0, size_t kc, size_t j, size_t cols, bool special,
                    float* strip) {
  const hn::ScalableTag<float> df;
  const size_t lanes = hn::Lanes(df), width = 2 * lanes;
  const float* table = kernels::mx::TableOf(F::dtype).of;
  const uint8_t* s = static_cast<const uint8_t*>(b.scale.data);
  // A row's codes where the strip is narrower: 8-bit codes, or the bytes of
  // 4-bit ones, the rest zeros (+0, times a zero factor).
  const size_t row_bytes = kByTable<F> ? (cols + 1) / 2 : cols;
  HWY_ALIGN float factors[2 * HWY_MAX_BYTES / sizeof(float)] = {};
  uint8_t padded[2 * HWY_MAX_BYTES / sizeof(float)] = {};
  const uint8_t* codes_of_b = static_cast<const uint8_t*>(b.codes.data) + (kByTable<F> ? j / 2 : j);
  // A group of 32 rows at a time (one row of scales): its factors, then its rows.
  for (size_t r = 0; r < kc;) {
    const size_t group_end = HWY_MIN(kc, r + 32 - (k0 + r) % 32);
    const uint8_t* srow = s + ((k0 + r) / 32) * b.scale.stride + j;
    // (cols is at most width: said again for GCC's bounds warnings.)
    const size_t count = HWY_MIN(cols, width);
    const bool two_step = kByTable<F> || NeedsTwoSteps<F>(srow, count);
    Factors<F>(srow, count, two_step, factors);
    const auto f0 = hn::Load(df, factors), f1 = hn::Load(df, factors + lanes);
    if ((kByTable<F> || !two_step) && !special && cols == width) {
      // The common rows: whole, no special code, one multiply.
      for (; r < group_end; ++r)
        DecodePair<F, false>(df, table, codes_of_b + (k0 + r) * b.codes.stride, f0, f1,
                             strip + r * width);
      continue;
    }
    for (; r < group_end; ++r) {
      const size_t i = k0 + r;
      float* out = strip + r * width;
      const uint8_t* codes = codes_of_b + i * b.codes.stride;
      if (special && AnySpecial(F::special, codes, cols)) {
        kernels::mx::ScalarRow(b, i, j, cols, out);
        for (size_t c = cols; c < width; ++c) out[c] = 0.0f;
        continue;
      }
      if (cols < width) {
        memcpy(padded, codes, row_bytes);
        if (kByTable<F> && cols % 2 != 0) padded[row_bytes - 1] &= 0x0F;
        codes = padded;
      }
      if (two_step) DecodePair<F, true>(df, table, codes, f0, f1, out);
      else DecodePair<F, false>(df, table, codes, f0, f1, out);
    }
  }
}

// Columns [k0, k0 + kc) (k0 a multiple of 32) of a's rows [0, m) decoded
// and scaled into out, rows kc apart: 2 Lanes codes at a time with their
// group's factor broadcast (2 Lanes divides 32), the panel's last codes and
// a row with a special code there by ScalarRow.
template <class F>
void DecodeRowsOfA(const Operand& a, size_t m, size_t k0, size_t kc, float* out) {
  const hn::ScalableTag<float> df;
  const hn::RebindToUnsigned<decltype(df)> du;
  const size_t lanes = hn::Lanes(df), width = 2 * lanes;
  const float* table = kernels::mx::TableOf(F::dtype).of;
  for (size_t i = 0; i < m; ++i, out += kc) {
    const uint8_t* in = static_cast<const uint8_t*>(a.codes.data) + i * a.codes.stride;
    const uint8_t* srow = static_cast<const uint8_t*>(a.scale.data) + i * a.scale.stride;
    if (F::special != 0 && AnySpecial(F::special, in + k0, kc)) {
      kernels::mx::ScalarRow(a, i, k0, kc, out);
      continue;
    }
    size_t c = 0;
    for (; c + width <= kc; c += width) {
      const uint8_t e = srow[(k0 + c) / 32];
      const bool two_step = kByTable<F> || e > F::hi || e < F::lo;
      const uint32_t bits =
          two_step ? ScaleBits(e) : (e + static_cast<uint32_t>(-F::place_exp)) << 23;
      const auto factor = hn::BitCast(df, hn::Set(du, bits));
      const uint8_t* codes = kByTable<F> ? in + (k0 + c) / 2 : in + k0 + c;
      if (two_step) DecodePair<F, true>(df, table, codes, factor, factor, out + c);
      else DecodePair<F, false>(df, table, codes, factor, factor, out + c);
    }
    if (c < kc) kernels::mx::ScalarRow(a, i, k0 + c, kc - c, out + c);
  }
}

// Products of at most kSmallRows rows, by panels of k: a's panel (m x kc,
// kc a multiple of 32 that m x kc fits kSmallA) decoded once, then for
// each strip of two vectors' columns of b its kc rows decoded straight into
// the strip, which every row block of a then reads (the register blocks of
// matmul-block-inl.h, the chains of MatmulF32Impl: each chain's k in order,
// resumed from dst after a panel: the same bits). Each value of a and of b
// is decoded once, and each decoded value of b feeds m chains from the
// first-level cache; nothing is staged twice.
constexpr size_t kSmallRows = 128, kSmallA = 8192, kSmallK = 128;

using DecodeAFn = void (*)(const Operand&, size_t, size_t, size_t, float*);

template <class F>
void MatmulMxSmall(size_t m, size_t k, size_t n, const kernels::Plane& dst, const Operand& a,
                   const Operand& b, DecodeAFn decode_a) {
  const hn::ScalableTag<float> d;
  const size_t lanes = hn::Lanes(d), width = 2 * lanes;
  constexpr size_t kMaxWidth = 2 * HWY_MAX_BYTES / sizeof(float);
  HWY_ALIGN float wa[kSmallA];
  HWY_ALIGN float strip[kSmallK * kMaxWidth];
  HWY_ALIGN float seeds[BlockRows() * kMaxWidth];
  const size_t panel = HWY_MIN(kSmallK, kSmallA / m / 32 * 32);
  const bool special = AnySpecialIn<F>(b, k, n);
  float* out = static_cast<float*>(dst.data);
  const size_t ldd = dst.stride;
  for (size_t k0 = 0; k0 < k; k0 += panel) {
    const size_t kc = k - k0 < panel ? k - k0 : panel;
    decode_a(a, m, k0, kc, wa);
    for (size_t j = 0; j < n; j += width) {
      const size_t cols = n - j < width ? n - j : width;
      DecodeStripOfB<F>(b, k0, kc, j, cols, special, strip);
      ForRowBlocks<BlockRows()>(m, [&](auto rows, size_t i) {
        constexpr size_t kRows = decltype(rows)::value;
        if (cols == width) {
          Block<kRows, 2>(d, kc, out + i * ldd + j, ldd, lanes, wa + i * kc, kc, strip, width);
          return;
        }
        // The last columns: a copy of their rows of dst, padded (MatmulPanel's last strip).
        for (size_t r = 0; r < kRows; ++r)
          memcpy(seeds + r * width, out + (i + r) * ldd + j, cols * sizeof(float));
        Block<kRows, 2>(d, kc, seeds, width, lanes, wa + i * kc, kc, strip, width);
        for (size_t r = 0; r < kRows; ++r)
          memcpy(out + (i + r) * ldd + j, seeds + r * width, cols * sizeof(float));
      });
    }
  }
}

using SmallFn = void (*)(size_t, size_t, size_t, const kernels::Plane&, const Operand&,
                         const Operand&, DecodeAFn);

// fn(the format of dtype) (FLOAT4_E1M2X2's for HiFloat4, whose codes it
// holds).
template <class Fn>
auto ByFormat(pto_dtype dtype, const Fn& fn) {
  switch (dtype) {
    case PTO_FLOAT8_E4M3: return fn(FormatE4M3());
    case PTO_FLOAT8_E5M2: return fn(FormatE5M2());
    case PTO_FLOAT4_E2M1X2: return fn(FormatE2M1());
    default: return fn(FormatE1M2());
  }
}

// The small-M product for b's format and a's decoder (none for HiFloat4,
// or where a vector pair is more than a group of 32 codes).
DecodeAFn DecodeAOf(const Operand& a) {
  if (a.hif4 || 2 * hn::Lanes(hn::ScalableTag<float>()) > 32) return nullptr;
  return ByFormat(a.dtype, [](auto f) -> DecodeAFn { return DecodeRowsOfA<decltype(f)>; });
}

SmallFn SmallOf(const Operand& b) {
  if (b.hif4) return nullptr;
  return ByFormat(b.dtype, [](auto f) -> SmallFn { return MatmulMxSmall<decltype(f)>; });
}

using WidenFn = void (*)(const Operand&, size_t, size_t, size_t, size_t, float*);

WidenFn WidenerOf(const Operand& op) {
  if (op.hif4) return kernels::mx::WidenHif4;
  return ByFormat(op.dtype, [](auto f) -> WidenFn { return WidenMx<decltype(f)>; });
}

// dst (m x n float32, holding the seeds) += the chains of a and b, each
// decoded a block at a time by its widener.
void MatmulMxImpl(size_t m, size_t k, size_t n, const kernels::Plane& dst, const Operand& a,
                  const Operand& b) {
  using kernels::mx::kBlockK;
  using kernels::mx::kBlockM;
  using kernels::mx::kBlockN;
  const WidenFn widen_a = WidenerOf(a), widen_b = WidenerOf(b);
  const SmallFn small = SmallOf(b);
  const DecodeAFn decode_a = DecodeAOf(a);
  if (small != nullptr && decode_a != nullptr && m >= 2 && m <= kSmallRows)
    return small(m, k, n, dst, a, b, decode_a);
  float* out = static_cast<float*>(dst.data);
  HWY_ALIGN float wa[kBlockM * kBlockK];
  HWY_ALIGN float wb[kBlockK * kBlockN];
  for (size_t j = 0; j < n; j += kBlockN) {
    const size_t nc = n - j < kBlockN ? n - j : kBlockN;
    for (size_t kk = 0; kk < k; kk += kBlockK) {
      const size_t kc = k - kk < kBlockK ? k - kk : kBlockK;
      widen_b(b, kk, j, kc, nc, wb);
      for (size_t i = 0; i < m; i += kBlockM) {
        const size_t mc = m - i < kBlockM ? m - i : kBlockM;
        widen_a(a, i, kk, mc, kc, wa);
        MatmulF32Impl(mc, kc, nc, out + i * dst.stride + j, dst.stride, wa, kc, wb, nc);
      }
    }
  }
}

}  // namespace HWY_NAMESPACE
}  // namespace pto
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace pto::kernels {

HWY_EXPORT(MatmulMxImpl);

void MatmulMx(pto_dtype a_dtype, pto_dtype b_dtype, size_t m, size_t k, size_t n,
              const Plane& dst, const ConstPlane& a, const ConstPlane& a_scale,
              const ConstPlane& b, const ConstPlane& b_scale) {
  PTO_DYNAMIC_DISPATCH(MatmulMxImpl)(m, k, n, dst, mx::Operand{a_dtype, a, a_scale, true, false},
                                     mx::Operand{b_dtype, b, b_scale, false, false});
}

void MatmulMxHif4(size_t m, size_t k, size_t n, const Plane& dst, const ConstPlane& a,
                  const ConstPlane& a_scale, const ConstPlane& b, const ConstPlane& b_scale) {
  PTO_DYNAMIC_DISPATCH(MatmulMxImpl)(m, k, n, dst,
                                     mx::Operand{PTO_FLOAT4_E1M2X2, a, a_scale, true, true},
                                     mx::Operand{PTO_FLOAT4_E1M2X2, b, b_scale, false, true});
}

}  // namespace pto::kernels
#endif
