// Portable twins of the building blocks in x86-inl.h: the same names and
// meanings, each compiled where x86-inl.h defined no variant of it in this
// pass (its PTO_NATIVE_<BLOCK> flag, Highway's HWY_NATIVE_* convention):
// every non-x86 target, x86's older ones, and every x86 target in a build
// with -Dx86_specializations=false, which tests this code there.
//   - Lookup4 (with BucketIndexHalf, Exp2Index), Lookup16 and Lookup8:
//     table lookups by selects and by gathers;
//   - Lookup16F64: sixteen doubles by a gather;
//   - ClampExponent: a compare, a select and a min (NaN to -200);
//   - LoadTail/StoreTail: row tails through stack buffers (simd-inl.h);
//   - EstimateTo12Bits: the target's estimate and one Newton step;
//   - ReciprocalTo11Bits: the target's estimate and one Newton step;
//   - TruncateInRange: Highway's ConvertTo;
//   - FloatOfMagnitude: a signed conversion and the absolute value;
//   - Fp4Pair: the codes' table indices written out, then two gathers.
//
// Re-included once per target by foreach_target.h, hence the toggle guard.
#if defined(PTO_KERNELS_PORTABLE_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef PTO_KERNELS_PORTABLE_INL_H_
#undef PTO_KERNELS_PORTABLE_INL_H_
#else
#define PTO_KERNELS_PORTABLE_INL_H_
#endif

#include <stddef.h>
#include <stdint.h>

#include "hwy/highway.h"
#include "src/kernels/simd-inl.h"
// The variants first: each twin below is compiled only if no variant
// toggled its flag in this pass.
#include "src/kernels/x86-inl.h"

