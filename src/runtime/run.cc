// One run of an orchestration: the calls it makes (PtoOrchOps), the memory
// the run knows, and the run itself (the orchestration called, then every
// task run, or the first error, or a graph that cannot go on). The task
// graph and its workers are run_tasks.cc's, a task's kernel run_bind.cc's.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <algorithm>
#include <exception>
#include <new>
#include <thread>

#include "run_state.h"

namespace pto_host {

std::string Where(PtoOrchSite site) {
    if (site.file == nullptr || *site.file == '\0') return "orchestration";
    return Format("%s:%d", site.file, site.line);
}

namespace {

RunState *State(void *ctx) { return static_cast<RunState *>(ctx); }

void OpSubmit(void *ctx, const MixedKernels *k, const CoreTaskArgs *a, bool dummy, TaskOutputTensors *out,
              PtoOrchSite site) {
    State(ctx)->Submit(k, a, dummy, out, site);
}
void OpAlloc(void *ctx, const CoreTaskArgs *a, TaskOutputTensors *out, PtoOrchSite site) {
    State(ctx)->Alloc(a, out, site);
}
void OpScopeBegin(void *ctx, PTO2ScopeMode mode, PtoOrchSite) { State(ctx)->ScopeBegin(mode); }
void OpScopeEnd(void *ctx) { State(ctx)->ScopeEnd(); }
int OpIsFatal(void *ctx) { return State(ctx)->fatal() ? 1 : 0; }
void OpReportFatal(void *ctx, int32_t code, PtoOrchSite site, const char *func, const char *fmt, va_list ap) {
    const std::string message = FormatV(fmt, ap);
    State(ctx)->ReportFatal(code == PTO2_ERROR_OUT_OF_MEMORY ? PTO_ERR_OUT_OF_MEMORY : PTO_ERR_INVALID_ARGUMENT,
                            Format("%s: %s: %s", Where(site).c_str(), func != nullptr ? func : "orchestration",
                                   message.c_str()));
}
void OpLog(void *, int level, const char *func, const char *fmt, va_list ap) {
    const char *env = getenv("PTO_RUNTIME_LOG");
    if (env == nullptr || atoi(env) < level + 1) return;
    static const char *const names[] = {"error", "warning", "info", "debug"};
    const std::string message = FormatV(fmt, ap);
    fprintf(stderr, "pto-runtime: %s: %s: %s\n", names[level & 3], func, message.c_str());
}
uint64_t OpGetTensorData(void *ctx, const ChipTensor *t, uint32_t ndims, const uint32_t *indices, PtoOrchSite site) {
    return State(ctx)->GetTensorData(t, ndims, indices, site);
}
void OpSetTensorData(void *ctx, const ChipTensor *t, uint32_t ndims, const uint32_t *indices, uint64_t value,
                     PtoOrchSite site) {
    State(ctx)->SetTensorData(t, ndims, indices, value, site);
}
int32_t OpClusterCount(void *ctx) { return State(ctx)->ClusterCount(); }
int32_t OpAivCount(void *ctx) { return 2 * State(ctx)->ClusterCount(); }

const PtoOrchOps kOps = {PTO_ORCH_ABI_VERSION, OpSubmit,        OpAlloc,         OpScopeBegin,
                         OpScopeEnd,           OpIsFatal,       OpReportFatal,   OpLog,
                         OpGetTensorData,      OpSetTensorData, OpClusterCount,  OpAivCount};

}  // namespace

void RunState::FailLocked(pto_status status, const std::string &message) {
    if (fatal()) return;
    status_ = status;
    error_ = message;
    fatal_flag_.store(true, std::memory_order_release);
    cv_.notify_all();
}

void RunState::ReportFatal(pto_status status, const std::string &message) {
    std::lock_guard<std::mutex> lock(mu_);
    FailLocked(status, message);
}

// ---------------------------------------------------------------------------
// Memory

Region *RunState::FindRegion(uint64_t lo, uint64_t hi) {
    auto it = regions_.upper_bound(lo);
    if (it == regions_.begin()) return nullptr;
    --it;
    Region *r = it->second.get();
    return lo >= r->start && hi <= r->end ? r : nullptr;
}

Region *RunState::AddRegion(uint64_t start, uint64_t end, void *owned) {
    auto r = std::make_unique<Region>();
    r->start = start;
    r->end = end;
    r->owned = owned;
    Region *p = r.get();
    regions_[start] = std::move(r);
    return p;
}

void RunState::AddCallerRegion(uint64_t lo, uint64_t hi) {
    if (hi == lo) return;
    // Caller memories that share bytes are one region.
    for (;;) {
        auto it = regions_.lower_bound(lo);
        Region *r = nullptr;
        if (it != regions_.begin() && std::prev(it)->second->end > lo) r = std::prev(it)->second.get();
        else if (it != regions_.end() && it->second->start < hi) r = it->second.get();
        if (r == nullptr) break;
        lo = std::min(lo, r->start);
        hi = std::max(hi, r->end);
        regions_.erase(r->start);
    }
    AddRegion(lo, hi, nullptr);
}

void RunState::ReleaseRegion(Region *r) {
    if (r->scope_held || r->tasks_holding > 0 || r->owned == nullptr) return;
    free(r->owned);
    regions_.erase(r->start);
}

bool RunState::Allocate(const TensorCreateInfo &ci, ChipTensor *out, PtoOrchSite site, const char *what) {
    const uint64_t element = get_element_size(ci.dtype);
    uint64_t bytes = element;
    bool ok = element != 0 && ci.ndims >= 1 && ci.ndims <= static_cast<uint32_t>(MAX_TENSOR_DIMS);
    for (uint32_t i = 0; ok && i < ci.ndims; i++) ok = !__builtin_mul_overflow(bytes, ci.shapes[i], &bytes);
    if (!ok || bytes > (uint64_t{1} << 40)) {
        ReportFatal(PTO_ERR_INVALID_ARGUMENT,
                    Format("%s: %s: a tensor of %u dimensions of dtype %s that cannot be allocated "
                           "(at most 5 dimensions and 2^40 bytes)",
                           Where(site).c_str(), what, ci.ndims, get_dtype_name(ci.dtype)));
        return false;
    }
    const uint64_t size = (std::max<uint64_t>(bytes, 1) + 63) / 64 * 64;
    void *mem = aligned_alloc(64, size);
    if (mem == nullptr) {
        ReportFatal(PTO_ERR_OUT_OF_MEMORY, Format("%s: %s: %llu bytes cannot be allocated", Where(site).c_str(),
                                                  what, static_cast<unsigned long long>(bytes)));
        return false;
    }
    if (ci.has_initial_value) {
        for (uint64_t at = 0; at < bytes; at += element) memcpy(static_cast<char *>(mem) + at, &ci.initial_value, element);
    } else {
        memset(mem, 0, bytes);
    }
    *out = make_tensor_external(mem, ci.shapes, ci.ndims, ci.dtype, ci.manual_dep);
    std::lock_guard<std::mutex> lock(mu_);
    Region *r = AddRegion(out->buffer.addr, out->buffer.addr + bytes, mem);
    r->scope_held = true;
    if (!scopes_.empty()) {
        scopes_.back().allocations.push_back(r);
    }  // else: held until the run ends
    return true;
}

void RunState::ScopeBegin(PTO2ScopeMode) {
    std::lock_guard<std::mutex> lock(mu_);
    scopes_.emplace_back();
}

void RunState::ScopeEnd() {
    std::lock_guard<std::mutex> lock(mu_);
    if (scopes_.empty()) return;
    for (Region *r : scopes_.back().allocations) {
        r->scope_held = false;
        ReleaseRegion(r);
    }
    scopes_.pop_back();
}

void RunState::Alloc(const CoreTaskArgs *args, TaskOutputTensors *out, PtoOrchSite site) {
    if (args->has_error) {
        return ReportFatal(PTO_ERR_INVALID_ARGUMENT, Format("%s: alloc_tensors: %s", Where(site).c_str(),
                                                            args->error_msg != nullptr ? args->error_msg : "bad arguments"));
    }
    for (int32_t i = 0; i < args->tensor_count(); i++) {
        if (args->tag(i) != TensorArgType::OUTPUT) {
            return ReportFatal(PTO_ERR_INVALID_ARGUMENT,
                               Format("%s: alloc_tensors: argument %d is a tensor, not a TensorCreateInfo", Where(site).c_str(), i));
        }
        made_tensors_.emplace_back();
        if (!Allocate(args->tensor(i).create_info(), &made_tensors_.back(), site, "alloc_tensors")) return;
        out->materialize_output(&made_tensors_.back());
    }
}

uint64_t RunState::ElementAddressLocked(const ChipTensor *t, uint32_t ndims, const uint32_t *indices,
                                        PtoOrchSite site, const char *what, Region **region) {
    const uint64_t element = get_element_size(t->dtype);
    uint64_t offset = t->start_offset;
    bool ok = element != 0 && (ndims == 0 || (ndims == t->ndims && indices != nullptr));
    for (uint32_t i = 0; ok && i < ndims; i++) {
        ok = indices[i] < t->shapes[i];
        offset += static_cast<uint64_t>(indices[i]) * t->strides[i];
    }
    const uint64_t addr = t->buffer.addr + offset * element;
    *region = ok ? FindRegion(addr, addr + element) : nullptr;
    if (*region == nullptr) {
        std::string idx;
        for (uint32_t i = 0; i < ndims && indices != nullptr; i++) idx += (i ? ", " : "") + std::to_string(indices[i]);
        FailLocked(PTO_ERR_OUT_OF_RANGE,
                   Format("%s: %s: element [%s] of a %s tensor is outside it or outside every tensor of the run",
                          Where(site).c_str(), what, idx.c_str(), t->dump().c_str()));
        return 0;
    }
    return addr;
}

uint64_t RunState::GetTensorData(const ChipTensor *t, uint32_t ndims, const uint32_t *indices, PtoOrchSite site) {
    std::unique_lock<std::mutex> lock(mu_);
    Region *region = nullptr;
    const uint64_t addr = ElementAddressLocked(t, ndims, indices, site, "get_tensor_data", &region);
    if (addr == 0) return 0;
    Access probe;
    probe.lo = addr;
    probe.hi = addr + get_element_size(t->dtype);
    probe.write = false;
    if (!WaitQuiet(probe, region, lock)) return 0;
    uint64_t bits = 0;
    memcpy(&bits, reinterpret_cast<const void *>(addr), probe.hi - probe.lo);
    return bits;
}

void RunState::SetTensorData(const ChipTensor *t, uint32_t ndims, const uint32_t *indices, uint64_t value,
                             PtoOrchSite site) {
    std::unique_lock<std::mutex> lock(mu_);
    Region *region = nullptr;
    const uint64_t addr = ElementAddressLocked(t, ndims, indices, site, "set_tensor_data", &region);
    if (addr == 0) return;
    Access probe;
    probe.lo = addr;
    probe.hi = addr + get_element_size(t->dtype);
    probe.write = true;
    if (!WaitQuiet(probe, region, lock)) return;
    memcpy(reinterpret_cast<void *>(addr), &value, probe.hi - probe.lo);
}

bool RunState::WaitQuiet(const Access &probe, Region *region, std::unique_lock<std::mutex> &lock) {
    for (;;) {
        if (fatal()) return false;
        bool busy = false;
        for (const Access *a : region->accesses)
            if (a->alive && (a->write || probe.write) && Overlap(*a, probe)) busy = true;
        if (!busy) return true;
        if (inline_) {
            if (ready_.empty()) {
                DiagnoseStuck();
                return false;
            }
            RunReadyInline(lock);
            continue;
        }
        if (Stuck()) {
            DiagnoseStuck();
            return false;
        }
        cv_.wait(lock);
    }
}

// ---------------------------------------------------------------------------
// The run

pto_status RunState::Execute(const pto_runtime_args &in) {
    const Orchestration &o = rt_->orchestration;
    // The caller's tensors: regions of memory (tensors that share bytes, one).
    auto chip = std::make_unique<ChipTaskArgs>();
    std::vector<ChipTensor> tensors = in.tensors;
    if (tensors.size() > static_cast<size_t>(CHIP_MAX_TENSOR_ARGS) || in.scalars.size() > static_cast<size_t>(CHIP_MAX_SCALAR_ARGS))
        return Fail(PTO_ERR_INVALID_ARGUMENT, "pto_runtime_run: %zu tensors and %zu scalars (at most %d and %d)",
                    tensors.size(), in.scalars.size(), CHIP_MAX_TENSOR_ARGS, CHIP_MAX_SCALAR_ARGS);
    for (const ChipTensor &t : tensors) AddCallerRegion(t.buffer.addr, t.buffer.addr + t.buffer.size);
    for (const auto &m : in.memories)
        AddCallerRegion(reinterpret_cast<uint64_t>(m.first), reinterpret_cast<uint64_t>(m.first) + m.second);
    for (const ChipTensor &t : tensors) chip->add_tensor(t);
    for (uint64_t s : in.scalars) chip->add_scalar(s);
    if (o.config != nullptr) {
        const PTO2OrchestrationConfig config = o.config(*chip);
        const size_t given = tensors.size() + in.scalars.size();
        if (config.expected_arg_count >= 0 && static_cast<size_t>(config.expected_arg_count) != given)
            return Fail(PTO_ERR_INVALID_ARGUMENT,
                        "pto_runtime_run: the orchestration %s takes %d arguments; %zu tensors and %zu scalars given",
                        rt_->orchestration_path.c_str(), config.expected_arg_count, tensors.size(), in.scalars.size());
    }

    std::vector<std::thread> pool;
    try {
        for (uint32_t i = 0; !inline_ && i < workers_; i++) pool.emplace_back([this] { Worker(); });
    } catch (const std::exception &e) {
        // The threads started see the error and end; joined below.
        ReportFatal(PTO_ERR_OUT_OF_MEMORY, Format("pto_runtime_run: %u worker threads cannot be started (%s)",
                                                  workers_, e.what()));
    }
    if (fatal()) {
        // Nothing runs.
    } else if (o.bind(&kOps, this) != PTO_ORCH_ABI_VERSION) {
        ReportFatal(PTO_ERR_INVALID_ARGUMENT, Format("%s was built for another version of the runtime's table",
                                                     o.library.c_str()));
    } else {
        try {
            o.entry(*chip);
        } catch (const std::bad_alloc &) {
            ReportFatal(PTO_ERR_OUT_OF_MEMORY, Format("%s: out of memory while the orchestration ran",
                                                      rt_->orchestration_path.c_str()));
        } catch (const std::exception &e) {
            ReportFatal(PTO_ERR_INVALID_ARGUMENT, Format("%s: aicpu_orchestration_entry threw: %s",
                                                         rt_->orchestration_path.c_str(), e.what()));
        } catch (...) {
            ReportFatal(PTO_ERR_INVALID_ARGUMENT,
                        Format("%s: aicpu_orchestration_entry threw", rt_->orchestration_path.c_str()));
        }
        o.bind(nullptr, nullptr);
    }
    {
        std::unique_lock<std::mutex> lock(mu_);
        // Scopes the orchestration left open end with it.
        while (!scopes_.empty()) {
            for (Region *r : scopes_.back().allocations) {
                r->scope_held = false;
                ReleaseRegion(r);
            }
            scopes_.pop_back();
        }
        orchestration_done_ = true;
        cv_.notify_all();
        if (!fatal() && !waiting_for_id_.empty()) DiagnoseStuck();
        while (!fatal() && finished_ < tasks_.size()) {
            if (inline_) {
                RunReadyInline(lock);
                if (!fatal() && finished_ < tasks_.size() && ready_.empty()) DiagnoseStuck();
            } else if (Stuck()) {
                DiagnoseStuck();
            } else {
                cv_.wait(lock);
            }
        }
        cv_.notify_all();
    }
    for (std::thread &th : pool) th.join();
    rt_->last_tasks = launched_;
    rt_->last_max_concurrent = max_running_;
    if (fatal()) return Fail(status_, "%s", error_.c_str());
    return PTO_OK;
}

pto_status Run(pto_runtime *rt, const pto_runtime_args &args) {
    uint32_t workers = rt->workers;
    if (workers == 0) {
        const long n = sysconf(_SC_NPROCESSORS_ONLN);
        workers = n > 0 ? static_cast<uint32_t>(std::min<long>(n, 1024)) : 1;
    }
    RunState state(rt, workers);
    return state.Execute(args);
}

}  // namespace pto_host
