// The MX operands' decode, per target (kernels/matmul_mx.cc): the formats'
// fields, the e8m0 scales' factors, and one or two vectors of codes placed
// in a float16's or a float32's fields (FP8; FP4 on the large path) or
// looked up in their table (FP4 on the small-M path), then scaled, each
// value rounded once as the reference's value x 2^(e - 127). Kept apart
// from matmul_mx.cc so that its drivers stay short.
//
// Re-included once per target by foreach_target.h, hence the toggle guard.
#if defined(PTO_KERNELS_MX_DECODE_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef PTO_KERNELS_MX_DECODE_INL_H_
#undef PTO_KERNELS_MX_DECODE_INL_H_
#else
#define PTO_KERNELS_MX_DECODE_INL_H_
#endif

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "hwy/highway.h"
#include "pto_c.h"
#include "src/kernels/portable-inl.h"
#include "src/kernels/simd-inl.h"

HWY_BEFORE_NAMESPACE();
namespace pto {
namespace HWY_NAMESPACE {

// Where a code's bits are placed, per target. x86 with F16C: in a
// float16's sign, exponent and fraction fields, widened to float32 by the
// CPU's conversion (vcvtph2ps; a subnormal code is a float16 subnormal and
// comes out a normal float32). Elsewhere, the portable twin: in a float32's
// fields, a subnormal code a float32 subnormal (exact, but slow to multiply
// on some CPUs). Either gives the code's value times 2^PlaceExp, exactly.
#undef PTO_MX_PLACE_IN_F16
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX2 && !defined(HWY_DISABLE_F16C)
#define PTO_MX_PLACE_IN_F16 1
constexpr bool kPlaceInF16 = true;
#else
#define PTO_MX_PLACE_IN_F16 0
constexpr bool kPlaceInF16 = false;
#endif

// A format: kShift32 (kShift16) moves a prepared code's magnitude bits (an
// 8-bit code; a 4-bit code shifted up by 4) to a float32's (float16's)
// exponent and fraction fields, kBias is the format's exponent bias,
// kSpecial the bits that, all set, make a NaN or infinity (0: none).
template <int kShift32, int kShift16, int kBias, uint8_t kSpecial, pto_dtype kDtype>
struct MxFormat {
  static constexpr int shift32 = kShift32, shift16 = kShift16, bias = kBias;
  static constexpr uint8_t special = kSpecial;
  static constexpr pto_dtype dtype = kDtype;
  // The placed value is the code's value times 2^place_exp; a scale e then
  // multiplies it by 2^(e - place_exp), a normal float32 for e in [lo, hi].
  static constexpr int place_exp = kPlaceInF16 ? kBias - 15 : kBias - 127;
  static constexpr int lo = 1 + place_exp > 0 ? 1 + place_exp : 0;
  static constexpr int hi = 254 + place_exp;
};
using FormatE4M3 = MxFormat<20, 7, 7, 0x7F, PTO_FLOAT8_E4M3>;
using FormatE5M2 = MxFormat<21, 8, 15, 0x7C, PTO_FLOAT8_E5M2>;
using FormatE2M1 = MxFormat<18, 5, 1, 0, PTO_FLOAT4_E2M1X2>;
using FormatE1M2 = MxFormat<17, 4, 1, 0, PTO_FLOAT4_E1M2X2>;

// The float32 bits of scale e's 2^(e - 127) (0: 2^-127, subnormal; 0xFF NaN).
inline uint32_t ScaleBits(uint32_t e) {
  return e == 0 ? 0x00400000u : e == 0xFFu ? 0x7FC00000u : e << 23;
}

// Whether any of n 8-bit codes has all of the `special` bits set.
HWY_INLINE bool AnySpecial(uint8_t special, const uint8_t* codes, size_t n) {
  const hn::ScalableTag<uint8_t> d8;
  const size_t lanes = hn::Lanes(d8);
  const auto bits = hn::Set(d8, special);
  size_t c = 0;
  for (; c + lanes <= n; c += lanes) {
    if (!hn::AllFalse(d8, hn::Eq(hn::And(hn::LoadU(d8, codes + c), bits), bits))) return true;
  }
  // Shorter rows and row ends (a strip's 32 codes) by 16 bytes at a time.
  const hn::CappedTag<uint8_t, 16> d16;
  const auto bits16 = hn::Set(d16, special);
  for (; c + hn::Lanes(d16) <= n; c += hn::Lanes(d16)) {
    if (!hn::AllFalse(d16, hn::Eq(hn::And(hn::LoadU(d16, codes + c), bits16), bits16))) return true;
  }
  for (; c < n; ++c) {
    if ((codes[c] & special) == special) return true;
  }
  return false;
}

// n 4-bit codes (two a byte, the first low) as bytes code << 4, in order
// (little-endian lanes: a 16-bit lane's low byte is stored first). In
// stores of 16 bytes at most, each of which DecodeVector's loads of 16
// codes or fewer can take from the store buffer (a load from part of a
// wider store may wait for it to reach the cache).
HWY_INLINE void ExpandNibbles(const uint8_t* packed, size_t n, uint8_t* out) {
  const hn::CappedTag<uint16_t, 8> d16;
  const hn::Rebind<uint8_t, decltype(d16)> d8;
  const size_t lanes = hn::Lanes(d16), bytes = (n + 1) / 2;
  const auto high = hn::Set(d16, 0xF0u);
  size_t x = 0;
  for (; x + lanes <= bytes; x += lanes) {
    const auto w = hn::PromoteTo(d16, hn::LoadU(d8, packed + x));
    const auto pair = hn::Or(hn::And(hn::ShiftLeft<4>(w), high), hn::ShiftLeft<8>(hn::And(w, high)));
    hn::StoreU(pair, d16, reinterpret_cast<uint16_t*>(out + 2 * x));
  }
  for (; x < bytes; ++x) {
    out[2 * x] = static_cast<uint8_t>(packed[x] << 4);
    out[2 * x + 1] = static_cast<uint8_t>(packed[x] & 0xF0u);
  }
}

// n factors from n e8m0 scales: 2^(e - place_exp) (every e in [lo, hi],
// the caller's check), or with two_step the scale itself, 2^(e - 127).
// Their bits are made as integers and stored as floats (a BitCast, a
// memcpy): out is read as float by the caller, and a store through a
// uint32_t pointer need not be seen by a float load (GCC's SVE code read the
// buffer's earlier zeros).
template <class F>
HWY_INLINE void Factors(const uint8_t* e, size_t n, bool two_step, float* out) {
  const hn::ScalableTag<float> df;
  const hn::RebindToUnsigned<decltype(df)> du;
  const hn::Rebind<uint8_t, decltype(du)> d8;
  const size_t lanes = hn::Lanes(du);
  constexpr uint32_t kAdd = static_cast<uint32_t>(-F::place_exp);
  size_t c = 0;
  for (; c + lanes <= n; c += lanes) {
    const auto v = hn::PromoteTo(du, hn::LoadU(d8, e + c));
    auto f = hn::ShiftLeft<23>(hn::Add(v, hn::Set(du, two_step ? 0u : kAdd)));
    if (two_step) {
      f = hn::IfThenElse(hn::Eq(v, hn::Zero(du)), hn::Set(du, 0x00400000u), f);
      f = hn::IfThenElse(hn::Eq(v, hn::Set(du, 0xFFu)), hn::Set(du, 0x7FC00000u), f);
    }
    hn::StoreU(hn::BitCast(df, f), df, out + c);
  }
  for (; c < n; ++c) {
    const uint32_t bits = two_step ? ScaleBits(e[c]) : (e[c] + kAdd) << 23;
    memcpy(out + c, &bits, sizeof(bits));
  }
}

// Whether any of n scales is outside [lo, hi] (2^(e - place_exp) no
// normal float32).
template <class F>
HWY_INLINE bool NeedsTwoSteps(const uint8_t* e, size_t n) {
  const hn::ScalableTag<uint8_t> d8;
  const size_t lanes = hn::Lanes(d8);
  const auto lo = hn::Set(d8, static_cast<uint8_t>(F::lo));
  const auto hi = hn::Set(d8, static_cast<uint8_t>(F::hi));
  size_t c = 0;
  // Outside [lo, hi] exactly where v - hi or lo - v, saturated at 0, is
  // not 0: one mask of one vector (an Or of two compares' masks gave a
  // wrong answer under SVE_256).
  for (; c + lanes <= n; c += lanes) {
    const auto v = hn::LoadU(d8, e + c);
    const auto outside = hn::Or(hn::SaturatedSub(v, hi), hn::SaturatedSub(lo, v));
    if (!hn::AllFalse(d8, hn::Ne(outside, hn::Zero(d8)))) return true;
  }
  const hn::CappedTag<uint8_t, 16> d16;
  for (; c + hn::Lanes(d16) <= n; c += hn::Lanes(d16)) {
    const auto v = hn::LoadU(d16, e + c);
    const auto outside = hn::Or(hn::SaturatedSub(v, hn::Set(d16, static_cast<uint8_t>(F::hi))),
                                hn::SaturatedSub(hn::Set(d16, static_cast<uint8_t>(F::lo)), v));
    if (!hn::AllFalse(d16, hn::Ne(outside, hn::Zero(d16)))) return true;
  }
  for (; c < n; ++c) {
    if (e[c] > F::hi || e[c] < F::lo) return true;
  }
  return false;
}

// One vector of decoded values: codes (prepared, sign in bit 7) placed in a
// float32's fields, times the factors (and first 2^(127 - bias) when
// kTwoStep).
template <class F, bool kTwoStep, class DF>
HWY_INLINE void DecodeVector(DF df, const int8_t* codes, hn::Vec<DF> factor, float* out) {
  const hn::RebindToSigned<DF> di;
  const hn::Rebind<int8_t, DF> d8;
  hn::Vec<DF> v;
  if constexpr (kPlaceInF16) {
    const hn::Rebind<int16_t, DF> d16;
    const hn::Rebind<hwy::float16_t, DF> dh;
    const auto mask = hn::Set(d16, static_cast<int16_t>(0x8000u | (0x7Fu << F::shift16)));
    const auto h = hn::And(hn::ShiftLeft<F::shift16>(hn::PromoteTo(d16, hn::LoadU(d8, codes))), mask);
    v = hn::PromoteTo(df, hn::BitCast(dh, h));
  } else {
    const auto mask = hn::Set(di, static_cast<int32_t>(0x80000000u | (0x7Fu << F::shift32)));
    v = hn::BitCast(df, hn::And(hn::ShiftLeft<F::shift32>(hn::PromoteTo(di, hn::LoadU(d8, codes))), mask));
  }
  if constexpr (kTwoStep) v = hn::Mul(v, hn::BitCast(df, hn::Set(di, (127 - F::place_exp) << 23)));
  hn::StoreU(hn::Mul(v, factor), df, out);
}

template <class F, bool kTwoStep>
HWY_INLINE void DecodeRow(const int8_t* codes, const float* factors, size_t n, float* out) {
  const hn::ScalableTag<float> df;
  const size_t lanes = hn::Lanes(df);
  size_t c = 0;
  for (; c + lanes <= n; c += lanes)
    DecodeVector<F, kTwoStep>(df, codes + c, hn::LoadU(df, factors + c), out + c);
  const hn::CappedTag<float, 1> d1;
  for (; c < n; ++c) DecodeVector<F, kTwoStep>(d1, codes + c, hn::LoadU(d1, factors + c), out + c);
}

// The 4-bit formats are decoded by their table (Fp4Pair: each code's exact
// value, then one multiply by the scale 2^(e - 127) itself, rounding once
// as the reference does), the 8-bit ones by placing their bits.
template <class F>
constexpr bool kByTable = F::special == 0;

// Two vectors of decoded values, times f0 and f1, stored at out: 2
// Lanes(df) 8-bit codes (first times 2^(127 - place_exp) when kTwoStep), or
// the Lanes(df) bytes of 2 Lanes(df) 4-bit codes and their table (kByTable:
// the factors are the scales). With kPlaceInF16 the 8-bit codes are placed
// in float16 fields two vectors at a time (a 16-bit lane per code: one
// widening, shift and mask for both), then widened half by half.
template <class F, bool kTwoStep, class DF>
HWY_INLINE void DecodePair(DF df, const float* table, const uint8_t* codes, hn::Vec<DF> f0,
                           hn::Vec<DF> f1, float* out) {
  const size_t lanes = hn::Lanes(df);
  if constexpr (kByTable<F>) {
    (void)kTwoStep;
    hn::Vec<DF> v0, v1;
    Fp4Pair(df, table, codes, v0, v1);
    hn::StoreU(hn::Mul(v0, f0), df, out);
    hn::StoreU(hn::Mul(v1, f1), df, out + lanes);
  } else {
#if PTO_MX_PLACE_IN_F16
    (void)table;
    const hn::Repartition<int16_t, DF> d16;
    const hn::Rebind<int8_t, decltype(d16)> d8;
    const hn::Repartition<hwy::float16_t, DF> dh;
    const hn::Half<decltype(dh)> dhh;
    const auto mask = hn::Set(d16, static_cast<int16_t>(0x8000u | (0x7Fu << F::shift16)));
    const int8_t* c8 = reinterpret_cast<const int8_t*>(codes);
    const auto wide = hn::PromoteTo(d16, hn::LoadU(d8, c8));
    const auto h = hn::BitCast(dh, hn::And(hn::ShiftLeft<F::shift16>(wide), mask));
    auto v0 = hn::PromoteTo(df, hn::LowerHalf(dhh, h));
    auto v1 = hn::PromoteTo(df, hn::UpperHalf(dhh, h));
    if constexpr (kTwoStep) {
      const hn::RebindToSigned<DF> di;
      const auto pre = hn::BitCast(df, hn::Set(di, (127 - F::place_exp) << 23));
      v0 = hn::Mul(v0, pre), v1 = hn::Mul(v1, pre);
    }
    hn::StoreU(hn::Mul(v0, f0), df, out);
    hn::StoreU(hn::Mul(v1, f1), df, out + lanes);
#else
    (void)table;
    const int8_t* c8 = reinterpret_cast<const int8_t*>(codes);
    DecodeVector<F, kTwoStep>(df, c8, f0, out);
    DecodeVector<F, kTwoStep>(df, c8 + lanes, f1, out + lanes);
#endif
  }
}
}  // namespace HWY_NAMESPACE
}  // namespace pto
HWY_AFTER_NAMESPACE();

#endif  // PTO_KERNELS_MX_DECODE_INL_H_
