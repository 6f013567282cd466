// The cores' kernels: c = a b on the cube (kernel 1); d = a b + bias as a
// mixed task, the cube's and the vector cores' functions of one module
// (kernels 3 and 4, both vector lanes); e = 2 x on two vector lanes of a
// vector kernel (kernel 5: each lane does half the rows); and
// big_out = 4 big_x (64 x 16) by axpy on 4 blocks.
// Arguments: a, b, bias, x, c, d, e (16 x 16), big_x, big_out (64 x 16),
// all float32.
#include <stddef.h>
#include <stdint.h>

#include "pto_orchestration_api.h"

extern "C" {

__attribute__((visibility("default")))
PTO2OrchestrationConfig aicpu_orchestration_config(const ChipTaskArgs& orch_args) {
    (void)orch_args;
    return PTO2OrchestrationConfig{.expected_arg_count = 9};
}

__attribute__((visibility("default")))
void aicpu_orchestration_entry(const ChipTaskArgs& orch_args) {
    const ChipTensor& ext_a = orch_args.tensor(0).ref();
    const ChipTensor& ext_b = orch_args.tensor(1).ref();
    const ChipTensor& ext_bias = orch_args.tensor(2).ref();
    const ChipTensor& ext_x = orch_args.tensor(3).ref();
    const ChipTensor& ext_c = orch_args.tensor(4).ref();
    const ChipTensor& ext_d = orch_args.tensor(5).ref();
    const ChipTensor& ext_e = orch_args.tensor(6).ref();
    const ChipTensor& ext_big_x = orch_args.tensor(7).ref();
    const ChipTensor& ext_big_out = orch_args.tensor(8).ref();
    PTO2_SCOPE() {
        CoreTaskArgs params_t0;
        params_t0.add_input(ext_a);
        params_t0.add_input(ext_b);
        params_t0.add_output(ext_c);
        rt_submit_aic_task(1, params_t0);

        // Group mm_bias: MixedKernels (AIC + AIV lanes)
        CoreTaskArgs params_t1;
        params_t1.add_input(ext_a);
        params_t1.add_input(ext_b);
        params_t1.add_input(ext_bias);
        params_t1.add_output(ext_d);
        MixedKernels mixed_1 = {3, 4, 4};
        rt_submit_task(mixed_1, params_t1);

        CoreTaskArgs params_t2;
        params_t2.add_input(ext_x);
        params_t2.add_output(ext_e);
        MixedKernels mixed_2 = {INVALID_KERNEL_ID, 5, 5};
        rt_submit_task(mixed_2, params_t2);

        CoreTaskArgs params_t3;
        params_t3.add_input(ext_big_x);
        params_t3.add_input(ext_big_x);
        params_t3.add_output(ext_big_out);
        params_t3.add_scalar(to_u64(3.0f));
        params_t3.add_scalar((uint64_t)16);
        params_t3.launch_spec.set_core_num(4);
        rt_submit_aiv_task(0, params_t3);
    }
}

}  // extern "C"
