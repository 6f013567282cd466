// PTO assembly: pointers and the scalars behind them: pto.addptr (a pointer
// moved by an element offset) and the scalar loads and stores of global
// memory (pto.load_scalar, pto.store_scalar).
#include <string>
#include <vector>

#include "dtype_rules.h"
#include "program/parse/parser.h"
#include "program/parse/readers.h"

namespace pto {
namespace program {

// %q = pto.addptr %p, %offset : !pto.ptr<T> -> !pto.ptr<T>
// A pointer offset elements into p's memory: a pointer register of its own,
// whose accesses count as the parameter's (pointer_root).
void MemoryReader::ParseAddPtr(const Token& op, const std::vector<Token>& results) {
  Token ptr_name, offset_name;
  Value ptr, offset;
  if (!parser_.ExpectValueName(&ptr_name) || !parser_.UseValue(ptr_name, &ptr) ||
      !parser_.Expect(',') || !parser_.ExpectValueName(&offset_name) ||
      !parser_.UseInt(offset_name, &offset, "index") || !parser_.Expect(':'))
    return;
  SourceLoc from_loc, to_loc;
  Type from, to;
  if (!parser_.ParseTypeArrowType(&from, &from_loc, &to, &to_loc)) return;
  if (ptr.type.kind != TypeKind::kPtr || !SameType(ptr.type, from))
    return (void)parser_.Error(from_loc, "%" + std::string(ptr_name.text) + " is " +
                                             TypeString(ptr.type) + ", written as " +
                                             TypeString(from) + " (a !pto.ptr)");
  if (!SameType(from, to))
    return (void)parser_.Error(to_loc, "pto.addptr keeps the pointer's type: " + TypeString(to) +
                                           " is not " + TypeString(from));
  Instr in;
  in.code = Code::kAddPtr;
  in.loc = op.loc;
  in.b = ptr.reg;
  in.c = offset.reg;
  in.d = static_cast<uint32_t>(from.dtype);
  in.a = p_->pointer_count++;
  p_->pointer_root.push_back(p_->pointer_root[ptr.reg]);
  p_->code.push_back(in);
  Value v;
  v.type = from;
  v.reg = in.a;
  parser_.Define(results[0], v);
}

// %v = pto.load_scalar %p[%i] : !pto.ptr<T> -> T
// pto.store_scalar %v, %p[%i] : !pto.ptr<T>, T
// One element of global memory; the index is checked against the bound
// memory when it runs.
void MemoryReader::ParseScalarAccess(const Token& op, const std::vector<Token>& results) {
  const bool load = op.text == "pto.load_scalar";
  if (results.size() != (load ? 1u : 0u))
    return (void)parser_.Error(op.loc, std::string(op.text) + " defines " +
                                           (load ? "1 result" : "no result") + ", not " +
                                           std::to_string(results.size()));
  Token value_name, ptr_name, index_name;
  Value value, ptr, index;
  if (!load && (!parser_.ExpectValueName(&value_name) || !parser_.UseValue(value_name, &value) ||
                !parser_.Expect(',')))
    return;
  if (!parser_.ExpectValueName(&ptr_name) || !parser_.UseValue(ptr_name, &ptr) ||
      !parser_.Expect('[') || !parser_.ExpectValueName(&index_name) ||
      !parser_.UseInt(index_name, &index, "index") || !parser_.Expect(']') || !parser_.Expect(':'))
    return;
  const SourceLoc ptr_loc = tok().loc;
  Type ptr_type, elem;
  if (!parser_.ParseType(&ptr_type)) return;
  if (load ? !parser_.ExpectArrow() : !parser_.Expect(',')) return;
  const SourceLoc elem_loc = tok().loc;
  if (!parser_.ParseType(&elem)) return;
  if (ptr.type.kind != TypeKind::kPtr || !SameType(ptr.type, ptr_type))
    return (void)parser_.Error(ptr_loc, "%" + std::string(ptr_name.text) + " is " +
                                            TypeString(ptr.type) + ", written as " +
                                            TypeString(ptr_type) + " (a !pto.ptr)");
  const pto_dtype d = ptr.type.dtype;
  const bool is_float = IsFloatDtype(d);
  if (!IsElementTypeOf(elem, d))
    return (void)parser_.Error(elem_loc,
                               std::string(op.text) + ": " + TypeString(elem) +
                                   " is not the element type of " + TypeString(ptr.type),
                               PTO_ERR_DTYPE_MISMATCH);
  if (!load && !SameType(value.type, elem))
    return (void)parser_.Error(value_name.loc, "%" + std::string(value_name.text) + " is " +
                                                   TypeString(value.type) + ", written as " +
                                                   TypeString(elem));
  Instr in;
  in.code = load ? Code::kLoadScalar : Code::kStoreScalar;
  in.loc = op.loc;
  in.sub = is_float;
  in.b = ptr.reg;
  in.c = index.reg;
  in.d = static_cast<uint32_t>(d);
  MarkPointerAccess(ptr.reg, load ? PTO_PARAM_READ : PTO_PARAM_WRITE);
  if (!load) {
    in.a = value.reg;
    p_->code.push_back(in);
  } else if (is_float) {
    parser_.scalar().EmitFloatResult(in, elem, results[0]);
  } else {
    parser_.scalar().EmitIntResult(in, elem, results[0]);
  }
}

// A table in memory (a Table or TableDst operand: pto.mgather's,
// pto.mscatter's): a view made in the function (pto.make_tensor_view, a
// pto.partition_view of one), written as its type; *view its register, its
// pointer parameter marked with `access`. A view given as a parameter has no
// memory here.
bool MemoryReader::TableView(const std::string& what, const Token& name, const Type& written,
                             SourceLoc loc, unsigned access, Value* view) {
  const Value* v = parser_.Lookup(name.text);
  if (v == nullptr)
    return parser_.Error(name.loc, "%" + std::string(name.text) + " is not defined");
  if (v->type.kind != TypeKind::kPartitionView && v->type.kind != TypeKind::kTensorView)
    return parser_.Error(name.loc, what + "'s table %" + std::string(name.text) + " is " +
                                       TypeString(v->type) + ", not a view");
  if (!parser_.WrittenAs(name, v->type, written, loc)) return false;
  uint32_t made = 0;
  if (!FindViewPointer(v->reg, &made))
    return parser_.Error(name.loc, what + "'s view %" + std::string(name.text) +
                                       " is a parameter of view type, which is not "
                                       "supported (make it with pto.make_tensor_view)");
  *view = *v;
  MarkPointerAccess(made, access);
  return true;
}

}  // namespace program
}  // namespace pto
