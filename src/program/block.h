// The state of one block of a running program (execute.cc runs its
// instructions; execute_memory.cc holds those on global memory, views,
// subviews and pto.tprint; execute_cube.cc the cube's). Private to src/program/.
#ifndef PTO_PROGRAM_BLOCK_H_
#define PTO_PROGRAM_BLOCK_H_

#include <stdint.h>

#include <atomic>
#include <string>
#include <vector>

#include "alloc.h"
#include "error.h"
#include "program/execute.h"
#include "program/program.h"

namespace pto {
namespace program {

// A window of a bound pointer, in elements.
struct View {
  uint32_t pointer;
  uint32_t rank;
  int64_t offset;
  int64_t shape[kMaxRank];
  int64_t strides[kMaxRank];
};

// The rows of view v in order (its last dimension along a row, the others
// flattened over rows): f(r, element of (r, 0), column stride) for r < rows.
template <typename F>
void ForEachViewRow(const View& v, int64_t rows, F f) {
  int64_t index[kMaxRank] = {};
  for (int64_t r = 0; r < rows; ++r) {
    int64_t element = v.offset;
    for (uint32_t i = 0; i + 1 < v.rank; ++i) element += index[i] * v.strides[i];
    f(r, element, v.strides[v.rank - 1]);
    for (int i = static_cast<int>(v.rank) - 2; i >= 0; --i) {
      if (++index[i] < v.shape[i]) break;
      index[i] = 0;
    }
  }
}

// v as a signed integer of `bits` bits (two's complement wrap).
inline int64_t Wrap(uint64_t v, unsigned bits) {
  if (bits >= 64) return static_cast<int64_t>(v);
  const uint64_t mask = (uint64_t{1} << bits) - 1;
  v &= mask;
  if (bits > 1 && (v >> (bits - 1)) != 0) v |= ~mask;
  return static_cast<int64_t>(v);
}
// v's low `bits` bits as an unsigned value.
inline uint64_t Unsigned(int64_t v, unsigned bits) {
  return bits >= 64 ? static_cast<uint64_t>(v)
                    : static_cast<uint64_t>(v) & ((uint64_t{1} << bits) - 1);
}

// A unified buffer kept between launches (unified_buffers.cc), taken by one
// thread for its blocks of a launch: *data at least `bytes` (> 0) long,
// *zeroed if all zero (newly allocated), else as its last block left it.
// NULL for no memory. GiveBackUnifiedBuffer frees the memory if it is larger
// than a device's; NULL is a no-op.
struct UnifiedBuffer;
UnifiedBuffer* TakeUnifiedBuffer(uint64_t bytes, char** data, bool* zeroed);
void GiveBackUnifiedBuffer(UnifiedBuffer* buffer);

// The state of one block.
class Block {
 public:
  // loop_limit: the most loop turns a block may take (PTO_LOOP_LIMIT), 0 for none.
  // turn: the launch's count of blocks whose adds to global memory are done
  // (the lowest block not finished), for a program with ordered_adds.
  Block(const Program& p, const std::vector<Binding>& bindings, uint64_t loop_limit,
        std::atomic<uint32_t>* turn)
      : p_(p), bindings_(bindings), ints_(p.int_regs), floats_(p.float_regs), views_(p.view_regs),
        tiles_(p.tiles.size()), pointers_(p.pointer_count), loop_limit_(loop_limit), turn_(turn) {}

  ~Block() { GiveBackUnifiedBuffer(ub_entry_); }

  // Takes a unified buffer for this thread's blocks; false for no memory.
  bool Allocate() {
    ub_entry_ = TakeUnifiedBuffer(p_.ub_size, &ub_, &ub_zeroed_);
    return ub_entry_ != nullptr;
  }

  pto_status Run(uint32_t block, uint32_t blocks, const std::atomic<bool>& stop);

 private:
  pto_status Error(const Instr& in, pto_status status, const std::string& message) {
    return Diagnose(p_, in.loc, status, message);
  }
  void Setup();
  void CopyResultsOut();
  pto_status Execute(uint32_t block, uint32_t blocks, const std::atomic<bool>& stop);
  pto_status IntBinary(const Instr& in);
  pto_status MakeView(const Instr& in);
  pto_status PartitionView(const Instr& in);
  pto_status Transfer(const Instr& in, bool load);
  pto_status TransferFits(const Instr& in, bool load);
  // Waits until every block before this one has finished (its adds to
  // global memory applied); false if the launch stopped meanwhile.
  bool WaitForTurn(const std::atomic<bool>& stop) const;
  pto_status CubeTransfer(const Instr& in, bool load);
  pto_status CubeMove(const Instr& in);
  pto_status Matmul(const Instr& in);
  pto_status Subview(const Instr& in);
  void Print(const Instr& in, uint32_t block) const;
  pto_status TileOp(const Instr& in);
  pto_status Tsel(const Instr& in);
  pto_status GetVal(const Instr& in);
  pto_status LoopLimitError(const Instr& in);
  pto_status FloatInstr(const Instr& in);
  pto_status ScalarAccess(const Instr& in, bool load);
  pto_status AddPtr(const Instr& in);
  pto_status ArrayAccess(const Instr& in, bool get);
  std::string PointerName(uint32_t pointer) const {
    const uint32_t root = p_.pointer_root[pointer];
    for (const Param& q : p_.params)
      if (q.kind == PTO_PARAM_POINTER && q.reg == root)
        return "%" + q.name + (root == pointer ? "" : " (moved by pto.addptr)");
    return "a pointer";
  }

  const Program& p_;
  const std::vector<Binding>& bindings_;
  std::vector<int64_t> ints_;
  std::vector<double> floats_;
  std::vector<View> views_;
  std::vector<pto_tile> tiles_;
  std::vector<Binding> pointers_;
  UnifiedBuffer* ub_entry_ = nullptr;
  char* ub_ = nullptr;      // ub_entry_'s memory
  bool ub_zeroed_ = false;  // still as allocated: the first block needs no memset
  uint64_t loop_limit_;
  std::atomic<uint32_t>* turn_;
  uint32_t block_ = 0;                       // the block being run
  const std::atomic<bool>* stop_ = nullptr;  // its launch's stop flag
};

}  // namespace program
}  // namespace pto

#endif  // PTO_PROGRAM_BLOCK_H_
