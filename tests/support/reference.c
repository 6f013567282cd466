/* The elementwise references that need no MPFR: each result computed in
 * double (or in 64-bit integers) and rounded once to the element type. */
#include <math.h>

#include "support.h"

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
uint64_t ref_rsqrt(pto_dtype dt, uint64_t x) {
    const double xd = ref_to_double(dt, x);
    uint64_t y = ref_from_double(dt, 1.0 / sqrt(xd));
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

uint64_t ref_prelu(pto_dtype dt, uint64_t x, uint64_t slope) {
    if (ref_is_float(dt)) {
        const double v = ref_to_double(dt, x);
        return v > 0 ? x : ref_from_double(dt, v * ref_to_double(dt, slope));
    }
    if (ref_int_less(dt, 0, x)) return x;
    return ref_int_wrap(dt, (uint64_t)ref_int_value(dt, x) * (uint64_t)ref_int_value(dt, slope));
}

uint64_t ref_div(pto_dtype dt, uint64_t a, uint64_t b) {
    return ref_from_double(dt, ref_to_double(dt, a) / ref_to_double(dt, b));
}

uint64_t ref_add(pto_dtype dt, uint64_t a, uint64_t b) {
    if (ref_is_float(dt)) return ref_from_double(dt, ref_to_double(dt, a) + ref_to_double(dt, b));
    return ref_int_wrap(dt, (uint64_t)ref_int_value(dt, a) + (uint64_t)ref_int_value(dt, b));
}

/* ---- the Binary rows of operations.def ---- */

uint64_t ref_tadd(pto_dtype dt, uint64_t a, uint64_t b) { return ref_add(dt, a, b); }

uint64_t ref_tsub(pto_dtype dt, uint64_t a, uint64_t b) {
    if (ref_is_float(dt)) return ref_from_double(dt, ref_to_double(dt, a) - ref_to_double(dt, b));
    return ref_int_wrap(dt, (uint64_t)ref_int_value(dt, a) - (uint64_t)ref_int_value(dt, b));
}

/* A float32 product is exact in double, so one rounding. */
uint64_t ref_tmul(pto_dtype dt, uint64_t a, uint64_t b) {
    if (ref_is_float(dt)) return ref_from_double(dt, ref_to_double(dt, a) * ref_to_double(dt, b));
    return ref_int_wrap(dt, (uint64_t)ref_int_value(dt, a) * (uint64_t)ref_int_value(dt, b));
}

/* Integers: the quotient truncated toward zero; x / 0 has every bit set (-1
 * signed, the maximum unsigned) and the most negative value / -1 wraps to
 * itself, as pto_tdiv documents. Unsigned patterns are their values; x / -1
 * is -x modulo 2^bits (INT64_MIN / -1 would overflow int64_t). */
uint64_t ref_tdiv(pto_dtype dt, uint64_t a, uint64_t b) {
    if (ref_is_float(dt)) return ref_div(dt, a, b);
    if (b == 0) return ref_int_wrap(dt, UINT64_MAX);
    if (!ref_is_signed(dt)) return a / b;
    const int64_t x = ref_int_value(dt, a), y = ref_int_value(dt, b);
    if (y == -1) return ref_int_wrap(dt, 0 - (uint64_t)x);
    return ref_int_wrap(dt, (uint64_t)(x / y));
}

/* The floor remainder a - floor(a / b) * b, zero or of b's sign (pto_trem).
 * Floats: fmod is exact in double, and where its sign differs from b's the
 * remainder is that plus b, one double addition, rounded again to dt: double
 * keeps more than 2p + 2 bits of every float type, so that is the correctly
 * rounded sum. A zero takes b's sign. Integers: x rem 0 = x, x rem -1 = 0
 * (the most negative value's too, which int64_t's % would overflow), and an
 * unsigned remainder is the pattern's. */
uint64_t ref_trem(pto_dtype dt, uint64_t a, uint64_t b) {
    if (ref_is_float(dt)) {
        const double x = ref_to_double(dt, a), y = ref_to_double(dt, b);
        double r = fmod(x, y);
        if (r == 0) r = copysign(0.0, y);
        else if (r == r && (r < 0) != (y < 0)) r += y;
        return ref_from_double(dt, r);
    }
    if (b == 0) return a;
    if (!ref_is_signed(dt)) return a % b;
    const int64_t x = ref_int_value(dt, a), y = ref_int_value(dt, b);
    if (y == -1) return 0;
    int64_t r = x % y;
    if (r != 0 && (r < 0) != (y < 0)) r += y;
    return ref_int_wrap(dt, (uint64_t)r);
}

/* ---- bitwise operations, shifts and fmod (pto_tand ... pto_tfmod) ---- */

uint64_t ref_tand(pto_dtype dt, uint64_t a, uint64_t b) { return ref_int_wrap(dt, a & b); }
uint64_t ref_tor(pto_dtype dt, uint64_t a, uint64_t b) { return ref_int_wrap(dt, a | b); }
uint64_t ref_txor(pto_dtype dt, uint64_t a, uint64_t b) { return ref_int_wrap(dt, a ^ b); }

/* The count: b's pattern as an unsigned number (a negative count of a signed
 * dtype is a large one); from the width on, every bit is shifted out. */
static uint64_t shift_count(pto_dtype dt, uint64_t b) { return ref_int_wrap(dt, b); }

uint64_t ref_tshl(pto_dtype dt, uint64_t a, uint64_t b) {
    const uint64_t n = shift_count(dt, b);
    return n >= ref_bits(dt) ? 0 : ref_int_wrap(dt, a << n);
}

/* Signed: floor(a / 2^n), the sign filling in (-1 from the width on for a
 * negative a); unsigned: the pattern moved right, zeros filling in. */
uint64_t ref_tshr(pto_dtype dt, uint64_t a, uint64_t b) {
    const uint64_t n = shift_count(dt, b);
    if (!ref_is_signed(dt)) return n >= ref_bits(dt) ? 0 : ref_int_wrap(dt, a) >> n;
    const int64_t x = ref_int_value(dt, a);
    if (n >= ref_bits(dt)) return ref_int_wrap(dt, x < 0 ? UINT64_MAX : 0);
    const int64_t q = x >= 0 ? (int64_t)((uint64_t)x >> n) : -(int64_t)((uint64_t)(-(x + 1)) >> n) - 1;
    return ref_int_wrap(dt, (uint64_t)q);
}

/* C's fmod: exact in double for every float type (and the result is a value
 * of dt). Integers: the remainder of the quotient truncated toward zero,
 * x fmod 0 = x and x fmod -1 = 0 (pto_tfmod). */
uint64_t ref_tfmod(pto_dtype dt, uint64_t a, uint64_t b) {
    if (ref_is_float(dt)) return ref_from_double(dt, fmod(ref_to_double(dt, a), ref_to_double(dt, b)));
    if (ref_int_wrap(dt, b) == 0) return ref_int_wrap(dt, a);
    if (!ref_is_signed(dt)) return ref_int_wrap(dt, a) % ref_int_wrap(dt, b);
    const int64_t x = ref_int_value(dt, a), y = ref_int_value(dt, b);
    if (y == -1) return 0;
    return ref_int_wrap(dt, (uint64_t)(x % y));
}

uint64_t ref_tnot(pto_dtype dt, uint64_t a, uint64_t b) {
    (void)b;
    return ref_int_wrap(dt, ~a);
}

uint64_t ref_tands(pto_dtype dt, uint64_t a, uint64_t b) { return ref_tand(dt, a, b); }
uint64_t ref_tors(pto_dtype dt, uint64_t a, uint64_t b) { return ref_tor(dt, a, b); }
uint64_t ref_txors(pto_dtype dt, uint64_t a, uint64_t b) { return ref_txor(dt, a, b); }
uint64_t ref_tshls(pto_dtype dt, uint64_t a, uint64_t b) { return ref_tshl(dt, a, b); }
uint64_t ref_tshrs(pto_dtype dt, uint64_t a, uint64_t b) { return ref_tshr(dt, a, b); }
uint64_t ref_tfmods(pto_dtype dt, uint64_t a, uint64_t b) { return ref_tfmod(dt, a, b); }

/* x rounded to nearest even in dt, as a double again. */
static double round_to(pto_dtype dt, double x) { return ref_to_double(dt, ref_from_double(dt, x)); }

/* x rounded toward zero to float16, saturating at the largest finite value:
 * A5's vcvt(ROUND_Z, RS_ENABLE) from float32 lanes. */
static double truncate_to_half(double x) {
    uint64_t h = ref_from_double(PTO_FLOAT16, x);
    if (x == x && fabs(ref_to_double(PTO_FLOAT16, h)) > fabs(x)) h -= 1;
    return ref_to_double(PTO_FLOAT16, h);
}

uint64_t ref_npu_rsqrt(pto_dtype dt, uint64_t x) {
    return ref_from_double(dt, 1.0 / round_to(dt, sqrt(ref_to_double(dt, x))));
}

/* Each value is exact in double before it is rounded (a float32 integer
 * times a float32 needs 48 bits), or the double rounding is innocuous (a
 * quotient, sum or difference of float32 values: 53 >= 2 * 24 + 2). */
uint64_t ref_npu_rem(pto_dtype dt, uint64_t a_bits, uint64_t b_bits, bool sign_correction) {
    const double a = ref_to_double(dt, a_bits), b = ref_to_double(dt, b_bits);
    const double q = round_to(PTO_FLOAT32, a / b);
    const double p = round_to(PTO_FLOAT32, floor(q) * b);
    double r = round_to(PTO_FLOAT32, a - p);
    if (dt == PTO_FLOAT16) r = truncate_to_half(r);
    if (sign_correction && round_to(dt, b * r) < 0) r = round_to(dt, r + b);
    return ref_from_double(dt, r);
}

uint64_t ref_npu_fmod(pto_dtype dt, uint64_t a_bits, uint64_t b_bits) {
    const double a = ref_to_double(dt, a_bits), b = ref_to_double(dt, b_bits);
    const double q = round_to(PTO_FLOAT32, a / b);
    const double p = round_to(PTO_FLOAT32, trunc(q) * b);
    double r = round_to(PTO_FLOAT32, a - p);
    if (dt == PTO_FLOAT16) r = truncate_to_half(r);
    return ref_from_double(dt, r);
}

uint64_t ref_npu_divs_in_place(pto_dtype dt, uint64_t x, uint64_t s) {
    const double inverse = round_to(dt, 1.0 / ref_to_double(dt, s));
    return ref_from_double(dt, ref_to_double(dt, x) * inverse);
}

/* IEEE 754-2019 maximum and minimum: NaN when either is NaN, and -0 < +0. */
static uint64_t ref_extreme(pto_dtype dt, uint64_t a, uint64_t b, int want_max) {
    if (ref_is_float(dt)) {
        const double x = ref_to_double(dt, a), y = ref_to_double(dt, b);
        if (x != x) return a;
        if (y != y) return b;
        if (x == y) return want_max ? (a & b) : (a | b); /* +0 and -0 differ in the sign bit */
        return (x > y) == (want_max != 0) ? a : b;
    }
    return ref_int_less(dt, b, a) == (want_max != 0) ? a : b;
}

uint64_t ref_tmax(pto_dtype dt, uint64_t a, uint64_t b) { return ref_extreme(dt, a, b, 1); }

uint64_t ref_tmin(pto_dtype dt, uint64_t a, uint64_t b) { return ref_extreme(dt, a, b, 0); }

/* relu(a - b), relu(a + b) as the pages define them, max(v, 0): the
 * difference or sum exactly in double (or wrapped, for integers), rounded
 * once to the dtype, and +0 in place of anything not above zero (-0 too);
 * NaN stays NaN. */
static uint64_t relu_of(pto_dtype dt, double v, uint64_t wrapped) {
    if (ref_is_float(dt)) return v != v ? ref_from_double(dt, v) : v > 0 ? ref_from_double(dt, v) : 0;
    return ref_int_less(dt, 0, wrapped) ? wrapped : 0;
}
uint64_t ref_tsubrelu(pto_dtype dt, uint64_t a, uint64_t b) {
    return relu_of(dt, ref_to_double(dt, a) - ref_to_double(dt, b),
                   ref_int_wrap(dt, (uint64_t)ref_int_value(dt, a) - (uint64_t)ref_int_value(dt, b)));
}
uint64_t ref_taddrelu(pto_dtype dt, uint64_t a, uint64_t b) {
    return relu_of(dt, ref_to_double(dt, a) + ref_to_double(dt, b),
                   ref_int_wrap(dt, (uint64_t)ref_int_value(dt, a) + (uint64_t)ref_int_value(dt, b)));
}

/* ---- the Unary rows of operations.def (b unused) ---- */

static uint64_t sign_of(pto_dtype dt) { return UINT64_C(1) << (ref_bits(dt) - 1); }

uint64_t ref_tabs(pto_dtype dt, uint64_t a, uint64_t b) {
    (void)b;
    if (ref_is_float(dt)) return a & ~sign_of(dt);
    if (!ref_int_less(dt, a, 0)) return a;
    return ref_int_wrap(dt, 0 - (uint64_t)ref_int_value(dt, a));
}

uint64_t ref_tneg(pto_dtype dt, uint64_t a, uint64_t b) {
    (void)b;
    if (ref_is_float(dt)) return a ^ sign_of(dt);
    return ref_int_wrap(dt, 0 - (uint64_t)ref_int_value(dt, a));
}

uint64_t ref_trelu(pto_dtype dt, uint64_t a, uint64_t b) {
    (void)b;
    const double x = ref_to_double(dt, a);
    if (x != x) return a;
    return x > 0 ? a : 0;
}

/* The double square root is correctly rounded and double keeps more than
 * 2p + 2 bits of every float type: rounding it again is exact. */
uint64_t ref_tsqrt(pto_dtype dt, uint64_t a, uint64_t b) {
    (void)b;
    return ref_from_double(dt, sqrt(ref_to_double(dt, a)));
}

uint64_t ref_trecip(pto_dtype dt, uint64_t a, uint64_t b) {
    (void)b;
    return ref_tdiv(dt, ref_is_float(dt) ? ref_from_double(dt, 1.0) : 1u, a);
}

/* ---- e^x and ln x: long double, rounded once ---- */
#include <stdio.h>
#include <stdlib.h>

/* y (a long double result of relative error below 2^-59: glibc's expl and
 * logl are within a few ulp of 64 (x87) or 113 (binary128) bits) rounded to
 * nearest even in dt, the correct rounding of the exact value unless a
 * rounding boundary of dt lies within that error of y; then no answer is
 * given (abort: tests/test_exp_log.c's exhaustive sweep, which compares the
 * library with MPFR, would have to list the input here). */
static uint64_t round_long_double(pto_dtype dt, long double y, const char *op, uint64_t a) {
    if (y != y || y == 0 || isinf(y)) return ref_from_double(dt, (double)y);
    const int p = ref_frac_bits(dt) + 1, emin = ref_min_exponent(dt);
    int e = ilogbl(y);
    if (e < emin) e = emin;
    const long double units = ldexpl(fabsl(y), p - 1 - e); /* |y| / last place, exact */
    const long double nearest = rintl(units);               /* ties to even */
    const long double from_boundary = fabsl(fabsl(units - nearest) - 0.5L);
    if (from_boundary <= ldexpl(units, -59)) {
        fprintf(stderr, "ref_%s: %s input 0x%llx lies too close to a rounding boundary\n", op,
                dt == PTO_FLOAT32 ? "float32" : "narrow", (unsigned long long)a);
        abort();
    }
    const double rounded = (double)ldexpl(nearest, e - (p - 1)); /* exact, or beyond the range */
    return ref_from_double(dt, y < 0 ? -rounded : rounded);
}

uint64_t ref_texp(pto_dtype dt, uint64_t a, uint64_t b) {
    (void)b;
    return round_long_double(dt, expl((long double)ref_to_double(dt, a)), "texp", a);
}

uint64_t ref_tlog(pto_dtype dt, uint64_t a, uint64_t b) {
    (void)b;
    return round_long_double(dt, logl((long double)ref_to_double(dt, a)), "tlog", a);
}

/* ---- the Scalar rows of operations.def (b: the scalar as the element type
 * holds it) ---- */

uint64_t ref_tadds(pto_dtype dt, uint64_t a, uint64_t b) { return ref_tadd(dt, a, b); }
uint64_t ref_tsubs(pto_dtype dt, uint64_t a, uint64_t b) { return ref_tsub(dt, a, b); }
uint64_t ref_tmuls(pto_dtype dt, uint64_t a, uint64_t b) { return ref_tmul(dt, a, b); }
uint64_t ref_tdivs(pto_dtype dt, uint64_t a, uint64_t b) { return ref_tdiv(dt, a, b); }
uint64_t ref_tmaxs(pto_dtype dt, uint64_t a, uint64_t b) { return ref_tmax(dt, a, b); }
uint64_t ref_tmins(pto_dtype dt, uint64_t a, uint64_t b) { return ref_tmin(dt, a, b); }
uint64_t ref_trems(pto_dtype dt, uint64_t a, uint64_t b) { return ref_trem(dt, a, b); }

uint64_t ref_tlrelu(pto_dtype dt, uint64_t a, uint64_t b) {
    const double x = ref_to_double(dt, a);
    return x > 0 ? a : ref_from_double(dt, x * ref_to_double(dt, b));
}

uint64_t ref_texpands(pto_dtype dt, uint64_t a, uint64_t b) {
    (void)dt, (void)a;
    return b;
}

uint64_t ref_tdivs_scalar_by_tile(pto_dtype dt, uint64_t a, uint64_t b) {
    return ref_tdivs(dt, b, a);
}

uint64_t ref_tmov(pto_dtype dt, uint64_t a, uint64_t b) {
    (void)dt, (void)b;
    return a;
}
/* ---- the broadcast rows: the elementwise references, b the expanded
 * operand's value; a one-source broadcast's result is its source's value ---- */

uint64_t ref_trowexpand(pto_dtype dt, uint64_t a, uint64_t b) { (void)dt, (void)b; return a; }
uint64_t ref_tcolexpand(pto_dtype dt, uint64_t a, uint64_t b) { (void)dt, (void)b; return a; }
uint64_t ref_trowexpandadd(pto_dtype dt, uint64_t a, uint64_t b) { return ref_tadd(dt, a, b); }
uint64_t ref_trowexpandsub(pto_dtype dt, uint64_t a, uint64_t b) { return ref_tsub(dt, a, b); }
uint64_t ref_trowexpandmul(pto_dtype dt, uint64_t a, uint64_t b) { return ref_tmul(dt, a, b); }
uint64_t ref_trowexpanddiv(pto_dtype dt, uint64_t a, uint64_t b) { return ref_tdiv(dt, a, b); }
uint64_t ref_trowexpandmax(pto_dtype dt, uint64_t a, uint64_t b) { return ref_tmax(dt, a, b); }
uint64_t ref_trowexpandmin(pto_dtype dt, uint64_t a, uint64_t b) { return ref_tmin(dt, a, b); }
uint64_t ref_tcolexpandadd(pto_dtype dt, uint64_t a, uint64_t b) { return ref_tadd(dt, a, b); }
uint64_t ref_tcolexpandsub(pto_dtype dt, uint64_t a, uint64_t b) { return ref_tsub(dt, a, b); }
uint64_t ref_tcolexpandmul(pto_dtype dt, uint64_t a, uint64_t b) { return ref_tmul(dt, a, b); }
uint64_t ref_tcolexpandmax(pto_dtype dt, uint64_t a, uint64_t b) { return ref_tmax(dt, a, b); }
uint64_t ref_tcolexpandmin(pto_dtype dt, uint64_t a, uint64_t b) { return ref_tmin(dt, a, b); }

/* e^(a - b): the difference exactly as hi + lo (two doubles, Knuth's
 * two-sum), e^(hi + lo) = expl(hi) (1 + lo) to below 2^-61 relative in long
 * double (|lo| <= 2^-47 where |hi| < 128, lo^2 below 2^-94; beyond, e^hi
 * is 0 or infinite in every element type and lo is not needed), rounded
 * once as ref_texp rounds. */
uint64_t ref_expdif(pto_dtype dt, uint64_t a, uint64_t b) {
    const double x = ref_to_double(dt, a), y = -ref_to_double(dt, b);
    const double hi = x + y;
    if (hi != hi) return ref_from_double(dt, hi);
    const double y_part = hi - x;
    const double lo = (x - (hi - y_part)) + (y - y_part);
    long double e = expl((long double)hi);
    if (fabs(hi) < 128) e *= 1.0L + (long double)lo;
    return round_long_double(dt, e, "expdif", a);
}

uint64_t ref_trowexpandexpdif(pto_dtype dt, uint64_t a, uint64_t b) { return ref_expdif(dt, a, b); }
uint64_t ref_tcolexpandexpdif(pto_dtype dt, uint64_t a, uint64_t b) { return ref_expdif(dt, a, b); }
