// Floating-point pow, |x|^y = 2^(y * log2|x|), in f32 lanes (FLOAT16 and
// BFLOAT16 are widened to f32 by LoadAs and rounded back once by StoreAs):
// which lanes take which algorithm, and the row driver. The pieces:
//   - pow-log2exp2-inl.h: the double-lane algorithm (HIGH_PRECISION, and
//     DEFAULT on targets without FMA) with HIGH_PRECISION's rounding test;
//     lanes the test leaves undecided go to pow-accurate.cc;
//   - pow-default-inl.h: DEFAULT in f32 lanes (targets with FMA);
//   - pow-special-inl.h: the sign of negative bases and the Annex F cases;
//   - pow-argument-inl.h, polynomial-inl.h: what the two algorithms share;
//   - x86-inl.h and portable-inl.h: building blocks, in x86 and portable
//     versions; constants in pow-tables.h;
//   - pow-tuning-inl.h: the tuning choices made by target (polynomial
//     schemes, vectors per step, DEFAULT's table size), with their reasons.
//
// Both fast paths (PowFast) cover lanes whose x are positive normal: for
// DEFAULT, y finite and |y log2 x| <= 125; for HIGH_PRECISION, results
// safely rounded (where y is infinite or NaN, that is +inf or a lane sent
// on, see HighDone). A vector with some other lane goes through PowFinish:
// lane by lane, negative bases whose magnitude the fast path computed get
// their sign, and the rest runs PowGeneral (f32 subnormal x scaled to
// normal, the double-lane algorithm correctly rounded with the accurate
// path, then the sign and the Annex F special cases: zeros, infinities,
// NaN, y = 0, x = 1). So a lane's result does not depend on its neighbours.
// The one-lane SCALAR target runs the accurate path for HIGH_PRECISION.
// Rows of at least kPowBlock elements run in passes over blocks, for the
// same bits: HIGH_PRECISION in three (PowHighBlocks: log2, exp2, rounding),
// DEFAULT on targets with FMA in two (PowDefaultBlocks).
//
// Re-included once per target by foreach_target.h, hence the toggle guard.
#if defined(PTO_KERNELS_POW_FLOAT_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef PTO_KERNELS_POW_FLOAT_INL_H_
#undef PTO_KERNELS_POW_FLOAT_INL_H_
#else
#define PTO_KERNELS_POW_FLOAT_INL_H_
#endif

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include <type_traits>

#include "hwy/highway.h"
#include "src/kernels/pow-accurate.h"
#include "src/kernels/pow-argument-inl.h"
#include "src/kernels/pow-default-inl.h"
#include "src/kernels/pow-log2exp2-inl.h"
#include "src/kernels/portable-inl.h"
#include "src/kernels/pow-special-inl.h"
#include "src/kernels/pow-tuning-inl.h"
#include "src/kernels/simd-inl.h"

