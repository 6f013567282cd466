/* The PTO2 orchestration API as libpto-runtime implements it: the header a
 * PyPTO orchestration file includes ("pto_orchestration_api.h"). The names
 * and forms are those PyPTO's orchestration code generator writes (tensors
 * as ChipTensor views, CoreTaskArgs, rt_submit_*_task, alloc_tensors,
 * PTO2_SCOPE, get/set_tensor_data, ...); what they do is libpto-runtime's
 * (docs/pypto.md, "Host runtime"). libpto-runtime compiles every
 * orchestration against its own copy of this file, so a name missing here
 * is a compiler error naming it.
 *
 * Every call goes through a table of functions the runtime hands over when
 * it loads the compiled orchestration (pto_orch_bind), so the shared object
 * needs no symbol of the runtime's. A runtime call made after an error is a
 * no-op that returns empty results, as PTO2's calls are after a fatal
 * error; the runtime reports the first error.
 *
 * C++17. Nothing here allocates, throws or aborts. */
#ifndef PTO_RUNTIME_PTO_ORCHESTRATION_API_H_
#define PTO_RUNTIME_PTO_ORCHESTRATION_API_H_

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <algorithm>
#include <string>
#include <type_traits>

/* The layout of everything below that crosses between the orchestration and
 * the runtime; pto_orch_bind refuses a table of another version. */
#define PTO_ORCH_ABI_VERSION 1

/* ---------------------------------------------------------------------- */
/* Element types and scalar bits                                           */
/* ---------------------------------------------------------------------- */

constexpr int MAX_TENSOR_DIMS = 5;
constexpr int MAX_TENSOR_ARGS = 32;   /* tensors of one task */
constexpr int MAX_SCALAR_ARGS = 64;   /* scalars of one task */
constexpr int CHIP_MAX_TENSOR_ARGS = 256;
constexpr int CHIP_MAX_SCALAR_ARGS = 128;

enum class AddressSpace : uint8_t { HOST = 0, DEVICE = 1 };

/* The tensor element types, spelled as PyPTO's generated code spells them. */
enum class DataType : uint8_t {
    FLOAT32,
    FLOAT16,
    INT32,
    INT16,
    INT8,
    UINT8,
    BFLOAT16,
    INT64,
    UINT64,
    UINT16,
    UINT32,
    BOOL,
    FP8E4M3FN,
    FP8E8M0,
    FP4E2M1, /* two 4-bit values a byte; shapes count bytes */
    FP8E5M2,
    DATA_TYPE_NUM,
};

/* Bytes of one element (of one byte of packed FP4E2M1); 0 for an unknown
 * value. */
inline uint64_t get_element_size(DataType dtype) {
    switch (dtype) {
    case DataType::FLOAT32: case DataType::INT32: case DataType::UINT32: return 4;
    case DataType::FLOAT16: case DataType::BFLOAT16: case DataType::INT16: case DataType::UINT16: return 2;
    case DataType::INT64: case DataType::UINT64: return 8;
    case DataType::INT8: case DataType::UINT8: case DataType::BOOL: case DataType::FP8E4M3FN:
    case DataType::FP8E8M0: case DataType::FP4E2M1: case DataType::FP8E5M2: return 1;
    default: return 0;
    }
}

inline const char *get_dtype_name(DataType dtype) {
    static const char *const names[] = {"FLOAT32", "FLOAT16", "INT32", "INT16", "INT8", "UINT8",
                                        "BFLOAT16", "INT64", "UINT64", "UINT16", "UINT32", "BOOL",
                                        "FP8E4M3FN", "FP8E8M0", "FP4E2M1", "FP8E5M2"};
    const unsigned i = static_cast<unsigned>(dtype);
    return i < sizeof(names) / sizeof(names[0]) ? names[i] : "UNKNOWN";
}

template <typename T>
inline constexpr bool is_supported_scalar_arg_v =
    std::is_arithmetic_v<std::remove_cv_t<std::remove_reference_t<T>>> ||
    std::is_enum_v<std::remove_cv_t<std::remove_reference_t<T>>>;

/* A scalar's bits in a 64-bit slot: the value's bytes at the low end, the
 * rest zero (a float's bits in the low 32). */
template <typename T>
inline uint64_t to_u64(T value) {
    static_assert(sizeof(T) <= sizeof(uint64_t) && std::is_trivially_copyable_v<T>,
                  "to_u64: a trivially copyable type of at most 8 bytes");
    uint64_t bits = 0;
    memcpy(&bits, &value, sizeof(T));
    return bits;
}

/* The inverse of to_u64: T from the low sizeof(T) bytes. */
template <typename T>
inline T from_u64(uint64_t bits) {
    static_assert(sizeof(T) <= sizeof(uint64_t) && std::is_trivially_copyable_v<T>,
                  "from_u64: a trivially copyable type of at most 8 bytes");
    T value;
    memcpy(&value, &bits, sizeof(T));
    return value;
}

/* ---------------------------------------------------------------------- */
/* Task ids                                                                */
/* ---------------------------------------------------------------------- */

/* A submitted task's id: its submission number in the run (ring 0). */
struct PTO2TaskId {
    uint64_t raw;

