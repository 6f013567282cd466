// The memory instructions' tile side: pto.alloc_tile (and its address),
// pto.set_validshape, pto.tassign and the addresses left for later; the
// views, loads and stores are memory_reader.cc's.
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

bool MemoryReader::ConstantAddress(const Token& name, uint64_t* addr) {
  Value* v = parser_.Lookup(name.text);
  if (v == nullptr)
    return parser_.Error(name.loc, "%" + std::string(name.text) + " is not defined");
  if (!v->type.IsInteger())
    return parser_.Error(name.loc, "an address is an integer, not " + TypeString(v->type));
  if (!v->is_const)
    return parser_.Error(
        name.loc, "address %" + std::string(name.text) +
                      " is not a constant: tiles are placed once, when the program is verified");
  if (v->const_value < 0)
    return parser_.Error(name.loc, "address " + std::to_string(v->const_value) + " is negative",
                         PTO_ERR_OUT_OF_RANGE);
  *addr = static_cast<uint64_t>(v->const_value);
  return true;
}

void MemoryReader::ParseAllocTile(const Token& op, const Token& result) {
  bool has_addr = false;
  uint64_t addr = 0;
  Token addr_loc_tok;
  Value vr, vc;
  bool has_vr = false, has_vc = false;
  SourceLoc vr_loc, vc_loc;
  for (;;) {
    if (tok().IsIdent("addr")) {
      parser_.Advance();
      Token name;
      if (!parser_.Expect('=') || !parser_.ExpectValueName(&name) || !ConstantAddress(name, &addr))
        return;
      has_addr = true;
      addr_loc_tok = name;
    } else if (tok().IsIdent("valid_row")) {
      vr_loc = tok().loc;
      parser_.Advance();
      if (!parser_.Expect('=') || !parser_.ParseIntOperand(&vr, "valid_row")) return;
      has_vr = true;
    } else if (tok().IsIdent("valid_col")) {
      vc_loc = tok().loc;
      parser_.Advance();
      if (!parser_.Expect('=') || !parser_.ParseIntOperand(&vc, "valid_col")) return;
      has_vc = true;
    } else {
      break;
    }
  }
  if (tok().Is('{'))
    return (void)parser_.Error(tok().loc, "pto.alloc_tile attributes are not supported");
  if (!parser_.Expect(':')) return;
  const SourceLoc type_loc = tok().loc;
  Type t;
  if (!parser_.ParseType(&t)) return;
  if (t.kind != TypeKind::kTile)
    return (void)parser_.Error(type_loc,
                               op.text == "memref.alloc"
                                   ? "memref.alloc gives a memref in #pto.address_space<vec> (a "
                                     "tile) here"
                                   : "pto.alloc_tile gives a tile type");
  // A left memref is laid out as the target's tmatmul takes it: A5's NZ.
  if (t.memref && t.space == Space::kLeft && p_->profile == PTO_PROFILE_A5) t.col_major = true;
  if ((t.valid_rows == kDynamic) != has_vr)
    return (void)parser_.Error(has_vr ? vr_loc : op.loc,
                               has_vr ? "valid_row is given, but the type's v_row is static"
                                      : "the type's v_row is ?, so valid_row = %r is required");
  if ((t.valid_cols == kDynamic) != has_vc)
    return (void)parser_.Error(has_vc ? vc_loc : op.loc,
                               has_vc ? "valid_col is given, but the type's v_col is static"
                                      : "the type's v_col is ?, so valid_col = %c is required");
  Value v;
  v.type = t;
  v.reg = parser_.NewTileSlot(t, result.loc, result.text);
  if (has_addr) {
    p_->tiles[v.reg].addr = addr;
    p_->tiles[v.reg].has_addr = true;
  }
  if (t.HasDynamicValid())
    EmitSetValid(op.loc, v.reg, has_vr ? &vr : nullptr, has_vc ? &vc : nullptr);
  parser_.Define(result, v);
}

// Sets a dynamic tile's valid region at run time; a null operand keeps the
// type's static value.
void MemoryReader::EmitSetValid(SourceLoc loc, uint32_t slot, const Value* rows,
                                const Value* cols) {
  const Type& t = p_->tiles[slot].type;
  auto reg_of = [&](const Value* v, int64_t fixed) {
    if (v != nullptr) return v->reg;
    Instr c;
    c.code = Code::kConstInt;
    c.loc = loc;
    c.a = parser_.NewIntReg();
    c.imm = fixed;
    p_->code.push_back(c);
    return c.a;
  };
  Instr in;
  in.code = Code::kSetValid;
  in.loc = loc;
  in.a = slot;
  in.b = reg_of(rows, t.valid_rows);
  in.c = reg_of(cols, t.valid_cols);
  p_->code.push_back(in);
}

