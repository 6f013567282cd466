/* TPOWS, pto_tpows(dst, base, exp, algo): on every target, every dtype and
 * algorithm its profile accepts, exponents of every kind (small integers,
 * halves, fractions, huge, infinities, NaN) and shapes that take each path
 * of the call (a contiguous region longer and shorter than the exponent
 * chunk, padded rows wider than it, in place), its results are pto_tpow's
 * with exp (rounded once to the dtype) in every element of an exponent tile,
 * bit for bit;
 * A2A3 computes HIGH_PRECISION as DEFAULT; the rules in the contract's order
 * with their messages; the three text forms against the C call. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/harness.h"

static bool same_result(pto_dtype dt, uint32_t want, uint32_t got) {
    return want == got || (ref_is_nan(dt, want) && ref_is_nan(dt, got));
}

typedef struct {
    uint32_t rows, cols, valid_rows, valid_cols;
} shape;

/* 1x1; a contiguous 64x64 region (eight 512-element rows of the exponent
 * chunk) and a contiguous 3x300 one (one chunk and a partial one); padded
 * rows 5x37 in 6x40, and 2x1100 in 3x1104 (three chunks a row). */
static const shape kShapes[] = {
    {1, 1, 1, 1}, {64, 64, 64, 64}, {3, 300, 3, 300}, {6, 40, 5, 37}, {3, 1104, 2, 1100},
};

static const double kIntExponents[] = {0, 1, 2, 3, 5, 7, -1, -2};
static const double kFloatExponents[] = {0,   1,    2,    3,    -1,  -2,       0.5,       -0.5,
                                         2.5, 1.0 / 3, 10.25, -7.75, 1e10, INFINITY, -INFINITY, NAN};

/* pto_tpows against pto_tpow with the exponent tile on one shape; returns
 * the number of elements compared. */
static size_t compare_with_tpow(pto_dtype dt, pto_pow_algorithm algo, double exp, const shape *s,
                                rng *r, const char *target) {
    pto_tile *base = tile_new(dt, s->rows, s->cols, s->valid_rows, s->valid_cols);
    pto_tile *dst = tile_new(dt, s->rows, s->cols, s->valid_rows, s->valid_cols);
    pto_tile *want = tile_new(dt, s->rows, s->cols, s->valid_rows, s->valid_cols);
    pto_tile *e = tile_new(dt, s->rows, s->cols, s->valid_rows, s->valid_cols);
    pto_tile *tmp = tile_new(dt, s->rows, s->cols, s->valid_rows, s->valid_cols);
    tile_fill(base, r, ref_is_float(dt) ? GEN_POW_BASE : GEN_ANY);
    tile_fill(dst, r, GEN_ANY);
    uint64_t *before = tile_snapshot(dst);
    /* The exponent's element: the scalar rounded once (ref_from_double
     * rounds to nearest even; integers are exact). */
    const uint32_t bits = ref_from_double(dt, exp);
    for (uint32_t i = 0; i < s->rows; ++i)
        for (uint32_t j = 0; j < s->cols; ++j)
            ref_store(dt, pto_tile_data(e), (size_t)i * s->cols + j, bits);
    assert_int_equal(pto_tpow(want, base, e, tmp, algo), PTO_OK);
    const pto_status st = pto_tpows(dst, base, exp, algo);
    if (st != PTO_OK)
        fail_msg("tpows %s exp %g on %s: %s (%s)", pto_dtype_string(dt), exp, target,
                 pto_status_string(st), pto_last_error());
    for (uint32_t i = 0; i < s->rows; ++i)
        for (uint32_t j = 0; j < s->cols; ++j) {
            const uint32_t got = tile_get(dst, i, j);
            if (i >= s->valid_rows || j >= s->valid_cols) {
                if (got != before[(size_t)i * s->cols + j])
                    fail_msg("tpows wrote (%u,%u) outside dst's valid region", i, j);
                continue;
            }
            const uint32_t w = tile_get(want, i, j);
            if (!same_result(dt, w, got))
                fail_msg("tpows %s %s exp %g on %s, %ux%u: (%u,%u) base 0x%x gives 0x%x, tpow 0x%x",
                         pto_dtype_string(dt), algo ? "HIGH_PRECISION" : "DEFAULT", exp, target,
                         s->valid_rows, s->valid_cols, i, j, tile_get(base, i, j), got, w);
        }
    /* In place: dst the base itself. */
    assert_int_equal(pto_tpows(base, base, exp, algo), PTO_OK);
    for (uint32_t i = 0; i < s->valid_rows; ++i)
        for (uint32_t j = 0; j < s->valid_cols; ++j)
            if (!same_result(dt, tile_get(want, i, j), tile_get(base, i, j)))
                fail_msg("tpows in place %s exp %g: (%u,%u) differs", pto_dtype_string(dt), exp, i, j);
    free(before);
    pto_tile_destroy(base), pto_tile_destroy(dst), pto_tile_destroy(want);
    pto_tile_destroy(e), pto_tile_destroy(tmp);
    return (size_t)s->valid_rows * s->valid_cols;
}

