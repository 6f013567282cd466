// Elementwise binary family: PReLU and addition (and the copy that TPARTADD
// uses where only one source is valid), and every Binary, Unary and Scalar
// row of operations.def, whose functor CamelOp is defined here or, for the
// Binary rows, in binary-ops-inl.h: a functor computes one vector of
// results in the lanes of its Tag<T> (T the storage type).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "src/kernels/binary.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "src/dtype_rules.h"
#include "src/kernels/simd-inl.h"
#include "src/kernels/binary-ops-inl.h"
#include "src/kernels/fmod-inl.h"
#include "src/kernels/exp-log-inl.h"

HWY_BEFORE_NAMESPACE();
namespace pto {
namespace HWY_NAMESPACE {

// x > 0, spelled x != 0 for unsigned lanes.
template <class D, HWY_IF_NOT_FLOAT_D(D)>
HWY_INLINE hn::Mask<D> IsPositive(D d, hn::Vec<D> x) {
  if constexpr (hwy::IsSigned<hn::TFromD<D>>()) return hn::Gt(x, hn::Zero(d));
  else return hn::Ne(x, hn::Zero(d));
}
template <class D, HWY_IF_FLOAT_D(D)>
HWY_INLINE hn::Mask<D> IsPositive(D d, hn::Vec<D> x) {
  return hn::Gt(x, hn::Zero(d));
}

struct PreluOp {
  template <class D>
  HWY_INLINE hn::Vec<D> operator()(D d, hn::Vec<D> x, hn::Vec<D> slope) const {
    return hn::IfThenElse(IsPositive(d, x), x, hn::Mul(x, slope));
  }
};

// dst = op(a, b) over a region of T, in Tag<T>'s lanes.
template <template <typename> class Tag, typename T, class Op>
HWY_INLINE void BinaryTyped(size_t rows, size_t cols, void* dst, size_t dst_stride, const void* a,
                            size_t a_stride, const void* b, size_t b_stride) {
  ForEachElementwise(Tag<T>(), rows, cols, static_cast<T*>(dst), dst_stride,
                     static_cast<const T*>(a), a_stride, static_cast<const T*>(b), b_stride, Op());
}

template <template <typename> class Tag, class Op, uint32_t kDtypes = kEveryDtype>
void BinaryImpl(pto_dtype dtype, size_t rows, size_t cols, const kernels::Plane& dst,
                const kernels::ConstPlane& a, const kernels::ConstPlane& b) {
  VisitDtypeIn<kDtypes>(dtype, [&](auto tag) {
    BinaryTyped<Tag, decltype(tag), Op>(rows, cols, dst.data, dst.stride, a.data, a.stride, b.data,
                                        b.stride);
  });
}

// n contiguous elements as one row, float32 decided first.
template <template <typename> class Tag, class Op, uint32_t kDtypes = kEveryDtype>
void BinaryContiguous(pto_dtype dtype, size_t n, void* dst, const void* a, const void* b) {
  if constexpr ((kDtypes & (1u << PTO_FLOAT32)) != 0) {
    if (HWY_LIKELY(dtype == PTO_FLOAT32))
      return BinaryTyped<Tag, float, Op>(1, n, dst, 0, a, 0, b, 0);
  }
  VisitDtypeIn<kDtypes>(dtype, [&](auto tag) {
    BinaryTyped<Tag, decltype(tag), Op>(1, n, dst, 0, a, 0, b, 0);
  });
}

void PreluImpl(pto_dtype dtype, size_t rows, size_t cols, const kernels::Plane& dst,
               const kernels::ConstPlane& a, const kernels::ConstPlane& b) {
  BinaryImpl<ComputeTag, PreluOp>(dtype, rows, cols, dst, a, b);
}

// tpartadd's sum, the 8-byte integers included.
constexpr uint32_t kAddDtypes = kEveryDtype | kInt64Dtypes.mask;

void AddImpl(pto_dtype dtype, size_t rows, size_t cols, const kernels::Plane& dst,
             const kernels::ConstPlane& a, const kernels::ConstPlane& b) {
  BinaryImpl<AddTag, AddOp, kAddDtypes>(dtype, rows, cols, dst, a, b);
}

void PreluContiguousImpl(pto_dtype dtype, size_t n, void* dst, const void* a, const void* b) {
  BinaryContiguous<ComputeTag, PreluOp>(dtype, n, dst, a, b);
}

void AddContiguousImpl(pto_dtype dtype, size_t n, void* dst, const void* a, const void* b) {
  BinaryContiguous<AddTag, AddOp, kAddDtypes>(dtype, n, dst, a, b);
}

// ---- the Unary rows' functors: op(d, x) ----

// A vec-to-vec move: every bit of src (NaN payloads and signalling NaNs too).
struct TMovOp : InLanes<BitsTag> {
  template <class D>
  HWY_INLINE hn::Vec<D> operator()(D, hn::Vec<D> x) const {
    return x;
  }
};

// Floats: the sign bit cleared (NaN keeps its payload); integers wrap.
struct TAbsOp : InLanes<AddTag> {
  template <class D>
  HWY_INLINE hn::Vec<D> operator()(D, hn::Vec<D> x) const {
    return hn::Abs(x);
  }
};

// Floats: the sign bit flipped (IEEE negation); integers 0 - x, wrapping.
struct TNegOp : InLanes<AddTag> {
  template <class D, HWY_IF_FLOAT_D(D)>
  HWY_INLINE hn::Vec<D> operator()(D, hn::Vec<D> x) const {
    return hn::Neg(x);
  }
  template <class D, HWY_IF_NOT_FLOAT_D(D)>
  HWY_INLINE hn::Vec<D> operator()(D d, hn::Vec<D> x) const {
    return hn::Sub(hn::Zero(d), x);
  }
};

// x > 0 ? x : +0, NaN kept.
struct TReluOp : InLanes<ComputeTag> {
  template <class D, HWY_IF_FLOAT_D(D)>
  HWY_INLINE hn::Vec<D> operator()(D d, hn::Vec<D> x) const {
    return hn::IfThenElseZero(hn::Or(hn::Gt(x, hn::Zero(d)), hn::IsNaN(x)), x);
  }
  template <class D, HWY_IF_NOT_FLOAT_D(D)>
  HWY_INLINE hn::Vec<D> operator()(D d, hn::Vec<D> x) const {
    return hn::IfThenElseZero(hn::Gt(x, hn::Zero(d)), x);
  }
};

// IEEE square root (correctly rounded; float16 in float32 lanes rounds once
// more to the correctly rounded root, float32 keeping more than 2p + 2 bits).
struct TSqrtOp : InLanes<ComputeTag> {
  template <class D>
  HWY_INLINE hn::Vec<D> operator()(D, hn::Vec<D> x) const {
    return hn::Sqrt(x);
  }
};

// 1 / x as TDIV divides: floats correctly rounded, integers truncated.
struct TRecipOp : InLanes<ComputeTag> {
  template <class D>
  HWY_INLINE hn::Vec<D> operator()(D d, hn::Vec<D> x) const {
    return TDivOp()(d, hn::Set(d, hn::TFromD<D>{1}), x);
  }
};

// Every bit flipped.
struct TNotOp : InLanes<BitsTag> {
  template <class D>
  HWY_INLINE hn::Vec<D> operator()(D, hn::Vec<D> x) const {
    return hn::Not(x);
  }
};

// ---- the Scalar rows' functors: op(d, x, s), s the scalar in every lane ----

using TAddsOp = TAddOp;
using TSubsOp = TSubOp;
using TMulsOp = TMulOp;
using TDivsOp = TDivOp;
// scalar / x: the tile-tile division with the operands swapped.
struct TDivsScalarByTileOp : InLanes<ComputeTag> {
  template <class D>
  HWY_INLINE hn::Vec<D> operator()(D d, hn::Vec<D> x, hn::Vec<D> s) const {
    return TDivOp()(d, s, x);
  }
};
using TMaxsOp = TMaxOp;
using TMinsOp = TMinOp;
using TRemsOp = TRemOp;
using TAndsOp = TAndOp;
using TOrsOp = TOrOp;
using TXorsOp = TXorOp;
using TShlsOp = TShlOp;
using TShrsOp = TShrOp;
using TFmodsOp = TFmodOp;

// Leaky ReLU: x > 0 ? x : x * slope (NaN stays NaN, -0 gives -0 * slope).
struct TLreluOp : InLanes<ComputeTag> {
  template <class D>
  HWY_INLINE hn::Vec<D> operator()(D d, hn::Vec<D> x, hn::Vec<D> slope) const {
    return hn::IfThenElse(hn::Gt(x, hn::Zero(d)), x, hn::Mul(x, slope));
  }
};

// The Fill rows' functors: op(d, x, s) ignores x.

// Every lane the scalar (exact: it is a value of the element type).
struct TExpandsOp : InLanes<AddTag> {
  template <class D>
  HWY_INLINE hn::Vec<D> operator()(D, hn::Vec<D>, hn::Vec<D> s) const {
    return s;
  }
};

// A Unary row's functor, op(d, x), as a binary one that ignores its second
// operand (the family passes src as both).
template <class Op>
struct FirstOperandOnly {
  template <typename T>
  using Tag = typename Op::template Tag<T>;
  template <class D>
  HWY_INLINE hn::Vec<D> operator()(D d, hn::Vec<D> x, hn::Vec<D>) const {
    return Op()(d, x);
  }
};

// CamelImpl and CamelContiguousImpl for each Binary and Unary row, with code
// for the dtypes of the row's HOST list (a superset of its other lists).
#define PTO_FAMILY_IMPL(Camel, Functor, host)                                                 \
  namespace family_dtypes {                                                                   \
  using namespace ::pto::def_dtypes;                                                          \
  constexpr uint32_t k##Camel = ::pto::DtypesOf({PTO_UNPARENTHESISED host}).mask;             \
  }                                                                                           \
  void Camel##Impl(pto_dtype dtype, size_t rows, size_t cols, const kernels::Plane& dst,      \
                   const kernels::ConstPlane& a, const kernels::ConstPlane& b) {              \
    BinaryImpl<Functor::Tag, Functor, family_dtypes::k##Camel>(dtype, rows, cols, dst, a, b); \
  }                                                                                           \
  void Camel##ContiguousImpl(pto_dtype dtype, size_t n, void* dst, const void* a,             \
                             const void* b) {                                                 \
    BinaryContiguous<Functor::Tag, Functor, family_dtypes::k##Camel>(dtype, n, dst, a, b);    \
  }
