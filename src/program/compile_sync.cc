// PTO assembly: synchronisation (pto.barrier, set_flag/wait_flag,
// record_event/wait_event, barrier_sync, sync.set/sync.wait), checked as
// PTOAS checks it and then nothing at run time.
#include <string>
#include <vector>

#include "program/compiler.h"

namespace pto {
namespace program {

// Synchronisation: pto.barrier <PIPE_X> | #pto.pipe<PIPE_X>; pto.barrier_sync [<OP>];
// pto.set_flag / wait_flag [<PIPE_A>, <PIPE_B>, <EVENT_IDn>]; pto.record_event /
// wait_event [<OP>, <OP>, <EVENT_IDn>]; pto.sync.set / sync.wait <PIPE_X>, N.
// Checked for form, then nothing: one block runs its instructions in order.
void Compiler::ParseSync(const Token& op) {
  const std::string_view n = op.text;
  const bool bracketed = n != "pto.barrier" && n != "pto.sync.set" && n != "pto.sync.wait" &&
                         n != "pto.pipe_barrier";
  std::vector<std::string> items;
  std::vector<SourceLoc> locs;
  if (bracketed && !Expect('[')) return;
  for (;;) {
    locs.push_back(tok_.loc);
    if (tok_.Is('<')) {
      Advance();
      if (tok_.kind != Tok::kIdent)
        return (void)Error(tok_.loc, "expected a name such as PIPE_V, found " + Describe(tok_));
      items.emplace_back(tok_.text);
      Advance();
      if (!Expect('>')) return;
    } else if (tok_.kind == Tok::kAttr && tok_.text.find('<') != std::string_view::npos &&
               tok_.text.back() == '>') {
      const size_t open = tok_.text.find('<');
      items.emplace_back(tok_.text.substr(open + 1, tok_.text.size() - open - 2));
      Advance();
    } else if (tok_.kind == Tok::kInt && !bracketed && !items.empty()) {
      items.emplace_back(tok_.text);
      Advance();
    } else if (tok_.kind == Tok::kValue && !bracketed && !items.empty()) {
      // sync.set / sync.wait take the event as a run-time index too (PTOAS).
      Value event;
      if (!UseInt(tok_, &event, "the event")) return;
      items.emplace_back("0");
      Advance();
    } else {
      return (void)Error(tok_.loc, std::string(n) + ": expected <NAME>, found " + Describe(tok_));
    }
    if (!tok_.Is(',') || (!bracketed && (n == "pto.barrier" || n == "pto.pipe_barrier"))) break;
    Advance();
  }
  if (bracketed && !Expect(']')) return;
  // PTOAS's enums (include/PTO/IR/PTOAttrs.td): PIPE, SyncOpType, EVENT.
  static const char* const kPipes[] = {
      "PIPE_S",    "PIPE_V",    "PIPE_M",  "PIPE_MTE1", "PIPE_MTE2",
      "PIPE_MTE3", "PIPE_ALL",  "PIPE_MTE4", "PIPE_MTE5", "PIPE_V2",
      "PIPE_FIX",  "VIRTUAL_PIPE_MTE2_L1A", "VIRTUAL_PIPE_MTE2_L1B", "PIPE_NUM",
      "PIPE_UNASSIGNED"};
  static const char* const kSyncOps[] = {"TLOAD",    "TSTORE_ACC", "TSTORE_VEC", "TMOV_M2L",
                                         "TMOV_M2S", "TMOV_M2B",   "TMOV_M2V",   "TMOV_V2M",
                                         "TMATMUL",  "TVEC",       "TVECWAIT_EVENT"};
  auto one_of = [](const std::string& s, const char* const* names, size_t count) {
    for (size_t i = 0; i < count; ++i)
      if (s == names[i]) return true;
    return false;
  };
  auto is_pipe = [&](const std::string& s) {
    return one_of(s, kPipes, sizeof kPipes / sizeof kPipes[0]);
  };
  auto is_sync_op = [&](const std::string& s) {
    return one_of(s, kSyncOps, sizeof kSyncOps / sizeof kSyncOps[0]);
  };
  auto is_event_id = [](const std::string& s) {
    return s.size() == 9 && s.rfind("EVENT_ID", 0) == 0 && s[8] >= '0' && s[8] <= '7';
  };
  static const char kOps[] =
      " (OP of TLOAD, TSTORE_ACC, TSTORE_VEC, TMOV_M2L, TMOV_M2S, TMOV_M2B, TMOV_M2V, "
      "TMOV_V2M, TMATMUL, TVEC, TVECWAIT_EVENT)";
  size_t want = 1;
  std::string form = "<PIPE_X> (a pipe of PTOAS's PIPE enum)";
  if (n == "pto.set_flag" || n == "pto.wait_flag" || n == "pto.record_event" ||
      n == "pto.wait_event") {
    want = 3;
    form = n == "pto.set_flag" || n == "pto.wait_flag" ? "[<PIPE_...>, <PIPE_...>, <EVENT_IDn>]"
                                                       : std::string("[<OP>, <OP>, <EVENT_IDn>]") + kOps;
  } else if (n == "pto.sync.set" || n == "pto.sync.wait") {
    want = 2;
    form = "<PIPE_...>, EVENT";
  } else if (n == "pto.barrier_sync") {
    form = std::string("[<OP>]") + kOps;
  }
  bool well_formed = items.size() == want;
  size_t bad = 0;  // the item the message points at
  for (size_t i = 0; well_formed && i < items.size(); ++i) {
    bad = i;
    const bool flag = n == "pto.set_flag" || n == "pto.wait_flag";
    const bool event = n == "pto.record_event" || n == "pto.wait_event";
    if (want == 3 && i == 2) well_formed = is_event_id(items[i]);
    else if (flag || n == "pto.barrier" || n == "pto.pipe_barrier" || (want == 2 && i == 0))
      well_formed = is_pipe(items[i]);
    else if (want == 2 && i == 1) well_formed = items[i][0] >= '0' && items[i][0] <= '9';
    else if (event || n == "pto.barrier_sync") well_formed = is_sync_op(items[i]);
  }
  if (!well_formed) {
    Error(locs[bad], std::string(n) + " takes " + form);
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
      Error(locs[0], std::string(n) + " on A5 takes " +
                         (set ? "<PIPE_FIX> or <PIPE_MTE3>"
                              : "<PIPE_FIX>, <PIPE_MTE1>, <PIPE_MTE2>, <PIPE_MTE3> or <PIPE_V>") +
                         ", not <" + items[0] + ">");
  }
}

}  // namespace program
}  // namespace pto
