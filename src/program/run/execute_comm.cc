// The pto.comm.* instructions (kComm, Program.h's CommOp): transfers between
// views that may lie in any rank's window, signals, waits and the root
// collectives, through comm.h (the registered transport, or the process's
// own memory). Every operand is checked before anything is written: a
// refused operation writes nothing, locally or remotely.
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <algorithm>
#include <chrono>
#include <initializer_list>
#include <string>
#include <type_traits>
#include <vector>

#include "comm.h"
#include "dtype_rules.h"
#include "float_scalars.h"
#include "program/run/block.h"

namespace pto {
namespace program {
namespace {

const char* const kNames[] = {"pto.comm.tput",     "pto.comm.tget",     "pto.comm.tnotify",
                              "pto.comm.twait",    "pto.comm.ttest",    "pto.comm.tbroadcast",
                              "pto.comm.tscatter", "pto.comm.tgather",  "pto.comm.treduce"};

// A view's rows (every dimension but the last, flattened) and columns.
int64_t RowsOf(const View& v) {
  int64_t rows = 1;
  for (uint32_t i = 0; i + 1 < v.rank; ++i) rows *= v.shape[i];
  return rows;
}
int64_t ColsOf(const View& v) { return v.rank == 0 ? 1 : v.shape[v.rank - 1]; }

// One contiguous run of a view's elements: where it starts and its length.
struct Span {
  char* address;
  size_t bytes;
};

// The runs of rows [row0, row0 + rows) of v, in order (one per row, or one
// per element where the columns are strided).
std::vector<Span> SpansOf(const View& v, char* memory, size_t size, int64_t row0, int64_t rows) {
  std::vector<Span> runs;
  const int64_t cols = ColsOf(v);
  ForEachViewRow(v, row0 + rows, [&](int64_t r, int64_t element, int64_t col_stride) {
    if (r < row0 || cols == 0) return;
    char* start = memory + static_cast<size_t>(element) * size;
    if (col_stride == 1 || cols == 1) {
      runs.push_back(Span{start, static_cast<size_t>(cols) * size});
    } else {
      for (int64_t c = 0; c < cols; ++c)
        runs.push_back(Span{start + static_cast<size_t>(c * col_stride) * size, size});
    }
  });
  return runs;
}

// The PTO_COMM_TIMEOUT limit of a wait (pto_comm.h): seconds, default 60.
double WaitLimitSeconds() {
  const char* env = getenv("PTO_COMM_TIMEOUT");
  if (env == nullptr || *env == '\0') return 60.0;
  char* end = nullptr;
  const double v = strtod(env, &end);
  return end != env && *end == '\0' && v > 0 ? v : 60.0;
}

bool Satisfies(int32_t value, WaitCmp cmp, int32_t x) {
  switch (cmp) {
    case WaitCmp::kEq: return value == x;
    case WaitCmp::kNe: return value != x;
    case WaitCmp::kGt: return value > x;
    case WaitCmp::kGe: return value >= x;
    case WaitCmp::kLt: return value < x;
    case WaitCmp::kLe: return value <= x;
  }
  return false;
}

const char* CmpText(WaitCmp cmp) {
  static const char* const kText[] = {"==", "!=", ">", ">=", "<", "<="};
  return kText[static_cast<int>(cmp)];
}

// A run's target, or false where it does not lie inside one window yet
// touches one (across two windows, past one's end, or refused by the
// transport): never taken for the process's own memory.
bool Locate(const Span& run, comm::Target* t) {
  *t = comm::Resolve(run.address, run.bytes);
  if (t->rank >= 0) return true;
  if (t->rank == comm::kRefused) return false;
  return !comm::IsPeer(run.address, 1) && !comm::IsPeer(run.address + run.bytes - 1, 1);
}

template <typename T>
void Combine(ReduceOp op, T* acc, const T* x, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    switch (op) {
      case ReduceOp::kSum:
        if constexpr (std::is_integral<T>::value)
          acc[i] = static_cast<T>(static_cast<uint64_t>(acc[i]) + static_cast<uint64_t>(x[i]));
        else acc[i] = acc[i] + x[i];
        break;
      // Maxima and minima by comparison (a NaN in x is not taken).
      case ReduceOp::kMax:
        if (x[i] > acc[i]) acc[i] = x[i];
        break;
      case ReduceOp::kMin:
        if (x[i] < acc[i]) acc[i] = x[i];
        break;
    }
  }
}

// FLOAT16 or BFLOAT16 elements combined as the tile's tadd / tmax / tmin do:
// a sum rounded once to the dtype (exact in double before that), an extreme
// by comparison (a NaN in x is not taken, as Combine's).
void CombineHalves(pto_dtype d, ReduceOp op, char* acc, const char* x, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    uint16_t a, b;
    memcpy(&a, acc + 2 * i, 2);
    memcpy(&b, x + 2 * i, 2);
    const double va = HalfBitsToDouble(a, d), vb = HalfBitsToDouble(b, d);
    uint16_t r = a;
    switch (op) {
      case ReduceOp::kSum: r = DoubleToHalfBits(RoundToFloatType(va + vb, d, 16), d); break;
      case ReduceOp::kMax: r = vb > va ? b : a; break;
      case ReduceOp::kMin: r = vb < va ? b : a; break;
    }
    memcpy(acc + 2 * i, &r, 2);
  }
}

// acc op= x over n elements of dtype d; false for a dtype not reduced here.
bool CombineAs(pto_dtype d, ReduceOp op, char* acc, const char* x, size_t n) {
  switch (d) {
    case PTO_FLOAT32: Combine(op, reinterpret_cast<float*>(acc), reinterpret_cast<const float*>(x), n); return true;
    case PTO_INT32: Combine(op, reinterpret_cast<int32_t*>(acc), reinterpret_cast<const int32_t*>(x), n); return true;
    case PTO_UINT32: Combine(op, reinterpret_cast<uint32_t*>(acc), reinterpret_cast<const uint32_t*>(x), n); return true;
    case PTO_INT16: Combine(op, reinterpret_cast<int16_t*>(acc), reinterpret_cast<const int16_t*>(x), n); return true;
    case PTO_UINT16: Combine(op, reinterpret_cast<uint16_t*>(acc), reinterpret_cast<const uint16_t*>(x), n); return true;
    case PTO_INT8: Combine(op, reinterpret_cast<int8_t*>(acc), reinterpret_cast<const int8_t*>(x), n); return true;
    case PTO_UINT8: Combine(op, reinterpret_cast<uint8_t*>(acc), reinterpret_cast<const uint8_t*>(x), n); return true;
    case PTO_INT64: Combine(op, reinterpret_cast<int64_t*>(acc), reinterpret_cast<const int64_t*>(x), n); return true;
    case PTO_UINT64: Combine(op, reinterpret_cast<uint64_t*>(acc), reinterpret_cast<const uint64_t*>(x), n); return true;
    case PTO_FLOAT16:
    case PTO_BFLOAT16: CombineHalves(d, op, acc, x, n); return true;
    default: return false;
  }
}

// A session's comm_block_offset: pto-isa's SDMA transfers start that many
// bytes past both views (the views are flat and contiguous). Moves every run
// of runs[k] by offset bytes within bound[k]'s memory; the index of the
// first side moved past its memory (0 dst, 1 src), else -1, nothing moved.
int ShiftRuns(int64_t offset, size_t size, const Binding* const bound[2],
              std::initializer_list<std::vector<Span>*> runs) {
  int k = 0;
  for (std::vector<Span>* side : runs) {
    const char* end = bound[k]->data + static_cast<size_t>(bound[k]->count) * size;
    for (const Span& r : *side)
      if (r.address + offset + r.bytes > end) return k;
    ++k;
  }
  for (std::vector<Span>* side : runs)
    for (Span& r : *side) r.address += offset;
  return -1;
}

}  // namespace

