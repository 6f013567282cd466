/* Identity across SIMD targets: every operation gives the same bits on every
 * target this CPU supports, so that a result does not depend on the machine
 * it was computed on. For each (op, dtype[, algo]) that HOST accepts, 2^20
 * inputs for the Special rows with the CommonCall trait, 2^18 for the
 * other elementwise rows, 2^16 (edge pairs and random ones) for the
 * reductions, run on every target (the best
 * first), and each target's output must equal the first target's bit for
 * bit. NaN results are compared by NaN-ness only: the contract promises a
 * NaN, not its sign or payload.
 *
 * The inputs: every pair of special values (zeros, infinities, NaNs,
 * subnormal and normal extremes, +-1, 2, 0.5) or, for integers, of extremes;
 * every pair of 8-bit values and every 16-bit first operand; then random bit
 * patterns, subnormals and the extreme binades, and per operation the inputs
 * that take kernels off their fast paths (tpow: negative bases with integer
 * exponents, bases near 1 with large exponents, results near overflow and in
 * the subnormals, exact powers x^2, x^3, x^0.5, x^-1 of small integers;
 * division and addition: quotients and sums that overflow, underflow or
 * cancel). Each run takes them in that order up to its size. Under an
 * emulator 2^14 (2^12 for the table's other rows) edge pairs and random
 * inputs, as the line says.
 *
 * Layout: on every target, the same elements as rows of 1021 in tiles of
 * exactly that width (the region one run of consecutive elements, which the
 * kernels take as one row) and in tiles 3 columns wider (row by row) give the
 * same bits, for every row, DEFAULT included: no result depends on how its
 * tile is laid out.
 *
 * Prints one line per row with the number of elements in which some target
 * differs from the first. One kind of row prints without failing: tpow
 * DEFAULT on float types, whose contract is an error bound that each target
 * may meet differently. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/harness.h"

#define FULL_N (1u << 20)
#define TABLE_N (1u << 18)
#define REDUCTION_N (1u << 16)
#define EMULATED_N (1u << 14)        /* the Special rows under an emulator */
#define EMULATED_TABLE_N (1u << 12)  /* the others */
#define MAX_TARGETS 16

typedef struct {
    op_id op;
    pto_dtype dt;
    pto_pow_algorithm algo;
    char name[48]; /* "tpow float32 HIGH_PRECISION", "tprelu int8" */
} identity_row;

typedef enum { ENFORCED, NOT_PROMISED } row_policy;

static row_policy policy(const identity_row *row) {
    if (row->op == OP_TPOW && row->algo == PTO_POW_DEFAULT && ref_is_float(row->dt)) return NOT_PROMISED;
    return ENFORCED;
}

/* ---- inputs ---- */

static uint64_t sign_bit(pto_dtype dt) { return UINT64_C(1) << (ref_bits(dt) - 1); }

static uint64_t random_sign(rng *r, pto_dtype dt) { return rng_below(r, 2) ? sign_bit(dt) : 0; }

/* The values at the edges of a type: float specials plus +-1, 2 and 0.5;
 * for integers 0, +-1, 2 and the ends of the range. Returns the count. */
static size_t edge_values(pto_dtype dt, uint64_t out[24]) {
    if (!ref_is_float(dt)) {
        const uint64_t min = ref_is_signed(dt) ? sign_bit(dt) : 0;
        const uint64_t max = ref_int_wrap(dt, (uint64_t)min - 1);
        const uint64_t values[] = {0, 1, 2, 3, ref_int_wrap(dt, (uint64_t)-1), ref_int_wrap(dt, (uint64_t)-2),
                                   min, min + 1, max, max - 1};
        memcpy(out, values, sizeof(values));
        return COUNT(values);
    }
    size_t n = float_specials(dt, out);
    const double ordinary[] = {1.0, -1.0, 2.0, 0.5};
    for (size_t i = 0; i < COUNT(ordinary); ++i) out[n++] = ref_from_double(dt, ordinary[i]);
    return n;
}

/* One operand: random bit patterns half the time, else edge values,
 * subnormals, values in the extreme binades or ordinary values. */