static void values_body(void *ctx, size_t target_index, const char *target) {
    size_t *compared = ctx;
    rng r = {0x7B0450u + target_index};
    for (int dt = PTO_INT8; dt <= PTO_FLOAT32; ++dt)
        for (int algo = PTO_POW_DEFAULT; algo <= PTO_POW_HIGH_PRECISION; ++algo) {
            if (algo == PTO_POW_HIGH_PRECISION && !ref_is_float((pto_dtype)dt)) continue;
            const bool fl = ref_is_float((pto_dtype)dt);
            const double *exps = fl ? kFloatExponents : kIntExponents;
            const size_t n = fl ? COUNT(kFloatExponents) : COUNT(kIntExponents);
            for (size_t k = 0; k < n; ++k)
                for (size_t s = 0; s < COUNT(kShapes); ++s) {
                    /* an unsigned dtype has no negative exponent (test_rules) */
                    if (!fl && !ref_is_signed((pto_dtype)dt) && exps[k] < 0) continue;
                    /* The large shapes with a few exponents only (under emulation: the small ones). */
                    if (s != 0 && s != 3 && (k % 4 != 0 || under_emulation())) continue;
                    *compared += compare_with_tpow((pto_dtype)dt, (pto_pow_algorithm)algo, exps[k],
                                                   &kShapes[s], &r, target);
                }
        }
}

static void test_values_are_tpow_s(void **state) {
    (void)state;
    size_t compared = 0;
    for_each_target("tpows against tpow with the exponent in every element", values_body, &compared);
    print_message("[tpows] %zu elements equal to tpow's, bit for bit\n", compared);
    assert_true(compared > 0);
}

/* A2A3: HIGH_PRECISION is accepted where DEFAULT is and computes DEFAULT's
 * bits; FLOAT16 refused; A5 refuses HIGH_PRECISION on integers. */
static void test_profiles(void **state) {
    (void)state;
    rng r = {0xA2A3};
    pto_tile *b = tile_new(PTO_FLOAT32, 4, 33, 4, 33), *d1 = tile_new(PTO_FLOAT32, 4, 33, 4, 33);
    pto_tile *d2 = tile_new(PTO_FLOAT32, 4, 33, 4, 33);
    tile_fill(b, &r, GEN_POW_BASE);
    assert_int_equal(pto_tpows(d1, b, 2.75, PTO_POW_DEFAULT), PTO_OK);
    assert_int_equal(pto_set_profile(PTO_PROFILE_A2A3), PTO_OK);
    assert_int_equal(pto_tpows(d2, b, 2.75, PTO_POW_HIGH_PRECISION), PTO_OK);
    for (uint32_t i = 0; i < 4; ++i)
        for (uint32_t j = 0; j < 33; ++j)
            assert_true(same_result(PTO_FLOAT32, tile_get(d1, i, j), tile_get(d2, i, j)));
    pto_tile *h = tile_new(PTO_FLOAT16, 2, 16, 2, 16), *i32 = tile_new(PTO_INT32, 2, 16, 2, 16);
    assert_int_equal(pto_tpows(h, h, 2, PTO_POW_DEFAULT), PTO_ERR_UNSUPPORTED_DTYPE);
    assert_non_null(strstr(pto_last_error(), "A2A3"));
    assert_int_equal(pto_tpows(i32, i32, 2, PTO_POW_HIGH_PRECISION), PTO_OK); /* ignored there */
    assert_int_equal(pto_set_profile(PTO_PROFILE_A5), PTO_OK);
    assert_int_equal(pto_tpows(h, h, 2, PTO_POW_HIGH_PRECISION), PTO_OK);
    assert_int_equal(pto_tpows(i32, i32, 2, PTO_POW_HIGH_PRECISION), PTO_ERR_UNSUPPORTED_DTYPE);
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    pto_tile_destroy(b), pto_tile_destroy(d1), pto_tile_destroy(d2);
    pto_tile_destroy(h), pto_tile_destroy(i32);
}

static void expect(pto_status got, pto_status want, const char *says) {
    if (got != want)
        fail_msg("got %s, want %s (%s)", pto_status_string(got), pto_status_string(want), pto_last_error());
    if (got != PTO_OK && strstr(pto_last_error(), says) == NULL)
        fail_msg("\"%s\" does not say \"%s\"", pto_last_error(), says);
    if (got != PTO_OK) assert_non_null(strstr(pto_last_error(), "pto_tpows"));
}

