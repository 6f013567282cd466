// One rank's part of a two-card program (run by test_runtime_mpi under
// mpiexec -n 2): x = 2 x on this rank (axpy, kernel 0), then the exchange
// (kernel 9, after it: it reads x) puts this rank's x into the peer's y
// through the multi-card context, passed as PyPTO's chip orchestrations
// pass it: a scalar.
// Arguments: x, y (1 x 16 float32, in the rank's window), me, the context's
// address.
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
    const ChipTensor& ext_y = orch_args.tensor(1).ref();
    int32_t me = from_u64<int32_t>(orch_args.scalar(0));
    uint64_t ctx = orch_args.scalar(1);
    PTO2_SCOPE() {
        CoreTaskArgs params_t0;
        params_t0.add_input(ext_x);
        params_t0.add_input(ext_x);
        params_t0.add_output(ext_x);
        params_t0.add_scalar(to_u64(1.0f));
        params_t0.add_scalar((uint64_t)16);
        rt_submit_aiv_task(0, params_t0);

        CoreTaskArgs params_t1;
        params_t1.add_input(ext_x);
        params_t1.add_inout(ext_y);
        params_t1.add_scalar(me);
        params_t1.add_scalar(ctx);
        rt_submit_aiv_task(9, params_t1);
    }
}

}  // extern "C"
