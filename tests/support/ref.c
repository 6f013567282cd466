#include "ref.h"

#include <math.h>

#include <mpfr.h>

typedef struct {
    int frac_bits;
    int exp_bits;
} float_format;

static float_format format_of(pto_dtype dt) {
    switch (dt) {
    case PTO_FLOAT16: return (float_format){10, 5};
    case PTO_BFLOAT16: return (float_format){7, 8};
    default: return (float_format){23, 8};
    }
}

bool ref_is_float(pto_dtype dt) {
    return dt == PTO_FLOAT16 || dt == PTO_BFLOAT16 || dt == PTO_FLOAT32;
}

bool ref_is_signed(pto_dtype dt) {
    return dt == PTO_INT8 || dt == PTO_INT16 || dt == PTO_INT32;
}

unsigned ref_bits(pto_dtype dt) { return (unsigned)pto_dtype_size(dt) * 8u; }

int ref_frac_bits(pto_dtype dt) { return format_of(dt).frac_bits; }

int ref_max_exponent(pto_dtype dt) { return (1 << (format_of(dt).exp_bits - 1)) - 1; }

int ref_min_exponent(pto_dtype dt) { return 1 - ref_max_exponent(dt); }

/* Decodes sign | exponent | fraction of any binary format exactly. */
static double decode_binary(uint32_t bits, float_format f) {
    const uint32_t frac = bits & ((1u << f.frac_bits) - 1u);
    const uint32_t exp_max = (1u << f.exp_bits) - 1u;
    const uint32_t exponent = (bits >> f.frac_bits) & exp_max;
    const int bias = (int)(exp_max >> 1);
    const bool negative = (bits >> (f.frac_bits + f.exp_bits)) & 1u;
    double v;
    if (exponent == exp_max)
        v = frac != 0 ? NAN : INFINITY;
    else if (exponent == 0)
        v = ldexp((double)frac, 1 - bias - f.frac_bits);
    else
        v = ldexp((double)(frac | (1u << f.frac_bits)), (int)exponent - bias - f.frac_bits);
    return negative ? -v : v;
}

uint32_t ref_round_binary(double x, int frac_bits, int exp_bits) {
    const uint32_t exp_max = (1u << exp_bits) - 1u;
    const int bias = (int)(exp_max >> 1);
    const uint32_t sign = signbit(x) ? 1u << (frac_bits + exp_bits) : 0u;
    const uint32_t inf = exp_max << frac_bits;
    if (isnan(x)) return sign | inf | (1u << (frac_bits - 1)); /* quiet NaN */
    const double a = fabs(x);
    if (isinf(a)) return sign | inf;
    if (a == 0.0) return sign;
    int e;
    (void)frexp(a, &e);
    const int unbiased = e - 1; /* a in [2^unbiased, 2^(unbiased+1)) */
    const int emin = 1 - bias;
    const int quantum = (unbiased < emin ? emin : unbiased) - frac_bits;
    /* a / 2^quantum is exact; nearbyint rounds it to nearest even. */
    uint64_t n = (uint64_t)nearbyint(ldexp(a, -quantum));
    if (unbiased < emin) return sign | (uint32_t)n; /* n == 2^frac_bits encodes the least normal */
    int biased = unbiased + bias;
    if (n == (UINT64_C(1) << (frac_bits + 1))) { /* carried into the next binade */
        n >>= 1;
        ++biased;
    }
    if (biased >= (int)exp_max) return sign | inf;
    return sign | ((uint32_t)biased << frac_bits) | (uint32_t)(n - (UINT64_C(1) << frac_bits));
}

int64_t ref_int_value(pto_dtype dt, uint32_t bits) {
    switch (dt) {
    case PTO_INT8: return (int8_t)bits;
    case PTO_UINT8: return (uint8_t)bits;
    case PTO_INT16: return (int16_t)bits;
    case PTO_UINT16: return (uint16_t)bits;
    case PTO_INT32: return (int32_t)bits;
    default: return (uint32_t)bits;
    }
}

uint32_t ref_int_wrap(pto_dtype dt, uint64_t value) {
    const unsigned bits = ref_bits(dt);
    return bits >= 32 ? (uint32_t)value : (uint32_t)(value & ((UINT64_C(1) << bits) - 1u));
}

