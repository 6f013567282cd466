// The C functions of include/pto_runtime.h: sessions, the kernel table's
// calls, argument sets, the last error.
#include <ctype.h>
#include <dirent.h>
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <functional>
#include <new>

#include "runtime.h"

namespace pto_host {

namespace {

thread_local std::string last_error;

// (opendir and access rather than stat: stat's symbol is newer than the
// glibc the Python wheel targets.)
bool IsDirectory(const std::string &path) {
    DIR *d = opendir(path.c_str());
    if (d != nullptr) closedir(d);
    return d != nullptr;
}

std::string Resolve(const pto_runtime *rt, const std::string &path) {
    return !path.empty() && path[0] == '/' ? path : rt->work_dir + "/" + path;
}

// The entry's parameter that a pto.make_prefetch_async_context takes as its
// workspace (`pto.make_prefetch_async_context(%NAME : !pto.ptr<i8>)`), else
// -1. PyPTO passes that workspace (the runtime's SDMA workspace) after the
// arguments its task gives; libpto's prefetch never reads it.
int64_t WorkspaceParam(const std::string &text, const pto_program *program) {
    static const std::string op = "pto.make_prefetch_async_context(";
    for (size_t at = text.find(op); at != std::string::npos; at = text.find(op, at + op.size())) {
        size_t name = at + op.size();
        while (name < text.size() && text[name] == ' ') name++;
        if (name >= text.size() || text[name] != '%') continue;
        size_t end = ++name;
        while (end < text.size() && (isalnum(static_cast<unsigned char>(text[end])) || text[end] == '_')) end++;
        size_t index = 0;
        if (pto_program_param_find(program, text.substr(name, end - name).c_str(), &index) == PTO_OK &&
            pto_program_param_kind(program, index) == PTO_PARAM_POINTER)
            return static_cast<int64_t>(index);
    }
    return -1;
}

// Verifies kernel k's module with its function as the entry.
pto_status VerifyKernel(pto_runtime *rt, Kernel *k) {
    std::string text;
    if (!ReadFile(k->resolved_path, &text))
        return Fail(PTO_ERR_INVALID_ARGUMENT, "kernel %d: %s cannot be read", k->id, k->resolved_path.c_str());
    pto_program *program = nullptr;
    const pto_status st = pto_program_create_entry(text.data(), text.size(), k->path.c_str(),
                                                   k->function.empty() ? nullptr : k->function.c_str(), &program);
    if (st != PTO_OK) return Fail(st, "kernel %d (%s): %s", k->id, k->path.c_str(), pto_last_error());
    const pto_profile profile = pto_program_profile(program);
    if (rt->profile_known && profile != rt->profile) {
        pto_program_destroy(program);
        return Fail(PTO_ERR_INVALID_ARGUMENT,
                    "kernel %d (%s) is verified under another profile than the session's earlier kernels "
                    "(each module's pto.target_arch must be the same)",
                    k->id, k->path.c_str());
    }
    rt->profile = profile;
    rt->profile_known = true;
    k->program = program;
    k->workspace_param = WorkspaceParam(text, program);
    return PTO_OK;
}

}  // namespace

std::string FormatV(const char *format, va_list ap) {
    va_list copy;
    va_copy(copy, ap);
    const int n = vsnprintf(nullptr, 0, format, copy);
    va_end(copy);
    if (n <= 0) return std::string();
    std::string s(static_cast<size_t>(n) + 1, '\0');
    vsnprintf(&s[0], s.size(), format, ap);
    s.resize(static_cast<size_t>(n));
    return s;
}

std::string Format(const char *format, ...) {
    va_list ap;
    va_start(ap, format);
    std::string s = FormatV(format, ap);
    va_end(ap);
    return s;
}

pto_status FailV(pto_status status, const char *format, va_list ap) {
    last_error = FormatV(format, ap);
    return status;
}

pto_status Fail(pto_status status, const char *format, ...) {
    va_list ap;
    va_start(ap, format);
    FailV(status, format, ap);
    va_end(ap);
    return status;
}

namespace {

// Creates *out from kernel k's module as `edit` changes its text (false
// from edit: no variant is needed, *out stays null), in the session's mode.
pto_status MakeVariant(pto_runtime *rt, Kernel *k, pto_program **out,
                       const std::function<bool(std::string *)> &edit) {
    std::string text;
    if (!ReadFile(k->resolved_path, &text))
        return Fail(PTO_ERR_INVALID_ARGUMENT, "kernel %d: %s cannot be read", k->id, k->resolved_path.c_str());
    if (!edit(&text)) return PTO_OK;
    return InSessionMode(rt, [&] {
        const pto_status st = pto_program_create_entry(text.data(), text.size(), k->path.c_str(),
                                                       k->function.empty() ? nullptr : k->function.c_str(), out);
        return st != PTO_OK ? Fail(st, "kernel %d (%s): %s", k->id, k->path.c_str(), pto_last_error()) : PTO_OK;
    });
}

}  // namespace

pto_status MakeLaneProgram(pto_runtime *rt, Kernel *k) {
    if (k->lane_program_made) return PTO_OK;
    k->lane_program_made = true;
    return MakeVariant(rt, k, &k->lane_program, [](std::string *text) {
        // The launch binds %__pypto_spmd_subblock_idx to 0; renamed, it is a
        // parameter the runtime binds to each lane's index.
        static const std::string from = "%__pypto_spmd_subblock_idx";
        static const std::string to = "%__pto_runtime_lane_idx___";
        bool found = false;
        for (size_t at = text->find(from); at != std::string::npos; at = text->find(from, at + to.size())) {
            text->replace(at, from.size(), to);
            found = true;
        }
        return found;
    });
}

pto_status MakeOneVectorProgram(pto_runtime *rt, Kernel *k) {
    if (k->one_vector_program_made) return PTO_OK;
    k->one_vector_program_made = true;
    pto_status st = MakeVariant(rt, k, &k->one_vector_program, [](std::string *text) {
        // The module's attributes (`module attributes {...} {` or `module {`)
        // gain libpto.vector_cores = 1.
        static const std::string kAttr = "libpto.vector_cores = 1";
        size_t at = 0;
        for (;;) {
            at = text->find("module", at);
            if (at == std::string::npos) return false;
            const bool starts = at == 0 || (*text)[at - 1] == '\n' || (*text)[at - 1] == ' ';
            size_t after = at + 6;
            while (after < text->size() && (*text)[after] == ' ') after++;
            if (starts && text->compare(after, 10, "attributes") == 0) {
                const size_t brace = text->find('{', after);
                if (brace == std::string::npos) return false;
                text->insert(brace + 1, kAttr + ", ");
                return true;
            }
            if (starts && after < text->size() && (*text)[after] == '{') {
                text->insert(at + 6, " attributes {" + kAttr + "}");
                return true;
            }
            at += 6;
        }
    });
    if (st == PTO_OK && k->one_vector_program == nullptr)
        st = Fail(PTO_ERR_INVALID_ARGUMENT,
                  "kernel %d (%s): a mixed task with one vector lane needs the kernel's `module` (none found to "
                  "run it on one vector core)",
                  k->id, k->path.c_str());
    return st;
}

}  // namespace pto_host

