// Column reductions (TCOLSUM, TCOLPROD, TCOLMAX, TCOLMIN): every column in
// its own lane, so a column's sum is the profile's order (kernels.h SumOrder,
// docs/reductions.md) on every SIMD target, each step rounded to the element
// type.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "src/kernels/colreduce.cc"
#include <stddef.h>

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

// The binary tree of TCOLSUM isBinary = true over rows [0, count) at level
// 0: node (level, k) is the sum of nodes 2k and 2k+1 a level below; where a
// level below has an odd count, its last node is added to this level's node
// `fold` (A5: the last, A2A3: the first). Recursive, so never inlined.
template <typename T, class D>
HWY_NOINLINE hn::Vec<D> TreeNode(D d, const T* col, size_t stride, const size_t* counts,
                               size_t level, size_t k, bool fold_last) {
  if (level == 0) return LoadAs(d, col + k * stride);
  const size_t below = counts[level - 1];
  auto v = RoundToStorage<T>(d, hn::Add(TreeNode<T>(d, col, stride, counts, level - 1, 2 * k, fold_last),
                                        TreeNode<T>(d, col, stride, counts, level - 1, 2 * k + 1, fold_last)));
  const size_t fold = fold_last ? counts[level] - 1 : 0;
  if (below % 2 == 1 && k == fold)
    v = RoundToStorage<T>(d, hn::Add(v, TreeNode<T>(d, col, stride, counts, level - 1, below - 1, fold_last)));
  return v;
}

// The sums, or with kMul the products (TCOLPROD: a2a3/TColProd.hpp's
// ColReduceInstr row after row, a5/TColProd.hpp's TColReduceInstr as the
// sum's; never the binary orders), of the columns in the order's sequence,
// each step rounded to T.
template <typename T, bool kMul = false, class D>
HWY_INLINE hn::Vec<D> ColumnSum(D d, SumOrder order, const T* col, size_t stride, size_t rows) {
  const auto row = [&](size_t r) { return LoadAs(d, col + r * stride); };
  const auto add = [&](hn::Vec<D> a, hn::Vec<D> b) {
    return RoundToStorage<T>(d, kMul ? hn::Mul(a, b) : hn::Add(a, b));
  };
  switch (order) {
    case SumOrder::kA5: {
      // TColReduceOps.hpp (A5): row 0, then the sums of row pairs (1,2), (3,4), ...
      // added in turn, then a last unpaired row.
      auto acc = row(0);
      size_t r = 1;
      for (; r + 1 < rows; r += 2) acc = add(acc, add(row(r), row(r + 1)));
      if (r < rows) acc = add(acc, row(r));
      return acc;
    }
    case SumOrder::kA2A3: {
      auto acc = row(0);  // TColSum.hpp (A2A3): row after row
      for (size_t r = 1; r < rows; ++r) acc = add(acc, row(r));
      return acc;
    }
    case SumOrder::kA5Binary:
    case SumOrder::kA2A3Binary: {
      const bool a5 = order == SumOrder::kA5Binary;
      if (rows == 1) return a5 ? add(row(0), hn::Zero(d)) : row(0);
      size_t counts[64];
      size_t levels = 0;
      counts[0] = rows;
      while (counts[levels] > 1) {
        counts[levels + 1] = counts[levels] / 2;
        ++levels;
      }
      return TreeNode<T>(d, col, stride, counts, levels, 0, a5);
    }
  }
  return row(0);
}

// The reductions of the Lanes(d) columns starting at col, one per lane.
template <typename T, class D>
HWY_INLINE hn::Vec<D> ReduceColumns(D d, Reduction op, SumOrder order, const T* col,
                                    size_t stride, size_t rows) {
  if (op == Reduction::kSum) return DefaultNaN(d, ColumnSum<T>(d, order, col, stride, rows));
  if (op == Reduction::kProd) return DefaultNaN(d, ColumnSum<T, true>(d, order, col, stride, rows));
  auto v = LoadAs(d, col);
  for (size_t r = 1; r < rows; ++r) {
    const auto x = LoadAs(d, col + r * stride);
    v = op == Reduction::kMax ? Extreme<true>(d, v, x) : Extreme<false>(d, v, x);
  }
  return DefaultNaN(d, v);
}

template <typename T>
void ColReduceTyped(Reduction op, SumOrder order, size_t rows, size_t cols,
                    const kernels::Plane& dst, const kernels::ConstPlane& src) {
  const ComputeTag<T> d;
  const size_t N = hn::Lanes(d);
  const T* in = static_cast<const T*>(src.data);
  T* out = static_cast<T*>(dst.data);
  size_t c = 0;
  for (; c + N <= cols; c += N)
    StoreAs(d, ReduceColumns<T>(d, op, order, in + c, src.stride, rows), out + c);
  // The last columns one at a time, in one-lane vectors: the same order.
  const hn::CappedTag<hn::TFromD<decltype(d)>, 1> d1;
  for (; c < cols; ++c) StoreAs(d1, ReduceColumns<T>(d1, op, order, in + c, src.stride, rows), out + c);
}

void ColReduceImpl(Reduction op, SumOrder order, pto_dtype dtype, size_t rows, size_t cols,
                   const kernels::Plane& dst, const kernels::ConstPlane& src) {
  // The 8-byte integers wrap, so every order gives the same sums.
  if (dtype == PTO_INT64) return ColReduceTyped<int64_t>(op, order, rows, cols, dst, src);
  if (dtype == PTO_UINT64) return ColReduceTyped<uint64_t>(op, order, rows, cols, dst, src);
  VisitDtype(dtype, [&](auto tag) {
    ColReduceTyped<decltype(tag)>(op, order, rows, cols, dst, src);
  });
}

}  // namespace HWY_NAMESPACE
}  // namespace pto
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace pto {
namespace kernels {

HWY_EXPORT(ColReduceImpl);

void ColReduce(Reduction op, SumOrder order, pto_dtype dtype, size_t rows, size_t cols,
               const Plane& dst, const ConstPlane& src) {
  PTO_DYNAMIC_DISPATCH(ColReduceImpl)(op, order, dtype, rows, cols, dst, src);
}

}  // namespace kernels
}  // namespace pto
#endif
