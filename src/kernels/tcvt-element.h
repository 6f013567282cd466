// tcvt's exact element converter: every supported (src, dst) pair of one
// element by the integer arithmetic of tcvt-value.h, the definition the
// vector paths of tcvt.cc keep; it also converts the pairs without a vector
// path and the tail of each row. Plain C++, not compiled per SIMD target.
#ifndef PTO_KERNELS_TCVT_ELEMENT_H_
#define PTO_KERNELS_TCVT_ELEMENT_H_

#include <stddef.h>
#include <stdint.h>

#include "src/kernels/kernels.h"
#include "src/kernels/lowp-encode.h"
#include "src/kernels/tcvt-value.h"

namespace pto {
namespace kernels {
namespace tcvt {

inline uint32_t EncodeFloat(pto_dtype t, const Value& v, pto_round_mode mode, bool saturate) {
  const FloatFormat f = FormatOf(t);
  const int p = f.frac_bits;
  const uint32_t exp_mask = (1u << f.exp_bits) - 1;
  const int bias = static_cast<int>(exp_mask >> 1);
  const uint32_t sign = static_cast<uint32_t>(v.negative) << (p + f.exp_bits);
  const uint32_t inf = sign | (exp_mask << p);
  if (v.nan) return inf | (1u << (p - 1)) | (v.payload >> (32 - p));
  if (v.inf) return inf;
  if (v.mantissa == 0) return sign;
  const int top = BitLength(v.mantissa) - 1 + v.exponent;  // the value's exponent
  const int emin = 1 - bias;
  int quantum = (top > emin ? top : emin) - p;  // exponent of dst's last bit there
  uint64_t m = RoundShift(v.mantissa, quantum - v.exponent, v.negative, mode);
  if (m == (uint64_t{1} << (p + 1))) m >>= 1, ++quantum;
  if (m >= (uint64_t{1} << p)) {
    const int biased = quantum + p + bias;
    if (biased >= static_cast<int>(exp_mask)) {
      return OverflowsToInfinity(mode, v.negative) && !saturate ? inf : inf - 1;
    }
    return sign | (static_cast<uint32_t>(biased) << p) | static_cast<uint32_t>(m - (uint64_t{1} << p));
  }
  return sign | static_cast<uint32_t>(m);  // subnormal (or zero)
}

// The value rounded to an integer by the mode, in dst's range by `overflow`
// (the result zero-extended). In 128 bits: an integer source's 64-bit
// magnitude and a float's beyond 2^64 both fit.
inline uint64_t EncodeInt(pto_dtype t, const Value& v, pto_round_mode mode,
                          IntOverflow overflow) {
  using Wide = __int128;
  const int n = IntBits(t);
  const uint64_t mask = n == 64 ? ~uint64_t{0} : (uint64_t{1} << n) - 1;
  const Wide lo = IsSigned(t) ? -(Wide{1} << (n - 1)) : 0;
  const Wide hi = IsSigned(t) ? (Wide{1} << (n - 1)) - 1 : (Wide{1} << n) - 1;
  constexpr Wide kInt32Min = -(Wide{1} << 31), kInt32Max = (Wide{1} << 31) - 1;
  if (v.nan) return 0;
  // |value| >= 2^70 (infinities too): beyond every range, its sign's bound.
  const bool huge = v.inf || (v.mantissa != 0 && BitLength(v.mantissa) + v.exponent > 70);
  Wide x;
  if (huge) {
    x = v.negative ? -(Wide{1} << 70) : Wide{1} << 70;
  } else {
    const Wide m = v.exponent >= 0 ? Wide{v.mantissa} << v.exponent
                                   : Wide{RoundShift(v.mantissa, -v.exponent, v.negative, mode)};
    x = v.negative ? -m : m;
  }
  if (x >= lo && x <= hi) return static_cast<uint64_t>(x) & mask;
  switch (overflow) {
    case IntOverflow::kWrap: return static_cast<uint64_t>(x) & mask;
    case IntOverflow::kInt32ThenWrap:
      return static_cast<uint64_t>(x < kInt32Min ? kInt32Min : x > kInt32Max ? kInt32Max : x) &
             mask;
    default: return static_cast<uint64_t>(x < lo ? lo : hi) & mask;
  }
}

inline uint64_t Element(const ConvertSpec& spec, uint64_t bits) {
  Value v = Decode(spec.src, bits);
  if (spec.dst == PTO_HIFLOAT8) return EncodeHiF8(v, spec.round, spec.saturate_float);
  if (IsLowPrecisionDtype(spec.dst) && spec.dst != PTO_INT4X2)
    return EncodeMini(spec.dst, v, spec.round, spec.saturate_float);
  if (!IsFloat(spec.dst)) return EncodeInt(spec.dst, v, spec.round, spec.int_overflow);
  if (spec.dst == spec.src && !v.nan && !v.inf && v.exponent < 0) {
    // FLOAT32 -> FLOAT32 rounds to an integral value (zeros keep the sign).
    v.mantissa = RoundShift(v.mantissa, -v.exponent, v.negative, spec.round);
    v.exponent = 0;
  }
  return EncodeFloat(spec.dst, v, spec.round, spec.saturate_float);
}

inline uint64_t Load(size_t size, const void* p, size_t i) {
  switch (size) {
    case 1: return static_cast<const uint8_t*>(p)[i];
    case 2: return static_cast<const uint16_t*>(p)[i];
    case 8: return static_cast<const uint64_t*>(p)[i];
    default: return static_cast<const uint32_t*>(p)[i];
  }
}
inline void Store(size_t size, void* p, size_t i, uint64_t bits) {
  switch (size) {
    case 1: static_cast<uint8_t*>(p)[i] = static_cast<uint8_t>(bits); break;
    case 2: static_cast<uint16_t*>(p)[i] = static_cast<uint16_t>(bits); break;
    case 8: static_cast<uint64_t*>(p)[i] = bits; break;
    default: static_cast<uint32_t*>(p)[i] = static_cast<uint32_t>(bits); break;
  }
}

// Value i of a packed row (two 4-bit values a byte, the first low).
inline uint64_t LoadNibble(const void* p, size_t i) {
  return (static_cast<const uint8_t*>(p)[i >> 1] >> (4 * (i & 1))) & 0xFu;
}
inline void StoreNibble(void* p, size_t i, uint64_t bits) {
  uint8_t* byte = static_cast<uint8_t*>(p) + (i >> 1);
  const unsigned shift = 4 * (i & 1);
  *byte = static_cast<uint8_t>((*byte & ~(0xFu << shift)) | ((bits & 0xFu) << shift));
}

// Values [0, n) of one row with a packed side, one at a time.
inline void PackedRange(const ConvertSpec& spec, size_t n, void* dst, const void* src) {
  const bool packed_src = IsPackedDtype(spec.src);
  const size_t in_size = ElementBytes(spec.src), out_size = ElementBytes(spec.dst);
  for (size_t i = 0; i < n; ++i) {
    const uint64_t in = packed_src ? LoadNibble(src, i) : Load(in_size, src, i);
    const uint64_t out = Element(spec, in);
    if (IsPackedDtype(spec.dst)) StoreNibble(dst, i, out);
    else Store(out_size, dst, i, out);
  }
}

// Elements [begin, end) of one row, one at a time.
inline void ElementRange(const ConvertSpec& spec, size_t begin, size_t end, void* dst,
                         const void* src) {
  const size_t in_size = ElementBytes(spec.src), out_size = ElementBytes(spec.dst);
  for (size_t i = begin; i < end; ++i)
    Store(out_size, dst, i, Element(spec, Load(in_size, src, i)));
}

}  // namespace tcvt
}  // namespace kernels
}  // namespace pto
#endif  // PTO_KERNELS_TCVT_ELEMENT_H_
