// The low-precision encoders (lowp-encode.h): FP8 E4M3FN and E5M2, FP4 E2M1
// and E1M2, HiFloat8, each rounded once by the mode with integer arithmetic
// on the value (tcvt-value.h), their overflow and special values as
// pto-isa's encodings give them.
#include "src/kernels/lowp-encode.h"

namespace pto {
namespace kernels {
namespace tcvt {

namespace {

// The value beyond the largest finite: infinity where the format has one and
// the mode overflows to it (OverflowsToInfinity) without saturation, else
// the largest finite, or E4M3FN's NaN where it has no infinity to give.
enum class Overflow { kLargest, kInfinity, kNaN };
inline Overflow OverflowOf(bool has_inf, bool has_nan, pto_round_mode mode, bool negative,
                           bool saturate) {
  if (saturate || !OverflowsToInfinity(mode, negative)) return Overflow::kLargest;
  return has_inf ? Overflow::kInfinity : has_nan ? Overflow::kNaN : Overflow::kLargest;
}

}  // namespace

// FP8 E4M3FN and E5M2, FP4 E2M1 and E1M2 (lowp::MiniFormat): rounded once by
// the mode. An infinity stays one in E5M2; without one, it is the largest
// finite under saturation (and in FP4, which has no NaN either), else
// E4M3FN's NaN. FP4 has no NaN: tcvt's check refuses one before this runs.
uint32_t EncodeMini(pto_dtype t, const Value& v, pto_round_mode mode, bool saturate) {
  const lowp::MiniFormat f = lowp::MiniFormatOf(t);
  const int p = f.frac_bits;
  const uint32_t sign = static_cast<uint32_t>(v.negative) << (p + f.exp_bits);
  const uint32_t exp_all = (1u << f.exp_bits) - 1;
  const uint32_t inf_mag = exp_all << p;                        // E5M2
  const uint32_t nan_mag = f.single_nan ? (inf_mag | ((1u << p) - 1)) : (inf_mag | (1u << (p - 1)));
  const uint32_t max_mag = f.ieee_specials ? inf_mag - 1 : f.single_nan ? nan_mag - 1 : inf_mag | ((1u << p) - 1);
  const bool has_inf = f.ieee_specials, has_nan = f.ieee_specials || f.single_nan;
  if (v.nan) return has_nan ? sign | nan_mag : sign;
  if (v.inf) {
    if (has_inf) return sign | inf_mag;
    return sign | (saturate || !has_nan ? max_mag : nan_mag);
  }
  if (v.mantissa == 0) return sign;
  const int top = BitLength(v.mantissa) - 1 + v.exponent;
  const int emin = 1 - f.bias;
  // Far above the range: the exponent below would not fit; it overflows.
  if (top > (1 << f.exp_bits) + 1) {
    const Overflow o = OverflowOf(has_inf, has_nan, mode, v.negative, saturate);
    return sign | (o == Overflow::kLargest ? max_mag : o == Overflow::kInfinity ? inf_mag : nan_mag);
  }
  int quantum = (top > emin ? top : emin) - p;
  uint64_t m = RoundShift(v.mantissa, quantum - v.exponent, v.negative, mode);
  if (m == (uint64_t{1} << (p + 1))) m >>= 1, ++quantum;
  uint32_t mag = static_cast<uint32_t>(m);  // subnormal (or zero)
  if (m >= (uint64_t{1} << p)) {
    const int biased = quantum + p + f.bias;
    mag = biased > static_cast<int>(exp_all)
              ? max_mag + 1  // beyond every code: overflow below
              : (static_cast<uint32_t>(biased) << p) | static_cast<uint32_t>(m - (uint64_t{1} << p));
  }
  if (mag > max_mag) {
    const Overflow o = OverflowOf(has_inf, has_nan, mode, v.negative, saturate);
    return sign | (o == Overflow::kLargest ? max_mag : o == Overflow::kInfinity ? inf_mag : nan_mag);
  }
  return sign | mag;
}

// HiFloat8's mantissa bits at exponent e (|e| <= 15): 3 up to |e| = 3, 2 up
// to 7, 1 up to 15; none below -15 (its 2^(m - 23) codes).
inline int HiF8MantissaBits(int e) {
  const int a = e < 0 ? -e : e;
  return e < -15 ? 0 : a <= 3 ? 3 : a <= 7 ? 2 : 1;
}

// The code of r * 2^q, a HiFloat8 value in (0, 2^15] (its magnitude).
inline uint32_t HiF8Code(uint64_t r, int q) {
  const int e = BitLength(r) - 1 + q;
  if (e < -15) return static_cast<uint32_t>(e + 23);  // 2^e, e in -22..-16
  const int man_bits = HiF8MantissaBits(e);
  // r's bits below its top: man_bits of them once trailing zeros are dropped
  // (a carry leaves r = 2^(bits + 1)).
  const int extra = (e - q) - man_bits;
  const uint64_t m = extra >= 0 ? r >> extra : r << -extra;
  const uint32_t frac = static_cast<uint32_t>(m) - (1u << man_bits);
  const uint32_t neg = e < 0 ? 1u : 0u;
  const uint32_t a = static_cast<uint32_t>(e < 0 ? -e : e);
  if (e == 0) return 0x08u | frac;
  if (a == 1) return 0x10u | (neg << 3) | frac;
  if (a <= 3) return 0x20u | (neg << 4) | ((a & 1u) << 3) | frac;
  if (a <= 7) return 0x40u | (neg << 4) | ((a & 3u) << 2) | frac;
  return 0x60u | (neg << 4) | ((a & 7u) << 1) | frac;
}

// HiFloat8, rounded once by the mode at the value's precision (its tapered
// mantissa); RINT's tie goes to the even code (below 2^-15, where the codes
// are powers of two, to the one whose code is even). No -0: a zero result
// is 0x00. Infinity stays infinity; beyond 2^15 overflows (OverflowOf).
uint32_t EncodeHiF8(const Value& v, pto_round_mode mode, bool saturate) {
  const uint32_t sign = v.negative ? 0x80u : 0u;
  if (v.nan) return 0x80u;
  if (v.inf) return sign | 0x6Fu;
  if (v.mantissa == 0) return 0;
  const int top = BitLength(v.mantissa) - 1 + v.exponent;
  const Overflow o = OverflowOf(true, true, mode, v.negative, saturate);
  const uint32_t overflow = sign | (o == Overflow::kLargest ? 0x6Eu : 0x6Fu);
  if (top > 15) return overflow;
  const int q = top < -22 ? -22 : top - HiF8MantissaBits(top);  // the last bit's exponent
  const int shift = q - v.exponent;
  uint64_t r;
  if (mode == PTO_ROUND_RINT && top < -15 && shift > 0) {
    // kept is 0 or 1 (units of 2^q): a tie goes to the even code, 0x00's
    // below 2^-22, else that of 2^q (code q + 23) or of 2^(q+1) (q + 24).
    const uint64_t kept = shift >= 64 ? 0 : v.mantissa >> shift;
    const uint64_t rest = shift >= 64 ? v.mantissa : v.mantissa - (kept << shift);
    const uint64_t half = shift > 64 ? ~uint64_t{0} : uint64_t{1} << (shift - 1);
    const bool up = rest > half || (rest == half && shift <= 64 && kept == 1 && ((q + 23) & 1) != 0);
    r = kept + (up ? 1 : 0);
  } else {
    r = RoundShift(v.mantissa, shift, v.negative, mode);
  }
  if (r == 0) return 0;
  // r * 2^q > 2^15: beyond the largest finite.
  if (BitLength(r) - 1 + q > 15 || (BitLength(r) - 1 + q == 15 && (r & (r - 1)) != 0))
    return overflow;
  return sign | HiF8Code(r, q);
}

}  // namespace tcvt
}  // namespace kernels
}  // namespace pto
