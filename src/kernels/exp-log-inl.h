// TEXP and TLOG: e^x and ln x correctly rounded (to nearest, ties to even)
// in the storage type, FLOAT32, FLOAT16 and BFLOAT16, with the special cases
// of C99 Annex F, the same bits on every target.
//
// Each lane is computed in double from its float value by a short method
// whose relative error is bounded below (ExpInDouble: 2^-42.5, LogInDouble:
// 2^-43), then rounded once to float. That rounding is the correct one
// unless a rounding boundary of the storage format lies within the error of
// the double; MarkUnsafe tests the double's low bits for that (as pow's
// HIGH_PRECISION does) and marks such lanes with a NaN, and the few marked
// lanes (about 1 in 2^16 for FLOAT32, 2^13 for FLOAT16, 2^16 for
// BFLOAT16) are recomputed one at a time by the accurate path (ExpAccurate,
// LogAccurate: double-double, relative error below 2^-97, rounded by
// RoundToFormat). Results below the normal range (exp of x in [-104,
// -87.34] for FLOAT32) are tested on their own, coarser grid.
//   The methods are as short as that error allows: sixteen-entry tables,
// which AVX-512 reads by one register permute (Lookup16F64, x86-inl.h; a
// gather elsewhere), and Taylor polynomials of degree 5 (exp) and 8 (log).
// tests/test_exp_log.c's long suite compares every float32 input with MPFR.
//
// A FLOAT16 or BFLOAT16 result is rounded to float and then to the storage
// type, which would round twice; the test keeps the double far enough from
// the narrow type's boundaries that the float lies on the same side (three
// float16 inputs, exp(0x1.de4p-8) among them, would otherwise round wrong),
// so the rounding depends on the storage type: the functors' Tag carries it
// (StorageLanes), and ForEachElementwise below passes it on.
//
// The accurate path (exp-log-accurate-inl.h) computes the same bits on
// every target too. Whichever lanes a target sends there, both paths give
// the correctly rounded result, hence the same bits.
//
// Re-included once per target by foreach_target.h, hence the toggle guard.
#if defined(PTO_KERNELS_EXP_LOG_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef PTO_KERNELS_EXP_LOG_INL_H_
#undef PTO_KERNELS_EXP_LOG_INL_H_
#else
#define PTO_KERNELS_EXP_LOG_INL_H_
#endif

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "hwy/highway.h"
#include "src/kernels/exp-log-accurate-inl.h"
#include "src/kernels/polynomial-inl.h"
#include "src/kernels/portable-inl.h"
#include "src/kernels/simd-inl.h"

