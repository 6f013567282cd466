// Row reductions: sums, products, maxima and minima (TROWSUM, TROWPROD,
// TROWMAX, TROWMIN); the column reductions are colreduce.cc's.
// A float sum's additions happen in a fixed order, the profile's (kernels.h
// SumOrder, docs/reductions.md), each one rounded to the element type, so the
// result is the same bits on every SIMD target: vector lanes only ever hold
// independent partial sums of that order (one column each, or one lane of a
// fixed-width tree level), never a regrouping of it.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "src/kernels/reduce.cc"
#include <math.h>
#include <string.h>

#include <limits>
#include <type_traits>
#include <vector>

#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "src/kernels/kernels.h"
#include "src/kernels/reduce-inl.h"
#include "src/kernels/simd-inl.h"

HWY_BEFORE_NAMESPACE();
namespace pto {
namespace HWY_NAMESPACE {

using kernels::Reduction;
using kernels::SumOrder;

// ---- scalar element arithmetic of the row sums' trees --------------------

// FLOAT16 bits <-> float, exact one way and rounded to nearest even the other
// (the default rounding mode, which FloatEnvironmentGuard sets). A NaN comes
// back as the default NaN: every NaN a reduction gives is that one.
HWY_INLINE float FloatFromHalfBits(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  const uint32_t em = h & 0x7FFFu;
  float magnitude;
  if (em >= 0x7C00u) {
    const uint32_t bits = em == 0x7C00u ? 0x7F800000u : 0x7FC00000u;
    memcpy(&magnitude, &bits, sizeof bits);
  } else if (em < 0x0400u) {
    magnitude = static_cast<float>(em) * 0x1p-24f;  // subnormal: exact
  } else {
    const uint32_t bits = (em << 13) + (112u << 23);
    memcpy(&magnitude, &bits, sizeof bits);
  }
  uint32_t bits;
  memcpy(&bits, &magnitude, sizeof bits);
  bits |= sign;
  memcpy(&magnitude, &bits, sizeof bits);
  return magnitude;
}

HWY_INLINE uint16_t HalfBitsFromFloat(float f) {
  uint32_t bits;
  memcpy(&bits, &f, sizeof bits);
  const uint16_t sign = static_cast<uint16_t>((bits >> 16) & 0x8000u);
  const uint32_t abs = bits & 0x7FFFFFFFu;
  if (abs > 0x7F800000u) return 0x7E00u;                // NaN: the default NaN
  if (abs >= 0x477FF000u) return sign | 0x7C00u;        // rounds to infinity (>= 65520)
  if (abs < 0x38800000u) {                              // below 2^-14: the subnormal grid
    float a;
    memcpy(&a, &abs, sizeof a);
    return sign | static_cast<uint16_t>(nearbyintf(a * 0x1p24f));  // exact scaling
  }
  const uint32_t odd = (abs >> 13) & 1u;
  return sign | static_cast<uint16_t>((abs - (112u << 23) + 0xFFFu + odd) >> 13);
}

// x rounded to T (T float or FLOAT16), as a float.
template <typename T>
HWY_INLINE float RoundTo(float x) {
  if constexpr (std::is_same_v<T, hwy::float16_t>) return FloatFromHalfBits(HalfBitsFromFloat(x));
  return x;
}
// The sum of two values of T, correctly rounded to T (float has more than
// 2 * 11 + 2 significand bits, so rounding the float sum again is exact).
template <typename T>
HWY_INLINE float AddIn(float a, float b) {
  return RoundTo<T>(a + b);
}

template <typename T>
HWY_INLINE float LoadFloat(const T* p) {
  if constexpr (std::is_same_v<T, hwy::float16_t>) {
    uint16_t h;
    memcpy(&h, p, sizeof h);
    return FloatFromHalfBits(h);
  } else {
    return *p;
  }
}
template <typename T>
HWY_INLINE void StoreFloat(float x, T* p) {
  if (x != x) x = std::numeric_limits<float>::quiet_NaN();
  if constexpr (std::is_same_v<T, hwy::float16_t>) {
    const uint16_t h = HalfBitsFromFloat(x);
    memcpy(p, &h, sizeof h);
  } else {
    *p = x;
  }
}

// The elements of one 256-byte vector register of the NPU.
template <typename T>
constexpr size_t kChunk = 256 / sizeof(T);

// vcadd over lanes[0, kChunk<T>) of which the first `active` hold values and
// the rest +0: adjacent lanes are added in pairs, level by level, until one
// value is left. A sum with +0 is the value itself except that -0 becomes
// +0, so the +0 lanes are not added one by one: a level's unpaired last
// value is only made +0 if it is -0, and so is the result of each level left
// once one value remains. Destroys lanes.
template <typename T>
HWY_INLINE float VcaddTree(float* lanes, size_t active) {
  size_t n = active;
  for (size_t width = kChunk<T>; width > 1; width /= 2) {
    for (size_t k = 0; k < n / 2; ++k) lanes[k] = AddIn<T>(lanes[2 * k], lanes[2 * k + 1]);
    if (n % 2 == 1) lanes[n / 2] = lanes[n - 1] + 0.0f;
    n = n / 2 + n % 2;
  }
  return lanes[0];
}

// lanes[0, n) = row[0, n).
template <typename T>
HWY_INLINE void LoadChunk(const T* row, size_t n, float* lanes) {
  for (size_t k = 0; k < n; ++k) lanes[k] = LoadFloat(row + k);
}

// VcaddTree of a whole float32 chunk (kChunk<float> values at row) with the
// tree's upper levels in vector lanes: a level's adjacent pairs in 2 N
// values are the even and the odd lanes of their two vectors (ConcatEven,
// ConcatOdd keep the order), so each sum is the scalar tree's, of the same
// two operands in the same order. Where a vector holds fewer than 2 lanes,
// or more than half a chunk, all of it is VcaddTree's scalar loop.
HWY_INLINE float VcaddWholeChunk(const float* row, float* lanes) {
  constexpr size_t E = kChunk<float>;
#if HWY_TARGET == HWY_SCALAR
  LoadChunk(row, E, lanes);
  return VcaddTree<float>(lanes, E);
#else
  const hn::ScalableTag<float> d;
  const size_t N = hn::Lanes(d);
  if (N < 2 || 2 * N > E) {
    LoadChunk(row, E, lanes);
    return VcaddTree<float>(lanes, E);
  }
#if !HWY_HAVE_SCALABLE
  // A fixed vector size: the chunk's E / N vectors held in registers
  // through every level.
  constexpr size_t kN = hn::MaxLanes(decltype(d)());
  if constexpr (kN >= 2 && 2 * kN <= E) {
    constexpr size_t kVectors = E / kN;
    hn::Vec<decltype(d)> v[kVectors];
    for (size_t j = 0; j < kVectors; ++j) v[j] = hn::LoadU(d, row + j * kN);
    for (size_t m = kVectors; m > 1; m /= 2)
      for (size_t j = 0; j < m / 2; ++j)
        v[j] = hn::Add(hn::ConcatEven(d, v[2 * j + 1], v[2 * j]),
                       hn::ConcatOdd(d, v[2 * j + 1], v[2 * j]));
    auto last = v[0];
    for (size_t n = kN; n > 1; n /= 2)
      last = hn::Add(hn::ConcatEven(d, last, last), hn::ConcatOdd(d, last, last));
    return hn::GetLane(last);
  }
#endif
  const float* from = row;
  size_t n = E;
  for (; n > N; n /= 2, from = lanes) {
    for (size_t j = 0; 2 * j * N < n; ++j) {
      const auto lo = hn::LoadU(d, from + 2 * j * N);
      const auto hi = hn::LoadU(d, from + (2 * j + 1) * N);
      hn::StoreU(hn::Add(hn::ConcatEven(d, hi, lo), hn::ConcatOdd(d, hi, lo)), d, lanes + j * N);
    }
  }
  // The last N values in one vector: a level's pair sums in its lower half
  // (the even and odd lanes of the vector with itself), until lane 0 holds
  // the tree's root.
  auto v = hn::LoadU(d, lanes);
  for (; n > 1; n /= 2) v = hn::Add(hn::ConcatEven(d, v, v), hn::ConcatOdd(d, v, v));
  return hn::GetLane(v);
#endif
}

// A5 (TRowReduce.hpp): the accumulator starts at +0; each 256-byte chunk of
// the row is reduced by vcadd and added to it, chunk after chunk.
template <typename T>
HWY_INLINE float RowSumA5(const T* row, size_t cols) {
  float lanes[kChunk<T>];
  float acc = 0.0f;
  for (size_t c = 0; c < cols; c += kChunk<T>) {
    const size_t active = cols - c < kChunk<T> ? cols - c : kChunk<T>;
    if constexpr (std::is_same_v<T, float>) {
      if (active == kChunk<T>) {
        acc = AddIn<T>(acc, VcaddWholeChunk(row + c, lanes));
        continue;
      }
    }
    LoadChunk(row + c, active, lanes);
    acc = AddIn<T>(acc, VcaddTree<T>(lanes, active));
  }
  return acc;
}

// A2A3 (TRowSum.hpp, TRowReduceOps.hpp): with n whole chunks and a partial
// one of rem elements: one chunk is vcadd'ed as it is; otherwise tmp's chunk
// slots take the sums of chunk pairs (2i, 2i+1), an odd last chunk is added
// to slot 0, the partial chunk lane by lane to slot 0's first rem lanes; the
// slots are then summed pairwise, level by level, an odd last slot going
// into the level's last slot; vcadd of slot 0 is the sum.
template <typename T>
HWY_INLINE float RowSumA2A3(const T* row, size_t cols, float* tmp) {
  constexpr size_t E = kChunk<T>;
  const size_t n = cols / E, rem = cols % E;
  if (cols <= E) {
    LoadChunk(row, cols, tmp);
    return VcaddTree<T>(tmp, cols);
  }
  const auto chunk = [&](size_t i, size_t k) { return LoadFloat(row + i * E + k); };
  if (n == 1) {
    for (size_t k = 0; k < E; ++k) tmp[k] = chunk(0, k);
  }
  for (size_t i = 0; i < n / 2; ++i)
    for (size_t k = 0; k < E; ++k) tmp[i * E + k] = AddIn<T>(chunk(2 * i, k), chunk(2 * i + 1, k));
  if (n != 1 && n % 2 == 1)
    for (size_t k = 0; k < E; ++k) tmp[k] = AddIn<T>(tmp[k], chunk(n - 1, k));
  for (size_t k = 0; k < rem; ++k) tmp[k] = AddIn<T>(tmp[k], chunk(n, k));
  size_t len = n / 2;
  while (len > 1) {
    for (size_t i = 0; i < len / 2; ++i)
      for (size_t k = 0; k < E; ++k)
        tmp[i * E + k] = AddIn<T>(tmp[2 * i * E + k], tmp[(2 * i + 1) * E + k]);
    const bool odd = len % 2 == 1;
    len /= 2;
    if (odd)
      for (size_t k = 0; k < E; ++k)
        tmp[(len - 1) * E + k] = AddIn<T>(tmp[(len - 1) * E + k], tmp[2 * len * E + k]);
  }
  return VcaddTree<T>(tmp, E);
}

// A5's row sums of Lanes(d) rows at once, one row in each float lane: the
// rows' chunks are transposed into buf (element k of every row in one
// vector), and the vcadd trees and the accumulation run as vector additions,
// each lane the scalar order of RowSumA5 exactly. Returns how many rows it
// summed (a multiple of Lanes(d)); every row of a group is read before the
// group's results are written.
template <typename T>
size_t RowSumA5Lanes(size_t rows, size_t cols, const kernels::Plane& dst,
                     const kernels::ConstPlane& src) {
  const hn::ScalableTag<float> d;
  const size_t N = hn::Lanes(d);
  constexpr size_t E = kChunk<T>;
  if (rows < N) return 0;
  std::vector<float> buf(E * N), sums(N);
  size_t r = 0;
  for (; r + N <= rows; r += N) {
    auto acc = hn::Zero(d);
    for (size_t c = 0; c < cols; c += E) {
      const size_t active = cols - c < E ? cols - c : E;
      for (size_t l = 0; l < N; ++l) {
        const T* row = static_cast<const T*>(src.data) + (r + l) * src.stride + c;
        for (size_t k = 0; k < active; ++k) buf[k * N + l] = LoadFloat(row + k);
      }
      size_t n = active;  // as VcaddTree
      for (size_t width = E; width > 1; width /= 2) {
        for (size_t k = 0; k < n / 2; ++k) {
          const auto sum = hn::Add(hn::LoadU(d, &buf[2 * k * N]), hn::LoadU(d, &buf[(2 * k + 1) * N]));
          hn::StoreU(RoundToStorage<T>(d, sum), d, &buf[k * N]);
        }
        if (n % 2 == 1)
          hn::StoreU(hn::Add(hn::LoadU(d, &buf[(n - 1) * N]), hn::Zero(d)), d, &buf[n / 2 * N]);
        n = n / 2 + n % 2;
      }
      acc = RoundToStorage<T>(d, hn::Add(acc, hn::LoadU(d, &buf[0])));
    }
    hn::StoreU(acc, d, sums.data());
    for (size_t l = 0; l < N; ++l)
      StoreFloat(sums[l], static_cast<T*>(dst.data) + (r + l) * dst.stride);
  }
  return r;
}

template <typename T>
void RowSumFloat(SumOrder order, size_t rows, size_t cols, const kernels::Plane& dst,
                 const kernels::ConstPlane& src) {
  constexpr size_t E = kChunk<T>;
  // A2A3's tmp: at most cols / E / 2 chunk slots, at least one.
  const size_t slots = cols / E / 2 > 1 ? cols / E / 2 : 1;
  std::vector<float> tmp(order == SumOrder::kA2A3 ? slots * E : 0);
  const size_t done = order == SumOrder::kA2A3 ? 0 : RowSumA5Lanes<T>(rows, cols, dst, src);
  for (size_t r = done; r < rows; ++r) {
    const T* row = static_cast<const T*>(src.data) + r * src.stride;
    const float sum = order == SumOrder::kA2A3 ? RowSumA2A3(row, cols, tmp.data())
                                               : RowSumA5(row, cols);
    StoreFloat(sum, static_cast<T*>(dst.data) + r * dst.stride);
  }
}

// ---- vector building blocks ----------------------------------------------

// Lanes(d) elements at p as compute lanes; the first `rest` only when rest is
// below Lanes(d), the others `fill` (the identity of the reduction, or a
// repeat of an element for max / min).
template <class D, typename T>
HWY_INLINE hn::Vec<D> LoadPart(D d, const T* p, size_t rest, bool repeat_last) {
  if (rest >= hn::Lanes(d)) return LoadAs(d, p);
  if (repeat_last) return LoadTailBuffered(d, p, rest);
  T buf[hn::MaxLanes(D())];
  memset(buf, 0, sizeof buf);  // +0 of every storage type
  memcpy(buf, p, rest * sizeof(T));
  return LoadAs(d, buf);
}

template <class D, typename T>
HWY_INLINE void StorePart(D d, hn::Vec<D> v, T* p, size_t rest) {
  if (rest >= hn::Lanes(d)) return StoreAs(d, v, p);
  StoreTailBuffered(d, v, p, rest);
}

// ---- row reductions in vectors: max, min, integer sums --------------------

// Two vectors of partial results combined: Add for integer sums (wrapping),
// Extreme for max and min.
template <Reduction kOp, class D>
HWY_INLINE hn::Vec<D> Combine(D d, hn::Vec<D> a, hn::Vec<D> b) {
  if constexpr (kOp == Reduction::kSum) return hn::Add(a, b);
  else return Extreme<kOp == Reduction::kMax>(d, a, b);
}

// The lanes of v combined into one value, lane after lane in one-lane
// vectors (max / min and wrapping sums give the same value in any order).
// One lane at a time, not by halves: on SVE a halved descriptor of a long
// register is not the register's half.
template <Reduction kOp, class D>
HWY_INLINE hn::TFromD<D> FoldLanes(D d, hn::Vec<D> v) {
  using L = hn::TFromD<D>;
  const hn::CappedTag<L, 1> d1;
  HWY_ALIGN L lanes[hn::MaxLanes(D())];
  hn::Store(v, d, lanes);
  auto acc = hn::Set(d1, lanes[0]);
  for (size_t i = 1; i < hn::Lanes(d); ++i) acc = Combine<kOp>(d1, acc, hn::Set(d1, lanes[i]));
  return hn::GetLane(acc);
}

// The combination of every element of each row, with Lanes(d) partial
// results per row combined at the end: max and min are order-free (NaN
// results are the default NaN), integer sums wrap.
template <typename T, Reduction kOp>
void RowReduceVector(size_t rows, size_t cols, const kernels::Plane& dst,
                     const kernels::ConstPlane& src) {
  const ComputeTag<T> d;
  using L = hn::TFromD<decltype(d)>;
  const size_t N = hn::Lanes(d);
  const auto combine = [&](hn::Vec<decltype(d)> a, hn::Vec<decltype(d)> b) {
    return Combine<kOp>(d, a, b);
  };
  constexpr bool kRepeat = kOp != Reduction::kSum;
  T out[hn::MaxLanes(decltype(d)())];
  for (size_t r = 0; r < rows; ++r) {
    const T* row = static_cast<const T*>(src.data) + r * src.stride;
    auto acc = LoadPart(d, row, cols, kRepeat);
    for (size_t c = N; c < cols; c += N) acc = combine(acc, LoadPart(d, row + c, cols - c, kRepeat));
    const L total = FoldLanes<kOp>(d, acc);
    StorePart(d, DefaultNaN(d, hn::Set(d, total)), out, 1);
    memcpy(static_cast<T*>(dst.data) + r * dst.stride, out, sizeof(T));
  }
}

// The 8-byte integers: wrapping sums, max and min, in 64-bit lanes (any
// order gives the same value).
template <typename T>
void RowReduce64(Reduction op, size_t rows, size_t cols, const kernels::Plane& dst,
                 const kernels::ConstPlane& src) {
  switch (op) {
    case Reduction::kSum: return RowReduceVector<T, Reduction::kSum>(rows, cols, dst, src);
    case Reduction::kMax: return RowReduceVector<T, Reduction::kMax>(rows, cols, dst, src);
    case Reduction::kMin: return RowReduceVector<T, Reduction::kMin>(rows, cols, dst, src);
    case Reduction::kProd: return DtypeWithoutKernel(PTO_INT64);  // no row lists them
  }
}

// ---- row products ---------------------------------------------------------

// TROWPROD's order, one row: lanes[] the NPU's lane products.
// A5 and HOST (a5/TRowProd.hpp): E = 256 / sizeof(T) lanes from 1, each
// multiplied by its element of every E-element chunk in turn (vmul, merging:
// lanes past a partial chunk keep their value); then halving, lane k times
// lane k + w for w = E/2, ..., 1 (vintlv with ones, vmul); each product
// rounded to T. A2A3 (a2a3/TRowProd.hpp): B = 32 / sizeof(T) lanes from 1,
// block after block and the first lanes of a partial block, each product
// rounded to T; then lanes 0..B-1 multiplied left to right in float (a
// float16 lane as float, each product rounded to float) and the result
// rounded to T once. Products of two float16 or float32 values are exact in
// float or double before their one rounding.
template <typename T>
HWY_INLINE float RowProdFloat(SumOrder order, const T* row, size_t cols, float* lanes) {
  const bool a5 = order != SumOrder::kA2A3;
  const size_t width = a5 ? kChunk<T> : 32 / sizeof(T);
  for (size_t k = 0; k < width; ++k) lanes[k] = 1.0f;
  for (size_t c = 0; c < cols; ++c) {
    const size_t k = c % width;
    lanes[k] = RoundTo<T>(static_cast<float>(static_cast<double>(lanes[k]) * LoadFloat(row + c)));
  }
  if (a5) {
    for (size_t w = width / 2; w >= 1; w /= 2)
      for (size_t k = 0; k < w; ++k)
        lanes[k] = RoundTo<T>(static_cast<float>(static_cast<double>(lanes[k]) * lanes[k + w]));
    return lanes[0];
  }
  float product = lanes[0];
  for (size_t k = 1; k < width; ++k) product = static_cast<float>(static_cast<double>(product) * lanes[k]);
  return RoundTo<T>(product);
}

// Row products: floats in the profile's order; integers wrap, which makes
// every order give the same value.
template <typename T>
void RowProd(SumOrder order, size_t rows, size_t cols, const kernels::Plane& dst,
             const kernels::ConstPlane& src) {
  float lanes[kChunk<T>];
  for (size_t r = 0; r < rows; ++r) {
    const T* row = static_cast<const T*>(src.data) + r * src.stride;
    T* out = static_cast<T*>(dst.data) + r * dst.stride;
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, hwy::float16_t>) {
      StoreFloat(RowProdFloat<T>(order, row, cols, lanes), out);
    } else {
      uint32_t product = 1;
      for (size_t c = 0; c < cols; ++c)
        product *= static_cast<uint32_t>(static_cast<int64_t>(row[c]));
      *out = static_cast<T>(product);
    }
  }
}

void RowReduceImpl(Reduction op, SumOrder order, pto_dtype dtype, size_t rows, size_t cols,
                   const kernels::Plane& dst, const kernels::ConstPlane& src) {
  if (dtype == PTO_INT64) return RowReduce64<int64_t>(op, rows, cols, dst, src);
  if (dtype == PTO_UINT64) return RowReduce64<uint64_t>(op, rows, cols, dst, src);
  VisitDtype(dtype, [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, hwy::float16_t>) {
      if (op == Reduction::kSum) return RowSumFloat<T>(order, rows, cols, dst, src);
    }
    switch (op) {
      case Reduction::kProd:
        if constexpr (std::is_same_v<T, float> || std::is_same_v<T, hwy::float16_t> ||
                      std::is_same_v<T, int32_t> || std::is_same_v<T, int16_t>)
          return RowProd<T>(order, rows, cols, dst, src);
        return DtypeWithoutKernel(dtype);
      case Reduction::kSum:
        if constexpr (!std::is_same_v<T, float> && !std::is_same_v<T, hwy::float16_t> &&
                      !std::is_same_v<T, hwy::bfloat16_t>)
          return RowReduceVector<T, Reduction::kSum>(rows, cols, dst, src);
        return DtypeWithoutKernel(dtype);
      case Reduction::kMax: return RowReduceVector<T, Reduction::kMax>(rows, cols, dst, src);
      case Reduction::kMin: return RowReduceVector<T, Reduction::kMin>(rows, cols, dst, src);
    }
  });
}

}  // namespace HWY_NAMESPACE
}  // namespace pto
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace pto {
namespace kernels {

HWY_EXPORT(RowReduceImpl);

void RowReduce(Reduction op, SumOrder order, pto_dtype dtype, size_t rows, size_t cols,
               const Plane& dst, const ConstPlane& src) {
  PTO_DYNAMIC_DISPATCH(RowReduceImpl)(op, order, dtype, rows, cols, dst, src);
}

}  // namespace kernels
}  // namespace pto
#endif