static uint64_t any_value(rng *r, pto_dtype dt) {
    uint64_t edges[24];
    const uint32_t pick = rng_below(r, 8);
    if (pick < 4) return ref_int_wrap(dt, rng_next(r));
    if (pick == 4) return edges[rng_below(r, (uint32_t)edge_values(dt, edges))];
    if (!ref_is_float(dt)) return ref_int_wrap(dt, (uint64_t)((int64_t)rng_below(r, 65) - 32));
    const int frac = ref_frac_bits(dt);
    const uint64_t frac_mask = (1u << frac) - 1u;
    const uint64_t max_exp = (sign_bit(dt) >> frac) - 1u; /* the infinity/NaN exponent */
    if (pick == 5) return random_sign(r, dt) | ((uint64_t)rng_next(r) & frac_mask); /* subnormal */
    if (pick == 6) {
        const uint64_t exps[] = {1, 2, max_exp - 2, max_exp - 1};
        return random_sign(r, dt) | exps[rng_below(r, 4)] << frac | ((uint64_t)rng_next(r) & frac_mask);
    }
    return gen_value(r, dt, GEN_ANY);
}

static uint64_t from_double(pto_dtype dt, double x) {
    return ref_is_float(dt) ? ref_from_double(dt, x) : ref_int_wrap(dt, (uint64_t)(int64_t)x);
}

/* Float tpow: the inputs each part of the kernels treats apart. */
static void float_pow_input(rng *r, pto_dtype dt, uint64_t *a, uint64_t *b) {
    const int frac = ref_frac_bits(dt);
    const int emin = ref_min_exponent(dt), emax = ref_max_exponent(dt);
    switch (rng_below(r, 10)) {
    case 0: /* negative bases, integer exponents (odd and even, small and huge) */
        *a = ref_from_double(dt, -ldexp(1.0 + rng_unit(r), (int)rng_below(r, 25) - 12));
        *b = ref_from_double(dt, rng_below(r, 2) ? (double)((int)rng_below(r, 129) - 64)
                                                 : ldexp(rng_below(r, 2) ? 1.0 : -1.0, (int)rng_below(r, 30)) +
                                                       (double)((int)rng_below(r, 3) - 1));
        break;
    case 1: { /* bases near 1, large exponents */
        *a = ref_from_double(dt, 1.0 + (rng_unit(r) * 2 - 1) * ldexp(1.0, -1 - (int)rng_below(r, (uint32_t)frac + 1)));
        *b = ref_from_double(dt, (rng_below(r, 2) ? 1 : -1) * ldexp(1.0 + rng_unit(r), (int)rng_below(r, 31)));
        break;
    }
    case 2: { /* exact powers of small integers */
        static const double kExps[] = {2, 3, 0.5, -1, -2, 4, 1.5, -0.5, 0.25, 1.0 / 3};
        const int k = (int)rng_below(r, 33) - 16;
        const size_t e = rng_below(r, COUNT(kExps));
        /* a square or a cube where the exponent takes a root */
        const double x = kExps[e] == 1.0 / 3 ? (double)k * k * k
                         : kExps[e] != floor(kExps[e]) ? (double)k * k : (double)k;
        *a = ref_from_double(dt, x);
        *b = ref_from_double(dt, kExps[e]);
        break;
    }
    case 3: /* results next to overflow */
        gen_pow_pair_log2_result(r, dt, emin, emax, emax - 2, emax + 1, a, b);
        break;
    case 4: /* results in the subnormals and next to underflow */
        gen_pow_pair_log2_result(r, dt, emin, emax, emin - frac - 2, emin + 1, a, b);
        break;
    case 5: /* subnormal bases */
        *a = (uint64_t)rng_next(r) & ((1u << frac) - 1u);
        *b = ref_from_double(dt, rng_below(r, 2) ? (double)((int)rng_below(r, 9) - 4) : rng_unit(r) * 4 - 2);
        break;
    case 6: {
        static const double kExps[] = {0.5, -0.5, 1, -1, 2, -2, 0, 3};
        *a = any_value(r, dt);
        *b = ref_from_double(dt, kExps[rng_below(r, COUNT(kExps))]);
        break;
    }
    case 7:
        *a = gen_value(r, dt, GEN_POW_BASE);
        *b = gen_value(r, dt, GEN_POW_EXP);
        break;
    default:
        *a = any_value(r, dt);
        *b = any_value(r, dt);
        break;
    }
}

