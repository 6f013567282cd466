// Scopes and the runtime's tensors: acc (alloc_tensors, zero) and, in each
// of n turns, a scope of its own with a tensor allocated in it:
// tmp = (i + 1) x + acc, then acc = tmp + zero (zero a task OUTPUT the
// runtime allocates). acc ends as n (n + 1) / 2 x. Then out = acc + ones
// (ones allocated with initial value 1), get_tensor_data reads acc[0][0]
// once the tasks writing it have run, and set_tensor_data writes twice that
// into out[15][15] once the task writing out has run.
// Arguments: x, out (16 x 16 float32), n (scalar).
#include <stddef.h>
#include <stdint.h>

#include "pto_orchestration_api.h"

extern "C" {

__attribute__((visibility("default")))
PTO2OrchestrationConfig aicpu_orchestration_config(const ChipTaskArgs& orch_args) {
    (void)orch_args;
    return PTO2OrchestrationConfig{.expected_arg_count = 3};
}

static void axpy(const ChipTensor& x, const ChipTensor& y, const ChipTensor& out, float alpha) {
    CoreTaskArgs params;
    params.add_input(x);
    params.add_input(y);
    params.add_output(out);
    params.add_scalar(to_u64(alpha));
    params.add_scalar((uint64_t)16);
    rt_submit_aiv_task(0, params);
}

__attribute__((visibility("default")))
void aicpu_orchestration_entry(const ChipTaskArgs& orch_args) {
    const ChipTensor& ext_x = orch_args.tensor(0).ref();
    const ChipTensor& ext_out = orch_args.tensor(1).ref();
    int64_t n = from_u64<int64_t>(orch_args.scalar(0));
    PTO2_SCOPE() {
        uint32_t acc_ci_shapes[2] = {16, 16};
        TensorCreateInfo acc_ci(acc_ci_shapes, 2, DataType::FLOAT32);
        TensorCreateInfo ones_ci(acc_ci_shapes, 2, DataType::FLOAT32);
        ones_ci.set_initial_value(1.0f);
        TaskOutputTensors alloc_0 = alloc_tensors(acc_ci, ones_ci);
        const ChipTensor& acc = alloc_0.get_ref(0);
        const ChipTensor& ones = alloc_0.get_ref(1);
        for (int64_t i = 0; i < n; i += 1) {
            PTO2_SCOPE() {
                uint32_t tmp_ci_shapes[2] = {16, 16};
                TensorCreateInfo tmp_ci(tmp_ci_shapes, 2, DataType::FLOAT32);
                TaskOutputTensors alloc_1 = alloc_tensors(tmp_ci);
                const ChipTensor& tmp = alloc_1.get_ref(0);
                axpy(ext_x, acc, tmp, static_cast<float>(i + 1));
                // zero: an OUTPUT the runtime allocates for the task.
                TensorCreateInfo zero_ci(tmp_ci_shapes, 2, DataType::FLOAT32);
                CoreTaskArgs params_z;
                params_z.add_input(tmp);
                params_z.add_input(tmp);
                params_z.add_output(zero_ci);
                params_z.add_scalar(to_u64(-1.0f));
                params_z.add_scalar((uint64_t)16);
                TaskOutputTensors task_z_outs = rt_submit_aiv_task(0, params_z);
                const ChipTensor& zero = task_z_outs.get_ref(0);
                axpy(tmp, zero, acc, 1.0f);
            }
        }
        axpy(acc, ones, ext_out, 1.0f);
        uint32_t idx[2] = {0, 0};
        float a00 = get_tensor_data<float>(acc, 2, idx);
        uint32_t last[2] = {15, 15};
        set_tensor_data(ext_out, 2, last, 2.0f * a00);
    }
}

}  // extern "C"
