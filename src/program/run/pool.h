// The threads that run a launch's blocks beside the calling thread: one pool
// per process, started on the first launch that wants threads, grown to the
// most any launch has wanted, kept for the life of the process (and started
// afresh in a child after fork, whose copy of the pool has no threads).
// Private to src/program/.
#ifndef PTO_PROGRAM_RUN_POOL_H_
#define PTO_PROGRAM_RUN_POOL_H_

namespace pto {
namespace program {

// Calls run(arg) on the calling thread and, at once, on up to `helpers` pool
// threads; returns when every one of those calls has returned. The calls
// share the work through arg (a counter of blocks, say), and the caller's call
// alone must be able to finish it: a pool thread may join late, after the
// work is gone, or not at all (each busy with another launch, or none could
// be started). run must not throw. Any number of threads may call this at
// once, each with its own arg; a pool thread runs one call at a time.
void RunShared(unsigned helpers, void (*run)(void*), void* arg);

}  // namespace program
}  // namespace pto

#endif  // PTO_PROGRAM_RUN_POOL_H_
