/* Measured accuracy of tpow (both algorithms; float32, float16, bfloat16) and
 * trsqrt (float32, float16) on every SIMD target: 2^20 inputs per type on the
 * best target (float16 trsqrt: every bit pattern; float16/bfloat16 tpow: every
 * base bit pattern against 8 exponents plus 2^19 random pairs), a 2^16 sample
 * on the others (on every target under qemu, PTO_TEST_UNDER_QEMU); float32
 * trsqrt also over every input in [1, 4) on every target. Prints one line per
 * (op, dtype, algo, target) with the max error in ulp steps from the
 * correctly rounded result, the max error in fractional ulp of the exact
 * result, and the worst input; asserts the contract's bounds. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/harness.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))
#define FULL_N (1u << 20)
#define SAMPLE_N (1u << 16)

typedef struct {
    op_id op;
    pto_dtype dt;
    size_t n;
    uint32_t *a, *b, *want;
    double *exact;
} input_set;

typedef struct {
    input_set *inputs;
    pto_pow_algorithm algo;
} accuracy_config;

/* ---- inputs ---- */

/* A base x and an exponent y with x^y = 2^t, t uniform in [lo, hi]. */
static void targeted_pow_pair(rng *r, pto_dtype dt, int base_lo, int base_hi, double lo, double hi,
                              uint32_t *a, uint32_t *b) {
    const double x = ldexp(1.0 + rng_unit(r), base_lo + (int)rng_below(r, (uint32_t)(base_hi - base_lo + 1)));
    const uint32_t xb = ref_from_double(dt, x);
    const double lx = log2(ref_to_double(dt, xb));
    const double t = lo + (hi - lo) * rng_unit(r);
    *a = xb;
    *b = ref_from_double(dt, lx != 0 ? t / lx : t);
}