HWY_BEFORE_NAMESPACE();
namespace pto {
namespace HWY_NAMESPACE {

#if HWY_TARGET != HWY_SCALAR

// pow(x, y) on f32 lanes for every input, the magnitude by Log2Exp2 (kHigh:
// correctly rounded to T's format, through the accurate path where the
// rounding test fails).
template <bool kHigh, typename T, class DF>
HWY_INLINE hn::Vec<DF> PowGeneral(DF df, hn::Vec<DF> x, hn::Vec<DF> y) {
  const hn::RebindToUnsigned<DF> du;
  const hn::RebindToSigned<DF> di;
  const auto axb = AbsBits(df, x);
  // Subnormal x: scaled by 2^23 to a normal f32 (exactly), its exponent
  // adjusted back.
  const auto subnormal = hn::RebindMask(df, hn::Lt(axb, hn::Set(du, 0x00800000u)));
  const auto ax = hn::BitCast(df, axb);
  const auto ax_normal = hn::IfThenElse(subnormal, hn::Mul(ax, hn::Set(df, 0x1p23f)), ax);
  const auto k_adjust = hn::IfThenElseZero(hn::RebindMask(di, subnormal), hn::Set(di, -23));
  auto mag = Log2Exp2<kHigh, T, false>(df, hn::BitCast(du, ax_normal), y, k_adjust);

  hn::Vec<decltype(di)> y_int32;
  const auto y_integer = IsIntegerExponent(df, y, &y_int32);
  const auto y_odd = IsOddExponent(df, y_integer, y_int32);

  // x zero, infinite or NaN; y infinite or NaN.
  const auto axb_i = hn::BitCast(di, axb);
  const auto ayb_i = hn::And(hn::BitCast(di, y), hn::Set(di, 0x7FFFFFFF));
  const auto x_special =
      hn::Or(hn::Eq(axb_i, hn::Zero(di)), hn::Gt(axb_i, hn::Set(di, 0x7F7FFFFF)));
  const auto y_special = hn::Gt(ayb_i, hn::Set(di, 0x7F7FFFFF));
  const auto special = hn::RebindMask(df, hn::Or(x_special, y_special));
  if constexpr (kHigh) {
    // Lanes the rounding test left undecided, unless their result is a
    // special case or NaN (a negative base with a non-integer exponent).
    const auto x_neg = hn::RebindMask(df, hn::Lt(hn::BitCast(di, x), hn::Zero(di)));
    const auto nan_result = hn::AndNot(y_integer, x_neg);
    const auto hard = hn::Not(hn::Or(hn::Or(special, nan_result), RoundedLanes<T>(df, mag)));
    if (HWY_UNLIKELY(!hn::AllFalse(df, hard))) mag = PatchHardLanes<T>(df, x, y, mag, hard);
  }
  auto result = ApplyBaseSign(df, x, mag, y_integer, y_odd);
  if (HWY_UNLIKELY(!hn::AllFalse(df, special))) {
    result = hn::IfThenElse(special, PowSpecial(df, x, y, y_odd), result);
  }
  return result;
}

// HIGH_PRECISION lanes whose fast magnitude mag is the result's magnitude
// when |x| is positive normal: y finite and mag safely rounded.
template <typename T, class DF>
HWY_INLINE hn::Mask<DF> HighMagnitudeOk(DF df, hn::Vec<DF> y, hn::Vec<DF> mag) {
  const hn::RebindToUnsigned<DF> du;
  const hn::RebindToSigned<DF> di;
  const auto ayb = hn::And(hn::BitCast(du, y), hn::Set(du, 0x7FFFFFFFu));
  const auto y_finite = hn::RebindMask(df, hn::Lt(hn::BitCast(di, ayb), hn::Set(di, 0x7F800000)));
  return hn::And(RoundedLanes<T>(df, mag), y_finite);
}

// The lanes where HIGH_PRECISION's fast result mag is pow(x, y): x positive
// normal and mag safely rounded, whatever y. Where y is infinite or NaN, t =
// y log2 x is infinite or NaN (NaN for x = 1), which ClampExponent turns
// into 200 or -200 (NaN into -200): 2^200 becomes +inf, which is pow(x, y)
// wherever t is +inf (x > 1 and y = +inf, x < 1 and y = -inf), and 2^-200
// becomes 0, which RoundedLanes leaves to PowFinish. So y is not read, and
// PowHighBlocks' third pass does not load it.
template <typename T, class DF>
HWY_INLINE hn::Mask<DF> HighDone(DF df, hn::Vec<DF> x, hn::Vec<DF> mag) {
  return hn::And(RoundedLanes<T>(df, mag), IsPositiveNormal(df, x));
}

#if HWY_NATIVE_FMA
template <class DF>
HWY_INLINE hn::Mask<DF> DefaultDone(DF df, hn::Vec<DF> x, hn::Vec<DF> s) {
  return hn::And(DefaultInRange(df, s), IsPositiveNormal(df, x));
}
#endif

// The fast path for one vector: |x|^y in the lanes that *done marks (x
// positive normal, y finite, and see HighMagnitudeOk and DefaultInRange).
// kLowHalf: see Log2Exp2.
template <bool kHigh, typename T, bool kLowHalf, class DF>
HWY_INLINE hn::Vec<DF> PowFast(DF df, hn::Vec<DF> x, hn::Vec<DF> y, hn::Mask<DF>* done) {
  const hn::RebindToUnsigned<DF> du;
  const hn::RebindToSigned<DF> di;
  if constexpr (kHigh) {
    const auto mag = Log2Exp2<true, T, kLowHalf>(df, AbsBits(df, x), y, hn::Zero(di));
    *done = HighDone<T>(df, x, mag);
    return mag;
  } else {
#if HWY_NATIVE_FMA
    hn::Vec<DF> s;
    const auto mag = PowDefaultCore(df, hn::BitCast(du, x), y, &s);
    *done = DefaultDone(df, x, s);
    return mag;
#else
    // Without FMA, the double-lane algorithm with its shorter polynomials,
    // for every lane.
    *done = AllLanes(df);
    return PowGeneral<false, T>(df, x, y);
#endif
  }
}

// A vector in which some lane left the fast path, mag the fast path's
// magnitude: lanes where it is |x|^y for a positive normal |x| keep it,
// with the base's sign, and the others run the general path
// (HIGH_PRECISION: correctly rounded to T's format, for DEFAULT too).
template <bool kHigh, typename T, class DF>
HWY_NOINLINE hn::Vec<DF> PowFinish(DF df, hn::Vec<DF> x, hn::Vec<DF> y, hn::Vec<DF> mag) {
  hn::Mask<DF> mag_ok;
  if constexpr (kHigh) {
    mag_ok = HighMagnitudeOk<T>(df, y, mag);
  } else {
#if HWY_NATIVE_FMA
    // The fast path ran on x's own bits; a negative base needs |x|'s.
    hn::Vec<DF> s;
    mag = PowDefaultCore(df, AbsBits(df, x), y, &s);
    mag_ok = DefaultInRange(df, s);
#else
    return mag;  // PowFast's general path: every lane done
#endif
  }
  const auto fast = hn::And(IsPositiveNormal(df, hn::Abs(x)), mag_ok);
  hn::Vec<hn::RebindToSigned<DF>> y_int32;
  const auto y_integer = IsIntegerExponent(df, y, &y_int32);
  const auto signed_mag =
      ApplyBaseSign(df, x, mag, y_integer, IsOddExponent(df, y_integer, y_int32));
  if (hn::AllTrue(df, fast)) return signed_mag;
  return hn::IfThenElse(fast, signed_mag,
                        PowGeneral<true, std::conditional_t<kHigh, T, float>>(df, x, y));
}

// PowFast's result mag where every lane is done, else PowFinish's.
template <bool kHigh, typename T, class DF>
HWY_INLINE hn::Vec<DF> FastOrFinish(DF df, hn::Vec<DF> x, hn::Vec<DF> y, hn::Vec<DF> mag,
                                    hn::Mask<DF> done) {
  if (HWY_LIKELY(hn::AllTrue(df, done))) return mag;
  return PowFinish<kHigh, T>(df, x, y, mag);
}

// pow on f32 lanes for storage type T: HIGH_PRECISION is correctly rounded
// to T's format; DEFAULT FLOAT16/BFLOAT16 results are within 1 of their ulp
// from the DEFAULT f32 result (a few f32 ulp).
template <bool kHigh, typename T, bool kLowHalf = false, class DF>
HWY_INLINE hn::Vec<DF> PowInF32Lanes(DF df, hn::Vec<DF> x, hn::Vec<DF> y) {
  hn::Mask<DF> done;
  const auto mag = PowFast<kHigh, T, kLowHalf>(df, x, y, &done);
  return FastOrFinish<kHigh, T>(df, x, y, mag, done);
}

// PowTwoVectors: out[0, 2 Lanes(df)) = pb ^ pe, both vectors loaded and
// computed before any branch (TwoVectorsPerStep, pow-tuning-inl.h), then
// each tested and stored on its own: a store that waits for one test of
// both vectors' lanes is slower. Written out, not over arrays: SVE vectors
// and masks are sizeless and cannot be array elements.
template <bool kHigh, typename T, class DF>
HWY_INLINE void PowTwoVectors(DF df, const T* pb, const T* pe, T* out) {
  const size_t n = hn::Lanes(df);
  const auto x0 = LoadAs(df, pb);
  const auto y0 = LoadAs(df, pe);
  const auto x1 = LoadAs(df, pb + n);
  const auto y1 = LoadAs(df, pe + n);
  hn::Mask<DF> done0, done1;
  const auto mag0 = PowFast<kHigh, T, false>(df, x0, y0, &done0);
  const auto mag1 = PowFast<kHigh, T, false>(df, x1, y1, &done1);
  StoreAs(df, FastOrFinish<kHigh, T>(df, x0, y0, mag0, done0), out);
  StoreAs(df, FastOrFinish<kHigh, T>(df, x1, y1, mag1, done1), out + n);
}

// Elements per block of the pass loops (PowHighBlocks, PowDefaultBlocks),
// whose buffers are on the stack; half or twice as many run about as fast.
constexpr size_t kPowBlock = 256;

// The elements of a block: the most whole steps of `step` elements that fit
// in kPowBlock (all of it where vectors are a power of two long; SVE allows
// other lengths).
HWY_INLINE size_t PowBlockOf(size_t step) { return kPowBlock / step * step; }

// Whether a row is computed in place: out the same storage as base or
// exponent (pto_c.h refuses any other overlap between them). The passes over
// blocks then finish each vector before its store (FastOrFinish), as the
// sources are overwritten; otherwise they store the fast results at once
// and finish a block with a lane not done afterwards (PowFinishBlock),
// with no call in their loops (a call clobbers every vector register, and
// GCC then rebuilds constant broadcasts every step).
template <typename T>
HWY_INLINE bool PowInPlace(const T* out, const T* pb, const T* pe) {
  return out == pb || out == pe;
}

// Stores the fast result mag of the vector x, y (its done mask: done):
// kFinishEach (in place), finished by FastOrFinish; else as it is, done
// gathered into *all_done.
template <bool kHigh, bool kFinishEach, typename T, class D>
HWY_INLINE void StoreFastResult(D d, hn::Vec<D> x, const T* y, hn::Vec<D> mag, hn::Mask<D> done,
                                hn::Mask<D>* all_done, T* out) {
  if constexpr (kFinishEach) {
    StoreAs(d, FastOrFinish<kHigh, T>(d, x, LoadAs(d, y), mag, done), out);
  } else {
    *all_done = hn::And(*all_done, done);
    StoreAs(d, mag, out);
  }
}

// The vectors of a block (not in place) whose stored fast results PowFinish
// must complete: those with a lane not done (HIGH_PRECISION: HighDone of x
// and the stored result; DEFAULT: DefaultDone of x and s, PowDefaultReduce's
// buffer, and PowFinish recomputes the magnitude). A narrow T's stored
// result widens to the f32 magnitude's rounding, which HighDone and
// PowFinish treat as they would the magnitude (a zeroed lane stays 0; at
// worst a lane that underflows in T runs the general path, whose result is
// the same correctly rounded one).
template <bool kHigh, typename T, class D>
HWY_NOINLINE void PowFinishBlock(D d, size_t block, T* out, const T* pb, const T* pe,
                                 const float* s) {
  (void)s;
  const size_t n = hn::Lanes(d);
  for (size_t j = 0; j < block; j += n) {
    const auto x = LoadAs(d, pb + j);
    const auto mag = LoadAs(d, out + j);
    auto done = AllLanes(d);
    if constexpr (kHigh) {
      done = HighDone<T>(d, x, mag);
    } else {
#if HWY_NATIVE_FMA
      done = DefaultDone(d, x, hn::Load(d, s + j));
#endif
    }
    if (!hn::AllTrue(d, done))
      StoreAs(d, PowFinish<kHigh, T>(d, x, LoadAs(d, pe + j), mag), out + j);
  }
}

// PowHighBlocks' third pass over one block, 2^t in t: whether every lane is
// done (kFinishEach: see StoreFastResult).
template <bool kFinishEach, typename T, class D>
HWY_INLINE bool PowHighRoundPass(D d, size_t block, const double* t, T* out, const T* pb,
                                 const T* pe) {
  const hn::Rebind<double, hn::Half<D>> dd;
  const size_t n = hn::Lanes(d);
  const size_t nh = hn::Lanes(dd);
  auto all_done = AllLanes(d);
  for (size_t j = 0; j < block; j += 2 * n) {
    const auto mag0 = RoundedPairToF32<T>(d, hn::Load(dd, t + j), hn::Load(dd, t + j + nh));
    const auto mag1 =
        RoundedPairToF32<T>(d, hn::Load(dd, t + j + 2 * nh), hn::Load(dd, t + j + 3 * nh));
    const auto x0 = LoadAs(d, pb + j);
    const auto x1 = LoadAs(d, pb + j + n);
    StoreFastResult<true, kFinishEach>(d, x0, pe + j, mag0, HighDone<T>(d, x0, mag0), &all_done,
                                       out + j);
    StoreFastResult<true, kFinishEach>(d, x1, pe + j + n, mag1, HighDone<T>(d, x1, mag1), &all_done,
                                       out + j + n);
  }
  return hn::AllTrue(d, all_done);
}

// HIGH_PRECISION in blocks of kPowBlock elements, in three passes over each
// block, each a loop of its own through a buffer t on the stack:
//   1. t = y log2|x| in double lanes. y is loaded as halves (LoadHalvesAs):
//      on x86, float32 converts each half to double from memory, with no
//      extract or insert; where ReadYLate (pow-tuning-inl.h), y is read
//      after log2|x| rather than converted at the top of the loop and
//      spilled;
//   2. 2^t in double lanes: Exp2Reduce's r and scale, then scale Q(r)
//      (Exp2Scaled, Q by the kBlockPass scheme), stored over t;
//   3. 2^t rounded to f32 (the rounding test and the conversion,
//      RoundedPairToF32), HighDone from x loaded again, and the stores
//      (PowHighRoundPass, StoreFastResult; not in place, a block with a
//      lane not done is finished afterwards by PowFinishBlock, and the loop
//      has no call).
// The same operations as PowInF32Lanes, so the same bits. A step of the
// one-pass loop is one long dependency chain (TwoVectorsPerStep), and the
// out-of-order window holds too little of the next steps to hide it; each
// pass's chain is a fraction of that, and its steps overlap. The cuts between the passes
// are where they run fastest: 2^t's reduction and Q(r) in one pass rather
// than two; the rounding test and the conversion in pass 3, which loads
// the doubles, rather than at the end of pass 2, whose chain is shorter
// for it; log2 in one pass rather than two. Moving more work between passes
// does not pay (the scale's multiply into pass 3, t's multiply by y into
// pass 2, the clamp into pass 1), nor do two double vectors a step in pass
// 2. Rows shorter than a block keep the one-pass loop. Returns the number
// of elements done (a multiple of the block).
template <typename T>
HWY_INLINE size_t PowHighBlocks(size_t cols, T* out, const T* pb, const T* pe) {
  const ComputeTag<T> d;
  const hn::RebindToSigned<decltype(d)> di;
  const hn::Half<decltype(d)> dh;
  const hn::Rebind<double, decltype(dh)> dd;
  const size_t n = hn::Lanes(d);
  const size_t nh = hn::Lanes(dd);
  HWY_ALIGN double t[kPowBlock];
  const size_t block = PowBlockOf(2 * n);
  const bool in_place = PowInPlace(out, pb, pe);
  size_t i = 0;
  for (; i + block <= cols; i += block) {
    for (size_t j = 0; j < block; j += 2 * n) {
      hn::Vec<decltype(dd)> l0, l1, l2, l3;
      Log2Halves<true, false>(d, AbsBits(d, LoadAs(d, pb + i + j)), hn::Zero(di), &l0, &l1);
      Log2Halves<true, false>(d, AbsBits(d, LoadAs(d, pb + i + j + n)), hn::Zero(di), &l2, &l3);
      // Where ReadYLate, y is read only here, for its multiply.
      if constexpr (ReadYLate()) LoadsBelowThis();
      hn::Vec<hn::Half<decltype(d)>> y0_lo, y0_hi, y1_lo, y1_hi;
      LoadHalvesAs(d, pe + i + j, &y0_lo, &y0_hi);
      LoadHalvesAs(d, pe + i + j + n, &y1_lo, &y1_hi);
      hn::Store(YTimesLog2(dd, y0_lo, l0), dd, t + j);
      hn::Store(YTimesLog2(dd, y0_hi, l1), dd, t + j + nh);
      hn::Store(YTimesLog2(dd, y1_lo, l2), dd, t + j + 2 * nh);
      hn::Store(YTimesLog2(dd, y1_hi, l3), dd, t + j + 3 * nh);
    }
    for (size_t j = 0; j < block; j += 2 * n) {
      hn::Vec<decltype(dd)> s0, s1, s2, s3;
      const auto r0 = Exp2Reduce(dd, hn::Load(dd, t + j), &s0);
      const auto r1 = Exp2Reduce(dd, hn::Load(dd, t + j + nh), &s1);
      const auto r2 = Exp2Reduce(dd, hn::Load(dd, t + j + 2 * nh), &s2);
      const auto r3 = Exp2Reduce(dd, hn::Load(dd, t + j + 3 * nh), &s3);
      hn::Store(Exp2Scaled<PolyUse::kBlockPass>(dd, r0, s0), dd, t + j);
      hn::Store(Exp2Scaled<PolyUse::kBlockPass>(dd, r1, s1), dd, t + j + nh);
      hn::Store(Exp2Scaled<PolyUse::kBlockPass>(dd, r2, s2), dd, t + j + 2 * nh);
      hn::Store(Exp2Scaled<PolyUse::kBlockPass>(dd, r3, s3), dd, t + j + 3 * nh);
    }
    const bool done = in_place ? PowHighRoundPass<true>(d, block, t, out + i, pb + i, pe + i)
                               : PowHighRoundPass<false>(d, block, t, out + i, pb + i, pe + i);
    if (HWY_UNLIKELY(!done)) PowFinishBlock<true>(d, block, out + i, pb + i, pe + i, nullptr);
  }
  return i;
}

#if HWY_NATIVE_FMA
// PowDefaultBlocks' second pass over one block, from PowDefaultReduce's f
// and s: whether every lane is done (kFinishEach: see StoreFastResult).
template <bool kFinishEach, typename T, class D>
HWY_INLINE bool PowDefaultScalePass(D d, size_t block, const float* f, const float* s, T* out,
                                    const T* pb, const T* pe) {
  const size_t n = hn::Lanes(d);
  auto all_done = AllLanes(d);
  for (size_t j = 0; j < block; j += n) {
    const auto sj = hn::Load(d, s + j);
    const auto x = LoadAs(d, pb + j);
    StoreFastResult<false, kFinishEach>(d, x, pe + j, PowDefaultScale(d, hn::Load(d, f + j), sj),
                                        DefaultDone(d, x, sj), &all_done, out + j);
  }
  return hn::AllTrue(d, all_done);
}

// DEFAULT in blocks of kPowBlock elements, in two passes over each block:
// PowDefaultReduce's f and s into buffers on the stack, then
// PowDefaultScale, the checks and the stores (PowDefaultScalePass, with no
// call in the loop, as in PowHighBlocks). The same operations as
// PowInF32Lanes, so the same bits; each pass's chain is a part of the
// one-pass loop's (about 66 cycles from x to the result on AVX-512), and
// its steps overlap. Returns the number of elements done (a multiple of the
// block).
template <typename T>
HWY_INLINE size_t PowDefaultBlocks(size_t cols, T* out, const T* pb, const T* pe) {
  const ComputeTag<T> d;
  const hn::RebindToUnsigned<decltype(d)> du;
  const size_t n = hn::Lanes(d);
  HWY_ALIGN float f[kPowBlock];
  HWY_ALIGN float s[kPowBlock];
  const size_t block = PowBlockOf(n);
  const bool in_place = PowInPlace(out, pb, pe);
  size_t i = 0;
  for (; i + block <= cols; i += block) {
    for (size_t j = 0; j < block; j += n) {
      hn::Vec<decltype(d)> sj;
      const auto fj =
          PowDefaultReduce(d, hn::BitCast(du, LoadAs(d, pb + i + j)), LoadAs(d, pe + i + j), &sj);
      hn::Store(fj, d, f + j);
      hn::Store(sj, d, s + j);
    }
    const bool done = in_place
                          ? PowDefaultScalePass<true>(d, block, f, s, out + i, pb + i, pe + i)
                          : PowDefaultScalePass<false>(d, block, f, s, out + i, pb + i, pe + i);
    if (HWY_UNLIKELY(!done)) PowFinishBlock<false>(d, block, out + i, pb + i, pe + i, s);
  }
  return i;
}
#endif  // HWY_NATIVE_FMA

#else  // HWY_TARGET == HWY_SCALAR

// The one-lane fallback: HIGH_PRECISION by the accurate path (the same
// correctly rounded results as every other target), DEFAULT by the C
// library's pow in double, rounded once.
template <bool kHigh, typename T, bool kLowHalf = false, class DF>
HWY_INLINE hn::Vec<DF> PowInF32Lanes(DF df, hn::Vec<DF> x, hn::Vec<DF> y) {
  if constexpr (kHigh) {
    return hn::Set(df, pow_accurate::Pow(hn::GetLane(x), hn::GetLane(y), FormatOf<T>()));
  } else {
    const hn::Rebind<double, DF> dd;
    return DemoteToF32(dd, hn::Set(dd, pow(static_cast<double>(hn::GetLane(x)),
                                           static_cast<double>(hn::GetLane(y)))));
  }
}

#endif  // HWY_TARGET != HWY_SCALAR

// The last rest < Lanes(d) elements of a row.
template <bool kHigh, typename T, class D>
HWY_INLINE void PowRowTail(D d, size_t rest, T* out, const T* pb, const T* pe) {
  const auto x = LoadTail(d, pb, rest);
  const auto y = LoadTail(d, pe, rest);
  // HIGH_PRECISION computes in two double vectors; a short tail (a 1x1
  // tile) needs only the first.
  if (kHigh && rest <= hn::Lanes(d) / 2) {
    StoreTail(d, PowInF32Lanes<kHigh, T, true>(d, x, y), out, rest);
  } else {
    StoreTail(d, PowInF32Lanes<kHigh, T>(d, x, y), out, rest);
  }
}

// out[i] = pb[i] ^ pe[i] for i < cols, of storage type T.
template <typename T, bool kHigh>
HWY_INLINE void PowFloatRow(size_t cols, T* out, const T* pb, const T* pe) {
  const ComputeTag<T> d;
  const size_t n = hn::Lanes(d);
  size_t i = 0;
#if HWY_TARGET != HWY_SCALAR
  if constexpr (kHigh) i = PowHighBlocks(cols, out, pb, pe);
#if HWY_NATIVE_FMA
  if constexpr (!kHigh) i = PowDefaultBlocks(cols, out, pb, pe);
#endif
  if constexpr (TwoVectorsPerStep<kHigh>()) {
    for (; i + 2 * n <= cols; i += 2 * n) PowTwoVectors<kHigh>(d, pb + i, pe + i, out + i);
  }
#endif
  for (; i + n <= cols; i += n) {
    StoreAs(d, PowInF32Lanes<kHigh, T>(d, LoadAs(d, pb + i), LoadAs(d, pe + i)), out + i);
  }
  if (i < cols) PowRowTail<kHigh>(d, cols - i, out + i, pb + i, pe + i);
}

// dst = base ^ exp over a region of storage type T.
template <typename T, bool kHigh>
void PowFloatRows(size_t rows, size_t cols, void* dst, size_t dst_stride, const void* base,
                  size_t base_stride, const void* exp, size_t exp_stride) {
  for (size_t r = 0; r < rows; ++r) {
    PowFloatRow<T, kHigh>(cols, static_cast<T*>(dst) + r * dst_stride,
                          static_cast<const T*>(base) + r * base_stride,
                          static_cast<const T*>(exp) + r * exp_stride);
  }
}

}  // namespace HWY_NAMESPACE
}  // namespace pto
HWY_AFTER_NAMESPACE();

#endif  // PTO_KERNELS_POW_FLOAT_INL_H_
