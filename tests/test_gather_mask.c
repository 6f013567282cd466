/* TGATHER's mask-pattern form (pto_tgather_mask) against a reference written
 * from the page and pto-isa's CPU model: the columns of each src row that the
 * pattern keeps (P0101 the even ones, P1010 the odd ones, P0001..P1000 one
 * of every four, P1111 all), packed row after row from dst's first element,
 * bit for bit; every dtype of every profile, src of another dtype of the
 * same size, odd widths and padded src rows; the rest of dst unchanged; the
 * rules in order with the A2A3 and A5 refusals; the column form (whole rows
 * kept); the text forms (PTOAS's DPS form with and without its "row" or
 * "col" axis, the attribute after outs, the page's synchronous form) equal
 * the call. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/harness.h"

static const pto_mask_pattern kPatterns[] = {PTO_MASK_P0101, PTO_MASK_P1010, PTO_MASK_P0001,
                                             PTO_MASK_P0010, PTO_MASK_P0100, PTO_MASK_P1000,
                                             PTO_MASK_P1111};
static const char *const kPatternNames[] = {"P0101", "P1010", "P0001", "P0010",
                                            "P0100", "P1000", "P1111"};

/* Whether the pattern keeps column c: the name read right to left, bit k of
 * it keeping column k of every group of its length. */
static int keeps(size_t p, uint32_t c) {
    const char *name = kPatternNames[p] + 1;
    if (strcmp(name, "1111") == 0) return 1;
    const size_t group = strcmp(name, "0101") == 0 || strcmp(name, "1010") == 0 ? 2 : 4;
    return name[3 - c % group] == '1';
}

static unsigned char *bytes_at(const pto_tile *t, size_t row, size_t col) {
    return (unsigned char *)pto_tile_data((pto_tile *)t) +
           (row * pto_tile_cols(t) + col) * pto_dtype_size(pto_tile_dtype(t));
}

static void fill_bytes(pto_tile *t, rng *r) {
    const size_t n = (size_t)pto_tile_rows(t) * pto_tile_cols(t) * pto_dtype_size(pto_tile_dtype(t));
    unsigned char *p = pto_tile_data(t);
    for (size_t k = 0; k < n; ++k) p[k] = (unsigned char)rng_below(r, 256);
}

/* Runs pto_tgather_mask on a random src (rows x cols valid in rows x
 * src_cols) into a random dst and checks every byte of dst. */
static size_t check_one(pto_dtype dst_dt, pto_dtype src_dt, size_t p, uint32_t rows, uint32_t cols,
                        uint32_t src_cols, rng *r) {
    const size_t size = pto_dtype_size(dst_dt);
    pto_tile *src = tile_new(src_dt, rows, src_cols, rows, cols);
    pto_tile *dst = tile_new(dst_dt, rows, cols, rows, cols);
    fill_bytes(src, r);
    fill_bytes(dst, r);
    const size_t total = (size_t)rows * cols * size;
    unsigned char *want = malloc(total);
    memcpy(want, pto_tile_data(dst), total);
    size_t k = 0;
    for (uint32_t i = 0; i < rows; ++i)
        for (uint32_t c = 0; c < cols; ++c)
            if (keeps(p, c)) memcpy(want + size * k++, bytes_at(src, i, c), size);
    const pto_status st = pto_tgather_mask(dst, src, kPatterns[p], PTO_GATHER_ROW);
    if (st != PTO_OK)
        fail_msg("tgather_mask %s <- %s %s %ux%u: %s (%s)", pto_dtype_string(dst_dt),
                 pto_dtype_string(src_dt), kPatternNames[p], rows, cols, pto_status_string(st),
                 pto_last_error());
    if (memcmp(want, pto_tile_data(dst), total) != 0)
        fail_msg("tgather_mask %s <- %s %s %ux%u: dst differs from the reference",
                 pto_dtype_string(dst_dt), pto_dtype_string(src_dt), kPatternNames[p], rows, cols);
    free(want);
    TILES_DESTROY(src, dst);
    return k;
}

