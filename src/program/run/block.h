// The state of one block of a running program (execute.cc runs its
// instructions; execute_memory.cc holds those on global memory, views,
// subviews and pto.tprint; execute_cube.cc the cube's). Private to src/program/.
#ifndef PTO_PROGRAM_RUN_BLOCK_H_
#define PTO_PROGRAM_RUN_BLOCK_H_

#include <stdint.h>
#include <string.h>

#include <algorithm>
#include <atomic>
#include <string>
#include <vector>

#include "alloc.h"
#include "error.h"
#include "program/ir/program.h"
#include "program/ir/types.h"

namespace pto {
namespace program {

// A window of a bound pointer, in elements.
struct View {
  uint32_t pointer;
  uint32_t rank;
  int64_t offset;
  int64_t shape[kMaxRank];
  int64_t strides[kMaxRank];
};

// Where a tile's elements lie: the image that holds them (for a subview of
// a cube tile, its root tile's), that image's layout, and the (row, column)
// of the image at which the tile's (0, 0) lies.
struct TileImage {
  char* data;
  Layout layout;
  uint64_t row, col;
  // How many of `rows` rows (`cols` columns) from the tile's row r (column
  // c) on lie inside the image: a cube window may reach past its root, whose
  // valid region alone must lie inside (Block::Subview), and what is past
  // the root is neither read nor written.
  uint64_t RowsInside(uint64_t r, uint64_t rows) const {
    return row + r >= layout.rows ? 0 : std::min<uint64_t>(rows, layout.rows - row - r);
  }
  uint64_t ColsInside(uint64_t c, uint64_t cols) const {
    return col + c >= layout.cols ? 0 : std::min<uint64_t>(cols, layout.cols - col - c);
  }
};

// The rows of view v in order (its last dimension along a row, the others
// flattened over rows): f(r, element of (r, 0), column stride) for r < rows.
template <typename F>
void ForEachViewRow(const View& v, int64_t rows, F f) {
  int64_t index[kMaxRank] = {};
  for (int64_t r = 0; r < rows; ++r) {
    int64_t element = v.offset;
    for (uint32_t i = 0; i + 1 < v.rank; ++i) element += index[i] * v.strides[i];
    f(r, element, v.strides[v.rank - 1]);
    for (int i = static_cast<int>(v.rank) - 2; i >= 0; --i) {
      if (++index[i] < v.shape[i]) break;
      index[i] = 0;
    }
  }
}

// ForEachViewRow's rows in groups along the view's second-to-last
// dimension, whose rows lie one stride apart: f(r, element of (r, 0),
// count, row stride) for rows r .. r + count - 1, count >= 1.
template <typename F>
void ForEachViewRowGroup(const View& v, int64_t rows, F f) {
  int64_t index[kMaxRank] = {};
  const int inner = static_cast<int>(v.rank) - 2;
  for (int64_t r = 0; r < rows;) {
    int64_t element = v.offset;
    for (uint32_t i = 0; i + 1 < v.rank; ++i) element += index[i] * v.strides[i];
    const int64_t count =
        inner < 0 ? 1 : std::max<int64_t>(1, std::min(v.shape[inner] - index[inner], rows - r));
    f(r, element, count, inner < 0 ? 0 : v.strides[inner]);
    r += count;
    if (inner < 0) continue;
    index[inner] += count;
    for (int i = inner; i >= 0 && index[i] >= v.shape[i]; --i) {
      index[i] = 0;
      if (i > 0) ++index[i - 1];
    }
  }
}

// v as a signed integer of `bits` bits (two's complement wrap).
// PTO_TRACE (pto-run --trace[=BLOCK]): `all` traces every block, a number
// that block; unset, empty or anything else traces none.
constexpr int64_t kTraceNone = -2, kTraceAll = -1;
int64_t TraceSetting();

inline int64_t Wrap(uint64_t v, unsigned bits) {
  if (bits >= 64) return static_cast<int64_t>(v);
  const uint64_t mask = (uint64_t{1} << bits) - 1;
  v &= mask;
  if (bits > 1 && (v >> (bits - 1)) != 0) v |= ~mask;
  return static_cast<int64_t>(v);
}
// v's low `bits` bits as an unsigned value.
inline uint64_t Unsigned(int64_t v, unsigned bits) {
  return bits >= 64 ? static_cast<uint64_t>(v)
                    : static_cast<uint64_t>(v) & ((uint64_t{1} << bits) - 1);
}

// A unified buffer kept between launches (unified_buffers.cc), taken by one
// thread for its blocks of a launch: *data at least `bytes` (> 0) long,
// *zeroed if all zero (newly allocated), else as its last block left it.
// NULL for no memory. GiveBackUnifiedBuffer frees the memory if it is larger
// than a device's; NULL is a no-op.
struct UnifiedBuffer;
class Pipes;  // execute_pipes.cc
UnifiedBuffer* TakeUnifiedBuffer(uint64_t bytes, char** data, bool* zeroed);
void GiveBackUnifiedBuffer(UnifiedBuffer* buffer);

// The name of pointer register `pointer` in a message: its parameter's, or
// "a pointer".
inline std::string PointerName(const Program& p, uint32_t pointer) {
  const uint32_t root = p.pointer_root[pointer];
  for (const Param& q : p.params)
    if (q.kind == PTO_PARAM_POINTER && q.reg == root)
      return "%" + q.name + (root == pointer ? "" : " (moved by pto.addptr)");
  return "a pointer";
}

class Block;

// What an executor of a dialect's instructions reads of its block: the
// program, the registers, views, tiles and bound pointers (the block owns
// them), the block being run and its launch's stop flag. An executor owns
// its dialect's own state.
class Executor {
 protected:
  explicit Executor(Block& b);
  pto_status Error(const Instr& in, pto_status status, const std::string& message) const {
    return Diagnose(p_, in.loc, status, message);
  }
  std::string PointerName(uint32_t pointer) const { return program::PointerName(p_, pointer); }

