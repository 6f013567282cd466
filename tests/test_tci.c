/* TCI: every dtype, ascending and descending, integer starts at and beyond
 * each range's limits and float starts that round or overflow, over one and
 * several rows, against start +/- k rounded by the tests' own rounding
 * (ref_from_double); its rules per profile; its three text forms with the
 * start an argument or a constant, and A5's one-row rule refusing a run. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/harness.h"

static const pto_dtype kTCIDtypes[] = {PTO_INT16, PTO_UINT16, PTO_INT32, PTO_UINT32,
                                       PTO_FLOAT16, PTO_BFLOAT16, PTO_FLOAT32};

/* The range of an integer dtype. */
static double int_min(pto_dtype dt) {
    return ref_is_signed(dt) ? -ldexp(1, (int)ref_bits(dt) - 1) : 0;
}
static double int_max(pto_dtype dt) {
    return ref_is_signed(dt) ? ldexp(1, (int)ref_bits(dt) - 1) - 1 : ldexp(1, (int)ref_bits(dt)) - 1;
}

/* Element k of tci(start, descending) in dt: integers the low bits of
 * start +/- k, float types start rounded to dt, then +/- k rounded once. */
static uint32_t tci_expected(pto_dtype dt, double start, bool descending, uint64_t k) {
    if (!ref_is_float(dt)) {
        const uint64_t v = descending ? (uint64_t)(int64_t)start - k : (uint64_t)(int64_t)start + k;
        return ref_bits(dt) == 16 ? (uint32_t)(v & 0xFFFFu) : (uint32_t)v;
    }
    const double s = ref_to_double(dt, ref_from_double(dt, start));
    return ref_from_double(dt, descending ? s - (double)k : s + (double)k);
}

/* Every element of dst: the sequence over its valid region, `before`
 * elsewhere. */
static void expect_sequence(const pto_tile *dst, const uint64_t *before, double start,
                            bool descending, const char *what) {
    const pto_dtype dt = pto_tile_dtype(dst);
    const uint32_t vr = pto_tile_valid_rows(dst), vc = pto_tile_valid_cols(dst);
    for (uint32_t i = 0; i < pto_tile_rows(dst); ++i)
        for (uint32_t j = 0; j < pto_tile_cols(dst); ++j) {
            const uint32_t want = i < vr && j < vc
                                      ? tci_expected(dt, start, descending, (uint64_t)i * vc + j)
                                      : before[(size_t)i * pto_tile_cols(dst) + j];
            const uint32_t got = tile_get(dst, i, j);
            if (got != want && !(ref_is_float(dt) && ref_is_nan(dt, got) && ref_is_nan(dt, want)))
                fail_msg("%s: dst (%u,%u) is 0x%x, want 0x%x", what, i, j, got, want);
        }
}

static void test_tci_values(void **state) {
    (void)state;
    static const double kStarts[] = {0, 1, -1, 7, 100, -32768, 32767, 65535, -2147483648.0,
                                     2147483647.0, 4294967295.0, 0.5, -2.75, 1e-3, 2048, 16777216,
                                     3e38, -1e30, 70000};
    static const uint32_t kShapes[][4] = {{1, 1, 1, 1}, {1, 64, 1, 64}, {1, 300, 1, 257},
                                          {4, 16, 3, 16}, {5, 40, 5, 33}, {2, 8, 0, 8}};
    rng r = {0x7C1};
    size_t calls = 0, elements = 0;
    for (size_t d = 0; d < COUNT(kTCIDtypes); ++d) {
        const pto_dtype dt = kTCIDtypes[d];
        for (size_t s = 0; s < COUNT(kStarts); ++s) {
            const double start = kStarts[s];
            /* (range first: a cast of a double beyond int64_t is undefined) */
            const pto_status want = ref_is_float(dt) || (start >= int_min(dt) && start <= int_max(dt) &&
                                                         start == (double)(int64_t)start)
                                        ? PTO_OK
                                        : PTO_ERR_INVALID_ARGUMENT;
            for (size_t k = 0; k < COUNT(kShapes); ++k)
                for (int down = 0; down <= 1; ++down) {
                    char what[128];
                    snprintf(what, sizeof what, "%s start %.17g %ux%u valid %ux%u %s",
                             pto_dtype_string(dt), start, kShapes[k][0], kShapes[k][1], kShapes[k][2],
                             kShapes[k][3], down ? "descending" : "ascending");
                    pto_tile *t = tile_new(dt, kShapes[k][0], kShapes[k][1], kShapes[k][2], kShapes[k][3]);
                    tile_fill(t, &r, GEN_ANY);
                    uint64_t *before = tile_snapshot(t);
                    const pto_status got = pto_tci(t, start, down);
                    if (got != want)
                        fail_msg("%s: %s (%s), want %s", what, pto_status_string(got), pto_last_error(),
                                 pto_status_string(want));
                    if (got == PTO_OK)
                        expect_sequence(t, before, start, down != 0, what);
                    else
                        assert_tile_unchanged(t, before, what);
                    elements += (size_t)kShapes[k][2] * kShapes[k][3];
                    ++calls;
                    free(before);
                    pto_tile_destroy(t);
                }
        }
    }
    print_message("[datamove] tci: %zu calls, %zu sequence elements matched the reference\n", calls,
                  elements);
}

