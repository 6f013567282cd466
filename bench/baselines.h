/* The loops pto-bench measures libpto against. Each family lives in its own
 * source file, compiled with its own exact flags (see meson.build), so that a
 * baseline is what a user would get from that compiler invocation and not
 * from the project's flags. Pointers address contiguous row-major data. */
#ifndef PTO_BENCH_BASELINES_H_
#define PTO_BENCH_BASELINES_H_

#include <stddef.h>

#include "pto_c.h"

#ifdef __cplusplus
extern "C" {
#endif

/* baseline_scalar.c: one element at a time, computing in double and rounding
 * once to the element type (how the upstream simulator evaluates the
 * instructions). Integer types use wrapping integer arithmetic, since double
 * cannot wrap. -O2, baseline x86-64, no vectorisation. */
void scalar_pow(pto_dtype dtype, size_t n, void *dst, const void *base, const void *exp);
void scalar_rsqrt(pto_dtype dtype, size_t n, void *dst, const void *src);
void scalar_prelu(pto_dtype dtype, size_t n, void *dst, const void *src0, const void *src1);
void scalar_colexpanddiv(pto_dtype dtype, size_t rows, size_t cols, void *dst, const void *src,
                         const void *divisor_row);
/* dst = full + part over the top-left part_rows x part_cols corner, a copy of
 * full elsewhere; all three are rows x cols arrays. */
void scalar_partadd(pto_dtype dtype, size_t rows, size_t cols, size_t part_rows,
                    size_t part_cols, void *dst, const void *full, const void *part);

/* dst = src converted with round-to-nearest-even and saturation (tcvt
 * with PTO_ROUND_RINT, PTO_SAT_ON), for FLOAT32 -> BFLOAT16, BFLOAT16 ->
 * FLOAT32 and FLOAT32 -> INT32. */
void scalar_cvt(pto_dtype dst_dtype, pto_dtype src_dtype, size_t n, void *dst, const void *src);

/* dst[i] = src[indices[i]] for n INT32 indices, elements of dtype's size
 * (tgather's plain loop: the indices are offsets of src's elements). */
void scalar_gather(pto_dtype dtype, size_t n, void *dst, const void *src, const int32_t *indices);

/* The C library's expf and logf over n floats, one call per element (same
 * file and flags): the loop texp's and tlog's AVX2 goal is measured against
 * (glibc's, not correctly rounded). */
void scalar_expf_f32(size_t n, float *dst, const float *src);
void scalar_logf_f32(size_t n, float *dst, const float *src);

/* baseline_avx2_add.c: d[i] = a[i] + b[i] on floats, AVX2, -O2 -mavx2. */
void avx2_add_f32(size_t n, float *dst, const float *a, const float *b);

/* baseline_rsqrtf.c: d[i] = 1.0f / sqrtf(s[i]), auto-vectorised,
 * -O3 -mavx2 -fno-math-errno. */
void vec_rsqrtf_f32(size_t n, float *dst, const float *src);

/* baseline_empty_call.c: does nothing; a call to it is the cost of calling
 * a function in another object (what every libpto call pays at least). */
int empty_call(void *dst, const void *src0, const void *src1);

/* baseline_sleef.c: SLEEF's Sleef_powf8_u10avx2 over n floats (-O2 -mavx2).
 * sleef_available() is 0 when pto-bench was built without SLEEF. */
int sleef_available(void);
void sleef_powf_u10_avx2(size_t n, float *dst, const float *base, const float *exp);

#ifdef __cplusplus
}
#endif

#endif /* PTO_BENCH_BASELINES_H_ */
