/* The scalar reference loops: one element at a time, each result computed in
 * double and rounded once to the element type, which is how the upstream
 * simulator evaluates the instructions. FLOAT16 uses the compiler's _Float16
 * (software conversions on baseline x86-64), BFLOAT16 a round-to-odd step
 * followed by round-to-nearest-even. Integer types use wrapping unsigned
 * arithmetic: double cannot wrap, and the contract asks for wrapping.
 *
 * Built with -O2 -march=x86-64 -mtune=generic -fno-tree-vectorize: this file
 * must stay one element per iteration. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "baselines.h"

/* ---- element access: load as double, store rounding once ---------------- */

static inline double ld_f32(const void *p, size_t i) { return ((const float *)p)[i]; }
static inline void st_f32(void *p, size_t i, double x) { ((float *)p)[i] = (float)x; }

static inline double ld_f16(const void *p, size_t i) { return (double)((const _Float16 *)p)[i]; }
static inline void st_f16(void *p, size_t i, double x) { ((_Float16 *)p)[i] = (_Float16)x; }

static inline float float_from_bits(uint32_t b) {
  float f;
  memcpy(&f, &b, sizeof f);
  return f;
}
static inline uint32_t bits_from_float(float f) {
  uint32_t b;
  memcpy(&b, &f, sizeof b);
  return b;
}

static inline double ld_bf16(const void *p, size_t i) {
  return float_from_bits((uint32_t)((const uint16_t *)p)[i] << 16);
}

/* Rounding to float with round-to-odd keeps the information that rounding
 * to nearest even on the 16 dropped bits needs, so the result is rounded once. */
static uint16_t bf16_from_double(double x) {
  if (isnan(x)) return (uint16_t)((bits_from_float((float)x) >> 16) | 0x40u);
  float f = (float)x;
  if ((double)f != x) {
    if (fabs((double)f) > fabs(x)) f = nextafterf(f, 0.0f);
    f = float_from_bits(bits_from_float(f) | 1u);
  }
  uint32_t b = bits_from_float(f);
  b += 0x7FFFu + ((b >> 16) & 1u);
  return (uint16_t)(b >> 16);
}
static inline void st_bf16(void *p, size_t i, double x) { ((uint16_t *)p)[i] = bf16_from_double(x); }

/* ---- floating-point loops ----------------------------------------------- */

#define FLOAT_LOOPS(S)                                                                     \
  static void pow_##S(size_t n, void *d, const void *b, const void *e) {                   \
    for (size_t i = 0; i < n; ++i) st_##S(d, i, pow(ld_##S(b, i), ld_##S(e, i)));          \
  }                                                                                        \
  static void prelu_##S(size_t n, void *d, const void *a, const void *s) {                 \
    for (size_t i = 0; i < n; ++i) {                                                       \
      const double x = ld_##S(a, i);                                                       \
      st_##S(d, i, x > 0 ? x : x * ld_##S(s, i));                                          \
    }                                                                                      \
  }                                                                                        \
  static void partadd_##S(size_t rows, size_t cols, size_t pr, size_t pc, void *d,         \
                          const void *f, const void *p) {                                  \
    for (size_t r = 0; r < rows; ++r) {                                                    \
      for (size_t c = 0; c < cols; ++c) {                                                  \
        const size_t i = r * cols + c;                                                     \
        st_##S(d, i, r < pr && c < pc ? ld_##S(f, i) + ld_##S(p, i) : ld_##S(f, i));       \
      }                                                                                    \
    }                                                                                      \
  }

#define FLOAT_DIVIDING_LOOPS(S)                                                            \
  static void rsqrt_##S(size_t n, void *d, const void *s) {                                \
    for (size_t i = 0; i < n; ++i) st_##S(d, i, 1.0 / sqrt(ld_##S(s, i)));                 \
  }                                                                                        \
  static void colexpanddiv_##S(size_t rows, size_t cols, void *d, const void *s,           \
                               const void *v) {                                            \
    for (size_t r = 0; r < rows; ++r) {                                                    \
      for (size_t c = 0; c < cols; ++c) {                                                  \
        st_##S(d, r * cols + c, ld_##S(s, r * cols + c) / ld_##S(v, c));                   \
      }                                                                                    \
    }                                                                                      \
  }

