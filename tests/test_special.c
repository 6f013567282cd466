/* Special cases, checked on every SIMD target: the C99 Annex F table of pow
 * (bitwise where Annex F or IEEE decides the result, sign of zero included),
 * results that HIGH_PRECISION must deliver exactly, trsqrt at the edges, and
 * integer pow for all six integer types (wrap-around, negative exponents,
 * 0^0, huge exponents). */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/harness.h"

#define MAX_CASES 70000

typedef struct {
    pto_dtype dt;
    pto_pow_algorithm algo;
} config;

static const config kFloatPowConfigs[] = {
    {PTO_FLOAT32, PTO_POW_HIGH_PRECISION}, {PTO_FLOAT32, PTO_POW_DEFAULT},
    {PTO_FLOAT16, PTO_POW_HIGH_PRECISION}, {PTO_FLOAT16, PTO_POW_DEFAULT},
    {PTO_BFLOAT16, PTO_POW_HIGH_PRECISION}, {PTO_BFLOAT16, PTO_POW_DEFAULT},
};

/* Whether a case must match the reference bit for bit (NaN: any NaN). */
typedef bool (*strict_rule)(const config *c, uint32_t a, uint32_t b, uint32_t expected);

typedef struct {
    op_id op;
    config cfg;
    uint64_t a[MAX_CASES], b[MAX_CASES], got[MAX_CASES];
    size_t n;
    strict_rule strict;
    const char *what;
} case_set;

static void add_case(case_set *s, uint32_t a, uint32_t b) {
    assert_true(s->n < MAX_CASES);
    s->a[s->n] = a;
    s->b[s->n] = b;
    s->n++;
}

static void check_case_set(case_set *s, const char *target) {
    const pto_dtype dt = s->cfg.dt;
    op_run_arrays(s->op, dt, s->cfg.algo, s->a, s->b, s->got, s->n);
    size_t failures = 0;
    for (size_t i = 0; i < s->n; ++i) {
        const uint64_t want = op_reference(s->op, dt, s->a[i], s->b[i]);
        const bool strict = s->strict != NULL && s->strict(&s->cfg, s->a[i], s->b[i], want);
        const bool ok = strict ? (ref_is_nan(dt, want) ? ref_is_nan(dt, s->got[i]) : s->got[i] == want)
                               : within_tolerance(dt, op_tolerance(s->op, dt, s->cfg.algo, want), want,
                                                  s->got[i]);
        if (!ok && ++failures <= 24)
            print_error("%s %s %s algo %d on %s: a=0x%" PRIx64 " (%g) b=0x%" PRIx64 " (%g): got 0x%" PRIx64 " (%g), expected "
                        "0x%" PRIx64 " (%g)%s\n",
                        s->what, op_name(s->op), pto_dtype_string(dt), (int)s->cfg.algo, target, s->a[i],
                        ref_to_double(dt, s->a[i]), s->b[i], ref_to_double(dt, s->b[i]), s->got[i],
                        ref_to_double(dt, s->got[i]), want, ref_to_double(dt, want),
                        strict ? " bitwise" : "");
    }
    if (failures != 0)
        fail_msg("%s: %zu of %zu cases wrong for %s %s algo %d on %s", s->what, failures, s->n,
                 op_name(s->op), pto_dtype_string(dt), (int)s->cfg.algo, target);
}

static uint32_t encode_exactly(pto_dtype dt, double v) {
    const uint32_t bits = ref_from_double(dt, v);
    const double back = ref_to_double(dt, bits);
    if (!(isnan(v) ? isnan(back) : back == v && signbit(back) == signbit(v)))
        fail_msg("test value %a is not a %s", v, pto_dtype_string(dt));
    return bits;
}

/* ---- pow: the Annex F table ---- */

