/* TROWARGMAX, TROWARGMIN, TCOLARGMAX, TCOLARGMIN: every HOST dtype of src,
 * both index dtypes, shapes with partial valid regions, against a reference
 * written here (values compared as doubles: the first NaN, else the first
 * largest or smallest, -0 below +0); dst outside the indices unchanged;
 * the rules per profile, in their order. TPARTARGMAX, TPARTARGMIN: every
 * value and index dtype pair on each profile, the partial patterns, against
 * the pages' selection with each profile's ties and NaNs; their rules and
 * PTOAS's text form. */
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

/* ---- tpartargmax, tpartargmin ---------------------------------------------- */

static pto_status partarg_call(bool largest, pto_tile *dst, const pto_tile *s0, const pto_tile *s1,
                               const pto_tile *i0, const pto_tile *i1, pto_tile *di) {
    return largest ? pto_tpartargmax(dst, s0, s1, i0, i1, di) : pto_tpartargmin(dst, s0, s1, i0, i1, di);
}

/* Which source an element both sources hold takes: the page's definition
 * under HOST ("src0 if src0 > src1, src1 if src1 >= src0"), A2A3's
 * vcmp_ge/vcmp_le keeping src0 on ties, A5's vcmp_gt/vcmp_lt of src1 against
 * src0 keeping src0 unless src1 is strictly better. NaN compares false. */
static int partarg_source(pto_profile prof, bool largest, double a, double b) {
    const bool a_better = largest ? a > b : a < b, b_better = largest ? b > a : b < a;
    if (prof == PTO_PROFILE_HOST) return a_better ? 0 : 1;
    if (prof == PTO_PROFILE_A2A3) return a_better || a == b ? 0 : 1;
    return b_better ? 1 : 0;
}

/* One call: dst and dst_idx inside their valid region as the definition
 * says, the rest of both unchanged. shape: dst rows, cols, valid rows,
 * valid cols, then the valid region of the smaller source (src0's when
 * small0, else src1's). */
static void partarg_one(pto_profile prof, bool largest, pto_dtype vt, pto_dtype it, const uint32_t shape[6],
                        bool small0, rng *r) {
    const uint32_t rows = shape[0], cols = shape[1], vr = shape[2], vc = shape[3];
    const uint32_t svr[2] = {small0 ? shape[4] : vr, small0 ? vr : shape[4]};
    const uint32_t svc[2] = {small0 ? shape[5] : vc, small0 ? vc : shape[5]};
    pto_tile *dst = tile_new(vt, rows, cols + 1, vr, vc), *di = tile_new(it, rows + 1, cols, vr, vc);
    pto_tile *s[2], *ix[2];
    for (int k = 0; k < 2; ++k) {
        s[k] = tile_new(vt, rows, cols + 2 * k, svr[k], svc[k]);
        ix[k] = tile_new(it, rows + k, cols, svr[k], svc[k]);
        for (uint32_t i = 0; i < rows; ++i)
            for (uint32_t j = 0; j < cols; ++j) tile_put(s[k], i, j, tie_prone_value(r, vt));
        tile_fill(ix[k], r, GEN_ANY);
    }
    tile_fill(dst, r, GEN_ANY);
    tile_fill(di, r, GEN_ANY);
    uint64_t *dst_before = tile_snapshot(dst), *di_before = tile_snapshot(di);
    char what[160];
    snprintf(what, sizeof what, "%s %s by %s, %ux%u of %ux%u, src%d %ux%u (%s)",
             largest ? "tpartargmax" : "tpartargmin", pto_dtype_string(vt), pto_dtype_string(it), vr, vc, rows,
             cols, small0 ? 0 : 1, shape[4], shape[5], pto_profile_string(prof));
    assert_int_equal(pto_set_profile(prof), PTO_OK);
    const pto_status got = partarg_call(largest, dst, s[0], s[1], ix[0], ix[1], di);
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    if (got != PTO_OK) fail_msg("%s: %s (%s)", what, pto_status_string(got), pto_last_error());
    for (uint32_t i = 0; i < rows; ++i)
        for (uint32_t j = 0; j < cols; ++j) {
            uint64_t want_v = dst_before[(size_t)i * (cols + 1) + j], want_i = di_before[(size_t)i * cols + j];
            if (i < vr && j < vc) {
                const bool in0 = i < svr[0] && j < svc[0], in1 = i < svr[1] && j < svc[1];
                const int k = in0 && in1 ? partarg_source(prof, largest, ref_to_double(vt, tile_get(s[0], i, j)),
                                                          ref_to_double(vt, tile_get(s[1], i, j)))
                                         : in0 ? 0 : 1;
                want_v = tile_get(s[k], i, j);
                want_i = tile_get(ix[k], i, j);
            }
            if (tile_get(dst, i, j) != want_v || tile_get(di, i, j) != want_i)
                fail_msg("%s: (%u,%u) value 0x%llx index 0x%llx, want 0x%llx 0x%llx", what, i, j,
                         (unsigned long long)tile_get(dst, i, j), (unsigned long long)tile_get(di, i, j),
                         (unsigned long long)want_v, (unsigned long long)want_i);
        }
    free(dst_before);
    free(di_before);
    TILES_DESTROY(dst, di, s[0], s[1], ix[0], ix[1]);
}

