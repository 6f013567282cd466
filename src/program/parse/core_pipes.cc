// PTO assembly: the cores of a block and the pipes between them. A
// kernel_kind function's body and a pto.section.cube / pto.section.vector
// region are a core's code (a kSection instruction); pto.aic_initialize_pipe
// and pto.aiv_initialize_pipe declare a pipe's two ends, tpush_to_aiv /
// tpop_from_aic / tfree_from_aic its cube-to-vector direction and
// tpush_to_aic / tpop_from_aiv / tfree_from_aiv the other (PTOAS's manual,
// 4.18, and its verifier; pto-isa's TPUSH, TPOP and TFREE pages). The
// blocks run them in execute_pipes.cc.
#include <stdlib.h>

#include <string>

#include "board.h"
#include "program/ir/types.h"
#include "program/parse/parser.h"
#include "program/parse/readers.h"

namespace pto {
namespace program {
namespace {

const char* CoreName(uint8_t core) { return core == 1 ? "cube" : "vector"; }

// PTOAS's SLOT_NUM: 8 for a one-way pipe, 4 each way for dir_mask = 3,
// unless the text gives slot_num.
constexpr uint32_t kOneWayDepth = 8, kTwoWayDepth = 4;

bool IntAttr(const AttrEntry& e, int64_t* out) {
  if (e.value.kind != Tok::kInt) return false;
  *out = strtoll(std::string(e.value.text).c_str(), nullptr, 10);
  return true;
}

}  // namespace

bool CoreReader::BeginSection(CoreKind kind, SourceLoc loc, const std::string& what, uint32_t* at,
                              uint8_t* outer) {
  const uint8_t k = static_cast<uint8_t>(kind);
  *outer = core_;
  *at = kNoSlot;
  if (core_ == k) return true;
  if (core_ != 0)
    return parser_.Error(loc, what + " is " + CoreName(k) + " code inside " + CoreName(core_) +
                                  " code (a core runs its own sections only)");
  core_ = k;
  Instr in;
  in.code = Code::kSection;
  in.sub = k;
  in.loc = loc;
  *at = static_cast<uint32_t>(p_->code.size());
  p_->code.push_back(in);
  return true;
}

void CoreReader::EndSection(uint32_t at, uint8_t outer) {
  core_ = outer;
  if (at != kNoSlot) p_->code[at].target = static_cast<uint32_t>(p_->code.size());
}

void CoreReader::ParseSection(const Token& op) {
  const std::string what(op.text);
  uint32_t at;
  uint8_t outer_core;
  if (!BeginSection(op.text == "pto.section.cube" ? CoreKind::kCube : CoreKind::kVector, op.loc,
                    what, &at, &outer_core))
    return;
  if (parser_.scalar().ParseBareRegion(what)) EndSection(at, outer_core);
}

bool CoreReader::CheckLaterRules() {
  return later_error_.empty() || parser_.Error(later_loc_, later_error_);
}

void CoreReader::ParsePipeOp(const Token& op, const std::vector<Token>& results) {
  const std::string_view n = op.text;
  if (n == "pto.reserve_buffer" || n == "pto.import_reserved_buffer")
    return ParseReserveBuffer(op, results, n == "pto.import_reserved_buffer");
  if (n == "pto.set_quant_scalar" || n == "pto.set_quant_vector") {
    if (!results.empty()) return (void)parser_.Error(op.loc, std::string(n) + " defines no result");
    return ParseSetQuant(op);
  }
  if (n == "pto.aic_initialize_pipe" || n == "pto.aiv_initialize_pipe") {
    if (!results.empty()) return (void)parser_.Error(op.loc, std::string(n) + " defines no result");
    return ParseInitializePipe(op, n == "pto.aic_initialize_pipe");
  }
  // Each transfer and the direction it belongs to (c2v: cube to vector).
  static const struct {
    const char* name;
    PipeOp kind;
    bool c2v;
  } kTransfers[] = {
      {"pto.tpush_to_aiv", PipeOp::kPush, true},    {"pto.tpush_to_aic", PipeOp::kPush, false},
      {"pto.tpop_from_aic", PipeOp::kPop, true},    {"pto.tpop_from_aiv", PipeOp::kPop, false},
      {"pto.tfree_from_aic", PipeOp::kFree, true},  {"pto.tfree_from_aiv", PipeOp::kFree, false},
      {"pto.talloc_to_aiv", PipeOp::kAlloc, true},  {"pto.talloc_to_aic", PipeOp::kAlloc, false},
  };
  for (const auto& t : kTransfers)
    if (n == t.name) return ParsePipeTransfer(op, results, t.kind, t.c2v);
  parser_.Error(op.loc, "operation '" + std::string(n) + "' is not supported");
}

// %b = pto.reserve_buffer {name = "..", size = N, location = #pto.address_space<vec|mat>,
//                          auto = true | auto = false, base = N} -> i32
// %b = pto.import_reserved_buffer {name = "..", peer_func = @f} -> i32
// The consumer's local buffer of a pipe. A popped tile here has a tile of
// its own in the consumer's memory (placed as pto.alloc_tile's), so the
// buffer's address is only checked for form.
void CoreReader::ParseReserveBuffer(const Token& op, const std::vector<Token>& results,
                                    bool import) {
  const std::string what(op.text);
  if (results.size() != 1) return (void)parser_.Error(op.loc, what + " defines one result");
  std::vector<AttrEntry> attrs;
  if (!parser_.ParseAttrDict(&attrs) || !parser_.ExpectArrow()) return;
  const SourceLoc type_loc = tok().loc;
  Type t;
  if (!parser_.ParseType(&t)) return;
  if (t.kind != TypeKind::kInt || t.bits != 32)
    return (void)parser_.Error(type_loc, what + " gives an i32");
  Reserved r;
  bool has_name = false, has_auto = false, automatic = false, has_base = false, has_peer = false;
  bool has_location = false;
  std::string peer;
  for (const AttrEntry& e : attrs) {
    int64_t v = 0;
    if (e.key == "name" && e.value.kind == Tok::kString) {
      r.name = std::string(e.value.text);
      has_name = true;
    } else if (!import && e.key == "size" && IntAttr(e, &v)) {
      if (v <= 0) return (void)parser_.Error(e.loc, what + ": size must be greater than 0");
      r.size = static_cast<uint64_t>(v);
    } else if (!import && e.key == "location" && e.value.kind == Tok::kAttr) {
      const std::string_view text = e.value.text;
      if (text == "#pto.address_space<vec>") r.location = Space::kVec;
      else if (text == "#pto.address_space<mat>") r.location = Space::kMat;
      else
        return (void)parser_.Error(e.loc, what +
                                              ": location must be #pto.address_space<vec> or "
                                              "#pto.address_space<mat>, not " +
                                              std::string(text));
      has_location = true;
    } else if (!import && e.key == "auto" && e.value.kind == Tok::kIdent &&
               (e.value.text == "true" || e.value.text == "false")) {
      has_auto = true;
      automatic = e.value.text == "true";
    } else if (!import && e.key == "base" && IntAttr(e, &v)) {
      if (v < 0) return (void)parser_.Error(e.loc, what + ": base must not be negative");
      has_base = true;
    } else if (import && e.key == "peer_func" && e.value.kind == Tok::kSymbol) {
      peer = std::string(e.value.text);
      has_peer = true;
    } else {
      return (void)parser_.Error(e.loc,
                                 what + ": unexpected attribute '" + std::string(e.key) + "'");
    }
  }
  if (!has_name) return (void)parser_.Error(op.loc, what + " needs name = \"...\"");
  if (import) {
    if (!has_peer) return (void)parser_.Error(op.loc, what + " needs peer_func = @function");
    const FuncInfo* f = nullptr;
    for (const FuncInfo& g : parser_.module().functions())
      if (g.name == peer) f = &g;
    if (f == nullptr)
      return (void)parser_.Error(
          op.loc, what + ": peer_func @" + peer + " is not a function of the module");
  } else {
    if (r.size == 0 || !has_location || !has_auto)
      return (void)parser_.Error(op.loc, what + " needs size, location and auto");
    if (!automatic && !has_base)
      return (void)parser_.Error(op.loc, what + ": auto = false needs base");
    if (automatic && has_base)
      return (void)parser_.Error(op.loc,
                                 what + ": auto = true places the buffer; base is not given");
  }
  Value v;
  v.type = t;
  v.reg = parser_.NewIntReg();
  Instr in;
  in.code = Code::kConstInt;  // the address: unused, the popped tiles have their own
  in.a = v.reg;
  in.loc = op.loc;
  p_->code.push_back(in);
  if (!import) reserved_[v.reg] = r;
  parser_.Define(results[0], v);
}

// pto.aic_initialize_pipe {[id = N,] dir_mask = 1|2|3, slot_size = N[, slot_num = N]
//   [, nosplit = B][, acc_push_epilogue = #..]} [(gm_slot_buffer = %p : !pto.ptr<T>,]
//   c2v_consumer_buf = %b : i32, v2c_consumer_buf = %b : i32)
// (aiv_ likewise in a vector core's code). Declares Program::pipes entries,
// one per direction, which both ends must declare alike.
void CoreReader::ParseInitializePipe(const Token& op, bool cube) {
  const std::string what(op.text);
  const uint8_t side = cube ? 1 : 2;
  if (core_ != side)
    return (void)parser_.Error(op.loc, what + " must be inside a " + CoreName(side) +
                                           " kernel function (pto.kernel_kind<" + CoreName(side) +
                                           ">) or a pto.section." + CoreName(side));
  std::vector<AttrEntry> attrs;
  if (!parser_.ParseAttrDict(&attrs)) return;
  int64_t id = 0, dir = 0, slot_size = 0, slot_num = -1;  // -1: PTOAS's default
  int64_t flag_base = -1;
  PipeEpilogue epilogue;
  for (const AttrEntry& e : attrs) {
    int64_t v = 0;
    if (e.key == "acc_push_epilogue") {
      if (ParseEpilogue(e, &epilogue)) continue;
      return;
    } else if (e.key == "id" && IntAttr(e, &v)) id = v;
    else if (e.key == "dir_mask" && IntAttr(e, &v)) dir = v;
    else if (e.key == "slot_size" && IntAttr(e, &v)) slot_size = v;
    else if (e.key == "slot_num" && IntAttr(e, &v)) slot_num = v;
    else if (e.key == "nosplit" && e.value.kind == Tok::kIdent) continue;
    else if (e.key == "flag_base" && IntAttr(e, &v) && v >= 0) flag_base = v;
    else
      return (void)parser_.Error(e.loc,
                                 what + ": attribute '" + std::string(e.key) +
                                     "' is not implemented (id, dir_mask, slot_size, slot_num, "
                                     "nosplit, flag_base, acc_push_epilogue)");
  }
  if (dir != 1 && dir != 2 && dir != 3)
    return (void)parser_.Error(op.loc,
                               what +
                                   " expects dir_mask to be 1 (cube to vector), 2 (vector to "
                                   "cube) or 3 (both)");
  if (slot_size <= 0)
    return (void)parser_.Error(op.loc, what + " expects slot_size greater than 0");
  // A pipe's cores signal each other through hardware flags: 2 ids a
  // direction, 4 for a two-way pipe, out of 16 for a kernel function's
  // pipes (PTOAS's verifier and its ResolveReservedBuffers pass).
  const int64_t flags = dir == 3 ? 4 : 2;
  if (flag_base >= 0 && flag_base + flags > kFlagIds)
    return (void)parser_.Error(op.loc, what + ": flag_base " + std::to_string(flag_base) +
                                           " and dir_mask " + std::to_string(dir) +
                                           " need flag ids up to " +
                                           std::to_string(flag_base + flags - 1) + "; there are " +
                                           std::to_string(kFlagIds) + " (0 to 15)");
  flag_ids_[side] += static_cast<uint32_t>(flags);
  if (flag_ids_[side] > kFlagIds)
    return (void)parser_.Error(op.loc, what + ": with pipe " + std::to_string(id) + " the " +
                                           CoreName(side) + "'s pipes need " +
                                           std::to_string(flag_ids_[side]) +
                                           " hardware flag ids, more "
                                           "than the " +
                                           std::to_string(kFlagIds) +
                                           " there are (a pipe takes 2, or 4 with dir_mask = 3)");
  // A slot holds one tile: no larger than the largest tile.
  if (static_cast<uint64_t>(slot_size) > PTO_TILE_MAX_BYTES)
    return (void)parser_.Error(op.loc, what + ": slot_size " + std::to_string(slot_size) +
                                           " is larger than a tile may be (PTO_TILE_MAX_BYTES)");
  if (slot_num != -1 && (slot_num < 1 || slot_num > 64))
    return (void)parser_.Error(
        op.loc, what + ": slot_num " + std::to_string(slot_num) + " is outside 1 to 64");
  const uint32_t depth = slot_num > 0 ? static_cast<uint32_t>(slot_num)
                                      : (dir == 3 ? kTwoWayDepth : kOneWayDepth);
  // The operands: the GM slot buffer (A2A3's way between the cores) and
  // the consumers' local buffers.
  bool has_gm = false;
  Instr init;  // where the slots in global memory lie, for this core
  init.code = Code::kPipe;
  init.sub = static_cast<uint8_t>(PipeOp::kInit);
  init.a = kNoSlot;
  init.loc = op.loc;
  uint32_t gm_pointer = 0;
  if (tok().Is('(') &&
      !ParsePipeOperands(what, side, uint64_t(slot_size) * depth, &init, &has_gm, &gm_pointer))
    return;
  if (p_->profile == PTO_PROFILE_A2A3 && !has_gm)
    return (void)parser_.Error(op.loc, what +
                                           ": under A2A3 the cores exchange slots through global "
                                           "memory: give gm_slot_buffer = %ptr");
  for (int d = 0; d < 2; ++d) {
    const bool c2v = d == 0;
    if ((dir & (c2v ? 1 : 2)) == 0) continue;
    size_t k = 0;
    while (k < p_->pipes.size() && !(p_->pipes[k].id == id && p_->pipes[k].c2v == c2v)) ++k;
    if (k == p_->pipes.size()) {
      PipeDecl decl;
      decl.id = id;
      decl.c2v = c2v;
      decl.slot_size = static_cast<uint64_t>(slot_size);
      decl.depth = depth;
      decl.loc = op.loc;
      decl.epilogue = epilogue;
      p_->pipes.push_back(decl);
      pipe_sides_.push_back(0);
    }
    // A two-way pipe's vector-to-cube slots follow its cube-to-vector ones.
    if (!c2v && dir == 3) p_->pipes[k].gm_region = uint64_t(slot_size) * depth;
    const PipeDecl& decl = p_->pipes[k];
    if (decl.slot_size != static_cast<uint64_t>(slot_size) || decl.depth != depth)
      return (void)parser_.Error(
          op.loc, what + ": pipe " + std::to_string(id) + " (" +
                      (c2v ? "cube to vector" : "vector to cube") + ") has " +
                      std::to_string(depth) + " slots of " + std::to_string(slot_size) +
                      " bytes here and " + std::to_string(decl.depth) + " of " +
                      std::to_string(decl.slot_size) + " at line " + std::to_string(decl.loc.line) +
                      ": both ends must agree");
    if (!EpilogueAgrees(op, decl, epilogue, dir)) return;
    pipe_sides_[k] |= side;
    if (has_gm) {
      pipe_gm_[static_cast<uint32_t>(k * 2 + side - 1)] = gm_pointer;
      init.b = static_cast<uint32_t>(k);
      p_->code.push_back(init);
      NoteVectorCores(Split::kNone);
    }
  }
}

// `(gm_slot_buffer = %p : T, c2v_consumer_buf = %b : i32, ...)` of a pipe
// initialisation (named what) on the core `side`, whose slots take
// slots_bytes: where the slots in global memory lie (*init's c and d,
// *gm_pointer) and the consumer buffers checked against the slots.
bool CoreReader::ParsePipeOperands(const std::string& what, uint8_t side, uint64_t slots_bytes,
                                   Instr* init, bool* has_gm, uint32_t* gm_pointer) {
  parser_.Advance();
  while (parser_.ok() && !tok().Is(')')) {
    if (tok().kind != Tok::kIdent)
      return parser_.Error(tok().loc,
                           what + ": expected name = %value : type, found " + Describe(tok()));
    const Token key = tok();
    parser_.Advance();
    Token name;
    if (!parser_.Expect('=') || !parser_.ExpectValueName(&name) || !parser_.Expect(':'))
      return false;
    const SourceLoc type_loc = tok().loc;
    Type t;
    if (!parser_.ParseType(&t)) return false;
    const Value* v = parser_.Lookup(name.text);
    if (v == nullptr)
      return parser_.Error(name.loc, "%" + std::string(name.text) + " is not defined");
    if (!SameType(v->type, t))
      return parser_.Error(type_loc, "%" + std::string(name.text) + " is " + TypeString(v->type));
    if (key.text == "gm_slot_buffer" || key.text == "gm_slot_tensor") {
      if (t.kind != TypeKind::kPtr && t.kind != TypeKind::kTensorView)
        return parser_.Error(
            type_loc, what + ": " + std::string(key.text) + " is a global-memory pointer or view");
      *has_gm = true;
      init->c = t.kind == TypeKind::kPtr ? 1 : 2;
      init->d = v->reg;
      if (t.kind == TypeKind::kPtr) *gm_pointer = v->reg;
      else if (!parser_.memory().FindViewPointer(v->reg, gm_pointer))
        return parser_.Error(name.loc, what + ": %" + std::string(name.text) +
                                           " is a view parameter, which has no memory here "
                                           "(make it with pto.make_tensor_view)");
    } else if (key.text == "c2v_consumer_buf" || key.text == "v2c_consumer_buf") {
      if (t.kind != TypeKind::kInt || t.bits != 32)
        return parser_.Error(type_loc, what + ": " + std::string(key.text) + " is an i32");
      const bool c2v_buf = key.text == "c2v_consumer_buf";
      const auto r = reserved_.find(v->reg);
      // The consumer's own reserve_buffer: in the vec memory for the
      // vector cores' end, in mat for the cube's, SLOT_SIZE x SLOT_NUM long.
      if (r != reserved_.end() && side == (c2v_buf ? 2 : 1)) {
        const Space want = c2v_buf ? Space::kVec : Space::kMat;
        if (r->second.location != want)
          return parser_.Error(name.loc, what + ": the " +
                                             (c2v_buf ? "cube-to-vector" : "vector-to-cube") +
                                             " consumer buffer \"" + r->second.name + "\" is in " +
                                             SpaceSpelling(r->second.location) +
                                             "; it must be in " + SpaceSpelling(want));
        // Reported once the whole text is read (PTOAS's manual asks this
        // size; its verifier's rules, the flag ids above, come first).
        // Neither PTOAS's verifier nor pto-isa checks it: in board mode
        // under A2A3 and A5 a smaller buffer is a warning (PTOAS's A5
        // Movfp sample reserves 4 of its 8 slots).
        const bool smaller = r->second.size > 0 && r->second.size < slots_bytes;
        if (smaller && BoardRelaxes(p_->profile)) {
          BoardWarn(what.c_str(), "the consumer buffer \"%s\" is %lld bytes, less than slot_size x "
                    "slot_num = %llu", r->second.name.c_str(), static_cast<long long>(r->second.size),
                    static_cast<unsigned long long>(slots_bytes));
        } else if (r->second.size != slots_bytes && later_error_.empty()) {
          later_loc_ = name.loc;
          later_error_ = what + ": the consumer buffer \"" + r->second.name + "\" is " +
                         std::to_string(r->second.size) + " bytes; slot_size x slot_num is " +
                         std::to_string(slots_bytes);
        }
      }
    } else {
      return parser_.Error(key.loc, what + ": unknown operand '" + std::string(key.text) + "'");
    }
    if (!tok().Is(',')) break;
    parser_.Advance();
  }
  return parser_.Expect(')');
}

// The id and split attributes of a push, pop or free: split 0 gives each
// vector core the whole tile, 1 and 2 its half of the rows or columns.
bool CoreReader::PipeSplit(const Token& op, const std::vector<AttrEntry>& attrs, bool c2v,
                           int64_t* id, Split* split) {
  const std::string what(op.text);
  int64_t s = 0;
  *id = 0;
  for (const AttrEntry& e : attrs) {
    int64_t v = 0;
    if (e.key == "id" && IntAttr(e, &v)) *id = v;
    else if (e.key == "split" && IntAttr(e, &v)) s = v;
    else
      return parser_.Error(
          e.loc, what + ": unexpected attribute '" + std::string(e.key) + "' (id, split)");
  }
  if (s < 0 || s > 2) return parser_.Error(op.loc, what + " expects split to be 0, 1 or 2");
  *split = static_cast<Split>(s);
  (void)c2v;
  return true;
}

// pto.tpush_to_aiv(%t : T) {id = N, split = S}      (cube: an acc tile)
// pto.tpush_to_aic(%t : T) {id = N, split = S}      (vector: a vec tile)
// %t = pto.tpop_from_aic[(%rows, %cols)] {..} -> T  (vector: a vec tile)
// %t = pto.tpop_from_aiv[(%rows, %cols)] {..} -> T  (cube: a mat tile)
// pto.tfree_from_aic {..}   pto.tfree_from_aiv {..}
// and the forms of slots in global memory (pto-isa's GlobalData overloads):
// %v = pto.talloc_to_aiv {..} -> !pto.tensor_view<RxCxT> (a producer's slot to
// write), pto.tpush_to_aiv(%v : V) (commits it), %v = pto.tpop_from_aic {..}
// -> V (a consumer's slot to read), pto.tfree_from_aic(%v : V); _aic/_aiv alike.
void CoreReader::ParsePipeTransfer(const Token& op, const std::vector<Token>& results, PipeOp kind,
                                   bool c2v) {
  const std::string what(op.text);
  // The core this end runs on: the producer's for a push or an alloc, else
  // the consumer's.
  const bool producer = kind == PipeOp::kPush || kind == PipeOp::kAlloc;
  const uint8_t side = producer == c2v ? 1 : 2;
  if (core_ != side)
    return (void)parser_.Error(op.loc, what + " must be inside a " + CoreName(side) +
                                           " kernel function (pto.kernel_kind<" + CoreName(side) +
                                           ">) or a pto.section." + CoreName(side));
  const bool gives = kind == PipeOp::kPop || kind == PipeOp::kAlloc;
  if (results.size() != (gives ? 1u : 0u))
    return (void)parser_.Error(op.loc,
                               what + (gives ? " defines one result" : " defines no result"));
  Instr in;
  in.code = Code::kPipe;
  in.sub = static_cast<uint8_t>(kind);
  in.loc = op.loc;
  in.a = kNoSlot;
  Token operand;
  Type type;  // the tile or view pushed, popped, allocated or freed
  SourceLoc type_loc;
  const bool takes_operand = kind == PipeOp::kPush || (kind == PipeOp::kFree && tok().Is('('));
  if (takes_operand) {
    if (!parser_.Expect('(') || !parser_.ExpectValueName(&operand) || !parser_.Expect(':')) return;
    type_loc = tok().loc;
    if (!parser_.ParseType(&type) || !parser_.Expect(')')) return;
    if (kind == PipeOp::kFree && type.kind != TypeKind::kTensorView)
      return (void)parser_.Error(type_loc, what + " takes the popped slot's view, or no operand");
  } else if (kind == PipeOp::kPop && tok().Is('(')) {
    // The popped tile's valid rows and columns.
    Value valid[2];
    parser_.Advance();
    if (!parser_.ParseIntOperand(&valid[0], "valid rows") || !parser_.Expect(',') ||
        !parser_.ParseIntOperand(&valid[1], "valid columns") || !parser_.Expect(')'))
      return;
    in.imm = 1;
    in.d = valid[0].reg;
    in.extra = valid[1].reg;
  }
  std::vector<AttrEntry> attrs;
  int64_t id = 0;
  Split split = Split::kNone;
  if (!parser_.ParseAttrDict(&attrs) || !PipeSplit(op, attrs, c2v, &id, &split)) return;
  in.c = static_cast<uint32_t>(split);
  size_t k = 0;
  while (k < p_->pipes.size() && !(p_->pipes[k].id == id && p_->pipes[k].c2v == c2v)) ++k;
  if (k == p_->pipes.size() || (pipe_sides_[k] & side) == 0)
    return (void)parser_.Error(
        op.loc,
        what + ": no pto." + (side == 1 ? "aic" : "aiv") +
            "_initialize_pipe before it declares pipe " + std::to_string(id) +
            (c2v ? " from the cube to the vector cores" : " from the vector cores to the cube"));
  in.b = static_cast<uint32_t>(k);
  if (gives) {
    if (!parser_.ExpectArrow()) return;
    type_loc = tok().loc;
    if (!parser_.ParseType(&type)) return;
  }
  if (kind == PipeOp::kAlloc && type.kind != TypeKind::kTensorView)
    return (void)parser_.Error(type_loc,
                               what + " gives a !pto.tensor_view of the slot in global memory");
  const bool in_gm = type.kind == TypeKind::kTensorView;
  const bool vector_part = side == 2 && split != Split::kNone;
  const Transfer t{what, kind, side, id, k, vector_part, takes_operand, operand, type, type_loc};
  if (in_gm ? !TransferSlotView(op, t, results, &in)
            : kind != PipeOp::kFree && !TransferTile(op, t, results, &in))
    return;
  NoteVectorCores(split);
  p_->code.push_back(in);
}

// A slot in global memory (a !pto.tensor_view): the view checked against
// the pipe's slots and the global memory its initialisation gave, taken
// from the operand or defined as the result.
bool CoreReader::TransferSlotView(const Token& op, const Transfer& t,
                                  const std::vector<Token>& results, Instr* in) {
  const PipeDecl& pipe = p_->pipes[t.index];
  // A view of the slot in the initialisation's global memory.
  if (in->imm == 1)
    return parser_.Error(op.loc, t.what +
                                     ": valid rows and columns are given to a popped tile, not "
                                     "to a view");
  const auto gm = pipe_gm_.find(static_cast<uint32_t>(t.index * 2 + t.side - 1));
  if (gm == pipe_gm_.end())
    return parser_.Error(op.loc, t.what +
                                     ": a slot in global memory needs gm_slot_buffer (or "
                                     "gm_slot_tensor) in this core's initialisation of pipe " +
                                     std::to_string(t.id));
  if (t.type.rank != 2 || t.type.dims[0] == kDynamic || t.type.dims[1] == kDynamic)
    return parser_.Error(t.type_loc, t.what + ": a slot's view is 2-D with static dims");
  pto_dtype gm_dtype = PTO_FLOAT32;
  for (const Param& q : p_->params)
    if (q.kind == PTO_PARAM_POINTER && q.reg == gm->second) gm_dtype = q.type.dtype;
  if (t.type.dtype != gm_dtype)
    return parser_.Error(t.type_loc,
                         t.what + ": the slot's view is of " + DtypeSpelling(t.type.dtype) +
                             ", the global memory of " + DtypeSpelling(gm_dtype),
                         PTO_ERR_DTYPE_MISMATCH);
  const uint64_t bytes = uint64_t(t.type.dims[0]) * t.type.dims[1] * pto_dtype_size(t.type.dtype) *
                         (t.vector_part ? 2 : 1);
  if (bytes > pipe.slot_size || pipe.slot_size % pto_dtype_size(t.type.dtype) != 0)
    return parser_.Error(t.type_loc,
                         t.what + ": the view" + (t.vector_part ? " (a half of the slot's)" : "") +
                             " covers " + std::to_string(bytes) + " bytes; pipe " +
                             std::to_string(t.id) + "'s slots are " +
                             std::to_string(pipe.slot_size) + " bytes",
                         PTO_ERR_SHAPE_MISMATCH);
  in->imm = 2;
  in->attr = static_cast<int>(t.type.dtype);
  in->index_regs[0] = static_cast<uint32_t>(t.type.dims[0]);  // the view's rows and columns
  in->index_regs[1] = static_cast<uint32_t>(t.type.dims[1]);
  if (t.takes_operand) {
    const Value* v = parser_.Lookup(t.operand.text);
    if (v == nullptr)
      return parser_.Error(t.operand.loc, "%" + std::string(t.operand.text) + " is not defined");
    if (!SameType(v->type, t.type))
      return parser_.Error(t.type_loc,
                           "%" + std::string(t.operand.text) + " is " + TypeString(v->type));
    in->d = v->reg;
  } else {
    Value v;
    v.type = t.type;
    v.reg = in->d = p_->view_regs++;
    parser_.memory().SetViewPointer(v.reg, gm->second);
    if (!parser_.Define(results[0], v)) return false;
  }
  for (Param& q : p_->params)
    if (q.kind == PTO_PARAM_POINTER && q.reg == gm->second)
      q.access |= PTO_PARAM_READ | PTO_PARAM_WRITE;
  return true;
}

// A pushed or popped tile: its memory and size checked against the end
// and the pipe's slots; the pushed tile used, the popped one defined.
bool CoreReader::TransferTile(const Token& op, const Transfer& t, const std::vector<Token>& results,
                              Instr* in) {
  const PipeDecl& pipe = p_->pipes[t.index];
  if (t.type.kind != TypeKind::kTile)
    return parser_.Error(t.type_loc, t.what + " " + (t.kind == PipeOp::kPush ? "pushes" : "pops") +
                                         " a tile or a !pto.tensor_view of a slot");
  if (t.kind == PipeOp::kPop && in->imm == 1 && !t.type.HasDynamicValid())
    return parser_.Error(t.type_loc, t.what +
                                         ": valid rows and columns are given to a tile whose "
                                         "valid shape is dynamic (v_row=?, v_col=?)");
  // The memory each end's tile lies in: the producer's acc (cube) or vec
  // tile, the consumer's vec tile or mat tile (pto-isa TPUSH.md, TPOP.md).
  const bool cube_end = t.side == 1;
  const Space want = t.kind == PipeOp::kPush ? (cube_end ? Space::kAcc : Space::kVec)
                                             : (cube_end ? Space::kMat : Space::kVec);
  const auto a = [](Space s) { return s == Space::kAcc ? "an " : "a "; };
  if (t.type.space != want)
    return parser_.Error(
        t.type_loc, t.what + ": the " + (t.kind == PipeOp::kPush ? "pushed" : "popped") +
                        " tile is " + a(t.type.space) + SpaceSpelling(t.type.space) + " tile; " +
                        (cube_end ? "the cube " : "a vector core ") +
                        (t.kind == PipeOp::kPush ? "pushes " : "pops ") + a(want) +
                        SpaceSpelling(want) + " tile");
  // The slot holds the whole (pre-split) tile: a vector core's part is
  // half of it.
  // With an epilogue the slot holds the converted tile (its out dtype).
  const PipeEpilogue& e = pipe.epilogue;
  const bool converts = e.set && e.src != PTO_INT64;
  if (converts && t.kind == PipeOp::kPush && t.type.dtype != e.src)
    return parser_.Error(t.type_loc,
                         t.what + ": pipe " + std::to_string(t.id) + "'s acc_push_epilogue <" +
                             e.text + "> converts " + DtypeSpelling(e.src) + " acc tiles, not " +
                             DtypeSpelling(t.type.dtype),
                         PTO_ERR_DTYPE_MISMATCH);
  const pto_dtype slot_dtype = converts ? e.out : t.type.dtype;
  const bool eight_bit = converts && e.out == PTO_INT8;
  if (converts && t.kind == PipeOp::kPop && t.type.dtype != slot_dtype &&
      !(eight_bit && !e.vector && t.type.dtype == PTO_UINT8))
    return parser_.Error(t.type_loc,
                         t.what + ": pipe " + std::to_string(t.id) + "'s acc_push_epilogue <" +
                             e.text + "> gives " + DtypeSpelling(e.out) + " tiles, not " +
                             DtypeSpelling(t.type.dtype),
                         PTO_ERR_DTYPE_MISMATCH);
  const uint64_t bytes =
      uint64_t{t.type.rows} * t.type.cols * pto_dtype_size(slot_dtype) * (t.vector_part ? 2 : 1);
  if (bytes > pipe.slot_size)
    return parser_.Error(t.type_loc,
                         t.what + ": the tile" + (t.vector_part ? " (a half of the slot's)" : "") +
                             " needs " + std::to_string(bytes) + " bytes of a slot; pipe " +
                             std::to_string(t.id) + "'s slots are " +
                             std::to_string(pipe.slot_size) + " bytes",
                         PTO_ERR_SHAPE_MISMATCH);
  if (t.kind == PipeOp::kPush) {
    if (t.side == 1 && !QuantSetBefore(op.loc, pipe)) return false;
    if (!parser_.UseTile(t.operand, t.type, t.type_loc, Use::kRead, &in->a)) return false;
  } else if (!parser_.tile().DefineResultTile(op, results[0], t.type, t.type_loc, &in->a)) {
    return false;
  }
  return true;
}

// A2A3 and A5 have two vector cores a block (pto-isa: 1 cube, 2 vector
// cores); under HOST the text decides: two where a split halves a tile
// between them, else one.
void CoreReader::NoteVectorCores(Split split) {
  const uint32_t vector_cores = p_->profile != PTO_PROFILE_HOST || split != Split::kNone ? 2 : 1;
  if (vector_cores > p_->vector_cores) p_->vector_cores = vector_cores;
}

}  // namespace program
}  // namespace pto
