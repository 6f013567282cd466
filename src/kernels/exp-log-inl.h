// TEXP and TLOG: e^x and ln x correctly rounded (to nearest, ties to even)
// in the storage type, FLOAT32, FLOAT16 and BFLOAT16, with the special cases
// of C99 Annex F, the same bits on every target.
//
// Each lane is computed in double from its float value by a short method
// whose relative error is bounded below (ExpInDouble: 2^-48.5, LogInDouble:
// 2^-50), then rounded once to float. That rounding is the correct one
// unless a rounding boundary of the storage format lies within the error of
// the double; MarkUnsafe tests the double's low bits for that (as pow's
// HIGH_PRECISION does) and marks such lanes with a NaN, and the few marked
// lanes (about 1 in 2^22 for FLOAT32, 2^13 for FLOAT16, 2^16 for
// BFLOAT16) are recomputed one at a time by the accurate path (ExpAccurate,
// LogAccurate: double-double, relative error below 2^-97, rounded by
// RoundToFormat). Results below the normal range (exp of x in [-103.98,
// -87.34] for FLOAT32) have a test of their own, on their coarser grid.
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
#include "src/kernels/simd-inl.h"

HWY_BEFORE_NAMESPACE();
namespace pto {
namespace HWY_NAMESPACE {
namespace exp_log {

// 2^(j/32) for j < 32, correctly rounded to double, as bits less j << 47:
// adding k << 47 for k = 32 n + j gives the bits of 2^n 2^(j/32) (the low
// five bits of k cancel j, the rest land in the exponent field).
alignas(64) constexpr uint64_t kExp2Bits[32] = {
    0x3ff0000000000000u, 0x3fefd9b0d3158574u, 0x3fefb5586cf9890fu,
    0x3fef9301d0125b51u, 0x3fef72b83c7d517bu, 0x3fef54873168b9aau,
    0x3fef387a6e756238u, 0x3fef1e9df51fdee1u, 0x3fef06fe0a31b715u,
    0x3feef1a7373aa9cbu, 0x3feedea64c123422u, 0x3feece086061892du,
    0x3feebfdad5362a27u, 0x3feeb42b569d4f82u, 0x3feeab07dd485429u,
    0x3feea47eb03a5585u, 0x3feea09e667f3bcdu, 0x3fee9f75e8ec5f74u,
    0x3feea11473eb0187u, 0x3feea589994cce13u, 0x3feeace5422aa0dbu,
    0x3feeb737b0cdc5e5u, 0x3feec49182a3f090u, 0x3feed503b23e255du,
    0x3feee89f995ad3adu, 0x3feeff76f2fb5e47u, 0x3fef199bdd85529cu,
    0x3fef3720dcef9069u, 0x3fef5818dcfba487u, 0x3fef7c97337b9b5fu,
    0x3fefa4afa2a490dau, 0x3fefd0765b6e4540u,
};

// ln x = k ln 2 + ln c + ln(z / c) with x = 2^k z, z in [kLogOff, 2 kLogOff)
// as float bits: bucket i of z holds the z whose bits, less kLogOff's, have
// i in bits 16-22. kInvC[i] is 1/c for c the bucket's midpoint, rounded to
// 29 significant bits, so that z * kInvC[i] (24 times 29 bits) is exact in
// double; kLogC[i] = -ln(kInvC[i]) correctly rounded. kLogOff puts 1.0 in
// the middle of its bucket (75), whose c is 1 exactly: ln 1 = 0 and r = z - 1
// lose nothing near x = 1. |r| = |z kInvC[i] - 1| <= 2^-7.9999 in every
// bucket (checked by the generator, tests/test_exp_log.c checks the result).
constexpr uint32_t kLogOff = 0x3f348000u;
alignas(64) constexpr double kInvC[128] = {
    0x1.6a13cd1p+0, 0x1.6816817p+0, 0x1.661ec6ap+0, 0x1.642c859p+0, 0x1.623fa77p+0,
    0x1.605816p+0, 0x1.5e75bb9p+0, 0x1.5c9882cp+0, 0x1.5ac056bp+0, 0x1.58ed231p+0,
    0x1.571ed3cp+0, 0x1.5555555p+0, 0x1.5390949p+0, 0x1.51d07ebp+0, 0x1.5015015p+0,
    0x1.4e5e0a7p+0, 0x1.4cab887p+0, 0x1.4afd6ap+0, 0x1.49539e4p+0, 0x1.47ae148p+0,
    0x1.460cbc8p+0, 0x1.446f865p+0, 0x1.42d6626p+0, 0x1.4141414p+0, 0x1.3fb014p+0,
    0x1.3e22cbdp+0, 0x1.3c995a4p+0, 0x1.3b13b14p+0, 0x1.3991c2cp+0, 0x1.3813814p+0,
    0x1.3698df4p+0, 0x1.3521cfbp+0, 0x1.33ae45bp+0, 0x1.323e34ap+0, 0x1.30d1901p+0,
    0x1.2f684bep+0, 0x1.2e025cp+0, 0x1.2c9fb4ep+0, 0x1.2b404adp+0, 0x1.29e412ap+0,
    0x1.288b013p+0, 0x1.27350b9p+0, 0x1.25e2271p+0, 0x1.2492492p+0, 0x1.2345679p+0,
    0x1.21fb781p+0, 0x1.20b470cp+0, 0x1.1f7047ep+0, 0x1.1e2ef3bp+0, 0x1.1cf06aep+0,
    0x1.1bb4a4p+0, 0x1.1a7b961p+0, 0x1.1945381p+0, 0x1.1811812p+0, 0x1.16e0689p+0,
    0x1.15b1e5fp+0, 0x1.1485f0ep+0, 0x1.135c811p+0, 0x1.12358e7p+0, 0x1.1111111p+0,
    0x1.0fef011p+0, 0x1.0ecf56cp+0, 0x1.0db20a9p+0, 0x1.0c9715p+0, 0x1.0b7e6ecp+0,
    0x1.0a6810ap+0, 0x1.0953f39p+0, 0x1.0842108p+0, 0x1.073260ap+0, 0x1.0624dd3p+0,
    0x1.05197f8p+0, 0x1.041041p+0, 0x1.03091b5p+0, 0x1.0204081p+0, 0x1.010101p+0,
    0x1p+0, 0x1.fc07f02p-1, 0x1.f81f82p-1, 0x1.f44659ep-1, 0x1.f07c1fp-1,
    0x1.ecc07b3p-1, 0x1.e9131acp-1, 0x1.e573ac9p-1, 0x1.e1e1e1ep-1, 0x1.de5d6e4p-1,
    0x1.dae6077p-1, 0x1.d77b655p-1, 0x1.d41d41dp-1, 0x1.d0cb58fp-1, 0x1.cd85689p-1,
    0x1.ca4b305p-1, 0x1.c71c71cp-1, 0x1.c3f8f02p-1, 0x1.c0e0704p-1, 0x1.bdd2b8ap-1,
    0x1.bacf915p-1, 0x1.b7d6c3ep-1, 0x1.b4e81b5p-1, 0x1.b20364p-1, 0x1.af286bdp-1,
    0x1.ac5701bp-1, 0x1.a98ef6p-1, 0x1.a6d01a7p-1, 0x1.a41a41ap-1, 0x1.a16d3f9p-1,
    0x1.9ec8e95p-1, 0x1.9c2d14fp-1, 0x1.999999ap-1, 0x1.970e4f8p-1, 0x1.948b0fdp-1,
    0x1.920fb4ap-1, 0x1.8f9c19p-1, 0x1.8d3018dp-1, 0x1.8acb90fp-1, 0x1.886e5f1p-1,
    0x1.8618618p-1, 0x1.83c977bp-1, 0x1.8181818p-1, 0x1.7f405fdp-1, 0x1.7d05f41p-1,
    0x1.7ad2209p-1, 0x1.78a4c81p-1, 0x1.767dce4p-1, 0x1.745d174p-1, 0x1.724287fp-1,
    0x1.702e05cp-1, 0x1.6e1f76bp-1, 0x1.6c16c17p-1,
};
alignas(64) constexpr double kLogC[128] = {
    -0x1.630030a4eac49p-2, -0x1.5d5bde0c15f3p-2, -0x1.57bf752e0d1fbp-2,
    -0x1.522ae0718a3d8p-2, -0x1.4c9e09e132c3cp-2, -0x1.4718dc171c41bp-2,
    -0x1.419b42461e8c7p-2, -0x1.3c25278733184p-2, -0x1.36b6776ba1117p-2,
    -0x1.314f1e34b5ce4p-2, -0x1.2bef07bec9354p-2, -0x1.269621034db92p-2,
    -0x1.214456d32b8d4p-2, -0x1.1bf9963b26b95p-2, -0x1.16b5ccba8fb73p-2,
    -0x1.1178e8197e47cp-2, -0x1.0c42d66ed62e3p-2, -0x1.071385f4d5862p-2,
    -0x1.01eae5716c691p-2, -0x1.f991c6eb3b379p-3, -0x1.ef5ade51cffe6p-3,
    -0x1.e530efd771012p-3, -0x1.db13db1e4894p-3, -0x1.d1037f1e55e7bp-3,
    -0x1.c6ffbc8f00f71p-3, -0x1.bd08738ebd8adp-3, -0x1.b31d8543bce3dp-3,
    -0x1.a93ed3e8ad9e3p-3, -0x1.9f6c406689664p-3, -0x1.95a5ae037017fp-3,
    -0x1.8beafec18fe8cp-3, -0x1.823c16431a3c2p-3, -0x1.7898d82fc4c73p-3,
    -0x1.6f0128a556abcp-3, -0x1.6574ebd44133ap-3, -0x1.5bf406dd43db2p-3,
    -0x1.527e5e2a1b58dp-3, -0x1.4913d8693b561p-3, -0x1.3fb45a59128ccp-3,
    -0x1.365fcb0d59016p-3, -0x1.2d1610fbe813ap-3, -0x1.23d712db9c202p-3,
    -0x1.1aa2b819bf72ap-3, -0x1.1178e8027e47cp-3, -0x1.08598b8663a07p-3,
    -0x1.fe89137fbd566p-4, -0x1.ec7397d4a112p-4, -0x1.da727670446a2p-4,
    -0x1.c8857fe2c4b23p-4, -0x1.b6ac892ed5b1cp-4, -0x1.a4e763cb1bc38p-4,
    -0x1.9335e5bd94989p-4, -0x1.8197e35d0e3fp-4, -0x1.700d3122ac0e1p-4,
    -0x1.5e95a49c791cbp-4, -0x1.4d31156607eacp-4, -0x1.3bdf5a731ee64p-4,
    -0x1.2aa04a12717a5p-4, -0x1.1973bcbd65567p-4, -0x1.08598b49e3a07p-4,
    -0x1.eea31c026b87cp-5, -0x1.ccb73d0ddb2ccp-5, -0x1.aaef2de5b10fcp-5,
    -0x1.894aa1c9fb343p-5, -0x1.67c94ee54bb58p-5, -0x1.466aec7ade3e9p-5,
    -0x1.252f32f6d183fp-5, -0x1.0415d81e74444p-5, -0x1.c63d2da94aaf1p-6,
    -0x1.849252c48cabfp-6, -0x1.432a92f980cc1p-6, -0x1.0205648935847p-6,
    -0x1.824489408a2aap-7, -0x1.010157488de71p-7, -0x1.0080549588b35p-8,
    0x0p+0, 0x1.fe02a69106789p-8, 0x1.fc0a890fc03e4p-7,
    0x1.7b91b1155b11bp-6, 0x1.f829b1e7833p-6, 0x1.39e87ba1ebd6p-5,
    0x1.77458f532dcfcp-5, 0x1.b42dd713971bfp-5, 0x1.f0a30c21162a6p-5,
    0x1.16536ee637ae1p-4, 0x1.341d793bbd1d1p-4, 0x1.51b073c96183fp-4,
    0x1.6f0d28d256b4cp-4, 0x1.8c345da019b21p-4, 0x1.a926d3a6ad563p-4,
    0x1.c5e5492abc743p-4, 0x1.e2707722af2e6p-4, 0x1.fec912fbbeabbp-4,
    0x1.0d77e7a908e59p-3, 0x1.1b72ad33f67ap-3, 0x1.29552f6fff523p-3,
    0x1.371fc1f6e8f74p-3, 0x1.44d2b6c5b7d1ep-3, 0x1.526e5e5a1b438p-3,
    0x1.5ff306ee793d4p-3, 0x1.6d60fe601d21dp-3, 0x1.7ab890410d909p-3,
    0x1.87fa06438c911p-3, 0x1.9525a9e3456b4p-3, 0x1.a23bc223ab563p-3,
    0x1.af3c94ed0bff3p-3, 0x1.bc28673a58cd6p-3, 0x1.c8ff7c59a9a22p-3,
    0x1.d5c216b8fbb91p-3, 0x1.e27076d5af2e6p-3, 0x1.ef0adcaec5936p-3,
    0x1.fb9186b5e3e2bp-3, 0x1.040259530d041p-2, 0x1.0a324e38b90e3p-2,
    0x1.1058bf8d24ad5p-2, 0x1.1675cacaba60ep-2, 0x1.1c898c09d99fbp-2,
    0x1.22941fc0f7966p-2, 0x1.2895a13e286a3p-2, 0x1.2e8e2bc311d31p-2,
    0x1.347dd9a447d55p-2, 0x1.3a64c56b145eap-2, 0x1.404308716a7e4p-2,
    0x1.4618bc31c5ec2p-2, 0x1.4be5f963b78a1p-2, 0x1.51aad874df82dp-2,
    0x1.5767718015a6cp-2, 0x1.5d1bdbea809cap-2,
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

// v (relative error below 2^-48.5, so within 2^4.5 of its last places of
// the exact result y) where it rounds through float to y correctly rounded
// in T's format, else NaN.
//   A boundary of a p-bit format (a midpoint between two of its numbers) is
// a double whose low 53 - p bits are 10...0, within the format's normal
// range. Where v's low bits lie more than kFar = 2^6 last places from that
// pattern, no boundary lies between v and y, and v rounds (once, to float)
// as y does. FLOAT16 and BFLOAT16 round that float again: the float lies
// within half its own last place, 2^28 of v's, from v, so kFar = 2^28 + 2^6
// keeps it on y's side of every narrow boundary, and the second rounding
// gives y's.
//   Below the normal range, |v| < 2^emin, the boundaries lie on one grid,
// the odd multiples of 2^(emin - p). There the test reads w = 2^(emin + 1)
// + |v|, whose last place U = 2^(emin - 51) divides that grid 2^(51 - p)
// times: the boundaries are the w whose low 52 - p bits are 10...0. |v - y|
// < 2^-48.5 2^emin = 2^2.5 U, the addition rounds by U/2, and the float
// rounding of v moves it by at most half the float's last place there,
// 2^(emin - 25) or 2^-150 (FLOAT16: 2^-38, BFLOAT16: 2^-150), 2^27 U for
// the narrow types, which that float rounds again: kFar = 2^6 U (FLOAT32)
// or 2^27 + 2^6 U. v = 0 (e^x below 2^-150) passes the test.
template <typename T, class DD>
HWY_INLINE hn::Vec<DD> MarkUnsafe(DD dd, hn::Vec<DD> v) {
  const hn::RebindToUnsigned<DD> du;
  constexpr int kLow = 53 - PrecisionOf<T>();
  constexpr bool kNarrow = !hwy::IsSame<T, float>();
  constexpr uint64_t kFar = kNarrow ? (uint64_t{1} << 28) + 64 : 64;
  constexpr uint64_t kFarSmall = kNarrow ? (uint64_t{1} << 27) + 64 : 64;
  constexpr double kSmallBelow = hwy::IsSame<T, hwy::float16_t>() ? 0x1p-14 : 0x1p-126;  // 2^emin
  auto safe = LowBitsFar<kLow, kFar>(du, hn::BitCast(du, v));
  const auto mag = hn::Abs(v);
  const auto small = hn::RebindMask(du, hn::Lt(mag, hn::Set(dd, kSmallBelow)));
  if (HWY_UNLIKELY(!hn::AllFalse(du, small))) {
    const auto w = hn::BitCast(du, hn::Add(mag, hn::Set(dd, 2 * kSmallBelow)));
    safe = hn::Or(hn::And(small, LowBitsFar<kLow - 1, kFarSmall>(du, w)), hn::AndNot(small, safe));
  }
  return hn::IfThenElse(hn::RebindMask(dd, safe), v, hn::Set(dd, static_cast<double>(NAN)));
}

// ---- the fast path, in double lanes ----

// e^x for float values x (in double lanes), relative error below 2^-48.5;
// +inf above 88.8 (e^88.8 > 2^128), 0 below -150 ln 2 (no float lies
// between that and the double kZeroBelow, and e^x < 2^-150 rounds to 0).
//   x (clamped to [-105, 89]) = k ln2/32 + r, k = round(x 32/ln 2) (the
// shifter 1.5 2^52 leaves k in the low bits; |k| < 2^13), |r| <= ln2/64 +
// 2^-40 < 0.010831: k L1 is exact (L1 has 40 significant bits), x - k L1
// too (a multiple of 2^-45 below 2^-6), and k L2 and the subtraction add
// below 2^-59 to r's error. e^x = 2^(k/32) e^r, 2^(k/32) from kExp2Bits
// (rounded to 2^-53), e^r = 1 + p, p = r + r^2 q(r) the Taylor polynomial
// of degree 5, whose remainder is below r^6/720 e^r < 2^-48.62 e^r. p's
// evaluation errors (r^2, q's four coefficients and three FMAs, or twice as
// many roundings where MulAdd is a multiply and an add) reach v scaled by
// |p| <= 0.0109, below 0.03u (u = 2^-53); the final FMA (or multiply and
// add) rounds by u, the table entry by u/2: |v - e^x| < (2^-48.62 + 1.6u +
// 2^-59) e^x < 2^-48.5 e^x.
template <class DD>
HWY_INLINE hn::Vec<DD> ExpInDouble(DD dd, hn::Vec<DD> x) {
  const hn::RebindToUnsigned<DD> du;
  const hn::RebindToSigned<DD> di;
  constexpr double kZeroBelow = -0x1.9fe3682cd3be4p+6;  // -150 ln 2
  const auto xc = hn::Min(hn::Max(x, hn::Set(dd, -105.0)), hn::Set(dd, 89.0));
  const auto shifter = hn::Set(dd, 0x1.8p52);
  const auto shifted = hn::MulAdd(xc, hn::Set(dd, 0x1.71547652b82fep+5), shifter);
  const auto k = hn::Sub(shifted, shifter);
  auto r = hn::NegMulAdd(k, hn::Set(dd, 0x1.62e42fefa4p-6), xc);
  r = hn::NegMulAdd(k, hn::Set(dd, -0x1.8432a1b0e2634p-48), r);
  const auto kbits = hn::BitCast(du, shifted);
  const auto entry = hn::GatherIndex(dd, reinterpret_cast<const double*>(kExp2Bits),
                                     hn::BitCast(di, hn::And(kbits, hn::Set(du, 31))));
  const auto scale = hn::BitCast(dd, hn::Add(hn::BitCast(du, entry), hn::ShiftLeft<47>(kbits)));
  static constexpr double kQ[] = {0.5, 1.0 / 6, 1.0 / 24, 1.0 / 120};
  const auto p = hn::MulAdd(hn::Mul(r, r), Horner(dd, r, kQ), r);
  const auto v = hn::MulAdd(scale, p, scale);
  const auto inf = hn::Set(dd, HUGE_VAL);
  return hn::IfThenElseZero(hn::Ge(x, hn::Set(dd, kZeroBelow)),
                            hn::IfThenElse(hn::Gt(x, hn::Set(dd, 88.8)), inf, v));
}

// ln x for positive normal x from its split (SplitLog), relative error
// below 2^-50: ln x = k ln 2 + ln c + ln(1 + r), r = z/c - 1 = z kInvC[i] -
// 1 exact (the product has at most 53 bits, and subtracting 1 from it is
// exact, it lies in [1/2, 2]), |r| <= 2^-7.9999; ln(1 + r) = r + r^2 q(r),
// the Taylor polynomial of degree 6, whose remainder is below |r|^7/7 <
// 2^-50.8 |ln(1 + r)|. p = r + r^2 q: the final FMA rounds by u, the rest
// reaches p scaled by |r q| < 2^-8, below 0.05u. Then a = k L1 + ln c (k L1
// exact: L1 has 44 bits, |k| <= 128) rounded by u, b = k L2 + p rounded by
// u, v = a + b rounded by u; ln c carries u/2 and L1 + L2 ln 2's 2^-97.
//   k != 0: |ln x| >= ln 2 - 0.3438 > 0.349 and |a| < 2.98 |ln x|, |b| <
// 0.012 |ln x|: below 4.6u. k = 0 outside bucket 75: |ln c| <= 2 |ln x|,
// |p| <= |ln x| (the buckets' r and c), so below 3.1u + 2^-50.8. Bucket
// 75 (c = 1, a = 0): u + 2^-50.8. In all cases below 2^-50.
template <class DD>
HWY_INLINE hn::Vec<DD> LogInDouble(DD dd, hn::Vec<DD> z, hn::Vec<DD> k,
                                   hn::Vec<hn::RebindToSigned<DD>> bucket) {
  const auto invc = hn::GatherIndex(dd, kInvC, bucket);
  const auto logc = hn::GatherIndex(dd, kLogC, bucket);
  const auto r = hn::MulAdd(z, invc, hn::Set(dd, -1.0));
  static constexpr double kQ[] = {-0.5, 1.0 / 3, -0.25, 0.2, -1.0 / 6};
  const auto p = hn::MulAdd(hn::Mul(r, r), Horner(dd, r, kQ), r);
  const auto a = hn::MulAdd(k, hn::Set(dd, 0x1.62e42fefa38p-1), logc);
  const auto b = hn::MulAdd(k, hn::Set(dd, 0x1.ef35793c7673p-45), p);
  return hn::Add(a, b);
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
template <typename T, class D>
HWY_INLINE hn::Vec<D> ExpRounded(D d, hn::Vec<D> x) {
  auto v = InHalves(
      d,
      [](auto dh, auto xh) {
        const hn::Rebind<double, decltype(dh)> dd;
        return DemoteToF32(dd, MarkUnsafe<T>(dd, ExpInDouble(dd, hn::PromoteTo(dd, xh))));
      },
      x);
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
  const auto bucket = hn::BitCast(di, hn::And(hn::ShiftRight<16>(from_off), hn::Set(du, 127u)));
  const auto z = hn::BitCast(d, hn::Sub(bits, hn::And(from_off, hn::Set(du, 0xFF800000u))));
  auto v = InHalves(
      d,
      [](auto dh, auto zh, auto kh, auto bh) {
        const hn::Rebind<double, decltype(dh)> dd;
        const hn::RebindToSigned<decltype(dd)> di64;
        const auto log = LogInDouble(dd, hn::PromoteTo(dd, zh), hn::PromoteTo(dd, kh), hn::PromoteTo(di64, bh));
        return DemoteToF32(dd, MarkUnsafe<T>(dd, log));
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
// fma(E, lo, E), E = ExpInDouble(hi), is within 2^-48.5 + 2^-53 + 2^-95 <
// 2^-48.4 of e^t relative, inside MarkUnsafe's margin (2^4.6 of 2^6 last
// places), which then decides the rounding through float as for texp. hi
// outside [-105, 88.8] takes E alone: above, E = +inf is right (e^88.8 >
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
        const auto e = ExpInDouble(dd, hi);
        const auto in_range =
            hn::And(hn::Ge(hi, hn::Set(dd, -105.0)), hn::Le(hi, hn::Set(dd, 88.8)));
        const auto near_zero_threshold = hn::And(hn::Lt(hi, hn::Set(dd, kZeroBelow)),
                                                 hn::Ge(hi, hn::Set(dd, kZeroBelow - 0x1p-30)));
        const auto corrected = hn::IfThenElse(in_range, hn::MulAdd(e, lo, e), e);
        const auto v =
            hn::IfThenElse(near_zero_threshold, hn::Set(dd, static_cast<double>(NAN)), corrected);
        return DemoteToF32(dd, MarkUnsafe<T>(dd, v));
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
