/* TSETVAL and TGETVAL: every dtype against the pages' definitions (tgetval
 * every valid element exactly, tsetval values of the dtype and values that
 * round, only the element changed), hand-computed cases, the rules in order
 * per profile with nothing written on a refusal, and a program copying an
 * element equal to the C calls, offsets out of range refusing the run. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/harness.h"

static const pto_dtype kDtypes[] = {PTO_INT8,  PTO_UINT8,   PTO_INT16,    PTO_UINT16, PTO_INT32,
                                    PTO_UINT32, PTO_FLOAT16, PTO_BFLOAT16, PTO_FLOAT32};

static bool same_value(double a, double b) { return a == b || (isnan(a) && isnan(b)); }

static void test_tsetval_tgetval(void **state) {
    (void)state;
    rng r = {0x5E7};
    size_t sets = 0, gets = 0;
    for (size_t d = 0; d < COUNT(kDtypes); ++d) {
        const pto_dtype dt = kDtypes[d];
        pto_tile *t = tile_new(dt, 5, 12, 4, 9);
        tile_fill(t, &r, GEN_ANY);
        /* tgetval: every valid element, exactly its value */
        for (uint32_t i = 0; i < 4; ++i)
            for (uint32_t j = 0; j < 9; ++j) {
                double got = -12345;
                assert_int_equal(pto_tgetval(t, (size_t)i * 12 + j, &got), PTO_OK);
                const double want = ref_is_float(dt) ? ref_to_double(dt, tile_get(t, i, j))
                                                     : (double)ref_int_value(dt, tile_get(t, i, j));
                if (!same_value(got, want))
                    fail_msg("tgetval %s (%u,%u): %.17g, want %.17g", pto_dtype_string(dt), i, j, got, want);
                ++gets;
            }
        /* tsetval: values of the dtype (its edges and random ones), and for
         * float dtypes values that round; only the element changes */
        for (int v = 0; v < 40; ++v) {
            const uint32_t i = (uint32_t)(rng_next(&r) % 4), j = (uint32_t)(rng_next(&r) % 9);
            const uint32_t bits = gen_value(&r, dt, GEN_ANY);
            double value = ref_is_float(dt) ? ref_to_double(dt, bits) : (double)ref_int_value(dt, bits);
            if (ref_is_float(dt) && v % 5 == 4) value = value / 3.0 + 1e-3;
            uint64_t *before = tile_snapshot(t);
            assert_int_equal(pto_tsetval(t, (size_t)i * 12 + j, value), PTO_OK);
            const uint32_t want = ref_from_double(dt, value);
            const uint32_t got = tile_get(t, i, j);
            if (got != want && !(ref_is_float(dt) && isnan(value) && isnan(ref_to_double(dt, got))))
                fail_msg("tsetval %s %.17g: 0x%x, want 0x%x", pto_dtype_string(dt), value, got, want);
            before[(size_t)i * 12 + j] = got;
            assert_tile_unchanged(t, before, "tsetval's other elements");
            double back = 0;
            assert_int_equal(pto_tgetval(t, (size_t)i * 12 + j, &back), PTO_OK);
            assert_true(same_value(back, ref_is_float(dt) ? ref_to_double(dt, got) : (double)ref_int_value(dt, got)));
            free(before);
            ++sets;
        }
        pto_tile_destroy(t);
    }
    /* hand-computed: FLOAT16 1/3 rounds to 0x3555; INT8 -128; row 1 col 2 of 4 columns is index 6 */
    pto_tile *h = tile_new(PTO_FLOAT16, 2, 4, 2, 4), *b = tile_new(PTO_INT8, 2, 4, 2, 4);
    assert_int_equal(pto_tsetval(h, 6, 1.0 / 3.0), PTO_OK);
    assert_int_equal(tile_get(h, 1, 2), 0x3555);
    assert_int_equal(pto_tsetval(b, 7, -128), PTO_OK);
    assert_int_equal(tile_get(b, 1, 3), 0x80);
    double out = 0;
    assert_int_equal(pto_tgetval(b, 7, &out), PTO_OK);
    assert_true(out == -128.0);
    /* the rules, in order; nothing written on a refusal */
    assert_int_equal(pto_tile_set_valid(b, 1, 3), PTO_OK);
    uint64_t *before = tile_snapshot(b);
    assert_int_equal(pto_tsetval(NULL, 0, 0), PTO_ERR_NULL_ARGUMENT);
    assert_int_equal(pto_tsetval(b, 99, 300), PTO_ERR_INVALID_ARGUMENT); /* the value before the index */
    assert_non_null(strstr(pto_last_error(), "value 300"));
    assert_int_equal(pto_tsetval(b, 0, 1.5), PTO_ERR_INVALID_ARGUMENT);
    assert_int_equal(pto_tsetval(b, 3, 1), PTO_ERR_OUT_OF_RANGE); /* col 3 of valid 3 */
    assert_non_null(strstr(pto_last_error(), "index 3 (row 0, col 3"));
    assert_int_equal(pto_tsetval(b, 4, 1), PTO_ERR_OUT_OF_RANGE); /* row 1 of valid 1 */
    assert_int_equal(pto_tsetval(b, (size_t)-1, 1), PTO_ERR_OUT_OF_RANGE);
    assert_tile_unchanged(b, before, "refused tsetval");
    out = 42;
    assert_int_equal(pto_tgetval(NULL, 0, &out), PTO_ERR_NULL_ARGUMENT);
    assert_int_equal(pto_tgetval(b, 0, NULL), PTO_ERR_NULL_ARGUMENT);
    assert_non_null(strstr(pto_last_error(), "pto_tgetval: out"));
    assert_int_equal(pto_tgetval(b, 3, &out), PTO_ERR_OUT_OF_RANGE);
    assert_true(out == 42); /* not written */
    for (int p = PTO_PROFILE_HOST; p <= PTO_PROFILE_A5; ++p) {
        assert_int_equal(pto_set_profile((pto_profile)p), PTO_OK);
        assert_int_equal(pto_tsetval(b, 2, -5), PTO_OK);
        assert_int_equal(pto_tgetval(b, 2, &out), PTO_OK);
        assert_true(out == -5);
    }
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    /* programs: an element read into a scalar and written into another tile
     * (tgetval, tsetval), equal to the C calls; offsets out of range refuse
     * the run */
    static const char kCopy[] =
        "func.func @k(%%s : !pto.tile_buf<vec, 4x8x%s>, %%i : index, %%j : index, %%d : !pto.tile_buf<vec, 4x8x%s>) {\n"
        "  %%v = pto.tgetval ins(%%s, %%i : !pto.tile_buf<vec, 4x8x%s>, index) outs : %s\n"
        "  pto.tsetval ins(%%j, %%v : index, %s) outs(%%d : !pto.tile_buf<vec, 4x8x%s>)\n  return\n}\n";
    size_t runs = 0;
    for (size_t d = 0; d < COUNT(kDtypes); ++d) {
        const pto_dtype dt = kDtypes[d];
        const char *t = dtype_spelling(dt);
        /* the scalar's type: a signless integer for an integer dtype */
        const char *st = ref_is_float(dt) ? t : pto_dtype_size(dt) == 1 ? "i8" : pto_dtype_size(dt) == 2 ? "i16" : "i32";
        char text[1024];
        snprintf(text, sizeof text, kCopy, t, t, t, st, st, t);
        pto_tile *s = tile_new(dt, 4, 8, 4, 8), *dp = tile_new(dt, 4, 8, 4, 8), *dc = tile_new(dt, 4, 8, 4, 8);
        tile_fill(s, &r, GEN_ANY);
        tile_fill(dp, &r, GEN_ANY);
        for (uint32_t i = 0; i < 4; ++i)
            for (uint32_t j = 0; j < 8; ++j) tile_put(dc, i, j, tile_get(dp, i, j));
        double v = 0;
        assert_int_equal(pto_tgetval(s, 13, &v), PTO_OK);
        if (ref_is_float(dt) && isnan(v)) {
            tile_put(s, 1, 5, 0); /* a NaN's payload need not survive a scalar register */
            assert_int_equal(pto_tgetval(s, 13, &v), PTO_OK);
        }
        assert_int_equal(pto_tsetval(dc, 30, v), PTO_OK);
        static const char *const kNames[] = {"s", "d"};
        static const char *const kInts[] = {"i", "j"};
        pto_tile *tiles[] = {s, dp};
        const int64_t ints[] = {13, 30};
        const pto_status run = run_program_bound(text, kNames, tiles, 2, kInts, ints, 2);
        if (run != PTO_OK) fail_msg("%s: run %s (%s)", text, pto_status_string(run), pto_last_error());
        for (uint32_t i = 0; i < 4; ++i)
            for (uint32_t j = 0; j < 8; ++j)
                if (tile_get(dp, i, j) != tile_get(dc, i, j))
                    fail_msg("%s program: (%u,%u) 0x%x, the C calls 0x%x", t, i, j, tile_get(dp, i, j), tile_get(dc, i, j));
        ++runs;
        uint64_t *kept = tile_snapshot(dp);
        const int64_t far[] = {32, 0}, past[] = {0, 32}, negative[] = {-1, 0};
        assert_int_equal(run_program_bound(text, kNames, tiles, 2, kInts, far, 2), PTO_ERR_OUT_OF_RANGE);
        assert_non_null(strstr(pto_last_error(), "pto_tgetval"));
        assert_int_equal(run_program_bound(text, kNames, tiles, 2, kInts, past, 2), PTO_ERR_OUT_OF_RANGE);
        assert_non_null(strstr(pto_last_error(), "pto_tsetval"));
        assert_int_equal(run_program_bound(text, kNames, tiles, 2, kInts, negative, 2), PTO_ERR_OUT_OF_RANGE);
        assert_tile_unchanged(dp, kept, "refused tgetval/tsetval run");
        free(kept);
        pto_tile_destroy(s);
        pto_tile_destroy(dp);
        pto_tile_destroy(dc);
    }
    expect_program_refused("func.func @k(%s : !pto.tile_buf<vec, 4x8xf32>, %i : index) {\n"
                           "  %v = pto.tgetval ins(%s, %i : !pto.tile_buf<vec, 4x8xf32>, index) outs : f16\n"
                           "  return\n}\n",
                           PTO_ERR_DTYPE_MISMATCH);
    /* The generic reader's rules on a row without a tile result and with a
     * scalar one: `outs` lists no operand, the value's type follows it, and
     * the form is pto.tgetval's alone (no SSA form, no unprefixed name). */
    expect_program_refused_with("func.func @k(%s : !pto.tile_buf<vec, 4x8xf32>, %i : index, %d : !pto.tile_buf<vec, 4x8xf32>) {\n"
                                "  %v = pto.tgetval ins(%s, %i : !pto.tile_buf<vec, 4x8xf32>, index) outs(%d : "
                                "!pto.tile_buf<vec, 4x8xf32>) : f32\n  return\n}\n",
                                NULL, "pto.tgetval takes 0 output(s), not 1");
    expect_program_refused_with("func.func @k(%s : !pto.tile_buf<vec, 4x8xf32>, %i : index) {\n"
                                "  %v = pto.tgetval ins(%s, %i : !pto.tile_buf<vec, 4x8xf32>, index) outs\n  return\n}\n",
                                NULL, "expected ':'");
    expect_program_refused_with("func.func @k(%s : !pto.tile_buf<vec, 4x8xf32>, %i : index) {\n"
                                "  %v = pto.tgetval %s, %i : f32\n  return\n}\n",
                                NULL, "expected 'ins'");
    expect_program_refused_with("func.func @k(%s : !pto.tile_buf<vec, 4x8xf32>, %i : index) {\n"
                                "  %v = tgetval ins(%s, %i : !pto.tile_buf<vec, 4x8xf32>, index) outs : f32\n  return\n}\n",
                                NULL, "operation 'tgetval' is not supported");
    expect_program_refused("%i = arith.constant 0 : index\n%v = arith.constant 1.0 : f32\n"
                           "%d = pto.tsetval %i, %v : (index, f32) -> !pto.tile<4x8xf32>\n",
                           PTO_ERR_INVALID_ARGUMENT);
    print_message("[datamove] tsetval/tgetval: %zu sets and %zu gets as the reference over 9 dtypes, their rules, "
                  "%zu program copies equal to the C calls, 3 refused runs each\n", sets, gets, runs);
    free(before);
    pto_tile_destroy(h);
    pto_tile_destroy(b);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tsetval_tgetval),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
