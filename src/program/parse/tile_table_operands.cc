// PTO assembly: the DPS form of the table's rows with operands beyond tiles
// (tile_reader.cc reads the rest), by their roles in operations.def:
//   [%v =] pto.OP ins(%a, ..., %table, ..., %index : ...) outs[(%d[, %d1] : ...)] [: E] [{...}]
// A Table operand (the row reads a table in memory) is a view among ins( )
// in its place among the sources; a TableDst one (the row writes it) is the
// view in outs( ), in dst's place. A row without a tile result (SrcOnly)
// writes `outs` with no list. A row with a scalar result (an Out argument:
// tgetval's value) defines one %result, its type E (the element type of the
// row's first tile, dst or its one source) after outs. A row's words
// (Words2, Words4: trandom's key and counter) are 32-bit integer values
// after its sources; its Aux destinations (tquant.mx's exp, max, scaling)
// tiles in outs( ) after dst, as a TmpOut row's tmp is (tquant's). A
// ColumnParams row's parameters given as memrefs (tquant's fp and offset in
// PTOAS's memref form) are their column 0. A row's counts (a Counts
// argument: tmrgsort's lists' executed) are a vector<4xi16> value last in
// outs( ), not kept (the text's value cannot change), or its SSA form's
// second result; its OptionalSrc sources (the lists past two) are followed
// by its tmp unless `no_tmp` says there is none.
#include <algorithm>
#include <string>
#include <vector>

#include "dtype_rules.h"
#include "program/parse/parser.h"
#include "program/parse/readers.h"