static void test_every_dtype(void **state) {
    (void)state;
    static const pto_dtype kAll[] = {PTO_INT8,  PTO_UINT8, PTO_INT16,   PTO_UINT16,
                                     PTO_INT32, PTO_UINT32, PTO_INT64,  PTO_UINT64,
                                     PTO_FLOAT16, PTO_BFLOAT16, PTO_FLOAT32};
    static const uint32_t kCols[] = {64, 31, 6, 1};
    static const pto_profile kProfiles[] = {PTO_PROFILE_HOST, PTO_PROFILE_A2A3, PTO_PROFILE_A5};
    rng r = {0x6a7};
    size_t calls = 0, elements = 0;
    for (size_t f = 0; f < COUNT(kProfiles); ++f) {
        assert_int_equal(pto_set_profile(kProfiles[f]), PTO_OK);
        for (size_t d = 0; d < COUNT(kAll); ++d) {
            const size_t size = pto_dtype_size(kAll[d]);
            const int a2a3_refuses = size != 2 && size != 4;
            if (kProfiles[f] == PTO_PROFILE_A2A3 && a2a3_refuses) continue;
            /* src: dst's dtype, or the next one of its size (bits copied) */
            pto_dtype src_dt = kAll[d];
            for (size_t e = 1; e < COUNT(kAll); ++e) {
                const pto_dtype other = kAll[(d + e) % COUNT(kAll)];
                if (pto_dtype_size(other) == size) {
                    src_dt = other;
                    break;
                }
            }
            for (size_t p = 0; p < COUNT(kPatterns); ++p)
                for (size_t c = 0; c < COUNT(kCols); ++c) {
                    const uint32_t cols = kCols[c];
                    elements += check_one(kAll[d], kAll[d], p, 3, cols, cols, &r);
                    elements += check_one(kAll[d], src_dt, p, 2, cols, cols + 5, &r);
                    calls += 2;
                }
        }
    }
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    print_message("[gather_mask] %zu calls over 11 dtypes and 3 profiles, %zu elements kept\n", calls,
                  elements);
}

/* GATHER_COL: the rows the pattern keeps, whole, as dst's rows; the rest
 * of dst unchanged. */
