// x86 variants (AVX2, AVX-512) of kernel building blocks. Each is defined
// beside the flag PTO_NATIVE_<BLOCK> that it toggles; its portable twin, of
// the same name and meaning, is in portable-inl.h, compiled for every target
// where no variant toggled the flag: every non-x86 target, x86's older ones,
// and every x86 target in a build with -Dx86_specializations=false. CI tests
// the twins on SSE4, SSSE3 and EMU128 and under qemu on NEON and SVE.
//   - PTO_NATIVE_LOOKUP4: Lookup4 by one register permute, with
//     BucketIndexHalf and Exp2Index building its indices in the form the
//     permute takes, without masking;
//   - PTO_NATIVE_LOOKUP16: Lookup16, one or two permutes per table, and on
//     AVX2 Lookup8, one permute (the only target whose kernels use it);
//   - PTO_NATIVE_LOOKUP16_F64: Lookup16F64, sixteen doubles by one
//     two-register permute on AVX-512, by a gather into a zeroed register on
//     AVX2;
//   - PTO_NATIVE_CLAMP_EXPONENT: ClampExponent by MAXPD and MINPD, whose
//     operand order sends a NaN to -200 (the twin: a compare and a select);
//   - PTO_NATIVE_POW_TAIL: LoadTail/StoreTail, row tails by masked loads
//     and stores instead of stack buffers (AVX2 float32 stores: by 4, 2 and
//     1 lanes, StoreFirstLanesByHalves);
//   - PTO_NATIVE_RSQRT_ESTIMATE: EstimateTo12Bits, RSQRTPS alone;
//   - PTO_NATIVE_RECIPROCAL_ESTIMATE: ReciprocalTo11Bits, RCPPS (AVX-512:
//     RCP14PS) alone;
//   - PTO_NATIVE_TRUNCATE_IN_RANGE: TruncateInRange, CVTTPS2DQ alone
//     (Highway's ConvertTo adds the fix-up of positive overflows);
//   - PTO_NATIVE_FLOAT_OF_MAGNITUDE: FloatOfMagnitude on AVX-512, one
//     VCVTUDQ2PS;
//   - PTO_NATIVE_FP4_PAIR: Fp4Pair on AVX-512, the values of 32 packed
//     4-bit codes by two permutes of a 16-float table and two two-register
//     permutes that put them in order.
// The flags follow Highway's HWY_NATIVE_* convention: this file is compiled
// once per target (foreach_target.h), and each pass toggles the flags of the
// blocks it defines, so that portable-inl.h, included after it, sees which.
//
// Re-included once per target by foreach_target.h, hence the toggle guard.
#if defined(PTO_KERNELS_X86_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef PTO_KERNELS_X86_INL_H_
#undef PTO_KERNELS_X86_INL_H_
#else
#define PTO_KERNELS_X86_INL_H_
#endif

#include <stddef.h>
#include <stdint.h>

#include "hwy/highway.h"
#include "src/kernels/simd-inl.h"

