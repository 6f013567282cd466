/* TROWARGMAX, TROWARGMIN, TCOLARGMAX, TCOLARGMIN: every HOST dtype of src,
 * both index dtypes, shapes with partial valid regions, against a reference
 * written here (values compared as doubles: the first NaN, else the first
 * largest or smallest, -0 below +0); dst outside the indices unchanged;
 * the rules per profile, in their order. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/harness.h"

typedef struct {
    op_id op;
    bool largest, along_rows;
} arg_op;

static const arg_op kArgOps[] = {
    {OP_TROWARGMAX, true, true},
    {OP_TROWARGMIN, false, true},
    {OP_TCOLARGMAX, true, false},
    {OP_TCOLARGMIN, false, false},
};

static pto_status arg_call(op_id op, pto_tile *dst, const pto_tile *src, pto_tile *tmp) {
    switch (op) {
    case OP_TROWARGMAX: return pto_trowargmax(dst, src, tmp);
    case OP_TROWARGMIN: return pto_trowargmin(dst, src, tmp);
    case OP_TCOLARGMAX: return pto_tcolargmax(dst, src, tmp);
    default: return pto_tcolargmin(dst, src, tmp);
    }
}

/* Whether x replaces the best so far y: a NaN beats any number, nothing
 * beats a NaN; among numbers the strictly larger (smaller), +0 above -0. */
static bool beats(pto_dtype dt, uint64_t xb, uint64_t yb, bool largest) {
    if (ref_is_float(dt)) {
        const double x = ref_to_double(dt, xb), y = ref_to_double(dt, yb);
        if (isnan(y)) return false;
        if (isnan(x)) return true;
        if (x == y) return x == 0 && signbit(x) != signbit(y) && (largest ? signbit(y) : signbit(x));
        return largest ? x > y : x < y;
    }
    const int64_t x = ref_int_value(dt, xb), y = ref_int_value(dt, yb);
    return largest ? x > y : x < y;
}

static uint32_t expected_index(const pto_tile *src, const arg_op *a, uint32_t line) {
    const pto_dtype dt = pto_tile_dtype(src);
    const uint32_t n = a->along_rows ? pto_tile_valid_cols(src) : pto_tile_valid_rows(src);
    uint32_t best = 0;
    for (uint32_t k = 1; k < n; ++k) {
        const uint64_t x = a->along_rows ? tile_get(src, line, k) : tile_get(src, k, line);
        const uint64_t y = a->along_rows ? tile_get(src, line, best) : tile_get(src, best, line);
        if (beats(dt, x, y, a->largest)) best = k;
    }
    return best;
}

/* Values with many ties: a few distinct ones (zeros of both signs, NaN,
 * the extremes) or, a third of the time, anything. */
static uint64_t tie_prone_value(rng *r, pto_dtype dt) {
    if (rng_below(r, 3) == 0) return gen_value(r, dt, GEN_ANY);
    if (ref_is_float(dt)) {
        uint64_t specials[16];
        const size_t n = float_specials(dt, specials);
        if (rng_below(r, 4) == 0) return specials[rng_below(r, (uint32_t)n)];
        return ref_from_double(dt, (double)((int)rng_below(r, 5) - 2));
    }
    return ref_int_wrap(dt, (uint64_t)(int64_t)((int)rng_below(r, 5) - 2));
}

static void check_one(const arg_op *a, pto_dtype dt, pto_dtype idx, const uint32_t shape[4],
                      rng *r, const char *target) {
    const uint32_t rows = shape[0], cols = shape[1], vr = shape[2], vc = shape[3];
    pto_tile *src = tile_new(dt, rows, cols, vr, vc);
    for (uint32_t i = 0; i < rows; ++i)
        for (uint32_t j = 0; j < cols; ++j) tile_put(src, i, j, tie_prone_value(r, dt));
    const uint32_t drows = a->along_rows ? rows : 2, dcols = a->along_rows ? 3 : cols;
    pto_tile *dst = tile_new(idx, drows, dcols, a->along_rows ? vr : 1, a->along_rows ? 1 : vc);
    for (uint32_t i = 0; i < drows; ++i)
        for (uint32_t j = 0; j < dcols; ++j) tile_put(dst, i, j, 0xA5A5A5A5u);
    assert_int_equal(arg_call(a->op, dst, src, NULL), PTO_OK);
    for (uint32_t i = 0; i < drows; ++i)
        for (uint32_t j = 0; j < dcols; ++j) {
            const bool written = a->along_rows ? (i < vr && j == 0) : (i == 0 && j < vc);
            const uint32_t want = written ? expected_index(src, a, a->along_rows ? i : j) : 0xA5A5A5A5u;
            const uint32_t got = tile_get(dst, i, j);
            if (got != want)
                fail_msg("%s %s -> %s on %s, src %ux%u valid %ux%u: dst (%u,%u) = %u, want %u",
                         op_mnemonic(a->op), pto_dtype_string(dt), pto_dtype_string(idx), target,
                         rows, cols, vr, vc, i, j, got, want);
        }
    TILES_DESTROY(src, dst);
}

