// PTO assembly: regions and structured control flow: scf.for with iter_args,
// scf.if with results, scf.while/scf.condition, scf.yield, and the copies
// that carry values between iterations.
#include <string>
#include <vector>

#include "program/parse/parser.h"
#include "program/parse/readers.h"

namespace pto {
namespace program {

// Parses `{ operations [terminator] }` as a nested region; its scf.yield or
// scf.condition in yield_.
void ScalarReader::ParseRegion() {
  if (!parser_.Expect('{')) return;
  parser_.OpenScope();
  yield_ = Yield();
  while (parser_.ok() && !tok().Is('}')) {
    if (tok().kind == Tok::kEnd) {
      parser_.Error(tok().loc, "expected '}' before the end of the text");
      break;
    }
    if (yield_.seen) {
      parser_.Error(tok().loc, "operation after the region's terminator");
      break;
    }
    if (tok().IsIdent("return") || tok().IsIdent("func.return")) {
      parser_.Error(tok().loc, "return inside a region is not supported");
      break;
    }
    parser_.ParseOperation();
  }
  parser_.CloseScope();
  parser_.Expect('}');
}

// scf.yield [%a, ... : T, ...]   and   scf.condition(%c) [%a, ... : T, ...]
void ScalarReader::ParseYield(const Token& op) {
  Yield y;
  y.seen = true;
  y.loc = op.loc;
  if (op.text == "scf.condition") {
    y.is_condition = true;
    Token c;
    if (!parser_.Expect('(') || !parser_.ExpectValueName(&c) ||
        !parser_.UseInt(c, &y.condition, "condition") || !parser_.Expect(')'))
      return;
    if (y.condition.type.kind != TypeKind::kInt || y.condition.type.bits != 1)
      return (void)parser_.Error(c.loc,
                                 "scf.condition needs an i1, not " + TypeString(y.condition.type));
  }
  std::vector<Token> names;
  parser_.ParseValueNames(&names);
  if (!names.empty()) {
    std::vector<Type> types;
    std::vector<SourceLoc> locs;
    if (!parser_.Expect(':') || !parser_.ParseTypeList(&types, &locs)) return;
    if (types.size() != names.size())
      return (void)parser_.Error(op.loc, std::string(op.text) + " has " +
                                             std::to_string(names.size()) + " values and " +
                                             std::to_string(types.size()) + " types");
    for (size_t i = 0; i < names.size(); ++i) {
      Value v;
      if (!parser_.UseValue(names[i], &v)) return;
      if (!SameType(v.type, types[i]))
        return (void)parser_.Error(locs[i], "%" + std::string(names[i].text) + " is " +
                                                TypeString(v.type) + ", written as " +
                                                TypeString(types[i]));
      y.values.push_back(v);
    }
  }
  yield_ = y;
}

// The region just read ended with the terminator `what` carrying `want`.
bool ScalarReader::CheckYield(SourceLoc loc, const char* what, const std::vector<Type>& want) {
  const bool condition = std::string_view(what) == "scf.condition";
  if (!yield_.seen && want.empty() && !condition) return true;
  if (!yield_.seen || yield_.is_condition != condition)
    return parser_.Error(loc, std::string("the region must end with ") + what);
  if (yield_.values.size() != want.size())
    return parser_.Error(yield_.loc, std::string(what) + " gives " +
                                         std::to_string(yield_.values.size()) + " values, not " +
                                         std::to_string(want.size()));
  for (size_t i = 0; i < want.size(); ++i) {
    if (!SameType(yield_.values[i].type, want[i]))
      return parser_.Error(yield_.loc, std::string(what) + " value " + std::to_string(i) + " is " +
                                           TypeString(yield_.values[i].type) + ", not " +
                                           TypeString(want[i]));
  }
  return true;
}

Value ScalarReader::CarryHome(const Value& like) {
  Value home;
  home.type = like.type;
  if (like.type.IsInteger()) home.reg = parser_.NewIntReg();
  else if (like.type.kind == TypeKind::kFloat) home.reg = p_->float_regs++;
  else home.reg = like.reg;  // a tile carries its slot; a view its register
  return home;
}

void ScalarReader::EmitCopy(const Value& from, const Value& to, SourceLoc loc) {
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
    parser_.Error(loc,
                  "a carried " + TypeString(from.type) + " must be the same value in every turn");
    return;
  }
  p_->code.push_back(in);
}

// Copies values into their homes as one parallel assignment (a value may be
// another's home: scalars go through temporaries).
void ScalarReader::EmitCarry(const std::vector<Value>& from, const std::vector<Value>& to,
                             SourceLoc loc) {
  std::vector<Value> staged = from;
  if (from.size() > 1) {
    for (size_t i = 0; i < from.size(); ++i) {
      if (from[i].type.kind == TypeKind::kTile || from[i].reg == to[i].reg) continue;
      staged[i] = CarryHome(from[i]);
      EmitCopy(from[i], staged[i], loc);
    }
  }
  for (size_t i = 0; i < from.size() && parser_.ok(); ++i) EmitCopy(staged[i], to[i], loc);
}

// `(%a = %x, %b = %y)` of iter_args and scf.while.
bool ScalarReader::ParseIterArgs(std::vector<Token>* names, std::vector<Value>* inits) {
  if (!parser_.Expect('(')) return false;
  while (parser_.ok() && tok().kind == Tok::kValue) {
    Token name, init;
    Value v;
    if (!parser_.ExpectValueName(&name) || !parser_.Expect('=') ||
        !parser_.ExpectValueName(&init) || !parser_.UseValue(init, &v))
      return false;
    names->push_back(name);
    inits->push_back(v);
    if (!tok().Is(',')) break;
    parser_.Advance();
  }
  return parser_.Expect(')');
}

bool ScalarReader::DefineResults(const Token& op, const std::vector<Token>& results,
                                 const std::vector<Value>& values) {
  if (results.size() != values.size())
    return parser_.Error(op.loc, std::string(op.text) + " gives " + std::to_string(values.size()) +
                                     " results, not " + std::to_string(results.size()));
  for (size_t i = 0; i < results.size(); ++i)
    if (!parser_.Define(results[i], values[i])) return false;
  return true;
}

// scf.for %i = %lb to %ub step %s [: T] [iter_args(%a = %x, ...) -> (T, ...)] { ... }
void ScalarReader::ParseFor(const Token& op, const std::vector<Token>& results) {
  Token iv;
  if (!parser_.ExpectValueName(&iv) || !parser_.Expect('=')) return;
  Value lb, ub, step;
  if (!parser_.ParseIntOperand(&lb, "lower bound") || !parser_.ExpectIdent("to") ||
      !parser_.ParseIntOperand(&ub, "upper bound") || !parser_.ExpectIdent("step") ||
      !parser_.ParseIntOperand(&step, "step"))
    return;
  std::vector<Token> names;
  std::vector<Value> inits;
  std::vector<Type> types;
  for (int part = 0; part < 2 && parser_.ok(); ++part) {
    if (tok().IsIdent("iter_args")) {
      parser_.Advance();
      if (!ParseIterArgs(&names, &inits) || !parser_.ExpectArrow()) return;
      const bool list = tok().Is('(');
      if (list) parser_.Advance();
      if (!parser_.ParseTypeList(&types, nullptr) || (list && !parser_.Expect(')'))) return;
      if (types.size() != inits.size())
        return (void)parser_.Error(op.loc, "scf.for has " + std::to_string(inits.size()) +
                                               " iter_args and " + std::to_string(types.size()) +
                                               " result types");
      for (size_t i = 0; i < inits.size(); ++i)
        if (!SameType(types[i], inits[i].type))
          return (void)parser_.Error(names[i].loc, "iter_arg %" + std::string(names[i].text) +
                                                       " starts as " + TypeString(inits[i].type) +
                                                       ", but the loop gives " +
                                                       TypeString(types[i]));
    } else if (tok().Is(':')) {
      parser_.Advance();
      Type t;
      if (!parser_.ParseType(&t)) return;
      if (!SameType(t, lb.type))
        return (void)parser_.Error(
            op.loc, "loop bounds are " + TypeString(lb.type) + ", written as " + TypeString(t));
    }
  }
  if (!SameType(lb.type, ub.type) || !SameType(lb.type, step.type))
    return (void)parser_.Error(op.loc, "scf.for bounds and step must have one type (" +
                                           TypeString(lb.type) + ", " + TypeString(ub.type) + ", " +
                                           TypeString(step.type) + ")");
  std::vector<Value> homes;
  for (const Value& init : inits) homes.push_back(CarryHome(init));
  EmitCarry(inits, homes, op.loc);
  Value ivv;
  ivv.type = lb.type;
  ivv.reg = parser_.NewIntReg();
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
  parser_.OpenScope();
  if (!parser_.Define(iv, ivv)) return;
  for (size_t i = 0; i < names.size(); ++i)
    if (!parser_.Define(names[i], homes[i])) return;
  ParseRegion();
  parser_.CloseScope();
  if (!parser_.ok() || !CheckYield(op.loc, "scf.yield", types)) return;
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
void ScalarReader::ParseIf(const Token& op, const std::vector<Token>& results) {
  Value cond;
  if (!parser_.ParseIntOperand(&cond, "condition")) return;
  if (cond.type.kind != TypeKind::kInt || cond.type.bits != 1)
    return (void)parser_.Error(op.loc,
                               "scf.if needs an i1 condition, not " + TypeString(cond.type));
  std::vector<Type> types;
  if (tok().kind == Tok::kArrow) {
    parser_.Advance();
    const bool list = tok().Is('(');
    if (list) parser_.Advance();
    if (!parser_.ParseTypeList(&types, nullptr) || (list && !parser_.Expect(')'))) return;
  }
  const uint32_t branch_at = static_cast<uint32_t>(p_->code.size());
  Instr branch;
  branch.code = Code::kJumpIfZero;
  branch.a = cond.reg;
  branch.loc = op.loc;
  p_->code.push_back(branch);
  const Yield outer = yield_;
  ParseRegion();
  if (!parser_.ok() || !CheckYield(op.loc, "scf.yield", types)) return;
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
  if (tok().IsIdent("else")) {
    parser_.Advance();
    const uint32_t jump_at = static_cast<uint32_t>(p_->code.size());
    Instr jump;
    jump.code = Code::kJump;
    jump.loc = op.loc;
    p_->code.push_back(jump);
    p_->code[branch_at].target = static_cast<uint32_t>(p_->code.size());
    ParseRegion();
    if (!parser_.ok() || !CheckYield(op.loc, "scf.yield", types)) return;
    for (size_t i = 0; i < types.size(); ++i) {
      const Value& other = yield_.values[i];
      if (types[i].kind == TypeKind::kTile && other.reg != homes[i].reg) {
        homes[i].reg = parser_.NewTileSlot(
            types[i], op.loc,
            std::string(results.size() > i ? results[i].text : std::string_view()));
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
      return (void)parser_.Error(op.loc, "scf.if with results needs an else region");
    p_->code[branch_at].target = static_cast<uint32_t>(p_->code.size());
  }
  yield_ = outer;
  DefineResults(op, results, homes);
}

// scf.while (%a = %x, ...) : (T, ...) -> (U, ...) { ... scf.condition(%c) %v, ... : U, ... }
//   do { ^bb0(%b: U, ...): ... scf.yield %w, ... : T, ... }
void ScalarReader::ParseWhile(const Token& op, const std::vector<Token>& results) {
  std::vector<Token> names;
  std::vector<Value> inits;
  std::vector<Type> before_types, after_types;
  if (!ParseIterArgs(&names, &inits) || !parser_.Expect(':') || !parser_.Expect('(')) return;
  if (!tok().Is(')') && !parser_.ParseTypeList(&before_types, nullptr)) return;
  if (!parser_.Expect(')') || !parser_.ExpectArrow()) return;
  const bool list = tok().Is('(');
  if (list) parser_.Advance();
  if (!(list && tok().Is(')')) && !parser_.ParseTypeList(&after_types, nullptr)) return;
  if (list && !parser_.Expect(')')) return;
  if (before_types.size() != inits.size())
    return (void)parser_.Error(op.loc, "scf.while has " + std::to_string(inits.size()) +
                                           " operands and " + std::to_string(before_types.size()) +
                                           " types");
  for (size_t i = 0; i < inits.size(); ++i)
    if (!SameType(before_types[i], inits[i].type))
      return (void)parser_.Error(names[i].loc, "%" + std::string(names[i].text) + " starts as " +
                                                   TypeString(inits[i].type) + ", written as " +
                                                   TypeString(before_types[i]));
  std::vector<Value> before;
  for (const Value& init : inits) before.push_back(CarryHome(init));
  EmitCarry(inits, before, op.loc);
  const uint32_t top = static_cast<uint32_t>(p_->code.size());
  const Yield outer = yield_;
  parser_.OpenScope();
  for (size_t i = 0; i < names.size(); ++i)
    if (!parser_.Define(names[i], before[i])) return;
  ParseRegion();
  parser_.CloseScope();
  if (!parser_.ok() || !CheckYield(op.loc, "scf.condition", after_types)) return;
  std::vector<Value> after;
  for (const Value& v : yield_.values) after.push_back(CarryHome(v));
  EmitCarry(yield_.values, after, yield_.loc);
  const uint32_t exit_at = static_cast<uint32_t>(p_->code.size());
  Instr exit;
  exit.code = Code::kJumpIfZero;
  exit.a = yield_.condition.reg;
  exit.loc = yield_.loc;
  p_->code.push_back(exit);
  if (!parser_.ExpectIdent("do") || !parser_.Expect('{')) return;
  // The do region's arguments: ^bb0(%b: U, ...):
  std::vector<Token> args;
  if (tok().kind == Tok::kLabel) {
    parser_.Advance();
    if (tok().Is('(')) {
      parser_.Advance();
      while (parser_.ok() && tok().kind == Tok::kValue) {
        Token name;
        Type t;
        if (!parser_.ExpectValueName(&name) || !parser_.Expect(':')) return;
        const SourceLoc type_loc = tok().loc;
        if (!parser_.ParseType(&t)) return;
        if (args.size() >= after.size() || !SameType(t, after[args.size()].type))
          return (void)parser_.Error(type_loc, "the do region's argument %" +
                                                   std::string(name.text) +
                                                   " does not match scf.condition's values");
        args.push_back(name);
        if (!tok().Is(',')) break;
        parser_.Advance();
      }
      if (!parser_.Expect(')')) return;
    }
    if (!parser_.Expect(':')) return;
  }
  if (args.size() != after.size())
    return (void)parser_.Error(tok().loc, "the do region takes " + std::to_string(after.size()) +
                                              " arguments (^bb0(...):), not " +
                                              std::to_string(args.size()));
  // Read the do region as a region whose opening brace is already consumed.
  parser_.OpenScope();
  for (size_t i = 0; i < args.size(); ++i)
    if (!parser_.Define(args[i], after[i])) return;
  yield_ = Yield();
  while (parser_.ok() && !tok().Is('}')) {
    if (tok().kind == Tok::kEnd)
      return (void)parser_.Error(tok().loc, "expected '}' before the end");
    if (yield_.seen)
      return (void)parser_.Error(tok().loc, "operation after the region's terminator");
    parser_.ParseOperation();
  }
  parser_.CloseScope();
  if (!parser_.Expect('}') || !CheckYield(op.loc, "scf.yield", before_types)) return;
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

bool ScalarReader::ParseBareRegion(const std::string& what) {
  const Yield outer = yield_;
  ParseRegion();
  if (parser_.ok() && yield_.seen) return parser_.Error(yield_.loc, what + " has no terminator");
  yield_ = outer;
  return true;
}

Yield ScalarReader::SwapYield(Yield y) {
  std::swap(y, yield_);
  return y;
}

}  // namespace program
}  // namespace pto
