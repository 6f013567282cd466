// The parser and type checker of PTO assembly: a recursive-descent reader of
// the subset the README's "PTO assembly" section defines, emitting Program
// instructions as it goes. Every construct outside the subset is refused with
// a sentence naming it; nothing is skipped.
#include <stdio.h>
#include <string.h>

#include <string>
#include <unordered_map>
#include <vector>

#include "error.h"
#include "program/program.h"

namespace pto {
namespace program {

pto_status Diagnose(const Program& p, SourceLoc loc, pto_status status, const std::string& message) {
  const std::string line = p.source_name + ":" + std::to_string(loc.line) + ":" + std::to_string(loc.col) +
                           ": error: " + message;
  SetLastError(line.c_str());
  return status;
}

namespace {

// An SSA value: its type and where it lives at run time.
struct Value {
  Type type;
  uint32_t reg = 0;  // int/float/view register, pointer index or tile slot
  bool is_const = false;
  int64_t const_value = 0;
};

struct AttrEntry {
  std::string_view key;
  Token value;  // kEnd for a unit attribute
  SourceLoc loc;
};

int64_t WrapTo(int64_t v, unsigned bits) {
  if (bits >= 64) return v;
  const uint64_t mask = (uint64_t{1} << bits) - 1;
  uint64_t u = static_cast<uint64_t>(v) & mask;
  if (bits > 1 && (u >> (bits - 1)) != 0) u |= ~mask;  // sign-extend
  return static_cast<int64_t>(u);
}

class Compiler {
 public:
  Compiler(std::string_view text, Program* program) : lexer_(text), p_(program) {
    Advance();
  }

  pto_status Run() {
    ParseFile();
    return status_;
  }

 private:
  // ---- tokens and errors ------------------------------------------------

  void Advance() {
    if (has_peek_) {
      tok_ = peek_;
      has_peek_ = false;
    } else {
      tok_ = lexer_.Next();
    }
    if (tok_.kind == Tok::kError && ok()) Error(tok_.loc, std::string(tok_.text));
  }
  const Token& Peek() {
    if (!has_peek_) {
      peek_ = lexer_.Next();
      has_peek_ = true;
    }
    return peek_;
  }

  bool ok() const { return status_ == PTO_OK; }

  bool Error(SourceLoc loc, const std::string& message, pto_status status = PTO_ERR_INVALID_ARGUMENT) {
    if (ok()) status_ = Diagnose(*p_, loc, status, message);
    return false;
  }

  static std::string Describe(const Token& t) {
    switch (t.kind) {
      case Tok::kEnd: return "the end of the text";
      case Tok::kValue: return "'%" + std::string(t.text) + "'";
      case Tok::kSymbol: return "'@" + std::string(t.text) + "'";
      case Tok::kString: return "\"" + std::string(t.text) + "\"";
      default: return "'" + std::string(t.text) + "'";
    }
  }

  bool Expect(char c) {
    if (!ok()) return false;
    if (!tok_.Is(c)) return Error(tok_.loc, std::string("expected '") + c + "', found " + Describe(tok_));
    Advance();
    return true;
  }
  bool ExpectIdent(std::string_view word) {
    if (!ok()) return false;
    if (!tok_.IsIdent(word))
      return Error(tok_.loc, "expected '" + std::string(word) + "', found " + Describe(tok_));
    Advance();
    return true;
  }
  bool ExpectArrow() {
    if (!ok()) return false;
    if (tok_.kind != Tok::kArrow) return Error(tok_.loc, "expected '->', found " + Describe(tok_));
    Advance();
    return true;
  }
  bool ExpectValueName(Token* out) {
    if (!ok()) return false;
    if (tok_.kind != Tok::kValue) return Error(tok_.loc, "expected a %name, found " + Describe(tok_));
    *out = tok_;
    Advance();
    return true;
  }

  // ---- types ------------------------------------------------------------

  bool ParseType(Type* out) {
    if (!ok()) return false;
    const Token t = tok_;
    if (t.kind == Tok::kIdent) {
      if (!ParseScalarType(t.text, out)) return Error(t.loc, "unknown type '" + std::string(t.text) + "'");
      Advance();
      return true;
    }
    if (t.kind != Tok::kType) return Error(t.loc, "expected a type, found " + Describe(t));
    Advance();
    if (t.text.find('<') == std::string_view::npos) {
      auto it = aliases_.find(std::string(t.text));
      if (it == aliases_.end()) return Error(t.loc, "unknown type alias '" + std::string(t.text) + "'");
      *out = it->second;
      return true;
    }
    std::string error;
    size_t offset = 0;
    if (!ParsePtoType(t.text, out, &error, &offset)) {
      SourceLoc loc = t.loc;
      // The token has no newline before its '<' body in practice; point into it.
      for (size_t i = 0; i < offset && i < t.text.size(); ++i) {
        if (t.text[i] == '\n') {
          ++loc.line;
          loc.col = 1;
        } else {
          ++loc.col;
        }
      }
      return Error(loc, error);
    }
    return true;
  }

  // ---- SSA names ----------------------------------------------------------

  Value* Lookup(std::string_view name) {
    auto it = values_.find(std::string(name));
    return it == values_.end() ? nullptr : &it->second;
  }

  bool Define(const Token& name, const Value& v) {
    const std::string key(name.text);
    if (values_.count(key) != 0) return Error(name.loc, "%" + key + " is defined twice");
    values_.emplace(key, v);
    scopes_.back().push_back(key);
    return true;
  }