double ref_to_double(pto_dtype dt, uint32_t bits) {
    if (!ref_is_float(dt)) return (double)ref_int_value(dt, bits);
    return decode_binary(bits, format_of(dt));
}

uint32_t ref_from_double(pto_dtype dt, double x) {
    if (dt == PTO_FLOAT32) {
        union {
            float f;
            uint32_t u;
        } v = {(float)x};
        return v.u;
    }
    if (ref_is_float(dt)) {
        const float_format f = format_of(dt);
        return ref_round_binary(x, f.frac_bits, f.exp_bits);
    }
    return ref_int_wrap(dt, (uint64_t)(int64_t)x);
}

uint64_t ref_ipow(int64_t base, int64_t exp) {
    if (exp < 0) {
        if (base == 1) return 1;
        if (base == -1) return (exp & 1) ? (uint64_t)-1 : 1;
        return 0;
    }
    uint64_t result = 1, square = (uint64_t)base;
    for (uint64_t e = (uint64_t)exp; e != 0; e >>= 1) {
        if (e & 1u) result *= square;
        square *= square;
    }
    return result;
}

/* x^y correctly rounded to dt (nearest, ties to even, subnormals on the
 * format's grid) by MPFR, whose special cases are those of C99 Annex F. */
static uint32_t mpfr_pow_rounded(pto_dtype dt, double x, double y) {
    const float_format f = format_of(dt);
    const int bias = (1 << (f.exp_bits - 1)) - 1;
    /* MPFR writes numbers as m 2^e with m in [1/2, 1): the smallest
     * subnormal is 2^(1 - bias - frac_bits), the largest finite < 2^(bias + 1). */
    const mpfr_exp_t old_emin = mpfr_get_emin(), old_emax = mpfr_get_emax();
    mpfr_set_emin(2 - bias - f.frac_bits);
    mpfr_set_emax(bias + 1);
    mpfr_t a, b, r;
    mpfr_inits2(53, a, b, (mpfr_ptr)0);
    mpfr_init2(r, f.frac_bits + 1);
    mpfr_set_d(a, x, MPFR_RNDN);
    mpfr_set_d(b, y, MPFR_RNDN);
    const int inexact = mpfr_pow(r, a, b, MPFR_RNDN);
    mpfr_subnormalize(r, inexact, MPFR_RNDN);
    const double v = mpfr_get_d(r, MPFR_RNDN); /* exact: r has at most 24 bits */
    mpfr_clears(a, b, r, (mpfr_ptr)0);
    mpfr_set_emin(old_emin);
    mpfr_set_emax(old_emax);
    return ref_from_double(dt, v);
}

uint32_t ref_pow(pto_dtype dt, uint32_t base, uint32_t exp) {
    if (ref_is_float(dt)) return mpfr_pow_rounded(dt, ref_to_double(dt, base), ref_to_double(dt, exp));
    return ref_int_wrap(dt, ref_ipow(ref_int_value(dt, base), ref_int_value(dt, exp)));
}

/* v = n * 2^e with n odd (v > 0 and finite, at most 53 significant bits). */
static uint64_t odd_part(double v, int *e) {
    int ex;
    uint64_t n = (uint64_t)ldexp(frexp(v, &ex), 53);
    ex -= 53;
    while ((n & 1u) == 0) n >>= 1, ++ex;
    *e = ex;
    return n;
}

/* The sign of x*m^2 - 1, exactly, for x with at most 24 and m with at most
 * 25 significant bits (x*m^2 fits 74 bits of a 128-bit integer). */
static int sign_x_m2_minus_1(double x, double m) {
    int ex, em;
    const uint64_t nx = odd_part(x, &ex), nm = odd_part(m, &em);
    const unsigned __int128 p = (unsigned __int128)nx * nm * nm; /* x m^2 = p 2^k */
    const int k = ex + 2 * em;
    if (k >= 0) return 1; /* p >= 1 is odd: p 2^k == 1 only for p == 1, k == 0 */
    if (k <= -127) return -1; /* p < 2^74 */
    const unsigned __int128 one = (unsigned __int128)1 << -k;
    return p > one ? 1 : p < one ? -1 : 0;
}

