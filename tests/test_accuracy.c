/* Measured accuracy of tpow (both algorithms; float32, float16, bfloat16) and
 * trsqrt (float32, float16) on every SIMD target: 2^20 inputs per type on the
 * best target (float16 trsqrt: every bit pattern; float16/bfloat16 tpow: every
 * base bit pattern against 8 exponents plus 2^19 random pairs), a 2^16 sample
 * on the others (on every target under qemu, PTO_TEST_UNDER_QEMU); float32
 * trsqrt also over every input in [1, 4) on every target. Prints one line per
 * (op, dtype, algo, target) with the max error in ulp steps from the
 * correctly rounded result, the max error in fractional ulp of the exact
 * result, and the worst input; asserts the contract's bounds. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/harness.h"

#define FULL_N (1u << 20)
#define SAMPLE_N (1u << 16)

typedef struct {
    op_id op;
    pto_dtype dt;
    size_t n;
    uint64_t *a, *b, *want;
    double *exact;
} input_set;

typedef struct {
    input_set *inputs;
    pto_pow_algorithm algo;
} accuracy_config;

/* ---- inputs ---- */

static void pow_input(rng *r, pto_dtype dt, size_t i, uint64_t *a, uint64_t *b) {
    /* Exponent range of results that are normal numbers in dt. */
    const int emin = ref_min_exponent(dt), emax = ref_max_exponent(dt);
    if (dt != PTO_FLOAT32 && i < FULL_N / 2) {
        static const double kExps[8] = {0.5, -0.5, 2.0, -3.0, 1.5, -1.25, 0.3, 5.0};
        *a = (uint32_t)(i & 0xFFFFu);
        *b = ref_from_double(dt, kExps[i >> 16]);
        return;
    }
    switch (rng_below(r, 10)) {
    case 0: case 1: case 2: case 3:
        gen_pow_pair_log2_result(r, dt, emin, emax, emin + 1, emax + 0.99, a, b);
        break;
    case 4: { /* bases near 1, where log(x) must be accurate */
        const double x = 1.0 + (rng_unit(r) * 2 - 1) * ldexp(1.0, -1 - (int)rng_below(r, dt == PTO_FLOAT32 ? 23 : 10));
        *a = ref_from_double(dt, x);
        const double lx = log2(ref_to_double(dt, *a));
        const double t = emin + 1 + (emax - emin) * rng_unit(r);
        *b = ref_from_double(dt, lx != 0 ? t / lx : t);
        break;
    }
    case 5: case 6: { /* negative bases, integer exponents */
        const double x = -ldexp(1.0 + rng_unit(r), (int)rng_below(r, 21) - 10);
        *a = ref_from_double(dt, x);
        const double lx = log2(-ref_to_double(dt, *a));
        const double t = emin + 1 + (emax - emin - 1) * rng_unit(r);
        *b = ref_from_double(dt, lx != 0 ? nearbyint(t / lx) : (double)rng_below(r, 100));
        break;
    }
    case 7:
        *a = ref_from_double(dt, 0.5 + 1.5 * rng_unit(r));
        *b = ref_from_double(dt, (rng_unit(r) * 2 - 1) * (dt == PTO_FLOAT16 ? 20 : 200));
        break;
    case 8:
        *a = gen_value(r, dt, GEN_ANY);
        *b = gen_value(r, dt, GEN_ANY);
        break;
    default:
        *a = ref_int_wrap(dt, rng_next(r)) & ~(1u << (ref_bits(dt) - 1));
        *b = ref_from_double(dt, (double)((int)rng_below(r, 17) - 8));
        break;
    }
}

/* Positive normal bases with normal results (|log2 result| <= 125), half of
 * them near 1 with large exponents: every vector of such inputs stays on
 * the kernels' fast paths, which mixed inputs mostly leave. Half of those
 * near 1 lie in [0.85, 1.2) with |log2 result| in [100, 125): the log2
 * table buckets beside 1, where DEFAULT's f32 tail term of t, y r^2, is
 * largest against the result (pow-tables.h). */
