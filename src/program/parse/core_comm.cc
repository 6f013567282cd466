// PTOAS's comm dialect (pto.comm.tput, tget, tnotify, twait, ttest,
// tbroadcast, tscatter, tgather, treduce; PTOOps.td's assembly formats):
// one-sided transfers and signals between ranks (pto_comm.h), each read into
// one kComm instruction. The staging tiles (buf, recv, treduce's acc) are
// checked for their dtype; the transfers move the views' elements directly.
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include <string>
#include <string_view>
#include <vector>

#include "program/parse/parser.h"
#include "program/parse/readers.h"

namespace pto {
namespace program {
namespace {

// One operand of a comm operation: a plain %name, or one in buf( ),
// recv( ) or group( ).
struct CommOperand {
  Token name;
  std::string_view list;  // "", "buf", "recv", "group"
  Type type;
  SourceLoc type_loc;
};

bool IsView(const Type& t) {
  return t.kind == TypeKind::kPartitionView || t.kind == TypeKind::kTensorView;
}

// `( operands : types )`: the operands with their lists and types.
bool ReadOperands(Parser& p, const std::string& what, std::vector<CommOperand>* out) {
  if (!p.Expect('(')) return false;
  for (;;) {
    if (p.tok().kind == Tok::kIdent &&
        (p.tok().IsIdent("buf") || p.tok().IsIdent("recv") || p.tok().IsIdent("group"))) {
      const std::string_view list = p.tok().text;
      p.Advance();
      if (!p.Expect('(')) return false;
      std::vector<Token> names;
      p.ParseValueNames(&names);
      if (!p.ok()) return false;
      if (names.empty())
        return p.Error(p.tok().loc, what + ": " + std::string(list) + "( ) names no operand");
      for (const Token& n : names) out->push_back(CommOperand{n, list, Type{}, SourceLoc{}});
      if (!p.Expect(')')) return false;
    } else {
      Token name;
      if (!p.ExpectValueName(&name)) return false;
      out->push_back(CommOperand{name, "", Type{}, SourceLoc{}});
    }
    if (!p.tok().Is(',')) break;
    p.Advance();
  }
  std::vector<Type> types;
  std::vector<SourceLoc> locs;
  if (!p.Expect(':') || !p.ParseTypeList(&types, &locs) || !p.Expect(')')) return false;
  if (types.size() != out->size())
    return p.Error(locs.empty() ? p.tok().loc : locs[0],
                   what + ": " + std::to_string(out->size()) + " operands, " +
                       std::to_string(types.size()) + " types");
  for (size_t i = 0; i < types.size(); ++i) {
    (*out)[i].type = types[i];
    (*out)[i].type_loc = locs[i];
  }
  return true;
}

// `{key = value [: type], ...}`: values as written (`#pto<wait_cmp ge>`, `1`).
bool ReadAttributes(Parser& p, std::vector<AttrEntry>* out) {
  if (!p.tok().Is('{')) return true;
  p.Advance();
  while (p.ok() && !p.tok().Is('}')) {
    AttrEntry e;
    e.loc = p.tok().loc;
    if (p.tok().kind != Tok::kIdent)
      return p.Error(p.tok().loc, "expected an attribute name, found " + Describe(p.tok()));
    e.key = p.tok().text;
    p.Advance();
    if (!p.Expect('=')) return false;
    e.value = p.tok();
    p.Advance();
    if (p.tok().Is(':')) {  // `1 : i32`
      p.Advance();
      Type ignored;
      if (!p.ParseType(&ignored)) return false;
    }
    out->push_back(e);
    if (!p.tok().Is(',')) break;
    p.Advance();
  }
  return p.Expect('}');
}

// The value of `#pto<KIND NAME>` among names (its index), else -1.
int EnumValue(const Token& value, std::string_view kind, const std::vector<std::string_view>& names) {
  const std::string_view text = value.text;
  const std::string prefix = "#pto<" + std::string(kind) + " ";
  if (text.size() <= prefix.size() + 1 || text.substr(0, prefix.size()) != prefix ||
      text.back() != '>')
    return -1;
  const std::string_view name = text.substr(prefix.size(), text.size() - prefix.size() - 1);
  for (size_t i = 0; i < names.size(); ++i)
    if (names[i] == name) return static_cast<int>(i);
  return -1;
}

// ttest's `-> i1`.
bool ReadTestResult(Parser& p, const std::string& what) {
  if (!p.ExpectArrow()) return false;
  const SourceLoc at = p.tok().loc;
  Type result;
  if (!p.ParseType(&result)) return false;
  if (!result.IsInteger() || result.bits != 1)
    return p.Error(at, what + " defines an i1, not " + TypeString(result));
  return true;
}

// The pointers a comm operation's views reach, read or written: the first
// plain operand is written by a put, get, notify, gather and reduce (dst),
// read by a wait, test, broadcast and scatter (src); a put's and get's second
// is read; the group's members are written by a broadcast and scatter, read
// by a gather and reduce.
void MarkCommAccess(MemoryReader& memory, CommOp kind, const std::vector<CommOperand>& operands,
                    const std::vector<Value>& values) {
  const bool p2p = kind == CommOp::kPut || kind == CommOp::kGet;
  const bool first_written = p2p || kind == CommOp::kNotify || kind == CommOp::kGather ||
                             kind == CommOp::kReduce;
  memory.MarkViewAccess(values[0].reg, first_written ? PTO_PARAM_WRITE : PTO_PARAM_READ);
  if (kind == CommOp::kNotify) memory.MarkViewAccess(values[0].reg, PTO_PARAM_READ);
  if (p2p) memory.MarkViewAccess(values[1].reg, PTO_PARAM_READ);
  const bool members_written = kind == CommOp::kBroadcast || kind == CommOp::kScatter;
  for (size_t i = 0; i < operands.size(); ++i)
    if (operands[i].list == "group")
      memory.MarkViewAccess(values[i].reg, members_written ? PTO_PARAM_WRITE : PTO_PARAM_READ);
}

// A comm operation's view operand: a view in global memory of the
// operation's dtype whose static dimensions are positive (PTOAS).
bool CommView(Parser& p, const std::string& what, const CommOperand& o, const Value& v,
              pto_dtype dtype) {
  if (!IsView(v.type))
    return p.Error(o.type_loc, what + ": %" + std::string(o.name.text) + " is " +
                                   TypeString(v.type) + ", not a view in global memory");
  if (v.type.dtype != dtype)
    return p.Error(o.type_loc,
                   what + ": %" + std::string(o.name.text) + " holds " +
                       DtypeSpelling(v.type.dtype) + ", not " + DtypeSpelling(dtype),
                   PTO_ERR_DTYPE_MISMATCH);
  for (int d = 0; d < v.type.rank; ++d)
    if (v.type.dims[d] != kDynamic && v.type.dims[d] <= 0)
      return p.Error(o.type_loc, what + ": %" + std::string(o.name.text) + " is " +
                                     TypeString(v.type) +
                                     ": every static dimension of a view must be positive",
                     PTO_ERR_SHAPE_MISMATCH);
  return true;
}

// A comm operation's staging tile (buf, recv, treduce's acc, a session's
// scratch): in the unified buffer (a vec tile: pto-isa's comm pages and
// PTOAS) and of the views' dtype.
bool StagingTile(Parser& p, const std::string& what, const Token& name, const SourceLoc& at,
                 const Type& tile, pto_dtype dtype) {
  if (tile.space != Space::kVec)
    return p.Error(at, what + ": the tile %" + std::string(name.text) + " lies in " +
                           SpaceSpelling(tile.space) +
                           ", not in the unified buffer: a staging tile is a vec tile");
  if (tile.dtype != dtype)
    return p.Error(at,
                   what + ": the tile %" + std::string(name.text) + " holds " +
                       DtypeSpelling(tile.dtype) + ", not the views' " + DtypeSpelling(dtype),
                   PTO_ERR_DTYPE_MISMATCH);
  return true;
}

bool EndsWith(std::string_view text, std::string_view tail) {
  return text.size() >= tail.size() && text.substr(text.size() - tail.size()) == tail;
}

// build_async_session's attributes and PTOAS's ranges for them (sync_id
// 0..7, block_bytes and queue_num > 0, comm_block_offset and
// channel_group_idx >= 0, the latter within uint32); the transfers take none.
// *block_offset: comm_block_offset's value (0 without it).
bool SessionAttributes(Parser& p, const std::string& what, bool session,
                       const std::vector<AttrEntry>& attrs, int64_t* block_offset) {
  for (const AttrEntry& e : attrs) {
    long long lo = 0, hi = INT64_MAX;
    if (e.key == "sync_id") hi = 7;
    else if (e.key == "block_bytes" || e.key == "queue_num") lo = 1;
    else if (e.key == "channel_group_idx") hi = UINT32_MAX;
    else if (e.key != "comm_block_offset") session = false;
    if (!session)
      return p.Error(e.loc, what + ": unknown attribute '" + std::string(e.key) + "'");
    const std::string text(e.value.text);
    char* end = nullptr;
    errno = 0;
    const long long v = strtoll(text.c_str(), &end, 10);
    if (e.value.kind != Tok::kInt || errno != 0 || *end != '\0' || v < lo || v > hi)
      return p.Error(e.loc, what + ": " + std::string(e.key) + " = " + text + " is outside " +
                                (hi == INT64_MAX ? ">= " + std::to_string(lo)
                                                 : std::to_string(lo) + ".." + std::to_string(hi)));
    if (e.key == "comm_block_offset") *block_offset = v;
  }
  return true;
}

}  // namespace

// The attributes of a comm operation into in (attr, rank: the root): each
// operation's own, each required where PTOAS requires it; false on an error.
bool CommReader::CommAttributes(const Token& op, CommOp kind, const std::vector<AttrEntry>& attrs,
                                size_t group, Instr* out) {
  Instr& in = *out;
  const std::string what(op.text);
  const bool signal_op = kind == CommOp::kNotify || kind == CommOp::kWait || kind == CommOp::kTest;
  const bool p2p = kind == CommOp::kPut || kind == CommOp::kGet;
  // Attributes: each operation's own, each required where PTOAS requires it.
  bool has_kind_attr = false, has_root = false;
  for (const AttrEntry& e : attrs) {
    int v = -1;
    if (e.key == "atomicType" && kind == CommOp::kPut) {
      v = EnumValue(e.value, "atomic_type", {"atomic_none", "atomic_add"});
    } else if (e.key == "notifyOp" && kind == CommOp::kNotify) {
      v = EnumValue(e.value, "notify_op", {"set", "atomic_add"});
      has_kind_attr = true;
    } else if (e.key == "cmp" && (kind == CommOp::kWait || kind == CommOp::kTest)) {
      v = EnumValue(e.value, "wait_cmp", {"eq", "ne", "gt", "ge", "lt", "le"});
      has_kind_attr = true;
    } else if (e.key == "reduceOp" && kind == CommOp::kReduce) {
      v = EnumValue(e.value, "reduce_op", {"sum", "max", "min"});
      has_kind_attr = true;
    } else if (e.key == "root" && !signal_op && !p2p) {
      char* end = nullptr;
      const std::string text(e.value.text);
      const long root = e.value.kind == Tok::kInt ? strtol(text.c_str(), &end, 10) : -1;
      if (root < 0 || root >= static_cast<long>(group))
        return parser_.Error(e.loc, what + ": root is the group index of the calling rank, "
                                                 "0.." + std::to_string(group - 1) + ", not " + text);
      in.rank = static_cast<uint32_t>(root);
      has_root = true;
      continue;
    } else {
      return parser_.Error(e.loc, what + ": unknown attribute '" + std::string(e.key) + "'");
    }
    if (v < 0)
      return parser_.Error(e.loc, what + ": " + std::string(e.key) + " = " +
                                            std::string(e.value.text) + " is not one of its values");
    in.attr = v;
  }
  if (!has_kind_attr && (signal_op || kind == CommOp::kReduce))
    return parser_.Error(op.loc, what + " needs its " +
                                           (kind == CommOp::kNotify ? "notifyOp"
                                            : kind == CommOp::kReduce ? "reduceOp"
                                                                      : "cmp") +
                                           " attribute");
  if (!has_root && !signal_op && !p2p)
    return parser_.Error(op.loc, what + " needs its root attribute");
  return true;
}

namespace {

// The shape each comm operation takes: its plain operands, then its lists
// (buf, recv, group); *group the group's members.
bool CommShapeHolds(Parser& parser, const Token& op, const std::string& what, CommOp kind,
                    bool signal_op, bool p2p, const std::vector<CommOperand>& operands,
                    size_t* group_count) {
  size_t plain = 0, buf = 0, recv = 0, group = 0;
  for (const CommOperand& o : operands) {
    if (o.list.empty()) {
      if (buf + recv + group != 0)
        return parser.Error(o.name.loc, what + ": %" + std::string(o.name.text) +
                                            " follows a buf/recv/group list");
      ++plain;
    } else if (o.list == "buf") ++buf;
    else if (o.list == "recv") ++recv;
    else ++group;
  }
  const size_t want_plain = signal_op || p2p ? 2 : kind == CommOp::kReduce ? 2 : 1;
  const bool shape_ok = plain == want_plain &&
                        (signal_op ? buf + recv + group == 0
                         : p2p     ? recv + group == 0 && buf >= 1 && buf <= 2
                                   : buf == 0 && recv >= 1 && recv <= 2 && group >= 1);
  if (!shape_ok) {
    const char* form =
        signal_op ? "(%signal, %value : types)"
        : p2p     ? "(%dst, %src, buf(%ping[, %pong]) : types)"
        : kind == CommOp::kReduce
            ? "(%dst, %acc, recv(%ping[, %pong]), group(%member, ...) : types)"
            : kind == CommOp::kGather ? "(%dst, recv(%ping[, %pong]), group(%member, ...) : types)"
                                      : "(%src, recv(%ping[, %pong]), group(%member, ...) : types)";
    return parser.Error(op.loc, what + " takes " + form);
  }
  *group_count = group;
  return true;
}

}  // namespace

void CommReader::ParseComm(const Token& op, const std::vector<Token>& results) {
  const std::string what(op.text);
  const std::string_view name = op.text.substr(9);  // after "pto.comm."
  CommOp kind;
  if (name == "tput") kind = CommOp::kPut;
  else if (name == "tget") kind = CommOp::kGet;
  else if (name == "tnotify") kind = CommOp::kNotify;
  else if (name == "twait") kind = CommOp::kWait;
  else if (name == "ttest") kind = CommOp::kTest;
  else if (name == "tbroadcast") kind = CommOp::kBroadcast;
  else if (name == "tscatter") kind = CommOp::kScatter;
  else if (name == "tgather") kind = CommOp::kGather;
  else kind = CommOp::kReduce;
  const bool signal_op = kind == CommOp::kNotify || kind == CommOp::kWait || kind == CommOp::kTest;
  if (!parser_.ResultCount(op, results, kind == CommOp::kTest ? 1 : 0)) return;
  std::vector<CommOperand> operands;
  if (!ReadOperands(parser_, what, &operands)) return;
  std::vector<AttrEntry> attrs;
  if (!ReadAttributes(parser_, &attrs)) return;
  if (kind == CommOp::kTest && !ReadTestResult(parser_, what)) return;
  // Every operand defined, and of the type written.
  std::vector<Value> values(operands.size());
  for (size_t i = 0; i < operands.size(); ++i) {
    if (!parser_.UseValue(operands[i].name, &values[i]) ||
        !parser_.WrittenAs(operands[i].name, values[i].type, operands[i].type,
                           operands[i].type_loc))
      return;
  }
  const bool p2p = kind == CommOp::kPut || kind == CommOp::kGet;
  size_t group = 0;
  if (!CommShapeHolds(parser_, op, what, kind, signal_op, p2p, operands, &group)) return;
  // Views and their element type; the staging tiles of that type.
  Instr in;
  in.code = Code::kComm;
  in.sub = static_cast<uint8_t>(kind);
  in.loc = op.loc;
  const pto_dtype dtype = values[0].type.dtype;
  for (size_t i = 0; i < operands.size(); ++i) {
    const CommOperand& o = operands[i];
    const Value& v = values[i];
    const bool tile_operand = !o.list.empty() && o.list != "group";
    const bool scalar_operand = signal_op && i == 1;
    const bool acc = kind == CommOp::kReduce && i == 1;
    if (scalar_operand) {
      if (!v.type.IsInteger())
        return (void)parser_.Error(o.name.loc, what + ": %" + std::string(o.name.text) + " is " +
                                                   TypeString(v.type) + ", not an integer");
      continue;
    }
    if (tile_operand || acc) {
      uint32_t slot;
      if (!parser_.UseTile(o.name, o.type, o.type_loc, acc ? Use::kWrite : Use::kTmp, &slot))
        return;
      if (!StagingTile(parser_, what, o.name, o.type_loc, p_->tiles[slot].type, dtype)) return;
      continue;
    }
    if (!CommView(parser_, what, o, v, dtype)) return;
  }
  if (signal_op && dtype != PTO_INT32)
    return (void)parser_.Error(operands[0].type_loc,
                               what + ": a signal is a view of i32, not of " +
                                   std::string(DtypeSpelling(dtype)),
                               PTO_ERR_DTYPE_MISMATCH);
  in.a = values[0].reg;
  if (signal_op || p2p) in.b = values[1].reg;
  in.d = static_cast<uint32_t>(dtype);
  if (kind == CommOp::kTest) {
    in.c = parser_.NewIntReg();
    Value r;
    r.type.kind = TypeKind::kInt;
    r.type.bits = 1;
    r.reg = in.c;
    if (!parser_.Define(results[0], r)) return;
  }
  in.extra = static_cast<uint32_t>(p_->lists.size());
  for (size_t i = 0; i < operands.size(); ++i)
    if (operands[i].list == "group") p_->lists.push_back(values[i].reg);
  in.imm = static_cast<int64_t>(group);
  if (!CommAttributes(op, kind, attrs, group, &in)) return;
  p_->code.push_back(in);
  p_->uses_comm = true;
  MarkCommAccess(parser_.memory(), kind, operands, values);
}

// The asynchronous forms: pto.comm.build_async_session(%scratch, %workspace
// : tile, !pto.ptr<i8>) {...} -> !pto.async_session, and
// pto.comm.tput_async / tget_async(%dst, %src, %session : view, view,
// !pto.async_session) -> !pto.async_event. The transfer is made at the
// operation (a kComm like tput's or tget's), so its event is complete at
// once: wait_async_event and test_async_event give true (core_sync.cc).
void CommReader::ParseCommAsync(const Token& op, const std::vector<Token>& results) {
  const std::string what(op.text);
  // pto.comm.X and PTOAS's older pto.X name the same operations.
  const bool session = EndsWith(op.text, "build_async_session");
  const bool put = EndsWith(op.text, "tput_async");
  if (!parser_.ResultCount(op, results, 1)) return;
  std::vector<CommOperand> operands;
  if (!ReadOperands(parser_, what, &operands)) return;
  std::vector<AttrEntry> attrs;
  if (!ReadAttributes(parser_, &attrs)) return;
  int64_t block_offset = 0;
  if (!SessionAttributes(parser_, what, session, attrs, &block_offset)) return;
  if (!parser_.ExpectArrow()) return;
  const SourceLoc result_loc = tok().loc;
  Type result;
  if (!parser_.ParseType(&result)) return;
  Type want;
  ParseHandleType(session ? "!pto.async_session" : "!pto.async_event", &want);
  if (!SameType(result, want))
    return (void)parser_.Error(result_loc, what + " gives " + TypeString(want) + ", not " +
                                               TypeString(result));
  if (operands.size() != (session ? 2u : 3u) || !operands.back().list.empty())
    return (void)parser_.Error(op.loc, what + (session ? " takes (%scratch, %workspace : types)"
                                                       : " takes (%dst, %src, %session : types)"));
  std::vector<Value> values(operands.size());
  for (size_t i = 0; i < operands.size(); ++i)
    if (!parser_.UseValue(operands[i].name, &values[i]) ||
        !parser_.WrittenAs(operands[i].name, values[i].type, operands[i].type,
                           operands[i].type_loc))
      return;
  if (session) {
    uint32_t slot;
    if (!parser_.UseTile(operands[0].name, operands[0].type, operands[0].type_loc, Use::kTmp,
                         &slot) ||
        !StagingTile(parser_, what, operands[0].name, operands[0].type_loc, p_->tiles[slot].type,
                     p_->tiles[slot].type.dtype))
      return;
    // PTOAS: a !pto.ptr, or a memref in global memory, of 8-bit integers.
    const Type& ws = values[1].type;
    const bool memref = ws.kind == TypeKind::kTensorView && ws.memref;
    if ((ws.kind != TypeKind::kPtr && !memref) || pto_dtype_size(ws.dtype) != 1 ||
        IsFloatDtype(ws.dtype))
      return (void)parser_.Error(operands[1].type_loc,
                                 what + " takes its workspace as a !pto.ptr or a memref of 8-bit "
                                        "integers, not " + TypeString(ws));
  } else {
    if (!IsHandle(values[2].type, Handle::kAsyncSession))
      return (void)parser_.Error(operands[2].type_loc, what + " takes a !pto.async_session, not " +
                                                           TypeString(values[2].type));
    // PTOAS: a static flat contiguous 1-D view each.
    for (size_t i = 0; i < 2; ++i) {
      const Type& t = values[i].type;
      bool flat = IsView(t) && t.dtype == values[0].type.dtype;
      for (int d = 0; flat && d < t.rank; ++d)
        flat = t.dims[d] != kDynamic && (d + 1 == t.rank || t.dims[d] == 1);
      if (!flat)
        return (void)parser_.Error(operands[i].type_loc,
                                   what + " moves a view of static shape whose dimensions but the "
                                          "last are 1 (a flat 1-D view of the other's dtype), not " +
                                       TypeString(t));
    }
    const Type& d = values[0].type;
    const Type& s = values[1].type;
    if (d.dims[d.rank - 1] != s.dims[s.rank - 1])
      return (void)parser_.Error(operands[1].type_loc,
                                 what + ": src holds " + std::to_string(s.dims[s.rank - 1]) +
                                     " elements, dst " + std::to_string(d.dims[d.rank - 1]) +
                                     " (PTOAS: the same static shape)");
    Instr in;
    in.code = Code::kComm;
    in.sub = static_cast<uint8_t>(put ? CommOp::kPut : CommOp::kGet);
    in.loc = op.loc;
    in.a = values[0].reg;
    in.b = values[1].reg;
    in.d = static_cast<uint32_t>(values[0].type.dtype);
    // The session's comm_block_offset: pto-isa's SDMA transfers start that
    // many bytes past both views' first elements (TPUT_ASYNC's baseConfig).
    in.imm = values[2].const_value;
    in.rank = 1;  // the async form: its errors name tput_async / tget_async
    p_->code.push_back(in);
    p_->uses_comm = true;
    parser_.memory().MarkViewAccess(values[0].reg, PTO_PARAM_WRITE);
    parser_.memory().MarkViewAccess(values[1].reg, PTO_PARAM_READ);
  }
  Value v;
  v.type = want;
  // A session carries its comm_block_offset (bytes) to its transfers; not a
  // constant (is_const stays false), only the handle's own datum.
  if (session) v.const_value = block_offset;
  parser_.Define(results[0], v);
}

}  // namespace program
}  // namespace pto