/* The rules in the contract's order: each call breaks the rule under test
 * and every later one, so that only the order can give its status. */
static void test_rules(void **state) {
    (void)state;
    pto_tile *f = tile_new(PTO_FLOAT32, 4, 8, 4, 8), *g = tile_new(PTO_FLOAT32, 4, 8, 4, 8);
    pto_tile *small = tile_new(PTO_FLOAT32, 4, 8, 2, 8), *h = tile_new(PTO_FLOAT16, 4, 8, 4, 8);
    pto_tile *i16 = tile_new(PTO_INT16, 4, 8, 4, 8), *i16b = tile_new(PTO_INT16, 4, 8, 3, 8);
    pto_buffer *buf = NULL;
    assert_int_equal(pto_buffer_create(4096, &buf), PTO_OK);
    pto_tile *p0 = NULL, *p1 = NULL;
    assert_int_equal(pto_tile_create_at(PTO_FLOAT32, 4, 8, buf, 0, &p0), PTO_OK);
    assert_int_equal(pto_tile_create_at(PTO_FLOAT32, 4, 8, buf, 4, &p1), PTO_OK); /* one element on */
    uint64_t *sf = tile_snapshot(f);

    expect(pto_tpows(NULL, g, 2, 9), PTO_ERR_NULL_ARGUMENT, "dst");
    expect(pto_tpows(f, NULL, 0.5, 9), PTO_ERR_NULL_ARGUMENT, "base");
    expect(pto_tpows(f, h, 0.5, 2), PTO_ERR_INVALID_ARGUMENT, "algo");
    expect(pto_tpows(f, h, 0.5, (pto_pow_algorithm)-1), PTO_ERR_INVALID_ARGUMENT, "algo");
    expect(pto_tpows(i16, h, 0.5, PTO_POW_HIGH_PRECISION), PTO_ERR_UNSUPPORTED_DTYPE, "dst");
    expect(pto_tpows(f, h, 0.5, PTO_POW_DEFAULT), PTO_ERR_DTYPE_MISMATCH, "base");
    expect(pto_tpows(i16, i16b, 0.5, PTO_POW_DEFAULT), PTO_ERR_INVALID_ARGUMENT, "exp");
    expect(pto_tpows(i16, i16b, NAN, PTO_POW_DEFAULT), PTO_ERR_INVALID_ARGUMENT, "exp");
    expect(pto_tpows(i16, i16b, 40000, PTO_POW_DEFAULT), PTO_ERR_INVALID_ARGUMENT, "exp");
    expect(pto_tpows(p1, p0, 2, PTO_POW_DEFAULT), PTO_ERR_ALIASING, "base");
    expect(pto_tpows(f, small, 2, PTO_POW_DEFAULT), PTO_ERR_SHAPE_MISMATCH, "base");
    assert_tile_unchanged(f, sf, "dst after the refusals");
    /* Placed exactly on dst is in place; an empty region writes nothing. */
    expect(pto_tpows(p0, p0, 2, PTO_POW_HIGH_PRECISION), PTO_OK, "");
    pto_tile *empty = tile_new(PTO_FLOAT32, 4, 8, 0, 0);
    uint64_t *se = tile_snapshot(empty);
    expect(pto_tpows(empty, empty, 2, PTO_POW_DEFAULT), PTO_OK, "");
    assert_tile_unchanged(empty, se, "an empty dst");
    free(sf), free(se);
    pto_tile_destroy(f), pto_tile_destroy(g), pto_tile_destroy(small), pto_tile_destroy(h);
    pto_tile_destroy(i16), pto_tile_destroy(i16b), pto_tile_destroy(p0), pto_tile_destroy(p1);
    pto_tile_destroy(empty);
    pto_buffer_destroy(buf);
}

/* The page's three text forms (the tmp operand accepted and unused), the
 * exponent an arith.constant, DEFAULT and HIGH_PRECISION, against the C
 * call; high_precision refused under A2A3 as for tpow; an integer exponent
 * for an integer tile. */
