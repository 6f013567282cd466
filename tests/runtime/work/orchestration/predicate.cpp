// Dispatch predicates: a task whose kernel runs only if an element of an
// int32 tensor compares as it says, read once the task's dependencies have
// run. flags = {1, 0}: out1 = 2 x (flags[0] > 0); out2 is not written
// (flags[1] > 0 fails); set_tensor_data makes flags[1] 7 once that task has
// read it; then out2 = 3 x (flags[1] > 3).
// Arguments: flags (1 x 2 int32), x, out1, out2 (1 x 16 float32).
#include <stddef.h>
#include <stdint.h>

#include "pto_orchestration_api.h"

extern "C" {

__attribute__((visibility("default")))
PTO2OrchestrationConfig aicpu_orchestration_config(const ChipTaskArgs& orch_args) {
    (void)orch_args;
    return PTO2OrchestrationConfig{.expected_arg_count = 4};
}

static void scaled(const ChipTensor& flags, uint32_t index, int64_t above, const ChipTensor& x,
                   const ChipTensor& out, float alpha) {
    CoreTaskArgs params;
    params.add_input(x);
    params.add_input(x);
    params.add_output(out);
    params.add_scalar(to_u64(alpha - 1.0f));
    params.add_scalar((uint64_t)16);
    CoreTaskPredicate pred;
    pred.operand.tensor = &flags;
    pred.operand.ndims = 2;
    pred.operand.indices[0] = 0;
    pred.operand.indices[1] = index;
    pred.op = PredicateOp::GT;
    pred.target = above;
    params.set_predicate(pred);
    rt_submit_aiv_task(0, params);
}

__attribute__((visibility("default")))
void aicpu_orchestration_entry(const ChipTaskArgs& orch_args) {
    const ChipTensor& ext_flags = orch_args.tensor(0).ref();
    const ChipTensor& ext_x = orch_args.tensor(1).ref();
    const ChipTensor& ext_out1 = orch_args.tensor(2).ref();
    const ChipTensor& ext_out2 = orch_args.tensor(3).ref();
    PTO2_SCOPE() {
        scaled(ext_flags, 0, 0, ext_x, ext_out1, 2.0f);
        scaled(ext_flags, 1, 0, ext_x, ext_out2, 2.0f);
        uint32_t second[2] = {0, 1};
        set_tensor_data<int32_t>(ext_flags, 2, second, 7);
        scaled(ext_flags, 1, 3, ext_x, ext_out2, 3.0f);
    }
}

}  // extern "C"