static void pow_fast_path_input(rng *r, pto_dtype dt, uint64_t *a, uint64_t *b) {
    if (rng_below(r, 2)) {
        gen_pow_pair_log2_result(r, dt, -126, 127, -125, 125, a, b);
        return;
    }
    double x, t;
    if (rng_below(r, 2)) {
        x = 1.0 + (rng_unit(r) * 2 - 1) * ldexp(1.0, -1 - (int)rng_below(r, 23));
        t = -125 + 250 * rng_unit(r);
    } else {
        x = 0.85 + 0.35 * rng_unit(r);
        t = (rng_below(r, 2) ? 1 : -1) * (100 + 25 * rng_unit(r));
    }
    *a = ref_from_double(dt, x);
    const double lx = log2(ref_to_double(dt, *a));
    *b = ref_from_double(dt, lx != 0 ? t / lx : t);
}

/* Every how many enumerated cases one is tested: 1 natively, 16 under
 * emulation. */
static int under_emulation_stride(void) { return under_emulation() ? 16 : 1; }

static input_set *make_inputs(op_id op, pto_dtype dt, int fast_path_only) {
    input_set *s = calloc(1, sizeof(*s));
    assert_non_null(s);
    s->op = op;
    s->dt = dt;
    s->n = op == OP_TRSQRT && dt == PTO_FLOAT16 ? 0x10000u : FULL_N;
    s->a = malloc(s->n * sizeof(uint64_t));
    s->b = malloc(s->n * sizeof(uint64_t));
    s->want = malloc(s->n * sizeof(uint64_t));
    s->exact = malloc(s->n * sizeof(double));
    assert_true(s->a && s->b && s->want && s->exact);
    rng r = {0xACC0000u + (uint64_t)op * 16 + (uint64_t)dt};
    for (size_t i = 0; i < s->n; ++i) {
        if (op == OP_TPOW) {
            if (fast_path_only)
                pow_fast_path_input(&r, dt, &s->a[i], &s->b[i]);
            else
                pow_input(&r, dt, i, &s->a[i], &s->b[i]);
        } else {
            /* float16: every pattern; float32: positive finite values (one in
             * 256 subnormal), one in ten any bit pattern. */
            s->a[i] = dt == PTO_FLOAT16 ? (uint32_t)i
                      : i % 10 ? 1u + (uint32_t)(rng_next(&r) % 0x7F7FFFFFu)
                               : (uint32_t)rng_next(&r);
            s->b[i] = 0;
        }
    }
    /* The references (MPFR for pow) of the inputs that will be measured:
     * under emulation only the sample's. */
    const size_t measured = under_emulation() && s->n > SAMPLE_N ? SAMPLE_N : s->n;
    for (size_t k = 0; k < measured; ++k) {
        const size_t i = sample_index(k, measured, s->n);
        const double a = ref_to_double(dt, s->a[i]);
        s->exact[i] = op == OP_TPOW ? pow(a, ref_to_double(dt, s->b[i])) : 1.0 / sqrt(a);
        s->want[i] = op_reference(op, dt, s->a[i], s->b[i]);
    }
    return s;
}

static void free_inputs(input_set *s) {
    free(s->a), free(s->b), free(s->want), free(s->exact), free(s);
}

/* ---- measuring ---- */

typedef struct {
    size_t n, bounded;
    uint64_t max_steps;
    double max_err;
    size_t worst;
    size_t violations;
} measurement;

