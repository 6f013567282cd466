// DEFAULT pow in f32 lanes, for targets with FMA: f32 lanes only, with exact
// FMA splits. 16 table buckets for log2 (r exact, |r| <= 0.0333, tail
// polynomial of degree 4), or 8 where EightBuckets (pow-tuning-inl.h: on
// AVX2), t = y * log2|x| carried as an unevaluated sum of f32 terms, 2^f on
// |f| <= 0.5 by a degree-6 polynomial and the exponent added to the bits.
// It covers |y log2 x| <= 125 with x positive normal (DefaultInRange);
// pow-float-inl.h sends the other lanes elsewhere. The exact splits need
// each product rounded on its own: the kernels are compiled with
// -ffp-contract=off.
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
#include "src/kernels/pow-tuning-inl.h"
#include "src/kernels/simd-inl.h"

HWY_BEFORE_NAMESPACE();
namespace pto {
namespace HWY_NAMESPACE {

#if HWY_TARGET != HWY_SCALAR && HWY_NATIVE_FMA

// RoundShifted(s) = s + kRoundShifter holds round(s) in its low mantissa
// bits (|s| < 2^22).
constexpr float kRoundShifter = 0x1.8p23f;

template <class DF>
HWY_INLINE hn::Vec<DF> RoundShifted(DF df, hn::Vec<DF> s) {
  return hn::Add(s, hn::Set(df, kRoundShifter));
}

template <bool kEight, class DF, size_t kN8, size_t kN16>
HWY_INLINE hn::Vec<DF> LookupBucket(DF df, const float (&table8)[kN8], const float (&table16)[kN16],
                                    hn::Vec<hn::RebindToUnsigned<DF>> idx) {
  if constexpr (kEight) {
    return Lookup8(df, table8, idx);
  } else {
    return Lookup16(df, table16, idx);
  }
}

// |x|^y for x > 0 normal and |y log2 x| <= 125:
//   |x| = 2^k z, bucket i (top four bits of z's offset mantissa; three
//   with 8 buckets):
//   log2|x| = A + kC1Hi r + r M(r) + kLogCLoF[i], A = k + kLogCHiF[i] exact.
//   t = y log2|x| is carried as the unevaluated sum
//   a_hi + b_hi + p_hi M + (a_lo + b_lo + p_lo kC1Hi + y kLogCLoF) with
//   a = y A, p = y r and b = kC1Hi p_hi split exactly by FMA; n = round(t)
//   and f = t - n come out with |f| <= 0.5 + 2^-16 and an absolute error of
//   a few 2^-25 for |t| <= 125, so 2^t = 2^n E(f). With 8 buckets,
//   r M(r) = -r^2/2 + r M8(r) and the sum has -(q_hi + q_lo)/2 besides,
//   q = p_hi r split exactly.
// 8 buckets (EightBuckets, pow-tuning-inl.h) make |r| twice as large, and so
// the tail term of t (y r M(r), about -0.72 y r^2): carrying its -y r^2/2
// apart leaves the rounding of what remains about a third of the 16-bucket
// table's (pow-tables.h), and M8 of degree 5 keeps its fit by Estrin's
// scheme, whose chain is shorter than Horner's rule's. The rest of the
// term, -p_lo r/2, below 2^-25 |q|, is left out: one more operation makes
// GCC spill more of the values of a step's two vectors.
// xb: the bits of x > 0 (the fast path passes x's own bits, so a negative x
// gives garbage there, and leaves the fast path by its sign); *s_out: ~t.
// In two steps, PowDefaultReduce (f, and s, from which n comes) and
// PowDefaultScale (2^n E(f)), so that a row may run them in two passes.
template <class DF>
HWY_INLINE hn::Vec<DF> PowDefaultReduce(DF df, hn::Vec<hn::RebindToUnsigned<DF>> xb, hn::Vec<DF> y,
                                        hn::Vec<DF>* s_out) {
  namespace tab = pow_tables;

  constexpr bool kEight = EightBuckets();

  hn::Vec<DF> z;
  hn::Vec<hn::RebindToSigned<DF>> k_int;
  const auto tmp = SplitLog2Argument<kEight ? tab::kLogOffF8 : tab::kLogOffF>(df, xb, &z, &k_int);
  const auto k = hn::ConvertTo(df, k_int);
  const auto idx = hn::ShiftRight<kEight ? 20 : 19>(tmp);
  const auto invc = LookupBucket<kEight>(df, tab::kInvCF8, tab::kInvCF, idx);
  const auto logc_hi = LookupBucket<kEight>(df, tab::kLogCHiF8, tab::kLogCHiF, idx);
  const auto logc_lo = LookupBucket<kEight>(df, tab::kLogCLoF8, tab::kLogCLoF, idx);

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
  const auto m = kEight ? Estrin(df, r, tab::kLogTailF8) : Horner(df, r, tab::kLogTailF);
  // 8 buckets: log2(1 + r) = kC1Hi r - r^2/2 + r M8(r), and -y r^2/2 =
  // -(q_hi + q_lo)/2 with q = p_hi r split exactly (the rest, -p_lo r/2,
  // is below 2^-25 |q|); halving is exact. (16 buckets: unused.)
  const auto q_hi = hn::Mul(p_hi, r);
  const auto q_lo = hn::MulSub(p_hi, r, q_hi);
  const auto minus_half = hn::Set(df, -0.5f);

  auto s = hn::MulAdd(p_hi, m, hn::Add(a_hi, b_hi));  // ~t, picks n
  if constexpr (kEight) s = hn::MulAdd(q_hi, minus_half, s);
  const auto n = hn::Sub(RoundShifted(df, s), hn::Set(df, kRoundShifter));
  auto lo = hn::Add(a_lo, b_lo);
  lo = hn::MulAdd(p_lo, c1, lo);
  lo = hn::MulAdd(y, logc_lo, lo);
  auto u = hn::Add(hn::Sub(a_hi, n), b_hi);  // exact where it matters
  if constexpr (kEight) {
    lo = hn::MulAdd(q_lo, minus_half, lo);
    u = hn::MulAdd(q_hi, minus_half, u);  // exact where it matters
  }
  *s_out = s;
  return hn::Add(hn::MulAdd(p_hi, m, u), lo);
}

// 2^n E(f), n = round(s) as PowDefaultReduce picked it; E by Pairs where
// DefaultExp2ByPairs (pow-tuning-inl.h), else by Horner's rule.
template <class DF>
HWY_INLINE hn::Vec<DF> PowDefaultScale(DF df, hn::Vec<DF> f, hn::Vec<DF> s) {
  const hn::RebindToUnsigned<DF> du;
  const auto s_shifted = RoundShifted(df, s);
  const auto e =
      DefaultExp2ByPairs() ? Pairs(df, f, pow_tables::kExp2F) : Horner(df, f, pow_tables::kExp2F);
  return hn::BitCast(df,
                     hn::Add(hn::BitCast(du, e), hn::ShiftLeft<23>(hn::BitCast(du, s_shifted))));
}

template <class DF>
HWY_INLINE hn::Vec<DF> PowDefaultCore(DF df, hn::Vec<hn::RebindToUnsigned<DF>> xb, hn::Vec<DF> y,
                                      hn::Vec<DF>* s_out) {
  const auto f = PowDefaultReduce(df, xb, y, s_out);
  return PowDefaultScale(df, f, *s_out);
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
