// PTO assembly: pto.tprint, PTOAS's debugging print of a tile. On a CPU it
// writes the tile's valid region to stderr when it runs (the NPU's goes to
// the host through its debug channel); it changes no tile.
#include <string>
#include <vector>

#include "program/parse/parser.h"
#include "program/parse/readers.h"

namespace pto {
namespace program {

// pto.tprint ins(%src[, %tmp] : T[, U]) [{printFormat = #pto<print_format F>}]:
// src a vec tile of f32, f16 or an 8-, 16- or 32-bit integer, or a partition
// view of any dtype (PTOAS's verifier); tmp, PTOAS's scratch for cube tiles,
// a global-memory view that is accepted and unused. F: width8_precision4
// (the default), width8_precision2, width10_precision6.
void TileReader::ParsePrint(const Token& op) {
  std::vector<Token> names;
  std::vector<Type> types;
  std::vector<SourceLoc> type_locs;
  if (!parser_.ExpectIdent("ins") || !parser_.Expect('(')) return;
  parser_.ParseValueNames(&names);
  if (!parser_.Expect(':') || !parser_.ParseTypeList(&types, &type_locs) || !parser_.Expect(')'))
    return;
  if (names.empty() || names.size() > 2 || names.size() != types.size())
    return (void)parser_.Error(op.loc, "pto.tprint takes ins(%src[, %tmp] : T[, U])");
  uint32_t slot = kNoSlot, view = 0;
  pto_dtype d;
  if (types[0].kind == TypeKind::kPartitionView) {
    // A partition view: its elements as they are in global memory (PTOAS
    // takes no tmp with it).
    if (names.size() == 2)
      return (void)parser_.Error(type_locs[1],
                                 "pto.tprint takes a tmp only when src is a tile_buf (PTOAS's "
                                 "rule)");
    Value v;
    if (!parser_.UseValue(names[0], &v) ||
        !parser_.WrittenAs(names[0], v.type, types[0], type_locs[0]))
      return;
    view = v.reg;
    d = v.type.dtype;
  } else {
    if (types[0].kind == TypeKind::kTensorView)
      return (void)parser_.Error(type_locs[0],
                                 "pto.tprint prints a tile_buf or a partition_tensor_view "
                                 "(PTOAS's rule), not a tensor_view: partition it first");
    if (!parser_.UseTile(names[0], types[0], type_locs[0], Use::kRead, &slot)) return;
    d = types[0].dtype;
    if (d == PTO_BFLOAT16)
      return (void)parser_.Error(type_locs[0],
                                 "pto.tprint prints f32, f16 and 8-, 16- and 32-bit integer "
                                 "tiles, not bf16 (PTOAS's rule)",
                                 PTO_ERR_UNSUPPORTED_DTYPE);
  }
  if (names.size() == 2) {
    Value tmp;
    if (!parser_.UseValue(names[1], &tmp)) return;
    if (tmp.type.kind != TypeKind::kPartitionView && tmp.type.kind != TypeKind::kTensorView)
      return (void)parser_.Error(type_locs[1],
                                 "pto.tprint's tmp is a global-memory view (PTOAS's "
                                 "scratch for cube tiles), not " +
                                     TypeString(tmp.type));
    if (!parser_.WrittenAs(names[1], tmp.type, types[1], type_locs[1])) return;
  }
  int format = 0;
  if (tok().Is('{')) {
    std::vector<AttrEntry> attrs;
    if (!parser_.ParseAttrDict(&attrs)) return;
    static const char* const kFormats[] = {"#pto<print_format width8_precision4>",
                                           "#pto<print_format width8_precision2>",
                                           "#pto<print_format width10_precision6>"};
    for (const AttrEntry& e : attrs) {
      if (e.key != "printFormat")
        return (void)parser_.Error(e.loc,
                                   "pto.tprint: unknown attribute '" + std::string(e.key) + "'");
      format = -1;
      for (int i = 0; i < 3; ++i)
        if (e.value.text == kFormats[i] ||
            (e.value.kind == Tok::kInt && e.value.text == std::to_string(i)))
          format = i;
      if (format < 0)
        return (void)parser_.Error(e.loc,
                                   "pto.tprint: printFormat is #pto<print_format "
                                   "width8_precision4|width8_precision2|width10_precision6>");
    }
  }
  Instr in;
  in.code = Code::kPrint;
  in.sub = static_cast<uint8_t>(format);
  in.loc = op.loc;
  in.a = slot;
  in.b = view;
  in.d = static_cast<uint32_t>(d);
  p_->code.push_back(in);
}

}  // namespace program
}  // namespace pto
