// PTO assembly: the operations of the table (ops::FindOp) on tiles, in the
// DPS form (ins/outs); the SSA form (%d = OP %a, %b) is tile_ssa_forms.cc's.

#include <algorithm>
#include <string>
#include <vector>

#include "dtype_rules.h"
#include "program/parse/parser.h"
#include "program/parse/readers.h"

namespace pto {
namespace program {

namespace {

// A tile type's rows x cols, for messages.
std::string ShapeText(const Type& t) { return std::to_string(t.rows) + "x" + std::to_string(t.cols); }

// A tile the call needs and the text leaves out: a slot of its own in no
// memory, never read or written.
uint32_t NewScratch(Parser& parser, Type type, SourceLoc loc) {
  const uint32_t slot = parser.NewTileSlot(type, loc, "");
  parser.program()->tiles[slot].in_ub = false;
  parser.program()->tiles[slot].used = true;
  return slot;
}

// The tmp the call of `op` takes (on dst and the sources `ins`): the text's,
// or a scratch where the call needs one the text leaves out ("lowering may
// introduce internal scratch tiles").
uint32_t CallTmp(Parser& parser, const ops::OpDescriptor& op, SourceLoc loc,
                 const std::vector<uint32_t>& ins, uint32_t dst, uint32_t text_tmp) {
  const Program& p = *parser.program();
  const bool a2a3 = p.profile == PTO_PROFILE_A2A3;
  // An OwnScratch row's tmp in text is PTOAS's, unused (tsel's): under A2A3
  // the call gets a row of 8 UINT32 words, its mask words' scratch.
  if (ops::HasTrait(op, PTO_TRAIT_OwnScratch)) {
    if (!a2a3) return kNoSlot;
    Type t = p.tiles[dst].type;
    t.dtype = PTO_UINT32;
    t.rows = 1, t.valid_rows = 1;
    t.cols = 8, t.valid_cols = 8;
    return NewScratch(parser, t, loc);
  }
  if (text_tmp != kNoSlot) return text_tmp;
  // A ListScratch row's under A2A3 and A5, which merge into it: one row of
  // the sources' declared cols together, of dst's dtype.
  if (ops::HasTrait(op, PTO_TRAIT_ListScratch)) {
    if (p.profile == PTO_PROFILE_HOST) return kNoSlot;
    Type t = p.tiles[dst].type;
    uint32_t cols = 0;
    for (uint32_t source : ins)
      if (source != kNoSlot) cols += p.tiles[source].type.cols;
    t.rows = 1, t.valid_rows = 1;
    t.cols = cols, t.valid_cols = cols;
    return NewScratch(parser, t, loc);
  }
  // A2A3's row reductions and index reductions: one of src's type, the
  // pages' safe default; so a SrcScratch row's (tquant's, PTOAS's).
  if (a2a3 && (op.family == ops::Family::kRowReduce ||
               ops::HasTrait(op, PTO_TRAIT_IndexDst | PTO_TRAIT_SrcScratch)))
    return NewScratch(parser, p.tiles[ins[0]].type, loc);
  // A required tmp ("an implementation aid, not an architecture-visible
  // input"): one of dst's type.
  if (op.tmp == ops::TmpRole::kRequired) return NewScratch(parser, p.tiles[dst].type, loc);
  return kNoSlot;
}

}  // namespace

bool TileReader::TextTmpAllowed(const ops::OpDescriptor& op) {
  // A TextTmp row's tmp (trsqrt's, PTOAS's for its high_precision path;
  // tpows's, the page's A2A3 scratch) is accepted and unused; a TmpOut
  // row's is in outs( ), not among the inputs.
  return !ops::HasTrait(op, PTO_TRAIT_TmpOut) &&
         (op.tmp != ops::TmpRole::kNone || ops::HasTrait(op, PTO_TRAIT_TextTmp));
}

// The scalar of a Scalar-family operation comes after its sources (before
// them in a ScalarFirst row: tdivs's scalar/tile form): an SSA value of an
// integer type for an integer tile, of a float type for a float one, as
// declared in the operation's type list.
bool TileReader::TakeScalarOperand(const ops::OpDescriptor& desc, std::vector<Token>* names,
                                   std::vector<Type>* types, std::vector<SourceLoc>* type_locs,
                                   Instr* scalar) {
  size_t at = ops::AttrLeads(desc.attr) ? 0 : desc.source_count;
  // A ScalarAfterTmp row's text (PTOAS's tsels: ins(%mask, %src, %tmp,
  // %scalar)) gives the scalar after tmp.
  if (ops::HasTrait(desc, PTO_TRAIT_ScalarAfterTmp) && names->size() == size_t{desc.source_count} + 2)
    ++at;
  // A ScalarBetween row's text (PTOAS's taddsc: ins(%src0, %scalar, %src1))
  // gives it after the first source.
  if (ops::HasTrait(desc, PTO_TRAIT_ScalarBetween)) at = 1;
  if (names->size() <= at)
    return parser_.Error(tok().loc, std::string(desc.mnemonic) + " takes a scalar after " +
                                        std::to_string(at) + " tile operand(s)");
  const Token name = (*names)[at];
  const Value* v = parser_.Lookup(name.text);
  if (v == nullptr)
    return parser_.Error(name.loc, "%" + std::string(name.text) + " is not defined");
  const bool is_float = v->type.kind == TypeKind::kFloat;
  if (!is_float && !v->type.IsInteger())
    return parser_.Error(
        name.loc, "the scalar of " + std::string(desc.mnemonic) + " is an integer or float value");
  if (at < types->size() && (*types)[at].kind != v->type.kind)
    return parser_.Error((*type_locs)[at],
                         "%" + std::string(name.text) + " is not of the type given here");
  scalar->scalar_reg = v->reg;
  scalar->scalar_is_float = is_float;
  names->erase(names->begin() + at);
  if (at < types->size()) {
    types->erase(types->begin() + at);
    type_locs->erase(type_locs->begin() + at);
  }
  return true;
}

bool TileReader::TakeIndexOperands(const ops::OpDescriptor& desc, std::vector<Token>* names,
                                   std::vector<Type>* types, std::vector<SourceLoc>* type_locs,
                                   Instr* in) {
  const size_t at = desc.source_count, count = static_cast<size_t>(ops::IndexCount(desc.attr));
  if (names->size() < at + count)
    return parser_.Error(tok().loc, std::string(desc.mnemonic) + " takes " + std::to_string(count) +
                                        " index value(s) after " + std::to_string(at) +
                                        " tile operand(s)");
  for (size_t k = 0; k < count; ++k) {
    const Token name = (*names)[at + k];
    const Value* v = parser_.Lookup(name.text);
    if (v == nullptr)
      return parser_.Error(name.loc, "%" + std::string(name.text) + " is not defined");
    if (!v->type.IsInteger())
      return parser_.Error(name.loc, "the offsets of " + std::string(desc.mnemonic) +
                                         " are index (or integer) values, not " +
                                         TypeString(v->type));
    if (at + k < types->size() && !(*types)[at + k].IsInteger())
      return parser_.Error((*type_locs)[at + k],
                           "%" + std::string(name.text) + " is not of the type given here");
    in->index_regs[k] = v->reg;
  }
  names->erase(names->begin() + at, names->begin() + at + count);
  if (at < types->size()) {
    const size_t end = std::min(types->size(), at + count);
    types->erase(types->begin() + at, types->begin() + end);
    type_locs->erase(type_locs->begin() + at, type_locs->begin() + end);
  }
  return true;
}

// tcvt's text: src's and dst's shapes, and its attribute *attr with the
// defaults PTOAS and the NPUs take where the text gives no rmode or sat_mode.
bool TileReader::ConversionAttr(SourceLoc loc, uint32_t src, uint32_t dst, int* attr, Instr* in) {
  // PTOAS's verifier: src and dst have the same shape (and valid shape,
  // which the C rules check). Without sat_mode, the target's default for
  // the pair (both NPU implementations' TCVT without a SaturationMode):
  // OFF for FLOAT16 -> UINT8/INT8/INT16, FLOAT32 -> INT16, INT32 ->
  // INT16; ON for every other pair.
  // A packed type's cols count bytes of two values: its logical extent
  // (what PTOAS compares) has twice as many.
  const Type& s = p_->tiles[src].type;
  const Type& d = p_->tiles[dst].type;
  // A NaN into FP4 is refused by its value: checked when it runs.
  if (d.dtype == PTO_FLOAT4_E2M1X2 || d.dtype == PTO_FLOAT4_E1M2X2) in->check_at_run = true;
  const uint64_t s_cols = uint64_t{s.cols} * (IsPackedDtype(s.dtype) ? 2 : 1);
  const uint64_t d_cols = uint64_t{d.cols} * (IsPackedDtype(d.dtype) ? 2 : 1);
  if (s.rows != d.rows || s_cols != d_cols)
    return parser_.Error(loc, "tcvt's src shape " + ShapeText(s) + " differs from dst's " +
                                  ShapeText(d) + " (PTOAS's rule" +
                                  (s_cols != s.cols || d_cols != d.cols
                                       ? ", a packed type's cols counting two values each)"
                                       : ")"));
  // Without rmode, PTOAS's default CAST_RINT.
  const bool off = (s.dtype == PTO_FLOAT16 &&
                    (d.dtype == PTO_UINT8 || d.dtype == PTO_INT8 || d.dtype == PTO_INT16)) ||
                   (d.dtype == PTO_INT16 && (s.dtype == PTO_FLOAT32 || s.dtype == PTO_INT32));
  const int mode = (*attr & 0xFF) == 0 ? PTO_ROUND_RINT : (*attr & 0xFF) - 1;
  const int sat = (*attr >> 8) == 0 ? (off ? PTO_SAT_OFF : PTO_SAT_ON) : (*attr >> 8) - 1;
  *attr = mode | (sat << 8);
  return true;
}

// The row's own rules on its text (PTOAS's verifier), beside its check.
bool TileReader::TextRulesHold(const ops::OpDescriptor& op, SourceLoc loc,
                               const std::vector<uint32_t>& ins, uint32_t dst, int attr,
                               const TextForm& form) {
  ops::TextOperands t{};
  const auto text_tile = [&](uint32_t slot) {
    const Type& type = p_->tiles[slot].type;
    return ops::TextTile{type.rows, type.cols, type.dtype,
                         type.box == Box::kNone && !type.col_major};
  };
  t.dst = text_tile(dst);
  for (size_t k = 0; k < op.source_count && k < ins.size() && ins[k] != kNoSlot; ++k) {
    t.sources[k] = text_tile(ins[k]);
    t.sources_given = static_cast<uint8_t>(k + 1);
  }
  t.attr = attr;
  t.tmp_given = form.tmp_given;
  if (form.tmp_slot != kNoSlot) t.tmp = text_tile(form.tmp_slot);
  t.dps_form = form.dps;
  t.high_precision = form.high_precision;
  t.profile = p_->profile;
  char sentence[256];
  return op.text_rules(t, sentence, sizeof sentence) || parser_.Error(loc, sentence);
}

bool TileReader::EmitTileOp(const ops::OpDescriptor& op, SourceLoc loc,
                            const std::vector<uint32_t>& ins, uint32_t dst, int attr,
                            const Instr& scalar, const TextForm& form, const ValueResult* value) {
  // A cube tile (or a boxed vec tile) on either side: one of the cube's
  // moves, or an error. (An Aux destination's are the row's check's.)
  const auto boxed = [](const Type& t) { return t.IsCube() || t.IsBoxedVec(); };
  const size_t aux = static_cast<size_t>(ops::AuxCount(op));
  const bool cube = (dst != kNoSlot && boxed(p_->tiles[dst].type)) ||
                    (!ins.empty() && boxed(p_->tiles[ins[0]].type)) ||
                    (ins.size() > 1 + aux && ins[1] != kNoSlot && boxed(p_->tiles[ins[1]].type));
  if (ops::HasTrait(op, PTO_TRAIT_Fixpipe) && ins.size() == 2)
    return parser_.cube().EmitFixpipeMove(op, loc, ins[0], ins[1], dst, scalar);
  if (cube) return parser_.cube().EmitCubeMove(op, loc, ins.empty() ? dst : ins[0], dst, scalar);
  Instr in;
  in.scalar_reg = scalar.scalar_reg;
  in.scalar_is_float = scalar.scalar_is_float;
  in.index_regs[0] = scalar.index_regs[0];
  in.index_regs[1] = scalar.index_regs[1];
  // A table's view and dtype (a Table or TableDst row); the words' registers.
  in.b = scalar.b;
  in.d = scalar.d;
  in.extra = scalar.extra;
  // Offsets are known when the instruction runs, a ValuesAtRun row's values
  // (tgather's indices) are read then, as a table in memory is (its view's
  // extent): their rules are checked then, with the tile rules again.
  if (ops::IndexCount(op.attr) > 0 || ops::HasTrait(op, PTO_TRAIT_ValuesAtRun | PTO_TRAIT_Table))
    in.check_at_run = true;
  if (ops::TakesScalar(op.attr)) {
    // The scalar is of dst's dtype, or the compared source's (a MaskDst
    // row's: tcmps).
    const uint32_t owner = ops::HasTrait(op, PTO_TRAIT_MaskDst) ? ins[0] : dst;
    // ttri's diagonal is an integer whatever dst's dtype (PTOAS: AnyInteger).
    const bool integer_only = ops::AttributeOf(op.attr).text == ops::TextAttr::kUpperOrLower;
    const bool float_tile = !integer_only && IsFloatDtype(p_->tiles[owner].type.dtype);
    // An integer scalar's value is known when the instruction runs: its rule
    // (a value of the dtype) is checked then, with the tile rules again. Any
    // float is a value of a float dtype, so a float tile's scalar adds no
    // rule to what the verifier checks.
    if (!float_tile) in.check_at_run = true;
    if (float_tile != scalar.scalar_is_float)
      return parser_.Error(
          loc, std::string(op.mnemonic) + " takes " + (float_tile ? "a float" : "an integer") +
                   (integer_only ? std::string(" scalar") : std::string(" scalar for a tile of ") +
                                                   DtypeName(p_->tiles[owner].type.dtype)));
  }
  if (ops::AttributeOf(op.attr).text == ops::TextAttr::kConversion &&
      !ConversionAttr(loc, ins[0], dst, &attr, &in))
    return false;
  // tfillpad's pad value is dst's type's (PTOAS: TileDataDst::PadVal).
  if (ops::AttributeOf(op.attr).text == ops::TextAttr::kPadOfDst) attr = p_->tiles[dst].type.pad;
  in.code = Code::kTileOp;
  in.loc = loc;
  in.op = &op;
  in.attr = attr;
  in.slot[Role::kDst] = dst;
  // The sources, then the Aux destinations in the source slots after them
  // (WithTiles).
  for (size_t k = 0; k < op.source_count + aux; ++k) in.slot[Role::kSrc0 + k] = ins[k];
  if (op.text_rules != nullptr && !TextRulesHold(op, loc, ins, dst, attr, form)) return false;
  const uint32_t text_tmp =
      ins.size() > op.source_count && op.tmp != ops::TmpRole::kNone ? ins[op.source_count] : kNoSlot;
  // PTOAS derives a SrcScratch row's implicit tmp from src's valid shape,
  // which it needs static.
  if (ops::HasTrait(op, PTO_TRAIT_SrcScratch) && text_tmp == kNoSlot &&
      p_->profile == PTO_PROFILE_A2A3 && p_->tiles[ins[0]].type.HasDynamicValid())
    return parser_.Error(loc, parser_.op_name() +
                                  " on A2A3 without a tmp needs src's valid shape static (PTOAS "
                                  "derives the implicit tmp from it)");
  in.slot[Role::kTmp] = CallTmp(parser_, op, loc, ins, dst, text_tmp);
  if (value != nullptr) {
    // The result's register (a), of the value's type: a float one, or an
    // integer one of its width (bits).
    in.bits = value->type.bits;
    in.sub = value->type.kind == TypeKind::kFloat;
    if (in.sub != 0) {
      p_->uses_float = true;
      parser_.scalar().EmitFloatResult(in, value->type, *value->name);
    } else {
      parser_.scalar().EmitIntResult(in, value->type, *value->name);
    }
    return true;
  }
  p_->code.push_back(in);
  return true;
}

// tsetval writes one element (the rest of dst stays as it was) and a
// ReadsDst row adds to dst's old values: a bound dst is read too. So does a
// WritesPart row (tinsert), which writes src's region of it.
void TileReader::MarkDstRead(const ops::OpDescriptor& desc, uint32_t dst) {
  if ((desc.attr == ops::AttrKind::kIndexScalar ||
       ops::HasTrait(desc, PTO_TRAIT_ReadsDst | PTO_TRAIT_WritesPart)) &&
      p_->tiles[dst].param >= 0)
    p_->params[p_->tiles[dst].param].access |= PTO_PARAM_READ;
}

// The row a text form names: `op`, or its ScalarFirst form (tdivs with the
// scalar first) when the first operand's declared type is not a tile.
const ops::OpDescriptor& WithScalarFirst(const ops::OpDescriptor& op,
                                         const std::vector<Type>& types) {
  const ops::OpDescriptor* form = ops::ScalarFirstForm(op);
  if (form == nullptr || types.size() < 2 || types[0].kind == TypeKind::kTile) return op;
  return *form;
}

// The row a text form names: `op`, or its MaskPattern form (tgather_mask)
// when the text gives one source (tgather's mask-pattern form).
const ops::OpDescriptor& WithMaskPattern(const ops::OpDescriptor& op, size_t sources) {
  const ops::OpDescriptor* form = ops::MaskPatternForm(op);
  return form == nullptr || sources != 1 ? op : *form;
}

// The row a text form names: `op`, or its single-source form
// (tdeinterleave_single) when the text gives one source.
const ops::OpDescriptor& WithSingleSource(const ops::OpDescriptor& op, size_t sources) {
  const ops::OpDescriptor* form = ops::SingleSourceForm(op);
  return form == nullptr || sources != 1 ? op : *form;
}

// A MaskPattern row's text must name its pattern (0: none given).
bool TileReader::MaskPatternGiven(const Token& op, const ops::OpDescriptor& desc, int attr) {
  if (desc.attr != ops::AttrKind::kMaskPattern || (attr & 0xFF) != 0) return true;
  return parser_.Error(op.loc,
                       std::string(op.text) +
                           " with one source is its mask-pattern form, which needs {maskPattern "
                           "= #pto.mask_pattern<...>}");
}

// PTOAS's axis after the mask-pattern form's type, `: T, "row")` or
// "col": pto_gather_axis in the attribute's second byte.
bool TileReader::ParseGatherAxis(int* attr) {
  parser_.Advance();  // ,
  if (tok().kind != Tok::kString || (tok().text != "row" && tok().text != "col"))
    return parser_.Error(tok().loc,
                         "the axis of a mask-pattern form is \"row\" or \"col\"");
  *attr = (*attr & 0xFF) | ((tok().text == "col" ? PTO_GATHER_COL : PTO_GATHER_ROW) << 8);
  parser_.Advance();
  return true;
}

// The sources (but OptionalSrc ones, which may be left out), then
// optionally tmp: as many as the operation takes.
bool TileReader::OperandCountFits(const Token& op, const ops::OpDescriptor& desc, size_t count,
                                  const char* what, size_t besides) {
  const size_t fewest = size_t{desc.source_count} - desc.optional_sources;
  const size_t most = desc.source_count + (TextTmpAllowed(desc) ? 1 : 0);
  if (count >= fewest && count <= most) return true;
  return parser_.Error(op.loc, std::string(op.text) + " takes " + std::to_string(fewest + besides) +
                                   (most > fewest ? (most > fewest + 1 ? " to " : " or ") +
                                                        std::to_string(most + besides)
                                                  : std::string()) +
                                   " " + what + ", not " + std::to_string(count + besides));
}

// The tile slots of an operation's sources (read; kNoSlot for an OptionalSrc
// one left out) and tmp (never read): the first `sources` names (at most
// the row's sources) are sources.
bool TileReader::UseOperands(const ops::OpDescriptor& desc, const std::vector<Token>& names,
                             const std::vector<Type>& types,
                             const std::vector<SourceLoc>& type_locs,
                             std::vector<uint32_t>* slots, size_t sources) {
  sources = std::min({sources, names.size(), size_t{desc.source_count}});
  slots->assign(std::max(names.size(), size_t{desc.source_count}), kNoSlot);
  for (size_t i = 0; i < names.size(); ++i) {
    // A tmp after fewer sources goes after the sources' slots.
    const size_t at = i < sources ? i : desc.source_count + (i - sources);
    if (at >= slots->size()) slots->resize(at + 1, kNoSlot);
    const Use use = i < sources ? Use::kRead : Use::kTmp;
    if (!parser_.UseTile(names[i], types[i], type_locs[i], use, &(*slots)[at])) return false;
  }
  slots->resize(desc.source_count + (names.size() - sources));
  return true;
}

// A DPS form's attributes after its outs( ): a dictionary, or isBinary's and
// maskPattern's bare forms; then whether a MaskPattern row's pattern and a
// required attribute (the quant_types: TextAttrDefault -1) are given.
bool TileReader::ParseAttrsAfterOuts(const Token& op, const ops::OpDescriptor& desc, int* attr,
                                     bool* high_precision) {
  if (tok().Is('{') && !ParseOpAttrs(desc, attr, high_precision)) return false;
  if (ops::AttributeOf(desc.attr).text == ops::TextAttr::kBinaryOrder &&
      tok().IsIdent("isBinary") && !ParseBareBinaryOrder(attr))
    return false;
  if (desc.attr == ops::AttrKind::kMaskPattern && tok().IsIdent("maskPattern") &&
      !ParseBareMaskPattern(attr))
    return false;
  if (*attr < 0) return parser_.Error(op.loc, std::string(op.text) + " needs " + RequiredAttr(desc));
  return MaskPatternGiven(op, desc, *attr);
}

// pto.OP ins(%a, %b[, %tmp] : T, T[, T]) outs(%d : T) [{attrs}]
void TileReader::ParseDpsTileOp(const Token& op, const ops::OpDescriptor& named_text) {
  parser_.Advance();  // ins
  bool high_precision = false;
  std::vector<Token> names;
  if (!parser_.Expect('(')) return;
  parser_.ParseValueNames(&names);
  const ops::OpDescriptor& named =
      WithSingleSource(WithMaskPattern(named_text, names.size()), names.size());
  // PTOAS prints an operation's attributes inside ins( ) before the types
  // (tcolsum's `ins(%src, %tmp {isBinary = ...} : T, T)`, tcvt's
  // `ins(%src {rmode = ...} : T)`); after outs( ) is read too.
  int attr = TextAttrDefault(named);
  if (tok().Is('{') && !ParseOpAttrs(named, &attr, &high_precision)) return;
  std::vector<Type> types;
  std::vector<SourceLoc> type_locs;
  if (!parser_.Expect(':') || !parser_.ParseTypes(names.size(), &types, &type_locs)) return;
  // tgather with a scalar second operand: its compare form.
  const ops::OpDescriptor* compare = ops::CompareForm(named);
  if (compare != nullptr && types.size() >= 2 && types[1].kind != TypeKind::kTile)
    return ParseGatherCompare(op, *compare, names, types, type_locs);
  // tmov (the row whose fixpipe form takes no offsets) with a tmp: MX
  // exponents into the ZZ order (tile_quant_mx.cc), PTOAS printing each
  // operand with its type: ins(%exp : Te, %tmp : Tt).
  const ops::OpDescriptor* fixpipe_move =
      ops::IndexCount(named.attr) == 0 ? ops::FixpipeForm(named) : nullptr;
  if (fixpipe_move != nullptr && names.size() == 1 && tok().Is(',')) {
    parser_.Advance();
    names.push_back(tok());
    types.emplace_back();
    if (!parser_.ExpectValueName(&names.back()) || !parser_.Expect(':')) return;
    type_locs.push_back(tok().loc);
    if (!parser_.ParseType(&types.back())) return;
  }
  // tmov's second operand: a scaling tile is the fixpipe's fp (TMOV_FP,
  // below), anything else the ZZ move's tmp.
  const ops::OpDescriptor* fixpipe = nullptr;
  if (fixpipe_move != nullptr && names.size() == 2) {
    if (types[1].kind != TypeKind::kTile || types[1].space != Space::kScaling)
      return parser_.forms().ParseMxZzMove(op, names, types, type_locs);
    fixpipe = fixpipe_move;
  }
  if (named.attr == ops::AttrKind::kMaskPattern && tok().Is(',') && !ParseGatherAxis(&attr)) return;
  // PTOAS's fp operand: `textract / tinsert ins(%s, %r, %c : T, index, index
  // fp %fp : F)`, `tmov ins(%s : T, %fp : F)`: the fixpipe's rows (TEXTRACT_FP,
  // TINSERT_FP, TMOV_FP), fp their second source.
  if (fixpipe == nullptr) {
    fixpipe = FixpipeForm(named);
    if (fixpipe != nullptr && !TakeFixpipeOperand(&names, &types, &type_locs)) return;
  }
  if (tok().IsIdent("pre_quant"))
    return (void)parser_.Error(tok().loc, std::string(op.text) +
                                              "'s pre_quant form (a scalar word in the text) is not "
                                              "implemented; pto.set_quant_scalar sets a pipe's");
  const ops::OpDescriptor& desc = WithScalarFirst(fixpipe != nullptr ? *fixpipe : named, types);
  Instr scalar;
  if (ops::IndexCount(desc.attr) > 0 &&
      !TakeIndexOperands(desc, &names, &types, &type_locs, &scalar))
    return;
  if (ops::TakesScalar(desc.attr) &&
      !TakeScalarOperand(desc, &names, &types, &type_locs, &scalar))
    return;
  if (!OperandCountFits(op, desc, names.size(), "inputs")) return;
  // A SecondDst row (tpartargmax) takes its sources only, and two outs.
  const bool second_dst = ops::HasTrait(desc, PTO_TRAIT_SecondDst);
  if (second_dst && names.size() != desc.source_count)
    return (void)parser_.Error(op.loc, std::string(op.text) + " takes " +
                                           std::to_string(desc.source_count) + " inputs, not " +
                                           std::to_string(names.size()));
  Token dst_name, idx_name;
  Type dst_type, idx_type;
  SourceLoc dst_loc, idx_loc;
  if (second_dst ? !ParseTwoOuts(&dst_name, &dst_type, &dst_loc, &idx_name, &idx_type, &idx_loc)
                 : !parser_.ParseOuts(&dst_name, &dst_type, &dst_loc))
    return;
  if (!ParseAttrsAfterOuts(op, desc, &attr, &high_precision)) return;
  std::vector<uint32_t> slots;
  if (!UseOperands(desc, names, types, type_locs, &slots)) return;
  uint32_t dst;
  if (!parser_.UseTile(dst_name, dst_type, dst_loc, Use::kWrite, &dst)) return;
  if (second_dst) {
    // The second destination goes where the row's tmp goes (Operands::tmp).
    uint32_t idx;
    if (!parser_.UseTile(idx_name, idx_type, idx_loc, Use::kWrite, &idx)) return;
    slots.push_back(idx);
  }
  MarkDstRead(desc, dst);
  TextForm form{true, high_precision, names.size() > desc.source_count || second_dst};
  if (form.tmp_given) form.tmp_slot = slots.back();
  if (form.tmp_given && desc.tmp == ops::TmpRole::kNone) slots.pop_back();
  EmitTileOp(desc, op.loc, slots, dst, attr, scalar, form);
}

// outs(%dst, %dst_idx : T, U): a SecondDst row's two destinations (after
// ins( )'s closing parenthesis).
bool TileReader::ParseTwoOuts(Token* dst, Type* dst_type, SourceLoc* dst_loc, Token* idx,
                              Type* idx_type, SourceLoc* idx_loc) {
  if (!parser_.Expect(')') || !parser_.ExpectIdent("outs") || !parser_.Expect('(') ||
      !parser_.ExpectValueName(dst) || !parser_.Expect(',') || !parser_.ExpectValueName(idx) ||
      !parser_.Expect(':'))
    return false;
  *dst_loc = parser_.tok().loc;
  if (!parser_.ParseType(dst_type) || !parser_.Expect(',')) return false;
  *idx_loc = parser_.tok().loc;
  return parser_.ParseType(idx_type) && parser_.Expect(')');
}

// PTOAS's fp operand (its TExtractOp, TInsertOp `$fp`): `textract / tinsert
// ins(%s, %r, %c : T, index, index fp %fp : F)` are the fixpipe's rows
// TEXTRACT_FP, TINSERT_FP; NULL when the text has no fp operand here. (tmov's,
// `ins(%s : T, %fp : F)`, is told from the ZZ move's tmp by its type where
// the operation is read.)
const ops::OpDescriptor* TileReader::FixpipeForm(const ops::OpDescriptor& named) {
  // (The rows with offsets: tmov's fp follows a comma.)
  if (!tok().IsIdent("fp") || ops::IndexCount(named.attr) != 2) return nullptr;
  return ops::FixpipeForm(named);
}

// `, %fp : F` or `fp %fp : F`, as the second source.
// TGATHER's compare form as PTOAS spells it: one scalar threshold, of src's
// element type (PTOAS's verifier), for every row, which the row's check and
// run take as Operands::scalar with Operands::sat 1 (no k_value tile); its
// offset in an index register; tmp required (PTOAS: "compare-form tgather
// expects dst, cdst, kValue, and tmp"); cdst the row's second destination.
void TileReader::ParseGatherCompare(const Token& op, const ops::OpDescriptor& desc,
                                    const std::vector<Token>& names,
                                    const std::vector<Type>& types,
                                    const std::vector<SourceLoc>& locs) {
  if (names.size() != 3 || types[0].kind != TypeKind::kTile || types[2].kind != TypeKind::kTile)
    return (void)parser_.Error(op.loc,
                               "tgather's compare form is ins(%src, %kValue, %tmp : T, S, U) "
                               "outs(%dst, %cdst : D, C), its tmp required");
  const Value* k = parser_.Lookup(names[1].text);
  if (k == nullptr)
    return (void)parser_.Error(names[1].loc, "%" + std::string(names[1].text) + " is not defined");
  const bool is_float = k->type.kind == TypeKind::kFloat;
  if (!parser_.WrittenAs(names[1], k->type, types[1], locs[1])) return;
  const bool same = is_float ? k->type.dtype == types[0].dtype
                             : k->type.IsInteger() && !IsFloatDtype(types[0].dtype) &&
                                   k->type.bits == ElementBytes(types[0].dtype) * 8;
  if (!same)
    return (void)parser_.Error(locs[1], "kValue of tgather is of src's element type (PTOAS's rule)");
  Token dst_name, cdst_name;
  Type dst_type, cdst_type;
  SourceLoc dst_loc, cdst_loc;
  if (!ParseTwoOuts(&dst_name, &dst_type, &dst_loc, &cdst_name, &cdst_type, &cdst_loc)) return;
  int mode = PTO_CMP_EQ;
  int64_t offset = 0;
  if (tok().Is('{') && !GatherCompareAttrs(parser_, &mode, &offset)) return;
  uint32_t src, tmp, dst, cdst;
  if (!parser_.UseTile(names[0], types[0], locs[0], Use::kRead, &src) ||
      !parser_.UseTile(names[2], types[2], locs[2], Use::kTmp, &tmp) ||
      !parser_.UseTile(dst_name, dst_type, dst_loc, Use::kWrite, &dst) ||
      !parser_.UseTile(cdst_name, cdst_type, cdst_loc, Use::kWrite, &cdst))
    return;
  // dst's elements past each row's count stay as they were: a bound dst is
  // read too.
  if (p_->tiles[dst].param >= 0) p_->params[p_->tiles[dst].param].access |= PTO_PARAM_READ;
  Instr scalar;
  scalar.scalar_reg = k->reg;
  scalar.scalar_is_float = is_float;
  scalar.index_regs[0] = parser_.ConstIndex(offset, op.loc).reg;
  const TextForm form{true, false, true, tmp};
  EmitTileOp(desc, op.loc, {src, kNoSlot, tmp, cdst}, dst,
             mode | (1 << 8), scalar, form);
}

bool TileReader::TakeFixpipeOperand(std::vector<Token>* names, std::vector<Type>* types,
                                    std::vector<SourceLoc>* type_locs) {
  parser_.Advance();  // ',' or fp
  Token name;
  Type type;
  if (!parser_.ExpectValueName(&name) || !parser_.Expect(':')) return false;
  const SourceLoc loc = tok().loc;
  if (!parser_.ParseType(&type)) return false;
  names->insert(names->begin() + 1, name);
  types->insert(types->begin() + 1, type);
  type_locs->insert(type_locs->begin() + 1, loc);
  return true;
}

}  // namespace program
}  // namespace pto