static void test_program_forms(void **state) {
    (void)state;
    rng r = {0x7E47};
    size_t runs = 0;
    for (int hp = 0; hp <= 1; ++hp) {
        pto_tile *s = tile_new(PTO_FLOAT32, 5, 24, 5, 21), *want = tile_new(PTO_FLOAT32, 5, 24, 5, 21);
        tile_fill(s, &r, GEN_POW_BASE);
        assert_int_equal(pto_tpows(want, s, 2.5, hp ? PTO_POW_HIGH_PRECISION : PTO_POW_DEFAULT), PTO_OK);
        const char *attr = hp ? " {precisionType = #pto<pow_precision high_precision>}" : "";
        const char *t = "!pto.tile<5x24xf32, valid=5x21>";
        const char *tb = "!pto.tile_buf<vec, 5x24xf32, valid=5x21>";
        char texts[3][640];
        snprintf(texts[0], sizeof texts[0],
                 "%%e = arith.constant 2.5 : f32\n%%t = pto.alloc_tile : %s\n"
                 "%%d = tpows %%s, %%e, %%t%s : %s, f32\n", tb, attr, t);
        snprintf(texts[1], sizeof texts[1],
                 "%%e = arith.constant 2.5 : f32\n%%t = pto.alloc_tile : %s\n"
                 "%%d = pto.tpows %%s, %%e, %%t%s : (%s, f32, %s) -> %s\n", tb, attr, t, t, t);
        snprintf(texts[2], sizeof texts[2],
                 "%%e = arith.constant 2.5 : f32\n%%t = pto.alloc_tile : %s\n"
                 "pto.tpows ins(%%s, %%e, %%t%s : %s, f32, %s) outs(%%d : %s)\n", tb, attr, tb, tb, tb);
        for (size_t f = 0; f < COUNT(texts); ++f) {
            pto_tile *got = tile_new(PTO_FLOAT32, 5, 24, 5, 21);
            const pto_status st = run_snippet_sd(texts[f], s, got);
            if (st != PTO_OK) fail_msg("%s: %s (%s)", texts[f], pto_status_string(st), pto_last_error());
            for (uint32_t i = 0; i < 5; ++i)
                for (uint32_t j = 0; j < 21; ++j)
                    if (!same_result(PTO_FLOAT32, tile_get(want, i, j), tile_get(got, i, j)))
                        fail_msg("%s: (%u,%u) 0x%x, the C call 0x%x", texts[f], i, j, tile_get(got, i, j),
                                 tile_get(want, i, j));
            pto_tile_destroy(got);
            ++runs;
        }
        pto_tile_destroy(s), pto_tile_destroy(want);
    }
    /* an integer tile takes an integer exponent */
    pto_tile *s = tile_new(PTO_INT32, 2, 8, 2, 8), *got = tile_new(PTO_INT32, 2, 8, 2, 8);
    for (uint32_t i = 0; i < 2; ++i)
        for (uint32_t j = 0; j < 8; ++j) {
            const int32_t v = (int32_t)(i * 8 + j) - 5;
            memcpy((int32_t *)pto_tile_data(s) + i * 8 + j, &v, 4);
        }
    const char *itext = "%e = arith.constant 3 : i32\n%t = pto.alloc_tile : !pto.tile_buf<vec, 2x8xi32>\n"
                        "pto.tpows ins(%s, %e, %t : !pto.tile_buf<vec, 2x8xi32>, i32, "
                        "!pto.tile_buf<vec, 2x8xi32>) outs(%d : !pto.tile_buf<vec, 2x8xi32>)\n";
    assert_int_equal(run_snippet_sd(itext, s, got), PTO_OK);
    for (int k = 0; k < 16; ++k) {
        int32_t v;
        memcpy(&v, (int32_t *)pto_tile_data(got) + k, 4);
        assert_int_equal(v, (k - 5) * (k - 5) * (k - 5));
    }
    ++runs;
    pto_tile_destroy(s), pto_tile_destroy(got);
    /* refused: a float exponent for an integer tile; high_precision under A2A3 */
    expect_program_refused("%e = arith.constant 2.5 : f32\n%t = pto.alloc_tile : !pto.tile_buf<vec, 2x8xi32>\n"
                           "pto.tpows ins(%s, %e, %t : !pto.tile_buf<vec, 2x8xi32>, f32, "
                           "!pto.tile_buf<vec, 2x8xi32>) outs(%d : !pto.tile_buf<vec, 2x8xi32>)\n",
                           PTO_ERR_INVALID_ARGUMENT);
    assert_int_equal(pto_set_profile(PTO_PROFILE_A2A3), PTO_OK);
    expect_program_refused("%e = arith.constant 2.5 : f32\n%t = pto.alloc_tile : !pto.tile_buf<vec, 2x8xf32>\n"
                           "pto.tpows ins(%s, %e, %t {precisionType = #pto<pow_precision high_precision>} : "
                           "!pto.tile_buf<vec, 2x8xf32>, f32, !pto.tile_buf<vec, 2x8xf32>) outs(%d : "
                           "!pto.tile_buf<vec, 2x8xf32>)\n",
                           PTO_ERR_INVALID_ARGUMENT);
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    print_message("[tpows] %zu program runs equal to the C call\n", runs);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_values_are_tpow_s),
        cmocka_unit_test(test_profiles),
        cmocka_unit_test(test_rules),
        cmocka_unit_test(test_program_forms),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
