/* TSORT32 and TMRGSORT's single-list and multi-list forms against a reference written from
 * the pages (each 32-column block's (value, index) pairs in descending order
 * of value, equal values by the smaller index; four sorted lists merged,
 * equal heads from the earlier list), FLOAT32 and FLOAT16 with NaN, signed
 * zeros, ties and short tails; the whole top-k chain of a DeepSeek-style
 * sort kernel (tsort32, then tmrgsort with block lengths 64, 256, 1024) on
 * 4096 scores against qsort; the rules in order; the DPS form in a program
 * equals the call. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/harness.h"

typedef struct {
    double value;
    int nan;
    uint32_t index;
    uint32_t bits;
    int list;
} pair;

/* a before b: the larger value, NaN before every number */
static int before(const pair *a, const pair *b) {
    if (a->nan || b->nan) return a->nan && !b->nan;
    return a->value > b->value;
}

static int sort_order(const void *x, const void *y) {
    const pair *a = x, *b = y;
    if (before(a, b)) return -1;
    if (before(b, a)) return 1;
    return a->index < b->index ? -1 : a->index > b->index;
}

static pair pair_at(pto_dtype dt, const pto_tile *t, uint32_t row, uint32_t col_of_pair) {
    const uint32_t per = dt == PTO_FLOAT32 ? 2 : 4;
    const char *row_bytes = (const char *)pto_tile_data((pto_tile *)t) + (size_t)row * pto_tile_cols(t) * pto_dtype_size(dt);
    pair p = {0};
    memcpy(&p.bits, row_bytes + (size_t)col_of_pair * 8, 4);
    memcpy(&p.index, row_bytes + (size_t)col_of_pair * 8 + 4, 4);
    const uint32_t vbits = dt == PTO_FLOAT32 ? p.bits : p.bits & 0xFFFF;
    p.value = ref_to_double(dt, vbits);
    p.nan = isnan(p.value);
    (void)per;
    return p;
}

static uint32_t value_of_kind(rng *r, pto_dtype dt, int k) {
    switch (k % 6) {
    case 0: return ref_from_double(dt, (double)(int)rng_below(r, 8) - 4); /* many ties */
    case 1: return ref_from_double(dt, rng_uniform(r, -100, 100));
    case 2: return dt == PTO_FLOAT32 ? 0x80000000u : 0x8000u; /* -0 */
    case 3: return k % 17 == 3 ? (dt == PTO_FLOAT32 ? 0x7FC00000u : 0x7E00u) : 0; /* NaN or +0 */
    default: return gen_value(r, dt, GEN_ANY);
    }
}

static void test_tsort32(void **state) {
    (void)state;
    static const pto_dtype kDt[] = {PTO_FLOAT32, PTO_FLOAT16};
    static const uint32_t kCols[] = {32, 64, 96, 45, 7};
    rng r = {0x5027};
    size_t checked = 0;
    for (size_t d = 0; d < COUNT(kDt); ++d)
        for (size_t c = 0; c < COUNT(kCols); ++c)
            for (int broadcast = 0; broadcast < 2; ++broadcast) {
                const pto_dtype dt = kDt[d];
                const uint32_t rows = 3, cols = kCols[c], per = dt == PTO_FLOAT32 ? 2 : 4;
                pto_tile *src = tile_new(dt, rows, 96, rows, cols);
                pto_tile *idx = tile_new(PTO_UINT32, broadcast ? 1 : rows, 96, broadcast ? 1 : rows, cols);
                pto_tile *dst = tile_new(dt, rows, 96 * per, rows, cols * per);
                for (uint32_t i = 0; i < rows; ++i)
                    for (uint32_t j = 0; j < 96; ++j) tile_put(src, i, j, value_of_kind(&r, dt, (int)(i * 96 + j)));
                for (uint32_t i = 0; i < (broadcast ? 1u : rows); ++i)
                    for (uint32_t j = 0; j < 96; ++j) tile_put(idx, i, j, rng_below(&r, 40) * 1000u + j);
                assert_int_equal(pto_tsort32(dst, src, idx, NULL), PTO_OK);
                for (uint32_t i = 0; i < rows; ++i)
                    for (uint32_t b = 0; b < cols; b += 32) {
                        const uint32_t n = cols - b < 32 ? cols - b : 32;
                        pair want[32];
                        for (uint32_t k = 0; k < n; ++k) {
                            const uint32_t bits = tile_get(src, i, b + k);
                            want[k].bits = bits;
                            want[k].value = ref_to_double(dt, bits);
                            want[k].nan = isnan(want[k].value);
                            want[k].index = tile_get(idx, broadcast ? 0 : i, b + k);
                        }
                        qsort(want, n, sizeof *want, sort_order);
                        for (uint32_t k = 0; k < n; ++k) {
                            const pair got = pair_at(dt, dst, i, b + k);
                            const uint32_t got_bits = dt == PTO_FLOAT32 ? got.bits : got.bits & 0xFFFF;
                            if (got_bits != want[k].bits || got.index != want[k].index ||
                                (dt != PTO_FLOAT32 && (got.bits >> 16) != 0))
                                fail_msg("tsort32 %s cols %u row %u block %u pair %u: 0x%x/%u, want 0x%x/%u",
                                         pto_dtype_string(dt), cols, i, b / 32, k, got.bits, got.index,
                                         want[k].bits, want[k].index);
                            ++checked;
                        }
                    }
                TILES_DESTROY(src, idx, dst);
            }
    print_message("[sort] tsort32: %zu pairs in the page's order\n", checked);
}

