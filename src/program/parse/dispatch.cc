// PTO assembly: one operation handed to its reader. The results are read
// here (`%a, %b:2 = ...`), then the operation's name finds its row in one
// table {name or prefix -> reader}, as ops::FindOp finds an operation's row;
// a name no row has is an operation of the table (ops::FindOp) on tiles.
#include <stdlib.h>

#include <string>
#include <string_view>
#include <vector>

#include "program/parse/parser.h"
#include "program/parse/readers.h"

namespace pto {
namespace program {
namespace {

using Results = std::vector<Token>;

// The result count a row leaves to its reader to check.
constexpr int kAnyResults = -1;

// The operations one reader reads: `name` itself, or (prefix) every name
// that starts with it, defining `results` results.
struct OperationRow {
  std::string_view name;
  bool prefix;
  int results;
  void (*read)(Parser& p, const Token& op, const Results& results);
};

void ReadCall(Parser& p, const Token& op, const Results& r) { p.module().ParseCall(op, r); }
void ReadConstant(Parser& p, const Token&, const Results& r) {
  p.scalar().ParseConstantValue(r[0]);
}
void ReadArith(Parser& p, const Token& op, const Results& r) { p.scalar().ParseArith(op, r[0]); }
void ReadUnrealizedCast(Parser& p, const Token&, const Results& r) {
  p.scalar().ParseUnrealizedCast(r[0]);
}
void ReadFor(Parser& p, const Token& op, const Results& r) { p.scalar().ParseFor(op, r); }
void ReadIf(Parser& p, const Token& op, const Results& r) { p.scalar().ParseIf(op, r); }
void ReadWhile(Parser& p, const Token& op, const Results& r) { p.scalar().ParseWhile(op, r); }
void ReadYield(Parser& p, const Token& op, const Results&) { p.scalar().ParseYield(op); }
void ReadBlockQuery(Parser& p, const Token& op, const Results& r) {
  p.scalar().ParseBlockQuery(op, r[0]);
}
void ReadDeclareLocalArray(Parser& p, const Token& op, const Results& r) {
  p.scalar().ParseDeclareLocalArray(op, r);
}
void ReadLocalArrayAccess(Parser& p, const Token& op, const Results& r) {
  p.scalar().ParseLocalArrayAccess(op, r);
}
void ReadSection(Parser& p, const Token& op, const Results&) { p.pipes().ParseSection(op); }
void ReadPipeOp(Parser& p, const Token& op, const Results& r) { p.pipes().ParsePipeOp(op, r); }
void ReadSync(Parser& p, const Token& op, const Results&) { p.sync().ParseSync(op); }
void ReadBufferToken(Parser& p, const Token& op, const Results&) { p.sync().ParseBufferToken(op); }
void ReadCacheInvalid(Parser& p, const Token& op, const Results&) {
  p.sync().ParseCacheInvalid(op);
}
void ReadFence(Parser& p, const Token& op, const Results&) { p.sync().ParseFence(op); }
void ReadSyncAll(Parser& p, const Token& op, const Results&) { p.sync().ParseSyncAll(op); }
void ReadTsync(Parser& p, const Token& op, const Results& r) { p.sync().ParseTsync(op, r); }
void ReadPrefetch(Parser& p, const Token& op, const Results& r) {
  p.sync().ParsePrefetch(op, r[0]);
}
void ReadScalarAccess(Parser& p, const Token& op, const Results& r) {
  p.memory().ParseScalarAccess(op, r);
}
void ReadAddPtr(Parser& p, const Token& op, const Results& r) { p.memory().ParseAddPtr(op, r); }
void ReadMakeView(Parser& p, const Token& op, const Results& r) {
  p.memory().ParseMakeView(op, r[0]);
}
void ReadPartitionView(Parser& p, const Token& op, const Results& r) {
  p.memory().ParsePartitionView(op, r[0]);
}
void ReadLoad(Parser& p, const Token& op, const Results&) { p.memory().ParseLoadStore(op, true); }
void ReadStore(Parser& p, const Token& op, const Results&) { p.memory().ParseLoadStore(op, false); }
void ReadPrefetchTile(Parser& p, const Token& op, const Results&) {
  p.memory().ParsePrefetchTile(op);
}
void ReadAllocTile(Parser& p, const Token& op, const Results& r) {
  p.memory().ParseAllocTile(op, r[0]);
}
// PTOAS's older form of an alloc_tile: memref.alloc() : memref<RxCxT,
// #pto.address_space<vec>>.
void ReadMemrefAlloc(Parser& p, const Token& op, const Results& r) {
  if (p.Expect('(') && p.Expect(')')) p.memory().ParseAllocTile(op, r[0]);
}
void ReadSubset(Parser& p, const Token& op, const Results& r) {
  p.memory().ParseSubset(op, r[0], false);
}
void ReadSubview(Parser& p, const Token& op, const Results& r) { p.memory().ParseSubview(op, r); }
void ReadSetValidShape(Parser& p, const Token& op, const Results&) {
  p.memory().ParseSetValidShape(op);
}
void ReadTassign(Parser& p, const Token& op, const Results& r) {
  if (r.size() <= 1) p.memory().ParseTassign(op, r);
  else p.ResultCount(op, r, 1);
}
void ReadPrint(Parser& p, const Token& op, const Results&) { p.tile().ParsePrint(op); }
void ReadGetScaleAddr(Parser& p, const Token& op, const Results&) {
  p.cube().ParseGetScaleAddr(op);
}
// SETHF32MODE and SETTF32MODE have no op in PTOAS: the mode is the C API's
// per-thread setting, which a launch's blocks take from the launching thread.
void RefuseCubeModeText(Parser& p, const Token& op, const Results&) {
  const bool hf32 = op.text.find("hf32") != std::string_view::npos;
  p.Error(op.loc, std::string(op.text) +
                      " has no text form (PTOAS defines no op for it): set the mode with " +
                      (hf32 ? "pto_set_hf32_mode" : "pto_set_tf32_mode") +
                      " on the launching thread before pto_program_launch");
}
// TQUANT_HIF4 and TMATMUL_MX_HIF4 have no op in PTOAS (HiFloat4 is no dtype
// of its): the C functions compute them.
void RefuseHif4Text(Parser& p, const Token& op, const Results&) {
  const bool quant = op.text.find("quant") != std::string_view::npos;
  p.Error(op.loc, std::string(op.text) +
                      " has no text form (PTOAS defines no op for it): call " +
                      (quant ? "pto_tquant_hif4" : "pto_tmatmul_mx_hif4") +
                      " (HiFloat4 under PTO_PROFILE_HOST)");
}
// A setting of settings.def whose Text is Pipe: pto.set_quant_scalar /
// _vector {id = N}, the pipes' quantisation words (core_fixpipe.cc).
void ReadSettingPipe(Parser& p, const Token& op, const Results& r) { ReadPipeOp(p, op, r); }
// A setting whose Text is None: PTOAS defines no op for it, and its state is
// the calling thread's, for the C functions.
void ReadSettingNone(Parser& p, const Token& op, const Results&) {
  p.Error(op.loc, std::string(op.text) +
                      " has no text form (PTOAS defines no op for it): pto_" +
                      std::string(op.text.substr(4)) +
                      " sets the calling thread's state for the C functions");
}
void ReadComm(Parser& p, const Token& op, const Results& r) { p.comm().ParseComm(op, r); }
void ReadCommAsync(Parser& p, const Token& op, const Results& r) {
  p.comm().ParseCommAsync(op, r);
}
// A comm operation PTOAS does not define.
void RefuseComm(Parser& p, const Token& op, const Results&) {
  p.Error(op.loc, "operation '" + std::string(op.text) + "' is not supported");
}

constexpr OperationRow kOperations[] = {
    {"func.call", false, kAnyResults, ReadCall},
    {"call", false, kAnyResults, ReadCall},
    {"arith.constant", false, 1, ReadConstant},
    {"arith.", true, 1, ReadArith},
    {"builtin.unrealized_conversion_cast", false, 1, ReadUnrealizedCast},
    {"scf.for", false, kAnyResults, ReadFor},
    {"scf.if", false, kAnyResults, ReadIf},
    {"scf.while", false, kAnyResults, ReadWhile},
    {"scf.yield", false, 0, ReadYield},
    {"scf.condition", false, 0, ReadYield},
    // A core's code: a block runs its sections in program order, or, with
    // pipes between them, each on its core (core_pipes.cc).
    {"pto.section.vector", false, 0, ReadSection},
    {"pto.section.cube", false, 0, ReadSection},
    {"pto.reserve_buffer", false, kAnyResults, ReadPipeOp},
    {"pto.import_reserved_buffer", false, kAnyResults, ReadPipeOp},
    {"pto.aic_initialize_pipe", false, kAnyResults, ReadPipeOp},
    // The settings (settings.def): by their Text column, the pipes'
    // quantisation state (Pipe) or no text form (None).
#define PTO_SETTING(Camel, UPPER, mnemonic, arguments, summary, Group, Text) \
  {"pto." #mnemonic, false, kAnyResults, ReadSetting##Text},
#include "settings.def"
#undef PTO_SETTING
    {"pto.aiv_initialize_pipe", false, kAnyResults, ReadPipeOp},
    {"pto.tpush_to", true, kAnyResults, ReadPipeOp},
    {"pto.tpop_from", true, kAnyResults, ReadPipeOp},
    {"pto.tfree_from", true, kAnyResults, ReadPipeOp},
    {"pto.talloc_to", true, kAnyResults, ReadPipeOp},
    {"pto.load_scalar", false, kAnyResults, ReadScalarAccess},
    {"pto.store_scalar", false, kAnyResults, ReadScalarAccess},
    {"pto.addptr", false, 1, ReadAddPtr},
    {"pto.declare_local_array", false, 1, ReadDeclareLocalArray},
    {"pto.local_array_get", false, kAnyResults, ReadLocalArrayAccess},
    {"pto.local_array_set", false, kAnyResults, ReadLocalArrayAccess},
    {"pto.declare_eventid_array", false, 1, ReadDeclareLocalArray},
    {"pto.eventid_array_get", false, kAnyResults, ReadLocalArrayAccess},
    {"pto.eventid_array_set", false, kAnyResults, ReadLocalArrayAccess},
    {"pto.barrier", false, 0, ReadSync},
    {"pto.barrier_sync", false, 0, ReadSync},
    {"pto.set_flag", false, 0, ReadSync},
    {"pto.wait_flag", false, 0, ReadSync},
    {"pto.set_flag_dyn", false, 0, ReadSync},
    {"pto.wait_flag_dyn", false, 0, ReadSync},
    {"pto.record_event", false, 0, ReadSync},
    {"pto.wait_event", false, 0, ReadSync},
    {"pto.sync.set", false, 0, ReadSync},
    {"pto.sync.wait", false, 0, ReadSync},
    {"pto.pipe_barrier", false, 0, ReadSync},
    {"pto.set_intra_block", false, 0, ReadSync},
    {"pto.wait_intra_block", false, 0, ReadSync},
    {"pto.get_buf", false, 0, ReadBufferToken},
    {"pto.rls_buf", false, 0, ReadBufferToken},
    {"pto.get_buf_dyn", false, 0, ReadBufferToken},
    {"pto.rls_buf_dyn", false, 0, ReadBufferToken},
    {"pto.cmo.cacheinvalid", false, 0, ReadCacheInvalid},
    {"pto.fence.barrier_all", false, 0, ReadFence},
    {"pto.syncall", false, 0, ReadSyncAll},
    {"pto.tsync", false, kAnyResults, ReadTsync},
    {"pto.tprint", false, 0, ReadPrint},
    {"pto.tget_scale_addr", false, 0, ReadGetScaleAddr},
    {"pto.sethf32mode", false, kAnyResults, RefuseCubeModeText},
    {"pto.settf32mode", false, kAnyResults, RefuseCubeModeText},
    {"pto.tquant_hif4", false, kAnyResults, RefuseHif4Text},
    {"pto.tquant.hif4", false, kAnyResults, RefuseHif4Text},
    {"pto.tmatmul_mx_hif4", false, kAnyResults, RefuseHif4Text},
    {"pto.tmatmul.mx.hif4", false, kAnyResults, RefuseHif4Text},
    // The waits and tests of an async event (a prefetch's, a tput_async's:
    // complete when made).
    {"pto.make_prefetch_async_context", false, 1, ReadPrefetch},
    {"pto.tprefetch_async", false, 1, ReadPrefetch},
    {"pto.get_prefetch_async_session", false, 1, ReadPrefetch},
    {"pto.comm.wait_async_event", false, 1, ReadPrefetch},
    {"pto.comm.test_async_event", false, 1, ReadPrefetch},
    {"pto.comm.build_async_session", false, kAnyResults, ReadCommAsync},
    {"pto.comm.tput_async", false, kAnyResults, ReadCommAsync},
    {"pto.comm.tget_async", false, kAnyResults, ReadCommAsync},
    // PTOAS's older spellings of the async forms (without "comm."), with
    // memref operands; the same operations.
    {"pto.wait_async_event", false, 1, ReadPrefetch},
    {"pto.test_async_event", false, 1, ReadPrefetch},
    {"pto.build_async_session", false, kAnyResults, ReadCommAsync},
    {"pto.tput_async", false, kAnyResults, ReadCommAsync},
    {"pto.tget_async", false, kAnyResults, ReadCommAsync},
    {"pto.comm.tput", false, kAnyResults, ReadComm},
    {"pto.comm.tget", false, kAnyResults, ReadComm},
    {"pto.comm.tnotify", false, kAnyResults, ReadComm},
    {"pto.comm.twait", false, kAnyResults, ReadComm},
    {"pto.comm.ttest", false, kAnyResults, ReadComm},
    {"pto.comm.tbroadcast", false, kAnyResults, ReadComm},
    {"pto.comm.tscatter", false, kAnyResults, ReadComm},
    {"pto.comm.tgather", false, kAnyResults, ReadComm},
    {"pto.comm.treduce", false, kAnyResults, ReadComm},
    {"pto.comm.", true, kAnyResults, RefuseComm},
    {"pto.get_block_idx", false, 1, ReadBlockQuery},
    {"pto.get_block_num", false, 1, ReadBlockQuery},
    {"pto.get_subblock_idx", false, 1, ReadBlockQuery},
    {"pto.get_subblock_num", false, 1, ReadBlockQuery},
    {"pto.make_tensor_view", false, 1, ReadMakeView},
    {"pto.partition_view", false, 1, ReadPartitionView},
    {"pto.tload", false, 0, ReadLoad},
    {"pto.tstore", false, 0, ReadStore},
    {"pto.tprefetch", false, 0, ReadPrefetchTile},
    {"pto.alloc_tile", false, 1, ReadAllocTile},
    {"memref.alloc", false, 1, ReadMemrefAlloc},
    {"pto.subset", false, 1, ReadSubset},
    {"pto.subview", false, kAnyResults, ReadSubview},
    {"pto.set_validshape", false, 0, ReadSetValidShape},
    {"pto.tassign", false, kAnyResults, ReadTassign},
};

// The row of an operation's name: the row naming it, else the row of a
// prefix of it; null for none.
const OperationRow* FindOperation(std::string_view name) {
  for (const OperationRow& row : kOperations)
    if (!row.prefix && row.name == name) return &row;
  for (const OperationRow& row : kOperations)
    if (row.prefix && name.substr(0, row.name.size()) == row.name) return &row;
  return nullptr;
}

// An operation of the table (ops::FindOp) on tiles: its DPS form
// `pto.OP ins(...) outs(...)` or its SSA form `%d = OP ...`.
void ReadTableOperation(Parser& p, const Token& op, const Results& results) {
  const std::string_view name = op.text;
  const bool prefixed = name.substr(0, 4) == "pto.";
  const std::string_view mnemonic = prefixed ? name.substr(4) : name;
  const ops::OpDescriptor* desc = ops::FindOp(mnemonic.data(), mnemonic.size());
  // PTOAS's dotted spellings of the table's underscored names
  // (tmatmul.acc, tmatmul.bias).
  if (desc == nullptr && mnemonic.find('.') != std::string_view::npos) {
    std::string underscored(mnemonic);
    for (char& ch : underscored)
      if (ch == '.') ch = '_';
    desc = ops::FindOp(underscored.data(), underscored.size());
  }
  // A NoText row (tmatmul_mx_hif4) is no operation of the text; its pto.
  // names are refused by rows above. A row with operands beyond tiles (a
  // table, no tile result, a scalar result: TakesOperandsBeyondTiles:
  // tgetval, mgather, mscatter; words: trandom; Aux destinations:
  // tquant.mx; a tmp in outs: tquant; counts: tmrgsort's lists) has its DPS
  // form (and a Counts row its SSA form of two results), pto.<mnemonic> only.
  // A row's ListsForm (tmrgsort's multi-list form, tmrgsort_lists) where
  // the text is that form's (IsListsForm).
  if (desc != nullptr && ops::ListsForm(*desc) != nullptr && IsListsForm(p, results))
    desc = ops::ListsForm(*desc);
  if (desc != nullptr && (ops::HasTrait(*desc, PTO_TRAIT_NoText) ||
                          (!prefixed && TakesOperandsBeyondTiles(*desc))))
    desc = nullptr;
  if (desc == nullptr) {
    // PTO's instructions are the t* operations (pto-isa docs/isa/T*.md).
    if (prefixed && mnemonic.size() > 1 && mnemonic[0] == 't')
      p.Error(op.loc, "instruction '" + std::string(name) + "' is not implemented");
    else p.Error(op.loc, "operation '" + std::string(name) + "' is not supported");
    return;
  }
  if (ops::HasTrait(*desc, PTO_TRAIT_Cube)) {
    if (p.ResultCount(op, results, 0)) p.cube().ParseMatmul(op, *desc);
    return;
  }
  if (TakesOperandsBeyondTiles(*desc)) {
    // A row's counts (tmrgsort's lists') as its SSA form's second result.
    if (results.size() == 2 && ops::RoleCount(desc->attr, ops::ArgRole::kCounts) != 0)
      return p.tile().ParseSsaCountsOp(op, *desc, results);
    if (p.ResultCount(op, results, DefinesValue(*desc) ? 1 : 0) && p.ExpectIdent("ins"))
      p.tile().ParseDpsValueOp(op, *desc, results);
    return;
  }
  if (prefixed && p.tok().IsIdent("ins")) {
    if (p.ResultCount(op, results, 0)) p.tile().ParseDpsTileOp(op, *desc);
  } else if (results.empty()) {
    p.Error(op.loc, std::string(name) +
                        (prefixed ? " needs ins(...) outs(...) or a %result" : " needs a %result"));
  } else if (p.ResultCount(op, results, 1)) {
    p.tile().ParseSsaTileOp(op, *desc, results[0]);
  }
}

}  // namespace

bool Parser::ResultCount(const Token& op, const std::vector<Token>& results, size_t n) {
  if (results.size() == n) return true;
  return Error(op.loc, std::string(op.text) + " defines " + std::to_string(n) + " result" +
                           (n == 1 ? "" : "s") + ", not " + std::to_string(results.size()));
}

// `%a, %r:2 =` before an operation: the results it defines (%r#0, %r#1 for
// `%r:2`); false on an error.
bool Parser::ParseResults(std::vector<Token>* results) {
  if (tok_.kind != Tok::kValue) return true;
  for (;;) {
    const Token name = tok_;
    Advance();
    if (tok_.Is(':')) {
      // %r:2 = ...: results %r#0 and %r#1.
      Advance();
      if (tok_.kind != Tok::kInt || tok_.text[0] == '-' || tok_.text.size() > 3)
        return Error(tok_.loc, "expected the number of results after '%" + std::string(name.text) +
                                   ":', found " + Describe(tok_));
      const int count = atoi(std::string(tok_.text).c_str());
      Advance();
      for (int i = 0; i < count; ++i)
        results->push_back(
            SyntheticName(std::string(name.text) + "#" + std::to_string(i), name.loc));
    } else {
      results->push_back(name);
    }
    if (!tok_.Is(',')) break;
    Advance();
    if (tok_.kind != Tok::kValue)
      return Error(tok_.loc, "expected a %name, found " + Describe(tok_));
  }
  return Expect('=');
}

void Parser::ParseOperation() {
  std::vector<Token> results;
  if (!ParseResults(&results) || !ok()) return;
  if (tok_.kind != Tok::kIdent) {
    Error(tok_.loc, "expected an operation, found " + Describe(tok_));
    return;
  }
  const Token op = tok_;
  const std::string_view name = op.text;
  Advance();
  op_name_ = std::string(name);
  boxed_vec_ok_ = name == "pto.tmov" || name == "tmov" || name.substr(0, 12) == "pto.tpush_to" ||
                  name.substr(0, 13) == "pto.tpop_from";
  const OperationRow* row = FindOperation(name);
  if (row == nullptr) return ReadTableOperation(*this, op, results);
  if (row->results == kAnyResults || ResultCount(op, results, static_cast<size_t>(row->results)))
    row->read(*this, op, results);
}

}  // namespace program
}  // namespace pto
