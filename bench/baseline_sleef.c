/* SLEEF's 1-ulp vector powf on AVX2, the best widely available alternative. */
#include <string.h>

#include "baselines.h"

#ifdef PTO_BENCH_HAVE_SLEEF
#include <immintrin.h>
#include <sleef.h>

int sleef_available(void) { return 1; }

void sleef_powf_u10_avx2(size_t n, float *dst, const float *base, const float *exp) {
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    _mm256_storeu_ps(dst + i,
                     Sleef_powf8_u10avx2(_mm256_loadu_ps(base + i), _mm256_loadu_ps(exp + i)));
  }
  if (i < n) {
    float b[8] = {1, 1, 1, 1, 1, 1, 1, 1}, e[8] = {0}, d[8];
    memcpy(b, base + i, (n - i) * sizeof(float));
    memcpy(e, exp + i, (n - i) * sizeof(float));
    _mm256_storeu_ps(d, Sleef_powf8_u10avx2(_mm256_loadu_ps(b), _mm256_loadu_ps(e)));
    memcpy(dst + i, d, (n - i) * sizeof(float));
  }
}
#else
int sleef_available(void) { return 0; }
void sleef_powf_u10_avx2(size_t n, float *dst, const float *base, const float *exp) {
  (void)n, (void)dst, (void)base, (void)exp;
}
#endif
