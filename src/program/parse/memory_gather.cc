// PTO assembly: pto.mgather and pto.mscatter, a tile's valid region from or
// to global memory through a view by the indices in a tile (PTOAS's
// MGatherOp, MScatterOp; pto-isa's MGATHER, MSCATTER). The view's memory is
// the table; pto_mgather's and pto_mscatter's rules are checked when the
// instruction runs (the indices are values then).
#include <string>
#include <vector>

#include "ops/ops.h"
#include "program/parse/parser.h"
#include "program/parse/readers.h"

namespace pto {
namespace program {

// {coalesce = #pto<coalesce row|elem>} (mgather's required, as PTOAS
// requires it), gatherOob / scatterOob (the pages' modes: undefined, which
// refuses an index past the table when the instruction runs; clamp, wrap;
// gather's zero, scatter's skip), scatterAtomicOp none, add, max, min
// (pto_scatter_atomic: pto_mscatter_ex's atomics, their dtypes checked when
// the instruction runs) and scatterConflict last or default (a scatter's
// last writer in row order wins).
bool SpecialFormReader::GlobalIndexAttrs(const Token& op, bool scatter, int* coalesce, int* oob,
                                    int* atomic) {
  const std::string name = scatter ? "pto.mscatter" : "pto.mgather";
  const std::string oob_key = scatter ? "scatterOob" : "gatherOob";
  const std::string oob_kind = scatter ? "#pto<scatter_oob " : "#pto<gather_oob ";
  *coalesce = -1;
  *oob = ops::GlobalTable::kOobRefuse;
  *atomic = PTO_SCATTER_ATOMIC_NONE;
  if (tok().Is('{')) {
    std::vector<AttrEntry> attrs;
    if (!parser_.ParseAttrDict(&attrs)) return false;
    for (const AttrEntry& e : attrs) {
      const std::string v(e.value.text);
      if (e.key == "coalesce" && (v == "#pto<coalesce row>" || v == "#pto<coalesce elem>")) {
        *coalesce = v == "#pto<coalesce row>" ? PTO_COALESCE_ROW : PTO_COALESCE_ELEM;
        continue;
      }
      if (e.key == oob_key) {
        static const char* const kModes[] = {"undefined", "clamp", "wrap", nullptr};
        bool known = false;
        for (int m = 0; m < 3; ++m)
          if (v == oob_kind + kModes[m] + ">") *oob = m, known = true;
        if (v == oob_kind + (scatter ? "skip>" : "zero>"))
          *oob = ops::GlobalTable::kOobZeroOrSkip, known = true;
        if (!known)
          return parser_.Error(e.value.loc, name + "'s " + oob_key + " is " + oob_kind +
                                                "undefined|clamp|wrap|" +
                                                (scatter ? "skip>" : "zero>"));
        continue;
      }
      if (scatter && e.key == "scatterAtomicOp") {
        static const char* const kAtomics[] = {"none", "add", "max", "min"};
        bool known = false;
        for (int a = 0; a < 4; ++a)
          if (v == std::string("#pto<scatter_atomic_op ") + kAtomics[a] + ">") *atomic = a, known = true;
        if (!known)
          return parser_.Error(e.value.loc, name + "'s scatterAtomicOp is "
                                                   "#pto<scatter_atomic_op none|add|max|min>");
        continue;
      }
      const bool computed = scatter && e.key == "scatterConflict" &&
                            (v == "#pto<scatter_conflict last>" || v == "#pto<scatter_conflict default>");
      if (computed) continue;
      return parser_.Error(e.loc, "unknown attribute '" + std::string(e.key) + "' for " + name +
                                      " (coalesce = #pto<coalesce row|elem>)");
    }
  }
  // PTOAS asks for coalesce once a mode is named.
  if (*coalesce < 0 && *oob != ops::GlobalTable::kOobRefuse)
    return parser_.Error(op.loc, name + " expects coalesce when " + oob_key + " is given",
                         PTO_ERR_INVALID_ARGUMENT);
  // PTOAS's mscatter may leave coalesce out when it names no mode: the
  // index tile's shape says which (ParseGlobalIndex); its mgather may not.
  if (*coalesce < 0 && !scatter)
    return parser_.Error(op.loc, name + " requires attribute 'coalesce' (#pto<coalesce row> or "
                                        "#pto<coalesce elem>)",
                         PTO_ERR_INVALID_ARGUMENT);
  return true;
}

void SpecialFormReader::ParseGlobalIndex(const Token& op, bool scatter) {
  const std::string name = scatter ? "pto.mscatter" : "pto.mgather";
  std::vector<Token> names;
  std::vector<Type> types;
  std::vector<SourceLoc> locs;
  if (!parser_.ExpectIdent("ins") || !parser_.Expect('(')) return;
  parser_.ParseValueNames(&names);
  if (names.size() != 2)
    return (void)parser_.Error(op.loc, name + " takes 2 inputs (" +
                                           (scatter ? "src, idx" : "the view, idx") + "), not " +
                                           std::to_string(names.size()) +
                                           (scatter ? "" : " (the GM -> L1 form's scratch is not provided)"));
  if (!parser_.Expect(':') || !parser_.ParseTypes(2, &types, &locs)) return;
  Token out_name;
  Type out_type;
  SourceLoc out_loc;
  if (!parser_.ParseOuts(&out_name, &out_type, &out_loc)) return;
  int coalesce = 0, oob = 0, atomic = 0;
  if (!GlobalIndexAttrs(op, scatter, &coalesce, &oob, &atomic)) return;
  const Token& view_name = scatter ? out_name : names[0];
  const Type& view_type = scatter ? out_type : types[0];
  const SourceLoc view_loc = scatter ? out_loc : locs[0];
  Value* view = parser_.Lookup(view_name.text);
  if (view == nullptr)
    return (void)parser_.Error(view_name.loc, "%" + std::string(view_name.text) + " is not defined");
  if (view->type.kind != TypeKind::kPartitionView && view->type.kind != TypeKind::kTensorView)
    return (void)parser_.Error(view_name.loc, name + "'s table %" + std::string(view_name.text) +
                                                  " is " + TypeString(view->type) + ", not a view");
  if (!parser_.WrittenAs(view_name, view->type, view_type, view_loc)) return;
  const Value v = *view;
  // A view is made in the function (pto.make_tensor_view, a memref
  // parameter's); one given as a parameter has no memory here.
  uint32_t made = 0;
  if (!parser_.memory().FindViewPointer(v.reg, &made))
    return (void)parser_.Error(view_name.loc, name + "'s view %" + std::string(view_name.text) +
                                                  " is a parameter of view type, which is not "
                                                  "supported (make it with pto.make_tensor_view)");
  const Token& tile_name = scatter ? names[0] : out_name;
  const Type& tile_type = scatter ? types[0] : out_type;
  const SourceLoc tile_loc = scatter ? locs[0] : out_loc;
  uint32_t tile = 0, idx = 0;
  if (!parser_.UseTile(names[1], types[1], locs[1], Use::kRead, &idx) ||
      !parser_.UseTile(tile_name, tile_type, tile_loc, scatter ? Use::kRead : Use::kWrite, &tile))
    return;
  // mscatter without coalesce (PTOAS's base form): indices of src's valid
  // shape are one per element, [R, 0|1] one per row.
  if (coalesce < 0) {
    const Type& d = p_->tiles[tile].type;
    const Type& i = p_->tiles[idx].type;
    if (!d.HasDynamicValid() && !i.HasDynamicValid() && i.valid_rows == d.valid_rows &&
        i.valid_cols == d.valid_cols)
      coalesce = PTO_COALESCE_ELEM;
    else if (!d.HasDynamicValid() && !i.HasDynamicValid() && i.valid_rows == d.valid_rows &&
             i.valid_cols <= 1)
      coalesce = PTO_COALESCE_ROW;
    else
      return (void)parser_.Error(op.loc, name + " without coalesce takes indices of src's valid "
                                                "shape or [rows, 1], known in the types",
                                 PTO_ERR_SHAPE_MISMATCH);
  }
  // The indices' shape when the types know it (PTOAS's verifier: Row
  // [0|1, R] or [R, 0|1], Elem the tile's valid shape).
  {
    const Type& d = p_->tiles[tile].type;
    const Type& i = p_->tiles[idx].type;
    const bool row_shape = (i.valid_rows <= 1 && i.valid_cols == d.valid_rows) ||
                           (i.valid_rows == d.valid_rows && i.valid_cols <= 1);
    const bool elem_shape = i.valid_rows == d.valid_rows && i.valid_cols == d.valid_cols;
    if (!d.HasDynamicValid() && !i.HasDynamicValid() &&
        !(coalesce == PTO_COALESCE_ROW ? row_shape : elem_shape))
      return (void)parser_.Error(op.loc, name + ": indices' valid shape " +
                                             std::to_string(i.valid_rows) + "x" +
                                             std::to_string(i.valid_cols) + " is not " +
                                             (coalesce == PTO_COALESCE_ROW
                                                  ? "[0|1, rows] or [rows, 0|1] (row coalesce)"
                                                  : "the tile's (elem coalesce)"),
                                 PTO_ERR_SHAPE_MISMATCH);
  }
  if (p_->tiles[tile].type.IsCube())
    return (void)parser_.Error(tile_loc, name + "'s tile is a vec tile (the GM -> L1 form into a "
                                                "mat tile is not provided)");
  if (p_->tiles[tile].type.dtype != v.type.dtype)
    return (void)parser_.Error(op.loc, name + ": the view's element type " +
                                           DtypeSpelling(v.type.dtype) + " differs from the tile's " +
                                           DtypeSpelling(p_->tiles[tile].type.dtype),
                               PTO_ERR_DTYPE_MISMATCH);
  Instr in;
  in.code = Code::kGlobalIndex;
  in.loc = op.loc;
  in.sub = scatter ? 1 : 0;
  in.a = tile;
  in.b = v.reg;
  in.c = idx;
  in.imm = coalesce;
  in.attr = oob | atomic << 4;
  p_->code.push_back(in);
  parser_.memory().MarkPointerAccess(made, scatter ? PTO_PARAM_WRITE : PTO_PARAM_READ);
}

}  // namespace program
}  // namespace pto
