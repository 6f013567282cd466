// Correctly rounded pow for single lanes: the accurate path behind the
// vector HIGH_PRECISION kernels (pow-log2exp2-inl.h), which send it the rare
// lanes whose fast double result is too close to a rounding boundary to be
// rounded safely, and the whole computation of the one-lane SCALAR target.
// Compiled once (no SIMD), so every target rounds those lanes identically.
#ifndef PTO_KERNELS_POW_ACCURATE_H_
#define PTO_KERNELS_POW_ACCURATE_H_

namespace pto {
namespace pow_accurate {

// A binary floating-point format that results are rounded to: precision
// significant bits (the leading one included), kEmin the exponent of the
// smallest normal number and kEmax of the largest finite one. Subnormal
// results are rounded on the format's subnormal grid.
struct Format {
  int precision;
  int emin;
  int emax;
};
constexpr Format kFloat32 = {24, -126, 127};
constexpr Format kFloat16 = {11, -14, 15};
constexpr Format kBFloat16 = {8, -126, 127};

// |x|^y for finite nonzero x (normal or subnormal) and finite y, rounded to
// nearest (ties to even) in fmt; +0 and +inf where the result underflows or
// overflows. The result is a float that fmt represents exactly.
float PowMagnitude(float x, float y, const Format& fmt);

// pow(x, y) for every input with the C99 Annex F special cases (see
// pow-special-inl.h), the finite results rounded correctly to fmt.
float Pow(float x, float y, const Format& fmt);

}  // namespace pow_accurate
}  // namespace pto

#endif  // PTO_KERNELS_POW_ACCURATE_H_
