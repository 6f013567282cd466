// The session's tap (pto_runtime_set_tap): what a task submitted with a tap
// set keeps for it (its tensors, scalars and which tensors it writes), and
// the call itself, on the worker that runs the task, before Finish releases
// the task's tensors.
#include <string.h>
#include <time.h>

#include "run_state.h"

namespace pto_host {

namespace {

// pto_runtime_args_add_tensor's name of a dtype.
const char *DtypeName(DataType t) {
    switch (t) {
    case DataType::FLOAT32: return "float32";
    case DataType::FLOAT16: return "float16";
    case DataType::BFLOAT16: return "bfloat16";
    case DataType::INT8: return "int8";
    case DataType::INT16: return "int16";
    case DataType::INT32: return "int32";
    case DataType::INT64: return "int64";
    case DataType::UINT8: return "uint8";
    case DataType::UINT16: return "uint16";
    case DataType::UINT32: return "uint32";
    case DataType::UINT64: return "uint64";
    case DataType::BOOL: return "bool";
    case DataType::FP8E4M3FN: return "float8_e4m3fn";
    case DataType::FP8E5M2: return "float8_e5m2";
    case DataType::FP8E8M0: return "float8_e8m0fnu";
    case DataType::FP4E2M1: return "float4_e2m1fn_x2";
    default: return "";
    }
}

// The kernel's name for the tap: the table's function, else the file's
// name without directory and extension.
std::string KernelName(const Kernel &k) {
    if (!k.function.empty()) return k.function;
    const size_t slash = k.path.rfind('/');
    std::string name = slash == std::string::npos ? k.path : k.path.substr(slash + 1);
    const size_t dot = name.rfind('.');
    return dot == std::string::npos || dot == 0 ? name : name.substr(0, dot);
}

}  // namespace

uint64_t MonotonicNs() {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<uint64_t>(ts.tv_sec) * 1000000000u + static_cast<uint64_t>(ts.tv_nsec);
}

void RunState::KeepForTap(Task *t, const ChipTensor *const *tensors, int32_t ntensors, const CoreTaskArgs &args) {
    t->tap_tensors.reserve(static_cast<size_t>(ntensors));
    for (int32_t i = 0; i < ntensors; i++) {
        t->tap_tensors.push_back(*tensors[i]);
        // Written as LinkTensors takes it: by the tag or by the kernel.
        const TensorArgType tag = args.tag(i);
        const bool by_tag = tag == TensorArgType::OUTPUT || tag == TensorArgType::OUTPUT_EXISTING ||
                            tag == TensorArgType::INOUT;
        const bool by_kernel = t->program != nullptr &&
                               (pto_program_param_access(t->program, static_cast<size_t>(i)) & PTO_PARAM_WRITE) != 0;
        t->tap_written.push_back(by_tag || by_kernel);
    }
    for (int32_t j = 0; j < args.scalar_count(); j++) t->tap_scalars.push_back(args.scalar(j));
}

bool RunState::Tap(Task *t, uint32_t event, uint64_t start_ns, uint64_t end_ns) {
    if ((rt_->tap_events & event) == 0 || t->kernel == nullptr) return true;
    std::vector<pto_runtime_view> views(t->tap_tensors.size());
    for (size_t i = 0; i < views.size(); i++) {
        const ChipTensor &c = t->tap_tensors[i];
        pto_runtime_view &v = views[i];
        const uint64_t element = get_element_size(c.dtype);
        v.data = reinterpret_cast<void *>(c.buffer.addr + c.start_offset * element);
        v.dtype = DtypeName(c.dtype);
        v.element_size = static_cast<uint32_t>(element);
        v.ndims = c.ndims;
        for (uint32_t d = 0; d < c.ndims && d < 5; d++) {
            v.shape[d] = c.shapes[d];
            v.strides[d] = c.strides[d];
        }
        v.tensor = reinterpret_cast<const void *>(c.buffer.addr);
        v.tensor_bytes = c.buffer.size;
        v.written = t->tap_written[i] ? 1u : 0u;
    }
    const std::string name = KernelName(*t->kernel);
    pto_runtime_task task;
    memset(&task, 0, sizeof task);
    task.event = event;
    task.id = t->id;
    task.kernel_id = t->kernel->id;
    task.kernel = name.c_str();
    task.kernel_file = t->kernel->path.c_str();
    task.site_file = t->site.file != nullptr ? t->site.file : "";
    task.site_line = t->site.line;
    task.blocks = t->blocks;
    task.tensor_count = static_cast<uint32_t>(views.size());
    task.tensors = views.data();
    task.scalar_count = static_cast<uint32_t>(t->tap_scalars.size());
    task.scalars = t->tap_scalars.data();
    task.start_ns = start_ns;
    task.end_ns = end_ns;
    if (rt_->tap(&task, rt_->tap_user) == 0) return true;
    ReportFatal(PTO_ERR_INVALID_ARGUMENT, t->Describe() + ": the tap stopped the run " +
                                              (event == PTO_RUNTIME_TAP_BEFORE ? "before" : "after") + " the task");
    return false;
}

}  // namespace pto_host

extern "C" {

PTO_API pto_status pto_runtime_set_tap(pto_runtime *rt, uint32_t events, pto_runtime_tap_fn tap, void *user) {
    using pto_host::Fail;
    if (rt == nullptr) return Fail(PTO_ERR_NULL_ARGUMENT, "pto_runtime_set_tap: NULL session");
    const uint32_t known = PTO_RUNTIME_TAP_BEFORE | PTO_RUNTIME_TAP_AFTER;
    if (tap != nullptr && (events == 0 || (events & ~known) != 0))
        return Fail(PTO_ERR_INVALID_ARGUMENT,
                    "pto_runtime_set_tap: events 0x%x (PTO_RUNTIME_TAP_BEFORE, PTO_RUNTIME_TAP_AFTER or both)", events);
    rt->tap = tap;
    rt->tap_events = tap != nullptr ? events : 0;
    rt->tap_user = user;
    return PTO_OK;
}

}  // extern "C"
