// tcvt from a low-precision type (FP8 E4M3FN/E5M2, HiFloat8, E8M0, FP4
// E2M1/E1M2, INT4) to FLOAT32, and from the 4-bit ones to BFLOAT16 and
// FLOAT16, by vector: each code's bits looked up in a table of every code
// (256, or 16 for the packed types) that tcvt::Element, the exact element
// converter, filled once per pair. Each of these widenings is exact (every
// code's value is a value of dst), so the bits depend on the code alone (no
// mode, no saturation): the table is the converter's own answer for each.
// And the encodes from FLOAT32 (FLOAT16, BFLOAT16 widened exactly to it)
// into HiFloat8 and FP4 E2M1/E1M2, every mode, by integer arithmetic on the
// bit pattern, the element converter's bits.
// Included by tcvt.cc once per target, after tcvt::Element and its
// RoundIncrement, NarrowFp4Bits and LoadFloatLanes.

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

// HiFloat8's code of 2^e (mantissa 0) at index e + 32 for e in [-15, 15]
// (the element converter's, RINT, exact), 0 elsewhere.
inline const uint32_t* HiF8PowerCodes() {
  static const struct Table {
    uint32_t of[64];
    Table() {
      const ConvertSpec spec{PTO_HIFLOAT8, PTO_FLOAT32, PTO_ROUND_RINT, false, IntOverflow{}};
      for (int i = 0; i < 64; ++i) {
        const int e = i - 32;
        of[i] = e >= -15 && e <= 15 ? static_cast<uint32_t>(Element(spec, static_cast<uint32_t>(e + 127) << 23)) : 0;
      }
    }
  } table;
  return table.of;
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
    else hn::StoreU(TruncateLanes(dt, bits), dt, out + c);
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

// ---- FLOAT32 and FLOAT16 -> HiFloat8 -------------------------------------

// Whether NarrowHiF8Rows converts this pair: float sources (FLOAT16 and
// BFLOAT16 widen exactly to FLOAT32 lanes, so the one rounding below is the
// only one), every mode but ODD (which tcvt's check refuses here).
inline bool IsHiF8Narrowing(const kernels::ConvertSpec& s) {
  const bool float_src = s.src == PTO_FLOAT32 || s.src == PTO_FLOAT16 || s.src == PTO_BFLOAT16;
  return s.dst == PTO_HIFLOAT8 && float_src &&
         (s.round == PTO_ROUND_RINT || s.round == PTO_ROUND_ROUND || s.round == PTO_ROUND_FLOOR ||
          s.round == PTO_ROUND_CEIL || s.round == PTO_ROUND_TRUNC);
}

// HiFloat8 codes of the values below 2^-15 (top, the exponent, under -15;
// frac, the fraction bits; `away`: the directed modes' lanes that round away
// from zero), as tcvt::EncodeHiF8 rounds them to the powers 2^-22..2^-15:
// top -16 to -22 to 2^top or 2^(top+1) (RINT: above half, or a tie when
// top + 23 is odd, to the even code; ROUND: from half; directed: any
// fraction when away); top -23 to 2^-22 (RINT: above half; ROUND always;
// directed when away); lower to 2^-22 when away, else zero. Zero stays zero.
template <class DU>
HWY_INLINE hn::Vec<DU> HiF8TinyCodes(DU du, pto_round_mode mode, hn::Vec<hn::RebindToSigned<DU>> top,
                                     hn::Vec<DU> frac, hn::Mask<DU> away, hn::Mask<DU> zero) {
  const hn::RebindToSigned<DU> di;
  const auto one = hn::Set(du, 1u);
  const auto fhalf = hn::Set(du, 0x400000u);
  const auto nonzero_frac = hn::Ne(frac, hn::Zero(du));
  const auto odd_code = hn::RebindMask(du, hn::Eq(hn::And(top, hn::Set(di, 1)), hn::Zero(di)));
  hn::Mask<DU> up, at_23_up;
  if (mode == PTO_ROUND_RINT) {
    up = hn::Or(hn::Gt(frac, fhalf), hn::And(hn::Eq(frac, fhalf), odd_code));
    at_23_up = nonzero_frac;
  } else if (mode == PTO_ROUND_ROUND) {
    up = hn::Not(hn::Lt(frac, fhalf));
    at_23_up = hn::Eq(frac, frac);
  } else {
    up = hn::And(away, nonzero_frac);
    at_23_up = away;
  }
  const auto tiny_top = hn::Add(top, hn::BitCast(di, hn::IfThenElseZero(up, one)));
  auto tiny = hn::BitCast(du, hn::Add(tiny_top, hn::Set(di, 23)));
  tiny = hn::IfThenElse(hn::RebindMask(du, hn::Eq(tiny_top, hn::Set(di, -15))), hn::Set(du, 0x7Eu), tiny);
  const auto at_23 = hn::RebindMask(du, hn::Eq(top, hn::Set(di, -23)));
  tiny = hn::IfThenElse(at_23, hn::IfThenElseZero(at_23_up, one), tiny);
  const auto lower = hn::RebindMask(du, hn::Lt(top, hn::Set(di, -23)));
  const bool directed = mode != PTO_ROUND_RINT && mode != PTO_ROUND_ROUND;
  tiny = hn::IfThenElse(lower, directed ? hn::IfThenElseZero(away, one) : hn::Zero(du), tiny);
  return hn::IfThenElseZero(hn::Not(zero), tiny);
}

// FLOAT32 bits -> HiFloat8 codes (low 8 bits of each lane), rounded as
// tcvt::EncodeHiF8 does: at the precision of the value's exponent e (3
// mantissa bits for |e| <= 3, 2 to 7, 1 to 15) by the mode; below 2^-15 to
// the powers 2^-22..2^-16 (codes 1 to 7, HiF8TinyCodes); overflow to
// `overflow` (by sign, the converter's code for beyond 2^15); NaN 0x80,
// infinity 0x6F with its sign, zero 0x00.
template <class DU>
HWY_INLINE hn::Vec<DU> HiF8Codes(DU du, hn::Vec<DU> bits, pto_round_mode mode, const uint32_t* powers,
                                 uint32_t overflow_pos, uint32_t overflow_neg) {
  const hn::RebindToSigned<DU> di;
  const auto one = hn::Set(du, 1u);
  const auto mag = hn::And(bits, hn::Set(du, 0x7FFFFFFFu));
  const auto negative = hn::Ne(hn::And(bits, hn::Set(du, 0x80000000u)), hn::Zero(du));
  const auto top = hn::Sub(hn::BitCast(di, hn::ShiftRight<23>(mag)), hn::Set(di, 127));
  const auto frac = hn::And(mag, hn::Set(du, 0x7FFFFFu));
  // At or above 2^-15: the mantissa (24 bits) rounded to mb bits below its top.
  const auto abs_top = hn::BitCast(du, hn::Abs(top));
  const auto mb = hn::Sub(hn::Sub(hn::Set(du, 3u), hn::IfThenElseZero(hn::Gt(abs_top, hn::Set(du, 3u)), one)),
                          hn::IfThenElseZero(hn::Gt(abs_top, hn::Set(du, 7u)), one));
  const auto shift = hn::Sub(hn::Set(du, 23u), mb);
  const auto mant = hn::Or(frac, hn::Set(du, 0x800000u));
  const auto kept = hn::Shr(mant, shift);
  const auto rest = hn::Sub(mant, hn::Shl(kept, shift));
  const auto half = hn::Shl(one, hn::Sub(shift, one));
  const auto r = hn::Add(kept, RoundIncrement(du, mode, kept, rest, half, negative));
  const auto carry = hn::Ne(hn::Shr(r, hn::Add(mb, one)), hn::Zero(du));
  const auto top2 = hn::Add(top, hn::BitCast(di, hn::IfThenElseZero(carry, one)));
  const auto m = hn::IfThenElseZero(hn::Not(carry), hn::Sub(r, hn::Shl(one, mb)));
  const auto index = hn::And(hn::Add(top2, hn::Set(di, 32)), hn::Set(di, 63));
  auto code = hn::Or(hn::GatherIndex(du, powers, index), m);
  const auto over = hn::Or(hn::RebindMask(du, hn::Gt(top2, hn::Set(di, 15))),
                           hn::And(hn::RebindMask(du, hn::Eq(top2, hn::Set(di, 15))),
                                   hn::Ne(m, hn::Zero(du))));
  const auto away = mode == PTO_ROUND_FLOOR ? negative
                    : mode == PTO_ROUND_CEIL ? hn::Not(negative)
                                             : hn::Lt(one, one);
  const auto tiny = HiF8TinyCodes(du, mode, top, frac, away, hn::Eq(mag, hn::Zero(du)));
  code = hn::IfThenElse(hn::RebindMask(du, hn::Lt(top, hn::Set(di, -15))), tiny, code);
  code = hn::IfThenElseZero(hn::Ne(code, hn::Zero(du)), hn::Or(code, hn::IfThenElseZero(negative, hn::Set(du, 0x80u))));
  const auto overflow = hn::IfThenElse(negative, hn::Set(du, overflow_neg), hn::Set(du, overflow_pos));
  code = hn::IfThenElse(over, overflow, code);
  code = hn::IfThenElse(hn::Eq(mag, hn::Set(du, 0x7F800000u)),
                        hn::Or(hn::Set(du, 0x6Fu), hn::IfThenElseZero(negative, hn::Set(du, 0x80u))), code);
  return hn::IfThenElse(hn::Gt(mag, hn::Set(du, 0x7F800000u)), hn::Set(du, 0x80u), code);
}

// One pair's rows (IsHiF8Narrowing), the mode fixed so that its choices
// fold away.
template <pto_round_mode kRound>
HWY_NOINLINE void NarrowHiF8RowsIn(const kernels::ConvertSpec& spec, size_t rows, size_t cols,
                                   void* dst, size_t dst_stride, const void* src,
                                   size_t src_stride) {
  const hn::ScalableTag<float> df;
  const hn::RebindToUnsigned<decltype(df)> du;
  const hn::Rebind<uint8_t, decltype(du)> d8;
  const size_t lanes = hn::Lanes(du), in_size = ElementBytes(spec.src);
  const uint32_t* powers = kernels::tcvt::HiF8PowerCodes();
  // Beyond 2^15 (2^16 of either sign): the converter's overflow codes.
  kernels::ConvertSpec wide = spec;
  wide.src = PTO_FLOAT32;
  const uint32_t over_pos = static_cast<uint32_t>(kernels::tcvt::Element(wide, 0x47800000u));
  const uint32_t over_neg = static_cast<uint32_t>(kernels::tcvt::Element(wide, 0xC7800000u));
  for (size_t r = 0; r < rows; ++r) {
    uint8_t* out = static_cast<uint8_t*>(dst) + r * dst_stride;
    const char* in = static_cast<const char*>(src) + r * src_stride * in_size;
    size_t i = 0;
    for (; i + lanes <= cols; i += lanes) {
      const auto bits = hn::BitCast(du, LoadFloatLanes(df, spec.src, in + i * in_size));
      const auto codes = HiF8Codes(du, bits, kRound, powers, over_pos, over_neg);
      hn::StoreU(TruncateLanes(d8, codes), d8, out + i);
    }
    kernels::tcvt::ElementRange(spec, i, cols, out, in);
  }
}

HWY_INLINE void NarrowHiF8Rows(const kernels::ConvertSpec& spec, size_t rows, size_t cols,
                               void* dst, size_t dst_stride, const void* src, size_t src_stride) {
  switch (spec.round) {
    case PTO_ROUND_RINT:
      return NarrowHiF8RowsIn<PTO_ROUND_RINT>(spec, rows, cols, dst, dst_stride, src, src_stride);
    case PTO_ROUND_ROUND:
      return NarrowHiF8RowsIn<PTO_ROUND_ROUND>(spec, rows, cols, dst, dst_stride, src, src_stride);
    case PTO_ROUND_FLOOR:
      return NarrowHiF8RowsIn<PTO_ROUND_FLOOR>(spec, rows, cols, dst, dst_stride, src, src_stride);
    case PTO_ROUND_CEIL:
      return NarrowHiF8RowsIn<PTO_ROUND_CEIL>(spec, rows, cols, dst, dst_stride, src, src_stride);
    default:
      return NarrowHiF8RowsIn<PTO_ROUND_TRUNC>(spec, rows, cols, dst, dst_stride, src, src_stride);
  }
}

// ---- FLOAT32, FLOAT16, BFLOAT16 -> FP4 -----------------------------------

// Whether NarrowFp4Rows converts this pair: float sources (widened exactly
// to FLOAT32 lanes, one rounding), FP4 E2M1 or E1M2, any mode.
inline bool IsFp4Narrowing(const kernels::ConvertSpec& s) {
  const bool float_src = s.src == PTO_FLOAT32 || s.src == PTO_FLOAT16 || s.src == PTO_BFLOAT16;
  return float_src && (s.dst == PTO_FLOAT4_E2M1X2 || s.dst == PTO_FLOAT4_E1M2X2) &&
         s.round != PTO_ROUND_NONE;
}

// n 4-bit values (bytes, low nibbles) packed two a byte, the first the low
// nibble; an odd n's last value goes into its byte's low nibble, the high
// one kept.
HWY_INLINE void JoinNibbles(const uint8_t* codes, size_t n, uint8_t* packed) {
  const hn::CappedTag<uint16_t, 8> d16;
  const hn::Rebind<uint8_t, decltype(d16)> d8;
  const size_t lanes = hn::Lanes(d16), pairs = n / 2;
  size_t x = 0;
  for (; x + lanes <= pairs; x += lanes) {
    const auto w = hn::LoadU(d16, reinterpret_cast<const uint16_t*>(codes + 2 * x));
    const auto b = hn::Or(hn::And(w, hn::Set(d16, 0x0Fu)), hn::And(hn::ShiftRight<4>(w), hn::Set(d16, 0xF0u)));
    hn::StoreU(TruncateLanes(d8, b), d8, packed + x);
  }
  for (; x < pairs; ++x)
    packed[x] = static_cast<uint8_t>((codes[2 * x] & 0xFu) | (codes[2 * x + 1] << 4));
  if (n & 1) kernels::tcvt::StoreNibble(packed, n - 1, codes[n - 1]);
}

template <pto_dtype kDst, pto_round_mode kRound>
HWY_NOINLINE void NarrowFp4RowsIn(const kernels::ConvertSpec& spec, size_t rows, size_t cols,
                                  void* dst, size_t dst_stride, const void* src,
                                  size_t src_stride) {
  const hn::ScalableTag<float> df;
  const hn::RebindToUnsigned<decltype(df)> du;
  const hn::Rebind<uint8_t, decltype(du)> d8;
  const size_t lanes = hn::Lanes(du), in_size = ElementBytes(spec.src);
  constexpr size_t kChunk = 256;
  HWY_ALIGN uint8_t codes[kChunk];
  for (size_t r = 0; r < rows; ++r) {
    uint8_t* out = static_cast<uint8_t*>(dst) + r * dst_stride;
    const char* in = static_cast<const char*>(src) + r * src_stride * in_size;
    // A chunk of values to bytes by vector (the tail by the converter),
    // then two a byte; chunks start at even values.
    for (size_t c = 0; c < cols; c += kChunk) {
      const size_t n = cols - c < kChunk ? cols - c : kChunk;
      const char* chunk = in + c * in_size;
      size_t i = 0;
      for (; i + lanes <= n; i += lanes) {
        const auto bits = hn::BitCast(du, LoadFloatLanes(df, spec.src, chunk + i * in_size));
        const auto v = kDst == PTO_FLOAT4_E2M1X2 ? NarrowFp4Bits<2, 1>(du, bits, kRound)
                                                 : NarrowFp4Bits<1, 2>(du, bits, kRound);
        hn::StoreU(TruncateLanes(d8, v), d8, codes + i);
      }
      for (; i < n; ++i)
        codes[i] = static_cast<uint8_t>(kernels::tcvt::Element(spec, kernels::tcvt::Load(in_size, chunk, i)));
      JoinNibbles(codes, n, out + c / 2);
    }
  }
}

// The mode fixed per instance, so that its choices fold away.
template <pto_dtype kDst>
HWY_INLINE void NarrowFp4RowsTo(const kernels::ConvertSpec& spec, size_t rows, size_t cols,
                                void* dst, size_t dst_stride, const void* src, size_t src_stride) {
  switch (spec.round) {
    case PTO_ROUND_RINT:
      return NarrowFp4RowsIn<kDst, PTO_ROUND_RINT>(spec, rows, cols, dst, dst_stride, src, src_stride);
    case PTO_ROUND_ROUND:
      return NarrowFp4RowsIn<kDst, PTO_ROUND_ROUND>(spec, rows, cols, dst, dst_stride, src, src_stride);
    case PTO_ROUND_FLOOR:
      return NarrowFp4RowsIn<kDst, PTO_ROUND_FLOOR>(spec, rows, cols, dst, dst_stride, src, src_stride);
    case PTO_ROUND_CEIL:
      return NarrowFp4RowsIn<kDst, PTO_ROUND_CEIL>(spec, rows, cols, dst, dst_stride, src, src_stride);
    case PTO_ROUND_ODD:
      return NarrowFp4RowsIn<kDst, PTO_ROUND_ODD>(spec, rows, cols, dst, dst_stride, src, src_stride);
    default:
      return NarrowFp4RowsIn<kDst, PTO_ROUND_TRUNC>(spec, rows, cols, dst, dst_stride, src, src_stride);
  }
}

HWY_INLINE void NarrowFp4Rows(const kernels::ConvertSpec& spec, size_t rows, size_t cols,
                              void* dst, size_t dst_stride, const void* src, size_t src_stride) {
  if (spec.dst == PTO_FLOAT4_E2M1X2)
    return NarrowFp4RowsTo<PTO_FLOAT4_E2M1X2>(spec, rows, cols, dst, dst_stride, src, src_stride);
  NarrowFp4RowsTo<PTO_FLOAT4_E1M2X2>(spec, rows, cols, dst, dst_stride, src, src_stride);
}

}  // namespace HWY_NAMESPACE
}  // namespace pto
HWY_AFTER_NAMESPACE();

#endif  // PTO_KERNELS_TCVT_LOWP_INL_H_