static void test_col(void **state) {
    (void)state;
    static const pto_dtype kDt[] = {PTO_INT8, PTO_FLOAT16, PTO_FLOAT32, PTO_UINT64};
    static const uint32_t kRows[] = {8, 7, 1};
    rng r = {0x6aa};
    size_t rows_checked = 0;
    for (size_t d = 0; d < COUNT(kDt); ++d)
        for (size_t p = 0; p < COUNT(kPatterns); ++p)
            for (size_t k = 0; k < COUNT(kRows); ++k) {
                const uint32_t rows = kRows[k], cols = 5;
                uint32_t kept = 0;
                for (uint32_t i = 0; i < rows; ++i) kept += (uint32_t)keeps(p, i);
                if (kept == 0) continue;
                const size_t size = pto_dtype_size(kDt[d]);
                pto_tile *src = tile_new(kDt[d], rows, 9, rows, cols);
                pto_tile *dst = tile_new(kDt[d], 8, 9, kept, cols);
                fill_bytes(src, &r);
                fill_bytes(dst, &r);
                const size_t total = 8 * 9 * size;
                unsigned char *want = malloc(total);
                memcpy(want, pto_tile_data(dst), total);
                for (uint32_t i = 0, o = 0; i < rows; ++i)
                    if (keeps(p, i)) memcpy(want + (size_t)o++ * 9 * size, bytes_at(src, i, 0), cols * size);
                expect_status(pto_tgather_mask(dst, src, kPatterns[p], PTO_GATHER_COL), PTO_OK, "col");
                if (memcmp(want, pto_tile_data(dst), total) != 0)
                    fail_msg("tgather_mask col %s %s %u rows: dst differs", pto_dtype_string(kDt[d]),
                             kPatternNames[p], rows);
                rows_checked += kept;
                free(want);
                TILES_DESTROY(src, dst);
            }
    /* the rules of the column form */
    pto_tile *src = tile_new(PTO_FLOAT32, 6, 8, 6, 8), *one = tile_new(PTO_FLOAT32, 2, 8, 2, 8);
    pto_tile *narrow = tile_new(PTO_FLOAT32, 2, 8, 2, 7);
    expect_status(pto_tgather_mask(one, src, PTO_MASK_P0001, PTO_GATHER_COL), PTO_OK, "col 6 rows P0001");
    expect_status(pto_tgather_mask(one, src, PTO_MASK_P0101, PTO_GATHER_COL), PTO_ERR_SHAPE_MISMATCH,
                  "col dst rows not the kept 3");
    expect_status(pto_tgather_mask(narrow, src, PTO_MASK_P0001, PTO_GATHER_COL), PTO_ERR_SHAPE_MISMATCH,
                  "col dst cols");
    expect_status(pto_tgather_mask(one, src, PTO_MASK_P0001, (pto_gather_axis)2), PTO_ERR_INVALID_ARGUMENT,
                  "axis 2");
    assert_int_equal(pto_set_profile(PTO_PROFILE_A5), PTO_OK);
    expect_status(pto_tgather_mask(one, src, PTO_MASK_P0001, PTO_GATHER_COL), PTO_ERR_SHAPE_MISMATCH,
                  "A5: 6 rows not a multiple of 4");
    assert_non_null(strstr(pto_last_error(), "A5"));
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    TILES_DESTROY(src, one, narrow);
    print_message("[gather_mask] col: %zu rows kept over 4 dtypes and 7 patterns\n", rows_checked);
}