static void test_partarg_values(void **state) {
    (void)state;
    /* dst rows, cols, valid rows, valid cols; the smaller source's valid region */
    static const uint32_t kShapes[][6] = {
        {1, 1, 1, 1, 1, 1},   {4, 8, 4, 8, 4, 8},   {4, 8, 4, 8, 3, 8},    {4, 8, 4, 8, 4, 5},
        {4, 8, 4, 8, 3, 7},   {5, 33, 4, 30, 0, 0}, {9, 70, 7, 65, 7, 64}, {2, 16, 2, 16, 1, 16},
    };
    static const pto_profile kProfiles[] = {PTO_PROFILE_HOST, PTO_PROFILE_A2A3, PTO_PROFILE_A5};
    static const pto_dtype kHalfIdx[] = {PTO_INT16, PTO_UINT16, PTO_INT32, PTO_UINT32};
    rng r = {0x9A7};
    size_t calls = 0;
    for (size_t p = 0; p < COUNT(kProfiles); ++p)
        for (int largest = 0; largest < 2; ++largest)
            for (size_t x = 0; x < COUNT(kHalfIdx); ++x)
                for (size_t k = 0; k < COUNT(kShapes); ++k) {
                    partarg_one(kProfiles[p], largest, PTO_FLOAT16, kHalfIdx[x], kShapes[k], (k + x) % 2, &r);
                    if (x >= 2)
                        partarg_one(kProfiles[p], largest, PTO_FLOAT32, kHalfIdx[x], kShapes[k], (k + x + 1) % 2,
                                    &r);
                    calls += x >= 2 ? 2 : 1;
                }
    print_message("[argreduce] tpartargmax, tpartargmin: %zu calls (3 profiles, FLOAT16 by 4 index dtypes, "
                  "FLOAT32 by 2, 8 patterns) as the pages' selection\n",
                  calls);
}

