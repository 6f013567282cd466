// PTO assembly: the SSA form of the table's operations (%d = OP %a, %b : T),
// its result a tile of its own; tile_reader.cc reads the DPS form.
#include <string>
#include <vector>

#include "dtype_rules.h"
#include "program/parse/parser.h"
#include "program/parse/readers.h"

namespace pto {
namespace program {

// The types of an SSA form after its ':' in the pages' shorthand (not a
// parenthesised list): one type for every tile operand and the result
// (`: T, f32` where a scalar follows the sources), or `: S -> T` where the
// result's type differs (the reductions' and tcvt's synchronous form; S
// every source's type).
bool TileReader::ParseSharedTypes(const ops::OpDescriptor& desc, const std::vector<Token>& names,
                                  std::vector<Type>* types_out,
                                  std::vector<SourceLoc>* type_locs_out, Type* dst_type_out,
                                  SourceLoc* dst_loc_out) {
  std::vector<Type>& types = *types_out;
  std::vector<SourceLoc>& type_locs = *type_locs_out;
  Type& dst_type = *dst_type_out;
  SourceLoc& dst_loc = *dst_loc_out;
  const bool has_scalar = ops::TakesScalar(desc.attr);
  const size_t offsets = static_cast<size_t>(ops::IndexCount(desc.attr));
  if (!parser_.ParseType(&dst_type)) return false;
  // Or a type per operand, `: S0, S1 -> T` (tgather's and tscatter's
  // synchronous form, whose sources differ in type).
  const bool listed = !has_scalar && names.size() > 1 && tok().Is(',');
  for (size_t i = 1; listed && i < names.size(); ++i) {
    if (!parser_.Expect(',')) return false;
    type_locs[i] = tok().loc;
    if (!parser_.ParseType(&types[i])) return false;
  }
  const Type operand_type = dst_type;
  const SourceLoc operand_loc = dst_loc;
  if (listed && !parser_.ExpectArrow()) return false;
  const bool arrow = listed || tok().kind == Tok::kArrow;
  if (arrow) {
    if (!listed) parser_.Advance();
    dst_loc = tok().loc;
    if (!parser_.ParseType(&dst_type)) return false;
  }
  for (size_t i = 0; i < names.size(); ++i) {
    if (listed && i > 0) continue;
    types[i] = operand_type;
    type_locs[i] = operand_loc;
    // A WholeSrc row's one type is the result's (`%d = treshape %s : T`):
    // the source's own type stands; so do a MaskSrc row's mask's and tmp's
    // (`%d = tsel %m, %a, %b : T`).
    const Value* source = parser_.Lookup(names[i].text);
    const bool own = ops::HasTrait(desc, PTO_TRAIT_WholeSrc) ||
                     (ops::HasTrait(desc, PTO_TRAIT_MaskSrc) && (i == 0 || i == desc.source_count));
    if (!arrow && own && source != nullptr) types[i] = source->type;
  }
  // The offsets' own types stand (textract's `%src[%r, %c] : S -> T`).
  if (offsets > 0 && names.size() > desc.source_count) {
    types.resize(desc.source_count);
    type_locs.resize(desc.source_count);
  }
  if (has_scalar && tok().Is(',') && dst_type.kind != TypeKind::kTile &&
      ops::ScalarFirstForm(desc) != nullptr && names.size() == 2) {
    // tdivs's scalar/tile form, `: f32, T`: the scalar's type, then the
    // tile's (the source's and the result's).
    parser_.Advance();
    types[0] = dst_type;
    dst_loc = type_locs[1] = tok().loc;
    if (!parser_.ParseType(&dst_type)) return false;
    types[1] = dst_type;
  } else if (has_scalar && ops::HasTrait(desc, PTO_TRAIT_ScalarBetween) && names.size() > 1) {
    // taddsc's synchronous form, `: T, f32, T` (the page's): the scalar's
    // type between the tiles'; or `: T`, the scalar's own type standing.
    const Value* value = parser_.Lookup(names[1].text);
    if (value != nullptr) types[1] = value->type;
    if (tok().Is(',')) {
      parser_.Advance();
      type_locs[1] = tok().loc;
      if (!parser_.ParseType(&types[1]) || !parser_.Expect(',')) return false;
      const SourceLoc last_loc = tok().loc;
      Type last;
      if (!parser_.ParseType(&last)) return false;
      if (names.size() > 2) types[2] = last, type_locs[2] = last_loc;
    }
  } else if (has_scalar && tok().Is(',') && names.size() > desc.source_count) {
    parser_.Advance();
    type_locs[desc.source_count] = tok().loc;
    if (!parser_.ParseType(&types[desc.source_count])) return false;
  } else if (has_scalar && names.size() > desc.source_count) {
    types.resize(desc.source_count);  // the scalar's own type stands
    type_locs.resize(desc.source_count);
  }
  return true;
}

// %d = [pto.]OP %a, %b[, %tmp] [{attrs}] : (T, T[, T]) -> T   or   : T
// (texpands: %d = [pto.]texpands %s : f32 -> T   or   : f32, T)
void TileReader::ParseSsaTileOp(const Token& op, const ops::OpDescriptor& named_text,
                                const Token& result) {
  if (named_text.attr == ops::AttrKind::kIndexScalar)
    return (void)parser_.Error(op.loc, std::string(op.text) +
                                           " writes one element of an existing tile: pto." +
                                           named_text.mnemonic +
                                           " ins(%index, %value : index, T) outs(%dst : "
                                           "!pto.tile_buf<...>)");
  if (ops::HasTrait(named_text, PTO_TRAIT_WritesPart))
    return (void)parser_.Error(op.loc, std::string(op.text) +
                                           " writes part of an existing tile: pto." +
                                           named_text.mnemonic +
                                           " ins(%src, %row, %col : T, index, index) outs(%dst : "
                                           "!pto.tile_buf<...>)");
  if (ops::HasTrait(named_text, PTO_TRAIT_SecondDst))
    return (void)parser_.Error(
        op.loc, std::string(op.text) + " gives two tiles: pto." + named_text.mnemonic + " ins(" +
                    (named_text.source_count == 4 ? "%src0, %src1, %src0_idx, %src1_idx" : "%src0, %src1") +
                    " : ...) outs(%dst, " + (named_text.source_count == 4 ? "%dst_idx" : "%dst1") +
                    " : ...)");
  if (ops::HasTrait(named_text, PTO_TRAIT_ReadsDst))
    return (void)parser_.Error(
        op.loc, std::string(op.text) + " accumulates into an existing tile: pto." +
                    named_text.mnemonic + " ins(...) outs(%dst : !pto.tile_buf<...>)");
  std::vector<Token> names;
  parser_.ParseValueNames(&names);
  const ops::OpDescriptor& named = WithMaskPattern(named_text, names.size());
  const ops::OpDescriptor* form = &named;  // the scalar/tile form once the types say so
  const ops::OpDescriptor& desc = named;
  // textract's synchronous form: %src[%row, %col].
  if (ops::IndexCount(desc.attr) == 2 && tok().Is('[')) {
    parser_.Advance();
    std::vector<Token> offsets;
    parser_.ParseValueNames(&offsets);
    if (!parser_.Expect(']')) return;
    names.insert(names.end(), offsets.begin(), offsets.end());
  }
  const bool has_scalar = ops::TakesScalar(desc.attr);
  const size_t offsets = static_cast<size_t>(ops::IndexCount(desc.attr));
  if (offsets > 0 && names.size() < offsets + desc.source_count)
    return (void)parser_.Error(op.loc, std::string(op.text) + " takes " +
                                           std::to_string(desc.source_count) + " tile(s) and " +
                                           std::to_string(offsets) + " offset(s)");
  if (!OperandCountFits(op, desc,
                        names.size() - offsets - (has_scalar && !names.empty() ? 1 : 0),
                        "operands"))
    return;
  int attr = 0;
  if (tok().Is('{') && !ParseOpAttrs(desc, &attr, nullptr)) return;
  if (!MaskPatternGiven(op, desc, attr) || !parser_.Expect(':')) return;
  std::vector<Type> types(names.size());
  std::vector<SourceLoc> type_locs(names.size());
  Type dst_type;
  SourceLoc dst_loc = tok().loc;
  if (tok().Is('(')) {
    parser_.Advance();
    for (size_t i = 0; i < names.size(); ++i) {
      if (i > 0 && !parser_.Expect(',')) return;
      type_locs[i] = tok().loc;
      if (!parser_.ParseType(&types[i])) return;
    }
    if (tok().Is(',')) return (void)parser_.Error(tok().loc, "more types than operands");
    if (!parser_.Expect(')') || !parser_.ExpectArrow()) return;
    dst_loc = tok().loc;
    if (!parser_.ParseType(&dst_type)) return;
  } else if (desc.source_count == 0 && has_scalar && !names.empty()) {
    // A scalar alone (texpands): `: f32 -> T`, or `: f32, T` in the
    // synchronous form; or the tile's type alone (tci's synchronous form
    // `: T`), the scalar's own type standing.
    type_locs[0] = tok().loc;
    if (!parser_.ParseType(&types[0])) return;
    if (types[0].kind == TypeKind::kTile && !tok().Is(',') && tok().kind != Tok::kArrow) {
      dst_type = types[0];
      types.clear();
      type_locs.clear();
    } else {
      if (tok().Is(',')) {
        parser_.Advance();
      } else if (!parser_.ExpectArrow()) {
        return;
      }
      dst_loc = tok().loc;
      if (!parser_.ParseType(&dst_type)) return;
    }
  } else if (!ParseSharedTypes(desc, names, &types, &type_locs, &dst_type, &dst_loc)) {
    return;
  }
  form = &WithScalarFirst(named, types);
  Instr scalar;
  if (offsets > 0 && !TakeIndexOperands(*form, &names, &types, &type_locs, &scalar)) return;
  if (has_scalar && !TakeScalarOperand(*form, &names, &types, &type_locs, &scalar)) return;
  std::vector<uint32_t> slots;
  if (!UseOperands(*form, names, types, type_locs, &slots)) return;
  uint32_t dst;
  if (!DefineResultTile(op, result, dst_type, dst_loc, &dst)) return;
  const TextForm text{false, false, names.size() > form->source_count};
  if (text.tmp_given && form->tmp == ops::TmpRole::kNone) slots.pop_back();
  EmitTileOp(*form, op.loc, slots, dst, attr, scalar, text);
}

// The tile an SSA form's %result names: a new tile (a result parameter of a
// snippet, which has no func.func to declare it).
bool TileReader::DefineResultTile(const Token& op, const Token& result, const Type& type,
                                  SourceLoc type_loc, uint32_t* slot) {
  if (type.kind != TypeKind::kTile)
    return parser_.Error(type_loc, std::string(op.text) + " gives a tile");
  if (parser_.Lookup(result.text) != nullptr)
    return parser_.Error(result.loc, "%" + std::string(result.text) + " is defined twice");
  Value v;
  v.type = type;
  v.reg = parser_.NewTileSlot(type, result.loc, result.text);
  p_->tiles[v.reg].used = true;
  if (!p_->is_kernel) {
    const uint32_t index = parser_.AddParam(result.text, PTO_PARAM_TILE, type, v.reg);
    p_->params[index].access = PTO_PARAM_WRITE;
    p_->tiles[v.reg].param = static_cast<int32_t>(index);
  }
  *slot = v.reg;
  return parser_.Define(result, v);
}

}  // namespace program
}  // namespace pto
