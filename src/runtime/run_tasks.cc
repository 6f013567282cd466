// A run's task graph: a submission's tensors linked to the tasks before it
// (its accesses and dependencies), and the scheduling of the tasks whose
// dependencies are met on the workers.
#include <string.h>

#include <algorithm>

#include "run_state.h"

namespace pto_host {

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
    // reads, run first (PTO_RUNTIME_ORDER_PTO2: earlier writers, where this
    // looks up); those a write covers need not be looked at again.
    const bool pto2 = rt_->order == PTO_RUNTIME_ORDER_PTO2;
    std::vector<Access *> &list = r->accesses;
    size_t kept = 0;
    for (size_t i = 0; i < list.size(); i++) {
        Access *e = list[i];
        if (!e->alive) continue;
        const bool orders = pto2 ? a->lookup && e->write : e->write || a->write;
        if (orders && e->task != t && Overlap(*e, *a)) {
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
        auto a = std::make_unique<Access>(DescribeView(v, r->start, write));
        if (tag == TensorArgType::OUTPUT) {
            r->creator = t;  // allocated by this submission
        } else if (rt_->order == PTO_RUNTIME_ORDER_PTO2 && r->creator != nullptr) {
            Link(t, r->creator);  // PTO2's creator retention: its allocator first
        }
        a->lookup = tag != TensorArgType::OUTPUT && tag != TensorArgType::OUTPUT_EXISTING;
        AddAccess(t, r, std::move(a));
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
    if (!dummy && rt_->tap != nullptr) KeepForTap(t, tensors.data(), n, *args);

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
    if (inline_) RunReadyInline(lock);
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
    const bool tapped = rt_->tap != nullptr;
    if (tapped && !Tap(t, PTO_RUNTIME_TAP_BEFORE, 0, 0)) return;
    const uint64_t start_ns = tapped ? MonotonicNs() : 0;
    for (uint32_t lane = 0; lane < t->lanes; lane++) {
        if (t->lanes > 1) pto_args_set_int(t->args, t->lane_param, lane);
        const pto_status st = pto_program_launch(t->program, t->blocks, t->args);
        if (st != PTO_OK) {
            const std::string message = pto_last_error();
            return ReportFatal(st, t->Describe() + (t->lanes > 1 ? Format(", lane %u", lane) : std::string()) + ": " +
                                       message);
        }
    }
    if (tapped && !Tap(t, PTO_RUNTIME_TAP_AFTER, start_ns, MonotonicNs())) return;
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
    if (rt_->board) EnterBoardMode(rt_);
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

}  // namespace pto_host
