// PTO assembly: tile subviews. PTOAS's `pto.subset %src[%i, %j] sizes [R, C]
// : T`, its current `pto.subview %src[%i, %j] sizes [R, C] [valid [%vr,
// %vc]] : T -> U` and the pto-isa page's TSUBVIEW (`pto.subview %src, %r,
// %c`, in its SSA, synchronous and DPS forms) give a tile that is a window
// of another tile's storage: no bytes move, and the window's rows are as long as its
// parent's (PTOAS lowers subset to a memref.subview keeping the source's
// strides; TSUBVIEW's dst has the source's capacity). A cube tile's window
// keeps its root's fractal layout: element (i, j) is the root's at the
// window's corner plus (i, j) (CubeWindowFits).
#include <algorithm>
#include <string>
#include <vector>

#include "checked.h"
#include "program/ir/types.h"
#include "program/parse/parser.h"
#include "program/parse/readers.h"

namespace pto {
namespace program {

namespace {

// PTOAS's valid dim of a subset (SubsetOp::inferReturnTypes): the parent's
// valid dim read as a period, so an offset of one whole period still gives
// a full window.
int64_t PeriodicValid(int64_t parent_valid, int64_t offset, int64_t size) {
  if (parent_valid <= 0) return 0;
  int64_t rest = offset % parent_valid;
  if (rest < 0) rest += parent_valid;
  return std::min(size, parent_valid - rest);
}

}  // namespace

// A constant offset operand's value, or -1 when it is known at run time only.
static int64_t ConstOffset(const Value& v) { return v.is_const ? v.const_value : -1; }

// A subview of a cube tile, as PTOAS's verifier has it (SubViewOp::verify):
// the result keeps the source's memory and configuration (blayout, slayout,
// fractal, pad), and where the source has fractal boxes the window's sizes
// and its constant offsets (r, c; -1 when known at run time only) are
// multiples of the box. The window is logical (pto-isa's TSUBVIEW): its
// element (i, j) is the parent's (r + i, c + j), where the parent's layout
// puts it, so a run-time offset may be any row or column inside the parent.
bool MemoryReader::CubeWindowFits(const Token& op, const TileSlot& from, const Type& vt, int64_t r,
                                  int64_t c) {
  const Type& pt = from.type;
  const std::string what = std::string(op.text) + ": ";
  if (vt.space != pt.space || vt.col_major != pt.col_major || vt.box != pt.box ||
      (vt.box != Box::kNone && vt.fractal != pt.fractal) || vt.pad != pt.pad)
    return parser_.Error(
        op.loc,
        what + "the view is a " + SpaceSpelling(vt.space) + " " + LayoutName(vt) +
            " tile (fractal=" + std::to_string(vt.fractal) + ", pad=" + std::to_string(vt.pad) +
            "), %" + from.name + " a " + SpaceSpelling(pt.space) + " " + LayoutName(pt) +
            " tile (fractal=" + std::to_string(pt.fractal) + ", pad=" + std::to_string(pt.pad) +
            "): a subview keeps its source's memory, layout and pad");
  uint32_t box_rows, box_cols;
  BoxShape(pt.dtype, pt.box, pt.fractal, &box_rows, &box_cols);
  const std::string box = std::to_string(box_rows) + "x" + std::to_string(box_cols) + " boxes";
  if (vt.rows % box_rows != 0 || vt.cols % box_cols != 0)
    return parser_.Error(op.loc,
                         what + "the " + std::to_string(vt.rows) + "x" + std::to_string(vt.cols) +
                             " window of %" + from.name + " (" + LayoutName(pt) + ", " + box +
                             ") is not a whole number of boxes",
                         PTO_ERR_SHAPE_MISMATCH);
  if ((r > 0 && r % box_rows != 0) || (c > 0 && c % box_cols != 0))
    return parser_.Error(
        op.loc,
        what + "the window at [" + (r >= 0 ? std::to_string(r) : "?") + ", " +
            (c >= 0 ? std::to_string(c) : "?") + "] of %" + from.name + " (" + LayoutName(pt) +
            ", " + box + ") must start at a box: constant offsets are multiples of " +
            std::to_string(box_rows) + " rows and " + std::to_string(box_cols) + " columns",
        PTO_ERR_INVALID_ARGUMENT);
  return true;
}

bool MemoryReader::ColumnZeroView(const Token& op, uint32_t parent, uint32_t* view) {
  Type t = p_->tiles[parent].type;
  t.valid_cols = 1;
  Instr zero;
  zero.code = Code::kConstInt;
  zero.loc = op.loc;
  zero.a = parser_.NewIntReg();
  zero.imm = 0;
  p_->code.push_back(zero);
  Value at;
  at.reg = zero.a;
  at.is_const = true;
  at.const_value = 0;
  *view = parser_.NewTileSlot(t, op.loc, p_->tiles[parent].name + "[:, 0]");
  return EmitSubview(op, parent, *view, at, at, SubviewRule::kOwn, nullptr);
}

bool MemoryReader::EmitSubview(const Token& op, uint32_t parent, uint32_t view, const Value& row,
                               const Value& col, SubviewRule rule, const Value* valid) {
  const TileSlot& from = p_->tiles[parent];
  const Type& pt = from.type;
  const Type& vt = p_->tiles[view].type;
  const std::string what = std::string(op.text) + ": ";
  const int64_t r = ConstOffset(row), c = ConstOffset(col);
  if ((row.is_const && r < 0) || (col.is_const && c < 0))
    return parser_.Error(
        op.loc, what + "offset " + std::to_string(row.is_const && r < 0 ? r : c) + " is negative",
        PTO_ERR_OUT_OF_RANGE);
  if (vt.dtype != pt.dtype)
    return parser_.Error(op.loc,
                         what + "the view's element type " + DtypeSpelling(vt.dtype) +
                             " differs from %" + from.name + "'s " + DtypeSpelling(pt.dtype),
                         PTO_ERR_DTYPE_MISMATCH);
  if ((pt.IsCube() || vt.IsCube()) && !CubeWindowFits(op, from, vt, r, c)) return false;
  // The window must lie inside the parent's storage; a cube tile's under
  // every rule, since its window is written whole (tload's pad, the boxes a
  // cube move writes).
  // A constant offset is the text's number: compared without a sum that
  // could wrap (checked.h).
  const auto outside = [](int64_t start, int64_t n, int64_t bound) {
    return start >= 0 && !SignedSpanInside(start, n, bound);
  };
  if ((rule != SubviewRule::kOwn || pt.IsCube()) &&
      (outside(r, vt.rows, pt.rows) || outside(c, vt.cols, pt.cols)))
    return parser_.Error(op.loc,
                         what + "the " + std::to_string(vt.rows) + "x" + std::to_string(vt.cols) +
                             " window at [" + (r >= 0 ? std::to_string(r) : "?") + ", " +
                             (c >= 0 ? std::to_string(c) : "?") + "] is outside %" + from.name +
                             "'s " + std::to_string(pt.rows) + "x" + std::to_string(pt.cols),
                         PTO_ERR_OUT_OF_RANGE);
  if (rule == SubviewRule::kOwn) {
    // TSUBVIEW: the same capacity, and dst's valid region inside src's.
    if (vt.rows != pt.rows || vt.cols != pt.cols)
      return parser_.Error(op.loc,
                           what + "dst is " + std::to_string(vt.rows) + "x" +
                               std::to_string(vt.cols) + ", src " + std::to_string(pt.rows) + "x" +
                               std::to_string(pt.cols) +
                               ": a subview has its source's rows and cols (TSUBVIEW)",
                           PTO_ERR_SHAPE_MISMATCH);
    const bool rows_known = r >= 0 && vt.valid_rows != kDynamic && pt.valid_rows != kDynamic;
    const bool cols_known = c >= 0 && vt.valid_cols != kDynamic && pt.valid_cols != kDynamic;
    if ((rows_known && outside(r, vt.valid_rows, pt.valid_rows)) ||
        (cols_known && outside(c, vt.valid_cols, pt.valid_cols)))
      return parser_.Error(op.loc,
                           what + "dst's valid region " + std::to_string(vt.valid_rows) + "x" +
                               std::to_string(vt.valid_cols) + " at [" + std::to_string(r) + ", " +
                               std::to_string(c) + "] is outside src's valid region " +
                               std::to_string(pt.valid_rows) + "x" + std::to_string(pt.valid_cols),
                           PTO_ERR_SHAPE_MISMATCH);
  }
  // The offset in elements of the root tile, whose rows every view shares.
  // A cube tile's view is a window of its root's image, which it shares
  // from the image's start: its corner is kept when it runs (Block::Image).
  const TileSlot* root = &from;
  while (root->IsView()) root = &p_->tiles[root->view_of];
  // Known where both offsets are constants and their flat offset fits
  // (checked.h); otherwise the run checks the window.
  size_t flat = 0;
  const bool known = r >= 0 && c >= 0 && (!from.IsView() || from.view_offset >= 0) &&
                     FlatOffset(static_cast<size_t>(r), root->type.cols, static_cast<size_t>(c),
                                &flat) &&
                     flat <= static_cast<size_t>(INT64_MAX);
  TileSlot& s = p_->tiles[view];
  s.view_of = static_cast<int32_t>(parent);
  s.view_offset = pt.IsCube() ? 0 : known ? static_cast<int64_t>(flat) : -1;
  Instr in;
  in.code = Code::kSubview;
  in.sub = static_cast<uint8_t>(rule);
  in.loc = op.loc;
  in.a = view;
  in.b = parent;
  in.c = row.reg;
  in.d = col.reg;
  if (valid != nullptr) {
    in.imm = 1;
    in.index_regs[0] = valid[0].reg;
    in.index_regs[1] = valid[1].reg;
  }
  p_->code.push_back(in);
  return true;
}

// A sized subview's result type U (written at loc): R x C (sizes) with the
// source's element type and pad (t, the inferred type, holds them); its
// valid dims are U's, which must agree with the valid operands where they
// are given (a constant equal, a run-time value `?`) and be static where
// they are not. Sets t's valid dims.
bool MemoryReader::SizedValid(const std::string& what, const Token& src_name, const Type& u,
                              SourceLoc loc, const int64_t sizes[2], const Value* valid, Type* t) {
  if (u.kind != TypeKind::kTile || u.dtype != t->dtype || u.rows != t->rows ||
      u.cols != t->cols || u.pad != t->pad)
    return parser_.Error(loc, what + "the result is written as " + TypeString(u) + ", not a " +
                                  std::to_string(t->rows) + "x" + std::to_string(t->cols) +
                                  " tile of %" + std::string(src_name.text) +
                                  "'s element type and pad");
  const int64_t declared[2] = {u.valid_rows, u.valid_cols};
  for (int i = 0; i < 2; ++i) {
    const std::string dim = i == 0 ? "rows" : "cols";
    if (valid == nullptr && declared[i] == kDynamic)
      return parser_.Error(
          loc, what + "the result's valid " + dim +
                   " are `?`: a run-time valid region is given by valid [%rows, %cols]");
    if (valid == nullptr && declared[i] > sizes[i])
      return parser_.Error(loc,
                           what + "the result's valid " + dim + " " + std::to_string(declared[i]) +
                               " exceed its size " + std::to_string(sizes[i]),
                           PTO_ERR_SHAPE_MISMATCH);
    if (valid != nullptr && declared[i] != kDynamic &&
        !(valid[i].is_const && valid[i].const_value == declared[i]))
      return parser_.Error(loc,
                           what + "the result's valid " + dim + " " + std::to_string(declared[i]) +
                               " differ from valid [...]'s " +
                               (valid[i].is_const ? std::to_string(valid[i].const_value)
                                                  : "run-time value (write `?`)"),
                           PTO_ERR_SHAPE_MISMATCH);
  }
  t->valid_rows = u.valid_rows;
  t->valid_cols = u.valid_cols;
  return true;
}

// %v = pto.subset %src[%i, %j] sizes [R, C] : T (T is %src's type; the
// result's is inferred as PTOAS infers it: shape R x C, the source's
// element type and pad, valid dims from the parent's where the offsets are
// constants, else `?`).
// %v = pto.subview %src[%i, %j] sizes [R, C] [valid [%vr, %vc]] : T -> U
// (PTOAS's current subview, `sized`): U is R x C with the source's element
// type and pad; its valid region is the valid operands' (each in 0..size:
// a constant must be U's static dim, a run-time value needs `?` there and
// is checked when it runs), else U's, which must then be static.
void MemoryReader::ParseSubset(const Token& op, const Token& result, bool sized) {
  const std::string what = std::string(op.text) + ": ";
  Token src_name;
  Value row, col;
  if (!parser_.ExpectValueName(&src_name) || !parser_.Expect('[') ||
      !parser_.ParseIntOperand(&row, "offset") || !parser_.Expect(',') ||
      !parser_.ParseIntOperand(&col, "offset") || !parser_.Expect(']') ||
      !parser_.ExpectIdent("sizes") || !parser_.Expect('['))
    return;
  int64_t sizes[2] = {0, 0};
  for (int i = 0; i < 2; ++i) {
    if (i == 1 && !parser_.Expect(',')) return;
    if (tok().kind != Tok::kInt || tok().text[0] == '-')
      return (void)parser_.Error(tok().loc,
                                 what + "expected a size such as 32, found " + Describe(tok()));
    sizes[i] = strtoll(std::string(tok().text).c_str(), nullptr, 10);
    if (sizes[i] <= 0 || sizes[i] > UINT32_MAX)
      return (void)parser_.Error(tok().loc, what + "size " + std::string(tok().text) +
                                                " is not a positive tile dimension");
    parser_.Advance();
  }
  if (!parser_.Expect(']')) return;
  Value valid[2];
  SourceLoc valid_loc[2];
  const bool has_valid = sized && tok().IsIdent("valid");
  if (has_valid) {
    parser_.Advance();
    if (!parser_.Expect('[')) return;
    for (int i = 0; i < 2; ++i) {
      if (i == 1 && !parser_.Expect(',')) return;
      valid_loc[i] = tok().loc;
      if (!parser_.ParseIntOperand(&valid[i], "valid dim")) return;
      if (valid[i].is_const && (valid[i].const_value < 0 || valid[i].const_value > sizes[i]))
        return (void)parser_.Error(valid_loc[i],
                                   what + "valid " + (i == 0 ? "rows " : "cols ") +
                                       std::to_string(valid[i].const_value) + " are outside 0.." +
                                       std::to_string(sizes[i]),
                                   PTO_ERR_SHAPE_MISMATCH);
    }
    if (!parser_.Expect(']')) return;
  }
  if (tok().Is('{'))
    return (void)parser_.Error(tok().loc, std::string(op.text) + " attributes are not supported");
  if (!parser_.Expect(':')) return;
  const SourceLoc type_loc = tok().loc;
  Type written;
  if (!parser_.ParseType(&written)) return;
  Type result_type;
  SourceLoc result_loc = type_loc;
  if (sized) {
    if (!parser_.ExpectArrow()) return;
    result_loc = tok().loc;
    if (!parser_.ParseType(&result_type)) return;
  }
  uint32_t parent;
  if (!parser_.UseTile(src_name, written, type_loc, Use::kRead, &parent)) return;
  const Type& pt = p_->tiles[parent].type;
  Type t = pt;
  t.rows = static_cast<uint32_t>(sizes[0]);
  t.cols = static_cast<uint32_t>(sizes[1]);
  if (sized) {
    if (!SizedValid(what, src_name, result_type, result_loc, sizes, has_valid ? valid : nullptr,
                    &t))
      return;
    if (pt.IsCube() || result_type.IsCube()) {
      // U's memory and layout, which CubeWindowFits compares with the source's.
      t.space = result_type.space;
      t.col_major = result_type.col_major;
      t.box = result_type.box;
      t.fractal = result_type.fractal;
    }
  } else {
    t.valid_rows = pt.valid_rows == kDynamic || !row.is_const
                       ? kDynamic
                       : PeriodicValid(pt.valid_rows, row.const_value, sizes[0]);
    t.valid_cols = pt.valid_cols == kDynamic || !col.is_const
                       ? kDynamic
                       : PeriodicValid(pt.valid_cols, col.const_value, sizes[1]);
  }
  Value v;
  v.type = t;
  v.reg = parser_.NewTileSlot(t, result.loc, result.text);
  if (!EmitSubview(op, parent, v.reg, row, col,
                   sized ? SubviewRule::kSized : SubviewRule::kPeriodic,
                   has_valid ? valid : nullptr))
    return;
  parser_.Define(result, v);
}

// TSUBVIEW (pto-isa docs/isa/TSUBVIEW.md and the pto.subview page):
//   %d = pto.subview %src, %r, %c : (T, i16, i16) -> U     (SSA)
//   %d = pto.subview %src, %r, %c : T, i16, i16             (synchronous: U = T)
//   pto.subview ins(%src, %r, %c : T, i16, i16) outs(%d : U) (DPS: %d becomes the view)
// PTOAS's older spelling of pto.partition_view (`pto.subview %view, offsets
// = [...], sizes = [...] : A -> B`) is read as that.
void MemoryReader::ParseSubview(const Token& op, const std::vector<Token>& results) {
  const bool dps = tok().IsIdent("ins");
  if (!dps && tok().kind == Tok::kValue && parser_.Peek().Is('[')) {
    if (results.size() != 1) return (void)parser_.Error(op.loc, "pto.subview defines 1 result");
    return ParseSubset(op, results[0], true);
  }
  if (!dps && tok().kind == Tok::kValue) {
    Value* named = parser_.Lookup(tok().text);
    if (named != nullptr && (named->type.kind == TypeKind::kTensorView ||
                             named->type.kind == TypeKind::kPartitionView)) {
      if (results.size() != 1)
        return (void)parser_.Error(op.loc, "pto.subview of a view defines 1 result");
      return ParsePartitionView(op, results[0]);
    }
  }
  if (results.size() != (dps ? 0u : 1u))
    return (void)parser_.Error(
        op.loc, std::string("pto.subview ") + (dps ? "with outs(...) defines no result"
                                                   : "defines 1 result (or takes outs(...))"));
  if (dps && (!parser_.ExpectIdent("ins") || !parser_.Expect('('))) return;
  Token src_name, row_name, col_name;
  Value row, col;
  if (!parser_.ExpectValueName(&src_name) || !parser_.Expect(',') ||
      !parser_.ExpectValueName(&row_name) || !parser_.UseInt(row_name, &row, "row offset") ||
      !parser_.Expect(',') || !parser_.ExpectValueName(&col_name) ||
      !parser_.UseInt(col_name, &col, "column offset") || !parser_.Expect(':'))
    return;
  const bool ssa = !dps && tok().Is('(');
  if (ssa) parser_.Advance();
  const SourceLoc src_loc = tok().loc;
  Type src_type, row_type, col_type, dst_type;
  if (!parser_.ParseType(&src_type) || !parser_.Expect(',') || !parser_.ParseType(&row_type) ||
      !parser_.Expect(',') || !parser_.ParseType(&col_type))
    return;
  if (!row_type.IsInteger() || !col_type.IsInteger())
    return (void)parser_.Error(src_loc, "pto.subview's offsets are integers (i16 on the page)");
  if (!SameType(row_type, row.type) || !SameType(col_type, col.type))
    return (void)parser_.Error(src_loc, "pto.subview: offsets %" + std::string(row_name.text) +
                                            " and %" + std::string(col_name.text) + " are " +
                                            TypeString(row.type) + " and " + TypeString(col.type) +
                                            ", written as " + TypeString(row_type) + " and " +
                                            TypeString(col_type));
  Token dst_name;
  SourceLoc dst_loc = src_loc;
  if (dps) {
    if (!parser_.Expect(')') || !parser_.ExpectIdent("outs") || !parser_.Expect('(') ||
        !parser_.ExpectValueName(&dst_name) || !parser_.Expect(':'))
      return;
    dst_loc = tok().loc;
    if (!parser_.ParseType(&dst_type) || !parser_.Expect(')')) return;
  } else if (ssa) {
    if (!parser_.Expect(')') || !parser_.ExpectArrow()) return;
    dst_loc = tok().loc;
    if (!parser_.ParseType(&dst_type)) return;
  } else {
    dst_type = src_type;
  }
  if (dst_type.kind != TypeKind::kTile)
    return (void)parser_.Error(dst_loc, "pto.subview gives a tile, not " + TypeString(dst_type));
  uint32_t parent;
  if (!parser_.UseTile(src_name, src_type, src_loc, Use::kRead, &parent)) return;
  uint32_t view;
  if (dps) {
    Value* d = parser_.Lookup(dst_name.text);
    if (d == nullptr)
      return (void)parser_.Error(dst_name.loc,
                                 "%" + std::string(dst_name.text) +
                                     " is not defined: pto.subview's dst is a tile of "
                                     "this function (pto.alloc_tile)");
    if (!parser_.UseTile(dst_name, dst_type, dst_loc, Use::kWrite, &view)) return;
    const TileSlot& s = p_->tiles[view];
    if (s.param >= 0 || s.has_addr || s.IsView() || view == parent)
      return (void)parser_.Error(dst_name.loc,
                                 "%" + s.name +
                                     " cannot become a subview: a parameter, a placed tile, the "
                                     "source or a subview already");
    // A tile that an earlier instruction used has bytes of its own.
    for (const Instr& in : p_->code) {
      const bool uses = (in.code == Code::kTileOp &&
                         (in.slot[Role::kDst] == view || in.slot[Role::kSrc0] == view ||
                          in.slot[Role::kSrc1] == view || in.slot[Role::kTmp] == view)) ||
                        ((in.code == Code::kLoad || in.code == Code::kStore) && in.a == view) ||
                        (in.code == Code::kTileCopy && (in.a == view || in.b == view));
      if (uses)
        return (void)parser_.Error(dst_name.loc, "%" + s.name +
                                                     " is used before pto.subview makes it a view: "
                                                     "a subview is made before its first use");
    }
  } else {
    view = parser_.NewTileSlot(dst_type, results[0].loc, results[0].text);
  }
  if (!EmitSubview(op, parent, view, row, col, SubviewRule::kOwn, nullptr)) return;
  if (!dps) {
    Value v;
    v.type = dst_type;
    v.reg = view;
    parser_.Define(results[0], v);
  }
}

}  // namespace program
}  // namespace pto