static void test_tci_rules(void **state) {
    (void)state;
    pto_tile *rowt = tile_new(PTO_INT32, 1, 8, 1, 8), *block = tile_new(PTO_INT32, 2, 8, 1, 8);
    pto_tile *f32 = tile_new(PTO_FLOAT32, 1, 8, 1, 8), *i8 = tile_new(PTO_INT8, 1, 8, 1, 8);
    assert_int_equal(pto_tci(NULL, 0, 0), PTO_ERR_NULL_ARGUMENT);
    assert_non_null(strstr(pto_last_error(), "pto_tci: dst"));
    assert_int_equal(pto_tci(rowt, 0, 2), PTO_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(pto_last_error(), "descending"));
    assert_int_equal(pto_tci(i8, 0, 2), PTO_ERR_INVALID_ARGUMENT); /* the enum before the dtype */
    assert_int_equal(pto_tci(i8, 0, 0), PTO_ERR_UNSUPPORTED_DTYPE);
    assert_int_equal(pto_tci(rowt, 0.5, 0), PTO_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(pto_last_error(), "start"));
    assert_int_equal(pto_tci(rowt, 4294967296.0, 0), PTO_ERR_INVALID_ARGUMENT);
    assert_int_equal(pto_tci(block, 0, 0), PTO_OK); /* HOST: every valid row */
    assert_int_equal(pto_set_profile(PTO_PROFILE_A2A3), PTO_OK);
    assert_int_equal(pto_tci(block, 0, 0), PTO_ERR_SHAPE_MISMATCH);
    assert_non_null(strstr(pto_last_error(), "A2A3"));
    assert_int_equal(pto_tci(f32, 1.5, 1), PTO_OK);
    assert_int_equal(pto_tci(rowt, 3, 0), PTO_OK);
    assert_int_equal(pto_set_profile(PTO_PROFILE_A5), PTO_OK);
    assert_int_equal(pto_tci(f32, 1.5, 1), PTO_ERR_UNSUPPORTED_DTYPE);
    assert_non_null(strstr(pto_last_error(), "A5"));
    assert_int_equal(pto_tci(block, 0, 0), PTO_ERR_SHAPE_MISMATCH);
    assert_int_equal(pto_tci(rowt, 3, 1), PTO_OK);
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    pto_tile_destroy(rowt);
    pto_tile_destroy(block);
    pto_tile_destroy(f32);
    pto_tile_destroy(i8);
}