static void measure(const accuracy_config *c, size_t target_index, const char *target) {
    const input_set *s = c->inputs;
    /* Under emulation every target gets the sample, whose references alone
     * were computed. */
    const int full = target_index == 0 && !under_emulation();
    const size_t n = full ? s->n : (s->n < SAMPLE_N ? s->n : SAMPLE_N);
    uint64_t *a = malloc(n * sizeof(uint64_t)), *b = malloc(n * sizeof(uint64_t));
    uint64_t *got = malloc(n * sizeof(uint64_t));
    size_t *index = malloc(n * sizeof(size_t));
    assert_true(a && b && got && index);
    for (size_t k = 0; k < n; ++k) {
        index[k] = sample_index(k, n, s->n);
        a[k] = s->a[index[k]];
        b[k] = s->b[index[k]];
    }
    op_run_arrays(s->op, s->dt, c->algo, a, b, got, n);

    measurement m = {n, 0, 0, 0.0, 0, 0};
    for (size_t k = 0; k < n; ++k) {
        const size_t i = index[k];
        const uint64_t bound = op_tolerance(s->op, s->dt, c->algo, s->want[i]);
        if (!within_tolerance(s->dt, bound, s->want[i], got[k])) {
            if (++m.violations <= 10)
                print_error("%s %s algo %d on %s: a=0x%" PRIx64 " (%.9g) b=0x%" PRIx64 " (%.9g) got 0x%" PRIx64 " (%.9g) want 0x%" PRIx64 " (%.9g)\n",
                            op_name(s->op), pto_dtype_string(s->dt), (int)c->algo, target, a[k],
                            ref_to_double(s->dt, a[k]), b[k], ref_to_double(s->dt, b[k]), got[k],
                            ref_to_double(s->dt, got[k]), s->want[i], ref_to_double(s->dt, s->want[i]));
        }
        if (bound == TOL_NAN_CLASS_ONLY || ref_is_nan(s->dt, s->want[i])) continue;
        m.bounded++;
        const uint64_t steps = ref_ulp_steps(s->dt, s->want[i], got[k]);
        const double err = ref_ulp_error(s->dt, got[k], s->exact[i]);
        if (steps > m.max_steps || (steps == m.max_steps && err > m.max_err)) m.worst = k;
        if (steps > m.max_steps) m.max_steps = steps;
        if (err > m.max_err) m.max_err = err;
    }
    const size_t w = m.worst;
    print_message("[accuracy] %-10s %-8s %-14s %-6s n=%7zu checked=%7zu max_ulp=%llu max_err=%.4f ulp"
                  "  worst: a=0x%" PRIx64 " (%.9g) b=0x%" PRIx64 " (%.9g) got 0x%" PRIx64 " want 0x%" PRIx64 "\n",
                  op_name(s->op) + 4, pto_dtype_string(s->dt),
                  s->op == OP_TRSQRT ? "-" : c->algo ? "HIGH_PRECISION" : "DEFAULT", target, m.n,
                  m.bounded, (unsigned long long)m.max_steps, m.max_err, a[w], ref_to_double(s->dt, a[w]),
                  b[w], ref_to_double(s->dt, b[w]), got[w], s->want[index[w]]);
    free(a), free(b), free(got), free(index);
    if (m.violations != 0)
        fail_msg("%s %s algo %d on %s: %zu results outside the contract's bound", op_name(s->op),
                 pto_dtype_string(s->dt), (int)c->algo, target, m.violations);
    assert_true(m.bounded * 3 > n); /* most of the sweep had a bound to meet */
}

static void measure_body(void *ctx, size_t target_index, const char *target) {
    measure(ctx, target_index, target);
}

typedef struct {
    const char *name;
    op_id op;
    pto_dtype dt;
    pto_pow_algorithm algo;
    int fast_path_only; /* tpow inputs that keep every vector on the fast path */
} sweep;

static const sweep kSweeps[] = {
    {"tpow float32 HIGH_PRECISION accuracy", OP_TPOW, PTO_FLOAT32, PTO_POW_HIGH_PRECISION, 0},
    {"tpow float32 DEFAULT accuracy", OP_TPOW, PTO_FLOAT32, PTO_POW_DEFAULT, 0},
    {"tpow float32 HIGH_PRECISION accuracy (fast-path inputs)", OP_TPOW, PTO_FLOAT32,
     PTO_POW_HIGH_PRECISION, 1},
    {"tpow float32 DEFAULT accuracy (fast-path inputs)", OP_TPOW, PTO_FLOAT32, PTO_POW_DEFAULT, 1},
    {"tpow float16 HIGH_PRECISION accuracy", OP_TPOW, PTO_FLOAT16, PTO_POW_HIGH_PRECISION, 0},
    {"tpow float16 DEFAULT accuracy", OP_TPOW, PTO_FLOAT16, PTO_POW_DEFAULT, 0},
    {"tpow bfloat16 HIGH_PRECISION accuracy", OP_TPOW, PTO_BFLOAT16, PTO_POW_HIGH_PRECISION, 0},
    {"tpow bfloat16 DEFAULT accuracy", OP_TPOW, PTO_BFLOAT16, PTO_POW_DEFAULT, 0},
    {"trsqrt float32 accuracy", OP_TRSQRT, PTO_FLOAT32, PTO_POW_DEFAULT, 0},
    {"trsqrt float16 accuracy (exhaustive)", OP_TRSQRT, PTO_FLOAT16, PTO_POW_DEFAULT, 0},
};