static void test_rules(void **state) {
    (void)state;
    rng r = {0x6a8};
    pto_tile *src = tile_new(PTO_FLOAT32, 4, 16, 4, 16), *dst = tile_new(PTO_FLOAT32, 4, 16, 4, 16);
    pto_tile *half_dst = tile_new(PTO_FLOAT32, 2, 16, 2, 16), *narrow = tile_new(PTO_FLOAT32, 4, 16, 4, 15);
    pto_tile *f16 = tile_new(PTO_FLOAT16, 4, 16, 4, 16), *i32 = tile_new(PTO_INT32, 4, 16, 4, 16);
    pto_tile *i8 = tile_new(PTO_INT8, 4, 16, 4, 16), *i8_src = tile_new(PTO_INT8, 4, 16, 4, 16);
    pto_tile *i64 = tile_new(PTO_INT64, 4, 16, 4, 16), *i64_src = tile_new(PTO_UINT64, 4, 16, 4, 16);
    tile_fill(dst, &r, GEN_ANY);
    uint64_t *kept = tile_snapshot(dst);
    expect_status(pto_tgather_mask(NULL, src, PTO_MASK_P0101, PTO_GATHER_ROW), PTO_ERR_NULL_ARGUMENT, "NULL dst");
    expect_status(pto_tgather_mask(dst, NULL, PTO_MASK_P0101, PTO_GATHER_ROW), PTO_ERR_NULL_ARGUMENT, "NULL src");
    expect_status(pto_tgather_mask(dst, f16, PTO_MASK_P0101, PTO_GATHER_ROW), PTO_ERR_DTYPE_MISMATCH, "src of 2 bytes");
    assert_non_null(strstr(pto_last_error(), "element size"));
    expect_status(pto_tgather_mask(dst, src, (pto_mask_pattern)0, PTO_GATHER_ROW), PTO_ERR_INVALID_ARGUMENT, "pattern 0");
    expect_status(pto_tgather_mask(dst, src, (pto_mask_pattern)8, PTO_GATHER_ROW), PTO_ERR_INVALID_ARGUMENT, "pattern 8");
    expect_status(pto_tgather_mask(src, src, PTO_MASK_P0101, PTO_GATHER_ROW), PTO_ERR_ALIASING, "in place");
    expect_status(pto_tgather_mask(narrow, src, PTO_MASK_P0101, PTO_GATHER_ROW), PTO_ERR_SHAPE_MISMATCH,
                  "dst valid cols below cols");
    /* P1111 keeps all 64 elements, 32 fit in dst; P0101 keeps 32 */
    expect_status(pto_tgather_mask(half_dst, src, PTO_MASK_P1111, PTO_GATHER_ROW), PTO_ERR_SHAPE_MISMATCH, "dst too small");
    assert_non_null(strstr(pto_last_error(), "64 elements"));
    assert_int_equal(pto_tgather_mask(half_dst, src, PTO_MASK_P0101, PTO_GATHER_ROW), PTO_OK);
    assert_tile_unchanged(dst, kept, "refused tgather_mask");
    /* the same calls as HOST accepts them, refused by a profile */
    assert_int_equal(pto_tgather_mask(i32, src, PTO_MASK_P0010, PTO_GATHER_ROW), PTO_OK);
    assert_int_equal(pto_tgather_mask(i8, i8_src, PTO_MASK_P0010, PTO_GATHER_ROW), PTO_OK);
    assert_int_equal(pto_tgather_mask(i64, i64_src, PTO_MASK_P0010, PTO_GATHER_ROW), PTO_OK);
    assert_int_equal(pto_set_profile(PTO_PROFILE_A2A3), PTO_OK);
    expect_status(pto_tgather_mask(i8, i8_src, PTO_MASK_P0010, PTO_GATHER_ROW), PTO_ERR_UNSUPPORTED_DTYPE, "A2A3 INT8");
    assert_non_null(strstr(pto_last_error(), "A2A3"));
    expect_status(pto_tgather_mask(i64, i64_src, PTO_MASK_P0010, PTO_GATHER_ROW), PTO_ERR_UNSUPPORTED_DTYPE, "A2A3 INT64");
    assert_int_equal(pto_tgather_mask(i32, src, PTO_MASK_P0010, PTO_GATHER_ROW), PTO_OK);
    assert_int_equal(pto_set_profile(PTO_PROFILE_A5), PTO_OK);
    assert_int_equal(pto_tgather_mask(i8, i8_src, PTO_MASK_P0010, PTO_GATHER_ROW), PTO_OK);
    assert_int_equal(pto_tgather_mask(i64, i64_src, PTO_MASK_P0010, PTO_GATHER_ROW), PTO_OK);
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    free(kept);
    TILES_DESTROY(src, dst, half_dst, narrow, f16, i32, i8, i8_src, i64, i64_src);
}

