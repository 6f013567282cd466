// Per-target building blocks shared by the kernel families: loading and
// storing every element type as compute lanes (FLOAT16/BFLOAT16 as f32 with
// one round-to-nearest-even on the way back, 8-bit integers as 16-bit lanes)
// and the row drivers that walk a 2-D region Lanes(d) elements at a time
// (elementwise BFLOAT16: a full vector of storage at a time, in pairs).
//
// Re-included once per target by foreach_target.h, hence the toggle guard.
#if defined(PTO_KERNELS_SIMD_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef PTO_KERNELS_SIMD_INL_H_
#undef PTO_KERNELS_SIMD_INL_H_
#else
#define PTO_KERNELS_SIMD_INL_H_
#endif

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <type_traits>

#include "hwy/highway.h"
#include "pto_c.h"
#include "src/kernels/kernels.h"

// 1 where this target may use an x86-specific variant of a kernel building
// block (AVX2 and AVX-512, in files named *-x86-inl.h), 0 where it runs the
// portable twin. The build option x86_specializations=false defines
// PTO_PORTABLE_KERNELS_ONLY, so that the portable code is tested on x86 too.
#undef PTO_X86_SPECIALIZED
#if HWY_ARCH_X86 && (HWY_TARGET == HWY_AVX2 || HWY_TARGET <= HWY_AVX3) && \
    !defined(PTO_PORTABLE_KERNELS_ONLY)
#define PTO_X86_SPECIALIZED 1
#else
#define PTO_X86_SPECIALIZED 0
#endif

