// PTO assembly: constants, integer arithmetic (arith.*), scf.for and scf.if,
// and the block queries.
#include <errno.h>
#include <stdlib.h>

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
  } else if (lit.kind == Tok::kFloat) {
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
    v.reg = p_->float_regs++;
    in.code = Code::kConstFloat;
    in.a = v.reg;
    in.fimm = fvalue;
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
                 {"arith.remui", IntOp::kRemU}, {"arith.ceildivsi", IntOp::kCeilDivS}};
  Instr in;
  in.loc = op.loc;
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

// Parses `{ operations }` as a nested region.
void Compiler::ParseRegion() {
  if (!Expect('{')) return;
  OpenScope();
  while (ok() && !tok_.Is('}')) {
    if (tok_.kind == Tok::kEnd) {
      Error(tok_.loc, "expected '}' before the end of the text");
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

void Compiler::ParseFor(const Token& op) {
  Token iv;
  if (!ExpectValueName(&iv) || !Expect('=')) return;
  Value lb, ub, step;
  if (!ParseIntOperand(&lb, "lower bound") || !ExpectIdent("to") ||
      !ParseIntOperand(&ub, "upper bound") || !ExpectIdent("step") ||
      !ParseIntOperand(&step, "step"))
    return;
  if (tok_.IsIdent("iter_args"))
    return (void)Error(tok_.loc, "scf.for with iter_args is not supported");
  if (tok_.Is(':')) {
    Advance();
    Type t;
    if (!ParseType(&t)) return;
    if (!SameType(t, lb.type))
      return (void)Error(
          op.loc, "loop bounds are " + TypeString(lb.type) + ", written as " + TypeString(t));
  }
  if (!SameType(lb.type, ub.type) || !SameType(lb.type, step.type))
    return (void)Error(op.loc, "scf.for bounds and step must have one type (" +
                                   TypeString(lb.type) + ", " + TypeString(ub.type) + ", " +
                                   TypeString(step.type) + ")");
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
  OpenScope();
  if (!Define(iv, ivv)) return;
  ParseRegion();
  CloseScope();
  if (!ok()) return;
  Instr next;
  next.code = Code::kForStep;
  next.a = ivv.reg;
  next.b = step.reg;
  next.bits = lb.type.bits;
  next.target = check_at;
  next.loc = op.loc;
  p_->code.push_back(next);
  p_->code[check_at].target = static_cast<uint32_t>(p_->code.size());
}

void Compiler::ParseIf(const Token& op) {
  Value cond;
  if (!ParseIntOperand(&cond, "condition")) return;
  if (cond.type.kind != TypeKind::kInt || cond.type.bits != 1)
    return (void)Error(op.loc, "scf.if needs an i1 condition, not " + TypeString(cond.type));
  if (tok_.kind == Tok::kArrow)
    return (void)Error(tok_.loc, "scf.if with results is not supported");
  const uint32_t branch_at = static_cast<uint32_t>(p_->code.size());
  Instr branch;
  branch.code = Code::kJumpIfZero;
  branch.a = cond.reg;
  branch.loc = op.loc;
  p_->code.push_back(branch);
  ParseRegion();
  if (!ok()) return;
  if (tok_.IsIdent("else")) {
    Advance();
    const uint32_t jump_at = static_cast<uint32_t>(p_->code.size());
    Instr jump;
    jump.code = Code::kJump;
    jump.loc = op.loc;
    p_->code.push_back(jump);
    p_->code[branch_at].target = static_cast<uint32_t>(p_->code.size());
    ParseRegion();
    p_->code[jump_at].target = static_cast<uint32_t>(p_->code.size());
  } else {
    p_->code[branch_at].target = static_cast<uint32_t>(p_->code.size());
  }
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
