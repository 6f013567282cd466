// A submitted task's kernel: chosen from the kernel table, and its
// parameters bound to the task's tensors, scalars and the table's dims.
#include <math.h>
#include <string.h>

#include <utility>

#include "run_state.h"

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
    const size_t given = static_cast<size_t>(ntensors) + nscalars + ndims;
    // A prefetch's workspace is the run's, the parameter after the dims.
    const bool workspace = k.workspace_param >= 0 && static_cast<size_t>(k.workspace_param) == given;
    if (params != given + (workspace ? 1 : 0)) {
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
    if (!BindDims(t, tensors, ntensors, nscalars)) return false;
    if (workspace) {
        const pto_status st = pto_args_set_pointer(t->args, given, dma_workspace_, sizeof dma_workspace_);
        if (st != PTO_OK) {
            ReportFatal(st, where_text() + ": the prefetch workspace: " + pto_last_error());
            return false;
        }
    }
    return true;
}

// The kernel table's dims, evaluated on the task's tensors, bound to the
// parameters after the scalars.
bool RunState::BindDims(Task *t, const ChipTensor *const *tensors, int32_t ntensors, size_t nscalars) {
    const Kernel &k = *t->kernel;
    pto_program *program = t->program;
    auto where_text = [t] { return t->Describe(); };  // for an error only
    const size_t ndims = k.dims.size();
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
    if (aic != INVALID_KERNEL_ID && aiv != INVALID_KERNEL_ID && aiv1 == INVALID_KERNEL_ID) {
        // A cube and one vector lane: the block's cube and one vector core
        // (sub-block id 0), as PTO2 dispatches the lane alone; the module's
        // two vector cores would each run the vector function.
        const pto_status st = MakeOneVectorProgram(rt_, k);
        if (st != PTO_OK) {
            ReportFatal(st, at() + ": " + pto_runtime_last_error());
            return false;
        }
        t->program = k->one_vector_program;
    }
    if (aic == INVALID_KERNEL_ID && aiv1 != INVALID_KERNEL_ID) {
        // Two lanes of a vector kernel: its sub-block id bound to each.
        const pto_status st = MakeLaneProgram(rt_, k);
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

}  // namespace pto_host
