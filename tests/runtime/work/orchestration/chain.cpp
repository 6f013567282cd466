// Tasks that depend on each other through a tensor: out = 2 out + y, four
// times, each task reading what the one before wrote (axpy, kernel 0).
// Arguments: y, out (16 x 16 float32). out ends as 16 out + 15 y.
#include <stddef.h>
#include <stdint.h>

#include "pto_orchestration_api.h"

extern "C" {

__attribute__((visibility("default")))
PTO2OrchestrationConfig aicpu_orchestration_config(const ChipTaskArgs& orch_args) {
    (void)orch_args;
    return PTO2OrchestrationConfig{.expected_arg_count = 2};
}

__attribute__((visibility("default")))
void aicpu_orchestration_entry(const ChipTaskArgs& orch_args) {
    const ChipTensor& ext_y = orch_args.tensor(0).ref();
    const ChipTensor& ext_out = orch_args.tensor(1).ref();
    PTO2_SCOPE() {
        for (int64_t i = 0; i < 4; i += 1) {
            CoreTaskArgs params_t0;
            params_t0.add_input(ext_out);
            params_t0.add_input(ext_y);
            params_t0.add_output(ext_out);
            params_t0.add_scalar(to_u64(2.0f));
            params_t0.add_scalar((uint64_t)16);
            rt_submit_aiv_task(0, params_t0);
        }
    }
}

}  // extern "C"
