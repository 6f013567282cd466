// Portable twins of the building blocks in pow-x86-inl.h: the same names
// and meanings, for every target without the x86 variants (and for x86 in a
// build with -Dx86_specializations=false, which tests this code there).
//   - Lookup4, Lookup16: table lookups by selects and by a gather;
//   - BucketIndexHalf, Exp2Index: table indices as Lookup4 takes them;
//   - ClampExponent: a min and a max;
//   - HasMaskedTail: false (row tails go through BufferedTail, simd-inl.h).
//
// Re-included once per target by foreach_target.h, hence the toggle guard.
#if defined(PTO_KERNELS_POW_PORTABLE_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef PTO_KERNELS_POW_PORTABLE_INL_H_
#undef PTO_KERNELS_POW_PORTABLE_INL_H_
#else
#define PTO_KERNELS_POW_PORTABLE_INL_H_
#endif

#include <stdint.h>

#include "hwy/highway.h"
#include "src/kernels/simd-inl.h"

#if !PTO_X86_SPECIALIZED
HWY_BEFORE_NAMESPACE();
namespace pto {
namespace HWY_NAMESPACE {

template <typename T>
constexpr bool HasMaskedTail() {
  return false;
}

#if HWY_TARGET != HWY_SCALAR

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

template <class DD>
HWY_INLINE hn::Vec<DD> ClampExponent(DD dd, hn::Vec<DD> t) {
  return hn::Min(hn::Max(t, hn::Set(dd, -200.0)), hn::Set(dd, 200.0));
}

// table[i] for the low four bits i of each idx lane (higher bits ignored).
template <class DF>
HWY_INLINE hn::Vec<DF> Lookup16(DF df, const float* table, hn::Vec<hn::RebindToUnsigned<DF>> idx) {
  const hn::RebindToUnsigned<DF> du;
  const hn::RebindToSigned<DF> di;
  return hn::GatherIndex(df, table, hn::BitCast(di, hn::And(idx, hn::Set(du, 15u))));
}

#endif  // HWY_TARGET != HWY_SCALAR

}  // namespace HWY_NAMESPACE
}  // namespace pto
HWY_AFTER_NAMESPACE();
#endif  // !PTO_X86_SPECIALIZED

#endif  // PTO_KERNELS_POW_PORTABLE_INL_H_
