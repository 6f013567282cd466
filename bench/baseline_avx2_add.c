/* The load/store bound: a plain AVX2 float add, 8 lanes per iteration. */
#include <immintrin.h>

#include "baselines.h"

void avx2_add_f32(size_t n, float *dst, const float *a, const float *b) {
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    _mm256_storeu_ps(dst + i, _mm256_add_ps(_mm256_loadu_ps(a + i), _mm256_loadu_ps(b + i)));
  }
  for (; i < n; ++i) dst[i] = a[i] + b[i];
}
