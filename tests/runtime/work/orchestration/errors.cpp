// Programs the runtime must stop with a located error, one per `which`:
// 0 none (out = x + y); 1 a dependency cycle (task 0 waits for task 1,
// which reads what task 0 writes); 2 a dependency on a task never
// submitted; 3 an unknown kernel id; 4 a kernel that reads outside its
// tensor (row stride 32 on a 16 x 16 tensor); 5 a view outside its tensor;
// 6 get_tensor_data of a tensor whose writer can never run; 7 a task whose
// arguments do not match its kernel's parameters; 8 a failed submission's
// output used afterwards (the first error is the one reported); and two
// that run on kernels the test adds to the table: 9 out = x y through a
// kernel that breaks a rule board mode relaxes (kernel 10, board_mm.pto);
// 10 out += x y as a mixed task with one vector lane (kernels 11 and 12,
// one_lane.pto); 11 out = x through a kernel that prefetches x on a
// workspace the task does not give (kernel 13, prefetch.pto).
// Arguments: x, y, out (16 x 16 float32), which.
#include <stddef.h>
#include <stdint.h>

#include "pto_orchestration_api.h"

extern "C" {

__attribute__((visibility("default")))
PTO2OrchestrationConfig aicpu_orchestration_config(const ChipTaskArgs& orch_args) {
    (void)orch_args;
    return PTO2OrchestrationConfig{.expected_arg_count = 4};
}

static TaskOutputTensors axpy(const ChipTensor& x, const ChipTensor& y, const ChipTensor& out, uint64_t ld,
                              PTO2TaskId dep) {
    CoreTaskArgs params;
    params.add_input(x);
    params.add_input(y);
    params.add_output(out);
    params.add_scalar(to_u64(1.0f));
    params.add_scalar(ld);
    PTO2TaskId deps[1] = {dep};
    params.set_dependencies(deps, dep.is_valid() ? 1 : 0);
    return rt_submit_aiv_task(0, params);
}

__attribute__((visibility("default")))
void aicpu_orchestration_entry(const ChipTaskArgs& orch_args) {
    const ChipTensor& ext_x = orch_args.tensor(0).ref();
    const ChipTensor& ext_y = orch_args.tensor(1).ref();
    const ChipTensor& ext_out = orch_args.tensor(2).ref();
    const int64_t which = from_u64<int64_t>(orch_args.scalar(0));
    PTO2_SCOPE() {
        switch (which) {
        case 0:
            axpy(ext_x, ext_y, ext_out, 16, PTO2TaskId::invalid());
            break;
        case 1:
            axpy(ext_x, ext_y, ext_out, 16, PTO2TaskId::make(0, 1));
            axpy(ext_out, ext_y, ext_x, 16, PTO2TaskId::invalid());
            break;
        case 2:
            axpy(ext_x, ext_y, ext_out, 16, PTO2TaskId::make(0, 99));
            break;
        case 3: {
            CoreTaskArgs params;
            params.add_input(ext_x);
            params.add_output(ext_out);
            rt_submit_aiv_task(42, params);
            break;
        }
        case 4:
            axpy(ext_x, ext_y, ext_out, 32, PTO2TaskId::invalid());
            break;
        case 5: {
            uint32_t shapes[2] = {8, 16};
            uint32_t offsets[2] = {12, 0};
            ChipTensor v = ext_x.view(shapes, offsets);
            axpy(v, ext_y, ext_out, 16, PTO2TaskId::invalid());
            break;
        }
        case 6: {
            axpy(ext_x, ext_y, ext_out, 16, PTO2TaskId::make(0, 1));
            uint32_t idx[2] = {0, 0};
            float v = get_tensor_data<float>(ext_out, 2, idx);
            (void)v;
            break;
        }
        case 7: {
            CoreTaskArgs params;
            params.add_input(ext_x);
            params.add_output(ext_out);
            rt_submit_aiv_task(6, params);
            break;
        }
        case 8: {
            uint32_t shapes[2] = {16, 16};
            TensorCreateInfo ci(shapes, 2, DataType::FLOAT32);
            CoreTaskArgs params;
            params.add_input(ext_x);
            params.add_output(ci);
            TaskOutputTensors outs = rt_submit_aiv_task(42, params);
            const ChipTensor& made = outs.get_ref(0);
            axpy(made, ext_y, ext_out, 16, PTO2TaskId::invalid());
            break;
        }
        case 9: {
            CoreTaskArgs params;
            params.add_input(ext_x);
            params.add_input(ext_y);
            params.add_output(ext_out);
            rt_submit_aic_task(10, params);
            break;
        }
        case 10: {
            CoreTaskArgs params;
            params.add_input(ext_x);
            params.add_input(ext_y);
            params.add_inout(ext_out);
            MixedKernels one_lane = {11, 12, INVALID_KERNEL_ID};
            rt_submit_task(one_lane, params);
            break;
        }
        case 11: {
            CoreTaskArgs params;
            params.add_input(ext_x);
            params.add_output(ext_out);
            rt_submit_aiv_task(13, params);
            break;
        }
        default:
            break;
        }
    }
}

}  // extern "C"
