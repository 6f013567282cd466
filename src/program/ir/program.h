// A verified program: the instructions of one PTO assembly text resolved to
// registers, tile slots and kernel entries, ready to run any number of times.
// Data only, read by every stage: parse/ builds it (parse/parse.h), verify.cc
// places its tiles in the unified buffer and applies every operation's rules
// once (verify.h), build.cc runs the two over a module (build.h), run/ runs
// it on blocks.
#ifndef PTO_PROGRAM_IR_PROGRAM_H_
#define PTO_PROGRAM_IR_PROGRAM_H_

#include <stddef.h>
#include <stdint.h>

#include <string>
#include <utility>
#include <vector>

#include "ops/ops.h"
#include "program/ir/types.h"
#include "pto_c.h"
#include "tile.h"

namespace pto {
namespace program {

// One entry parameter, or one tile of a snippet.
struct Param {
  std::string name;
  pto_param_kind kind;
  Type type;
  unsigned access = 0;  // PTO_PARAM_READ | PTO_PARAM_WRITE
  uint32_t reg = 0;     // int/float register, pointer index, or tile slot
};

// A tile of the program: its type and where it lives in a block's memories
// (the unified buffer, or one of the cube's).
struct TileSlot {
  Type type;
  uint64_t addr = 0;      // in its memory (type.space), as the text's addresses count
  uint64_t base = 0;      // where that memory starts in a block's allocation (verify.cc)
  bool has_addr = false;  // placed by addr = / pto.tassign (else placed by the verifier)
  bool manual = false;    // placed by the text
  bool used = false;      // some instruction uses it (it can no longer move)
  bool in_ub = true;      // false: an implicit tmp, never read or written
  int32_t param = -1;     // the parameter it is, if any
  uint32_t def_pc = 0;    // the instruction count where it was declared
  uint32_t first = 0, last = 0;  // live instructions (verify.cc), when placed by liveness
  SourceLoc loc;          // where it was declared
  std::string name;
  // A subview (pto.subset, pto.subview): a window of view_of's storage, rows
  // as long as its parent's (a pto_tile whose cols are the parent's row
  // pitch), set by a kSubview instruction. view_offset is its first
  // element's offset in the parent when the offsets are constants, else -1.
  int32_t view_of = -1;
  int64_t view_offset = -1;
  bool IsView() const { return view_of >= 0; }
};

// A tile of one block (or of the verifier's stand-in buffer) for slot s:
// its storage at ub + s.addr (any non-null address for an implicit tmp),
// with the declared valid region where it is static and `dynamic` where the
// type says `?`, its own image from (0, 0) (Block::Subview makes a cube
// tile's subview a window of its root's). A vec tile is marked as placed
// (the rows judge its overlaps by address); a cube tile carries its
// location and layout (LocationOf, PtoLayoutOf) and, as C's cube tiles,
// lies in no buffer: the matrix multiplies, the one kind of row that takes
// cube tiles, read it as they read C's.
inline pto_tile TileFromSlot(const TileSlot& s, char* ub, uint32_t dynamic_rows,
                             uint32_t dynamic_cols, pto_buffer* placed_marker) {
  pto_tile t;
  t.dtype = s.type.dtype;
  t.rows = s.type.rows;
  t.cols = s.type.cols;
  t.valid_rows =
      s.type.valid_rows == kDynamic ? dynamic_rows : static_cast<uint32_t>(s.type.valid_rows);
  t.valid_cols =
      s.type.valid_cols == kDynamic ? dynamic_cols : static_cast<uint32_t>(s.type.valid_cols);
  t.data = ub + (s.in_ub ? s.base + s.addr : 0);
  const bool cube = s.type.IsCube();
  t.buffer = s.in_ub && !cube ? placed_marker : nullptr;
  t.offset = cube ? 0 : s.base + s.addr;
  t.location = static_cast<uint8_t>(cube ? LocationOf(s.type) : PTO_LOC_VEC);
  t.layout = static_cast<uint8_t>(cube ? PtoLayoutOf(s.type) : PTO_LAYOUT_ND);
  t.image_rows = t.rows;
  t.image_cols = t.cols;
  t.origin_row = t.origin_col = 0;
  return t;
}

// PTOAS's masks are 8-bit integer tiles (i8 or ui8), often of the compared
// tiles' shape, whose first ceil(C / 8) bytes a row hold the packed bits; the
// C functions take a UINT8 mask, and tcmp/tcmps a dst exactly as wide as the
// packed bits. A mask operand is given to them as that view of its tile; the
// tile's bytes past the packed width are left as they were.
inline pto_tile MaskView(const pto_tile& t) {
  pto_tile v = t;
  if (v.dtype == PTO_INT8) v.dtype = PTO_UINT8;
  return v;
}

// The operands of a mask row (tcmp, tcmps: MaskDst; tsels: MaskSrc) with
// their mask seen as MaskView (in `view`), a compare's dst narrowed to the
// packed width of its source; every other operation's unchanged.
inline ops::Operands WithMaskView(const ops::OpDescriptor& op, const ops::Operands& o,
                                  pto_tile* view) {
  ops::Operands m = o;
  if (ops::HasTrait(op, PTO_TRAIT_MaskDst)) {
    *view = MaskView(*o.dst);
    const uint32_t packed = ops::MaskBytes(o.src0->valid_cols);
    if (packed < view->valid_cols) view->valid_cols = packed;
    m.dst = view;
  } else if (ops::HasTrait(op, PTO_TRAIT_MaskSrc)) {
    *view = MaskView(*o.src0);
    m.src0 = view;
  }
  return m;
}

// What one parameter is bound to.
struct Binding {
  bool bound = false;
  int64_t int_value = 0;
  double float_value = 0;
  char* data = nullptr;  // pointer: the caller's memory
  int64_t count = 0;     // pointer: elements there
  pto_tile* tile = nullptr;
  // pointer: memory of another rank's window (pto_comm.h), which only the
  // comm operations reach (set when a comm launch's block starts).
  bool peer = false;
};

// A func.func of the module, for listings (pto_program_describe).
struct FunctionSummary {
  std::string name;
  std::string signature;  // "@k(%a: !pto.ptr<f32>, %n: index) -> (i32)"
  bool is_entry = false;
  bool is_private = false;
};

enum class Code : uint8_t {
  kConstInt,     // ints[a] = imm
  kConstFloat,   // floats[a] = fimm
  kIntBinary,    // ints[a] = ints[b] (sub) ints[c], wrapped to `bits`
  kIntCompare,   // ints[a] = ints[b] (sub) ints[c]
  kIntCast,      // ints[a] = ints[b] wrapped to `bits`
  kBlockIdx,     // ints[a] = block id
  kBlockNum,     // ints[a] = number of blocks
  kJump,         // pc = target
  kJumpIfZero,   // if ints[a] == 0: pc = target
  kForCheck,     // if ints[a] >= ints[b]: pc = target (loop exit); ints[c] is the step
  kForStep,      // ints[a] += ints[b]; pc = target
  kMakeView,     // views[a] = pointer b with shape/strides regs list[extra..]
  kPartView,     // views[a] = views[b] at offsets, sizes list[extra..] (sub leading 1s added)
  kLoad,         // tile a <- views[b] (plain: a vector tile without a pad value, imm
                 // its element's bytes, set by the verifier)
  kStore,        // views[b] <- tile a, as dtype d (sub 1: added to what is there;
                 // plain and imm as kLoad's)
  kSetValid,     // tile a valid region = ints[b] x ints[c]
  kTileOp,       // an operation of the table on tiles (Instr::slot by Role); a Table
                 // or TableDst row's table views[b], of pto_dtype d; a row's scalar
                 // result (an Out argument) into (sub 0: ints, wrapped to `bits`; 1:
                 // floats)[a]; a row's words the low 32 bits of ints[lists[extra ..
                 // extra + ops::WordCount)]
  kTileCopy,     // tile a <- tile b (bytes and valid region): a carried tile value
  kNop,          // nothing (sub 1: pto.syncall, refused on more than one block)
  kFloatBinary,  // floats[a] = floats[b] (FloatOp sub) floats[c], rounded to `fmt`
  kFloatCast,    // floats[a] = floats[b] rounded to `fmt` (kF64: a move)
  kFloatNeg,     // floats[a] = -floats[b]
  kFloatCompare, // ints[a] = floats[b] (FloatPredicate sub) floats[c]
  kIntToFloat,   // floats[a] = ints[b] (as unsigned of `bits` if sub) rounded to `fmt`
  kFloatToInt,   // ints[a] = floats[b] toward zero, in range of `bits` (unsigned if sub)
  kSelect,       // (sub 0: ints, 1: floats)[a] = ints[b] ? [c] : [d]
  kLoadScalar,   // (sub 0: ints, 1: floats)[a] = pointer b [ints[c]], element dtype d
  kStoreScalar,  // pointer b [ints[c]] = (sub 0: ints, 1: floats)[a], element dtype d
  kMxZzMove,     // tile a's bytes <- tile b's exponents in ZZ order (sub 1: DN); tile c
                 // the tmp (read by none)
  kSubview,      // tile a = the window of tile b at row ints[c], column ints[d]; valid
                 // region per SubviewRule sub
  kPrint,        // tile a's valid region to stderr, in print format sub (pto.tprint)
  kCubeMove,     // tile a <- tile b, each element at its (row, column) in a's layout
                 // (sub 0: tmov; 1: textract, the window at ints[index_regs]; 2: tfillpad
                 // in place on a mat tile; 3: tinsert, b's valid region into a there; 4:
                 // the fixpipe's tmov_fp/textract_fp/tinsert_fp); imm 1: the fixpipe's
                 // cast of an f32 acc tile to a's f16 or bf16
  kMatmul,       // tile a (acc) <- tile b (left) x tile c (right), seeded by row `op`'s
                 // rule (tile d: the bias)
  kAddPtr,       // pointer a = pointer b moved by ints[c] elements of dtype d
  kArrayClear,   // (sub 0: ints, 1: floats)[a .. a + imm) = 0 (pto.declare_local_array)
  kArrayGet,     // (sub)[a] = (sub)[b + the element at the rank index registers
                 // list[extra..], dims list[extra + rank..]]
  kArraySet,     // (sub)[b + that element] = (sub)[a]
  kSection,      // a core's code up to target (sub: CoreKind); in a program with pipes
                 // the other cores jump over it, else a no-op
  kPipe,         // Program::pipes[b] (sub: PipeOp, c: split): tile a pushed or popped
                 // (kNoSlot for a free); ints[d], ints[extra] the popped valid region
                 // when imm is 1; imm 2: a slot in global memory, views[d] (dtype attr);
                 // kInit: the slots' memory, pointer d (c 1) or views[d] (c 2)
  kSubblock,     // ints[a] = the vector core's index (sub 0) or the count (sub 1)
  kComm,         // a pto.comm.* operation (sub: CommOp; operands under CommOp)
};

// What a kComm does (Instr::sub), its operands: views by register, the
// group's views in lists[extra .. extra + imm), attr as each says.
//   kPut:    views[a] (dst, any rank) <- views[b] (src); attr 1: atomic add
//   kGet:    views[a] (dst) <- views[b] (src, any rank)
//   kNotify: the i32 signals views[a] set to (attr 0) or added (attr 1) ints[b]
//   kWait:   until every i32 of views[a] satisfies (WaitCmp attr) ints[b]
//   kTest:   ints[c] = whether it does now
//   kBroadcast: views[a] (src) -> every group member; kScatter: its row block
//            r -> member r; kGather: member r -> views[a]'s row block r;
//   kReduce: views[a] (dst) <- members reduced (ReduceOp attr), pto-isa's order
// d: the views' dtype; the collectives' root: rank (the group index of the
// calling rank).
enum class CommOp : uint8_t { kPut, kGet, kNotify, kWait, kTest, kBroadcast, kScatter, kGather,
                              kReduce };
enum class WaitCmp : uint8_t { kEq, kNe, kGt, kGe, kLt, kLe };
enum class ReduceOp : uint8_t { kSum, kMax, kMin };

// The core a kSection's code runs on (Instr::sub).
enum class CoreKind : uint8_t { kCube = 1, kVector = 2 };

// What a kPipe does (Instr::sub): tpush_to_*, tpop_from_*, tfree_from_*.
// kAlloc: talloc_to_*, a producer's slot in global memory; kInit: a core's
// initialize_pipe, where a pipe's slots in global memory lie.
// kSetQuant: pto.set_quant_scalar / pto.set_quant_vector {id = N}, the
// cube's quantisation state of its pipes of that id (Instr::imm the id,
// Instr::a the scaling tile or kNoSlot, Instr::scalar_reg the scale).
enum class PipeOp : uint8_t { kPush, kPop, kFree, kAlloc, kInit, kSetQuant };

// A pipe's acc_push_epilogue (PTOAS's #pto.acc_push_epilogue<layout = nz2nd,
// quant = Q, relu = R>): what the fixpipe does to an acc tile the cube
// pushes. `out` is the slot's dtype (the source's with no conversion),
// `quant` whether a word from pto.set_quant_* scales it and `vector`
// whether that is a scaling tile's row.
struct PipeEpilogue {
  bool set = false;
  pto_dtype src = PTO_FLOAT32;
  pto_dtype out = PTO_FLOAT32;
  bool quant = false;
  bool vector = false;
  bool relu = false;
  // The consumer's tile layout: "ND" (nz2nd), "DN" (nz2dn), "NZ" (nz2nz);
  // elements keep their (row, column) whichever it is.
  const char* consumer_layout = "ND";
  std::string text;  // as written, for the two ends' comparison
};

// How a pipe's tile is shared between a block's vector cores (the text's
// split = 0, 1, 2; pto-isa's TileSplitAxis): each gets it whole, its half
// of the rows, or its half of the columns.
enum class Split : uint8_t { kNone, kUpDown, kLeftRight };

// One direction of a pipe the text initialises (pto.aic_initialize_pipe and
// pto.aiv_initialize_pipe): a FIFO of `depth` slots of `slot_size` bytes from
// the cube to the vector cores (c2v) or back.
struct PipeDecl {
  int64_t id = 0;
  bool c2v = true;
  uint64_t slot_size = 0;
  uint32_t depth = 0;
  // Where its slots start in the initialisation's global memory (bytes): 0,
  // or after the other direction's slots of a dir_mask = 3 pipe.
  uint64_t gm_region = 0;
  SourceLoc loc;  // the first initialisation
  PipeEpilogue epilogue;  // c2v only
  // How its transfers split: -1 none seen yet, 0 split = 0 only, 1 split =
  // 1 or 2 only (PTOAS refuses a pipe that mixes them); split_loc the first.
  int8_t split_use = -1;
  SourceLoc split_loc;
};

// How a subview's valid region is set (Instr::sub of kSubview).
enum class SubviewRule : uint8_t {
  kPeriodic,  // pto.subset: per dim min(size, parent valid - offset % parent valid)
  kOwn,       // pto.subview: the view's own (its type's, or set on it), inside the
              // parent's valid region from the offsets
  kSized,     // pto.subview %t[..] sizes [..]: ints[index_regs] when imm is 1 (each
              // in 0..size), else the result type's
};

// A float scalar's format (Instr::fmt).
enum class FloatFormat : uint8_t { kF64, kF32, kF16, kBF16 };
enum class FloatOp : uint8_t { kAdd, kSub, kMul, kDiv, kMaximum, kMinimum, kMaxNum, kMinNum };

enum class IntOp : uint8_t {
  kAdd,
  kSub,
  kMul,
  kDivS,
  kRemS,
  kMinS,
  kMaxS,
  kDivU,
  kRemU,
  kCeilDivS,
  kMinU,
  kMaxU,
  kAnd,
  kOr,
  kXor,
  kShl,
  kShrS,
  kShrU,
};
enum class Predicate : uint8_t { kEq, kNe, kSlt, kSle, kSgt, kSge, kUlt, kUle, kUgt, kUge };

constexpr uint32_t kNoSlot = 0xFFFFFFFFu;

// A tile operation's operands by role, as ops::Operands names them: dst, the
// sources in order (a row's source_count of them, tmrgsort's lists), then
// the tmp. A row with a fifth source adds a role here and in ops::Operands.
struct Role {
  enum : uint8_t { kDst, kSrc0, kSrc1, kSrc2, kSrc3, kTmp, kCount };
};

struct Instr {
  Code code;
  uint8_t sub = 0;   // IntOp, Predicate
  uint8_t bits = 64; // result width of integer arithmetic
  FloatFormat fmt = FloatFormat::kF64;  // float results
  bool check_at_run = false;  // kTileOp: an operand's valid region is dynamic
  // kTileOp: none of offsets, a mask view or a run-time check, a scalar only
  // from a float register (set by the verifier): the run goes straight to
  // the kernel. kLoad, kStore: see there.
  bool plain = false;
  // Registers, slots and values as each Code says; a tile operation's tiles
  // are in slot instead.
  uint32_t a = 0, b = 0, c = 0, d = 0;
  // kTileOp: the tile slots by Role (kNoSlot for none).
  uint32_t slot[Role::kCount] = {kNoSlot, kNoSlot, kNoSlot, kNoSlot, kNoSlot, kNoSlot};
  uint32_t target = 0;  // jumps
  uint32_t extra = 0;   // index into Program::lists
  uint32_t rank = 0;
  int64_t imm = 0;
  double fimm = 0;
  const ops::OpDescriptor* op = nullptr;
  int attr = 0;
  // kTileOp, plain: what its run takes from the row and attr, worked out by
  // the verifier: AttrOf and SaturationOf attr, whether a scalar (from a
  // float register), whether dst is written whole (WritesWholeDst).
  int run_attr = 0, run_sat = 0;
  bool run_scalar = false, run_whole_dst = false;
  ops::ContiguousKernel run_contiguous = nullptr;  // ops::ContiguousKernelOf the row
  // kTileOp of the Scalar family: the register holding the scalar (a float
  // register when scalar_is_float, else an integer one).
  uint32_t scalar_reg = 0;
  bool scalar_is_float = false;
  // kTileOp of a row with offsets (ops::IndexCount): their integer registers.
  uint32_t index_regs[2] = {0, 0};
  SourceLoc loc;
};

// The tile of `slot` in tiles (a vector or array of pto_tile), or null for
// kNoSlot.
template <typename Tiles>
inline auto TileAt(Tiles& tiles, uint32_t slot) -> decltype(&tiles[0]) {
  return slot != kNoSlot ? &tiles[slot] : nullptr;
}

// The operands of tile operation `in`: its tiles by role (dst, src0..src3,
// tmp) from `tiles`, its other fields (attr, scalar, ...) their defaults;
// its further operands go into *ext (as constructed: the caller's, which
// o.ext points at). A row's Aux operands are in the source slots after its
// sources.
template <typename Tiles>
inline ops::Operands WithTiles(ops::OperandsExt* ext, const Instr& in, Tiles& tiles) {
  ops::Operands o{};
  o.ext = ext;
  o.dst = TileAt(tiles, in.slot[Role::kDst]);
  o.src0 = TileAt(tiles, in.slot[Role::kSrc0]);
  o.src1 = TileAt(tiles, in.slot[Role::kSrc1]);
  ext->src2 = TileAt(tiles, in.slot[Role::kSrc2]);
  ext->src3 = TileAt(tiles, in.slot[Role::kSrc3]);
  o.tmp = TileAt(tiles, in.slot[Role::kTmp]);
  const int aux = in.op != nullptr ? ops::AuxCount(*in.op) : 0;
  for (int k = 0; k < aux; ++k) {
    const pto_tile** source = ops::SourceSlot(&o, ext, in.op->source_count + k);
    ext->aux[k] = TileAt(tiles, in.slot[Role::kSrc0 + in.op->source_count + k]);
    *source = nullptr;
  }
  return o;
}

struct Program {
  std::string source_name;
  pto_profile profile = PTO_PROFILE_HOST;
  bool is_kernel = false;  // a func.func (else a snippet)
  std::vector<FunctionSummary> functions;  // the module's, in text order
  std::vector<std::string> inlined;        // functions read into this program (entry, callees)
  std::vector<Param> params;
  std::vector<TileSlot> tiles;
  std::vector<Instr> code;
  std::vector<uint32_t> lists;  // register lists of view instructions
  uint32_t int_regs = 0, float_regs = 0, view_regs = 0, pointer_count = 0;
  // Each pointer's parameter: pointer_root[r] is the register of the pointer
  // parameter that pointer r was computed from (pto.addptr), r for one.
  std::vector<uint32_t> pointer_root;
  // Each memory of a block (Space): the profile's capacity, where it starts
  // in the block's allocation, the bytes its tiles reach (end of the last
  // one) and the most bytes of its tiles live at one instruction.
  struct Memory {
    uint64_t capacity = 0, base = 0, size = 0, live_peak = 0;
  };
  Memory memories[kSpaceCount];
  uint64_t ub_size = 0;      // bytes a block allocates: every memory
  // Loops as instruction ranges [begin, end]: a tile declared before one and
  // used in it lives through the whole loop.
  std::vector<std::pair<uint32_t, uint32_t>> loops;
  bool uses_float = false;   // some operation computes in floating point
  // Some tstore adds to global memory (atomic add): the blocks apply those
  // adds in block order, so the sums do not depend on the threads.
  bool ordered_adds = false;
  // Some pto.comm.* operation: a launch runs every block at once (blocks
  // may wait for each other's signals).
  bool uses_comm = false;
  // Pipes between a block's cube and vector cores (core_pipes.cc). A
  // program with pipes runs each block's cube section and vector sections
  // as cores taking turns on the block's thread (execute_pipes.cc);
  // vector_cores is then 1 or 2, else 0 (one core runs every section in
  // program order).
  std::vector<PipeDecl> pipes;
  uint32_t vector_cores = 0;
  // The module attribute `libpto.vector_cores = N` (1 or 2): a block of a
  // program with pipes runs the cube and N vector cores whatever the
  // profile; 0 where the module does not say.
  uint32_t vector_cores_asked = 0;
  // A module whose marks choose no entry (several marked, or several public
  // and none marked): why, and where; such a program is verified but
  // cannot run (pto_program_check).
  std::string no_entry;
  SourceLoc no_entry_loc;
};

// An Operands' further operands (ext) with the cols the types of
// instruction `in`'s sources and tmp declare (a subview's window, where its
// tile's cols are its parent's row pitch).
inline void WithDeclaredCols(const Program& p, const Instr& in, ops::OperandsExt* ext) {
  for (size_t k = 0; k < 4; ++k)  // src0 .. src3
    if (in.slot[Role::kSrc0 + k] != kNoSlot)
      ext->declared_cols[k] = static_cast<uint32_t>(p.tiles[in.slot[Role::kSrc0 + k]].type.cols);
  if (in.slot[Role::kTmp] != kNoSlot)
    ext->declared_tmp_cols = static_cast<uint32_t>(p.tiles[in.slot[Role::kTmp]].type.cols);
}

// Records "SOURCE:LINE:COL: error: MESSAGE" as the thread's last error.
pto_status Diagnose(const Program& p, SourceLoc loc, pto_status status, const std::string& message);

}  // namespace program
}  // namespace pto

#endif  // PTO_PROGRAM_IR_PROGRAM_H_
