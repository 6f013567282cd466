// tcvt from a low-precision type (FP8 E4M3FN/E5M2, HiFloat8, E8M0, FP4
// E2M1/E1M2, INT4) to FLOAT32, and from the 4-bit ones to BFLOAT16 and
// FLOAT16, by vector: each code's bits looked up in a table of every code
// (256, or 16 for the packed types) that tcvt::Element, the exact element
// converter, filled once per pair. Each of these widenings is exact (every
// code's value is a value of dst), so the bits depend on the code alone (no
// mode, no saturation): the table is the converter's own answer for each.
// Included by tcvt.cc once per target, after tcvt::Element.

#ifndef PTO_KERNELS_TCVT_LOWP_TABLES_
#define PTO_KERNELS_TCVT_LOWP_TABLES_
#include <stdint.h>

namespace pto {
namespace kernels {
namespace tcvt {

struct WidenTable {
  uint32_t bits[256];
};

// Whether src -> dst widens exactly and WidenTableOf has its table: any
// low-precision type to FLOAT32; the 4-bit ones (at most 3 significant bits,
// 2^-2 to 6, or integers -8 to 7) to BFLOAT16 and FLOAT16 too.
inline bool HasWidenTable(pto_dtype src, pto_dtype dst) {
  if (!IsLowPrecisionDtype(src)) return false;
  return dst == PTO_FLOAT32 ||
         (IsPackedDtype(src) && (dst == PTO_BFLOAT16 || dst == PTO_FLOAT16));
}

// The table of a HasWidenTable pair: code -> dst's bits (zero-extended).
inline const WidenTable& WidenTableOf(pto_dtype src, pto_dtype dst) {
  constexpr int kTypes = PTO_INT4X2 - PTO_FLOAT8_E4M3 + 1;
  static constexpr pto_dtype kDst[3] = {PTO_FLOAT32, PTO_BFLOAT16, PTO_FLOAT16};
  static const struct Tables {
    WidenTable of[kTypes][3];
    Tables() {
      for (int t = 0; t < kTypes; ++t) {
        const pto_dtype s = static_cast<pto_dtype>(PTO_FLOAT8_E4M3 + t);
        const uint32_t codes = IsPackedDtype(s) ? 16 : 256;
        for (int d = 0; d < 3; ++d) {
          const ConvertSpec spec{kDst[d], s, PTO_ROUND_RINT, false, IntOverflow{}};
          for (uint32_t c = 0; c < 256; ++c)
            of[t][d].bits[c] = HasWidenTable(s, kDst[d])
                                   ? static_cast<uint32_t>(Element(spec, c % codes))
                                   : 0;
        }
      }
    }
  } tables;
  const int d = dst == PTO_FLOAT32 ? 0 : dst == PTO_BFLOAT16 ? 1 : 2;
  return tables.of[src - PTO_FLOAT8_E4M3][d];
}

}  // namespace tcvt
}  // namespace kernels
}  // namespace pto
#endif  // PTO_KERNELS_TCVT_LOWP_TABLES_

#if defined(PTO_KERNELS_TCVT_LOWP_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef PTO_KERNELS_TCVT_LOWP_INL_H_
#undef PTO_KERNELS_TCVT_LOWP_INL_H_
#else
#define PTO_KERNELS_TCVT_LOWP_INL_H_
#endif

HWY_BEFORE_NAMESPACE();
namespace pto {
namespace HWY_NAMESPACE {

// Whether WidenLowpRows converts this pair.
inline bool IsLowpWidening(const kernels::ConvertSpec& s) {
  return kernels::tcvt::HasWidenTable(s.src, s.dst);
}

// n codes (bytes) -> dst's bits by the table (T: uint32_t for FLOAT32,
// uint16_t for the 16-bit floats).
template <typename T>
HWY_INLINE void WidenCodes(const uint32_t* table, const uint8_t* codes, size_t n, T* out) {
  const hn::ScalableTag<uint32_t> du;
  const hn::RebindToSigned<decltype(du)> di;
  const hn::Rebind<uint8_t, decltype(du)> d8;
  const hn::Rebind<T, decltype(du)> dt;
  const size_t lanes = hn::Lanes(du);
  size_t c = 0;
  for (; c + lanes <= n; c += lanes) {
    const auto index = hn::BitCast(di, hn::PromoteTo(du, hn::LoadU(d8, codes + c)));
    const auto bits = hn::GatherIndex(du, table, index);
    if constexpr (sizeof(T) == 4) hn::StoreU(bits, du, out + c);
    else hn::StoreU(hn::TruncateTo(dt, bits), dt, out + c);
  }
  for (; c < n; ++c) out[c] = static_cast<T>(table[codes[c]]);
}

// n 4-bit values (two a byte, the first the low nibble) as bytes, in order
// (little-endian lanes: a 16-bit lane's low byte is stored first).
HWY_INLINE void SplitNibbles(const uint8_t* packed, size_t n, uint8_t* out) {
  const hn::CappedTag<uint16_t, 8> d16;
  const hn::Rebind<uint8_t, decltype(d16)> d8;
  const size_t lanes = hn::Lanes(d16), bytes = (n + 1) / 2;
  size_t x = 0;
  for (; x + lanes <= bytes; x += lanes) {
    const auto w = hn::PromoteTo(d16, hn::LoadU(d8, packed + x));
    const auto pair = hn::Or(hn::And(w, hn::Set(d16, 0x0Fu)), hn::ShiftLeft<4>(hn::And(w, hn::Set(d16, 0xF0u))));
    hn::StoreU(pair, d16, reinterpret_cast<uint16_t*>(out + 2 * x));
  }
  for (; x < bytes; ++x) {
    out[2 * x] = packed[x] & 0xFu;
    out[2 * x + 1] = static_cast<uint8_t>(packed[x] >> 4);
  }
}

// One row of an IsLowpWidening pair; a packed row is split into bytes a
// chunk at a time.
template <typename T>
HWY_INLINE void WidenLowpRow(const uint32_t* table, bool packed, size_t cols, T* out,
                             const uint8_t* in) {
  if (!packed) return WidenCodes(table, in, cols, out);
  constexpr size_t kChunk = 256;
  HWY_ALIGN uint8_t codes[kChunk + 2];
  for (size_t c = 0; c < cols; c += kChunk) {
    const size_t n = cols - c < kChunk ? cols - c : kChunk;
    SplitNibbles(in + c / 2, n, codes);
    WidenCodes(table, codes, n, out + c);
  }
}

HWY_INLINE void WidenLowpRows(const kernels::ConvertSpec& spec, size_t rows, size_t cols,
                              void* dst, size_t dst_stride, const void* src, size_t src_stride) {
  const uint32_t* table = kernels::tcvt::WidenTableOf(spec.src, spec.dst).bits;
  const bool packed = IsPackedDtype(spec.src);
  for (size_t r = 0; r < rows; ++r) {
    const uint8_t* in = static_cast<const uint8_t*>(src) + r * src_stride;
    if (spec.dst == PTO_FLOAT32)
      WidenLowpRow(table, packed, cols, static_cast<uint32_t*>(dst) + r * dst_stride, in);
    else
      WidenLowpRow(table, packed, cols, static_cast<uint16_t*>(dst) + r * dst_stride, in);
  }
}

}  // namespace HWY_NAMESPACE
}  // namespace pto
HWY_AFTER_NAMESPACE();

#endif  // PTO_KERNELS_TCVT_LOWP_INL_H_
