// PTO assembly: regions and structured control flow: scf.for with iter_args,
// scf.if with results, scf.while/scf.condition, scf.yield, and the copies
// that carry values between iterations.
#include <string>
#include <vector>

#include "program/parse/compiler.h"

namespace pto {
namespace program {

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

}  // namespace program
}  // namespace pto
