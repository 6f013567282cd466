// Multiply-adds rounded once, the same bits on every target: ExactMulAdd
// (float32 fma(a, b, c)) and MulAddToOdd (a b + c rounded to odd in float32,
// for a result that a narrower type rounds next: float16's taxpy).
//
// The one target-specific piece is PTO_FUSED_MULADD: Highway's MulAdd rounds
// once on x86 from AVX2 on (FMA3) and on aarch64's NEON and SVE; SSSE3, SSE4,
// EMU128 and SCALAR multiply and add with two roundings, so there ExactMulAdd
// computes the same result in double (FusedMulAddInDouble, its portable twin,
// which every test of these kernels runs on those targets).
//
// Re-included once per target by foreach_target.h, hence the toggle guard.
#if defined(PTO_KERNELS_FUSED_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef PTO_KERNELS_FUSED_INL_H_
#undef PTO_KERNELS_FUSED_INL_H_
#else
#define PTO_KERNELS_FUSED_INL_H_
#endif

#include <stdint.h>
#include <string.h>

#include "hwy/highway.h"
#include "src/kernels/simd-inl.h"

HWY_BEFORE_NAMESPACE();
namespace pto {
namespace HWY_NAMESPACE {

#undef PTO_FUSED_MULADD
#if (HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX2) || \
    (HWY_ARCH_ARM_A64 && HWY_TARGET != HWY_EMU128 && HWY_TARGET != HWY_SCALAR)
#define PTO_FUSED_MULADD 1
#else
#define PTO_FUSED_MULADD 0
#endif

// fma(a, b, c) rounded once to float, in double: a*b is exact there (48
// significant bits), the sum s = a*b + c is rounded to nearest and its error
// (TwoSum, exact) tells on which side the exact sum lies; s made odd toward
// it is the sum rounded to odd, which rounds to float (24 bits, 53 >= 24 + 2)
// exactly as the exact sum does. NaN and infinities come from s itself.
HWY_INLINE float FusedMulAddInDouble(float a, float b, float c) {
  const double p = static_cast<double>(a) * static_cast<double>(b);
  const double cd = static_cast<double>(c);
  double s = p + cd;
  const double bv = s - p;
  const double err = (p - (s - bv)) + (cd - bv);
  if (err != 0 && err == err) {
    uint64_t bits;
    memcpy(&bits, &s, sizeof bits);
    if ((bits & 1) == 0) {
      // Away from zero when the exact sum is, toward it otherwise.
      bits += ((err > 0) == (s > 0)) ? 1 : static_cast<uint64_t>(-1);
      memcpy(&s, &bits, sizeof bits);
    }
  }
  return static_cast<float>(s);
}

// fma(a, b, c) on float lanes, rounded once.
template <class D>
HWY_INLINE hn::Vec<D> ExactMulAdd(D d, hn::Vec<D> a, hn::Vec<D> b, hn::Vec<D> c) {
#if PTO_FUSED_MULADD
  (void)d;
  return hn::MulAdd(a, b, c);
#else
  constexpr size_t kMax = HWY_MAX_BYTES / sizeof(float);
  HWY_ALIGN float pa[kMax], pb[kMax], pc[kMax];
  hn::Store(a, d, pa);
  hn::Store(b, d, pb);
  hn::Store(c, d, pc);
  for (size_t i = 0; i < hn::Lanes(d); ++i) pc[i] = FusedMulAddInDouble(pa[i], pb[i], pc[i]);
  return hn::Load(d, pc);
#endif
}

// a b + c rounded to odd in float32, where the product a b is exact in
// float32 (a and b float16 values: 11 x 11 significant bits, exponents far
// inside float32's range). s = a b + c rounded to nearest and its error e
// (TwoSum: exact, without an fma); where e != 0 and s is even, s moves one
// unit toward the exact sum. A float16 (11 bits, 24 >= 11 + 2) rounded from
// the result is the exact sum rounded once. Infinite and NaN sums, whose e
// is NaN, are left as they are.
template <class D>
HWY_INLINE hn::Vec<D> MulAddToOdd(D d, hn::Vec<D> a, hn::Vec<D> b, hn::Vec<D> c) {
  const hn::RebindToUnsigned<D> du;
  const hn::Vec<D> p = hn::Mul(a, b);
  const hn::Vec<D> s = hn::Add(p, c);
  const hn::Vec<D> bv = hn::Sub(s, p);
  const hn::Vec<D> err = hn::Add(hn::Sub(p, hn::Sub(s, bv)), hn::Sub(c, bv));
  const hn::Vec<D> zero = hn::Zero(d);
  const auto bits = hn::BitCast(du, s);
  const auto one = hn::Set(du, 1u);
  const auto even = hn::RebindMask(d, hn::Eq(hn::And(bits, one), hn::Zero(du)));
  const auto inexact = hn::And(hn::Ne(err, zero), hn::Eq(err, err));
  // Away from zero (+1 on the magnitude's bits) when the error has the
  // sum's sign, toward zero (-1) otherwise.
  const auto away = hn::Not(hn::Xor(hn::Gt(err, zero), hn::Gt(s, zero)));
  const auto step = hn::IfThenElse(hn::RebindMask(du, away), one, hn::Set(du, ~0u));
  const auto moved = hn::Add(bits, step);
  return hn::BitCast(d, hn::IfThenElse(hn::RebindMask(du, hn::And(even, inexact)), moved, bits));
}

}  // namespace HWY_NAMESPACE
}  // namespace pto
HWY_AFTER_NAMESPACE();

#endif  // PTO_KERNELS_FUSED_INL_H_