/* Integer tpow: small bases with every kind of exponent, every kind of base
 * with small exponents, and random bits. */
static void int_pow_input(rng *r, pto_dtype dt, uint64_t *a, uint64_t *b) {
    switch (rng_below(r, 4)) {
    case 0:
        *a = gen_value(r, dt, GEN_POW_BASE);
        *b = gen_value(r, dt, GEN_POW_EXP);
        break;
    case 1:
        *a = any_value(r, dt);
        *b = from_double(dt, (double)((int)rng_below(r, 72) - 4));
        break;
    case 2:
        *a = from_double(dt, (double)((int)rng_below(r, 9) - 4));
        *b = any_value(r, dt);
        break;
    default:
        *a = any_value(r, dt);
        *b = any_value(r, dt);
        break;
    }
}

/* Division and addition: results that overflow, underflow or cancel, and
 * exact quotients. */
static void float_arith_input(rng *r, op_id op, pto_dtype dt, uint64_t *a, uint64_t *b) {
    const uint64_t max_exp = (sign_bit(dt) >> ref_frac_bits(dt)) - 1u;
    const uint64_t magnitude = ~sign_bit(dt) & (sign_bit(dt) * 2 - 1);
    switch (rng_below(r, 4)) {
    case 0: { /* a huge, b tiny, or the other way round */
        const uint64_t huge = (max_exp - 1 - rng_below(r, 3)) << ref_frac_bits(dt);
        const uint64_t tiny = (1u + rng_below(r, 3)) << ref_frac_bits(dt);
        const uint64_t low = ref_int_wrap(dt, rng_next(r)) & ((1u << ref_frac_bits(dt)) - 1u);
        *a = random_sign(r, dt) | (rng_below(r, 2) ? huge : tiny) | low;
        *b = random_sign(r, dt) | (rng_below(r, 2) ? huge : tiny) | (low ^ 1u);
        break;
    }
    case 1: /* b = -a give or take two ulp: sums that cancel */
        *a = any_value(r, dt);
        *b = (~*a & sign_bit(dt)) | (((*a & magnitude) + rng_below(r, 5) - 2) & magnitude);
        break;
    case 2:
        if (op == OP_TCOLEXPANDDIV) { /* exact quotients */
            const double k = (double)((int)rng_below(r, 65) - 32), m = (double)(1 + rng_below(r, 64));
            *a = ref_from_double(dt, k * m);
            *b = ref_from_double(dt, m);
            break;
        }
        /* fall through */
    default:
        *a = any_value(r, dt);
        *b = any_value(r, dt);
        break;
    }
}

static void random_input(rng *r, const identity_row *row, uint64_t *a, uint64_t *b) {
    const pto_dtype dt = row->dt;
    switch (row->op) {
    case OP_TPOW:
        if (ref_is_float(dt))
            float_pow_input(r, dt, a, b);
        else
            int_pow_input(r, dt, a, b);
        return;
    case OP_TRSQRT: /* half of them positive: the kernels' main path */
        *a = any_value(r, dt);
        if (rng_below(r, 2)) *a &= ~sign_bit(dt);
        *b = 0;
        return;
    case OP_TCOLEXPANDDIV:
    case OP_TPARTADD:
        if (ref_is_float(dt)) {
            float_arith_input(r, row->op, dt, a, b);
            return;
        }
        break;
    case OP_TPRELU:
        break;
    default: /* the Binary and Unary families: the arithmetic edge cases */
        if (ref_is_float(dt)) {
            float_arith_input(r, row->op, dt, a, b);
            return;
        }
        break;
    }
    *a = any_value(r, dt);
    *b = any_value(r, dt);
}

/* n inputs: every pair of edge values; with `sweep`, every pair of 8-bit
 * values or every 16-bit first operand; then random_input (edge pairs
 * first, each part cut at n). */