static void values_body(void *ctx, size_t target_index, const char *target) {
    (void)ctx;
    static const uint32_t kShapes[][4] = {{1, 1, 1, 1},   {1, 70, 1, 70},  {7, 33, 7, 33},
                                          {16, 16, 9, 5}, {40, 130, 40, 129}, {3, 300, 2, 257},
                                          {200, 3, 197, 3}};
    rng r = {0xA4C0u + target_index};
    size_t calls = 0;
    for (size_t k = 0; k < COUNT(kArgOps); ++k)
        for (int dt = 0; dt < TEST_DTYPE_COUNT; ++dt) {
            if (!(op_row(kArgOps[k].op)->dtypes[PTO_PROFILE_HOST] & (1u << dt))) continue;
            for (size_t s = 0; s < COUNT(kShapes); ++s)
                for (int idx = 0; idx < 2; ++idx, ++calls)
                    check_one(&kArgOps[k], (pto_dtype)dt, idx ? PTO_UINT32 : PTO_INT32, kShapes[s], &r,
                              target);
        }
    print_message("[argreduce] %zu calls on %s\n", calls, target);
}

static void test_argreduce_values(void **state) {
    (void)state;
    for_each_target("index reductions", values_body, NULL);
}

/* Hand-written rows: ties to the first, NaN first, -0 below +0. */
static void test_argreduce_cases(void **state) {
    (void)state;
    static const float kRow[][6] = {
        {1, 5, 5, 2, 5, 0},
        {-0.0f, 0.0f, -0.0f, 0.0f, -0.0f, 0.0f},
        {3, NAN, 7, NAN, -INFINITY, INFINITY},
        {-1, -1, -1, -1, -1, -1},
    };
    static const uint32_t kMax[] = {1, 1, 1, 0}, kMin[] = {5, 0, 1, 0};
    pto_tile *src = tile_new(PTO_FLOAT32, 4, 6, 4, 6), *t = tile_new(PTO_FLOAT32, 6, 4, 6, 4);
    pto_tile *dmax = tile_new(PTO_INT32, 4, 1, 4, 1), *dmin = tile_new(PTO_UINT32, 4, 1, 4, 1);
    pto_tile *cmax = tile_new(PTO_INT32, 1, 4, 1, 4), *cmin = tile_new(PTO_UINT32, 1, 4, 1, 4);
    for (uint32_t i = 0; i < 4; ++i)
        for (uint32_t j = 0; j < 6; ++j) {
            uint32_t bits;
            memcpy(&bits, &kRow[i][j], sizeof bits);
            tile_put(src, i, j, bits);
            tile_put(t, j, i, bits);
        }
    assert_int_equal(pto_trowargmax(dmax, src, NULL), PTO_OK);
    assert_int_equal(pto_trowargmin(dmin, src, NULL), PTO_OK);
    assert_int_equal(pto_tcolargmax(cmax, t, NULL), PTO_OK);
    assert_int_equal(pto_tcolargmin(cmin, t, NULL), PTO_OK);
    for (uint32_t i = 0; i < 4; ++i) {
        assert_int_equal(tile_get(dmax, i, 0), kMax[i]);
        assert_int_equal(tile_get(dmin, i, 0), kMin[i]);
        assert_int_equal(tile_get(cmax, 0, i), kMax[i]);
        assert_int_equal(tile_get(cmin, 0, i), kMin[i]);
    }
    TILES_DESTROY(src, t, dmax, dmin, cmax, cmin);
}