/* The three forms of tci, the scalar a function argument. */
static void test_tci_program_forms(void **state) {
    (void)state;
    static const char *const kForms[] = {
        "func.func @k(%%s : %s, %%d : !pto.tile_buf<vec, 1x40x%s>) {\n"
        "  pto.tci ins(%%s {descending = %s} : %s) outs(%%d : !pto.tile_buf<vec, 1x40x%s>)\n"
        "  return\n}\n",
        "func.func @k(%%s : %s, %%d : !pto.tile_buf<vec, 1x40x%s>) {\n"
        "  pto.tci ins(%%s : %s) outs(%%d : !pto.tile_buf<vec, 1x40x%s>) {descending = %s}\n"
        "  return\n}\n",
    };
    static const pto_dtype kForm[] = {PTO_INT32, PTO_INT16, PTO_UINT32, PTO_FLOAT32};
    size_t runs = 0;
    for (size_t d = 0; d < COUNT(kForm); ++d)
        for (int down = 0; down <= 1; ++down) {
            const char *t = dtype_spelling(kForm[d]);
            /* the scalar's type: MLIR's signless integers (i32 for ui32) */
            const char *st = kForm[d] == PTO_UINT32 ? "i32" : t;
            const char *order = down ? "true" : "false";
            char texts[4][512];
            snprintf(texts[0], sizeof texts[0], kForms[0], st, t, order, st, t);
            snprintf(texts[1], sizeof texts[1], kForms[1], st, t, st, t, order);
            /* the SSA and synchronous forms as snippets (%d their result),
             * the start a constant */
            const char *value = kForm[d] == PTO_FLOAT32 ? "-3.5" : "1000";
            snprintf(texts[2], sizeof texts[2], "%%s = arith.constant %s : %s\n"
                     "%%d = pto.tci %%s {descending = %s} : %s -> !pto.tile<1x40x%s>\n",
                     value, st, order, st, t);
            snprintf(texts[3], sizeof texts[3], "%%s = arith.constant %s : %s\n"
                     "%%d = tci %%s {descending = %s} : !pto.tile<1x40x%s>\n", value, st, order, t);
            const double start = kForm[d] == PTO_FLOAT32 ? -3.5 : 1000;
            for (size_t f = 0; f < COUNT(texts); ++f) {
                pto_program *p = NULL;
                const pto_status st = pto_program_create(texts[f], strlen(texts[f]), "t.pto", &p);
                if (st != PTO_OK) fail_msg("%s: %s (%s)", texts[f], pto_status_string(st), pto_last_error());
                pto_tile *dst = tile_new(kForm[d], 1, 40, 1, 40);
                uint64_t *before = tile_snapshot(dst);
                pto_args *a = NULL;
                size_t is = 0, id = 0;
                assert_int_equal(pto_program_param_find(p, "d", &id), PTO_OK);
                assert_int_equal(pto_args_create(p, &a), PTO_OK);
                if (f < 2 && kForm[d] == PTO_FLOAT32) {
                    assert_int_equal(pto_program_param_find(p, "s", &is), PTO_OK);
                    assert_int_equal(pto_args_set_float(a, is, start), PTO_OK);
                } else if (f < 2) {
                    assert_int_equal(pto_program_param_find(p, "s", &is), PTO_OK);
                    assert_int_equal(pto_args_set_int(a, is, (int64_t)start), PTO_OK);
                }
                assert_int_equal(pto_args_set_tile(a, id, dst), PTO_OK);
                const pto_status run = pto_program_run(p, a);
                if (run != PTO_OK) fail_msg("%s: run %s (%s)", texts[f], pto_status_string(run), pto_last_error());
                expect_sequence(dst, before, start, down != 0, texts[f]);
                free(before);
                pto_args_destroy(a);
                pto_tile_destroy(dst);
                pto_program_destroy(p);
                ++runs;
            }
        }
    static const char *const kBad[] = {
        "func.func @k(%s : i32, %d : !pto.tile_buf<vec, 1x8xi32>) {\n"
        "  pto.tci ins(%s {descending = maybe} : i32) outs(%d : !pto.tile_buf<vec, 1x8xi32>)\n  return\n}\n",
        "func.func @k(%s : i32, %d : !pto.tile_buf<vec, 1x8xi32>) {\n"
        "  pto.tci ins(%s {ascending = true} : i32) outs(%d : !pto.tile_buf<vec, 1x8xi32>)\n  return\n}\n",
        "func.func @k(%s : i8, %d : !pto.tile_buf<vec, 1x8xi8>) {\n"
        "  pto.tci ins(%s : i8) outs(%d : !pto.tile_buf<vec, 1x8xi8>)\n  return\n}\n",
    };
    static const pto_status kBadStatus[] = {PTO_ERR_INVALID_ARGUMENT, PTO_ERR_INVALID_ARGUMENT,
                                            PTO_ERR_UNSUPPORTED_DTYPE};
    for (size_t k = 0; k < COUNT(kBad); ++k) expect_program_refused(kBad[k], kBadStatus[k]);
    /* A5's one-row rule: an instruction with a scalar operand is checked
     * again when it runs (the scalar's rule needs its value), so the region
     * rule refuses the run, before any write. */
    static const char kTwoRows[] =
        "module attributes {pto.target_arch = \"a5\"} {\nfunc.func @k(%s : i32, %d : !pto.tile_buf<vec, 2x8xi32>) {\n"
        "  pto.tci ins(%s : i32) outs(%d : !pto.tile_buf<vec, 2x8xi32>)\n  return\n}\n}\n";
    pto_program *p = NULL;
    assert_int_equal(pto_program_create(kTwoRows, strlen(kTwoRows), "t.pto", &p), PTO_OK);
    pto_tile *two = tile_new(PTO_INT32, 2, 8, 2, 8);
    uint64_t *before = tile_snapshot(two);
    pto_args *a = NULL;
    size_t is = 0, id = 0;
    assert_int_equal(pto_program_param_find(p, "s", &is), PTO_OK);
    assert_int_equal(pto_program_param_find(p, "d", &id), PTO_OK);
    assert_int_equal(pto_args_create(p, &a), PTO_OK);
    assert_int_equal(pto_args_set_int(a, is, 5), PTO_OK);
    assert_int_equal(pto_args_set_tile(a, id, two), PTO_OK);
    assert_int_equal(pto_program_run(p, a), PTO_ERR_SHAPE_MISMATCH);
    assert_non_null(strstr(pto_last_error(), "A5"));
    assert_tile_unchanged(two, before, "A5 two-row tci");
    free(before);
    pto_args_destroy(a);
    pto_tile_destroy(two);
    pto_program_destroy(p);
    print_message("[datamove] tci: %zu program runs in 4 spellings matched the reference, %zu texts refused\n",
                  runs, COUNT(kBad));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tci_values),
        cmocka_unit_test(test_tci_rules),
        cmocka_unit_test(test_tci_program_forms),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