/* scores -> tsort32 -> tmrgsort 64, 256, 1024: every pair in order */
static void test_top_k_chain(void **state) {
    (void)state;
    enum { kN = 4096 };
    rng r = {0x70B};
    pto_tile *scores = tile_new(PTO_FLOAT32, 1, kN, 1, kN), *idx = tile_new(PTO_UINT32, 1, kN, 1, kN);
    pto_tile *a = tile_new(PTO_FLOAT32, 1, 2 * kN, 1, 2 * kN), *b = tile_new(PTO_FLOAT32, 1, 2 * kN, 1, 2 * kN);
    static pair want[kN];
    for (uint32_t j = 0; j < kN; ++j) {
        const uint32_t bits = j % 9 == 0 ? ref_from_double(PTO_FLOAT32, (double)(j % 5)) : gen_value(&r, PTO_FLOAT32, GEN_ANY);
        tile_put(scores, 0, j, bits);
        tile_put(idx, 0, j, j);
        want[j].bits = bits;
        want[j].value = ref_to_double(PTO_FLOAT32, bits);
        want[j].nan = isnan(want[j].value);
        want[j].index = j;
    }
    assert_int_equal(pto_tsort32(a, scores, idx, NULL), PTO_OK);
    assert_int_equal(pto_tmrgsort(b, a, 64), PTO_OK);   /* runs of 32 pairs -> 128 */
    assert_int_equal(pto_tmrgsort(a, b, 256), PTO_OK);  /* 128 -> 512 */
    assert_int_equal(pto_tmrgsort(b, a, 1024), PTO_OK); /* 512 -> 2048 */
    /* 4096 pairs are two runs of 2048: merged by hand as the fifth step
     * would (a block length of 4096 needs 16384 columns) */
    qsort(want, kN, sizeof *want, sort_order);
    /* each half of b is sorted: check them against the reference of its
     * elements, then that the whole is the merge */
    pair merged[kN];
    uint32_t i0 = 0, i1 = 0;
    for (uint32_t n = 0; n < kN; ++n) {
        const pair h0 = i0 < kN / 2 ? pair_at(PTO_FLOAT32, b, 0, i0) : (pair){0};
        const pair h1 = i1 < kN / 2 ? pair_at(PTO_FLOAT32, b, 0, kN / 2 + i1) : (pair){0};
        const int take1 = i0 == kN / 2 || (i1 < kN / 2 && before(&h1, &h0));
        merged[n] = take1 ? h1 : h0;
        if (take1) ++i1; else ++i0;
    }
    for (uint32_t n = 0; n < kN; ++n)
        if (merged[n].bits != want[n].bits || merged[n].index != want[n].index)
            fail_msg("top-k chain: pair %u 0x%x/%u, want 0x%x/%u", n, merged[n].bits, merged[n].index,
                     want[n].bits, want[n].index);
    print_message("[sort] tsort32 + tmrgsort 64/256/1024: 4096 scores in qsort's order\n");
    TILES_DESTROY(scores, idx, a, b);
}

/* A sorted list of n pairs in a 1 x n*per tile: values of every kind,
 * indices base + k, in TSORT32's order. */
static pto_tile *sorted_list(rng *r, pto_dtype dt, uint32_t n, uint32_t base) {
    const uint32_t per = dt == PTO_FLOAT32 ? 2 : 4;
    pair *p = calloc(n, sizeof *p);
    for (uint32_t k = 0; k < n; ++k) {
        p[k].bits = value_of_kind(r, dt, (int)rng_below(r, 100));
        p[k].value = ref_to_double(dt, p[k].bits);
        p[k].nan = isnan(p[k].value);
        p[k].index = base + k;
    }
    qsort(p, n, sizeof *p, sort_order);
    pto_tile *t = tile_new(dt, 1, n * per, 1, n * per);
    char *row = pto_tile_data(t);
    for (uint32_t k = 0; k < n; ++k) {
        memcpy(row + (size_t)k * 8, &p[k].bits, 4);
        memcpy(row + (size_t)k * 8 + 4, &p[k].index, 4);
    }
    free(p);
    return t;
}

/* TMRGSORT's multi-list form against the page's merge: the head going first
 * (equal values: the earlier list) until every list is used up or, with
 * exhausted, one of them; dst its first pairs, the rest unchanged; the
 * counts of each list. */
