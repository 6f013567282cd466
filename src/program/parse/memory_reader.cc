// PTO assembly: global-memory views (make_tensor_view, partition_view) and
// tload/tstore; the tiles' allocation, valid shapes and placement are
// memory_reader_tiles.cc's.
#include <stdlib.h>

#include <string>
#include <vector>

#include "board.h"
#include "dtype_rules.h"
#include "program/ir/cube.h"
#include "program/parse/parser.h"
#include "program/parse/readers.h"

namespace pto {
namespace program {

// `name = [%a, %b, ...]`: integer operands into Program::lists; with
// literals, an entry may also be an integer (PTOAS's older pto.subview of a
// view writes its sizes so), given a constant register here.
bool MemoryReader::ParseIndexList(std::string_view key, std::vector<Value>* out, bool literals) {
  if (!parser_.ExpectIdent(key) || !parser_.Expect('=') || !parser_.Expect('[')) return false;
  while (parser_.ok() && !tok().Is(']')) {
    Value v;
    if (literals && tok().kind == Tok::kInt) {
      const std::string s(tok().text);
      char* end = nullptr;
      const long long n = strtoll(s.c_str(), &end, 0);
      if (n < 0 || n > (1ll << 40))
        return parser_.Error(tok().loc, std::string(key) + " entry " + s + " is out of range");
      v = parser_.ConstIndex(n, tok().loc);
      parser_.Advance();
    } else if (!parser_.ParseIntOperand(&v, std::string(key).c_str())) {
      return false;
    }
    out->push_back(v);
    if (!tok().Is(',')) break;
    parser_.Advance();
  }
  return parser_.Expect(']');
}

bool MemoryReader::SkipLayoutAttr() {
  if (!tok().Is('{')) return true;
  std::vector<AttrEntry> attrs;
  if (!parser_.ParseAttrDict(&attrs)) return false;
  for (const AttrEntry& e : attrs) {
    // The strides place every element, so the layout only names what they
    // say: nd (row-major) or dn (column-major, e.g. an [R,1] column with
    // strides [1, R]); a view is read and written through its strides.
    if (e.key == "layout" &&
        (e.value.text == "#pto.layout<nd>" || e.value.text == "#pto.layout<dn>"))
      continue;
    if (e.key == "layout")
      return parser_.Error(e.loc, "layout " + std::string(e.value.text) +
                                      " is not supported: views are #pto.layout<nd> or <dn>, their "
                                      "strides placing each element");
    return parser_.Error(e.loc, "unknown attribute '" + std::string(e.key) + "'");
  }
  return true;
}

// PTOAS's older spelling of a view type by its rank, !pto.tensor_view<NxT>
// (N the rank, no dims): a rank-1 type whose one dim is the rank the
// operands give (2 or more) is read as that rank with every dim `?`.
static void ReadRankSpelling(Type* t, size_t rank) {
  if (t->kind != TypeKind::kTensorView || t->rank != 1 || rank < 2 || rank > kMaxRank ||
      t->dims[0] != static_cast<int64_t>(rank))
    return;
  t->rank = static_cast<uint8_t>(rank);
  for (size_t i = 0; i < rank; ++i) t->dims[i] = kDynamic;
}

void MemoryReader::ParseMakeView(const Token& op, const Token& result) {
  Token ptr_name;
  if (!parser_.ExpectValueName(&ptr_name)) return;
  Value* ptr = parser_.Lookup(ptr_name.text);
  if (ptr == nullptr)
    return (void)parser_.Error(ptr_name.loc, "%" + std::string(ptr_name.text) + " is not defined");
  if (ptr->type.kind != TypeKind::kPtr)
    return (void)parser_.Error(
        ptr_name.loc, "pto.make_tensor_view needs a !pto.ptr, not " + TypeString(ptr->type));
  const Value pointer = *ptr;
  std::vector<Value> shape, strides;
  if (!parser_.Expect(',') || !ParseIndexList("shape", &shape)) return;
  // PTOAS prints a comma before strides; the generated kernels of
  // pto-kernels leave it out.
  if (tok().Is(',')) parser_.Advance();
  if (!ParseIndexList("strides", &strides) || !SkipLayoutAttr() || !parser_.Expect(':')) return;
  const SourceLoc type_loc = tok().loc;
  Type t;
  if (!parser_.ParseType(&t)) return;
  ReadRankSpelling(&t, shape.size());
  if (t.kind != TypeKind::kTensorView)
    return (void)parser_.Error(type_loc, "pto.make_tensor_view gives a !pto.tensor_view");
  if (t.dtype != pointer.type.dtype)
    return (void)parser_.Error(type_loc,
                               std::string("view element type ") + DtypeSpelling(t.dtype) +
                                   " differs from the pointer's " +
                                   DtypeSpelling(pointer.type.dtype),
                               PTO_ERR_DTYPE_MISMATCH);
  if (shape.size() != t.rank || strides.size() != t.rank)
    return (void)parser_.Error(op.loc, "a rank-" + std::to_string(t.rank) + " view needs " +
                                           std::to_string(t.rank) + " shape and stride operands");
  for (int i = 0; i < t.rank; ++i) {
    if (!TakeDim(op.loc, "shape operand " + std::to_string(i), shape[i], &t.dims[i])) return;
    if (shape[i].is_const && shape[i].const_value < 0)
      return (void)parser_.Error(op.loc, "shape operand " + std::to_string(i) + " is negative");
    if (strides[i].is_const && strides[i].const_value < 0)
      return (void)parser_.Error(op.loc,
                                 "stride " + std::to_string(i) + " is negative: views run forward");
  }
  view_ptr_[EmitView(Code::kMakeView, op.loc, pointer.reg, t, shape, strides, result)] =
      pointer.reg;
}

// An entry parameter written as a memref in global memory (PTOAS's older
// form): an array of the memref's shape, row-major and contiguous, bound as
// a pointer parameter, and the name a view of it whole.
bool MemoryReader::BindMemref(const Token& name, const Type& t) {
  Type ptr;
  ptr.kind = TypeKind::kPtr;
  ptr.dtype = t.dtype;
  const uint32_t pointer = p_->pointer_count++;
  p_->pointer_root.push_back(pointer);
  parser_.AddParam(name.text, PTO_PARAM_POINTER, ptr, pointer);
  std::vector<Value> shape(t.rank), strides(t.rank);
  int64_t stride = 1;
  for (int i = t.rank - 1; i >= 0; --i) {
    shape[i] = parser_.ConstIndex(t.dims[i], name.loc);
    strides[i] = parser_.ConstIndex(stride, name.loc);
    stride *= t.dims[i];
  }
  view_ptr_[EmitView(Code::kMakeView, name.loc, pointer, t, shape, strides, name)] = pointer;
  p_->code.back().sub = 1;  // its run-time messages name the memref parameter
  return parser_.ok();
}

void MemoryReader::ParsePartitionView(const Token& op, const Token& result) {
  Token src_name;
  if (!parser_.ExpectValueName(&src_name)) return;
  Value* src = parser_.Lookup(src_name.text);
  if (src == nullptr)
    return (void)parser_.Error(src_name.loc, "%" + std::string(src_name.text) + " is not defined");
  if (src->type.kind != TypeKind::kTensorView && src->type.kind != TypeKind::kPartitionView)
    return (void)parser_.Error(src_name.loc,
                               "pto.partition_view needs a view, not " + TypeString(src->type));
  const Value source = *src;
  std::vector<Value> offsets, sizes;
  const bool older = op.text == "pto.subview";
  if (!parser_.Expect(',') || !ParseIndexList("offsets", &offsets, older) || !parser_.Expect(',') ||
      !ParseIndexList("sizes", &sizes, older) || !parser_.Expect(':'))
    return;
  const SourceLoc type_loc = tok().loc;
  Type from, to;
  if (!parser_.ParseType(&from)) return;
  ReadRankSpelling(&from, source.type.rank);
  const SourceLoc to_loc = tok().loc;
  if (tok().kind == Tok::kArrow) {
    if (!parser_.ExpectArrow() || !parser_.ParseType(&to)) return;
  } else {
    // No `-> U`: PTOAS infers the partition from the sizes, each dim the
    // constant size or `?` (TakeDim below sets the constant ones).
    to = from;
    to.kind = TypeKind::kPartitionView;
    for (int i = 0; i < kMaxRank; ++i) to.dims[i] = kDynamic;
  }
  if (from.kind != source.type.kind || from.dtype != source.type.dtype ||
      from.rank != source.type.rank)
    return (void)parser_.Error(type_loc, "%" + std::string(src_name.text) + " is " +
                                             TypeString(source.type) + ", written as " +
                                             TypeString(from));
  // The partition may add leading dimensions of 1 (pto-kernels' generated
  // kernels take a [1, N] partition of a rank-1 view): the offsets and
  // sizes are the source's, the result's leading dims 1.
  int leading = to.rank - from.rank;
  for (int i = 0; i < leading; ++i)
    if (to.dims[i] != 1) leading = -1;
  if (to.kind != TypeKind::kPartitionView || to.dtype != from.dtype || leading < 0)
    return (void)parser_.Error(
        to_loc,
        "pto.partition_view gives a !pto.partition_tensor_view of the same rank and element type "
        "(or with leading dimensions of 1 added)");
  if (offsets.size() != from.rank || sizes.size() != from.rank)
    return (void)parser_.Error(op.loc, "a rank-" + std::to_string(from.rank) + " partition needs " +
                                           std::to_string(from.rank) + " offsets and sizes");
  for (int i = 0; i < from.rank; ++i) {
    if (!TakeDim(op.loc, "size " + std::to_string(i), sizes[i], &to.dims[leading + i])) return;
    // Outside the parent view: refused now where every number is known,
    // except in board mode under A2A3 and A5, where the run checks the
    // window against the bound memory instead (and warns).
    const int64_t parent = source.type.dims[i];
    if (offsets[i].is_const && sizes[i].is_const && parent != kDynamic &&
        !BoardRelaxes(p_->profile) &&
        (offsets[i].const_value < 0 || sizes[i].const_value < 0 ||
         offsets[i].const_value > parent - sizes[i].const_value))
      return (void)parser_.Error(op.loc,
                                 "partition [" + std::to_string(offsets[i].const_value) + ", " +
                                     std::to_string(offsets[i].const_value + sizes[i].const_value) +
                                     ") of dimension " + std::to_string(i) +
                                     " is outside the view's " + std::to_string(parent),
                                 PTO_ERR_OUT_OF_RANGE);
  }
  const uint32_t view = EmitView(Code::kPartView, op.loc, source.reg, to, offsets, sizes, result);
  p_->code.back().rank = from.rank;
  p_->code.back().sub = static_cast<uint8_t>(leading);
  view_ptr_[view] = view_ptr_[source.reg];
}

// A view type's dimension and the operand that gives it (`what`, for the
// message): a constant operand must equal a static dimension and sets a
// dynamic (`?`) one.
bool MemoryReader::TakeDim(SourceLoc loc, const std::string& what, const Value& given,
                           int64_t* dim) {
  if (!given.is_const) return true;
  if (*dim == kDynamic) {
    *dim = given.const_value;
    return true;
  }
  if (given.const_value == *dim) return true;
  return parser_.Error(loc, what + " is " + std::to_string(given.const_value) +
                                ", but the type says " + std::to_string(*dim));
}

// A view instruction (kMakeView: pointer `from` with its shape and strides;
// kPartView: view `from` at offsets with sizes) into a new view register,
// defined as result. Returns the register.
uint32_t MemoryReader::EmitView(Code code, SourceLoc loc, uint32_t from, const Type& type,
                                const std::vector<Value>& first, const std::vector<Value>& second,
                                const Token& result) {
  Instr in;
  in.code = code;
  in.loc = loc;
  in.b = from;
  in.rank = type.rank;
  in.extra = static_cast<uint32_t>(p_->lists.size());
  for (const Value& v : first) p_->lists.push_back(v.reg);
  for (const Value& v : second) p_->lists.push_back(v.reg);
  Value v;
  v.type = type;
  v.reg = in.a = p_->view_regs++;
  p_->code.push_back(in);
  parser_.Define(result, v);
  return v.reg;
}

// ins(%x : T) outs(%y : T)
bool MemoryReader::ParseOneInOneOut(Token* in_name, Type* in_type, SourceLoc* in_loc,
                                    Token* out_name, Type* out_type, SourceLoc* out_loc,
                                    Token* fp_name, Type* fp_type, SourceLoc* fp_loc) {
  if (!parser_.ExpectIdent("ins") || !parser_.Expect('(') || !parser_.ExpectValueName(in_name) ||
      !parser_.Expect(':'))
    return false;
  *in_loc = tok().loc;
  if (!parser_.ParseType(in_type)) return false;
  // tstore's `fp %fp : T` (TSTORE_FP: the fixpipe's quantisation).
  if (fp_name != nullptr && tok().IsIdent("fp")) {
    parser_.Advance();
    if (!parser_.ExpectValueName(fp_name) || !parser_.Expect(':')) return false;
    *fp_loc = tok().loc;
    if (!parser_.ParseType(fp_type)) return false;
  }
  if (!parser_.Expect(')') || !parser_.ExpectIdent("outs") ||
      !parser_.Expect('(') || !parser_.ExpectValueName(out_name) || !parser_.Expect(':'))
    return false;
  *out_loc = tok().loc;
  return parser_.ParseType(out_type) && parser_.Expect(')');
}

// tload / tstore's attributes: tstore's atomicType (PTOAS: #pto<atomic_type
// atomic_add>, or atomic_none, the default) and reluPreMode (TSTORE's
// ReluPreMode: #pto<relu_pre_mode normal_relu>, or no_relu, the default);
// layout = #pto.layout<nd>, the global tensor's layout PTOAS declares,
// which names what the view's strides (row-major ones for a memref) say:
// elements are placed by the strides.
bool MemoryReader::ParseTransferAttrs(const Token& op, bool load, bool* atomic_add, bool* relu) {
  if (!tok().Is('{')) return true;
  std::vector<AttrEntry> attrs;
  const SourceLoc at = tok().loc;
  if (!parser_.ParseAttrDict(&attrs)) return false;
  for (const AttrEntry& e : attrs) {
    if (e.key == "layout" && e.value.text == "#pto.layout<nd>") continue;
    if (!load && e.key == "reluPreMode" && (e.value.text == "#pto<relu_pre_mode normal_relu>" ||
                                            e.value.text == "#pto<relu_pre_mode no_relu>")) {
      *relu = e.value.text == "#pto<relu_pre_mode normal_relu>";
      continue;
    }
    if (load || e.key != "atomicType" ||
        (e.value.text != "#pto<atomic_type atomic_add>" &&
         e.value.text != "#pto<atomic_type atomic_none>"))
      return parser_.Error(e.loc.line != 0 ? e.loc : at,
                           std::string(op.text) +
                               " takes layout = #pto.layout<nd> (the view's strides place the "
                               "elements) and tstore's atomicType = #pto<atomic_type atomic_add "
                               "| atomic_none> and reluPreMode = #pto<relu_pre_mode normal_relu "
                               "| no_relu>, no other attribute");
    *atomic_add = e.value.text == "#pto<atomic_type atomic_add>";
  }
  return true;
}

void MemoryReader::ParseLoadStore(const Token& op, bool load) {
  Token a, b, fp;
  Type ta, tb, tfp;
  SourceLoc la, lb, lfp;
  if (!ParseOneInOneOut(&a, &ta, &la, &b, &tb, &lb, load ? nullptr : &fp, &tfp, &lfp)) return;
  bool atomic_add = false, relu = false;
  if (!ParseTransferAttrs(op, load, &atomic_add, &relu)) return;
  const Token& view_name = load ? a : b;
  const Type& view_type = load ? ta : tb;
  const SourceLoc view_loc = load ? la : lb;
  Value* view = parser_.Lookup(view_name.text);
  if (view == nullptr)
    return (void)parser_.Error(view_name.loc,
                               "%" + std::string(view_name.text) + " is not defined");
  if (view->type.kind != TypeKind::kPartitionView && view->type.kind != TypeKind::kTensorView)
    return (void)parser_.Error(view_name.loc, "%" + std::string(view_name.text) + " is " +
                                                  TypeString(view->type) + ", not a view");
  if (view_type.kind != view->type.kind || view_type.dtype != view->type.dtype ||
      view_type.rank != view->type.rank)
    return (void)parser_.Error(view_loc, "%" + std::string(view_name.text) + " is " +
                                             TypeString(view->type) + ", written as " +
                                             TypeString(view_type));
  const Value v = *view;
  uint32_t slot;
  if (!parser_.UseTile(load ? b : a, load ? tb : ta, load ? lb : la,
                       load ? Use::kWrite : Use::kRead, &slot))
    return;
  const Type& tile = p_->tiles[slot].type;
  if (relu && tile.space != Space::kAcc)
    return (void)parser_.Error(op.loc, "pto.tstore: reluPreMode = normal_relu stores from an acc "
                                       "tile only (the fixpipe's relu)");
  uint32_t fp_slot = kNoSlot;
  if (!fp.text.empty()) {
    if (!parser_.cube().CheckFixpipeStore(op, slot, v.type.dtype, fp, tfp, lfp, &fp_slot)) return;
  } else if (tile.IsCube() || atomic_add) {
    if (!parser_.cube().CheckCubeTransfer(op, load, slot, v.type.dtype, atomic_add)) return;
  } else if (tile.dtype != v.type.dtype)
    return (void)parser_.Error(op.loc,
                               std::string(op.text) + ": view element type " +
                                   DtypeSpelling(v.type.dtype) + " differs from the tile's " +
                                   DtypeSpelling(tile.dtype),
                               PTO_ERR_DTYPE_MISMATCH);
  // TLOAD's A5 check, "For int64_t/uint64_t, TileData::PadVal must be
  // PadValue::Null or PadValue::Zero" (A2A3 moves them as pairs of 32-bit
  // words, whose pad is no 64-bit value either).
  if (load && Is64BitDtype(tile.dtype) && tile.pad != PTO_PAD_NULL && tile.pad != PTO_PAD_ZERO)
    return (void)parser_.Error(op.loc,
                               "pto.tload: a tile of " + std::string(DtypeSpelling(tile.dtype)) +
                                   " pads with zero or not at all (pad=" +
                                   std::to_string(tile.pad) + " is a 1-, 2- or 4-byte dtype's)",
                               PTO_ERR_UNSUPPORTED_DTYPE);
  // The view's last dimension runs along the tile's rows, the others flatten
  // over them. The transfer is the tile's valid region (TLOAD: "uses
  // dst.GetValidRow() / GetValidCol() as the transfer size"), the window at
  // the view's first row and column: it must fit in the view. PTOAS's tstore
  // verifier also requires equal static element counts.
  // (A 5-D view [N0, N1, N2, 16, 2] of MX scales into an NN or ZZ mat tile
  // is pto-isa's box form: its shape is boxes, checked when it runs.)
  const bool boxes = load && v.type.rank == 5 && IsPackedScaleTile(tile) &&
                     (v.type.dims[3] == 16 || v.type.dims[3] == kDynamic) &&
                     (v.type.dims[4] == 2 || v.type.dims[4] == kDynamic);
  bool known = !tile.HasDynamicValid() && !boxes;
  int64_t outer = 1;
  for (int i = 0; i + 1 < v.type.rank; ++i) {
    if (v.type.dims[i] == kDynamic) known = false;
    else outer *= v.type.dims[i];
  }
  const int64_t inner = v.type.dims[v.type.rank - 1];
  if (inner == kDynamic) known = false;
  const std::string region =
      std::to_string(tile.valid_rows) + "x" + std::to_string(tile.valid_cols);
  if (known && !load && outer * inner != tile.valid_rows * tile.valid_cols)
    return (void)parser_.Error(op.loc,
                               "pto.tstore: the view's " + std::to_string(outer * inner) +
                                   " elements differ from the tile's valid region of " +
                                   std::to_string(tile.valid_rows * tile.valid_cols) + " (" +
                                   region + "), as PTOAS's verifier requires them equal",
                               PTO_ERR_SHAPE_MISMATCH);
  if (known && (outer < tile.valid_rows || inner < tile.valid_cols))
    return (void)parser_.Error(op.loc,
                               std::string(op.text) + ": the tile's valid region " + region +
                                   " does not fit in the view's " + std::to_string(outer) + "x" +
                                   std::to_string(inner) + " elements",
                               PTO_ERR_SHAPE_MISMATCH);
  Instr in;
  in.code = load ? Code::kLoad : Code::kStore;
  in.loc = op.loc;
  in.sub = atomic_add ? 1 : 0;
  in.attr = relu ? 1 : 0;  // TSTORE's ReluPreMode::NormalRelu
  if (atomic_add) p_->ordered_adds = true;
  in.d = static_cast<uint32_t>(v.type.dtype);
  in.a = slot;
  in.b = v.reg;
  in.rank = v.type.rank;
  in.extra = fp_slot == kNoSlot ? 0 : fp_slot + 1;  // TSTORE_FP's scaling tile
  p_->code.push_back(in);
  MarkViewAccess(v.reg, load ? PTO_PARAM_READ : PTO_PARAM_WRITE);
}

}  // namespace program
}  // namespace pto
