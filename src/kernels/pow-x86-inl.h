// x86 variants (AVX2, AVX-512) of building blocks of the floating-point pow
// kernels. Each has a portable twin of the same name and meaning in
// pow-portable-inl.h, which every other target runs, and which x86 runs too in a
// build with -Dx86_specializations=false (tests/ci/clang.sh tests that build
// on every x86 target):
//   - Lookup4, Lookup16: one or two register permutes per table (the
//     portable twins: selects and gathers);
//   - BucketIndexHalf, Exp2Index: table indices in the form the permutes
//     take, built without masking;
//   - ClampExponent: one VRANGEPD on AVX-512;
//   - LoadTail, StoreTail: row tails by masked loads and stores instead of
//     stack buffers (the portable twin is BufferedTail in simd-inl.h).
//
// Re-included once per target by foreach_target.h, hence the toggle guard.
#if defined(PTO_KERNELS_POW_X86_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef PTO_KERNELS_POW_X86_INL_H_
#undef PTO_KERNELS_POW_X86_INL_H_
#else
#define PTO_KERNELS_POW_X86_INL_H_
#endif

#include <stddef.h>
#include <stdint.h>

#include "hwy/highway.h"
#include "src/kernels/simd-inl.h"

#if PTO_X86_SPECIALIZED
HWY_BEFORE_NAMESPACE();
namespace pto {
namespace HWY_NAMESPACE {

// table[i] for 64-bit lanes (a double vector of the same width as the
// register). AVX2: idx holds the dword pair (2i, 2i + 1) in each 64-bit lane;
// AVX-512: i in the low three bits of each lane (the tables in pow-tables.h
// hold their four entries twice). Higher index bits are ignored.
template <class D>
HWY_INLINE hn::Vec<D> Lookup4(D d, const hn::TFromD<D>* table,
                              hn::Vec<hn::RebindToUnsigned<D>> idx) {
  const hn::Repartition<double, D> dd;
#if HWY_TARGET <= HWY_AVX3
  return hn::BitCast(d, hn::Vec<decltype(dd)>{_mm512_permutexvar_pd(idx.raw, _mm512_loadu_pd(table))});
#else
  const __m256 words = _mm256_loadu_ps(reinterpret_cast<const float*>(table));
  return hn::BitCast(
      d, hn::Vec<decltype(dd)>{_mm256_castps_pd(_mm256_permutevar8x32_ps(words, idx.raw))});
#endif
}

// The bucket index (bits 21-22 of tmp, see SplitLog2Argument) for the lower
// or upper half of the f32 lanes, as Lookup4 takes it in 64-bit lanes.
template <bool kUpper, class DF>
HWY_INLINE hn::Vec<hn::Rebind<uint64_t, hn::Half<DF>>> BucketIndexHalf(
    DF df, hn::Vec<hn::RebindToUnsigned<DF>> tmp) {
  const hn::RebindToUnsigned<DF> du;
  const hn::Half<decltype(du)> dhu;
  const hn::Rebind<uint64_t, decltype(dhu)> du64;
#if HWY_TARGET <= HWY_AVX3
  (void)df;
  const auto bucket = hn::ShiftRight<21>(tmp);  // low 3 bits; tables repeat
  return hn::PromoteTo(du64, kUpper ? hn::UpperHalf(dhu, bucket) : hn::LowerHalf(dhu, bucket));
#else
  (void)df;
  const auto bucket2 = hn::And(hn::ShiftRight<20>(tmp), hn::Set(du, 6u));  // 2 * bucket
  __m256i spread = _mm256_setr_epi32(0, 0, 1, 1, 2, 2, 3, 3);
  if constexpr (kUpper) spread = _mm256_setr_epi32(4, 4, 5, 5, 6, 6, 7, 7);
  return hn::Vec<decltype(du64)>{_mm256_add_epi32(_mm256_permutevar8x32_epi32(bucket2.raw, spread),
                                                  _mm256_setr_epi32(0, 1, 0, 1, 0, 1, 0, 1))};
#endif
}

// The exp2 table index (ki mod 4) as Lookup4 takes it.
template <class DU64>
HWY_INLINE hn::Vec<DU64> Exp2Index(DU64 du64, hn::Vec<DU64> ki) {
  (void)du64;
#if HWY_TARGET <= HWY_AVX3
  return ki;
#else
  // Dword pair (2 ki, 2 ki + 1) in each 64-bit lane.
  return hn::Vec<DU64>{_mm256_add_epi32(
      _mm256_castps_si256(_mm256_moveldup_ps(_mm256_castsi256_ps(_mm256_slli_epi32(ki.raw, 1)))),
      _mm256_setr_epi32(0, 1, 0, 1, 0, 1, 0, 1))};
#endif
}

// t clamped to [-200, 200].
template <class DD>
HWY_INLINE hn::Vec<DD> ClampExponent(DD dd, hn::Vec<DD> t) {
#if HWY_TARGET <= HWY_AVX3
  (void)dd;
  // |t| <= 200 keeps t, else 200 with t's sign (VRANGEPD, absolute minimum,
  // sign of the first operand).
  return hn::Vec<DD>{_mm512_range_pd(t.raw, _mm512_set1_pd(200.0), 2)};
#else
  return hn::Min(hn::Max(t, hn::Set(dd, -200.0)), hn::Set(dd, 200.0));
#endif
}

// table[i] for the low four bits i of each idx lane (higher bits ignored):
// one permute of a 16-float register on AVX-512, two permutes and a blend on
// AVX2.
template <class DF>
HWY_INLINE hn::Vec<DF> Lookup16(DF df, const float* table, hn::Vec<hn::RebindToUnsigned<DF>> idx) {
#if HWY_TARGET <= HWY_AVX3
  static_assert(hn::MaxLanes(DF()) == 16, "one register per table");
  return hn::Vec<DF>{_mm512_permutexvar_ps(idx.raw, hn::LoadU(df, table).raw)};
#else
  static_assert(hn::MaxLanes(DF()) == 8, "two registers per table");
  const __m256 lo = _mm256_permutevar8x32_ps(hn::LoadU(df, table).raw, idx.raw);
  const __m256 hi = _mm256_permutevar8x32_ps(hn::LoadU(df, table + 8).raw, idx.raw);
  // Bit 3 of idx moved to the sign selects the upper table. Written out:
  // GCC turns _mm256_blendv_ps on a shifted mask into a compare with zero
  // plus the blend (two more instructions per vector).
  const __m256 hi_sel = _mm256_castsi256_ps(_mm256_slli_epi32(idx.raw, 28));
  __m256 out;
  asm("vblendvps %3, %2, %1, %0" : "=x"(out) : "x"(lo), "xm"(hi), "x"(hi_sel));
  return hn::Vec<DF>{out};
#endif
}

// Row tails by masked loads and stores, which neither touch memory outside
// the region nor write it back (AVX2 vmaskmovps, AVX-512 masked moves); the
// unused lanes get x = y = 1, which stays on the fast paths. A tail through
// stack buffers filled element by element costs more than the vector itself
// (a store-forwarding stall on the reload, the fill loop and a memcpy call).
// AVX2 has no 16-bit masked moves: FLOAT16/BFLOAT16 keep the buffered tail.
template <typename T>
constexpr bool HasMaskedTail() {
  return hwy::IsSame<T, float>() || HWY_TARGET <= HWY_AVX3;
}

template <class DF, typename T>
HWY_INLINE hn::Vec<DF> LoadTail(DF df, const T* p, size_t rest) {
  const auto one = hn::Set(df, 1.0f);
  if constexpr (hwy::IsSame<T, float>()) {
    const auto m = hn::FirstN(df, rest);
#if HWY_TARGET <= HWY_AVX3
    return hn::Vec<DF>{_mm512_mask_loadu_ps(one.raw, m.raw, p)};
#else
    return hn::IfThenElse(m, hn::MaskedLoad(m, df, p), one);
#endif
  } else {
    // 1.0 in the narrow type: 0x3C00 (FLOAT16) or 0x3F80 (BFLOAT16).
    const hn::Rebind<uint16_t, DF> du16;
    const uint16_t one_bits = hwy::IsSame<T, hwy::float16_t>() ? 0x3C00 : 0x3F80;
    const auto m = hn::FirstN(du16, rest);
    const auto bits = hn::IfThenElse(
        m, hn::MaskedLoad(m, du16, reinterpret_cast<const uint16_t*>(p)), hn::Set(du16, one_bits));
    if constexpr (hwy::IsSame<T, hwy::float16_t>()) {
      return hn::PromoteTo(df, hn::BitCast(hn::Rebind<hwy::float16_t, DF>(), bits));
    } else {
      const hn::RebindToUnsigned<DF> du;
      return F32FromBF16Bits(df, hn::PromoteTo(du, bits));
    }
  }
}

template <class DF, typename T>
HWY_INLINE void StoreTail(DF df, hn::Vec<DF> v, T* p, size_t rest) {
  if constexpr (hwy::IsSame<T, float>()) {
    hn::BlendedStore(v, hn::FirstN(df, rest), df, p);
  } else {
    const hn::Rebind<uint16_t, DF> du16;
    hn::Vec<decltype(du16)> bits;
    if constexpr (hwy::IsSame<T, hwy::float16_t>()) {
      bits = hn::BitCast(du16, hn::DemoteTo(hn::Rebind<hwy::float16_t, DF>(), v));
    } else {
      bits = hn::TruncateTo(du16, BF16BitsFromF32(df, v));
    }
    hn::BlendedStore(bits, hn::FirstN(du16, rest), du16, reinterpret_cast<uint16_t*>(p));
  }
}

}  // namespace HWY_NAMESPACE
}  // namespace pto
HWY_AFTER_NAMESPACE();
#endif  // PTO_X86_SPECIALIZED

#endif  // PTO_KERNELS_POW_X86_INL_H_