HWY_BEFORE_NAMESPACE();
namespace pto {
namespace HWY_NAMESPACE {
namespace exp_log {

// 2^(j/16) for j < 16, correctly rounded to double, as bits less j << 48:
// adding k << 48 for k = 16 n + j gives the bits of 2^n 2^(j/16) (the low
// four bits of k cancel j, the rest land in the exponent field).
alignas(64) constexpr uint64_t kExp2Bits[16] = {
    0x3ff0000000000000u, 0x3fefb5586cf9890fu, 0x3fef72b83c7d517bu, 0x3fef387a6e756238u,
    0x3fef06fe0a31b715u, 0x3feedea64c123422u, 0x3feebfdad5362a27u, 0x3feeab07dd485429u,
    0x3feea09e667f3bcdu, 0x3feea11473eb0187u, 0x3feeace5422aa0dbu, 0x3feec49182a3f090u,
    0x3feee89f995ad3adu, 0x3fef199bdd85529cu, 0x3fef5818dcfba487u, 0x3fefa4afa2a490dau,
};

// ln x = k ln 2 + ln c + ln(z / c) with x = 2^k z, z in [kLogOff, 2 kLogOff)
// as float bits (z in [0.703125, 1.40625)): bucket i of z holds the z whose
// bits, less kLogOff's, have i in bits 19-22. kInvC[i] is 1/c for c the
// bucket's midpoint, rounded to 29 significant bits, so that z * kInvC[i]
// (24 times 29 bits) is exact in double; kLogC[i] = -ln(kInvC[i]) correctly
// rounded. Bucket 9 holds 1.0 (z in [0.984375, 1.03125)) and takes c = 1
// exactly: ln 1 = 0 and r = z - 1 lose nothing near x = 1. |r| = |z kInvC[i]
// - 1| <= 2^-5 in bucket 9 (r in [-2^-6, 2^-5)), below 0.0295 in the others.
constexpr uint32_t kLogOff = 0x3f340000u;
alignas(64) constexpr double kInvC[16] = {
    0x1.642c859p+0, 0x1.5555555p+0, 0x1.47ae148p+0, 0x1.3b13b14p+0,
    0x1.2f684bep+0, 0x1.2492492p+0, 0x1.1a7b961p+0, 0x1.1111111p+0,
    0x1.0842108p+0, 0x1p+0,         0x1.e1e1e1ep-1, 0x1.c71c71cp-1,
    0x1.af286bdp-1, 0x1.999999ap-1, 0x1.8618618p-1, 0x1.745d174p-1,
};
alignas(64) constexpr double kLogC[16] = {
    -0x1.522ae0718a3d8p-2, -0x1.269621034db92p-2, -0x1.f991c6eb3b379p-3, -0x1.a93ed3e8ad9e3p-3,
    -0x1.5bf406dd43db2p-3, -0x1.1178e8027e47cp-3, -0x1.9335e5bd94989p-4, -0x1.08598b49e3a07p-4,
    -0x1.0415d81e74444p-5, 0x0p+0,                0x1.f0a30c21162a6p-5,  0x1.e2707722af2e6p-4,
    0x1.5ff306ee793d4p-3,  0x1.c8ff7c59a9a22p-3,  0x1.1675cacaba60ep-2,  0x1.4618bc31c5ec2p-2,
};

// ---- the rounding test ----

// Lanes whose low kLow bits lie more than kFar units from the pattern
// 10...0 (modulo 2^kLow), bits those of doubles.
template <int kLow, uint64_t kFar, class DU>
HWY_INLINE hn::Mask<DU> LowBitsFar(DU du, hn::Vec<DU> bits) {
  const hn::RebindToSigned<DU> di;
  constexpr uint64_t kMask = (uint64_t{1} << kLow) - 1;
  const auto offset = hn::And(hn::Add(bits, hn::Set(du, kFar - (uint64_t{1} << (kLow - 1)))),
                              hn::Set(du, kMask));
  return hn::RebindMask(du, hn::Gt(hn::BitCast(di, offset), hn::Set(di, int64_t{2 * kFar})));
}

// v (relative error below 2^-42.5, so within 2^10.5 of its last places of
// the exact result y) where it rounds through float to y correctly rounded
// in T's format, else NaN.
//   A boundary of a p-bit format (a midpoint between two of its numbers) is
// a double whose low 53 - p bits are 10...0, within the format's normal
// range. Where v's low bits lie more than 2^11 last places from that
// pattern, no boundary lies between v and y, and v rounds (once, to float)
// as y does. FLOAT16 and BFLOAT16 round that float again: the float lies
// within half its own last place, 2^28 of v's, from v, so 2^28 + 2^11
// keeps it on y's side of every narrow boundary, and the second rounding
// gives y's.
//   Below the normal range, |v| < 2^emin, the boundaries lie on one grid,
// the odd multiples of 2^(emin - p). There the test reads w = 2^(emin + 1)
// + |v|, whose last place U = 2^(emin - 51) divides that grid 2^(51 - p)
// times: the boundaries are the w whose low 52 - p bits are 10...0. |v - y|
// < 2^-42.5 2^emin = 2^8.5 U, the addition rounds by U/2, and the float
// rounding of v moves it by at most half the float's last place there,
// 2^(emin - 25) or 2^-150 (FLOAT16: 2^-38, BFLOAT16: 2^-150), 2^27 U for
// the narrow types, which that float rounds again: 2^11 U (FLOAT32) or
// 2^27 + 2^11 U. w's bits shifted left by one put that grid's boundaries at
// the pattern of the normal range and double the units: one test, kFar =
// 2^12 (FLOAT32) or 2^28 + 2^12, serves both, without a branch (data with
// a share of results below the normal range mispredicts one).
//   kNonnegative: v >= 0 (e^x); kNormal: |v| is 0 or in the normal range
// (ln x of a float: |ln x| >= 2^-24 for x != 1), which needs no second grid.
template <typename T, bool kNonnegative, bool kNormal = false, class DD>
HWY_INLINE hn::Vec<DD> MarkUnsafe(DD dd, hn::Vec<DD> v) {
  const hn::RebindToUnsigned<DD> du;
  constexpr int kLow = 53 - PrecisionOf<T>();
  constexpr bool kNarrow = !hwy::IsSame<T, float>();
  constexpr uint64_t kErr = uint64_t{1} << 12;
  constexpr uint64_t kFar = kNarrow ? (uint64_t{1} << 28) + kErr : kErr;
  constexpr double kSmallBelow = hwy::IsSame<T, hwy::float16_t>() ? 0x1p-14 : 0x1p-126;  // 2^emin
  auto tested = hn::BitCast(du, v);
  if constexpr (!kNormal) {
    const auto mag = kNonnegative ? v : hn::Abs(v);
    const auto small = hn::RebindMask(du, hn::Lt(mag, hn::Set(dd, kSmallBelow)));
    const auto w = hn::BitCast(du, hn::Add(mag, hn::Set(dd, 2 * kSmallBelow)));
    tested = hn::IfThenElse(small, hn::ShiftLeft<1>(w), tested);
  }
  const auto safe = LowBitsFar<kLow, kFar>(du, tested);
  return hn::IfThenElse(hn::RebindMask(dd, safe), v, hn::Set(dd, static_cast<double>(NAN)));
}

// ---- the fast path, in double lanes ----

// e^x for x in [-104, 89] (in double lanes), relative error below 2^-42.5.
//   k = round(x 16/ln 2) (the shifter 1.5 2^52 leaves k in the low bits;
// |k| <= 2401), r = x - k C by one FMA, C = ln 2/16 rounded to double: |r|
// <= ln 2/32 + 2^-40 < 0.021662, and k (C - ln 2/16) < 2^-47.9 plus the
// FMA's rounding, 2^-58.5, move r by less than 2^-47.8, e^x's relative
// error by as much. e^x = 2^(k/16) e^r, 2^(k/16) from kExp2Bits (rounded to
// 2^-53), e^r = 1 + p, p = r + r^2 q(r) the Taylor polynomial of degree 5,
// whose remainder is below r^6/720 e^r < 2^-42.61 e^r; q by pairs
// (polynomial-inl.h: on AVX2 Horner's longer chain cost a third more time
// in tlog's degree 8). p's evaluation errors (r^2, q's multiplication and
// three FMAs, or twice as many roundings where MulAdd is a multiply and an
// add) reach v scaled by |r| < 0.022, below 0.1u (u = 2^-53); the last
// FMA (or multiply and add) rounds by u, the table entry by u/2:
// |v - e^x| < (2^-42.61 + 2^-47.8 + 1.6u) e^x < 2^-42.5 e^x.
template <class DD>
HWY_INLINE hn::Vec<DD> ExpInDouble(DD dd, hn::Vec<DD> x) {
  const hn::RebindToUnsigned<DD> du;
  const auto shifter = hn::Set(dd, 0x1.8p52);
  const auto shifted = hn::MulAdd(x, hn::Set(dd, 0x1.71547652b82fep+4), shifter);
  const auto k = hn::Sub(shifted, shifter);
  const auto r = hn::NegMulAdd(k, hn::Set(dd, 0x1.62e42fefa39efp-5), x);
  const auto kbits = hn::BitCast(du, shifted);
  const auto entry = Lookup16F64(dd, reinterpret_cast<const double*>(kExp2Bits), kbits);
  const auto scale = hn::BitCast(dd, hn::Add(hn::BitCast(du, entry), hn::ShiftLeft<48>(kbits)));
  static constexpr double kQ[] = {0.5, 1.0 / 6, 1.0 / 24, 1.0 / 120};
  const auto p = hn::MulAdd(hn::Mul(r, r), Pairs(dd, r, kQ), r);
  return hn::MulAdd(scale, p, scale);
}

// ExpInDouble for any x, with e^x = +inf above 88.8 (e^88.8 > 2^128) and 0
// below -150 ln 2 (no float lies between that and the double kZeroBelow,
// and e^x < 2^-150 rounds to 0).
template <class DD>
HWY_INLINE hn::Vec<DD> ExpInDoubleOrLimit(DD dd, hn::Vec<DD> x) {
  constexpr double kZeroBelow = -0x1.9fe3682cd3be4p+6;  // -150 ln 2
  const auto xc = hn::Min(hn::Max(x, hn::Set(dd, -104.0)), hn::Set(dd, 89.0));
  const auto v = ExpInDouble(dd, xc);
  return hn::IfThenElseZero(hn::Ge(x, hn::Set(dd, kZeroBelow)),
                            hn::IfThenElse(hn::Gt(x, hn::Set(dd, 88.8)), hn::Set(dd, HUGE_VAL), v));
}

// ln x for positive normal x from its split (LogRounded), relative error
// below 2^-43: ln x = k ln 2 + ln c + ln(1 + r), r = z/c - 1 = z kInvC[i] -
// 1 exact (the product has at most 53 bits, and subtracting 1 from it is
// exact, it lies in [1/2, 2]), |r| <= 2^-5; ln(1 + r) = r + r^2 q(r), the
// Taylor polynomial of degree 8, whose remainder relative to ln(1 + r) is
// below |r|^8/(9 (1 - |r|)) < 2^-43.1 (|r| <= 2^-5); q by pairs, as exp's.
// p = r + r^2 q: the final FMA rounds by u, the rest reaches p scaled by
// |r q| < 2^-5.9, below 0.1u. Then t = ln c + p rounded by u, v = k L + t
// by one FMA (L = ln 2 rounded, |L - ln 2| < 2^-55.3), rounded by u (a
// multiply and an add: 2u more where k != 0); ln c carries u/2.
//   k != 0: |ln x| >= |k| ln 2 - 0.3522 > 0.34 |k|, |t| < 0.36 < 1.06 |ln
// x|, |p| < 0.09 |ln x| and |k (L - ln 2)| < 2^-53.7 |ln x|: below 3.2u +
// 2^-46.5. k = 0 outside bucket 9 (v = t): |ln x| >= 0.01575, |ln c| <=
// 2.02 |ln x|, |p| <= 1.03 |ln x| (the buckets' r and c), so below 2.1u +
// 1.03 2^-43.1. Bucket 9 (c = 1, k = 0): v = p, u + 2^-43.1. In all cases
// below 2^-43.
template <class DD>
HWY_INLINE hn::Vec<DD> LogInDouble(DD dd, hn::Vec<DD> z, hn::Vec<DD> k,
                                   hn::Vec<hn::RebindToUnsigned<DD>> bucket) {
  const auto invc = Lookup16F64(dd, kInvC, bucket);
  const auto logc = Lookup16F64(dd, kLogC, bucket);
  const auto r = hn::MulAdd(z, invc, hn::Set(dd, -1.0));
  static constexpr double kQ[] = {-0.5, 1.0 / 3, -0.25, 0.2, -1.0 / 6, 1.0 / 7, -0.125};
  const auto p = hn::MulAdd(hn::Mul(r, r), Pairs(dd, r, kQ), r);
  return hn::MulAdd(k, hn::Set(dd, 0x1.62e42fefa39efp-1), hn::Add(logc, p));
}

// f(dh, halves of v...) -> f32 lanes of dh, over the whole of d: in two
// halves (a vector of doubles holds half as many lanes), one lane alone.
template <class D, class F, class... V>
HWY_INLINE hn::Vec<D> InHalves(D d, const F& f, V... v) {
#if HWY_TARGET == HWY_SCALAR
  return f(d, v...);
#else
  if constexpr (hn::MaxLanes(D()) == 1) {
    return f(d, v...);
  } else {
    // Each v's halves by the descriptor of d's lanes in v's type: on SVE,
    // DFromV is the whole register's, whose upper half is not that of a
    // partial d (float16's lanes under float32 compute).
    const hn::Half<D> dh;
    return hn::Combine(d, f(dh, hn::UpperHalf(hn::Half<hn::Rebind<hn::TFromV<V>, D>>(), v)...),
                       f(dh, hn::LowerHalf(hn::Half<hn::Rebind<hn::TFromV<V>, D>>(), v)...));
  }
#endif
}

// The lanes of v marked by redo, recomputed from x by the accurate path.
template <bool kLog, typename T, class D>
HWY_INLINE hn::Vec<D> Recompute(D d, hn::Vec<D> x, hn::Vec<D> v, hn::Mask<D> redo) {
  return RecomputeLanes(d, x, x, v, redo, [](float xi, float) {
    return kLog ? LogAccurate(xi, FormatFor<T>()) : ExpAccurate(xi, FormatFor<T>());
  });
}

// ---- the functors' lanes ----

// e^x in f32 lanes, correctly rounded to T (x a value of T).
// x is clamped to [-104, 89] first: e^89 > 2^128 rounds to +inf, and
// e^-104 < 2^-150 to 0 (both decided by the test, as any other lane).
template <typename T, class D>
HWY_INLINE hn::Vec<D> ExpRounded(D d, hn::Vec<D> x) {
  const auto xc = hn::Min(hn::Max(x, hn::Set(d, -104.0f)), hn::Set(d, 89.0f));
  auto v = InHalves(
      d,
      [](auto dh, auto xh) {
        const hn::Rebind<double, decltype(dh)> dd;
        return DemoteToF32(dd, MarkUnsafe<T, true>(dd, ExpInDouble(dd, hn::PromoteTo(dd, xh))));
      },
      xc);
  const auto is_nan = hn::IsNaN(x);
  const auto redo = hn::AndNot(is_nan, hn::IsNaN(v));
  if (HWY_UNLIKELY(!hn::AllFalse(d, redo))) v = Recompute<false, T>(d, x, v, redo);
  return hn::IfThenElse(is_nan, hn::Add(x, x), v);
}

// ln x in f32 lanes, correctly rounded to T (x a value of T). Positive
// normal x = 2^k z split by integer arithmetic on its bits; the other lanes
// take ln(+-0) = -inf, ln(x < 0) = NaN, ln(+inf) = +inf, NaN (quietened),
// and subnormal x the accurate path.
template <typename T, class D>
HWY_INLINE hn::Vec<D> LogRounded(D d, hn::Vec<D> x) {
  const hn::RebindToUnsigned<D> du;
  const hn::RebindToSigned<D> di;
  const auto bits = hn::BitCast(du, x);
  const auto from_off = hn::Sub(bits, hn::Set(du, kLogOff));
  const auto k = hn::ShiftRight<23>(hn::BitCast(di, from_off));
  const auto bucket = hn::ShiftRight<19>(from_off);  // the low four bits (Lookup16F64)
  const auto z = hn::BitCast(d, hn::Sub(bits, hn::And(from_off, hn::Set(du, 0xFF800000u))));
  auto v = InHalves(
      d,
      [](auto dh, auto zh, auto kh, auto bh) {
        const hn::Rebind<double, decltype(dh)> dd;
        const hn::RebindToUnsigned<decltype(dd)> du64;
        const auto log = LogInDouble(dd, hn::PromoteTo(dd, zh), hn::PromoteTo(dd, kh), hn::PromoteTo(du64, bh));
        return DemoteToF32(dd, MarkUnsafe<T, false, true>(dd, log));
      },
      z, k, bucket);
  const auto signed_bits = hn::BitCast(di, bits);
  const auto normal = hn::RebindMask(d, hn::And(hn::Gt(signed_bits, hn::Set(di, 0x007FFFFF)),
                                                hn::Lt(signed_bits, hn::Set(di, 0x7F800000))));
  auto redo = hn::And(normal, hn::IsNaN(v));
  if (HWY_UNLIKELY(!hn::AllTrue(d, normal))) {
    const auto zero = hn::Eq(x, hn::Zero(d));
    const auto special = hn::IfThenElse(zero, hn::Set(d, -HUGE_VALF),
                                        hn::IfThenElse(hn::Lt(x, hn::Zero(d)), hn::Set(d, NAN), hn::Add(x, x)));
    v = hn::IfThenElse(normal, v, special);
    const auto subnormal = hn::RebindMask(d, hn::And(hn::Gt(signed_bits, hn::Zero(di)),
                                                     hn::Lt(signed_bits, hn::Set(di, 0x00800000))));
    redo = hn::Or(redo, subnormal);
  }
  if (HWY_UNLIKELY(!hn::AllFalse(d, redo))) v = Recompute<true, T>(d, x, v, redo);
  return v;
}

// e^(a - b) in f32 lanes, correctly rounded to T (a, b values of T), with
// one rounding: the difference is never rounded. In double lanes, t = a - b
// = hi + lo exactly (TwoSum: two doubles' sum and its error); e^t = e^hi
// (1 + lo + lo^2/2 ...) with |lo| <= 2^-47 where |hi| < 128, so v =
// fma(E, lo, E), E = ExpInDoubleOrLimit(hi), is within 2^-42.5 + 2^-53 +
// 2^-95 < 2^-42.45 of e^t relative, inside MarkUnsafe's margin (2^10.55 of
// 2^11 last places), which then decides the rounding through float as for
// texp. hi outside [-104, 88.8] takes E alone: above, E = +inf is right (e^88.8 >
// 2^128 and lo cannot bring t back); below -150 ln 2 (kZeroBelow) E = 0 is
// right unless lo brings t across -150 ln 2, where e^t rounds up to the
// smallest subnormal: hi within 2^-30 under that threshold goes to the
// accurate path. NaN a or b, or inf - inf, gives NaN; +inf - b gives +inf and
// a - +inf gives +0 (E of +-inf).
template <typename T, class D>
HWY_INLINE hn::Vec<D> ExpDifRounded(D d, hn::Vec<D> a, hn::Vec<D> b) {
  auto v = InHalves(
      d,
      [](auto dh, auto ah, auto bh) {
        const hn::Rebind<double, decltype(dh)> dd;
        constexpr double kZeroBelow = -0x1.9fe3682cd3be4p+6;  // -150 ln 2
        const auto x = hn::PromoteTo(dd, ah);
        const auto y = hn::Neg(hn::PromoteTo(dd, bh));
        const auto hi = hn::Add(x, y);
        const auto y_part = hn::Sub(hi, x);
        const auto lo = hn::Add(hn::Sub(x, hn::Sub(hi, y_part)), hn::Sub(y, y_part));
        const auto e = ExpInDoubleOrLimit(dd, hi);
        const auto in_range =
            hn::And(hn::Ge(hi, hn::Set(dd, -104.0)), hn::Le(hi, hn::Set(dd, 88.8)));
        const auto near_zero_threshold = hn::And(hn::Lt(hi, hn::Set(dd, kZeroBelow)),
                                                 hn::Ge(hi, hn::Set(dd, kZeroBelow - 0x1p-30)));
        const auto corrected = hn::IfThenElse(in_range, hn::MulAdd(e, lo, e), e);
        const auto v =
            hn::IfThenElse(near_zero_threshold, hn::Set(dd, static_cast<double>(NAN)), corrected);
        return DemoteToF32(dd, MarkUnsafe<T, true>(dd, v));
      },
      a, b);
  const auto difference = hn::Sub(a, b);
  const auto is_nan = hn::IsNaN(difference);
  const auto redo = hn::AndNot(is_nan, hn::IsNaN(v));
  if (HWY_UNLIKELY(!hn::AllFalse(d, redo))) {
    v = RecomputeLanes(d, a, b, v, redo,
                       [](float ai, float bi) { return ExpDifAccurate(ai, bi, FormatFor<T>()); });
  }
  return hn::IfThenElse(is_nan, difference, v);
}

}  // namespace exp_log

// The lanes of storage type T for functor Fn: ComputeTag<T>'s, with T and
// Fn kept in the type, so that ForEachElementwise (below) can pass T on.
template <class Fn, typename T>
struct StorageLanes : ComputeTag<T> {};

// ForEachElementwise for a functor whose Tag is StorageLanes (a more
// specialised overload, which BinaryTyped's call selects): the generic
// driver over T's compute lanes, calling Fn::Rounded<T>, which rounds for
// T (see the top). op, the family's wrapper of Fn, is not needed.
template <class Fn, typename TS, typename T, class Op>
HWY_INLINE void ForEachElementwise(StorageLanes<Fn, TS>, size_t rows, size_t cols, T* dst,
                                   size_t dst_stride, const T* a, size_t a_stride, const T* b,
                                   size_t b_stride, const Op&) {
  const auto rounded = [](auto d, hn::Vec<decltype(d)> x, hn::Vec<decltype(d)>) {
    return Fn::template Rounded<T>(d, x);
  };
  ForEachElementwise(ComputeTag<T>(), rows, cols, dst, dst_stride, a, a_stride, b, b_stride, rounded);
}

// TEXP (kLog false: e^x) and TLOG (ln x; ln(+-0) = -inf, ln(x < 0) = NaN,
// ln(+inf) = +inf), correctly rounded in the storage type (see the top);
// called directly, for FLOAT32.
template <bool kLog>
struct ExpLogOp {
  template <typename T>
  using Tag = StorageLanes<ExpLogOp, T>;
  template <typename T, class D>
  static HWY_INLINE hn::Vec<D> Rounded(D d, hn::Vec<D> x) {
    if constexpr (kLog) {
      return exp_log::LogRounded<T>(d, x);
    } else {
      return exp_log::ExpRounded<T>(d, x);
    }
  }
  template <class D>
  HWY_INLINE hn::Vec<D> operator()(D d, hn::Vec<D> x) const {
    return Rounded<float>(d, x);
  }
};
using TExpOp = ExpLogOp<false>;
using TLogOp = ExpLogOp<true>;

}  // namespace HWY_NAMESPACE
}  // namespace pto
HWY_AFTER_NAMESPACE();

#endif  // PTO_KERNELS_EXP_LOG_INL_H_
