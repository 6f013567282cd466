/* The correctly rounded reference of pow, by MPFR; the rest of the
 * reference (encodings, the other operations) is in support.h. */
#include "ref.h"

#include <mpfr.h>

/* x^y correctly rounded to dt (nearest, ties to even, subnormals on the
 * format's grid) by MPFR, whose special cases are those of C99 Annex F. */
static uint64_t mpfr_pow_rounded(pto_dtype dt, double x, double y) {
    const int frac_bits = ref_frac_bits(dt), bias = ref_max_exponent(dt);
    /* MPFR writes numbers as m 2^e with m in [1/2, 1): the smallest
     * subnormal is 2^(1 - bias - frac_bits), the largest finite < 2^(bias + 1). */
    const mpfr_exp_t old_emin = mpfr_get_emin(), old_emax = mpfr_get_emax();
    mpfr_set_emin(2 - bias - frac_bits);
    mpfr_set_emax(bias + 1);
    mpfr_t a, b, r;
    mpfr_inits2(53, a, b, (mpfr_ptr)0);
    mpfr_init2(r, frac_bits + 1);
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

uint64_t ref_pow(pto_dtype dt, uint64_t base, uint64_t exp) {
    if (ref_is_float(dt)) return mpfr_pow_rounded(dt, ref_to_double(dt, base), ref_to_double(dt, exp));
    return ref_int_wrap(dt, ref_ipow(ref_int_value(dt, base), ref_int_value(dt, exp)));
}
