// The cube's tiles in programs: tmatmul, tmatmul_acc, tmatmul_bias and
// tgemv, tgemv_acc, tgemv_bias (PTOAS's pto.tgemv, pto.tgemv.acc, pto.tgemv.bias) on
// left, right, acc and bias tiles, and the moves whose tiles lie in the
// cube's memories (tmov, textract, tload, tstore), each with the rules of
// pto-isa's pages and NPU implementations and PTOAS's verifier for the
// locations, layouts and dtypes. The element arithmetic is the table's row
// (ops/matmul.cc), checked and run on the cube tiles (execute_cube.cc).
#include <string>

#include "dtype_rules.h"
#include "program/ir/types.h"
#include "program/parse/parser.h"
#include "program/parse/readers.h"

namespace pto {
namespace program {
namespace {

// tfillpad in place on mat tile `slot`: a kCubeMove of sub 2.
bool PushMatFillPad(Program* p, const ops::OpDescriptor& op, SourceLoc loc, uint32_t slot) {
  Instr in;
  in.code = Code::kCubeMove;
  in.loc = loc;
  in.op = &op;
  in.a = in.b = slot;
  in.sub = 2;
  p->code.push_back(in);
  return true;
}

std::string Where(const Type& t) {
  return std::string(SpaceSpelling(t.space)) + " " + LayoutName(t) + " tile";
}

// The (location, layout) each operand of a matrix multiply must have, or a
// sentence: a left ZZ or NZ (pto-isa's CPU model takes both encodings, and
// the samples write both on both targets), a right ZN, an acc NZ of
// 1024-byte boxes, a bias row.
bool OperandFits(const Type& t, Space space, std::string* why) {
  const char* layout = LayoutName(t);
  const std::string name = SpaceSpelling(space);
  if (t.space != space) {
    *why = "is a " + Where(t) + ", not a " + name + " tile";
    return false;
  }
  bool fits = true;
  const char* wanted = "";
  switch (space) {
    case Space::kLeft:
      fits = (t.box == Box::kRowMajor) && t.fractal == 512;
      wanted = "ZZ or NZ (slayout=row_major, fractal=512)";
      break;
    case Space::kRight:
      fits = !t.col_major && t.box == Box::kColMajor && t.fractal == 512;
      wanted = "ZN (blayout=row_major, slayout=col_major, fractal=512)";
      break;
    case Space::kAcc:
      fits = t.col_major && t.box == Box::kRowMajor && t.fractal == 1024;
      wanted = "NZ of 1024-byte boxes (blayout=col_major, slayout=row_major, fractal=1024)";
      break;
    case Space::kBias:
      fits = t.box == Box::kNone && t.rows == 1;
      wanted = "one row, slayout=none_box";
      break;
    case Space::kScaling:  // MX scales: a's ZZ, b's NN, 32-byte boxes
      fits = t.box != Box::kNone && t.fractal == 32 && t.col_major == (t.box == Box::kColMajor);
      wanted = "ZZ or NN of 32-byte boxes (fractal=32)";
      break;
    default:
      break;
  }
  if (!fits) *why = "is a " + name + " tile laid out " + layout + ", where the cube reads " + wanted;
  return fits;
}

// Why tmov between the cube's memories does not carry `dtype` under
// `profile` (pto_tmov), or "": of the low-precision types A2A3's cube moves
// the 4-bit integers only, A5's TMOV (CommonCheck) the 8-bit and 4-bit
// floats, HOST all.
std::string CubeMoveRefusal(pto_profile profile, pto_dtype dtype) {
  if (!IsLowPrecisionDtype(dtype) || profile == PTO_PROFILE_HOST ||
      (profile == PTO_PROFILE_A2A3) == (dtype == PTO_INT4X2))
    return "";
  return std::string(": the cube's moves under ") + pto_profile_string(profile) +
         " do not carry " + DtypeSpelling(dtype) +
         (profile == PTO_PROFILE_A2A3 ? " (the 8-bit and 4-bit floats are A5's)"
                                      : " (the 4-bit integers are A2A3's)");
}

}  // namespace

// A matrix multiply's {accPhase = #pto<acc_phase unspecified | partial |
// final>} (PTOAS's AccPhase, include/PTO/IR/PTOAttrs.td): the template
// argument of TMATMUL* and TGEMV* that tells the cube whether more partial
// sums follow (its unit flag, a signal between pipes), not how it sums, so
// every phase gives the same result here.
bool CubeReader::ParseAccPhase(const Token& op) {
  std::vector<AttrEntry> attrs;
  const SourceLoc at = tok().loc;
  if (!parser_.ParseAttrDict(&attrs)) return false;
  for (const AttrEntry& e : attrs)
    if (e.key != "accPhase" || (e.value.text != "#pto<acc_phase unspecified>" &&
                                e.value.text != "#pto<acc_phase partial>" &&
                                e.value.text != "#pto<acc_phase final>"))
      return parser_.Error(e.loc.line != 0 ? e.loc : at,
                           std::string(op.text) +
                               " takes no attribute but accPhase = #pto<acc_phase unspecified | "
                               "partial | final>");
  return true;
}

namespace {

// A matrix multiply's instruction: dst = a x b (+ bias, kNoSlot for none);
// an MX form's scales ride in slot[0], slot[1] (kNoSlot for the others).
void PushMatmul(Program* p, SourceLoc loc, const ops::OpDescriptor& desc, uint32_t dst,
                uint32_t a, uint32_t b, uint32_t bias, uint32_t a_scale, uint32_t b_scale,
                bool check_at_run) {
  Instr in;
  in.code = Code::kMatmul;
  in.loc = loc;
  in.op = &desc;
  in.a = dst;
  in.b = a;
  in.c = b;
  in.d = bias;
  in.slot[0] = a_scale;
  in.slot[1] = b_scale;
  in.check_at_run = check_at_run;
  p->code.push_back(in);
}

// A matrix multiply's operands each in its memory and layout: a, b (and
// a_scale, b_scale for MX, bias where given), dst an acc tile.
bool MatmulOperandsFit(Parser& parser, const Token& op, bool mx, const std::vector<uint32_t>& slots,
                       const std::vector<Token>& names, const std::vector<SourceLoc>& locs,
                       uint32_t dst, const Token& dst_name, SourceLoc dst_loc) {
  const Program& p = *parser.program();
  const Space plain_roles[] = {Space::kLeft, Space::kRight, Space::kBias};
  const char* plain_names[] = {"a", "b", "bias"};
  const Space mx_roles[] = {Space::kLeft, Space::kScaling, Space::kRight, Space::kScaling,
                            Space::kBias};
  const char* mx_names[] = {"a", "a_scale", "b", "b_scale", "bias"};
  const Space* roles = mx ? mx_roles : plain_roles;
  const char* const* role_names = mx ? mx_names : plain_names;
  std::string why;
  for (size_t i = 0; i < slots.size(); ++i)
    if (!OperandFits(p.tiles[slots[i]].type, roles[i], &why))
      return parser.Error(locs[i], std::string(op.text) + ": " + role_names[i] + " %" +
                                       std::string(names[i].text) + " " + why);
  if (!OperandFits(p.tiles[dst].type, Space::kAcc, &why))
    return parser.Error(
        dst_loc, std::string(op.text) + ": dst %" + std::string(dst_name.text) + " " + why);
  return true;
}

}  // namespace

// pto.tmatmul ins(%a, %b : L, R) outs(%c : A)
// pto.tmatmul.acc ins(%c_in, %a, %b : A, L, R) outs(%c : A)   (c_in is c)
// pto.tmatmul.bias ins(%a, %b, %bias : L, R, B) outs(%c : A)
// and pto.tgemv, pto.tgemv.acc, pto.tgemv.bias alike.
void CubeReader::ParseMatmul(const Token& op, const ops::OpDescriptor& desc) {
  const bool mx = desc.source_count >= 4;  // (a, a_scale, b, b_scale[, bias])
  const bool acc = ops::HasTrait(desc, PTO_TRAIT_ReadsDst);  // the accumulator in ins( ) too
  const bool gemv = ops::HasTrait(desc, PTO_TRAIT_Gemv);
  const bool bias = desc.source_count == 3 || desc.source_count == 5;
  if (!tok().IsIdent("ins"))
    return (void)parser_.Error(
        op.loc, std::string(op.text) + " is written pto." + desc.mnemonic + " ins(...) outs(...)");
  parser_.Advance();
  std::vector<Token> names;
  if (!parser_.Expect('(')) return;
  parser_.ParseValueNames(&names);
  std::vector<Type> types;
  std::vector<SourceLoc> locs;
  if (!parser_.Expect(':') || !parser_.ParseTypes(names.size(), &types, &locs)) return;
  const size_t want = desc.source_count + (acc ? 1 : 0);
  if (names.size() != want)
    return (void)parser_.Error(op.loc, std::string(op.text) + " takes " + std::to_string(want) +
                                           (acc ? (mx ? " inputs (the accumulator, a, a_scale, b, b_scale)"
                                                     : " inputs (the accumulator, a, b)")
                                                : " inputs") +
                                           ", not " + std::to_string(names.size()));
  Token dst_name;
  Type dst_type;
  SourceLoc dst_loc;
  if (!parser_.ParseOuts(&dst_name, &dst_type, &dst_loc)) return;
  if (tok().Is('{') && !ParseAccPhase(op)) return;
  std::vector<uint32_t> slots(names.size());
  for (size_t i = 0; i < names.size(); ++i)
    if (!parser_.UseTile(names[i], types[i], locs[i], Use::kRead, &slots[i])) return;
  uint32_t dst;
  if (!parser_.UseTile(dst_name, dst_type, dst_loc, Use::kWrite, &dst)) return;
  if (acc) {
    // Both NPU implementations accumulate into the output's own bytes and
    // never read c_in: the text must name the same tile.
    if (slots[0] != dst)
      return (void)parser_.Error(locs[0],
                                 std::string(op.text) +
                                     " accumulates into its output: the accumulator %" +
                                     std::string(names[0].text) + " must be the outs tile %" +
                                     std::string(dst_name.text));
    slots.erase(slots.begin());
    names.erase(names.begin());
    locs.erase(locs.begin());
    if (p_->tiles[dst].param >= 0) p_->params[p_->tiles[dst].param].access |= PTO_PARAM_READ;
  }
  if (!MatmulOperandsFit(parser_, op, mx, slots, names, locs, dst, dst_name, dst_loc)) return;
  if (mx && p_->profile == PTO_PROFILE_A2A3)
    return (void)parser_.Error(op.loc, std::string(op.text) +
                                           " is A5's (pto-isa TMATMUL_MX.md): A2A3 has no MX "
                                           "matrix multiply",
                               PTO_ERR_UNSUPPORTED_DTYPE);
  if (mx) {
    // Operands (a, a_scale, b, b_scale[, bias]): the bias in d as the plain
    // bias form's.
    bool dynamic = p_->tiles[dst].type.HasDynamicValid();
    for (uint32_t s : slots) dynamic = dynamic || p_->tiles[s].type.HasDynamicValid();
    return PushMatmul(p_, op.loc, desc, dst, slots[0], slots[2], bias ? slots[4] : kNoSlot,
                      slots[1], slots[3], dynamic);
  }
  const Type& a = p_->tiles[slots[0]].type;
  const Type& b = p_->tiles[slots[1]].type;
  const Type& c = p_->tiles[dst].type;
  // The NPU implementations' static shapes: A [M, K], B [K, N], C [M, N]
  // (GEMV's are free: its rules are on the valid shapes, ops/matmul.cc).
  if (p_->profile != PTO_PROFILE_HOST && !gemv &&
      (a.rows != c.rows || a.cols != b.rows || b.cols != c.cols))
    return (void)parser_.Error(op.loc,
                               std::string(op.text) + ": under " + pto_profile_string(p_->profile) +
                                   " the tiles are A [M, K], B [K, N], C [M, N]; here a is " +
                                   std::to_string(a.rows) + "x" + std::to_string(a.cols) + ", b " +
                                   std::to_string(b.rows) + "x" + std::to_string(b.cols) + ", c " +
                                   std::to_string(c.rows) + "x" + std::to_string(c.cols),
                               PTO_ERR_SHAPE_MISMATCH);
  PushMatmul(p_, op.loc, desc, dst, slots[0], slots[1], bias ? slots[2] : kNoSlot, kNoSlot, kNoSlot,
             a.HasDynamicValid() || b.HasDynamicValid() || c.HasDynamicValid() ||
                 (bias && p_->tiles[slots[2]].type.HasDynamicValid()));
}

// pto.tget_scale_addr ins(%src : L|R) outs(%scale : S) (pto-isa
// TGET_SCALE_ADDR.md: on A5 the scale tile's address is src's address >>
// SHIFT_MX_ADDR, 4, in the memory of the MX scales). It binds a left tile's
// scales (a ZZ scaling tile) or a right tile's (NN) to it. PTOAS's lowering
// moves it before the tmov that fills the scale tile
// (PTOA5NormalizeTMovPass), so the tmov writes the bound place; here each
// scale tile keeps bytes of its own in the scaling memory all along, which
// gives that result in either order: the instruction is checked and moves
// nothing.
void CubeReader::ParseGetScaleAddr(const Token& op) {
  const std::string what(op.text);
  if (!tok().IsIdent("ins"))
    return (void)parser_.Error(op.loc, what + " is written " + what + " ins(%src : T) outs(%scale : S)");
  parser_.Advance();
  std::vector<Token> names;
  if (!parser_.Expect('(')) return;
  parser_.ParseValueNames(&names);
  std::vector<Type> types;
  std::vector<SourceLoc> locs;
  if (!parser_.Expect(':') || !parser_.ParseTypes(names.size(), &types, &locs)) return;
  if (names.size() != 1)
    return (void)parser_.Error(op.loc, what + " takes one input, not " + std::to_string(names.size()));
  Token dst_name;
  Type dst_type;
  SourceLoc dst_loc;
  if (!parser_.ParseOuts(&dst_name, &dst_type, &dst_loc)) return;
  uint32_t src, dst;
  if (!parser_.UseTile(names[0], types[0], locs[0], Use::kRead, &src) ||
      !parser_.UseTile(dst_name, dst_type, dst_loc, Use::kRead, &dst))
    return;
  if (p_->profile == PTO_PROFILE_A2A3)
    return (void)parser_.Error(op.loc, what + " is A5's (no A2A3 implementation: pto-isa "
                                              "TGET_SCALE_ADDR.md)",
                               PTO_ERR_UNSUPPORTED_DTYPE);
  const Type& s = p_->tiles[src].type;
  const Type& d = p_->tiles[dst].type;
  if (s.space != Space::kLeft && s.space != Space::kRight)
    return (void)parser_.Error(locs[0], what + ": src %" + std::string(names[0].text) + " is a " +
                                            Where(s) + ", not a left or right tile");
  std::string why;
  if (!OperandFits(d, Space::kScaling, &why) || d.dtype != PTO_FLOAT8_E8M0)
    return (void)parser_.Error(dst_loc, what + ": %" + std::string(dst_name.text) +
                                            (why.empty() ? " is not an e8m0 scale tile" : " " + why));
  // A left tile's scales are ZZ (row-major boxes), a right tile's NN.
  const bool want_zz = s.space == Space::kLeft;
  if (d.col_major == want_zz)
    return (void)parser_.Error(dst_loc, what + ": the scales of a " + SpaceSpelling(s.space) +
                                            " tile are laid out " + (want_zz ? "ZZ" : "NN") +
                                            ", not " + LayoutName(d));
}

namespace {

// A cube move's rules per target (pto-isa TMOV.md's implementation
// checks): A2A3 moves acc to mat only (acc to vec is A5's), with equal
// shapes on both sides; a bias row is 64-byte aligned in length, at most
// 4 KiB on A5.
bool CubeMoveFitsTarget(Parser& parser, pto_profile profile, const std::string& what,
                        SourceLoc loc, bool extract, const Type& s, const Type& d) {
  if (profile == PTO_PROFILE_A2A3 && !extract && s.space == Space::kAcc && d.space == Space::kVec)
    return parser.Error(loc, what +
                                 ": A2A3 moves an acc tile to mat only (acc to vec is A5's); "
                                 "store it to global memory and load it into the unified buffer");
  if (profile == PTO_PROFILE_A2A3 && !extract && (s.rows != d.rows || s.cols != d.cols))
    return parser.Error(loc,
                        what + ": under A2A3 src " + std::to_string(s.rows) + "x" +
                            std::to_string(s.cols) + " and dst " + std::to_string(d.rows) + "x" +
                            std::to_string(d.cols) + " must have the same shape",
                        PTO_ERR_SHAPE_MISMATCH);
  if (profile != PTO_PROFILE_HOST && d.space == Space::kBias) {
    const uint64_t bytes = uint64_t{d.cols} * pto_dtype_size(d.dtype);
    if (s.rows != 1 || bytes % 64 != 0 || (profile == PTO_PROFILE_A5 && bytes > 4096))
      return parser.Error(loc,
                          what +
                              ": a bias row moves from a one-row mat tile and is a multiple of "
                              "64 bytes long" +
                              std::string(profile == PTO_PROFILE_A5 ? ", at most 4096" : "") +
                              " under " + pto_profile_string(profile) + "; here " +
                              std::to_string(s.rows) + " row(s), " + std::to_string(bytes) +
                              " bytes",
                          PTO_ERR_SHAPE_MISMATCH);
  }
  return true;
}

}  // namespace

// tmov and textract with a cube tile on either side: a move that keeps each
// element's (row, column) and lays it out as dst's layout says (pto-isa
// TMOV.md and TEXTRACT.md; the moves PTOAS's TMovOp allows: mat to left,
// right or bias, acc to vec or mat).
bool CubeReader::EmitCubeMove(const ops::OpDescriptor& op, SourceLoc loc, uint32_t src,
                              uint32_t dst, const Instr& offsets) {
  const Type& s = p_->tiles[src].type;
  const Type& d = p_->tiles[dst].type;
  const bool extract = ops::IndexCount(op.attr) == 2;
  const std::string what = std::string("pto.") + op.mnemonic;
  if (ops::HasTrait(op, PTO_TRAIT_WritesPart)) return EmitCubeInsert(loc, src, dst, offsets);
  // tfillpad in place on a mat tile (PTOAS's samples pad a right operand's
  // mat tile after its tload): the elements outside the valid region get
  // the tile's pad value, in its layout.
  if (ops::HasTrait(op, PTO_TRAIT_PadsMat) && src == dst && s.space == Space::kMat)
    return PushMatFillPad(p_, op, loc, dst);
  if (!ops::HasTrait(op, PTO_TRAIT_CubeMove))
    return parser_.Error(loc,
                         what + " runs on vec tiles; " + (s.IsCube() && op.source_count > 0 ? "src" : "dst") +
                             " is a " + Where(s.IsCube() ? s : d) +
                             " (the cube's tiles take tmov, textract, tload, tstore and tmatmul)");
  const bool mat_to_l0 = s.space == Space::kMat && (d.space == Space::kLeft || d.space == Space::kRight);
  const bool repack = s.space == Space::kVec && d.space == Space::kVec;
  const bool from_vec =
      !extract && s.space == Space::kVec && (d.space == Space::kMat || d.space == Space::kScaling);
  if ((repack || from_vec) && !CheckVecRepack(what, loc, extract, s, d)) return false;
  const bool allowed = extract ? mat_to_l0
                               : mat_to_l0 || repack || from_vec ||
                                     (s.space == Space::kMat && d.space == Space::kBias) ||
                                     (s.space == Space::kMat && d.space == Space::kScaling) ||
                                     (s.space == Space::kAcc &&
                                      (d.space == Space::kVec || d.space == Space::kMat));
  if (!allowed)
    return parser_.Error(
        loc, what + " from a " + Where(s) + " to a " + Where(d) + " is not a move the cube has (" +
                 (extract ? "textract: mat to left or right"
                          : "tmov: mat to left, right, bias or scaling; acc to vec or mat; "
                            "vec to vec NZ or ZN, mat or scaling") +
                 ")");
  const pto_profile profile = p_->profile;
  if (!CubeMoveFitsTarget(parser_, profile, what, loc, extract, s, d)) return false;
  // acc f32 to f16 / bf16: the fixpipe's cast (TMOV's F322F16, F322BF16).
  const bool cast = !extract && s.space == Space::kAcc && s.dtype == PTO_FLOAT32 &&
                    (d.dtype == PTO_FLOAT16 || d.dtype == PTO_BFLOAT16);
  // mat f16 (every target) or bf16 (A5, HOST) to an f32 bias row: the bias
  // table's widening (a2a3/ and a5/TMov.hpp TMovToBt), each value exact.
  const bool widen = !extract && s.space == Space::kMat && d.space == Space::kBias &&
                     d.dtype == PTO_FLOAT32 &&
                     (s.dtype == PTO_FLOAT16 ||
                      (s.dtype == PTO_BFLOAT16 && profile != PTO_PROFILE_A2A3));
  if (s.dtype != d.dtype && !cast && !widen)
    return parser_.Error(loc,
                         what + ": src is " + DtypeSpelling(s.dtype) + " and dst " +
                             DtypeSpelling(d.dtype) +
                             "; the cube's moves keep the dtype but an acc tile's f32 to f16 or "
                             "bf16 (the fixpipe's cast; other conversions take an fp operand) "
                             "and a mat f16 row (bf16 under A5) to an f32 bias row",
                         PTO_ERR_DTYPE_MISMATCH);
  // The low-precision types, as pto_tmov takes them.
  const std::string carried = extract ? "" : CubeMoveRefusal(profile, d.dtype);
  if (!carried.empty()) return parser_.Error(loc, what + carried, PTO_ERR_UNSUPPORTED_DTYPE);
  if (d.space == Space::kLeft || d.space == Space::kRight) {
    std::string why;
    if (!OperandFits(d, d.space, &why)) return parser_.Error(loc, what + ": dst " + why);
  }
  if (!extract && mat_to_l0 && (s.rows != d.rows || s.cols != d.cols))
    return parser_.Error(loc,
                         what + ": src " + std::to_string(s.rows) + "x" + std::to_string(s.cols) +
                             " and dst " + std::to_string(d.rows) + "x" + std::to_string(d.cols) +
                             " differ; tmov to left or right moves a whole tile (textract takes a "
                             "window)",
                         PTO_ERR_SHAPE_MISMATCH);
  // An NZ+1 dst (compact=2) holds src's rows and a gap row per column strip.
  const uint32_t d_rows = d.compact == 2 && d.box != Box::kNone ? d.rows - 1 : d.rows;
  if (!extract && (s.rows < d_rows || s.cols < d.cols))
    return parser_.Error(loc,
                         what + ": dst " + std::to_string(d.rows) + "x" + std::to_string(d.cols) +
                             " is larger than src " + std::to_string(s.rows) + "x" +
                             std::to_string(s.cols),
                         PTO_ERR_SHAPE_MISMATCH);
  if (extract && s.box == Box::kNone && s.rows != 1)  // one ND row: a one-row NZ one's bytes
    return parser_.Error(loc, what + ": src is a " + Where(s) +
                                  "; textract reads NZ or ZN mat tiles (or one row)");
  Instr in;
  in.code = Code::kCubeMove;
  in.loc = loc;
  in.op = &op;
  in.a = dst;
  in.b = src;
  in.sub = extract ? 1 : 0;
  in.imm = cast ? 1 : widen ? 2 : 0;
  in.index_regs[0] = offsets.index_regs[0];
  in.index_regs[1] = offsets.index_regs[1];
  p_->code.push_back(in);
  return true;
}

// tmov of a vec tile into a boxed vec, mat or scaling tile (pto_tmov's
// rules). Between vec tiles (one of them boxed): A5's TMOV repacks a
// row-major tile into NZ or ZN in the unified buffer, for the cube (pto-isa
// TMOV.md, a5/TMov.hpp TMovToVecNd2Nz and TMovNdTo2Zn); no other. Into the
// cube tile such a repack feeds (TMOV.md ND -> NZ, ND -> ZN into a mat
// tile, ND -> ZZ for MX scales): A2A3 has none; A5 repacks into a mat NZ or
// ZN tile or a scaling ZZ tile, the latter of bytes (TMovNdTo2Zz's
// CommonCheckZZ: ui8, e8m0, hif8); HOST takes every layout.
bool CubeReader::CheckVecRepack(const std::string& what, SourceLoc loc, bool extract,
                                const Type& s, const Type& d) {
  const std::string to = LayoutName(d);
  if (d.space == Space::kVec) {
    if (extract || !IsRowMajor(s) || (to != "NZ" && to != "ZN"))
      return parser_.Error(loc, what +
                                    " between vec tiles with a boxed one is tmov's repack of a "
                                    "row-major (ND) tile into NZ or ZN (A5's TMOV); here " +
                                    LayoutName(s) + " to " + to);
    if (p_->profile == PTO_PROFILE_A2A3)
      return parser_.Error(loc, what + ": the repack of a vec tile into " + to +
                                    " is A5's TMOV (A2A3's moves a vec tile as it is)");
    return true;
  }
  if (p_->profile == PTO_PROFILE_A2A3)
    return parser_.Error(loc, what + ": A2A3 has no vec repack into the cube's layouts (vec to " +
                                  SpaceSpelling(d.space) + " is A5's)");
  if (p_->profile != PTO_PROFILE_A5) return true;
  const bool to_mat = d.space == Space::kMat;
  if (to_mat ? (to != "NZ" && to != "ZN") : to != "ZZ")
    return parser_.Error(loc, what + ": under A5 a vec tile repacks into a mat NZ or ZN tile or a "
                                     "scaling ZZ tile, not a " +
                                  Where(d));
  if (!to_mat && s.dtype == d.dtype && d.dtype != PTO_UINT8 && d.dtype != PTO_FLOAT8_E8M0 &&
      d.dtype != PTO_HIFLOAT8)
    return parser_.Error(loc,
                         what + ": under A5 the repack into a scaling ZZ tile takes ui8, "
                                "!pto.f8E8M0 or !pto.hif8, not " +
                             DtypeSpelling(d.dtype),
                         PTO_ERR_UNSUPPORTED_DTYPE);
  return true;
}

// tinsert of an acc tile into an NZ mat tile, the fixpipe's plain form
// (pto-isa TINSERT.md): dst(row + i, col + j) = src(i, j) over src's valid
// region, the dtype kept (A5: f32, i32) or f32 cast to f16 or bf16 (both
// targets; A2A3 has the casts only); the window's bounds are checked when
// it runs. The other forms (acc to vec, vec to mat) are refused.
bool CubeReader::EmitCubeInsert(SourceLoc loc, uint32_t src, uint32_t dst, const Instr& offsets) {
  const Type& s = p_->tiles[src].type;
  const Type& d = p_->tiles[dst].type;
  const std::string what = "pto.tinsert";
  if (s.space != Space::kAcc || d.space != Space::kMat || std::string(LayoutName(d)) != "NZ")
    return parser_.Error(loc, what + " from " + (s.space == Space::kAcc ? "an " : "a ") +
                                  Where(s) + " to " + (d.space == Space::kAcc ? "an " : "a ") +
                                  Where(d) +
                                  ": into the cube's memories it takes an acc tile into an NZ mat "
                                  "tile (the fixpipe's form; acc to vec and vec to mat are not "
                                  "implemented), else a vec tile into a vec tile");
  const bool cast = s.dtype == PTO_FLOAT32 && (d.dtype == PTO_FLOAT16 || d.dtype == PTO_BFLOAT16);
  const bool keep = s.dtype == d.dtype && (s.dtype == PTO_FLOAT32 || s.dtype == PTO_INT32);
  if (!cast && !(keep && p_->profile != PTO_PROFILE_A2A3))
    return parser_.Error(loc,
                         what + ": an acc tile of " + DtypeSpelling(s.dtype) + " is not inserted " +
                             "into a mat tile of " + DtypeSpelling(d.dtype) + " under " +
                             pto_profile_string(p_->profile) +
                             " (f32 to f16 or bf16; A5 also f32 to f32 and i32 to i32; the "
                             "quantising forms take an fp operand)",
                         PTO_ERR_DTYPE_MISMATCH);
  Instr in;
  in.code = Code::kCubeMove;
  in.loc = loc;
  in.a = dst;
  in.b = src;
  in.sub = 3;
  in.imm = cast ? 1 : 0;
  in.index_regs[0] = offsets.index_regs[0];
  in.index_regs[1] = offsets.index_regs[1];
  p_->code.push_back(in);
  return true;
}

// tload into a mat tile (GM to L1 in any of its layouts: ND to NZ, DN to ZN,
// ND rows for a bias) and tstore from an acc tile (the fixpipe: NZ to ND,
// FLOAT32 to FLOAT32, FLOAT16 or BFLOAT16, INT32 to INT32; atomic add) or
// from a mat tile (A2A3 only: A5 has no store from L1), per pto-isa's
// TLOAD.md and TSTORE.md. Other memories are reached through tmov.
bool CubeReader::CheckCubeTransfer(const Token& op, bool load, uint32_t slot, pto_dtype view_dtype,
                                   bool atomic_add) {
  const Type& t = p_->tiles[slot].type;
  const std::string what(op.text);
  if (load) {
    if (t.IsCube() && t.space != Space::kMat && t.space != Space::kScaling)
      return parser_.Error(op.loc, what + " loads into vec, mat or scaling tiles; %" +
                                       p_->tiles[slot].name +
                                       " is a " + Where(t) +
                                       " (tmov or textract fills it from a mat tile)");
    if (view_dtype != t.dtype)
      return parser_.Error(op.loc,
                           what + ": view element type " + std::string(DtypeSpelling(view_dtype)) +
                               " differs from the tile's " + DtypeSpelling(t.dtype),
                           PTO_ERR_DTYPE_MISMATCH);
    return true;
  }
  const bool from_acc = t.space == Space::kAcc;
  if (t.IsCube() && !from_acc && t.space != Space::kMat)
    return parser_.Error(op.loc, what + " stores vec, acc or mat tiles; %" + p_->tiles[slot].name +
                                     " is a " + Where(t));
  if (t.space == Space::kMat && p_->profile == PTO_PROFILE_A5)
    return parser_.Error(op.loc,
                         what + ": A5 has no store from a mat tile (L1); tmov it to acc or vec");
  const bool cast_ok =
      view_dtype == t.dtype ||
      (from_acc && t.dtype == PTO_FLOAT32 &&
       (view_dtype == PTO_FLOAT16 || view_dtype == PTO_BFLOAT16));
  if (!cast_ok)
    return parser_.Error(op.loc,
                         what + ": a " + (t.IsCube() ? Where(t) : std::string("vec tile")) +
                             " of " + DtypeSpelling(t.dtype) + " is not stored to " +
                             DtypeSpelling(view_dtype) +
                             (from_acc ? " (an acc tile stores f32 to f32, f16 or bf16, i32 to i32)"
                                       : " (the dtypes must be equal)"),
                         PTO_ERR_DTYPE_MISMATCH);
  if (atomic_add && !from_acc)
    return parser_.Error(op.loc, what + ": atomicType = atomic_add stores from an acc tile only");
  if (from_acc && (t.valid_cols > 4095 || t.valid_cols == 0))
    return parser_.Error(op.loc,
                         what + ": an acc tile's store has 1 to 4095 valid columns, not " +
                             std::to_string(t.valid_cols),
                         PTO_ERR_SHAPE_MISMATCH);
  return true;
}

}  // namespace program
}  // namespace pto