/* ---- trsqrt float32 over [1, 4), every input ---- */

/* 1/sqrt(4^k x) = 2^-k / sqrt(x): every positive normal float32 is 4^k
 * times one in [1, 4), with the same significand and exponent parity, which
 * is all that the estimate instructions and the correction see (subnormals
 * and huge inputs are scaled by powers of 4 into that range). So [1, 4)
 * holds every case the kernels meet: 2^24 inputs per target. Under qemu or
 * valgrind (PTO_TEST_UNDER_QEMU, PTO_TEST_UNDER_VALGRIND) every 61st input,
 * as the log says;
 * PTO_TEST_RSQRT_STRIDE=n sets the step (1: exhaustive under qemu too). */
#define RSQRT_FIRST 0x3F800000u /* 1.0f */
#define RSQRT_END 0x40800000u   /* 4.0f */
#define RSQRT_CHUNK (1u << 18)

static void rsqrt_range_body(void *ctx, size_t target_index, const char *target) {
    (void)ctx, (void)target_index;
    const char *stride_env = getenv("PTO_TEST_RSQRT_STRIDE");
    const uint32_t stride = stride_env != NULL ? (uint32_t)strtoul(stride_env, NULL, 10)
                            : under_emulation() ? 61 : 1;
    assert_true(stride >= 1);
    uint64_t *a = malloc(RSQRT_CHUNK * sizeof(uint64_t)), *got = malloc(RSQRT_CHUNK * sizeof(uint64_t));
    assert_true(a && got);
    size_t n = 0, violations = 0;
    uint64_t max_steps = 0;
    double max_err = 0;
    uint32_t worst = RSQRT_FIRST;
    for (uint64_t start = RSQRT_FIRST; start < RSQRT_END; start += (uint64_t)RSQRT_CHUNK * stride) {
        size_t m = 0;
        for (uint64_t x = start; x < RSQRT_END && m < RSQRT_CHUNK; x += stride) a[m++] = (uint32_t)x;
        op_run_arrays(OP_TRSQRT, PTO_FLOAT32, PTO_POW_DEFAULT, a, NULL, got, m);
        for (size_t k = 0; k < m; ++k) {
            const double exact = 1.0 / sqrt(ref_to_double(PTO_FLOAT32, a[k]));
            const uint64_t want = ref_rsqrt(PTO_FLOAT32, a[k]);
            const uint64_t bound = op_tolerance(OP_TRSQRT, PTO_FLOAT32, PTO_POW_DEFAULT, want);
            const uint64_t steps = ref_ulp_steps(PTO_FLOAT32, want, got[k]);
            const double err = ref_ulp_error(PTO_FLOAT32, got[k], exact);
            if (steps > bound && ++violations <= 10)
                print_error("trsqrt float32 on %s: x=0x%" PRIx64 " (%.9g) got 0x%" PRIx64 " want 0x%" PRIx64 "\n", target, a[k],
                            ref_to_double(PTO_FLOAT32, a[k]), got[k], want);
            if (steps > max_steps) max_steps = steps;
            if (err > max_err) max_err = err, worst = a[k];
        }
        n += m;
    }
    print_message("[accuracy] trsqrt     float32  [1,4)          %-6s n=%8zu (every %u%s) max_ulp=%llu "
                  "max_err=%.4f ulp  worst: a=0x%x (%.9g)\n",
                  target, n, stride, stride == 1 ? ": exhaustive" : ", sampled",
                  (unsigned long long)max_steps, max_err, worst, ref_to_double(PTO_FLOAT32, worst));
    free(a), free(got);
    if (violations != 0) fail_msg("trsqrt float32 on %s: %zu results in [1, 4) outside the bound", target, violations);
}

