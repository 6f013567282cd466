/* Scalar reference for the libpto tests: exact element encodings, operations
 * computed in double (or in 64-bit integers) and rounded once to the element
 * type, and ulp distances. Lives only in tests; shares no code with src/.
 *
 * Every element is handled as its raw bit pattern zero-extended to 32 bits. */
#ifndef PTO_TEST_REF_H
#define PTO_TEST_REF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pto_c.h"

bool ref_is_float(pto_dtype dt);
bool ref_is_signed(pto_dtype dt);
unsigned ref_bits(pto_dtype dt); /* element width in bits */
/* Float types: explicit fraction bits, and the exponents of the smallest and
 * the largest normal numbers (FLOAT16: 10, -14, 15). */
int ref_frac_bits(pto_dtype dt);
int ref_min_exponent(pto_dtype dt);
int ref_max_exponent(pto_dtype dt);

/* Decoding is exact for every float type. Integers decode to their value. */
double ref_to_double(pto_dtype dt, uint32_t bits);
/* Rounds once to nearest even (float types); NaN stays NaN, overflow gives
 * infinity, subnormals are kept. FLOAT32 goes through a cast. */
uint32_t ref_from_double(pto_dtype dt, double x);
/* The same rounding written out for any binary format: frac_bits explicit
 * fraction bits, exp_bits exponent bits (FLOAT16: 10, 5; BFLOAT16: 7, 8). */
uint32_t ref_round_binary(double x, int frac_bits, int exp_bits);

int64_t ref_int_value(pto_dtype dt, uint32_t bits);   /* sign-extended as the type says */
uint32_t ref_int_wrap(pto_dtype dt, uint64_t value);  /* modulo 2^bits */

/* Per-element operations, bits in and bits out. */
uint32_t ref_pow(pto_dtype dt, uint32_t base, uint32_t exp);
/* rsqrt is exact: the rounding is decided with integer arithmetic. */
uint32_t ref_rsqrt(pto_dtype dt, uint32_t x);
uint32_t ref_prelu(pto_dtype dt, uint32_t x, uint32_t slope);
uint32_t ref_div(pto_dtype dt, uint32_t a, uint32_t b);
uint32_t ref_add(pto_dtype dt, uint32_t a, uint32_t b);
/* Integer power with wrap-around and the contract's negative exponents. */
uint64_t ref_ipow(int64_t base, int64_t exp);

bool ref_is_nan(pto_dtype dt, uint32_t bits);
/* Float types: how many representable values lie between a and b (+0 == -0,
 * a NaN is 0 away from a NaN and UINT64_MAX from anything else, an infinity
 * UINT64_MAX from anything but itself). Integers:
 * 0 when equal, UINT64_MAX otherwise. */
uint64_t ref_ulp_steps(pto_dtype dt, uint32_t a, uint32_t b);
/* |got - exact| in units of the ulp of the type at exact (finite values;
 * non-finite ones fall back to ulp steps from the rounded exact value). */
double ref_ulp_error(pto_dtype dt, uint32_t got, double exact);
/* True for a finite non-zero value at or above the smallest normal. */
bool ref_is_normal(pto_dtype dt, uint32_t bits);

#endif
