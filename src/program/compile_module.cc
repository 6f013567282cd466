// PTO assembly: the file, module and func.func structure, the snippet
// directives, and the dispatch of one operation to its parser.
#include <string>
#include <vector>

#include "program/compiler.h"

namespace pto {
namespace program {

void Compiler::ParseFile() {
  OpenScope();
  bool saw_func = false, saw_op = false;
  while (ok() && tok_.kind != Tok::kEnd) {
    if (tok_.kind == Tok::kType && Peek().Is('=')) {
      ParseAlias();
    } else if (tok_.IsIdent("module")) {
      if (saw_func || saw_op) {
        Error(tok_.loc, "a module must hold the whole program");
        break;
      }
      ParseModule();
      saw_func = true;
    } else if (tok_.IsIdent("func.func")) {
      if (saw_func || saw_op) {
        Error(tok_.loc, saw_func ? "only one func.func per program is supported"
                                 : "a func.func after operations outside it");
        break;
      }
      ParseFunc();
      saw_func = true;
    } else {
      if (saw_func) {
        Error(tok_.loc, "operation outside the func.func: " + Describe(tok_));
        break;
      }
      saw_op = true;
      if (tok_.kind == Tok::kDirective) {
        ParseDirective();
      } else {
        ParseOperation();
      }
    }
  }
  if (ok() && !saw_func && !saw_op) Error(tok_.loc, "the text holds no operation");
  if (ok() && !pending_addr_.empty()) {
    const auto& first = *pending_addr_.begin();
    Error(pending_loc_[first.first],
          "pto.tassign places %" + first.first + ", which no operation uses");
  }
}

void Compiler::ParseAlias() {
  const Token name = tok_;
  Advance();
  Expect('=');
  Type t;
  if (!ParseType(&t)) return;
  if (aliases_.count(std::string(name.text)) != 0) {
    Error(name.loc, "type alias " + std::string(name.text) + " is defined twice");
    return;
  }
  aliases_.emplace(std::string(name.text), t);
}

bool Compiler::SetTarget(const AttrEntry& e) {
  if (e.value.kind != Tok::kString)
    return Error(e.loc, "pto.target_arch takes a string (\"a3\", \"a2a3\" or \"a5\")");
  pto_profile target;
  if (e.value.text == "a3" || e.value.text == "a2a3" || e.value.text == "a2") {
    target = PTO_PROFILE_A2A3;
  } else if (e.value.text == "a5") {
    target = PTO_PROFILE_A5;
  } else {
    return Error(e.value.loc, "pto.target_arch \"" + std::string(e.value.text) +
                                  "\" is not a known target (\"a3\", \"a2a3\", \"a5\")");
  }
  if (p_->profile != PTO_PROFILE_HOST && p_->profile != target)
    return Error(e.value.loc, std::string("pto.target_arch \"") + std::string(e.value.text) +
                                  "\" differs from the profile " + pto_profile_string(p_->profile) +
                                  " the program is created under");
  p_->profile = target;
  return true;
}

void Compiler::ParseModule() {
  Advance();
  if (tok_.kind == Tok::kSymbol) Advance();
  if (tok_.IsIdent("attributes")) {
    Advance();
    std::vector<AttrEntry> attrs;
    if (!ParseAttrDict(&attrs)) return;
    for (const AttrEntry& e : attrs) {
      if (e.key == "pto.target_arch") {
        if (!SetTarget(e)) return;
      } else if (e.key == "pto.kernel_kind") {
        if (e.value.text != "#pto.kernel_kind<vector>") {
          Error(e.loc,
                "pto.kernel_kind must be #pto.kernel_kind<vector>: only vector kernels run here");
          return;
        }
      } else if (e.key == "pto.device-spec") {
        if (e.value.kind != Tok::kString || e.value.text.substr(0, 9) != "Ascend910") {
          Error(e.loc, "pto.device-spec \"" + std::string(e.value.text) +
                           "\" is not known (Ascend910* is A2A3; use pto.target_arch otherwise)");
          return;
        }
        AttrEntry as_target = e;
        as_target.value.text = "a2a3";
        if (!SetTarget(as_target)) return;
      } else {
        Error(e.loc, "unknown module attribute '" + std::string(e.key) + "'");
        return;
      }
    }
  }
  if (!Expect('{')) return;
  bool saw_func = false;
  while (ok() && !tok_.Is('}')) {
    if (tok_.kind == Tok::kType && Peek().Is('=')) {
      ParseAlias();
    } else if (tok_.IsIdent("func.func")) {
      if (saw_func) {
        Error(tok_.loc, "only one func.func per program is supported");
        return;
      }
      ParseFunc();
      saw_func = true;
    } else {
      Error(tok_.loc, "expected func.func in the module, found " + Describe(tok_));
      return;
    }
  }
  if (ok() && !saw_func) Error(tok_.loc, "the module holds no func.func");
  Expect('}');
}

void Compiler::ParseFunc() {
  p_->is_kernel = true;
  Advance();
  if (tok_.kind != Tok::kSymbol) {
    Error(tok_.loc, "expected the function's @name, found " + Describe(tok_));
    return;
  }
  Advance();
  if (!Expect('(')) return;
  while (ok() && !tok_.Is(')')) {
    Token name;
    if (!ExpectValueName(&name) || !Expect(':')) return;
    const SourceLoc type_loc = tok_.loc;
    Type t;
    if (!ParseType(&t)) return;
    if (tok_.Is('{')) {
      std::vector<AttrEntry> ignored;
      Error(tok_.loc, "argument attributes are not supported");
      return;
    }
    Value v;
    v.type = t;
    switch (t.kind) {
      case TypeKind::kPtr:
        v.reg = p_->pointer_count++;
        AddParam(name.text, PTO_PARAM_POINTER, t, v.reg);
        break;
      case TypeKind::kInt:
      case TypeKind::kIndex:
        v.reg = NewIntReg();
        AddParam(name.text, PTO_PARAM_INT, t, v.reg);
        p_->params.back().access = PTO_PARAM_READ;
        break;
      case TypeKind::kFloat:
        v.reg = p_->float_regs++;
        AddParam(name.text, PTO_PARAM_FLOAT, t, v.reg);
        p_->params.back().access = PTO_PARAM_READ;
        break;
      case TypeKind::kTile: {
        v.reg = NewTileSlot(t, name.loc, name.text);
        const uint32_t index = AddParam(name.text, PTO_PARAM_TILE, t, v.reg);
        p_->tiles[v.reg].param = static_cast<int32_t>(index);
        p_->params[index].access = PTO_PARAM_READ;
        break;
      }
      default:
        Error(type_loc, "a parameter of type " + TypeString(t) + " is not supported");
        return;
    }
    if (!Define(name, v)) return;
    if (!tok_.Is(',')) break;
    Advance();
  }
  if (!Expect(')')) return;
  if (tok_.kind == Tok::kArrow) {
    Error(tok_.loc, "a kernel returns no results");
    return;
  }
  if (tok_.IsIdent("attributes")) {
    Advance();
    std::vector<AttrEntry> attrs;
    if (!ParseAttrDict(&attrs)) return;
    for (const AttrEntry& e : attrs) {
      if (e.key == "pto.kernel" && e.value.kind == Tok::kEnd) continue;
      if (e.key == "pto.kernel_kind" && e.value.text == "#pto.kernel_kind<vector>") continue;
      if (e.key == "pto.target_arch") {
        if (!SetTarget(e)) return;
        continue;
      }
      Error(e.loc, "unknown function attribute '" + std::string(e.key) + "'");
      return;
    }
  }
  if (!Expect('{')) return;
  OpenScope();
  bool returned = false;
  while (ok() && !tok_.Is('}')) {
    if (returned) {
      Error(tok_.loc, "operation after return");
      return;
    }
    if (tok_.IsIdent("return") || tok_.IsIdent("func.return")) {
      Advance();
      if (tok_.kind == Tok::kValue && !Peek().Is('=') && !Peek().Is(',')) {
        Error(tok_.loc, "a kernel returns no results");
        return;
      }
      returned = true;
      continue;
    }
    ParseOperation();
  }
  CloseScope();
  Expect('}');
}

// .arg %a : T   and   .const %c = 0 : index
void Compiler::ParseDirective() {
  const Token d = tok_;
  Advance();
  Token name;
  if (d.text == ".arg") {
    if (!ExpectValueName(&name) || !Expect(':')) return;
    const SourceLoc type_loc = tok_.loc;
    Type t;
    if (!ParseType(&t)) return;
    if (t.kind != TypeKind::kTile) {
      Error(type_loc, ".arg declares tiles only here");
      return;
    }
    if (Lookup(name.text) != nullptr) {
      Error(name.loc, "%" + std::string(name.text) + " is defined twice");
      return;
    }
    uint32_t slot;
    if (!UseTile(name, t, type_loc, Use::kRead, &slot)) return;
    p_->tiles[slot].used = false;
  } else if (d.text == ".const") {
    if (!ExpectValueName(&name) || !Expect('=')) return;
    ParseConstantValue(name);
  } else {
    Error(d.loc, "unknown directive '" + std::string(d.text) + "' (.arg, .const)");
  }
}

void Compiler::ParseOperation() {
  std::vector<Token> results;
  if (tok_.kind == Tok::kValue) {
    for (;;) {
      results.push_back(tok_);
      Advance();
      if (!tok_.Is(',')) break;
      Advance();
      if (tok_.kind != Tok::kValue) {
        Error(tok_.loc, "expected a %name, found " + Describe(tok_));
        return;
      }
    }
    if (!Expect('=')) return;
  }
  if (!ok()) return;
  if (tok_.kind != Tok::kIdent) {
    Error(tok_.loc, "expected an operation, found " + Describe(tok_));
    return;
  }
  const Token op = tok_;
  const std::string_view name = op.text;
  Advance();
  auto want_results = [&](size_t n) {
    if (results.size() == n) return true;
    return Error(op.loc, std::string(name) + " defines " + std::to_string(n) + " result" +
                             (n == 1 ? "" : "s") + ", not " + std::to_string(results.size()));
  };
  if (name == "arith.constant") {
    if (want_results(1)) ParseConstantValue(results[0]);
  } else if (name.substr(0, 6) == "arith.") {
    if (want_results(1)) ParseArith(op, results[0]);
  } else if (name == "scf.for") {
    if (want_results(0)) ParseFor(op);
  } else if (name == "scf.if") {
    if (want_results(0)) ParseIf(op);
  } else if (name == "scf.yield") {
    if (want_results(0) && tok_.kind == Tok::kValue)
      Error(tok_.loc, "scf.yield with values is not supported");
  } else if (name == "pto.get_block_idx" || name == "pto.get_block_num" ||
             name == "pto.get_subblock_idx" || name == "pto.get_subblock_num") {
    if (want_results(1)) ParseBlockQuery(op, results[0]);
  } else if (name == "pto.make_tensor_view") {
    if (want_results(1)) ParseMakeView(op, results[0]);
  } else if (name == "pto.partition_view") {
    if (want_results(1)) ParsePartitionView(op, results[0]);
  } else if (name == "pto.tload" || name == "pto.tstore") {
    if (want_results(0)) ParseLoadStore(op, name == "pto.tload");
  } else if (name == "pto.alloc_tile") {
    if (want_results(1)) ParseAllocTile(op, results[0]);
  } else if (name == "pto.set_validshape") {
    if (want_results(0)) ParseSetValidShape(op);
  } else if (name == "pto.tassign") {
    if (results.size() <= 1) ParseTassign(op, results);
    else want_results(1);
  } else {
    const bool prefixed = name.substr(0, 4) == "pto.";
    const std::string_view mnemonic = prefixed ? name.substr(4) : name;
    const ops::OpDescriptor* desc = ops::FindOp(mnemonic.data(), mnemonic.size());
    if (desc == nullptr) {
      Error(op.loc, "operation '" + std::string(name) + "' is not supported");
      return;
    }
    if (prefixed && tok_.IsIdent("ins")) {
      if (want_results(0)) ParseDpsTileOp(op, *desc);
    } else if (results.empty()) {
      Error(op.loc, std::string(name) +
                        (prefixed ? " needs ins(...) outs(...) or a %result" : " needs a %result"));
    } else if (want_results(1)) {
      ParseSsaTileOp(op, *desc, results[0]);
    }
  }
}

}  // namespace program
}  // namespace pto