pto_status CommExec::PeerAccessError(const Instr& in, uint32_t pointer, const char* what) {
  return Error(in, PTO_ERR_INVALID_ARGUMENT,
               std::string(what) + ": " + PointerName(pointer) +
                   " is another rank's window memory, which only the pto.comm operations "
                   "read and write here (pto.comm.tget / tput)");
}

pto_status CommExec::PeerAccess(const Instr& in, char* global, char* local, size_t bytes, bool load) {
  const char* what = in.code == Code::kLoad    ? "pto.tload"
                     : in.code == Code::kStore ? "pto.tstore"
                     : load                    ? "pto.load_scalar"
                                               : "pto.store_scalar";
  comm::Target t;
  if (!Locate(Span{global, bytes}, &t) || t.rank < 0)
    return Error(in, PTO_ERR_INVALID_ARGUMENT,
                 std::string(what) + ": the access lies partly outside another rank's window");
  pto_status s = load ? comm::Get(what, t, local, bytes) : comm::Put(what, t, local, bytes);
  if (s == PTO_OK && !load) s = comm::Flush(what, t.rank);
  if (s != PTO_OK) return Diagnose(p_, in.loc, s, LastError());
  return PTO_OK;
}

pto_status CommExec::Comm(const Instr& in) {
  switch (static_cast<CommOp>(in.sub)) {
    case CommOp::kPut:
    case CommOp::kGet: return CommCopy(in);
    case CommOp::kNotify:
    case CommOp::kWait:
    case CommOp::kTest: return CommSignal(in);
    case CommOp::kReduce: return CommReduce(in);
    default: return CommCollective(in);
  }
}

