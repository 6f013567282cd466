// Compare and select (TCMP, TCMPS, TSEL, TSELS) over bit-packed masks: byte k
// of a mask row holds columns 8k..8k+7, the least significant bit first.
// A compare writes ceil(cols / 8) bytes per row, the bits of columns at and
// past `cols` in the last byte as 0; a select reads the bit of each column it
// computes and no other. Compares follow IEEE 754: every compare with a NaN
// is false except NE; -0 equals +0. FLOAT16 and BFLOAT16 compare in f32 lanes
// (their widening is exact), selects move every element's bits unchanged.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "src/kernels/compare.cc"
#include <string.h>

#include <type_traits>

#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "src/kernels/kernels.h"
#include "src/kernels/simd-inl.h"

HWY_BEFORE_NAMESPACE();
namespace pto {
namespace HWY_NAMESPACE {

// The lanes a compare computes in: f32 for the half-float types, each other
// type's own.
template <typename T>
using CompareLanes = std::conditional_t<kIsHalfFloat<T>, float, T>;

// Enough bytes for the mask bits of one vector of any lane type.
constexpr size_t kMaskBytes = HWY_MAX_BYTES / 8 + 8;

// Integers are totally ordered: their GE is not LT, their LE not GT. Float
// GE and LE are false for NaN, as every compare but NE.
template <class D>
HWY_INLINE hn::Mask<D> CompareVectors(D, pto_cmp_mode mode, hn::Vec<D> a, hn::Vec<D> b) {
  constexpr bool kFloat = hwy::IsFloat<hn::TFromD<D>>();
  switch (mode) {
    case PTO_CMP_NE: return hn::Not(hn::Eq(a, b));
    case PTO_CMP_LT: return hn::Lt(a, b);
    case PTO_CMP_GT: return hn::Gt(a, b);
    case PTO_CMP_GE:
      if constexpr (kFloat) return hn::Ge(a, b);
      return hn::Not(hn::Lt(a, b));
    case PTO_CMP_LE:
      if constexpr (kFloat) return hn::Le(a, b);
      return hn::Not(hn::Gt(a, b));
    default: return hn::Eq(a, b);
  }
}

// Writes the first n bits of `bits` (one vector's mask, n <= Lanes) to mask
// row `row` from column c on. Whole bytes where the vector's lane count is a
// multiple of 8 (c then is too); otherwise the lane count is 1, 2 or 4, c a
// multiple of it, and the n bits fall in one byte of a row zeroed first.
HWY_INLINE void PutBits(const uint8_t* bits, size_t n, bool bytewise, uint8_t* row, size_t c) {
  if (bytewise) {
    const size_t bytes = (n + 7) / 8;
    uint8_t last = bits[bytes - 1];
    if (n % 8 != 0) last &= static_cast<uint8_t>((1u << (n % 8)) - 1);
    memcpy(row + c / 8, bits, bytes - 1);
    row[c / 8 + bytes - 1] = last;
    return;
  }
  const unsigned low = bits[0] & ((1u << n) - 1);
  row[c / 8] = static_cast<uint8_t>(row[c / 8] | (low << (c % 8)));
}

// mask row r = src0 row r `mode` (kScalar ? scalar : src1 row r).
template <typename T, bool kScalar>
void CompareRows(pto_cmp_mode mode, size_t rows, size_t cols, const kernels::Plane& mask,
                 const kernels::ConstPlane& src0, const kernels::ConstPlane& src1, T scalar) {
  const hn::ScalableTag<CompareLanes<T>> d;
  const size_t lanes = hn::Lanes(d);
  const bool bytewise = lanes % 8 == 0;
  alignas(64) T pad0[HWY_MAX_BYTES / sizeof(CompareLanes<T>)] = {};
  alignas(64) T pad1[HWY_MAX_BYTES / sizeof(CompareLanes<T>)] = {};
  for (size_t i = 0; i < lanes; ++i) pad1[i] = scalar;
  const auto fixed = LoadAs(d, pad1);
  uint8_t bits[kMaskBytes];
  for (size_t r = 0; r < rows; ++r) {
    const T* a = static_cast<const T*>(src0.data) + r * src0.stride;
    const T* b = kScalar ? nullptr : static_cast<const T*>(src1.data) + r * src1.stride;
    uint8_t* out = static_cast<uint8_t*>(mask.data) + r * mask.stride;
    if (!bytewise) memset(out, 0, (cols + 7) / 8);
    for (size_t c = 0; c < cols; c += lanes) {
      const size_t n = HWY_MIN(lanes, cols - c);
      hn::Mask<decltype(d)> m;
      if (n == lanes) {
        m = CompareVectors(d, mode, LoadAs(d, a + c), kScalar ? fixed : LoadAs(d, b + c));
        if (bytewise) {
          // Through `bits`: Highway allows StoreMaskBits to write up to 8 bytes.
          hn::StoreMaskBits(d, m, bits);
          memcpy(out + c / 8, bits, lanes / 8);
          continue;
        }
      } else {
        // The row's last, partial vector: its elements copied into a full one.
        memcpy(pad0, a + c, n * sizeof(T));
        if (!kScalar) memcpy(pad1, b + c, n * sizeof(T));
        m = CompareVectors(d, mode, LoadAs(d, pad0), kScalar ? fixed : LoadAs(d, pad1));
      }
      hn::StoreMaskBits(d, m, bits);
      PutBits(bits, n, bytewise, out, c);
    }
  }
}

// The 8-byte integers one element at a time (every target has the scalar
// compares; their masks are the vector paths' bytes).
template <typename T, bool kScalar>
void CompareRows64(pto_cmp_mode mode, size_t rows, size_t cols, const kernels::Plane& mask,
                   const kernels::ConstPlane& src0, const kernels::ConstPlane& src1, T scalar) {
  for (size_t r = 0; r < rows; ++r) {
    const T* a = static_cast<const T*>(src0.data) + r * src0.stride;
    const T* b = kScalar ? nullptr : static_cast<const T*>(src1.data) + r * src1.stride;
    uint8_t* out = static_cast<uint8_t*>(mask.data) + r * mask.stride;
    memset(out, 0, (cols + 7) / 8);
    for (size_t c = 0; c < cols; ++c) {
      const T x = a[c], y = kScalar ? scalar : b[c];
      bool bit;
      switch (mode) {
        case PTO_CMP_NE: bit = x != y; break;
        case PTO_CMP_LT: bit = x < y; break;
        case PTO_CMP_GT: bit = x > y; break;
        case PTO_CMP_GE: bit = x >= y; break;
        case PTO_CMP_LE: bit = x <= y; break;
        default: bit = x == y; break;
      }
      out[c / 8] = static_cast<uint8_t>(out[c / 8] | (unsigned{bit} << (c % 8)));
    }
  }
}

void CompareImpl(pto_cmp_mode mode, pto_dtype dtype, size_t rows, size_t cols,
                 const kernels::Plane& mask, const kernels::ConstPlane& src0,
                 const kernels::ConstPlane& src1) {
  if (dtype == PTO_INT64)
    return CompareRows64<int64_t, false>(mode, rows, cols, mask, src0, src1, 0);
  if (dtype == PTO_UINT64)
    return CompareRows64<uint64_t, false>(mode, rows, cols, mask, src0, src1, 0);
  VisitDtype(dtype, [&](auto tag) {
    using T = decltype(tag);
    CompareRows<T, false>(mode, rows, cols, mask, src0, src1, T{});
  });
}

void CompareScalarImpl(pto_cmp_mode mode, pto_dtype dtype, size_t rows, size_t cols,
                       const kernels::Plane& mask, const kernels::ConstPlane& src,
                       uint64_t scalar_bits) {
  if (dtype == PTO_INT64)
    return CompareRows64<int64_t, true>(mode, rows, cols, mask, src, src,
                                        static_cast<int64_t>(scalar_bits));
  if (dtype == PTO_UINT64)
    return CompareRows64<uint64_t, true>(mode, rows, cols, mask, src, src, scalar_bits);
  VisitDtype(dtype, [&](auto tag) {
    using T = decltype(tag);
    T scalar;
    if constexpr (sizeof(T) == 1) {
      const uint8_t b = static_cast<uint8_t>(scalar_bits);
      memcpy(&scalar, &b, 1);
    } else if constexpr (sizeof(T) == 2) {
      const uint16_t b = static_cast<uint16_t>(scalar_bits);
      memcpy(&scalar, &b, 2);
    } else {
      const uint32_t b = static_cast<uint32_t>(scalar_bits);
      memcpy(&scalar, &b, 4);
    }
    CompareRows<T, true>(mode, rows, cols, mask, src, src, scalar);
  });
}

// dst row r = mask bit ? src0 : (kScalar ? scalar : src1), in lanes of the
// element's width (the bits move unchanged).
template <typename U, bool kScalar>
void SelectRows(size_t rows, size_t cols, const kernels::Plane& dst,
                const kernels::ConstPlane& mask, const kernels::ConstPlane& src0,
                const kernels::ConstPlane& src1, U scalar) {
  const hn::ScalableTag<U> d;
  const size_t lanes = hn::Lanes(d);
  const bool bytewise = lanes % 8 == 0;
  const auto fixed = hn::Set(d, scalar);
  for (size_t r = 0; r < rows; ++r) {
    const U* a = static_cast<const U*>(src0.data) + r * src0.stride;
    const U* b = kScalar ? nullptr : static_cast<const U*>(src1.data) + r * src1.stride;
    const uint8_t* sel = static_cast<const uint8_t*>(mask.data) + r * mask.stride;
    U* out = static_cast<U*>(dst.data) + r * dst.stride;
    size_t c = 0;
    for (; c + lanes <= cols; c += lanes) {
      // A vector's bits: whole bytes from column c (a multiple of 8) when the
      // lane count is a multiple of 8; else 1, 2 or 4 bits of one byte. They
      // go through `bits` because LoadMaskBits may read 8 bytes (SVE's does),
      // more than a row's last vector or one byte has.
      uint8_t bits[kMaskBytes] = {};
      if (bytewise)
        memcpy(bits, sel + c / 8, lanes / 8);
      else
        bits[0] = static_cast<uint8_t>(sel[c / 8] >> (c % 8));
      const auto m = hn::LoadMaskBits(d, bits);
      const auto v1 = kScalar ? fixed : hn::LoadU(d, b + c);
      hn::StoreU(hn::IfThenElse(m, hn::LoadU(d, a + c), v1), d, out + c);
    }
    // The rest of the row, one element at a time.
    for (; c < cols; ++c) {
      const bool on = (sel[c / 8] >> (c % 8)) & 1;
      out[c] = on ? a[c] : (kScalar ? scalar : b[c]);
    }
  }
}

template <typename T>
using SelectLanes = std::conditional_t<sizeof(T) == 1, uint8_t,
                                       std::conditional_t<sizeof(T) == 2, uint16_t, uint32_t>>;

inline bool IsEightByte(pto_dtype dtype) { return dtype == PTO_INT64 || dtype == PTO_UINT64; }

void SelectImpl(pto_dtype dtype, size_t rows, size_t cols, const kernels::Plane& dst,
                const kernels::ConstPlane& mask, const kernels::ConstPlane& src0,
                const kernels::ConstPlane& src1) {
  if (IsEightByte(dtype))
    return SelectRows<uint64_t, false>(rows, cols, dst, mask, src0, src1, 0);
  VisitDtype(dtype, [&](auto tag) {
    using U = SelectLanes<decltype(tag)>;
    SelectRows<U, false>(rows, cols, dst, mask, src0, src1, U{});
  });
}

void SelectScalarImpl(pto_dtype dtype, size_t rows, size_t cols, const kernels::Plane& dst,
                      const kernels::ConstPlane& mask, const kernels::ConstPlane& src,
                      uint64_t scalar_bits) {
  if (IsEightByte(dtype))
    return SelectRows<uint64_t, true>(rows, cols, dst, mask, src, src, scalar_bits);
  VisitDtype(dtype, [&](auto tag) {
    using U = SelectLanes<decltype(tag)>;
    SelectRows<U, true>(rows, cols, dst, mask, src, src, static_cast<U>(scalar_bits));
  });
}

}  // namespace HWY_NAMESPACE
}  // namespace pto
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace pto {
namespace kernels {

HWY_EXPORT(CompareImpl);
HWY_EXPORT(CompareScalarImpl);
HWY_EXPORT(SelectImpl);
HWY_EXPORT(SelectScalarImpl);

void Compare(pto_cmp_mode mode, pto_dtype dtype, size_t rows, size_t cols, const Plane& mask,
             const ConstPlane& src0, const ConstPlane& src1) {
  PTO_DYNAMIC_DISPATCH(CompareImpl)(mode, dtype, rows, cols, mask, src0, src1);
}

void CompareScalar(pto_cmp_mode mode, pto_dtype dtype, size_t rows, size_t cols,
                   const Plane& mask, const ConstPlane& src, uint64_t scalar_bits) {
  PTO_DYNAMIC_DISPATCH(CompareScalarImpl)(mode, dtype, rows, cols, mask, src, scalar_bits);
}

void Select(pto_dtype dtype, size_t rows, size_t cols, const Plane& dst, const ConstPlane& mask,
            const ConstPlane& src0, const ConstPlane& src1) {
  PTO_DYNAMIC_DISPATCH(SelectImpl)(dtype, rows, cols, dst, mask, src0, src1);
}

void SelectScalar(pto_dtype dtype, size_t rows, size_t cols, const Plane& dst,
                  const ConstPlane& mask, const ConstPlane& src, uint64_t scalar_bits) {
  PTO_DYNAMIC_DISPATCH(SelectScalarImpl)(dtype, rows, cols, dst, mask, src, scalar_bits);
}

}  // namespace kernels
}  // namespace pto
#endif  // HWY_ONCE
