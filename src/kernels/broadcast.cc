// The broadcasts: column-broadcast division (TCOLEXPANDDIV, every row of src
// divided by one divisor row), and the RowExpand and ColExpand families of
// operations.def, whose lane math is the Binary rows' functors
// (binary-ops-inl.h) and, for *EXPDIF, e^(a - b) correctly rounded
// (exp-log-inl.h).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "src/kernels/broadcast.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "src/dtype_rules.h"
#include "src/kernels/simd-inl.h"
#include "src/kernels/binary-ops-inl.h"
#include "src/kernels/exp-log-inl.h"

HWY_BEFORE_NAMESPACE();
namespace pto {
namespace HWY_NAMESPACE {

// Columns per pass: per-column f32 constants (at most three arrays of
// kColumnChunk, 12 KiB on the stack), filled from the divisor row by
// per_column and read by every row of the pass through body.
constexpr size_t kColumnChunk = 1024;

template <typename T, class PerColumn, class Body>
HWY_INLINE void ByColumnPasses(size_t rows, size_t cols, const kernels::Plane& dst,
                               const kernels::ConstPlane& src, const void* divisor,
                               const PerColumn& per_column, const Body& body) {
  const ComputeTag<T> d;
  HWY_ALIGN float columns[3 * kColumnChunk];
  T* out = static_cast<T*>(dst.data);
  const T* in = static_cast<const T*>(src.data);
  const T* div = static_cast<const T*>(divisor);
  for (size_t c0 = 0; c0 < cols; c0 += kColumnChunk) {
    const size_t n = cols - c0 < kColumnChunk ? cols - c0 : kColumnChunk;
    // The divisor row (possibly dst's own row 0) is read before any row of
    // these columns is written.
    ForEachUnaryAnyWidth(d, 1, n, columns, 0, div + c0, 0, per_column);
    ForEachBinaryAnyWidth(d, rows, n, out + c0, dst.stride, in + c0, src.stride,
                          static_cast<const float*>(columns), 0, body);
  }
}

// FLOAT16 needs no correction step: with y = RN32(1/s) (f32, from the f16
// divisor) and q = RN32(a y), RN16(q) = RN16(a/s) for every pair of finite
// nonzero float16 a and s with |q| >= 2^-14, the smallest normal float16.
// Checked exhaustively by tests/test_ops.c (all 31743^2 pairs of positive
// finite values; signs are exact): the 1495 pairs where RN16(q) differs all
// have subnormal float16 quotients, where a/s can be exactly a midpoint of
// the float16 grid (e.g. 91 * 2^-24 / 14 = 6.5 * 2^-24) and q's error
// decides the tie. Below 2^-14 the vector divides in f32 lanes, correctly
// rounded for float16 (f32 has 24 >= 2*11+2 significand bits, so rounding
// twice equals rounding once). No f32 step leaves the normal range for
// float16 operands (|a y| lies in [2^-40, 2^40]), so this holds on every
// target, with or without FMA, and a zero q is a/s exactly (a zero, or s
// infinite: nonzero finite operands give |q| >= 2^-40), so zero dividends
// stay on the fast path. Specials: infinite a and finite nonzero s give
// q = +-inf = a/s; s = +-0 gives y = +-inf and q = +-inf = a/s (a = 0 gives
// NaN, which divides); a NaN operand gives NaN q (divides).
HWY_INLINE void ColExpandDivHalf(size_t rows, size_t cols, const kernels::Plane& dst,
                                 const kernels::ConstPlane& src, const void* divisor) {
  using T = hwy::float16_t;
  const auto per_column = [](auto dv, const T* ps, float* out) {
    const auto s = LoadAs(dv, ps);
    hn::StoreU(s, dv, out);
    hn::StoreU(hn::Div(hn::Set(dv, 1.0f), s), dv, out + kColumnChunk);
  };
  const auto body = [](auto dv, const T* pa, const float* ps, T* po) {
    const auto a = LoadAs(dv, pa);
    const auto q = hn::Mul(a, hn::LoadU(dv, ps + kColumnChunk));
    const auto exact = hn::Or(hn::Ge(hn::Abs(q), hn::Set(dv, 0x1p-14f)), hn::Eq(q, hn::Zero(dv)));
    if (HWY_LIKELY(hn::AllTrue(dv, exact))) {
      StoreAs(dv, q, po);
    } else {
      StoreAs(dv, hn::Div(a, hn::LoadU(dv, ps)), po);
    }
  };
  ByColumnPasses<T>(rows, cols, dst, src, divisor, per_column, body);
}

#if HWY_NATIVE_FMA
// Every row divides by the same s, so the division becomes one reciprocal
// per column and, per element, Markstein's correction:
//   y = RN(1/s), q = RN(a y), r = fma(-q, s, a), q' = RN(q + r y) = RN(a/s).
//
// Why q' is the correctly rounded quotient. Scaling a and s by powers of two
// scales every step alike while nothing leaves the normal range, so take
// their significands in [1, 2) (p = 24). y = RN(1/s) gives |1 - s y| < 2^-p.
// Markstein's theorem (IBM J. Res. Dev. 34, 1990): if moreover q is within
// one ulp of a/s, r is exact and RN(q + r y) = RN(a/s). RN(a y) is within
// 1.5 ulp of a/s, not always one (for a < s about 1 pair in 70 at p = 14);
// there r is rounded, but the correction is still right: checked for every
// pair of significands at p = 8, 10 to 14 and 16 (an emulation), and in
// float32 for every dividend significand against 4000 divisor significands
// (1, the 40 just above 1, the 38 just below 2, and random ones): 0
// differences from a / s.
// A quotient is never exactly a midpoint (no ties to decide).
//
// The hypotheses, as masks:
//   - per column: 2^-126 <= |s| < 2^126, so that y is a normal number (else
//     y is set to NaN, which fails the next test: zero, subnormal, huge,
//     infinite and NaN divisors);
//   - per element: L <= |q| <= 2^126 with L = max(2^-124, 2^-100 |y|) (per
//     column; NaN q fails too). |q| >= 2^-124 and the 1.5 ulp above keep
//     a/s and q' normal and far from overflow; |q| >= 2^-100 |y| keeps
//     |a| = |a/s| |s| > 2^-101 (so a is not zero or subnormal), and with it
//     r: exactly a - s q, a multiple of ulp(s) ulp(q) >= 2^(e_a - 47) >=
//     2^-149, r is exact wherever it is in the unbounded exponent range
//     (subnormal or not), and where it is rounded there it is >= 2^-126 in
//     magnitude, so normal and rounded alike. Every step rounds as in the
//     significand argument above. An infinite or NaN a makes q infinite or
//     NaN.
// A vector in which some lane fails them (zeros, infinities, NaN, results
// near overflow or underflow, subnormals) divides with Div instead.

HWY_INLINE void ColExpandDivByReciprocal(size_t rows, size_t cols, const kernels::Plane& dst,
                                         const kernels::ConstPlane& src, const void* divisor) {
  using T = float;
  // Columns: s, y = RN(1/s) (NaN where unusable), L.
  const auto per_column = [](auto dv, const T* ps, float* out) {
    const auto s = LoadAs(dv, ps);
    const auto abs_s = hn::Abs(s);
    const auto usable =
        hn::And(hn::Ge(abs_s, hn::Set(dv, 0x1p-126f)), hn::Lt(abs_s, hn::Set(dv, 0x1p126f)));
    const auto y = hn::IfThenElse(usable, hn::Div(hn::Set(dv, 1.0f), s), hn::Set(dv, NAN));
    hn::StoreU(s, dv, out);
    hn::StoreU(y, dv, out + kColumnChunk);
    hn::StoreU(hn::Max(hn::Set(dv, 0x1p-124f), hn::Mul(hn::Abs(y), hn::Set(dv, 0x1p-100f))), dv,
               out + 2 * kColumnChunk);
  };
  const auto body = [](auto dv, const T* pa, const float* ps, T* po) {
    const auto a = LoadAs(dv, pa);
    const auto s = hn::LoadU(dv, ps);
    const auto y = hn::LoadU(dv, ps + kColumnChunk);
    const auto q = hn::Mul(a, y);
    const auto abs_q = hn::Abs(q);
    const auto ok = hn::And(hn::Ge(abs_q, hn::LoadU(dv, ps + 2 * kColumnChunk)),
                            hn::Le(abs_q, hn::Set(dv, 0x1p126f)));
    if (HWY_LIKELY(hn::AllTrue(dv, ok))) {
      StoreAs(dv, hn::MulAdd(hn::NegMulAdd(q, s, a), y, q), po);
    } else {
      StoreAs(dv, hn::Div(a, s), po);
    }
  };
  ByColumnPasses<T>(rows, cols, dst, src, divisor, per_column, body);
}
#else
// Without a fused multiply-add the remainder cannot be formed exactly:
// float32 divides.
HWY_INLINE void ColExpandDivByDivision(size_t rows, size_t cols, const kernels::Plane& dst,
                                       const kernels::ConstPlane& src, const void* divisor) {
  using T = float;
  const auto per_column = [](auto dv, const T* ps, float* out) {
    hn::StoreU(LoadAs(dv, ps), dv, out);
  };
  const auto body = [](auto dv, const T* pa, const float* ps, T* po) {
    StoreAs(dv, hn::Div(LoadAs(dv, pa), hn::LoadU(dv, ps)), po);
  };
  ByColumnPasses<T>(rows, cols, dst, src, divisor, per_column, body);
}
#endif  // HWY_NATIVE_FMA

void ColExpandDivImpl(pto_dtype dtype, size_t rows, size_t cols, const kernels::Plane& dst,
                      const kernels::ConstPlane& src, const void* divisor) {
  VisitDtypeAmong<float, hwy::float16_t>(dtype, [&](auto tag) {
    using T = decltype(tag);
    if constexpr (hwy::IsSame<T, hwy::float16_t>()) {
      ColExpandDivHalf(rows, cols, dst, src, divisor);
    } else {
#if HWY_NATIVE_FMA
      ColExpandDivByReciprocal(rows, cols, dst, src, divisor);
#else
      ColExpandDivByDivision(rows, cols, dst, src, divisor);
#endif
    }
  });
}

// ---- the RowExpand and ColExpand families ----

// A Binary functor, op(d, x, y), as the families call it: Apply<T>, T the
// storage type (which the Binary functors do not need).
template <class Op>
struct SameForEveryStorage : Op {
  template <typename T, class D>
  static HWY_INLINE hn::Vec<D> Apply(D d, hn::Vec<D> x, hn::Vec<D> y) {
    return Op()(d, x, y);
  }
};

// e^(x - y) correctly rounded in the storage type T, in T's compute lanes.
struct ExpDifOp {
  template <typename T>
  using Tag = ComputeTag<T>;
  template <typename T, class D>
  static HWY_INLINE hn::Vec<D> Apply(D d, hn::Vec<D> x, hn::Vec<D> y) {
    return exp_log::ExpDifRounded<T>(d, x, y);
  }
};

// The one-source rows: the broadcast value itself, bits unchanged.
struct ExpandOnly {};

using TRowExpandOp = ExpandOnly;
using TRowExpandAddOp = SameForEveryStorage<TAddOp>;
using TRowExpandSubOp = SameForEveryStorage<TSubOp>;
using TRowExpandMulOp = SameForEveryStorage<TMulOp>;
using TRowExpandDivOp = SameForEveryStorage<TDivOp>;
using TRowExpandMaxOp = SameForEveryStorage<TMaxOp>;
using TRowExpandMinOp = SameForEveryStorage<TMinOp>;
using TRowExpandExpDifOp = ExpDifOp;
using TColExpandOp = ExpandOnly;
using TColExpandAddOp = TRowExpandAddOp;
using TColExpandSubOp = TRowExpandSubOp;
using TColExpandMulOp = TRowExpandMulOp;
using TColExpandMaxOp = TRowExpandMaxOp;
using TColExpandMinOp = TRowExpandMinOp;
using TColExpandExpDifOp = ExpDifOp;

// The body both drivers run: Lanes(dv) results of op, from the full source
// at pa and the broadcast values at pb, in Op's lanes for storage type T.
template <typename T, class Op, bool kExpandedFirst>
struct BroadcastBody {
  template <class DV>
  HWY_INLINE void operator()(DV dv, const T* pa, const T* pb, T* po) const {
    const auto x = LoadAs(dv, pa);
    const auto s = LoadAs(dv, pb);
    StoreAs(dv, kExpandedFirst ? Op::template Apply<T>(dv, s, x) : Op::template Apply<T>(dv, x, s),
            po);
  }
};

// Row broadcasts, one row at a time, row i's values read before the row
// is written (an expanded source placed on dst is read intact). Mode 1:
// s = e[i, 0] in every lane (Set per vector width). Mode 2: the block goes
// to `pattern`, pattern[k] = e[i, k mod block] for k < kPattern (block + a
// vector, rounded up to blocks), so that the vector for columns j.. reads
// pattern + (j mod block) (block a power of two). The rest of the row is
// the Binary family's: a vector of the full source, one result per column.
template <typename T, class Op, bool kExpandedFirst>
HWY_INLINE void RowExpandTyped(size_t rows, size_t cols, const kernels::Plane& dst,
                               const kernels::ConstPlane& full, const kernels::ConstPlane& ex,
                               size_t block) {
  using D = typename Op::template Tag<T>;
  using Lane = hn::TFromD<D>;
  const D d;
  constexpr size_t kBlock = 32 / sizeof(T);
  constexpr size_t kPattern = kBlock + (hn::MaxLanes(D()) + kBlock - 1) / kBlock * kBlock;
  const size_t mask = block - 1;
  const size_t N = hn::Lanes(d);
  const BroadcastBody<T, Op, kExpandedFirst> body;
  for (size_t r = 0; r < rows; ++r) {
    const T* e = static_cast<const T*>(ex.data) + r * ex.stride;
    T* out = static_cast<T*>(dst.data) + r * dst.stride;
    const T* a = static_cast<const T*>(full.data) + r * full.stride;
    if (block == 1) {
      const Lane s = hn::GetLane(LoadAs(hn::CappedTag<Lane, 1>(), e));
      const auto body1 = [s](auto dv, const T* pa, const T*, T* po) {
        const auto x = LoadAs(dv, pa);
        const auto v = hn::Set(dv, s);
        StoreAs(dv,
                kExpandedFirst ? Op::template Apply<T>(dv, v, x) : Op::template Apply<T>(dv, x, v),
                po);
      };
      ForEachBinaryAnyWidth(d, 1, cols, out, 0, a, 0, a, 0, body1);
      continue;
    }
    T pattern[kPattern];
    for (size_t k = 0; k < kPattern; k += kBlock) memcpy(&pattern[k], e, kBlock * sizeof(T));
    size_t j = 0;
    for (; j + N <= cols; j += N) body(d, a + j, pattern + (j & mask), out + j);
    if (j < cols) NarrowingTail(d, cols - j, out + j, a + j, pattern + (j & mask), body);
  }
}

// Column broadcasts: per pass of kColumnChunk columns, row 0 of the
// expanded source is copied out first (it may be dst's own row 0), then
// every row reads it as the Binary family's second operand (stride 0).
template <typename T, class Op, bool kExpandedFirst>
HWY_INLINE void ColExpandTyped(size_t rows, size_t cols, const kernels::Plane& dst,
                               const kernels::ConstPlane& full, const kernels::ConstPlane& ex) {
  using D = typename Op::template Tag<T>;
  const D d;
  HWY_ALIGN T row[kColumnChunk];
  T* out = static_cast<T*>(dst.data);
  const T* a = static_cast<const T*>(full.data);
  for (size_t c0 = 0; c0 < cols; c0 += kColumnChunk) {
    const size_t n = cols - c0 < kColumnChunk ? cols - c0 : kColumnChunk;
    memcpy(row, static_cast<const T*>(ex.data) + c0, n * sizeof(T));
    ForEachBinaryAnyWidth(d, rows, n, out + c0, dst.stride, a + c0, full.stride,
                          static_cast<const T*>(row), 0, BroadcastBody<T, Op, kExpandedFirst>());
  }
}

// The one-source rows, as unsigned integers of the element's width (a
// copy of bits: NaN payloads and signalling NaNs kept).
template <typename T>
using BitsOf = std::conditional_t<
    sizeof(T) == 1, uint8_t,
    std::conditional_t<sizeof(T) == 2, uint16_t,
                       std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>>>;

template <typename U>
HWY_INLINE void RowExpandBits(size_t rows, size_t cols, const kernels::Plane& dst,
                              const kernels::ConstPlane& ex) {
  const hn::ScalableTag<U> d;
  const size_t N = hn::Lanes(d);
  for (size_t r = 0; r < rows; ++r) {
    U s;
    memcpy(&s, static_cast<const U*>(ex.data) + r * ex.stride, sizeof(U));
    U* out = static_cast<U*>(dst.data) + r * dst.stride;
    const auto v = hn::Set(d, s);
    size_t j = 0;
    for (; j + N <= cols; j += N) hn::StoreU(v, d, out + j);
    for (; j < cols; ++j) out[j] = s;
  }
}

template <typename U>
HWY_INLINE void ColExpandBits(size_t rows, size_t cols, const kernels::Plane& dst,
                              const kernels::ConstPlane& ex) {
  // Row 0 first: where src is placed on dst, every later row copies it.
  for (size_t r = 0; r < rows; ++r) {
    memmove(static_cast<U*>(dst.data) + r * dst.stride, ex.data, cols * sizeof(U));
  }
}

template <class Op, uint32_t kDtypes, bool kRow>
void BroadcastImpl(pto_dtype dtype, size_t rows, size_t cols, const kernels::Plane& dst,
                   const kernels::ConstPlane& full, const kernels::ConstPlane& ex, size_t block,
                   bool expanded_first) {
  VisitDtypeIn<kDtypes>(dtype, [&](auto tag) {
    using T = decltype(tag);
    if constexpr (hwy::IsSame<Op, ExpandOnly>()) {
      if constexpr (kRow) {
        RowExpandBits<BitsOf<T>>(rows, cols, dst, ex);
      } else {
        ColExpandBits<BitsOf<T>>(rows, cols, dst, ex);
      }
    } else if constexpr (kRow) {
      if (expanded_first) {
        RowExpandTyped<T, Op, true>(rows, cols, dst, full, ex, block);
      } else {
        RowExpandTyped<T, Op, false>(rows, cols, dst, full, ex, block);
      }
    } else {
      if (expanded_first) {
        ColExpandTyped<T, Op, true>(rows, cols, dst, full, ex);
      } else {
        ColExpandTyped<T, Op, false>(rows, cols, dst, full, ex);
      }
    }
  });
}

// CamelImpl for each RowExpand and ColExpand row, with code for the dtypes
// of the row's HOST list.
#define PTO_UNPARENTHESISED(...) __VA_ARGS__
#define PTO_BROADCAST_IMPL(Camel, host, row)                                                     \
  namespace broadcast_dtypes {                                                                   \
  using namespace ::pto::def_dtypes;                                                             \
  constexpr uint32_t k##Camel = ::pto::DtypesOf({PTO_UNPARENTHESISED host}).mask;                \
  }                                                                                              \
  void Camel##Impl(pto_dtype dtype, size_t rows, size_t cols, const kernels::Plane& dst,         \
                   const kernels::ConstPlane& full, const kernels::ConstPlane& ex, size_t block, \
                   bool expanded_first) {                                                        \
    BroadcastImpl<Camel##Op, broadcast_dtypes::k##Camel, row>(dtype, rows, cols, dst, full, ex,  \
                                                              block, expanded_first);            \
  }
