// An orchestration in the form PyPTO's codegen writes against the PTO2 API:
// out = (x + y) + y through a tensor the runtime allocates, two tasks of the
// vector kernel 0 (add.pto's vec_add), the second depending on the first
// through that tensor.
#include <stddef.h>
#include <stdint.h>

#include "pto_orchestration_api.h"

extern "C" {

__attribute__((visibility("default")))
PTO2OrchestrationConfig aicpu_orchestration_config(const ChipTaskArgs& orch_args) {
    (void)orch_args;
    return PTO2OrchestrationConfig{
        .expected_arg_count = 3,
    };
}

__attribute__((visibility("default")))
void aicpu_orchestration_entry(const ChipTaskArgs& orch_args) {
    const ChipTensor& x = orch_args.tensor(0).ref();
    const ChipTensor& y = orch_args.tensor(1).ref();
    const ChipTensor& out = orch_args.tensor(2).ref();

    PTO2_SCOPE() {
        uint32_t sum_shape[2] = {16, 16};
        TensorCreateInfo sum_info(sum_shape, 2, DataType::FLOAT32);
        TaskOutputTensors made = alloc_tensors(sum_info);
        const ChipTensor& sum = made.get_ref(0);

        CoreTaskArgs first;
        first.add_input(x);
        first.add_input(y);
        first.add_output(sum);
        rt_submit_aiv_task(0, first);

        CoreTaskArgs second;
        second.add_input(sum);
        second.add_input(y);
        second.add_output(out);
        rt_submit_aiv_task(0, second);
    }
}

}  // extern "C"