FLOAT_LOOPS(f32)
FLOAT_LOOPS(f16)
FLOAT_LOOPS(bf16)
FLOAT_DIVIDING_LOOPS(f32)
FLOAT_DIVIDING_LOOPS(f16)

/* ---- integer loops (U: the unsigned type the arithmetic wraps in) -------- */

#define INT_LOOPS(S, T, U)                                                                 \
  static void prelu_##S(size_t n, void *d, const void *a, const void *s) {                 \
    T *out = (T *)d;                                                                       \
    const T *x = (const T *)a, *slope = (const T *)s;                                      \
    for (size_t i = 0; i < n; ++i) out[i] = x[i] > 0 ? x[i] : (T)((U)x[i] * (U)slope[i]);  \
  }                                                                                        \
  static void partadd_##S(size_t rows, size_t cols, size_t pr, size_t pc, void *d,         \
                          const void *f, const void *p) {                                  \
    T *out = (T *)d;                                                                       \
    const T *x = (const T *)f, *y = (const T *)p;                                          \
    for (size_t r = 0; r < rows; ++r) {                                                    \
      for (size_t c = 0; c < cols; ++c) {                                                  \
        const size_t i = r * cols + c;                                                     \
        out[i] = r < pr && c < pc ? (T)((U)x[i] + (U)y[i]) : x[i];                         \
      }                                                                                    \
    }                                                                                      \
  }                                                                                        \
  static T ipow_##S(T base, T e) {                                                         \
    U result = 1, x = (U)base, k = (U)e;                                                   \
    while (k != 0) {                                                                       \
      if (k & 1u) result *= x;                                                             \
      x *= x;                                                                              \
      k >>= 1;                                                                             \
    }                                                                                      \
    return (T)result;                                                                      \
  }

/* Negative exponents: 1 for base 1, +/-1 for base -1 by parity, 0 otherwise. */
#define SIGNED_POW_LOOP(S, T)                                                              \
  static void pow_##S(size_t n, void *d, const void *b, const void *e) {                   \
    T *out = (T *)d;                                                                       \
    const T *x = (const T *)b, *y = (const T *)e;                                          \
    for (size_t i = 0; i < n; ++i) {                                                       \
      if (y[i] >= 0) out[i] = ipow_##S(x[i], y[i]);                                        \
      else if (x[i] == 1) out[i] = 1;                                                      \
      else if (x[i] == -1) out[i] = (y[i] & 1) ? -1 : 1;                                   \
      else out[i] = 0;                                                                     \
    }                                                                                      \
  }
#define UNSIGNED_POW_LOOP(S, T)                                                            \
  static void pow_##S(size_t n, void *d, const void *b, const void *e) {                   \
    T *out = (T *)d;                                                                       \
    const T *x = (const T *)b, *y = (const T *)e;                                          \
    for (size_t i = 0; i < n; ++i) out[i] = ipow_##S(x[i], y[i]);                          \
  }

INT_LOOPS(i8, int8_t, uint32_t)
INT_LOOPS(u8, uint8_t, uint32_t)
INT_LOOPS(i16, int16_t, uint32_t)
INT_LOOPS(u16, uint16_t, uint32_t)
INT_LOOPS(i32, int32_t, uint32_t)
INT_LOOPS(u32, uint32_t, uint32_t)
SIGNED_POW_LOOP(i8, int8_t)
SIGNED_POW_LOOP(i16, int16_t)
SIGNED_POW_LOOP(i32, int32_t)
UNSIGNED_POW_LOOP(u8, uint8_t)
UNSIGNED_POW_LOOP(u16, uint16_t)
UNSIGNED_POW_LOOP(u32, uint32_t)

/* ---- dispatch by dtype --------------------------------------------------- */

