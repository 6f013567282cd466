// PTO assembly: the tile instruction with a text form of its own, beside
// the table's (tile_reader.cc): tmrgsort's multi-list form with its
// executed counts.
#include <string>
#include <vector>

#include "program/parse/parser.h"
#include "program/parse/readers.h"

namespace pto {
namespace program {

// Whether the tmrgsort at the cursor is its multi-list form: two results
// (the page's synchronous form), or ins( ) with three operands or more, or
// two followed by no_tmp or {exhausted = ...}; the single-list form is
// ins(%src, %blockLen : T, i32).
bool SpecialFormReader::IsMrgSortLists(const std::vector<Token>& results) {
  if (results.size() == 2) return true;
  if (!tok().IsIdent("ins")) return false;
  const Cursor at = parser_.Save();
  parser_.Advance();  // ins
  bool lists = false;
  if (tok().Is('(')) {
    parser_.Advance();
    std::vector<Token> names;
    parser_.ParseValueNames(&names);
    lists = names.size() >= 3 || (names.size() == 2 && (tok().IsIdent("no_tmp") || tok().Is('{')));
  }
  parser_.Restore(at);
  return lists;
}

// {exhausted = true|false} (PTOAS's BoolAttr, default false).
bool SpecialFormReader::ParseExhausted(int* exhausted) {
  std::vector<AttrEntry> attrs;
  if (!parser_.ParseAttrDict(&attrs)) return false;
  for (const AttrEntry& e : attrs) {
    if (e.key != "exhausted")
      return parser_.Error(
          e.loc, "unknown attribute '" + std::string(e.key) + "' for tmrgsort (exhausted)");
    if (!e.value.IsIdent("true") && !e.value.IsIdent("false"))
      return parser_.Error(e.value.kind == Tok::kEnd ? e.loc : e.value.loc,
                           "exhausted is true or false");
    *exhausted = e.value.IsIdent("true") ? 1 : 0;
  }
  return true;
}

// tmrgsort's multi-list form (pto_tmrgsort_lists):
//   pto.tmrgsort ins(%s0, %s1[, %s2[, %s3]], %tmp {exhausted = B} : T0, T1, ..., Tt)
//                outs(%dst, %executed : T, vector<4xi16>)            (PTOAS)
//   pto.tmrgsort ins(%s0, %s1[, ...] no_tmp {exhausted = B} : T0, T1, ...) outs(...)
//   pto.tmrgsort ins(%s0, %s1 {exhausted = B} : T0, T1) outs(...)     (the page's, no tmp)
//   %dst, %executed = pto.tmrgsort %s0, %s1[, %s2[, %s3]] {exhausted = B}
//                     : (T0, T1, ...) -> (T, vector<4xi16>)           (the page's)
// %executed, the counts the NPUs report, is a vector<4xi16> value the
// instruction cannot change: libpto does not keep them. Without tmp, A2A3
// and A5 get a tile of their own ("lowering may introduce internal scratch
// tiles").
void SpecialFormReader::ParseMrgSortLists(const Token& op, const std::vector<Token>& results) {
  const bool dps = tok().IsIdent("ins");
  if (dps && !results.empty())
    return (void)parser_.Error(op.loc,
                               std::string(op.text) + " ins(...) outs(...) gives no result");
  if (!dps && results.size() != 2)
    return (void)parser_.Error(op.loc,
                               std::string(op.text) +
                                   "'s multi-list form defines %dst and %executed, or is written "
                                   "ins(...) outs(...)");
  if (dps) {
    parser_.Advance();  // ins
    if (!parser_.Expect('(')) return;
  }
  std::vector<Token> names;
  parser_.ParseValueNames(&names);
  bool no_tmp = !dps || names.size() == 2;
  if (dps && tok().IsIdent("no_tmp")) {
    parser_.Advance();
    no_tmp = true;
  }
  const size_t lists = names.size() - (no_tmp ? 0 : 1);
  if (lists < 2 || lists > 4)
    return (void)parser_.Error(op.loc, std::string(op.text) + " merges 2 to 4 lists" +
                                           (no_tmp ? "" : " (then tmp)") + ", not " +
                                           std::to_string(lists));
  int exhausted = 0;
  if (tok().Is('{') && !ParseExhausted(&exhausted)) return;
  if (!parser_.Expect(':')) return;
  if (!dps && !parser_.Expect('(')) return;
  std::vector<Type> types;
  std::vector<SourceLoc> locs;
  if (!parser_.ParseTypes(names.size(), &types, &locs) || !parser_.Expect(')')) return;
  Token dst_name, executed_name;
  Type dst_type, executed_type;
  SourceLoc dst_loc, executed_loc;
  if (dps) {
    if (!parser_.ExpectIdent("outs") || !parser_.Expect('(') ||
        !parser_.ExpectValueName(&dst_name) || !parser_.Expect(',') ||
        !parser_.ExpectValueName(&executed_name) || !parser_.Expect(':'))
      return;
  } else if (!parser_.ExpectArrow() || !parser_.Expect('(')) {
    return;
  }
  dst_loc = tok().loc;
  if (!parser_.ParseType(&dst_type) || !parser_.Expect(',')) return;
  executed_loc = tok().loc;
  if (!parser_.ParseType(&executed_type) || !parser_.Expect(')')) return;
  if (dps && tok().Is('{') && !ParseExhausted(&exhausted)) return;
  Type counts;
  counts.kind = TypeKind::kVector;
  counts.dtype = PTO_INT16;
  counts.rank = 1;
  counts.dims[0] = 4;
  if (!SameType(executed_type, counts))
    return (void)parser_.Error(
        executed_loc, "tmrgsort's executed is a vector<4xi16>, not " + TypeString(executed_type));
  Instr in;
  in.code = Code::kMrgSortLists;
  in.loc = op.loc;
  in.sub = exhausted;
  for (size_t k = 0; k < lists; ++k)
    if (!parser_.UseTile(names[k], types[k], locs[k], Use::kRead, &in.slot[Role::kSrc0 + k]))
      return;
  if (!no_tmp &&
      !parser_.UseTile(names[lists], types[lists], locs[lists], Use::kTmp, &in.slot[Role::kTmp]))
    return;
  if (dps) {
    const Value* executed = parser_.Lookup(executed_name.text);
    if (executed == nullptr)
      return (void)parser_.Error(executed_name.loc,
                                 "%" + std::string(executed_name.text) + " is not defined");
    if (!SameType(executed->type, counts))
      return (void)parser_.Error(executed_name.loc, "%" + std::string(executed_name.text) + " is " +
                                                        TypeString(executed->type) +
                                                        ", not vector<4xi16>");
    if (!parser_.UseTile(dst_name, dst_type, dst_loc, Use::kWrite, &in.slot[Role::kDst])) return;
  } else {
    if (!parser_.tile().DefineResultTile(op, results[0], dst_type, dst_loc, &in.slot[Role::kDst])) return;
    Value v;
    v.type = counts;
    if (!parser_.Define(results[1], v)) return;
  }
  if (in.slot[Role::kTmp] == kNoSlot && p_->profile != PTO_PROFILE_HOST) {
    Type t = dst_type;
    uint32_t cols = 0;
    for (size_t k = 0; k < lists; ++k) cols += types[k].cols;
    t.rows = 1;
    t.valid_rows = 1;
    t.cols = cols;
    t.valid_cols = cols;
    const uint32_t implicit_tmp = parser_.NewTileSlot(t, op.loc, "");
    in.slot[Role::kTmp] = implicit_tmp;
    p_->tiles[implicit_tmp].in_ub = false;
    p_->tiles[implicit_tmp].used = true;
  }
  p_->code.push_back(in);
}

}  // namespace program
}  // namespace pto