#if PTO_X86_SPECIALIZED
HWY_BEFORE_NAMESPACE();
namespace pto {
namespace HWY_NAMESPACE {

#ifdef PTO_NATIVE_LOOKUP4
#undef PTO_NATIVE_LOOKUP4
#else
#define PTO_NATIVE_LOOKUP4
#endif

// table[i] for 64-bit lanes (a double vector of the same width as the
// register). AVX2: idx holds the dword pair (2i, 2i + 1) in each 64-bit lane;
// AVX-512: i in the low three bits of each lane (the tables in pow-tables.h
// hold their four entries twice). Higher index bits are ignored.
template <class D>
HWY_INLINE hn::Vec<D> Lookup4(D d, const hn::TFromD<D>* table,
                              hn::Vec<hn::RebindToUnsigned<D>> idx) {
  const hn::Repartition<double, D> dd;
#if HWY_TARGET <= HWY_AVX3
  return hn::BitCast(d,
                     hn::Vec<decltype(dd)>{_mm512_permutexvar_pd(idx.raw, _mm512_loadu_pd(table))});
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

#ifdef PTO_NATIVE_CLAMP_EXPONENT
#undef PTO_NATIVE_CLAMP_EXPONENT
#else
#define PTO_NATIVE_CLAMP_EXPONENT
#endif

// t clamped to [-200, 200], NaN to -200: x86's MAXPD returns its second
// operand where either is a NaN.
template <class DD>
HWY_INLINE hn::Vec<DD> ClampExponent(DD dd, hn::Vec<DD> t) {
  (void)dd;
#if HWY_TARGET <= HWY_AVX3
  return hn::Vec<DD>{
      _mm512_min_pd(_mm512_max_pd(t.raw, _mm512_set1_pd(-200.0)), _mm512_set1_pd(200.0))};
#else
  return hn::Vec<DD>{
      _mm256_min_pd(_mm256_max_pd(t.raw, _mm256_set1_pd(-200.0)), _mm256_set1_pd(200.0))};
#endif
}

#ifdef PTO_NATIVE_LOOKUP16
#undef PTO_NATIVE_LOOKUP16
#else
#define PTO_NATIVE_LOOKUP16
#endif

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

#if HWY_TARGET == HWY_AVX2
// table[i] for the low three bits i of each idx lane (higher bits ignored):
// one permute of an 8-float register, which reads only those bits.
template <class DF>
HWY_INLINE hn::Vec<DF> Lookup8(DF df, const float* table, hn::Vec<hn::RebindToUnsigned<DF>> idx) {
  static_assert(hn::MaxLanes(DF()) == 8, "one register per table");
  return hn::Vec<DF>{_mm256_permutevar8x32_ps(hn::LoadU(df, table).raw, idx.raw)};
}
#endif

#ifdef PTO_NATIVE_LOOKUP16_F64
#undef PTO_NATIVE_LOOKUP16_F64
#else
#define PTO_NATIVE_LOOKUP16_F64
#endif

// table[i] for the low four bits i of each 64-bit idx lane (higher bits
// ignored). AVX-512: one VPERMT2PD over the table's two registers, which a
// gather of eight doubles costs many times over; row tails pass fewer lanes,
// whose index fills the low part of a whole register, the other lanes
// looked up and dropped. AVX2: a gather into a zeroed register: VGATHERQPD
// merges into its destination, and a destination of the compiler's choosing
// would make one half's lookup wait on the other half's last result
// (docs/performance.md, texp and tlog).
template <class DD>
HWY_INLINE hn::Vec<DD> Lookup16F64(DD dd, const double* table,
                                   hn::Vec<hn::RebindToUnsigned<DD>> idx) {
  constexpr size_t kLanes = hn::MaxLanes(DD());
#if HWY_TARGET <= HWY_AVX3
  (void)dd;
  const hn::ScalableTag<double> whole;
  static_assert(hn::MaxLanes(decltype(whole)()) == 8, "two registers per table");
  __m512i wide_idx;
  if constexpr (kLanes == 8) {
    wide_idx = idx.raw;
  } else if constexpr (kLanes == 4) {
    wide_idx = _mm512_castsi256_si512(idx.raw);
  } else {
    wide_idx = _mm512_castsi128_si512(idx.raw);
  }
  const __m512d out = _mm512_permutex2var_pd(hn::LoadU(whole, table).raw, wide_idx,
                                             hn::LoadU(whole, table + 8).raw);
  if constexpr (kLanes == 8) {
    return hn::Vec<DD>{out};
  } else if constexpr (kLanes == 4) {
    return hn::Vec<DD>{_mm512_castpd512_pd256(out)};
  } else {
    return hn::Vec<DD>{_mm512_castpd512_pd128(out)};
  }
#else
  // Written out: GCC drops the intrinsics' zero merge operand under a full
  // mask, and the register with it.
  const hn::RebindToUnsigned<DD> du;
  const auto low = hn::And(idx, hn::Set(du, 15u));
  auto out = hn::Zero(dd);
  auto mask = hn::BitCast(dd, hn::Set(du, ~uint64_t{0}));
  asm("vgatherqpd %1, (%2,%3,8), %0"
      : "+x"(out.raw), "+x"(mask.raw)
      : "r"(table), "x"(low.raw), "m"(*reinterpret_cast<const double(*)[16]>(table)));
  return out;
#endif
}


#ifdef PTO_NATIVE_POW_TAIL
#undef PTO_NATIVE_POW_TAIL
#else
#define PTO_NATIVE_POW_TAIL
#endif

// The rest < Lanes(df) elements of a pow row tail at p as f32 lanes, and
// back, by masked loads and stores, which neither touch memory outside the
// region nor write it back (AVX2 vmaskmovps, AVX-512 masked moves; AVX2 f32
// stores by halves, below); the unused lanes get x = y = 1, which stays on
// the fast paths. A tail through stack buffers costs more than the vector
// itself (a store-forwarding stall on the reload, the fill loop and a memcpy
// call). AVX2 has no 16-bit masked moves: FLOAT16/BFLOAT16 go through the
// buffers there.
template <typename T>
constexpr bool MaskedTailFor() {
  return hwy::IsSame<T, float>() || HWY_TARGET <= HWY_AVX3;
}

template <class DF, typename T>
HWY_INLINE hn::Vec<DF> LoadTail(DF df, const T* p, size_t rest) {
  const auto one = hn::Set(df, 1.0f);
  if constexpr (!MaskedTailFor<T>()) {
    return LoadTailBuffered(df, p, rest);
  } else if constexpr (hwy::IsSame<T, float>()) {
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

// The first rest < 8 lanes of an AVX2 f32 vector stored as 4, 2 and 1 lanes
// by the bits of rest. AVX2's masked store (vmaskmovps) is microcoded on
// AMD Zen, and a short row's tail stored with it costs more than these
// plain stores, and more than the stack buffer of the portable StoreTail.
// AVX-512's masked stores are native and stay.
template <class DF>
HWY_INLINE void StoreFirstLanesByHalves(DF df, hn::Vec<DF> v, float* p, size_t rest) {
  const hn::Half<DF> d4;
  const hn::Half<decltype(d4)> d2;
  const hn::Half<decltype(d2)> d1;
  auto v4 = hn::LowerHalf(d4, v);
  if (rest & 4) {
    hn::StoreU(v4, d4, p);
    v4 = hn::UpperHalf(d4, v);
    p += 4;
  }
  auto v2 = hn::LowerHalf(d2, v4);
  if (rest & 2) {
    hn::StoreU(v2, d2, p);
    v2 = hn::UpperHalf(d2, v4);
    p += 2;
  }
  if (rest & 1) hn::StoreU(hn::LowerHalf(d1, v2), d1, p);
}

template <class DF, typename T>
HWY_INLINE void StoreTail(DF df, hn::Vec<DF> v, T* p, size_t rest) {
  if constexpr (!MaskedTailFor<T>()) {
    StoreTailBuffered(df, v, p, rest);
  } else if constexpr (hwy::IsSame<T, float>() && HWY_TARGET == HWY_AVX2) {
    StoreFirstLanesByHalves(df, v, p, rest);
  } else if constexpr (hwy::IsSame<T, float>()) {
    hn::BlendedStore(v, hn::FirstN(df, rest), df, p);
  } else {
    const hn::Rebind<uint16_t, DF> du16;
    hn::Vec<decltype(du16)> bits;
    if constexpr (hwy::IsSame<T, hwy::float16_t>()) {
      bits = hn::BitCast(du16, hn::DemoteTo(hn::Rebind<hwy::float16_t, DF>(), v));
    } else {
      bits = TruncateLanes(du16, BF16BitsFromF32(df, v));
    }
    hn::BlendedStore(bits, hn::FirstN(du16, rest), du16, reinterpret_cast<uint16_t*>(p));
  }
}

#ifdef PTO_NATIVE_RSQRT_ESTIMATE
#undef PTO_NATIVE_RSQRT_ESTIMATE
#else
#define PTO_NATIVE_RSQRT_ESTIMATE
#endif

// An estimate (1 + e)/sqrt(x) with |e| <= 1.5 * 2^-12 (see rsqrt.cc):
// RSQRTPS guarantees that bound, AVX-512's RSQRT14PS 2^-14.
template <class D>
HWY_INLINE hn::Vec<D> EstimateTo12Bits(D d, hn::Vec<D> x) {
  (void)d;
  return hn::ApproximateReciprocalSqrt(x);
}

#ifdef PTO_NATIVE_RECIPROCAL_ESTIMATE
#undef PTO_NATIVE_RECIPROCAL_ESTIMATE
#else
#define PTO_NATIVE_RECIPROCAL_ESTIMATE
#endif

// An estimate (1 + e)/x with |e| <= 2^-11 for a positive normal x: RCPPS
// guarantees 1.5 * 2^-12, AVX-512's RCP14PS 2^-14.
template <class D>
HWY_INLINE hn::Vec<D> ReciprocalTo11Bits(D d, hn::Vec<D> x) {
  (void)d;
  return hn::ApproximateReciprocal(x);
}

#ifdef PTO_NATIVE_TRUNCATE_IN_RANGE
#undef PTO_NATIVE_TRUNCATE_IN_RANGE
#else
#define PTO_NATIVE_TRUNCATE_IN_RANGE
#endif

// float32 lanes truncated to int32 lanes, each in (-2^31, 2^31): one
// CVTTPS2DQ of the vector's width.
template <class DI, class VF>
HWY_INLINE hn::Vec<DI> TruncateInRange(DI di, VF v) {
  (void)di;
  constexpr size_t kBytes = hn::MaxLanes(DI()) * sizeof(int32_t);
#if HWY_TARGET <= HWY_AVX3
  if constexpr (kBytes == 64) return hn::Vec<DI>{_mm512_cvttps_epi32(v.raw)};
#endif
  if constexpr (kBytes == 32) {
    return hn::Vec<DI>{_mm256_cvttps_epi32(v.raw)};
  } else if constexpr (kBytes <= 16) {
    return hn::Vec<DI>{_mm_cvttps_epi32(v.raw)};
  }
}

#if HWY_TARGET <= HWY_AVX3
#ifdef PTO_NATIVE_FLOAT_OF_MAGNITUDE
#undef PTO_NATIVE_FLOAT_OF_MAGNITUDE
#else
#define PTO_NATIVE_FLOAT_OF_MAGNITUDE
#endif

// uint32 lanes of at most 2^31 as float32, correctly rounded.
template <class DF, class VU>
HWY_INLINE hn::Vec<DF> FloatOfMagnitude(DF df, VU v) {
  return hn::ConvertTo(df, v);
}
#endif

#if HWY_TARGET <= HWY_AVX3
#ifdef PTO_NATIVE_FP4_PAIR
#undef PTO_NATIVE_FP4_PAIR
#else
#define PTO_NATIVE_FP4_PAIR
#endif

// table[c] for the 2 Lanes(df) 4-bit codes c of the Lanes(df) bytes at
// packed (two a byte, the first in the low four bits), in order: the first
// Lanes(df) in lo, the rest in hi. The bytes widened to 32-bit lanes index
// the table by their low four bits (VPERMPS reads no others): the even
// codes, and shifted down by four the odd ones; two VPERMT2PS interleave
// them. Six instructions for 32 values (the placement in a float's fields
// takes about twice as many, with the nibbles split first).
template <class DF>
HWY_INLINE void Fp4Pair(DF df, const float* table, const uint8_t* packed, hn::Vec<DF>& lo,
                        hn::Vec<DF>& hi) {
  static_assert(hn::MaxLanes(DF()) == 16, "one register per table");
  const __m512i bytes =
      _mm512_cvtepu8_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(packed)));
  const __m512 values = hn::LoadU(df, table).raw;
  const __m512 even = _mm512_permutexvar_ps(bytes, values);
  const __m512 odd = _mm512_permutexvar_ps(_mm512_srli_epi32(bytes, 4), values);
  // Lane 2i of the pair from even's lane i, lane 2i + 1 from odd's (16 + i).
  const __m512i first = _mm512_setr_epi32(0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
  const __m512i second =
      _mm512_setr_epi32(8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
  lo = hn::Vec<DF>{_mm512_permutex2var_ps(even, first, odd)};
  hi = hn::Vec<DF>{_mm512_permutex2var_ps(even, second, odd)};
}
#endif

}  // namespace HWY_NAMESPACE
}  // namespace pto
HWY_AFTER_NAMESPACE();
#endif  // PTO_X86_SPECIALIZED

#endif  // PTO_KERNELS_X86_INL_H_
