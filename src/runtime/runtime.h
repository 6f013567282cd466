// libpto-runtime's parts (include/pto_runtime.h): the session (kernel
// table, compiled orchestration, verified kernels) and one run's task graph.
#ifndef PTO_RUNTIME_RUNTIME_H_
#define PTO_RUNTIME_RUNTIME_H_

#include <stdarg.h>
#include <stdint.h>

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "pto/runtime/pto_orchestration_api.h"
#include "pto_c.h"
#include "pto_runtime.h"

namespace pto_host {

// Records "message" (printf-formatted) as the calling thread's last error
// of this library and returns status.
pto_status Fail(pto_status status, const char *format, ...) __attribute__((format(printf, 2, 3)));
pto_status FailV(pto_status status, const char *format, va_list ap) __attribute__((format(printf, 2, 0)));
std::string Format(const char *format, ...) __attribute__((format(printf, 1, 2)));
std::string FormatV(const char *format, va_list ap) __attribute__((format(printf, 1, 0)));

// Text helpers, on C stdio (iostreams would bring libstdc++'s locale and
// newer glibc symbols into the Python wheel's static C++ runtime).
bool ReadFile(const std::string &path, std::string *text);  // false if unreadable
bool WriteFile(const std::string &path, const std::string &text);
std::vector<std::string> Words(const std::string &text);    // split at whitespace
std::vector<std::string> Lines(const std::string &text);    // split at '\n'

// One trailing index parameter of a kernel (a kernel table `dims` entry):
// an expression over the task's tensor shapes, kept as reverse Polish.
struct DimExpr {
    enum Kind : uint8_t { kConst, kShape, kAdd, kSub, kMul, kDiv };
    struct Step {
        Kind kind;
        int64_t value;   // kConst: the integer; kShape: the tensor index
        uint32_t dim;    // kShape: the dimension
    };
    std::string text;
    std::vector<Step> steps;
};

// Parses text (the `dims` grammar of pto_runtime.h) into *out; false with
// *error set on a malformed expression.
bool ParseDimExpr(const std::string &text, DimExpr *out, std::string *error);
// Evaluates expr on a task's tensors; false with *error on a tensor or
// dimension the task lacks, a division by zero or an overflow.
bool EvalDimExpr(const DimExpr &expr, const ChipTensor *const *tensors, int32_t count, int64_t *value,
                 std::string *error);

// A kernel of the table.
struct Kernel {
    int32_t id = -1;
    bool cube = false;          // core type aic
    std::string path;           // as given
    std::string resolved_path;  // absolute
    std::string function;       // "" = the module's entry
    std::vector<DimExpr> dims;
    bool has_dims = false;
    // The parameter pto.make_prefetch_async_context takes its workspace from
    // (PyPTO's runtime-owned SDMA workspace, after the dims), bound by the
    // run to a buffer of its own; -1: none.
    int64_t workspace_param = -1;
    pto_program *program = nullptr;  // verified by Prepare
    // The same module with the sub-block id a parameter (two-lane vector
    // tasks), made on first use; null where the kernel has no sub-block id.
    pto_program *lane_program = nullptr;
    bool lane_program_made = false;
    // The same module run with one vector core a block (its module given
    // libpto.vector_cores = 1): a mixed task whose MixedKernels name one
    // vector lane. Made on first use.
    pto_program *one_vector_program = nullptr;
    bool one_vector_program_made = false;
};

// A compiled, loaded orchestration.
struct Orchestration {
    void *handle = nullptr;
    std::string library;
    int (*bind)(const PtoOrchOps *, void *) = nullptr;
    void (*entry)(const ChipTaskArgs &) = nullptr;
    PTO2OrchestrationConfig (*config)(const ChipTaskArgs &) = nullptr;
};

}  // namespace pto_host

struct pto_runtime {
    std::string work_dir;
    std::string cache_dir;
    std::string orchestration_path;  // as given ("" = the only .cpp of orchestration/)
    std::map<int32_t, pto_host::Kernel> kernels;
    uint32_t workers = 0;  // 0 = online CPUs
    uint32_t order = PTO_RUNTIME_ORDER_ALL;  // pto_runtime_set_order's
    bool prepared = false;
    pto_profile profile = PTO_PROFILE_HOST;  // the kernels' (all alike)
    bool profile_known = false;
    pto_host::Orchestration orchestration;
    uint64_t last_tasks = 0;
    uint32_t last_max_concurrent = 0;
    // pto_runtime_set_tap's (tap.cc): null for none.
    pto_runtime_tap_fn tap = nullptr;
    uint32_t tap_events = 0;
    void *tap_user = nullptr;
    // pto_runtime_set_board_mode and pto_runtime_set_warning_handler's
    // (board.cc): the board-mode warnings reported so far.
    bool board = false;
    pto_warning_fn warning = nullptr;
    void *warning_user = nullptr;
    std::atomic<uint64_t> warnings{0};
};

struct pto_runtime_args {
    std::vector<ChipTensor> tensors;
    std::vector<uint64_t> scalars;
    std::vector<std::pair<void *, size_t>> memories;  // pto_runtime_args_add_memory
};

namespace pto_host {

// Reads a kernel table file into rt (relative paths against rt->work_dir).
pto_status LoadTable(pto_runtime *rt, const std::string &path);
// Compiles (or finds in the cache) and loads rt's orchestration.
pto_status CompileOrchestration(pto_runtime *rt);
// Creates the kernel's lane program on first use (see Kernel).
pto_status MakeLaneProgram(pto_runtime *rt, Kernel *kernel);
// Creates the kernel's one-vector-core program on first use (see Kernel).
pto_status MakeOneVectorProgram(pto_runtime *rt, Kernel *kernel);

// Board mode (board.cc). Installs the session's board mode and its warning
// handler (which counts each warning and hands it on) on the calling
// thread, a thread of the runtime's own.
void EnterBoardMode(pto_runtime *rt);
// Runs fn in the session's mode: on the calling thread when board mode is
// off; else on a thread of the runtime's own in board mode, under the
// calling thread's profile (the caller's own board mode and warning handler
// are never touched), fn's status and sentence handed back.
pto_status InSessionMode(pto_runtime *rt, const std::function<pto_status()> &fn);
// Runs rt's orchestration on args (pto_runtime_run after Prepare).
pto_status Run(pto_runtime *rt, const pto_runtime_args &args);

// The orchestration header's text, as this library was built with it.
extern const char kOrchestrationHeader[];

}  // namespace pto_host

#endif  // PTO_RUNTIME_RUNTIME_H_
