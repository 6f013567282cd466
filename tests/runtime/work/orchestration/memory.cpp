// A pointer passed as a scalar (PyPTO's CommCtx form): out = the 16 float32
// elements at the address in scalar 0 (table_copy, kernel 8), which the
// caller declares with pto_runtime_args_add_memory.
// Arguments: out (1 x 16 float32), the address.
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
    const ChipTensor& ext_out = orch_args.tensor(0).ref();
    uint64_t table = orch_args.scalar(0);
    PTO2_SCOPE() {
        CoreTaskArgs params_t0;
        params_t0.add_output(ext_out);
        params_t0.add_scalar(table);
        rt_submit_aiv_task(8, params_t0);
    }
}

}  // extern "C"