    static constexpr PTO2TaskId make(uint8_t ring_id, uint32_t local_id) {
        return PTO2TaskId{(static_cast<uint64_t>(ring_id) << 32) | local_id};
    }
    static constexpr PTO2TaskId invalid() { return PTO2TaskId{UINT64_MAX}; }
    constexpr uint8_t ring() const { return static_cast<uint8_t>(raw >> 32); }
    constexpr uint32_t local() const { return static_cast<uint32_t>(raw); }
    constexpr bool is_valid() const { return raw != UINT64_MAX; }
    constexpr bool is_invalid() const { return raw == UINT64_MAX; }
    constexpr bool operator==(const PTO2TaskId &o) const { return raw == o.raw; }
    constexpr bool operator!=(const PTO2TaskId &o) const { return raw != o.raw; }
};

/* ---------------------------------------------------------------------- */
/* The runtime's table                                                     */
/* ---------------------------------------------------------------------- */

struct ChipTensor;
class TensorCreateInfo;
class TaskOutputTensors;
class CoreTaskArgs;
struct MixedKernels;
enum class PTO2ScopeMode : uint8_t { AUTO = 0, MANUAL = 1 };

/* Error codes of rt_report_fatal. */
constexpr int32_t PTO2_ERROR_NONE = 0;
constexpr int32_t PTO2_ERROR_INVALID_ARGS = 1;
constexpr int32_t PTO2_ERROR_OUT_OF_MEMORY = 2;
constexpr int32_t PTO2_ERROR_INTERNAL = 3;

/* A call site: the orchestration's file and line, for the runtime's
 * sentences. */
struct PtoOrchSite {
    const char *file;
    int line;
};

/* The caller's place as trailing default arguments (each builtin on its own:
 * only then do they give the caller's file and line), and the site they
 * make. */
#define PTO_ORCH_SITE_DEFAULT const char *pto_site_file = __builtin_FILE(), int pto_site_line = __builtin_LINE()
#define PTO_ORCH_SITE_ARGS pto_site_file, pto_site_line
#define PTO_ORCH_SITE (PtoOrchSite{pto_site_file, pto_site_line})

/* The runtime's functions. ctx is the run's state, opaque here. */
struct PtoOrchOps {
    uint32_t abi_version;
    void (*submit)(void *ctx, const MixedKernels *kernels, const CoreTaskArgs *args, bool dummy,
                   TaskOutputTensors *out, PtoOrchSite site);
    void (*alloc)(void *ctx, const CoreTaskArgs *args, TaskOutputTensors *out, PtoOrchSite site);
    void (*scope_begin)(void *ctx, PTO2ScopeMode mode, PtoOrchSite site);
    void (*scope_end)(void *ctx);
    int (*is_fatal)(void *ctx);
    void (*report_fatal)(void *ctx, int32_t code, PtoOrchSite site, const char *func, const char *fmt,
                         va_list ap);
    void (*log)(void *ctx, int level, const char *func, const char *fmt, va_list ap);
    uint64_t (*get_tensor_data)(void *ctx, const ChipTensor *tensor, uint32_t ndims, const uint32_t *indices,
                                PtoOrchSite site);
    void (*set_tensor_data)(void *ctx, const ChipTensor *tensor, uint32_t ndims, const uint32_t *indices,
                            uint64_t value, PtoOrchSite site);
    int32_t (*available_cluster_count)(void *ctx);
    int32_t (*available_aiv_count)(void *ctx);
};

/* The table and run of the calling thread (set by pto_orch_bind). The
 * runtime compiles orchestrations with hidden visibility, so each loaded
 * orchestration has its own. */
struct PtoOrchBinding {
    const PtoOrchOps *ops;
    void *ctx;
};
inline thread_local PtoOrchBinding pto_orch_current{nullptr, nullptr};

/* Called by the runtime before the entry (and with NULLs after it). Weak:
 * several translation units of one orchestration may include this file. */
extern "C" __attribute__((weak, visibility("default"))) int pto_orch_bind(const PtoOrchOps *ops, void *ctx) {
    if (ops != nullptr && ops->abi_version != PTO_ORCH_ABI_VERSION) return -1;
    pto_orch_current.ops = ops;
    pto_orch_current.ctx = ops != nullptr ? ctx : nullptr;
    return PTO_ORCH_ABI_VERSION;
}

/* True when no runtime is bound or it has stopped on an error. */
inline bool pto_orch_stopped() {
    const PtoOrchBinding &b = pto_orch_current;
    return b.ops == nullptr || b.ops->is_fatal(b.ctx) != 0;
}

