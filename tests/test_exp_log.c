/* TEXP and TLOG against MPFR: every result must be the correctly rounded
 * one (nearest, ties to even), bit for bit, NaN for NaN.
 *
 * core suite (no argument): on every target, every float16 and bfloat16
 * input and 2^16 random float32 inputs plus the special and boundary ones
 * (about a second). Under emulation (PTO_TEST_UNDER_QEMU, PTO_TEST_UNDER_
 * VALGRIND) a 2^12 sample of each.
 *
 * long suite (--long): every 16-bit input on every target, 2^24 random
 * float32 inputs plus the boundary ones against MPFR on the best target
 * (2^20 on the others), and every
 * float32 input (2^32) on the best target, or on each target that
 * PTO_TEST_TARGETS names: the library's result is
 * compared with expl/logl's rounding where that long double lies clearly
 * away from a rounding boundary (relative distance above 2^-59, far beyond
 * glibc's error of a few ulp of 64 bits), and with MPFR elsewhere; the
 * inputs of the latter kind, for which ref_texp/ref_tlog refuse to answer,
 * are printed. Two threads. */
#include <math.h>
#include <mpfr.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/harness.h"

static bool g_long;

/* ---- references ---- */

/* e^x or ln x correctly rounded to dt by MPFR (its special cases are C99
 * Annex F's), as dt's bits. */
static uint32_t mpfr_rounded(op_id op, pto_dtype dt, uint32_t a) {
    const double x = ref_to_double(dt, a);
    const int frac_bits = ref_frac_bits(dt), bias = ref_max_exponent(dt);
    const mpfr_exp_t old_emin = mpfr_get_emin(), old_emax = mpfr_get_emax();
    mpfr_set_emin(2 - bias - frac_bits);
    mpfr_set_emax(bias + 1);
    mpfr_t in, out;
    mpfr_init2(in, 53);
    mpfr_init2(out, frac_bits + 1);
    mpfr_set_d(in, x, MPFR_RNDN);
    const int inexact = op == OP_TEXP ? mpfr_exp(out, in, MPFR_RNDN) : mpfr_log(out, in, MPFR_RNDN);
    mpfr_subnormalize(out, inexact, MPFR_RNDN);
    const double v = mpfr_get_d(out, MPFR_RNDN);
    mpfr_clear(in);
    mpfr_clear(out);
    mpfr_set_emin(old_emin);
    mpfr_set_emax(old_emax);
    return ref_from_double(dt, v);
}

/* The float32 rounding of expl/logl(x) in *bits, and whether it is safe:
 * the long double lies more than 2^-59 (relative) from every rounding
 * boundary (ref_texp and ref_tlog answer exactly then). */
static bool long_double_rounded(op_id op, uint32_t a, uint32_t *bits) {
    const long double x = (long double)ref_to_double(PTO_FLOAT32, a);
    const long double y = op == OP_TEXP ? expl(x) : logl(x);
    if (y != y || y == 0 || isinf(y)) {
        *bits = ref_from_double(PTO_FLOAT32, (double)y);
        return true;
    }
    int e = ilogbl(y);
    if (e < -126) e = -126;
    const long double units = ldexpl(fabsl(y), 23 - e);
    const long double nearest = rintl(units);
    if (fabsl(fabsl(units - nearest) - 0.5L) <= ldexpl(units, -59)) return false;
    const double rounded = (double)ldexpl(nearest, e - 23);
    *bits = ref_from_double(PTO_FLOAT32, y < 0 ? -rounded : rounded);
    return true;
}

static bool same_result(pto_dtype dt, uint32_t want, uint32_t got) {
    return want == got || (ref_is_nan(dt, want) && ref_is_nan(dt, got));
}

/* ---- input sets ---- */

static const op_id kOps[2] = {OP_TEXP, OP_TLOG};
static const char *exp_log_name(op_id op) { return op == OP_TEXP ? "texp" : "tlog"; }

