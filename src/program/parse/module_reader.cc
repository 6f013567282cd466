// PTO assembly: the file and module structure, the snippet directives, and
// the parse stage's entry point (Compile, parse.h).
#include <string>
#include <vector>

#include "program/parse/parse.h"
#include "program/parse/parser.h"
#include "program/parse/readers.h"

namespace pto {
namespace program {

void ModuleReader::ParseFile() {
  parser_.OpenScope();
  bool saw_module = false, saw_op = false;
  while (parser_.ok() && tok().kind != Tok::kEnd) {
    if (saw_module) {
      parser_.Error(tok().loc,
                    "a module must hold the whole program: " + Describe(tok()) + " after it");
      break;
    }
    if (tok().kind == Tok::kType && parser_.Peek().Is('=')) {
      ParseAlias();
    } else if (tok().IsIdent("module")) {
      if (!funcs_.empty() || saw_op) {
        parser_.Error(tok().loc, "a module must hold the whole program");
        break;
      }
      ParseModule();
      saw_module = true;
    } else if (tok().IsIdent("func.func")) {
      if (saw_op) {
        parser_.Error(tok().loc, "a func.func after operations outside it");
        break;
      }
      ParseFuncSignature();
    } else {
      if (!funcs_.empty()) {
        parser_.Error(tok().loc, "operation outside a func.func: " + Describe(tok()));
        break;
      }
      saw_op = true;
      if (tok().kind == Tok::kDirective) {
        ParseDirective();
      } else {
        const SourceLoc at = tok().loc;
        parser_.ParseOperation();
        if (parser_.ok() && parser_.scalar().pending_yield().seen)
          parser_.Error(at, "scf.yield or scf.condition outside a region");
      }
    }
  }
  if (parser_.ok() && funcs_.empty() && !saw_op)
    parser_.Error(tok().loc,
                  saw_module ? "the module holds no func.func" : "the text holds no operation");
  const FuncInfo* entry = nullptr;
  if (parser_.ok() && !funcs_.empty() && ChooseEntry(&entry)) CompileEntry(*entry);
  if (parser_.ok() && parser_.pipes().CheckLaterRules()) parser_.memory().CheckPendingAddresses();
}

void ModuleReader::ParseAlias() {
  const Token name = tok();
  parser_.Advance();
  parser_.Expect('=');
  Type t;
  if (!parser_.ParseType(&t)) return;
  parser_.DefineAlias(name, t);
}

bool ModuleReader::SetTarget(const AttrEntry& e) {
  if (e.value.kind != Tok::kString)
    return parser_.Error(e.loc, "pto.target_arch takes a string (\"a3\", \"a2a3\" or \"a5\")");
  pto_profile target;
  if (e.value.text == "a3" || e.value.text == "a2a3" || e.value.text == "a2") {
    target = PTO_PROFILE_A2A3;
  } else if (e.value.text == "a5") {
    target = PTO_PROFILE_A5;
  } else {
    return parser_.Error(e.value.loc, "pto.target_arch \"" + std::string(e.value.text) +
                                          "\" is not a known target (\"a3\", \"a2a3\", \"a5\")");
  }
  if (p_->profile != PTO_PROFILE_HOST && p_->profile != target)
    return parser_.Error(e.value.loc,
                         std::string("pto.target_arch \"") + std::string(e.value.text) +
                             "\" differs from the profile " + pto_profile_string(p_->profile) +
                             " the program is created under");
  p_->profile = target;
  return true;
}

void ModuleReader::ParseModule() {
  parser_.Advance();
  if (tok().kind == Tok::kSymbol) parser_.Advance();
  if (tok().IsIdent("attributes")) {
    parser_.Advance();
    std::vector<AttrEntry> attrs;
    if (!parser_.ParseAttrDict(&attrs)) return;
    for (const AttrEntry& e : attrs) {
      if (e.key == "pto.target_arch") {
        if (!SetTarget(e)) return;
      } else if (e.key == "pto.kernel_kind") {
        // A block is one core: a vector kernel runs on the vector core, a
        // cube kernel on the cube.
        if (e.value.text != "#pto.kernel_kind<vector>" && e.value.text != "#pto.kernel_kind<cube>") {
          parser_.Error(e.loc, "pto.kernel_kind must be #pto.kernel_kind<vector> or <cube>");
          return;
        }
      } else if (e.key == "libpto.vector_cores") {
        // libpto's own: the vector cores a block of a program with pipes
        // runs (a host runtime's task that dispatches one vector core).
        if (e.value.kind != Tok::kInt || (e.value.text != "1" && e.value.text != "2")) {
          parser_.Error(e.loc, "libpto.vector_cores must be 1 or 2");
          return;
        }
        p_->vector_cores_asked = e.value.text == "1" ? 1 : 2;
      } else if (e.key == "pto.device-spec") {
        // The SoC names PTOAS's tests use: Ascend910* (A2/A3), Ascend950* (A5).
        const bool a2a3 = e.value.text.substr(0, 9) == "Ascend910";
        const bool a5 = e.value.text.substr(0, 9) == "Ascend950";
        if (e.value.kind != Tok::kString || !(a2a3 || a5)) {
          parser_.Error(e.loc, "pto.device-spec \"" + std::string(e.value.text) +
                                   "\" is not known (Ascend910* is A2A3, Ascend950* A5; use "
                                   "pto.target_arch otherwise)");
          return;
        }
        AttrEntry as_target = e;
        as_target.value.text = a2a3 ? "a2a3" : "a5";
        if (!SetTarget(as_target)) return;
      } else {
        parser_.Error(e.loc, "unknown module attribute '" + std::string(e.key) + "'");
        return;
      }
    }
  }
  if (!parser_.Expect('{')) return;
  while (parser_.ok() && !tok().Is('}')) {
    if (tok().kind == Tok::kType && parser_.Peek().Is('=')) {
      ParseAlias();
    } else if (tok().IsIdent("func.func")) {
      ParseFuncSignature();
    } else {
      parser_.Error(tok().loc, "expected func.func in the module, found " + Describe(tok()));
      return;
    }
  }
  parser_.Expect('}');
}

// .arg %a : T   and   .const %c = 0 : index
void ModuleReader::ParseDirective() {
  const Token d = tok();
  parser_.Advance();
  Token name;
  if (d.text == ".arg") {
    if (!parser_.ExpectValueName(&name) || !parser_.Expect(':')) return;
    const SourceLoc type_loc = tok().loc;
    Type t;
    if (!parser_.ParseType(&t)) return;
    if (t.kind != TypeKind::kTile) {
      parser_.Error(type_loc, ".arg declares tiles only here");
      return;
    }
    if (parser_.Lookup(name.text) != nullptr) {
      parser_.Error(name.loc, "%" + std::string(name.text) + " is defined twice");
      return;
    }
    uint32_t slot;
    if (!parser_.UseTile(name, t, type_loc, Use::kRead, &slot)) return;
    p_->tiles[slot].used = false;
  } else if (d.text == ".const") {
    if (!parser_.ExpectValueName(&name) || !parser_.Expect('=')) return;
    parser_.scalar().ParseConstantValue(name);
  } else {
    parser_.Error(d.loc, "unknown directive '" + std::string(d.text) + "' (.arg, .const)");
  }
}

pto_status Compile(std::string_view text, std::string_view entry, bool check_only,
                   Program* program) {
  Parser parser(text, program, entry, check_only);
  return parser.Run();
}

}  // namespace program
}  // namespace pto