static bool annex_f_decides(const config *c, uint32_t a, uint32_t b, uint32_t expected) {
    const double x = ref_to_double(c->dt, a), y = ref_to_double(c->dt, b);
    const double r = ref_to_double(c->dt, expected);
    if (x == 0 || isinf(x) || isnan(x) || fabs(x) == 1 || y == 0 || isinf(y) || isnan(y)) return true;
    if (r == 0 || isinf(r) || isnan(r)) return true; /* NaN, or overflow/underflow with its sign */
    /* HIGH_PRECISION float32 is exact whenever the exact result is representable. */
    const double exact = pow(x, y);
    return c->dt == PTO_FLOAT32 && c->algo == PTO_POW_HIGH_PRECISION && (double)(float)exact == exact;
}

static void annex_f_cases(case_set *s) {
    const pto_dtype dt = s->cfg.dt;
    const double tiny = ref_to_double(dt, 1), huge = ref_to_double(dt, ref_from_double(dt, INFINITY) - 1);
    const double big_odd = dt == PTO_FLOAT32 ? 16777215.0 : dt == PTO_FLOAT16 ? 2047.0 : 255.0;
    const double xs[] = {0.0, -0.0, INFINITY, -INFINITY, NAN, -NAN, 1.0, -1.0, 0.5, -0.5, 2.0, -2.0,
                         3.0, -3.0, 1.5, -1.5, 0.75, -0.75, tiny, -tiny, huge, -huge};
    const double ys[] = {0.0, -0.0, INFINITY, -INFINITY, NAN, 1.0, -1.0, 2.0, -2.0, 3.0, -3.0, 4.0,
                         5.0, -5.0, 0.5, -0.5, 1.5, -1.5, 0.25, big_odd, -big_odd, big_odd + 1,
                         -(big_odd + 1), huge, -huge, tiny, -tiny};
    for (size_t i = 0; i < COUNT(xs); ++i)
        for (size_t j = 0; j < COUNT(ys); ++j) add_case(s, encode_exactly(dt, xs[i]), encode_exactly(dt, ys[j]));
}

/* The table's expectations are std::pow's: spot-check the reference itself. */
static void test_reference_pow_semantics(void **state) {
    (void)state;
    static const struct {
        double x, y, r;
    } kAnnexF[] = {
        {0.0, -3, INFINITY}, {-0.0, -3, -INFINITY}, {-0.0, -2, INFINITY}, {-0.0, 3, -0.0},
        {-0.0, 2, 0.0},      {-1, INFINITY, 1},     {-1, -INFINITY, 1},   {1, NAN, 1},
        {NAN, 0.0, 1},       {NAN, -0.0, 1},        {0.5, -INFINITY, INFINITY}, {2, -INFINITY, 0},
        {0.5, INFINITY, 0},  {2, INFINITY, INFINITY}, {-INFINITY, -3, -0.0}, {-INFINITY, -2, 0.0},
        {-INFINITY, 3, -INFINITY}, {-INFINITY, 2, INFINITY}, {INFINITY, -0.5, 0.0}, {-2, 3, -8},
        {-0.0, 0.5, 0.0},    {-0.0, -0.5, INFINITY}, {-INFINITY, 0.5, INFINITY},
    };
    for (size_t i = 0; i < COUNT(kAnnexF); ++i) {
        const uint32_t got = ref_pow(PTO_FLOAT32, ref_from_double(PTO_FLOAT32, kAnnexF[i].x),
                                     ref_from_double(PTO_FLOAT32, kAnnexF[i].y));
        assert_int_equal(got, ref_from_double(PTO_FLOAT32, kAnnexF[i].r));
    }
    assert_true(isnan(ref_to_double(PTO_FLOAT16, ref_pow(PTO_FLOAT16, ref_from_double(PTO_FLOAT16, -2),
                                                             ref_from_double(PTO_FLOAT16, 0.5)))));
}

/* ---- pow: results HIGH_PRECISION must hit exactly ---- */

