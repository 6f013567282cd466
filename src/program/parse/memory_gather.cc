// PTO assembly: pto.mgather and pto.mscatter, a tile's valid region from or
// to global memory through a view by the indices in a tile (PTOAS's
// MGatherOp, MScatterOp; pto-isa's MGATHER, MSCATTER): rows of the table
// with a Table / TableDst operand, read by the generic DPS reader
// (tile_table_operands.cc; their attribute, the text kind GlobalModes, by
// tile_attributes.cc); here PTOAS's rules on their text. The view's memory is the
// table; pto_mgather's and pto_mscatter's rules are checked when the
// instruction runs (the indices are values then).
#include <string>
#include <vector>

#include "ops/ops.h"
#include "program/parse/parser.h"
#include "program/parse/readers.h"

namespace pto {
namespace program {

// PTOAS's rules on an mgather's or mscatter's text, before it is emitted:
// the attribute's (coalesce required or implied), the indices' shape, the
// tile a vec tile of the view's element type. tile (written at tile_loc)
// and indices are its tile operands, table_dtype the view's element type.
bool MemoryReader::GlobalIndexRules(const Token& op, const ops::OpDescriptor& desc, uint32_t tile,
                                    SourceLoc tile_loc, uint32_t indices, pto_dtype table_dtype,
                                    int* attr) {
  const bool scatter = ops::HasTrait(desc, PTO_TRAIT_NoDst);
  const std::string name = std::string("pto.") + desc.mnemonic;
  const std::string oob_key = scatter ? "scatterOob" : "gatherOob";
  int coalesce = (*attr & kCoalesceGiven) != 0 ? *attr & 0xFF : -1;
  // PTOAS asks for coalesce once a mode is named.
  if (coalesce < 0 && ((*attr >> 8) & 15) != ops::GlobalTable::kOobRefuse)
    return parser_.Error(op.loc, name + " expects coalesce when " + oob_key + " is given",
                         PTO_ERR_INVALID_ARGUMENT);
  // PTOAS's mscatter may leave coalesce out when it names no mode: the
  // index tile's shape says which (below); its mgather may not.
  if (coalesce < 0 && !scatter)
    return parser_.Error(op.loc, name + " requires attribute 'coalesce' (#pto<coalesce row> or "
                                        "#pto<coalesce elem>)",
                         PTO_ERR_INVALID_ARGUMENT);
  const Type& d = p_->tiles[tile].type;
  const Type& i = p_->tiles[indices].type;
  const bool known = !d.HasDynamicValid() && !i.HasDynamicValid();
  // mscatter without coalesce (PTOAS's base form): indices of src's valid
  // shape are one per element, [R, 0|1] one per row.
  if (coalesce < 0) {
    if (known && i.valid_rows == d.valid_rows && i.valid_cols == d.valid_cols)
      coalesce = PTO_COALESCE_ELEM;
    else if (known && i.valid_rows == d.valid_rows && i.valid_cols <= 1)
      coalesce = PTO_COALESCE_ROW;
    else
      return parser_.Error(op.loc, name + " without coalesce takes indices of src's valid "
                                          "shape or [rows, 1], known in the types",
                           PTO_ERR_SHAPE_MISMATCH);
  }
  // The indices' shape when the types know it (PTOAS's verifier: Row
  // [0|1, R] or [R, 0|1], Elem the tile's valid shape).
  const bool row_shape = (i.valid_rows <= 1 && i.valid_cols == d.valid_rows) ||
                         (i.valid_rows == d.valid_rows && i.valid_cols <= 1);
  const bool elem_shape = i.valid_rows == d.valid_rows && i.valid_cols == d.valid_cols;
  if (known && !(coalesce == PTO_COALESCE_ROW ? row_shape : elem_shape))
    return parser_.Error(op.loc, name + ": indices' valid shape " + std::to_string(i.valid_rows) +
                                     "x" + std::to_string(i.valid_cols) + " is not " +
                                     (coalesce == PTO_COALESCE_ROW
                                          ? "[0|1, rows] or [rows, 0|1] (row coalesce)"
                                          : "the tile's (elem coalesce)"),
                         PTO_ERR_SHAPE_MISMATCH);
  if (d.IsCube())
    return parser_.Error(tile_loc, name + "'s tile is a vec tile (the GM -> L1 form into a mat "
                                        "tile is not provided)");
  if (d.dtype != table_dtype)
    return parser_.Error(op.loc, name + ": the view's element type " + DtypeSpelling(table_dtype) +
                                     " differs from the tile's " + DtypeSpelling(d.dtype),
                         PTO_ERR_DTYPE_MISMATCH);
  *attr = coalesce | (*attr & 0xFF00);
  return true;
}

}  // namespace program
}  // namespace pto