#define SWITCH_ALL_DTYPES(FN, ...)                          \
  switch (dtype) {                                          \
    case PTO_INT8: FN##_i8(__VA_ARGS__); break;             \
    case PTO_UINT8: FN##_u8(__VA_ARGS__); break;            \
    case PTO_INT16: FN##_i16(__VA_ARGS__); break;           \
    case PTO_UINT16: FN##_u16(__VA_ARGS__); break;          \
    case PTO_INT32: FN##_i32(__VA_ARGS__); break;           \
    case PTO_UINT32: FN##_u32(__VA_ARGS__); break;          \
    case PTO_FLOAT16: FN##_f16(__VA_ARGS__); break;         \
    case PTO_BFLOAT16: FN##_bf16(__VA_ARGS__); break;       \
    case PTO_FLOAT32: FN##_f32(__VA_ARGS__); break;         \
    default: break; /* no 64-bit or low-precision case is timed */ \
  }

void scalar_pow(pto_dtype dtype, size_t n, void *dst, const void *base, const void *exp) {
  SWITCH_ALL_DTYPES(pow, n, dst, base, exp)
}

void scalar_prelu(pto_dtype dtype, size_t n, void *dst, const void *src0, const void *src1) {
  SWITCH_ALL_DTYPES(prelu, n, dst, src0, src1)
}

void scalar_partadd(pto_dtype dtype, size_t rows, size_t cols, size_t part_rows,
                    size_t part_cols, void *dst, const void *full, const void *part) {
  SWITCH_ALL_DTYPES(partadd, rows, cols, part_rows, part_cols, dst, full, part)
}

void scalar_rsqrt(pto_dtype dtype, size_t n, void *dst, const void *src) {
  if (dtype == PTO_FLOAT32) rsqrt_f32(n, dst, src);
  if (dtype == PTO_FLOAT16) rsqrt_f16(n, dst, src);
}

void scalar_colexpanddiv(pto_dtype dtype, size_t rows, size_t cols, void *dst, const void *src,
                         const void *divisor_row) {
  if (dtype == PTO_FLOAT32) colexpanddiv_f32(rows, cols, dst, src, divisor_row);
  if (dtype == PTO_FLOAT16) colexpanddiv_f16(rows, cols, dst, src, divisor_row);
}

void scalar_gather(pto_dtype dtype, size_t n, void *dst, const void *src, const int32_t *indices) {
  const size_t size = pto_dtype_size(dtype);
  if (size == 1) {
    for (size_t i = 0; i < n; ++i) ((uint8_t *)dst)[i] = ((const uint8_t *)src)[indices[i]];
  } else if (size == 2) {
    for (size_t i = 0; i < n; ++i) ((uint16_t *)dst)[i] = ((const uint16_t *)src)[indices[i]];
  } else {
    for (size_t i = 0; i < n; ++i) ((uint32_t *)dst)[i] = ((const uint32_t *)src)[indices[i]];
  }
}

/* ---- conversions ---------------------------------------------------------- */

void scalar_cvt(pto_dtype dst_dtype, pto_dtype src_dtype, size_t n, void *dst, const void *src) {
  if (src_dtype == PTO_BFLOAT16 && dst_dtype == PTO_FLOAT32) {
    for (size_t i = 0; i < n; ++i) ((float *)dst)[i] = (float)ld_bf16(src, i);
  } else if (src_dtype == PTO_FLOAT32 && dst_dtype == PTO_BFLOAT16) {
    for (size_t i = 0; i < n; ++i) st_bf16(dst, i, ld_f32(src, i));
  } else if (src_dtype == PTO_FLOAT32 && dst_dtype == PTO_INT32) {
    for (size_t i = 0; i < n; ++i) {
      const double x = nearbyint(ld_f32(src, i));
      ((int32_t *)dst)[i] = x != x ? 0 : x >= 2147483647.0 ? INT32_MAX : x <= -2147483648.0 ? INT32_MIN : (int32_t)x;
    }
  }
}

/* ---- the C library's float functions, one call per element ------------- */

void scalar_expf_f32(size_t n, float *dst, const float *src) {
  for (size_t i = 0; i < n; ++i) dst[i] = expf(src[i]);
}

void scalar_logf_f32(size_t n, float *dst, const float *src) {
  for (size_t i = 0; i < n; ++i) dst[i] = logf(src[i]);
}