using pto_host::Fail;

extern "C" {

PTO_API const char *pto_runtime_last_error(void) { return pto_host::last_error.c_str(); }

PTO_API pto_status pto_runtime_open(const char *work_dir, pto_runtime **out) {
    if (work_dir == nullptr || out == nullptr) return Fail(PTO_ERR_NULL_ARGUMENT, "pto_runtime_open: NULL argument");
    if (!pto_host::IsDirectory(work_dir))
        return Fail(PTO_ERR_INVALID_ARGUMENT, "pto_runtime_open: %s is not a directory", work_dir);
    pto_runtime *rt = new (std::nothrow) pto_runtime();
    if (rt == nullptr) return Fail(PTO_ERR_OUT_OF_MEMORY, "pto_runtime_open: out of memory");
    rt->work_dir = work_dir;
    while (rt->work_dir.size() > 1 && rt->work_dir.back() == '/') rt->work_dir.pop_back();
    const std::string table = rt->work_dir + "/kernel_table.txt";
    if (access(table.c_str(), F_OK) == 0) {
        const pto_status s = pto_host::LoadTable(rt, table);
        if (s != PTO_OK) {
            delete rt;
            return s;
        }
    }
    *out = rt;
    return PTO_OK;
}

PTO_API void pto_runtime_close(pto_runtime *rt) {
    if (rt == nullptr) return;
    for (auto &entry : rt->kernels) {
        pto_program_destroy(entry.second.program);
        pto_program_destroy(entry.second.lane_program);
        pto_program_destroy(entry.second.one_vector_program);
    }
    if (rt->orchestration.handle != nullptr) dlclose(rt->orchestration.handle);
    delete rt;
}

PTO_API pto_status pto_runtime_load_table(pto_runtime *rt, const char *path) {
    if (rt == nullptr || path == nullptr) return Fail(PTO_ERR_NULL_ARGUMENT, "pto_runtime_load_table: NULL argument");
    return pto_host::LoadTable(rt, pto_host::Resolve(rt, path));
}

PTO_API pto_status pto_runtime_add_kernel(pto_runtime *rt, int32_t id, const char *core_type, const char *pto_path,
                                          const char *function) {
    if (rt == nullptr || core_type == nullptr || pto_path == nullptr)
        return Fail(PTO_ERR_NULL_ARGUMENT, "pto_runtime_add_kernel: NULL argument");
    if (rt->prepared)
        return Fail(PTO_ERR_INVALID_ARGUMENT, "pto_runtime_add_kernel: the session is prepared already");
    if (id < 0) return Fail(PTO_ERR_INVALID_ARGUMENT, "pto_runtime_add_kernel: kernel id %d is negative", id);
    if (rt->kernels.count(id) != 0)
        return Fail(PTO_ERR_INVALID_ARGUMENT, "pto_runtime_add_kernel: kernel id %d is given twice", id);
    const bool cube = strcmp(core_type, "aic") == 0;
    if (!cube && strcmp(core_type, "aiv") != 0)
        return Fail(PTO_ERR_INVALID_ARGUMENT, "pto_runtime_add_kernel: core type '%s' is not aic or aiv", core_type);
    pto_host::Kernel &k = rt->kernels[id];
    k.id = id;
    k.cube = cube;
    k.path = pto_path;
    k.resolved_path = pto_host::Resolve(rt, pto_path);
    k.function = function != nullptr ? function : "";
    if (!k.function.empty() && k.function[0] == '@') k.function.erase(0, 1);
    return PTO_OK;
}

PTO_API pto_status pto_runtime_set_kernel_dims(pto_runtime *rt, int32_t id, const char *const *exprs, size_t count) {
    if (rt == nullptr || (exprs == nullptr && count > 0))
        return Fail(PTO_ERR_NULL_ARGUMENT, "pto_runtime_set_kernel_dims: NULL argument");
    auto it = rt->kernels.find(id);
    if (it == rt->kernels.end())
        return Fail(PTO_ERR_INVALID_ARGUMENT, "pto_runtime_set_kernel_dims: no kernel %d in the table", id);
    std::vector<pto_host::DimExpr> dims(count);
    for (size_t i = 0; i < count; i++) {
        std::string error;
        if (exprs[i] == nullptr) return Fail(PTO_ERR_NULL_ARGUMENT, "pto_runtime_set_kernel_dims: NULL expression");
        if (!pto_host::ParseDimExpr(exprs[i], &dims[i], &error))
            return Fail(PTO_ERR_INVALID_ARGUMENT, "pto_runtime_set_kernel_dims: kernel %d: '%s': %s", id, exprs[i],
                        error.c_str());
    }
    it->second.dims = std::move(dims);
    it->second.has_dims = true;
    return PTO_OK;
}

PTO_API pto_status pto_runtime_set_orchestration(pto_runtime *rt, const char *cpp_path) {
    if (rt == nullptr || cpp_path == nullptr)
        return Fail(PTO_ERR_NULL_ARGUMENT, "pto_runtime_set_orchestration: NULL argument");
    if (rt->prepared)
        return Fail(PTO_ERR_INVALID_ARGUMENT, "pto_runtime_set_orchestration: the session is prepared already");
    rt->orchestration_path = cpp_path;
    return PTO_OK;
}

PTO_API pto_status pto_runtime_set_workers(pto_runtime *rt, uint32_t workers) {
    if (rt == nullptr) return Fail(PTO_ERR_NULL_ARGUMENT, "pto_runtime_set_workers: NULL argument");
    if (workers == 0 || workers > 1024)
        return Fail(PTO_ERR_OUT_OF_RANGE, "pto_runtime_set_workers: %u workers (1..1024)", workers);
    rt->workers = workers;
    return PTO_OK;
}

PTO_API pto_status pto_runtime_set_order(pto_runtime *rt, uint32_t order) {
    if (rt == nullptr) return Fail(PTO_ERR_NULL_ARGUMENT, "pto_runtime_set_order: NULL argument");
    if (order != PTO_RUNTIME_ORDER_ALL && order != PTO_RUNTIME_ORDER_PTO2)
        return Fail(PTO_ERR_INVALID_ARGUMENT,
                    "pto_runtime_set_order: order %u is neither PTO_RUNTIME_ORDER_ALL (0) nor "
                    "PTO_RUNTIME_ORDER_PTO2 (1)", order);
    rt->order = order;
    return PTO_OK;
}

PTO_API pto_status pto_runtime_set_cache_dir(pto_runtime *rt, const char *dir) {
    if (rt == nullptr || dir == nullptr) return Fail(PTO_ERR_NULL_ARGUMENT, "pto_runtime_set_cache_dir: NULL argument");
    rt->cache_dir = dir;
    return PTO_OK;
}

PTO_API pto_status pto_runtime_prepare(pto_runtime *rt) {
    if (rt == nullptr) return Fail(PTO_ERR_NULL_ARGUMENT, "pto_runtime_prepare: NULL argument");
    if (rt->prepared) return PTO_OK;
    if (rt->orchestration_path.empty()) {
        // The only .cpp file of orchestration/.
        const std::string dir = rt->work_dir + "/orchestration";
        DIR *d = opendir(dir.c_str());
        std::vector<std::string> found;
        for (struct dirent *e = d != nullptr ? readdir(d) : nullptr; e != nullptr; e = readdir(d)) {
            const std::string name = e->d_name;
            if (name.size() > 4 && name.compare(name.size() - 4, 4, ".cpp") == 0) found.push_back(name);
        }
        if (d != nullptr) closedir(d);
        if (found.size() != 1)
            return Fail(PTO_ERR_INVALID_ARGUMENT,
                        "pto_runtime_prepare: %s holds %zu .cpp files; name the orchestration (kernel table "
                        "'orchestration PATH' or pto_runtime_set_orchestration)",
                        dir.c_str(), found.size());
        rt->orchestration_path = "orchestration/" + found[0];
    }
    pto_status st = pto_host::InSessionMode(rt, [rt] {
        for (auto &entry : rt->kernels) {
            if (entry.second.program != nullptr) continue;
            const pto_status s = pto_host::VerifyKernel(rt, &entry.second);
            if (s != PTO_OK) return s;
        }
        return PTO_OK;
    });
    if (st != PTO_OK) return st;
    st = pto_host::CompileOrchestration(rt);
    if (st != PTO_OK) return st;
    rt->prepared = true;
    return PTO_OK;
}

PTO_API pto_status pto_runtime_args_create(pto_runtime_args **out) {
    if (out == nullptr) return Fail(PTO_ERR_NULL_ARGUMENT, "pto_runtime_args_create: NULL argument");
    *out = new (std::nothrow) pto_runtime_args();
    return *out != nullptr ? PTO_OK : Fail(PTO_ERR_OUT_OF_MEMORY, "pto_runtime_args_create: out of memory");
}

PTO_API void pto_runtime_args_destroy(pto_runtime_args *args) { delete args; }

PTO_API pto_status pto_runtime_args_add_tensor(pto_runtime_args *args, void *data, size_t nbytes, const char *dtype,
                                               const uint64_t *shape, uint32_t ndims) {
    static const struct {
        const char *name;
        DataType type;
    } kNames[] = {{"float32", DataType::FLOAT32},       {"float16", DataType::FLOAT16},
                  {"bfloat16", DataType::BFLOAT16},     {"int8", DataType::INT8},
                  {"int16", DataType::INT16},           {"int32", DataType::INT32},
                  {"int64", DataType::INT64},           {"uint8", DataType::UINT8},
                  {"uint16", DataType::UINT16},         {"uint32", DataType::UINT32},
                  {"uint64", DataType::UINT64},         {"bool", DataType::BOOL},
                  {"float8_e4m3fn", DataType::FP8E4M3FN}, {"float8_e5m2", DataType::FP8E5M2},
                  {"float8_e8m0fnu", DataType::FP8E8M0}, {"float4_e2m1fn_x2", DataType::FP4E2M1}};
    if (args == nullptr || dtype == nullptr || (data == nullptr && nbytes > 0) || (shape == nullptr && ndims > 0))
        return Fail(PTO_ERR_NULL_ARGUMENT, "pto_runtime_args_add_tensor: NULL argument");
    const char *name = strncmp(dtype, "torch.", 6) == 0 ? dtype + 6 : dtype;
    const DataType *type = nullptr;
    for (const auto &n : kNames)
        if (strcmp(n.name, name) == 0) type = &n.type;
    if (type == nullptr) return Fail(PTO_ERR_INVALID_ARGUMENT, "pto_runtime_args_add_tensor: unknown dtype '%s'", dtype);
    if (ndims == 0 || ndims > static_cast<uint32_t>(MAX_TENSOR_DIMS))
        return Fail(PTO_ERR_INVALID_ARGUMENT, "pto_runtime_args_add_tensor: %u dimensions (1..5)", ndims);
    if (!args->scalars.empty())
        return Fail(PTO_ERR_INVALID_ARGUMENT, "pto_runtime_args_add_tensor: a tensor after a scalar (tensors first)");
    uint64_t bytes = get_element_size(*type);
    uint32_t shape32[MAX_TENSOR_DIMS];
    for (uint32_t i = 0; i < ndims; i++) {
        if (shape[i] > UINT32_MAX)
            return Fail(PTO_ERR_OUT_OF_RANGE, "pto_runtime_args_add_tensor: dimension %u is %llu (at most 2^32 - 1)", i,
                        static_cast<unsigned long long>(shape[i]));
        if (__builtin_mul_overflow(bytes, shape[i], &bytes))
            return Fail(PTO_ERR_OUT_OF_RANGE, "pto_runtime_args_add_tensor: the shape's size overflows 64 bits");
        shape32[i] = static_cast<uint32_t>(shape[i]);
    }
    if (bytes != nbytes)
        return Fail(PTO_ERR_INVALID_ARGUMENT, "pto_runtime_args_add_tensor: %zu bytes for a %s shape of %llu bytes",
                    nbytes, name, static_cast<unsigned long long>(bytes));
    args->tensors.push_back(make_tensor_external(data, shape32, ndims, *type));
    return PTO_OK;
}

PTO_API pto_status pto_runtime_args_add_scalar(pto_runtime_args *args, uint64_t bits) {
    if (args == nullptr) return Fail(PTO_ERR_NULL_ARGUMENT, "pto_runtime_args_add_scalar: NULL argument");
    args->scalars.push_back(bits);
    return PTO_OK;
}

PTO_API pto_status pto_runtime_args_add_memory(pto_runtime_args *args, void *data, size_t nbytes) {
    if (args == nullptr || (data == nullptr && nbytes > 0))
        return Fail(PTO_ERR_NULL_ARGUMENT, "pto_runtime_args_add_memory: NULL argument");
    if (nbytes == 0) return Fail(PTO_ERR_INVALID_ARGUMENT, "pto_runtime_args_add_memory: 0 bytes");
    if (reinterpret_cast<uintptr_t>(data) > UINTPTR_MAX - nbytes)
        return Fail(PTO_ERR_OUT_OF_RANGE, "pto_runtime_args_add_memory: %zu bytes at %p pass the end of memory", nbytes,
                    data);
    args->memories.emplace_back(data, nbytes);
    return PTO_OK;
}

PTO_API pto_status pto_runtime_run(pto_runtime *rt, const pto_runtime_args *args) {
    if (rt == nullptr || args == nullptr) return Fail(PTO_ERR_NULL_ARGUMENT, "pto_runtime_run: NULL argument");
    const pto_status st = pto_runtime_prepare(rt);
    if (st != PTO_OK) return st;
    try {
        return pto_host::Run(rt, *args);
    } catch (const std::bad_alloc &) {
        return Fail(PTO_ERR_OUT_OF_MEMORY, "pto_runtime_run: out of memory");
    }
}

PTO_API pto_status pto_runtime_last_run_stats(const pto_runtime *rt, uint64_t *tasks, uint32_t *max_concurrent) {
    if (rt == nullptr) return Fail(PTO_ERR_NULL_ARGUMENT, "pto_runtime_last_run_stats: NULL argument");
    if (tasks != nullptr) *tasks = rt->last_tasks;
    if (max_concurrent != nullptr) *max_concurrent = rt->last_max_concurrent;
    return PTO_OK;
}

PTO_API const char *pto_runtime_orchestration_library(const pto_runtime *rt) {
    return rt != nullptr ? rt->orchestration.library.c_str() : "";
}

}  // extern "C"