static void exact_cases(case_set *s) {
    const pto_dtype dt = s->cfg.dt;
    for (int k = -149; k <= 127; ++k) add_case(s, encode_exactly(dt, 2.0), encode_exactly(dt, k));
    for (int k = -126; k <= 126; k += 5) add_case(s, encode_exactly(dt, 0.5), encode_exactly(dt, k));
    for (int k = 0; k <= 15; ++k) {
        add_case(s, encode_exactly(dt, 3.0), encode_exactly(dt, k));
        add_case(s, encode_exactly(dt, -3.0), encode_exactly(dt, k));
    }
    for (int k = 0; k <= 10; ++k) {
        add_case(s, encode_exactly(dt, 5.0), encode_exactly(dt, k));
        add_case(s, encode_exactly(dt, 10.0), encode_exactly(dt, k));
        add_case(s, encode_exactly(dt, -0.25), encode_exactly(dt, -k));
    }
    static const double kRoots[][2] = {{4, 0.5}, {16, 0.25}, {9, 1.5}, {0.25, -1.5}, {1.5, 2},
                                       {1.25, 3}, {81, 0.25}, {256, 0.125}, {0x1p-100, 0.5},
                                       {0x1p100, -0.25}, {0x1p-140, 0.75}, {6.25, 0.5}, {-1.5, 5}};
    for (size_t i = 0; i < COUNT(kRoots); ++i)
        add_case(s, encode_exactly(dt, kRoots[i][0]), encode_exactly(dt, kRoots[i][1]));
    for (int v = 1; v < 4096; v += 3) add_case(s, encode_exactly(dt, v), encode_exactly(dt, 2));
    for (int v = 1; v < 256; ++v) add_case(s, encode_exactly(dt, -v), encode_exactly(dt, 3));
}

static bool always(const config *c, uint32_t a, uint32_t b, uint32_t expected) {
    (void)c, (void)a, (void)b, (void)expected;
    return true;
}

typedef struct {
    case_set *set;
} special_ctx;

/* Runs body on every target with a scratch case_set (too large for the stack). */
static void for_each_target_with_cases(const char *name, target_body body) {
    special_ctx ctx = {calloc(1, sizeof(case_set))};
    assert_non_null(ctx.set);
    for_each_target(name, body, &ctx);
    free(ctx.set);
}

static void pow_tables_body(void *ctx, size_t target_index, const char *target) {
    (void)target_index;
    case_set *s = ((special_ctx *)ctx)->set;
    for (size_t c = 0; c < COUNT(kFloatPowConfigs); ++c) {
        s->op = OP_TPOW;
        s->cfg = kFloatPowConfigs[c];
        s->n = 0;
        s->strict = annex_f_decides;
        s->what = "Annex F table";
        annex_f_cases(s);
        check_case_set(s, target);
        print_message("[pow special] %-8s %-14s %-6s %zu Annex F cases ok\n", pto_dtype_string(s->cfg.dt),
                      s->cfg.algo ? "HIGH_PRECISION" : "DEFAULT", target, s->n);
    }
    s->cfg = (config){PTO_FLOAT32, PTO_POW_HIGH_PRECISION};
    s->n = 0;
    s->strict = always;
    s->what = "exact results";
    exact_cases(s);
    check_case_set(s, target);
    print_message("[pow exact]   float32  HIGH_PRECISION %-6s %zu exactly representable results exact\n",
                  target, s->n);
}

static void test_pow_special_cases(void **state) {
    (void)state;
    for_each_target_with_cases("pow Annex F table and exact results", pow_tables_body);
}

/* ---- pow: an element's result does not depend on its neighbours ---- */

/* Elements that leave the float fast paths' range: a negative base, zero,
 * subnormal, infinite and NaN operands, results that overflow or underflow. */
static const double kSlowNeighbours[][2] = {{-2, 3}, {0, 2}, {0x1p-140, 0.5}, {1e30, 5},
                                            {3, -200}, {INFINITY, 1}, {NAN, 2}, {-0.5, 0.5}};

/* Each probe (a positive base and an exponent in the fast range) runs in a
 * row of copies of itself, then at every position of a row of the elements
 * above; its result must keep the same bits. DEFAULT has two paths whose
 * results differ in their last bits, and a vector with one slow element
 * takes the slower one: pto_c.h promises that the others do not notice. */