// Copies rows of one view into rows of another (tput, tget and the
// collectives' parts): every run located first, then read, then written
// (added with add), then the target flushed.
namespace {
struct Copy {
  std::vector<Span> dst, src;
};
}  // namespace

static pto_status MoveSpans(const char* what, const Copy& c, pto_dtype d, bool add,
                           std::string* where) {
  size_t total = 0;
  std::vector<comm::Target> src_targets, dst_targets;
  for (const Span& r : c.src) {
    comm::Target t;
    if (!Locate(r, &t)) return *where = "a source row", PTO_ERR_INVALID_ARGUMENT;
    src_targets.push_back(t);
    total += r.bytes;
  }
  for (const Span& r : c.dst) {
    comm::Target t;
    if (!Locate(r, &t)) return *where = "a destination row", PTO_ERR_INVALID_ARGUMENT;
    dst_targets.push_back(t);
  }
  // Rows read where they lie when the source is this process's memory and
  // its rows match the destination's one for one (a tput's usual case):
  // no staging copy.
  bool direct = c.src.size() == c.dst.size();
  for (size_t i = 0; direct && i < c.src.size(); ++i)
    direct = c.src[i].bytes == c.dst[i].bytes &&
             (src_targets[i].rank < 0 || src_targets[i].rank == comm::Rank());
  std::vector<char> staged(direct ? 0 : total);
  size_t at = 0;
  for (size_t i = 0; !direct && i < c.src.size(); ++i) {
    const pto_status s = comm::Get(what, src_targets[i], staged.data() + at, c.src[i].bytes);
    if (s != PTO_OK) return s;
    at += c.src[i].bytes;
  }
  at = 0;
  const size_t size = pto_dtype_size(d);
  int32_t last_rank = -1;
  for (size_t i = 0; i < c.dst.size(); ++i) {
    const comm::Target& t = dst_targets[i];
    const char* from = direct ? c.src[i].address : staged.data() + at;
    const pto_status s = add ? comm::Add(what, t, from, c.dst[i].bytes / size, d)
                             : comm::Put(what, t, from, c.dst[i].bytes);
    if (s != PTO_OK) return s;
    at += c.dst[i].bytes;
    if (t.rank != last_rank) {
      const pto_status f = comm::Flush(what, last_rank);
      if (f != PTO_OK) return f;
      last_rank = t.rank;
    }
  }
  return comm::Flush(what, last_rank);
}