void MemoryReader::ParseSetValidShape(const Token& op) {
  Token name;
  Value vr, vc;
  if (!parser_.ExpectValueName(&name) || !parser_.Expect(',') ||
      !parser_.ParseIntOperand(&vr, "valid rows") || !parser_.Expect(',') ||
      !parser_.ParseIntOperand(&vc, "valid cols") || !parser_.Expect(':'))
    return;
  const SourceLoc type_loc = tok().loc;
  Type t;
  if (!parser_.ParseType(&t)) return;
  if (t.kind != TypeKind::kTile || t.valid_rows != kDynamic || t.valid_cols != kDynamic)
    return (void)parser_.Error(type_loc,
                               "pto.set_validshape needs a tile type with v_row=? and v_col=?");
  uint32_t slot;
  if (!parser_.UseTile(name, t, type_loc, Use::kWrite, &slot)) return;
  EmitSetValid(op.loc, slot, &vr, &vc);
}

bool MemoryReader::PlaceSlot(uint32_t slot, uint64_t addr, SourceLoc loc) {
  TileSlot& s = p_->tiles[slot];
  if (s.used)
    return parser_.Error(loc, "pto.tassign moves %" + s.name +
                                  " after an operation used it: place a tile before its first use");
  s.addr = addr;
  s.has_addr = true;
  return true;
}

// %t2 = pto.tassign %t, %addr : T -> T   |   pto.tassign %t, @tile(0x1000)
void MemoryReader::ParseTassign(const Token& op, const std::vector<Token>& results) {
  Token name;
  if (!parser_.ExpectValueName(&name) || !parser_.Expect(',')) return;
  if (tok().kind == Tok::kSymbol) {
    if (tok().text != "tile") return (void)parser_.Error(tok().loc, "expected @tile(ADDRESS)");
    parser_.Advance();
    if (!parser_.Expect('(')) return;
    if (tok().kind != Tok::kInt || tok().text[0] == '-')
      return (void)parser_.Error(tok().loc, "expected an address such as 0x1000");
    const uint64_t addr = strtoull(std::string(tok().text).c_str(), nullptr, 0);
    const SourceLoc addr_loc = tok().loc;
    parser_.Advance();
    if (!parser_.Expect(')')) return;
    if (!results.empty())
      return (void)parser_.Error(op.loc, "pto.tassign %x, @tile(...) defines no result");
    Value* v = parser_.Lookup(name.text);
    if (v == nullptr) {
      if (p_->is_kernel)
        return (void)parser_.Error(name.loc, "%" + std::string(name.text) + " is not defined");
      const std::string key(name.text);
      if (pending_addr_.count(key) != 0)
        return (void)parser_.Error(name.loc, "%" + key + " is placed twice");
      pending_addr_[key] = addr;
      pending_loc_[key] = name.loc;
      return;
    }
    if (v->type.kind != TypeKind::kTile)
      return (void)parser_.Error(name.loc, "pto.tassign places tiles only");
    PlaceSlot(v->reg, addr, addr_loc);
    return;
  }
  Token addr_name;
  uint64_t addr;
  if (!parser_.ExpectValueName(&addr_name) || !ConstantAddress(addr_name, &addr) ||
      !parser_.Expect(':'))
    return;
  SourceLoc from_loc, to_loc;
  Type from, to;
  if (!parser_.ParseTypeArrowType(&from, &from_loc, &to, &to_loc)) return;
  Value* v = parser_.Lookup(name.text);
  if (v == nullptr)
    return (void)parser_.Error(name.loc, "%" + std::string(name.text) + " is not defined");
  if (v->type.kind != TypeKind::kTile || !SameType(v->type, from))
    return (void)parser_.Error(from_loc, "%" + std::string(name.text) + " is " +
                                             TypeString(v->type) + ", written as " +
                                             TypeString(from));
  if (!SameType(from, to)) return (void)parser_.Error(to_loc, "pto.tassign keeps the tile's type");
  const Value tile = *v;
  // PTOAS takes this spelling at --pto-level=level3 only, where every
  // pto.alloc_tile gives its address (addr = %a).
  const TileSlot& slot = p_->tiles[tile.reg];
  if (!slot.has_addr && slot.param < 0 && !slot.IsView())
    return (void)parser_.Error(name.loc, "%t2 = pto.tassign %t, %addr is PTOAS's level3 form, "
                                         "where each pto.alloc_tile gives addr = %a: %" +
                                             slot.name + " has none");
  if (!PlaceSlot(tile.reg, addr, addr_name.loc)) return;
  if (results.size() == 1) parser_.Define(results[0], tile);
}

bool MemoryReader::TakePendingAddress(const std::string& name, uint64_t* addr) {
  auto pending = pending_addr_.find(name);
  if (pending == pending_addr_.end()) return false;
  *addr = pending->second;
  pending_addr_.erase(pending);
  return true;
}

bool MemoryReader::CheckPendingAddresses() {
  if (pending_addr_.empty()) return true;
  const auto& first = *pending_addr_.begin();
  return parser_.Error(pending_loc_[first.first],
                       "pto.tassign places %" + first.first + ", which no operation uses");
}

}  // namespace program
}  // namespace pto
