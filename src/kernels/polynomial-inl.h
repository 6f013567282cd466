// Polynomial evaluation, c[0] + c[1] x + ... + c[n-1] x^(n-1), with the
// coefficients in an array (pow-tables.h): Horner's rule, a chain of n - 1
// FMAs with the fewest operations, and Estrin's scheme (Highway's
// impl::Estrin), a chain of about log2(n) operations at the cost of a few
// more multiplications, for loops that latency rather than throughput bounds.
//
// The two round differently: changing a kernel's scheme changes its bits
// (and, for the correctly rounded paths, the evaluation error that their
// rounding tests assume).
//
// Re-included once per target by foreach_target.h, hence the toggle guard.
#if defined(PTO_KERNELS_POLYNOMIAL_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef PTO_KERNELS_POLYNOMIAL_INL_H_
#undef PTO_KERNELS_POLYNOMIAL_INL_H_
#else
#define PTO_KERNELS_POLYNOMIAL_INL_H_
#endif

#include <stddef.h>

#include <utility>

#include "hwy/contrib/math/math-inl.h"
#include "hwy/highway.h"
#include "src/kernels/simd-inl.h"

HWY_BEFORE_NAMESPACE();
namespace pto {
namespace HWY_NAMESPACE {

template <size_t kN, class D, typename T>
HWY_INLINE hn::Vec<D> Horner(D d, hn::Vec<D> x, const T (&c)[kN]) {
  auto p = hn::Set(d, c[kN - 1]);
  for (size_t i = kN - 1; i > 0; --i) p = hn::MulAdd(p, x, hn::Set(d, c[i - 1]));
  return p;
}

template <class D, typename T, size_t kN, size_t... kI>
HWY_INLINE hn::Vec<D> EstrinOfSequence(D d, hn::Vec<D> x, const T (&c)[kN], std::index_sequence<kI...>) {
  return hn::impl::Estrin(x, hn::Set(d, c[kI])...);
}

// Highway's impl::Estrin takes the coefficients as separate vectors (up to
// 19 of them).
template <size_t kN, class D, typename T>
HWY_INLINE hn::Vec<D> Estrin(D d, hn::Vec<D> x, const T (&c)[kN]) {
  return EstrinOfSequence(d, x, c, std::make_index_sequence<kN>());
}

}  // namespace HWY_NAMESPACE
}  // namespace pto
HWY_AFTER_NAMESPACE();

#endif  // PTO_KERNELS_POLYNOMIAL_INL_H_