/* The rules in their order, under each profile. */
static void test_argreduce_rules(void **state) {
    (void)state;
    pto_tile *src = tile_new(PTO_FLOAT32, 4, 8, 4, 8), *tmp = tile_new(PTO_FLOAT32, 4, 8, 4, 8);
    pto_tile *row = tile_new(PTO_INT32, 4, 1, 4, 1), *col = tile_new(PTO_INT32, 1, 8, 1, 8);
    pto_tile *bad_idx = tile_new(PTO_INT16, 4, 1, 4, 1), *i8 = tile_new(PTO_INT8, 4, 8, 4, 8);
    pto_tile *bf = tile_new(PTO_BFLOAT16, 4, 8, 4, 8), *i32 = tile_new(PTO_INT32, 4, 8, 4, 8);
    pto_tile *short_row = tile_new(PTO_INT32, 3, 1, 3, 1), *narrow = tile_new(PTO_INT32, 1, 7, 1, 7);
    pto_tile *empty = tile_new(PTO_FLOAT32, 4, 8, 0, 8);
    expect_status(pto_trowargmax(NULL, src, NULL), PTO_ERR_NULL_ARGUMENT, "NULL dst");
    expect_status(pto_tcolargmin(col, NULL, NULL), PTO_ERR_NULL_ARGUMENT, "NULL src");
    expect_status(pto_trowargmax(bad_idx, src, NULL), PTO_ERR_UNSUPPORTED_DTYPE, "INT16 indices");
    expect_status(pto_trowargmax(row, i8, NULL), PTO_ERR_UNSUPPORTED_DTYPE, "INT8 src of a row form");
    expect_status(pto_tcolargmax(col, bf, NULL), PTO_ERR_UNSUPPORTED_DTYPE, "BFLOAT16 src of a column form");
    expect_status(pto_trowargmax(row, src, row), PTO_ERR_ALIASING, "tmp is dst");
    expect_status(pto_trowargmax(row, src, (pto_tile *)src), PTO_ERR_ALIASING, "tmp is src");
    expect_status(pto_trowargmax(i32, i32, NULL), PTO_ERR_ALIASING, "src is dst");
    expect_status(pto_trowargmax(short_row, src, NULL), PTO_ERR_SHAPE_MISMATCH, "dst rows");
    expect_status(pto_tcolargmax(narrow, src, NULL), PTO_ERR_SHAPE_MISMATCH, "dst cols");
    expect_status(pto_trowargmin(row, empty, NULL), PTO_ERR_SHAPE_MISMATCH, "empty src");
    expect_status(pto_tcolargmin(col, empty, NULL), PTO_ERR_SHAPE_MISMATCH, "empty src (column)");
    expect_status(pto_trowargmax(row, src, tmp), PTO_OK, "a tmp under HOST");
    /* A2A3: a tmp of src's dtype; its dtype lists. */
    assert_int_equal(pto_set_profile(PTO_PROFILE_A2A3), PTO_OK);
    expect_status(pto_trowargmax(row, src, NULL), PTO_ERR_NULL_ARGUMENT, "A2A3 without tmp");
    expect_status(pto_trowargmax(row, src, i32), PTO_ERR_DTYPE_MISMATCH, "A2A3 tmp of another dtype");
    expect_status(pto_trowargmax(row, src, tmp), PTO_OK, "A2A3 with tmp");
    expect_status(pto_tcolargmax(col, i32, i32), PTO_ERR_UNSUPPORTED_DTYPE, "A2A3 INT32 src of a column form");
    expect_status(pto_tcolargmin(col, src, tmp), PTO_OK, "A2A3 column form");
    /* A5: no tmp needed; INT8 for the column forms. */
    assert_int_equal(pto_set_profile(PTO_PROFILE_A5), PTO_OK);
    expect_status(pto_trowargmin(row, src, NULL), PTO_OK, "A5 without tmp");
    expect_status(pto_tcolargmax(col, i8, NULL), PTO_OK, "A5 INT8 column form");
    expect_status(pto_trowargmax(row, i8, NULL), PTO_ERR_UNSUPPORTED_DTYPE, "A5 INT8 row form");
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    TILES_DESTROY(src, tmp, row, col, bad_idx, i8, bf, i32, short_row, narrow, empty);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_argreduce_cases),
        cmocka_unit_test(test_argreduce_values),
        cmocka_unit_test(test_argreduce_rules),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
