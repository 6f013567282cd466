// PTO assembly: the table's operations' attributes (`{rmode = ...}`,
// `{cmpMode = ...}`, `{precisionType = ...}`, `isBinary`, `descending`,
// `rounds`, tquant's and tquant.mx's `quant_type`, tmrgsort's `exhausted`),
// as PTOAS and the pages spell them.
#include <stdlib.h>

#include <string>
#include <vector>

#include "program/parse/parser.h"
#include "program/parse/readers.h"

namespace pto {
namespace program {

namespace {

// The enum value a conversion attribute names: `#pto<KIND NAME>` (PTOAS) or
// `#pto.KIND<NAME>` (the page's synchronous form); -1 for none of `names`.
int ConversionAttrValue(std::string_view text, std::string_view kind,
                        const std::vector<std::pair<std::string_view, int>>& names) {
  std::string_view name;
  const std::string angle = "#pto<" + std::string(kind) + " ";
  const std::string dotted = "#pto." + std::string(kind) + "<";
  if (text.substr(0, angle.size()) == angle && text.back() == '>') {
    name = text.substr(angle.size(), text.size() - angle.size() - 1);
  } else if (text.substr(0, dotted.size()) == dotted && text.back() == '>') {
    name = text.substr(dotted.size(), text.size() - dotted.size() - 1);
  } else {
    return -1;
  }
  for (const auto& [spelling, value] : names)
    if (spelling == name) return value;
  return -1;
}

// rmode: PTOAS's RoundMode names (CAST_RINT, its default, is RINT) and the
// page's CAST_* spellings.
const std::vector<std::pair<std::string_view, int>> kRoundModeNames = {
    {"NONE", PTO_ROUND_NONE},       {"RINT", PTO_ROUND_RINT},         {"ROUND", PTO_ROUND_ROUND},
    {"FLOOR", PTO_ROUND_FLOOR},     {"CEIL", PTO_ROUND_CEIL},         {"TRUNC", PTO_ROUND_TRUNC},
    {"ODD", PTO_ROUND_ODD},         {"CAST_NONE", PTO_ROUND_NONE},    {"CAST_RINT", PTO_ROUND_RINT},
    {"CAST_ROUND", PTO_ROUND_ROUND}, {"CAST_FLOOR", PTO_ROUND_FLOOR}, {"CAST_CEIL", PTO_ROUND_CEIL},
    {"CAST_TRUNC", PTO_ROUND_TRUNC}, {"CAST_ODD", PTO_ROUND_ODD}};
const std::vector<std::pair<std::string_view, int>> kSaturationNames = {{"ON", PTO_SAT_ON},
                                                                        {"OFF", PTO_SAT_OFF}};
// cmpMode: PTOAS's CmpMode names (`#pto<cmp gt>`) and the page's
// (`#pto.cmp<GT>`); PTOAS's default is EQ.
const std::vector<std::pair<std::string_view, int>> kCmpModeNames = {
    {"eq", PTO_CMP_EQ}, {"ne", PTO_CMP_NE}, {"lt", PTO_CMP_LT}, {"le", PTO_CMP_LE},
    {"gt", PTO_CMP_GT}, {"ge", PTO_CMP_GE}, {"EQ", PTO_CMP_EQ}, {"NE", PTO_CMP_NE},
    {"LT", PTO_CMP_LT}, {"LE", PTO_CMP_LE}, {"GT", PTO_CMP_GT}, {"GE", PTO_CMP_GE}};

// maskPattern: PTOAS's MaskPattern names, numbered as pto_mask_pattern.
const std::vector<std::pair<std::string_view, int>> kMaskPatternNames = {
    {"P0101", PTO_MASK_P0101}, {"P1010", PTO_MASK_P1010}, {"P0001", PTO_MASK_P0001},
    {"P0010", PTO_MASK_P0010}, {"P0100", PTO_MASK_P0100}, {"P1000", PTO_MASK_P1000},
    {"P1111", PTO_MASK_P1111}};

// trandom's rounds, PTOAS's I32Attr (default 10): 7 or 10, an integer.
bool RoundsValue(Parser& parser, const AttrEntry& e, int* attr) {
  if (e.value.kind != Tok::kInt || (e.value.text != "7" && e.value.text != "10"))
    return parser.Error(e.value.kind == Tok::kEnd ? e.loc : e.value.loc,
                        "trandom's rounds is 7 or 10" +
                            (e.value.kind == Tok::kEnd ? "" : ", not " + Describe(e.value)));
  if (e.type.kind != TypeKind::kNone && e.type.kind != TypeKind::kInt)
    return parser.Error(e.type_loc, "trandom's rounds is an i32, not " + TypeString(e.type));
  *attr = e.value.text == "7" ? 7 : 10;
  return true;
}

// {precisionType = #pto<pow_precision high_precision>} of a PowPrecision
// or DivPrecision row; any other key is unknown.
bool PrecisionTypeValue(Parser& parser, const ops::OpDescriptor& op, const AttrEntry& e,
                        int* attr) {
  const ops::TextAttr text = ops::AttributeOf(op.attr).text;
  const bool pow = text == ops::TextAttr::kPowPrecision;
  if (e.key != "precisionType" || (!pow && text != ops::TextAttr::kDivPrecision))
    return parser.Error(e.loc, "unknown attribute '" + std::string(e.key) + "' for " + op.mnemonic);
  const char* kind = pow ? "pow_precision" : "div_precision";
  const std::string want_default = std::string("#pto<") + kind + " default>";
  const std::string want_high = std::string("#pto<") + kind + " high_precision>";
  if (e.value.text == want_default) {
    *attr = 0;
  } else if (e.value.text == want_high && pow && parser.program()->profile == PTO_PROFILE_A2A3) {
    // PTOAS's verifier: A2/A3 has no high-precision pow (the C API computes
    // it as DEFAULT there, as the page says).
    return parser.Error(e.value.loc, "precisionType high_precision of " + std::string(op.mnemonic) +
                                         " is refused under A2A3 (PTOAS's rule" +
                                         (op.attr == ops::AttrKind::kPowPrecision ? "" : ", as for tpow") +
                                         "; leave it out or use default)");
  } else if (e.value.text == want_high) {
    // Division is correctly rounded either way: the attribute changes nothing there.
    *attr = pow ? PTO_POW_HIGH_PRECISION : 0;
  } else {
    return parser.Error(e.value.loc, "precisionType of " + std::string(op.mnemonic) + " is " +
                                         want_default + " or " + want_high);
  }
  return true;
}

// tquant.mx's {quant_type = #pto<quant_type MXFP8|MXFP4_E2M1>
// [, quantScaleAlg = #pto<quant_scale_alg ocp|nv>] [, grpAxis =
// #pto<mx_group_axis axis0|axis1>] [, interleave = false|true]}: *attr the
// pto_mx_alg, the group axis in the next byte (1, ND, unless given) and
// interleave in bit 16 (ops::TextFlagsOf); -1 until a quant_type is given
// (TileReader::ParseAttrsAfterOuts refuses a text without one). PTOAS's
// deprecated fused form (storeMode) is refused.
bool MxQuantAttrs(Parser& parser, int* attr) {
  const std::string& name = parser.op_name();
  std::vector<AttrEntry> attrs;
  if (!parser.ParseAttrDict(&attrs)) return false;
  // format: 0 MXFP8, 2 MXFP4_E2M1 (pto_mx_alg's OCP values)
  int format = *attr < 0 ? -1 : *attr & 2, axis = *attr < 0 ? 1 : (*attr >> 8) & 0xFF;
  bool nv = *attr >= 0 && (*attr & 1) != 0, interleave = *attr >= 0 && (*attr >> 16) != 0;
  for (const AttrEntry& e : attrs) {
    const std::string_view v = e.value.text;
    bool known = true;
    if (e.key == "quant_type") {
      if (v == "#pto<quant_type MXFP8>") format = 0;
      else if (v == "#pto<quant_type MXFP4_E2M1>") format = 2;
      else known = false;
    } else if (e.key == "quantScaleAlg") {
      if (v == "#pto<quant_scale_alg ocp>" || v == "#pto<quant_scale_alg OCP>") nv = false;
      else if (v == "#pto<quant_scale_alg nv>" || v == "#pto<quant_scale_alg NV>") nv = true;
      else known = false;
    } else if (e.key == "grpAxis") {
      if (v == "#pto<mx_group_axis axis0>") axis = 0;
      else if (v == "#pto<mx_group_axis axis1>") axis = 1;
      else known = false;
    } else if (e.key == "interleave") {
      interleave = v == "true";
      known = v == "true" || v == "false";
    } else if (e.key == "storeMode") {
      return parser.Error(e.loc, name +
                                     "'s fused exp_zz form with storeMode is deprecated (PTOAS) "
                                     "and not implemented: convert exp with pto.tmov");
    } else {
      return parser.Error(e.loc, "unknown attribute '" + std::string(e.key) + "' of " + name);
    }
    if (!known)
      return parser.Error(e.loc, "unknown value " + std::string(v) + " of " + name + "'s " +
                                     std::string(e.key));
  }
  if (format >= 0) *attr = (format + (nv ? 1 : 0)) | axis << 8 | (interleave ? 1 : 0) << 16;
  return true;
}

// tmrgsort's lists' {exhausted = true|false} (PTOAS's BoolAttr, default
// false).
bool ExhaustedAttrs(Parser& parser, int* attr) {
  const std::string name = parser.bare_op_name();
  std::vector<AttrEntry> attrs;
  if (!parser.ParseAttrDict(&attrs)) return false;
  for (const AttrEntry& e : attrs) {
    if (e.key != "exhausted")
      return parser.Error(e.loc, "unknown attribute '" + std::string(e.key) + "' for " + name +
                                     " (exhausted)");
    if (!e.value.IsIdent("true") && !e.value.IsIdent("false"))
      return parser.Error(e.value.kind == Tok::kEnd ? e.loc : e.value.loc,
                          "exhausted is true or false");
    *attr = e.value.IsIdent("true") ? 1 : 0;
  }
  return true;
}

// tquant's {quant_type = #pto<quant_type INT8_SYM|INT8_ASYM>}: *attr 0 or 1;
// -1 for another value (the MX forms' are pto.tquant.mx's), which
// TileReader::ParseAttrsAfterOuts refuses as it refuses none.
bool QuantTypeAttrs(Parser& parser, int* attr) {
  std::vector<AttrEntry> attrs;
  if (!parser.ParseAttrDict(&attrs)) return false;
  for (const AttrEntry& e : attrs) {
    if (e.key != "quant_type")
      return parser.Error(e.loc, "unknown attribute '" + std::string(e.key) + "' of " +
                                     parser.op_name());
    *attr = e.value.text == "#pto<quant_type INT8_SYM>"    ? 0
            : e.value.text == "#pto<quant_type INT8_ASYM>" ? 1
                                                           : -1;
  }
  return true;
}

}  // namespace

// {rmode = #pto<round_mode FLOOR>, sat_mode = #pto<saturation_mode ON>}: the
// mode + 1 in the low byte, the saturation + 1 in the next (0: not given).
bool TileReader::ParseConversionAttrs(int* attr) {
  std::vector<AttrEntry> attrs;
  if (!parser_.ParseAttrDict(&attrs)) return false;
  for (const AttrEntry& e : attrs) {
    if (e.key == "rmode") {
      const int mode = ConversionAttrValue(e.value.text, "round_mode", kRoundModeNames);
      if (mode < 0)
        return parser_.Error(e.value.loc,
                             "rmode of tcvt is #pto<round_mode NAME> with NAME one of NONE, "
                             "RINT, ROUND, FLOOR, CEIL, TRUNC, ODD, CAST_RINT");
      *attr = (*attr & ~0xFF) | (mode + 1);
    } else if (e.key == "sat_mode") {
      const int sat = ConversionAttrValue(e.value.text, "saturation_mode", kSaturationNames);
      if (sat < 0)
        return parser_.Error(e.value.loc,
                             "sat_mode of tcvt is #pto<saturation_mode ON> or "
                             "#pto<saturation_mode OFF>");
      *attr = (*attr & 0xFF) | ((sat + 1) << 8);
    } else {
      return parser_.Error(e.loc, "unknown attribute '" + std::string(e.key) +
                                      "' for tcvt (rmode, "
                                      "sat_mode)");
    }
  }
  return true;
}

// thistogram's byte, PTOAS's I32Attr (default 1; its verifier: 0 to 3), or
// PTOAS's older spelling isMSB = true (byte 1) or false (byte 0); where both
// are given they agree (*given_byte, *legacy_msb: each as given so far, or
// -1).
bool TileReader::HistByteAttr(const AttrEntry& e, int* attr, int* given_byte, int* legacy_msb) {
  if (e.key == "byte") {
    const bool digit = e.value.kind == Tok::kInt && e.value.text.size() == 1 &&
                       e.value.text[0] >= '0' && e.value.text[0] <= '3';
    if (!digit)
      return parser_.Error(e.value.kind == Tok::kEnd ? e.loc : e.value.loc,
                           "byte of thistogram is 0, 1, 2 or 3");
    if (*legacy_msb >= 0 && *legacy_msb != e.value.text[0] - '0')
      return parser_.Error(e.loc, "thistogram's byte and its older isMSB disagree");
    *attr = e.value.text[0] - '0';
    *given_byte = *attr;
    return true;
  }
  if (!e.value.IsIdent("true") && !e.value.IsIdent("false"))
    return parser_.Error(e.value.loc, "isMSB of thistogram is true or false");
  *legacy_msb = e.value.IsIdent("true") ? 1 : 0;
  if (*given_byte >= 0 && *given_byte != *legacy_msb)
    return parser_.Error(e.loc, "thistogram's byte and its older isMSB disagree");
  *attr = *legacy_msb;
  return true;
}

const char* RequiredAttr(const ops::OpDescriptor& desc) {
  switch (ops::AttributeOf(desc.attr).text) {
    case ops::TextAttr::kMxQuant:
      return "{quant_type = #pto<quant_type MXFP8>} or #pto<quant_type MXFP4_E2M1>";
    case ops::TextAttr::kQuantType:
      return "{quant_type = #pto<quant_type INT8_SYM>} or #pto<quant_type INT8_ASYM> (the MX "
             "forms are pto.tquant.mx)";
    default: return "";
  }
}

int TextAttrDefault(const ops::OpDescriptor& desc) {
  switch (ops::AttributeOf(desc.attr).text) {
    case ops::TextAttr::kHistByte: return 1;
    case ops::TextAttr::kRounds: return 10;
    case ops::TextAttr::kMxQuant:
    case ops::TextAttr::kQuantType: return -1;  // no quant_type yet
    default: return 0;
  }
}

// {precisionType = #pto<pow_precision high_precision>}
bool TileReader::ParseOpAttrs(const ops::OpDescriptor& op, int* attr, bool* high_precision) {
  const ops::TextAttr text = ops::AttributeOf(op.attr).text;
  if (text == ops::TextAttr::kConversion) return ParseConversionAttrs(attr);
  if (text == ops::TextAttr::kGlobalModes) return GlobalModesAttrs(op, attr);
  if (text == ops::TextAttr::kMxQuant) return MxQuantAttrs(parser_, attr);
  if (text == ops::TextAttr::kQuantType) return QuantTypeAttrs(parser_, attr);
  if (text == ops::TextAttr::kListCounts) return ExhaustedAttrs(parser_, attr);
  std::vector<AttrEntry> attrs;
  if (!parser_.ParseAttrDict(&attrs)) return false;
  int given_byte = -1, legacy_msb = -1;  // thistogram's byte and isMSB, when given
  for (const AttrEntry& e : attrs) {
    // PTOAS accepts precisionType on trsqrt; its result is correctly rounded
    // either way, so the attribute changes nothing here.
    if (e.key == "precisionType" && text == ops::TextAttr::kAnyPrecision) {
      const std::string_view v = e.value.text;
      const bool known = v.substr(0, 5) == "#pto<" &&
                         (v.size() > 9 && (v.substr(v.size() - 9) == " default>" ||
                                           (v.size() > 16 &&
                                            v.substr(v.size() - 16) == " high_precision>")));
      if (!known)
        return parser_.Error(e.value.loc, "precisionType of " + std::string(op.mnemonic) +
                                              " is #pto<... default> or #pto<... high_precision>");
      if (high_precision != nullptr)
        *high_precision = v.substr(v.size() - 16) == " high_precision>";
      continue;
    }
    if (e.key == "isBinary" && text == ops::TextAttr::kBinaryOrder) {
      if (!BinaryOrderValue(e.value, attr)) return false;
      continue;
    }
    if (e.key == "cmpMode" && text == ops::TextAttr::kCmpMode) {
      const int mode = ConversionAttrValue(e.value.text, "cmp", kCmpModeNames);
      if (mode < 0)
        return parser_.Error(e.value.loc,
                             "cmpMode of " + std::string(op.mnemonic) +
                                 " is #pto<cmp NAME> or #pto.cmp<NAME> with NAME one of "
                                 "eq, ne, lt, le, gt, ge");
      *attr = mode;
      continue;
    }
    // tci's order, PTOAS's BoolAttr (default false).
    if (e.key == "descending" && text == ops::TextAttr::kDescending) {
      if (!e.value.IsIdent("true") && !e.value.IsIdent("false"))
        return parser_.Error(e.value.loc, "descending is true or false");
      *attr = e.value.IsIdent("true") ? 1 : 0;
      continue;
    }
    // ttri's triangle, PTOAS's I32Attr (default 0, lower; 1 upper).
    if (e.key == "upperOrLower" && text == ops::TextAttr::kUpperOrLower) {
      const bool zero = e.value.kind == Tok::kInt && e.value.text == "0";
      const bool one = e.value.kind == Tok::kInt && e.value.text == "1";
      if (!zero && !one)
        return parser_.Error(e.value.kind == Tok::kEnd ? e.loc : e.value.loc,
                             "upperOrLower of ttri is 0 (lower) or 1 (upper)");
      *attr = one ? 1 : 0;
      continue;
    }
    if ((e.key == "byte" || e.key == "isMSB") && text == ops::TextAttr::kHistByte) {
      if (!HistByteAttr(e, attr, &given_byte, &legacy_msb)) return false;
      continue;
    }
    if (e.key == "rounds" && text == ops::TextAttr::kRounds) {
      if (!RoundsValue(parser_, e, attr)) return false;
      continue;
    }
    // TGATHER's mask-pattern form: #pto.mask_pattern<P0101> (PTOAS, the
    // page), or #pto<mask_pattern P0101>.
    if (e.key == "maskPattern" && text == ops::TextAttr::kMaskPattern) {
      if (!MaskPatternValue(e, attr)) return false;
      continue;
    }
    if (e.key == "maskPattern" && ops::MaskPatternForm(op) != nullptr)
      return parser_.Error(e.loc, std::string(op.mnemonic) +
                                      "'s maskPattern form takes one source, ins(%src, "
                                      "{maskPattern = ...} : T)");
    if (!PrecisionTypeValue(parser_, op, e, attr)) return false;
  }
  return true;
}

// TGATHER's compare form: {cmpMode = #pto<cmp gt>, offset = 7 : i32}
// (PTOAS's defaults EQ and 0).
bool GatherCompareAttrs(Parser& parser, int* mode, int64_t* offset) {
  std::vector<AttrEntry> attrs;
  if (!parser.ParseAttrDict(&attrs)) return false;
  for (const AttrEntry& e : attrs) {
    if (e.key == "cmpMode") {
      *mode = ConversionAttrValue(e.value.text, "cmp", kCmpModeNames);
      if (*mode < 0)
        return parser.Error(e.value.loc, "cmpMode of tgather is #pto<cmp NAME> or #pto.cmp<NAME>");
      continue;
    }
    if (e.key == "offset" && e.value.kind == Tok::kInt) {
      *offset = strtoll(std::string(e.value.text).c_str(), nullptr, 0);
      continue;
    }
    return parser.Error(e.loc, e.key == "offset"
                                    ? std::string("offset of tgather is an integer")
                                    : "unknown attribute '" + std::string(e.key) +
                                          "' for tgather's compare form");
  }
  return true;
}

// maskPattern = #pto.mask_pattern<P0101> (or #pto<mask_pattern P0101>).
bool TileReader::MaskPatternValue(const AttrEntry& e, int* attr) {
  const int pattern = ConversionAttrValue(e.value.text, "mask_pattern", kMaskPatternNames);
  if (pattern < 0)
    return parser_.Error(
        e.value.kind == Tok::kEnd ? e.loc : e.value.loc,
        "maskPattern is #pto.mask_pattern<NAME> with NAME one of P0101, "
        "P1010, P0001, P0010, P0100, P1000, P1111");
  *attr = (*attr & ~0xFF) | pattern;
  return true;
}

// The bare `maskPattern = #pto.mask_pattern<...>` after outs(...), which
// PTOAS's parser of tgather reads.
bool TileReader::ParseBareMaskPattern(int* attr) {
  AttrEntry e;
  e.loc = tok().loc;
  e.key = tok().text;
  parser_.Advance();  // maskPattern
  if (!parser_.Expect('=')) return false;
  e.value = tok();
  parser_.Advance();
  return MaskPatternValue(e, attr);
}

// isBinary = true | false (tcolsum's order of summation, PTOAS's BoolAttr).
bool TileReader::BinaryOrderValue(const Token& value, int* attr) {
  if (value.IsIdent("true") || value.IsIdent("false")) {
    *attr = value.IsIdent("true") ? 1 : 0;
    return true;
  }
  return parser_.Error(value.kind == Tok::kEnd ? tok().loc : value.loc,
                       "isBinary is true or false");
}

// The bare `isBinary = true|false` after outs(...) of PTOAS's manual.
bool TileReader::ParseBareBinaryOrder(int* attr) {
  parser_.Advance();  // isBinary
  if (!parser_.Expect('=')) return false;
  const Token value = tok();
  if (!BinaryOrderValue(value, attr)) return false;
  parser_.Advance();
  return true;
}

// {coalesce = #pto<coalesce row|elem>} (mgather's required, as PTOAS
// requires it), gatherOob / scatterOob (the pages' modes: undefined, which
// refuses an index past the table when the instruction runs; clamp, wrap;
// gather's zero, scatter's skip), scatterAtomicOp none, add, max, min
// (pto_scatter_atomic: pto_mscatter_ex's atomics, their dtypes checked when
// the instruction runs) and scatterConflict last or default (a scatter's
// last writer in row order wins).
bool TileReader::GlobalModesAttrs(const ops::OpDescriptor& desc, int* attr) {
  const bool scatter = ops::HasTrait(desc, PTO_TRAIT_NoDst);
  const std::string name = std::string("pto.") + desc.mnemonic;
  const std::string oob_key = scatter ? "scatterOob" : "gatherOob";
  const std::string oob_kind = scatter ? "#pto<scatter_oob " : "#pto<gather_oob ";
  int coalesce = -1, oob = ops::GlobalTable::kOobRefuse, atomic = PTO_SCATTER_ATOMIC_NONE;
  std::vector<AttrEntry> attrs;
  if (!parser_.ParseAttrDict(&attrs)) return false;
  for (const AttrEntry& e : attrs) {
    const std::string v(e.value.text);
    if (e.key == "coalesce" && (v == "#pto<coalesce row>" || v == "#pto<coalesce elem>")) {
      coalesce = v == "#pto<coalesce row>" ? PTO_COALESCE_ROW : PTO_COALESCE_ELEM;
      continue;
    }
    if (e.key == oob_key) {
      static const char* const kModes[] = {"undefined", "clamp", "wrap", nullptr};
      bool known = false;
      for (int m = 0; m < 3; ++m)
        if (v == oob_kind + kModes[m] + ">") oob = m, known = true;
      if (v == oob_kind + (scatter ? "skip>" : "zero>"))
        oob = ops::GlobalTable::kOobZeroOrSkip, known = true;
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
        if (v == std::string("#pto<scatter_atomic_op ") + kAtomics[a] + ">") atomic = a, known = true;
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
  *attr = (coalesce < 0 ? 0 : coalesce | kCoalesceGiven) | oob << 8 | atomic << 12;
  return true;
}

}  // namespace program
}  // namespace pto
