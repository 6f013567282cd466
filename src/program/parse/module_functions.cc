// PTO assembly: functions: func.func signatures, the choice of the entry,
// parameters, bodies read where they run, and func.call.
#include <stdlib.h>

#include <string>
#include <unordered_map>
#include <vector>

#include "program/parse/parser.h"
#include "program/parse/readers.h"

namespace pto {
namespace program {

// A func.func's `attributes {...}`: its entry marks, kernel kind, target
// and visibility, into *f; false (an error) for one it does not know.
bool ModuleReader::ParseFuncAttributes(FuncInfo* f) {
  parser_.Advance();
  std::vector<AttrEntry> attrs;
  if (!parser_.ParseAttrDict(&attrs)) return false;
  for (const AttrEntry& e : attrs) {
    if ((e.key == "pto.kernel" || e.key == "pto.entry") && e.value.kind == Tok::kEnd) {
      f->marked_entry = true;
      f->marked_entry_only = true;
    } else if (e.key == "pto.kernel_kind") {
      // A block is one core: a vector kernel runs on the vector core, a
      // cube kernel on the cube.
      if (e.value.text != "#pto.kernel_kind<vector>" && e.value.text != "#pto.kernel_kind<cube>") {
        parser_.Error(e.loc, "pto.kernel_kind must be #pto.kernel_kind<vector> or <cube>");
        return false;
      }
      f->marked_entry = true;
      f->core = static_cast<uint8_t>(e.value.text == "#pto.kernel_kind<cube>" ? CoreKind::kCube
                                                                            : CoreKind::kVector);
    } else if (e.key == "pto.target_arch") {
      if (!SetTarget(e)) return false;
    } else if (e.key == "sym_visibility" && e.value.kind == Tok::kString) {
      f->is_private = e.value.text != "public";
    } else if (e.key == "pto.auto_sync_tail_hint" && e.value.kind == Tok::kString) {
      // A hint to PTOAS's synchronisation pass: one block orders nothing here.
    } else {
      parser_.Error(e.loc, "unknown function attribute '" + std::string(e.key) + "'");
      return false;
    }
  }
  return true;
}

// func.func [private] @name(%a: T, ...) [-> R | -> (R, ...)] [attributes {...}] { body }
// The signature is read now and the body skipped: it is read where it runs.
void ModuleReader::ParseFuncSignature() {
  FuncInfo f;
  f.loc = tok().loc;
  parser_.Advance();
  if (tok().IsIdent("private") || tok().IsIdent("public") || tok().IsIdent("nested")) {
    f.is_private = tok().text != "public";
    parser_.Advance();
  }
  if (tok().kind != Tok::kSymbol) {
    parser_.Error(tok().loc, "expected the function's @name, found " + Describe(tok()));
    return;
  }
  f.name = std::string(tok().text);
  const SourceLoc name_loc = tok().loc;
  parser_.Advance();
  for (const FuncInfo& g : funcs_) {
    if (g.name == f.name) {
      parser_.Error(name_loc, "function @" + f.name + " is defined twice");
      return;
    }
  }
  if (!parser_.Expect('(')) return;
  std::string signature = "@" + f.name + "(";
  while (parser_.ok() && !tok().Is(')')) {
    Token name;
    if (!parser_.ExpectValueName(&name) || !parser_.Expect(':')) return;
    const SourceLoc type_loc = tok().loc;
    Type t;
    if (!parser_.ParseType(&t)) return;
    if (tok().Is('{')) {
      parser_.Error(tok().loc, "argument attributes are not supported");
      return;
    }
    if (!f.param_names.empty()) signature += ", ";
    signature += "%" + std::string(name.text) + ": " + TypeString(t);
    f.param_names.push_back(name);
    f.param_types.push_back(t);
    f.param_locs.push_back(type_loc);
    if (!tok().Is(',')) break;
    parser_.Advance();
  }
  if (!parser_.Expect(')')) return;
  signature += ")";
  if (tok().kind == Tok::kArrow) {
    parser_.Advance();
    const bool list = tok().Is('(');
    if (list) parser_.Advance();
    while (parser_.ok() && !(list && tok().Is(')'))) {
      Type t;
      if (!parser_.ParseType(&t)) return;
      f.result_types.push_back(t);
      if (!list || !tok().Is(',')) break;
      parser_.Advance();
    }
    if (list && !parser_.Expect(')')) return;
    signature += " -> (";
    for (size_t i = 0; i < f.result_types.size(); ++i)
      signature += (i > 0 ? ", " : "") + TypeString(f.result_types[i]);
    signature += ")";
  }
  if (tok().IsIdent("attributes") && !ParseFuncAttributes(&f)) return;
  if (!tok().Is('{')) {
    parser_.Error(tok().loc, "expected the body of @" + f.name + ", found " + Describe(tok()));
    return;
  }
  f.body = parser_.Save();
  // Skips the body: braces balance (types and attributes are single tokens).
  int depth = 0;
  do {
    if (tok().Is('{')) ++depth;
    if (tok().Is('}')) --depth;
    if (tok().kind == Tok::kEnd) {
      parser_.Error(tok().loc, "expected '}' closing @" + f.name + " before the end of the text");
      return;
    }
    parser_.Advance();
  } while (parser_.ok() && depth > 0);
  FunctionSummary summary;
  summary.name = f.name;
  summary.signature = signature;
  summary.is_private = f.is_private;
  p_->functions.push_back(summary);
  funcs_.push_back(std::move(f));
}

// The function to run: the one named (pto-run --entry, pto_program_create_entry),
// else the one marked pto.entry / pto.kernel / pto.kernel_kind (pto.entry or
// pto.kernel where several are marked), else the only public one, else the
// only one.
bool ModuleReader::ChooseEntry(const FuncInfo** entry) {
  auto names = [&](bool (*keep)(const FuncInfo&)) {
    std::string list;
    for (const FuncInfo& f : funcs_)
      if (keep(f)) list += (list.empty() ? "@" : ", @") + f.name;
    return list;
  };
  const FuncInfo *cube = nullptr, *vector = nullptr;
  const bool pair = MixedPair(&cube, &vector);
  if (!entry_.empty()) {
    for (const FuncInfo& f : funcs_) {
      if (f.name != entry_) continue;
      *entry = &f;
      // Either kernel of a cube-and-vector pair names the pair: the two
      // run as a block's cores (one pops what the other pushes).
      if (pair && (&f == cube || &f == vector)) {
        *entry = cube;
        vector_peer_ = vector;
      }
      return true;
    }
    return parser_.Error(funcs_[0].loc, "the module has no function @" + entry_ + " (it has " +
                                            names([](const FuncInfo&) { return true; }) + ")");
  }
  const FuncInfo *marked = nullptr, *public_one = nullptr, *entry_marked = nullptr;
  size_t marked_count = 0, public_count = 0, entry_marked_count = 0;
  for (const FuncInfo& f : funcs_) {
    if (f.marked_entry && marked_count++ == 0) marked = &f;
    if (!f.is_private && public_count++ == 0) public_one = &f;
    if (f.marked_entry_only && entry_marked_count++ == 0) entry_marked = &f;
  }
  // A pto.entry calling its cube and vector kernels (kernel_kind functions,
  // marked too) is the one to run.
  if (marked_count > 1 && entry_marked_count == 1) {
    marked = entry_marked;
    marked_count = 1;
  }
  // A cube kernel and a vector kernel, and no other mark: one mixed kernel,
  // the two run as a block's cores (CompileEntry reads the vector one after
  // the cube one, on the same arguments).
  if (marked_count == 2 && entry_marked_count == 0 && pair) {
    *entry = cube;
    vector_peer_ = vector;
    return true;
  }
  *entry = marked_count == 1                         ? marked
           : marked_count == 0 && public_count == 1 ? public_one
                                                    : nullptr;
  if (*entry == nullptr && marked_count == 0 && funcs_.size() == 1) *entry = &funcs_[0];
  if (*entry != nullptr) return true;
  // No entry: every function is still checked (Build), then the choice is
  // reported, or kept for a program that is only described.
  p_->is_kernel = true;
  p_->no_entry_loc = funcs_[0].loc;
  p_->no_entry =
      marked_count > 1
          ? "the module marks " + std::to_string(marked_count) + " entry functions (" +
                names([](const FuncInfo& f) { return f.marked_entry; }) +
                "): choose one by name (pto-run --entry NAME, pto_program_create_entry)"
          : "the module has " + std::to_string(public_count) + " public functions (" +
                names([](const FuncInfo& f) { return !f.is_private; }) +
                ") and marks none pto.entry: choose one by name (pto-run --entry NAME, "
                "pto_program_create_entry)";
  return false;
}

// The module's one cube kernel and one vector kernel (kernel_kind), where
// they take the same arguments: one mixed kernel.
bool ModuleReader::MixedPair(const FuncInfo** cube, const FuncInfo** vector) const {
  int cubes = 0, vectors = 0;
  for (const FuncInfo& f : funcs_) {
    if (f.core == static_cast<uint8_t>(CoreKind::kCube) && cubes++ == 0) *cube = &f;
    if (f.core == static_cast<uint8_t>(CoreKind::kVector) && vectors++ == 0) *vector = &f;
  }
  return cubes == 1 && vectors == 1 && SameArguments(**cube, **vector);
}

void ModuleReader::CompileEntry(const FuncInfo& f) {
  p_->is_kernel = true;
  for (FunctionSummary& s : p_->functions) s.is_entry = s.name == f.name;
  if (!f.result_types.empty() && !check_only_) {
    parser_.Error(f.loc,
                  "the entry function @" + f.name + " returns results: a kernel returns none");
    return;
  }
  p_->inlined.push_back(f.name);
  call_stack_.push_back(f.name);
  parser_.Restore(f.body);
  parser_.OpenScope();
  std::vector<Value> peer_args;  // a cube-and-vector pair's arguments
  for (size_t i = 0; i < f.param_names.size() && parser_.ok(); ++i) {
    BindParam(f.param_names[i], f.param_types[i], f.param_locs[i]);
    const Value* v = parser_.Lookup(f.param_names[i].text);
    if (parser_.ok() && v != nullptr && f.param_names[i].text.substr(0, 13) != "__pypto_spmd_")
      peer_args.push_back(*v);
  }
  uint32_t section = kNoSlot;
  uint8_t outer = 0;
  if (parser_.ok() && f.core != 0)
    parser_.pipes().BeginSection(static_cast<CoreKind>(f.core), f.loc, "@" + f.name, &section,
                                 &outer);
  std::vector<Value> returned;
  if (parser_.ok()) ParseBody(f, &returned);
  if (parser_.ok()) parser_.pipes().EndSection(section, outer);
  parser_.CloseScope();
  if (parser_.ok() && vector_peer_ != nullptr) CompileVectorPeer(*vector_peer_, peer_args);
}

// A function's parameters the run binds (not the launch's: its block and
// subblock identity), in order.
static std::vector<size_t> BoundParams(const FuncInfo& f) {
  std::vector<size_t> out;
  for (size_t i = 0; i < f.param_names.size(); ++i)
    if (f.param_names[i].text.substr(0, 13) != "__pypto_spmd_") out.push_back(i);
  return out;
}

bool ModuleReader::SameArguments(const FuncInfo& a, const FuncInfo& b) const {
  const std::vector<size_t> pa = BoundParams(a), pb = BoundParams(b);
  if (pa.size() != pb.size()) return false;
  for (size_t i = 0; i < pa.size(); ++i)
    if (!SameType(a.param_types[pa[i]], b.param_types[pb[i]])) return false;
  return true;
}

// The vector kernel of a cube-and-vector pair: its body as the vector
// cores' section, its parameters bound to the cube kernel's (`args`, in
// order), the launch's identity bound as in any entry.
void ModuleReader::CompileVectorPeer(const FuncInfo& f, const std::vector<Value>& args) {
  for (FunctionSummary& s : p_->functions)
    if (s.name == f.name) s.is_entry = true;
  p_->inlined.push_back(f.name);
  call_stack_.push_back(f.name);
  parser_.Restore(f.body);
  parser_.OpenScope();
  size_t next = 0;
  for (size_t i = 0; i < f.param_names.size() && parser_.ok(); ++i) {
    if (f.param_names[i].text.substr(0, 13) == "__pypto_spmd_")
      BindParam(f.param_names[i], f.param_types[i], f.param_locs[i]);
    else parser_.Define(f.param_names[i], args[next++]);
  }
  uint32_t section = kNoSlot;
  uint8_t outer = 0;
  if (parser_.ok())
    parser_.pipes().BeginSection(CoreKind::kVector, f.loc, "@" + f.name, &section, &outer);
  std::vector<Value> returned;
  if (parser_.ok()) ParseBody(f, &returned);
  if (parser_.ok()) parser_.pipes().EndSection(section, outer);
  parser_.CloseScope();
  call_stack_.pop_back();
}

// An entry parameter: bound by the caller of the run.
bool ModuleReader::BindParam(const Token& name, const Type& t, SourceLoc type_loc) {
  Value v;
  v.type = t;
  // PyPTO's code generator passes the block identity as trailing i32
  // parameters of these names, which its launcher binds (get_block_idx,
  // get_block_num, the subblock id): here the launch binds them, as
  // pto.get_block_idx and friends; they are not parameters of the caller's.
  static const struct {
    const char* name;
    Code code;
    int64_t value;
  } kLaunchBound[] = {{"__pypto_spmd_block_idx", Code::kBlockIdx, 0},
                      {"__pypto_spmd_block_num", Code::kBlockNum, 0},
                      {"__pypto_spmd_subblock_idx", Code::kSubblock, 0}};
  for (const auto& bound : kLaunchBound) {
    if (name.text != bound.name) continue;
    if (!t.IsInteger())
      return parser_.Error(type_loc,
                           "%" + std::string(name.text) +
                               " is set by the launch (the block's identity): an integer, "
                               "not " +
                               TypeString(t));
    Instr in;
    in.code = bound.code;
    in.loc = name.loc;
    in.imm = bound.value;
    v.reg = in.a = parser_.NewIntReg();
    p_->code.push_back(in);
    return parser_.Define(name, v);
  }
  switch (t.kind) {
    case TypeKind::kPtr:
      v.reg = p_->pointer_count++;
      p_->pointer_root.push_back(v.reg);
      parser_.AddParam(name.text, PTO_PARAM_POINTER, t, v.reg);
      break;
    case TypeKind::kInt:
    case TypeKind::kIndex:
      v.reg = parser_.NewIntReg();
      parser_.AddParam(name.text, PTO_PARAM_INT, t, v.reg);
      p_->params.back().access = PTO_PARAM_READ;
      break;
    case TypeKind::kFloat:
      v.reg = p_->float_regs++;
      parser_.AddParam(name.text, PTO_PARAM_FLOAT, t, v.reg);
      p_->params.back().access = PTO_PARAM_READ;
      break;
    case TypeKind::kTile: {
      if (t.IsBoxedVec())
        return parser_.Error(type_loc,
                             "%" + std::string(name.text) +
                                 ": a parameter tile is row-major (slayout=none_box), not boxed");
      v.reg = parser_.NewTileSlot(t, name.loc, name.text);
      const uint32_t index = parser_.AddParam(name.text, PTO_PARAM_TILE, t, v.reg);
      p_->tiles[v.reg].param = static_cast<int32_t>(index);
      p_->params[index].access = PTO_PARAM_READ;
      break;
    }
    case TypeKind::kVector:
      // tmrgsort's executed counts (PTOAS's `%ex: vector<4xi16>`): a value
      // the instruction cannot change, so nothing for the caller to bind.
      break;
    case TypeKind::kTensorView:
      if (t.memref) return parser_.memory().BindMemref(name, t);
      [[fallthrough]];
    case TypeKind::kPartitionView:
      // Only a called function takes views; checked alone, it is never run.
      if (check_only_) {
        v.reg = p_->view_regs++;
        break;
      }
      [[fallthrough]];
    default:
      return parser_.Error(type_loc, "a parameter of type " + TypeString(t) + " is not supported");
  }
  return parser_.Define(name, v);
}

// `{ operations return [%v, ... : T, ...] }` at the cursor, the parameters
// already defined; the returned values in *returned.
bool ModuleReader::ParseBody(const FuncInfo& f, std::vector<Value>* returned) {
  if (!parser_.Expect('{')) return false;
  parser_.OpenScope();
  bool done = false;
  while (parser_.ok() && !tok().Is('}')) {
    if (done) return parser_.Error(tok().loc, "operation after return");
    if (tok().kind == Tok::kEnd)
      return parser_.Error(tok().loc, "expected '}' before the end of the text");
    if (!tok().IsIdent("return") && !tok().IsIdent("func.return")) {
      const SourceLoc at = tok().loc;
      parser_.ParseOperation();
      if (parser_.ok() && parser_.scalar().pending_yield().seen)
        return parser_.Error(at, "scf.yield or scf.condition outside a region");
      continue;
    }
    const SourceLoc loc = tok().loc;
    parser_.Advance();
    done = true;
    std::vector<Token> names;
    parser_.ParseValueNames(&names);
    if (names.empty()) continue;
    if (tok().Is('=') || (tok().Is(':') && parser_.Peek().kind == Tok::kInt))
      return parser_.Error(names[0].loc, "operation after return");
    if (call_stack_.size() == 1 && !check_only_)
      return parser_.Error(names[0].loc, "a kernel returns no results");
    if (names.size() != f.result_types.size())
      return parser_.Error(loc, "@" + f.name + " returns " + std::to_string(f.result_types.size()) +
                                    " values, not " + std::to_string(names.size()));
    if (!parser_.Expect(':')) return false;
    for (size_t i = 0; i < names.size(); ++i) {
      if (i > 0 && !parser_.Expect(',')) return false;
      const SourceLoc type_loc = tok().loc;
      Type t;
      if (!parser_.ParseType(&t)) return false;
      const Value* v = parser_.Lookup(names[i].text);
      if (v == nullptr)
        return parser_.Error(names[i].loc, "%" + std::string(names[i].text) + " is not defined");
      if (!SameType(v->type, t) || !SameType(t, f.result_types[i]))
        return parser_.Error(type_loc, "return value " + std::to_string(i) + " is " +
                                           TypeString(v->type) + ", written as " + TypeString(t) +
                                           "; @" + f.name + " returns " +
                                           TypeString(f.result_types[i]));
      returned->push_back(*v);
    }
  }
  if (parser_.ok() && !done && !f.result_types.empty())
    parser_.Error(tok().loc, "@" + f.name + " ends without returning its results");
  parser_.CloseScope();
  return parser_.Expect('}');
}

// A func.call's types after its operands: `: (T, ...) -> R` or `-> (R, ...)`.
bool ModuleReader::ParseCallTypes(std::vector<Type>* types, std::vector<Type>* result_types) {
  while (parser_.ok() && !tok().Is(')')) {
    Type t;
    if (!parser_.ParseType(&t)) return false;
    types->push_back(t);
    if (!tok().Is(',')) break;
    parser_.Advance();
  }
  if (!parser_.Expect(')') || !parser_.ExpectArrow()) return false;
  const bool list = tok().Is('(');
  if (list) parser_.Advance();
  while (parser_.ok() && !(list && tok().Is(')'))) {
    Type t;
    if (!parser_.ParseType(&t)) return false;
    result_types->push_back(t);
    if (!list || !tok().Is(',')) break;
    parser_.Advance();
  }
  return !list || parser_.Expect(')');
}

// [%r, ... =] func.call @f(%a, ...) : (T, ...) -> (R, ...): f's body read
// here, with its parameters bound to the arguments (tiles by reference,
// scalars by value) and its returned values as the results.
void ModuleReader::ParseCall(const Token& op, const std::vector<Token>& results) {
  if (tok().kind != Tok::kSymbol)
    return (void)parser_.Error(tok().loc,
                               "expected the called @function, found " + Describe(tok()));
  const Token callee = tok();
  parser_.Advance();
  std::vector<Token> names;
  if (!parser_.Expect('(')) return;
  parser_.ParseValueNames(&names);
  if (!parser_.Expect(')') || !parser_.Expect(':') || !parser_.Expect('(')) return;
  std::vector<Type> types, result_types;
  if (!ParseCallTypes(&types, &result_types)) return;
  const FuncInfo* f = nullptr;
  for (const FuncInfo& g : funcs_)
    if (g.name == callee.text) f = &g;
  if (f == nullptr)
    return (void)parser_.Error(callee.loc,
                               "no function @" + std::string(callee.text) + " in the module");
  for (const std::string& active : call_stack_) {
    if (active == f->name)
      return (void)parser_.Error(
          callee.loc,
          "recursive call of @" + f->name + " (functions calling themselves are not supported)");
  }
  if (names.size() != types.size() || names.size() != f->param_types.size())
    return (void)parser_.Error(op.loc, "@" + f->name + " takes " +
                                           std::to_string(f->param_types.size()) +
                                           " arguments, not " + std::to_string(names.size()));
  if (results.size() != f->result_types.size() || result_types.size() != results.size())
    return (void)parser_.Error(op.loc, "@" + f->name + " returns " +
                                           std::to_string(f->result_types.size()) +
                                           " values, not " + std::to_string(results.size()));
  std::vector<Value> args;
  for (size_t i = 0; i < names.size(); ++i) {
    const Value* v = parser_.Lookup(names[i].text);
    if (v == nullptr)
      return (void)parser_.Error(names[i].loc,
                                 "%" + std::string(names[i].text) + " is not defined");
    if (!SameType(v->type, types[i]) || !SameType(types[i], f->param_types[i]))
      return (void)parser_.Error(names[i].loc, "argument " + std::to_string(i) + " is " +
                                                   TypeString(v->type) + "; @" + f->name +
                                                   " takes " + TypeString(f->param_types[i]));
    args.push_back(*v);
  }
  for (size_t i = 0; i < result_types.size(); ++i) {
    if (!SameType(result_types[i], f->result_types[i]))
      return (void)parser_.Error(op.loc, "result " + std::to_string(i) + " is written as " +
                                             TypeString(result_types[i]) + "; @" + f->name +
                                             " returns " + TypeString(f->result_types[i]));
  }
  // The callee sees its parameters only.
  const Cursor back = parser_.Save();
  const Yield caller_yield = parser_.scalar().SwapYield(Yield());
  std::unordered_map<std::string, Value> caller_values;
  std::vector<std::vector<std::string>> caller_scopes;
  parser_.SwapNames(&caller_values, &caller_scopes);
  call_stack_.push_back(f->name);
  p_->inlined.push_back(f->name);
  parser_.Restore(f->body);
  parser_.OpenScope();
  for (size_t i = 0; i < args.size() && parser_.ok(); ++i)
    parser_.Define(f->param_names[i], args[i]);
  // A kernel_kind function is its core's code.
  uint32_t section = kNoSlot;
  uint8_t outer_core = 0;
  if (parser_.ok() && f->core != 0)
    parser_.pipes().BeginSection(static_cast<CoreKind>(f->core), op.loc, "@" + f->name, &section,
                                 &outer_core);
  std::vector<Value> returned;
  if (parser_.ok()) ParseBody(*f, &returned);
  if (parser_.ok()) parser_.pipes().EndSection(section, outer_core);
  call_stack_.pop_back();
  parser_.scalar().SwapYield(caller_yield);
  parser_.SwapNames(&caller_values, &caller_scopes);
  if (!parser_.ok()) return;
  parser_.Restore(back);
  if (p_->code.size() > kMaxInstructions)
    return (void)parser_.Error(op.loc, "the program exceeds " + std::to_string(kMaxInstructions) +
                                           " instructions with its calls read in place");
  for (size_t i = 0; i < results.size() && parser_.ok(); ++i)
    parser_.Define(results[i], returned[i]);
}

}  // namespace program
}  // namespace pto
