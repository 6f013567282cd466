// The matrix multiply rows of pto-bench (gemm.cc).
#ifndef PTO_BENCH_GEMM_H_
#define PTO_BENCH_GEMM_H_

#include <stddef.h>
#include <stdio.h>

#include "timing.h"

namespace bench {

// pto_tmatmul's float32, bfloat16, float16 and int8 rates on the cube's tile
// shapes against cblas_sgemm, then kernels_dir/gemm.pto on kernel_n cubed
// bfloat16 matrices on 1 and 2 blocks (0: not run), each goal PASS or MISS.
void RunGemmRows(FILE* out, const TimingConfig& timing, const char* kernels_dir, size_t kernel_n);

}  // namespace bench

#endif  // PTO_BENCH_GEMM_H_
