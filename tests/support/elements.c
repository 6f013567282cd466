/* Element encodings: the float formats decoded and rounded exactly, integer
 * wrap-around, element access by bit pattern, ulp distances. */
#include <math.h>
#include <string.h>

#include "support.h"

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
    return dt == PTO_INT8 || dt == PTO_INT16 || dt == PTO_INT32 || dt == PTO_INT64;
}

unsigned ref_bits(pto_dtype dt) { return (unsigned)pto_dtype_size(dt) * 8u; }

int ref_frac_bits(pto_dtype dt) { return format_of(dt).frac_bits; }

int ref_max_exponent(pto_dtype dt) { return (1 << (format_of(dt).exp_bits - 1)) - 1; }

int ref_min_exponent(pto_dtype dt) { return 1 - ref_max_exponent(dt); }

/* Decodes sign | exponent | fraction of any binary format exactly. */
static double decode_binary(uint64_t bits, float_format f) {
    const uint64_t frac = bits & ((UINT64_C(1) << f.frac_bits) - 1u);
    const uint64_t exp_max = (UINT64_C(1) << f.exp_bits) - 1u;
    const uint64_t exponent = (bits >> f.frac_bits) & exp_max;
    const int bias = (int)(exp_max >> 1);
    const bool negative = (bits >> (f.frac_bits + f.exp_bits)) & 1u;
    double v;
    if (exponent == exp_max)
        v = frac != 0 ? NAN : INFINITY;
    else if (exponent == 0)
        v = ldexp((double)frac, 1 - bias - f.frac_bits);
    else
        v = ldexp((double)(frac | (UINT64_C(1) << f.frac_bits)), (int)exponent - bias - f.frac_bits);
    return negative ? -v : v;
}

uint64_t ref_round_binary(double x, int frac_bits, int exp_bits) {
    const uint64_t exp_max = (UINT64_C(1) << exp_bits) - 1u;
    const int bias = (int)(exp_max >> 1);
    const uint64_t sign = signbit(x) ? UINT64_C(1) << (frac_bits + exp_bits) : 0u;
    const uint64_t inf = exp_max << frac_bits;
    if (isnan(x)) return sign | inf | (UINT64_C(1) << (frac_bits - 1)); /* quiet NaN */
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
    if (unbiased < emin) return sign | n; /* n == 2^frac_bits encodes the least normal */
    int biased = unbiased + bias;
    if (n == (UINT64_C(1) << (frac_bits + 1))) { /* carried into the next binade */
        n >>= 1;
        ++biased;
    }
    if (biased >= (int)exp_max) return sign | inf;
    return sign | ((uint64_t)biased << frac_bits) | (n - (UINT64_C(1) << frac_bits));
}

int64_t ref_int_value(pto_dtype dt, uint64_t bits) {
    switch (dt) {
    case PTO_INT8: return (int8_t)bits;
    case PTO_UINT8: return (uint8_t)bits;
    case PTO_INT16: return (int16_t)bits;
    case PTO_UINT16: return (uint16_t)bits;
    case PTO_INT32: return (int32_t)bits;
    case PTO_UINT32: return (uint32_t)bits;
    default: return (int64_t)bits;
    }
}

bool ref_int_less(pto_dtype dt, uint64_t a, uint64_t b) {
    if (ref_is_signed(dt)) return ref_int_value(dt, a) < ref_int_value(dt, b);
    return a < b;
}

uint64_t ref_int_wrap(pto_dtype dt, uint64_t value) {
    const unsigned bits = ref_bits(dt);
    return bits >= 64 ? value : value & ((UINT64_C(1) << bits) - 1u);
}

/* Through memcpy: a buffer need not be aligned to its element (a fuzzed
 * placement), and a byte buffer must not be read through a wider type. The
 * element's bytes are the low bytes of the pattern in the host's order
 * (little-endian: the pattern's first bytes). */
uint64_t ref_load(pto_dtype dt, const void *p, size_t i) {
    const size_t size = pto_dtype_size(dt);
    switch (size) {
    case 1: return ((const uint8_t *)p)[i];
    case 2: {
        uint16_t v;
        memcpy(&v, (const char *)p + 2 * i, 2);
        return v;
    }
    case 4: {
        uint32_t v;
        memcpy(&v, (const char *)p + 4 * i, 4);
        return v;
    }
    default: {
        uint64_t v;
        memcpy(&v, (const char *)p + 8 * i, 8);
        return v;
    }
    }
}

void ref_store(pto_dtype dt, void *p, size_t i, uint64_t bits) {
    switch (pto_dtype_size(dt)) {
    case 1: ((uint8_t *)p)[i] = (uint8_t)bits; break;
    case 2: {
        const uint16_t v = (uint16_t)bits;
        memcpy((char *)p + 2 * i, &v, 2);
        break;
    }
    case 4: {
        const uint32_t v = (uint32_t)bits;
        memcpy((char *)p + 4 * i, &v, 4);
        break;
    }
    default: memcpy((char *)p + 8 * i, &bits, 8); break;
    }
}

double ref_to_double(pto_dtype dt, uint64_t bits) {
    if (dt == PTO_UINT64) return (double)bits;
    if (!ref_is_float(dt)) return (double)ref_int_value(dt, bits);
    return decode_binary(bits, format_of(dt));
}

uint64_t ref_from_double(pto_dtype dt, double x) {
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
    /* x in [2^63, 2^64) is a UINT64 value an int64_t cannot hold */
    return ref_int_wrap(dt, x >= 0x1p63 ? (uint64_t)x : (uint64_t)(int64_t)x);
}

bool ref_is_nan(pto_dtype dt, uint64_t bits) {
    return ref_is_float(dt) && isnan(ref_to_double(dt, bits));
}