  const Program& p_;
  std::vector<int64_t>& ints_;
  std::vector<double>& floats_;
  std::vector<View>& views_;
  std::vector<pto_tile>& tiles_;
  std::vector<Binding>& pointers_;
  const uint32_t& block_;
  const std::atomic<bool>* const& stop_;
};

// The cube's instructions (execute_cube.cc): its transfers, moves, inserts
// and multiplies; and its fixpipe's (execute_fixpipe.cc), with the
// quantisation state pto.set_quant_* leaves.
class CubeExec : public Executor {
 public:
  explicit CubeExec(Block& b) : Executor(b), block_state_(b) {}

  pto_status CubeTransfer(const Instr& in, bool load);
  pto_status CubeMove(const Instr& in);
  pto_status Matmul(const Instr& in);
  // The image of tile slot `slot`.
  TileImage Image(uint32_t slot) const;
  // execute_fixpipe.cc: pto.set_quant_*, and a push through a pipe's
  // acc_push_epilogue: the acc tile converted into the slot at `at`.
  pto_status PipeSetQuant(const Instr& in);
  pto_status FixpipePush(const Instr& in, const PipeDecl& d, char* at, uint32_t rows, uint32_t cols,
                         pto_dtype* slot_dtype);

 private:
  pto_status CubeInsert(const Instr& in);  // tinsert of an acc tile into a mat tile
  pto_status FixpipeStore(const Instr& in);  // tstore with fp (TSTORE_FP)
  pto_status FixpipeMove(const Instr& in);   // tmov_fp, textract_fp, tinsert_fp

  Block& block_state_;  // its window checks and the turn of ordered adds
  // The cube's quantisation state by pipe id (pto.set_quant_*): a scale,
  // and a scaling tile whose row 0 a push reads.
  struct QuantState {
    int64_t id = 0;
    bool scalar_set = false, vector_set = false;
    float scale = 0;
    uint32_t slot = 0;
  };
  std::vector<QuantState> quant_;
};

// pto.comm.* (execute_comm.cc), and another rank's memory reached through
// the transport.
class CommExec : public Executor {
 public:
  explicit CommExec(Block& b) : Executor(b) {}