pto_status CommExec::CommCopy(const Instr& in) {
  const char* what = kNames[in.sub];
  if (in.rank == 1) what = in.sub == 0 ? "pto.comm.tput_async" : "pto.comm.tget_async";
  const pto_dtype d = static_cast<pto_dtype>(in.d);
  const size_t size = pto_dtype_size(d);
  const View& dst = views_[in.a];
  const View& src = views_[in.b];
  if (RowsOf(dst) != RowsOf(src) || ColsOf(dst) != ColsOf(src))
    return Error(in, PTO_ERR_SHAPE_MISMATCH,
                 std::string(what) + ": dst's " + std::to_string(RowsOf(dst)) + "x" +
                     std::to_string(ColsOf(dst)) + " elements differ from src's " +
                     std::to_string(RowsOf(src)) + "x" + std::to_string(ColsOf(src)));
  const bool add = in.sub == static_cast<uint8_t>(CommOp::kPut) && in.attr == 1;
  Copy c;
  c.dst = SpansOf(dst, pointers_[dst.pointer].data, size, 0, RowsOf(dst));
  c.src = SpansOf(src, pointers_[src.pointer].data, size, 0, RowsOf(src));
  // tput_async / tget_async of a session with comm_block_offset (imm bytes).
  const Binding* bound[2] = {&pointers_[dst.pointer], &pointers_[src.pointer]};
  const int past = in.imm == 0 ? -1 : ShiftRuns(in.imm, size, bound, {&c.dst, &c.src});
  if (past >= 0)
    return Error(in, PTO_ERR_OUT_OF_RANGE,
                 std::string(what) + ": the session's comm_block_offset of " +
                     std::to_string(in.imm) + " bytes moves " + (past == 0 ? "dst" : "src") +
                     " past the " + std::to_string(bound[past]->count) + " elements of " +
                     PointerName(past == 0 ? dst.pointer : src.pointer));
  std::string where;
  const pto_status s = MoveSpans(what, c, d, add, &where);
  if (s != PTO_OK && !where.empty())
    return Error(in, s, std::string(what) + ": " + where + " does not lie inside one window");
  if (s != PTO_OK) return Diagnose(p_, in.loc, s, LastError());
  return PTO_OK;
}

pto_status CommExec::CommSignal(const Instr& in) {
  const char* what = kNames[in.sub];
  const View& v = views_[in.a];
  const int32_t value = static_cast<int32_t>(ints_[in.b]);
  const std::vector<Span> runs = SpansOf(v, pointers_[v.pointer].data, 4, 0, RowsOf(v));
  // Each element's target, checked before any is touched.
  std::vector<comm::Target> targets;
  for (const Span& r : runs) {
    for (size_t off = 0; off < r.bytes; off += 4) {
      comm::Target t;
      if (!Locate(Span{r.address + off, 4}, &t))
        return Error(in, PTO_ERR_INVALID_ARGUMENT, std::string(what) + ": a signal does not lie inside one window");
      targets.push_back(t);
    }
  }
  const CommOp op = static_cast<CommOp>(in.sub);
  if (op == CommOp::kNotify) {
    for (const comm::Target& t : targets) {
      const pto_status s = comm::Signal(what, t, value, in.attr == 1);
      if (s != PTO_OK) return Diagnose(p_, in.loc, s, LastError());
    }
    return PTO_OK;
  }
  const WaitCmp cmp = static_cast<WaitCmp>(in.attr);
  const auto start = std::chrono::steady_clock::now();
  const double limit = WaitLimitSeconds();
  size_t first_unmet = 0;  // elements before it are satisfied (or were, for a test)
  int32_t seen = 0;
  for (unsigned polls = 0;; ++polls) {
    bool met = true;
    for (size_t i = first_unmet; i < targets.size(); ++i) {
      const pto_status s = comm::ReadSignal(what, targets[i], &seen);
      if (s != PTO_OK) return Diagnose(p_, in.loc, s, LastError());
      if (!Satisfies(seen, cmp, value)) {
        met = false;
        if (op == CommOp::kWait) first_unmet = i;
        break;
      }
    }
    // ttest: every element at once, in one pass.
    if (op == CommOp::kTest) {
      ints_[in.c] = met ? 1 : 0;
      return PTO_OK;
    }
    if (met) return PTO_OK;
    // Another block failed (its error recorded first): this one stops here,
    // before the instructions after the wait.
    if (stop_->load(std::memory_order_relaxed))
      return Error(in, PTO_ERR_INVALID_ARGUMENT,
                   std::string(what) + ": stopped, another block of the launch failed");
    const double waited =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (waited > limit) {
      char limit_text[32];
      snprintf(limit_text, sizeof(limit_text), "%g", limit);
      return Error(in, PTO_ERR_INVALID_ARGUMENT,
                   std::string(what) + ": no notify within " + limit_text +
                       " s (PTO_COMM_TIMEOUT) on rank " + std::to_string(comm::Rank()) +
                       ", block " + std::to_string(block_) + ": element " +
                       std::to_string(first_unmet) + " of the signal " +
                       PointerName(v.pointer) + " is " + std::to_string(seen) +
                       ", waiting for " + CmpText(cmp) + " " + std::to_string(value));
    }
    // Back off: yield first, then sleep a little (a rank's blocks and
    // other ranks share few CPUs).
    if (polls < 64) {
      sched_yield();
    } else {
      const struct timespec pause = {0, polls < 1024 ? 20000 : 200000};
      nanosleep(&pause, nullptr);
    }
  }
}

