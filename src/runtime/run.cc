// One run of an orchestration: the calls it makes (PtoOrchOps), the task
// graph they build, the workers that run the tasks whose dependencies are
// met, and the end of the run (every task run, or the first error, or a
// graph that cannot go on).
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <exception>
#include <mutex>
#include <new>
#include <thread>
#include <unordered_map>

#include "graph.h"

namespace pto_host {

namespace {

pto_dtype ToPtoDtype(DataType t, bool *known) {
    *known = true;
    switch (t) {
    case DataType::FLOAT32: return PTO_FLOAT32;
    case DataType::FLOAT16: return PTO_FLOAT16;
    case DataType::BFLOAT16: return PTO_BFLOAT16;
    case DataType::INT8: case DataType::BOOL: return PTO_INT8;
    case DataType::UINT8: return PTO_UINT8;
    case DataType::INT16: return PTO_INT16;
    case DataType::UINT16: return PTO_UINT16;
    case DataType::INT32: return PTO_INT32;
    case DataType::UINT32: return PTO_UINT32;
    case DataType::INT64: return PTO_INT64;
    case DataType::UINT64: return PTO_UINT64;
    case DataType::FP8E4M3FN: return PTO_FLOAT8_E4M3;
    case DataType::FP8E5M2: return PTO_FLOAT8_E5M2;
    case DataType::FP8E8M0: return PTO_FLOAT8_E8M0;
    case DataType::FP4E2M1: return PTO_FLOAT4_E2M1X2;
    default: *known = false; return PTO_FLOAT32;
    }
}

bool IsInteger(pto_dtype d) {
    return d == PTO_INT8 || d == PTO_UINT8 || d == PTO_INT16 || d == PTO_UINT16 || d == PTO_INT32 ||
           d == PTO_UINT32 || d == PTO_INT64 || d == PTO_UINT64;
}

// Whether a tensor of dtype t may be bound to a pointer of element type p:
// the same type, or integers of one width (PTO's signless integers).
bool Compatible(pto_dtype t, pto_dtype p) {
    return t == p || (IsInteger(t) && IsInteger(p) && pto_dtype_size(t) == pto_dtype_size(p));
}

const char *KindName(pto_param_kind k) {
    switch (k) {
    case PTO_PARAM_POINTER: return "a pointer";
    case PTO_PARAM_INT: return "an integer";
    case PTO_PARAM_FLOAT: return "a float";
    case PTO_PARAM_TILE: return "a tile";
    }
    return "a parameter";
}

// A float's value from the bits the orchestration passed for a parameter of
// type dtype (to_u64 of a float of that width).
double FloatFromBits(uint64_t bits, pto_dtype dtype) {
    if (dtype == PTO_FLOAT16 || dtype == PTO_BFLOAT16) {
        uint16_t h = static_cast<uint16_t>(bits);
        float f = 0;
        if (dtype == PTO_BFLOAT16) {
            const uint32_t w = static_cast<uint32_t>(h) << 16;
            memcpy(&f, &w, 4);
            return f;
        }
        // binary16 -> double, exactly.
        const int sign = (h >> 15) != 0 ? -1 : 1;
        const int exp = (h >> 10) & 0x1f;
        const int man = h & 0x3ff;
        if (exp == 0x1f) return man != 0 ? __builtin_nan("") : sign * __builtin_inf();
        if (exp == 0) return sign * ldexp(man, -24);
        return sign * ldexp(man + 1024, exp - 25);
    }
    return from_u64<float>(bits);
}

}  // namespace

std::string Where(PtoOrchSite site) {
    if (site.file == nullptr || *site.file == '\0') return "orchestration";
    return Format("%s:%d", site.file, site.line);
}

// The state of one run; the ops table's ctx.
class RunState {
public:
    RunState(pto_runtime *rt, uint32_t workers) : rt_(rt), workers_(workers) {}
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

