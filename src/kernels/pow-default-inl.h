// DEFAULT pow in f32 lanes, for targets with FMA: f32 lanes only, with exact
// FMA splits. 16 table buckets for log2 (r exact, |r| <= 0.0333, tail
// polynomial of degree 4), t = y * log2|x| carried as an unevaluated sum of
// f32 terms, 2^f on |f| <= 0.5 by a degree-6 polynomial and the exponent
// added to the bits. It covers |y log2 x| <= 125 with x positive normal
// (DefaultInRange); pow-float-inl.h sends the other lanes elsewhere. The
// exact splits need each product rounded on its own: the kernels are
// compiled with -ffp-contract=off.
//
// Re-included once per target by foreach_target.h, hence the toggle guard.
#if defined(PTO_KERNELS_POW_DEFAULT_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef PTO_KERNELS_POW_DEFAULT_INL_H_
#undef PTO_KERNELS_POW_DEFAULT_INL_H_
#else
#define PTO_KERNELS_POW_DEFAULT_INL_H_
#endif

#include "hwy/highway.h"
#include "src/kernels/polynomial-inl.h"
#include "src/kernels/pow-argument-inl.h"
#include "src/kernels/portable-inl.h"
#include "src/kernels/pow-tables.h"
#include "src/kernels/simd-inl.h"

HWY_BEFORE_NAMESPACE();
namespace pto {
namespace HWY_NAMESPACE {

#if HWY_TARGET != HWY_SCALAR && HWY_NATIVE_FMA

// |x|^y for x > 0 normal and |y log2 x| <= 125:
//   |x| = 2^k z, bucket i (top four bits of z's offset mantissa):
//   log2|x| = A + kC1Hi r + r M(r) + kLogCLoF[i], A = k + kLogCHiF[i] exact.
//   t = y log2|x| is carried as the unevaluated sum
//   a_hi + b_hi + p_hi M + (a_lo + b_lo + p_lo kC1Hi + y kLogCLoF) with
//   a = y A, p = y r and b = kC1Hi p_hi split exactly by FMA; n = round(t)
//   and f = t - n come out with |f| <= 0.5 + 2^-16 and an absolute error of
//   a few 2^-25 for |t| <= 125, so 2^t = 2^n E(f).
// xb: the bits of x > 0 (the fast path passes x's own bits, so a negative x
// gives garbage there, and leaves the fast path by its sign); *s_out: ~t.
template <class DF>
HWY_INLINE hn::Vec<DF> PowDefaultCore(DF df, hn::Vec<hn::RebindToUnsigned<DF>> xb, hn::Vec<DF> y,
                                      hn::Vec<DF>* s_out) {
  namespace tab = pow_tables;
  const hn::RebindToUnsigned<DF> du;

  hn::Vec<DF> z;
  hn::Vec<hn::RebindToSigned<DF>> k_int;
  const auto tmp = SplitLog2Argument<tab::kLogOffF>(df, xb, &z, &k_int);
  const auto k = hn::ConvertTo(df, k_int);
  const auto idx = hn::ShiftRight<19>(tmp);
  const auto invc = Lookup16(df, tab::kInvCF, idx);
  const auto logc_hi = Lookup16(df, tab::kLogCHiF, idx);
  const auto logc_lo = Lookup16(df, tab::kLogCLoF, idx);

  // Each product below is rounded on its own (no contraction, see the top).
  const auto r = hn::MulAdd(z, invc, hn::Set(df, -1.0f));  // exact
  const auto a = hn::Add(k, logc_hi);                      // exact
  const auto a_hi = hn::Mul(y, a);
  const auto a_lo = hn::MulSub(y, a, a_hi);
  const auto p_hi = hn::Mul(y, r);
  const auto p_lo = hn::MulSub(y, r, p_hi);
  const auto c1 = hn::Set(df, tab::kC1Hi);
  const auto b_hi = hn::Mul(c1, p_hi);
  const auto b_lo = hn::MulSub(c1, p_hi, b_hi);
  const auto m = Horner(df, r, tab::kLogTailF);

  const auto s = hn::MulAdd(p_hi, m, hn::Add(a_hi, b_hi));  // ~t, picks n
  const auto shifter = hn::Set(df, 0x1.8p23f);
  const auto s_shifted = hn::Add(s, shifter);
  const auto n = hn::Sub(s_shifted, shifter);
  auto lo = hn::Add(a_lo, b_lo);
  lo = hn::MulAdd(p_lo, c1, lo);
  lo = hn::MulAdd(y, logc_lo, lo);
  const auto u = hn::Add(hn::Sub(a_hi, n), b_hi);  // exact where it matters
  const auto f = hn::Add(hn::MulAdd(p_hi, m, u), lo);
  const auto e = Horner(df, f, tab::kExp2F);
  *s_out = s;
  return hn::BitCast(df, hn::Add(hn::BitCast(du, e), hn::ShiftLeft<23>(hn::BitCast(du, s_shifted))));
}

// Lanes inside the DEFAULT fast path's range: |s| <= 125, compared as
// integer bits, so NaN counts as out of range (and with it infinite or NaN y).
template <class DF>
HWY_INLINE hn::Mask<DF> DefaultInRange(DF df, hn::Vec<DF> s) {
  const hn::RebindToSigned<DF> di;
  const auto as = hn::And(hn::BitCast(di, s), hn::Set(di, 0x7FFFFFFF));
  return hn::RebindMask(df, hn::Lt(as, hn::Set(di, 0x42FA0001)));  // 125.0f
}

#endif  // HWY_TARGET != HWY_SCALAR && HWY_NATIVE_FMA

}  // namespace HWY_NAMESPACE
}  // namespace pto
HWY_AFTER_NAMESPACE();

#endif  // PTO_KERNELS_POW_DEFAULT_INL_H_
