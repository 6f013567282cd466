// Launches: blocks run on the calling thread and the pool's threads
// (pool.cc), each thread with its own block state (a Block, or the cores of
// a program with pipes); the first failure stops the others and is reported.
#include "program/run/execute.h"

#include <stdlib.h>
#include <unistd.h>

#include <atomic>
#include <mutex>
#include <new>
#include <string>
#include <thread>
#include <vector>

#include "board.h"
#include "cube_mode.h"
#include "error.h"
#include "float_env.h"
#include "program/run/block.h"
#include "program/run/pipes.h"
#include "program/run/pool.h"

namespace pto {
namespace program {

namespace {

// The first failure of a launch, carried to the calling thread.
struct FirstError {
  std::mutex mutex;
  pto_status status = PTO_OK;
  std::string message;
  void Record(pto_status s) {
    std::lock_guard<std::mutex> lock(mutex);
    if (status != PTO_OK) return;
    status = s;
    message = LastError();
  }
};

// How many threads run a launch of `blocks` blocks: the online CPUs, or
// PTO_NUM_THREADS where set to a positive number, at most one per block.
// Read at each launch, so a change of PTO_NUM_THREADS applies to the next one.
unsigned WorkerCount(uint32_t blocks) {
  if (blocks == 1) return 1;
  // sysconf reads /sys (microseconds): once per process.
  static const long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  unsigned n = cpus < 1 ? 1u : static_cast<unsigned>(cpus);
  if (const char* env = getenv("PTO_NUM_THREADS")) {
    char* end = nullptr;
    const long v = strtol(env, &end, 10);
    if (end != env && *end == '\0' && v > 0) n = static_cast<unsigned>(v < 1024 ? v : 1024);
  }
  return n < blocks ? n : blocks;
}

// PTO_LOOP_LIMIT: the most loop turns (scf.for steps and scf.while returns)
// a block may take, 0 (unset or not a positive number) for no limit; a guard
// for programs whose loops might not end (a fuzzer's, a kernel being written).
uint64_t LoopLimit() {
  const char* env = getenv("PTO_LOOP_LIMIT");
  if (env == nullptr) return 0;
  char* end = nullptr;
  const unsigned long long v = strtoull(env, &end, 10);
  return end != env && *end == '\0' && env[0] != '-' ? v : 0;
}

// What the threads running one launch share.
struct LaunchState {
  LaunchState(const Program& program, const std::vector<Binding>& b, uint32_t n, uint64_t limit)
      : p(program), bindings(b), blocks(n), loop_limit(limit), board(ThreadBoardState()),
        cube_mode(ThreadCubeMode()) {}
  const Program& p;
  const std::vector<Binding>& bindings;
  uint32_t blocks;
  uint64_t loop_limit;
  BoardState board;  // the launching thread's board mode and warning handler
  CubeMode cube_mode;  // the launching thread's HF32 and TF32 modes
  std::atomic<uint32_t> next{0};  // the next block to run
  std::atomic<bool> stop{false};  // a block failed
  std::atomic<uint32_t> turn{0};  // blocks finished in order (Program::ordered_adds)
  FirstError first;
};

// Runs blocks on `state` (a Block, or the BlockCores of a program with pipes).
template <typename State>
void RunBlocksOn(State& state, LaunchState* s) {
  if (!state.Allocate()) {
    s->first.Record(Fail(PTO_ERR_OUT_OF_MEMORY, "pto_program_launch",
                         "no memory for a block's unified buffer"));
    s->stop.store(true);
    return;
  }
  for (;;) {
    if (s->stop.load(std::memory_order_relaxed)) return;
    const uint32_t block = s->next.fetch_add(1);
    if (block >= s->blocks) return;
    const pto_status status = state.Run(block, s->blocks, s->stop);
    if (status != PTO_OK) {
      s->first.Record(status);
      s->stop.store(true);
      return;
    }
  }
}

void RunBlocks(LaunchState* s) {
  const FloatEnvironmentGuard float_env(s->p.uses_float);
  const BoardScope board(s->board);
  const CubeModeScope cube_mode(s->cube_mode);
  if (s->p.vector_cores != 0) {
    BlockCores cores(s->p, s->bindings, s->loop_limit, &s->turn);
    RunBlocksOn(cores, s);
  } else {
    Block state(s->p, s->bindings, s->loop_limit, &s->turn);
    RunBlocksOn(state, s);
  }
}

// Runs blocks from the shared counter until none is left or one failed (on
// the caller and on pool threads: RunShared's run).
void Work(void* arg) {
  LaunchState* s = static_cast<LaunchState*>(arg);
  // A pool thread that joins after the last block was taken has nothing to set up.
  if (s->stop.load(std::memory_order_relaxed) ||
      s->next.load(std::memory_order_relaxed) >= s->blocks)
    return;
  try {
    RunBlocks(s);
  } catch (const std::bad_alloc&) {
    s->first.Record(Fail(PTO_ERR_OUT_OF_MEMORY, "pto_program_launch", "out of memory"));
    s->stop.store(true);
  }
}

}  // namespace

// A launch whose blocks may wait for each other (a program with comm
// operations: signals between blocks) runs every block at once, a thread of
// its own each beside the caller's, whatever the CPUs. Each thread takes
// blocks from the shared counter as in any launch: with as many threads as
// blocks, every block is taken by a thread that runs it to its end.
void RunCoResident(LaunchState* s, uint32_t blocks) {
  std::vector<std::thread> threads;
  try {
    threads.reserve(blocks - 1);
    for (uint32_t i = 1; i < blocks; ++i) threads.emplace_back(Work, s);
  } catch (const std::exception&) {
    s->first.Record(Fail(PTO_ERR_OUT_OF_MEMORY, "pto_program_launch",
                         "could not start a thread for each of the %u blocks of a launch with "
                         "comm operations (they run at once)",
                         blocks));
    s->stop.store(true);
  }
  if (!s->stop.load()) Work(s);
  for (std::thread& t : threads) t.join();

}

pto_status Launch(const Program& p, uint32_t blocks, const std::vector<Binding>& bindings) {
  LaunchState s(p, bindings, blocks, LoopLimit());
  if (p.uses_comm && blocks > 1) {
    RunCoResident(&s, blocks);
    if (s.first.status != PTO_OK) {
      SetLastError(s.first.message.c_str());
      return s.first.status;
    }
    return PTO_OK;
  }
  // One thread: no pool at all (qemu-user, where threads can hang, runs
  // with PTO_NUM_THREADS=1).
  const unsigned workers = WorkerCount(blocks);
  if (workers > 1) RunShared(workers - 1, Work, &s);
  else Work(&s);
  if (s.first.status != PTO_OK) {
    SetLastError(s.first.message.c_str());
    return s.first.status;
  }
  return PTO_OK;
}

}  // namespace program
}  // namespace pto
