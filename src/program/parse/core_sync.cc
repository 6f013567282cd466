// PTO assembly: synchronisation (pto.barrier, set_flag/wait_flag,
// record_event/wait_event, barrier_sync, sync.set/sync.wait,
// set/wait_intra_block, get_buf/rls_buf, syncall) and cache maintenance
// (cmo.cacheinvalid, fence.barrier_all), checked as PTOAS checks them and
// then nothing at run time: one block runs its instructions in order, and
// global memory is the caller's, with no cache between blocks.
#include <stdlib.h>

#include <string>
#include <string_view>
#include <vector>

#include "program/parse/parser.h"
#include "program/parse/readers.h"

namespace pto {
namespace program {

namespace {

// PTOAS's enums (include/PTO/IR/PTOAttrs.td): PIPE and SyncOpType.
const char* const kPipes[] = {
    "PIPE_S",    "PIPE_V",    "PIPE_M",  "PIPE_MTE1", "PIPE_MTE2",
    "PIPE_MTE3", "PIPE_ALL",  "PIPE_MTE4", "PIPE_MTE5", "PIPE_V2",
    "PIPE_FIX",  "VIRTUAL_PIPE_MTE2_L1A", "VIRTUAL_PIPE_MTE2_L1B", "PIPE_NUM",
    "PIPE_UNASSIGNED"};
const char* const kSyncOps[] = {"TLOAD",    "TSTORE_ACC", "TSTORE_VEC", "TMOV_M2L",
                                "TMOV_M2S", "TMOV_M2B",   "TMOV_M2V",   "TMOV_V2M",
                                "TMATMUL",  "TVEC",       "TVECWAIT_EVENT"};

bool OneOf(std::string_view s, const char* const* names, size_t count) {
  for (size_t i = 0; i < count; ++i)
    if (s == names[i]) return true;
  return false;
}
bool IsPipe(std::string_view s) { return OneOf(s, kPipes, sizeof kPipes / sizeof kPipes[0]); }
bool IsSyncOp(std::string_view s) {
  return OneOf(s, kSyncOps, sizeof kSyncOps / sizeof kSyncOps[0]);
}

// The VALUE of an attribute token `#pto.KIND<VALUE>`, or "" when it is not one.
std::string_view AttrValue(const Token& t, std::string_view kind) {
  const std::string prefix = "#pto." + std::string(kind) + "<";
  if (t.kind != Tok::kAttr || t.text.size() <= prefix.size() ||
      t.text.substr(0, prefix.size()) != prefix || t.text.back() != '>')
    return {};
  return t.text.substr(prefix.size(), t.text.size() - prefix.size() - 1);
}

}  // namespace

// The operands of a synchronisation operation n: its <NAME>s, integers and
// (set_flag_dyn's, sync.set's) index values, as written, each with where it
// is; bracketed, the list's [ ].
bool SyncReader::ReadSyncItems(std::string_view n, bool bracketed, bool dyn,
                               std::vector<std::string>* items, std::vector<SourceLoc>* locs) {
  if (bracketed && !parser_.Expect('[')) return false;
  for (;;) {
    locs->push_back(tok().loc);
    if (tok().Is('<')) {
      parser_.Advance();
      if (tok().kind != Tok::kIdent)
        return parser_.Error(tok().loc,
                             "expected a name such as PIPE_V, found " + Describe(tok()));
      items->emplace_back(tok().text);
      parser_.Advance();
      if (!parser_.Expect('>')) return false;
    } else if (tok().kind == Tok::kAttr && tok().text.find('<') != std::string_view::npos &&
               tok().text.back() == '>') {
      const size_t open = tok().text.find('<');
      items->emplace_back(tok().text.substr(open + 1, tok().text.size() - open - 2));
      parser_.Advance();
    } else if (tok().kind == Tok::kInt && !bracketed && !items->empty()) {
      items->emplace_back(tok().text);
      parser_.Advance();
    } else if (tok().kind == Tok::kValue && ((!bracketed && !items->empty()) ||
                                             (dyn && items->size() == 2))) {
      // sync.set / sync.wait take the event as a run-time index too (PTOAS).
      Value event;
      if (!parser_.UseInt(tok(), &event, "the event")) return false;
      items->emplace_back(dyn ? "EVENT_ID0" : "0");
      parser_.Advance();
    } else {
      return parser_.Error(tok().loc,
                           std::string(n) + ": expected <NAME>, found " + Describe(tok()));
    }
    if (!tok().Is(',') || (!bracketed && (n == "pto.barrier" || n == "pto.pipe_barrier"))) break;
    parser_.Advance();
  }
  return !bracketed || parser_.Expect(']');
}

// Synchronisation: pto.barrier <PIPE_X> | #pto.pipe<PIPE_X>; pto.barrier_sync [<OP>];
// pto.set_flag / wait_flag [<PIPE_A>, <PIPE_B>, <EVENT_IDn>]; pto.record_event /
// wait_event [<OP>, <OP>, <EVENT_IDn>]; pto.sync.set / sync.wait <PIPE_X>, N.
// Checked for form, then nothing: one block runs its instructions in order.
void SyncReader::ParseSync(const Token& op) {
  const std::string_view n = op.text;
  const bool intra_block = n == "pto.set_intra_block" || n == "pto.wait_intra_block";
  // set_flag_dyn / wait_flag_dyn: set_flag's pipes and an index value as
  // the event (one of an eventid_array's, say); nothing waits here.
  const bool dyn = n == "pto.set_flag_dyn" || n == "pto.wait_flag_dyn";
  const bool bracketed = n != "pto.barrier" && n != "pto.sync.set" && n != "pto.sync.wait" &&
                         n != "pto.pipe_barrier" && !intra_block;
  std::vector<std::string> items;
  std::vector<SourceLoc> locs;
  if (!ReadSyncItems(n, bracketed, dyn, &items, &locs)) return;
  auto is_event_id = [](const std::string& s) {
    return s.size() == 9 && s.rfind("EVENT_ID", 0) == 0 && s[8] >= '0' && s[8] <= '7';
  };
  static const char kOps[] =
      " (OP of TLOAD, TSTORE_ACC, TSTORE_VEC, TMOV_M2L, TMOV_M2S, TMOV_M2B, TMOV_M2V, "
      "TMOV_V2M, TMATMUL, TVEC, TVECWAIT_EVENT)";
  size_t want = 1;
  std::string form = "<PIPE_X> (a pipe of PTOAS's PIPE enum)";
  if (n == "pto.set_flag" || n == "pto.wait_flag" || n == "pto.record_event" ||
      n == "pto.wait_event" || dyn) {
    want = 3;
    form = dyn ? "[<PIPE_...>, <PIPE_...>, %event (index)]"
           : n == "pto.set_flag" || n == "pto.wait_flag"
               ? "[<PIPE_...>, <PIPE_...>, <EVENT_IDn>]"
               : std::string("[<OP>, <OP>, <EVENT_IDn>]") + kOps;
  } else if (n == "pto.sync.set" || n == "pto.sync.wait" || intra_block) {
    want = 2;
    form = "<PIPE_...>, EVENT";
  } else if (n == "pto.barrier_sync") {
    form = std::string("[<OP>]") + kOps;
  }
  bool well_formed = items.size() == want;
  size_t bad = 0;  // the item the message points at
  for (size_t i = 0; well_formed && i < items.size(); ++i) {
    bad = i;
    const bool flag = n == "pto.set_flag" || n == "pto.wait_flag" || dyn;
    const bool event = n == "pto.record_event" || n == "pto.wait_event";
    if (want == 3 && i == 2) well_formed = is_event_id(items[i]);
    else if (flag || n == "pto.barrier" || n == "pto.pipe_barrier" || (want == 2 && i == 0))
      well_formed = IsPipe(items[i]);
    else if (want == 2 && i == 1) well_formed = items[i][0] >= '0' && items[i][0] <= '9';
    else if (event || n == "pto.barrier_sync") well_formed = IsSyncOp(items[i]);
  }
  if (!well_formed) {
    parser_.Error(locs[bad], std::string(n) + " takes " + form);
    return;
  }
  // PTOAS's SyncSetOp / SyncWaitOp verifiers: the pipes A5 signals on.
  if (p_->profile == PTO_PROFILE_A5 && (n == "pto.sync.set" || n == "pto.sync.wait")) {
    const bool set = n == "pto.sync.set";
    const bool allowed = set ? items[0] == "PIPE_FIX" || items[0] == "PIPE_MTE3"
                             : items[0] == "PIPE_FIX" || items[0] == "PIPE_MTE1" ||
                                   items[0] == "PIPE_MTE2" || items[0] == "PIPE_MTE3" ||
                                   items[0] == "PIPE_V";
    if (!allowed)
      parser_.Error(locs[0],
                    std::string(n) + " on A5 takes " +
                        (set ? "<PIPE_FIX> or <PIPE_MTE3>"
                             : "<PIPE_FIX>, <PIPE_MTE1>, <PIPE_MTE2>, <PIPE_MTE3> or <PIPE_V>") +
                        ", not <" + items[0] + ">");
  }
  // PTOAS's SetIntraBlockOp / WaitIntraBlockOp verifiers: five pipes, a
  // static event in 0..15 (A2A3) or 0..31 (A5).
  if (intra_block) {
    const std::string& pipe = items[0];
    if (pipe != "PIPE_FIX" && pipe != "PIPE_MTE1" && pipe != "PIPE_MTE2" &&
        pipe != "PIPE_MTE3" && pipe != "PIPE_V")
      return (void)parser_.Error(locs[0], std::string(n) +
                                              " takes <PIPE_FIX>, <PIPE_MTE1>, <PIPE_MTE2>, "
                                              "<PIPE_MTE3> or <PIPE_V>, not <" +
                                              pipe + ">");
    const int64_t most = p_->profile == PTO_PROFILE_A2A3 ? 15 : 31;
    if (strtoll(items[1].c_str(), nullptr, 10) > most)
      parser_.Error(locs[1], std::string(n) + ": event " + items[1] + " is outside 0.." +
                                 std::to_string(most));
  }
}

// pto.get_buf / pto.rls_buf "PIPE_X", ID[, MODE] or [#pto.pipe_event_type<OP>,
// ID[, MODE]] (an A5 buffer-id token), and their _dyn forms with ID an
// index value; an optional {mode = N}. PTOAS's verifier: a concrete pipe or
// a sync op, ID in 0..31, MODE not negative.
void SyncReader::ParseBufferToken(const Token& op) {
  const std::string n(op.text);
  const bool dynamic = n.size() > 4 && n.compare(n.size() - 4, 4, "_dyn") == 0;
  const std::string form = n + " takes \"PIPE_X\", " + (dynamic ? "%id" : "ID") +
                           "[, MODE] or [#pto.pipe_event_type<OP>, " +
                           (dynamic ? "%id" : "ID") + "[, MODE]]";
  const bool bracketed = tok().Is('[');
  if (bracketed) parser_.Advance();
  const SourceLoc type_loc = tok().loc;
  std::string_view endpoint;
  if (!bracketed && tok().kind == Tok::kString) {
    endpoint = tok().text;
  } else if (bracketed && tok().kind == Tok::kAttr) {
    for (const char* kind : {"pipe_event_type", "sync_op_type", "pipe"})
      if (endpoint.empty()) endpoint = AttrValue(tok(), kind);
  }
  if (endpoint.empty()) return (void)parser_.Error(tok().loc, form);
  if (!(IsPipe(endpoint) || IsSyncOp(endpoint)) || endpoint == "PIPE_ALL" ||
      endpoint == "PIPE_NUM" || endpoint == "PIPE_UNASSIGNED")
    return (void)parser_.Error(type_loc,
                               n + ": '" + std::string(endpoint) +
                                   "' is not a concrete pipe (PIPE_V, PIPE_MTE2, ...) or a "
                                   "sync op (TLOAD, TVEC, ...)");
  parser_.Advance();
  if (!parser_.Expect(',')) return;
  if (dynamic) {
    Value id;
    if (!parser_.ParseIntOperand(&id, "the buffer id")) return;
  } else {
    if (tok().kind != Tok::kInt) return (void)parser_.Error(tok().loc, form);
    const int64_t id = strtoll(std::string(tok().text).c_str(), nullptr, 10);
    if (id < 0 || id > 31)
      return (void)parser_.Error(
          tok().loc, n + ": buffer id " + std::string(tok().text) + " is outside 0..31");
    parser_.Advance();
  }
  std::vector<std::pair<Token, SourceLoc>> modes;
  if (tok().Is(',')) {
    parser_.Advance();
    modes.emplace_back(tok(), tok().loc);
    parser_.Advance();
  }
  if (bracketed && !parser_.Expect(']')) return;
  if (tok().Is('{')) {
    std::vector<AttrEntry> attrs;
    if (!parser_.ParseAttrDict(&attrs)) return;
    for (const AttrEntry& e : attrs) {
      if (e.key != "mode")
        return (void)parser_.Error(e.loc, n + ": unknown attribute '" + std::string(e.key) + "'");
      modes.emplace_back(e.value, e.loc);
    }
  }
  for (const auto& mode : modes)
    if (mode.first.kind != Tok::kInt || mode.first.text[0] == '-')
      return (void)parser_.Error(mode.second, n + ": the mode is an integer of 0 or more");
}

// pto.cmo.cacheinvalid all #pto.address_space<gm> | %addr single_cache_line : T
// (a GM pointer or view): cache maintenance of global memory.
void SyncReader::ParseCacheInvalid(const Token& op) {
  if (tok().IsIdent("all")) {
    parser_.Advance();
    const std::string_view space = AttrValue(tok(), "address_space");
    if (space != "gm" && space != "zero")
      return (void)parser_.Error(
          tok().loc,
          "pto.cmo.cacheinvalid all takes #pto.address_space<gm>, found " + Describe(tok()));
    parser_.Advance();
  } else {
    Token name;
    Value addr;
    if (!parser_.ExpectValueName(&name) || !parser_.UseValue(name, &addr) ||
        !parser_.ExpectIdent("single_cache_line") || !parser_.Expect(':'))
      return;
    const SourceLoc type_loc = tok().loc;
    Type written;
    if (!parser_.ParseType(&written)) return;
    if (written.kind != TypeKind::kPtr && written.kind != TypeKind::kTensorView &&
        written.kind != TypeKind::kPartitionView)
      return (void)parser_.Error(
          type_loc, std::string(op.text) + ": single_cache_line takes a GM pointer or view, not " +
                        TypeString(written));
    if (!parser_.WrittenAs(name, addr.type, written, type_loc)) return;
  }
  if (tok().Is('{')) {
    std::vector<AttrEntry> attrs;
    if (parser_.ParseAttrDict(&attrs) && !attrs.empty())
      parser_.Error(attrs[0].loc, std::string(op.text) + ": unknown attribute '" +
                                      std::string(attrs[0].key) + "'");
  }
}

// pto.fence.barrier_all #pto.fence_scope<local_memory|gm|all>.
void SyncReader::ParseFence(const Token& op) {
  std::string_view scope = AttrValue(tok(), "fence_scope");
  if (scope.empty() && tok().Is('<')) {
    parser_.Advance();
    if (tok().kind == Tok::kIdent) scope = tok().text;
    parser_.Advance();
    if (!tok().Is('>')) scope = {};
  }
  if (scope != "local_memory" && scope != "gm" && scope != "all")
    return (void)parser_.Error(
        tok().loc, std::string(op.text) + " takes #pto.fence_scope<local_memory|gm|all>, found " +
                       Describe(tok()));
  parser_.Advance();
}

// pto.syncall([%workspace[, %used] : T[, i32]]) mode = #pto.sync_all_mode<hard|soft>,
// core_type = #pto.sync_core_type<aiv_only|aic_only|mix>: a barrier of every
// block. PTOAS's verifier: hard takes no operand; soft a GM workspace of i32
// (16 elements at least where a view's dims say so) and an optional i32
// count. Here blocks run independently, so it is nothing with one block
// and a run-time error with several (Code::kNop, sub 1).
void SyncReader::ParseSyncAll(const Token& op) {
  std::vector<Token> names;
  std::vector<Type> types;
  std::vector<SourceLoc> type_locs;
  if (!parser_.Expect('(')) return;
  if (!tok().Is(')')) {
    parser_.ParseValueNames(&names);
    if (!parser_.Expect(':') || !parser_.ParseTypeList(&types, &type_locs)) return;
  }
  if (!parser_.Expect(')')) return;
  if (names.size() != types.size())
    return (void)parser_.Error(op.loc, "pto.syncall: " + std::to_string(names.size()) +
                                           " operands, " + std::to_string(types.size()) + " types");
  if (!parser_.ExpectIdent("mode") || !parser_.Expect('=')) return;
  const SourceLoc mode_loc = tok().loc;
  const std::string_view mode = AttrValue(tok(), "sync_all_mode");
  if (mode != "hard" && mode != "soft")
    return (void)parser_.Error(
        tok().loc, "pto.syncall: mode is #pto.sync_all_mode<hard|soft>, found " + Describe(tok()));
  parser_.Advance();
  if (!parser_.Expect(',') || !parser_.ExpectIdent("core_type") || !parser_.Expect('=')) return;
  const std::string_view core = AttrValue(tok(), "sync_core_type");
  if (core != "aiv_only" && core != "aic_only" && core != "mix")
    return (void)parser_.Error(
        tok().loc,
        "pto.syncall: core_type is #pto.sync_core_type<aiv_only|aic_only|mix>, "
        "found " +
            Describe(tok()));
  parser_.Advance();
  for (size_t i = 0; i < names.size(); ++i) {
    Value v;
    if (!parser_.UseValue(names[i], &v)) return;
    if (!parser_.WrittenAs(names[i], v.type, types[i], type_locs[i])) return;
  }
  if (mode == "hard" && !names.empty())
    return (void)parser_.Error(mode_loc, "pto.syncall: a hard syncall takes no workspace or count");
  if (mode == "soft") {
    if (names.empty() || names.size() > 2)
      return (void)parser_.Error(mode_loc,
                                 "pto.syncall: a soft syncall takes a GM workspace and an "
                                 "optional i32 count");
    const Type& w = types[0];
    int64_t elements = 1;
    for (int i = 0; i < w.rank; ++i) elements = w.dims[i] == kDynamic ? -1 : elements * w.dims[i];
    const bool is_gm = w.kind == TypeKind::kPtr || w.kind == TypeKind::kTensorView ||
                       w.kind == TypeKind::kPartitionView;
    if (!is_gm || w.dtype != PTO_INT32)
      return (void)parser_.Error(type_locs[0],
                                 "pto.syncall: the workspace is a GM pointer or view of "
                                 "i32, not " +
                                     TypeString(w));
    if (w.kind != TypeKind::kPtr && elements >= 0 && elements < 16)
      return (void)parser_.Error(type_locs[0], "pto.syncall: the workspace holds " +
                                                   std::to_string(elements) +
                                                   " elements, fewer than 16");
    if (names.size() == 2 && !(types[1].kind == TypeKind::kInt && types[1].bits == 32))
      return (void)parser_.Error(type_locs[1],
                                 "pto.syncall: the count is i32, not " + TypeString(types[1]));
  }
  Instr in;
  in.code = Code::kNop;
  in.sub = 1;
  in.loc = op.loc;
  p_->code.push_back(in);
}

// PTOAS's asynchronous prefetch into the L2 cache:
//   %ctx = pto.make_prefetch_async_context(%ws : !pto.ptr<i8>) -> !pto.prefetch_async_context
//   %e = pto.tprefetch_async(%view, %ctx : V, !pto.prefetch_async_context) -> !pto.async_event
//   %s = pto.get_prefetch_async_session %ctx : !pto.prefetch_async_context -> !pto.async_session
//   %done = pto.comm.wait_async_event(%e, %s : !pto.async_event, !pto.async_session) -> i1
// checked as PTOAS's verifiers check them, then nothing: a block reads global
// memory directly, with no cache between, so a prefetch changes no result
// and its event has completed (the wait gives true).
void SyncReader::ParsePrefetch(const Token& op, const Token& result) {
  const std::string what(op.text);
  const bool session = op.text == "pto.get_prefetch_async_session";
  const bool context = op.text == "pto.make_prefetch_async_context";
  const size_t want = context || session ? 1 : 2;
  std::vector<Token> names;
  if (!session && !parser_.Expect('(')) return;
  parser_.ParseValueNames(&names);
  if (!parser_.ok()) return;
  if (names.size() != want)
    return (void)parser_.Error(op.loc,
                               what + " takes " + (want == 1 ? "one operand" : "two operands"));
  std::vector<Type> types;
  std::vector<SourceLoc> locs;
  if (!parser_.Expect(':') || !parser_.ParseTypes(want, &types, &locs) ||
      (!session && !parser_.Expect(')')))
    return;
  if (tok().Is('{')) {
    std::vector<AttrEntry> attrs;
    if (!parser_.ParseAttrDict(&attrs)) return;
    if (!attrs.empty())
      return (void)parser_.Error(attrs[0].loc,
                                 what + ": unknown attribute '" + std::string(attrs[0].key) + "'");
  }
  if (!parser_.ExpectArrow()) return;
  const SourceLoc result_loc = tok().loc;
  Type result_type;
  if (!parser_.ParseType(&result_type)) return;
  for (size_t i = 0; i < want; ++i) {
    Value v;
    if (!parser_.UseValue(names[i], &v)) return;
    if (!parser_.WrittenAs(names[i], v.type, types[i], locs[i])) return;
  }
  Type want_result;
  if (context) {
    if (types[0].kind != TypeKind::kPtr || pto_dtype_size(types[0].dtype) != 1 ||
        IsFloatDtype(types[0].dtype))
      return (void)parser_.Error(locs[0],
                                 what +
                                     " takes its workspace as a !pto.ptr of 8-bit integers, "
                                     "not " +
                                     TypeString(types[0]));
    ParseHandleType("!pto.prefetch_async_context", &want_result);
  } else if (session) {
    if (!IsHandle(types[0], Handle::kPrefetchContext))
      return (void)parser_.Error(
          locs[0], what + " takes a !pto.prefetch_async_context, not " + TypeString(types[0]));
    ParseHandleType("!pto.async_session", &want_result);
  } else if (op.text == "pto.tprefetch_async") {
    const Type& src = types[0];
    bool flat = src.kind == TypeKind::kTensorView || src.kind == TypeKind::kPartitionView;
    for (int i = 0; flat && i < src.rank; ++i)
      flat = src.dims[i] != kDynamic && (i + 1 == src.rank || src.dims[i] == 1);
    if (!flat)
      return (void)parser_.Error(locs[0], what +
                                              " prefetches a view of static shape whose dimensions "
                                              "but the last are 1 (a flat, contiguous 1-D view in "
                                              "global memory), not " +
                                              TypeString(src));
    if (!IsHandle(types[1], Handle::kPrefetchContext))
      return (void)parser_.Error(
          locs[1], what + " takes a !pto.prefetch_async_context, not " + TypeString(types[1]));
    ParseHandleType("!pto.async_event", &want_result);
  } else {
    if (!IsHandle(types[0], Handle::kAsyncEvent) || !IsHandle(types[1], Handle::kAsyncSession))
      return (void)parser_.Error(locs[0], what +
                                              " takes a !pto.async_event and a !pto.async_session, "
                                              "not " +
                                              TypeString(types[0]) + " and " +
                                              TypeString(types[1]));
    want_result.kind = TypeKind::kInt;
    want_result.bits = 1;
  }
  if (!SameType(result_type, want_result))
    return (void)parser_.Error(result_loc, what + " gives " + TypeString(want_result) + ", not " +
                                               TypeString(result_type));
  Value v;
  v.type = want_result;
  if (want_result.kind == TypeKind::kInt) {
    Instr in;
    in.code = Code::kConstInt;
    in.loc = op.loc;
    in.imm = 1;
    v.reg = in.a = parser_.NewIntReg();
    v.is_const = true;
    v.const_value = 1;
    p_->code.push_back(in);
  }
  parser_.Define(result, v);
}

// pto.tsync ins(%e0, %e1, ... : T0, T1, ...)   (PTOAS's TSyncOp, pto-isa's
// TSYNC(events...)): waits until the operations that produced the operands
// are done. Every instruction here completes before the next begins, so
// there is nothing to wait for: each operand must exist, be written with its
// type and be a tile or a partition view (PTOAS's PTODpsType), and the
// instruction does nothing when it runs.
void SyncReader::ParseTsync(const Token& op, const std::vector<Token>& results) {
  if (!parser_.ResultCount(op, results, 0) || !parser_.ExpectIdent("ins") ||
      !parser_.Expect('('))
    return;
  std::vector<Token> names;
  std::vector<Type> types;
  std::vector<SourceLoc> locs;
  parser_.ParseValueNames(&names);
  if (!names.empty() || !tok().Is(')')) {
    if (!parser_.Expect(':') || !parser_.ParseTypeList(&types, &locs)) return;
  }
  if (!parser_.Expect(')')) return;
  if (names.size() != types.size())
    return (void)parser_.Error(op.loc, std::string(op.text) + ": " + std::to_string(names.size()) +
                                           " operands, " + std::to_string(types.size()) +
                                           " types");
  for (size_t i = 0; i < names.size(); ++i) {
    Value v;
    if (!parser_.UseValue(names[i], &v) || !parser_.WrittenAs(names[i], v.type, types[i], locs[i]))
      return;
    // PTOAS's older memref form passes global memory as a memref.
    const bool memref = v.type.kind == TypeKind::kTensorView && v.type.memref;
    if (v.type.kind != TypeKind::kTile && v.type.kind != TypeKind::kPartitionView && !memref)
      return (void)parser_.Error(locs[i], std::string(op.text) +
                                              "'s operands are tiles, partition views or "
                                              "memrefs, not " +
                                              TypeString(v.type));
  }
  Instr in;
  in.code = Code::kNop;
  in.loc = op.loc;
  p_->code.push_back(in);
}

}  // namespace program
}  // namespace pto