namespace pto {
namespace program {

namespace {

// Whether the row's table is written (TableDst: in dst's place, no tile result).
bool WritesTable(const ops::OpDescriptor& desc) {
  return ops::HasTrait(desc, PTO_TRAIT_Table) && desc.table_position == 0;
}

// How many counts values the row writes in text: 1 with a Counts argument.
size_t CountsOf(const ops::OpDescriptor& desc) {
  return static_cast<size_t>(ops::RoleCount(desc.attr, ops::ArgRole::kCounts));
}

// How many names outs( ) lists: dst (or the written table), a second dst,
// the Aux destinations and the counts (a TmpOut row's tmp may follow).
size_t OutCount(const ops::OpDescriptor& desc) {
  const bool first = !ops::HasTrait(desc, PTO_TRAIT_NoDst) || WritesTable(desc);
  return (first ? 1 : 0) + (ops::HasTrait(desc, PTO_TRAIT_SecondDst) ? 1 : 0) +
         static_cast<size_t>(ops::AuxCount(desc) + CountsOf(desc));
}

// The counts' value type: vector<4xi16> (ops::kCounts of them).
Type CountsType() {
  Type t;
  t.kind = TypeKind::kVector;
  t.dtype = PTO_INT16;
  t.rank = 1;
  t.dims[0] = ops::kCounts;
  return t;
}

// A row's counts in text (executed, the one Counts argument): of type
// vector<4xi16>; in outs( ) (name non-null) an existing value.
bool CountsHold(Parser& parser, const Type& type, SourceLoc loc, const Token* name) {
  const std::string text = parser.bare_op_name();
  if (!SameType(type, CountsType()))
    return parser.Error(loc, text + "'s executed is a vector<4xi16>, not " + TypeString(type));
  if (name == nullptr) return true;
  const Value* v = parser.Lookup(name->text);
  if (v == nullptr) return parser.Error(name->loc, "%" + std::string(name->text) + " is not defined");
  if (!SameType(v->type, CountsType()))
    return parser.Error(name->loc, "%" + std::string(name->text) + " is " + TypeString(v->type) +
                                       ", not vector<4xi16>");
  return true;
}

// How many of ins( )'s names are sources: a row with OptionalSrc sources and
// a tmp takes the last name as its tmp once more than its required sources
// are named, unless `no_tmp` follows them (or the form has no tmp: its SSA
// form). A Counts row's sources are the lists it merges (tmrgsort's), 2 to
// 4, refused in those words.
bool SourcesNamed(Parser& parser, const Token& op, const ops::OpDescriptor& desc, size_t count,
                  bool no_tmp, size_t* sources) {
  const size_t fewest = size_t{desc.source_count} - desc.optional_sources;
  const bool tmp_last = desc.optional_sources > 0 && desc.tmp != ops::TmpRole::kNone &&
                        !ops::HasTrait(desc, PTO_TRAIT_TmpOut) && !no_tmp && count > fewest;
  *sources = tmp_last ? count - 1 : std::min(count, size_t{desc.source_count});
  const size_t named = tmp_last ? count - 1 : count;
  if (CountsOf(desc) == 0 || (named >= fewest && named <= desc.source_count)) return true;
  return parser.Error(op.loc, std::string(op.text) + " merges " + std::to_string(fewest) + " to " +
                                  std::to_string(desc.source_count) + " lists" +
                                  (no_tmp ? "" : " (then tmp)") + ", not " + std::to_string(named));
}

// " outputs (dst, exp, max, scaling)": outs( )'s names where the row has
// Aux destinations or a TmpOut tmp, for a refusal; else " output(s)".
std::string OutNames(const ops::OpDescriptor& desc) {
  const bool tmp = ops::HasTrait(desc, PTO_TRAIT_TmpOut);
  if (ops::AuxCount(desc) == 0 && !tmp) return " output(s)";
  std::string list = " outputs (dst";
  for (int k = 0; k < ops::AuxCount(desc); ++k) list += std::string(", ") + desc.aux_names[k];
  return list + (tmp ? ", tmp)" : ")");
}

// A ColumnParams row's parameters (the sources after the first) given as
// memrefs wider than a column: their column 0's views, which the
// implementations read (PTOAS's memref form, whose tile checks PTOAS skips).
bool ColumnParamViews(Parser& parser, const Token& op, const ops::OpDescriptor& desc,
                      const std::vector<Type>& types, std::vector<uint32_t>* slots) {
  if (!ops::HasTrait(desc, PTO_TRAIT_ColumnParams)) return true;
  for (size_t i = 1; i < types.size() && i < desc.source_count; ++i)
    if (types[i].memref && types[i].valid_cols > 1 &&
        !parser.memory().ColumnZeroView(op, (*slots)[i], &(*slots)[i]))
      return false;
  return true;
}

// A row's words (ops::WordCount: trandom's key and counter), right after its
// sources: 32-bit integer values (PTOAS's verifier of trandom: i32 or ui32),
// taken out of the lists, their registers into Program::lists from
// in->extra; read as their low 32 bits when the instruction runs.
bool TakeWordOperands(Parser& parser, const Token& op, const ops::OpDescriptor& desc,
                      std::vector<Token>* names, std::vector<Type>* types,
                      std::vector<SourceLoc>* type_locs, Instr* in) {
  std::vector<uint32_t>& lists = parser.program()->lists;
  const size_t at = desc.source_count, count = static_cast<size_t>(ops::WordCount(desc));
  if (names->size() != at + count) {
    std::string list;
    for (size_t k = 0; k < at + count; ++k)
      list += std::string(k > 0 ? ", " : "") +
              (k < at ? desc.source_names[k] : desc.word_names[k - at]);
    return parser.Error(op.loc, std::string(op.text) + " takes " + std::to_string(at + count) +
                                    " operands (" + list + "), not " +
                                    std::to_string(names->size()));
  }
  in->extra = static_cast<uint32_t>(lists.size());
  for (size_t k = 0; k < count; ++k) {
    const Token& name = (*names)[at + k];
    const char* word = desc.word_names[k];
    Value v;
    if (!parser.UseInt(name, &v, word) ||
        !parser.WrittenAs(name, v.type, (*types)[at + k], (*type_locs)[at + k]))
      return false;
    if (v.type.kind != TypeKind::kInt || v.type.bits != 32)
      return parser.Error((*type_locs)[at + k], std::string(desc.mnemonic) + "'s " + word +
                                                    " is an i32 or ui32, not " +
                                                    TypeString(v.type));
    lists.push_back(v.reg);
  }
  names->erase(names->begin() + at, names->end());
  types->erase(types->begin() + at, types->end());
  type_locs->erase(type_locs->begin() + at, type_locs->end());
  return true;
}

}  // namespace

bool DefinesValue(const ops::OpDescriptor& desc) {
  return ops::RoleCount(desc.attr, ops::ArgRole::kOut) != 0;
}

bool TakesOperandsBeyondTiles(const ops::OpDescriptor& desc) {
  return ops::HasTrait(desc, PTO_TRAIT_Table | PTO_TRAIT_NoDst | PTO_TRAIT_TmpOut) ||
         DefinesValue(desc) || ops::WordCount(desc) > 0 || ops::AuxCount(desc) > 0 ||
         CountsOf(desc) > 0;
}

bool IsListsForm(Parser& parser, const std::vector<Token>& results) {
  if (results.size() == 2) return true;
  if (!parser.tok().IsIdent("ins")) return false;
  const Cursor at = parser.Save();
  parser.Advance();  // ins
  bool lists = false;
  if (parser.tok().Is('(')) {
    parser.Advance();
    std::vector<Token> names;
    parser.ParseValueNames(&names);
    lists = names.size() >= 3 ||
            (names.size() == 2 && (parser.tok().IsIdent("no_tmp") || parser.tok().Is('{')));
  }
  parser.Restore(at);
  return lists;
}

// A Table operand: names[table_position - 1], taken out of the lists.
bool TileReader::TakeTableOperand(const Token& op, const ops::OpDescriptor& desc,
                                  std::vector<Token>* names, std::vector<Type>* types,
                                  std::vector<SourceLoc>* type_locs, Value* table) {
  const size_t at = desc.table_position - 1;
  if (names->size() <= at)
    return parser_.Error(op.loc, std::string(op.text) + " takes its table after " +
                                     std::to_string(at) + " source(s)");
  if (!parser_.memory().TableView(std::string(op.text), (*names)[at], (*types)[at],
                                  (*type_locs)[at], PTO_PARAM_READ, table))
    return false;
  names->erase(names->begin() + at);
  types->erase(types->begin() + at);
  type_locs->erase(type_locs->begin() + at);
  return true;
}

// `outs(%a[, %b] : A[, B])`, or `outs` alone for a row with no result in
// the list, then `: E` for a row with a scalar result.
bool TileReader::ParseValueOuts(const Token& op, const ops::OpDescriptor& desc,
                                std::vector<Token>* outs, std::vector<Type>* types,
                                std::vector<SourceLoc>* locs, ValueResult* value) {
  if (!parser_.Expect(')') || !parser_.ExpectIdent("outs")) return false;
  const size_t count = OutCount(desc);
  const size_t most = count + (ops::HasTrait(desc, PTO_TRAIT_TmpOut) ? 1 : 0);
  if (count > 0 || tok().Is('(')) {
    if (!parser_.Expect('(')) return false;
    parser_.ParseValueNames(outs);
    if (outs->size() < count || outs->size() > most)
      return parser_.Error(op.loc, std::string(op.text) + " takes " + std::to_string(count) +
                                       (most > count ? " or " + std::to_string(most) : "") +
                                       OutNames(desc) + ", not " + std::to_string(outs->size()));
    if ((count > 0 && !parser_.Expect(':')) || !parser_.ParseTypes(outs->size(), types, locs) ||
        !parser_.Expect(')'))
      return false;
  }
  if (!DefinesValue(desc)) return true;
  if (!parser_.Expect(':')) return false;
  value->loc = tok().loc;
  return parser_.ParseType(&value->type);
}

// The row's operands beyond tiles, read by their roles (above), after ins.
void TileReader::ParseDpsValueOp(const Token& op, const ops::OpDescriptor& desc,
                                 const std::vector<Token>& results) {
  std::vector<Token> names, outs;
  std::vector<Type> types, out_types;
  std::vector<SourceLoc> locs, out_locs;
  bool high_precision = false;
  int attr = TextAttrDefault(desc);
  if (!parser_.Expect('(')) return;
  parser_.ParseValueNames(&names);
  const bool no_tmp = tok().IsIdent("no_tmp");
  if (no_tmp) parser_.Advance();
  if (tok().Is('{') && !ParseOpAttrs(desc, &attr, &high_precision)) return;
  if (!parser_.Expect(':') || !parser_.ParseTypes(names.size(), &types, &locs)) return;
  Value table;
  Instr scalar;
  if (desc.table_position > 0 && !TakeTableOperand(op, desc, &names, &types, &locs, &table)) return;
  if (ops::IndexCount(desc.attr) > 0 && !TakeIndexOperands(desc, &names, &types, &locs, &scalar))
    return;
  if (ops::TakesScalar(desc.attr) && !TakeScalarOperand(desc, &names, &types, &locs, &scalar))
    return;
  if (ops::WordCount(desc) > 0 && !TakeWordOperands(parser_, op, desc, &names, &types, &locs, &scalar))
    return;
  const bool second_dst = ops::HasTrait(desc, PTO_TRAIT_SecondDst);
  size_t sources;
  if (!SourcesNamed(parser_, op, desc, names.size(), no_tmp, &sources)) return;
  // (A table among ins( ) counts as an input in the message.)
  if (!OperandCountFits(op, desc, names.size(), "inputs", desc.table_position > 0 ? 1 : 0)) return;
  // A SecondDst row takes its sources only.
  if (second_dst && names.size() != desc.source_count)
    return (void)parser_.Error(op.loc, std::string(op.text) + " takes " +
                                           std::to_string(desc.source_count) + " inputs, not " +
                                           std::to_string(names.size()));
  ValueResult value;
  if (!ParseValueOuts(op, desc, &outs, &out_types, &out_locs, &value) ||
      !ParseAttrsAfterOuts(op, desc, &attr, &high_precision) ||
      (CountsOf(desc) > 0 && !CountsHold(parser_, out_types.back(), out_locs.back(), &outs.back())))
    return;
  std::vector<uint32_t> slots;
  if (!UseOperands(desc, names, types, locs, &slots, sources) ||
      !ColumnParamViews(parser_, op, desc, types, &slots))
    return;
  uint32_t dst = kNoSlot;
  size_t next = 0;
  if (WritesTable(desc)) {
    if (!parser_.memory().TableView(std::string(op.text), outs[0], out_types[0], out_locs[0],
                                    PTO_PARAM_WRITE, &table))
      return;
    next = 1;
  } else if (!ops::HasTrait(desc, PTO_TRAIT_NoDst)) {
    if (!parser_.UseTile(outs[0], out_types[0], out_locs[0], Use::kWrite, &dst)) return;
    MarkDstRead(desc, dst);
    next = 1;
  }
  if (second_dst) {
    // The second destination goes where the row's tmp goes (Operands::tmp).
    slots.push_back(kNoSlot);
    if (!parser_.UseTile(outs[next], out_types[next], out_locs[next], Use::kWrite, &slots.back()))
      return;
  }
  // Aux destinations, or a TmpOut row's tmp, after the sources (a row with
  // Aux ones has no tmp).
  const bool tmp_out = ops::HasTrait(desc, PTO_TRAIT_TmpOut) && outs.size() > next;
  for (size_t k = next; k + CountsOf(desc) < outs.size() && !second_dst; ++k) {
    slots.push_back(kNoSlot);
    if (!parser_.UseTile(outs[k], out_types[k], out_locs[k], tmp_out ? Use::kTmp : Use::kWrite,
                         &slots.back()))
      return;
  }
  if (ops::HasTrait(desc, PTO_TRAIT_Table)) {
    scalar.b = table.reg;
    scalar.d = static_cast<uint32_t>(table.type.dtype);
  }
  // mgather's and mscatter's rules on their text (memory_gather.cc): the
  // tile dst or the first source, the indices the last source.
  if (ops::AttributeOf(desc.attr).text == ops::TextAttr::kGlobalModes &&
      !parser_.memory().GlobalIndexRules(op, desc, dst != kNoSlot ? dst : slots[0],
                                         dst != kNoSlot ? out_locs[0] : locs[0],
                                         slots[desc.source_count - 1], table.type.dtype, &attr))
    return;
  if (DefinesValue(desc)) {
    // The value's type: the element type of the row's first tile (PTOAS's
    // tgetval: its src's).
    const Type& first = p_->tiles[dst != kNoSlot ? dst : slots[0]].type;
    if (!IsElementTypeOf(value.type, first.dtype))
      return (void)parser_.Error(value.loc,
                                 std::string(desc.mnemonic) + " gives " + TypeString(value.type) +
                                     ", which is not the element type of " + TypeString(first) +
                                     " (PTOAS's rule)",
                                 PTO_ERR_DTYPE_MISMATCH);
    value.name = &results[0];
  }
  TextForm form{true, high_precision, names.size() > sources || second_dst || tmp_out};
  if (form.tmp_given) form.tmp_slot = slots.back();
  if (form.tmp_given && desc.tmp == ops::TmpRole::kNone) slots.pop_back();
  EmitTileOp(desc, op.loc, slots, dst, attr, scalar, form, value.name != nullptr ? &value : nullptr);
}

void TileReader::ParseSsaCountsOp(const Token& op, const ops::OpDescriptor& desc,
                                  const std::vector<Token>& results) {
  std::vector<Token> names;
  parser_.ParseValueNames(&names);
  size_t sources;
  if (!SourcesNamed(parser_, op, desc, names.size(), true, &sources)) return;
  int attr = TextAttrDefault(desc);
  if (tok().Is('{') && !ParseOpAttrs(desc, &attr, nullptr)) return;
  std::vector<Type> types;
  std::vector<SourceLoc> locs;
  Type dst_type, counts_type;
  SourceLoc dst_loc, counts_loc;
  if (!parser_.Expect(':') || !parser_.Expect('(') ||
      !parser_.ParseTypes(names.size(), &types, &locs) || !parser_.Expect(')') ||
      !parser_.ExpectArrow() || !parser_.Expect('('))
    return;
  dst_loc = tok().loc;
  if (!parser_.ParseType(&dst_type) || !parser_.Expect(',')) return;
  counts_loc = tok().loc;
  if (!parser_.ParseType(&counts_type) || !parser_.Expect(')') ||
      !CountsHold(parser_, counts_type, counts_loc, nullptr))
    return;
  std::vector<uint32_t> slots;
  uint32_t dst;
  if (!UseOperands(desc, names, types, locs, &slots) ||
      !DefineResultTile(op, results[0], dst_type, dst_loc, &dst))
    return;
  Value counts;
  counts.type = counts_type;
  if (!parser_.Define(results[1], counts)) return;
  EmitTileOp(desc, op.loc, slots, dst, attr, Instr{}, TextForm{false, false, false});
}

}  // namespace program
}  // namespace pto