// The Scalar family: a row's functor CamelOp(d, x, s) with s the scalar in
// every lane, Set per vector width (the drivers finish rows with narrower
// vectors). The scalar is a value of the element type, so exact in its
// compute lanes.
template <class Op>
struct WithScalar {
  template <typename T>
  using Tag = typename Op::template Tag<T>;
  double scalar;
  template <class D>
  HWY_INLINE hn::Vec<D> operator()(D d, hn::Vec<D> x, hn::Vec<D>) const {
    return Op()(d, x, hn::Set(d, static_cast<hn::TFromD<D>>(scalar)));
  }
};

template <class Op, uint32_t kDtypes>
void ScalarImpl(pto_dtype dtype, size_t rows, size_t cols, const kernels::Plane& dst,
                const kernels::ConstPlane& a, double scalar) {
  const WithScalar<Op> op{scalar};
  VisitDtypeIn<kDtypes>(dtype, [&](auto tag) {
    using T = decltype(tag);
    ForEachElementwise(typename Op::template Tag<T>(), rows, cols, static_cast<T*>(dst.data),
                       dst.stride, static_cast<const T*>(a.data), a.stride,
                       static_cast<const T*>(a.data), a.stride, op);
  });
}

template <class Op, uint32_t kDtypes>
void ScalarContiguous(pto_dtype dtype, size_t n, void* dst, const void* a, double scalar) {
  ScalarImpl<Op, kDtypes>(dtype, 1, n, kernels::Plane{dst, 0}, kernels::ConstPlane{a, 0}, scalar);
}

