// Views: the four 16-column blocks of m (16 x 64) each updated by a task of
// its own (m_j = (j + 1) m_j + m_j, row stride 64: independent tasks, the
// blocks sharing no byte), then a transposed view of block 1 copied out
// (t = m_1 transposed, after block 1's task only), then y reshaped twice
// (16 x 16 -> 256 -> 16 x 16) added to it: r = y + t.
// Arguments: m, y, t, r (float32).
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
    const ChipTensor& ext_m = orch_args.tensor(0).ref();
    const ChipTensor& ext_y = orch_args.tensor(1).ref();
    const ChipTensor& ext_t = orch_args.tensor(2).ref();
    const ChipTensor& ext_r = orch_args.tensor(3).ref();
    PTO2_SCOPE() {
        for (int64_t j = 0; j < 4; j += 1) {
            uint32_t blk_offsets[2] = {0, static_cast<uint32_t>(j * 16)};
            uint32_t blk_shapes[2] = {16, 16};
            ChipTensor blk = ext_m.view(blk_shapes, blk_offsets);
            CoreTaskArgs params_t0;
            params_t0.add_input(blk);
            params_t0.add_input(blk);
            params_t0.add_output(blk);
            params_t0.add_scalar(to_u64(static_cast<float>(j + 1)));
            params_t0.add_scalar((uint64_t)64);
            rt_submit_aiv_task(0, params_t0);
        }
        uint32_t b1_offsets[2] = {0, 16};
        uint32_t b1_shapes[2] = {16, 16};
        ChipTensor b1_view = ext_m.view(b1_shapes, b1_offsets);
        ChipTensor b1t = b1_view.transpose(0, 1);
        CoreTaskArgs params_t1;
        params_t1.add_input(b1t);
        params_t1.add_output(ext_t);
        params_t1.add_scalar((uint64_t)64);
        rt_submit_aiv_task(2, params_t1);

        uint32_t flat_shapes[1] = {256};
        ChipTensor y_flat = ext_y.reshape(flat_shapes, 1);
        uint32_t sq_shapes[2] = {16, 16};
        ChipTensor y_sq = y_flat.reshape(sq_shapes, 2);
        CoreTaskArgs params_t2;
        params_t2.add_input(y_sq);
        params_t2.add_input(ext_t);
        params_t2.add_output(ext_r);
        params_t2.add_scalar(to_u64(1.0f));
        params_t2.add_scalar((uint64_t)16);
        rt_submit_aiv_task(0, params_t2);
    }
}

}  // extern "C"
