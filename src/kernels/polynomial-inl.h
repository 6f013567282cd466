// Polynomial evaluation, c[0] + c[1] x + ... + c[n-1] x^(n-1), with the
// coefficients in an array (pow-tables.h): Horner's rule, a chain of n - 1
// FMAs with the fewest operations, and Estrin's scheme (Highway's
// impl::Estrin), a chain of about log2(n) operations at the cost of a few
// more multiplications, for loops that latency rather than throughput bounds;
// between them EvenOdd, two Horner chains in x^2 (one multiplication more
// than Horner's rule, half its chain; EvenOddPlus, its general form, adds a
// vector v0 + x P(x) in its even chain), and Pairs, Horner's rule in x^2 over
// the pairs c[2i] + c[2i+1] x (the same count as EvenOdd, and its lowest
// pair joins last, so that c[0] + c[1] x is rounded once before the end).
//
// The schemes round differently: changing a kernel's scheme changes its bits
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

// kN coefficients as a value (a constexpr array derived from another).
template <size_t kN>
struct Coefficients {
  double c[kN];
};

// c[1], ..., c[kN - 1]: for c[0] + x Tail(x) where c[0] is exact.
template <size_t kN>
constexpr Coefficients<kN - 1> WithoutFirst(const double (&c)[kN]) {
  Coefficients<kN - 1> tail{};
  for (size_t i = 1; i < kN; ++i) tail.c[i - 1] = c[i];
  return tail;
}

template <size_t kN, class D, typename T>
HWY_INLINE hn::Vec<D> Horner(D d, hn::Vec<D> x, const T (&c)[kN]) {
  auto p = hn::Set(d, c[kN - 1]);
  for (size_t i = kN - 1; i > 0; --i) p = hn::MulAdd(p, x, hn::Set(d, c[i - 1]));
  return p;
}

template <class D, typename T, size_t kN, size_t... kI>
HWY_INLINE hn::Vec<D> EstrinOfSequence(D d, hn::Vec<D> x, const T (&c)[kN],
                                       std::index_sequence<kI...>) {
  return hn::impl::Estrin(x, hn::Set(d, c[kI])...);
}

// Highway's impl::Estrin takes the coefficients as separate vectors (up to
// 19 of them).
template <size_t kN, class D, typename T>
HWY_INLINE hn::Vec<D> Estrin(D d, hn::Vec<D> x, const T (&c)[kN]) {
  return EstrinOfSequence(d, x, c, std::make_index_sequence<kN>());
}

// The even and the odd coefficients by Horner's rule in x^2, two chains of
// v0 + x P(x), P's coefficients c[kFirst], ..., c[kN - 1], by EvenOdd over
// v0 and those (a vector, then the constants): the even powers v0 + c[kFirst
// + 1] x^2 + c[kFirst + 3] x^4 ..., the odd x (c[kFirst] + c[kFirst + 2] x^2
// + ...), joined by one FMA. As many FMAs as v0 + x EvenOdd(x, P), one
// fewer on the chain; the last FMA of the even chain, which adds v0, rounds
// once more on a value of v0's size.
template <size_t kFirst = 0, size_t kN, class D, typename T>
HWY_INLINE hn::Vec<D> EvenOddPlus(D d, hn::Vec<D> x, const T (&c)[kN], hn::Vec<D> v0) {
  constexpr size_t kM = kN - kFirst;  // P's coefficients
  static_assert(kFirst < kN && kM >= 2, "EvenOddPlus needs P of degree 1 or more");
  const auto x2 = hn::Mul(x, x);
  // P's coefficient i belongs to x^(i + 1): the odd i to the even powers.
  constexpr size_t kLastOdd = (kM - 2) | size_t{1};
  constexpr size_t kLastEven = (kM - 1) & ~size_t{1};
  auto even = hn::Set(d, c[kFirst + kLastOdd]);
  for (size_t i = kLastOdd; i >= 3; i -= 2)
    even = hn::MulAdd(even, x2, hn::Set(d, c[kFirst + i - 2]));
  even = hn::MulAdd(even, x2, v0);
  auto odd = hn::Set(d, c[kFirst + kLastEven]);
  for (size_t i = kLastEven; i >= 2; i -= 2)
    odd = hn::MulAdd(odd, x2, hn::Set(d, c[kFirst + i - 2]));
  return hn::MulAdd(odd, x, even);
}

// about n/2 FMAs side by side, joined by one FMA: P(x) = E(x^2) + x O(x^2),
// that is c[0] + x (c[1] + c[2] x + ...) by EvenOddPlus. One multiplication
// more than Horner's rule, half its chain, and fewer values live at once
// than Estrin's scheme. The FMA that adds c[0] and the joining FMA round
// once each on the path of c[0].
template <size_t kN, class D, typename T>
HWY_INLINE hn::Vec<D> EvenOdd(D d, hn::Vec<D> x, const T (&c)[kN]) {
  static_assert(kN >= 3, "EvenOdd needs a polynomial of degree 2 or more");
  return EvenOddPlus<1>(d, x, c, hn::Set(d, c[0]));
}

template <size_t kI, size_t kN, class D, typename T>
HWY_INLINE hn::Vec<D> PairsFrom(D d, hn::Vec<D> x, hn::Vec<D> x2, const T (&c)[kN]) {
  if constexpr (kI + 1 == kN) {
    return hn::Set(d, c[kI]);
  } else {
    const auto pair = hn::MulAdd(hn::Set(d, c[kI + 1]), x, hn::Set(d, c[kI]));
    if constexpr (kI + 2 == kN) {
      return pair;
    } else {
      return hn::MulAdd(x2, PairsFrom<kI + 2>(d, x, x2, c), pair);
    }
  }
}

// (c[0] + c[1] x) + x^2 ((c[2] + c[3] x) + x^2 (...)): each pair one FMA
// off the chain, which after x^2 is one FMA a pair; about Estrin's speed
// where the chain sets the pace, and more accurate, with one rounding of
// c[0] + c[1] x and one of the result on the path of the leading terms
// (Estrin's scheme adds the x^2 term to them first).
template <size_t kN, class D, typename T>
HWY_INLINE hn::Vec<D> Pairs(D d, hn::Vec<D> x, const T (&c)[kN]) {
  static_assert(kN >= 3, "Pairs needs a polynomial of degree 2 or more");
  return PairsFrom<0>(d, x, hn::Mul(x, x), c);
}

}  // namespace HWY_NAMESPACE
}  // namespace pto
HWY_AFTER_NAMESPACE();

#endif  // PTO_KERNELS_POLYNOMIAL_INL_H_
