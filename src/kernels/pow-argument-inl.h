// The f32 argument x of pow as both fast paths (pow-log2exp2-inl.h,
// pow-default-inl.h) take it: whether it is a positive normal number, and
// its split |x| = 2^k z for the log2 reduction.
//
// Re-included once per target by foreach_target.h, hence the toggle guard.
#if defined(PTO_KERNELS_POW_ARGUMENT_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef PTO_KERNELS_POW_ARGUMENT_INL_H_
#undef PTO_KERNELS_POW_ARGUMENT_INL_H_
#else
#define PTO_KERNELS_POW_ARGUMENT_INL_H_
#endif

#include <stdint.h>

#include "hwy/highway.h"
#include "src/kernels/simd-inl.h"

HWY_BEFORE_NAMESPACE();
namespace pto {
namespace HWY_NAMESPACE {

// The bits of |x|.
template <class DF>
HWY_INLINE hn::Vec<hn::RebindToUnsigned<DF>> AbsBits(DF df, hn::Vec<DF> x) {
  const hn::RebindToUnsigned<DF> du;
  (void)df;
  return hn::And(hn::BitCast(du, x), hn::Set(du, 0x7FFFFFFFu));
}

// x > 0 and normal: x's bits + 0x7F800000 wrap, as int32, to
// [INT32_MIN, -2^24 - 1] exactly for positive normal x (zero and positive
// subnormals land above INT32_MAX - 2^23, infinity and NaN in
// [-2^24, -2^23 - 1], negative x in [-2^23, INT32_MAX - 2^23]).
template <class DF>
HWY_INLINE hn::Mask<DF> IsPositiveNormal(DF df, hn::Vec<DF> x) {
  const hn::RebindToUnsigned<DF> du;
  const hn::RebindToSigned<DF> di;
  const auto wrapped = hn::BitCast(di, hn::Add(hn::BitCast(du, x), hn::Set(du, 0x7F800000u)));
  return hn::RebindMask(df, hn::Lt(wrapped, hn::Set(di, -0x1000000)));
}

// |x| = 2^k z for the bits xb of a positive normal f32 x, with z in
// [m, 2 m), m the f32 whose bits are kOffset (m in [0.5, 1)): tmp = xb -
// kOffset, k = tmp >> 23 (arithmetic) and z = xb - (tmp & 0xFF800000) as
// f32 bits. Returns tmp, whose low 23 bits are z's offset from m in f32
// bit patterns: its top bits pick the table bucket of the reduction.
template <uint32_t kOffset, class DF>
HWY_INLINE hn::Vec<hn::RebindToUnsigned<DF>> SplitLog2Argument(DF df,
                                                               hn::Vec<hn::RebindToUnsigned<DF>> xb,
                                                               hn::Vec<DF>* z,
                                                               hn::Vec<hn::RebindToSigned<DF>>* k) {
  const hn::RebindToUnsigned<DF> du;
  const hn::RebindToSigned<DF> di;
  const auto tmp = hn::Sub(xb, hn::Set(du, kOffset));
  *k = hn::ShiftRight<23>(hn::BitCast(di, tmp));
  *z = hn::BitCast(df, hn::Sub(xb, hn::And(tmp, hn::Set(du, 0xFF800000u))));
  return tmp;
}

}  // namespace HWY_NAMESPACE
}  // namespace pto
HWY_AFTER_NAMESPACE();

#endif  // PTO_KERNELS_POW_ARGUMENT_INL_H_