  pto_status Comm(const Instr& in);
  // The refusal of a plain access to another rank's memory through pointer
  // (a cube tile's transfer).
  pto_status PeerAccessError(const Instr& in, uint32_t pointer, const char* what);
  // bytes at global, another rank's memory, read into (load) or written
  // from local through the transport, complete at the target on return.
  pto_status PeerAccess(const Instr& in, char* global, char* local, size_t bytes, bool load);

 private:
  pto_status CommCopy(const Instr& in);
  pto_status CommSignal(const Instr& in);
  pto_status CommCollective(const Instr& in);
  pto_status CommReduce(const Instr& in);
  pto_status GroupShapes(const Instr& in, int64_t rows, int64_t cols, const char* like);
};

// A block run as one of its cores (execute_pipes.cc): which core it is,
// and the pipe operations (kPipe) on its block's pipes, with whether the
// core waits on one.
class PipeExec : public Executor {
 public:
  PipeExec(Block& b, CubeExec& cube) : Executor(b), block_state_(b), cube_(cube) {}

  void SetCore(uint8_t core, uint32_t subblock, uint32_t subblocks, Pipes* pipes) {
    core_ = core;
    subblock_ = subblock;
    subblocks_ = subblocks;
    pipes_ = pipes;
  }
  uint8_t core() const { return core_; }
  uint32_t subblock() const { return subblock_; }
  uint32_t subblocks() const { return subblocks_; }
  bool waiting() const { return waiting_; }
  uint64_t steps() const { return pipe_steps_; }
  void StopWaiting() { waiting_ = false; }
  // A kPipe: done, or waiting_ set (a push to a full pipe, a pop from an
  // empty one), to be tried again when the core resumes.
  pto_status PipeStep(const Instr& in);

 private:
  pto_status PipePush(const Instr& in);
  pto_status PipePop(const Instr& in);
  pto_status PipeFree(const Instr& in);
  uint32_t PipeCore() const;
  pto_status PipeInit(const Instr& in);
  pto_status PipeAlloc(const Instr& in);
  // views_[in.d] <- the part of slot `slot` this core reads or writes in
  // global memory.
  pto_status SlotView(const Instr& in, uint64_t slot, bool split_here);

  Block& block_state_;  // board mode's warnings
  CubeExec& cube_;      // the fixpipe's quantisation and pushes
  bool waiting_ = false;      // the instruction at pc_ waits on a pipe
  uint64_t pipe_steps_ = 0;   // pipe operations done (progress, for the deadlock check)
  uint8_t core_ = 0;          // 0: every section (no pipes), else a CoreKind
  uint32_t subblock_ = 0, subblocks_ = 1;
  Pipes* pipes_ = nullptr;
};

// The state of one block.
class Block {
 public:
  // loop_limit: the most loop turns a block may take (PTO_LOOP_LIMIT), 0 for none.
  // turn: the launch's count of blocks whose adds to global memory are done
  // (the lowest block not finished), for a program with ordered_adds.
  Block(const Program& p, const std::vector<Binding>& bindings, uint64_t loop_limit,
        std::atomic<uint32_t>* turn)
      : p_(p), bindings_(bindings), ints_(p.int_regs), floats_(p.float_regs), views_(p.view_regs),
        tiles_(p.tiles.size()), pointers_(p.pointer_count),
        loop_limit_(loop_limit), turn_(turn), trace_block_(TraceSetting()) {}

  ~Block() { GiveBackUnifiedBuffer(ub_entry_); }
  // Its executors hold references to its state.
  Block(const Block&) = delete;
  Block& operator=(const Block&) = delete;

  // Takes a unified buffer for this thread's blocks; false for no memory.
  bool Allocate() {
    ub_entry_ = TakeUnifiedBuffer(p_.ub_size, &ub_, &ub_zeroed_);
    return ub_entry_ != nullptr;
  }