bool ref_is_normal(pto_dtype dt, uint64_t bits) {
    const float_format f = format_of(dt);
    const uint64_t exp_max = (UINT64_C(1) << f.exp_bits) - 1u;
    const uint64_t exponent = (bits >> f.frac_bits) & exp_max;
    return ref_is_float(dt) && exponent != 0 && exponent != exp_max;
}

/* Position on the number line: consecutive values differ by one, zeros are 0. */
static int64_t ordinal(pto_dtype dt, uint64_t bits) {
    const unsigned width = ref_bits(dt);
    const uint64_t magnitude = bits & ((UINT64_C(1) << (width - 1)) - 1u);
    return (bits >> (width - 1)) & 1u ? -(int64_t)magnitude : (int64_t)magnitude;
}

uint64_t ref_ulp_steps(pto_dtype dt, uint64_t a, uint64_t b) {
    if (!ref_is_float(dt)) return a == b ? 0 : UINT64_MAX;
    const bool nan_a = ref_is_nan(dt, a), nan_b = ref_is_nan(dt, b);
    if (nan_a || nan_b) return nan_a && nan_b ? 0 : UINT64_MAX;
    /* An infinity is no ulp away from a finite value: overflow is not rounding. */
    if (isinf(ref_to_double(dt, a)) || isinf(ref_to_double(dt, b))) return a == b ? 0 : UINT64_MAX;
    const int64_t d = ordinal(dt, a) - ordinal(dt, b);
    return (uint64_t)(d < 0 ? -d : d);
}

double ref_ulp_error(pto_dtype dt, uint64_t got, double exact) {
    const double g = ref_to_double(dt, got);
    if (!isfinite(g) || !isfinite(exact)) {
        const uint64_t steps = ref_ulp_steps(dt, got, ref_from_double(dt, exact));
        return steps == UINT64_MAX ? INFINITY : (double)steps;
    }
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

pto_status tile_create_any_dtype(int dtype, uint32_t rows, uint32_t cols, pto_tile **out) {
    return pto_tile_create((pto_dtype)dtype, rows, cols, out);
}

void ref_box_shape(pto_dtype dt, pto_location location, pto_layout layout, size_t *rows,
                   size_t *cols) {
    const size_t e = pto_dtype_size(dt);
    const bool along_rows = layout == PTO_LAYOUT_NZ || layout == PTO_LAYOUT_ZZ;
    if (layout == PTO_LAYOUT_ND) {
        *rows = *cols = 1;
    } else if (location == PTO_LOC_ACC) {
        *rows = *cols = 16;
    } else if (location == PTO_LOC_SCALING) { /* MX scales: boxes of 32 elements */
        *rows = along_rows ? 16 : 2;
        *cols = along_rows ? 2 : 16;
    } else {
        *rows = along_rows ? 16 : 32 / e;
        *cols = along_rows ? 32 / e : 16;
    }
}

size_t ref_image_offset(pto_dtype dt, uint32_t rows, uint32_t cols, pto_location location,
                        pto_layout layout, size_t r, size_t c) {
    if (layout == PTO_LAYOUT_ND) return r * cols + c;
    const bool along_rows = layout == PTO_LAYOUT_NZ || layout == PTO_LAYOUT_ZZ;
    size_t box_rows, box_cols;
    ref_box_shape(dt, location, layout, &box_rows, &box_cols);
    if (rows == 1) box_rows = 1;
    const size_t br = r / box_rows, ir = r % box_rows, bc = c / box_cols, ic = c % box_cols;
    const size_t in = along_rows ? ir * box_cols + ic : ic * box_rows + ir;
    if (layout == PTO_LAYOUT_NZ || layout == PTO_LAYOUT_NN)
        return bc * rows * box_cols + br * box_rows * box_cols + in;
    return br * box_rows * cols + bc * box_rows * box_cols + in;
}

size_t ref_tile_image_element(const pto_tile *t, size_t k) {
    const uint32_t cols = pto_tile_cols(t);
    return ref_image_offset(pto_tile_dtype(t), pto_tile_rows(t), cols, pto_tile_location(t),
                            pto_tile_layout(t), k / cols, k % cols);
}

uint32_t ref_f32_bits(float x) {
    uint32_t b;
    memcpy(&b, &x, sizeof b);
    return b;
}
float ref_f32_of(uint32_t b) {
    float x;
    memcpy(&x, &b, sizeof x);
    return x;
}

/* x in a format of `fraction_bits` explicit fraction bits (23: x itself),
 * as the ST goldens compute it: infinities and NaN kept, zeros and
 * subnormals to zero of their sign, the dropped bits compared with half a
 * unit of the last kept bit (a tie to even, or away from zero), a carry out
 * of the fraction into the exponent (to infinity past the largest value). */
float ref_round_f32_fraction(float x, int fraction_bits, bool ties_away) {
    if (fraction_bits == 23) return x;
    const uint32_t bits = ref_f32_bits(x);
    const uint32_t sign = bits & 0x80000000u;
    uint32_t exponent = (bits >> 23) & 0xFF;
    const uint32_t fraction = bits & 0x7FFFFFu;
    if (exponent == 0xFF) return x;
    if (exponent == 0) return ref_f32_of(sign);
    const int dropped = 23 - fraction_bits;
    uint32_t kept = fraction >> dropped;
    const uint32_t lost = fraction & ((1u << dropped) - 1), half = 1u << (dropped - 1);
    if (lost > half || (lost == half && (ties_away || (kept & 1)))) kept += 1;
    if (kept >> fraction_bits) { /* 1.111...1 rounded up: the next binade */
        kept = 0;
        exponent += 1;
    }
    if (exponent == 0xFF) return ref_f32_of(sign | 0x7F800000u);
    return ref_f32_of(sign | exponent << 23 | kept << dropped);
}