#define PTO_BROADCAST_IMPL_Special(Camel, host)
#define PTO_BROADCAST_IMPL_Binary(Camel, host)
#define PTO_BROADCAST_IMPL_Unary(Camel, host)
#define PTO_BROADCAST_IMPL_Scalar(Camel, host)
#define PTO_BROADCAST_IMPL_Fill(Camel, host)
#define PTO_BROADCAST_IMPL_RowReduce(Camel, host)
#define PTO_BROADCAST_IMPL_ColReduce(Camel, host)
#define PTO_BROADCAST_IMPL_RowExpand(Camel, host) PTO_BROADCAST_IMPL(Camel, host, true)
#define PTO_BROADCAST_IMPL_ColExpand(Camel, host) PTO_BROADCAST_IMPL(Camel, host, false)
#define PTO_OPERATION(Camel, UPPER, mnemonic, Fam, operand_list, Attr, host, ...) \
  PTO_BROADCAST_IMPL_##Fam(Camel, host)
#include "../operations.def"
#undef PTO_OPERATION

}  // namespace HWY_NAMESPACE
}  // namespace pto
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include "src/kernels/kernels.h"
namespace pto {
HWY_EXPORT(ColExpandDivImpl);
namespace kernels {
void ColExpandDiv(pto_dtype dtype, size_t rows, size_t cols, const Plane& dst,
                  const ConstPlane& src, const void* divisor) {
  PTO_DYNAMIC_DISPATCH(ColExpandDivImpl)(dtype, rows, cols, dst, src, divisor);
}

#define PTO_BROADCAST_ENTRIES_Special(Camel)
#define PTO_BROADCAST_ENTRIES_Binary(Camel)
#define PTO_BROADCAST_ENTRIES_Unary(Camel)
#define PTO_BROADCAST_ENTRIES_Scalar(Camel)
#define PTO_BROADCAST_ENTRIES_Fill(Camel)
#define PTO_BROADCAST_ENTRIES_RowReduce(Camel)
#define PTO_BROADCAST_ENTRIES_ColReduce(Camel)
#define PTO_BROADCAST_ENTRIES_ColExpand(Camel) PTO_BROADCAST_ENTRIES_RowExpand(Camel)
#define PTO_BROADCAST_ENTRIES_RowExpand(Camel)                                               \
  HWY_EXPORT(Camel##Impl);                                                                   \
  void Camel(pto_dtype dtype, size_t rows, size_t cols, const Plane& dst,                    \
             const ConstPlane& full, const ConstPlane& expanded, size_t block,               \
             bool expanded_first) {                                                          \
    PTO_DYNAMIC_DISPATCH(Camel##Impl)(dtype, rows, cols, dst, full, expanded, block,         \
                                      expanded_first);                                       \
  }
#define PTO_OPERATION(Camel, UPPER, mnemonic, Fam, ...) PTO_BROADCAST_ENTRIES_##Fam(Camel)
#include "../operations.def"
#undef PTO_OPERATION
}  // namespace kernels
}  // namespace pto
#endif