HWY_BEFORE_NAMESPACE();
namespace pto {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// hn::TruncateTo into unsigned lanes (each lane's low bits), except that on
// AVX3_DL Highway 1.0.3's TruncateTo of a 256-bit vector (uint32 to uint16 in
// 8 lanes, uint16 to uint8 in 16) returns wrong lanes; there each lane is
// masked to the narrow type's range and demoted instead, which is exact.
template <class DN, class V>
HWY_INLINE hn::Vec<DN> TruncateLanes(DN dn, V v) {
#if HWY_TARGET == HWY_AVX3_DL
  using TW = hn::TFromV<V>;
  using TN = hn::TFromD<DN>;
  if constexpr (sizeof(TW) <= 4 && !hwy::IsSigned<TN>()) {
    const hn::DFromV<V> dw;
    const hn::RebindToSigned<decltype(dw)> dws;
    const auto low = hn::And(v, hn::Set(dw, static_cast<TW>(hwy::LimitsMax<TN>())));
    return hn::DemoteTo(dn, hn::BitCast(dws, low));
  }
#endif
  return hn::TruncateTo(dn, v);
}
// Highway's HWY_IF_* macros name TFromD unqualified.
using hn::TFromD;

// ---------------------------------------------------------------------------
// FLOAT16 / BFLOAT16 <-> f32 lanes, exact widening and round-to-nearest-even
// narrowing on every target. Highway 1.0.3 truncates in its software paths
// (targets without F16C, and bfloat16 everywhere), so those are done here with
// integer lanes.

template <class DF>
HWY_INLINE hn::Vec<DF> F32FromF16Bits(DF df, hn::Vec<hn::RebindToUnsigned<DF>> h) {
  const hn::RebindToUnsigned<DF> du;
  const auto em = hn::And(h, hn::Set(du, 0x7FFFu));
  const auto sign = hn::ShiftLeft<16>(hn::And(h, hn::Set(du, 0x8000u)));
  const auto shifted = hn::ShiftLeft<13>(em);
  // Scaling by 2^112 rebiases the exponent; f16 subnormals arrive as f32
  // subnormals and come out normalised, exactly.
  const auto finite =
      hn::Mul(hn::BitCast(df, shifted), hn::Set(df, 0x1p112f));
  const auto special = hn::BitCast(df, hn::Or(shifted, hn::Set(du, 0x7F800000u)));
  const auto is_special = hn::RebindMask(df, hn::Gt(em, hn::Set(du, 0x7BFFu)));
  const auto magnitude = hn::IfThenElse(is_special, special, finite);
  return hn::Or(magnitude, hn::BitCast(df, sign));
}

template <class DF>
HWY_INLINE hn::Vec<hn::RebindToUnsigned<DF>> F16BitsFromF32(DF df, hn::Vec<DF> v) {
  const hn::RebindToUnsigned<DF> du;
  const auto bits = hn::BitCast(du, v);
  const auto sign = hn::And(bits, hn::Set(du, 0x80000000u));
  const auto abs = hn::Xor(bits, sign);
  // Overflow, infinity and NaN (quietened).
  const auto big = hn::IfThenElse(hn::Gt(abs, hn::Set(du, 0x7F800000u)),
                                  hn::Set(du, 0x7E00u), hn::Set(du, 0x7C00u));
  // Results below the f16 normal range: adding a magic number makes the FPU
  // round the mantissa to the f16 subnormal grid (nearest even).
  const auto magic = hn::Set(du, 126u << 23);
  const auto sub = hn::Sub(
      hn::BitCast(du, hn::Add(hn::BitCast(df, abs), hn::BitCast(df, magic))),
      magic);
  // Normal results: rebias and round to nearest even on the 13 dropped bits.
  const auto odd = hn::And(hn::ShiftRight<13>(abs), hn::Set(du, 1u));
  const auto rebiased =
      hn::Add(abs, hn::Set(du, 0xFFFu - (112u << 23)));
  const auto normal = hn::ShiftRight<13>(hn::Add(rebiased, odd));
  auto out = hn::IfThenElse(hn::Lt(abs, hn::Set(du, 113u << 23)), sub, normal);
  out = hn::IfThenElse(hn::Gt(abs, hn::Set(du, (143u << 23) - 1)), big, out);
  return hn::Or(out, hn::ShiftRight<16>(sign));
}

template <class DF>
HWY_INLINE hn::Vec<DF> F32FromBF16Bits(DF df, hn::Vec<hn::RebindToUnsigned<DF>> h) {
  (void)df;
  return hn::BitCast(df, hn::ShiftLeft<16>(h));
}

// v rounded to nearest even in the upper 16 bits of each lane, NaN quietened;
// the lower 16 bits are left over from the rounding.
template <class DF>
HWY_INLINE hn::Vec<hn::RebindToUnsigned<DF>> BF16RoundedHigh(DF df, hn::Vec<DF> v) {
  (void)df;
  const hn::RebindToUnsigned<DF> du;
  const auto bits = hn::BitCast(du, v);
  const auto lsb = hn::And(hn::ShiftRight<16>(bits), hn::Set(du, 1u));
  const auto rounded = hn::Add(hn::Add(bits, hn::Set(du, 0x7FFFu)), lsb);
  const auto quiet_nan = hn::Or(bits, hn::Set(du, 0x400000u));
  return hn::IfThenElse(hn::RebindMask(du, hn::IsNaN(v)), quiet_nan, rounded);
}

template <class DF>
HWY_INLINE hn::Vec<hn::RebindToUnsigned<DF>> BF16BitsFromF32(DF df, hn::Vec<DF> v) {
  return hn::ShiftRight<16>(BF16RoundedHigh(df, v));
}

// BFLOAT16 in pairs: the 32-bit lanes of a full vector loaded from BFLOAT16
// storage hold elements 2i (low half) and 2i + 1 (high half), each of which
// is an f32 once the other half is cleared. Elementwise operations thus need
// no widening or narrowing shuffles, only these shifts and masks.
template <class DU>
HWY_INLINE hn::Vec<hn::RebindToFloat<DU>> F32FromBF16PairLow(DU du, hn::Vec<DU> pairs) {
  (void)du;
  return hn::BitCast(hn::RebindToFloat<DU>(), hn::ShiftLeft<16>(pairs));
}
template <class DU>
HWY_INLINE hn::Vec<hn::RebindToFloat<DU>> F32FromBF16PairHigh(DU du, hn::Vec<DU> pairs) {
  return hn::BitCast(hn::RebindToFloat<DU>(), hn::And(pairs, hn::Set(du, 0xFFFF0000u)));
}
template <class DF>
HWY_INLINE hn::Vec<hn::RebindToUnsigned<DF>> BF16PairFromF32(DF df, hn::Vec<DF> low,
                                                             hn::Vec<DF> high) {
  const hn::RebindToUnsigned<DF> du;
  const hn::Repartition<uint16_t, DF> d16;
  // Odd 16-bit lanes from high, even ones from low (one blend on x86).
  return hn::BitCast(du,
                     hn::OddEven(hn::BitCast(d16, BF16RoundedHigh(df, high)),
                                 hn::BitCast(d16, hn::ShiftRight<16>(BF16RoundedHigh(df, low)))));
}

// ---------------------------------------------------------------------------
// double -> f32 lanes, rounded once to nearest even with subnormals, zeros
// and infinities as IEEE rounding gives them. Highway's EMU128 and SCALAR
// DemoteTo saturate at +-FLT_MAX instead of rounding to infinity, so there
// the lanes that round to +-inf travel as +-1 in a second vector.
template <class DD>
HWY_INLINE hn::Vec<hn::Rebind<float, DD>> DemoteToF32(DD dd, hn::Vec<DD> v) {
  const hn::Rebind<float, DD> df;
#if HWY_TARGET == HWY_EMU128 || HWY_TARGET == HWY_SCALAR
  // FLT_MAX + half an ulp rounds to infinity (FLT_MAX's last bit is odd).
  const auto overflow = hn::Ge(hn::Abs(v), hn::Set(dd, 0x1.ffffffp127));
  const auto inf_sign =
      hn::DemoteTo(df, hn::IfThenElseZero(overflow, hn::CopySign(hn::Set(dd, 1.0), v)));
  const auto finite = hn::DemoteTo(df, hn::IfThenZeroElse(overflow, v));
  return hn::IfThenElse(hn::Eq(inf_sign, hn::Zero(df)), finite,
                        hn::Mul(inf_sign, hn::Set(df, HUGE_VALF)));
#else
  (void)dd;
  return hn::DemoteTo(df, v);
#endif
}

// ---------------------------------------------------------------------------
// LoadAs / StoreAs: Lanes(d) elements of storage type T <-> lanes of d.

template <class D>
HWY_INLINE hn::Vec<D> LoadAs(D d, const hn::TFromD<D>* p) {
  return hn::LoadU(d, p);
}
template <class D>
HWY_INLINE void StoreAs(D d, hn::Vec<D> v, hn::TFromD<D>* p) {
  hn::StoreU(v, d, p);
}

template <class DF, HWY_IF_FLOAT_D(DF)>
HWY_INLINE hn::Vec<DF> LoadAs(DF df, const hwy::float16_t* p) {
#if HWY_TARGET <= HWY_AVX2 && HWY_ARCH_X86
  return hn::PromoteTo(df, hn::LoadU(hn::Rebind<hwy::float16_t, DF>(), p));
#else
  const hn::RebindToUnsigned<DF> du;
  const hn::Rebind<uint16_t, DF> du16;
  return F32FromF16Bits(
      df, hn::PromoteTo(du, hn::LoadU(du16, reinterpret_cast<const uint16_t*>(p))));
#endif
}
template <class DF, HWY_IF_FLOAT_D(DF)>
HWY_INLINE void StoreAs(DF df, hn::Vec<DF> v, hwy::float16_t* p) {
#if HWY_TARGET <= HWY_AVX2 && HWY_ARCH_X86
  // F16C's vcvtps2ph, which Highway issues with round-to-nearest-even.
  hn::StoreU(hn::DemoteTo(hn::Rebind<hwy::float16_t, DF>(), v),
             hn::Rebind<hwy::float16_t, DF>(), p);
#else
  const hn::Rebind<uint16_t, DF> du16;
  hn::StoreU(TruncateLanes(du16, F16BitsFromF32(df, v)), du16,
             reinterpret_cast<uint16_t*>(p));
#endif
}

template <class DF, HWY_IF_FLOAT_D(DF)>
HWY_INLINE hn::Vec<DF> LoadAs(DF df, const hwy::bfloat16_t* p) {
  const hn::RebindToUnsigned<DF> du;
  const hn::Rebind<uint16_t, DF> du16;
  return F32FromBF16Bits(
      df, hn::PromoteTo(du, hn::LoadU(du16, reinterpret_cast<const uint16_t*>(p))));
}
template <class DF, HWY_IF_FLOAT_D(DF)>
HWY_INLINE void StoreAs(DF df, hn::Vec<DF> v, hwy::bfloat16_t* p) {
  const hn::Rebind<uint16_t, DF> du16;
  hn::StoreU(TruncateLanes(du16, BF16BitsFromF32(df, v)), du16,
             reinterpret_cast<uint16_t*>(p));
}

// float16/bfloat16 storage as its bits in uint16_t lanes (BitsTag): a copy
// that keeps every bit, signalling NaNs included.
template <typename S>
constexpr bool kIsHalfFloat =
    std::is_same<S, hwy::float16_t>::value || std::is_same<S, hwy::bfloat16_t>::value;
template <class DU, typename S,
          hwy::EnableIf<std::is_same<hn::TFromD<DU>, uint16_t>::value && kIsHalfFloat<S>>* = nullptr>
HWY_INLINE hn::Vec<DU> LoadAs(DU du, const S* p) {
  return hn::LoadU(du, reinterpret_cast<const uint16_t*>(p));
}
template <class DU, typename S,
          hwy::EnableIf<std::is_same<hn::TFromD<DU>, uint16_t>::value && kIsHalfFloat<S>>* = nullptr>
HWY_INLINE void StoreAs(DU du, hn::Vec<DU> v, S* p) {
  hn::StoreU(v, du, reinterpret_cast<uint16_t*>(p));
}

// The lanes of a bit-exact move: each type's own, float16 and bfloat16 as
// uint16_t (their values never enter arithmetic).
template <typename T>
using BitsTag = hn::ScalableTag<std::conditional_t<kIsHalfFloat<T>, uint16_t, T>>;

// A mask with every lane set (Highway 1.0.3 has no MaskTrue).
template <class D>
HWY_INLINE hn::Mask<D> AllLanes(D d) {
  const hn::RebindToUnsigned<D> du;
  return hn::RebindMask(d, hn::Eq(hn::Zero(du), hn::Zero(du)));
}

// A compiler barrier: no load or store is moved across it, and it emits no
// instruction. GCC schedules a loop's loads at the top of its body, and a
// value loaded early but used last stays live through all of the body's
// work; where registers are short it is spilled to the stack and read back
// (PowHighBlocks: y, converted to double at the top of pass 1, spilled and
// reloaded for its multiply at the end).
HWY_INLINE void LoadsBelowThis() { asm volatile("" ::: "memory"); }

#if HWY_TARGET != HWY_SCALAR
// The lower and upper halves of LoadAs(d, p). Storage of d's own type loads
// as two halves, so that what uses a half on its own (a conversion to
// double) can read it from memory; other types are widened whole and split.
template <class D, typename T>
HWY_INLINE void LoadHalvesAs(D d, const T* p, hn::Vec<hn::Half<D>>* lo, hn::Vec<hn::Half<D>>* hi) {
  const hn::Half<D> dh;
  if constexpr (hwy::IsSame<T, hn::TFromD<D>>()) {
    (void)d;
    *lo = hn::LoadU(dh, p);
    *hi = hn::LoadU(dh, p + hn::Lanes(dh));
  } else {
    const auto v = LoadAs(d, p);
    *lo = hn::LowerHalf(dh, v);
    *hi = hn::UpperHalf(dh, v);
  }
}
#endif

// 8-bit integers in 16-bit lanes (Highway has no 8-bit multiply); storing
// keeps the low 8 bits, which is the wrapped result.
template <class D16, typename T8,
          hwy::EnableIf<sizeof(T8) == 1 && sizeof(hn::TFromD<D16>) == 2>* = nullptr>
HWY_INLINE hn::Vec<D16> LoadAs(D16 d, const T8* p) {
  using Wide = hn::TFromD<D16>;
  using Narrow = std::conditional_t<hwy::IsSigned<Wide>(), int8_t, uint8_t>;
  const hn::Rebind<Narrow, D16> d8;
  return hn::PromoteTo(d, hn::LoadU(d8, reinterpret_cast<const Narrow*>(p)));
}
template <class D16, typename T8,
          hwy::EnableIf<sizeof(T8) == 1 && sizeof(hn::TFromD<D16>) == 2>* = nullptr>
HWY_INLINE void StoreAs(D16 d, hn::Vec<D16> v, T8* p) {
  (void)d;
  const hn::RebindToUnsigned<D16> du16;
  const hn::Rebind<uint8_t, D16> du8;
  hn::StoreU(TruncateLanes(du8, hn::BitCast(du16, v)), du8,
             reinterpret_cast<uint8_t*>(p));
}

// ---------------------------------------------------------------------------
// Row drivers. `body(d, a, b, out)` processes exactly Lanes(d) elements from
// pointers of the storage types. Nothing outside the region is read or
// written: a masked store would be a read-modify-write on some targets.
//
// ForEachBinaryAnyWidth finishes each row with ever narrower vectors (half,
// quarter, ... of d), so `body` must accept a descriptor of any width; it is
// the cheaper driver. ForEachBinary accepts any body: its row tail goes
// through stack buffers of one full vector.

template <class D, typename TD, typename TA, typename TB, class Body>
HWY_INLINE void NarrowingTail(D, size_t rest, TD* out, const TA* a, const TB* b,
                              const Body& body) {
  constexpr size_t kHalf = hn::MaxLanes(D()) / 2;
  if constexpr (kHalf >= 1) {
    const hn::CappedTag<hn::TFromD<D>, kHalf> dh;
    if (rest >= kHalf) {
      body(dh, a, b, out);
      a += kHalf;
      b += kHalf;
      out += kHalf;
      rest -= kHalf;
    }
    if (rest != 0) NarrowingTail(dh, rest, out, a, b, body);
  }
}

// buf[0, Lanes(d)) = p's first rest elements, then repeats of the last, so
// that the unused lanes take the same (fast or slow) path as the real ones.
// Copied as bytes: the buffer may be read through another type (LoadAs
// reads FLOAT16, which is __fp16 on aarch64, as uint16_t), and element
// assignments would let the compiler move that read above them (strict
// aliasing); memcpy's accesses alias every type.
template <class D, typename T>
HWY_INLINE void FillTailBuffer(D d, T* buf, const T* p, size_t rest) {
  for (size_t k = 0; k < hn::Lanes(d); ++k) memcpy(&buf[k], &p[k < rest ? k : rest - 1], sizeof(T));
}

template <class D, typename TD, typename TA, typename TB, class Body>
HWY_INLINE void BufferedTail(D d, size_t rest, TD* out, const TA* a, const TB* b,
                             const Body& body) {
  constexpr size_t kMax = hn::MaxLanes(D());
  TA abuf[kMax];
  TB bbuf[kMax];
  TD obuf[kMax];
  FillTailBuffer(d, abuf, a, rest);
  FillTailBuffer(d, bbuf, b, rest);
  body(d, abuf, bbuf, obuf);
  memcpy(out, obuf, rest * sizeof(TD));
}

// The rest < Lanes(d) elements at p as lanes of d (FillTailBuffer's unused
// lanes), and back: the portable LoadTail/StoreTail (portable-inl.h).
template <class D, typename T>
HWY_INLINE hn::Vec<D> LoadTailBuffered(D d, const T* p, size_t rest) {
  T buf[hn::MaxLanes(D())];
  FillTailBuffer(d, buf, p, rest);
  return LoadAs(d, buf);
}

template <class D, typename T>
HWY_INLINE void StoreTailBuffered(D d, hn::Vec<D> v, T* p, size_t rest) {
  T buf[hn::MaxLanes(D())];
  StoreAs(d, v, buf);
  memcpy(p, buf, rest * sizeof(T));
}

// Full vectors along each row, then tail(rest, out, a, b) for the remainder.
template <class D, typename TD, typename TA, typename TB, class Body, class Tail>
HWY_INLINE void ForEachRow(D d, size_t rows, size_t cols, TD* dst, size_t dst_stride,
                           const TA* a, size_t a_stride, const TB* b, size_t b_stride,
                           const Body& body, const Tail& tail) {
  const size_t N = hn::Lanes(d);
  for (size_t r = 0; r < rows; ++r) {
    TD* out = dst + r * dst_stride;
    const TA* pa = a + r * a_stride;
    const TB* pb = b + r * b_stride;
    size_t i = 0;
    for (; i + N <= cols; i += N) body(d, pa + i, pb + i, out + i);
    if (i < cols) tail(cols - i, out + i, pa + i, pb + i);
  }
}

template <class D, typename TD, typename TA, typename TB, class Body>
HWY_INLINE void ForEachBinaryAnyWidth(D d, size_t rows, size_t cols, TD* dst,
                                      size_t dst_stride, const TA* a, size_t a_stride,
                                      const TB* b, size_t b_stride, const Body& body) {
  ForEachRow(d, rows, cols, dst, dst_stride, a, a_stride, b, b_stride, body,
             [&](size_t rest, TD* out, const TA* pa, const TB* pb) {
               NarrowingTail(d, rest, out, pa, pb, body);
             });
}

template <class D, typename TD, typename TA, typename TB, class Body>
HWY_INLINE void ForEachBinary(D d, size_t rows, size_t cols, TD* dst, size_t dst_stride,
                              const TA* a, size_t a_stride, const TB* b, size_t b_stride,
                              const Body& body) {
  ForEachRow(d, rows, cols, dst, dst_stride, a, a_stride, b, b_stride, body,
             [&](size_t rest, TD* out, const TA* pa, const TB* pb) {
               BufferedTail(d, rest, out, pa, pb, body);
             });
}

template <class D, typename TD, typename TA, class Body>
HWY_INLINE void ForEachUnaryAnyWidth(D d, size_t rows, size_t cols, TD* dst,
                                     size_t dst_stride, const TA* a, size_t a_stride,
                                     const Body& body) {
  ForEachBinaryAnyWidth(d, rows, cols, dst, dst_stride, a, a_stride, a, a_stride,
                        [&body](auto dd, const TA* pa, const TA*, TD* out) { body(dd, pa, out); });
}

// dst = op(d, a, b) elementwise over a region of storage type T, op taking
// and returning vectors of d's lanes for any width of d (d: T's compute
// lanes, or T's own where no widening is needed). BFLOAT16 goes by pairs
// (F32FromBF16PairLow above), two f32 vectors per full vector of storage,
// with the same rounding as StoreAs.
template <class D, typename T, class Op>
HWY_INLINE void ForEachElementwise(D d, size_t rows, size_t cols, T* dst, size_t dst_stride,
                                   const T* a, size_t a_stride, const T* b, size_t b_stride,
                                   const Op& op) {
  const auto body = [&op](auto dv, const T* pa, const T* pb, T* out) {
    StoreAs(dv, op(dv, LoadAs(dv, pa), LoadAs(dv, pb)), out);
  };
  // (bfloat16 in uint16_t lanes, BitsTag, is an ordinary row of bits.)
  if constexpr (hwy::IsSame<T, hwy::bfloat16_t>() && hwy::IsFloat<hn::TFromD<D>>() &&
                HWY_TARGET != HWY_SCALAR) {
    static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
                  "element 2i in the low half of a 32-bit lane");
    // Lanes(d16) = 2 * Lanes(d): one step of ForEachRow is a full vector of
    // storage.
    const hn::Repartition<uint16_t, D> d16;
    const hn::RebindToUnsigned<D> du;
    const auto pair_body = [&op, d, du](auto, const T* pa, const T* pb, T* out) {
      const auto va = hn::LoadU(du, reinterpret_cast<const uint32_t*>(pa));
      const auto vb = hn::LoadU(du, reinterpret_cast<const uint32_t*>(pb));
      const auto low = op(d, F32FromBF16PairLow(du, va), F32FromBF16PairLow(du, vb));
      const auto high = op(d, F32FromBF16PairHigh(du, va), F32FromBF16PairHigh(du, vb));
      hn::StoreU(BF16PairFromF32(d, low, high), du, reinterpret_cast<uint32_t*>(out));
    };
    // The rest of a row, under a full vector of storage: as one row of
    // ForEachBinaryAnyWidth (at most one vector of d, then narrower ones).
    ForEachRow(d16, rows, cols, dst, dst_stride, a, a_stride, b, b_stride, pair_body,
               [&](size_t rest, T* out, const T* pa, const T* pb) {
                 ForEachBinaryAnyWidth(d, 1, rest, out, 0, pa, 0, pb, 0, body);
               });
  } else {
    ForEachBinaryAnyWidth(d, rows, cols, dst, dst_stride, a, a_stride, b, b_stride, body);
  }
}

