// tquant's MX forms (MXFP8 E4M3, MXFP4 E2M1 with an E8M0 exponent per block
// of 32): a plain loop over the blocks. Each block's abs maximum gives its
// shared exponent and its reciprocal scale, a power of two; each element is
// then scaled exactly (its exponent moved, tcvt's Value) and rounded once to
// nearest even, saturating, by tcvt's encoder. Scaling in the NPUs' float32,
// bfloat16 or float16 arithmetic is exact too, except below their smallest
// normal, where every result rounds to a zero of the element's sign in
// E4M3 and E2M1 alike, so the codes are A5's bit for bit.
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "src/kernels/kernels.h"
#include "src/kernels/lowp-encode.h"

namespace pto {
namespace kernels {
namespace {

constexpr uint32_t kF32QuietNaN = 0x7FC00000u;

uint32_t F32Bits(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  return u;
}

float F32FromBits(uint32_t u) {
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}

// A FLOAT16's value as a float32's bits (exact).
uint32_t F16ToF32Bits(uint32_t h) {
  const uint32_t sign = (h & 0x8000u) << 16, e = (h >> 10) & 0x1Fu, m = h & 0x3FFu;
  if (e == 0x1Fu) return sign | 0x7F800000u | (m << 13);
  if (e != 0) return sign | ((e + 112) << 23) | (m << 13);
  if (m == 0) return sign;
  const float v = static_cast<float>(m) * (1.0f / 16777216.0f);  // m * 2^-24, exact
  return sign | F32Bits(v);
}

uint32_t ElementBits(const ConstPlane& src, pto_dtype t, size_t r, size_t c) {
  if (t == PTO_FLOAT32) return static_cast<const uint32_t*>(src.data)[r * src.stride + c];
  return static_cast<const uint16_t*>(src.data)[r * src.stride + c];
}

// The key a block's maximum is taken over, for one element: its magnitude's
// bits in the dtype the maximum is kept in (FLOAT32, BFLOAT16, or FLOAT16
// for float16 under NV; float16 under OCP narrowed to bfloat16 toward zero,
// as A5 reduces it), which order as the magnitudes do; `nan` when a NaN.
uint32_t MaxKey(const MxQuantSpec& s, uint32_t bits, bool* nan) {
  if (s.src == PTO_FLOAT32) {
    const uint32_t a = bits & 0x7FFFFFFFu;
    *nan = a > 0x7F800000u;
    return a;
  }
  if (s.src == PTO_BFLOAT16 || s.nv) {
    const uint32_t a = bits & 0x7FFFu;
    *nan = s.src == PTO_BFLOAT16 ? a > 0x7F80u : a > 0x7C00u;
    return a;
  }
  const uint32_t a = bits & 0x7FFFu;
  *nan = a > 0x7C00u;
  return F16ToF32Bits(a) >> 16;  // toward zero; infinity stays 0x7F80
}

// A max key as a float32's bits.
uint32_t KeyAsF32(const MxQuantSpec& s, uint32_t key) {
  if (s.src == PTO_FLOAT32) return key;
  if (s.src == PTO_FLOAT16 && s.nv) return F16ToF32Bits(key);
  return key << 16;
}

// 2^k (-127 <= k <= 127) as FLOAT32 bits, and as BFLOAT16 bits.
uint32_t Pow2F32(int k) { return k >= -126 ? static_cast<uint32_t>(k + 127) << 23 : 0x00400000u; }
uint32_t Pow2Bf16(int k) { return k >= -126 ? static_cast<uint32_t>(k + 127) << 7 : 0x0040u; }

struct Block {
  bool nan;
  uint32_t e8m0;
  uint32_t max_key;
};

// The shared exponent of a block whose maximum is `max_f32` (float32 bits):
// OCP the maximum's exponent less the format's largest (8 for E4M3, 2 for
// E2M1), at least 0; NV the exponent of max / 448 (or / 6) rounded up.
uint32_t SharedExponent(const MxQuantSpec& s, uint32_t max_f32) {
  if (!s.nv) {
    const uint32_t e = (max_f32 >> 23) & 0xFFu, emax = s.fp4 ? 2u : 8u;
    return (e < emax ? emax : e) - emax;
  }
  const float descale = F32FromBits(max_f32) * (s.fp4 ? 1.0f / 6.0f : 1.0f / 448.0f);
  const uint32_t d = F32Bits(descale), e = (d >> 23) & 0xFFu, m = d & 0x7FFFFFu;
  if (e == 0xFFu) return 0xFEu;  // infinity (NaN is the caller's)
  const bool up = m != 0 && (e > 0 ? e < 0xFEu : m > 0x400000u);
  return e + (up ? 1u : 0u);
}

void WriteAux(const MxQuantSpec& s, const Block& b, size_t r, size_t c) {
  static_cast<uint8_t*>(s.exp.data)[r * s.exp.stride + c] =
      static_cast<uint8_t>(b.nan ? 0xFFu : b.e8m0);
  const int k = 127 - static_cast<int>(b.e8m0);
  if (s.src == PTO_FLOAT32) {
    if (s.max.data != nullptr)
      static_cast<uint32_t*>(s.max.data)[r * s.max.stride + c] = b.nan ? kF32QuietNaN : b.max_key;
    if (s.scaling.data != nullptr)
      static_cast<uint32_t*>(s.scaling.data)[r * s.scaling.stride + c] =
          b.nan ? kF32QuietNaN : Pow2F32(k);
    return;
  }
  // BFLOAT16 and FLOAT16: the maximum in the dtype it was taken in, the
  // scale as a bfloat16 (A5 keeps float16's in bfloat16 bits too).
  const uint32_t max_nan = s.src == PTO_FLOAT16 && s.nv ? 0x7E00u : 0x7FC0u;
  if (s.max.data != nullptr)
    static_cast<uint16_t*>(s.max.data)[r * s.max.stride + c] =
        static_cast<uint16_t>(b.nan ? max_nan : b.max_key);
  if (s.scaling.data != nullptr)
    static_cast<uint16_t*>(s.scaling.data)[r * s.scaling.stride + c] =
        static_cast<uint16_t>(b.nan ? (s.fp4 ? 0x7FC0u : 0x7F81u) : Pow2Bf16(k));
}

// One element's code: src * 2^(127 - e8m0), rounded to nearest even and
// saturated; a NaN block gives NaN (E4M3: the element's sign where it is
// the NaN, else positive) and E2M1, which has none, its largest positive.
uint32_t ElementCode(const MxQuantSpec& s, const Block& b, uint32_t bits) {
  tcvt::Value v = tcvt::Decode(s.src, bits);
  if (b.nan) {
    if (s.fp4) return 0x7u;
    return (v.nan && v.negative) ? 0xFFu : 0x7Fu;
  }
  const pto_dtype fmt = s.fp4 ? PTO_FLOAT4_E2M1X2 : PTO_FLOAT8_E4M3;
  if (!v.inf && v.mantissa != 0) v.exponent += 127 - static_cast<int>(b.e8m0);
  return tcvt::EncodeMini(fmt, v, PTO_ROUND_RINT, true);
}

void WriteCode(const MxQuantSpec& s, size_t r, size_t c, uint32_t code) {
  uint8_t* row = static_cast<uint8_t*>(s.dst.data) + r * s.dst.stride;
  if (!s.fp4) {
    row[c] = static_cast<uint8_t>(code);
    return;
  }
  uint8_t& byte = row[c / 2];
  byte = (c % 2 == 0) ? static_cast<uint8_t>((byte & 0xF0u) | code)
                      : static_cast<uint8_t>((byte & 0x0Fu) | (code << 4));
}

}  // namespace

void QuantizeMx(const MxQuantSpec& s) {
  // ND: block (r, g) is row r's columns 32g.. ; DN: block (g, c) is column
  // c's rows 32g.. ; a last block short of 32 takes the valid ones.
  const size_t blocks_r = s.dn ? (s.rows + 31) / 32 : s.rows;
  const size_t blocks_c = s.dn ? s.cols : (s.cols + 31) / 32;
  for (size_t br = 0; br < blocks_r; ++br) {
    for (size_t bc = 0; bc < blocks_c; ++bc) {
      const size_t r0 = s.dn ? br * 32 : br, c0 = s.dn ? bc : bc * 32;
      const size_t r1 = s.dn ? (r0 + 32 < s.rows ? r0 + 32 : s.rows) : r0 + 1;
      const size_t c1 = s.dn ? c0 + 1 : (c0 + 32 < s.cols ? c0 + 32 : s.cols);
      Block b{false, 0, 0};
      for (size_t r = r0; r < r1; ++r)
        for (size_t c = c0; c < c1; ++c) {
          bool nan = false;
          const uint32_t key = MaxKey(s, ElementBits(s.src_plane, s.src, r, c), &nan);
          b.nan = b.nan || nan;
          if (key > b.max_key) b.max_key = key;
        }
      if (!b.nan) b.e8m0 = SharedExponent(s, KeyAsF32(s, b.max_key));
      WriteAux(s, b, br, bc);
      for (size_t r = r0; r < r1; ++r)
        for (size_t c = c0; c < c1; ++c)
          WriteCode(s, r, c, ElementCode(s, b, ElementBits(s.src_plane, s.src, r, c)));
    }
  }
}

}  // namespace kernels
}  // namespace pto
