// The Binary rows' functors of operations.def (CamelOp: one vector of
// results over Highway's `D d` in the lanes its Tag names), shared by every
// family that applies the same lane math: the Binary and Scalar families
// (binary.cc) and the broadcasts (broadcast.cc). VisitDtypeIn chooses the
// code for a row's HOST dtypes.
//
// Re-included once per target by foreach_target.h, hence the toggle guard.
#if defined(PTO_KERNELS_BINARY_OPS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef PTO_KERNELS_BINARY_OPS_INL_H_
#undef PTO_KERNELS_BINARY_OPS_INL_H_
#else
#define PTO_KERNELS_BINARY_OPS_INL_H_
#endif

#include <cmath>
#include <type_traits>

#include "hwy/highway.h"
#include "src/dtype_rules.h"
#include "src/kernels/simd-inl.h"

HWY_BEFORE_NAMESPACE();
namespace pto {
namespace HWY_NAMESPACE {

// Addition needs no widening for 8-bit lanes; everything else uses the
// common compute lanes.
template <typename T>
using AddTag = std::conditional_t<sizeof(T) == 1, hn::ScalableTag<T>, ComputeTag<T>>;

struct AddOp {
  template <class D>
  HWY_INLINE hn::Vec<D> operator()(D, hn::Vec<D> x, hn::Vec<D> y) const {
    return hn::Add(x, y);
  }
};

// ---- the Binary rows' functors ----

// The lanes a functor computes in: TagT<T> for storage type T.
template <template <typename> class TagT>
struct InLanes {
  template <typename T>
  using Tag = TagT<T>;
};

// Correctly rounded in every dtype: a float16 or bfloat16 sum computed in
// float32 lanes and rounded once more is the correctly rounded sum (float32
// has more than 2p + 2 bits for p = 11 or 8); integers wrap.
struct TAddOp : AddOp, InLanes<AddTag> {};

struct TSubOp : InLanes<AddTag> {
  template <class D>
  HWY_INLINE hn::Vec<D> operator()(D, hn::Vec<D> x, hn::Vec<D> y) const {
    return hn::Sub(x, y);
  }
};

// Highway multiplies 16- and 32-bit integer lanes (the low half of the
// product: the wrapped result); TMUL has no 8-bit dtype.
struct TMulOp : InLanes<ComputeTag> {
  template <class D>
  HWY_INLINE hn::Vec<D> operator()(D, hn::Vec<D> x, hn::Vec<D> y) const {
    return hn::Mul(x, y);
  }
};

// f(x[i], y[i]) in every lane i, one lane at a time (for what no SIMD target
// computes: integer division, remainders).
template <class D, class F>
HWY_INLINE hn::Vec<D> EachLane(D d, hn::Vec<D> x, hn::Vec<D> y, const F& f) {
  using T = hn::TFromD<D>;
  HWY_ALIGN T a[HWY_MAX_BYTES / sizeof(T)];
  HWY_ALIGN T b[HWY_MAX_BYTES / sizeof(T)];
  hn::Store(x, d, a);
  hn::Store(y, d, b);
  for (size_t i = 0; i < hn::Lanes(d); ++i) a[i] = f(a[i], b[i]);
  return hn::Load(d, a);
}

// The integer quotient truncated toward zero, x / 0 with every bit set and
// the most negative value / -1 wrapped to itself (pto_c.h). No SIMD target
// divides integer lanes, so each lane is divided on its own.
template <typename T>
HWY_INLINE T IntegerQuotient(T x, T y) {
  if (y == 0) return static_cast<T>(~T{0});
  if constexpr (hwy::IsSigned<T>()) {
    if (y == -1) return static_cast<T>(0 - static_cast<std::make_unsigned_t<T>>(x));
  }
  return static_cast<T>(x / y);
}

// Float quotients in float32 lanes for float16 too: float32 keeps more than
// 2p + 2 bits for p = 11, so rounding the float32 quotient to float16 gives
// the correctly rounded quotient.
struct TDivOp : InLanes<ComputeTag> {
  template <class D, HWY_IF_FLOAT_D(D)>
  HWY_INLINE hn::Vec<D> operator()(D, hn::Vec<D> x, hn::Vec<D> y) const {
    return hn::Div(x, y);
  }
  template <class D, HWY_IF_NOT_FLOAT_D(D)>
  HWY_INLINE hn::Vec<D> operator()(D d, hn::Vec<D> x, hn::Vec<D> y) const {
    return EachLane(d, x, y, [](auto a, auto b) { return IntegerQuotient(a, b); });
  }
};

// IEEE 754-2019 maximum / minimum for floats: NaN when either operand is
// NaN (Highway, like x86's maxps, leaves that to the target), and -0 < +0:
// equal operands differ at most in the sign of zero, so the AND of their
// bits is the maximum and the OR the minimum. Integers: Highway's Max/Min.
template <bool kMax>
struct ExtremeOp : InLanes<ComputeTag> {
  template <class D, HWY_IF_FLOAT_D(D)>
  HWY_INLINE hn::Vec<D> operator()(D, hn::Vec<D> x, hn::Vec<D> y) const {
    const hn::Vec<D> larger = hn::IfThenElse(hn::Gt(x, y), kMax ? x : y, kMax ? y : x);
    const hn::Vec<D> equal = kMax ? hn::And(x, y) : hn::Or(x, y);
    const hn::Vec<D> ordered = hn::IfThenElse(hn::Eq(x, y), equal, larger);
    return hn::IfThenElse(hn::IsNaN(x), x, hn::IfThenElse(hn::IsNaN(y), y, ordered));
  }
  template <class D, HWY_IF_NOT_FLOAT_D(D)>
  HWY_INLINE hn::Vec<D> operator()(D, hn::Vec<D> x, hn::Vec<D> y) const {
    return kMax ? hn::Max(x, y) : hn::Min(x, y);
  }
};
using TMaxOp = ExtremeOp<true>;
using TMinOp = ExtremeOp<false>;

// TREM's remainder, src0 - floor(src0 / src1) * src1: zero or of src1's
// sign (the page). Integers exactly, x rem 0 = x (the dividend: TDIV's x / 0
// is -1, and x = -1 * 0 + x) and the most negative value rem -1 = 0.
template <typename T>
HWY_INLINE T IntegerRemainder(T x, T y) {
  if (y == 0) return x;
  if constexpr (hwy::IsSigned<T>()) {
    if (y == -1) return 0;
    const T r = static_cast<T>(x % y);
    // |r| < |y| and of the other sign: r + y cannot overflow.
    return r != 0 && (r < 0) != (y < 0) ? static_cast<T>(r + y) : r;
  } else {
    return static_cast<T>(x % y);
  }
}

// Floats: fmod is exact (|fmod(x, y)| < |y|, a multiple of x's last place),
// so a result of src1's sign is at most one rounding away: r + y, correctly
// rounded (in float32 lanes for float16 too, float32 keeping more than
// 2p + 2 bits); it may round to y itself when |r| is tiny. A zero result takes
// y's sign; y = 0, an infinite x or a NaN give NaN; an infinite y gives x, or
// y where x is of the other sign (x - (-1) * y).
template <typename F>
HWY_INLINE F FloatRemainder(F x, F y) {
  const F r = std::fmod(x, y);
  if (r == 0) return std::copysign(F{0}, y);
  return std::signbit(r) != std::signbit(y) && !std::isnan(r) ? r + y : r;
}

struct TRemOp : InLanes<ComputeTag> {
  template <class D, HWY_IF_FLOAT_D(D)>
  HWY_INLINE hn::Vec<D> operator()(D d, hn::Vec<D> x, hn::Vec<D> y) const {
    return EachLane(d, x, y, [](auto a, auto b) { return FloatRemainder(a, b); });
  }
  template <class D, HWY_IF_NOT_FLOAT_D(D)>
  HWY_INLINE hn::Vec<D> operator()(D d, hn::Vec<D> x, hn::Vec<D> y) const {
    return EachLane(d, x, y, [](auto a, auto b) { return IntegerRemainder(a, b); });
  }
};

// ---- bitwise operations and shifts (integer lanes of the storage type,
// BitsTag); TFMOD's functor is in fmod-inl.h ----

struct TAndOp : InLanes<BitsTag> {
  template <class D>
  HWY_INLINE hn::Vec<D> operator()(D, hn::Vec<D> x, hn::Vec<D> y) const {
    return hn::And(x, y);
  }
};

struct TOrOp : InLanes<BitsTag> {
  template <class D>
  HWY_INLINE hn::Vec<D> operator()(D, hn::Vec<D> x, hn::Vec<D> y) const {
    return hn::Or(x, y);
  }
};

struct TXorOp : InLanes<BitsTag> {
  template <class D>
  HWY_INLINE hn::Vec<D> operator()(D, hn::Vec<D> x, hn::Vec<D> y) const {
    return hn::Xor(x, y);
  }
};

// x shifted by the count c, c read as an unsigned value (a negative count of
// a signed dtype is a large one): a count of the width or more shifts every
// bit out, 0 to the left and from an unsigned value, the sign in every bit
// from a signed one (arithmetic shift). C leaves such counts undefined; the
// shifts below never see one.
template <typename T>
HWY_INLINE T ElementShiftLeft(T x, T c) {
  using U = std::make_unsigned_t<T>;
  const U n = static_cast<U>(c);
  if (n >= sizeof(T) * 8) return T{0};
  // In U (promoted to int only below 32 bits, where x << n < 2^31 for n < 16).
  return static_cast<T>(static_cast<U>(static_cast<U>(x) << n));
}
template <typename T>
HWY_INLINE T ElementShiftRight(T x, T c) {
  using U = std::make_unsigned_t<T>;
  const U n = static_cast<U>(c);
  if (n >= sizeof(T) * 8) {
    if constexpr (hwy::IsSigned<T>()) return x < T{0} ? T{-1} : T{0};
    return T{0};
  }
  return static_cast<T>(x >> n);  // arithmetic for signed T (C++20; gcc and clang before)
}

// x shifted left / right by per-lane counts below the lane width. Highway
// 1.0.3 spells these operator<< and operator>> on every target but SVE's,
// whose sizeless vectors take no operators: Shl and Shr there.
#if HWY_TARGET == HWY_SVE || HWY_TARGET == HWY_SVE2 || HWY_TARGET == HWY_SVE_256 || \
    HWY_TARGET == HWY_SVE2_128
template <class V>
HWY_INLINE V ShiftLeftLanes(V x, V n) {
  return hn::Shl(x, n);
}
template <class V>
HWY_INLINE V ShiftRightLanes(V x, V n) {
  return hn::Shr(x, n);
}
#else
template <class V>
HWY_INLINE V ShiftLeftLanes(V x, V n) {
  return x << n;
}
template <class V>
HWY_INLINE V ShiftRightLanes(V x, V n) {
  return x >> n;
}
#endif

// Per-lane counts, as ElementShiftLeft / ElementShiftRight: Highway shifts
// 16-, 32- and 64-bit lanes by a vector of counts below the width (counts
// from the width on are undefined there, so they are clamped to width - 1
// and their lanes replaced: by 0, or for a signed right shift left as the
// sign that width - 1 already spreads). 8-bit lanes go as the even and odd
// bytes of 16-bit lanes (ShiftBytePairs). One lane at a time: 8- and
// 16-bit lanes on SSSE3 (Highway 1.0.3 shifts 16-bit lanes by vector from
// SSE4 on) and in vectors of fewer than 8 bytes (a row's last elements), and
// vectors of one lane, which Highway 1.0.3's x86 targets shift by the low
// 64 bits of the count register (_mm_sll_epi32), reading a count lane the
// vector does not have.
#if HWY_TARGET == HWY_SSSE3
constexpr bool kVectorShift16 = false;
#else
constexpr bool kVectorShift16 = true;
#endif

template <bool kLeft, class D>
HWY_INLINE hn::Vec<D> ShiftByWideLanes(D d, hn::Vec<D> x, hn::Vec<D> y) {
  using T = hn::TFromD<D>;
  const hn::RebindToUnsigned<D> du;
  using U = hn::TFromD<decltype(du)>;
  const auto n = hn::BitCast(du, y);
  const auto in_range = hn::Lt(n, hn::Set(du, U{sizeof(T) * 8}));
  const hn::Vec<D> count =
      hn::BitCast(d, hn::IfThenElse(in_range, n, hn::Set(du, U{sizeof(T) * 8 - 1})));
  const auto keep = hn::RebindMask(d, in_range);
  if constexpr (kLeft) return hn::IfThenElseZero(keep, ShiftLeftLanes(x, count));
  if constexpr (hwy::IsSigned<T>()) return ShiftRightLanes(x, count);
  return hn::IfThenElseZero(keep, ShiftRightLanes(x, count));
}

// 8-bit lanes as the two bytes of each 16-bit lane, each shifted by its own
// count (clamped to 8: everything out; 7 for a signed right shift, the
// sign everywhere) in a 16-bit lane that holds it alone, then its byte kept:
// the low byte at the bottom (sign-extended first for a signed right
// shift), the high byte at the top, where nothing from the low byte reaches
// it.
template <bool kLeft, class D>
HWY_INLINE hn::Vec<D> ShiftBytePairs(D d, hn::Vec<D> x, hn::Vec<D> y) {
  constexpr bool kSigned = hwy::IsSigned<hn::TFromD<D>>();
  const hn::Repartition<uint16_t, D> dw;
  const hn::Repartition<int16_t, D> ds;
  const auto low = hn::Set(dw, uint16_t{0x00FF}), high = hn::Set(dw, uint16_t{0xFF00});
  const auto v = hn::BitCast(dw, x), c = hn::BitCast(dw, y);
  const auto most = hn::Set(dw, uint16_t{!kLeft && kSigned ? 7 : 8});
  const auto c_low = hn::Min(hn::And(c, low), most);
  const auto c_high = hn::Min(hn::ShiftRight<8>(c), most);
  hn::Vec<decltype(dw)> lo, hi;
  if constexpr (kLeft) {
    lo = ShiftLeftLanes(hn::And(v, low), c_low);
    hi = ShiftLeftLanes(hn::And(v, high), c_high);
  } else if constexpr (kSigned) {
    const auto sv = hn::BitCast(ds, v);
    lo = hn::BitCast(dw, ShiftRightLanes(hn::ShiftRight<8>(hn::ShiftLeft<8>(sv)), hn::BitCast(ds, c_low)));
    hi = hn::BitCast(dw, ShiftRightLanes(sv, hn::BitCast(ds, c_high)));
  } else {
    lo = ShiftRightLanes(hn::And(v, low), c_low);
    hi = ShiftRightLanes(hn::And(v, high), c_high);
  }
  return hn::BitCast(d, hn::Or(hn::And(lo, low), hn::And(hi, high)));
}

template <bool kLeft, class D>
HWY_INLINE hn::Vec<D> ShiftByLanes(D d, hn::Vec<D> x, hn::Vec<D> y) {
  using T = hn::TFromD<D>;
  constexpr bool kPerLane = hn::MaxLanes(D()) == 1 ||
                            (sizeof(T) <= 2 && (!kVectorShift16 || hn::MaxLanes(D()) * sizeof(T) < 8));
  if constexpr (kPerLane) {
    return EachLane(d, x, y, [](auto a, auto b) {
      return kLeft ? ElementShiftLeft(a, b) : ElementShiftRight(a, b);
    });
  } else if constexpr (sizeof(T) == 1) {
    return ShiftBytePairs<kLeft>(d, x, y);
  } else {
    return ShiftByWideLanes<kLeft>(d, x, y);
  }
}

struct TShlOp : InLanes<BitsTag> {
  template <class D>
  HWY_INLINE hn::Vec<D> operator()(D d, hn::Vec<D> x, hn::Vec<D> y) const {
    return ShiftByLanes<true>(d, x, y);
  }
};

struct TShrOp : InLanes<BitsTag> {
  template <class D>
  HWY_INLINE hn::Vec<D> operator()(D d, hn::Vec<D> x, hn::Vec<D> y) const {
    return ShiftByLanes<false>(d, x, y);
  }
};

// relu(x op y): the difference or sum as TSUB's or TADD's (correctly
// rounded; float16 in float32 lanes, whose rounding to float16 keeps the
// sign and keeps a nonzero difference of float16 values nonzero, so taking
// the relu before or after it gives the same bits; integers wrap), then +0
// unless it is > 0; NaN stays NaN, as TRELU's.
template <class Step>
struct ReluOfOp : InLanes<AddTag> {
  template <class D, HWY_IF_FLOAT_D(D)>
  HWY_INLINE hn::Vec<D> operator()(D d, hn::Vec<D> x, hn::Vec<D> y) const {
    const hn::Vec<D> v = Step()(d, x, y);
    return hn::IfThenElseZero(hn::Or(hn::Gt(v, hn::Zero(d)), hn::IsNaN(v)), v);
  }
  template <class D, HWY_IF_NOT_FLOAT_D(D)>
  HWY_INLINE hn::Vec<D> operator()(D d, hn::Vec<D> x, hn::Vec<D> y) const {
    const hn::Vec<D> v = Step()(d, x, y);
    return hn::IfThenElseZero(hn::Gt(v, hn::Zero(d)), v);
  }
};
using TSubReluOp = ReluOfOp<TSubOp>;
using TAddReluOp = ReluOfOp<AddOp>;

// The pto_dtype bit of storage type T.
template <typename T>
constexpr uint32_t StorageDtypeBit() {
  if constexpr (hwy::IsSame<T, int8_t>()) return 1u << PTO_INT8;
  if constexpr (hwy::IsSame<T, uint8_t>()) return 1u << PTO_UINT8;
  if constexpr (hwy::IsSame<T, int16_t>()) return 1u << PTO_INT16;
  if constexpr (hwy::IsSame<T, uint16_t>()) return 1u << PTO_UINT16;
  if constexpr (hwy::IsSame<T, int32_t>()) return 1u << PTO_INT32;
  if constexpr (hwy::IsSame<T, uint32_t>()) return 1u << PTO_UINT32;
  if constexpr (hwy::IsSame<T, hwy::float16_t>()) return 1u << PTO_FLOAT16;
  if constexpr (hwy::IsSame<T, hwy::bfloat16_t>()) return 1u << PTO_BFLOAT16;
  if constexpr (hwy::IsSame<T, int64_t>()) return 1u << PTO_INT64;
  if constexpr (hwy::IsSame<T, uint64_t>()) return 1u << PTO_UINT64;
  return 1u << PTO_FLOAT32;
}
constexpr uint32_t kEveryDtype = kAllDtypes.mask;

// Code for the dtypes of kDtypes only (a row's HOST list: an operation has
// no kernel for a dtype validation never admits).
// The 8-byte integers are visited here, for a row that lists them;
// VisitDtype has no 64-bit case (the reductions, compares and selects test
// for INT64 and UINT64 before it).
template <uint32_t kDtypes, class Fn>
HWY_INLINE void VisitDtypeIn(pto_dtype dtype, const Fn& fn) {
  // A row that lists a low-precision type only moves its bytes (tmov):
  // uint8_t lanes carry them.
  if constexpr ((kDtypes & kLowPrecisionDtypes.mask) != 0) {
    if (IsLowPrecisionDtype(dtype)) return fn(uint8_t{});
  }
  if constexpr ((kDtypes & kInt64Dtypes.mask) != 0) {
    if (dtype == PTO_INT64) return fn(int64_t{});
    if (dtype == PTO_UINT64) return fn(uint64_t{});
  }
  VisitDtype(dtype, [&](auto tag) {
    if constexpr ((kDtypes & StorageDtypeBit<decltype(tag)>()) != 0) {
      fn(tag);
    } else {
      DtypeWithoutKernel(dtype);
    }
  });
}

}  // namespace HWY_NAMESPACE
}  // namespace pto
HWY_AFTER_NAMESPACE();

#endif  // PTO_KERNELS_BINARY_OPS_INL_H_