  pto_status Run(uint32_t block, uint32_t blocks, const std::atomic<bool>& stop);

  // A program with pipes (execute_pipes.cc): this state is core `core` (a
  // CoreKind) of its block, vector core `subblock` of `subblocks`, and
  // runs that core's sections only, its pipe operations on `pipes`.
  void SetCore(uint8_t core, uint32_t subblock, uint32_t subblocks, Pipes* pipes) {
    pipe_.SetCore(core, subblock, subblocks, pipes);
  }

 private:
  friend class BlockCores;
  friend class Executor;
  friend class CubeExec;  // a cube transfer's window and ordered adds
  friend class PipeExec;  // board mode's warnings
  pto_status Error(const Instr& in, pto_status status, const std::string& message) {
    return Diagnose(p_, in.loc, status, message);
  }
  // Whether board mode relaxes a run-time rule under the program's profile
  // (BoardRelaxes): then its warning, "FILE:LINE:COL: warning: board mode:
  // message", is reported.
  bool BoardWarns(const Instr& in, const std::string& message);
  void Setup();
  void CopyResultsOut();
  pto_status Execute(uint32_t block, uint32_t blocks, const std::atomic<bool>& stop);
  pto_status ExecuteOther(const Instr& in, uint32_t block, uint32_t blocks);
  pto_status IntBinary(const Instr& in);
  pto_status MakeView(const Instr& in);
  pto_status PartitionView(const Instr& in);
  bool WindowInMemory(const Instr& in, const View& src) const;
  pto_status Transfer(const Instr& in, bool load);
  // A Table or TableDst operand: the elements of views[in.b], of dtype
  // in.d, as a table (refused unless packed row-major, or in a peer's
  // memory; execute_gather.cc).
  pto_status TableOfView(const Instr& in, ops::GlobalTable* table);
  // The common cases of PartitionView and Transfer, inlined into the
  // dispatch loop (below); false where the general function must run.
  bool PartitionWindow(const Instr& in);
  bool CopyWindow(const Instr& in, bool load);
  pto_status TransferFits(const Instr& in, bool load);
  // Waits until every block before this one has finished (its adds to
  // global memory applied); false if the launch stopped meanwhile.
  bool WaitForTurn(const std::atomic<bool>& stop) const;
  pto_status Subview(const Instr& in);
  void Print(const Instr& in, uint32_t block) const;
  void PrintView(const Instr& in, uint32_t block) const;
  // The tile slot instruction `in` wrote (or stored), and the instruction's
  // name; kNoSlot for an instruction that writes none.
  uint32_t WrittenTile(const Instr& in, const char** name) const;
  // pto-run --trace (PTO_TRACE): `in`'s location, name and the first
  // elements of the tile it wrote, after it ran.
  void Trace(const Instr& in, uint32_t block) const;
  // PrintTile's text: "FILE:LINE:COL: <what>, block B: RxC valid of RxC T"
  // then at most max_rows x max_cols of the valid region.
  void PrintTile(uint32_t slot, SourceLoc loc, const std::string& what, uint32_t block,
                 uint32_t max_rows, uint32_t max_cols, int format) const;
  void PlainTileOp(const Instr& in);
  bool FastStep(const Instr& in);
  uint32_t FastRun(const Instr* code, uint32_t n, uint32_t pc);
  pto_status TileOp(const Instr& in);
  pto_status MxZzMove(const Instr& in);
  pto_status LoopLimitError(const Instr& in);
  pto_status SyncAllError(const Instr& in);
  pto_status SetValid(const Instr& in);
  pto_status FloatInstr(const Instr& in);
  pto_status ScalarAccess(const Instr& in, bool load);
  pto_status AddPtr(const Instr& in);
  bool WindowMove(const Instr& in, pto_status* status);
  pto_status ScalarValue(const Instr& in, bool load, pto_dtype d, char* at);
  pto_status ArrayAccess(const Instr& in, bool get);
  std::string PointerName(uint32_t pointer) const { return program::PointerName(p_, pointer); }