/* float32 inputs where the results change character: 2^12 consecutive bit
 * patterns on both sides of each (and of its negation where that matters). */
static size_t boundary_inputs(op_id op, uint64_t *out) {
    static const float kExpEdges[] = {
        88.72283935546875f, /* e^x rounds to FLT_MAX / +inf */
        -87.33654022216797f, /* e^x = 2^-126, the least normal */
        -103.2789306640625f, /* 2^-149, the least subnormal */
        -103.97207641601562f, /* e^x = 2^-150: rounds to 0 below */
        0x1p-24f, 0x1p-12f, 0.5f, 1.0f, 0x1.62e43p-1f /* ln 2 */,
    };
    static const float kLogEdges[] = {
        1.0f, 2.0f, 0.5f, 0x1.6a09e6p-1f /* sqrt(1/2) */, 0x1.6a09e6p+0f, 0x1.5bf0a8p+1f /* e */,
        0x1p-126f, 0x1p-149f, 0x1.fffffep127f,
    };
    const float *edges = op == OP_TEXP ? kExpEdges : kLogEdges;
    const size_t n_edges = op == OP_TEXP ? COUNT(kExpEdges) : COUNT(kLogEdges);
    size_t n = 0;
    for (size_t i = 0; i < n_edges; ++i) {
        uint32_t center;
        memcpy(&center, &edges[i], sizeof center);
        for (int sign = 0; sign < 2; ++sign) {
            const uint32_t c = center ^ (sign ? 0x80000000u : 0u);
            for (uint32_t k = 0; k < 4096; ++k) {
                const uint32_t lo = (c & 0x7FFFFFFFu) >= 2048 ? c - 2048 : c & 0x80000000u;
                out[n++] = lo + k;
            }
        }
    }
    uint64_t specials[16];
    const size_t n_specials = float_specials(PTO_FLOAT32, specials);
    memcpy(out + n, specials, n_specials * sizeof *specials);
    return n + n_specials;
}

#define BOUNDARY_MAX (2 * 9 * 4096 + 16)

typedef struct {
    op_id op;
    pto_dtype dt;
    size_t n;
    uint64_t *in;
} input_set;

/* 16-bit types: every input (n = 2^16) or a spread sample of n; float32:
 * the boundary inputs and n random ones. */
static input_set make_inputs(op_id op, pto_dtype dt, size_t n) {
    input_set s = {op, dt, 0, NULL};
    if (dt != PTO_FLOAT32) {
        s.in = malloc(n * sizeof *s.in);
        for (size_t k = 0; k < n; ++k) s.in[k] = (uint32_t)sample_index(k, n, 1u << 16);
        s.n = n;
        return s;
    }
    s.in = malloc((n + BOUNDARY_MAX) * sizeof *s.in);
    s.n = boundary_inputs(op, s.in);
    if (under_emulation()) { /* every 64th input around each boundary, and the specials */
        const size_t specials = 16 < s.n ? 16 : s.n;
        size_t kept = 0;
        for (size_t i = 0; i + specials < s.n; i += 64) s.in[kept++] = s.in[i];
        memmove(s.in + kept, s.in + s.n - specials, specials * sizeof *s.in);
        s.n = kept + specials;
    }
    rng r = {0xE1 + (uint64_t)op};
    for (size_t k = 0; k < n; ++k) {
        /* Half uniform bit patterns, half values where e^x or ln x is finite
         * and nonzero. */
        const uint32_t bits = (uint32_t)rng_next(&r);
        const double v = op == OP_TEXP ? (rng_unit(&r) * 2 - 1) * 104 : ldexp(rng_unit(&r) + 0.5, (int)rng_below(&r, 280) - 150);
        s.in[s.n++] = (k & 1) ? bits : ref_from_double(PTO_FLOAT32, v);
    }
    return s;
}

/* ---- checks ---- */

typedef struct {
    const input_set *set;
    size_t begin, end;
    const uint64_t *got;
    size_t wrong;
    uint32_t first_wrong;
} mpfr_job;