static void test_rsqrt_every_input_in_1_4(void **state) {
    (void)state;
    for_each_target("trsqrt float32 over [1, 4)", rsqrt_range_body, NULL);
}

/* ---- tpow HIGH_PRECISION float32: exact results and exact ties ---- */

/* x^y is exactly a float32 or exactly halfway between two (a tie, rounded
 * to even) only for x = m 2^e with a small odd m and y an integer or a
 * fraction with a power-of-two denominator. Enumerated here:
 *   - y = n in 2..15 (and -1, -2 for powers of two), every odd m with m^n <
 *     2^27 (representable, tie or just beyond), e over the whole range that
 *     keeps m^n 2^(n e) between 2^-152 and 2^129 (subnormal ties included),
 *     x positive and, for odd n, negative;
 *   - y = j/2, j/4 (j odd, |y| <= 8) with x = m^(2 or 4) 2^(even): results
 *     m^j, exact or ties when they fit;
 *   - x = 2^e for every e in [-149, 127], y = k/4 for every |k| <= 640;
 *   - near-exact cases: y = 1/3 and 2/3 rounded to float32, x = m^3.
 * Every result is compared with MPFR (0 ulp); the log counts the ties. */
typedef struct {
    pto_dtype dt;
    const char *what;      /* the log's name of the cases */
    const char *ties_what; /* and of what ties counts */
    uint64_t *a, *b, *want;
    size_t n, cap, ties;
} case_list;

static void add_case_bits(case_list *c, uint64_t a, uint64_t b) {
    if (c->n == c->cap) {
        c->cap = c->cap ? 2 * c->cap : 1u << 16;
        c->a = realloc(c->a, c->cap * sizeof(uint64_t));
        c->b = realloc(c->b, c->cap * sizeof(uint64_t));
        assert_true(c->a && c->b);
    }
    c->a[c->n] = a;
    c->b[c->n] = b;
    c->n++;
}

static void add_case(case_list *c, float x, float y) {
    add_case_bits(c, ref_from_double(c->dt, x), ref_from_double(c->dt, y));
}

static int bit_length(uint64_t v) { return v ? 64 - __builtin_clzll(v) : 0; }

static case_list *make_exact_cases(void) {
    case_list *c = calloc(1, sizeof(*c));
    assert_non_null(c);
    c->dt = PTO_FLOAT32;
    c->what = "exact and ties";
    c->ties_what = "ties";
    const int stride = under_emulation_stride();
    size_t count = 0;
    for (int n = 2; n <= 15; ++n)
        for (uint64_t m = 1;; m += 2) {
            uint64_t p = 1;
            for (int i = 0; i < n; ++i) p *= m;
            if (bit_length(p) > 27) break;
            for (int e = -160; e <= 130; ++e) {
                const int r = bit_length(p) + n * e; /* result in [2^(r-1), 2^r) */
                if (r < -151 || r > 129 || (count++ % (size_t)stride) != 0) continue;
                const float x = ldexpf((float)m, e);
                if (x == 0 || isinf(x)) continue;
                add_case(c, x, (float)n);
                if (n & 1) add_case(c, -x, (float)n);
            }
        }
    for (int root = 2; root <= 4; root += 2)
        for (uint64_t m = 3; m * m * (root == 4 ? m * m : 1) < (1u << 24); m += 2)
            for (int j = -8 * root + 1; j < 8 * root; j += 2)
                for (int e = -8; e <= 8; e += 4) {
                    const double x = ldexp((double)(root == 4 ? m * m * m * m : m * m), root * e);
                    if ((count++ % (size_t)stride) == 0) add_case(c, (float)x, (float)j / (float)root);
                }
    for (int e = -149; e <= 127; ++e)
        for (int k = -640; k <= 640; ++k)
            if ((count++ % (size_t)stride) == 0) add_case(c, ldexpf(1.0f, e), (float)k / 4.0f);
    for (uint64_t m = 2; m * m * m < (1u << 24); ++m) {
        add_case(c, (float)(m * m * m), 1.0f / 3.0f);
        add_case(c, (float)(m * m * m), 2.0f / 3.0f);
    }
    c->want = malloc(c->n * sizeof(uint64_t));
    assert_non_null(c->want);
    for (size_t i = 0; i < c->n; ++i) {
        c->want[i] = ref_pow(PTO_FLOAT32, c->a[i], c->b[i]);
        /* A tie: x^y (exact in double here when it is one) halfway between
         * two float32 values. */
        const double v = pow(ref_to_double(PTO_FLOAT32, c->a[i]), ref_to_double(PTO_FLOAT32, c->b[i]));
        const float lo = (float)v;
        if (isfinite(v) && (double)lo != v) {
            const float other = nextafterf(lo, fabs(v) > fabsf(lo) ? copysignf(INFINITY, lo) : 0.0f);
            if (((double)lo + (double)other) / 2 == v) c->ties++;
        }
    }
    return c;
}

