// PTO assembly: the pipes' transfers, tpush_to_aiv / tpop_from_aic /
// tfree_from_aic and tpush_to_aic / tpop_from_aiv / tfree_from_aiv (PTOAS's
// manual, 4.18, and its verifier; pto-isa's TPUSH, TPOP and TFREE pages);
// core_pipes.cc declares the pipes and the cores.
#include <cstring>
#include <string>

#include "board.h"
#include "program/ir/types.h"
#include "program/parse/parser.h"
#include "program/parse/readers.h"

namespace pto {
namespace program {

// The id and split attributes of a push, pop or free: split 0 gives each
// vector core the whole tile, 1 and 2 its half of the rows or columns.
bool PipeReader::PipeSplit(const Token& op, const std::vector<AttrEntry>& attrs, bool c2v,
                           int64_t* id, Split* split) {
  const std::string what(op.text);
  int64_t s = 0;
  *id = 0;
  for (const AttrEntry& e : attrs) {
    int64_t v = 0;
    if (e.key == "id" && IntAttr(e, &v)) *id = v;
    else if (e.key == "split" && IntAttr(e, &v)) s = v;
    else
      return parser_.Error(
          e.loc, what + ": unexpected attribute '" + std::string(e.key) + "' (id, split)");
  }
  if (s < 0 || s > 2) return parser_.Error(op.loc, what + " expects split to be 0, 1 or 2");
  *split = static_cast<Split>(s);
  (void)c2v;
  return true;
}

// pto.tpush_to_aiv(%t : T) {id = N, split = S}      (cube: an acc tile)
// pto.tpush_to_aic(%t : T) {id = N, split = S}      (vector: a vec tile)
// %t = pto.tpop_from_aic[(%rows, %cols)] {..} -> T  (vector: a vec tile)
// %t = pto.tpop_from_aiv[(%rows, %cols)] {..} -> T  (cube: a mat tile)
// pto.tfree_from_aic {..}   pto.tfree_from_aiv {..}
// and the forms of slots in global memory (pto-isa's GlobalData overloads):
// %v = pto.talloc_to_aiv {..} -> !pto.tensor_view<RxCxT> (a producer's slot to
// write), pto.tpush_to_aiv(%v : V) (commits it), %v = pto.tpop_from_aic {..}
// -> V (a consumer's slot to read), pto.tfree_from_aic(%v : V); _aic/_aiv alike.
void PipeReader::ParsePipeTransfer(const Token& op, const std::vector<Token>& results, PipeOp kind,
                                   bool c2v) {
  const std::string what(op.text);
  // The core this end runs on: the producer's for a push or an alloc, else
  // the consumer's.
  const bool producer = kind == PipeOp::kPush || kind == PipeOp::kAlloc;
  const uint8_t side = producer == c2v ? 1 : 2;
  if (core_ != side)
    return (void)parser_.Error(op.loc, what + " must be inside a " + CoreName(side) +
                                           " kernel function (pto.kernel_kind<" + CoreName(side) +
                                           ">) or a pto.section." + CoreName(side));
  const bool gives = kind == PipeOp::kPop || kind == PipeOp::kAlloc;
  if (results.size() != (gives ? 1u : 0u))
    return (void)parser_.Error(op.loc,
                               what + (gives ? " defines one result" : " defines no result"));
  Instr in;
  in.code = Code::kPipe;
  in.sub = static_cast<uint8_t>(kind);
  in.loc = op.loc;
  in.a = kNoSlot;
  Token operand;
  Type type;  // the tile or view pushed, popped, allocated or freed
  SourceLoc type_loc;
  const bool takes_operand = kind == PipeOp::kPush || (kind == PipeOp::kFree && tok().Is('('));
  if (takes_operand) {
    if (!parser_.Expect('(') || !parser_.ExpectValueName(&operand) || !parser_.Expect(':')) return;
    type_loc = tok().loc;
    if (!parser_.ParseType(&type) || !parser_.Expect(')')) return;
    if (kind == PipeOp::kFree && type.kind != TypeKind::kTensorView)
      return (void)parser_.Error(type_loc, what + " takes the popped slot's view, or no operand");
  } else if (kind == PipeOp::kPop && tok().Is('(')) {
    // The popped tile's valid rows and columns.
    Value valid[2];
    parser_.Advance();
    if (!parser_.ParseIntOperand(&valid[0], "valid rows") || !parser_.Expect(',') ||
        !parser_.ParseIntOperand(&valid[1], "valid columns") || !parser_.Expect(')'))
      return;
    in.imm = 1;
    in.d = valid[0].reg;
    in.extra = valid[1].reg;
  }
  std::vector<AttrEntry> attrs;
  int64_t id = 0;
  Split split = Split::kNone;
  if (!parser_.ParseAttrDict(&attrs) || !PipeSplit(op, attrs, c2v, &id, &split)) return;
  in.c = static_cast<uint32_t>(split);
  size_t k = 0;
  while (k < p_->pipes.size() && !(p_->pipes[k].id == id && p_->pipes[k].c2v == c2v)) ++k;
  if (k == p_->pipes.size() || (pipe_sides_[k] & side) == 0)
    return (void)parser_.Error(
        op.loc,
        what + ": no pto." + (side == 1 ? "aic" : "aiv") +
            "_initialize_pipe before it declares pipe " + std::to_string(id) +
            (c2v ? " from the cube to the vector cores" : " from the vector cores to the cube"));
  in.b = static_cast<uint32_t>(k);
  // A pipe's transfers all split (1, 2) or all do not (0): a vector core
  // takes a half of each slot or the whole of it (PTOAS: "cannot mix
  // split = 0 with split = 1 or split = 2 on the same logical pipe").
  PipeDecl& decl = p_->pipes[k];
  const int8_t use = split == Split::kNone ? 0 : 1;
  if (decl.split_use >= 0 && decl.split_use != use)
    return (void)parser_.Error(
        op.loc, what + ": split = " + std::to_string(static_cast<int>(split)) + " on pipe " +
                    std::to_string(id) + ", whose transfer at line " +
                    std::to_string(decl.split_loc.line) + " has split " +
                    (use == 0 ? "= 1 or 2" : "= 0") +
                    "; a pipe's pushes, pops and frees all split its tiles between the vector "
                    "cores (1, 2) or none does (0)");
  if (decl.split_use < 0) {
    decl.split_use = use;
    decl.split_loc = op.loc;
  }
  if (gives) {
    if (!parser_.ExpectArrow()) return;
    type_loc = tok().loc;
    if (!parser_.ParseType(&type)) return;
  }
  if (kind == PipeOp::kAlloc && type.kind != TypeKind::kTensorView)
    return (void)parser_.Error(type_loc,
                               what + " gives a !pto.tensor_view of the slot in global memory");
  const bool in_gm = type.kind == TypeKind::kTensorView;
  const bool vector_part = side == 2 && split != Split::kNone;
  const Transfer t{what, kind, side, id, k, vector_part, takes_operand, operand, type, type_loc};
  if (in_gm ? !TransferSlotView(op, t, results, &in)
            : kind != PipeOp::kFree && !TransferTile(op, t, results, &in))
    return;
  if (split != Split::kNone && p_->vector_cores_asked == 1)
    return (void)parser_.Error(op.loc, what + " splits its tile between two vector cores; the module "
                                              "asks for one (libpto.vector_cores = 1)");
  NoteVectorCores(split);
  p_->code.push_back(in);
}

// A slot in global memory (a !pto.tensor_view): the view checked against
// the pipe's slots and the global memory its initialisation gave, taken
// from the operand or defined as the result.
bool PipeReader::TransferSlotView(const Token& op, const Transfer& t,
                                  const std::vector<Token>& results, Instr* in) {
  const PipeDecl& pipe = p_->pipes[t.index];
  // A view of the slot in the initialisation's global memory.
  if (in->imm == 1)
    return parser_.Error(op.loc, t.what +
                                     ": valid rows and columns are given to a popped tile, not "
                                     "to a view");
  const auto gm = pipe_gm_.find(static_cast<uint32_t>(t.index * 2 + t.side - 1));
  if (gm == pipe_gm_.end())
    return parser_.Error(op.loc, t.what +
                                     ": a slot in global memory needs gm_slot_buffer (or "
                                     "gm_slot_tensor) in this core's initialisation of pipe " +
                                     std::to_string(t.id));
  if (t.type.rank != 2 || t.type.dims[0] == kDynamic || t.type.dims[1] == kDynamic)
    return parser_.Error(t.type_loc, t.what + ": a slot's view is 2-D with static dims");
  pto_dtype gm_dtype = PTO_FLOAT32;
  for (const Param& q : p_->params)
    if (q.kind == PTO_PARAM_POINTER && q.reg == gm->second) gm_dtype = q.type.dtype;
  if (t.type.dtype != gm_dtype)
    return parser_.Error(t.type_loc,
                         t.what + ": the slot's view is of " + DtypeSpelling(t.type.dtype) +
                             ", the global memory of " + DtypeSpelling(gm_dtype),
                         PTO_ERR_DTYPE_MISMATCH);
  const uint64_t bytes = uint64_t(t.type.dims[0]) * t.type.dims[1] * pto_dtype_size(t.type.dtype) *
                         (t.vector_part ? 2 : 1);
  if (bytes > pipe.slot_size || pipe.slot_size % pto_dtype_size(t.type.dtype) != 0)
    return parser_.Error(t.type_loc,
                         t.what + ": the view" + (t.vector_part ? " (a half of the slot's)" : "") +
                             " covers " + std::to_string(bytes) + " bytes; pipe " +
                             std::to_string(t.id) + "'s slots are " +
                             std::to_string(pipe.slot_size) + " bytes",
                         PTO_ERR_SHAPE_MISMATCH);
  in->imm = 2;
  in->attr = static_cast<int>(t.type.dtype);
  in->index_regs[0] = static_cast<uint32_t>(t.type.dims[0]);  // the view's rows and columns
  in->index_regs[1] = static_cast<uint32_t>(t.type.dims[1]);
  if (t.takes_operand) {
    const Value* v = parser_.Lookup(t.operand.text);
    if (v == nullptr)
      return parser_.Error(t.operand.loc, "%" + std::string(t.operand.text) + " is not defined");
    if (!SameType(v->type, t.type))
      return parser_.Error(t.type_loc,
                           "%" + std::string(t.operand.text) + " is " + TypeString(v->type));
    in->d = v->reg;
  } else {
    Value v;
    v.type = t.type;
    v.reg = in->d = p_->view_regs++;
    parser_.memory().SetViewPointer(v.reg, gm->second);
    if (!parser_.Define(results[0], v)) return false;
  }
  for (Param& q : p_->params)
    if (q.kind == PTO_PARAM_POINTER && q.reg == gm->second)
      q.access |= PTO_PARAM_READ | PTO_PARAM_WRITE;
  return true;
}

// A pushed or popped tile: its memory and size checked against the end
// and the pipe's slots; the pushed tile used, the popped one defined.
bool PipeReader::TransferTile(const Token& op, const Transfer& t, const std::vector<Token>& results,
                              Instr* in) {
  const PipeDecl& pipe = p_->pipes[t.index];
  if (t.type.kind != TypeKind::kTile)
    return parser_.Error(t.type_loc, t.what + " " + (t.kind == PipeOp::kPush ? "pushes" : "pops") +
                                         " a tile or a !pto.tensor_view of a slot");
  if (t.kind == PipeOp::kPop && in->imm == 1 && !t.type.HasDynamicValid())
    return parser_.Error(t.type_loc, t.what +
                                         ": valid rows and columns are given to a tile whose "
                                         "valid shape is dynamic (v_row=?, v_col=?)");
  // The memory each end's tile lies in: the producer's acc (cube) or vec
  // tile, the consumer's vec tile or mat tile (pto-isa TPUSH.md, TPOP.md).
  const bool cube_end = t.side == 1;
  const Space want = t.kind == PipeOp::kPush ? (cube_end ? Space::kAcc : Space::kVec)
                                             : (cube_end ? Space::kMat : Space::kVec);
  const auto a = [](Space s) { return s == Space::kAcc ? "an " : "a "; };
  if (t.type.space != want)
    return parser_.Error(
        t.type_loc, t.what + ": the " + (t.kind == PipeOp::kPush ? "pushed" : "popped") +
                        " tile is " + a(t.type.space) + SpaceSpelling(t.type.space) + " tile; " +
                        (cube_end ? "the cube " : "a vector core ") +
                        (t.kind == PipeOp::kPush ? "pushes " : "pops ") + a(want) +
                        SpaceSpelling(want) + " tile");
  // The slot holds the whole (pre-split) tile: a vector core's part is
  // half of it.
  // With an epilogue the slot holds the converted tile (its out dtype).
  const PipeEpilogue& e = pipe.epilogue;
  const bool converts = e.set && e.src != PTO_INT64;
  if (converts && t.kind == PipeOp::kPush && t.type.dtype != e.src)
    return parser_.Error(t.type_loc,
                         t.what + ": pipe " + std::to_string(t.id) + "'s acc_push_epilogue <" +
                             e.text + "> converts " + DtypeSpelling(e.src) + " acc tiles, not " +
                             DtypeSpelling(t.type.dtype),
                         PTO_ERR_DTYPE_MISMATCH);
  const pto_dtype slot_dtype = converts ? e.out : t.type.dtype;
  const bool eight_bit = converts && e.out == PTO_INT8;
  if (converts && t.kind == PipeOp::kPop && t.type.dtype != slot_dtype &&
      !(eight_bit && !e.vector && t.type.dtype == PTO_UINT8))
    return parser_.Error(t.type_loc,
                         t.what + ": pipe " + std::to_string(t.id) + "'s acc_push_epilogue <" +
                             e.text + "> gives " + DtypeSpelling(e.out) + " tiles, not " +
                             DtypeSpelling(t.type.dtype),
                         PTO_ERR_DTYPE_MISMATCH);
  if (e.set && t.kind == PipeOp::kPop && strcmp(LayoutName(t.type), e.consumer_layout) != 0 &&
      !(t.type.box == Box::kNone && (t.type.rows == 1 || t.type.cols == 1) &&
        strcmp(e.consumer_layout, "NZ") != 0))  // one row or column: ND and DN alike
    return parser_.Error(t.type_loc,
                         t.what + ": pipe " + std::to_string(t.id) + "'s acc_push_epilogue <" +
                             e.text + "> gives " + e.consumer_layout + " tiles, not " +
                             LayoutName(t.type) + " ones",
                         PTO_ERR_INVALID_ARGUMENT);
  const uint64_t bytes =
      uint64_t{t.type.rows} * t.type.cols * pto_dtype_size(slot_dtype) * (t.vector_part ? 2 : 1);
  if (bytes > pipe.slot_size)
    return parser_.Error(t.type_loc,
                         t.what + ": the tile" + (t.vector_part ? " (a half of the slot's)" : "") +
                             " needs " + std::to_string(bytes) + " bytes of a slot; pipe " +
                             std::to_string(t.id) + "'s slots are " +
                             std::to_string(pipe.slot_size) + " bytes",
                         PTO_ERR_SHAPE_MISMATCH);
  if (t.kind == PipeOp::kPush) {
    if (t.side == 1 && !parser_.cube().QuantSetBefore(op.loc, pipe)) return false;
    if (!parser_.UseTile(t.operand, t.type, t.type_loc, Use::kRead, &in->a)) return false;
  } else if (!parser_.tile().DefineResultTile(op, results[0], t.type, t.type_loc, &in->a)) {
    return false;
  }
  return true;
}

// A2A3 and A5 have two vector cores a block (pto-isa: 1 cube, 2 vector
// cores); under HOST the text decides: two where a split halves a tile
// between them, else one. The module's libpto.vector_cores, where given,
// decides on every profile (a task that dispatches one vector core).
void PipeReader::NoteVectorCores(Split split) {
  const uint32_t vector_cores =
      p_->vector_cores_asked != 0
          ? p_->vector_cores_asked
          : p_->profile != PTO_PROFILE_HOST || split != Split::kNone ? 2 : 1;
  if (vector_cores > p_->vector_cores) p_->vector_cores = vector_cores;
}

}  // namespace program
}  // namespace pto