static void make_inputs(const identity_row *row, uint64_t *a, uint64_t *b, size_t n, bool sweep) {
    const pto_dtype dt = row->dt;
    rng r = {0x1DE0000u + (uint64_t)row->op * 64 + (uint64_t)row->dt * 4 + (uint64_t)row->algo};
    uint64_t edges[24];
    const size_t edge_count = edge_values(dt, edges);
    size_t i = 0;
    for (size_t x = 0; x < edge_count; ++x)
        for (size_t y = 0; y < edge_count && i < n; ++y, ++i) a[i] = edges[x], b[i] = edges[y];
    if (sweep && ref_bits(dt) <= 16)
        for (uint32_t k = 0; k < 0x10000u && i < n; ++k, ++i) {
            a[i] = ref_bits(dt) == 8 ? k & 0xFFu : k;
            b[i] = ref_bits(dt) == 8 ? k >> 8 : any_value(&r, dt);
        }
    for (; i < n; ++i) random_input(&r, row, &a[i], &b[i]);
    b[0] = exact_scalar(dt, b[0]); /* a Scalar row's scalar: element (0, 0) of b's tile */
}

/* ---- running and comparing ---- */

/* tcolexpanddiv divides each row by one divisor row: it runs on 2x512
 * blocks, each divided by its first 512 divisors, so that 2^19 divisors
 * meet the kernel (rather than 512). */
static void run_op(const identity_row *row, const uint64_t *a, const uint64_t *b, uint64_t *out, size_t n) {
    const size_t block = row->op == OP_TCOLEXPANDDIV && n % 1024 == 0 ? 1024 : n;
    for (size_t at = 0; at < n; at += block)
        op_run_arrays(row->op, row->dt, row->algo, a + at, b + at, out + at, block);
}

static bool same_result(pto_dtype dt, uint64_t x, uint64_t y) {
    return ref_is_float(dt) && ref_is_nan(dt, x) ? ref_is_nan(dt, y) : x == y;
}

typedef struct {
    const identity_row *row;
    size_t n;
    uint64_t *a, *b, *first, *got;
    bool *differs;                     /* some target differs from the first here */
    size_t differing[MAX_TARGETS];     /* per target, elements that differ from the first */
    char targets[MAX_TARGETS * 12];    /* "AVX2,SSE4,..." */
    const char *names[MAX_TARGETS];    /* by target_index */
    size_t examples;
    uint64_t last_a, last_b;
    size_t layout_differing[MAX_TARGETS]; /* per target, padded vs unpadded rows */
} identity_run;

#define LAYOUT_COLS 1021u
#define LAYOUT_PAD 3u

/* The first rows * LAYOUT_COLS inputs in unpadded and in padded tiles; the
 * number of elements whose results differ (NaN-ness for NaNs), with an
 * example or two. */
static size_t layout_differences(identity_run *run, const char *target) {
    const identity_row *row = run->row;
    const uint32_t rows = (uint32_t)(run->n / LAYOUT_COLS);
    const size_t n = (size_t)rows * LAYOUT_COLS;
    uint64_t *padded = run->got; /* compared already */
    uint64_t *plain = malloc(n * sizeof(uint64_t));
    assert_non_null(plain);
    op_run_rows(row->op, row->dt, row->algo, run->a, run->b, plain, rows, LAYOUT_COLS);
    op_run_padded(row->op, row->dt, row->algo, run->a, run->b, padded, rows, LAYOUT_COLS, LAYOUT_PAD);
    size_t differing = 0;
    for (size_t i = 0; i < n; ++i) {
        if (same_result(row->dt, plain[i], padded[i])) continue;
        if (differing++ < 2)
            print_message("[identity] %s on %s, layout: a=0x%" PRIx64 " b=0x%" PRIx64 ": 0x%" PRIx64 " in %u-wide tiles, 0x%" PRIx64 " in "
                          "%u-wide ones\n",
                          row->name, target, run->a[i], run->b[i], plain[i], LAYOUT_COLS, padded[i],
                          LAYOUT_COLS + LAYOUT_PAD);
    }
    free(plain);
    return differing;
}