/* Each text form gives the call's dst. */
static void test_programs(void **state) {
    (void)state;
    rng r = {0x6a9};
    pto_tile *s = tile_new(PTO_FLOAT32, 8, 32, 8, 32), *want = tile_new(PTO_FLOAT32, 8, 32, 8, 32);
    fill_bytes(s, &r);
    memset(pto_tile_data(want), 0, 8 * 32 * 4);
    assert_int_equal(pto_tgather_mask(want, s, PTO_MASK_P0100, PTO_GATHER_ROW), PTO_OK);
#define TILE32 "!pto.tile_buf<vec, 8x32xf32>"
    static const char *const kForms[] = {
        /* PTOAS's DPS form */
        "pto.tgather ins(%s, {maskPattern = #pto.mask_pattern<P0100>} : " TILE32 ") outs(%d : " TILE32 ")\n",
        /* with its axis */
        "pto.tgather ins(%s, {maskPattern = #pto.mask_pattern<P0100>} : " TILE32 ", \"row\") outs(%d : " TILE32
        ")\n",
        /* the attribute after outs, bare (PTOAS's parser) and in braces */
        "pto.tgather ins(%s : " TILE32 ") outs(%d : " TILE32 ") maskPattern = #pto.mask_pattern<P0100>\n",
        "pto.tgather ins(%s : " TILE32 ") outs(%d : " TILE32 ") {maskPattern = #pto.mask_pattern<P0100>}\n",
        /* the page's synchronous form */
        "%t = pto.tgather %s {maskPattern = #pto.mask_pattern<P0100>} : " TILE32 " -> " TILE32 "\n"
        "pto.tmov ins(%t : " TILE32 ") outs(%d : " TILE32 ")\n",
    };
    static const char *const kNames[] = {"s", "d"};
    for (size_t f = 0; f < COUNT(kForms); ++f) {
        pto_tile *got = tile_new(PTO_FLOAT32, 8, 32, 8, 32);
        memset(pto_tile_data(got), 0, 8 * 32 * 4);
        pto_tile *bound[] = {s, got};
        const pto_status st = run_program_bound(kForms[f], kNames, bound, 2, NULL, NULL, 0);
        if (st != PTO_OK) fail_msg("form %zu: %s (%s)", f, pto_status_string(st), pto_last_error());
        if (memcmp(pto_tile_data(got), pto_tile_data(want), 8 * 8 * 4) != 0)
            fail_msg("form %zu differs from the call", f);
        pto_tile_destroy(got);
    }
    expect_program_refused_with("pto.tgather ins(%s, {maskPattern = #pto.mask_pattern<P0110>} : " TILE32
                                ") outs(%d : " TILE32 ")\n",
                                NULL, "one of P0101");
    expect_program_refused_with("pto.tgather ins(%s, {maskPattern = #pto.mask_pattern<P0101>} : " TILE32
                                ", \"diagonal\") outs(%d : " TILE32 ")\n",
                                NULL, "\"row\" or \"col\"");
    /* "col": rows 1 and 5 of s (P0010) as dst's two rows */
    {
        pto_tile *rows_want = tile_new(PTO_FLOAT32, 2, 32, 2, 32), *rows_got = tile_new(PTO_FLOAT32, 2, 32, 2, 32);
        assert_int_equal(pto_tgather_mask(rows_want, s, PTO_MASK_P0010, PTO_GATHER_COL), PTO_OK);
        pto_tile *bound[] = {s, rows_got};
        const pto_status st = run_program_bound(
            "pto.tgather ins(%s, {maskPattern = #pto.mask_pattern<P0010>} : " TILE32
            ", \"col\") outs(%d : !pto.tile_buf<vec, 2x32xf32>)\n",
            kNames, bound, 2, NULL, NULL, 0);
        if (st != PTO_OK) fail_msg("col form: %s (%s)", pto_status_string(st), pto_last_error());
        assert_memory_equal(pto_tile_data(rows_got), pto_tile_data(rows_want), 2 * 32 * 4);
        TILES_DESTROY(rows_want, rows_got);
    }
    expect_program_refused_with("pto.tgather ins(%s : " TILE32 ") outs(%d : " TILE32 ")\n", NULL,
                                "needs {maskPattern");
    expect_program_refused_with("pto.tgather_mask ins(%s : " TILE32 ") outs(%d : " TILE32 ")\n", NULL,
                                "not implemented");
    /* dst valid cols below its cols: the call's rule, in the verifier */
    expect_program_refused_with("pto.tgather ins(%s, {maskPattern = #pto.mask_pattern<P0101>} : " TILE32
                                ") outs(%d : !pto.tile_buf<vec, 8x32xf32, valid=8x16>)\n",
                                NULL, "contiguous rows");
#undef TILE32
    print_message("[gather_mask] 6 text forms (\"row\" and \"col\") equal the call; 5 refusals\n");
    TILES_DESTROY(s, want);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_dtype),
        cmocka_unit_test(test_col),
        cmocka_unit_test(test_rules),
        cmocka_unit_test(test_programs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