#define PTO_SCALAR_IMPL(Camel, host)                                                          \
  namespace family_dtypes {                                                                   \
  using namespace ::pto::def_dtypes;                                                          \
  constexpr uint32_t k##Camel = ::pto::DtypesOf({PTO_UNPARENTHESISED host}).mask;             \
  }                                                                                           \
  void Camel##Impl(pto_dtype dtype, size_t rows, size_t cols, const kernels::Plane& dst,      \
                   const kernels::ConstPlane& a, double scalar) {                             \
    ScalarImpl<Camel##Op, family_dtypes::k##Camel>(dtype, rows, cols, dst, a, scalar);        \
  }                                                                                           \
  void Camel##ContiguousImpl(pto_dtype dtype, size_t n, void* dst, const void* a,             \
                             double scalar) {                                                 \
    ScalarContiguous<Camel##Op, family_dtypes::k##Camel>(dtype, n, dst, a, scalar);           \
  }
#define PTO_BINARY_IMPL_Scalar(Camel, host) PTO_SCALAR_IMPL(Camel, host)
#define PTO_BINARY_IMPL_Fill(Camel, host) PTO_SCALAR_IMPL(Camel, host)
#define PTO_UNPARENTHESISED(...) __VA_ARGS__
#define PTO_BINARY_IMPL_Special(Camel, host)
#define PTO_BINARY_IMPL_RowReduce(Camel, host)
#define PTO_BINARY_IMPL_ColReduce(Camel, host)
#define PTO_BINARY_IMPL_RowExpand(Camel, host)
#define PTO_BINARY_IMPL_ColExpand(Camel, host)
#define PTO_BINARY_IMPL_Binary(Camel, host) PTO_FAMILY_IMPL(Camel, Camel##Op, host)
#define PTO_BINARY_IMPL_Unary(Camel, host) \
  PTO_FAMILY_IMPL(Camel, FirstOperandOnly<Camel##Op>, host)
#define PTO_OPERATION(Camel, UPPER, mnemonic, Fam, operand_list, Attr, host, ...) \
  PTO_BINARY_IMPL_##Fam(Camel, host)
#include "../operations.def"
#undef PTO_OPERATION

}  // namespace HWY_NAMESPACE
}  // namespace pto
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include <string.h>