static void run_on_target(void *ctx, size_t target_index, const char *target) {
    identity_run *run = ctx;
    const pto_dtype dt = run->row->dt;
    assert_true(target_index < MAX_TARGETS);
    if (target_index > 0) strncat(run->targets, ",", sizeof(run->targets) - strlen(run->targets) - 1);
    strncat(run->targets, target, sizeof(run->targets) - strlen(run->targets) - 1);
    run->names[target_index] = target;
    uint64_t *out = target_index == 0 ? run->first : run->got;
    run_op(run->row, run->a, run->b, out, run->n);
    for (size_t i = 0; target_index > 0 && i < run->n; ++i) {
        if (same_result(dt, run->first[i], out[i])) continue;
        run->differing[target_index]++;
        run->differs[i] = true;
        /* A few examples, each input once (the edge values recur). */
        const bool seen = run->examples != 0 && run->a[i] == run->last_a && run->b[i] == run->last_b;
        run->last_a = run->a[i], run->last_b = run->b[i];
        if (!seen && run->examples++ < 3)
            print_message("[identity] %s on %s: a=0x%" PRIx64 " (%.9g) b=0x%" PRIx64 " (%.9g): 0x%" PRIx64 ", first target 0x%" PRIx64 "\n",
                          run->row->name, target, run->a[i], ref_to_double(dt, run->a[i]), run->b[i],
                          ref_to_double(dt, run->b[i]), out[i], run->first[i]);
    }
    if (run->n >= LAYOUT_COLS) run->layout_differing[target_index] = layout_differences(run, target);
}

static void test_identity(void **state) {
    const identity_row *row = *state;
    const bool sampled = under_emulation();
    /* A reduction turns each 512-element row (column) of the inputs into one
     * result, and test_reduce checks its every order across targets: a 2^16
     * sample gives it 128 results. */
    const bool reduction = op_is_reduction(row->op);
    const bool special = op_row(row->op)->family == OP_FAMILY_SPECIAL;
    identity_run run = {.row = row,
                        .n = sampled     ? (special ? EMULATED_N : EMULATED_TABLE_N)
                             : reduction ? REDUCTION_N
                             : special   ? FULL_N
                                         : TABLE_N};
    run.a = malloc(run.n * sizeof(uint64_t));
    run.b = malloc(run.n * sizeof(uint64_t));
    run.first = malloc(run.n * sizeof(uint64_t));
    run.got = malloc(run.n * sizeof(uint64_t));
    run.differs = calloc(run.n, sizeof(bool));
    assert_true(run.a && run.b && run.first && run.got && run.differs);
    /* A sample (under emulation, and the reductions') takes the edge pairs
     * and random inputs; the full runs sweep the 8- and 16-bit inputs too. */
    make_inputs(row, run.a, run.b, run.n, !sampled && !reduction);

    for_each_target(row->name, run_on_target, &run);

    size_t differing = 0;
    for (size_t i = 0; i < run.n; ++i) differing += run.differs[i];
    char per_target[MAX_TARGETS * 24] = "";
    for (size_t t = 1; t < MAX_TARGETS; ++t)
        if (run.differing[t] != 0)
            snprintf(per_target + strlen(per_target), sizeof(per_target) - strlen(per_target), " %s:%zu",
                     run.names[t], run.differing[t]);
    const row_policy p = policy(row);
    print_message("[identity] %s n=%zu%s targets=%s differing=%zu%s%s%s\n", row->name, run.n,
                  sampled          ? " (sample: under emulation)"
                  : reduction      ? " (sample: a reduction, see test_reduce)"
                  : run.n < FULL_N ? " (the edge pairs, the 8/16-bit sweep, random inputs)"
                                   : "",
                  run.targets, differing,
                  differing != 0 ? " (vs first target:" : "", per_target, differing != 0 ? ")" : "");
    if (p == NOT_PROMISED)
        print_message("[identity] %s: not enforced (DEFAULT promises an error bound, not the same bits)\n",
                      row->name);
    size_t layout_differing = 0;
    for (size_t t = 0; t < MAX_TARGETS; ++t) layout_differing += run.layout_differing[t];
    print_message("[identity] %s layout: %u-wide rows in %u- and %u-wide tiles on %s: %zu differ\n",
                  row->name, LAYOUT_COLS, LAYOUT_COLS, LAYOUT_COLS + LAYOUT_PAD, run.targets,
                  layout_differing);
    free(run.a), free(run.b), free(run.first), free(run.got), free(run.differs);
    if (p == ENFORCED && differing != 0)
        fail_msg("%s: %zu of %zu results differ between SIMD targets", row->name, differing, run.n);
    if (layout_differing != 0)
        fail_msg("%s: %zu results differ between padded and unpadded tiles", row->name, layout_differing);
}

