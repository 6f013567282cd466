/* What a user writes for reciprocal square root: the compiler vectorises it
 * to vsqrtps + vdivps (no -ffast-math, so no estimate instruction). */
#include <math.h>

#include "baselines.h"

void vec_rsqrtf_f32(size_t n, float *restrict dst, const float *restrict src) {
  for (size_t i = 0; i < n; ++i) dst[i] = 1.0f / sqrtf(src[i]);
}
