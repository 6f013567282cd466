// An orchestration that calls a runtime function this runtime does not
// have: preparing it fails with the compiler's error naming the function.
#include <stdint.h>

#include "pto_orchestration_api.h"

extern "C" {

__attribute__((visibility("default")))
void aicpu_orchestration_entry(const ChipTaskArgs& orch_args) {
    const ChipTensor& ext_x = orch_args.tensor(0).ref();
    CoreTaskArgs params;
    params.add_input(ext_x);
    rt_submit_vector_task(0, params);
}

}  // extern "C"