#include "src/kernels/kernels.h"
namespace pto {
HWY_EXPORT(PreluImpl);
HWY_EXPORT(AddImpl);
HWY_EXPORT(PreluContiguousImpl);
HWY_EXPORT(AddContiguousImpl);
namespace kernels {

void Prelu(pto_dtype dtype, size_t rows, size_t cols, const Plane& dst, const ConstPlane& a,
           const ConstPlane& b) {
  PTO_DYNAMIC_DISPATCH(PreluImpl)(dtype, rows, cols, dst, a, b);
}

void Add(pto_dtype dtype, size_t rows, size_t cols, const Plane& dst, const ConstPlane& a,
         const ConstPlane& b) {
  PTO_DYNAMIC_DISPATCH(AddImpl)(dtype, rows, cols, dst, a, b);
}

void PreluContiguous(pto_dtype dtype, size_t n, void* dst, const void* a, const void* b) {
  PTO_DYNAMIC_DISPATCH(PreluContiguousImpl)(dtype, n, dst, a, b);
}

void AddContiguous(pto_dtype dtype, size_t n, void* dst, const void* a, const void* b) {
  PTO_DYNAMIC_DISPATCH(AddContiguousImpl)(dtype, n, dst, a, b);
}

#define PTO_BINARY_ENTRIES_Special(Camel)
#define PTO_BINARY_ENTRIES_RowReduce(Camel)
#define PTO_BINARY_ENTRIES_ColReduce(Camel)
#define PTO_BINARY_ENTRIES_RowExpand(Camel)
#define PTO_BINARY_ENTRIES_ColExpand(Camel)
#define PTO_BINARY_ENTRIES_Unary(Camel) PTO_BINARY_ENTRIES_Binary(Camel)
#define PTO_BINARY_ENTRIES_Fill(Camel) PTO_BINARY_ENTRIES_Scalar(Camel)
#define PTO_BINARY_ENTRIES_Scalar(Camel)                                                     \
  HWY_EXPORT(Camel##Impl);                                                                   \
  HWY_EXPORT(Camel##ContiguousImpl);                                                         \
  void Camel(pto_dtype dtype, size_t rows, size_t cols, const Plane& dst, const ConstPlane& a, \
             double scalar) {                                                                \
    PTO_DYNAMIC_DISPATCH(Camel##Impl)(dtype, rows, cols, dst, a, scalar);                    \
  }                                                                                          \
  void Camel##Contiguous(pto_dtype dtype, size_t n, void* dst, const void* a, double scalar) { \
    PTO_DYNAMIC_DISPATCH(Camel##ContiguousImpl)(dtype, n, dst, a, scalar);                   \
  }
#define PTO_BINARY_ENTRIES_Binary(Camel)                                                     \
  HWY_EXPORT(Camel##Impl);                                                                   \
  HWY_EXPORT(Camel##ContiguousImpl);                                                         \
  void Camel(pto_dtype dtype, size_t rows, size_t cols, const Plane& dst, const ConstPlane& a, \
             const ConstPlane& b) {                                                          \
    PTO_DYNAMIC_DISPATCH(Camel##Impl)(dtype, rows, cols, dst, a, b);                         \
  }                                                                                          \
  void Camel##Contiguous(pto_dtype dtype, size_t n, void* dst, const void* a, const void* b) { \
    PTO_DYNAMIC_DISPATCH(Camel##ContiguousImpl)(dtype, n, dst, a, b);                        \
  }
#define PTO_OPERATION(Camel, UPPER, mnemonic, Fam, ...) PTO_BINARY_ENTRIES_##Fam(Camel)
#include "../operations.def"
#undef PTO_OPERATION

void Copy(pto_dtype dtype, size_t rows, size_t cols, const Plane& dst, const ConstPlane& src) {
  // Rows of distinct tiles never overlap; memcpy is already vectorised.
  const size_t size = pto_dtype_size(dtype);
  for (size_t r = 0; r < rows; ++r) {
    memcpy(static_cast<char*>(dst.data) + r * dst.stride * size,
           static_cast<const char*>(src.data) + r * src.stride * size, cols * size);
  }
}

}  // namespace kernels
}  // namespace pto
#endif
