// One run's memory and task graph: the regions of memory the run knows (the
// caller's tensors, the tensors it allocates), each task's accesses to them,
// and the dependencies those give.
#ifndef PTO_RUNTIME_GRAPH_H_
#define PTO_RUNTIME_GRAPH_H_

#include <stdint.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "runtime.h"

namespace pto_host {

struct Task;

// "FILE:LINE" of an orchestration's call ("orchestration" where unknown).
std::string Where(PtoOrchSite site);

// The bytes one task argument reaches, and whether the task writes them.
// Where the view's strides nest (each a multiple of the next, each
// dimension inside its parent's step), the view is a box on that grid and
// two boxes on one grid are compared exactly; otherwise by their hulls.
struct Access {
    Task *task = nullptr;
    bool write = false;
    bool alive = true;  // false once the task has run or a covering write made it redundant
    // Waits for earlier writers (PTO_RUNTIME_ORDER_PTO2: false for an
    // OUTPUT tensor, which waits for no earlier access).
    bool lookup = true;
    uint64_t lo = 0, hi = 0;  // the hull, absolute bytes [lo, hi)
    bool dense = false;       // every byte of the hull is an element's
    bool box = false;
    uint32_t ndims = 0;
    uint64_t element = 0;                  // element bytes
    uint64_t stride[MAX_TENSOR_DIMS] = {};  // bytes, descending
    uint64_t first[MAX_TENSOR_DIMS] = {};   // the box: [first, first + count) on each axis
    uint64_t count[MAX_TENSOR_DIMS] = {};
    uint64_t remainder = 0;                 // the origin's bytes below the smallest stride
};

// Describes view as an access; origin is the start of the region it lies in
// (the boxes of one region are on one grid).
Access DescribeView(const ChipTensor &view, uint64_t origin, bool write);
// Whether two accesses share a byte.
bool Overlap(const Access &a, const Access &b);
// Whether every byte b reaches is one a writes (a then makes b redundant).
bool Covers(const Access &a, const Access &b);

// A range of memory the run knows: a caller's tensor (tensors that share
// bytes are one region) or an allocation of the run.
struct Region {
    uint64_t start = 0, end = 0;
    void *owned = nullptr;        // the allocation, freed when the region is
    bool scope_held = false;      // its scope has not ended
    Task *creator = nullptr;      // the task whose OUTPUT allocated it
    uint32_t tasks_holding = 0;   // unfinished tasks that use it
    std::vector<Access *> accesses;  // of unfinished tasks, in submission order
};

// One submitted task.
struct Task {
    uint32_t id = 0;
    PtoOrchSite site{"", 0};
    bool dummy = false;
    const Kernel *kernel = nullptr;  // the kernel whose program runs
    int32_t kernel_ids[3] = {-1, -1, -1};
    pto_program *program = nullptr;
    pto_args *args = nullptr;
    uint32_t blocks = 1;
    uint32_t lanes = 1;            // 2: two vector lanes, lane_param bound to each
    size_t lane_param = SIZE_MAX;
    std::vector<std::unique_ptr<Access>> accesses;
    std::vector<std::unique_ptr<Access>> pointer_scalars;  // bound, not yet linked
    std::vector<Region *> regions;  // held until the task has run
    // The dispatch predicate (CoreTaskPredicate), when there is one.
    bool has_predicate = false;
    ChipTensor predicate_tensor{};
    uint32_t predicate_indices[MAX_TENSOR_DIMS] = {};
    PredicateOp predicate_op = PredicateOp::NONE;
    int64_t predicate_target = 0;
    // The graph.
    uint32_t pending = 0;             // unfinished tasks it waits for
    std::vector<Task *> dependents;   // tasks that wait for it
    std::vector<Task *> waits_for;    // for the diagnosis of a run that cannot go on
    std::vector<uint64_t> waits_for_unsubmitted;  // explicit dependencies on later ids
    bool started = false, done = false;
    // For the session's tap only (tap.cc): the task's tensors and scalars
    // as submitted, and which tensors it may write.
    std::vector<ChipTensor> tap_tensors;
    std::vector<uint64_t> tap_scalars;
    std::vector<bool> tap_written;

    ~Task();
    // "FILE:LINE: task N (kernel K 'FUNCTION', PATH, B blocks)".
    std::string Describe() const;
};

}  // namespace pto_host

#endif  // PTO_RUNTIME_GRAPH_H_