/* 1/sqrt(x) correctly rounded: the double quotient picks a candidate, and the
 * exact comparison of 1/sqrt(x) with the midpoints on both sides of it
 * (1/sqrt(x) > m exactly when x m^2 < 1) moves it by one if it is wrong. */
uint32_t ref_rsqrt(pto_dtype dt, uint32_t x) {
    const double xd = ref_to_double(dt, x);
    uint32_t y = ref_from_double(dt, 1.0 / sqrt(xd));
    if (!(xd > 0) || isinf(xd)) return y;
    for (;;) {
        const double yd = ref_to_double(dt, y);
        const double above = ref_to_double(dt, y + 1), below = ref_to_double(dt, y - 1);
        if (!isinf(above) && sign_x_m2_minus_1(xd, (yd + above) / 2) < 0)
            ++y;
        else if (y > 1 && sign_x_m2_minus_1(xd, (yd + below) / 2) > 0)
            --y;
        else
            return y;
    }
}

uint32_t ref_prelu(pto_dtype dt, uint32_t x, uint32_t slope) {
    if (ref_is_float(dt)) {
        const double v = ref_to_double(dt, x);
        return v > 0 ? x : ref_from_double(dt, v * ref_to_double(dt, slope));
    }
    const int64_t v = ref_int_value(dt, x);
    if (v > 0) return x;
    return ref_int_wrap(dt, (uint64_t)v * (uint64_t)ref_int_value(dt, slope));
}

uint32_t ref_div(pto_dtype dt, uint32_t a, uint32_t b) {
    return ref_from_double(dt, ref_to_double(dt, a) / ref_to_double(dt, b));
}

uint32_t ref_add(pto_dtype dt, uint32_t a, uint32_t b) {
    if (ref_is_float(dt)) return ref_from_double(dt, ref_to_double(dt, a) + ref_to_double(dt, b));
    return ref_int_wrap(dt, (uint64_t)ref_int_value(dt, a) + (uint64_t)ref_int_value(dt, b));
}

bool ref_is_nan(pto_dtype dt, uint32_t bits) {
    return ref_is_float(dt) && isnan(ref_to_double(dt, bits));
}

bool ref_is_normal(pto_dtype dt, uint32_t bits) {
    const float_format f = format_of(dt);
    const uint32_t exp_max = (1u << f.exp_bits) - 1u;
    const uint32_t exponent = (bits >> f.frac_bits) & exp_max;
    return ref_is_float(dt) && exponent != 0 && exponent != exp_max;
}

/* Position on the number line: consecutive values differ by one, zeros are 0. */
static int64_t ordinal(pto_dtype dt, uint32_t bits) {
    const unsigned width = ref_bits(dt);
    const uint32_t magnitude = bits & (uint32_t)((UINT64_C(1) << (width - 1)) - 1u);
    return (bits >> (width - 1)) & 1u ? -(int64_t)magnitude : (int64_t)magnitude;
}

uint64_t ref_ulp_steps(pto_dtype dt, uint32_t a, uint32_t b) {
    if (!ref_is_float(dt)) return a == b ? 0 : UINT64_MAX;
    const bool nan_a = ref_is_nan(dt, a), nan_b = ref_is_nan(dt, b);
    if (nan_a || nan_b) return nan_a && nan_b ? 0 : UINT64_MAX;
    /* An infinity is no ulp away from a finite value: overflow is not rounding. */
    if (isinf(ref_to_double(dt, a)) || isinf(ref_to_double(dt, b))) return a == b ? 0 : UINT64_MAX;
    const int64_t d = ordinal(dt, a) - ordinal(dt, b);
    return (uint64_t)(d < 0 ? -d : d);
}

double ref_ulp_error(pto_dtype dt, uint32_t got, double exact) {
    const double g = ref_to_double(dt, got);
    if (!isfinite(g) || !isfinite(exact))
        return (double)ref_ulp_steps(dt, got, ref_from_double(dt, exact));
    const float_format f = format_of(dt);
    const int emin = 2 - (1 << (f.exp_bits - 1));
    int e = emin;
    if (exact != 0) {
        (void)frexp(exact, &e);
        e -= 1;
        if (e < emin) e = emin;
    }
    return fabs(g - exact) / ldexp(1.0, e - f.frac_bits);
}
