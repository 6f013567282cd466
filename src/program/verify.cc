// Verification: every tile gets its place in the unified buffer, then every
// operation's rules are applied once, as its C function would apply them to
// tiles placed there. What depends on values known only at run time (dynamic
// valid regions) is marked to be checked again when the instruction runs.
#include "program/verify.h"

#include <stdio.h>

#include <algorithm>
#include <string>
#include <vector>

#include "buffer.h"
#include "dtype_rules.h"
#include "error.h"
#include "program/ir/cube.h"
#include "program/ir/program.h"
#include "tile.h"

namespace pto {
namespace program {
namespace {

// Each memory per profile, and the alignment TASSIGN asks of a tile's
// address there: pto-isa include/pto/common/buffer_limits.hpp (unified
// buffer 192 KiB on A2A3, 256 KiB on A5; L1 512 KiB; L0A and L0B 64 KiB;
// L0C 128 KiB on A2A3, 256 KiB on A5; bias table 1 KiB / 4 KiB; fixpipe
// buffer 2 KiB / 4 KiB; 32-byte alignment) and docs/isa/TASSIGN.md (SA-0352
// tile larger than the memory, SA-0353 addr + size out of bounds, SA-0354
// address not aligned). HOST has no on-chip memory to model: any size a
// buffer may have, addresses aligned to the element size as in
// pto_tile_create_at.
struct MemoryLimit {
  uint64_t capacity;
  uint64_t align;  // 0: the element size
};
MemoryLimit MemoryLimitOf(pto_profile profile, Space space) {
  constexpr uint64_t kKiB = 1024;
  const bool a5 = profile == PTO_PROFILE_A5;
  if (profile != PTO_PROFILE_A2A3 && !a5) return {PTO_TILE_MAX_BYTES, 0};
  switch (space) {
    case Space::kVec: return {(a5 ? 256 : 192) * kKiB, 32};
    case Space::kMat: return {512 * kKiB, 32};
    case Space::kLeft:
    case Space::kRight: return {64 * kKiB, 32};
    case Space::kAcc: return {(a5 ? 256 : 128) * kKiB, 32};
    case Space::kBias: return {(a5 ? 4 : 1) * kKiB, 32};
    case Space::kScaling: return {(a5 ? 4 : 2) * kKiB, 32};
  }
  return {0, 32};
}

// The memory's name in sentences.
const char* MemoryName(Space space) {
  switch (space) {
    case Space::kVec: return "unified buffer";
    case Space::kMat: return "mat memory (L1)";
    case Space::kLeft: return "left memory (L0A)";
    case Space::kRight: return "right memory (L0B)";
    case Space::kAcc: return "acc memory (L0C)";
    case Space::kBias: return "bias table";
    case Space::kScaling: return "scaling memory (fixpipe buffer)";
  }
  return "?";
}

uint64_t TileBytes(const Type& t) { return uint64_t{t.rows} * t.cols * pto_dtype_size(t.dtype); }

std::string Hex(uint64_t v) {
  char s[24];
  snprintf(s, sizeof(s), "0x%llx", static_cast<unsigned long long>(v));
  return s;
}

std::string TileName(const TileSlot& s) {
  return s.name.empty() ? std::string("tmp") : "%" + s.name;
}

struct Range {
  uint64_t begin, end;
};

// The tile whose storage a subview's chain of parents ends in.
uint32_t RootOf(const Program& p, uint32_t slot) {
  while (p.tiles[slot].IsView()) slot = static_cast<uint32_t>(p.tiles[slot].view_of);
  return slot;
}

// A subview's address where its offsets are constants, else its root's (its
// operations are then checked again when they run). Parents first.
void PlaceView(Program* p, uint32_t slot) {
  TileSlot& s = p->tiles[slot];
  if (!s.IsView() || s.has_addr) return;
  PlaceView(p, static_cast<uint32_t>(s.view_of));
  const TileSlot& parent = p->tiles[s.view_of];
  s.addr = parent.addr;
  s.base = parent.base;
  if (s.view_offset >= 0)
    s.addr += static_cast<uint64_t>(s.view_offset) * pto_dtype_size(s.type.dtype);
  s.has_addr = true;
}

// A tile operation's tiles by Role.
constexpr size_t kMostTileUses = Role::kCount;

// Whether the instruction's operands include a subview whose place is known
// only at run time.
bool UsesMovingView(const Program& p, const uint32_t slots[kMostTileUses]) {
  for (size_t i = 0; i < kMostTileUses; ++i) {
    for (uint32_t slot = slots[i]; slot != kNoSlot && p.tiles[slot].IsView();
         slot = static_cast<uint32_t>(p.tiles[slot].view_of))
      if (p.tiles[slot].view_offset < 0) return true;
  }
  return false;
}

// The tile slots instruction `in` reads or writes (kNoSlot elsewhere). A
// valid-shape change is not a use: it touches no byte of the tile.

void TileUses(const Instr& in, uint32_t out[kMostTileUses]) {
  for (size_t i = 0; i < kMostTileUses; ++i) out[i] = kNoSlot;
  switch (in.code) {
    case Code::kTileOp:
      for (size_t role = 0; role < Role::kCount; ++role) out[role] = in.slot[role];
      break;
    case Code::kLoad:
    case Code::kStore:
    case Code::kPrint:
      out[0] = in.a;
      if (in.code == Code::kStore && in.extra != 0) out[1] = in.extra - 1;  // TSTORE_FP's fp
      break;
    case Code::kTileCopy:
    case Code::kCubeMove:
      out[0] = in.a, out[1] = in.b;
      if (in.code == Code::kCubeMove && in.sub == 4) out[2] = in.c;  // the fixpipe's fp
      break;
    case Code::kMatmul:  // the MX rows' scales in slot[0], slot[1]
      out[0] = in.a, out[1] = in.b, out[2] = in.c, out[3] = in.d;
      out[4] = in.slot[0], out[5] = in.slot[1];
      break;
    case Code::kMxZzMove:
      out[0] = in.a, out[1] = in.b, out[2] = in.c;
      break;
    case Code::kPipe:
      out[0] = in.a;  // the pushed or popped tile (kNoSlot for a free)
      break;
    default:
      break;
  }
}

// Live ranges, as PTOAS's PlanMemory decides them: a tile lives from its
// first use (the instruction that first writes or reads it, not its
// declaration) to its last; one declared before a loop and used inside lives
// through the whole loop (the next turn may read it). Parameters live through
// the whole run (bound before it, copied out after it).
void LiveRanges(Program* p) {
  const uint32_t n = static_cast<uint32_t>(p->code.size());
  std::vector<bool> seen(p->tiles.size(), false);
  for (TileSlot& s : p->tiles) s.first = s.last = std::min(s.def_pc, n);
  for (uint32_t pc = 0; pc < n; ++pc) {
    uint32_t uses[kMostTileUses];
    TileUses(p->code[pc], uses);
    for (uint32_t slot : uses) {
      if (slot == kNoSlot) continue;
      slot = RootOf(*p, slot);  // a subview's bytes are its root's
      TileSlot& s = p->tiles[slot];
      if (!seen[slot]) s.first = pc;
      seen[slot] = true;
      s.last = pc;
    }
  }
  for (TileSlot& s : p->tiles) {
    if (s.param >= 0) {
      s.first = 0;
      s.last = n;
    }
  }
  for (bool changed = true; changed;) {
    changed = false;
    for (const auto& loop : p->loops) {
      for (TileSlot& s : p->tiles) {
        if (s.def_pc > loop.first || s.first > loop.second || s.last < loop.first) continue;
        if (s.first > loop.first || s.last < loop.second) changed = true;
        s.first = std::min(s.first, loop.first);
        s.last = std::max(s.last, loop.second);
      }
    }
  }
}

struct Placed {
  uint64_t begin, end;  // bytes
  uint32_t first, last; // instructions
};

// A5's tprelu (an A5UnusedTmp row) does not read or write its tmp, so
// PTOAS's PlanMemory gives a tile used only there no bytes: it is left out of
// the unified buffer (as an implicit tmp is), where the text does not place
// it and nothing views it.
void LeaveOutUnusedTmps(Program* p) {
  if (p->profile != PTO_PROFILE_A5) return;
  std::vector<int> only_tprelu_tmp(p->tiles.size(), -1);  // -1 unused, 0 no, 1 yes
  for (const Instr& in : p->code) {
    uint32_t uses[kMostTileUses];
    TileUses(in, uses);
    const bool tprelu = in.code == Code::kTileOp && ops::HasTrait(*in.op, PTO_TRAIT_A5UnusedTmp);
    for (uint32_t slot : uses) {
      if (slot == kNoSlot) continue;
      const bool as_tmp = tprelu && slot == in.slot[Role::kTmp] && slot != in.slot[Role::kDst] &&
                          slot != in.slot[Role::kSrc0] && slot != in.slot[Role::kSrc1];
      only_tprelu_tmp[slot] = as_tmp && only_tprelu_tmp[slot] != 0 ? 1 : 0;
    }
  }
  for (const TileSlot& s : p->tiles)
    if (s.IsView()) only_tprelu_tmp[s.view_of] = 0;
  for (size_t i = 0; i < p->tiles.size(); ++i) {
    TileSlot& s = p->tiles[i];
    if (only_tprelu_tmp[i] == 1 && s.param < 0 && !s.has_addr && !s.IsView()) s.in_ub = false;
  }
}

// The tiles of one memory: those the text places (addr = / tassign), kept
// through the whole run, then the others by liveness, in order of first
// use, each at the lowest address (aligned as PlanMemory aligns: 32 bytes on
// the NPU targets, 64 on HOST) free of every tile live at the same time.
pto_status PlaceMemory(Program* p, Space space) {
  const MemoryLimit limit = MemoryLimitOf(p->profile, space);
  const std::string where =
      p->profile == PTO_PROFILE_HOST ? "HOST's limit" : pto_profile_string(p->profile);
  const std::string memory = std::to_string(limit.capacity) + "-byte " + MemoryName(space) +
                             " of " + where;
  const auto in_memory = [&](const TileSlot& s) {
    return s.in_ub && !s.IsView() && s.type.space == space;
  };
  const uint32_t always_last = UINT32_MAX;
  std::vector<Placed> taken;
  for (TileSlot& s : p->tiles) {
    if (!in_memory(s) || !s.has_addr) continue;
    const uint64_t size = TileBytes(s.type);
    const uint64_t align = limit.align != 0 ? limit.align : pto_dtype_size(s.type.dtype);
    if (s.addr % align != 0)
      return Diagnose(*p, s.loc, PTO_ERR_INVALID_ARGUMENT,
                      "address " + Hex(s.addr) + " of " + TileName(s) + " is not a multiple of " +
                          std::to_string(align) +
                          (limit.align != 0 ? " bytes, which " + where + " requires"
                                            : std::string(" bytes (its element size)")));
    if (s.addr > limit.capacity || size > limit.capacity - s.addr)
      return Diagnose(*p, s.loc, PTO_ERR_OUT_OF_RANGE,
                      TileName(s) + " at " + Hex(s.addr) + " (" + std::to_string(size) +
                          " bytes) ends beyond the " + memory);
    s.manual = true;
    taken.push_back({s.addr, s.addr + size, 0, always_last});
  }
  const uint64_t align = limit.align != 0 ? limit.align : 64;
  std::vector<uint32_t> order;
  for (uint32_t i = 0; i < p->tiles.size(); ++i)
    if (in_memory(p->tiles[i]) && !p->tiles[i].has_addr) order.push_back(i);
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    return p->tiles[a].first < p->tiles[b].first;
  });
  std::vector<Placed> conflicts;
  for (uint32_t index : order) {
    TileSlot& s = p->tiles[index];
    const uint64_t size = TileBytes(s.type);
    conflicts.clear();
    for (const Placed& r : taken)
      if (r.first <= s.last && s.first <= r.last) conflicts.push_back(r);
    std::sort(conflicts.begin(), conflicts.end(),
              [](const Placed& a, const Placed& b) { return a.begin < b.begin; });
    uint64_t at = 0;
    for (const Placed& r : conflicts) {
      if (r.begin >= at + size) break;
      at = std::max(at, (r.end + align - 1) / align * align);
    }
    if (at > limit.capacity || size > limit.capacity - at)
      return Diagnose(*p, s.loc, PTO_ERR_OUT_OF_RANGE,
                      TileName(s) + " (" + std::to_string(size) + " bytes) does not fit in the " +
                          memory + " beside the tiles live with it");
    s.addr = at;
    taken.push_back({at, at + size, s.first, s.last});
  }
  for (uint32_t index : order) p->tiles[index].has_addr = true;
  uint64_t end = 0, peak = 0;
  for (const Placed& r : taken) {
    end = std::max(end, r.end);
    uint64_t live = 0;
    for (const Placed& q : taken)
      if (q.first <= r.first && r.first <= q.last) live += q.end - q.begin;
    peak = std::max(peak, live);
  }
  Program::Memory& m = p->memories[static_cast<int>(space)];
  m.capacity = limit.capacity;
  m.size = end;
  m.live_peak = peak;
  return PTO_OK;
}

// Every memory's tiles, then the block's allocation: the memories one after
// another (each from a 64-byte boundary).
pto_status PlaceTiles(Program* p) {
  LeaveOutUnusedTmps(p);
  LiveRanges(p);
  uint64_t base = 0;
  for (int space = 0; space < kSpaceCount; ++space) {
    const pto_status status = PlaceMemory(p, static_cast<Space>(space));
    if (status != PTO_OK) return status;
    Program::Memory& m = p->memories[space];
    m.base = base;
    base += (m.size + 63) / 64 * 64;
  }
  for (TileSlot& s : p->tiles)
    if (!s.IsView()) s.base = p->memories[static_cast<int>(s.type.space)].base;
  for (uint32_t i = 0; i < p->tiles.size(); ++i) PlaceView(p, i);
  p->ub_size = std::max<uint64_t>(64, base);
  return PTO_OK;
}

// Stand-in tiles at the program's addresses: the operations' checks judge
// overlap by address only, so an address range that is never dereferenced
// serves (the base keeps every address non-null).
constexpr uintptr_t kVerifyBase = 0x10000;

// tmov into a ZZ tile: its bytes hold exp's exponents in ZZ order (a
// dynamic valid region: checked when it runs).
pto_status CheckMxZzMove(const Program& p, const Instr& in, const std::vector<pto_tile>& tiles) {
  const pto_tile& exp = tiles[in.b];
  const pto_tile& zz = tiles[in.a];
  const uint64_t need = MxZzBytes(exp.valid_rows, exp.valid_cols, in.sub != 0);
  if (p.tiles[in.b].type.HasDynamicValid() || uint64_t{zz.rows} * zz.cols >= need) return PTO_OK;
  return Diagnose(p, in.loc, PTO_ERR_SHAPE_MISMATCH,
                  "tmov: the ZZ order of " + std::to_string(exp.valid_rows) + "x" +
                      std::to_string(exp.valid_cols) + " exponents takes " + std::to_string(need) +
                      " bytes, and dst holds " + std::to_string(uint64_t{zz.rows} * zz.cols));
}

// The rules of a table operation (kTileOp) on its tiles as verification
// places them, and what its run may take straight (Instr::plain and the
// run_* fields).
pto_status CheckTableOperation(Program* p, Instr& in, std::vector<pto_tile>& tiles) {
  uint32_t operands[kMostTileUses];
  TileUses(in, operands);
  for (uint32_t slot : operands)
    if (slot != kNoSlot && p->tiles[slot].type.HasDynamicValid()) in.check_at_run = true;
  if (UsesMovingView(*p, operands)) in.check_at_run = true;
  // WholeDst rows write (WholeSrc ones also read) whole tiles, rows x cols
  // (tfillpad, treshape), which a window of another tile's rows does not
  // have.
  const bool whole_tiles = ops::WritesWholeDst(*in.op);
  const uint32_t whole[] = {
      in.slot[Role::kDst],
      whole_tiles && ops::HasTrait(*in.op, PTO_TRAIT_WholeSrc) ? in.slot[Role::kSrc0] : kNoSlot};
  for (uint32_t slot : whole)
    if (whole_tiles && slot != kNoSlot && p->tiles[slot].IsView())
      return Diagnose(*p, in.loc, PTO_ERR_INVALID_ARGUMENT,
                      std::string(in.op->c_function) + ": %" + p->tiles[slot].name +
                          " is a subview of %" + p->tiles[p->tiles[slot].view_of].name +
                          ", and " + in.op->mnemonic +
                          " needs a whole tile (its rows x cols), not a window");
  // A table in memory is a view's elements, its extent and contents known
  // when the instruction runs: a Table row's rules are checked then.
  if (ops::HasTrait(*in.op, PTO_TRAIT_Table)) {
    in.check_at_run = true;
    for (uint32_t slot : operands)
      if (slot != kNoSlot && IsFloatDtype(p->tiles[slot].type.dtype)) p->uses_float = true;
    return PTO_OK;
  }
  ops::OperandsExt ext;
  ops::Operands o = WithTiles(&ext, in, tiles);
  double value = 0;  // a scalar result's stand-in (tgetval's)
  ext.out = &value;
  // An implicit tmp (a tile the call never reads) takes dst's valid region,
  // but an OwnScratch row's (a row of words of its own) and a ListScratch
  // row's (a row of the lists' cols).
  if (o.tmp != nullptr && o.dst != nullptr && !p->tiles[in.slot[Role::kTmp]].in_ub &&
      !ops::HasTrait(*in.op, PTO_TRAIT_OwnScratch | PTO_TRAIT_ListScratch)) {
    o.tmp->valid_rows = o.dst->valid_rows;
    o.tmp->valid_cols = o.dst->valid_cols;
  }
  pto_tile* dst = o.dst;
  const pto_tile* src0 = o.src0;
  const pto_tile* src1 = o.src1;
  pto_tile mask_view;
  pto_status status;
  o.attr = ops::AttrOf(*in.op, in.attr);
  o.sat = ops::SaturationOf(*in.op, in.attr);
  ext.text_flags = ops::TextFlagsOf(*in.op, in.attr);
  o.contents_known = false;
  WithDeclaredCols(*p, in, &ext);
  status = in.op->check(WithMaskView(*in.op, o, &mask_view), p->profile);
  // A rule about regions may hold once the run sets them: decided then.
  const bool region_rule = status == PTO_ERR_SHAPE_MISMATCH || status == PTO_ERR_ALIASING;
  if (status != PTO_OK && !(in.check_at_run && region_rule))
    return Diagnose(*p, in.loc, status, LastError());
  // A scalar here is a float register's (an integer scalar is checked
  // when it runs: check_at_run); words are registers' and text flags the
  // attribute's (TileOp reads them).
  in.plain = !in.check_at_run && o.dst != nullptr &&
             (!ops::TakesScalar(in.op->attr) || in.scalar_is_float) &&
             ops::IndexCount(in.op->attr) == 0 && ops::WordCount(*in.op) == 0 &&
             ops::TextFlagsOf(*in.op, in.attr) == 0 &&
             !ops::HasTrait(*in.op, PTO_TRAIT_MaskDst | PTO_TRAIT_MaskSrc);
  in.run_attr = ops::AttrOf(*in.op, in.attr);
  in.run_sat = ops::SaturationOf(*in.op, in.attr);
  in.run_scalar = ops::TakesScalar(in.op->attr);
  in.run_whole_dst = ops::WritesWholeDst(*in.op);
  // Sources on dst's rows in row order run through the row's run, row by row.
  in.run_contiguous = o.dst == nullptr || ops::SharesRowsWithDst(o)
                          ? nullptr
                          : ops::ContiguousKernelOf(*in.op);
  // Float compares too keep IEEE defaults (subnormals compare as themselves).
  for (const pto_tile* t : {static_cast<const pto_tile*>(dst), src0, src1})
    if (t != nullptr && IsFloatDtype(t->dtype)) p->uses_float = true;
  return PTO_OK;
}

pto_status CheckOperations(Program* p) {
  static pto_buffer placed_marker;  // marks a tile as placed (never dereferenced)
  std::vector<pto_tile> tiles(p->tiles.size());
  char* base = reinterpret_cast<char*>(kVerifyBase);
  for (size_t i = 0; i < p->tiles.size(); ++i) {
    const TileSlot& s = p->tiles[i];
    // A dynamic region is checked as the whole tile here, again at run time.
    tiles[i] = TileFromSlot(s, base, s.type.rows, s.type.cols, &placed_marker);
    // An implicit tmp gets an address of its own, apart from every tile.
    if (!s.in_ub) tiles[i].data = base + p->ub_size + 64 * i;
    // A vec subview's rows are its root's; a cube subview is a window of its
    // root's image.
    if (s.IsView()) {
      const Type& root = p->tiles[RootOf(*p, static_cast<uint32_t>(i))].type;
      if (s.type.IsCube()) tiles[i].image_rows = root.rows;
      else tiles[i].cols = root.cols;
      tiles[i].image_cols = root.cols;
    }
  }
  for (Instr& in : p->code) {
    if (in.code == Code::kTileCopy && (p->tiles[in.a].IsView() || p->tiles[in.b].IsView()))
      return Diagnose(*p, in.loc, PTO_ERR_INVALID_ARGUMENT,
                      "a subview (%" + p->tiles[p->tiles[in.a].IsView() ? in.a : in.b].name +
                          ") cannot be carried into another tile: yield the tile it views");
    if (in.code == Code::kMatmul) {
      ops::OperandsExt ext;
      const pto_status status = in.op->check(MatmulOperands(in, tiles.data(), &ext), p->profile);
      // A dynamic region's rule may hold once the run sets it: decided then.
      if (status != PTO_OK && !(in.check_at_run && status == PTO_ERR_SHAPE_MISMATCH))
        return Diagnose(*p, in.loc, status, LastError());
      p->uses_float = true;
      continue;
    }
    if (in.code == Code::kLoad || in.code == Code::kStore) {
      // A vector tile moved as it is (no pad value to write, no add): the
      // executor's row copy.
      const Type& type = p->tiles[in.a].type;
      in.plain = !type.IsCube() && in.sub == 0 && static_cast<pto_dtype>(in.d) == type.dtype &&
                 (in.code == Code::kStore || type.pad == PTO_PAD_NULL);
      in.imm = static_cast<int64_t>(pto_dtype_size(type.dtype));
      continue;
    }
    if (in.code == Code::kMxZzMove) {
      if (const pto_status status = CheckMxZzMove(*p, in, tiles)) return status;
      continue;
    }
    if (in.code != Code::kTileOp) continue;  // the C functions' checks: the table's rows
    if (const pto_status status = CheckTableOperation(p, in, tiles)) return status;
  }
  return PTO_OK;
}

}  // namespace