    // A submission's steps: its kernel and blocks, its parameters bound, its
    // dependencies (the Link* with mu_ held); false after an error.
    bool ChooseKernel(Task *t, const MixedKernels &mk, int32_t blocks, PtoOrchSite site);
    bool BindKernel(Task *t, const ChipTensor *const *tensors, int32_t ntensors, const CoreTaskArgs &args);
    bool BindScalarPointer(Task *t, size_t index, uint64_t addr);
    bool LinkTensors(Task *t, const std::vector<const ChipTensor *> &tensors, const CoreTaskArgs &args);
    bool LinkPredicate(Task *t, const CoreTaskPredicate &p);
    bool LinkExplicit(Task *t, const CoreTaskArgs &args);

    pto_runtime *rt_;
    uint32_t workers_;
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
};

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
        if (workers_ == 1) {
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
// Submission

void RunState::Link(Task *t, Task *before) {
    if (before == t || before->done) return;
    if (!before->dependents.empty() && before->dependents.back() == t) return;  // linked already
    before->dependents.push_back(t);
    t->waits_for.push_back(before);
    t->pending++;
}

void RunState::AddAccess(Task *t, Region *r, std::unique_ptr<Access> a) {
    a->task = t;
    // Earlier tasks that share a byte with a write, or write a byte this
    // reads, run first; those a write covers need not be looked at again.
    std::vector<Access *> &list = r->accesses;
    size_t kept = 0;
    for (size_t i = 0; i < list.size(); i++) {
        Access *e = list[i];
        if (!e->alive) continue;
        if ((e->write || a->write) && e->task != t && Overlap(*e, *a)) {
            Link(t, e->task);
            if (Covers(*a, *e)) e->alive = false;
        }
        if (e->alive) list[kept++] = e;
    }
    list.resize(kept);
    list.push_back(a.get());
    if (std::find(t->regions.begin(), t->regions.end(), r) == t->regions.end()) {
        t->regions.push_back(r);
        r->tasks_holding++;
    }
    t->accesses.push_back(std::move(a));
}

bool RunState::BindScalarPointer(Task *t, size_t index, uint64_t addr) {
    const pto_program *program = t->program;
    const uint64_t element = pto_dtype_size(pto_program_param_dtype(program, index));
    Region *r = nullptr;
    {
        std::lock_guard<std::mutex> lock(mu_);
        r = addr <= UINT64_MAX - element ? FindRegion(addr, addr + element) : nullptr;
        if (r != nullptr) {
            // The kernel may reach from the address to the region's end.
            auto a = std::make_unique<Access>();
            a->lo = addr;
            a->hi = r->end;
            a->write = (pto_program_param_access(program, index) & PTO_PARAM_WRITE) != 0;
            t->pointer_scalars.push_back(std::move(a));
        }
    }
    if (r == nullptr) {
        ReportFatal(PTO_ERR_OUT_OF_RANGE,
                    Format("%s: scalar 0x%llx for pointer parameter %zu (%%%s) lies in no tensor or memory of the run "
                           "(pto_runtime_args_add_memory)",
                           t->Describe().c_str(), static_cast<unsigned long long>(addr), index,
                           pto_program_param_name(program, index)));
        return false;
    }
    const uint64_t bytes = (r->end - addr) / element * element;
    const pto_status st = pto_args_set_pointer(t->args, index, reinterpret_cast<void *>(addr), bytes);
    if (st != PTO_OK) {
        ReportFatal(st, t->Describe() + ": " + pto_last_error());
        return false;
    }
    return true;
}

bool RunState::BindKernel(Task *t, const ChipTensor *const *tensors, int32_t ntensors, const CoreTaskArgs &args) {
    const Kernel &k = *t->kernel;
    pto_program *program = t->program;
    // Only an error needs the task's description.
    auto where_text = [t] { return t->Describe(); };
    size_t params = pto_program_param_count(program);
    if (t->lanes > 1 && pto_program_param_find(program, "__pto_runtime_lane_idx___", &t->lane_param) == PTO_OK)
        params--;  // the lane's index, last
    else if (t->lanes > 1)
        t->lanes = 1;  // a kernel without a sub-block id: both lanes would do the same work
    const size_t nscalars = static_cast<size_t>(args.scalar_count());
    const size_t ndims = k.dims.size();
    if (params != static_cast<size_t>(ntensors) + nscalars + ndims) {
        ReportFatal(PTO_ERR_INVALID_ARGUMENT,
                    Format("%s: the kernel takes %zu parameters; the task gives %d tensors and %zu scalars%s", where_text().c_str(),
                           params, ntensors, nscalars,
                           k.has_dims ? Format(" and the kernel table %zu dims", ndims).c_str()
                                      : " (the kernel table's 'dims' give the parameters after the scalars)"));
        return false;
    }
    if (pto_args_create(program, &t->args) != PTO_OK) {
        ReportFatal(PTO_ERR_OUT_OF_MEMORY, where_text() + ": " + pto_last_error());
        return false;
    }
    for (int32_t i = 0; i < ntensors; i++) {
        const ChipTensor &v = *tensors[i];
        const pto_param_kind kind = pto_program_param_kind(program, i);
        const char *name = pto_program_param_name(program, i);
        if (kind != PTO_PARAM_POINTER) {
            ReportFatal(PTO_ERR_INVALID_ARGUMENT, Format("%s: parameter %d (%%%s) is %s; the task's tensor %d is a "
                                                         "tensor", where_text().c_str(), i, name, KindName(kind), i));
            return false;
        }
        bool known = false;
        const pto_dtype dt = ToPtoDtype(v.dtype, &known);
        const pto_dtype pd = pto_program_param_dtype(program, i);
        if (!known || !Compatible(dt, pd)) {
            ReportFatal(PTO_ERR_DTYPE_MISMATCH, Format("%s: parameter %d (%%%s) points to %s; the task's tensor %d is %s",
                                                       where_text().c_str(), i, name, pto_dtype_string(pd), i,
                                                       get_dtype_name(v.dtype)));
            return false;
        }
        const uint64_t element = get_element_size(v.dtype);
        void *data = reinterpret_cast<void *>(v.buffer.addr + v.start_offset * element);
        const pto_status st = pto_args_set_pointer(t->args, i, data, v.extent_elem() * element);
        if (st != PTO_OK) {
            ReportFatal(st, where_text() + ": " + pto_last_error());
            return false;
        }
    }
    for (size_t j = 0; j < nscalars; j++) {
        const size_t index = static_cast<size_t>(ntensors) + j;
        const uint64_t bits = args.scalar(static_cast<int32_t>(j));
        const pto_param_kind kind = pto_program_param_kind(program, index);
        pto_status st = PTO_OK;
        if (kind == PTO_PARAM_INT) {
            // 64 bits as they are, else (an i32 passed as its 32 bits) the
            // low half sign-extended; i8 and i16 from their low bits.
            const pto_dtype pd = pto_program_param_dtype(program, index);
            if (pd == PTO_INT8) st = pto_args_set_int(t->args, index, static_cast<int8_t>(bits));
            else if (pd == PTO_INT16) st = pto_args_set_int(t->args, index, static_cast<int16_t>(bits));
            else if ((st = pto_args_set_int(t->args, index, static_cast<int64_t>(bits))) == PTO_ERR_OUT_OF_RANGE)
                st = pto_args_set_int(t->args, index, static_cast<int32_t>(bits));
        } else if (kind == PTO_PARAM_FLOAT) {
            st = pto_args_set_float(t->args, index, FloatFromBits(bits, pto_program_param_dtype(program, index)));
        } else if (kind == PTO_PARAM_POINTER) {
            if (!BindScalarPointer(t, index, bits)) return false;
        } else {
            ReportFatal(PTO_ERR_INVALID_ARGUMENT, Format("%s: parameter %zu (%%%s) is %s; the task's scalar %zu is a "
                                                         "scalar", where_text().c_str(), index,
                                                         pto_program_param_name(program, index), KindName(kind), j));
            return false;
        }
        if (st != PTO_OK) {
            ReportFatal(st, Format("%s: scalar %zu: %s", where_text().c_str(), j, pto_last_error()));
            return false;
        }
    }
    for (size_t d = 0; d < ndims; d++) {
        const size_t index = static_cast<size_t>(ntensors) + nscalars + d;
        int64_t value = 0;
        std::string error;
        if (!EvalDimExpr(k.dims[d], tensors, ntensors, &value, &error)) {
            ReportFatal(PTO_ERR_INVALID_ARGUMENT, Format("%s: dims %zu: %s", where_text().c_str(), d, error.c_str()));
            return false;
        }
        const pto_status st = pto_program_param_kind(program, index) == PTO_PARAM_INT
                                  ? pto_args_set_int(t->args, index, value)
                                  : PTO_ERR_INVALID_ARGUMENT;
        if (st != PTO_OK) {
            ReportFatal(st == PTO_ERR_OUT_OF_RANGE ? st : PTO_ERR_INVALID_ARGUMENT,
                        Format("%s: dims %zu (%s = %lld) for parameter %zu (%%%s): %s", where_text().c_str(), d,
                               k.dims[d].text.c_str(), static_cast<long long>(value), index,
                               pto_program_param_name(program, index),
                               st == PTO_ERR_INVALID_ARGUMENT ? "not an integer parameter" : pto_last_error()));
            return false;
        }
    }
    return true;
}

bool RunState::ChooseKernel(Task *t, const MixedKernels &mk, int32_t blocks, PtoOrchSite site) {
    auto at = [&] { return Format("%s: task %u", Where(site).c_str(), t->id); };  // for an error only
    int32_t aic = mk.aic_kernel_id, aiv = mk.aiv0_kernel_id, aiv1 = mk.aiv1_kernel_id;
    if (aiv == INVALID_KERNEL_ID) std::swap(aiv, aiv1);
    t->kernel_ids[0] = aic;
    t->kernel_ids[1] = aiv;
    t->kernel_ids[2] = aiv1;
    for (int32_t id : t->kernel_ids) {
        if (id != INVALID_KERNEL_ID && rt_->kernels.count(id) == 0) {
            ReportFatal(PTO_ERR_INVALID_ARGUMENT, Format("%s: kernel id %d is not in the kernel table", at().c_str(), id));
            return false;
        }
    }
    if (aic == INVALID_KERNEL_ID && aiv == INVALID_KERNEL_ID) {
        ReportFatal(PTO_ERR_INVALID_ARGUMENT, Format("%s: a task with no kernel", at().c_str()));
        return false;
    }
    if (aiv1 != INVALID_KERNEL_ID && aiv1 != aiv) {
        ReportFatal(PTO_ERR_INVALID_ARGUMENT,
                    Format("%s: two different vector kernels (%d and %d) in one task", at().c_str(), aiv, aiv1));
        return false;
    }
    Kernel *k = &rt_->kernels.at(aic != INVALID_KERNEL_ID ? aic : aiv);
    if (aic != INVALID_KERNEL_ID && aiv != INVALID_KERNEL_ID && rt_->kernels.at(aiv).resolved_path != k->resolved_path) {
        ReportFatal(PTO_ERR_INVALID_ARGUMENT,
                    Format("%s: the cube kernel %d (%s) and the vector kernel %d (%s) of a mixed task must be the "
                           "cube and vector functions of one module",
                           at().c_str(), aic, k->path.c_str(), aiv, rt_->kernels.at(aiv).path.c_str()));
        return false;
    }
    t->kernel = k;
    t->program = k->program;
    if (aic == INVALID_KERNEL_ID && aiv1 != INVALID_KERNEL_ID) {
        // Two lanes of a vector kernel: its sub-block id bound to each.
        const pto_status st = MakeLaneProgram(k);
        if (st != PTO_OK) {
            ReportFatal(st, at() + ": " + pto_runtime_last_error());
            return false;
        }
        if (k->lane_program != nullptr) {
            t->program = k->lane_program;
            t->lanes = 2;
        }
    }
    if (blocks < 1 || blocks > 65536) {
        ReportFatal(PTO_ERR_OUT_OF_RANGE, Format("%s: launch_spec's block count %d (1..65536)", at().c_str(), blocks));
        return false;
    }
    t->blocks = static_cast<uint32_t>(blocks);
    return true;
}

bool RunState::LinkTensors(Task *t, const std::vector<const ChipTensor *> &tensors, const CoreTaskArgs &args) {
    for (size_t i = 0; i < tensors.size(); i++) {
        const ChipTensor &v = *tensors[i];
        const TensorArgType tag = args.tag(static_cast<int32_t>(i));
        // Written if the tag or the kernel says so (else read).
        bool write = tag == TensorArgType::OUTPUT || tag == TensorArgType::OUTPUT_EXISTING ||
                     tag == TensorArgType::INOUT;
        if (t->program != nullptr) write = write || (pto_program_param_access(t->program, i) & PTO_PARAM_WRITE) != 0;
        if (v.ndims < 1 || v.ndims > static_cast<uint32_t>(MAX_TENSOR_DIMS) || get_element_size(v.dtype) == 0) {
            FailLocked(PTO_ERR_INVALID_ARGUMENT, Format("%s: tensor %zu is not a tensor (%u dimensions, dtype %d)",
                                                        t->Describe().c_str(), i, v.ndims, static_cast<int>(v.dtype)));
            return false;
        }
        const Access probe = DescribeView(v, 0, write);
        if (probe.hi == probe.lo) continue;  // an empty view reaches nothing
        Region *r = FindRegion(probe.lo, probe.hi);
        if (r == nullptr) {
            FailLocked(PTO_ERR_OUT_OF_RANGE, Format("%s: tensor %zu, %s, reaches bytes outside every tensor of the run",
                                                    t->Describe().c_str(), i, v.dump().c_str()));
            return false;
        }
        AddAccess(t, r, std::make_unique<Access>(DescribeView(v, r->start, write)));
    }
    // Scalars bound to pointers, their regions looked up again under this
    // lock (a worker may have released a runtime tensor's since).
    std::vector<std::unique_ptr<Access>> scalars = std::move(t->pointer_scalars);
    for (auto &a : scalars) {
        Region *r = FindRegion(a->lo, a->lo + 1);
        if (r == nullptr || a->hi > r->end) {
            FailLocked(PTO_ERR_OUT_OF_RANGE, t->Describe() + ": a scalar pointer's memory was released");
            return false;
        }
        AddAccess(t, r, std::move(a));
    }
    return true;
}

bool RunState::LinkPredicate(Task *t, const CoreTaskPredicate &p) {
    Region *r = nullptr;
    const uint64_t addr = p.operand.tensor != nullptr ? ElementAddressLocked(p.operand.tensor, p.operand.ndims,
                                                                              p.operand.indices, t->site,
                                                                              "the dispatch predicate", &r)
                                                      : 0;
    if (addr == 0) {
        if (p.operand.tensor == nullptr) FailLocked(PTO_ERR_NULL_ARGUMENT, t->Describe() + ": a predicate without a tensor");
        return false;
    }
    t->has_predicate = true;
    t->predicate_tensor = *p.operand.tensor;
    memcpy(t->predicate_indices, p.operand.indices, sizeof t->predicate_indices);
    t->predicate_op = p.op;
    t->predicate_target = p.target;
    auto a = std::make_unique<Access>();
    a->lo = addr;
    a->hi = addr + get_element_size(p.operand.tensor->dtype);
    AddAccess(t, r, std::move(a));
    return true;
}

bool RunState::LinkExplicit(Task *t, const CoreTaskArgs &args) {
    for (uint32_t i = 0; i < args.explicit_dep_count(); i++) {
        const PTO2TaskId d = args.explicit_dep(i);
        if (d.is_valid() && (d.ring() != 0 || d.local() == t->id)) {
            FailLocked(PTO_ERR_INVALID_ARGUMENT,
                       Format("%s: depends on %s", t->Describe().c_str(),
                              d.local() == t->id ? "itself (a dependency cycle)" : "an id no submission gave"));
            return false;
        }
    }
    for (uint32_t i = 0; i < args.explicit_dep_count(); i++) {
        const PTO2TaskId d = args.explicit_dep(i);
        if (!d.is_valid()) continue;
        if (d.local() < t->id) {
            Link(t, tasks_[d.local()].get());
        } else {
            // A later task's id: linked when that task is submitted.
            waiting_for_id_[d.local()].push_back(t);
            t->waits_for_unsubmitted.push_back(d.local());
            t->pending++;
        }
    }
    // Earlier tasks that named this one's id.
    auto waiting = waiting_for_id_.find(t->id);
    if (waiting != waiting_for_id_.end()) {
        for (Task *w : waiting->second) {
            t->dependents.push_back(w);
            w->waits_for.push_back(t);
            w->waits_for_unsubmitted.erase(
                std::find(w->waits_for_unsubmitted.begin(), w->waits_for_unsubmitted.end(), t->id));
        }
        waiting_for_id_.erase(waiting);
    }
    return true;
}

void RunState::Submit(const MixedKernels *mk, const CoreTaskArgs *args, bool dummy, TaskOutputTensors *out,
                      PtoOrchSite site) {
    auto owned = std::make_unique<Task>();
    Task *t = owned.get();
    t->site = site;
    t->dummy = dummy;
    t->id = static_cast<uint32_t>(tasks_.size());
    auto at = [&] { return Format("%s: task %u", Where(site).c_str(), t->id); };
    if (args->has_error) {
        return ReportFatal(PTO_ERR_INVALID_ARGUMENT,
                           Format("%s: %s", at().c_str(), args->error_msg != nullptr ? args->error_msg : "bad arguments"));
    }
    // The kernel: one core's, two lanes of one vector kernel, or a cube and
    // vector pair of one module.
    if (!dummy && !ChooseKernel(t, *mk, args->launch_spec.block_num(), site)) return;

    // The tensors: the task's views, OUTPUTs allocated now.
    const int32_t n = args->tensor_count();
    std::vector<const ChipTensor *> tensors(static_cast<size_t>(n));
    for (int32_t i = 0; i < n; i++) {
        if (args->tag(i) == TensorArgType::OUTPUT) {
            made_tensors_.emplace_back();
            if (!Allocate(args->tensor(i).create_info(), &made_tensors_.back(), site, "an OUTPUT tensor")) return;
            tensors[i] = &made_tensors_.back();
            out->materialize_output(tensors[i]);
        } else {
            tensors[i] = &args->tensor(i).ref();
        }
    }
    if (!dummy && !BindKernel(t, tensors.data(), n, *args)) return;

    // The graph: from here the run owns the task (tasks linked to it point
    // to it), whether or not the rest succeeds.
    std::unique_lock<std::mutex> lock(mu_);
    if (fatal()) return;
    tasks_.push_back(std::move(owned));
    if (!LinkTensors(t, tensors, *args)) return;
    if (args->predicate().op != PredicateOp::NONE && !LinkPredicate(t, args->predicate())) return;
    if (!LinkExplicit(t, *args)) return;
    out->set_task_id(PTO2TaskId::make(0, t->id));
    if (t->pending == 0) MakeReady(t);
    if (workers_ == 1) RunReadyInline(lock);
}

// ---------------------------------------------------------------------------
// Scheduling

void RunState::MakeReady(Task *t) {
    ready_.push_back(t);
    cv_.notify_all();  // the orchestrating thread waits on the same condition
}

void RunState::RunTask(Task *t) {
    if (t->dummy || fatal()) return;
    if (t->has_predicate) {
        const ChipTensor &p = t->predicate_tensor;
        const uint64_t element = get_element_size(p.dtype);
        const uint64_t addr = p.buffer.addr + p.compute_flat_offset(t->predicate_indices, p.ndims) * element;
        int64_t v = 0;
        memcpy(&v, reinterpret_cast<const void *>(addr), element);
        if (element < 8) v = static_cast<int64_t>(static_cast<uint64_t>(v) << (64 - 8 * element)) >> (64 - 8 * element);
        bool pass = true;
        switch (t->predicate_op) {
        case PredicateOp::EQ: pass = v == t->predicate_target; break;
        case PredicateOp::NE: pass = v != t->predicate_target; break;
        case PredicateOp::GT: pass = v > t->predicate_target; break;
        case PredicateOp::LT: pass = v < t->predicate_target; break;
        case PredicateOp::GE: pass = v >= t->predicate_target; break;
        case PredicateOp::LE: pass = v <= t->predicate_target; break;
        default: break;
        }
        if (!pass) return;
    }
    for (uint32_t lane = 0; lane < t->lanes; lane++) {
        if (t->lanes > 1) pto_args_set_int(t->args, t->lane_param, lane);
        const pto_status st = pto_program_launch(t->program, t->blocks, t->args);
        if (st != PTO_OK) {
            const std::string message = pto_last_error();
            return ReportFatal(st, t->Describe() + (t->lanes > 1 ? Format(", lane %u", lane) : std::string()) + ": " +
                                       message);
        }
    }
    std::lock_guard<std::mutex> lock(mu_);
    launched_++;
}

void RunState::Finish(Task *t) {
    t->done = true;
    finished_++;
    for (auto &a : t->accesses) a->alive = false;
    for (Region *r : t->regions) {
        r->tasks_holding--;
        ReleaseRegion(r);
    }
    t->regions.clear();
    pto_args_destroy(t->args);
    t->args = nullptr;
    for (Task *d : t->dependents)
        if (--d->pending == 0) MakeReady(d);
    cv_.notify_all();
}

void RunState::RunReadyInline(std::unique_lock<std::mutex> &lock) {
    while (!ready_.empty() && !fatal()) {
        Task *t = ready_.front();
        ready_.pop_front();
        t->started = true;
        running_++;
        max_running_ = std::max(max_running_, running_ - (t->dummy ? 1u : 0u));
        lock.unlock();
        RunTask(t);
        lock.lock();
        running_--;
        Finish(t);
    }
}

void RunState::Worker() {
    std::unique_lock<std::mutex> lock(mu_);
    for (;;) {
        cv_.wait(lock, [&] { return fatal() || !ready_.empty() || (orchestration_done_ && finished_ == tasks_.size()); });
        if (fatal() || ready_.empty()) return;
        Task *t = ready_.front();
        ready_.pop_front();
        t->started = true;
        running_++;
        if (!t->dummy) max_running_ = std::max(max_running_, running_);
        lock.unlock();
        RunTask(t);
        lock.lock();
        running_--;
        Finish(t);
    }
}

void RunState::DiagnoseStuck() {
    if (fatal()) return;
    status_ = PTO_ERR_INVALID_ARGUMENT;
    // A task waiting for an id never submitted, else a cycle among the tasks
    // that wait.
    for (const auto &owned : tasks_) {
        const Task *t = owned.get();
        if (!t->done && !t->waits_for_unsubmitted.empty()) {
            error_ = Format("%s can never run: it depends on task %llu, which was never submitted", t->Describe().c_str(),
                            static_cast<unsigned long long>(t->waits_for_unsubmitted.front()));
            fatal_flag_.store(true, std::memory_order_release);
            cv_.notify_all();
            return;
        }
    }
    const Task *start = nullptr;
    for (const auto &owned : tasks_)
        if (!owned->done && owned->pending > 0) start = start == nullptr ? owned.get() : start;
    std::vector<const Task *> path;
    const Task *at = start;
    while (at != nullptr && std::find(path.begin(), path.end(), at) == path.end()) {
        path.push_back(at);
        const Task *next = nullptr;
        for (const Task *w : at->waits_for)
            if (!w->done) next = w;
        at = next;
    }
    if (at == nullptr) {
        error_ = "the run cannot go on: no task is ready and none runs";
    } else {
        error_ = "a dependency cycle: ";
        auto from = std::find(path.begin(), path.end(), at);
        for (auto it = from; it != path.end(); ++it) error_ += (*it)->Describe() + " waits for ";
        error_ += at->Describe();
    }
    fatal_flag_.store(true, std::memory_order_release);
    cv_.notify_all();
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
        for (uint32_t i = 0; workers_ > 1 && i < workers_; i++) pool.emplace_back([this] { Worker(); });
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
            if (workers_ == 1) {
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
