// Eight tasks of a while each (spin, kernel 6: out_i = x_i + iters on row i
// of 8 x 16 float32 tensors). mode 0: independent, so with several workers
// they overlap; mode 1: each depends on the one before (set_dependencies in
// a MANUAL scope: no tensor orders them), so none overlap; mode 2: the
// first four, then a dummy task that depends on them, then the last four
// after it (at most four at once); mode 3: independent, but each writes its
// row through the whole `out`, which it declares an output (spin_row, kernel
// 20): in PTO_RUNTIME_ORDER_ALL they run one after another, in
// PTO_RUNTIME_ORDER_PTO2 at once.
// Arguments: x, out (8 x 16 float32), mode, iters.
#include <stddef.h>
#include <stdint.h>

#include "pto_orchestration_api.h"

extern "C" {

__attribute__((visibility("default")))
PTO2OrchestrationConfig aicpu_orchestration_config(const ChipTaskArgs& orch_args) {
    (void)orch_args;
    return PTO2OrchestrationConfig{.expected_arg_count = 4};
}

__attribute__((visibility("default")))
void aicpu_orchestration_entry(const ChipTaskArgs& orch_args) {
    const ChipTensor& ext_x = orch_args.tensor(0).ref();
    const ChipTensor& ext_out = orch_args.tensor(1).ref();
    int64_t mode = from_u64<int64_t>(orch_args.scalar(0));
    int64_t iters = from_u64<int64_t>(orch_args.scalar(1));
    PTO2_SCOPE(PTO2ScopeMode::MANUAL) {
        PTO2TaskId prev = PTO2TaskId::invalid();
        PTO2TaskId first_half[4];
        PTO2TaskId barrier = PTO2TaskId::invalid();
        for (int64_t i = 0; i < 8; i += 1) {
            uint32_t row_shapes[2] = {1, 16};
            uint32_t row_offsets[2] = {static_cast<uint32_t>(i), 0};
            ChipTensor xi = ext_x.view(row_shapes, row_offsets);
            ChipTensor oi = ext_out.view(row_shapes, row_offsets);
            CoreTaskArgs params_t0;
            params_t0.add_input(xi);
            params_t0.add_output(mode == 3 ? ext_out : oi);
            params_t0.add_scalar((uint64_t)iters);
            if (mode == 3) params_t0.add_scalar((uint64_t)i);
            PTO2TaskId params_t0_deps[1];
            uint32_t params_t0_deps_count = 0;
            if (mode == 1 && prev.is_valid()) params_t0_deps[params_t0_deps_count++] = prev;
            if (mode == 2 && i >= 4) params_t0_deps[params_t0_deps_count++] = barrier;
            params_t0.set_dependencies(params_t0_deps, params_t0_deps_count);
            TaskOutputTensors task_0_outs = rt_submit_aiv_task(mode == 3 ? 20 : 6, params_t0);
            prev = task_0_outs.task_id();
            if (i < 4) first_half[i] = prev;
            if (mode == 2 && i == 3) {
                CoreTaskArgs params_barrier;
                params_barrier.set_dependencies(first_half, 4);
                TaskOutputTensors barrier_outs = rt_submit_dummy_task(params_barrier);
                barrier = barrier_outs.task_id();
            }
        }
    }
}

}  // extern "C"
