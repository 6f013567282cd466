// A table in memory when an instruction runs (a Table or TableDst operand:
// pto.mgather's, pto.mscatter's): a view's elements, packed row-major; the
// row's rules on it (the indices' values among them) are checked then.
#include <stdint.h>

#include <string>

#include "ops/ops.h"
#include "program/run/block.h"

namespace pto {
namespace program {

pto_status Block::TableOfView(const Instr& in, ops::GlobalTable* table) {
  const View& v = views_[in.b];
  const pto_dtype dtype = static_cast<pto_dtype>(in.d);
  // The instruction's name, made for a refusal only (not on every run).
  auto name = [&in] { return std::string("pto.") + in.op->mnemonic; };
  if (pointers_[v.pointer].peer) return comm_.PeerAccessError(in, v.pointer, name().c_str());
  // The table is the view's elements packed row-major: each dimension's
  // stride the product of the sizes after it (a dimension of one element
  // takes any stride).
  int64_t elements = 1;
  bool packed = true;
  for (int i = static_cast<int>(v.rank) - 1; i >= 0; --i) {
    if (v.shape[i] != 1 && v.strides[i] != elements) packed = false;
    elements *= v.shape[i];
  }
  if (!packed)
    return Error(in, PTO_ERR_INVALID_ARGUMENT,
                 name() + ": the view's elements are not packed row-major (its "
                                     "strides are not its sizes' products), so they are no table");
  const size_t size = pto_dtype_size(dtype);
  *table = {pointers_[v.pointer].data + static_cast<size_t>(v.offset) * size,
            static_cast<size_t>(elements), static_cast<int>(dtype)};
  return PTO_OK;
}

}  // namespace program
}  // namespace pto