/* ---- the rows: every (op, dtype[, algo]) that HOST accepts ---- */

static const pto_dtype kAllDtypes[] = {PTO_FLOAT32, PTO_FLOAT16, PTO_BFLOAT16, PTO_INT8,  PTO_UINT8, PTO_INT16,
                                       PTO_UINT16,  PTO_INT32,   PTO_UINT32,   PTO_INT64, PTO_UINT64};
static const pto_dtype kFloatDtypes[] = {PTO_FLOAT32, PTO_FLOAT16, PTO_BFLOAT16};
static const pto_dtype kF32F16[] = {PTO_FLOAT32, PTO_FLOAT16};

static identity_row rows[64 + TEST_DTYPE_COUNT * OP_COUNT];
static size_t row_count;

/* The rows of op for the dtypes of dts that HOST accepts. */
static void add_rows(op_id op, pto_pow_algorithm algo, const pto_dtype *dts, size_t n) {
    for (size_t i = 0; i < n; ++i) {
        if (!op_accepts(op, PTO_PROFILE_HOST, dts[i])) continue;
        assert_true(row_count < COUNT(rows));
        identity_row *row = &rows[row_count++];
        *row = (identity_row){op, dts[i], algo, ""};
        snprintf(row->name, sizeof(row->name), "%s %s%s", op_name(op) + 4, pto_dtype_string(dts[i]),
                 op != OP_TPOW ? "" : algo == PTO_POW_HIGH_PRECISION ? " HIGH_PRECISION" : " DEFAULT");
    }
}

int main(void) {
    add_rows(OP_TPOW, PTO_POW_HIGH_PRECISION, kFloatDtypes, COUNT(kFloatDtypes));
    add_rows(OP_TPOW, PTO_POW_DEFAULT, kAllDtypes, COUNT(kAllDtypes));
    add_rows(OP_TRSQRT, PTO_POW_DEFAULT, kF32F16, COUNT(kF32F16));
    add_rows(OP_TPRELU, PTO_POW_DEFAULT, kAllDtypes, COUNT(kAllDtypes));
    add_rows(OP_TCOLEXPANDDIV, PTO_POW_DEFAULT, kF32F16, COUNT(kF32F16));
    add_rows(OP_TPARTADD, PTO_POW_DEFAULT, kAllDtypes, COUNT(kAllDtypes));
    for (int op = 0; op < OP_COUNT; ++op) { /* every other row, every HOST dtype */
        if (op_row((op_id)op)->family == OP_FAMILY_SPECIAL) continue;
        /* A broadcast's lanes are the Binary functors' (rows above, every
         * dtype): its driver is checked in float32, *expdif in each dtype. */
        const bool own_math = op == OP_TROWEXPANDEXPDIF || op == OP_TCOLEXPANDEXPDIF;
        for (size_t i = 0; i < COUNT(kAllDtypes); ++i)
            if (op_accepts((op_id)op, PTO_PROFILE_HOST, kAllDtypes[i]) &&
                (!op_is_broadcast((op_id)op) || own_math || kAllDtypes[i] == PTO_FLOAT32))
                add_rows((op_id)op, PTO_POW_DEFAULT, &kAllDtypes[i], 1);
    }
    struct CMUnitTest tests[row_count];
    for (size_t i = 0; i < row_count; ++i)
        tests[i] = (struct CMUnitTest){rows[i].name, test_identity, NULL, NULL, &rows[i]};
    print_message("[identity] each target's results against the first target's, bit for bit "
                  "(NaN results: NaN-ness only)\n");
    return cmocka_run_group_tests_name("identity", tests, NULL, NULL);
}