  void OpenScope() { scopes_.emplace_back(); }
  void CloseScope() {
    for (const std::string& name : scopes_.back()) values_.erase(name);
    scopes_.pop_back();
  }

  uint32_t NewIntReg() { return p_->int_regs++; }

  // A use of an integer value (index or iN).
  bool UseInt(const Token& name, Value* out, const char* what) {
    Value* v = Lookup(name.text);
    if (v == nullptr) return Error(name.loc, "%" + std::string(name.text) + " is not defined");
    if (!v->type.IsInteger())
      return Error(name.loc, std::string(what) + " %" + std::string(name.text) + " is " +
                                 TypeString(v->type) + ", not an integer");
    *out = *v;
    return true;
  }
  bool ParseIntOperand(Value* out, const char* what) {
    Token name;
    return ExpectValueName(&name) && UseInt(name, out, what);
  }

  // ---- tiles ------------------------------------------------------------------

  uint32_t NewTileSlot(const Type& type, SourceLoc loc, std::string_view name) {
    TileSlot slot;
    slot.type = type;
    slot.loc = loc;
    slot.name = std::string(name);
    auto pending = pending_addr_.find(slot.name);
    if (pending != pending_addr_.end()) {
      slot.addr = pending->second;
      slot.has_addr = true;
      pending_addr_.erase(pending);
    }
    p_->tiles.push_back(slot);
    return static_cast<uint32_t>(p_->tiles.size() - 1);
  }

  uint32_t AddParam(std::string_view name, pto_param_kind kind, const Type& type, uint32_t reg) {
    Param param;
    param.name = std::string(name);
    param.kind = kind;
    param.type = type;
    param.reg = reg;
    p_->params.push_back(param);
    return static_cast<uint32_t>(p_->params.size() - 1);
  }

  enum class Use : uint8_t { kRead, kWrite, kTmp };

  // A tile operand written with its type: an existing tile of that type, or,
  // in a snippet, a new input tile.
  bool UseTile(const Token& name, const Type& type, SourceLoc type_loc, Use use, uint32_t* slot) {
    if (type.kind != TypeKind::kTile)
      return Error(type_loc, "%" + std::string(name.text) + " is used as a tile, but its type is " + TypeString(type));
    Value* v = Lookup(name.text);
    if (v == nullptr) {
      if (p_->is_kernel) return Error(name.loc, "%" + std::string(name.text) + " is not defined");
      Value nv;
      nv.type = type;
      nv.reg = NewTileSlot(type, name.loc, name.text);
      TileSlot& s = p_->tiles[nv.reg];
      s.param = static_cast<int32_t>(AddParam(name.text, PTO_PARAM_TILE, type, nv.reg));
      if (use == Use::kRead) p_->params[s.param].access |= PTO_PARAM_READ;
      if (!Define(name, nv)) return false;
      v = Lookup(name.text);
    }
    if (v->type.kind != TypeKind::kTile)
      return Error(name.loc, "%" + std::string(name.text) + " is " + TypeString(v->type) + ", not a tile");
    if (!SameType(v->type, type))
      return Error(type_loc, "%" + std::string(name.text) + " is " + TypeString(v->type) +
                                 ", but is written here as " + TypeString(type));
    TileSlot& s = p_->tiles[v->reg];
    s.used = true;
    if (use == Use::kWrite && s.param >= 0) p_->params[s.param].access |= PTO_PARAM_WRITE;
    *slot = v->reg;
    return true;
  }

  // ---- attributes ---------------------------------------------------------------

  bool ParseAttrDict(std::vector<AttrEntry>* out) {
    if (!Expect('{')) return false;
    while (ok() && !tok_.Is('}')) {
      AttrEntry e;
      e.loc = tok_.loc;
      if (tok_.kind != Tok::kIdent && tok_.kind != Tok::kString)
        return Error(tok_.loc, "expected an attribute name, found " + Describe(tok_));
      e.key = tok_.text;
      Advance();
      if (tok_.Is('=')) {
        Advance();
        if (tok_.kind != Tok::kString && tok_.kind != Tok::kInt && tok_.kind != Tok::kAttr &&
            tok_.kind != Tok::kIdent && tok_.kind != Tok::kFloat)
          return Error(tok_.loc, "expected an attribute value, found " + Describe(tok_));
        e.value = tok_;
        Advance();
      }
      out->push_back(e);
      if (!tok_.Is(',')) break;
      Advance();
    }
    return Expect('}');
  }

  // ---- file structure ---------------------------------------------------------------

  void ParseFile() {
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
      Error(pending_loc_[first.first], "pto.tassign places %" + first.first + ", which no operation uses");
    }
  }