static void pow_input(rng *r, pto_dtype dt, size_t i, uint32_t *a, uint32_t *b) {
    /* Exponent range of results that are normal numbers in dt. */
    const int emin = dt == PTO_FLOAT16 ? -14 : -126, emax = dt == PTO_FLOAT16 ? 15 : 127;
    if (dt != PTO_FLOAT32 && i < FULL_N / 2) {
        static const double kExps[8] = {0.5, -0.5, 2.0, -3.0, 1.5, -1.25, 0.3, 5.0};
        *a = (uint32_t)(i & 0xFFFFu);
        *b = ref_from_double(dt, kExps[i >> 16]);
        return;
    }
    switch (rng_below(r, 10)) {
    case 0: case 1: case 2: case 3:
        targeted_pow_pair(r, dt, emin, emax, emin + 1, emax + 0.99, a, b);
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
 * the kernels' fast paths, which mixed inputs mostly leave. */
static void pow_fast_path_input(rng *r, pto_dtype dt, uint32_t *a, uint32_t *b) {
    if (rng_below(r, 2)) {
        targeted_pow_pair(r, dt, -126, 127, -125, 125, a, b);
        return;
    }
    const double x = 1.0 + (rng_unit(r) * 2 - 1) * ldexp(1.0, -1 - (int)rng_below(r, 23));
    *a = ref_from_double(dt, x);
    const double lx = log2(ref_to_double(dt, *a));
    const double t = -125 + 250 * rng_unit(r);
    *b = ref_from_double(dt, lx != 0 ? t / lx : t);
}

static input_set *make_inputs(op_id op, pto_dtype dt, int fast_path_only) {
    input_set *s = calloc(1, sizeof(*s));
    assert_non_null(s);
    s->op = op;
    s->dt = dt;
    s->n = op == OP_TRSQRT && dt == PTO_FLOAT16 ? 0x10000u : FULL_N;
    s->a = malloc(s->n * sizeof(uint32_t));
    s->b = malloc(s->n * sizeof(uint32_t));
    s->want = malloc(s->n * sizeof(uint32_t));
    s->exact = malloc(s->n * sizeof(double));
    assert_true(s->a && s->b && s->want && s->exact);
    rng r = {0xACC0000u + (uint64_t)op * 16 + (uint64_t)dt};
    for (size_t i = 0; i < s->n; ++i) {
        if (op == OP_TPOW) {
            if (fast_path_only)
                pow_fast_path_input(&r, dt, &s->a[i], &s->b[i]);
            else
                pow_input(&r, dt, i, &s->a[i], &s->b[i]);
            s->exact[i] = pow(ref_to_double(dt, s->a[i]), ref_to_double(dt, s->b[i]));
        } else {
            /* float16: every pattern; float32: positive finite values (one in
             * 256 subnormal), one in ten any bit pattern. */
            s->a[i] = dt == PTO_FLOAT16 ? (uint32_t)i
                      : i % 10 ? 1u + (uint32_t)(rng_next(&r) % 0x7F7FFFFFu)
                               : (uint32_t)rng_next(&r);
            s->b[i] = 0;
            s->exact[i] = 1.0 / sqrt(ref_to_double(dt, s->a[i]));
        }
        s->want[i] = op_reference(op, dt, s->a[i], s->b[i]);
    }
    return s;
}

static void free_inputs(input_set *s) {
    free(s->a), free(s->b), free(s->want), free(s->exact), free(s);
}

/* ---- measuring ---- */

/* Under an emulator (qemu-user, valgrind) the long sweeps are sampled. */
static int emulated(void) {
    return getenv("PTO_TEST_UNDER_QEMU") != NULL || getenv("PTO_TEST_UNDER_VALGRIND") != NULL;
}

typedef struct {
    size_t n, bounded;
    uint64_t max_steps;
    double max_err;
    size_t worst;
    size_t violations;
} measurement;

static void measure(const accuracy_config *c, size_t target_index, const char *target) {
    const input_set *s = c->inputs;
    /* Under qemu every target gets the sample. */
    const int full = target_index == 0 && getenv("PTO_TEST_UNDER_QEMU") == NULL;
    const size_t n = full ? s->n : (s->n < SAMPLE_N ? s->n : SAMPLE_N);
    uint32_t *a = malloc(n * sizeof(uint32_t)), *b = malloc(n * sizeof(uint32_t));
    uint32_t *got = malloc(n * sizeof(uint32_t));
    size_t *index = malloc(n * sizeof(size_t));
    assert_true(a && b && got && index);
    for (size_t k = 0; k < n; ++k) {
        /* An odd multiplier permutes the power-of-two range: a spread sample. */
        index[k] = n == s->n ? k : (k * 0x9E3779B1u) & (s->n - 1);
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
                print_error("%s %s algo %d on %s: a=0x%x (%.9g) b=0x%x (%.9g) got 0x%x (%.9g) want 0x%x (%.9g)\n",
                            op_name(s->op), ref_dtype_name(s->dt), (int)c->algo, target, a[k],
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
                  "  worst: a=0x%x (%.9g) b=0x%x (%.9g) got 0x%x want 0x%x\n",
                  op_name(s->op) + 4, ref_dtype_name(s->dt),
                  s->op == OP_TRSQRT ? "-" : c->algo ? "HIGH_PRECISION" : "DEFAULT", target, m.n,
                  m.bounded, (unsigned long long)m.max_steps, m.max_err, a[w], ref_to_double(s->dt, a[w]),
                  b[w], ref_to_double(s->dt, b[w]), got[w], s->want[index[w]]);
    free(a), free(b), free(got), free(index);
    if (m.violations != 0)
        fail_msg("%s %s algo %d on %s: %zu results outside the contract's bound", op_name(s->op),
                 ref_dtype_name(s->dt), (int)c->algo, target, m.violations);
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
                            : emulated() ? 61 : 1;
    assert_true(stride >= 1);
    uint32_t *a = malloc(RSQRT_CHUNK * sizeof(uint32_t)), *got = malloc(RSQRT_CHUNK * sizeof(uint32_t));
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
            const uint32_t want = ref_rsqrt(PTO_FLOAT32, a[k]);
            const uint64_t bound = op_tolerance(OP_TRSQRT, PTO_FLOAT32, PTO_POW_DEFAULT, want);
            const uint64_t steps = ref_ulp_steps(PTO_FLOAT32, want, got[k]);
            const double err = ref_ulp_error(PTO_FLOAT32, got[k], exact);
            if (steps > bound && ++violations <= 10)
                print_error("trsqrt float32 on %s: x=0x%x (%.9g) got 0x%x want 0x%x\n", target, a[k],
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

static void test_sweep(void **state) {
    const sweep *s = *state;
    accuracy_config c = {make_inputs(s->op, s->dt, s->fast_path_only), s->algo};
    for_each_target(s->name, measure_body, &c);
    free_inputs(c.inputs);
}

int main(void) {
    struct CMUnitTest tests[COUNT(kSweeps) + 1];
    for (size_t i = 0; i < COUNT(kSweeps); ++i)
        tests[i] = (struct CMUnitTest){kSweeps[i].name, test_sweep, NULL, NULL, (void *)&kSweeps[i]};
    tests[COUNT(kSweeps)] = (struct CMUnitTest)cmocka_unit_test(test_rsqrt_every_input_in_1_4);
    return cmocka_run_group_tests_name("accuracy", tests, NULL, NULL);
}
