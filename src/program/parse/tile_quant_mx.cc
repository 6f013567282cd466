// PTO assembly: PTOAS's pto.tquant.mx, TQUANT's MX forms (pto_tquant_mx):
//   pto.tquant.mx ins(%src : Ts) outs(%dst, %exp, %max, %scaling : Td, Te, Tm, Tc)
//       {quant_type = #pto<quant_type MXFP8|MXFP4_E2M1>
//        [, quantScaleAlg = #pto<quant_scale_alg ocp|nv>]
//        [, grpAxis = #pto<mx_group_axis axis0|axis1>] [, interleave = false|true]}
// The operands' rules are pto_tquant_mx's, checked by the verifier (a
// kQuantMx instruction: dst, src, exp, max, scaling in the slots of dst and
// the four sources). The deprecated fused form with exp_zz and storeMode is
// refused; DN's interleaved exponents (interleave = true) are ops::MxQuant's
// (its check and run). Also tmov's
// move of the exponents into the cube's ZZ order.
#include <string>
#include <vector>

#include "program/parse/parser.h"
#include "program/parse/readers.h"

namespace pto {
namespace program {

namespace {

struct MxAttrs {
  int format = -1;  // 0 MXFP8, 2 MXFP4_E2M1 (pto_mx_alg's OCP values)
  bool nv = false;
  int axis = 1;
  bool interleave = false;  // DN's exponents in row-block pairs
};

// The attribute dictionary's entries; false (the error reported) on an
// unknown key or value.
bool ReadMxAttrs(Parser& parser, const Token& op, const std::vector<AttrEntry>& attrs,
                 MxAttrs* out) {
  for (const AttrEntry& e : attrs) {
    const std::string_view v = e.value.text;
    bool known = true;
    if (e.key == "quant_type") {
      if (v == "#pto<quant_type MXFP8>") out->format = 0;
      else if (v == "#pto<quant_type MXFP4_E2M1>") out->format = 2;
      else known = false;
    } else if (e.key == "quantScaleAlg") {
      if (v == "#pto<quant_scale_alg ocp>" || v == "#pto<quant_scale_alg OCP>") out->nv = false;
      else if (v == "#pto<quant_scale_alg nv>" || v == "#pto<quant_scale_alg NV>") out->nv = true;
      else known = false;
    } else if (e.key == "grpAxis") {
      if (v == "#pto<mx_group_axis axis0>") out->axis = 0;
      else if (v == "#pto<mx_group_axis axis1>") out->axis = 1;
      else known = false;
    } else if (e.key == "interleave") {
      out->interleave = v == "true";
      known = v == "true" || v == "false";
    } else if (e.key == "storeMode") {
      return parser.Error(e.loc, std::string(op.text) +
                                     "'s fused exp_zz form with storeMode is deprecated (PTOAS) "
                                     "and not implemented: convert exp with pto.tmov");
    } else {
      return parser.Error(e.loc, "unknown attribute '" + std::string(e.key) + "' of " +
                                     std::string(op.text));
    }
    if (!known)
      return parser.Error(e.loc, "unknown value " + std::string(v) + " of " +
                                     std::string(op.text) + "'s " + std::string(e.key));
  }
  if (out->format < 0)
    return parser.Error(op.loc, std::string(op.text) +
                                    " needs {quant_type = #pto<quant_type MXFP8>} or "
                                    "#pto<quant_type MXFP4_E2M1>");
  return true;
}

}  // namespace

void SpecialFormReader::ParseTQuantMx(const Token& op, const std::vector<Token>& results) {
  if (!parser_.ResultCount(op, results, 0)) return;
  if (!tok().IsIdent("ins"))
    return (void)parser_.Error(op.loc, std::string(op.text) + " needs ins(...) outs(...)");
  parser_.Advance();  // ins
  std::vector<Token> names, outs;
  std::vector<Type> types, out_types;
  std::vector<SourceLoc> locs, out_locs;
  if (!parser_.Expect('(')) return;
  parser_.ParseValueNames(&names);
  if (names.size() != 1)
    return (void)parser_.Error(op.loc, std::string(op.text) + " takes 1 input (src), not " +
                                           std::to_string(names.size()));
  if (!parser_.Expect(':') || !parser_.ParseTypes(1, &types, &locs) || !parser_.Expect(')') ||
      !parser_.ExpectIdent("outs") || !parser_.Expect('('))
    return;
  parser_.ParseValueNames(&outs);
  if (outs.size() == 5)
    return (void)parser_.Error(op.loc, std::string(op.text) +
                                           "'s fused exp_zz output is deprecated (PTOAS) and not "
                                           "implemented: convert exp with pto.tmov");
  if (outs.size() != 4)
    return (void)parser_.Error(op.loc, std::string(op.text) +
                                           " takes 4 outputs (dst, exp, max, scaling), not " +
                                           std::to_string(outs.size()));
  if (!parser_.Expect(':') || !parser_.ParseTypes(4, &out_types, &out_locs) ||
      !parser_.Expect(')'))
    return;
  std::vector<AttrEntry> attrs;
  if (tok().Is('{') && !parser_.ParseAttrDict(&attrs)) return;
  MxAttrs a;
  if (!ReadMxAttrs(parser_, op, attrs, &a)) return;
  Instr in;
  in.code = Code::kQuantMx;
  in.loc = op.loc;
  in.imm = a.format + (a.nv ? 1 : 0);  // a pto_mx_alg
  in.sub = static_cast<uint8_t>(a.axis);
  in.d = a.interleave ? 1 : 0;
  if (!parser_.UseTile(names[0], types[0], locs[0], Use::kRead, &in.slot[Role::kSrc0])) return;
  static const uint8_t kRoles[] = {Role::kDst, Role::kSrc1, Role::kSrc2, Role::kSrc3};
  for (size_t i = 0; i < 4; ++i)
    if (!parser_.UseTile(outs[i], out_types[i], out_locs[i], Use::kWrite, &in.slot[kRoles[i]]))
      return;
  p_->code.push_back(in);
}

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
