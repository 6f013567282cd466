// tcvt's narrowings through F16C on x86 (AVX2 and AVX-512 targets):
// FLOAT32 -> FLOAT16 under RINT by the CPU's conversion, and FLOAT32 -> FP8
// (E4M3FN, E5M2) under RINT through float16 rounded to odd. They compute the
// bits of tcvt.cc's NarrowFloatBits and NarrowFp8Bits, which every other
// target and mode uses. PTO_F16C_NARROWING says whether this target has
// them (tcvt.cc's ConvertVector and ConvertRows take them then).
// Included by tcvt.cc once per target.

#if defined(PTO_KERNELS_TCVT_F16C_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef PTO_KERNELS_TCVT_F16C_INL_H_
#undef PTO_KERNELS_TCVT_F16C_INL_H_
#else
#define PTO_KERNELS_TCVT_F16C_INL_H_
#endif

#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace pto {
namespace HWY_NAMESPACE {

#undef PTO_F16C_NARROWING  // per target: this header is included once for each
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX2 && !defined(HWY_DISABLE_F16C)
#define PTO_F16C_NARROWING 1
// FLOAT32 lanes to FLOAT16 bits rounded to nearest even by the CPU's
// conversion (F16C's vcvtps2ph, rounding from its immediate, not MXCSR):
// the bits of NarrowFloatBits<10> under RINT. A NaN keeps its sign and
// leading payload, quieted (LoadFloatLanes set the quiet bit already);
// magnitudes from 65520 on round to infinity, or with saturation are first
// clamped to 65504, the largest finite, which converts to itself.
template <class DF>
HWY_INLINE void NarrowToHalfRint(DF df, hn::Vec<DF> v, bool saturate, uint16_t* out) {
  if (saturate) {
    const auto largest = hn::Set(df, 65504.0f);
    const auto beyond = hn::And(hn::Gt(hn::Abs(v), largest), hn::IsFinite(v));
    v = hn::IfThenElse(beyond, hn::CopySign(largest, v), v);
  }
  const hn::Rebind<hwy::float16_t, DF> dh;
  hn::StoreU(hn::DemoteTo(dh, v), dh, reinterpret_cast<hwy::float16_t*>(out));
}

// FLOAT32 -> FP8 E4M3FN (kE5M2 false) or E5M2 codes under RINT, the bits of
// NarrowFp8Bits, through F16C, two vectors of float32 at a time: float16
// rounded to odd (vcvtps2ph truncating, its immediate, and the lowest bit
// set where that was inexact) keeps 7 (E4M3FN) or 8 (E5M2) bits below the
// FP8 code's last one, so rounding those off to nearest even rounds the
// value once. E4M3FN's values are first scaled by 2^-8 (exact above
// 2^-118, and below that the code is zero either way), which puts its bias
// and subnormal range on float16's: the code is then float16's bits shifted
// right by 7, as E5M2's are by 8. After the conversions everything is done
// in 16-bit lanes, twice the lanes an operation of the 32-bit ones, and the
// codes narrow 16 -> 8 once.

// Float16 bits of y truncated (vcvtps2ph's immediate, not MXCSR), and
// where that was inexact (converted back, unequal; a NaN too).
template <class DF>
HWY_INLINE hn::Vec<hn::Rebind<uint16_t, DF>> HalfTruncated(DF df, hn::Vec<DF> y,
                                                           hn::Mask<DF>* inexact) {
  const hn::Rebind<uint16_t, DF> d16;
  const hn::Rebind<hwy::float16_t, DF> dh;
#if HWY_TARGET <= HWY_AVX3
  const hn::Vec<decltype(d16)> h{_mm512_cvtps_ph(y.raw, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC)};
#else
  const hn::Vec<decltype(d16)> h{_mm256_cvtps_ph(y.raw, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC)};
#endif
  *inexact = hn::Ne(hn::PromoteTo(df, hn::BitCast(dh, h)), y);
  return h;
}

// The masks of two vectors of float32 lanes (lo first) as one of the 2N
// 16-bit lanes: AVX-512's mask registers join (kunpckwd); AVX2's masks are
// vectors, packed with signed saturation (-1 stays -1) in lane order.
template <class DF, class D16>
HWY_INLINE hn::Mask<D16> JoinMasks(DF df, D16 d16, hn::Mask<DF> lo, hn::Mask<DF> hi) {
#if HWY_TARGET <= HWY_AVX3
  (void)df;
  (void)d16;
  return hn::Mask<D16>{static_cast<__mmask32>(_mm512_kunpackw(hi.raw, lo.raw))};
#else
  const hn::RebindToSigned<DF> di;
  const __m256i packed = _mm256_packs_epi32(hn::BitCast(di, hn::VecFromMask(df, lo)).raw,
                                            hn::BitCast(di, hn::VecFromMask(df, hi)).raw);
  return hn::MaskFromVec(hn::Vec<D16>{_mm256_permute4x64_epi64(packed, 0xD8)});
#endif
}

// 2N float16 bits truncated and where they were inexact -> FP8 codes in
// the low 8 bits of each 16-bit lane. Past the largest finite code: the
// format's overflow (E4M3FN NaN, E5M2 infinity) or with saturation the
// largest finite; infinity stays infinity in E5M2 (E4M3FN has none: NaN,
// or saturated the largest finite); NaN to the NaN code; the sign kept.
template <bool kE5M2, class D16>
HWY_INLINE hn::Vec<D16> Fp8FromHalfTruncated(D16 d16, hn::Vec<D16> h, hn::Mask<D16> inexact,
                                             bool saturate) {
  const hn::RebindToSigned<D16> di16;
  constexpr int kDrop = kE5M2 ? 8 : 7;
  const auto odd = hn::Or(h, hn::IfThenElseZero(inexact, hn::Set(d16, 1)));
  const auto magnitude = hn::And(odd, hn::Set(d16, 0x7FFF));
  const auto lsb = hn::And(hn::ShiftRight<kDrop>(magnitude), hn::Set(d16, 1));
  // at most 0x7FFF + 2^(kDrop-1): no carry out of 16 bits
  auto code = hn::ShiftRight<kDrop>(
      hn::Add(hn::Add(magnitude, hn::Set(d16, (1u << (kDrop - 1)) - 1)), lsb));
  // Finite magnitudes truncate to at most 0x7BFF (code <= 0x7C for E5M2,
  // 0xF8 for E4M3FN), infinity is 0x7C00, a NaN is quiet (>= 0x7E00: code
  // >= 0x7E for E5M2, >= 0xFC for E4M3FN).
  if (kE5M2) {
    const auto nonfinite =
        hn::RebindMask(d16, hn::Gt(hn::BitCast(di16, magnitude), hn::Set(di16, 0x7BFF)));
    // not saturated: overflow and infinity give 0x7C, NaN >= 0x7E
    const auto special = hn::Min(code, hn::Set(d16, 0x7E));
    code = saturate ? hn::IfThenElse(nonfinite, special, hn::Min(code, hn::Set(d16, 0x7B)))
                    : special;
  } else {
    if (saturate) {
      const auto nan =
          hn::RebindMask(d16, hn::Gt(hn::BitCast(di16, magnitude), hn::Set(di16, 0x7C00)));
      code = hn::IfThenElse(nan, hn::Set(d16, 0x7F), hn::Min(code, hn::Set(d16, 0x7E)));
    } else {
      code = hn::Min(code, hn::Set(d16, 0x7F));  // overflow, infinity and NaN: the NaN code
    }
  }
  return hn::OrAnd(code, hn::ShiftRight<8>(h), hn::Set(d16, 0x80));
}

// 16-bit lanes' low bytes, in order: vpmovwb on AVX-512, a pack and a
// permute on AVX2 (the codes fit, so the pack's saturation never acts).
template <class D16>
HWY_INLINE hn::Vec<hn::Rebind<uint8_t, D16>> NarrowCodes(D16 d16, hn::Vec<D16> codes) {
  const hn::Rebind<uint8_t, D16> d8;
#if HWY_TARGET <= HWY_AVX3
  (void)d16;
  return hn::Vec<decltype(d8)>{_mm512_cvtepi16_epi8(codes.raw)};
#else
  return hn::DemoteTo(d8, hn::BitCast(hn::RebindToSigned<D16>(), codes));
#endif
}

// 2N elements (lo, hi vectors of N) -> 2N FP8 codes.
template <bool kE5M2, class DF>
HWY_INLINE hn::Vec<hn::Rebind<uint8_t, hn::Repartition<uint16_t, DF>>> Fp8PairByF16C(
    DF df, hn::Vec<DF> lo, hn::Vec<DF> hi, bool saturate) {
  const hn::Repartition<uint16_t, DF> d16;
  const hn::Half<decltype(d16)> dh16;
  if (!kE5M2) {
    lo = hn::Mul(lo, hn::Set(df, 1.0f / 256.0f));
    hi = hn::Mul(hi, hn::Set(df, 1.0f / 256.0f));
  }
  hn::Mask<DF> inexact_lo, inexact_hi;
  const auto h_lo = HalfTruncated(df, lo, &inexact_lo);
  const auto h_hi = HalfTruncated(df, hi, &inexact_hi);
  const auto h = hn::Combine(d16, hn::BitCast(dh16, h_hi), hn::BitCast(dh16, h_lo));
  const auto codes = Fp8FromHalfTruncated<kE5M2>(d16, h, JoinMasks(df, d16, inexact_lo, inexact_hi),
                                                 saturate);
  return NarrowCodes(d16, codes);
}

// Elements [0, n) of a row, n a multiple of Lanes(df) (the rest elementwise).
template <bool kE5M2, class DF>
HWY_INLINE void Fp8RintRangeByF16C(DF df, bool saturate, size_t n, uint8_t* out, const float* in) {
  const size_t lanes = hn::Lanes(df);
  const hn::Rebind<uint8_t, hn::Repartition<uint16_t, DF>> d8;
  size_t i = 0;
  for (; i + 2 * lanes <= n; i += 2 * lanes) {
    const auto codes = Fp8PairByF16C<kE5M2>(df, hn::LoadU(df, in + i), hn::LoadU(df, in + i + lanes),
                                            saturate);
    hn::StoreU(codes, d8, out + i);
  }
  if (i < n) {  // one vector: its codes are the pair's lower half
    const auto v = hn::LoadU(df, in + i);
    const hn::Half<decltype(d8)> dh8;
    hn::StoreU(hn::LowerHalf(dh8, Fp8PairByF16C<kE5M2>(df, v, v, saturate)), dh8, out + i);
  }
}
#else
#define PTO_F16C_NARROWING 0
#endif

}  // namespace HWY_NAMESPACE
}  // namespace pto
HWY_AFTER_NAMESPACE();

#endif  // PTO_KERNELS_TCVT_F16C_INL_H_