static void test_merge_lists(void **state) {
    (void)state;
    static const pto_dtype kDt[] = {PTO_FLOAT32, PTO_FLOAT16};
    static const uint32_t kLengths[][4] = {{64, 64, 64, 64}, {5, 40, 1, 17}, {33, 2, 70, 9}};
    rng r = {0x5028};
    size_t runs = 0, pairs_checked = 0;
    for (size_t d = 0; d < COUNT(kDt); ++d)
        for (size_t l = 0; l < COUNT(kLengths); ++l)
            for (size_t count = 2; count <= 4; ++count)
                for (int exhausted = 0; exhausted < 2; ++exhausted)
                    for (int short_dst = 0; short_dst < 2; ++short_dst) {
                        const pto_dtype dt = kDt[d];
                        const uint32_t per = dt == PTO_FLOAT32 ? 2 : 4;
                        pto_tile *src[4] = {NULL, NULL, NULL, NULL};
                        uint32_t total = 0;
                        for (size_t k = 0; k < count; ++k) {
                            src[k] = sorted_list(&r, dt, kLengths[l][k], (uint32_t)k * 1000);
                            total += kLengths[l][k];
                        }
                        const uint32_t dst_pairs = short_dst ? total / 3 : total;
                        pto_tile *dst = tile_new(dt, 1, total * per, 1, dst_pairs * per);
                        tile_fill(dst, &r, GEN_ANY);
                        uint64_t *before_run = tile_snapshot(dst);
                        /* the reference merge */
                        uint32_t at[4] = {0, 0, 0, 0}, n = 0;
                        pair want[300];
                        for (;;) {
                            int pick = -1;
                            pair best = {0};
                            for (size_t k = 0; k < count; ++k) {
                                if (at[k] == kLengths[l][k]) continue;
                                const pair head = pair_at(dt, src[k], 0, at[k]);
                                if (pick < 0 || before(&head, &best)) {
                                    pick = (int)k;
                                    best = head;
                                }
                            }
                            if (pick < 0) break;
                            want[n++] = best;
                            if (++at[pick] == kLengths[l][pick] && exhausted) break;
                        }
                        uint16_t executed[4] = {9, 9, 9, 9};
                        const pto_status st = pto_tmrgsort_lists(dst, src[0], src[1], src[2], src[3], NULL,
                                                                 exhausted, executed);
                        if (st != PTO_OK)
                            fail_msg("tmrgsort_lists: %s (%s)", pto_status_string(st), pto_last_error());
                        for (size_t k = 0; k < 4; ++k)
                            if (executed[k] != (k < count ? at[k] : 0))
                                fail_msg("%s %zu lists exhausted=%d: list %zu took %u, want %u",
                                         pto_dtype_string(dt), count, exhausted, k, executed[k],
                                         k < count ? at[k] : 0);
                        const uint32_t written = n < dst_pairs ? n : dst_pairs;
                        for (uint32_t q = 0; q < written; ++q) {
                            const pair got = pair_at(dt, dst, 0, q);
                            if (got.bits != want[q].bits || got.index != want[q].index)
                                fail_msg("%s %zu lists exhausted=%d: pair %u 0x%x/%u, want 0x%x/%u",
                                         pto_dtype_string(dt), count, exhausted, q, got.bits, got.index,
                                         want[q].bits, want[q].index);
                        }
                        for (uint32_t e = written * per; e < total * per; ++e)
                            if (tile_get(dst, 0, e) != before_run[e])
                                fail_msg("tmrgsort_lists wrote element %u past the merge's %u pairs", e, written);
                        free(before_run);
                        pairs_checked += written;
                        ++runs;
                        TILES_DESTROY(src[0], src[1], src[2], src[3], dst);
                    }
    print_message("[sort] tmrgsort_lists: %zu merges of 2 to 4 lists, %zu pairs and every count checked\n",
                  runs, pairs_checked);
}