static void *check_with_mpfr(void *p) {
    mpfr_job *j = p;
    for (size_t i = j->begin; i < j->end; ++i) {
        const uint32_t want = mpfr_rounded(j->set->op, j->set->dt, j->set->in[i]);
        if (!same_result(j->set->dt, want, j->got[i]) && j->wrong++ == 0) j->first_wrong = j->set->in[i];
    }
    mpfr_free_cache(); /* this thread's cached constants (log 2, ...) */
    return NULL;
}

/* The library's results for the set on the current target, compared with
 * MPFR in two threads; returns how many differ. */
static size_t check_set(const input_set *s, uint32_t *first_wrong) {
    uint64_t *got = malloc(s->n * sizeof *got);
    op_run_arrays(s->op, s->dt, PTO_POW_HIGH_PRECISION, s->in, s->in, got, s->n);
    mpfr_job jobs[2] = {{s, 0, s->n / 2, got, 0, 0}, {s, s->n / 2, s->n, got, 0, 0}};
    pthread_t thread;
    assert_int_equal(pthread_create(&thread, NULL, check_with_mpfr, &jobs[1]), 0);
    check_with_mpfr(&jobs[0]);
    pthread_join(thread, NULL);
    free(got);
    *first_wrong = jobs[0].wrong ? jobs[0].first_wrong : jobs[1].first_wrong;
    return jobs[0].wrong + jobs[1].wrong;
}

typedef struct {
    size_t full_16, full_32; /* inputs on the best target */
    size_t sample_16, sample_32; /* on the others */
} sweep_sizes;

static void sweep_body(void *ctx, size_t target_index, const char *target) {
    const sweep_sizes *z = ctx;
    static const pto_dtype kDtypes[3] = {PTO_FLOAT32, PTO_FLOAT16, PTO_BFLOAT16};
    for (size_t o = 0; o < 2; ++o) {
        for (size_t t = 0; t < 3; ++t) {
            const bool best = target_index == 0;
            const size_t n = kDtypes[t] == PTO_FLOAT32 ? (best ? z->full_32 : z->sample_32)
                                                       : (best ? z->full_16 : z->sample_16);
            input_set s = make_inputs(kOps[o], kDtypes[t], n);
            uint32_t first = 0;
            const size_t wrong = check_set(&s, &first);
            print_message("[%s] %s %s: %zu inputs, %zu misrounded%s\n", target, exp_log_name(kOps[o]),
                          kDtypes[t] == PTO_FLOAT32 ? "float32" : kDtypes[t] == PTO_FLOAT16 ? "float16" : "bfloat16",
                          s.n, wrong, wrong ? " (first input below)" : "");
            if (wrong) print_message("  first misrounded input: 0x%x\n", first);
            free(s.in);
            assert_int_equal(wrong, 0);
        }
    }
}

static void test_against_mpfr(void **state) {
    (void)state;
    if (under_emulation()) {
        /* MPFR and the sweeps take many minutes per target under qemu-user
         * and valgrind; texp/tlog run there in test_ops and test_identity. */
        print_message("[exp_log] the MPFR comparison: not run under emulation (minutes per "
                      "target); test_ops and test_identity cover texp/tlog there\n");
        skip();
    }
    sweep_sizes z = {1u << 16, 1u << 16, 1u << 16, 1u << 16};
    if (g_long) z = (sweep_sizes){1u << 16, 1u << 24, 1u << 16, 1u << 20};
    if (under_emulation()) z = (sweep_sizes){1u << 12, 1u << 12, 1u << 12, 1u << 12};
    for_each_target("texp/tlog against MPFR", sweep_body, &z);
}

/* ---- every float32 input (long suite) ---- */

/* The reference for the inputs base + [begin, end) into want[]: expl/logl's
 * rounding, or MPFR's where that long double lies too close to a boundary
 * (the first few such inputs kept in close[]). */
typedef struct {
    op_id op;
    uint32_t base;
    size_t begin, end;
    uint32_t *want;
    size_t by_mpfr;
    uint32_t close[8];
} reference_job;

