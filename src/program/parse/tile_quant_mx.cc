// PTO assembly: PTOAS's tmov with a tmp that moves MX exponents (tquant.mx's
// exp: pto.tquant.mx is the table's row tquant_mx, read by its roles) into
// the cube's ZZ order.
#include <string>
#include <vector>

#include "program/parse/parser.h"
#include "program/parse/readers.h"

namespace pto {
namespace program {

// PTOAS's tmov with a tmp from exponents to a ZZ tile (TMOV's X-to-ZZ,
// TQUANT_DN.md "TMOV Interface"):
//   pto.tmov ins(%exp : Te, %tmp : Tt) outs(%zz : Tz) [{grpAxis = #pto<mx_group_axis axis0>}]
// exp's valid region (ND's [M, N/32], DN's [M/32, N] with axis0) goes into
// zz's bytes in ZZ order (fractal.h, MxExponentsToZz); zz is a one-byte vec
// tile written slayout=row_major with room for them (checked by the
// verifier); tmp, the NPU's scratch, is not read.
void SpecialFormReader::ParseMxZzMove(const Token& op, const std::vector<Token>& names,
                               const std::vector<Type>& types,
                               const std::vector<SourceLoc>& locs) {
  Token dst_name;
  Type dst_type;
  SourceLoc dst_loc;
  if (!parser_.ParseOuts(&dst_name, &dst_type, &dst_loc)) return;
  bool dn = false;
  std::vector<AttrEntry> attrs;
  if (tok().Is('{') && !parser_.ParseAttrDict(&attrs)) return;
  for (const AttrEntry& e : attrs) {
    if (e.key != "grpAxis" || (e.value.text != "#pto<mx_group_axis axis0>" &&
                               e.value.text != "#pto<mx_group_axis axis1>"))
      return (void)parser_.Error(e.loc, "unknown attribute '" + std::string(e.key) + "' of " +
                                            std::string(op.text) + " with a tmp");
    dn = e.value.text == "#pto<mx_group_axis axis0>";
  }
  if (!dst_type.mx_zz)
    return (void)parser_.Error(dst_loc, std::string(op.text) +
                                            " with a tmp moves MX exponents into a ZZ tile: dst "
                                            "is a one-byte vec tile with slayout=row_major, not " +
                                            TypeString(dst_type));
  const pto_dtype e = types[0].dtype;
  if (types[0].kind != TypeKind::kTile || types[0].mx_zz || types[0].IsCube() ||
      types[0].IsBoxedVec() || (e != PTO_UINT8 && e != PTO_INT8 && e != PTO_FLOAT8_E8M0))
    return (void)parser_.Error(locs[0], std::string(op.text) +
                                            " with a tmp reads E8M0 exponents from a row-major "
                                            "one-byte vec tile (ui8, i8, e8m0), not " +
                                            TypeString(types[0]));
  Instr in;
  in.code = Code::kMxZzMove;
  in.loc = op.loc;
  in.sub = dn ? 1 : 0;
  if (!parser_.UseTile(names[0], types[0], locs[0], Use::kRead, &in.b) ||
      !parser_.UseTile(names[1], types[1], locs[1], Use::kTmp, &in.c) ||
      !parser_.UseTile(dst_name, dst_type, dst_loc, Use::kWrite, &in.a))
    return;
  p_->code.push_back(in);
}

}  // namespace program
}  // namespace pto