HWY_BEFORE_NAMESPACE();
namespace pto {
namespace HWY_NAMESPACE {

#if defined(PTO_NATIVE_LOOKUP4) == defined(HWY_TARGET_TOGGLE)
#ifdef PTO_NATIVE_LOOKUP4
#undef PTO_NATIVE_LOOKUP4
#else
#define PTO_NATIVE_LOOKUP4
#endif
#if HWY_TARGET != HWY_SCALAR  // (SCALAR computes pow by the accurate path)

// table[i] for the low two bits i of each idx lane (64-bit lanes), by
// selects: correct for any vector length, with no load beyond the table.
template <class D>
HWY_INLINE hn::Vec<D> Lookup4(D d, const hn::TFromD<D>* table,
                              hn::Vec<hn::RebindToUnsigned<D>> idx) {
  const hn::RebindToUnsigned<D> du;
  const auto bit0 = hn::RebindMask(d, hn::Ne(hn::And(idx, hn::Set(du, 1)), hn::Zero(du)));
  const auto bit1 = hn::RebindMask(d, hn::Ne(hn::And(idx, hn::Set(du, 2)), hn::Zero(du)));
  return hn::IfThenElse(bit1, hn::IfThenElse(bit0, hn::Set(d, table[3]), hn::Set(d, table[2])),
                        hn::IfThenElse(bit0, hn::Set(d, table[1]), hn::Set(d, table[0])));
}

// The bucket index (bits 21-22 of tmp, see SplitLog2Argument) for the lower
// or upper half of the f32 lanes, in 64-bit lanes.
template <bool kUpper, class DF>
HWY_INLINE hn::Vec<hn::Rebind<uint64_t, hn::Half<DF>>> BucketIndexHalf(
    DF df, hn::Vec<hn::RebindToUnsigned<DF>> tmp) {
  (void)df;
  const hn::RebindToUnsigned<DF> du;
  const hn::Half<decltype(du)> dhu;
  const hn::Rebind<uint64_t, decltype(dhu)> du64;
  const auto bucket = hn::ShiftRight<21>(tmp);  // Lookup4 reads the low two bits
  return hn::PromoteTo(du64, kUpper ? hn::UpperHalf(dhu, bucket) : hn::LowerHalf(dhu, bucket));
}

template <class DU64>
HWY_INLINE hn::Vec<DU64> Exp2Index(DU64, hn::Vec<DU64> ki) {
  return ki;  // Lookup4 reads the low two bits
}
#endif  // HWY_TARGET != HWY_SCALAR
#endif  // PTO_NATIVE_LOOKUP4

#if defined(PTO_NATIVE_CLAMP_EXPONENT) == defined(HWY_TARGET_TOGGLE)
#ifdef PTO_NATIVE_CLAMP_EXPONENT
#undef PTO_NATIVE_CLAMP_EXPONENT
#else
#define PTO_NATIVE_CLAMP_EXPONENT
#endif
#if HWY_TARGET != HWY_SCALAR  // (SCALAR computes pow by the accurate path)

// NaN gives -200: the compare is false for it (Highway leaves Min and Max of
// a NaN to the target).
template <class DD>
HWY_INLINE hn::Vec<DD> ClampExponent(DD dd, hn::Vec<DD> t) {
  const auto low = hn::Set(dd, -200.0);
  return hn::IfThenElse(hn::Gt(t, low), hn::Min(t, hn::Set(dd, 200.0)), low);
}
#endif  // HWY_TARGET != HWY_SCALAR
#endif  // PTO_NATIVE_CLAMP_EXPONENT

#if defined(PTO_NATIVE_LOOKUP16) == defined(HWY_TARGET_TOGGLE)
#ifdef PTO_NATIVE_LOOKUP16
#undef PTO_NATIVE_LOOKUP16
#else
#define PTO_NATIVE_LOOKUP16
#endif
#if HWY_TARGET != HWY_SCALAR  // (SCALAR computes pow by the accurate path)

// table[i] for the low kBits bits i of each idx lane (higher bits ignored),
// by a gather.
template <int kBits, class DF>
HWY_INLINE hn::Vec<DF> GatherByLowBits(DF df, const float* table,
                                       hn::Vec<hn::RebindToUnsigned<DF>> idx) {
  const hn::RebindToUnsigned<DF> du;
  const hn::RebindToSigned<DF> di;
  return hn::GatherIndex(df, table, hn::BitCast(di, hn::And(idx, hn::Set(du, (1u << kBits) - 1))));
}

// table[i] for the low four bits i of each idx lane.
template <class DF>
HWY_INLINE hn::Vec<DF> Lookup16(DF df, const float* table, hn::Vec<hn::RebindToUnsigned<DF>> idx) {
  return GatherByLowBits<4>(df, table, idx);
}

// table[i] for the low three bits i of each idx lane.
template <class DF>
HWY_INLINE hn::Vec<DF> Lookup8(DF df, const float* table, hn::Vec<hn::RebindToUnsigned<DF>> idx) {
  return GatherByLowBits<3>(df, table, idx);
}
#endif  // HWY_TARGET != HWY_SCALAR
#endif  // PTO_NATIVE_LOOKUP16

#if defined(PTO_NATIVE_LOOKUP16_F64) == defined(HWY_TARGET_TOGGLE)
#ifdef PTO_NATIVE_LOOKUP16_F64
#undef PTO_NATIVE_LOOKUP16_F64
#else
#define PTO_NATIVE_LOOKUP16_F64
#endif

// table[i] for the low four bits i of each 64-bit idx lane, by a gather.
template <class DD>
HWY_INLINE hn::Vec<DD> Lookup16F64(DD dd, const double* table,
                                   hn::Vec<hn::RebindToUnsigned<DD>> idx) {
  const hn::RebindToUnsigned<DD> du;
  const hn::RebindToSigned<DD> di;
  return hn::GatherIndex(dd, table, hn::BitCast(di, hn::And(idx, hn::Set(du, 15u))));
}
#endif  // PTO_NATIVE_LOOKUP16_F64

#if defined(PTO_NATIVE_POW_TAIL) == defined(HWY_TARGET_TOGGLE)
#ifdef PTO_NATIVE_POW_TAIL
#undef PTO_NATIVE_POW_TAIL
#else
#define PTO_NATIVE_POW_TAIL
#endif

// The rest < Lanes(df) elements of a row tail at p as lanes of df, and
// back, through stack buffers; the unused lanes repeat the last element.
template <class DF, typename T>
HWY_INLINE hn::Vec<DF> LoadTail(DF df, const T* p, size_t rest) {
  return LoadTailBuffered(df, p, rest);
}

template <class DF, typename T>
HWY_INLINE void StoreTail(DF df, hn::Vec<DF> v, T* p, size_t rest) {
  StoreTailBuffered(df, v, p, rest);
}
#endif  // PTO_NATIVE_POW_TAIL

#if defined(PTO_NATIVE_RSQRT_ESTIMATE) == defined(HWY_TARGET_TOGGLE)
#ifdef PTO_NATIVE_RSQRT_ESTIMATE
#undef PTO_NATIVE_RSQRT_ESTIMATE
#else
#define PTO_NATIVE_RSQRT_ESTIMATE
#endif

// An estimate (1 + e)/sqrt(x) with |e| <= 1.5 * 2^-12 (see rsqrt.cc): the
// target's estimate (Arm's FRSQRTE gives about 8 bits; the portable
// assumption is |e| <= 2^-7) and one Newton step y0 (1 + r0/2),
// r0 = 1 - x y0^2, which leaves |e| <= 1.5 e^2 + 2^-22 < 0.4 * 2^-12.
template <class D>
HWY_INLINE hn::Vec<D> EstimateTo12Bits(D d, hn::Vec<D> x) {
  const auto y0 = hn::ApproximateReciprocalSqrt(x);
  const auto r0 = hn::NegMulAdd(x, hn::Mul(y0, y0), hn::Set(d, 1.0f));
  return hn::MulAdd(hn::Mul(y0, hn::Set(d, 0.5f)), r0, y0);
}
#endif  // PTO_NATIVE_RSQRT_ESTIMATE

#if defined(PTO_NATIVE_RECIPROCAL_ESTIMATE) == defined(HWY_TARGET_TOGGLE)
#ifdef PTO_NATIVE_RECIPROCAL_ESTIMATE
#undef PTO_NATIVE_RECIPROCAL_ESTIMATE
#else
#define PTO_NATIVE_RECIPROCAL_ESTIMATE
#endif

// An estimate (1 + e)/x with |e| <= 2^-11 for a positive normal x: the
// target's estimate (Arm's FRECPE gives about 8 bits; the portable
// assumption is |e| <= 2^-7) and one Newton step y0 + y0 (1 - x y0), which
// leaves |e| <= e^2 + 2^-23 < 2^-13.
template <class D>
HWY_INLINE hn::Vec<D> ReciprocalTo11Bits(D d, hn::Vec<D> x) {
  const auto y0 = hn::ApproximateReciprocal(x);
  return hn::MulAdd(y0, hn::NegMulAdd(x, y0, hn::Set(d, 1.0f)), y0);
}
#endif  // PTO_NATIVE_RECIPROCAL_ESTIMATE

#if defined(PTO_NATIVE_TRUNCATE_IN_RANGE) == defined(HWY_TARGET_TOGGLE)
#ifdef PTO_NATIVE_TRUNCATE_IN_RANGE
#undef PTO_NATIVE_TRUNCATE_IN_RANGE
#else
#define PTO_NATIVE_TRUNCATE_IN_RANGE
#endif

// float32 lanes truncated to int32 lanes, each in (-2^31, 2^31).
template <class DI, class VF>
HWY_INLINE hn::Vec<DI> TruncateInRange(DI di, VF v) {
  return hn::ConvertTo(di, v);
}
#endif  // PTO_NATIVE_TRUNCATE_IN_RANGE

#if defined(PTO_NATIVE_FLOAT_OF_MAGNITUDE) == defined(HWY_TARGET_TOGGLE)
#ifdef PTO_NATIVE_FLOAT_OF_MAGNITUDE
#undef PTO_NATIVE_FLOAT_OF_MAGNITUDE
#else
#define PTO_NATIVE_FLOAT_OF_MAGNITUDE
#endif

// uint32 lanes of at most 2^31 as float32, correctly rounded: 2^31 reads as
// the signed -2^31, whose absolute value it is.
template <class DF, class VU>
HWY_INLINE hn::Vec<DF> FloatOfMagnitude(DF df, VU v) {
  return hn::Abs(hn::ConvertTo(df, hn::BitCast(hn::RebindToSigned<hn::DFromV<VU>>(), v)));
}
#endif  // PTO_NATIVE_FLOAT_OF_MAGNITUDE

#if defined(PTO_NATIVE_FP4_PAIR) == defined(HWY_TARGET_TOGGLE)
#ifdef PTO_NATIVE_FP4_PAIR
#undef PTO_NATIVE_FP4_PAIR
#else
#define PTO_NATIVE_FP4_PAIR
#endif

// table[c] for the 2 Lanes(df) 4-bit codes c of the Lanes(df) bytes at
// packed (two a byte, the first in the low four bits), in order: the first
// Lanes(df) in lo, the rest in hi.
template <class DF>
HWY_INLINE void Fp4Pair(DF df, const float* table, const uint8_t* packed, hn::Vec<DF>& lo,
                        hn::Vec<DF>& hi) {
  const hn::RebindToSigned<DF> di;
  const size_t lanes = hn::Lanes(df);
  HWY_ALIGN int32_t index[2 * HWY_MAX_BYTES / sizeof(float)];
  for (size_t c = 0; c < 2 * lanes; ++c) index[c] = (packed[c / 2] >> (4 * (c % 2))) & 0xF;
  lo = hn::GatherIndex(df, table, hn::Load(di, index));
  hi = hn::GatherIndex(df, table, hn::Load(di, index + lanes));
}
#endif  // PTO_NATIVE_FP4_PAIR

}  // namespace HWY_NAMESPACE
}  // namespace pto
HWY_AFTER_NAMESPACE();

#endif  // PTO_KERNELS_PORTABLE_INL_H_