// Every group member of a collective rows x cols, as `like` is.
pto_status CommExec::GroupShapes(const Instr& in, int64_t rows, int64_t cols, const char* like) {
  for (uint32_t m = 0; m < static_cast<uint32_t>(in.imm); ++m) {
    const View& g = views_[p_.lists[in.extra + m]];
    if (RowsOf(g) != rows || ColsOf(g) != cols)
      return Error(in, PTO_ERR_SHAPE_MISMATCH,
                   std::string(kNames[in.sub]) + ": group member " + std::to_string(m) + " is " +
                       std::to_string(RowsOf(g)) + "x" + std::to_string(ColsOf(g)) + ", " + like +
                       " " + std::to_string(rows) + "x" + std::to_string(cols));
  }
  return PTO_OK;
}

// tbroadcast, tscatter, tgather: called by the root only; it reads or
// writes every member's view itself.
pto_status CommExec::CommCollective(const Instr& in) {
  const char* what = kNames[in.sub];
  const CommOp op = static_cast<CommOp>(in.sub);
  const pto_dtype d = static_cast<pto_dtype>(in.d);
  const size_t size = pto_dtype_size(d);
  const View& local = views_[in.a];
  const uint32_t members = static_cast<uint32_t>(in.imm);
  const View& first = views_[p_.lists[in.extra]];
  const int64_t rows = RowsOf(first), cols = ColsOf(first);
  const pto_status shapes = GroupShapes(in, rows, cols, "member 0");
  if (shapes != PTO_OK) return shapes;
  const bool blocks = op != CommOp::kBroadcast;  // a row block per member
  const int64_t need_rows = blocks ? rows * members : rows;
  if (ColsOf(local) != cols || (blocks ? RowsOf(local) < need_rows : RowsOf(local) != rows))
    return Error(in, PTO_ERR_SHAPE_MISMATCH,
                 std::string(what) + ": " + (op == CommOp::kGather ? "dst" : "src") + " is " +
                     std::to_string(RowsOf(local)) + "x" + std::to_string(ColsOf(local)) +
                     (blocks ? ", not at least " : ", not ") + std::to_string(need_rows) + "x" +
                     std::to_string(cols) + " (" + std::to_string(members) +
                     " members of " + std::to_string(rows) + "x" + std::to_string(cols) +
                     (blocks ? ", a row block each)" : ")"));
  std::vector<Copy> copies(members);
  for (uint32_t m = 0; m < members; ++m) {
    const View& g = views_[p_.lists[in.extra + m]];
    std::vector<Span> member = SpansOf(g, pointers_[g.pointer].data, size, 0, rows);
    std::vector<Span> part =
        SpansOf(local, pointers_[local.pointer].data, size, blocks ? m * rows : 0, rows);
    if (op == CommOp::kGather) copies[m] = Copy{part, member};
    else copies[m] = Copy{member, part};
  }
  // Every member located before the first is written.
  for (const Copy& c : copies) {
    for (const std::vector<Span>* runs : {&c.dst, &c.src}) {
      for (const Span& r : *runs) {
        comm::Target t;
        if (!Locate(r, &t))
          return Error(in, PTO_ERR_INVALID_ARGUMENT,
                       std::string(what) + ": a member's row does not lie inside one window");
      }
    }
  }
  for (const Copy& c : copies) {
    std::string where;
    const pto_status s = MoveSpans(what, c, d, false, &where);
    if (s != PTO_OK) return Diagnose(p_, in.loc, s, LastError());
  }
  return PTO_OK;
}

