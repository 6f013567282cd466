// The parser and type checker of PTO assembly: a recursive-descent reader of
// the subset the README's "PTO assembly" section defines, emitting Program
// instructions as it goes. Every construct outside the subset is refused with
// a sentence naming it; nothing is skipped. This file holds the parse core
// (parser.h: tokens, errors, types, SSA names, tile operands, attribute
// dictionaries); readers.h lists the dialects' readers and their files.
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "program/ir/types.h"
#include "program/parse/parser.h"
#include "program/parse/readers.h"

namespace pto {
namespace program {

Parser::Parser(std::string_view text, Program* program, std::string_view entry, bool check_only)
    : lexer_(text),
      p_(program),
      module_(std::make_unique<ModuleReader>(*this, entry, check_only)),
      scalar_(std::make_unique<ScalarReader>(*this)),
      memory_(std::make_unique<MemoryReader>(*this)),
      tile_(std::make_unique<TileReader>(*this)),
      forms_(std::make_unique<SpecialFormReader>(*this)),
      cube_(std::make_unique<CubeReader>(*this)),
      pipes_(std::make_unique<PipeReader>(*this)),
      sync_(std::make_unique<SyncReader>(*this)),
      comm_(std::make_unique<CommReader>(*this)) {
  Advance();
}

Parser::~Parser() = default;

pto_status Parser::Run() {
  module_->ParseFile();
  return status_;
}

void Parser::Advance() {
  if (has_peek_) {
    tok_ = peek_;
    has_peek_ = false;
  } else {
    tok_ = lexer_.Next();
  }
  if (tok_.kind == Tok::kError && ok()) Error(tok_.loc, std::string(tok_.text));
}

const Token& Parser::Peek() {
  if (!has_peek_) {
    peek_ = lexer_.Next();
    has_peek_ = true;
  }
  return peek_;
}

bool Parser::Error(SourceLoc loc, const std::string& message, pto_status status) {
  if (ok()) status_ = Diagnose(*p_, loc, status, message);
  return false;
}

std::string Describe(const Token& t) {
  switch (t.kind) {
    case Tok::kEnd: return "the end of the text";
    case Tok::kValue: return "'%" + std::string(t.text) + "'";
    case Tok::kSymbol: return "'@" + std::string(t.text) + "'";
    case Tok::kString: return "\"" + std::string(t.text) + "\"";
    default: return "'" + std::string(t.text) + "'";
  }
}

bool Parser::Expect(char c) {
  if (!ok()) return false;
  if (!tok_.Is(c))
    return Error(tok_.loc, std::string("expected '") + c + "', found " + Describe(tok_));
  Advance();
  return true;
}

bool Parser::ExpectIdent(std::string_view word) {
  if (!ok()) return false;
  if (!tok_.IsIdent(word))
    return Error(tok_.loc, "expected '" + std::string(word) + "', found " + Describe(tok_));
  Advance();
  return true;
}

bool Parser::ExpectArrow() {
  if (!ok()) return false;
  if (tok_.kind != Tok::kArrow) return Error(tok_.loc, "expected '->', found " + Describe(tok_));
  Advance();
  return true;
}

bool Parser::ParseTypeArrowType(Type* from, SourceLoc* from_loc, Type* to, SourceLoc* to_loc) {
  *from_loc = tok_.loc;
  if (!ParseType(from) || !ExpectArrow()) return false;
  *to_loc = tok_.loc;
  return ParseType(to);
}

bool Parser::ExpectValueName(Token* out) {
  if (!ok()) return false;
  if (tok_.kind != Tok::kValue) return Error(tok_.loc, "expected a %name, found " + Describe(tok_));
  *out = tok_;
  Advance();
  return true;
}

void Parser::ParseValueNames(std::vector<Token>* out) {
  while (ok() && tok_.kind == Tok::kValue) {
    out->push_back(tok_);
    Advance();
    if (!tok_.Is(',')) break;
    Advance();
  }
}

bool Parser::ParseType(Type* out) {
  if (!ok()) return false;
  const Token t = tok_;
  // Two spellings whose <...> body the lexer does not join to their name:
  // PTOAS's older `memref<...>` (types.cc), and MLIR's elided dialect
  // prefix, a tile operand's type printed `<loc=left, ...>` where the
  // operation says it is a !pto.tile_buf.
  const bool memref = t.IsIdent("memref") && Peek().Is('<');
  if (memref || t.Is('<')) {
    std::string_view body;
    if (!lexer_.AngleBodyFrom(memref ? peek_ : t, &body))
      return Error(t.loc, "unterminated '<' in a type");
    has_peek_ = false;
    Advance();
    const std::string name = memref ? "memref" : "!pto.tile_buf";
    std::string error;
    size_t offset = 0;
    if (ParsePtoType(name + std::string(body), out, &error, &offset)) return true;
    // The offset into the text as written (without the prefix supplied).
    SourceLoc loc = t.loc;
    const size_t unwritten = memref ? 0 : name.size();
    loc.col += static_cast<uint32_t>(offset > unwritten ? offset - unwritten : 0);
    return Error(loc, error);
  }
  if (t.kind == Tok::kIdent) {
    if (!ParseScalarType(t.text, out))
      return Error(t.loc, "unknown type '" + std::string(t.text) + "'");
    Advance();
    return true;
  }
  if (t.kind != Tok::kType) return Error(t.loc, "expected a type, found " + Describe(t));
  Advance();
  if (t.text.find('<') == std::string_view::npos) {
    auto it = aliases_.find(std::string(t.text));
    if (it == aliases_.end() && ParseHandleType(t.text, out)) return true;
    if (it == aliases_.end())
      return Error(t.loc, "unknown type alias '" + std::string(t.text) + "'");
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

Value* Parser::Lookup(std::string_view name) {
  auto it = values_.find(std::string(name));
  return it == values_.end() ? nullptr : &it->second;
}

bool Parser::Define(const Token& name, const Value& v) {
  const std::string key(name.text);
  if (values_.count(key) != 0) return Error(name.loc, "%" + key + " is defined twice");
  values_.emplace(key, v);
  scopes_.back().push_back(key);
  return true;
}

void Parser::CloseScope() {
  for (const std::string& name : scopes_.back()) values_.erase(name);
  scopes_.pop_back();
}

void Parser::SwapNames(std::unordered_map<std::string, Value>* values,
                       std::vector<std::vector<std::string>>* scopes) {
  values->swap(values_);
  scopes->swap(scopes_);
}

bool Parser::DefineAlias(const Token& name, const Type& t) {
  if (aliases_.count(std::string(name.text)) != 0)
    return Error(name.loc, "type alias " + std::string(name.text) + " is defined twice");
  aliases_.emplace(std::string(name.text), t);
  return true;
}

bool Parser::UseInt(const Token& name, Value* out, const char* what) {
  Value* v = Lookup(name.text);
  if (v == nullptr) return Error(name.loc, "%" + std::string(name.text) + " is not defined");
  if (!v->type.IsInteger())
    return Error(name.loc, std::string(what) + " %" + std::string(name.text) + " is " +
                               TypeString(v->type) + ", not an integer");
  *out = *v;
  return true;
}

Value Parser::ConstIndex(int64_t n, SourceLoc loc) {
  Value v;
  v.type.kind = TypeKind::kIndex;
  v.type.bits = 64;
  v.is_const = true;
  v.const_value = n;
  v.reg = NewIntReg();
  Instr in;
  in.code = Code::kConstInt;
  in.loc = loc;
  in.a = v.reg;
  in.imm = n;
  p_->code.push_back(in);
  return v;
}

bool Parser::ParseIntOperand(Value* out, const char* what) {
  Token name;
  return ExpectValueName(&name) && UseInt(name, out, what);
}

uint32_t Parser::NewTileSlot(const Type& type, SourceLoc loc, std::string_view name) {
  TileSlot slot;
  slot.type = type;
  slot.loc = loc;
  slot.def_pc = static_cast<uint32_t>(p_->code.size());
  slot.name = std::string(name);
  if (memory_->TakePendingAddress(slot.name, &slot.addr)) slot.has_addr = true;
  p_->tiles.push_back(slot);
  return static_cast<uint32_t>(p_->tiles.size() - 1);
}

uint32_t Parser::AddParam(std::string_view name, pto_param_kind kind, const Type& type,
                          uint32_t reg) {
  Param param;
  param.name = std::string(name);
  param.kind = kind;
  param.type = type;
  param.reg = reg;
  p_->params.push_back(param);
  return static_cast<uint32_t>(p_->params.size() - 1);
}

bool Parser::UseTile(const Token& name, const Type& type, SourceLoc type_loc, Use use,
                     uint32_t* slot) {
  if (type.kind != TypeKind::kTile)
    return Error(type_loc, "%" + std::string(name.text) + " is used as a tile, but its type is " +
                               TypeString(type));
  Value* v = Lookup(name.text);
  if (v == nullptr) {
    if (p_->is_kernel) return Error(name.loc, "%" + std::string(name.text) + " is not defined");
    if (type.IsBoxedVec())
      return Error(type_loc, "%" + std::string(name.text) + " would be a parameter laid out " +
                                 LayoutName(type) + "; a parameter tile is row-major (none_box)");
    if (type.IsCube())
      return Error(type_loc, "%" + std::string(name.text) + " would be a parameter in the " +
                                 SpaceSpelling(type.space) +
                                 " memory; a snippet's tiles are vec tiles (a kernel loads the "
                                 "cube's tiles from global memory)");
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
    return Error(name.loc,
                 "%" + std::string(name.text) + " is " + TypeString(v->type) + ", not a tile");
  if (!WrittenAs(name, v->type, type, type_loc)) return false;
  // The executor reads vec tiles row-major: a boxed one is an operand of
  // tmov (the layout-changing copy) and of the pipes' push and pop only.
  if (v->type.IsBoxedVec() && !boxed_vec_ok_)
    return Error(type_loc, op_name_ + ": %" + std::string(name.text) + " is a vec tile laid out " +
                               LayoutName(v->type) + " (blayout=" +
                               (v->type.col_major ? "col_major" : "row_major") + ", slayout=" +
                               (v->type.box == Box::kRowMajor ? "row_major" : "col_major") +
                               "); a boxed vec tile is taken by tmov (to change its layout) and "
                               "by the pipes' push and pop only");
  TileSlot& s = p_->tiles[v->reg];
  s.used = true;
  if (use == Use::kWrite && s.param >= 0) p_->params[s.param].access |= PTO_PARAM_WRITE;
  *slot = v->reg;
  return true;
}

bool Parser::ParseTypes(size_t count, std::vector<Type>* types, std::vector<SourceLoc>* locs) {
  types->assign(count, Type());
  locs->assign(count, SourceLoc());
  for (size_t i = 0; i < count; ++i) {
    if (i > 0 && !Expect(',')) return false;
    (*locs)[i] = tok_.loc;
    if (!ParseType(&(*types)[i])) return false;
  }
  return true;
}

bool Parser::ParseOuts(Token* name, Type* type, SourceLoc* type_loc) {
  if (!Expect(')') || !ExpectIdent("outs") || !Expect('(') || !ExpectValueName(name) ||
      !Expect(':'))
    return false;
  *type_loc = tok_.loc;
  return ParseType(type) && Expect(')');
}

bool Parser::ParseAttrDict(std::vector<AttrEntry>* out) {
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
          tok_.kind != Tok::kIdent && tok_.kind != Tok::kFloat && tok_.kind != Tok::kSymbol)
        return Error(tok_.loc, "expected an attribute value, found " + Describe(tok_));
      e.value = tok_;
      Advance();
      // A typed value, `1 : i32` (PTOAS prints integer attributes so).
      if (tok_.Is(':')) {
        Advance();
        e.type_loc = tok_.loc;
        if (!ParseType(&e.type)) return false;
      }
    }
    out->push_back(e);
    if (!tok_.Is(',')) break;
    Advance();
  }
  return Expect('}');
}

bool Parser::UseValue(const Token& name, Value* out) {
  const Value* v = Lookup(name.text);
  if (v == nullptr) return Error(name.loc, "%" + std::string(name.text) + " is not defined");
  *out = *v;
  return true;
}

bool Parser::WrittenAs(const Token& name, const Type& actual, const Type& written, SourceLoc loc) {
  if (SameType(actual, written)) return true;
  return Error(loc, "%" + std::string(name.text) + " is " + TypeString(actual) +
                        ", but is written here as " + TypeString(written));
}

// `T, U, ...` (up to a ')' or '{'), or one type.
bool Parser::ParseTypeList(std::vector<Type>* out, std::vector<SourceLoc>* locs) {
  for (;;) {
    if (locs != nullptr) locs->push_back(tok_.loc);
    Type t;
    if (!ParseType(&t)) return false;
    out->push_back(t);
    if (!tok_.Is(',')) return true;
    Advance();
  }
}

Token Parser::SyntheticName(const std::string& text, SourceLoc loc) {
  names_.push_back(std::make_unique<std::string>(text));
  Token t;
  t.kind = Tok::kValue;
  t.text = *names_.back();
  t.loc = loc;
  return t;
}

}  // namespace program
}  // namespace pto
