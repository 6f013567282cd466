// PTO assembly: constants, integer and float arithmetic (arith.*), the
// conversions between them, and the block queries.
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <string>
#include <vector>

#include "float_scalars.h"
#include "program/parse/parser.h"
#include "program/parse/readers.h"

namespace pto {
namespace program {
namespace {

int64_t WrapTo(int64_t v, unsigned bits) {
  if (bits >= 64) return v;
  const uint64_t mask = (uint64_t{1} << bits) - 1;
  uint64_t u = static_cast<uint64_t>(v) & mask;
  if (bits > 1 && (u >> (bits - 1)) != 0) u |= ~mask;  // sign-extend
  return static_cast<int64_t>(u);
}

}  // namespace

// %c = arith.constant 42 : index | 1.5 : f32 | true
void ScalarReader::ParseConstantValue(const Token& result) {
  const Token lit = tok();
  parser_.Advance();
  // `dense<...> : vector<4xi16>`: a value only tmrgsort's executed operand
  // takes (the counts the NPUs report there; an SSA value the instruction
  // cannot change), so its elements are not kept.
  if (lit.kind == Tok::kAttr && lit.text.substr(0, 6) == "dense<") {
    Value v;
    const SourceLoc type_loc = tok().loc;
    if (!parser_.Expect(':') || !parser_.ParseType(&v.type)) return;
    if (v.type.kind != TypeKind::kVector)
      return (void)parser_.Error(type_loc,
                                 "a dense constant of type " + TypeString(v.type) +
                                     " is not supported (vector<4xi16>, tmrgsort's executed, is)");
    parser_.Define(result, v);
    return;
  }
  int64_t ivalue = 0;
  double fvalue = 0;
  bool is_int = true;
  if (lit.IsIdent("true") || lit.IsIdent("false")) {
    ivalue = lit.text == "true";
  } else if (lit.kind == Tok::kInt) {
    const std::string s(lit.text);
    errno = 0;
    char* end = nullptr;
    const bool negative = s[0] == '-';
    const unsigned long long magnitude = strtoull(s.c_str() + (negative ? 1 : 0), &end, 0);
    if (errno != 0 || magnitude > (negative ? 0x8000000000000000ull : 0x7FFFFFFFFFFFFFFFull))
      return (void)parser_.Error(lit.loc, "integer " + s + " does not fit 64 bits");
    ivalue = negative ? static_cast<int64_t>(0 - magnitude) : static_cast<int64_t>(magnitude);
    fvalue = static_cast<double>(ivalue);
  } else if (lit.kind == Tok::kFloat || lit.IsIdent("inf") || lit.IsIdent("nan")) {
    is_int = false;
    fvalue = strtod(std::string(lit.text).c_str(), nullptr);
  } else {
    return (void)parser_.Error(lit.loc, "expected a number, found " + Describe(lit));
  }
  Type t;
  const SourceLoc type_loc = tok().loc;
  const bool boolean = lit.IsIdent("true") || lit.IsIdent("false");
  if (boolean && !tok().Is(':')) {
    // MLIR's `arith.constant true`: an i1 whose type is implied.
    t.kind = TypeKind::kInt;
    t.bits = 1;
  } else if (!parser_.Expect(':') || !parser_.ParseType(&t)) {
    return;
  }
  Value v;
  v.type = t;
  Instr in;
  in.loc = lit.loc;
  if (t.IsInteger()) {
    if (!is_int) return (void)parser_.Error(lit.loc, "a float literal for an integer type");
    if (WrapTo(ivalue, t.bits) != ivalue && !(t.bits == 1 && (ivalue == 0 || ivalue == 1)))
      return (void)parser_.Error(lit.loc,
                                 std::to_string(ivalue) + " does not fit " + TypeString(t));
    if (t.bits == 1) ivalue &= 1;
    v.reg = parser_.NewIntReg();
    v.is_const = true;
    v.const_value = ivalue;
    in.code = Code::kConstInt;
    in.a = v.reg;
    in.imm = ivalue;
  } else if (t.kind == TypeKind::kFloat) {
    // A hexadecimal integer is the value's bits (MLIR's spelling of inf and NaN).
    if (lit.kind == Tok::kInt && lit.text.substr(0, 2) == "0x") {
      const uint64_t b = static_cast<uint64_t>(ivalue);
      if (t.bits == 64) {
        memcpy(&fvalue, &b, sizeof fvalue);
      } else if (t.dtype == PTO_FLOAT32) {
        const uint32_t w = static_cast<uint32_t>(b);
        float f;
        memcpy(&f, &w, sizeof f);
        fvalue = f;
      } else {
        fvalue = HalfBitsToDouble(static_cast<uint16_t>(b), t.dtype);
      }
    }
    v.reg = p_->float_regs++;
    in.code = Code::kConstFloat;
    in.a = v.reg;
    in.fimm = RoundToFloatType(fvalue, t.dtype, t.bits);
  } else {
    return (void)parser_.Error(type_loc,
                               "a constant of type " + TypeString(t) + " is not supported");
  }
  p_->code.push_back(in);
  parser_.Define(result, v);
}

void ScalarReader::ParseArith(const Token& op, const Token& result) {
  static const struct {
    const char* name;
    IntOp op;
  } kBinary[] = {{"arith.addi", IntOp::kAdd},   {"arith.subi", IntOp::kSub},
                 {"arith.muli", IntOp::kMul},   {"arith.divsi", IntOp::kDivS},
                 {"arith.remsi", IntOp::kRemS}, {"arith.minsi", IntOp::kMinS},
                 {"arith.maxsi", IntOp::kMaxS}, {"arith.divui", IntOp::kDivU},
                 {"arith.remui", IntOp::kRemU}, {"arith.ceildivsi", IntOp::kCeilDivS},
                 {"arith.minui", IntOp::kMinU}, {"arith.maxui", IntOp::kMaxU},
                 {"arith.andi", IntOp::kAnd},   {"arith.ori", IntOp::kOr},
                 {"arith.xori", IntOp::kXor},   {"arith.shli", IntOp::kShl},
                 {"arith.shrsi", IntOp::kShrS}, {"arith.shrui", IntOp::kShrU}};
  Instr in;
  in.loc = op.loc;
  if (ParseFloatArith(op, result) || !parser_.ok()) return;
  for (const auto& b : kBinary) {
    if (op.text != b.name) continue;
    Value x, y;
    if (!parser_.ParseIntOperand(&x, "operand") || !parser_.Expect(',') ||
        !parser_.ParseIntOperand(&y, "operand") || !parser_.Expect(':'))
      return;
    const SourceLoc type_loc = tok().loc;
    Type t;
    if (!parser_.ParseType(&t)) return;
    if (!t.IsInteger() || !SameType(t, x.type) || !SameType(t, y.type))
      return (void)parser_.Error(type_loc, std::string(b.name) + " operands are " +
                                               TypeString(x.type) + " and " + TypeString(y.type) +
                                               ", written as " + TypeString(t));
    in.code = Code::kIntBinary;
    in.sub = static_cast<uint8_t>(b.op);
    in.bits = t.bits;
    in.b = x.reg;
    in.c = y.reg;
    return EmitIntResult(in, t, result);
  }
  if (op.text == "arith.index_cast" || op.text == "arith.index_castui" ||
      op.text == "arith.extsi" || op.text == "arith.trunci" || op.text == "arith.extui") {
    Value x;
    if (!parser_.ParseIntOperand(&x, "operand") || !parser_.Expect(':')) return;
    Type from, to;
    const SourceLoc from_loc = tok().loc;
    if (!parser_.ParseType(&from) || !parser_.ExpectIdent("to")) return;
    const SourceLoc to_loc = tok().loc;
    if (!parser_.ParseType(&to)) return;
    if (!SameType(from, x.type))
      return (void)parser_.Error(
          from_loc, "operand is " + TypeString(x.type) + ", written as " + TypeString(from));
    if (!to.IsInteger())
      return (void)parser_.Error(to_loc, "cast to " + TypeString(to) + " is not supported");
    const bool unsigned_source = op.text == "arith.index_castui" || op.text == "arith.extui";
    in.code = Code::kIntCast;
    in.bits = to.bits;
    in.sub = unsigned_source ? from.bits : 0;  // zero-extend from this width first
    in.b = x.reg;
    return EmitIntResult(in, to, result);
  }
  if (op.text == "arith.cmpi") {
    static const char* const kPredicates[] = {"eq",  "ne",  "slt", "sle", "sgt",
                                              "sge", "ult", "ule", "ugt", "uge"};
    if (tok().kind != Tok::kIdent)
      return (void)parser_.Error(tok().loc, "expected a predicate (eq, ne, slt, ...)");
    int predicate = -1;
    for (int i = 0; i < 10; ++i)
      if (tok().text == kPredicates[i]) predicate = i;
    if (predicate < 0)
      return (void)parser_.Error(tok().loc, "unknown predicate '" + std::string(tok().text) + "'");
    parser_.Advance();
    Value x, y;
    if (!parser_.Expect(',') || !parser_.ParseIntOperand(&x, "operand") || !parser_.Expect(',') ||
        !parser_.ParseIntOperand(&y, "operand") || !parser_.Expect(':'))
      return;
    const SourceLoc type_loc = tok().loc;
    Type t;
    if (!parser_.ParseType(&t)) return;
    if (!SameType(t, x.type) || !SameType(t, y.type))
      return (void)parser_.Error(type_loc, "arith.cmpi operands are " + TypeString(x.type) +
                                               " and " + TypeString(y.type) + ", written as " +
                                               TypeString(t));
    in.code = Code::kIntCompare;
    in.sub = static_cast<uint8_t>(predicate);
    in.bits = t.bits;
    in.b = x.reg;
    in.c = y.reg;
    Type i1;
    ParseScalarType("i1", &i1);
    return EmitIntResult(in, i1, result);
  }
  parser_.Error(op.loc, "operation '" + std::string(op.text) + "' is not supported");
}

// Emits `in` with a new integer register as its result (a), defined as
// result of the given type.
void ScalarReader::EmitIntResult(Instr in, const Type& type, const Token& result) {
  Value v;
  v.type = type;
  v.reg = in.a = parser_.NewIntReg();
  p_->code.push_back(in);
  parser_.Define(result, v);
}

// arith on floats (addf ... cmpf, negf), select, and the conversions between
// integers and floats. False (and no error) when op is none of them.
bool ScalarReader::ParseFloatArith(const Token& op, const Token& result) {
  static const struct {
    const char* name;
    FloatOp op;
  } kBinary[] = {{"arith.addf", FloatOp::kAdd},         {"arith.subf", FloatOp::kSub},
                 {"arith.mulf", FloatOp::kMul},         {"arith.divf", FloatOp::kDiv},
                 {"arith.maximumf", FloatOp::kMaximum}, {"arith.minimumf", FloatOp::kMinimum},
                 {"arith.maxnumf", FloatOp::kMaxNum},   {"arith.minnumf", FloatOp::kMinNum}};
  static const char* const kPredicates[] = {"false", "oeq", "ogt", "oge", "olt", "ole",
                                            "one",   "ord", "ueq", "ugt", "uge", "ult",
                                            "ule",   "une", "uno", "true"};
  Instr in;
  in.loc = op.loc;
  const bool negf = op.text == "arith.negf";
  const bool cmpf = op.text == "arith.cmpf";
  bool binary = false;
  for (const auto& b : kBinary) {
    if (op.text == b.name) {
      binary = true;
      in.sub = static_cast<uint8_t>(b.op);
    }
  }
  if (op.text == "arith.select") {
    Token c, x, y;
    Value cond, a, b;
    if (!parser_.ExpectValueName(&c) || !parser_.UseInt(c, &cond, "condition") ||
        !parser_.Expect(',') || !parser_.ExpectValueName(&x) || !parser_.UseValue(x, &a) ||
        !parser_.Expect(',') || !parser_.ExpectValueName(&y) || !parser_.UseValue(y, &b) ||
        !parser_.Expect(':'))
      return true;
    const SourceLoc type_loc = tok().loc;
    Type t;
    if (!parser_.ParseType(&t)) return true;
    if (cond.type.kind != TypeKind::kInt || cond.type.bits != 1)
      return !parser_.Error(c.loc,
                            "arith.select needs an i1 condition, not " + TypeString(cond.type));
    if (!SameType(a.type, t) || !SameType(b.type, t) ||
        !(t.IsInteger() || t.kind == TypeKind::kFloat))
      return !parser_.Error(type_loc,
                            "arith.select chooses between two integers or two floats of type " +
                                TypeString(t) + " (here " + TypeString(a.type) + " and " +
                                TypeString(b.type) + ")");
    in.code = Code::kSelect;
    in.sub = t.kind == TypeKind::kFloat;
    in.b = cond.reg;
    in.c = a.reg;
    in.d = b.reg;
    if (in.sub != 0) EmitFloatResult(in, t, result);
    else EmitIntResult(in, t, result);
    return true;
  }
  if (ParseConversion(op, result)) return true;
  if (!negf && !cmpf && !binary) return false;
  int predicate = -1;
  if (cmpf) {
    for (int i = 0; i < 16 && tok().kind == Tok::kIdent; ++i)
      if (tok().text == kPredicates[i]) predicate = i;
    if (predicate < 0)
      return !parser_.Error(
          tok().loc,
          "expected a predicate of arith.cmpf (oeq, olt, une, ...), found " + Describe(tok()));
    parser_.Advance();
    if (!parser_.Expect(',')) return true;
  }
  Token xn, yn;
  Value x, y;
  if (!parser_.ExpectValueName(&xn) || !parser_.UseValue(xn, &x)) return true;
  if (!negf && (!parser_.Expect(',') || !parser_.ExpectValueName(&yn) || !parser_.UseValue(yn, &y)))
    return true;
  if (tok().Is('{')) {
    std::vector<AttrEntry> ignored;  // fastmath flags: results are IEEE either way
    if (!parser_.ParseAttrDict(&ignored)) return true;
  }
  if (!parser_.Expect(':')) return true;
  const SourceLoc type_loc = tok().loc;
  Type t;
  if (!parser_.ParseType(&t)) return true;
  if (t.kind != TypeKind::kFloat || !SameType(t, x.type) || (!negf && !SameType(t, y.type)))
    return !parser_.Error(type_loc, std::string(op.text) + " operands are " + TypeString(x.type) +
                                        (negf ? "" : " and " + TypeString(y.type)) +
                                        ", written as " + TypeString(t));
  in.b = x.reg;
  in.c = y.reg;
  if (cmpf) {
    in.code = Code::kFloatCompare;
    in.sub = static_cast<uint8_t>(predicate);
    Type i1;
    ParseScalarType("i1", &i1);
    EmitIntResult(in, i1, result);
  } else {
    in.code = negf ? Code::kFloatNeg : Code::kFloatBinary;
    EmitFloatResult(in, t, result);
  }
  return true;
}

// sitofp uitofp fptosi fptoui extf truncf: `%r = arith.OP %x : T to U`.
bool ScalarReader::ParseConversion(const Token& op, const Token& result) {
  const std::string_view n = op.text;
  const bool to_float = n == "arith.sitofp" || n == "arith.uitofp";
  const bool to_int = n == "arith.fptosi" || n == "arith.fptoui";
  const bool float_cast = n == "arith.extf" || n == "arith.truncf";
  if (!to_float && !to_int && !float_cast) return false;
  Token xn;
  Value x;
  if (!parser_.ExpectValueName(&xn) || !parser_.UseValue(xn, &x) || !parser_.Expect(':'))
    return true;
  const SourceLoc from_loc = tok().loc;
  Type from, to;
  if (!parser_.ParseType(&from) || !parser_.ExpectIdent("to")) return true;
  const SourceLoc to_loc = tok().loc;
  if (!parser_.ParseType(&to)) return true;
  if (!SameType(from, x.type))
    return !parser_.Error(from_loc,
                          "operand is " + TypeString(x.type) + ", written as " + TypeString(from));
  const bool from_ok = to_float ? from.IsInteger() : from.kind == TypeKind::kFloat;
  const bool to_ok = to_int ? to.IsInteger() : to.kind == TypeKind::kFloat;
  if (!from_ok || !to_ok)
    return !parser_.Error(to_loc, std::string(n) + " from " + TypeString(from) + " to " +
                                      TypeString(to) + " is not a conversion it makes");
  Instr in;
  in.loc = op.loc;
  in.b = x.reg;
  if (to_float) {
    in.code = Code::kIntToFloat;
    in.sub = n == "arith.uitofp";
    in.bits = from.bits;
    EmitFloatResult(in, to, result);
  } else if (to_int) {
    in.code = Code::kFloatToInt;
    in.sub = n == "arith.fptoui";
    in.bits = to.bits;
    EmitIntResult(in, to, result);
  } else {
    in.code = Code::kFloatCast;
    EmitFloatResult(in, to, result);
  }
  return true;
}

// Emits `in` with a new float register as its result (a), rounded to type.
void ScalarReader::EmitFloatResult(Instr in, const Type& type, const Token& result) {
  in.fmt = type.bits == 64                  ? FloatFormat::kF64
           : type.dtype == PTO_FLOAT16      ? FloatFormat::kF16
           : type.dtype == PTO_BFLOAT16     ? FloatFormat::kBF16
                                            : FloatFormat::kF32;
  Value v;
  v.type = type;
  v.reg = in.a = p_->float_regs++;
  p_->code.push_back(in);
  p_->uses_float = true;
  parser_.Define(result, v);
}

void ScalarReader::ParseBlockQuery(const Token& op, const Token& result) {
  Value v;
  ParseScalarType("i64", &v.type);
  if (tok().Is(':')) {
    parser_.Advance();
    const SourceLoc type_loc = tok().loc;
    Type t;
    if (!parser_.ParseType(&t)) return;
    if (!t.IsInteger())
      return (void)parser_.Error(type_loc, std::string(op.text) + " gives an integer");
    v.type = t;
  }
  Instr in;
  in.loc = op.loc;
  const bool is_num = op.text == "pto.get_block_num" || op.text == "pto.get_subblock_num";
  const bool sub = op.text.find("subblock") != std::string_view::npos;
  v.reg = in.a = parser_.NewIntReg();
  if (sub) {
    // The vector core's index and count: 0 of 1 without pipes (a block is
    // one core), else as execute_pipes.cc runs the block's vector cores.
    in.code = Code::kSubblock;
    in.sub = is_num ? 1 : 0;
  } else {
    in.code = is_num ? Code::kBlockNum : Code::kBlockIdx;
  }
  p_->code.push_back(in);
  parser_.Define(result, v);
}

// %a = pto.declare_local_array -> !pto.local_array<D1x...xT>
// %a = pto.declare_eventid_array -> !pto.eventid_array<N> (N index values)
// The array's elements are registers of the block, integer ones for an
// integer T, float ones for a float T, zeroed where it is declared.
void ScalarReader::ParseDeclareLocalArray(const Token& op, const std::vector<Token>& results) {
  if (!parser_.ExpectArrow()) return;
  const SourceLoc type_loc = tok().loc;
  Type t;
  if (!parser_.ParseType(&t)) return;
  const bool eventids = op.text == "pto.declare_eventid_array";
  if (t.kind != TypeKind::kLocalArray || t.eventids != eventids)
    return (void)parser_.Error(type_loc, std::string(op.text) + " gives a " +
                                             (eventids ? "!pto.eventid_array" : "!pto.local_array") +
                                             ", not " + TypeString(t));
  int64_t count = 1;
  for (int i = 0; i < t.rank; ++i) count *= t.dims[i];
  // Every array is registers of every block: a text cannot ask for more
  // than a few of the largest.
  if (uint64_t{p_->int_regs} + p_->float_regs + static_cast<uint64_t>(count) >
      4 * static_cast<uint64_t>(kMostLocalArrayElements))
    return (void)parser_.Error(op.loc, "the program's registers and local arrays would pass " +
                                           std::to_string(4 * kMostLocalArrayElements) +
                                           " elements");
  const bool is_float = IsFloatDtype(t.dtype);
  Instr in;
  in.code = Code::kArrayClear;
  in.loc = op.loc;
  in.sub = is_float;
  in.imm = count;
  if (is_float) {
    in.a = p_->float_regs;
    p_->float_regs += static_cast<uint32_t>(count);
    p_->uses_float = true;
  } else {
    in.a = p_->int_regs;
    p_->int_regs += static_cast<uint32_t>(count);
  }
  p_->code.push_back(in);
  Value v;
  v.type = t;
  v.reg = in.a;
  parser_.Define(results[0], v);
}

// %v = pto.local_array_get %a[%i, ...] : !pto.local_array<...xT> -> T
// pto.local_array_set %a[%i, ...], %v : !pto.local_array<...xT>, T
// %e = pto.eventid_array_get %a[%i] : !pto.eventid_array<N>   (index)
// pto.eventid_array_set %a[%i], %e : !pto.eventid_array<N>
// One index per dimension, checked against it when the instruction runs.
void ScalarReader::ParseLocalArrayAccess(const Token& op, const std::vector<Token>& results) {
  const bool get = op.text == "pto.local_array_get" || op.text == "pto.eventid_array_get";
  const bool eventids = op.text.substr(0, 18) == "pto.eventid_array_";
  if (results.size() != (get ? 1u : 0u))
    return (void)parser_.Error(op.loc, std::string(op.text) + " defines " +
                                           (get ? "1 result" : "no result") + ", not " +
                                           std::to_string(results.size()));
  Token array_name, value_name;
  Value array, value;
  if (!parser_.ExpectValueName(&array_name) || !parser_.UseValue(array_name, &array) ||
      !parser_.Expect('['))
    return;
  std::vector<Token> index_names;
  parser_.ParseValueNames(&index_names);
  if (!parser_.Expect(']')) return;
  if (!get && (!parser_.Expect(',') || !parser_.ExpectValueName(&value_name) ||
               !parser_.UseValue(value_name, &value)))
    return;
  if (!parser_.Expect(':')) return;
  const SourceLoc type_loc = tok().loc;
  Type array_type, elem;
  if (!parser_.ParseType(&array_type)) return;
  SourceLoc elem_loc = type_loc;
  if (eventids) {
    elem.kind = TypeKind::kIndex;
    elem.bits = 64;
  } else {
    if (get ? !parser_.ExpectArrow() : !parser_.Expect(',')) return;
    elem_loc = tok().loc;
    if (!parser_.ParseType(&elem)) return;
  }
  if (array.type.kind != TypeKind::kLocalArray || array.type.eventids != eventids ||
      !SameType(array.type, array_type))
    return (void)parser_.Error(type_loc, "%" + std::string(array_name.text) + " is " +
                                             TypeString(array.type) + ", written as " +
                                             TypeString(array_type) +
                                             (eventids ? " (a !pto.eventid_array)"
                                                       : " (a !pto.local_array)"));
  if (index_names.size() != array.type.rank)
    return (void)parser_.Error(
        array_name.loc, std::string(op.text) + " takes " + std::to_string(array.type.rank) +
                            " index(es), one per dimension of %" + std::string(array_name.text) +
                            ", not " + std::to_string(index_names.size()));
  if (!eventids && !IsElementTypeOf(elem, array.type.dtype))
    return (void)parser_.Error(elem_loc,
                               std::string(op.text) + ": " + TypeString(elem) +
                                   " is not the element type of " + TypeString(array.type),
                               PTO_ERR_DTYPE_MISMATCH);
  if (!get && !SameType(value.type, elem))
    return (void)parser_.Error(value_name.loc, "%" + std::string(value_name.text) + " is " +
                                                   TypeString(value.type) + ", written as " +
                                                   TypeString(elem));
  EmitArrayAccess(op.loc, get, array, index_names, value, elem, results);
}

// The access itself: kArrayGet or kArraySet of array's element at the
// indices (the indices' registers, then the dims, in the program's lists).
void ScalarReader::EmitArrayAccess(const SourceLoc& loc, bool get, const Value& array,
                                   const std::vector<Token>& index_names, const Value& value,
                                   const Type& elem, const std::vector<Token>& results) {
  Instr in;
  in.code = get ? Code::kArrayGet : Code::kArraySet;
  in.loc = loc;
  in.sub = IsFloatDtype(array.type.dtype);
  in.b = array.reg;
  in.rank = array.type.rank;
  in.c = array.type.eventids;  // the messages' op name
  in.extra = static_cast<uint32_t>(p_->lists.size());
  for (const Token& name : index_names) {
    Value index;
    if (!parser_.UseInt(name, &index, "index")) return;
    p_->lists.push_back(index.reg);
  }
  for (int i = 0; i < array.type.rank; ++i)
    p_->lists.push_back(static_cast<uint32_t>(array.type.dims[i]));
  if (!get) {
    in.a = value.reg;
    p_->code.push_back(in);
  } else if (in.sub != 0) {
    EmitFloatResult(in, elem, results[0]);
  } else {
    EmitIntResult(in, elem, results[0]);
  }
}

// %r = builtin.unrealized_conversion_cast %v : A to B
// MLIR's cast between types of one value: here an integer to an integer of
// the same width (PTOAS's i32 to ui32: registers are signless), the value
// itself under the new type.
void ScalarReader::ParseUnrealizedCast(const Token& result) {
  Token name;
  Value x;
  if (!parser_.ExpectValueName(&name) || !parser_.UseValue(name, &x) || !parser_.Expect(':'))
    return;
  const SourceLoc from_loc = tok().loc;
  Type from, to;
  if (!parser_.ParseType(&from) || !parser_.ExpectIdent("to")) return;
  const SourceLoc to_loc = tok().loc;
  if (!parser_.ParseType(&to)) return;
  if (!SameType(from, x.type))
    return (void)parser_.Error(from_loc, "%" + std::string(name.text) + " is " +
                                             TypeString(x.type) + ", written as " +
                                             TypeString(from));
  if (!from.IsInteger() || !to.IsInteger() || from.bits != to.bits)
    return (void)parser_.Error(to_loc,
                               "builtin.unrealized_conversion_cast is supported between integer "
                               "types of one width, not " +
                                   TypeString(from) + " to " + TypeString(to));
  Value v = x;
  v.type = to;
  parser_.Define(result, v);
}

}  // namespace program
}  // namespace pto