static void pow_neighbours_body(void *ctx, size_t target_index, const char *target) {
    (void)ctx, (void)target_index;
    enum { W = 37, PROBES = 256 }; /* W: several vectors and a row tail on every target */
    static const pto_pow_algorithm kAlgos[] = {PTO_POW_DEFAULT, PTO_POW_HIGH_PRECISION};
    static uint64_t a[W * W], b[W * W], out[W * W];
    uint64_t alone[W];
    for (size_t g = 0; g < COUNT(kAlgos); ++g) {
        rng r = {0x4E16B0u};
        for (int p = 0; p < PROBES; ++p) {
            const uint32_t x = ref_from_double(PTO_FLOAT32, exp2(-6 + 12 * rng_unit(&r)));
            const uint32_t y = ref_from_double(PTO_FLOAT32, -8 + 16 * rng_unit(&r));
            for (size_t i = 0; i < W; ++i) a[i] = x, b[i] = y;
            op_run_rows(OP_TPOW, PTO_FLOAT32, kAlgos[g], a, b, alone, 1, W);
            for (size_t row = 0; row < W; ++row)
                for (size_t col = 0; col < W; ++col) {
                    const double *n = kSlowNeighbours[(row + col) % COUNT(kSlowNeighbours)];
                    a[row * W + col] = row == col ? x : ref_from_double(PTO_FLOAT32, n[0]);
                    b[row * W + col] = row == col ? y : ref_from_double(PTO_FLOAT32, n[1]);
                }
            op_run_rows(OP_TPOW, PTO_FLOAT32, kAlgos[g], a, b, out, W, W);
            for (size_t i = 0; i < W; ++i) {
                if (alone[i] == alone[0] && out[i * W + i] == alone[0]) continue;
                fail_msg("tpow float32 %s on %s: x=%.9g y=%.9g gives 0x%x among copies of itself, "
                         "0x%x at position %zu among slow elements (first copy: 0x%x)",
                         kAlgos[g] ? "HIGH_PRECISION" : "DEFAULT", target, ref_to_double(PTO_FLOAT32, x),
                         ref_to_double(PTO_FLOAT32, y), alone[i], out[i * W + i], i, alone[0]);
            }
        }
        print_message("[pow neighbours] float32  %-14s %-6s %d probes at %d positions: same bits\n",
                      kAlgos[g] ? "HIGH_PRECISION" : "DEFAULT", target, PROBES, W);
    }
}

static void test_pow_independent_of_neighbours(void **state) {
    (void)state;
    for_each_target("pow results independent of neighbouring elements", pow_neighbours_body, NULL);
}

/* ---- trsqrt at the edges ---- */

static bool rsqrt_edge(const config *c, uint32_t a, uint32_t b, uint32_t expected) {
    (void)b, (void)expected;
    const double x = ref_to_double(c->dt, a);
    return !(x > 0) || isinf(x);
}

static void rsqrt_body(void *ctx, size_t target_index, const char *target) {
    (void)target_index;
    case_set *s = ((special_ctx *)ctx)->set;
    static const pto_dtype kTypes[] = {PTO_FLOAT32, PTO_FLOAT16};
    for (size_t k = 0; k < COUNT(kTypes); ++k) {
        const pto_dtype dt = kTypes[k];
        *s = (case_set){.op = OP_TRSQRT, .cfg = {dt, PTO_POW_DEFAULT}, .strict = rsqrt_edge,
                        .what = "trsqrt edges"};
        uint64_t specials[16];
        const size_t n = float_specials(dt, specials);
        for (size_t i = 0; i < n; ++i) add_case(s, specials[i], 0);
        static const double kValues[] = {-1.0, -0x1p-20, 1.0, 4.0, 0.25, 16.0, 2.0, 0.5, 3.0, 0x1p-14, 0x1p-24};
        for (size_t i = 0; i < COUNT(kValues); ++i) add_case(s, encode_exactly(dt, kValues[i]), 0);
        for (uint32_t sub = 1; sub < (dt == PTO_FLOAT16 ? 0x400u : 0x800000u); sub = sub * 3 + 1)
            add_case(s, sub, 0); /* subnormals */
        check_case_set(s, target);
        /* IEEE: +0 -> +inf, -0 -> -inf, +inf -> +0, negative -> NaN. */
        assert_int_equal(s->got[0], ref_from_double(dt, INFINITY));
        assert_int_equal(s->got[1], ref_from_double(dt, -INFINITY));
        assert_int_equal(s->got[2], 0);
        assert_true(ref_is_nan(dt, s->got[3]) && ref_is_nan(dt, s->got[4]));
        print_message("[trsqrt edges] %-8s %-6s %zu cases ok\n", pto_dtype_string(dt), target, s->n);
    }
}