// The compute descriptor for storage type T: 8-bit integers widen to 16-bit
// lanes and FLOAT16/BFLOAT16 to f32, so Lanes() counts elements of T.
template <typename T>
struct ComputeLane {
  using type = T;
};
template <>
struct ComputeLane<int8_t> {
  using type = int16_t;
};
template <>
struct ComputeLane<uint8_t> {
  using type = uint16_t;
};
template <>
struct ComputeLane<hwy::float16_t> {
  using type = float;
};
template <>
struct ComputeLane<hwy::bfloat16_t> {
  using type = float;
};

// A full vector of T's compute lanes; LoadAs/StoreAs move Lanes() elements
// of T (a half vector when T is narrower).
template <typename T>
using ComputeTag = hn::ScalableTag<typename ComputeLane<T>::type>;

// The one way kernels choose their code by dtype. Validation admits only the
// dtypes of the rule table (src/dtype_rules.h), so a dtype a kernel has no
// code for is a broken invariant, not bad input: it aborts rather than return
// with dst untouched.
[[noreturn]] HWY_NOINLINE inline void DtypeWithoutKernel(pto_dtype dtype) {
  HWY_ABORT("libpto: no kernel for dtype %d (validation admitted it)", static_cast<int>(dtype));
}

// Calls fn(T{}) with T the storage type of dtype.
template <class Fn>
HWY_INLINE void VisitDtype(pto_dtype dtype, const Fn& fn) {
  switch (dtype) {
    case PTO_INT8: return fn(int8_t{});
    case PTO_UINT8: return fn(uint8_t{});
    case PTO_INT16: return fn(int16_t{});
    case PTO_UINT16: return fn(uint16_t{});
    case PTO_INT32: return fn(int32_t{});
    case PTO_UINT32: return fn(uint32_t{});
    case PTO_FLOAT16: return fn(hwy::float16_t{});
    case PTO_BFLOAT16: return fn(hwy::bfloat16_t{});
    case PTO_FLOAT32: return fn(float{});
    default: DtypeWithoutKernel(dtype);
  }
}

