// A program with pipes runs each block as its cores (execute_pipes.cc): the
// cube's state and each vector core's, each a Block over its own registers
// and memories, taking turns on the block's thread. A core runs until it
// ends or waits on a pipe (a push to a full one, a pop from an empty one);
// then the next core in order runs. The turns are fixed, so the results do
// not depend on threads; a round in which no core moves is a deadlock,
// reported at the waiting instruction. Private to src/program/.
#ifndef PTO_PROGRAM_RUN_PIPES_H_
#define PTO_PROGRAM_RUN_PIPES_H_

#include <stdint.h>

#include <atomic>
#include <memory>
#include <vector>

#include "program/ir/program.h"
#include "program/run/block.h"

namespace pto {
namespace program {

// The FIFOs of one block's pipes (Program::pipes), their slots holding the
// whole (pre-split) tiles, row-major.
class Pipes {
 public:
  enum class SlotState : uint8_t { kFree, kFilling, kReady };
  struct Slot {
    uint64_t message = 0;  // the push count this slot holds or will hold next
    SlotState state = SlotState::kFree;
    uint32_t writers_left = 0, readers_left = 0;  // pushes to come, frees to come
    uint32_t rows = 0, cols = 0;                  // the whole tile's valid region
    pto_dtype dtype = PTO_FLOAT32;
    SourceLoc pushed_at;                          // the first push's instruction
    bool in_gm = false;  // written in global memory (talloc_to_*), not into data
    std::vector<char> data;  // grown to the largest tile pushed into it
  };
  struct Fifo {
    std::vector<Slot> slots;
    // Per core (0 the cube, 1 + i vector core i): the messages it pushed,
    // popped and freed.
    std::vector<uint64_t> pushed, popped, freed;
    // Each end's global memory for its slots (0 the cube's, 1 the vector
    // cores'), as its initialisation gave it: a pointer and an element offset.
    struct Gm {
      bool set = false;
      uint32_t pointer = 0;
      int64_t offset = 0;
    } gm[2];
  };

  Pipes(const Program& p, uint32_t cores);
  // Empties every pipe (a block starts with none in flight).
  void Reset();
  Fifo& fifo(uint32_t pipe) { return fifos_[pipe]; }

 private:
  std::vector<Fifo> fifos_;
};

// The cores of one block: the Block interface RunBlocks uses (Allocate,
// Run), for a program with pipes.
class BlockCores {
 public:
  BlockCores(const Program& p, const std::vector<Binding>& bindings, uint64_t loop_limit,
             std::atomic<uint32_t>* turn);
  bool Allocate();
  pto_status Run(uint32_t block, uint32_t blocks, const std::atomic<bool>& stop);

 private:
  // The error of a block whose every unfinished core waits on a pipe.
  pto_status Deadlock(uint32_t block) const;

  const Program& p_;
  Pipes pipes_;
  std::vector<std::unique_ptr<Block>> cores_;  // the cube, then the vector cores
};

}  // namespace program
}  // namespace pto

#endif  // PTO_PROGRAM_RUN_PIPES_H_