static void *reference_range(void *p) {
    reference_job *j = p;
    for (size_t i = j->begin; i < j->end; ++i) {
        const uint32_t a = j->base + (uint32_t)i;
        if (!long_double_rounded(j->op, a, &j->want[i])) {
            if (j->by_mpfr < COUNT(j->close)) j->close[j->by_mpfr] = a;
            ++j->by_mpfr;
            j->want[i] = mpfr_rounded(j->op, PTO_FLOAT32, a);
        }
    }
    return NULL;
}

/* Every float32 input on the best target, or on each target PTO_TEST_TARGETS
 * names (PTO_TEST_TARGETS="AVX3 AVX2": both, against one reference). */
static void test_every_float32(void **state) {
    (void)state;
    if (!g_long) {
        print_message("[every float32 input] long suite only (--long)\n");
        return;
    }
    const char *listed = getenv("PTO_TEST_TARGETS");
    int64_t targets[16];
    size_t n_targets = 0;
    for (size_t t = 0; t < targets_count() && n_targets < COUNT(targets); ++t) {
        const bool named = listed != NULL && *listed != '\0';
        const bool wanted = named ? test_target_wanted(targets_name(targets_at(t))) : t == 0;
        if (wanted) targets[n_targets++] = targets_at(t);
    }
    assert_true(n_targets >= 1);
    const size_t block = (size_t)1 << 22;
    uint64_t *in = malloc(block * sizeof *in), *got = malloc(block * sizeof *got);
    uint32_t *want = malloc(block * sizeof *want);
    for (size_t o = 0; o < 2; ++o) {
        size_t wrong[16] = {0}, by_mpfr = 0;
        uint32_t first_wrong[16] = {0};
        for (uint64_t base = 0; base < (UINT64_C(1) << 32); base += block) {
            for (size_t i = 0; i < block; ++i) in[i] = (uint32_t)(base + i);
            reference_job jobs[2] = {{kOps[o], (uint32_t)base, 0, block / 2, want, 0, {0}},
                                     {kOps[o], (uint32_t)base, block / 2, block, want, 0, {0}}};
            pthread_t thread;
            assert_int_equal(pthread_create(&thread, NULL, reference_range, &jobs[1]), 0);
            reference_range(&jobs[0]);
            pthread_join(thread, NULL);
            for (int k = 0; k < 2; ++k) {
                for (size_t c = 0; c < jobs[k].by_mpfr && c < COUNT(jobs[k].close); ++c) {
                    print_message("  %s: long double too close to a boundary at input 0x%08x\n",
                                  exp_log_name(kOps[o]), jobs[k].close[c]);
                }
                by_mpfr += jobs[k].by_mpfr;
            }
            for (size_t t = 0; t < n_targets; ++t) {
                targets_select(targets[t]);
                op_run_arrays(kOps[o], PTO_FLOAT32, PTO_POW_HIGH_PRECISION, in, in, got, block);
                for (size_t i = 0; i < block; ++i) {
                    if (!same_result(PTO_FLOAT32, want[i], got[i]) && wrong[t]++ == 0)
                        first_wrong[t] = in[i];
                }
            }
            targets_select(0);
        }
        for (size_t t = 0; t < n_targets; ++t) {
            print_message("[%s] %s float32: every input (2^32), %zu misrounded, %zu decided by MPFR\n",
                          targets_name(targets[t]), exp_log_name(kOps[o]), wrong[t], by_mpfr);
            if (wrong[t]) print_message("  first misrounded input: 0x%08x\n", first_wrong[t]);
        }
        for (size_t t = 0; t < n_targets; ++t) assert_int_equal(wrong[t], 0);
    }
    free(in);
    free(want);
    free(got);
}

int main(int argc, char **argv) {
    g_long = argc > 1 && strcmp(argv[1], "--long") == 0;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_against_mpfr),
        cmocka_unit_test(test_every_float32),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