  const Program& p_;
  const std::vector<Binding>& bindings_;
  std::vector<int64_t> ints_;
  std::vector<double> floats_;
  std::vector<View> views_;
  std::vector<pto_tile> tiles_;
  std::vector<Binding> pointers_;
  UnifiedBuffer* ub_entry_ = nullptr;
  char* ub_ = nullptr;      // ub_entry_'s memory
  bool ub_zeroed_ = false;  // still as allocated: the first block needs no memset
  uint64_t loop_limit_;
  std::atomic<uint32_t>* turn_;
  // PTO_TRACE: the block whose instructions are traced (kTraceAll: every
  // one; kTraceNone: none), read when the state is made (at each launch).
  int64_t trace_block_;
  bool tracing_ = false;  // this block is traced now (Execute)
  uint32_t block_ = 0;                       // the block being run
  const std::atomic<bool>* stop_ = nullptr;  // its launch's stop flag
  // Where Execute starts (0, or where the core waited on a pipe) and the
  // loop turns taken so far, kept while the core waits.
  uint32_t pc_ = 0;
  uint64_t turns_ = 0;
  // The executors of the cube's, the comm dialect's and the pipes'
  // instructions, over this state (declared last: they are made from it).
  CubeExec cube_{*this};
  CommExec comm_{*this};
  PipeExec pipe_{*this, cube_};
};

inline Executor::Executor(Block& b)
    : p_(b.p_), ints_(b.ints_), floats_(b.floats_), views_(b.views_), tiles_(b.tiles_),
      pointers_(b.pointers_), block_(b.block_), stop_(b.stop_) {}

// A rank-2 partition into another register (a kernel's tile of rows) inside
// its view: PartitionView's fields without its loops over the rank. One
// outside the view takes PartitionView, which words the error.
inline bool Block::PartitionWindow(const Instr& in) {
  const View& src = views_[in.b];
  View& v = views_[in.a];
  if (in.rank != 2 || in.sub != 0 || &v == &src) return false;
  const uint32_t* regs = &p_.lists[in.extra];
  const int64_t row = ints_[regs[0]], col = ints_[regs[1]];
  const int64_t rows = ints_[regs[2]], cols = ints_[regs[3]];
  if ((row | col | rows | cols) < 0 || row > src.shape[0] - rows || col > src.shape[1] - cols)
    return false;
  v.pointer = src.pointer;
  v.rank = 2;
  v.offset = src.offset + row * src.strides[0] + col * src.strides[1];
  v.shape[0] = rows;
  v.shape[1] = cols;
  v.strides[0] = src.strides[0];
  v.strides[1] = src.strides[1];
  return true;
}

// Transfer of a vector tile without a pad value (Instr::plain, set by the
// verifier; imm its element's bytes) through a rank-2 view whose rows are
// contiguous and hold the tile's valid region: the region's rows copied as
// they are. Anything else (a window that does not fit: for the sentence)
// takes Transfer.
inline bool Block::CopyWindow(const Instr& in, bool load) {
  const View& v = views_[in.b];
  const pto_tile& t = tiles_[in.a];
  if (!in.plain || v.rank != 2 || v.strides[1] != 1 || v.shape[0] < t.valid_rows ||
      v.shape[1] < t.valid_cols || pointers_[v.pointer].peer)
    return false;
  const size_t size = static_cast<size_t>(in.imm);
  const size_t bytes = t.valid_cols * size;
  const size_t tile_pitch = t.cols * size;
  const size_t view_pitch = static_cast<size_t>(v.strides[0]) * size;
  char* local = static_cast<char*>(t.data);
  char* global = pointers_[v.pointer].data + static_cast<size_t>(v.offset) * size;
  for (uint32_t r = 0; r < t.valid_rows; ++r, local += tile_pitch, global += view_pitch) {
    if (load) memcpy(local, global, bytes);
    else memcpy(global, local, bytes);
  }
  return true;
}

}  // namespace program
}  // namespace pto

#endif  // PTO_PROGRAM_RUN_BLOCK_H_
