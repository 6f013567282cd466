// PTO assembly: constants, integer arithmetic (arith.*), scf.for and scf.if,
// and the block queries.
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <string>
#include <vector>

#include "program/compiler.h"

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
void Compiler::ParseConstantValue(const Token& result) {
  const Token lit = tok_;
  Advance();
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
      return (void)Error(lit.loc, "integer " + s + " does not fit 64 bits");
    ivalue = negative ? static_cast<int64_t>(0 - magnitude) : static_cast<int64_t>(magnitude);
    fvalue = static_cast<double>(ivalue);
  } else if (lit.kind == Tok::kFloat || lit.IsIdent("inf") || lit.IsIdent("nan")) {
    is_int = false;
    fvalue = strtod(std::string(lit.text).c_str(), nullptr);
  } else {
    return (void)Error(lit.loc, "expected a number, found " + Describe(lit));
  }
  Type t;
  if (!Expect(':')) return;
  const SourceLoc type_loc = tok_.loc;
  if (!ParseType(&t)) return;
  Value v;
  v.type = t;
  Instr in;
  in.loc = lit.loc;
  if (t.IsInteger()) {
    if (!is_int) return (void)Error(lit.loc, "a float literal for an integer type");
    if (WrapTo(ivalue, t.bits) != ivalue && !(t.bits == 1 && (ivalue == 0 || ivalue == 1)))
      return (void)Error(lit.loc, std::to_string(ivalue) + " does not fit " + TypeString(t));
    if (t.bits == 1) ivalue &= 1;
    v.reg = NewIntReg();
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
    return (void)Error(type_loc, "a constant of type " + TypeString(t) + " is not supported");
  }
  p_->code.push_back(in);
  Define(result, v);
}

void Compiler::ParseArith(const Token& op, const Token& result) {
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
  if (ParseFloatArith(op, result) || !ok()) return;
  for (const auto& b : kBinary) {
    if (op.text != b.name) continue;
    Value x, y;
    if (!ParseIntOperand(&x, "operand") || !Expect(',') || !ParseIntOperand(&y, "operand") ||
        !Expect(':'))
      return;
    const SourceLoc type_loc = tok_.loc;
    Type t;
    if (!ParseType(&t)) return;
    if (!t.IsInteger() || !SameType(t, x.type) || !SameType(t, y.type))
      return (void)Error(type_loc, std::string(b.name) + " operands are " + TypeString(x.type) +
                                       " and " + TypeString(y.type) + ", written as " +
                                       TypeString(t));
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
    if (!ParseIntOperand(&x, "operand") || !Expect(':')) return;
    Type from, to;
    const SourceLoc from_loc = tok_.loc;
    if (!ParseType(&from) || !ExpectIdent("to")) return;
    const SourceLoc to_loc = tok_.loc;
    if (!ParseType(&to)) return;
    if (!SameType(from, x.type))
      return (void)Error(from_loc,
                         "operand is " + TypeString(x.type) + ", written as " + TypeString(from));
    if (!to.IsInteger())
      return (void)Error(to_loc, "cast to " + TypeString(to) + " is not supported");
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
    if (tok_.kind != Tok::kIdent)
      return (void)Error(tok_.loc, "expected a predicate (eq, ne, slt, ...)");
    int predicate = -1;
    for (int i = 0; i < 10; ++i)
      if (tok_.text == kPredicates[i]) predicate = i;
    if (predicate < 0)
      return (void)Error(tok_.loc, "unknown predicate '" + std::string(tok_.text) + "'");
    Advance();
    Value x, y;
    if (!Expect(',') || !ParseIntOperand(&x, "operand") || !Expect(',') ||
        !ParseIntOperand(&y, "operand") || !Expect(':'))
      return;
    const SourceLoc type_loc = tok_.loc;
    Type t;
    if (!ParseType(&t)) return;
    if (!SameType(t, x.type) || !SameType(t, y.type))
      return (void)Error(type_loc, "arith.cmpi operands are " + TypeString(x.type) + " and " +
                                       TypeString(y.type) + ", written as " + TypeString(t));
    in.code = Code::kIntCompare;
    in.sub = static_cast<uint8_t>(predicate);
    in.bits = t.bits;
    in.b = x.reg;
    in.c = y.reg;
    Type i1;
    ParseScalarType("i1", &i1);
    return EmitIntResult(in, i1, result);
  }
  Error(op.loc, "operation '" + std::string(op.text) + "' is not supported");
}

