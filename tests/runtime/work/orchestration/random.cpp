// Random views, random overlaps: n tasks out = alpha x + y (axpy, kernel
// 0) on 16-column blocks of m (64 x 64, row stride 64) of 1 to 16 rows at
// random rows, x, y and out placed independently (so a task's views overlap
// earlier tasks' and each other's in every way), alpha -0.5 or 0.25. The
// result must be that of the tasks run one after another in order (the
// test's reference, from the same generator), whatever the workers.
// Arguments: m, seed, n.
#include <stddef.h>
#include <stdint.h>

#include "pto_orchestration_api.h"

extern "C" {

__attribute__((visibility("default")))
PTO2OrchestrationConfig aicpu_orchestration_config(const ChipTaskArgs& orch_args) {
    (void)orch_args;
    return PTO2OrchestrationConfig{.expected_arg_count = 3};
}

// xorshift64*, as the test's reference draws it.
static uint32_t draw(uint64_t* s) {
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return static_cast<uint32_t>((*s * 0x2545F4914F6CDD1Dull) >> 32);
}

__attribute__((visibility("default")))
void aicpu_orchestration_entry(const ChipTaskArgs& orch_args) {
    const ChipTensor& ext_m = orch_args.tensor(0).ref();
    uint64_t state = orch_args.scalar(0) | 1;
    const int64_t n = from_u64<int64_t>(orch_args.scalar(1));
    PTO2_SCOPE() {
        for (int64_t k = 0; k < n; k += 1) {
            const uint32_t h = 1 + draw(&state) % 16;
            ChipTensor v[3];
            for (int i = 0; i < 3; i++) {
                uint32_t shapes[2] = {h, 16};
                uint32_t offsets[2] = {draw(&state) % (64 - h + 1), 16 * (draw(&state) % 4)};
                v[i] = ext_m.view(shapes, offsets);
            }
            const float alpha = draw(&state) % 2 == 0 ? -0.5f : 0.25f;
            CoreTaskArgs params;
            params.add_input(v[0]);
            params.add_input(v[1]);
            params.add_output(v[2]);
            params.add_scalar(to_u64(alpha));
            params.add_scalar((uint64_t)64);
            rt_submit_aiv_task(0, params);
        }
    }
}

}  // extern "C"