// VisitDtype for a kernel that has code for the storage types Ts only.
template <typename... Ts, class Fn>
HWY_INLINE void VisitDtypeAmong(pto_dtype dtype, const Fn& fn) {
  VisitDtype(dtype, [&](auto tag) {
    if constexpr ((std::is_same_v<decltype(tag), Ts> || ...)) {
      fn(tag);
    } else {
      DtypeWithoutKernel(dtype);
    }
  });
}

// The lanes of v marked by redo, recomputed one at a time: accurate(x, y)
// from those lanes of x and y (float lanes; the vector paths' rare lanes
// sent to a scalar accurate path: texp, tlog, pow).
template <class D, class Accurate>
HWY_NOINLINE hn::Vec<D> RecomputeLanes(D d, hn::Vec<D> x, hn::Vec<D> y, hn::Vec<D> v,
                                       hn::Mask<D> redo, const Accurate& accurate) {
  constexpr size_t kMax = hn::MaxLanes(D());
  HWY_ALIGN float xs[kMax];
  HWY_ALIGN float ys[kMax];
  HWY_ALIGN float vs[kMax];
  HWY_ALIGN float marks[kMax];
  hn::Store(x, d, xs);
  hn::Store(y, d, ys);
  hn::Store(v, d, vs);
  hn::Store(hn::IfThenElseZero(redo, hn::Set(d, 1.0f)), d, marks);
  for (size_t i = 0; i < hn::Lanes(d); ++i) {
    if (marks[i] != 0.0f) vs[i] = accurate(xs[i], ys[i]);
  }
  return hn::Load(d, vs);
}

}  // namespace HWY_NAMESPACE
}  // namespace pto
HWY_AFTER_NAMESPACE();

#endif  // PTO_KERNELS_SIMD_INL_H_