/* ---- tpow HIGH_PRECISION: near powers of two to dyadic powers ---- */

/* x = 2^e (1 + j 2^-p) for a few j (p the format's precision, j < 0 below
 * the power of two), y = i/8: x^y = 2^(e y) (1 + y j 2^-p + y (y - 1)/2
 * j^2 2^-2p + ...). When the first-order term puts x^y on a midpoint of the
 * format, the second-order one leaves it only about 2^-2p relative away
 * (2^-48 for float32: 16777215^1.5 = 2^36 - 6144 + 3/8 2^-12), inside the
 * fast path's error bound, so these go to the accurate path, whose error
 * must then stay far below 2^-2p. Its k ln 2 and n ln 2 (the base's and the
 * result's exponents times ln 2) once carried a rounding error of half an
 * ulp of k ln 2, about 2^-49 relative at the ends of the exponent range:
 * every base exponent and every result from the format's least subnormal
 * to beyond its largest number is enumerated, those ends included. Bit
 * patterns j away from 2^e's, so subnormal bases count their own ulps.
 * The log counts the results within 2^(4 - 2p) relative of a midpoint (by
 * the double pow; only an indication). */
#define NEAR_POW2_ULPS 4
#define NEAR_POW2_EIGHTHS 128 /* |y| <= 16 */

static case_list *make_near_pow2_cases(pto_dtype dt) {
    case_list *c = calloc(1, sizeof(*c));
    assert_non_null(c);
    c->dt = dt;
    c->what = "near 2^e, y=i/8";
    c->ties_what = "near_midpoint";
    const int frac = ref_frac_bits(dt);
    const int emin = ref_min_exponent(dt), emax = ref_max_exponent(dt);
    const int stride = under_emulation_stride();
    size_t count = 0;
    for (int e = emin - frac; e <= emax; ++e) {
        const uint32_t pow2 = ref_from_double(dt, ldexp(1.0, e));
        for (int j = -NEAR_POW2_ULPS; j <= NEAR_POW2_ULPS; ++j) {
            if (j < 0 && pow2 < (uint32_t)-j) continue; /* below the least subnormal */
            const uint32_t a = pow2 + (uint32_t)j;
            for (int i = -NEAR_POW2_EIGHTHS; i <= NEAR_POW2_EIGHTHS; ++i) {
                const double y = i / 8.0, r = e * y; /* x^y ~ 2^r */
                if (i == 0 || r < emin - frac - 2 || r > emax + 2) continue;
                if ((count++ % (size_t)stride) == 0) add_case_bits(c, a, ref_from_double(dt, y));
            }
        }
    }
    c->want = malloc(c->n * sizeof(uint64_t));
    assert_non_null(c->want);
    for (size_t i = 0; i < c->n; ++i) {
        c->want[i] = ref_pow(dt, c->a[i], c->b[i]);
        const double v = pow(ref_to_double(dt, c->a[i]), ref_to_double(dt, c->b[i]));
        if (!isfinite(v) || v == 0) continue;
        int ev;
        (void)frexp(v, &ev); /* v in [2^(ev-1), 2^ev) */
        const int q = (ev - 1 < emin ? emin : ev - 1) - frac; /* dt's ulp at v: 2^q */
        const double scaled = ldexp(v, -q);
        if (fabs(scaled - floor(scaled) - 0.5) < ldexp(v, 4 - 2 * (frac + 1) - q)) c->ties++;
    }
    return c;
}

/* Runs a case list's tpow HIGH_PRECISION on the selected target: 0 ulp from
 * MPFR (NaN for NaN) required. */
