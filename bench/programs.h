// pto-bench's program rows: what an instruction costs inside a verified PTO
// assembly program (against an empty call and the direct C call), and a
// kernel over global memory on 1, 2, ... blocks.
#ifndef PTO_BENCH_PROGRAMS_H_
#define PTO_BENCH_PROGRAMS_H_

#include <stdio.h>

#include "timing.h"

namespace bench {

// Prints both tables; examples_dir holds prelu-4096.pto.
void RunProgramRows(FILE* out, const TimingConfig& timing, const char* examples_dir);

// Prints only the launch rows (an empty kernel, small tiles on 1 and 2 blocks).
void RunLaunchRows(FILE* out, const TimingConfig& timing);

}  // namespace bench

#endif  // PTO_BENCH_PROGRAMS_H_