// Emits `in` with a new integer register as its result (a), defined as
// result of the given type.
void Compiler::EmitIntResult(Instr in, const Type& type, const Token& result) {
  Value v;
  v.type = type;
  v.reg = in.a = NewIntReg();
  p_->code.push_back(in);
  Define(result, v);
}

// arith on floats (addf ... cmpf, negf), select, and the conversions between
// integers and floats. False (and no error) when op is none of them.
bool Compiler::ParseFloatArith(const Token& op, const Token& result) {
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
    if (!ExpectValueName(&c) || !UseInt(c, &cond, "condition") || !Expect(',') ||
        !ExpectValueName(&x) || !UseValue(x, &a) || !Expect(',') || !ExpectValueName(&y) ||
        !UseValue(y, &b) || !Expect(':'))
      return true;
    const SourceLoc type_loc = tok_.loc;
    Type t;
    if (!ParseType(&t)) return true;
    if (cond.type.kind != TypeKind::kInt || cond.type.bits != 1)
      return !Error(c.loc, "arith.select needs an i1 condition, not " + TypeString(cond.type));
    if (!SameType(a.type, t) || !SameType(b.type, t) ||
        !(t.IsInteger() || t.kind == TypeKind::kFloat))
      return !Error(type_loc, "arith.select chooses between two integers or two floats of type " +
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
    for (int i = 0; i < 16 && tok_.kind == Tok::kIdent; ++i)
      if (tok_.text == kPredicates[i]) predicate = i;
    if (predicate < 0)
      return !Error(tok_.loc, "expected a predicate of arith.cmpf (oeq, olt, une, ...), found " +
                                  Describe(tok_));
    Advance();
    if (!Expect(',')) return true;
  }
  Token xn, yn;
  Value x, y;
  if (!ExpectValueName(&xn) || !UseValue(xn, &x)) return true;
  if (!negf && (!Expect(',') || !ExpectValueName(&yn) || !UseValue(yn, &y))) return true;
  if (tok_.Is('{')) {
    std::vector<AttrEntry> ignored;  // fastmath flags: results are IEEE either way
    if (!ParseAttrDict(&ignored)) return true;
  }
  if (!Expect(':')) return true;
  const SourceLoc type_loc = tok_.loc;
  Type t;
  if (!ParseType(&t)) return true;
  if (t.kind != TypeKind::kFloat || !SameType(t, x.type) || (!negf && !SameType(t, y.type)))
    return !Error(type_loc, std::string(op.text) + " operands are " + TypeString(x.type) +
                                (negf ? "" : " and " + TypeString(y.type)) + ", written as " +
                                TypeString(t));
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
bool Compiler::ParseConversion(const Token& op, const Token& result) {
  const std::string_view n = op.text;
  const bool to_float = n == "arith.sitofp" || n == "arith.uitofp";
  const bool to_int = n == "arith.fptosi" || n == "arith.fptoui";
  const bool float_cast = n == "arith.extf" || n == "arith.truncf";
  if (!to_float && !to_int && !float_cast) return false;
  Token xn;
  Value x;
  if (!ExpectValueName(&xn) || !UseValue(xn, &x) || !Expect(':')) return true;
  const SourceLoc from_loc = tok_.loc;
  Type from, to;
  if (!ParseType(&from) || !ExpectIdent("to")) return true;
  const SourceLoc to_loc = tok_.loc;
  if (!ParseType(&to)) return true;
  if (!SameType(from, x.type))
    return !Error(from_loc, "operand is " + TypeString(x.type) + ", written as " +
                                TypeString(from));
  const bool from_ok = to_float ? from.IsInteger() : from.kind == TypeKind::kFloat;
  const bool to_ok = to_int ? to.IsInteger() : to.kind == TypeKind::kFloat;
  if (!from_ok || !to_ok)
    return !Error(to_loc, std::string(n) + " from " + TypeString(from) + " to " +
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
void Compiler::EmitFloatResult(Instr in, const Type& type, const Token& result) {
  in.fmt = type.bits == 64                  ? FloatFormat::kF64
           : type.dtype == PTO_FLOAT16      ? FloatFormat::kF16
           : type.dtype == PTO_BFLOAT16     ? FloatFormat::kBF16
                                            : FloatFormat::kF32;
  Value v;
  v.type = type;
  v.reg = in.a = p_->float_regs++;
  p_->code.push_back(in);
  p_->uses_float = true;
  Define(result, v);
}

bool Compiler::UseValue(const Token& name, Value* out) {
  const Value* v = Lookup(name.text);
  if (v == nullptr) return Error(name.loc, "%" + std::string(name.text) + " is not defined");
  *out = *v;
  return true;
}

// `T, U, ...` (up to a ')' or '{'), or one type.
bool Compiler::ParseTypeList(std::vector<Type>* out, std::vector<SourceLoc>* locs) {
  for (;;) {
    if (locs != nullptr) locs->push_back(tok_.loc);
    Type t;
    if (!ParseType(&t)) return false;
    out->push_back(t);
    if (!tok_.Is(',')) return true;
    Advance();
  }
}

// Parses `{ operations [terminator] }` as a nested region; its scf.yield or
// scf.condition in yield_.
void Compiler::ParseRegion() {
  if (!Expect('{')) return;
  OpenScope();
  yield_ = Yield();
  while (ok() && !tok_.Is('}')) {
    if (tok_.kind == Tok::kEnd) {
      Error(tok_.loc, "expected '}' before the end of the text");
      break;
    }
    if (yield_.seen) {
      Error(tok_.loc, "operation after the region's terminator");
      break;
    }
    if (tok_.IsIdent("return") || tok_.IsIdent("func.return")) {
      Error(tok_.loc, "return inside a region is not supported");
      break;
    }
    ParseOperation();
  }
  CloseScope();
  Expect('}');
}

// scf.yield [%a, ... : T, ...]   and   scf.condition(%c) [%a, ... : T, ...]
void Compiler::ParseYield(const Token& op) {
  Yield y;
  y.seen = true;
  y.loc = op.loc;
  if (op.text == "scf.condition") {
    y.is_condition = true;
    Token c;
    if (!Expect('(') || !ExpectValueName(&c) || !UseInt(c, &y.condition, "condition") ||
        !Expect(')'))
      return;
    if (y.condition.type.kind != TypeKind::kInt || y.condition.type.bits != 1)
      return (void)Error(c.loc, "scf.condition needs an i1, not " +
                                    TypeString(y.condition.type));
  }
  std::vector<Token> names;
  ParseValueNames(&names);
  if (!names.empty()) {
    std::vector<Type> types;
    std::vector<SourceLoc> locs;
    if (!Expect(':') || !ParseTypeList(&types, &locs)) return;
    if (types.size() != names.size())
      return (void)Error(op.loc, std::string(op.text) + " has " + std::to_string(names.size()) +
                                     " values and " + std::to_string(types.size()) + " types");
    for (size_t i = 0; i < names.size(); ++i) {
      Value v;
      if (!UseValue(names[i], &v)) return;
      if (!SameType(v.type, types[i]))
        return (void)Error(locs[i], "%" + std::string(names[i].text) + " is " +
                                        TypeString(v.type) + ", written as " +
                                        TypeString(types[i]));
      y.values.push_back(v);
    }
  }
  yield_ = y;
}

// The region just read ended with the terminator `what` carrying `want`.
bool Compiler::CheckYield(SourceLoc loc, const char* what, const std::vector<Type>& want) {
  const bool condition = std::string_view(what) == "scf.condition";
  if (!yield_.seen && want.empty() && !condition) return true;
  if (!yield_.seen || yield_.is_condition != condition)
    return Error(loc, std::string("the region must end with ") + what);
  if (yield_.values.size() != want.size())
    return Error(yield_.loc, std::string(what) + " gives " +
                                 std::to_string(yield_.values.size()) + " values, not " +
                                 std::to_string(want.size()));
  for (size_t i = 0; i < want.size(); ++i) {
    if (!SameType(yield_.values[i].type, want[i]))
      return Error(yield_.loc, std::string(what) + " value " + std::to_string(i) + " is " +
                                   TypeString(yield_.values[i].type) + ", not " +
                                   TypeString(want[i]));
  }
  return true;
}

Value Compiler::CarryHome(const Value& like) {
  Value home;
  home.type = like.type;
  if (like.type.IsInteger()) home.reg = NewIntReg();
  else if (like.type.kind == TypeKind::kFloat) home.reg = p_->float_regs++;
  else home.reg = like.reg;  // a tile carries its slot; a view its register
  return home;
}

void Compiler::EmitCopy(const Value& from, const Value& to, SourceLoc loc) {
  if (from.reg == to.reg) return;
  Instr in;
  in.loc = loc;
  in.a = to.reg;
  in.b = from.reg;
  if (from.type.IsInteger()) {
    in.code = Code::kIntCast;  // 64 bits: a move
  } else if (from.type.kind == TypeKind::kFloat) {
    in.code = Code::kFloatCast;  // kF64: a move
  } else if (from.type.kind == TypeKind::kTile) {
    in.code = Code::kTileCopy;
  } else {
    Error(loc, "a carried " + TypeString(from.type) + " must be the same value in every turn");
    return;
  }
  p_->code.push_back(in);
}

// Copies values into their homes as one parallel assignment (a value may be
// another's home: scalars go through temporaries).
void Compiler::EmitCarry(const std::vector<Value>& from, const std::vector<Value>& to,
                         SourceLoc loc) {
  std::vector<Value> staged = from;
  if (from.size() > 1) {
    for (size_t i = 0; i < from.size(); ++i) {
      if (from[i].type.kind == TypeKind::kTile || from[i].reg == to[i].reg) continue;
      staged[i] = CarryHome(from[i]);
      EmitCopy(from[i], staged[i], loc);
    }
  }
  for (size_t i = 0; i < from.size() && ok(); ++i) EmitCopy(staged[i], to[i], loc);
}

// `(%a = %x, %b = %y)` of iter_args and scf.while.
bool Compiler::ParseIterArgs(std::vector<Token>* names, std::vector<Value>* inits) {
  if (!Expect('(')) return false;
  while (ok() && tok_.kind == Tok::kValue) {
    Token name, init;
    Value v;
    if (!ExpectValueName(&name) || !Expect('=') || !ExpectValueName(&init) ||
        !UseValue(init, &v))
      return false;
    names->push_back(name);
    inits->push_back(v);
    if (!tok_.Is(',')) break;
    Advance();
  }
  return Expect(')');
}

bool Compiler::DefineResults(const Token& op, const std::vector<Token>& results,
                             const std::vector<Value>& values) {
  if (results.size() != values.size())
    return Error(op.loc, std::string(op.text) + " gives " + std::to_string(values.size()) +
                             " results, not " + std::to_string(results.size()));
  for (size_t i = 0; i < results.size(); ++i)
    if (!Define(results[i], values[i])) return false;
  return true;
}

// scf.for %i = %lb to %ub step %s [: T] [iter_args(%a = %x, ...) -> (T, ...)] { ... }
void Compiler::ParseFor(const Token& op, const std::vector<Token>& results) {
  Token iv;
  if (!ExpectValueName(&iv) || !Expect('=')) return;
  Value lb, ub, step;
  if (!ParseIntOperand(&lb, "lower bound") || !ExpectIdent("to") ||
      !ParseIntOperand(&ub, "upper bound") || !ExpectIdent("step") ||
      !ParseIntOperand(&step, "step"))
    return;
  std::vector<Token> names;
  std::vector<Value> inits;
  std::vector<Type> types;
  for (int part = 0; part < 2 && ok(); ++part) {
    if (tok_.IsIdent("iter_args")) {
      Advance();
      if (!ParseIterArgs(&names, &inits) || !ExpectArrow()) return;
      const bool list = tok_.Is('(');
      if (list) Advance();
      if (!ParseTypeList(&types, nullptr) || (list && !Expect(')'))) return;
      if (types.size() != inits.size())
        return (void)Error(op.loc, "scf.for has " + std::to_string(inits.size()) +
                                       " iter_args and " + std::to_string(types.size()) +
                                       " result types");
      for (size_t i = 0; i < inits.size(); ++i)
        if (!SameType(types[i], inits[i].type))
          return (void)Error(names[i].loc, "iter_arg %" + std::string(names[i].text) +
                                               " starts as " + TypeString(inits[i].type) +
                                               ", but the loop gives " + TypeString(types[i]));
    } else if (tok_.Is(':')) {
      Advance();
      Type t;
      if (!ParseType(&t)) return;
      if (!SameType(t, lb.type))
        return (void)Error(
            op.loc, "loop bounds are " + TypeString(lb.type) + ", written as " + TypeString(t));
    }
  }
  if (!SameType(lb.type, ub.type) || !SameType(lb.type, step.type))
    return (void)Error(op.loc, "scf.for bounds and step must have one type (" +
                                   TypeString(lb.type) + ", " + TypeString(ub.type) + ", " +
                                   TypeString(step.type) + ")");
  std::vector<Value> homes;
  for (const Value& init : inits) homes.push_back(CarryHome(init));
  EmitCarry(inits, homes, op.loc);
  Value ivv;
  ivv.type = lb.type;
  ivv.reg = NewIntReg();
  Instr init;
  init.code = Code::kIntCast;
  init.bits = 64;
  init.a = ivv.reg;
  init.b = lb.reg;
  init.loc = op.loc;
  p_->code.push_back(init);
  const uint32_t check_at = static_cast<uint32_t>(p_->code.size());
  Instr check;
  check.code = Code::kForCheck;
  check.a = ivv.reg;
  check.b = ub.reg;
  check.c = step.reg;
  check.loc = op.loc;
  p_->code.push_back(check);
  const Yield outer = yield_;
  OpenScope();
  if (!Define(iv, ivv)) return;
  for (size_t i = 0; i < names.size(); ++i)
    if (!Define(names[i], homes[i])) return;
  ParseRegion();
  CloseScope();
  if (!ok() || !CheckYield(op.loc, "scf.yield", types)) return;
  EmitCarry(yield_.values, homes, yield_.loc);
  yield_ = outer;
  Instr next;
  next.code = Code::kForStep;
  next.a = ivv.reg;
  next.b = step.reg;
  next.bits = lb.type.bits;
  next.target = check_at;
  next.loc = op.loc;
  p_->loops.emplace_back(check_at, static_cast<uint32_t>(p_->code.size()));
  p_->code.push_back(next);
  p_->code[check_at].target = static_cast<uint32_t>(p_->code.size());
  DefineResults(op, results, homes);
}

// scf.if %c [-> (T, ...)] { ... [scf.yield ...] } [else { ... }]
void Compiler::ParseIf(const Token& op, const std::vector<Token>& results) {
  Value cond;
  if (!ParseIntOperand(&cond, "condition")) return;
  if (cond.type.kind != TypeKind::kInt || cond.type.bits != 1)
    return (void)Error(op.loc, "scf.if needs an i1 condition, not " + TypeString(cond.type));
  std::vector<Type> types;
  if (tok_.kind == Tok::kArrow) {
    Advance();
    const bool list = tok_.Is('(');
    if (list) Advance();
    if (!ParseTypeList(&types, nullptr) || (list && !Expect(')'))) return;
  }
  const uint32_t branch_at = static_cast<uint32_t>(p_->code.size());
  Instr branch;
  branch.code = Code::kJumpIfZero;
  branch.a = cond.reg;
  branch.loc = op.loc;
  p_->code.push_back(branch);
  const Yield outer = yield_;
  ParseRegion();
  if (!ok() || !CheckYield(op.loc, "scf.yield", types)) return;
  // Scalars get new registers; a tile result is the yielded tile where both
  // branches yield the same one, else a new tile both copy into (the then
  // branch's copy is patched in once the else branch is read).
  const std::vector<Value> then_values = yield_.values;
  std::vector<Value> homes;
  std::vector<uint32_t> then_copy(types.size(), 0);
  for (size_t i = 0; i < types.size(); ++i) {
    homes.push_back(CarryHome(then_values[i]));
    if (types[i].kind == TypeKind::kTile) {
      then_copy[i] = static_cast<uint32_t>(p_->code.size());
      Instr nop;
      nop.code = Code::kNop;
      nop.loc = yield_.loc;
      p_->code.push_back(nop);
    }
  }
  std::vector<Value> scalar_from, scalar_to;
  for (size_t i = 0; i < types.size(); ++i) {
    if (types[i].kind == TypeKind::kTile) continue;
    scalar_from.push_back(then_values[i]);
    scalar_to.push_back(homes[i]);
  }
  EmitCarry(scalar_from, scalar_to, yield_.loc);
  if (tok_.IsIdent("else")) {
    Advance();
    const uint32_t jump_at = static_cast<uint32_t>(p_->code.size());
    Instr jump;
    jump.code = Code::kJump;
    jump.loc = op.loc;
    p_->code.push_back(jump);
    p_->code[branch_at].target = static_cast<uint32_t>(p_->code.size());
    ParseRegion();
    if (!ok() || !CheckYield(op.loc, "scf.yield", types)) return;
    for (size_t i = 0; i < types.size(); ++i) {
      const Value& other = yield_.values[i];
      if (types[i].kind == TypeKind::kTile && other.reg != homes[i].reg) {
        homes[i].reg = NewTileSlot(types[i], op.loc, std::string(results.size() > i
                                                                     ? results[i].text
                                                                     : std::string_view()));
        p_->tiles[homes[i].reg].used = true;
        Instr& copy = p_->code[then_copy[i]];
        copy.code = Code::kTileCopy;
        copy.a = homes[i].reg;
        copy.b = then_values[i].reg;
      }
    }
    EmitCarry(yield_.values, homes, yield_.loc);
    p_->code[jump_at].target = static_cast<uint32_t>(p_->code.size());
  } else {
    if (!types.empty())
      return (void)Error(op.loc, "scf.if with results needs an else region");
    p_->code[branch_at].target = static_cast<uint32_t>(p_->code.size());
  }
  yield_ = outer;
  DefineResults(op, results, homes);
}

// scf.while (%a = %x, ...) : (T, ...) -> (U, ...) { ... scf.condition(%c) %v, ... : U, ... }
//   do { ^bb0(%b: U, ...): ... scf.yield %w, ... : T, ... }
void Compiler::ParseWhile(const Token& op, const std::vector<Token>& results) {
  std::vector<Token> names;
  std::vector<Value> inits;
  std::vector<Type> before_types, after_types;
  if (!ParseIterArgs(&names, &inits) || !Expect(':') || !Expect('(')) return;
  if (!tok_.Is(')') && !ParseTypeList(&before_types, nullptr)) return;
  if (!Expect(')') || !ExpectArrow()) return;
  const bool list = tok_.Is('(');
  if (list) Advance();
  if (!(list && tok_.Is(')')) && !ParseTypeList(&after_types, nullptr)) return;
  if (list && !Expect(')')) return;
  if (before_types.size() != inits.size())
    return (void)Error(op.loc, "scf.while has " + std::to_string(inits.size()) +
                                   " operands and " + std::to_string(before_types.size()) +
                                   " types");
  for (size_t i = 0; i < inits.size(); ++i)
    if (!SameType(before_types[i], inits[i].type))
      return (void)Error(names[i].loc, "%" + std::string(names[i].text) + " starts as " +
                                           TypeString(inits[i].type) + ", written as " +
                                           TypeString(before_types[i]));
  std::vector<Value> before;
  for (const Value& init : inits) before.push_back(CarryHome(init));
  EmitCarry(inits, before, op.loc);
  const uint32_t top = static_cast<uint32_t>(p_->code.size());
  const Yield outer = yield_;
  OpenScope();
  for (size_t i = 0; i < names.size(); ++i)
    if (!Define(names[i], before[i])) return;
  ParseRegion();
  CloseScope();
  if (!ok() || !CheckYield(op.loc, "scf.condition", after_types)) return;
  std::vector<Value> after;
  for (const Value& v : yield_.values) after.push_back(CarryHome(v));
  EmitCarry(yield_.values, after, yield_.loc);
  const uint32_t exit_at = static_cast<uint32_t>(p_->code.size());
  Instr exit;
  exit.code = Code::kJumpIfZero;
  exit.a = yield_.condition.reg;
  exit.loc = yield_.loc;
  p_->code.push_back(exit);
  if (!ExpectIdent("do") || !Expect('{')) return;
  // The do region's arguments: ^bb0(%b: U, ...):
  std::vector<Token> args;
  if (tok_.kind == Tok::kLabel) {
    Advance();
    if (tok_.Is('(')) {
      Advance();
      while (ok() && tok_.kind == Tok::kValue) {
        Token name;
        Type t;
        if (!ExpectValueName(&name) || !Expect(':')) return;
        const SourceLoc type_loc = tok_.loc;
        if (!ParseType(&t)) return;
        if (args.size() >= after.size() || !SameType(t, after[args.size()].type))
          return (void)Error(type_loc, "the do region's argument %" + std::string(name.text) +
                                           " does not match scf.condition's values");
        args.push_back(name);
        if (!tok_.Is(',')) break;
        Advance();
      }
      if (!Expect(')')) return;
    }
    if (!Expect(':')) return;
  }
  if (args.size() != after.size())
    return (void)Error(tok_.loc, "the do region takes " + std::to_string(after.size()) +
                                     " arguments (^bb0(...):), not " +
                                     std::to_string(args.size()));
  // Read the do region as a region whose opening brace is already consumed.
  OpenScope();
  for (size_t i = 0; i < args.size(); ++i)
    if (!Define(args[i], after[i])) return;
  yield_ = Yield();
  while (ok() && !tok_.Is('}')) {
    if (tok_.kind == Tok::kEnd) return (void)Error(tok_.loc, "expected '}' before the end");
    if (yield_.seen) return (void)Error(tok_.loc, "operation after the region's terminator");
    ParseOperation();
  }
  CloseScope();
  if (!Expect('}') || !CheckYield(op.loc, "scf.yield", before_types)) return;
  EmitCarry(yield_.values, before, yield_.loc);
  yield_ = outer;
  Instr back;
  back.code = Code::kJump;
  back.target = top;
  back.loc = op.loc;
  p_->loops.emplace_back(top, static_cast<uint32_t>(p_->code.size()));
  p_->code.push_back(back);
  p_->code[exit_at].target = static_cast<uint32_t>(p_->code.size());
  DefineResults(op, results, after);
}

void Compiler::ParseBlockQuery(const Token& op, const Token& result) {
  Value v;
  ParseScalarType("i64", &v.type);
  if (tok_.Is(':')) {
    Advance();
    const SourceLoc type_loc = tok_.loc;
    Type t;
    if (!ParseType(&t)) return;
    if (!t.IsInteger()) return (void)Error(type_loc, std::string(op.text) + " gives an integer");
    v.type = t;
  }
  Instr in;
  in.loc = op.loc;
  const bool is_num = op.text == "pto.get_block_num" || op.text == "pto.get_subblock_num";
  const bool sub = op.text.find("subblock") != std::string_view::npos;
  v.reg = in.a = NewIntReg();
  if (sub) {
    // One vector core per block: subblock 0 of 1.
    in.code = Code::kConstInt;
    in.imm = is_num ? 1 : 0;
  } else {
    in.code = is_num ? Code::kBlockNum : Code::kBlockIdx;
  }
  p_->code.push_back(in);
  Define(result, v);
}

}  // namespace program
}  // namespace pto