static void test_rules(void **state) {
    (void)state;
    pto_tile *src = tile_new(PTO_FLOAT32, 2, 64, 2, 40), *idx = tile_new(PTO_UINT32, 2, 64, 2, 40);
    pto_tile *dst = tile_new(PTO_FLOAT32, 2, 128, 2, 80), *i32 = tile_new(PTO_INT32, 2, 64, 2, 40);
    pto_tile *narrow = tile_new(PTO_FLOAT32, 2, 128, 2, 78), *tmp = tile_new(PTO_FLOAT32, 1, 64, 1, 64);
    pto_tile *u8 = tile_new(PTO_UINT8, 2, 64, 2, 40);
    rng r = {0x50};
    tile_fill(dst, &r, GEN_ANY);
    uint64_t *kept = tile_snapshot(dst);
    expect_status(pto_tsort32(dst, src, NULL, NULL), PTO_ERR_NULL_ARGUMENT, "tsort32 NULL idx");
    expect_status(pto_tsort32(u8, u8, idx, NULL), PTO_ERR_UNSUPPORTED_DTYPE, "tsort32 UINT8");
    expect_status(pto_tsort32(dst, src, i32, NULL), PTO_ERR_UNSUPPORTED_DTYPE, "tsort32 INT32 idx");
    expect_status(pto_tsort32(narrow, src, idx, NULL), PTO_ERR_SHAPE_MISMATCH, "tsort32 dst cols");
    assert_int_equal(pto_set_profile(PTO_PROFILE_A5), PTO_OK);
    expect_status(pto_tsort32(dst, src, idx, NULL), PTO_ERR_SHAPE_MISMATCH, "tsort32 tail without tmp on A5");
    assert_non_null(strstr(pto_last_error(), "A5"));
    assert_tile_unchanged(dst, kept, "refused tsort32");
    assert_int_equal(pto_tsort32(dst, src, idx, tmp), PTO_OK);
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    pto_tile *row = tile_new(PTO_FLOAT32, 1, 512, 1, 512), *out = tile_new(PTO_FLOAT32, 1, 512, 1, 512);
    expect_status(pto_tmrgsort(out, row, 0), PTO_ERR_INVALID_ARGUMENT, "tmrgsort block_len 0");
    expect_status(pto_tmrgsort(out, row, 96), PTO_ERR_INVALID_ARGUMENT, "tmrgsort block_len 96");
    expect_status(pto_tmrgsort(out, row, 256), PTO_ERR_SHAPE_MISMATCH, "tmrgsort 512 cols, block 256");
    expect_status(pto_tmrgsort(row, row, 64), PTO_ERR_ALIASING, "tmrgsort in place");
    expect_status(pto_tmrgsort(dst, src, 64), PTO_ERR_SHAPE_MISMATCH, "tmrgsort two rows");
    assert_int_equal(pto_tmrgsort(out, row, 128), PTO_OK);
    /* the multi-list form */
    pto_tile *l0 = tile_new(PTO_FLOAT32, 1, 128, 1, 128), *l1 = tile_new(PTO_FLOAT32, 1, 128, 1, 128);
    pto_tile *l2 = tile_new(PTO_FLOAT32, 1, 128, 1, 128), *odd = tile_new(PTO_FLOAT32, 1, 128, 1, 127);
    pto_tile *h = tile_new(PTO_FLOAT16, 1, 128, 1, 128), *two_rows = tile_new(PTO_FLOAT32, 2, 128, 2, 128);
    pto_tile *m = tile_new(PTO_FLOAT32, 1, 384, 1, 384), *wide = tile_new(PTO_FLOAT32, 1, 512, 1, 386);
    pto_tile *t256 = tile_new(PTO_FLOAT32, 1, 256, 1, 256), *t384 = tile_new(PTO_FLOAT32, 1, 384, 1, 384);
    pto_tile *empty = tile_new(PTO_FLOAT32, 1, 128, 1, 0);
    tile_fill(m, &r, GEN_ANY);
    uint64_t *kept_m = tile_snapshot(m);
    expect_status(pto_tmrgsort_lists(m, l0, NULL, NULL, NULL, NULL, 0, NULL), PTO_ERR_NULL_ARGUMENT, "lists NULL src1");
    expect_status(pto_tmrgsort_lists(m, l0, l1, NULL, l2, NULL, 0, NULL), PTO_ERR_INVALID_ARGUMENT, "lists src3 without src2");
    expect_status(pto_tmrgsort_lists(m, l0, h, NULL, NULL, NULL, 0, NULL), PTO_ERR_DTYPE_MISMATCH, "lists FLOAT16 src1");
    expect_status(pto_tmrgsort_lists(m, l0, l1, NULL, NULL, m, 0, NULL), PTO_ERR_ALIASING, "lists tmp is dst");
    expect_status(pto_tmrgsort_lists(l0, l0, l1, NULL, NULL, NULL, 0, NULL), PTO_ERR_ALIASING, "lists src0 is dst");
    expect_status(pto_tmrgsort_lists(m, l0, two_rows, NULL, NULL, NULL, 0, NULL), PTO_ERR_SHAPE_MISMATCH, "lists two rows");
    expect_status(pto_tmrgsort_lists(m, l0, odd, NULL, NULL, NULL, 0, NULL), PTO_ERR_SHAPE_MISMATCH, "lists half a pair");
    expect_status(pto_tmrgsort_lists(m, l0, empty, NULL, NULL, NULL, 0, NULL), PTO_ERR_SHAPE_MISMATCH, "lists empty list");
    expect_status(pto_tmrgsort_lists(wide, l0, l1, l2, NULL, NULL, 0, NULL), PTO_ERR_SHAPE_MISMATCH, "lists dst wider");
    /* a cube tile anywhere: refused before every other rule, even with a
     * dtype the merge refuses or lists that fit */
    pto_tile *cube = NULL, *cube_h = NULL;
    assert_int_equal(pto_tile_create_cube(PTO_FLOAT32, 1, 128, PTO_LOC_MAT, PTO_LAYOUT_ND, &cube), PTO_OK);
    assert_int_equal(pto_tile_create_cube(PTO_FLOAT16, 1, 128, PTO_LOC_MAT, PTO_LAYOUT_ND, &cube_h), PTO_OK);
    expect_status(pto_tmrgsort_lists(m, l0, cube, NULL, NULL, NULL, 0, NULL), PTO_ERR_INVALID_ARGUMENT, "lists cube src1");
    assert_non_null(strstr(pto_last_error(), "src1 is a mat"));
    expect_status(pto_tmrgsort_lists(m, cube_h, h, NULL, NULL, NULL, 0, NULL), PTO_ERR_INVALID_ARGUMENT, "lists cube src0, FLOAT16");
    expect_status(pto_tmrgsort_lists(m, l0, l1, NULL, NULL, cube, 0, NULL), PTO_ERR_INVALID_ARGUMENT, "lists cube tmp");
    expect_status(pto_tmrgsort_lists(cube, l0, l1, NULL, NULL, NULL, 0, NULL), PTO_ERR_INVALID_ARGUMENT, "lists cube dst");
    pto_tile_destroy(cube);
    pto_tile_destroy(cube_h);
    assert_tile_unchanged(m, kept_m, "refused tmrgsort_lists");
    assert_int_equal(pto_tmrgsort_lists(m, l0, l1, l2, NULL, NULL, 1, NULL), PTO_OK);
    assert_int_equal(pto_set_profile(PTO_PROFILE_A2A3), PTO_OK);
    expect_status(pto_tmrgsort_lists(m, l0, l1, l2, NULL, NULL, 0, NULL), PTO_ERR_NULL_ARGUMENT, "lists A2A3 no tmp");
    assert_non_null(strstr(pto_last_error(), "A2A3"));
    expect_status(pto_tmrgsort_lists(m, l0, l1, l2, NULL, t256, 0, NULL), PTO_ERR_SHAPE_MISMATCH, "lists A2A3 tmp too small");
    assert_int_equal(pto_tmrgsort_lists(m, l0, l1, l2, NULL, t384, 0, NULL), PTO_OK);
    assert_int_equal(pto_set_profile(PTO_PROFILE_A5), PTO_OK);
    expect_status(pto_tmrgsort_lists(m, l0, l1, l2, NULL, t256, 0, NULL), PTO_ERR_SHAPE_MISMATCH, "lists A5 tmp too small");
    assert_int_equal(pto_tmrgsort_lists(t256, l0, l1, NULL, NULL, t384, 0, NULL), PTO_OK);
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    free(kept_m);
    TILES_DESTROY(l0, l1, l2, odd, h, two_rows, m, wide, t256, t384, empty);
    free(kept);
    TILES_DESTROY(src, idx, dst, i32, narrow, tmp, u8, row, out);
}

