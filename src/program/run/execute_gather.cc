// pto.mgather and pto.mscatter when they run: the view's elements are the
// table of pto_mgather / pto_mscatter, whose rules (the indices' values
// among them) are checked here, then its copy.
#include <stdint.h>

#include <string>

#include "ops/ops.h"
#include "program/run/block.h"

namespace pto {
namespace program {

pto_status Block::GlobalIndex(const Instr& in) {
  const bool scatter = in.sub != 0;
  const char* name = scatter ? "pto.mscatter" : "pto.mgather";
  const View& v = views_[in.b];
  if (pointers_[v.pointer].peer) return comm_.PeerAccessError(in, v.pointer, name);
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
                 std::string(name) + ": the view's elements are not packed row-major (its "
                                     "strides are not its sizes' products), so they are no table");
  pto_tile* tile = &tiles_[in.a];
  const pto_tile* indices = &tiles_[in.c];
  const size_t size = pto_dtype_size(tile->dtype);
  const ops::GlobalTable table = {pointers_[v.pointer].data + static_cast<size_t>(v.offset) * size,
                                  static_cast<size_t>(elements), tile->dtype, in.attr & 15};
  const int coalesce = static_cast<int>(in.imm);
  ops::GlobalModes modes;
  modes.atomic = in.attr >> 4;
  const pto_status status = scatter
                                ? ops::CheckGlobalScatter(table, tile, indices, coalesce, p_.profile, modes)
                                : ops::CheckGlobalGather(tile, table, indices, coalesce, p_.profile);
  if (status != PTO_OK) return Error(in, status, LastError());
  if (scatter) ops::RunGlobalScatter(table, tile, indices, coalesce, modes.atomic);
  else ops::RunGlobalGather(tile, table, indices, coalesce);
  return PTO_OK;
}

}  // namespace program
}  // namespace pto