// treduce: the root reads every member; acc starts as the root's own
// member, then the others are combined in group order (pto-isa's
// TReduce: r = 0..N-1 skipping root); dst <- acc.
pto_status CommExec::CommReduce(const Instr& in) {
  const char* what = kNames[in.sub];
  const pto_dtype d = static_cast<pto_dtype>(in.d);
  const size_t size = pto_dtype_size(d);
  const ReduceOp op = static_cast<ReduceOp>(in.attr);
  const View& dst = views_[in.a];
  const uint32_t members = static_cast<uint32_t>(in.imm);
  const uint32_t root = in.rank;
  const int64_t rows = RowsOf(dst), cols = ColsOf(dst);
  const pto_status shapes = GroupShapes(in, rows, cols, "dst");
  if (shapes != PTO_OK) return shapes;
  char probe = 0;
  if (!CombineAs(d, op, &probe, &probe, 0))
    return Error(in, PTO_ERR_UNSUPPORTED_DTYPE,
                 std::string(what) + ": a reduction of " + DtypeName(d) +
                     " is not implemented (the float and integer dtypes are)");
  const size_t bytes = static_cast<size_t>(rows * cols) * size;
  std::vector<char> acc(bytes), x(bytes);
  // A member's elements, row by row, into buffer.
  auto read = [&](uint32_t m, char* buffer) -> pto_status {
    const View& g = views_[p_.lists[in.extra + m]];
    size_t at = 0;
    for (const Span& r : SpansOf(g, pointers_[g.pointer].data, size, 0, rows)) {
      comm::Target t;
      if (!Locate(r, &t))
        return Error(in, PTO_ERR_INVALID_ARGUMENT,
                     std::string(what) + ": a member's row does not lie inside one window");
      const pto_status s = comm::Get(what, t, buffer + at, r.bytes);
      if (s != PTO_OK) return Diagnose(p_, in.loc, s, LastError());
      at += r.bytes;
    }
    return PTO_OK;
  };
  pto_status s = read(root, acc.data());
  for (uint32_t m = 0; s == PTO_OK && m < members; ++m) {
    if (m == root) continue;
    s = read(m, x.data());
    if (s == PTO_OK) CombineAs(d, op, acc.data(), x.data(), static_cast<size_t>(rows * cols));
  }
  if (s != PTO_OK) return s;
  Copy c;
  c.dst = SpansOf(dst, pointers_[dst.pointer].data, size, 0, rows);
  c.src = {Span{acc.data(), bytes}};
  std::string where;
  s = MoveSpans(what, c, d, false, &where);
  if (s != PTO_OK && !where.empty())
    return Error(in, s, std::string(what) + ": dst does not lie inside one window");
  if (s != PTO_OK) return Diagnose(p_, in.loc, s, LastError());
  return PTO_OK;
}

}  // namespace program
}  // namespace pto
