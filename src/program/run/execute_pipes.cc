// The pipes between a block's cube and vector cores (pipes.h), as pto-isa's
// TPUSH, TPOP and TFREE pages describe them: a push waits for a free slot,
// writes the producer's tile into it and marks it ready; a pop waits for a
// ready slot and copies it into the consumer's tile (in the consumer's
// memory and layout); a free gives the popped slot back. Between the cube
// and a block's two vector cores a slot holds the whole tile: with split =
// 0 each vector core pops all of it (and both free it), with 1 or 2 its
// half of the rows or columns; a vector-to-cube slot is ready once every
// vector core has pushed its part.
#include "program/run/pipes.h"

#include <string.h>

#include <string>

#include "dtype_rules.h"
#include "error.h"
#include "program/ir/cube.h"
#include "program/ir/types.h"
#include "tile.h"

namespace pto {
namespace program {
namespace {

const char* PipeOpName(const Instr& in, bool c2v) {
  switch (static_cast<PipeOp>(in.sub)) {
    case PipeOp::kAlloc: return c2v ? "pto.talloc_to_aiv" : "pto.talloc_to_aic";
    case PipeOp::kInit: return "pto.initialize_pipe";
    case PipeOp::kSetQuant: return "pto.set_quant";
    case PipeOp::kPush: return c2v ? "pto.tpush_to_aiv" : "pto.tpush_to_aic";
    case PipeOp::kPop: return c2v ? "pto.tpop_from_aic" : "pto.tpop_from_aiv";
    default: return c2v ? "pto.tfree_from_aic" : "pto.tfree_from_aiv";
  }
}

std::string PipeName(const PipeDecl& d) {
  return "pipe " + std::to_string(d.id) + (d.c2v ? " (cube to vector)" : " (vector to cube)");
}

std::string CoreName(uint8_t core, uint32_t subblock) {
  return core == static_cast<uint8_t>(CoreKind::kCube) ? "the cube"
                                                       : "vector core " + std::to_string(subblock);
}

std::string Shape(uint32_t rows, uint32_t cols) {
  return std::to_string(rows) + "x" + std::to_string(cols);
}

}  // namespace

Pipes::Pipes(const Program& p, uint32_t cores) : fifos_(p.pipes.size()) {
  for (size_t i = 0; i < fifos_.size(); ++i) {
    Fifo& f = fifos_[i];
    f.slots.resize(p.pipes[i].depth);  // their bytes as pushes need them (PipePush)
    f.pushed.resize(cores);
    f.popped.resize(cores);
    f.freed.resize(cores);
  }
}

void Pipes::Reset() {
  for (Fifo& f : fifos_) {
    for (size_t i = 0; i < f.slots.size(); ++i) {
      f.slots[i].message = i;
      f.slots[i].state = SlotState::kFree;
    }
    for (auto* counts : {&f.pushed, &f.popped, &f.freed})
      for (uint64_t& c : *counts) c = 0;
    f.gm[0].set = f.gm[1].set = false;
  }
}

pto_status PipeExec::PipeStep(const Instr& in) {
  waiting_ = false;
  pto_status status = PTO_OK;
  switch (static_cast<PipeOp>(in.sub)) {
    case PipeOp::kPush: status = PipePush(in); break;
    case PipeOp::kPop: status = PipePop(in); break;
    case PipeOp::kFree: status = PipeFree(in); break;
    case PipeOp::kAlloc: status = PipeAlloc(in); break;
    case PipeOp::kInit: status = PipeInit(in); break;
    case PipeOp::kSetQuant: status = cube_.PipeSetQuant(in); break;
  }
  if (status == PTO_OK && !waiting_) ++pipe_steps_;
  return status;
}

// The part of a whole rows x cols tile vector core `subblock` has under
// `split`: its first row and column and its shape.
struct Part {
  uint32_t row = 0, col = 0, rows = 0, cols = 0;
};

static Part PartOf(Split split, uint32_t subblock, uint32_t rows, uint32_t cols) {
  Part p{0, 0, rows, cols};
  if (split == Split::kUpDown) {
    p.rows = rows / 2;
    p.row = subblock * p.rows;
  } else if (split == Split::kLeftRight) {
    p.cols = cols / 2;
    p.col = subblock * p.cols;
  }
  return p;
}

// This core's index in a pipe's counts: 0 the cube, 1 + i vector core i.
uint32_t PipeExec::PipeCore() const {
  return core_ == static_cast<uint8_t>(CoreKind::kCube) ? 0 : 1 + subblock_;
}

// A producer's part of slot s (message `message`) is written: once every
// producer's is, the consumers may pop it.
static void Written(const PipeDecl& d, Pipes::Fifo& f, Pipes::Slot& s, uint32_t core,
                    uint64_t message, uint32_t subblocks) {
  f.pushed[core] = message + 1;
  if (--s.writers_left == 0) {
    s.state = Pipes::SlotState::kReady;
    s.readers_left = d.c2v ? subblocks : 1;
  }
}

pto_status PipeExec::SlotView(const Instr& in, uint64_t slot, bool split_here) {
  const PipeDecl& d = p_.pipes[in.b];
  const uint32_t core = PipeCore();
  const Pipes::Fifo::Gm& g = pipes_->fifo(in.b).gm[core == 0 ? 0 : 1];
  const std::string what = PipeOpName(in, d.c2v);
  if (!g.set)
    return Error(in, PTO_ERR_INVALID_ARGUMENT,
                 what + ": " + CoreName(core_, subblock_) + " has not initialised " + PipeName(d) +
                     " with global memory for its slots");
  const pto_dtype dtype = static_cast<pto_dtype>(in.attr);
  const uint64_t size = pto_dtype_size(dtype), rows = in.index_regs[0], cols = in.index_regs[1];
  const Split split = split_here && core != 0 ? static_cast<Split>(in.c) : Split::kNone;
  // The vector core's part: pto-isa's sub-AIV offsets (TPop.hpp).
  const uint64_t part = split == Split::kUpDown     ? subblock_ * rows * cols * size
                        : split == Split::kLeftRight ? subblock_ * cols * size
                                                     : 0;
  const int64_t stride = static_cast<int64_t>(cols * (split == Split::kLeftRight ? 2 : 1));
  View& v = views_[in.d];
  v.pointer = g.pointer;
  v.rank = 2;
  v.offset = g.offset + static_cast<int64_t>((d.gm_region + slot * d.slot_size + part) / size);
  v.shape[0] = static_cast<int64_t>(rows);
  v.shape[1] = static_cast<int64_t>(cols);
  v.strides[0] = stride;
  v.strides[1] = 1;
  const int64_t last = v.offset + (v.shape[0] - 1) * stride + v.shape[1] - 1;
  if (rows != 0 && cols != 0 && last >= pointers_[g.pointer].count)
    return Error(in, PTO_ERR_OUT_OF_RANGE,
                 what + ": slot " + std::to_string(slot) + " of " + PipeName(d) +
                     " reaches element " + std::to_string(last) + " of " + PointerName(g.pointer) +
                     ", which holds " + std::to_string(pointers_[g.pointer].count) + " elements");
  return PTO_OK;
}

pto_status PipeExec::PipeInit(const Instr& in) {
  Pipes::Fifo::Gm& g = pipes_->fifo(in.b).gm[PipeCore() == 0 ? 0 : 1];
  g.set = true;
  if (in.c == 1) {
    g.pointer = in.d;
    g.offset = 0;
  } else {
    g.pointer = views_[in.d].pointer;
    g.offset = views_[in.d].offset;
  }
  return PTO_OK;
}

// talloc_to_*: waits for a free slot as a push does, then gives the
// producer its part of the slot in global memory to write (its push
// commits it).
pto_status PipeExec::PipeAlloc(const Instr& in) {
  const PipeDecl& d = p_.pipes[in.b];
  Pipes::Fifo& f = pipes_->fifo(in.b);
  const uint64_t message = f.pushed[PipeCore()];
  Pipes::Slot& s = f.slots[message % f.slots.size()];
  if (s.message != message || s.state == Pipes::SlotState::kReady) {
    waiting_ = true;
    return PTO_OK;
  }
  if (s.state == Pipes::SlotState::kFree) {
    s.state = Pipes::SlotState::kFilling;
    s.writers_left = d.c2v ? 1 : subblocks_;
    s.in_gm = true;
    s.dtype = static_cast<pto_dtype>(in.attr);
    s.pushed_at = in.loc;
  } else if (!s.in_gm) {
    return Error(in, PTO_ERR_INVALID_ARGUMENT,
                 std::string(PipeOpName(in, d.c2v)) + ": another vector core pushed a tile into "
                 "this slot of " + PipeName(d) + " (line " + std::to_string(s.pushed_at.line) +
                 "); its producers write a slot the same way");
  }
  return SlotView(in, message % f.slots.size(), true);
}

// Board mode: vector cores pushing one tile without a split to a vector-to-
// cube pipe, one of them an empty tile. Under A2A3 and A5 each core stores
// its own tile at the slot's start (pto-isa a2a3/TPush.hpp pushVec2GMFiFo:
// TILE_NO_SPLIT, "single writer, no offset"; a5/TPush.hpp the same, or
// pushVec2MatFiFo's TINSERT at (0, 0)), so an empty tile stores nothing and
// the slot holds the other core's tile; the NPU checks nothing. Two non-empty tiles of different shapes stay an error.
// Returns the warning, or "" when the rule does not apply.
static std::string EmptyPartWarning(const Instr& in, const PipeDecl& d, const Pipes::Slot& s,
                                    Split split, uint32_t rows, uint32_t cols, pto_dtype dtype,
                                    const std::string& core) {
  const bool empty = uint64_t{rows} * cols == 0, slot_empty = uint64_t{s.rows} * s.cols == 0;
  if (d.c2v || s.in_gm || split != Split::kNone || empty == slot_empty) return "";
  return std::string(PipeOpName(in, false)) + ": " + core + " pushes a " + Shape(rows, cols) +
         " " + DtypeSpelling(dtype) + " tile without a split to " + PipeName(d) +
         ", where another vector core pushed a " + Shape(s.rows, s.cols) + " " +
         DtypeSpelling(s.dtype) + " one: each core stores its own tile at the slot's start, " +
         "the empty one nothing";
}

pto_status PipeExec::PipePush(const Instr& in) {
  const PipeDecl& d = p_.pipes[in.b];
  Pipes::Fifo& f = pipes_->fifo(in.b);
  const uint32_t core = PipeCore();
  const bool cube = core == 0;
  const uint64_t message = f.pushed[core];
  Pipes::Slot& s = f.slots[message % f.slots.size()];
  if (in.imm == 2) {  // commits the slot talloc gave this core
    if (s.message != message || s.state != Pipes::SlotState::kFilling || !s.in_gm)
      return Error(in, PTO_ERR_INVALID_ARGUMENT,
                   std::string(PipeOpName(in, d.c2v)) + ": " + CoreName(core_, subblock_) +
                       " commits a slot of " + PipeName(d) + " that no " +
                       (d.c2v ? "pto.talloc_to_aiv" : "pto.talloc_to_aic") + " gave it");
    Written(d, f, s, core, message, subblocks_);
    return PTO_OK;
  }
  // Full: the slot still holds an earlier message (or this one, ready).
  if (s.message != message || s.state == Pipes::SlotState::kReady) {
    waiting_ = true;
    return PTO_OK;
  }
  const pto_tile& t = tiles_[in.a];
  const Split split = cube ? Split::kNone : static_cast<Split>(in.c);
  // The whole tile this part belongs to.
  const uint32_t rows = t.valid_rows * (split == Split::kUpDown ? 2 : 1);
  const uint32_t cols = t.valid_cols * (split == Split::kLeftRight ? 2 : 1);
  // Through an acc_push_epilogue the slot holds the converted tile.
  // no_convert with normal_relu keeps the dtype and clamps negatives to 0.
  const bool fixpipe =
      cube && d.c2v && d.epilogue.set && (d.epilogue.src != PTO_INT64 || d.epilogue.relu);
  const pto_dtype slot_dtype = fixpipe && d.epilogue.out != PTO_INT64 ? d.epilogue.out : t.dtype;
  const size_t size = pto_dtype_size(slot_dtype);
  if (uint64_t{rows} * cols * size > d.slot_size)
    return Error(in, PTO_ERR_SHAPE_MISMATCH,
                 std::string(PipeOpName(in, d.c2v)) + ": a " + Shape(rows, cols) + " " +
                     DtypeSpelling(slot_dtype) + " tile does not fit " + PipeName(d) + "'s " +
                     std::to_string(d.slot_size) + "-byte slots");
  if (s.state == Pipes::SlotState::kFree) {
    if (s.data.size() < uint64_t{rows} * cols * size) s.data.resize(uint64_t{rows} * cols * size);
    s.state = Pipes::SlotState::kFilling;
    s.writers_left = d.c2v ? 1 : subblocks_;
    s.rows = rows;
    s.cols = cols;
    s.dtype = t.dtype;
    s.pushed_at = in.loc;
    s.in_gm = false;
  } else if (s.in_gm || s.rows != rows || s.cols != cols || s.dtype != t.dtype) {
    const std::string empty_part =
        EmptyPartWarning(in, d, s, split, rows, cols, t.dtype, CoreName(core_, subblock_));
    if (!empty_part.empty() && block_state_.BoardWarns(in, empty_part)) {
      if (uint64_t{rows} * cols == 0) {  // stores nothing
        Written(d, f, s, core, message, subblocks_);
        return PTO_OK;
      }
      if (s.data.size() < uint64_t{rows} * cols * size) s.data.resize(uint64_t{rows} * cols * size);
      s.rows = rows, s.cols = cols, s.dtype = t.dtype, s.pushed_at = in.loc;
    } else {
      return Error(in, PTO_ERR_SHAPE_MISMATCH,
                   std::string(PipeOpName(in, d.c2v)) + ": " + CoreName(core_, subblock_) +
                       " pushes its part of a " + Shape(rows, cols) + " " +
                       DtypeSpelling(t.dtype) + " tile to " + PipeName(d) +
                       ", where another vector core's push (line " +
                       std::to_string(s.pushed_at.line) + ") began a " + Shape(s.rows, s.cols) +
                       " " + DtypeSpelling(s.dtype) + " one");
    }
  }
  if (fixpipe) {
    pto_dtype out = slot_dtype;
    const pto_status converted = cube_.FixpipePush(in, d, s.data.data(), rows, cols, &out);
    if (converted != PTO_OK) {
      s.state = Pipes::SlotState::kFree;
      return converted;
    }
    s.dtype = out;
    Written(d, f, s, core, message, subblocks_);
    return PTO_OK;
  }
  const Part part = PartOf(split, subblock_, rows, cols);
  // The slot's image: the whole tile row-major; this part from its corner.
  char* at = s.data.data() + (uint64_t{part.row} * cols + part.col) * size;
  const TileImage image = cube_.Image(in.a);
  CopyRegion(RowMajorLayout(part.rows, cols), at, 0, 0, image.layout, image.data, image.row,
             image.col, image.RowsInside(0, part.rows), image.ColsInside(0, part.cols), size);
  Written(d, f, s, core, message, subblocks_);
  return PTO_OK;
}

pto_status PipeExec::PipePop(const Instr& in) {
  const uint32_t core = PipeCore();
  const bool cube = core == 0;
  const PipeDecl& d = p_.pipes[in.b];
  Pipes::Fifo& f = pipes_->fifo(in.b);
  const uint64_t message = f.popped[core];
  const Pipes::Slot& s = f.slots[message % f.slots.size()];
  if (s.message != message || s.state != Pipes::SlotState::kReady) {  // empty
    waiting_ = true;
    return PTO_OK;
  }
  const std::string what = PipeOpName(in, d.c2v);
  // A slot is read the way it was written: in global memory or as a tile.
  if (s.in_gm != (in.imm == 2))
    return Error(in, PTO_ERR_INVALID_ARGUMENT,
                 what + ": the slot of " + PipeName(d) + " was " +
                     (s.in_gm ? "written in global memory (talloc, line "
                              : "pushed as a tile (line ") +
                     std::to_string(s.pushed_at.line) + "); pop it as " +
                     (s.in_gm ? "a !pto.tensor_view" : "a tile"));
  if (in.imm == 2) {
    const pto_status status = SlotView(in, message % f.slots.size(), true);
    if (status == PTO_OK) f.popped[core] = message + 1;
    return status;
  }
  pto_tile& t = tiles_[in.a];
  const Type& type = p_.tiles[in.a].type;
  if (s.dtype != t.dtype)
    return Error(in, PTO_ERR_DTYPE_MISMATCH,
                 what + ": pops a " + DtypeSpelling(t.dtype) + " tile from " + PipeName(d) +
                     ", whose slot holds " + DtypeSpelling(s.dtype) + " (pushed at line " +
                     std::to_string(s.pushed_at.line) + ")");
  const Split split = cube ? Split::kNone : static_cast<Split>(in.c);
  if ((split == Split::kUpDown && s.rows % 2 != 0) || (split == Split::kLeftRight && s.cols % 2 != 0))
    return Error(in, PTO_ERR_SHAPE_MISMATCH,
                 what + ": split = " + std::to_string(in.c) + " halves a " + Shape(s.rows, s.cols) +
                     " tile between two vector cores: its " +
                     (split == Split::kUpDown ? "rows" : "columns") + " must be even");
  const Part part = PartOf(split, subblock_, s.rows, s.cols);
  if (part.rows > t.rows || part.cols > t.cols)
    return Error(in, PTO_ERR_SHAPE_MISMATCH,
                 what + ": " + CoreName(core_, subblock_) + "'s part of the " +
                     Shape(s.rows, s.cols) + " tile pushed at line " +
                     std::to_string(s.pushed_at.line) + " is " + Shape(part.rows, part.cols) +
                     ", larger than the popped " + Shape(t.rows, t.cols) + " tile");
  uint32_t valid_rows = part.rows, valid_cols = part.cols;
  if (in.imm == 1) {
    const int64_t r = ints_[in.d], c = ints_[in.extra];
    if (r < 0 || c < 0 || r > t.rows || c > t.cols)
      return Error(in, PTO_ERR_OUT_OF_RANGE,
                   what + ": valid region " + std::to_string(r) + "x" + std::to_string(c) +
                       " is outside the popped " + Shape(t.rows, t.cols) + " tile");
    valid_rows = static_cast<uint32_t>(r);
    valid_cols = static_cast<uint32_t>(c);
  } else if (!type.HasDynamicValid()) {
    valid_rows = t.valid_rows;
    valid_cols = t.valid_cols;
  }
  // pto-isa's TPOP fills the consumer's valid region (PTOAS sets it from
  // the pop's operands first): at most the part the slot holds.
  const size_t size = pto_dtype_size(t.dtype);
  const char* at = s.data.data() + (uint64_t{part.row} * s.cols + part.col) * size;
  const TileImage image = cube_.Image(in.a);
  CopyRegion(image.layout, image.data, image.row, image.col, RowMajorLayout(part.rows, s.cols), at,
             0, 0, valid_rows < part.rows ? valid_rows : part.rows,
             valid_cols < part.cols ? valid_cols : part.cols, size);
  t.valid_rows = valid_rows;
  t.valid_cols = valid_cols;
  f.popped[core] = message + 1;
  return PTO_OK;
}

pto_status PipeExec::PipeFree(const Instr& in) {
  const PipeDecl& d = p_.pipes[in.b];
  Pipes::Fifo& f = pipes_->fifo(in.b);
  const uint32_t core = PipeCore();
  const uint64_t message = f.freed[core];
  if (message >= f.popped[core])
    return Error(in, PTO_ERR_INVALID_ARGUMENT,
                 std::string(PipeOpName(in, d.c2v)) + ": " + CoreName(core_, subblock_) +
                     " frees a slot of " + PipeName(d) + " it has not popped (" +
                     std::to_string(f.popped[core]) + " popped, all freed)");
  Pipes::Slot& s = f.slots[message % f.slots.size()];
  f.freed[core] = message + 1;
  if (--s.readers_left == 0) {
    s.state = Pipes::SlotState::kFree;
    s.message = message + f.slots.size();
  }
  return PTO_OK;
}

BlockCores::BlockCores(const Program& p, const std::vector<Binding>& bindings,
                       uint64_t loop_limit, std::atomic<uint32_t>* turn)
    : p_(p), pipes_(p, 1 + p.vector_cores) {
  for (uint32_t i = 0; i <= p.vector_cores; ++i) {
    cores_.emplace_back(new Block(p, bindings, loop_limit, turn));
    const CoreKind kind = i == 0 ? CoreKind::kCube : CoreKind::kVector;
    cores_.back()->SetCore(static_cast<uint8_t>(kind), i == 0 ? 0 : i - 1, p.vector_cores,
                           &pipes_);
  }
}

bool BlockCores::Allocate() {
  for (auto& c : cores_)
    if (!c->Allocate()) return false;
  return true;
}

pto_status BlockCores::Run(uint32_t block, uint32_t blocks, const std::atomic<bool>& stop) {
  pipes_.Reset();
  for (auto& c : cores_) {
    c->block_ = block;
    c->stop_ = &stop;
    c->Setup();
  }
  std::vector<bool> done(cores_.size(), false);
  size_t left = cores_.size();
  // Rounds in a fixed order: each unfinished core runs until it ends or
  // waits; a round where none ends and none gets past a pipe is a deadlock.
  while (left > 0) {
    bool moved = false;
    for (size_t i = 0; i < cores_.size(); ++i) {
      if (done[i]) continue;
      Block& c = *cores_[i];
      const bool was_waiting = c.pipe_.waiting();
      const uint32_t pc = c.pc_;
      const uint64_t steps = c.pipe_.steps();
      const pto_status status = c.Execute(block, blocks, stop);
      if (status != PTO_OK) return status;
      if (!c.pipe_.waiting()) {
        done[i] = true;
        --left;
        moved = true;
      } else if (!was_waiting || c.pc_ != pc || c.pipe_.steps() != steps) {
        moved = true;
      }
    }
    if (left > 0 && !moved) return Deadlock(block);
  }
  // A program with pipes has no tile parameters (Verify): its results are
  // in global memory.
  Block& first = *cores_[0];
  if (p_.ordered_adds && first.WaitForTurn(stop)) first.turn_->store(block + 1);
  return PTO_OK;
}

pto_status BlockCores::Deadlock(uint32_t block) const {
  const Block* at = nullptr;
  std::string others;
  for (const auto& c : cores_) {
    const std::string name = CoreName(c->pipe_.core(), c->pipe_.subblock());
    if (!c->pipe_.waiting()) {
      others += "; " + name + " has finished";
      continue;
    }
    const Instr& in = p_.code[c->pc_];
    if (at == nullptr) {
      at = c.get();
      continue;
    }
    others += "; " + name + " waits at line " + std::to_string(in.loc.line) + " (" +
              PipeOpName(in, p_.pipes[in.b].c2v) + ")";
  }
  const Instr& in = p_.code[at->pc_];
  const PipeDecl& d = p_.pipes[in.b];
  const bool push = static_cast<PipeOp>(in.sub) == PipeOp::kPush ||
                    static_cast<PipeOp>(in.sub) == PipeOp::kAlloc;
  return Diagnose(p_, in.loc, PTO_ERR_INVALID_ARGUMENT,
                  std::string(PipeOpName(in, d.c2v)) + ": deadlock in block " +
                      std::to_string(block) + ": " + CoreName(at->pipe_.core(), at->pipe_.subblock()) +
                      " waits to " + (push ? "push to " : "pop from ") + PipeName(d) + ", " +
                      (push ? "whose " + std::to_string(d.depth) + " slots are all taken"
                            : std::string("which is empty")) +
                      ", and no other core can move it on" + others);
}

}  // namespace program
}  // namespace pto