/* tmrgsort_lists is a row of the operation table (sort): src2 and src3
 * OptionalSrc, the attribute kind ListCounts (exhausted, and executed of
 * the role Counts), the trait NullsFirst. Its NULL operands are refused
 * before a cube tile (the table refuses cube tiles first for other rows);
 * an empty dst writes four zero counts; the tests' generic call passes
 * exhausted 0 and op_counts, and gets each list's pairs. */
static void test_lists_row(void **state) {
    (void)state;
    const op_info *row = op_row(OP_TMRGSORT_LISTS);
    assert_int_equal(row->family, OP_FAMILY_SPECIAL);
    assert_int_equal(row->source_count, 4);
    assert_string_equal(row->source_names[3], "src3");
    assert_int_equal(row->tmp, OP_TMP_OPTIONAL);
    assert_int_equal(row->attr, OP_ATTR_ListCounts);
    assert_true((row->traits & PTO_TRAIT_NullsFirst) != 0);
    pto_tile *l0 = tile_new(PTO_FLOAT32, 1, 128, 1, 128), *l1 = tile_new(PTO_FLOAT32, 1, 64, 1, 64);
    pto_tile *dst = tile_new(PTO_FLOAT32, 1, 256, 1, 192), *cube = NULL;
    assert_int_equal(pto_tile_create_cube(PTO_FLOAT32, 1, 256, PTO_LOC_MAT, PTO_LAYOUT_ND, &cube), PTO_OK);
    expect_status(pto_tmrgsort_lists(cube, l0, NULL, NULL, NULL, NULL, 0, NULL), PTO_ERR_NULL_ARGUMENT,
                  "lists cube dst, NULL src1");
    assert_int_equal(pto_set_profile(PTO_PROFILE_A5), PTO_OK);
    expect_status(pto_tmrgsort_lists(cube, l0, l1, NULL, NULL, NULL, 0, NULL), PTO_ERR_NULL_ARGUMENT,
                  "lists cube dst, A5 without tmp");
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    rng r = {11};
    tile_fill(l0, &r, GEN_ANY);
    tile_fill(l1, &r, GEN_ANY);
    uint16_t executed[4] = {0xBEEF, 0xBEEF, 0xBEEF, 0xBEEF};
    assert_int_equal(pto_tile_set_valid(dst, 1, 0), PTO_OK);
    tile_fill(dst, &r, GEN_ANY);
    uint64_t *kept = tile_snapshot(dst);
    assert_int_equal(pto_tmrgsort_lists(dst, l0, l1, NULL, NULL, NULL, 1, executed), PTO_OK);
    for (int k = 0; k < 4; ++k) assert_int_equal(executed[k], 0);
    assert_tile_unchanged(dst, kept, "tmrgsort_lists into an empty dst");
    assert_int_equal(pto_tile_set_valid(dst, 1, 192), PTO_OK);
    memset(op_counts, 0xA5, sizeof op_counts);
    assert_int_equal(op_call(OP_TMRGSORT_LISTS, PTO_POW_DEFAULT, dst, l0, l1, NULL), PTO_OK);
    assert_int_equal(op_counts[0], 64);
    assert_int_equal(op_counts[1], 32);
    assert_int_equal(op_counts[2], 0);
    assert_int_equal(op_counts[3], 0);
    free(kept);
    pto_tile_destroy(cube);
    TILES_DESTROY(l0, l1, dst);
}