inline void pto_orch_fatal(int32_t code, PtoOrchSite site, const char *func, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
inline void pto_orch_fatal(int32_t code, PtoOrchSite site, const char *func, const char *fmt, ...) {
    const PtoOrchBinding &b = pto_orch_current;
    if (b.ops == nullptr) return;
    va_list ap;
    va_start(ap, fmt);
    b.ops->report_fatal(b.ctx, code, site, func, fmt, ap);
    va_end(ap);
}

/* always_assert(cond): a false cond stops the run with the condition's text
 * and place (PTO2's macro aborts; here the runtime reports it). */
#define always_assert(cond)                                                                        \
    do {                                                                                           \
        if (!(cond))                                                                               \
            pto_orch_fatal(PTO2_ERROR_INVALID_ARGS, PtoOrchSite{__FILE__, __LINE__}, __func__,     \
                           "assertion failed: %s", #cond);                                         \
    } while (0)
#define debug_assert(cond) always_assert(cond)

/* ---------------------------------------------------------------------- */
/* Tensors                                                                 */
/* ---------------------------------------------------------------------- */

/* An allocation: its first byte's address and its size. */
struct PTOBufferHandle {
    uint64_t addr;
    uint64_t size;
};

/* How a task uses a tensor. */
enum class TensorArgType : int32_t {
    INPUT = 0,           /* read */
    OUTPUT = 1,          /* written; the runtime allocates it (TensorCreateInfo) */
    INOUT = 2,           /* read and written */
    OUTPUT_EXISTING = 3, /* written, an existing tensor */
    NO_DEP = 4,          /* used without dependency tracking */
};

/* A strided view of an allocation: element (i0, ..., in-1) lies at element
 * start_offset + sum(i_k * strides[k]) of buffer, strides in elements, all
 * positive. Trivially copyable; the view operations return new views and
 * check them against the allocation (an out-of-range view stops the run). */
struct ChipTensor {
    PTOBufferHandle buffer;
    PTO2TaskId owner_task_id;
    uint64_t start_offset;
    int32_t version;
    uint32_t ndims;
    DataType dtype;
    bool manual_dep;
    bool is_contiguous;
    AddressSpace address_space;
    uint32_t shapes[MAX_TENSOR_DIMS];
    uint64_t extent_elem_cache;
    uint32_t strides[MAX_TENSOR_DIMS];

    uint64_t numel() const {
        uint64_t n = 1;
        for (uint32_t i = 0; i < ndims; i++) n *= shapes[i];
        return n;
    }

    /* Elements from the first to one past the last the view reaches (0 for
     * an empty view). */
    uint64_t extent_elem() const { return extent_elem_cache; }

    uint64_t nbytes() const { return numel() * get_element_size(dtype); }
    bool is_device_memory() const { return address_space == AddressSpace::DEVICE; }

    template <typename T>
    T *data_as() const {
        return reinterpret_cast<T *>(static_cast<uintptr_t>(buffer.addr));
    }

    uint64_t compute_flat_offset(const uint32_t indices[], uint32_t n) const {
        uint64_t off = start_offset;
        for (uint32_t d = 0; d < n; d++) off += static_cast<uint64_t>(indices[d]) * strides[d];
        return off;
    }

    /* Sets strides row-major over shapes, and the derived fields. */
    void set_row_major() {
        uint64_t s = 1;
        for (int32_t i = static_cast<int32_t>(ndims) - 1; i >= 0; --i) {
            strides[i] = static_cast<uint32_t>(s);
            s *= shapes[i];
        }
        refresh_derived();
    }

    /* Recomputes extent_elem_cache and is_contiguous from shapes and strides. */
    void refresh_derived() {
        uint64_t extent = 1, expected = 1;
        bool contiguous = true, empty = false;
        for (int32_t i = static_cast<int32_t>(ndims) - 1; i >= 0; --i) {
            if (shapes[i] == 0) empty = true;
            if (strides[i] != expected) contiguous = false;
            if (shapes[i] > 0) extent += static_cast<uint64_t>(shapes[i] - 1) * strides[i];
            expected *= shapes[i];
        }
        extent_elem_cache = empty ? 0 : extent;
        is_contiguous = empty || contiguous;
    }

    /* The window of shape view_shapes at view_offsets (per dimension, inside
     * this view's shape); a window with a zero dimension is empty and its
     * offsets are not checked. */
    ChipTensor view(const uint32_t view_shapes[], const uint32_t view_offsets[], bool in_manual_dep = false,
                    PTO_ORCH_SITE_DEFAULT) const {
        ChipTensor r = *this;
        bool empty = false;
        for (uint32_t i = 0; i < ndims; i++) empty = empty || view_shapes[i] == 0;
        for (uint32_t i = 0; i < ndims; i++) {
            if (!empty) {
                if (static_cast<uint64_t>(view_offsets[i]) + view_shapes[i] > shapes[i]) {
                    pto_orch_fatal(PTO2_ERROR_INVALID_ARGS, PTO_ORCH_SITE, "view",
                                   "dimension %u's window [%u, %u + %u) lies outside the tensor's %u", i,
                                   view_offsets[i], view_offsets[i], view_shapes[i], shapes[i]);
                    return *this;
                }
                r.start_offset += static_cast<uint64_t>(view_offsets[i]) * strides[i];
            }
            r.shapes[i] = view_shapes[i];
        }
        r.manual_dep = in_manual_dep;
        r.refresh_derived();
        return r;
    }

    bool valid_transpose(uint32_t x, uint32_t y) const { return x < ndims && y < ndims; }

    /* Dimensions x and y swapped (shapes and strides). */
    ChipTensor transpose(uint32_t x, uint32_t y, bool in_manual_dep = false, PTO_ORCH_SITE_DEFAULT) const {
        if (!valid_transpose(x, y)) {
            pto_orch_fatal(PTO2_ERROR_INVALID_ARGS, PTO_ORCH_SITE, "transpose",
                           "(%u, %u) of a tensor of %u dimensions", x, y, ndims);
            return *this;
        }
        ChipTensor r = *this;
        std::swap(r.shapes[x], r.shapes[y]);
        std::swap(r.strides[x], r.strides[y]);
        r.manual_dep = in_manual_dep;
        r.refresh_derived();
        return r;
    }

    /* Dimension i of the result is dimension order[i] of this view. */
    ChipTensor permute(const uint32_t order[], bool in_manual_dep = false, PTO_ORCH_SITE_DEFAULT) const {
        ChipTensor r = *this;
        uint32_t seen = 0;
        for (uint32_t i = 0; i < ndims; i++) {
            if (order[i] >= ndims || (seen & (1u << order[i])) != 0) {
                pto_orch_fatal(PTO2_ERROR_INVALID_ARGS, PTO_ORCH_SITE, "permute",
                               "order[%u] = %u is not a new dimension of %u", i, order[i], ndims);
                return *this;
            }
            seen |= 1u << order[i];
            r.shapes[i] = shapes[order[i]];
            r.strides[i] = strides[order[i]];
        }
        r.manual_dep = in_manual_dep;
        r.refresh_derived();
        return r;
    }

    /* Dimension dim restricted to [start, end) by step. */
    ChipTensor slice(uint32_t dim, uint32_t start, uint32_t end, uint32_t step = 1, bool in_manual_dep = false,
                     PTO_ORCH_SITE_DEFAULT) const {
        if (dim >= ndims || step == 0 || end <= start || end > shapes[dim] ||
            static_cast<uint64_t>(strides[dim]) * step > UINT32_MAX) {
            pto_orch_fatal(PTO2_ERROR_INVALID_ARGS, PTO_ORCH_SITE, "slice",
                           "(%u, %u, %u, %u) of a tensor of %u dimensions (that one %u long)", dim, start,
                           end, step, ndims, dim < ndims ? shapes[dim] : 0);
            return *this;
        }
        ChipTensor r = *this;
        r.start_offset += static_cast<uint64_t>(start) * strides[dim];
        r.shapes[dim] = (end - start + step - 1) / step;
        r.strides[dim] = strides[dim] * step;
        r.manual_dep = in_manual_dep;
        r.refresh_derived();
        return r;
    }

    bool valid_reshape(const uint32_t new_shapes[], uint32_t new_ndims) const {
        uint64_t n = 1;
        for (uint32_t i = 0; i < new_ndims; i++) n *= new_shapes[i];
        return new_ndims > 0 && new_ndims <= MAX_TENSOR_DIMS && n == numel();
    }

    /* The same elements, row-major, in new_shapes; this view must be
     * contiguous. */
    ChipTensor reshape(const uint32_t new_shapes[], uint32_t new_ndims, bool in_manual_dep = false,
                       PTO_ORCH_SITE_DEFAULT) const {
        if (!valid_reshape(new_shapes, new_ndims) || !is_contiguous) {
            pto_orch_fatal(PTO2_ERROR_INVALID_ARGS, PTO_ORCH_SITE, "reshape", "%s",
                           !is_contiguous ? "a view that is not contiguous"
                                          : "to a shape of another element count or rank");
            return *this;
        }
        ChipTensor r = *this;
        r.ndims = new_ndims;
        for (uint32_t i = 0; i < new_ndims; i++) r.shapes[i] = new_shapes[i];
        r.manual_dep = in_manual_dep;
        r.set_row_major();
        return r;
    }

    /* Copies another view (PTO2's spelling). */
    void copy(const ChipTensor &other) { *this = other; }
    void init_from(const ChipTensor &other) { *this = other; }

    std::string dump() const {
        std::string s = "{dtype " + std::string(get_dtype_name(dtype)) + ", start_offset " +
                        std::to_string(start_offset) + ", shapes [";
        for (uint32_t i = 0; i < ndims; i++) s += (i ? ", " : "") + std::to_string(shapes[i]);
        s += "], strides [";
        for (uint32_t i = 0; i < ndims; i++) s += (i ? ", " : "") + std::to_string(strides[i]);
        return s + "]}";
    }
};

static_assert(std::is_trivially_copyable_v<ChipTensor>, "ChipTensor is copied as bytes");

/* A contiguous tensor over caller memory (start_offset 0, row-major). */
inline ChipTensor make_tensor_external(void *addr, const uint32_t shapes[], uint32_t ndims,
                                       DataType dtype = DataType::FLOAT32, bool manual_dep = false,
                                       int32_t version = 0, AddressSpace address_space = AddressSpace::HOST) {
    ChipTensor t{};
    t.ndims = ndims > static_cast<uint32_t>(MAX_TENSOR_DIMS) ? MAX_TENSOR_DIMS : ndims;
    t.dtype = dtype;
    t.version = version;
    t.manual_dep = manual_dep;
    t.address_space = address_space;
    t.owner_task_id = PTO2TaskId::invalid();
    for (uint32_t i = 0; i < t.ndims; i++) t.shapes[i] = shapes[i];
    t.set_row_major();
    t.buffer.addr = reinterpret_cast<uint64_t>(addr);
    t.buffer.size = t.numel() * get_element_size(dtype);
    return t;
}

/* What the runtime allocates for a task's OUTPUT or alloc_tensors: shape,
 * dtype and an optional value every element starts with (else zero). */
class TensorCreateInfo {
public:
    TensorCreateInfo() = default;
    TensorCreateInfo(const uint32_t shapes_in[], uint32_t ndims_in, DataType dtype_in = DataType::FLOAT32,
                     bool manual_dep_in = false)
        : ndims(ndims_in), dtype(dtype_in), manual_dep(manual_dep_in) {
        const uint32_t n = ndims_in > static_cast<uint32_t>(MAX_TENSOR_DIMS) ? MAX_TENSOR_DIMS : ndims_in;
        for (uint32_t i = 0; i < n; i++) shapes[i] = shapes_in[i];
    }

    template <typename T = uint64_t>
    void set_initial_value(T value) {
        has_initial_value = true;
        initial_value = to_u64(value);
    }

    uint64_t buffer_size_bytes() const {
        uint64_t n = get_element_size(dtype);
        for (uint32_t i = 0; i < ndims && i < static_cast<uint32_t>(MAX_TENSOR_DIMS); i++) n *= shapes[i];
        return n;
    }

    void copy(const TensorCreateInfo &other) { *this = other; }

    uint64_t initial_value = 0;
    bool has_initial_value = false;
    uint32_t ndims = 0;
    DataType dtype = DataType::FLOAT32;
    bool manual_dep = false;
    uint32_t shapes[MAX_TENSOR_DIMS] = {};
};

/* What a submission gives back: the task's id and the tensors the runtime
 * allocated for it (its OUTPUT arguments, or alloc_tensors' tensors), in
 * order. The tensors live until the run ends. */
class TaskOutputTensors {
public:
    TaskOutputTensors() = default;

    bool empty() const { return count_ == 0; }
    uint32_t size() const { return count_; }
    PTO2TaskId task_id() const { return task_id_; }

    /* Tensor index; past the end (a submission that failed) an empty tensor,
     * the run having stopped with the error already. */
    const ChipTensor &get_ref(uint32_t index) const & {
        static const ChipTensor none{};
        if (index >= count_) {
            if (!pto_orch_stopped())
                pto_orch_fatal(PTO2_ERROR_INVALID_ARGS, PtoOrchSite{"", 0}, "get_ref",
                               "get_ref(%u) of a submission with %u outputs", index, count_);
            return none;
        }
        return *tensors_[index];
    }
    const ChipTensor &get_ref(uint32_t index) const && = delete;

    /* The runtime's side. */
    void set_task_id(PTO2TaskId id) { task_id_ = id; }
    bool materialize_output(const ChipTensor *t) {
        if (count_ >= static_cast<uint32_t>(MAX_TENSOR_ARGS)) return false;
        tensors_[count_++] = t;
        return true;
    }

private:
    PTO2TaskId task_id_ = PTO2TaskId::invalid();
    uint32_t count_ = 0;
    const ChipTensor *tensors_[MAX_TENSOR_ARGS] = {};
};

/* One argument slot of a task: the tensor (or, for OUTPUT, the create info)
 * it refers to. The orchestration keeps those alive until the submission
 * returns. */
class TensorRef {
public:
    TensorRef() = default;
    TensorRef(const TensorRef &) = delete;
    TensorRef &operator=(const TensorRef &) = delete;

    const ChipTensor &ref() const { return *tensor_; }
    const TensorCreateInfo &create_info() const { return *create_info_; }
    const ChipTensor *tensor_ptr() const { return tensor_; }
    const TensorCreateInfo *create_info_ptr() const { return create_info_; }
    void set(const ChipTensor *t) { tensor_ = t; create_info_ = nullptr; }
    void set(const TensorCreateInfo *ci) { create_info_ = ci; tensor_ = nullptr; }
    bool refers_to(const ChipTensor *t) const { return tensor_ == t; }
    bool refers_to(const TensorCreateInfo *ci) const { return create_info_ == ci; }

private:
    const ChipTensor *tensor_ = nullptr;
    const TensorCreateInfo *create_info_ = nullptr;
};

/* ---------------------------------------------------------------------- */
/* Tasks                                                                   */
/* ---------------------------------------------------------------------- */

constexpr int32_t INVALID_KERNEL_ID = -1;

/* The kernels of one task: the cube's (AIC) and the two vector cores'
 * (AIV0, AIV1); INVALID_KERNEL_ID marks a slot unused. */
struct MixedKernels {
    int32_t aic_kernel_id = INVALID_KERNEL_ID;
    int32_t aiv0_kernel_id = INVALID_KERNEL_ID;
    int32_t aiv1_kernel_id = INVALID_KERNEL_ID;
};

/* Blocks of a task (SPMD launch): set_block_num (A2A3's spelling) and
 * set_core_num (A5's) set the same count. */
class PTO2LaunchSpec {
public:
    int32_t block_num() const { return block_num_; }
    int32_t core_num() const { return block_num_; }
    void set_block_num(int32_t n) { block_num_ = n; }
    void set_core_num(int32_t n) { block_num_ = n; }
    bool require_sync_start() const { return require_sync_start_; }
    void set_require_sync_start(bool v) { require_sync_start_ = v; }

private:
    int32_t block_num_ = 1;
    bool require_sync_start_ = false;
};

/* Dependency kinds of set_dependencies_with_kinds (all order the tasks). */
enum DepFlags : uint8_t { DEP_NONE = 0, DEP_WAIT = 1u << 0, DEP_RETAIN = 1u << 1 };
constexpr DepFlags operator|(DepFlags a, DepFlags b) {
    return static_cast<DepFlags>(static_cast<uint8_t>(a) | static_cast<uint8_t>(b));
}

/* A dispatch predicate: the task's kernel runs only if tensor element
 * operand (read as a signed integer of the tensor's dtype once the task's
 * dependencies are met) compares with target as op says. */
enum class PredicateOp : uint8_t { NONE = 0, EQ, NE, GT, LT, GE, LE };
struct CorePredicateOperand {
    const ChipTensor *tensor = nullptr;
    uint32_t ndims = 0;
    uint32_t indices[MAX_TENSOR_DIMS] = {};
};
struct CoreTaskPredicate {
    CorePredicateOperand operand;
    PredicateOp op = PredicateOp::NONE;
    int64_t target = 0;
};

/* The arguments of a task, as PTO2's Arg: tensors first (add_input,
 * add_output, add_inout, add_no_dep), then scalars (add_scalar), explicit
 * dependencies, the launch spec. A misuse (a tensor after a scalar, too
 * many) is recorded and reported by the submission. */
template <int MaxT, int MaxS>
class PtoOrchArgs {
public:
    PtoOrchArgs() = default;
    PtoOrchArgs(const PtoOrchArgs &) = delete;
    PtoOrchArgs &operator=(const PtoOrchArgs &) = delete;

    PTO2LaunchSpec launch_spec;
    bool has_error = false;
    const char *error_msg = nullptr;

    template <typename... Ts>
    void add_input(Ts &...ts) {
        static_assert((std::is_same_v<std::decay_t<Ts>, ChipTensor> && ...), "add_input takes ChipTensors");
        (add_tensor(&ts, TensorArgType::INPUT), ...);
    }
    template <typename... Ts>
    void add_output(Ts &...ts) {
        static_assert((std::is_same_v<std::decay_t<Ts>, ChipTensor> && ...) ||
                          (std::is_same_v<std::decay_t<Ts>, TensorCreateInfo> && ...),
                      "add_output takes all ChipTensors or all TensorCreateInfos");
        (add_tensor(&ts, std::is_same_v<std::decay_t<Ts>, TensorCreateInfo> ? TensorArgType::OUTPUT
                                                                           : TensorArgType::OUTPUT_EXISTING),
         ...);
    }
    template <typename... Ts>
    void add_inout(Ts &...ts) {
        static_assert((std::is_same_v<std::decay_t<Ts>, ChipTensor> && ...), "add_inout takes ChipTensors");
        (add_tensor(&ts, TensorArgType::INOUT), ...);
    }
    template <typename... Ts>
    void add_no_dep(Ts &...ts) {
        static_assert((std::is_same_v<std::decay_t<Ts>, ChipTensor> && ...), "add_no_dep takes ChipTensors");
        (add_tensor(&ts, TensorArgType::NO_DEP), ...);
    }
    /* The orchestration's own entry arguments (ChipTaskArgs). */
    void add_tensor(const ChipTensor &t) { add_tensor(&t, TensorArgType::INPUT); }

    template <typename... Ts>
    void add_scalar(Ts &&...values) {
        static_assert(sizeof...(Ts) >= 1 && (is_supported_scalar_arg_v<Ts> && ...),
                      "add_scalar takes arithmetic or enum values");
        (push_scalar(to_u64(values)), ...);
    }
    void add_scalars(const uint64_t *values, int count) {
        for (int i = 0; i < count; i++) push_scalar(values[i]);
    }
    void add_scalars_i32(const int32_t *values, int count) {
        for (int i = 0; i < count; i++) push_scalar(static_cast<uint32_t>(values[i]));
    }
    template <typename Other>
    void copy_scalars_from(const Other &src, int src_offset, int count) {
        if (src_offset < 0 || count < 0 || src_offset + count > src.scalar_count()) {
            set_error("copy_scalars_from: a range outside the source's scalars");
            return;
        }
        for (int i = 0; i < count; i++) push_scalar(src.scalar(src_offset + i));
    }

    /* Tasks this one waits for besides those its tensors give; the array
     * must outlive the submission. count 0 clears. */
    void set_dependencies(const PTO2TaskId *deps, uint32_t count) {
        if (count == 0) {
            deps_ = nullptr;
            dep_count_ = 0;
            return;
        }
        if (deps == nullptr) return set_error("set_dependencies: NULL with a count above 0");
        if (deps_ != nullptr) return set_error("set_dependencies: called twice on one task");
        deps_ = deps;
        dep_count_ = count;
    }
    void set_dependencies_with_kinds(const PTO2TaskId *deps, const DepFlags *kinds, uint32_t count) {
        if (count > 0 && kinds == nullptr) return set_error("set_dependencies_with_kinds: NULL kinds");
        set_dependencies(deps, count);
    }
    uint32_t explicit_dep_count() const { return dep_count_; }
    PTO2TaskId explicit_dep(uint32_t i) const { return i < dep_count_ ? deps_[i] : PTO2TaskId::invalid(); }
    const PTO2TaskId *explicit_deps_data() const { return deps_; }

    void set_allow_early_resolve(bool v = true) { allow_early_resolve_ = v; }
    bool allow_early_resolve() const { return allow_early_resolve_; }
    void set_predicate(const CoreTaskPredicate &p) { predicate_ = p; }
    const CoreTaskPredicate &predicate() const { return predicate_; }
    void set_task_timing_slot(int32_t slot) { timing_slot_ = slot; }
    int32_t task_timing_slot() const { return timing_slot_; }
    /* PTO2's argument dumps: nothing to record here. */
    template <typename... Ts>
    void dump(Ts &&...) {}

    const TensorRef &tensor(int32_t i) const { return tensors_[i]; }
    TensorArgType tag(int32_t i) const { return tags_[i]; }
    uint64_t scalar(int32_t i) const { return scalars_[i]; }
    const uint64_t *scalars() const { return scalars_; }
    int32_t tensor_count() const { return tensor_count_; }
    int32_t scalar_count() const { return scalar_count_; }

    void clear() {
        for (int i = 0; i < tensor_count_; i++) tensors_[i].set(static_cast<const ChipTensor *>(nullptr));
        tensor_count_ = scalar_count_ = 0;
        deps_ = nullptr;
        dep_count_ = 0;
        allow_early_resolve_ = false;
        predicate_ = CoreTaskPredicate{};
        timing_slot_ = -1;
    }
    void reset() {
        clear();
        has_error = false;
        error_msg = nullptr;
    }
    void set_error(const char *msg) {
        if (!has_error) {
            has_error = true;
            error_msg = msg;
        }
    }

private:
    template <typename P>
    void add_tensor(const P *p, TensorArgType tag) {
        if (scalar_count_ != 0) return set_error("a tensor added after a scalar: tensors come first");
        if (tensor_count_ >= MaxT) return set_error("more tensors than a task takes");
        tensors_[tensor_count_].set(p);
        tags_[tensor_count_++] = tag;
    }
    void push_scalar(uint64_t bits) {
        if (scalar_count_ >= MaxS) return set_error("more scalars than a task takes");
        scalars_[scalar_count_++] = bits;
    }

    TensorRef tensors_[MaxT];
    TensorArgType tags_[MaxT] = {};
    uint64_t scalars_[MaxS] = {};
    int32_t tensor_count_ = 0;
    int32_t scalar_count_ = 0;
    const PTO2TaskId *deps_ = nullptr;
    uint32_t dep_count_ = 0;
    bool allow_early_resolve_ = false;
    CoreTaskPredicate predicate_;
    int32_t timing_slot_ = -1;
};

class CoreTaskArgs : public PtoOrchArgs<MAX_TENSOR_ARGS, MAX_SCALAR_ARGS> {};

/* PTO2's name of the template. */
template <int MaxT, int MaxS>
using Arg = PtoOrchArgs<MaxT, MaxS>;

/* The orchestration entry's arguments: tensor(i).ref() and scalar(i). */
class ChipTaskArgs : public PtoOrchArgs<CHIP_MAX_TENSOR_ARGS, CHIP_MAX_SCALAR_ARGS> {};

/* ---------------------------------------------------------------------- */
/* The calls                                                               */
/* ---------------------------------------------------------------------- */

inline TaskOutputTensors rt_submit_task(const MixedKernels &kernels, const CoreTaskArgs &args,
                                        PTO_ORCH_SITE_DEFAULT) {
    TaskOutputTensors out;
    if (!pto_orch_stopped())
        pto_orch_current.ops->submit(pto_orch_current.ctx, &kernels, &args, false, &out, PTO_ORCH_SITE);
    return out;
}

inline TaskOutputTensors rt_submit_aic_task(int32_t kernel_id, const CoreTaskArgs &args, PTO_ORCH_SITE_DEFAULT) {
    MixedKernels k;
    k.aic_kernel_id = kernel_id;
    return rt_submit_task(k, args, PTO_ORCH_SITE_ARGS);
}

inline TaskOutputTensors rt_submit_aiv_task(int32_t kernel_id, const CoreTaskArgs &args, PTO_ORCH_SITE_DEFAULT) {
    MixedKernels k;
    k.aiv0_kernel_id = kernel_id;
    return rt_submit_task(k, args, PTO_ORCH_SITE_ARGS);
}

/* A task that runs no kernel: it orders the tasks it depends on before
 * those that depend on it. */
inline TaskOutputTensors rt_submit_dummy_task(const CoreTaskArgs &args, PTO_ORCH_SITE_DEFAULT) {
    TaskOutputTensors out;
    MixedKernels none;
    if (!pto_orch_stopped())
        pto_orch_current.ops->submit(pto_orch_current.ctx, &none, &args, true, &out, PTO_ORCH_SITE);
    return out;
}

/* Tensors allocated now, zero-filled (or filled with the create info's
 * initial value), freed when the scope that allocated them ends and every
 * task using them has run. */
inline TaskOutputTensors alloc_tensors(const CoreTaskArgs &args, PTO_ORCH_SITE_DEFAULT) {
    TaskOutputTensors out;
    if (!pto_orch_stopped()) pto_orch_current.ops->alloc(pto_orch_current.ctx, &args, &out, PTO_ORCH_SITE);
    return out;
}

inline TaskOutputTensors alloc_tensors(const TensorCreateInfo create_infos[], uint32_t count,
                                       PTO_ORCH_SITE_DEFAULT) {
    CoreTaskArgs args;
    for (uint32_t i = 0; i < count; i++) args.add_output(create_infos[i]);
    return alloc_tensors(args, PTO_ORCH_SITE_ARGS);
}

template <typename... CIs,
          typename = std::enable_if_t<(sizeof...(CIs) > 0) &&
                                      (std::is_same_v<std::decay_t<CIs>, TensorCreateInfo> && ...)>>
inline TaskOutputTensors alloc_tensors(const CIs &...cis) {
    CoreTaskArgs args;
    (args.add_output(cis), ...);
    return alloc_tensors(args, "", 0);
}

inline void rt_scope_begin(PTO2ScopeMode mode = PTO2ScopeMode::AUTO, PTO_ORCH_SITE_DEFAULT) {
    if (!pto_orch_stopped()) pto_orch_current.ops->scope_begin(pto_orch_current.ctx, mode, PTO_ORCH_SITE);
}

inline void rt_scope_end() {
    if (!pto_orch_stopped()) pto_orch_current.ops->scope_end(pto_orch_current.ctx);
}

/* Nothing to do: the runtime waits for the tasks when the entry returns. */
inline void rt_orchestration_done() {}

/* The platform's cube-and-vector clusters and vector cores (A2A3: 24 and 48,
 * A5: 36 and 72), whatever the number of workers, so that a program that
 * sizes its launches by them gives the same bytes on any machine. */
inline int32_t rt_available_cluster_count() {
    return pto_orch_current.ops != nullptr ? pto_orch_current.ops->available_cluster_count(pto_orch_current.ctx)
                                           : 0;
}
inline int32_t rt_available_aiv_count() {
    return pto_orch_current.ops != nullptr ? pto_orch_current.ops->available_aiv_count(pto_orch_current.ctx) : 0;
}

inline bool rt_is_fatal() { return pto_orch_stopped(); }

#define rt_report_fatal(code, ...) pto_orch_fatal((code), PtoOrchSite{__FILE__, __LINE__}, __func__, __VA_ARGS__)

inline void pto_orch_log(int level, const char *func, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
inline void pto_orch_log(int level, const char *func, const char *fmt, ...) {
    if (pto_orch_current.ops == nullptr) return;
    va_list ap;
    va_start(ap, fmt);
    pto_orch_current.ops->log(pto_orch_current.ctx, level, func, fmt, ap);
    va_end(ap);
}
#define LOG_ERROR(...) pto_orch_log(0, __func__, __VA_ARGS__)
#define LOG_WARN(...) pto_orch_log(1, __func__, __VA_ARGS__)
#define LOG_INFO(...) pto_orch_log(2, __func__, __VA_ARGS__)
#define LOG_DEBUG(...) pto_orch_log(3, __func__, __VA_ARGS__)
#define LOG_TIMING(...) pto_orch_log(3, __func__, __VA_ARGS__)

/* Element indices[0..ndims-1] of tensor, once every task writing it has run
 * (ndims 0: the first element), as T (default: its raw bits). */
template <typename T = uint64_t>
inline T get_tensor_data(const ChipTensor &tensor, uint32_t ndims, const uint32_t indices[],
                         PTO_ORCH_SITE_DEFAULT) {
    if (pto_orch_stopped()) return from_u64<T>(0);
    return from_u64<T>(
        pto_orch_current.ops->get_tensor_data(pto_orch_current.ctx, &tensor, ndims, indices, PTO_ORCH_SITE));
}

/* Writes element indices[...] of tensor once every task using it has run. */
template <typename T = uint64_t>
inline void set_tensor_data(const ChipTensor &tensor, uint32_t ndims, const uint32_t indices[], T value,
                            PTO_ORCH_SITE_DEFAULT) {
    if (pto_orch_stopped()) return;
    pto_orch_current.ops->set_tensor_data(pto_orch_current.ctx, &tensor, ndims, indices, to_u64(value),
                                          PTO_ORCH_SITE);
}

/* ---------------------------------------------------------------------- */
/* Scopes                                                                  */
/* ---------------------------------------------------------------------- */

/* A scope: tensors allocated in it are released at its end. In a MANUAL
 * scope a task's tensors give it no dependencies on the scope's earlier
 * tasks; set_dependencies orders them. */
class PTO2ScopeGuard {
public:
    explicit PTO2ScopeGuard(PTO2ScopeMode mode = PTO2ScopeMode::AUTO, const char *file = __builtin_FILE(),
                            int line = __builtin_LINE()) {
        rt_scope_begin(mode, file, line);
    }
    ~PTO2ScopeGuard() { rt_scope_end(); }
    PTO2ScopeGuard(const PTO2ScopeGuard &) = delete;
    PTO2ScopeGuard &operator=(const PTO2ScopeGuard &) = delete;
};

#define PTO2_CONCAT_IMPL_(x, y) x##y
#define PTO2_CONCAT_(x, y) PTO2_CONCAT_IMPL_(x, y)
#define PTO2_SCOPE_GUARD(...) [[maybe_unused]] PTO2ScopeGuard PTO2_CONCAT_(pto2_scope_, __COUNTER__){__VA_ARGS__}
#define PTO2_SCOPE(...) if (PTO2ScopeGuard PTO2_CONCAT_(pto2_scope_, __COUNTER__){__VA_ARGS__}; true)

/* What aicpu_orchestration_config returns. */
struct PTO2OrchestrationConfig {
    int expected_arg_count;
};

#endif /* PTO_RUNTIME_PTO_ORCHESTRATION_API_H_ */