std::string Describe(const Program& p) {
  std::string out;
  if (!p.functions.empty()) {
    out += "functions:\n";
    for (const FunctionSummary& f : p.functions)
      out += "  " + f.signature + (f.is_entry ? "  (entry)" : "") +
             (f.is_private ? "  private" : "") + "\n";
  }
  if (!p.no_entry.empty()) return out + "no entry: " + p.no_entry + "\n";
  if (p.vector_cores != 0) {
    // A program with pipes: a block's cores and its pipes (execute_pipes.cc).
    out += "cores: a block runs the cube and " + std::to_string(p.vector_cores) + " vector core" +
           (p.vector_cores > 1 ? "s" : "") + " at once\npipes:\n";
    for (const PipeDecl& d : p.pipes)
      out += "  pipe " + std::to_string(d.id) + (d.c2v ? " cube to vector: " : " vector to cube: ") +
             std::to_string(d.depth) + " slots of " + std::to_string(d.slot_size) + " bytes\n";
  }
  for (int space = 0; space < kSpaceCount; ++space) {
    const Program::Memory& m = p.memories[space];
    if (space != 0 && m.size == 0) continue;
    const char* name = MemoryName(static_cast<Space>(space));
    out += std::string(name) + " (" + pto_profile_string(p.profile) + ", " +
           std::to_string(m.capacity) + " bytes): " + std::to_string(m.size) +
           " bytes used, at most " + std::to_string(m.live_peak) + " bytes live at once\n";
  }
  out += "tiles:\n";
  for (const TileSlot& s : p.tiles) {
    if (!s.in_ub && !s.name.empty())
      out += "  " + TileName(s) + " " + TypeString(s.type) +
             ": no bytes (tprelu's tmp, which A5 does not use)\n";
    if (!s.in_ub) continue;
    if (s.IsView() && s.type.IsCube()) {
      // Its elements are its root's, where the root's layout puts them.
      const TileSlot& root = p.tiles[RootOf(p, static_cast<uint32_t>(&s - p.tiles.data()))];
      out += "  " + TileName(s) + " " + TypeString(s.type) + ": a window of %" +
             p.tiles[s.view_of].name + " (in the image of " + TileName(root) + " at " +
             SpaceSpelling(s.type.space) + " " + Hex(root.addr) + "), line " +
             std::to_string(s.loc.line) + "\n";
      continue;
    }
    const uint64_t size = TileBytes(s.type);
    out += "  " + TileName(s) + " " + TypeString(s.type) + ": " + std::to_string(size) +
           " bytes at " + (s.type.space != Space::kVec ? SpaceSpelling(s.type.space) + std::string(" ") : std::string()) + Hex(s.addr) + ".." + Hex(s.addr + size) + ", line " +
           std::to_string(s.loc.line) +
           (s.IsView() ? ", a subview of %" + p.tiles[s.view_of].name +
                             (s.view_offset < 0 ? " (placed when it runs)" : "")
            : s.manual ? ", placed by the text"
            : s.param >= 0
                ? ", parameter"
                : ", live at instructions " + std::to_string(s.first) + ".." +
                      std::to_string(s.last)) +
           "\n";
  }
  return out;
}

pto_status Verify(Program* p) {
  // Each core of a program with pipes has its own tiles: which core's copy
  // of a tile parameter would come back is not for the text to guess.
  if (p->vector_cores != 0) {
    for (const Param& q : p->params)
      if (q.kind == PTO_PARAM_TILE)
        return Diagnose(*p, p->tiles[q.reg].loc, PTO_ERR_INVALID_ARGUMENT,
                        "%" + q.name + ": a program with pipes takes pointers and scalars, not "
                        "tiles (each core has its own); load and store the tile through a pointer");
  }
  const pto_status placed = PlaceTiles(p);
  if (placed != PTO_OK) return placed;
  return CheckOperations(p);
}

}  // namespace program
}  // namespace pto
