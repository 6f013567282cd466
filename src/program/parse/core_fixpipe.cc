// The fixpipe's conversions in programs: a pipe's acc_push_epilogue, which
// converts the acc tiles the cube pushes (PTOAS's
// docs/designs/fixpipe-tpipe-design.md), and pto.set_quant_scalar /
// pto.set_quant_vector {id = N}, the quantisation word(s) its pushes take
// (pto-isa SET_QUANT_SCALAR.md, SET_QUANT_VECTOR.md). The arithmetic is
// src/fixpipe.h's, as the C functions' (pto_c.h, "The fixpipe's
// conversions").
#include <string>

#include "fixpipe.h"

#include "program/parse/parser.h"
#include "program/parse/readers.h"

namespace pto {
namespace program {

namespace {

// One value of the epilogue's quant: PTOAS's public set (the design's v1).
struct QuantMode {
  const char* name;
  pto_dtype src, out;  // src PTO_INT64: the pushed tile's own dtype (no conversion)
  bool quant, vector, a5_only;
};

constexpr QuantMode kQuantModes[] = {
    {"no_convert", PTO_INT64, PTO_INT64, false, false, false},
    {"f32_f16", PTO_FLOAT32, PTO_FLOAT16, false, false, false},
    {"f32_bf16", PTO_FLOAT32, PTO_BFLOAT16, false, false, false},
    {"req8_scalar", PTO_INT32, PTO_INT8, true, false, false},
    {"req8_vec", PTO_INT32, PTO_INT8, true, true, false},
    {"deqf16_scalar", PTO_INT32, PTO_FLOAT16, true, false, false},
    {"deqf16_vec", PTO_INT32, PTO_FLOAT16, true, true, false},
    {"qf322b8_pre_scalar", PTO_FLOAT32, PTO_INT8, true, false, false},
    {"qf322b8_pre_vec", PTO_FLOAT32, PTO_INT8, true, true, false},
    {"qf322f16_pre_scalar", PTO_FLOAT32, PTO_FLOAT16, true, false, false},
    {"qf322bf16_pre_scalar", PTO_FLOAT32, PTO_BFLOAT16, true, false, false},
    {"qs322bf16_pre_scalar", PTO_INT32, PTO_BFLOAT16, true, false, true},
    {"qs322bf16_pre_vec", PTO_INT32, PTO_BFLOAT16, true, true, true},
    {"qf322hif8_pre_scalar", PTO_FLOAT32, PTO_HIFLOAT8, true, false, true},
    {"qf322fp8_pre_scalar", PTO_FLOAT32, PTO_FLOAT8_E4M3, true, false, true},
};

// `key = value` of the epilogue's body, the value up to ',' or the end.
bool Field(const std::string& body, const std::string& key, std::string* value) {
  size_t at = 0;
  while ((at = body.find(key, at)) != std::string::npos) {
    const bool starts = at == 0 || body[at - 1] == ' ' || body[at - 1] == ',';
    size_t i = at + key.size();
    while (i < body.size() && body[i] == ' ') ++i;
    if (starts && i < body.size() && body[i] == '=') {
      ++i;
      while (i < body.size() && body[i] == ' ') ++i;
      size_t end = i;
      while (end < body.size() && body[end] != ',' && body[end] != ' ') ++end;
      *value = body.substr(i, end - i);
      return true;
    }
    at += key.size();
  }
  return false;
}

}  // namespace

// #pto.acc_push_epilogue<layout = nz2nd, quant = Q, relu = no_relu | normal_relu>.
bool CubeReader::ParseEpilogue(const AttrEntry& e, PipeEpilogue* out) {
  const std::string text(e.value.text);
  const std::string head = "#pto.acc_push_epilogue<";
  if (e.value.kind != Tok::kAttr || text.compare(0, head.size(), head) != 0 || text.back() != '>')
    return parser_.Error(e.loc, "acc_push_epilogue is #pto.acc_push_epilogue<layout = .., quant = "
                                ".., relu = ..>, not " + text);
  std::string body = text.substr(head.size(), text.size() - head.size() - 1);
  for (char& c : body)
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';  // the text may break its lines
  std::string layout, quant, relu;
  if (!Field(body, "layout", &layout) || !Field(body, "quant", &quant) ||
      !Field(body, "relu", &relu))
    return parser_.Error(e.loc, "acc_push_epilogue gives layout, quant and relu: " + text);
  // The layout names the consumer's tile (PTOAS's design: nz2nd a row-major
  // vec tile, nz2dn a col_major one, nz2nz col_major with row_major boxes);
  // the popped tile's elements are the pushed tile's at the same (row, col).
  const char* consumer = layout == "nz2nd" ? "ND" : layout == "nz2dn" ? "DN"
                                         : layout == "nz2nz" ? "NZ" : nullptr;
  if (consumer == nullptr)
    return parser_.Error(e.loc, "acc_push_epilogue: layout = " + layout +
                                    " is not one of nz2nd, nz2dn, nz2nz");
  if (relu != "no_relu" && relu != "normal_relu")
    return parser_.Error(e.loc, "acc_push_epilogue: relu = " + relu +
                                    " is not one of no_relu, normal_relu");
  for (const QuantMode& m : kQuantModes) {
    if (quant != m.name) continue;
    if (m.a5_only && p_->profile == PTO_PROFILE_A2A3)
      return parser_.Error(e.loc, "acc_push_epilogue: quant = " + quant + " is A5's");
    out->set = true;
    out->src = m.src;
    out->out = m.out;
    out->quant = m.quant;
    out->vector = m.vector;
    out->relu = relu == "normal_relu";
    out->consumer_layout = consumer;
    out->text = "layout = " + layout + ", quant = " + quant + ", relu = " + relu;
    return true;
  }
  return parser_.Error(e.loc, "acc_push_epilogue: quant = " + quant +
                                  " is not one of PTOAS's (no_convert, f32_f16, f32_bf16, "
                                  "req8_scalar, req8_vec, deqf16_scalar, deqf16_vec, "
                                  "qf322b8_pre_scalar, qf322b8_pre_vec, qf322f16_pre_scalar, "
                                  "qf322bf16_pre_scalar, qs322bf16_pre_scalar, qs322bf16_pre_vec, "
                                  "qf322hif8_pre_scalar, qf322fp8_pre_scalar)");
}

// A pipe's epilogue: on a cube-to-vector pipe only, the same at both ends.
bool CubeReader::EpilogueAgrees(const Token& op, const PipeDecl& decl, const PipeEpilogue& here,
                                int64_t dir) {
  const std::string what(op.text);
  if (here.set && dir != 1)
    return parser_.Error(op.loc, what + ": acc_push_epilogue is a cube-to-vector pipe's "
                                        "(dir_mask = 1)");
  if (decl.epilogue.set != here.set || decl.epilogue.text != here.text)
    return parser_.Error(op.loc, what + ": pipe " + std::to_string(decl.id) +
                                     "'s acc_push_epilogue is <" + here.text + "> here and <" +
                                     decl.epilogue.text + "> at line " +
                                     std::to_string(decl.loc.line) + ": both ends must agree");
  return true;
}

// tmov_fp, textract_fp, tinsert_fp on a program's tiles: src an acc tile, fp
// a scaling tile of one row, dst a vec or mat tile; the row's check (every
// rule of its C function) runs with the tiles when the instruction runs.
bool CubeReader::EmitFixpipeMove(const ops::OpDescriptor& op, SourceLoc loc, uint32_t src,
                                 uint32_t fp, uint32_t dst, const Instr& offsets) {
  const Type& s = p_->tiles[src].type;
  const Type& f = p_->tiles[fp].type;
  const Type& d = p_->tiles[dst].type;
  const std::string what = std::string("pto.") + op.mnemonic;
  if (s.space != Space::kAcc)
    return parser_.Error(loc, what + ": src is a " + SpaceSpelling(s.space) +
                                  " tile; the fixpipe moves an acc tile");
  if (d.space != Space::kVec && d.space != Space::kMat)
    return parser_.Error(loc, what + ": dst is a " + SpaceSpelling(d.space) +
                                  " tile; the fixpipe writes a vec or mat tile");
  if (f.space != Space::kScaling)
    return parser_.Error(loc, what + ": fp is a " + SpaceSpelling(f.space) +
                                  " tile; the quantisation parameters are a scaling tile");
  if (!fixpipe::PairSupported(p_->profile, s.dtype, d.dtype, true))
    return parser_.Error(loc,
                         what + ": " + pto_profile_string(p_->profile) + " quantises no " +
                             DtypeSpelling(s.dtype) + " acc tile to " + DtypeSpelling(d.dtype) +
                             " by a scaling tile",
                         PTO_ERR_UNSUPPORTED_DTYPE);
  Instr in;
  in.code = Code::kCubeMove;
  in.loc = loc;
  in.op = &op;
  in.a = dst;
  in.b = src;
  in.c = fp;
  in.sub = 4;  // the fixpipe's row (program.h: kCubeMove's subs)
  in.index_regs[0] = offsets.index_regs[0];
  in.index_regs[1] = offsets.index_regs[1];
  p_->code.push_back(in);
  return true;
}

// tstore ins(%acc : T fp %fp : F) outs(%view : V): an acc tile stored through
// the fixpipe's quantisation by fp's words (TSTORE_FP), the pairs and rules of
// pto_tmov_fp.
bool CubeReader::CheckFixpipeStore(const Token& op, uint32_t slot, pto_dtype view_dtype,
                                   const Token& fp, const Type& fp_type, SourceLoc fp_loc,
                                   uint32_t* fp_slot) {
  const std::string what(op.text);
  const Type& t = p_->tiles[slot].type;
  if (t.space != Space::kAcc)
    return parser_.Error(op.loc, what + ": fp quantises an acc tile; %" + p_->tiles[slot].name +
                                     " is a " + SpaceSpelling(t.space) + " tile");
  if (!fixpipe::PairSupported(p_->profile, t.dtype, view_dtype, true))
    return parser_.Error(op.loc,
                         what + ": " + pto_profile_string(p_->profile) + " quantises no " +
                             DtypeSpelling(t.dtype) + " acc tile to " + DtypeSpelling(view_dtype) +
                             " by a scaling tile",
                         PTO_ERR_UNSUPPORTED_DTYPE);
  if (fp_type.kind != TypeKind::kTile || fp_type.space != Space::kScaling || fp_type.rows != 1)
    return parser_.Error(fp_loc, what + ": fp is a scaling tile of one row (loc=scaling)");
  if (!fixpipe::ScalingDtypeAccepted(p_->profile, fp_type.dtype))
    return parser_.Error(fp_loc,
                         what + ": under " + pto_profile_string(p_->profile) +
                             " a scaling tile does not hold " + DtypeSpelling(fp_type.dtype),
                         PTO_ERR_UNSUPPORTED_DTYPE);
  if (!t.HasDynamicValid() && !fp_type.HasDynamicValid() && fp_type.valid_cols < t.valid_cols)
    return parser_.Error(fp_loc,
                         what + ": fp has " + std::to_string(fp_type.valid_cols) +
                             " valid columns, fewer than the acc tile's " +
                             std::to_string(t.valid_cols),
                         PTO_ERR_SHAPE_MISMATCH);
  return parser_.UseTile(fp, fp_type, fp_loc, Use::kRead, fp_slot);
}

// pto.set_quant_scalar(%s : f32) {id = N}
// pto.set_quant_vector(%fp : !pto.tile_buf<loc=scaling, ..>) {id = N}
// In the cube's code: the word(s) the later pushes to pipe N take.
void CubeReader::ParseSetQuant(const Token& op) {
  const std::string what(op.text);
  const bool vector = what == "pto.set_quant_vector";
  if (parser_.pipes().core() != 1)
    return (void)parser_.Error(op.loc, what + " must be inside a cube kernel function "
                                              "(pto.kernel_kind<cube>) or a pto.section.cube");
  Token name;
  Type type;
  if (!parser_.Expect('(') || !parser_.ExpectValueName(&name) || !parser_.Expect(':')) return;
  const SourceLoc type_loc = tok().loc;
  if (!parser_.ParseType(&type) || !parser_.Expect(')')) return;
  std::vector<AttrEntry> attrs;
  int64_t id = 0;
  if (tok().Is('{') && !parser_.ParseAttrDict(&attrs)) return;
  for (const AttrEntry& e : attrs) {
    if (e.key == "id" && e.value.kind == Tok::kInt) {
      id = std::stoll(std::string(e.value.text));
      continue;
    }
    return (void)parser_.Error(e.loc, what + ": attribute '" + std::string(e.key) +
                                          "' is not one it has (id)");
  }
  Instr in;
  in.code = Code::kPipe;
  in.sub = static_cast<uint8_t>(PipeOp::kSetQuant);
  in.loc = op.loc;
  in.imm = id;
  in.a = kNoSlot;
  if (!vector) {
    Value v;
    if (!parser_.UseValue(name, &v)) return;
    if (v.type.kind != TypeKind::kFloat || type.kind != TypeKind::kFloat ||
        v.type.dtype != PTO_FLOAT32 || v.type.bits == 64)
      return (void)parser_.Error(type_loc, what + " takes an f32 scale");
    in.scalar_reg = v.reg;
    in.scalar_is_float = true;
    p_->code.push_back(in);
    quant_set_.insert(id * 2);
    return;
  }
  if (type.kind != TypeKind::kTile || type.space != Space::kScaling || type.rows != 1)
    return (void)parser_.Error(type_loc, what + " takes a scaling tile of one row (loc=scaling)");
  const pto_dtype d = type.dtype;
  const bool words = d == PTO_UINT64 || d == PTO_INT64;
  const bool floats = d == PTO_FLOAT16 || d == PTO_BFLOAT16 || d == PTO_FLOAT32;
  if (!words && !(floats && p_->profile != PTO_PROFILE_A2A3))
    return (void)parser_.Error(type_loc,
                               what + ": a scaling tile of " + DtypeSpelling(d) + "; " +
                                   (p_->profile == PTO_PROFILE_A2A3
                                        ? "A2A3's holds i64 or ui64 words"
                                        : "it holds i64 or ui64 words, or f16, bf16, f32 scales"),
                               PTO_ERR_UNSUPPORTED_DTYPE);
  if (!parser_.UseTile(name, type, type_loc, Use::kRead, &in.a)) return;
  p_->code.push_back(in);
  quant_set_.insert(id * 2 + 1);
}

// A quantising push needs a pto.set_quant_* of its kind and id before it in
// the text (PTOAS's verifier: "expects a preceding pto.set_quant_vector with
// id = N").
bool CubeReader::QuantSetBefore(SourceLoc loc, const PipeDecl& pipe) {
  const PipeEpilogue& e = pipe.epilogue;
  if (!e.set || !e.quant || quant_set_.count(pipe.id * 2 + (e.vector ? 1 : 0)) != 0) return true;
  return parser_.Error(loc, std::string("pto.tpush_to_aiv: pipe ") + std::to_string(pipe.id) +
                                "'s acc_push_epilogue <" + e.text + "> expects a preceding " +
                                (e.vector ? "pto.set_quant_vector" : "pto.set_quant_scalar") +
                                " with id = " + std::to_string(pipe.id));
}

}  // namespace program
}  // namespace pto
