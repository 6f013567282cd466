// The executor: each block runs the instruction list over its own registers,
// tiles and unified buffer. Operations go straight to their table row's run
// (src/ops: their rules were applied by the verifier); only what the text
// leaves to run time is checked here: loop steps, division by zero, view
// bounds against the bound memory, dynamic valid regions.
#include "program/run/block.h"
#include "program/run/execute.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <atomic>
#include <new>
#include <string>
#include <algorithm>
#include <thread>

#include "alloc.h"
#include "buffer.h"
#include "comm.h"
#include "dtype_rules.h"
#include "error.h"
#include "float_env.h"
#include "ops/ops.h"
#include "program/run/pipes.h"
#include "tile.h"

namespace pto {
namespace program {
namespace {

// Marks the block's tiles as placed (the overlap rules then judge them by
// address, as placed tiles); never dereferenced.
pto_buffer block_buffer_marker;

}  // namespace

// Every block starts on zeros over the bytes its program's tiles occupy
// (ub_size is the end of the last tile): a tile read before it is written
// reads zeros, whichever block ran on the kept buffer before, in this launch
// or an earlier one, of this program or another.
void Block::Setup() {
  pc_ = 0;
  turns_ = 0;
  pipe_.StopWaiting();
  if (!ub_zeroed_) memset(ub_, 0, p_.ub_size);
  ub_zeroed_ = false;
  // A dynamic region starts empty; an implicit tmp is never read or written.
  for (size_t i = 0; i < p_.tiles.size(); ++i)
    tiles_[i] = TileFromSlot(p_.tiles[i], ub_, 0, 0, &block_buffer_marker);
  for (size_t i = 0; i < p_.params.size(); ++i) {
    const Param& q = p_.params[i];
    const Binding& b = bindings_[i];
    if (!b.bound) continue;
    switch (q.kind) {
      case PTO_PARAM_INT: ints_[q.reg] = b.int_value; break;
      case PTO_PARAM_FLOAT: floats_[q.reg] = b.float_value; break;
      case PTO_PARAM_POINTER:
        pointers_[q.reg] = b;
        if (p_.uses_comm)
          pointers_[q.reg].peer =
              comm::IsPeer(b.data, static_cast<size_t>(b.count) * pto_dtype_size(q.type.dtype));
        break;
      case PTO_PARAM_TILE: {
        // The bound tile's valid region (equal to the declared one where
        // that is static); its contents only where the program reads them: a
        // result placed over an input must not overwrite it before the run.
        pto_tile& t = tiles_[q.reg];
        t.valid_rows = b.tile->valid_rows;
        t.valid_cols = b.tile->valid_cols;
        if ((q.access & PTO_PARAM_READ) != 0)
          memcpy(t.data, b.tile->data, ElementCount(&t) * pto_dtype_size(t.dtype));
        break;
      }
    }
  }
}

void Block::CopyResultsOut() {
  for (size_t i = 0; i < p_.params.size(); ++i) {
    const Param& q = p_.params[i];
    const Binding& b = bindings_[i];
    if (!b.bound || q.kind != PTO_PARAM_TILE || (q.access & PTO_PARAM_WRITE) == 0) continue;
    const pto_tile& t = tiles_[q.reg];
    memcpy(b.tile->data, t.data, ElementCount(&t) * pto_dtype_size(t.dtype));
    b.tile->valid_rows = t.valid_rows;
    b.tile->valid_cols = t.valid_cols;
  }
}

pto_status Block::Run(uint32_t block, uint32_t blocks, const std::atomic<bool>& stop) {
  block_ = block;
  stop_ = &stop;
  Setup();
  const pto_status status = Execute(block, blocks, stop);
  if (status == PTO_OK) CopyResultsOut();
  // Blocks finish in order where they add to global memory: the next one's
  // adds wait for this one's.
  if (status == PTO_OK && p_.ordered_adds && WaitForTurn(stop)) turn_->store(block + 1);
  return status;
}

bool Block::WaitForTurn(const std::atomic<bool>& stop) const {
  // Blocks are taken in order, so every earlier one is running or done and
  // none of them waits for a later one.
  while (turn_->load(std::memory_order_acquire) != block_) {
    if (stop.load(std::memory_order_relaxed)) return false;
    std::this_thread::yield();
  }
  return true;
}

// A plain operation (Instr::plain): its operands straight to the row's run.
// Apart from TileOp, and inlined into the dispatch loop, so that the common
// instruction pays no frame for the rest.
inline void Block::PlainTileOp(const Instr& in) {
  pto_tile* tiles = tiles_.data();
  pto_tile* dst = tiles + in.slot[Role::kDst];
  if ((dst->valid_rows == 0 || dst->valid_cols == 0) && !in.run_whole_dst) return;
  if (in.run_contiguous != nullptr) {
    // The row's run would call this kernel for these operands: called here.
    const pto_tile* a = tiles + in.slot[Role::kSrc0];
    const pto_tile* b = in.slot[Role::kSrc1] != kNoSlot ? tiles + in.slot[Role::kSrc1] : a;
    if (ops::Contiguous(dst, a, b)) {
      in.run_contiguous(dst->dtype, size_t{dst->valid_rows} * dst->valid_cols, dst->data, a->data,
                        b->data);
      return;
    }
  }
  ops::OperandsExt ext;
  ops::Operands o = WithTiles(&ext, in, tiles_);
  o.attr = in.run_attr;
  o.scalar = in.run_scalar ? floats_[in.scalar_reg] : 0.0;
  o.sat = in.run_sat;
  in.op->run(o, p_.profile);
}

// One instruction of the short paths that cannot fail (a plain operation, a
// partition inside its view, a tile's rows copied through a window); false,
// having done nothing, for any other.
inline bool Block::FastStep(const Instr& in) {
  switch (in.code) {
    case Code::kTileOp:
      if (!in.plain) return false;
      PlainTileOp(in);
      return true;
    case Code::kPartView: return PartitionWindow(in);
    case Code::kLoad: return CopyWindow(in, true);
    case Code::kStore: return CopyWindow(in, false);
    default: return false;
  }
}

// After a short-path instruction at pc: the short-path instructions that
// follow it (a small-tile kernel's views, transfers and arithmetic run
// straight on), taken by FastStep's few compares instead of a dispatch each;
// returns the pc of the last one taken.
inline uint32_t Block::FastRun(const Instr* code, uint32_t n, uint32_t pc) {
  if (tracing_) return pc;  // each instruction through the loop, to be traced
  while (pc + 1 < n && FastStep(code[pc + 1])) ++pc;
  return pc;
}

pto_status Block::TileOp(const Instr& in) {
  pto_tile* dst = TileAt(tiles_, in.slot[Role::kDst]);  // null for a NoDst row
  pto_tile* tmp = TileAt(tiles_, in.slot[Role::kTmp]);
  const bool takes_scalar = ops::TakesScalarAtRun(*in.op, in.attr);
  double scalar = !takes_scalar          ? 0.0
                  : in.scalar_is_float ? floats_[in.scalar_reg]
                                       : static_cast<double>(ints_[in.scalar_reg]);
  // An integer register reaches the C function as a double: one beyond 2^53
  // that no double holds (a 64-bit element's scalar) is refused, not rounded.
  if (takes_scalar && !in.scalar_is_float) {
    const int64_t value = ints_[in.scalar_reg];
    if (scalar >= 0x1p63 || static_cast<int64_t>(scalar) != value)
      return Error(in, PTO_ERR_INVALID_ARGUMENT,
                   std::string(in.op->c_function) + ": scalar " + std::to_string(value) +
                       " is not exactly a double (scalars pass as doubles: integers up to "
                       "2^53, larger ones only where a double holds them)");
  }
  // tsetval's value is an iN of dst's element width (PTOAS: the element
  // type), signless: a negative one stands for its unsigned twin in an
  // unsigned dtype (what tgetval leaves for an element of 2^(N-1) or more).
  if (in.op->attr == ops::AttrKind::kIndexScalar && !in.scalar_is_float) {
    const pto_dtype dtype = dst->dtype;
    const double span = ldexp(1.0, 8 * static_cast<int>(pto_dtype_size(dtype)));
    const bool is_unsigned = dtype == PTO_UINT8 || dtype == PTO_UINT16 || dtype == PTO_UINT32;
    if (is_unsigned && scalar < 0 && scalar >= -span / 2) scalar += span;
  }
  // The offsets (textract's, tsetval's): a negative one names no element.
  size_t index[2] = {0, 0};
  for (int k = 0; k < ops::IndexCount(in.op->attr); ++k) {
    const int64_t value = ints_[in.index_regs[k]];
    if (value < 0)
      return Error(in, PTO_ERR_OUT_OF_RANGE,
                   std::string(in.op->c_function) + ": offset " + std::to_string(value) +
                       " is negative");
    index[k] = static_cast<size_t>(value);
  }
  pto_tile mask_view;
  ops::OperandsExt ext;
  ops::Operands with_tiles = WithTiles(&ext, in, tiles_);
  with_tiles.attr = ops::AttrOf(*in.op, in.attr);
  with_tiles.scalar = scalar;
  with_tiles.sat = ops::SaturationOf(*in.op, in.attr);
  ext.text_flags = ops::TextFlagsOf(*in.op, in.attr);
  with_tiles.index[0] = index[0];
  with_tiles.index[1] = index[1];
  // A row's words (trandom's key and counter): the registers' low 32 bits
  // (an i32 and a ui32 of the same bits give the same words).
  for (int k = 0; k < ops::WordCount(*in.op); ++k)
    ext.words[k] = static_cast<uint32_t>(ints_[p_.lists[in.extra + k]]);
  // A table in memory: its view's elements (in.b, of dtype in.d).
  if (ops::HasTrait(*in.op, PTO_TRAIT_Table)) {
    const pto_status status = TableOfView(in, &ext.table);
    if (status != PTO_OK) return status;
  }
  // A scalar result: into its register (a) once the row has run.
  double value = 0;
  if (ops::RoleCount(in.op->attr, ops::ArgRole::kOut) != 0)
    ext.out = &value;
  const ops::Operands o = WithMaskView(*in.op, with_tiles, &mask_view);
  if (in.check_at_run) {
    if (tmp != nullptr && dst != nullptr && !p_.tiles[in.slot[Role::kTmp]].in_ub &&
        !ops::HasTrait(*in.op, PTO_TRAIT_OwnScratch | PTO_TRAIT_ListScratch)) {
      tmp->valid_rows = dst->valid_rows;
      tmp->valid_cols = dst->valid_cols;
    }
    WithDeclaredCols(p_, in, &ext);  // the checks' alone (a subview's window)
    const pto_status status = in.op->check(o, p_.profile);
    if (status != PTO_OK) return Error(in, status, LastError());
  }
  // (A NoDst row's result is one value, whatever src's region.)
  if (dst == nullptr || (dst->valid_rows != 0 && dst->valid_cols != 0) ||
      ops::WritesWholeDst(*in.op)) {
    in.op->run(o, p_.profile);
    // An integer result wrapped to its register's width (the element's),
    // as pto.load_scalar leaves it.
    if (o.ext->out != nullptr && in.sub != 0)
      floats_[in.a] = value;
    else if (o.ext->out != nullptr)
      ints_[in.a] = Wrap(static_cast<uint64_t>(static_cast<int64_t>(value)), in.bits);
  }
  return PTO_OK;
}

// tmov of MX exponents into ZZ order: zz's bytes from its first.
pto_status Block::MxZzMove(const Instr& in) {
  const pto_tile& exp = tiles_[in.b];
  pto_tile& zz = tiles_[in.a];
  const bool dn = in.sub != 0;
  const uint64_t need = MxZzBytes(exp.valid_rows, exp.valid_cols, dn);
  if (uint64_t{zz.rows} * zz.cols < need)
    return Error(in, PTO_ERR_SHAPE_MISMATCH,
                 "tmov: the ZZ order of the exponents takes " + std::to_string(need) +
                     " bytes, and dst holds " + std::to_string(uint64_t{zz.rows} * zz.cols));
  MxExponentsToZz(static_cast<const uint8_t*>(exp.data), exp.cols, exp.valid_rows,
                  exp.valid_cols, dn, static_cast<uint8_t*>(zz.data));
  return PTO_OK;
}

namespace {

// ints[a] = ints[b] (predicate sub) ints[c], signed or on the low `bits`
// bits unsigned.
inline void CompareInts(const Instr& in, int64_t* ints) {
  const int64_t x = ints[in.b], y = ints[in.c];
  const uint64_t ux = Unsigned(x, in.bits), uy = Unsigned(y, in.bits);
  bool r = false;
  switch (static_cast<Predicate>(in.sub)) {
    case Predicate::kEq: r = x == y; break;
    case Predicate::kNe: r = x != y; break;
    case Predicate::kSlt: r = x < y; break;
    case Predicate::kSle: r = x <= y; break;
    case Predicate::kSgt: r = x > y; break;
    case Predicate::kSge: r = x >= y; break;
    case Predicate::kUlt: r = ux < uy; break;
    case Predicate::kUle: r = ux <= uy; break;
    case Predicate::kUgt: r = ux > uy; break;
    case Predicate::kUge: r = ux >= uy; break;
  }
  ints[in.a] = r;
}

// ints[a] = ints[b] (zero-extended from sub bits where sub is not 0)
// wrapped to `bits`.
inline void CastInt(const Instr& in, int64_t* ints) {
  const int64_t x = in.sub != 0 ? static_cast<int64_t>(Unsigned(ints[in.b], in.sub)) : ints[in.b];
  ints[in.a] = Wrap(static_cast<uint64_t>(x), in.bits);
}

// kForStep: ints[a] += ints[b], wrapped to `bits`; returns the pc the
// dispatch loop goes on after. The loop's check (at target) when it lets the
// next turn run is taken here, straight on to the body, without a dispatch
// of its own; an exit, a bad step or a stop is the check's to run.
inline uint32_t StepFor(const Instr& in, const Instr* code, int64_t* ints,
                        const std::atomic<bool>& stop) {
  ints[in.a] = Wrap(static_cast<uint64_t>(ints[in.a]) + static_cast<uint64_t>(ints[in.b]), in.bits);
  const Instr& check = code[in.target];
  if (check.code == Code::kForCheck && ints[check.c] > 0 && ints[check.a] < ints[check.b] &&
      !stop.load(std::memory_order_relaxed))
    return in.target;
  return in.target - 1;
}

// A whole tile's bytes and valid region into another's (scf's yield of a
// tile carried into the next turn).
inline void CopyTile(const Instr& in, pto_tile* tiles) {
  pto_tile& to = tiles[in.a];
  const pto_tile& from = tiles[in.b];
  memmove(to.data, from.data, ElementCount(&from) * pto_dtype_size(from.dtype));
  to.valid_rows = from.valid_rows;
  to.valid_cols = from.valid_cols;
}

}  // namespace

pto_status Block::LoopLimitError(const Instr& in) {
  return Error(in, PTO_ERR_OUT_OF_RANGE,
               "the block's loops turned more than " + std::to_string(loop_limit_) +
                   " times, the limit PTO_LOOP_LIMIT sets");
}

// pto.syncall (a kNop of sub 1) on more than one block: a barrier of every
// block, and blocks run independently here (not all at once), so none can
// wait for another.
pto_status Block::SyncAllError(const Instr& in) {
  return Error(in, PTO_ERR_INVALID_ARGUMENT,
               "pto.syncall waits for every block, and blocks run independently here: run this "
               "kernel on 1 block");
}

// tile a's valid region = ints[b] x ints[c], inside its rows x cols.
pto_status Block::SetValid(const Instr& in) {
  pto_tile& t = tiles_[in.a];
  const int64_t r = ints_[in.b], c = ints_[in.c];
  if (r < 0 || c < 0 || r > t.rows || c > t.cols)
    return Error(in, PTO_ERR_OUT_OF_RANGE,
                 "valid region " + std::to_string(r) + "x" + std::to_string(c) + " of %" +
                     p_.tiles[in.a].name + " is outside its " + std::to_string(t.rows) + "x" +
                     std::to_string(t.cols));
  t.valid_rows = static_cast<uint32_t>(r);
  t.valid_cols = static_cast<uint32_t>(c);
  return PTO_OK;
}

// The instructions of Execute's switch that neither jump nor wait: the
// views and scalars of memory, the special forms, the cube's and comm's,
// apart from the loop's common cases.
pto_status Block::ExecuteOther(const Instr& in, uint32_t block, uint32_t blocks) {
  pto_status status = PTO_OK;
  switch (in.code) {
    case Code::kMakeView: status = MakeView(in); break;
    case Code::kSetValid: status = SetValid(in); break;
    case Code::kMxZzMove: status = MxZzMove(in); break;
    case Code::kTileCopy: CopyTile(in, tiles_.data()); break;
    case Code::kNop:
      if (in.sub == 1 && blocks > 1) status = SyncAllError(in);
      break;
    case Code::kLoadScalar: status = ScalarAccess(in, true); break;
    case Code::kAddPtr: status = AddPtr(in); break;
    case Code::kArrayClear:
      if (in.sub != 0) std::fill_n(floats_.begin() + in.a, in.imm, 0.0);
      else std::fill_n(ints_.begin() + in.a, in.imm, int64_t{0});
      break;
    case Code::kArrayGet: status = ArrayAccess(in, true); break;
    case Code::kArraySet: status = ArrayAccess(in, false); break;
    case Code::kStoreScalar: status = ScalarAccess(in, false); break;
    case Code::kSubview: status = Subview(in); break;
    case Code::kPrint: Print(in, block); break;
    case Code::kCubeMove: status = cube_.CubeMove(in); break;
    case Code::kMatmul: status = cube_.Matmul(in); break;
    case Code::kComm: status = comm_.Comm(in); break;
    default: break;  // Execute's own
  }
  return status;
}

pto_status Block::Execute(uint32_t block, uint32_t blocks, const std::atomic<bool>& stop) {
  const Instr* code = p_.code.data();
  const uint32_t n = static_cast<uint32_t>(p_.code.size());
  int64_t* ints = ints_.data();
  pto_status status = PTO_OK;
  uint64_t turns = turns_;  // loop turns taken, against loop_limit_
  tracing_ = trace_block_ == kTraceAll || trace_block_ == static_cast<int64_t>(block);
  for (uint32_t pc = pc_; pc < n; ++pc) {
    const Instr& in = code[pc];
    switch (in.code) {
      case Code::kConstInt: ints[in.a] = in.imm; break;
      case Code::kConstFloat: floats_[in.a] = in.fimm; break;
      case Code::kIntBinary: status = IntBinary(in); break;
      case Code::kIntCompare: CompareInts(in, ints); break;
      case Code::kIntCast: CastInt(in, ints); break;
      case Code::kBlockIdx: ints[in.a] = block; break;
      case Code::kBlockNum: ints[in.a] = blocks; break;
      case Code::kJump:
        // A jump back is a turn of an scf.while.
        if (in.target <= pc && loop_limit_ != 0 && ++turns > loop_limit_) {
          status = LoopLimitError(in);
          break;
        }
        pc = in.target - 1;
        break;
      case Code::kJumpIfZero:
        if (ints[in.a] == 0) pc = in.target - 1;
        break;
      case Code::kForCheck:
        if (ints[in.c] <= 0) {
          status = Error(in, PTO_ERR_INVALID_ARGUMENT,
                         "scf.for: step " + std::to_string(ints[in.c]) + " is not positive");
        } else if (ints[in.a] >= ints[in.b]) {
          pc = in.target - 1;
        } else if (stop.load(std::memory_order_relaxed)) {
          return PTO_OK;  // another block failed: stop at this loop's next turn
        }
        break;
      case Code::kForStep:
        if (loop_limit_ != 0 && ++turns > loop_limit_) status = LoopLimitError(in);
        else pc = StepFor(in, code, ints, stop);
        break;
      case Code::kPartView:
        if (PartitionWindow(in)) pc = FastRun(code, n, pc);
        else status = PartitionView(in);
        break;
      case Code::kLoad:
        if (CopyWindow(in, true)) pc = FastRun(code, n, pc);
        else status = Transfer(in, true);
        break;
      case Code::kStore:
        if (CopyWindow(in, false)) pc = FastRun(code, n, pc);
        else status = Transfer(in, false);
        break;
      case Code::kTileOp:
        if (in.plain) {
          PlainTileOp(in);
          pc = FastRun(code, n, pc);
        } else {
          status = TileOp(in);
        }
        break;
      case Code::kFloatBinary:
      case Code::kFloatCast:
      case Code::kFloatNeg:
      case Code::kFloatCompare:
      case Code::kIntToFloat:
      case Code::kFloatToInt: status = FloatInstr(in); break;
      case Code::kSelect:
        if (in.sub != 0) floats_[in.a] = ints[in.b] != 0 ? floats_[in.c] : floats_[in.d];
        else ints[in.a] = ints[in.b] != 0 ? ints[in.c] : ints[in.d];
        break;
      case Code::kSection:
        if (pipe_.core() != 0 && in.sub != pipe_.core()) pc = in.target - 1;  // another core's code
        break;
      case Code::kPipe:
        status = pipe_.PipeStep(in);
        if (pipe_.waiting()) {  // resumed here once another core moved the pipe on
          pc_ = pc;
          turns_ = turns;
          return status;
        }
        break;
      case Code::kSubblock: ints[in.a] = in.sub != 0 ? pipe_.subblocks() : pipe_.subblock(); break;
      default: status = ExecuteOther(in, block, blocks); break;
    }
    if (status != PTO_OK) return status;
    if (tracing_) Trace(in, block);
  }
  return PTO_OK;
}

}  // namespace program
}  // namespace pto