static void test_trsqrt_edges(void **state) {
    (void)state;
    for_each_target_with_cases("trsqrt edge cases", rsqrt_body);
}

/* ---- integer pow ---- */

typedef struct {
    pto_dtype dt;
    int64_t base, exp;
    uint32_t expected; /* bit pattern of the wrapped result */
} int_pow_case;

static const int_pow_case kIntPow[] = {
    {PTO_INT8, 2, 7, 0x80},       {PTO_INT8, 2, 8, 0},           {PTO_INT8, 3, 5, 0xF3},
    {PTO_INT8, -2, 7, 0x80},      {PTO_INT8, -3, 3, 0xE5},       {PTO_INT8, 0, 0, 1},
    {PTO_INT8, 0, -1, 0},         {PTO_INT8, 1, -5, 1},          {PTO_INT8, -1, -3, 0xFF},
    {PTO_INT8, -1, -4, 1},        {PTO_INT8, 2, -1, 0},          {PTO_INT8, -2, -2, 0},
    {PTO_INT8, -128, 0, 1},       {PTO_INT8, -128, 2, 0},        {PTO_INT8, 127, 2, 1},
    {PTO_INT8, -3, 127, 0x55},    {PTO_INT8, -1, -128, 1},       {PTO_INT8, -1, 127, 0xFF},
    {PTO_INT8, 0, 127, 0},        {PTO_INT8, 5, -128, 0},
    {PTO_UINT8, 2, 8, 0},         {PTO_UINT8, 3, 5, 0xF3},       {PTO_UINT8, 255, 2, 1},
    {PTO_UINT8, 255, 3, 255},     {PTO_UINT8, 0, 0, 1},          {PTO_UINT8, 16, 2, 0},
    {PTO_UINT8, 7, 255, 0xB7},    {PTO_UINT8, 1, 255, 1},        {PTO_UINT8, 0, 255, 0},
    {PTO_INT16, 2, 15, 0x8000},   {PTO_INT16, 3, 10, 0xE6A9},    {PTO_INT16, -1, 32767, 0xFFFF},
    {PTO_INT16, 2, 16, 0},        {PTO_INT16, 10, 5, 0x86A0},    {PTO_INT16, 3, 41, 0xB863},
    {PTO_INT16, -7, 32767, 0x9249}, {PTO_INT16, 0, 0, 1},        {PTO_INT16, -1, -32768, 1},
    {PTO_INT16, 7, -1, 0},        {PTO_INT16, -32768, 1, 0x8000},
    {PTO_UINT16, 65535, 2, 1},    {PTO_UINT16, 256, 2, 0},       {PTO_UINT16, 3, 10, 0xE6A9},
    {PTO_UINT16, 5, 65535, 0xCCCD}, {PTO_UINT16, 0, 0, 1},       {PTO_UINT16, 2, 65535, 0},
    {PTO_INT32, 2, 31, 0x80000000u}, {PTO_INT32, 3, 20, 0xCFD41B91u}, {PTO_INT32, -3, 21, 0x9083AD4Du},
    {PTO_INT32, 7, 13, 0x8F08F8E7u}, {PTO_INT32, -5, 27, 0x05EFF863u}, {PTO_INT32, 3, 2147483647, 0xAAAAAAABu},
    {PTO_INT32, 2, 32, 0},        {PTO_INT32, -1, 2147483647, 0xFFFFFFFFu}, {PTO_INT32, -1, -2147483647 - 1, 1},
    {PTO_INT32, 1, -2147483647 - 1, 1}, {PTO_INT32, 0, -2147483647 - 1, 0}, {PTO_INT32, 0, 0, 1},
    {PTO_INT32, -2147483647 - 1, 1, 0x80000000u}, {PTO_INT32, -2147483647 - 1, 2, 0},
    {PTO_UINT32, 2, 32, 0},       {PTO_UINT32, 3, 20, 0xCFD41B91u}, {PTO_UINT32, 3, 4294967295, 0xAAAAAAABu},
    {PTO_UINT32, 4294967295, 4294967295, 0xFFFFFFFFu}, {PTO_UINT32, 0, 0, 1}, {PTO_UINT32, 65536, 2, 0},
};

