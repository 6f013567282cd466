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

// PTOAS's SLOT_NUM: 8 for a one-way pipe, 4 each way for dir_mask = 3,
// unless the text gives slot_num.
constexpr uint32_t kOneWayDepth = 8, kTwoWayDepth = 4;

}  // namespace

bool PipeReader::BeginSection(CoreKind kind, SourceLoc loc, const std::string& what, uint32_t* at,
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

void PipeReader::EndSection(uint32_t at, uint8_t outer) {
  core_ = outer;
  if (at != kNoSlot) p_->code[at].target = static_cast<uint32_t>(p_->code.size());
}

void PipeReader::ParseSection(const Token& op) {
  const std::string what(op.text);
  uint32_t at;
  uint8_t outer_core;
  if (!BeginSection(op.text == "pto.section.cube" ? CoreKind::kCube : CoreKind::kVector, op.loc,
                    what, &at, &outer_core))
    return;
  if (parser_.scalar().ParseBareRegion(what)) EndSection(at, outer_core);
}

bool PipeReader::CheckLaterRules() {
  return later_error_.empty() || parser_.Error(later_loc_, later_error_);
}

void PipeReader::ParsePipeOp(const Token& op, const std::vector<Token>& results) {
  const std::string_view n = op.text;
  if (n == "pto.reserve_buffer" || n == "pto.import_reserved_buffer")
    return ParseReserveBuffer(op, results, n == "pto.import_reserved_buffer");
  if (n == "pto.set_quant_scalar" || n == "pto.set_quant_vector") {
    if (!results.empty()) return (void)parser_.Error(op.loc, std::string(n) + " defines no result");
    return parser_.cube().ParseSetQuant(op);
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
void PipeReader::ParseReserveBuffer(const Token& op, const std::vector<Token>& results,
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

// A pipe's flag ids, slot size and slot count within what the cores have
// (pto.aic_initialize_pipe / pto.aiv_initialize_pipe's attributes); the
// flag ids it takes counted for its core.
bool PipeReader::PipeLimitsHold(const Token& op, const std::string& what, uint8_t side,
                                int64_t id, int64_t dir, int64_t slot_size, int64_t slot_num,
                                int64_t flag_base) {
  // A pipe's cores signal each other through hardware flags: 2 ids a
  // direction, 4 for a two-way pipe, out of 16 for a kernel function's
  // pipes (PTOAS's verifier and its ResolveReservedBuffers pass).
  const int64_t flags = dir == 3 ? 4 : 2;
  if (flag_base >= 0 && flag_base + flags > kFlagIds)
    return parser_.Error(op.loc, what + ": flag_base " + std::to_string(flag_base) +
                                     " and dir_mask " + std::to_string(dir) +
                                     " need flag ids up to " +
                                     std::to_string(flag_base + flags - 1) + "; there are " +
                                     std::to_string(kFlagIds) + " (0 to 15)");
  flag_ids_[side] += static_cast<uint32_t>(flags);
  if (flag_ids_[side] > kFlagIds)
    return parser_.Error(op.loc, what + ": with pipe " + std::to_string(id) + " the " +
                                     CoreName(side) + "'s pipes need " +
                                     std::to_string(flag_ids_[side]) +
                                     " hardware flag ids, more "
                                     "than the " +
                                     std::to_string(kFlagIds) +
                                     " there are (a pipe takes 2, or 4 with dir_mask = 3)");
  // A slot holds one tile: no larger than the largest tile.
  if (static_cast<uint64_t>(slot_size) > PTO_TILE_MAX_BYTES)
    return parser_.Error(op.loc, what + ": slot_size " + std::to_string(slot_size) +
                                     " is larger than a tile may be (PTO_TILE_MAX_BYTES)");
  if (slot_num != -1 && (slot_num < 1 || slot_num > 64))
    return parser_.Error(
        op.loc, what + ": slot_num " + std::to_string(slot_num) + " is outside 1 to 64");
  return true;
}

// pto.aic_initialize_pipe {[id = N,] dir_mask = 1|2|3, slot_size = N[, slot_num = N]
//   [, nosplit = B][, acc_push_epilogue = #..]} [(gm_slot_buffer = %p : !pto.ptr<T>,]
//   c2v_consumer_buf = %b : i32, v2c_consumer_buf = %b : i32)
// (aiv_ likewise in a vector core's code). Declares Program::pipes entries,
// one per direction, which both ends must declare alike.
void PipeReader::ParseInitializePipe(const Token& op, bool cube) {
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
      if (parser_.cube().ParseEpilogue(e, &epilogue)) continue;
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
  if (!PipeLimitsHold(op, what, side, id, dir, slot_size, slot_num, flag_base)) return;
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
    if (!parser_.cube().EpilogueAgrees(op, decl, epilogue, dir)) return;
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
bool PipeReader::ParsePipeOperands(const std::string& what, uint8_t side, uint64_t slots_bytes,
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

}  // namespace program
}  // namespace pto
