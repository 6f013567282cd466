// PTO assembly: pto.tprefetch, a view's rows named for a tile (PTOAS's
// TPrefetchOp), checked as PTOAS checks it; nothing to do when it runs.
#include <string>

#include "program/parse/parser.h"
#include "program/parse/readers.h"

namespace pto {
namespace program {

// pto.tprefetch ins(%src : !pto.partition_tensor_view<...>) outs(%dst : !pto.tile_buf<...>)
// (PTOAS's TPrefetchOp; pto-isa's TPREFETCH, a prefetch "into a tile-local
// cache/buffer (implementation-defined)"). PTOAS's rules: src a partition
// view, dst a vec or mat tile, elements of one size. What dst then holds is
// no result: A5 copies the view's rows into it packed, chunk over chunk (a
// scratch: "dst is temporary"), the CPU model reads src with dst's row stride.
// Every load here is synchronous, so there is nothing to bring forward: dst
// is left as it is and the instruction does nothing when it runs.
void MemoryReader::ParsePrefetchTile(const Token& op) {
  Token src_name, dst_name;
  Type src_type, dst_type;
  SourceLoc src_loc, dst_loc;
  if (!ParseOneInOneOut(&src_name, &src_type, &src_loc, &dst_name, &dst_type, &dst_loc)) return;
  Value src;
  if (!parser_.UseValue(src_name, &src) || !parser_.WrittenAs(src_name, src.type, src_type, src_loc))
    return;
  if (src.type.kind != TypeKind::kPartitionView)
    return (void)parser_.Error(src_loc, "pto.tprefetch's src is a partition view, not " +
                                            TypeString(src.type));
  if (dst_type.kind != TypeKind::kTile ||
      (dst_type.space != Space::kVec && dst_type.space != Space::kMat))
    return (void)parser_.Error(dst_loc, "pto.tprefetch's dst is a vec or mat tile, not " +
                                            TypeString(dst_type));
  if (pto_dtype_size(src.type.dtype) != pto_dtype_size(dst_type.dtype))
    return (void)parser_.Error(op.loc,
                               std::string("pto.tprefetch: src's ") +
                                   DtypeSpelling(src.type.dtype) + " and dst's " +
                                   DtypeSpelling(dst_type.dtype) + " differ in element size",
                               PTO_ERR_DTYPE_MISMATCH);
  uint32_t slot;
  if (!parser_.UseTile(dst_name, dst_type, dst_loc, Use::kTmp, &slot)) return;
  Instr in;
  in.code = Code::kNop;
  in.loc = op.loc;
  p_->code.push_back(in);
}

}  // namespace program
}  // namespace pto
