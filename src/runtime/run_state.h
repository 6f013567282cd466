// The state of one run of an orchestration, which its calls and the run
// itself (run.cc), the task graph and the workers (run_tasks.cc) and the
// binding of a task's kernel (run_bind.cc) share.
#ifndef PTO_RUNTIME_RUN_STATE_H_
#define PTO_RUNTIME_RUN_STATE_H_

#include <stdint.h>

#include <atomic>
#include <condition_variable>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "graph.h"

namespace pto_host {

// CLOCK_MONOTONIC in nanoseconds (the tap's times).
uint64_t MonotonicNs();

// The state of one run; the ops table's ctx.
class RunState {
public:
    // One worker runs the tasks on the calling thread (inline), except in
    // board mode, where a worker thread of the runtime's own runs them.
    RunState(pto_runtime *rt, uint32_t workers)
        : rt_(rt), workers_(workers), inline_(workers == 1 && !rt->board) {}
    ~RunState() {
        for (auto &entry : regions_) free(entry.second->owned);
    }

    pto_status Execute(const pto_runtime_args &args);

    // The ops table's functions.
    void Submit(const MixedKernels *kernels, const CoreTaskArgs *args, bool dummy, TaskOutputTensors *out,
                PtoOrchSite site);
    void Alloc(const CoreTaskArgs *args, TaskOutputTensors *out, PtoOrchSite site);
    void ScopeBegin(PTO2ScopeMode mode);
    void ScopeEnd();
    bool fatal() const { return fatal_flag_.load(std::memory_order_acquire); }
    // Stops the run with its first error (FailLocked: with mu_ held).
    void ReportFatal(pto_status status, const std::string &message);
    void FailLocked(pto_status status, const std::string &message);
    uint64_t GetTensorData(const ChipTensor *t, uint32_t ndims, const uint32_t *indices, PtoOrchSite site);
    void SetTensorData(const ChipTensor *t, uint32_t ndims, const uint32_t *indices, uint64_t value,
                       PtoOrchSite site);
    int32_t ClusterCount() const { return rt_->profile == PTO_PROFILE_A5 ? 36 : 24; }

private:
    struct Scope {
        std::vector<Region *> allocations;
    };

    // Memory.
    Region *FindRegion(uint64_t lo, uint64_t hi);
    Region *AddRegion(uint64_t start, uint64_t end, void *owned);
    void AddCallerRegion(uint64_t lo, uint64_t hi);  // before the workers start
    void ReleaseRegion(Region *r);  // with mu_ held
    bool Allocate(const TensorCreateInfo &ci, ChipTensor *out, PtoOrchSite site, const char *what);
    // The task's accesses and dependencies, with mu_ held.
    void Link(Task *t, Task *before);
    void AddAccess(Task *t, Region *r, std::unique_ptr<Access> a);
    // Element address of a tensor's indices, checked (mu_ held); 0 after an
    // error.
    uint64_t ElementAddressLocked(const ChipTensor *t, uint32_t ndims, const uint32_t *indices, PtoOrchSite site,
                                  const char *what, Region **region);
    // Waits (running ready tasks itself with one worker) until no unfinished
    // task's access overlapping probe conflicts with it; false if the run
    // stopped or cannot go on.
    bool WaitQuiet(const Access &probe, Region *region, std::unique_lock<std::mutex> &lock);

    // Scheduling.
    void MakeReady(Task *t);  // with mu_ held
    void RunTask(Task *t);    // without mu_
    void Finish(Task *t);     // with mu_ held
    void Worker();
    void RunReadyInline(std::unique_lock<std::mutex> &lock);
    bool Stuck() const { return ready_.empty() && running_ == 0; }
    void DiagnoseStuck();  // with mu_ held

    // The session's tap (tap.cc): the task's tensors and scalars kept at
    // its submission; the tap called at event (false: it stopped the run).
    void KeepForTap(Task *t, const ChipTensor *const *tensors, int32_t ntensors, const CoreTaskArgs &args);
    bool Tap(Task *t, uint32_t event, uint64_t start_ns, uint64_t end_ns);

    // A submission's steps: its kernel and blocks, its parameters bound, its
    // dependencies (the Link* with mu_ held); false after an error.
    bool ChooseKernel(Task *t, const MixedKernels &mk, int32_t blocks, PtoOrchSite site);
    bool BindKernel(Task *t, const ChipTensor *const *tensors, int32_t ntensors, const CoreTaskArgs &args);
    bool BindDims(Task *t, const ChipTensor *const *tensors, int32_t ntensors, size_t nscalars);
    bool BindScalarPointer(Task *t, size_t index, uint64_t addr);
    bool LinkTensors(Task *t, const std::vector<const ChipTensor *> &tensors, const CoreTaskArgs &args);
    bool LinkPredicate(Task *t, const CoreTaskPredicate &p);
    bool LinkExplicit(Task *t, const CoreTaskArgs &args);

    pto_runtime *rt_;
    uint32_t workers_;
    bool inline_;  // tasks run on the calling thread
    std::mutex mu_;
    std::condition_variable cv_;
    std::atomic<bool> fatal_flag_{false};
    pto_status status_ = PTO_OK;
    std::string error_;
    std::deque<std::unique_ptr<Task>> tasks_;
    std::deque<Task *> ready_;
    uint32_t running_ = 0, max_running_ = 0, finished_ = 0;
    uint64_t launched_ = 0;
    bool orchestration_done_ = false;
    std::map<uint64_t, std::unique_ptr<Region>> regions_;  // by start
    std::deque<ChipTensor> made_tensors_;  // tensors the run allocated (stable addresses)
    std::vector<Scope> scopes_;
    std::unordered_map<uint64_t, std::vector<Task *>> waiting_for_id_;
    // The workspace bound to a prefetch's workspace parameter (PyPTO's SDMA
    // workspace, get_dma_workspace on the NPU): opaque, never read or
    // written by libpto's prefetch.
    alignas(64) unsigned char dma_workspace_[64] = {};
};

}  // namespace pto_host

#endif  // PTO_RUNTIME_RUN_STATE_H_
