/*
 * Exact scalar reference arithmetic for the fuzz harness: element encodings
 * to and from double, and correctly rounded narrowing written here (not
 * borrowed from the library or the compiler's _Float16), so a conversion bug
 * in libpto cannot hide behind the same bug in its checker.
 */
#ifndef PTO_FUZZ_REFERENCE_H
#define PTO_FUZZ_REFERENCE_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "pto_c.h"

static inline double ref_f16_to_double(uint16_t h) {
    const int exponent = (h >> 10) & 0x1F;
    const int mantissa = h & 0x3FF;
    double magnitude;
    if (exponent == 0)
        magnitude = ldexp(mantissa, -24);
    else if (exponent == 31)
        magnitude = mantissa != 0 ? NAN : INFINITY;
    else
        magnitude = ldexp(mantissa | 0x400, exponent - 25);
    return (h & 0x8000) ? -magnitude : magnitude;
}

static inline double ref_bf16_to_double(uint16_t h) {
    const uint32_t bits = (uint32_t)h << 16;
    float f;
    memcpy(&f, &bits, sizeof(f));
    return f;
}

/* Rounds |x| to nearest even with `precision` significand bits, `min_exponent`
 * the exponent of the smallest normal number, `bias` the exponent bias;
 * returns the magnitude's encoding, or UINT32_MAX when it overflows. */
static inline uint32_t ref_round_magnitude(double a, int precision, int min_exponent, int bias) {
    const int fraction_bits = precision - 1;
    int exponent;
    frexp(a, &exponent);
    exponent -= 1; /* a in [2^exponent, 2^(exponent+1)) */
    if (a == 0.0) return 0;
    if (exponent < min_exponent) {
        /* Subnormal grid: multiples of 2^(min_exponent - fraction_bits). */
        const double m = rint(ldexp(a, fraction_bits - min_exponent));
        return (uint32_t)m; /* m == 2^fraction_bits encodes the smallest normal */
    }
    double m = rint(ldexp(a, fraction_bits - exponent));
    if (m == ldexp(1.0, precision)) {
        m = ldexp(1.0, fraction_bits);
        exponent += 1;
    }
    const uint32_t biased = (uint32_t)(exponent + bias);
    if (biased >= (1u << (16 - precision)) - 1u) return UINT32_MAX;
    return (biased << fraction_bits) | ((uint32_t)m - (1u << fraction_bits));
}

static inline uint16_t ref_double_to_f16(double x) {
    const uint16_t sign = signbit(x) ? 0x8000 : 0;
    if (isnan(x)) return sign | 0x7E00;
    const uint32_t m = isinf(x) ? UINT32_MAX : ref_round_magnitude(fabs(x), 11, -14, 15);
    return sign | (m == UINT32_MAX ? 0x7C00 : (uint16_t)m);
}

static inline uint16_t ref_double_to_bf16(double x) {
    const uint16_t sign = signbit(x) ? 0x8000 : 0;
    if (isnan(x)) return sign | 0x7FC0;
    const uint32_t m = isinf(x) ? UINT32_MAX : ref_round_magnitude(fabs(x), 8, -126, 127);
    return sign | (m == UINT32_MAX ? 0x7F80 : (uint16_t)m);
}

static inline int ref_is_float(pto_dtype d) {
    return d == PTO_FLOAT16 || d == PTO_BFLOAT16 || d == PTO_FLOAT32;
}

/* Element i of a buffer of dtype d, widened exactly to double (floats) or
 * int64 (integers). */
static inline double ref_load_float(pto_dtype d, const void *p, size_t i) {
    if (d == PTO_FLOAT32) {
        float f;
        memcpy(&f, (const char *)p + 4 * i, 4);
        return f;
    }
    uint16_t h;
    memcpy(&h, (const char *)p + 2 * i, 2);
    return d == PTO_FLOAT16 ? ref_f16_to_double(h) : ref_bf16_to_double(h);
}

static inline int64_t ref_load_int(pto_dtype d, const void *p, size_t i) {
    const char *c = (const char *)p;
    switch (d) {
    case PTO_INT8: { int8_t v; memcpy(&v, c + i, 1); return v; }
    case PTO_UINT8: { uint8_t v; memcpy(&v, c + i, 1); return v; }
    case PTO_INT16: { int16_t v; memcpy(&v, c + 2 * i, 2); return v; }
    case PTO_UINT16: { uint16_t v; memcpy(&v, c + 2 * i, 2); return v; }
    case PTO_INT32: { int32_t v; memcpy(&v, c + 4 * i, 4); return v; }
    case PTO_UINT32: { uint32_t v; memcpy(&v, c + 4 * i, 4); return v; }
    default: return 0;
    }
}

/* Stores a double rounded once to d's encoding (the correctly rounded result
 * when x is the exact value or a sufficiently precise rounding of it). */
static inline void ref_store_float(pto_dtype d, void *p, size_t i, double x) {
    if (d == PTO_FLOAT32) {
        const float f = (float)x;
        memcpy((char *)p + 4 * i, &f, 4);
        return;
    }
    const uint16_t h = d == PTO_FLOAT16 ? ref_double_to_f16(x) : ref_double_to_bf16(x);
    memcpy((char *)p + 2 * i, &h, 2);
}

/* Stores the low bits of v: integer results wrap modulo 2^bits. */
static inline void ref_store_int(pto_dtype d, void *p, size_t i, uint64_t v) {
    const size_t size = pto_dtype_size(d);
    const uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    memcpy((char *)p + size * i, b, size); /* little-endian hosts only */
}

/* True when the element at i of buffer p is a NaN of float dtype d. */
static inline int ref_is_nan_at(pto_dtype d, const void *p, size_t i) {
    return ref_is_float(d) && isnan(ref_load_float(d, p, i));
}

#endif /* PTO_FUZZ_REFERENCE_H */