/* The DPS forms of both, as PTOAS writes them, equal the calls. */
static void test_programs(void **state) {
    (void)state;
    rng r = {0x51};
    pto_tile *s = tile_new(PTO_FLOAT32, 1, 256, 1, 256), *i = tile_new(PTO_UINT32, 1, 256, 1, 256);
    for (uint32_t j = 0; j < 256; ++j) {
        tile_put(s, 0, j, gen_value(&r, PTO_FLOAT32, GEN_ANY));
        tile_put(i, 0, j, j);
    }
    pto_tile *want = tile_new(PTO_FLOAT32, 1, 512, 1, 512), *tmp = tile_new(PTO_FLOAT32, 1, 512, 1, 512);
    assert_int_equal(pto_tsort32(tmp, s, i, NULL), PTO_OK);
    assert_int_equal(pto_tmrgsort(want, tmp, 128), PTO_OK);
    static const char kText[] =
        "%c128 = arith.constant 128 : i32\n"
        "pto.tsort32 ins(%s, %i : !pto.tile_buf<vec, 1x256xf32>, !pto.tile_buf<vec, 1x256xui32>) "
        "outs(%t : !pto.tile_buf<vec, 1x512xf32>)\n"
        "pto.tmrgsort ins(%t, %c128 : !pto.tile_buf<vec, 1x512xf32>, i32) outs(%d : !pto.tile_buf<vec, 1x512xf32>)\n";
    static const char *const kNames[] = {"s", "i", "d"};
    pto_tile *got = tile_new(PTO_FLOAT32, 1, 512, 1, 512);
    pto_tile *bound[] = {s, i, got};
    const pto_status st = run_program_bound(kText, kNames, bound, 3, NULL, NULL, 0);
    if (st != PTO_OK) fail_msg("sort program: %s (%s)", pto_status_string(st), pto_last_error());
    for (uint32_t j = 0; j < 512; ++j) assert_int_equal(tile_get(got, 0, j), tile_get(want, 0, j));
    /* the indices from tci on a ui32 start cast from i32 (the top-k kernels'
     * spelling): the same sort */
    static const char kTci[] =
        "%c128 = arith.constant 128 : i32\n%z = arith.constant 0 : i32\n"
        "%u = builtin.unrealized_conversion_cast %z : i32 to ui32\n"
        "pto.tci ins(%u : ui32) outs(%i : !pto.tile_buf<vec, 1x256xui32>) {descending = false}\n"
        "pto.tsort32 ins(%s, %i : !pto.tile_buf<vec, 1x256xf32>, !pto.tile_buf<vec, 1x256xui32>) "
        "outs(%t : !pto.tile_buf<vec, 1x512xf32>)\n"
        "pto.tmrgsort ins(%t, %c128 : !pto.tile_buf<vec, 1x512xf32>, i32) outs(%d : !pto.tile_buf<vec, 1x512xf32>)\n";
    pto_tile *got2 = tile_new(PTO_FLOAT32, 1, 512, 1, 512);
    pto_tile *bound2[] = {s, got2};
    static const char *const kNames2[] = {"s", "d"};
    const pto_status st2 = run_program_bound(kTci, kNames2, bound2, 2, NULL, NULL, 0);
    if (st2 != PTO_OK) fail_msg("tci program: %s (%s)", pto_status_string(st2), pto_last_error());
    for (uint32_t j = 0; j < 512; ++j) assert_int_equal(tile_get(got2, 0, j), tile_get(want, 0, j));
    pto_tile_destroy(got2);
    expect_program_refused("%z = arith.constant 0.0 : f32\n"
                           "%u = builtin.unrealized_conversion_cast %z : f32 to i32\n",
                           PTO_ERR_INVALID_ARGUMENT);
    /* the multi-list form's texts: PTOAS's with tmp and with no_tmp, the
     * page's DPS form of two lists and its synchronous form */
#define L "!pto.tile_buf<vec, 1x128xf32>"
#define M "!pto.tile_buf<vec, 1x384xf32>"
    static const char *const kLists[] = {
        "%ex = arith.constant dense<0> : vector<4xi16>\n"
        "pto.tmrgsort ins(%a, %b, %c, %t {exhausted = true} : " L ", " L ", " L ", " M ") "
        "outs(%d, %ex : " M ", vector<4xi16>)\n",
        "%ex = arith.constant dense<[1, 2, 3, 4]> : vector<4xi16>\n"
        "pto.tmrgsort ins(%a, %b, %c no_tmp {exhausted = true} : " L ", " L ", " L ") "
        "outs(%d, %ex : " M ", vector<4xi16>)\n",
        "%d, %ex = pto.tmrgsort %a, %b, %c {exhausted = true} : (" L ", " L ", " L ") -> (" M
        ", vector<4xi16>)\n",
    };
    rng r2 = {0x52};
    pto_tile *la = sorted_list(&r2, PTO_FLOAT32, 64, 0), *lb = sorted_list(&r2, PTO_FLOAT32, 64, 100);
    pto_tile *lc = sorted_list(&r2, PTO_FLOAT32, 64, 200), *lt = tile_new(PTO_FLOAT32, 1, 384, 1, 384);
    pto_tile *lwant = tile_new(PTO_FLOAT32, 1, 384, 1, 384);
    memset(pto_tile_data(lwant), 0, 384 * 4);
    assert_int_equal(pto_tmrgsort_lists(lwant, la, lb, lc, NULL, NULL, 1, NULL), PTO_OK);
    static const char *const kListNames[] = {"a", "b", "c", "t", "d"};
    static const pto_profile kProfiles[] = {PTO_PROFILE_HOST, PTO_PROFILE_A5};
    for (size_t f = 0; f < COUNT(kProfiles); ++f)
        for (size_t k = 0; k < COUNT(kLists); ++k) {
            assert_int_equal(pto_set_profile(kProfiles[f]), PTO_OK);
            pto_tile *ld = tile_new(PTO_FLOAT32, 1, 384, 1, 384);
            memset(pto_tile_data(ld), 0, 384 * 4);
            pto_tile *lbound[] = {la, lb, lc, lt, ld};
            const pto_status sl = run_program_bound(kLists[k], kListNames, lbound, 5, NULL, NULL, 0);
            assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
            if (sl != PTO_OK) fail_msg("tmrgsort form %zu: %s (%s)", k, pto_status_string(sl), pto_last_error());
            assert_memory_equal(pto_tile_data(ld), pto_tile_data(lwant), 384 * 4);
            pto_tile_destroy(ld);
        }
    expect_program_refused_with("%ex = arith.constant dense<0> : vector<4xi32>\n"
                                "pto.tmrgsort ins(%a, %b, %t : " L ", " L ", " M ") outs(%d, %ex : " M
                                ", vector<4xi32>)\n",
                                NULL, "vector<4xi16>, not vector<4xi32>");
    expect_program_refused_with("%ex = arith.constant dense<0> : vector<4xi16>\n"
                                "pto.tmrgsort ins(%a, %b, %c, %e, %f, %t : " L ", " L ", " L ", " L ", " L ", " M
                                ") outs(%d, %ex : " M ", vector<4xi16>)\n",
                                NULL, "merges 2 to 4 lists (then tmp), not 5");
    /* read by the row tmrgsort_lists's roles: its OptionalSrc lists without
     * a tmp (no_tmp, the synchronous form), its counts a vector<4xi16> */
    expect_program_refused_with("%ex = arith.constant dense<0> : vector<4xi16>\n"
                                "pto.tmrgsort ins(%a, %b, %c, %e, %f no_tmp : " L ", " L ", " L ", " L ", " L
                                ") outs(%d, %ex : " M ", vector<4xi16>)\n",
                                NULL, "pto.tmrgsort merges 2 to 4 lists, not 5");
    expect_program_refused_with("%d, %ex = pto.tmrgsort %a : (" L ") -> (" M ", vector<4xi16>)\n", NULL,
                                "pto.tmrgsort merges 2 to 4 lists, not 1");
    expect_program_refused_with("%d, %ex = pto.tmrgsort %a, %b : (" L ", " L ") -> (" M ", vector<4xi32>)\n", NULL,
                                "tmrgsort's executed is a vector<4xi16>, not vector<4xi32>");
    /* PTOAS's kernels take %executed as a parameter: nothing to bind */
    pto_program *with_param = program_build(
        "func.func @k(%ex: vector<4xi16>, %a: " L ", %b: " L ", %d: !pto.tile_buf<vec, 1x256xf32>) {\n"
        "  pto.tmrgsort ins(%a, %b no_tmp {exhausted = false} : " L ", " L ") "
        "outs(%d, %ex : !pto.tile_buf<vec, 1x256xf32>, vector<4xi16>)\n  return\n}\n",
        NULL);
    assert_int_equal(pto_program_param_count(with_param), 3);
    assert_string_equal(pto_program_param_name(with_param, 0), "a");
    pto_program_destroy(with_param);
    /* a tmp narrower than the lists: HOST accepts it (tmp unused), A2A3 does not */
    pto_program_destroy(program_build("%ex = arith.constant dense<0> : vector<4xi16>\n"
                                      "pto.tmrgsort ins(%a, %b, %t : " L ", " L ", !pto.tile_buf<vec, 1x200xf32>) "
                                      "outs(%d, %ex : !pto.tile_buf<vec, 1x200xf32>, vector<4xi16>)\n",
                                      NULL));
    assert_int_equal(pto_set_profile(PTO_PROFILE_A2A3), PTO_OK);
    expect_program_refused_with("%ex = arith.constant dense<0> : vector<4xi16>\n"
                                "pto.tmrgsort ins(%a, %b, %t : " L ", " L ", !pto.tile_buf<vec, 1x200xf32>) "
                                "outs(%d, %ex : !pto.tile_buf<vec, 1x200xf32>, vector<4xi16>)\n",
                                NULL, "tmp is 1x200, not one row of at least the sources' 256 cols");
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    /* Two lists that are subviews of one row (PyPTO's top-k merges the halves
     * of its sorted row so): A5's tmp rule counts each subview's own cols
     * (128 + 128), not its parent's row pitch (256 + 256). */
    {
        pto_tile *row = tile_new(PTO_FLOAT32, 1, 256, 1, 256), *mt = tile_new(PTO_FLOAT32, 1, 256, 1, 256);
        pto_tile *md = tile_new(PTO_FLOAT32, 1, 256, 1, 256), *mwant = tile_new(PTO_FLOAT32, 1, 256, 1, 256);
        memcpy(pto_tile_data(row), pto_tile_data(la), 128 * 4);
        memcpy((char *)pto_tile_data(row) + 128 * 4, pto_tile_data(lb), 128 * 4);
        assert_int_equal(pto_tmrgsort_lists(mwant, la, lb, NULL, NULL, NULL, 0, NULL), PTO_OK);
#define HALVES(TMP)                                                                                 \
    "%c0 = arith.constant 0 : index\n%c128 = arith.constant 128 : index\n"                          \
    "%a = pto.subview %p[%c0, %c0] sizes [1, 128] : !pto.tile_buf<vec, 1x256xf32> -> " L "\n"        \
    "%b = pto.subview %p[%c0, %c128] sizes [1, 128] : !pto.tile_buf<vec, 1x256xf32> -> " L "\n"      \
    "%ex = arith.constant dense<0> : vector<4xi16>\n"                                               \
    "pto.tmrgsort ins(%a, %b, %t {exhausted = false} : " L ", " L ", " TMP ") "                      \
    "outs(%d, %ex : !pto.tile_buf<vec, 1x256xf32>, vector<4xi16>)\n"
        static const char *const kHalfNames[] = {"p", "t", "d"};
        pto_tile *hbound[] = {row, mt, md};
        assert_int_equal(pto_set_profile(PTO_PROFILE_A5), PTO_OK);
        const pto_status sh =
            run_program_bound(HALVES("!pto.tile_buf<vec, 1x256xf32>"), kHalfNames, hbound, 3, NULL, NULL, 0);
        if (sh != PTO_OK) fail_msg("tmrgsort of two subviews under A5: %s (%s)", pto_status_string(sh), pto_last_error());
        assert_memory_equal(pto_tile_data(md), pto_tile_data(mwant), 256 * 4);
        expect_program_refused_with(HALVES("!pto.tile_buf<vec, 1x200xf32>"), NULL,
                                    "tmp is 1x200, not one row of at least the sources' 256 cols");
        assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
#undef HALVES
        TILES_DESTROY(row, mt, md, mwant);
    }
#undef L
#undef M
    TILES_DESTROY(la, lb, lc, lt, lwant);
    print_message("[sort] tsort32 and tmrgsort's DPS forms equal the calls; a ui32 tci start; "
                  "tmrgsort's 3 multi-list forms under HOST and A5\n");
    TILES_DESTROY(s, i, want, tmp, got);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tsort32),
        cmocka_unit_test(test_top_k_chain),
        cmocka_unit_test(test_merge_lists),
        cmocka_unit_test(test_rules),
        cmocka_unit_test(test_lists_row),
        cmocka_unit_test(test_programs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