static void test_reference_int_pow(void **state) {
    (void)state;
    for (size_t i = 0; i < COUNT(kIntPow); ++i) {
        const int_pow_case *c = &kIntPow[i];
        const uint32_t got = ref_pow(c->dt, ref_int_wrap(c->dt, (uint64_t)c->base), ref_int_wrap(c->dt, (uint64_t)c->exp));
        if (got != c->expected)
            fail_msg("reference %s %lld^%lld = 0x%x, expected 0x%x", pto_dtype_string(c->dt),
                     (long long)c->base, (long long)c->exp, got, c->expected);
    }
}

/* The literal table, then: 8-bit types exhaustively; 16/32-bit types small
 * bases against many exponents, and random pairs. */
static void int_pow_cases(case_set *s, rng *r) {
    const pto_dtype dt = s->cfg.dt;
    for (size_t i = 0; i < COUNT(kIntPow); ++i)
        if (kIntPow[i].dt == dt)
            add_case(s, ref_int_wrap(dt, (uint64_t)kIntPow[i].base), ref_int_wrap(dt, (uint64_t)kIntPow[i].exp));
    if (ref_bits(dt) == 8) {
        for (uint32_t a = 0; a < 256; ++a)
            for (uint32_t b = 0; b < 256; ++b) add_case(s, a, b);
        return;
    }
    for (int64_t base = -9; base <= 9; ++base)
        for (int64_t e = -5; e <= 70; ++e) add_case(s, ref_int_wrap(dt, (uint64_t)base), ref_int_wrap(dt, (uint64_t)e));
    while (s->n < 30000) {
        add_case(s, gen_value(r, dt, GEN_POW_BASE), gen_value(r, dt, GEN_POW_EXP));
        add_case(s, gen_value(r, dt, GEN_ANY), gen_value(r, dt, GEN_ANY));
    }
}

static void int_pow_body(void *ctx, size_t target_index, const char *target) {
    case_set *s = ((special_ctx *)ctx)->set;
    static const pto_dtype kTypes[] = {PTO_INT8, PTO_UINT8, PTO_INT16, PTO_UINT16, PTO_INT32, PTO_UINT32};
    for (size_t k = 0; k < COUNT(kTypes); ++k) {
        rng r = {500 + target_index * 16 + k};
        *s = (case_set){.op = OP_TPOW, .cfg = {kTypes[k], PTO_POW_DEFAULT}, .strict = always,
                        .what = "integer pow"};
        int_pow_cases(s, &r);
        check_case_set(s, target);
        print_message("[int pow] %-6s %-6s %zu cases exact\n", pto_dtype_string(kTypes[k]), target, s->n);
    }
}

static void test_integer_pow(void **state) {
    (void)state;
    for_each_target_with_cases("integer pow (6 dtypes)", int_pow_body);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reference_pow_semantics),
        cmocka_unit_test(test_reference_int_pow),
        cmocka_unit_test(test_trsqrt_edges),
        cmocka_unit_test(test_integer_pow),
        cmocka_unit_test(test_pow_special_cases),
        cmocka_unit_test(test_pow_independent_of_neighbours),
    };
    return cmocka_run_group_tests_name("special", tests, NULL, NULL);
}
