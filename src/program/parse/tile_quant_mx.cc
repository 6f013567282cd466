// PTO assembly: PTOAS's pto.tquant.mx, TQUANT's MX forms (pto_tquant_mx):
//   pto.tquant.mx ins(%src : Ts) outs(%dst, %exp, %max, %scaling : Td, Te, Tm, Tc)
//       {quant_type = #pto<quant_type MXFP8|MXFP4_E2M1>
//        [, quantScaleAlg = #pto<quant_scale_alg ocp|nv>]
//        [, grpAxis = #pto<mx_group_axis axis0|axis1>] [, interleave = false]}
// The operands' rules are pto_tquant_mx's, checked by the verifier (a
// kQuantMx instruction: dst, src, exp, max, scaling in the slots of dst and
// the four sources). The deprecated fused form with exp_zz and storeMode and
// DN's interleaved exponents are refused with their reason.
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
      if (v == "true")
        return parser.Error(e.loc, std::string(op.text) +
                                       " with interleave = true (DN's exponents as row-group "
                                       "pairs) is not implemented");
      known = v == "false";
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

void TileReader::ParseTQuantMx(const Token& op, const std::vector<Token>& results) {
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
  if (!parser_.UseTile(names[0], types[0], locs[0], Use::kRead, &in.slot[Role::kSrc0])) return;
  static const uint8_t kRoles[] = {Role::kDst, Role::kSrc1, Role::kSrc2, Role::kSrc3};
  for (size_t i = 0; i < 4; ++i)
    if (!parser_.UseTile(outs[i], out_types[i], out_locs[i], Use::kWrite, &in.slot[kRoles[i]]))
      return;
  p_->code.push_back(in);
}

}  // namespace program
}  // namespace pto