static void case_list_body(void *ctx, size_t target_index, const char *target) {
    (void)target_index;
    const case_list *c = ctx;
    const pto_dtype dt = c->dt;
    uint64_t *got = malloc(c->n * sizeof(uint64_t));
    assert_non_null(got);
    op_run_arrays(OP_TPOW, dt, PTO_POW_HIGH_PRECISION, c->a, c->b, got, c->n);
    size_t wrong = 0;
    for (size_t i = 0; i < c->n; ++i) {
        if (ref_ulp_steps(dt, c->want[i], got[i]) == 0 ||
            (ref_is_nan(dt, c->want[i]) && ref_is_nan(dt, got[i])))
            continue;
        if (++wrong <= 10)
            print_error("tpow %s HIGH_PRECISION on %s: x=0x%" PRIx64 " (%.9g) y=0x%" PRIx64 " (%.9g) got 0x%" PRIx64 " want 0x%" PRIx64 "\n",
                        pto_dtype_string(dt), target, c->a[i], ref_to_double(dt, c->a[i]), c->b[i],
                        ref_to_double(dt, c->b[i]), got[i], c->want[i]);
    }
    print_message("[accuracy] tpow       %-8s %s %-6s n=%7zu %s=%zu%s wrong=%zu\n", pto_dtype_string(dt),
                  c->what, target, c->n, c->ties_what,
                  c->ties, under_emulation_stride() > 1 ? " (sampled)" : "", wrong);
    free(got);
    if (wrong != 0)
        fail_msg("tpow %s HIGH_PRECISION on %s: %zu of the %s cases misrounded", pto_dtype_string(dt), target,
                 wrong, c->what);
}

static void free_case_list(case_list *c) { free(c->a), free(c->b), free(c->want), free(c); }

static void test_pow_exact_cases(void **state) {
    (void)state;
    case_list *c = make_exact_cases();
    assert_true(c->ties > 1000);
    for_each_target("tpow float32 HIGH_PRECISION exact results and ties", case_list_body, c);
    free_case_list(c);
}

static void test_pow_near_powers_of_two(void **state) {
    const pto_dtype dt = *(const pto_dtype *)*state;
    case_list *c = make_near_pow2_cases(dt);
    assert_true(c->ties > (size_t)(100 / under_emulation_stride())); /* the class does reach midpoints */
    for_each_target("tpow HIGH_PRECISION near powers of two", case_list_body, c);
    free_case_list(c);
}

static const pto_dtype kNearPow2Types[] = {PTO_FLOAT32, PTO_FLOAT16, PTO_BFLOAT16};

static void test_sweep(void **state) {
    const sweep *s = *state;
    accuracy_config c = {make_inputs(s->op, s->dt, s->fast_path_only), s->algo};
    for_each_target(s->name, measure_body, &c);
    free_inputs(c.inputs);
}

int main(void) {
    struct CMUnitTest tests[COUNT(kSweeps) + 2 + COUNT(kNearPow2Types)];
    for (size_t i = 0; i < COUNT(kSweeps); ++i)
        tests[i] = (struct CMUnitTest){kSweeps[i].name, test_sweep, NULL, NULL, (void *)&kSweeps[i]};
    tests[COUNT(kSweeps)] = (struct CMUnitTest)cmocka_unit_test(test_rsqrt_every_input_in_1_4);
    tests[COUNT(kSweeps) + 1] = (struct CMUnitTest)cmocka_unit_test(test_pow_exact_cases);
    static const char *const kNearPow2Names[] = {"tpow float32 HIGH_PRECISION near powers of two",
                                                 "tpow float16 HIGH_PRECISION near powers of two",
                                                 "tpow bfloat16 HIGH_PRECISION near powers of two"};
    for (size_t i = 0; i < COUNT(kNearPow2Types); ++i)
        tests[COUNT(kSweeps) + 2 + i] = (struct CMUnitTest){kNearPow2Names[i], test_pow_near_powers_of_two,
                                                            NULL, NULL, (void *)&kNearPow2Types[i]};
    return cmocka_run_group_tests_name("accuracy", tests, NULL, NULL);
}
