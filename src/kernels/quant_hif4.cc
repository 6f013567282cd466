// TQUANT_HIF4 (HiFloat4): BFLOAT16 to E1M2 codes with a 32-bit word of
// three-level metadata per group of 64, as pto-isa's A6 golden computes it
// (tests/npu/a6/src/st/testcase/tquant/gen_data.py, its hif4_quantize):
// every intermediate a bfloat16 (a float32 product of two bfloat16 values,
// then rounded to nearest even), so the bits follow the NPU's registers.
// A plain loop over the groups; nothing vectorised (the steps are few and
// each rounding must be the golden's).
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "src/kernels/kernels.h"

namespace pto {
namespace kernels {
namespace {

constexpr uint16_t kBf16QuietNaN = 0x7FC0u;

float FromBf16(uint16_t h) {
  const uint32_t u = static_cast<uint32_t>(h) << 16;
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}

// f rounded to bfloat16, nearest even (NaN kept quiet), as its bits.
uint16_t Bf16Bits(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  if ((u & 0x7FFFFFFFu) > 0x7F800000u) return static_cast<uint16_t>((u >> 16) | 0x0040u);
  u += 0x7FFFu + ((u >> 16) & 1u);
  return static_cast<uint16_t>(u >> 16);
}

float Bf16(float f) { return FromBf16(Bf16Bits(f)); }

// Ea: m / 7 (m times bfloat16's 1/7, 0x3E12, rounded to bfloat16) as an
// e6m2 code: 6 exponent bits (bias 48) over 2 mantissa bits, the mantissa
// rounded to nearest even. At or past 2^16 it saturates to 0xFE (1.5 *
// 2^15; 0xFF is never produced for a number); below 2^-48 it is code 0,
// whose value is 0 (the golden's decoding), as is every d rounding to
// 2^-48 itself: such a group quantises to zeros.
uint32_t E6m2Code(float m) {
  const float d = Bf16(m * FromBf16(0x3E12u));
  if (d == 0.0f) return 0;
  if (isinf(d)) return 0xFEu;
  int e = 0;
  const double frac = frexp(static_cast<double>(d), &e) * 2.0;  // d = frac 2^(e - 1)
  const int exponent = e - 1;
  if (exponent < -48) return 0;
  if (exponent > 15) return 0xFEu;
  int mant = static_cast<int>(nearbyint((frac - 1.0) * 4.0));  // ties to even
  int biased = exponent + 48;
  if (mant == 4) mant = 0, ++biased;
  if (biased > 63 || (biased == 63 && mant == 3)) biased = 63, mant = 2;
  return static_cast<uint32_t>(biased << 2 | mant);
}

// 1 / Ea's value, a float64 quotient rounded to float32 then bfloat16 (the
// NPU's vcvt_rcpe6m22bf16); 0 for code 0.
float E6m2Reciprocal(uint32_t code) {
  if (code == 0) return 0.0f;
  const double value = (1.0 + (code & 3u) * 0.25) * ldexp(1.0, static_cast<int>(code >> 2) - 48);
  return Bf16(static_cast<float>(1.0 / value));
}

// An E1M2 code of s: the nearest of 0, 0.25, ..., 1.75 to |s| (ties to the
// even code, saturating at 1.75), the sign bit set where s < 0.
uint8_t E1m2Code(float s) {
  const float mag = fabsf(s);
  const uint32_t code = mag >= 1.75f ? 7u : static_cast<uint32_t>(nearbyintf(mag * 4.0f));
  return static_cast<uint8_t>((s < 0.0f ? 8u : 0u) | code);
}

void PutNibble(const Plane& dst, size_t r, size_t c, uint8_t code) {
  uint8_t* byte = static_cast<uint8_t*>(dst.data) + r * dst.stride + c / 2;
  *byte = c % 2 == 0 ? static_cast<uint8_t>((*byte & 0xF0u) | code)
                     : static_cast<uint8_t>((*byte & 0x0Fu) | (code << 4));
}

void PutU16(const Plane& p, size_t r, size_t c, uint16_t v) {
  if (p.data != nullptr) static_cast<uint16_t*>(p.data)[r * p.stride + c] = v;
}

// One group: row r's columns c0 to c0 + n - 1 (n <= 64; the rest of the 64
// counts as zeros, as A6 zero-fills its padding).
void QuantizeGroup(const Hif4QuantSpec& s, size_t r, size_t c0, size_t n) {
  const uint16_t* in = static_cast<const uint16_t*>(s.src.data) + r * s.src.stride + c0;
  uint16_t mc[16] = {0};  // each 4's largest magnitude, bfloat16 bits (NaN: above 0x7F80)
  bool nan = false;
  for (size_t k = 0; k < n; ++k) {
    const uint16_t a = in[k] & 0x7FFFu;
    nan = nan || a > 0x7F80u;
    if (a > mc[k / 4]) mc[k / 4] = a;
  }
  const size_t quads = (n + 3) / 4;
  uint32_t word = 0;
  if (nan) {
    // A NaN group: Ea 0xFF (the code no number gives), Eb and Ec 0, every
    // element +1.75, its scale NaN.
    word = 0xFFu;
    for (size_t k = 0; k < n; ++k) PutNibble(s.dst, r, c0 + k, 7);
    for (size_t q = 0; q < quads; ++q) {
      PutU16(s.max, r, c0 / 4 + q, mc[q] > 0x7F80u ? kBf16QuietNaN : mc[q]);
      PutU16(s.scaling, r, c0 / 4 + q, kBf16QuietNaN);
    }
  } else {
    uint16_t ma = 0;
    for (size_t q = 0; q < 16; ++q) ma = mc[q] > ma ? mc[q] : ma;
    const uint32_t ea = E6m2Code(FromBf16(ma));
    const float rec = E6m2Reciprocal(ea);
    word = ea;
    for (size_t q = 0; q < 16; ++q) {
      const size_t oct = q / 2;
      const uint16_t mb = mc[2 * oct] > mc[2 * oct + 1] ? mc[2 * oct] : mc[2 * oct + 1];
      const bool eb = Bf16(FromBf16(mb) * rec) >= 4.0f;
      const float eb_rec = eb ? 0.5f : 1.0f;
      const bool ec = Bf16(Bf16(FromBf16(mc[q]) * rec) * eb_rec) >= 2.0f;
      if (q % 2 == 0 && eb) word |= 1u << (8 + oct);
      if (ec) word |= 1u << (16 + q);
      if (q >= quads) continue;
      const float scale = Bf16(rec * Bf16(eb_rec * (ec ? 0.5f : 1.0f)));
      PutU16(s.max, r, c0 / 4 + q, mc[q]);
      PutU16(s.scaling, r, c0 / 4 + q, Bf16Bits(scale));
      for (size_t k = 4 * q; k < n && k < 4 * q + 4; ++k)
        PutNibble(s.dst, r, c0 + k, E1m2Code(Bf16(FromBf16(in[k]) * scale)));
    }
  }
  static_cast<uint32_t*>(s.exp.data)[r * s.exp.stride + c0 / 64] = word;
}

}  // namespace

void QuantizeHif4(const Hif4QuantSpec& s) {
  for (size_t r = 0; r < s.rows; ++r)
    for (size_t c = 0; c < s.cols; c += 64) QuantizeGroup(s, r, c, s.cols - c < 64 ? s.cols - c : 64);
}

}  // namespace kernels
}  // namespace pto