static void test_partarg_rules(void **state) {
    (void)state;
    /* hand-computed: src0 1, 5, NaN, +0 and src1 3, 5, 1, -0, indices 10.. and 20.. */
    pto_tile *s0 = tile_new(PTO_FLOAT32, 1, 4, 1, 4), *s1 = tile_new(PTO_FLOAT32, 1, 4, 1, 4);
    pto_tile *i0 = tile_new(PTO_UINT32, 1, 4, 1, 4), *i1 = tile_new(PTO_UINT32, 1, 4, 1, 4);
    pto_tile *dst = tile_new(PTO_FLOAT32, 1, 4, 1, 4), *di = tile_new(PTO_UINT32, 1, 4, 1, 4);
    static const double kA[] = {1, 5, NAN, 0.0}, kB[] = {3, 5, 1, -0.0};
    for (uint32_t j = 0; j < 4; ++j) {
        tile_put(s0, 0, j, ref_from_double(PTO_FLOAT32, kA[j]));
        tile_put(s1, 0, j, ref_from_double(PTO_FLOAT32, kB[j]));
        tile_put(i0, 0, j, 10 + j);
        tile_put(i1, 0, j, 20 + j);
    }
    /* the index each profile's tpartargmax gives */
    static const uint32_t kWant[3][4] = {{20, 21, 22, 23}, {20, 11, 22, 13}, {20, 11, 12, 13}};
    static const pto_profile kProfiles[] = {PTO_PROFILE_HOST, PTO_PROFILE_A2A3, PTO_PROFILE_A5};
    for (size_t p = 0; p < 3; ++p) {
        assert_int_equal(pto_set_profile(kProfiles[p]), PTO_OK);
        assert_int_equal(pto_tpartargmax(dst, s0, s1, i0, i1, di), PTO_OK);
        for (uint32_t j = 0; j < 4; ++j) {
            assert_int_equal(tile_get(di, 0, j), kWant[p][j]);
            assert_int_equal(tile_get(dst, 0, j), tile_get(kWant[p][j] < 20 ? s0 : s1, 0, j));
        }
    }
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    /* in place: dst on src0, dst_idx on src0_idx */
    pto_tile *a = tile_new(PTO_FLOAT32, 1, 4, 1, 4), *ai = tile_new(PTO_UINT32, 1, 4, 1, 4);
    for (uint32_t j = 0; j < 4; ++j) tile_put(a, 0, j, tile_get(s0, 0, j)), tile_put(ai, 0, j, 10 + j);
    assert_int_equal(pto_tpartargmin(a, a, s1, ai, i1, ai), PTO_OK);
    static const uint32_t kMinWant[] = {10, 21, 22, 23};
    for (uint32_t j = 0; j < 4; ++j) assert_int_equal(tile_get(ai, 0, j), kMinWant[j]);
    /* the rules, in order; nothing written on a refusal */
    pto_tile *bf = tile_new(PTO_BFLOAT16, 1, 4, 1, 4), *h = tile_new(PTO_FLOAT16, 1, 4, 1, 4);
    pto_tile *i16 = tile_new(PTO_INT16, 1, 4, 1, 4), *i32 = tile_new(PTO_INT32, 1, 4, 1, 4);
    pto_tile *u32_3 = tile_new(PTO_UINT32, 1, 4, 1, 3), *f_3 = tile_new(PTO_FLOAT32, 1, 4, 1, 3);
    pto_tile *f_2x4 = tile_new(PTO_FLOAT32, 2, 4, 2, 4), *u32_2x4 = tile_new(PTO_UINT32, 2, 4, 2, 4);
    rng q = {0x9A8};
    tile_fill(dst, &q, GEN_ANY);
    tile_fill(di, &q, GEN_ANY);
    uint64_t *dst_kept = tile_snapshot(dst), *di_kept = tile_snapshot(di);
    expect_status(pto_tpartargmax(dst, s0, s1, i0, i1, NULL), PTO_ERR_NULL_ARGUMENT, "NULL dst_idx");
    assert_non_null(strstr(pto_last_error(), "dst_idx"));
    expect_status(pto_tpartargmax(bf, bf, bf, i0, i1, di), PTO_ERR_UNSUPPORTED_DTYPE, "BFLOAT16 values");
    expect_status(pto_tpartargmax(dst, s0, h, i0, i1, di), PTO_ERR_DTYPE_MISMATCH, "src1 FLOAT16");
    expect_status(pto_tpartargmax(dst, s0, s1, i16, i16, i16), PTO_ERR_UNSUPPORTED_DTYPE, "INT16 for FLOAT32");
    assert_non_null(strstr(pto_last_error(), "INT32, UINT32"));
    expect_status(pto_tpartargmax(dst, s0, s1, i0, i32, di), PTO_ERR_DTYPE_MISMATCH, "src1_idx INT32");
    expect_status(pto_tpartargmax(dst, s0, s1, i0, i1, s0), PTO_ERR_UNSUPPORTED_DTYPE, "dst_idx FLOAT32");
    /* a value tile and an index tile placed on the same bytes */
    pto_buffer *buf = NULL;
    pto_tile *v_at = NULL, *i_at = NULL;
    assert_int_equal(pto_buffer_create(64, &buf), PTO_OK);
    assert_int_equal(pto_tile_create_at(PTO_FLOAT32, 1, 4, buf, 0, &v_at), PTO_OK);
    assert_int_equal(pto_tile_create_at(PTO_UINT32, 1, 4, buf, 8, &i_at), PTO_OK);
    expect_status(pto_tpartargmax(v_at, s0, s1, i0, i1, i_at), PTO_ERR_ALIASING, "dst_idx on dst");
    assert_non_null(strstr(pto_last_error(), "dst_idx shares storage with dst"));
    expect_status(pto_tpartargmax(dst, v_at, s1, i0, i1, i_at), PTO_ERR_ALIASING, "dst_idx on src0");
    expect_status(pto_tpartargmax(v_at, s0, s1, i_at, i1, di), PTO_ERR_ALIASING, "dst on src0_idx");
    expect_status(pto_tpartargmax(a, v_at, s1, i_at, i1, ai), PTO_OK, "two sources may overlap");
    TILES_DESTROY(v_at, i_at);
    pto_buffer_destroy(buf);
    expect_status(pto_tpartargmax(dst, s0, s1, i0, i1, u32_3), PTO_ERR_SHAPE_MISMATCH, "dst_idx region");
    expect_status(pto_tpartargmax(dst, s0, s1, u32_3, i1, di), PTO_ERR_SHAPE_MISMATCH, "src0_idx region");
    expect_status(pto_tpartargmax(dst, f_2x4, s1, u32_2x4, i1, di), PTO_ERR_SHAPE_MISMATCH, "src0 beyond dst");
    expect_status(pto_tpartargmax(dst, f_3, f_3, u32_3, u32_3, di), PTO_ERR_SHAPE_MISMATCH, "neither is dst's");
    assert_tile_unchanged(dst, dst_kept, "refused tpartargmax (dst)");
    assert_tile_unchanged(di, di_kept, "refused tpartargmax (dst_idx)");
    /* FLOAT16 values take 16-bit indices on every profile */
    pto_tile *hd = tile_new(PTO_FLOAT16, 1, 4, 1, 4), *hd_i = tile_new(PTO_INT16, 1, 4, 1, 4);
    for (size_t p = 0; p < 3; ++p) {
        assert_int_equal(pto_set_profile(kProfiles[p]), PTO_OK);
        expect_status(pto_tpartargmin(hd, h, h, i16, i16, hd_i), PTO_OK, "FLOAT16 by INT16");
        expect_status(pto_tpartargmin(bf, bf, bf, i16, i16, hd_i), PTO_ERR_UNSUPPORTED_DTYPE, "BFLOAT16");
    }
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    /* programs: PTOAS's DPS form equals the C call; the one-result SSA form
     * is refused with the DPS form named */
    pto_tile *want = tile_new(PTO_FLOAT32, 1, 4, 1, 4), *want_i = tile_new(PTO_UINT32, 1, 4, 1, 4);
    assert_int_equal(pto_tpartargmax(want, s0, s1, i0, i1, want_i), PTO_OK);
    static const char kDps[] =
        "pto.tpartargmax ins(%a, %b, %ai, %bi : !pto.tile_buf<vec, 1x4xf32>, !pto.tile_buf<vec, 1x4xf32>, "
        "!pto.tile_buf<vec, 1x4xui32>, !pto.tile_buf<vec, 1x4xui32>) outs(%d, %di : !pto.tile_buf<vec, 1x4xf32>, "
        "!pto.tile_buf<vec, 1x4xui32>)\n";
    static const char *const kNames[] = {"a", "b", "ai", "bi", "d", "di"};
    pto_tile *out = tile_new(PTO_FLOAT32, 1, 4, 1, 4), *out_i = tile_new(PTO_UINT32, 1, 4, 1, 4);
    pto_tile *tiles[] = {s0, s1, i0, i1, out, out_i};
    const pto_status run = run_program_bound(kDps, kNames, tiles, 6, NULL, NULL, 0);
    if (run != PTO_OK) fail_msg("tpartargmax DPS: run %s (%s)", pto_status_string(run), pto_last_error());
    for (uint32_t j = 0; j < 4; ++j) {
        assert_int_equal(tile_get(out, 0, j), tile_get(want, 0, j));
        assert_int_equal(tile_get(out_i, 0, j), tile_get(want_i, 0, j));
    }
    expect_program_refused_with(
        "%d = pto.tpartargmax %a, %b, %ai, %bi : (!pto.tile<1x4xf32>, !pto.tile<1x4xf32>, !pto.tile<1x4xui32>, "
        "!pto.tile<1x4xui32>) -> !pto.tile<1x4xf32>\n",
        NULL, "outs(%dst, %dst_idx");
    expect_program_refused_with(
        "pto.tpartargmin ins(%a, %b, %ai, %bi : !pto.tile_buf<vec, 1x4xf32>, !pto.tile_buf<vec, 1x4xf32>, "
        "!pto.tile_buf<vec, 1x4xi16>, !pto.tile_buf<vec, 1x4xi16>) outs(%d, %di : !pto.tile_buf<vec, 1x4xf32>, "
        "!pto.tile_buf<vec, 1x4xi16>)\n",
        NULL, "dst_idx dtype INT16");
    free(dst_kept);
    free(di_kept);
    TILES_DESTROY(s0, s1, i0, i1, dst, di, a, ai, bf, h, i16, i32, u32_3, f_3, f_2x4, u32_2x4, hd, hd_i, want, want_i,
                  out, out_i);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_argreduce_cases),
        cmocka_unit_test(test_argreduce_values),
        cmocka_unit_test(test_argreduce_rules),
        cmocka_unit_test(test_partarg_values),
        cmocka_unit_test(test_partarg_rules),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
