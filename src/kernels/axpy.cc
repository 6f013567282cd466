// TAXPY: dst = scalar * src + dst, one fused multiply-add rounded once to
// dst's dtype (the NPUs' vaxpy), the same bits on every target; and
// MulAdd, dst = a * b + c of three tiles (TFUSEDMULADD, TFUSEDMULADDRELU,
// TMULADDDST: one of the three is dst's old values), rounded the same way.
//
// float32 dst (src float32, or float16 widened exactly): ExactMulAdd.
// float16 dst: the product of two float16 values is exact in float32, the
// sum is rounded to odd there (MulAddToOdd) and then to float16 by StoreAs's
// round-to-nearest-even, which gives the exact sum rounded once.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "src/kernels/axpy.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "src/kernels/fused-inl.h"
#include "src/kernels/simd-inl.h"

HWY_BEFORE_NAMESPACE();
namespace pto {
namespace HWY_NAMESPACE {

template <typename TD, typename TS>
HWY_INLINE void AxpyTyped(size_t rows, size_t cols, const kernels::Plane& dst,
                          const kernels::ConstPlane& src, float scalar) {
  const hn::ScalableTag<float> d;
  TD* out = static_cast<TD*>(dst.data);
  const TS* x = static_cast<const TS*>(src.data);
  // ForEachBinary's operands: a = src, b = dst's old values, out = dst (the
  // same row; each vector is read before it is written).
  ForEachBinary(d, rows, cols, out, dst.stride, x, src.stride, static_cast<const TD*>(out),
                dst.stride, [scalar](auto dv, const TS* px, const TD* py, TD* po) {
                  const auto a = hn::Set(dv, scalar);
                  const auto vx = LoadAs(dv, px);
                  const auto vy = LoadAs(dv, py);
                  if constexpr (hwy::IsSame<TD, float>()) {
                    StoreAs(dv, ExactMulAdd(dv, a, vx, vy), po);
                  } else {
                    StoreAs(dv, MulAddToOdd(dv, a, vx, vy), po);
                  }
                });
}

// One vector of a * b + c rounded once (float32 lanes), relu'd when asked:
// +0 unless it is > 0, NaN kept (TRELU's; for float16 the relu is taken
// before the last rounding, which keeps the sign and keeps a nonzero value
// nonzero or rounds it to +0, so it gives the same bits as after).
template <typename T, class D>
HWY_INLINE void MulAddVector(D d, const T* a, const T* b, const T* c, T* out, bool relu) {
  const auto va = LoadAs(d, a), vb = LoadAs(d, b), vc = LoadAs(d, c);
  hn::Vec<D> v;
  if constexpr (hwy::IsSame<T, float>())
    v = ExactMulAdd(d, va, vb, vc);
  else
    v = MulAddToOdd(d, va, vb, vc);
  if (relu) v = hn::IfThenElseZero(hn::Or(hn::Gt(v, hn::Zero(d)), hn::IsNaN(v)), v);
  StoreAs(d, v, out);
}

// Row by row, whole vectors then the row's tail through buffers of one
// vector. Every source may be dst itself (exactly): each vector is loaded
// before it is stored.
template <typename T>
HWY_INLINE void MulAddTyped(size_t rows, size_t cols, const kernels::Plane& dst,
                            const kernels::ConstPlane& a, const kernels::ConstPlane& b,
                            const kernels::ConstPlane& c, bool relu) {
  const hn::ScalableTag<float> d;
  const size_t n = hn::Lanes(d);
  for (size_t r = 0; r < rows; ++r) {
    T* out = static_cast<T*>(dst.data) + r * dst.stride;
    const T* pa = static_cast<const T*>(a.data) + r * a.stride;
    const T* pb = static_cast<const T*>(b.data) + r * b.stride;
    const T* pc = static_cast<const T*>(c.data) + r * c.stride;
    size_t x = 0;
    for (; x + n <= cols; x += n) MulAddVector(d, pa + x, pb + x, pc + x, out + x, relu);
    if (x == cols) continue;
    constexpr size_t kMax = hn::MaxLanes(hn::ScalableTag<float>());
    T ba[kMax], bb[kMax], bc[kMax], bo[kMax];
    const size_t rest = cols - x;
    FillTailBuffer(d, ba, pa + x, rest);
    FillTailBuffer(d, bb, pb + x, rest);
    FillTailBuffer(d, bc, pc + x, rest);
    MulAddVector(d, ba, bb, bc, bo, relu);
    memcpy(out + x, bo, rest * sizeof(T));
  }
}

void MulAddImpl(pto_dtype dtype, size_t rows, size_t cols, const kernels::Plane& dst,
                const kernels::ConstPlane& a, const kernels::ConstPlane& b,
                const kernels::ConstPlane& c, bool relu) {
  if (dtype == PTO_FLOAT32) return MulAddTyped<float>(rows, cols, dst, a, b, c, relu);
  if (dtype == PTO_FLOAT16) return MulAddTyped<hwy::float16_t>(rows, cols, dst, a, b, c, relu);
  DtypeWithoutKernel(dtype);
}

void AxpyImpl(pto_dtype dst_dtype, pto_dtype src_dtype, size_t rows, size_t cols,
              const kernels::Plane& dst, const kernels::ConstPlane& src, float scalar) {
  if (dst_dtype == PTO_FLOAT32 && src_dtype == PTO_FLOAT32)
    return AxpyTyped<float, float>(rows, cols, dst, src, scalar);
  if (dst_dtype == PTO_FLOAT32 && src_dtype == PTO_FLOAT16)
    return AxpyTyped<float, hwy::float16_t>(rows, cols, dst, src, scalar);
  if (dst_dtype == PTO_FLOAT16 && src_dtype == PTO_FLOAT16)
    return AxpyTyped<hwy::float16_t, hwy::float16_t>(rows, cols, dst, src, scalar);
  DtypeWithoutKernel(dst_dtype);
}

}  // namespace HWY_NAMESPACE
}  // namespace pto
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include "src/kernels/kernels.h"
namespace pto {
HWY_EXPORT(AxpyImpl);
HWY_EXPORT(MulAddImpl);
namespace kernels {

void MulAdd(pto_dtype dtype, size_t rows, size_t cols, const Plane& dst, const ConstPlane& a,
            const ConstPlane& b, const ConstPlane& c, bool relu) {
  PTO_DYNAMIC_DISPATCH(MulAddImpl)(dtype, rows, cols, dst, a, b, c, relu);
}

void Axpy(pto_dtype dst_dtype, pto_dtype src_dtype, size_t rows, size_t cols, const Plane& dst,
          const ConstPlane& src, float scalar) {
  PTO_DYNAMIC_DISPATCH(AxpyImpl)(dst_dtype, src_dtype, rows, cols, dst, src, scalar);
}

}  // namespace kernels
}  // namespace pto
#endif  // HWY_ONCE