  void ParseAlias() {
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

  bool SetTarget(const AttrEntry& e) {
    if (e.value.kind != Tok::kString) return Error(e.loc, "pto.target_arch takes a string (\"a3\", \"a2a3\" or \"a5\")");
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

  void ParseModule() {
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
            Error(e.loc, "pto.kernel_kind must be #pto.kernel_kind<vector>: only vector kernels run here");
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

  void ParseFunc() {
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
  void ParseDirective() {
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

  // ---- operations -------------------------------------------------------------------

  void ParseOperation() {
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
      if (want_results(0) && tok_.kind == Tok::kValue) Error(tok_.loc, "scf.yield with values is not supported");
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
        Error(op.loc, std::string(name) + (prefixed ? " needs ins(...) outs(...) or a %result" : " needs a %result"));
      } else if (want_results(1)) {
        ParseSsaTileOp(op, *desc, results[0]);
      }
    }
  }

  // %c = arith.constant 42 : index | 1.5 : f32 | true
  void ParseConstantValue(const Token& result) {
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

  void ParseArith(const Token& op, const Token& result) {
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
    Value v;
    for (const auto& b : kBinary) {
      if (op.text != b.name) continue;
      Value x, y;
      if (!ParseIntOperand(&x, "operand") || !Expect(',') || !ParseIntOperand(&y, "operand") || !Expect(':'))
        return;
      const SourceLoc type_loc = tok_.loc;
      Type t;
      if (!ParseType(&t)) return;
      if (!t.IsInteger() || !SameType(t, x.type) || !SameType(t, y.type))
        return (void)Error(type_loc, std::string(b.name) + " operands are " + TypeString(x.type) + " and " +
                                         TypeString(y.type) + ", written as " + TypeString(t));
      in.code = Code::kIntBinary;
      in.sub = static_cast<uint8_t>(b.op);
      in.bits = t.bits;
      in.b = x.reg;
      in.c = y.reg;
      v.type = t;
      v.reg = in.a = NewIntReg();
      p_->code.push_back(in);
      Define(result, v);
      return;
    }
    if (op.text == "arith.index_cast" || op.text == "arith.index_castui" || op.text == "arith.extsi" ||
        op.text == "arith.trunci" || op.text == "arith.extui") {
      Value x;
      if (!ParseIntOperand(&x, "operand") || !Expect(':')) return;
      Type from, to;
      const SourceLoc from_loc = tok_.loc;
      if (!ParseType(&from) || !ExpectIdent("to")) return;
      const SourceLoc to_loc = tok_.loc;
      if (!ParseType(&to)) return;
      if (!SameType(from, x.type)) return (void)Error(from_loc, "operand is " + TypeString(x.type) + ", written as " + TypeString(from));
      if (!to.IsInteger()) return (void)Error(to_loc, "cast to " + TypeString(to) + " is not supported");
      const bool unsigned_source = op.text == "arith.index_castui" || op.text == "arith.extui";
      in.code = Code::kIntCast;
      in.bits = to.bits;
      in.sub = unsigned_source ? from.bits : 0;  // zero-extend from this width first
      in.b = x.reg;
      v.type = to;
      v.reg = in.a = NewIntReg();
      p_->code.push_back(in);
      Define(result, v);
      return;
    }
    if (op.text == "arith.cmpi") {
      static const char* const kPredicates[] = {"eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"};
      if (tok_.kind != Tok::kIdent) return (void)Error(tok_.loc, "expected a predicate (eq, ne, slt, ...)");
      int predicate = -1;
      for (int i = 0; i < 10; ++i)
        if (tok_.text == kPredicates[i]) predicate = i;
      if (predicate < 0) return (void)Error(tok_.loc, "unknown predicate '" + std::string(tok_.text) + "'");
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
      ParseScalarType("i1", &v.type);
      v.reg = in.a = NewIntReg();
      p_->code.push_back(in);
      Define(result, v);
      return;
    }
    Error(op.loc, "operation '" + std::string(op.text) + "' is not supported");
  }

  // Parses `{ operations }` as a nested region.
  void ParseRegion() {
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

  void ParseFor(const Token& op) {
    Token iv;
    if (!ExpectValueName(&iv) || !Expect('=')) return;
    Value lb, ub, step;
    if (!ParseIntOperand(&lb, "lower bound") || !ExpectIdent("to") || !ParseIntOperand(&ub, "upper bound") ||
        !ExpectIdent("step") || !ParseIntOperand(&step, "step"))
      return;
    if (tok_.IsIdent("iter_args")) return (void)Error(tok_.loc, "scf.for with iter_args is not supported");
    if (tok_.Is(':')) {
      Advance();
      Type t;
      if (!ParseType(&t)) return;
      if (!SameType(t, lb.type)) return (void)Error(op.loc, "loop bounds are " + TypeString(lb.type) + ", written as " + TypeString(t));
    }
    if (!SameType(lb.type, ub.type) || !SameType(lb.type, step.type))
      return (void)Error(op.loc, "scf.for bounds and step must have one type (" + TypeString(lb.type) + ", " +
                                     TypeString(ub.type) + ", " + TypeString(step.type) + ")");
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

  void ParseIf(const Token& op) {
    Value cond;
    if (!ParseIntOperand(&cond, "condition")) return;
    if (cond.type.kind != TypeKind::kInt || cond.type.bits != 1)
      return (void)Error(op.loc, "scf.if needs an i1 condition, not " + TypeString(cond.type));
    if (tok_.kind == Tok::kArrow) return (void)Error(tok_.loc, "scf.if with results is not supported");
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

  void ParseBlockQuery(const Token& op, const Token& result) {
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

  // `name = [%a, %b, ...]`: integer operands into Program::lists.
  bool ParseIndexList(std::string_view key, std::vector<Value>* out) {
    if (!ExpectIdent(key) || !Expect('=') || !Expect('[')) return false;
    while (ok() && !tok_.Is(']')) {
      Value v;
      if (!ParseIntOperand(&v, std::string(key).c_str())) return false;
      out->push_back(v);
      if (!tok_.Is(',')) break;
      Advance();
    }
    return Expect(']');
  }

  bool SkipLayoutAttr() {
    if (!tok_.Is('{')) return true;
    std::vector<AttrEntry> attrs;
    if (!ParseAttrDict(&attrs)) return false;
    for (const AttrEntry& e : attrs) {
      if (e.key == "layout" && e.value.text == "#pto.layout<nd>") continue;
      if (e.key == "layout")
        return Error(e.loc, "layout " + std::string(e.value.text) + " is not supported: views are row-major (#pto.layout<nd>)");
      return Error(e.loc, "unknown attribute '" + std::string(e.key) + "'");
    }
    return true;
  }

  void ParseMakeView(const Token& op, const Token& result) {
    Token ptr_name;
    if (!ExpectValueName(&ptr_name)) return;
    Value* ptr = Lookup(ptr_name.text);
    if (ptr == nullptr) return (void)Error(ptr_name.loc, "%" + std::string(ptr_name.text) + " is not defined");
    if (ptr->type.kind != TypeKind::kPtr)
      return (void)Error(ptr_name.loc, "pto.make_tensor_view needs a !pto.ptr, not " + TypeString(ptr->type));
    const Value pointer = *ptr;
    std::vector<Value> shape, strides;
    if (!Expect(',') || !ParseIndexList("shape", &shape) || !Expect(',') || !ParseIndexList("strides", &strides) ||
        !SkipLayoutAttr() || !Expect(':'))
      return;
    const SourceLoc type_loc = tok_.loc;
    Type t;
    if (!ParseType(&t)) return;
    if (t.kind != TypeKind::kTensorView) return (void)Error(type_loc, "pto.make_tensor_view gives a !pto.tensor_view");
    if (t.dtype != pointer.type.dtype)
      return (void)Error(type_loc, std::string("view element type ") + DtypeSpelling(t.dtype) +
                                       " differs from the pointer's " + DtypeSpelling(pointer.type.dtype),
                         PTO_ERR_DTYPE_MISMATCH);
    if (shape.size() != t.rank || strides.size() != t.rank)
      return (void)Error(op.loc, "a rank-" + std::to_string(t.rank) + " view needs " + std::to_string(t.rank) +
                                     " shape and stride operands");
    for (int i = 0; i < t.rank; ++i) {
      if (shape[i].is_const && t.dims[i] != kDynamic && shape[i].const_value != t.dims[i])
        return (void)Error(op.loc, "shape operand " + std::to_string(i) + " is " + std::to_string(shape[i].const_value) +
                                       ", but the type says " + std::to_string(t.dims[i]));
      if (shape[i].is_const && shape[i].const_value < 0)
        return (void)Error(op.loc, "shape operand " + std::to_string(i) + " is negative");
      if (strides[i].is_const && strides[i].const_value < 0)
        return (void)Error(op.loc, "stride " + std::to_string(i) + " is negative: views run forward");
      if (t.dims[i] == kDynamic && shape[i].is_const) t.dims[i] = shape[i].const_value;
    }
    Instr in;
    in.code = Code::kMakeView;
    in.loc = op.loc;
    in.b = pointer.reg;
    in.rank = t.rank;
    in.extra = static_cast<uint32_t>(p_->lists.size());
    for (const Value& v : shape) p_->lists.push_back(v.reg);
    for (const Value& v : strides) p_->lists.push_back(v.reg);
    Value v;
    v.type = t;
    v.reg = in.a = p_->view_regs++;
    p_->code.push_back(in);
    Define(result, v);
    view_ptr_[v.reg] = pointer.reg;
  }

  void ParsePartitionView(const Token& op, const Token& result) {
    Token src_name;
    if (!ExpectValueName(&src_name)) return;
    Value* src = Lookup(src_name.text);
    if (src == nullptr) return (void)Error(src_name.loc, "%" + std::string(src_name.text) + " is not defined");
    if (src->type.kind != TypeKind::kTensorView && src->type.kind != TypeKind::kPartitionView)
      return (void)Error(src_name.loc, "pto.partition_view needs a view, not " + TypeString(src->type));
    const Value source = *src;
    std::vector<Value> offsets, sizes;
    if (!Expect(',') || !ParseIndexList("offsets", &offsets) || !Expect(',') || !ParseIndexList("sizes", &sizes) ||
        !Expect(':'))
      return;
    const SourceLoc type_loc = tok_.loc;
    Type from, to;
    if (!ParseType(&from) || !ExpectArrow()) return;
    const SourceLoc to_loc = tok_.loc;
    if (!ParseType(&to)) return;
    if (from.kind != source.type.kind || from.dtype != source.type.dtype || from.rank != source.type.rank)
      return (void)Error(type_loc, "%" + std::string(src_name.text) + " is " + TypeString(source.type) +
                                       ", written as " + TypeString(from));
    if (to.kind != TypeKind::kPartitionView || to.dtype != from.dtype || to.rank != from.rank)
      return (void)Error(to_loc, "pto.partition_view gives a !pto.partition_tensor_view of the same rank and element type");
    if (offsets.size() != to.rank || sizes.size() != to.rank)
      return (void)Error(op.loc, "a rank-" + std::to_string(to.rank) + " partition needs " + std::to_string(to.rank) +
                                     " offsets and sizes");
    for (int i = 0; i < to.rank; ++i) {
      if (sizes[i].is_const && to.dims[i] != kDynamic && sizes[i].const_value != to.dims[i])
        return (void)Error(op.loc, "size " + std::to_string(i) + " is " + std::to_string(sizes[i].const_value) +
                                       ", but the type says " + std::to_string(to.dims[i]));
      if (to.dims[i] == kDynamic && sizes[i].is_const) to.dims[i] = sizes[i].const_value;
      // Outside the parent view: refused now where every number is known.
      const int64_t parent = source.type.dims[i];
      if (offsets[i].is_const && sizes[i].is_const && parent != kDynamic &&
          (offsets[i].const_value < 0 || sizes[i].const_value < 0 ||
           offsets[i].const_value > parent - sizes[i].const_value))
        return (void)Error(op.loc, "partition [" + std::to_string(offsets[i].const_value) + ", " +
                                       std::to_string(offsets[i].const_value + sizes[i].const_value) +
                                       ") of dimension " + std::to_string(i) + " is outside the view's " +
                                       std::to_string(parent), PTO_ERR_OUT_OF_RANGE);
    }
    Instr in;
    in.code = Code::kPartView;
    in.loc = op.loc;
    in.b = source.reg;
    in.rank = to.rank;
    in.extra = static_cast<uint32_t>(p_->lists.size());
    for (const Value& v : offsets) p_->lists.push_back(v.reg);
    for (const Value& v : sizes) p_->lists.push_back(v.reg);
    Value v;
    v.type = to;
    v.reg = in.a = p_->view_regs++;
    p_->code.push_back(in);
    Define(result, v);
    view_ptr_[v.reg] = view_ptr_[source.reg];
  }

  // ins(%x : T) outs(%y : T)
  bool ParseOneInOneOut(Token* in_name, Type* in_type, SourceLoc* in_loc, Token* out_name, Type* out_type,
                        SourceLoc* out_loc) {
    if (!ExpectIdent("ins") || !Expect('(') || !ExpectValueName(in_name) || !Expect(':')) return false;
    *in_loc = tok_.loc;
    if (!ParseType(in_type) || !Expect(')') || !ExpectIdent("outs") || !Expect('(') || !ExpectValueName(out_name) ||
        !Expect(':'))
      return false;
    *out_loc = tok_.loc;
    return ParseType(out_type) && Expect(')');
  }

  void ParseLoadStore(const Token& op, bool load) {
    Token a, b;
    Type ta, tb;
    SourceLoc la, lb;
    if (!ParseOneInOneOut(&a, &ta, &la, &b, &tb, &lb)) return;
    if (tok_.Is('{')) return (void)Error(tok_.loc, std::string(op.text) + " attributes are not supported");
    const Token& view_name = load ? a : b;
    const Type& view_type = load ? ta : tb;
    const SourceLoc view_loc = load ? la : lb;
    Value* view = Lookup(view_name.text);
    if (view == nullptr) return (void)Error(view_name.loc, "%" + std::string(view_name.text) + " is not defined");
    if (view->type.kind != TypeKind::kPartitionView && view->type.kind != TypeKind::kTensorView)
      return (void)Error(view_name.loc, "%" + std::string(view_name.text) + " is " + TypeString(view->type) + ", not a view");
    if (view_type.kind != view->type.kind || view_type.dtype != view->type.dtype || view_type.rank != view->type.rank)
      return (void)Error(view_loc, "%" + std::string(view_name.text) + " is " + TypeString(view->type) +
                                       ", written as " + TypeString(view_type));
    const Value v = *view;
    uint32_t slot;
    if (!UseTile(load ? b : a, load ? tb : ta, load ? lb : la, load ? Use::kWrite : Use::kRead, &slot)) return;
    const Type& tile = p_->tiles[slot].type;
    if (tile.dtype != v.type.dtype)
      return (void)Error(op.loc, std::string(op.text) + ": view element type " + DtypeSpelling(v.type.dtype) +
                                     " differs from the tile's " + DtypeSpelling(tile.dtype),
                         PTO_ERR_DTYPE_MISMATCH);
    // Static shapes must agree: the last dimension is the valid columns, the
    // others multiply to the valid rows.
    bool known = !tile.HasDynamicValid();
    int64_t outer = 1;
    for (int i = 0; i + 1 < v.type.rank; ++i) {
      if (v.type.dims[i] == kDynamic) known = false;
      else outer *= v.type.dims[i];
    }
    const int64_t inner = v.type.dims[v.type.rank - 1];
    if (inner == kDynamic) known = false;
    if (known && (outer != tile.valid_rows || inner != tile.valid_cols))
      return (void)Error(op.loc, std::string(op.text) + ": view of " + std::to_string(outer) + "x" +
                                     std::to_string(inner) + " elements does not match the tile's valid region " +
                                     std::to_string(tile.valid_rows) + "x" + std::to_string(tile.valid_cols),
                         PTO_ERR_SHAPE_MISMATCH);
    Instr in;
    in.code = load ? Code::kLoad : Code::kStore;
    in.loc = op.loc;
    in.a = slot;
    in.b = v.reg;
    in.rank = v.type.rank;
    p_->code.push_back(in);
    const uint32_t pointer = view_ptr_[v.reg];
    for (Param& param : p_->params) {
      if (param.kind == PTO_PARAM_POINTER && param.reg == pointer)
        param.access |= load ? PTO_PARAM_READ : PTO_PARAM_WRITE;
    }
  }

  bool ConstantAddress(const Token& name, uint64_t* addr) {
    Value* v = Lookup(name.text);
    if (v == nullptr) return Error(name.loc, "%" + std::string(name.text) + " is not defined");
    if (!v->type.IsInteger()) return Error(name.loc, "an address is an integer, not " + TypeString(v->type));
    if (!v->is_const)
      return Error(name.loc, "address %" + std::string(name.text) +
                                 " is not a constant: tiles are placed once, when the program is verified");
    if (v->const_value < 0) return Error(name.loc, "address " + std::to_string(v->const_value) + " is negative", PTO_ERR_OUT_OF_RANGE);
    *addr = static_cast<uint64_t>(v->const_value);
    return true;
  }

  void ParseAllocTile(const Token& op, const Token& result) {
    bool has_addr = false;
    uint64_t addr = 0;
    Token addr_loc_tok;
    Value vr, vc;
    bool has_vr = false, has_vc = false;
    SourceLoc vr_loc, vc_loc;
    for (;;) {
      if (tok_.IsIdent("addr")) {
        Advance();
        Token name;
        if (!Expect('=') || !ExpectValueName(&name) || !ConstantAddress(name, &addr)) return;
        has_addr = true;
        addr_loc_tok = name;
      } else if (tok_.IsIdent("valid_row")) {
        vr_loc = tok_.loc;
        Advance();
        if (!Expect('=') || !ParseIntOperand(&vr, "valid_row")) return;
        has_vr = true;
      } else if (tok_.IsIdent("valid_col")) {
        vc_loc = tok_.loc;
        Advance();
        if (!Expect('=') || !ParseIntOperand(&vc, "valid_col")) return;
        has_vc = true;
      } else {
        break;
      }
    }
    if (tok_.Is('{')) return (void)Error(tok_.loc, "pto.alloc_tile attributes are not supported");
    if (!Expect(':')) return;
    const SourceLoc type_loc = tok_.loc;
    Type t;
    if (!ParseType(&t)) return;
    if (t.kind != TypeKind::kTile) return (void)Error(type_loc, "pto.alloc_tile gives a tile type");
    if ((t.valid_rows == kDynamic) != has_vr)
      return (void)Error(has_vr ? vr_loc : op.loc, has_vr ? "valid_row is given, but the type's v_row is static"
                                                          : "the type's v_row is ?, so valid_row = %r is required");
    if ((t.valid_cols == kDynamic) != has_vc)
      return (void)Error(has_vc ? vc_loc : op.loc, has_vc ? "valid_col is given, but the type's v_col is static"
                                                          : "the type's v_col is ?, so valid_col = %c is required");
    Value v;
    v.type = t;
    v.reg = NewTileSlot(t, result.loc, result.text);
    if (has_addr) {
      p_->tiles[v.reg].addr = addr;
      p_->tiles[v.reg].has_addr = true;
    }
    if (t.HasDynamicValid()) EmitSetValid(op.loc, v.reg, has_vr ? &vr : nullptr, has_vc ? &vc : nullptr);
    Define(result, v);
  }

  // Sets a dynamic tile's valid region at run time; a null operand keeps the
  // type's static value.
  void EmitSetValid(SourceLoc loc, uint32_t slot, const Value* rows, const Value* cols) {
    const Type& t = p_->tiles[slot].type;
    auto reg_of = [&](const Value* v, int64_t fixed) {
      if (v != nullptr) return v->reg;
      Instr c;
      c.code = Code::kConstInt;
      c.loc = loc;
      c.a = NewIntReg();
      c.imm = fixed;
      p_->code.push_back(c);
      return c.a;
    };
    Instr in;
    in.code = Code::kSetValid;
    in.loc = loc;
    in.a = slot;
    in.b = reg_of(rows, t.valid_rows);
    in.c = reg_of(cols, t.valid_cols);
    p_->code.push_back(in);
  }

  void ParseSetValidShape(const Token& op) {
    Token name;
    Value vr, vc;
    if (!ExpectValueName(&name) || !Expect(',') || !ParseIntOperand(&vr, "valid rows") || !Expect(',') ||
        !ParseIntOperand(&vc, "valid cols") || !Expect(':'))
      return;
    const SourceLoc type_loc = tok_.loc;
    Type t;
    if (!ParseType(&t)) return;
    if (t.kind != TypeKind::kTile || t.valid_rows != kDynamic || t.valid_cols != kDynamic)
      return (void)Error(type_loc, "pto.set_validshape needs a tile type with v_row=? and v_col=?");
    uint32_t slot;
    if (!UseTile(name, t, type_loc, Use::kWrite, &slot)) return;
    EmitSetValid(op.loc, slot, &vr, &vc);
  }

  bool PlaceSlot(uint32_t slot, uint64_t addr, SourceLoc loc) {
    TileSlot& s = p_->tiles[slot];
    if (s.used)
      return Error(loc, "pto.tassign moves %" + s.name + " after an operation used it: place a tile before its first use");
    s.addr = addr;
    s.has_addr = true;
    return true;
  }

  // %t2 = pto.tassign %t, %addr : T -> T   |   pto.tassign %t, @tile(0x1000)
  void ParseTassign(const Token& op, const std::vector<Token>& results) {
    Token name;
    if (!ExpectValueName(&name) || !Expect(',')) return;
    if (tok_.kind == Tok::kSymbol) {
      if (tok_.text != "tile") return (void)Error(tok_.loc, "expected @tile(ADDRESS)");
      Advance();
      if (!Expect('(')) return;
      if (tok_.kind != Tok::kInt || tok_.text[0] == '-')
        return (void)Error(tok_.loc, "expected an address such as 0x1000");
      const uint64_t addr = strtoull(std::string(tok_.text).c_str(), nullptr, 0);
      const SourceLoc addr_loc = tok_.loc;
      Advance();
      if (!Expect(')')) return;
      if (!results.empty()) return (void)Error(op.loc, "pto.tassign %x, @tile(...) defines no result");
      Value* v = Lookup(name.text);
      if (v == nullptr) {
        if (p_->is_kernel) return (void)Error(name.loc, "%" + std::string(name.text) + " is not defined");
        const std::string key(name.text);
        if (pending_addr_.count(key) != 0) return (void)Error(name.loc, "%" + key + " is placed twice");
        pending_addr_[key] = addr;
        pending_loc_[key] = name.loc;
        return;
      }
      if (v->type.kind != TypeKind::kTile) return (void)Error(name.loc, "pto.tassign places tiles only");
      PlaceSlot(v->reg, addr, addr_loc);
      return;
    }
    Token addr_name;
    uint64_t addr;
    if (!ExpectValueName(&addr_name) || !ConstantAddress(addr_name, &addr) || !Expect(':')) return;
    const SourceLoc from_loc = tok_.loc;
    Type from, to;
    if (!ParseType(&from) || !ExpectArrow()) return;
    const SourceLoc to_loc = tok_.loc;
    if (!ParseType(&to)) return;
    Value* v = Lookup(name.text);
    if (v == nullptr) return (void)Error(name.loc, "%" + std::string(name.text) + " is not defined");
    if (v->type.kind != TypeKind::kTile || !SameType(v->type, from))
      return (void)Error(from_loc, "%" + std::string(name.text) + " is " + TypeString(v->type) + ", written as " + TypeString(from));
    if (!SameType(from, to)) return (void)Error(to_loc, "pto.tassign keeps the tile's type");
    const Value tile = *v;
    if (!PlaceSlot(tile.reg, addr, addr_name.loc)) return;
    if (results.size() == 1) Define(results[0], tile);
  }

  // {precisionType = #pto<pow_precision high_precision>}
  bool ParseOpAttrs(const ops::OpDescriptor& op, int* attr) {
    std::vector<AttrEntry> attrs;
    if (!ParseAttrDict(&attrs)) return false;
    for (const AttrEntry& e : attrs) {
      if (e.key != "precisionType" || op.attr == ops::AttrKind::kNone)
        return Error(e.loc, "unknown attribute '" + std::string(e.key) + "' for " + op.mnemonic);
      const char* kind = op.attr == ops::AttrKind::kPowPrecision ? "pow_precision" : "div_precision";
      const std::string want_default = std::string("#pto<") + kind + " default>";
      const std::string want_high = std::string("#pto<") + kind + " high_precision>";
      if (e.value.text == want_default) {
        *attr = 0;
      } else if (e.value.text == want_high) {
        // Division is correctly rounded either way: the attribute changes nothing there.
        *attr = op.attr == ops::AttrKind::kPowPrecision ? PTO_POW_HIGH_PRECISION : 0;
      } else {
        return Error(e.value.loc, "precisionType of " + std::string(op.mnemonic) + " is " + want_default +
                                      " or " + want_high);
      }
    }
    return true;
  }

  bool TextTmpAllowed(const ops::OpDescriptor& op) {
    // trsqrt's tmp (PTOAS: for its high_precision path) is accepted and unused.
    return op.tmp != ops::TmpRole::kNone || op.id == ops::OpId::kTrsqrt;
  }

  bool EmitTileOp(const ops::OpDescriptor& op, SourceLoc loc, const std::vector<uint32_t>& ins, uint32_t dst, int attr) {
    Instr in;
    in.code = Code::kTileOp;
    in.loc = loc;
    in.op = &op;
    in.attr = attr;
    in.a = dst;
    in.b = ins[0];
    in.c = op.source_count > 1 ? ins[1] : kNoSlot;
    in.d = kNoSlot;
    if (ins.size() > op.source_count && op.tmp != ops::TmpRole::kNone) in.d = ins[op.source_count];
    if (in.d == kNoSlot && op.tmp == ops::TmpRole::kRequired) {
      // The text leaves tmp out ("an implementation aid, not an
      // architecture-visible input"): a tile the C call needs and never reads.
      Type t = p_->tiles[dst].type;
      in.d = NewTileSlot(t, loc, "");
      p_->tiles[in.d].in_ub = false;
      p_->tiles[in.d].used = true;
    }
    p_->code.push_back(in);
    return true;
  }

  // The sources, then optionally tmp: as many as the operation takes.
  bool OperandCountFits(const Token& op, const ops::OpDescriptor& desc, size_t count, const char* what) {
    const size_t most = desc.source_count + (TextTmpAllowed(desc) ? 1 : 0);
    if (count >= desc.source_count && count <= most) return true;
    return Error(op.loc, std::string(op.text) + " takes " + std::to_string(desc.source_count) +
                             (most > desc.source_count ? " or " + std::to_string(most) : std::string()) + " " +
                             what + ", not " + std::to_string(count));
  }

  // The tile slots of an operation's sources (read) and tmp (never read).
  bool UseOperands(const ops::OpDescriptor& desc, const std::vector<Token>& names, const std::vector<Type>& types,
                   const std::vector<SourceLoc>& type_locs, std::vector<uint32_t>* slots) {
    slots->resize(names.size());
    for (size_t i = 0; i < names.size(); ++i) {
      const Use use = i < desc.source_count ? Use::kRead : Use::kTmp;
      if (!UseTile(names[i], types[i], type_locs[i], use, &(*slots)[i])) return false;
    }
    return true;
  }

  // pto.OP ins(%a, %b[, %tmp] : T, T[, T]) outs(%d : T) [{attrs}]
  void ParseDpsTileOp(const Token& op, const ops::OpDescriptor& desc) {
    Advance();  // ins
    std::vector<Token> names;
    if (!Expect('(')) return;
    while (ok() && tok_.kind == Tok::kValue) {
      names.push_back(tok_);
      Advance();
      if (!tok_.Is(',')) break;
      Advance();
    }
    if (!Expect(':')) return;
    if (!OperandCountFits(op, desc, names.size(), "inputs")) return;
    std::vector<Type> types(names.size());
    std::vector<SourceLoc> type_locs(names.size());
    for (size_t i = 0; i < names.size(); ++i) {
      if (i > 0 && !Expect(',')) return;
      type_locs[i] = tok_.loc;
      if (!ParseType(&types[i])) return;
    }
    Token dst_name;
    Type dst_type;
    if (!Expect(')') || !ExpectIdent("outs") || !Expect('(') || !ExpectValueName(&dst_name) || !Expect(':')) return;
    const SourceLoc dst_loc = tok_.loc;
    if (!ParseType(&dst_type) || !Expect(')')) return;
    int attr = 0;
    if (tok_.Is('{') && !ParseOpAttrs(desc, &attr)) return;
    std::vector<uint32_t> slots;
    if (!UseOperands(desc, names, types, type_locs, &slots)) return;
    uint32_t dst;
    if (!UseTile(dst_name, dst_type, dst_loc, Use::kWrite, &dst)) return;
    if (names.size() > desc.source_count && desc.tmp == ops::TmpRole::kNone) slots.pop_back();
    EmitTileOp(desc, op.loc, slots, dst, attr);
  }

  // %d = [pto.]OP %a, %b[, %tmp] [{attrs}] : (T, T[, T]) -> T   or   : T
  void ParseSsaTileOp(const Token& op, const ops::OpDescriptor& desc, const Token& result) {
    std::vector<Token> names;
    while (ok() && tok_.kind == Tok::kValue) {
      names.push_back(tok_);
      Advance();
      if (!tok_.Is(',')) break;
      Advance();
    }
    if (!OperandCountFits(op, desc, names.size(), "operands")) return;
    int attr = 0;
    if (tok_.Is('{') && !ParseOpAttrs(desc, &attr)) return;
    if (!Expect(':')) return;
    std::vector<Type> types(names.size());
    std::vector<SourceLoc> type_locs(names.size());
    Type dst_type;
    SourceLoc dst_loc = tok_.loc;
    if (tok_.Is('(')) {
      Advance();
      for (size_t i = 0; i < names.size(); ++i) {
        if (i > 0 && !Expect(',')) return;
        type_locs[i] = tok_.loc;
        if (!ParseType(&types[i])) return;
      }
      if (tok_.Is(',')) return (void)Error(tok_.loc, "more types than operands");
      if (!Expect(')') || !ExpectArrow()) return;
      dst_loc = tok_.loc;
      if (!ParseType(&dst_type)) return;
    } else {
      // The pages' shorthand: one type for every operand and the result.
      if (!ParseType(&dst_type)) return;
      for (size_t i = 0; i < names.size(); ++i) {
        types[i] = dst_type;
        type_locs[i] = dst_loc;
      }
    }
    std::vector<uint32_t> slots;
    if (!UseOperands(desc, names, types, type_locs, &slots)) return;
    if (dst_type.kind != TypeKind::kTile) return (void)Error(dst_loc, std::string(op.text) + " gives a tile");
    if (Lookup(result.text) != nullptr) return (void)Error(result.loc, "%" + std::string(result.text) + " is defined twice");
    Value v;
    v.type = dst_type;
    v.reg = NewTileSlot(dst_type, result.loc, result.text);
    p_->tiles[v.reg].used = true;
    if (!p_->is_kernel) {
      const uint32_t index = AddParam(result.text, PTO_PARAM_TILE, dst_type, v.reg);
      p_->params[index].access = PTO_PARAM_WRITE;
      p_->tiles[v.reg].param = static_cast<int32_t>(index);
    }
    if (!Define(result, v)) return;
    if (names.size() > desc.source_count && desc.tmp == ops::TmpRole::kNone) slots.pop_back();
    EmitTileOp(desc, op.loc, slots, v.reg, attr);
  }

  Lexer lexer_;
  Program* p_;
  Token tok_, peek_;
  bool has_peek_ = false;
  pto_status status_ = PTO_OK;
  std::unordered_map<std::string, Value> values_;
  std::vector<std::vector<std::string>> scopes_;
  std::unordered_map<std::string, Type> aliases_;
  std::unordered_map<std::string, uint64_t> pending_addr_;
  std::unordered_map<std::string, SourceLoc> pending_loc_;
  std::unordered_map<uint32_t, uint32_t> view_ptr_;  // view register -> pointer index
};

}  // namespace

pto_status Compile(std::string_view text, Program* program) {
  Compiler compiler(text, program);
  return compiler.Run();
}

}  // namespace program
}  // namespace pto
