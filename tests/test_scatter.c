/* TSCATTER (its index form): every dtype with both index dtypes of its
 * width against the page's definition written here (dst's rows x cols
 * zeroed, then src[i,j] to dst's element at flat offset indices[i,j], in row
 * order, the later winning), hand-computed cases, the rules in order on
 * every profile with nothing written on a refusal, and the three text forms
 * in programs equal to the C call, an index out of range refusing the run;
 * the mask-pattern form (pto_tscatter_mask) against its definition, its
 * rules and PyPTO's text of it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/harness.h"

static const pto_dtype kDtypes[] = {PTO_INT32,  PTO_INT16,  PTO_INT8,  PTO_FLOAT16, PTO_FLOAT32,
                                    PTO_UINT32, PTO_UINT16, PTO_UINT8, PTO_BFLOAT16};

/* The page's definition: a zeroed rows x cols, then each index's element of
 * src in row order. */
static uint32_t *scatter_reference(const pto_tile *dst, const pto_tile *src, const pto_tile *idx) {
    const size_t n = (size_t)pto_tile_rows(dst) * pto_tile_cols(dst);
    uint32_t *want = calloc(n + 1, sizeof(uint32_t));
    for (uint32_t i = 0; i < pto_tile_valid_rows(idx); ++i)
        for (uint32_t j = 0; j < pto_tile_valid_cols(idx); ++j) want[tile_get(idx, i, j)] = tile_get(src, i, j);
    return want;
}

static void expect_whole(const pto_tile *dst, const uint32_t *want, const char *what) {
    const uint32_t cols = pto_tile_cols(dst);
    for (uint32_t i = 0; i < pto_tile_rows(dst); ++i)
        for (uint32_t j = 0; j < cols; ++j)
            if (tile_get(dst, i, j) != want[(size_t)i * cols + j])
                fail_msg("%s: dst (%u,%u) 0x%x, want 0x%x", what, i, j, tile_get(dst, i, j),
                         want[(size_t)i * cols + j]);
}

/* Random offsets of elements of dst's valid region that the index dtype
 * holds (INT16 up to 32767); a few repeated, so that the order shows. */
static void fill_indices(pto_tile *idx, const pto_tile *dst, rng *r) {
    const uint32_t cols = pto_tile_cols(dst), vr = pto_tile_valid_rows(dst), vc = pto_tile_valid_cols(dst);
    const uint32_t most = pto_tile_dtype(idx) == PTO_INT16 ? 32767u
                          : pto_tile_dtype(idx) == PTO_UINT16 ? 65535u
                                                              : 0xFFFFFFFFu;
    uint32_t previous = 0;
    for (uint32_t i = 0; i < pto_tile_valid_rows(idx); ++i)
        for (uint32_t j = 0; j < pto_tile_valid_cols(idx); ++j) {
            uint32_t k;
            do k = (uint32_t)(rng_next(r) % vr) * cols + (uint32_t)(rng_next(r) % vc);
            while (k > most);
            if ((i + j) % 5 == 4) k = previous;
            tile_put(idx, i, j, k);
            previous = k;
        }
}

static void test_tscatter_values(void **state) {
    (void)state;
    /* src rows, cols, valid rows, valid cols; indices valid rows, valid cols;
     * dst rows, cols, valid rows, valid cols */
    static const uint32_t kShapes[][10] = {
        {1, 1, 1, 1, 1, 1, 1, 1, 1, 1},          {16, 16, 16, 16, 16, 16, 16, 16, 16, 16},
        {1, 300, 1, 300, 1, 300, 1, 600, 1, 600}, {8, 37, 5, 30, 4, 29, 9, 70, 7, 65},
        {4, 8, 4, 8, 0, 8, 3, 5, 3, 5},            {2, 64, 2, 64, 2, 64, 1, 8, 1, 8},
        {3, 40, 3, 33, 3, 33, 200, 256, 200, 256},
    };
    rng r = {0x5CA7};
    size_t elements = 0, calls = 0;
    for (int p = PTO_PROFILE_HOST; p <= PTO_PROFILE_A5; ++p) {
        assert_int_equal(pto_set_profile((pto_profile)p), PTO_OK);
        for (size_t d = 0; d < COUNT(kDtypes); ++d)
            for (int x = 0; x < 2; ++x)
                for (size_t k = 0; k < COUNT(kShapes); ++k) {
                    const uint32_t *s = kShapes[k];
                    const bool wide = pto_dtype_size(kDtypes[d]) == 4;
                    const pto_dtype index_dt = wide ? (x ? PTO_UINT32 : PTO_INT32) : (x ? PTO_UINT16 : PTO_INT16);
                    pto_tile *src = tile_new(kDtypes[d], s[0], s[1], s[2], s[3]);
                    pto_tile *idx = tile_new(index_dt, s[4] + 1, s[5] + 3, s[4], s[5]);
                    pto_tile *dst = tile_new(kDtypes[d], s[6], s[7], s[8], s[9]);
                    tile_fill(src, &r, GEN_ANY);
                    tile_fill(dst, &r, GEN_ANY);
                    fill_indices(idx, dst, &r);
                    uint64_t *src_bits = tile_snapshot(src), *idx_bits = tile_snapshot(idx);
                    uint32_t *want = scatter_reference(dst, src, idx);
                    char what[160];
                    snprintf(what, sizeof what, "tscatter %s by %s on %s, %ux%u into %ux%u",
                             pto_dtype_string(kDtypes[d]), pto_dtype_string(index_dt),
                             pto_profile_string((pto_profile)p), s[4], s[5], s[6], s[7]);
                    const pto_status got = pto_tscatter(dst, src, idx);
                    if (got != PTO_OK) fail_msg("%s: %s (%s)", what, pto_status_string(got), pto_last_error());
                    expect_whole(dst, want, what);
                    assert_tile_unchanged(src, src_bits, what);
                    assert_tile_unchanged(idx, idx_bits, what);
                    elements += (size_t)s[4] * s[5];
                    ++calls;
                    free(src_bits);
                    free(idx_bits);
                    free(want);
                    TILES_DESTROY(src, idx, dst);
                }
    }
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    print_message("[scatter] %zu calls (9 dtypes x 2 index dtypes x 3 profiles), %zu elements as the "
                  "definition\n", calls, elements);
}

/* src 2x3 int32 100..105 by indices 5 0 5 / 7 1 2 into a 2x4 dst:
 * element 5 is written twice, the later (102) stays; 3, 4 and 6 are zero. */
static void test_tscatter_cases(void **state) {
    (void)state;
    pto_tile *src = tile_new(PTO_INT32, 2, 3, 2, 3), *idx = tile_new(PTO_UINT32, 2, 3, 2, 3);
    pto_tile *dst = tile_new(PTO_INT32, 2, 4, 2, 4);
    static const uint32_t kIdx[] = {5, 0, 5, 7, 1, 2};
    for (uint32_t k = 0; k < 6; ++k) {
        tile_put(src, k / 3, k % 3, 100 + k);
        tile_put(idx, k / 3, k % 3, kIdx[k]);
    }
    for (uint32_t k = 0; k < 8; ++k) tile_put(dst, k / 4, k % 4, 0xDEADBEEFu);
    assert_int_equal(pto_tscatter(dst, src, idx), PTO_OK);
    static const uint32_t kWant[] = {101, 104, 105, 0, 0, 102, 0, 103};
    for (uint32_t k = 0; k < 8; ++k) assert_int_equal(tile_get(dst, k / 4, k % 4), kWant[k]);
    /* float16 by int16: the bits move unchanged (a NaN's payload, -0) and
     * dst's padding outside its valid region is zeroed too */
    pto_tile *h = tile_new(PTO_FLOAT16, 1, 3, 1, 3), *hi = tile_new(PTO_INT16, 1, 3, 1, 3);
    pto_tile *hd = tile_new(PTO_FLOAT16, 2, 4, 1, 2);
    static const uint32_t kHalf[] = {0x7E01, 0x8000, 0x3C00}, kHalfIdx[] = {1, 0, 1};
    for (uint32_t j = 0; j < 3; ++j) {
        tile_put(h, 0, j, kHalf[j]);
        tile_put(hi, 0, j, kHalfIdx[j]);
    }
    for (uint32_t k = 0; k < 8; ++k) tile_put(hd, k / 4, k % 4, 0x5555);
    assert_int_equal(pto_tscatter(hd, h, hi), PTO_OK);
    static const uint32_t kHalfWant[] = {0x8000, 0x3C00, 0, 0, 0, 0, 0, 0};
    for (uint32_t k = 0; k < 8; ++k) assert_int_equal(tile_get(hd, k / 4, k % 4), kHalfWant[k]);
    TILES_DESTROY(src, idx, dst, h, hi, hd);
}

/* The rules in their order; every profile the same (A2A3's and A5's lists
 * and pairing are HOST's). */
static void test_tscatter_rules(void **state) {
    (void)state;
    pto_tile *src = tile_new(PTO_INT32, 2, 3, 2, 3), *idx = tile_new(PTO_INT32, 2, 3, 2, 3);
    pto_tile *dst = tile_new(PTO_INT32, 2, 4, 2, 4), *f = tile_new(PTO_FLOAT32, 2, 3, 2, 3);
    pto_tile *i16 = tile_new(PTO_INT16, 2, 3, 2, 3), *u8 = tile_new(PTO_UINT8, 2, 3, 2, 3);
    pto_tile *b8 = tile_new(PTO_INT8, 2, 3, 2, 3), *b8d = tile_new(PTO_INT8, 2, 4, 2, 4);
    pto_tile *big = tile_new(PTO_INT32, 3, 4, 3, 4), *bf = tile_new(PTO_BFLOAT16, 2, 3, 2, 3);
    pto_tile *bfd = tile_new(PTO_BFLOAT16, 2, 4, 2, 4);
    static const uint32_t kIdx[] = {5, 0, 5, 7, 1, 2};
    for (uint32_t k = 0; k < 6; ++k) {
        tile_put(idx, k / 3, k % 3, kIdx[k]);
        tile_put(i16, k / 3, k % 3, kIdx[k]);
    }
    rng r = {0x5C};
    tile_fill(dst, &r, GEN_ANY);
    for (int p = PTO_PROFILE_HOST; p <= PTO_PROFILE_A5; ++p) {
        assert_int_equal(pto_set_profile((pto_profile)p), PTO_OK);
        uint64_t *before = tile_snapshot(dst);
        expect_status(pto_tscatter(NULL, src, idx), PTO_ERR_NULL_ARGUMENT, "NULL dst");
        expect_status(pto_tscatter(dst, src, NULL), PTO_ERR_NULL_ARGUMENT, "NULL indices");
        assert_non_null(strstr(pto_last_error(), "pto_tscatter: indices"));
        expect_status(pto_tscatter(dst, f, idx), PTO_ERR_DTYPE_MISMATCH, "src of another dtype");
        expect_status(pto_tscatter(dst, src, f), PTO_ERR_UNSUPPORTED_DTYPE, "FLOAT32 indices");
        assert_non_null(strstr(pto_last_error(), "indices dtype FLOAT32"));
        expect_status(pto_tscatter(dst, src, u8), PTO_ERR_UNSUPPORTED_DTYPE, "UINT8 indices");
        expect_status(pto_tscatter(dst, src, i16), PTO_ERR_DTYPE_MISMATCH, "2-byte indices, 4-byte data");
        assert_non_null(strstr(pto_last_error(), "not 4 bytes wide"));
        expect_status(pto_tscatter(b8d, b8, idx), PTO_ERR_DTYPE_MISMATCH, "4-byte indices, 1-byte data");
        expect_status(pto_tscatter(dst, dst, idx), PTO_ERR_ALIASING, "src is dst");
        expect_status(pto_tscatter(dst, src, dst), PTO_ERR_ALIASING, "indices is dst");
        expect_status(pto_tscatter(dst, src, big), PTO_ERR_SHAPE_MISMATCH, "indices beyond src's region");
        tile_put(idx, 1, 2, 8); /* one past dst's last element */
        expect_status(pto_tscatter(dst, src, idx), PTO_ERR_OUT_OF_RANGE, "index 8");
        assert_non_null(strstr(pto_last_error(), "indices (1, 2) is 8"));
        tile_put(idx, 1, 2, 0xFFFFFFFFu);
        expect_status(pto_tscatter(dst, src, idx), PTO_ERR_OUT_OF_RANGE, "index -1");
        assert_non_null(strstr(pto_last_error(), "is -1"));
        assert_int_equal(pto_tile_set_valid(dst, 2, 3), PTO_OK);
        tile_put(idx, 1, 2, 3); /* row 0, col 3: outside dst's valid columns */
        expect_status(pto_tscatter(dst, src, idx), PTO_ERR_OUT_OF_RANGE, "index in dst's padding");
        assert_tile_unchanged(dst, before, "refused tscatter");
        assert_int_equal(pto_tile_set_valid(dst, 2, 4), PTO_OK);
        tile_put(idx, 1, 2, 2);
        expect_status(pto_tscatter(b8d, b8, i16), PTO_OK, "INT8 by INT16");
        expect_status(pto_tscatter(bfd, bf, i16), PTO_OK, "BFLOAT16 by INT16");
        expect_status(pto_tscatter(dst, src, idx), PTO_OK, "INT32 by INT32");
        tile_fill(dst, &r, GEN_ANY);
        free(before);
    }
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    /* src placed in dst's padding (rows x cols, not its valid region): dst is
     * zeroed whole, so that is shared storage. */
    pto_buffer *b = NULL;
    pto_tile *on = NULL, *under = NULL;
    assert_int_equal(pto_buffer_create(4096, &b), PTO_OK);
    assert_int_equal(pto_tile_create_at(PTO_INT32, 4, 8, b, 0, &on), PTO_OK);
    assert_int_equal(pto_tile_create_at(PTO_INT32, 2, 3, b, 3 * 8 * 4, &under), PTO_OK);
    assert_int_equal(pto_tile_set_valid(on, 2, 8), PTO_OK);
    expect_status(pto_tscatter(on, under, idx), PTO_ERR_ALIASING, "src in dst's padding");
    expect_status(pto_tscatter(on, src, under), PTO_ERR_ALIASING, "indices in dst's padding");
    pto_tile_destroy(on);
    pto_tile_destroy(under);
    pto_buffer_destroy(b);
    TILES_DESTROY(src, idx, dst, f, i16, u8, b8, b8d, big, bf, bfd);
}

/* The DPS, SSA and synchronous forms equal the C call; an index out of
 * range refuses the run with nothing written. */
static void test_tscatter_programs(void **state) {
    (void)state;
    pto_tile *src = tile_new(PTO_INT32, 2, 3, 2, 3), *idx = tile_new(PTO_INT32, 2, 3, 2, 3);
    static const uint32_t kIdx[] = {5, 0, 5, 7, 1, 2};
    for (uint32_t k = 0; k < 6; ++k) {
        tile_put(src, k / 3, k % 3, 100 + k);
        tile_put(idx, k / 3, k % 3, kIdx[k]);
    }
    pto_tile *want = tile_new(PTO_INT32, 2, 4, 2, 4);
    assert_int_equal(pto_tscatter(want, src, idx), PTO_OK);
    static const char *const kForms[] = {
        "pto.tscatter ins(%s, %i : !pto.tile_buf<vec, 2x3xi32>, !pto.tile_buf<vec, 2x3xi32>) "
        "outs(%d : !pto.tile_buf<vec, 2x4xi32>)\n",
        "%d = pto.tscatter %s, %i : (!pto.tile<2x3xi32>, !pto.tile<2x3xi32>) -> !pto.tile<2x4xi32>\n",
        "%d = tscatter %s, %i : !pto.tile<2x3xi32>, !pto.tile<2x3xi32> -> !pto.tile<2x4xi32>\n",
    };
    static const char *const kNames[] = {"s", "i", "d"};
    rng r = {0x5D};
    for (size_t k = 0; k < COUNT(kForms); ++k) {
        pto_tile *out = tile_new(PTO_INT32, 2, 4, 2, 4);
        tile_fill(out, &r, GEN_ANY);
        pto_tile *tiles[] = {src, idx, out};
        const pto_status run = run_program_bound(kForms[k], kNames, tiles, 3, NULL, NULL, 0);
        if (run != PTO_OK) fail_msg("%s: run %s (%s)", kForms[k], pto_status_string(run), pto_last_error());
        for (uint32_t i = 0; i < 2; ++i)
            for (uint32_t j = 0; j < 4; ++j) assert_int_equal(tile_get(out, i, j), tile_get(want, i, j));
        tile_put(idx, 0, 1, 8);
        tile_fill(out, &r, GEN_ANY);
        uint64_t *kept = tile_snapshot(out);
        assert_int_equal(run_program_bound(kForms[k], kNames, tiles, 3, NULL, NULL, 0), PTO_ERR_OUT_OF_RANGE);
        assert_non_null(strstr(pto_last_error(), "pto_tscatter"));
        assert_tile_unchanged(out, kept, "refused tscatter run");
        tile_put(idx, 0, 1, 0);
        free(kept);
        pto_tile_destroy(out);
    }
    expect_program_refused("pto.tscatter ins(%s, %i : !pto.tile_buf<vec, 2x3xi32>, !pto.tile_buf<vec, 2x3xi16>) "
                           "outs(%d : !pto.tile_buf<vec, 2x4xi32>)\n",
                           PTO_ERR_DTYPE_MISMATCH);
    expect_program_refused("pto.tscatter ins(%s, %i : !pto.tile_buf<vec, 2x3xi32>, !pto.tile_buf<vec, 2x3xf32>) "
                           "outs(%d : !pto.tile_buf<vec, 2x4xi32>)\n",
                           PTO_ERR_UNSUPPORTED_DTYPE);
    print_message("[scatter] 3 text forms equal the C call, 3 refused runs, 2 refused programs\n");
    TILES_DESTROY(src, idx, want);
}

/* The mask-pattern form (pto-isa's TSCATTER<MaskPattern, ScatterAxis>):
 * each src element to the pattern's lane of its group of 2 or 4 columns
 * ("row") or rows ("col"), the rest of dst's rows x cols zero; P1111 a
 * TMOV that leaves the rest as it was. Every pattern, both axes, the nine
 * dtypes, against the definition written here. */
static const pto_mask_pattern kPatterns[] = {PTO_MASK_P0101, PTO_MASK_P1010, PTO_MASK_P0001, PTO_MASK_P0010,
                                             PTO_MASK_P0100, PTO_MASK_P1000, PTO_MASK_P1111};
static uint32_t pattern_group(pto_mask_pattern p) { return p == PTO_MASK_P1111 ? 1 : p <= PTO_MASK_P1010 ? 2 : 4; }
static uint32_t pattern_lane(pto_mask_pattern p) {
    return p == PTO_MASK_P1010 ? 1 : p == PTO_MASK_P0010 ? 1 : p == PTO_MASK_P0100 ? 2 : p == PTO_MASK_P1000 ? 3 : 0;
}

static void test_tscatter_mask_values(void **state) {
    (void)state;
    rng r = {0x5E};
    size_t calls = 0;
    for (size_t d = 0; d < COUNT(kDtypes); ++d)
        for (size_t k = 0; k < COUNT(kPatterns); ++k)
            for (int axis = PTO_GATHER_ROW; axis <= PTO_GATHER_COL; ++axis) {
                const uint32_t g = pattern_group(kPatterns[k]), lane = pattern_lane(kPatterns[k]);
                const uint32_t vr = 3, vc = 5;
                pto_tile *src = tile_new(kDtypes[d], 4, 8, vr, vc);
                const uint32_t dvr = axis == PTO_GATHER_COL ? vr * g : vr, dvc = axis == PTO_GATHER_COL ? vc : vc * g;
                pto_tile *dst = tile_new(kDtypes[d], dvr + 1, dvc + 3, dvr, dvc);
                tile_fill(src, &r, GEN_ANY);
                tile_fill(dst, &r, GEN_ANY);
                uint64_t *before = tile_snapshot(dst);
                const pto_status st = pto_tscatter_mask(dst, src, kPatterns[k], (pto_gather_axis)axis);
                if (st != PTO_OK) fail_msg("tscatter_mask %zu/%zu/%d: %s (%s)", d, k, axis, pto_status_string(st), pto_last_error());
                for (uint32_t i = 0; i < pto_tile_rows(dst); ++i)
                    for (uint32_t j = 0; j < pto_tile_cols(dst); ++j) {
                        /* the src element this dst element receives, if any */
                        const int by_rows = axis == PTO_GATHER_COL;
                        const uint32_t along = by_rows ? i : j;
                        const uint32_t si = by_rows ? i / g : i, sj = by_rows ? j : j / g;
                        const int hit = along % g == lane && si < vr && sj < vc && i < dvr && j < dvc;
                        const uint32_t want = hit      ? tile_get(src, si, sj)
                                              : g == 1 ? (uint32_t)before[(size_t)i * pto_tile_cols(dst) + j]
                                                       : 0;
                        if (tile_get(dst, i, j) != want)
                            fail_msg("tscatter_mask dtype %zu pattern %d axis %d: dst (%u,%u) 0x%x, want 0x%x", d,
                                     (int)kPatterns[k], axis, i, j, tile_get(dst, i, j), want);
                    }
                free(before);
                TILES_DESTROY(src, dst);
                ++calls;
            }
    print_message("[scatter] %zu mask-pattern calls (9 dtypes x 7 patterns x 2 axes) match the definition\n", calls);
}

static void test_tscatter_mask_rules(void **state) {
    (void)state;
    pto_tile *src = tile_new(PTO_FLOAT32, 16, 32, 16, 32), *dst = tile_new(PTO_FLOAT32, 16, 64, 16, 64);
    pto_tile *narrow = tile_new(PTO_FLOAT32, 16, 48, 16, 48), *h = tile_new(PTO_FLOAT16, 16, 32, 16, 32);
    pto_tile *wide = tile_new(PTO_INT64, 16, 32, 16, 32), *wide_dst = tile_new(PTO_INT64, 16, 64, 16, 64);
    rng r = {0x5F};
    tile_fill(dst, &r, GEN_ANY);
    uint64_t *kept = tile_snapshot(dst);
    expect_status(pto_tscatter_mask(NULL, src, PTO_MASK_P0101, PTO_GATHER_ROW), PTO_ERR_NULL_ARGUMENT, "NULL dst");
    expect_status(pto_tscatter_mask(dst, h, PTO_MASK_P0101, PTO_GATHER_ROW), PTO_ERR_DTYPE_MISMATCH, "FLOAT16 src");
    expect_status(pto_tscatter_mask(dst, src, (pto_mask_pattern)0, PTO_GATHER_ROW), PTO_ERR_INVALID_ARGUMENT, "pattern 0");
    expect_status(pto_tscatter_mask(dst, src, PTO_MASK_P0101, (pto_gather_axis)2), PTO_ERR_INVALID_ARGUMENT, "axis 2");
    expect_status(pto_tscatter_mask(dst, dst, PTO_MASK_P0101, PTO_GATHER_ROW), PTO_ERR_ALIASING, "src is dst");
    expect_status(pto_tscatter_mask(narrow, src, PTO_MASK_P0101, PTO_GATHER_ROW), PTO_ERR_SHAPE_MISMATCH, "48 cols, not 64");
    expect_status(pto_tscatter_mask(dst, src, PTO_MASK_P0001, PTO_GATHER_ROW), PTO_ERR_SHAPE_MISMATCH, "64 cols, not 128");
    expect_status(pto_tscatter_mask(dst, src, PTO_MASK_P0101, PTO_GATHER_COL), PTO_ERR_SHAPE_MISMATCH, "col axis, 16 rows");
    assert_tile_unchanged(dst, kept, "refused tscatter_mask");
    assert_int_equal(pto_tscatter_mask(wide_dst, wide, PTO_MASK_P1010, PTO_GATHER_ROW), PTO_OK);
    assert_int_equal(pto_set_profile(PTO_PROFILE_A2A3), PTO_OK);
    expect_status(pto_tscatter_mask(wide_dst, wide, PTO_MASK_P1010, PTO_GATHER_ROW), PTO_ERR_UNSUPPORTED_DTYPE,
                  "A2A3 INT64");
    assert_int_equal(pto_tscatter_mask(dst, src, PTO_MASK_P1010, PTO_GATHER_ROW), PTO_OK);
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    free(kept);
    TILES_DESTROY(src, dst, narrow, h, wide, wide_dst);
}

/* PyPTO's A2A3 and A5 text (dspark's merge-norm kernel): the mask-pattern
 * form of pto.tscatter with its axis, equal to the C call under A2A3 and A5. */
static void test_tscatter_mask_programs(void **state) {
    (void)state;
    rng r = {0x60};
    pto_tile *src = tile_new(PTO_FLOAT32, 16, 32, 16, 32), *want = tile_new(PTO_FLOAT32, 16, 64, 16, 64);
    tile_fill(src, &r, GEN_ANY);
    assert_int_equal(pto_tscatter_mask(want, src, PTO_MASK_P1010, PTO_GATHER_ROW), PTO_OK);
    static const char kText[] =
        "pto.tscatter ins(%s, {maskPattern = #pto.mask_pattern<P1010>} : !pto.tile_buf<loc=vec, dtype=f32, "
        "rows=16, cols=32, v_row=16, v_col=32, blayout=row_major, slayout=none_box, fractal=512, pad=0>, \"row\") "
        "outs(%d : !pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=64, v_row=16, v_col=64, blayout=row_major, "
        "slayout=none_box, fractal=512, pad=0>)\n";
    static const char *const kNames[] = {"s", "d"};
    static const pto_profile kProfiles[] = {PTO_PROFILE_HOST, PTO_PROFILE_A2A3, PTO_PROFILE_A5};
    for (size_t f = 0; f < COUNT(kProfiles); ++f) {
        pto_tile *out = tile_new(PTO_FLOAT32, 16, 64, 16, 64);
        tile_fill(out, &r, GEN_ANY);
        pto_tile *tiles[] = {src, out};
        assert_int_equal(pto_set_profile(kProfiles[f]), PTO_OK);
        const pto_status st = run_program_bound(kText, kNames, tiles, 2, NULL, NULL, 0);
        assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
        if (st != PTO_OK) fail_msg("mask tscatter, profile %zu: %s (%s)", f, pto_status_string(st), pto_last_error());
        assert_memory_equal(pto_tile_data(out), pto_tile_data(want), 16 * 64 * 4);
        pto_tile_destroy(out);
    }
    expect_program_refused_with("pto.tscatter ins(%s, {maskPattern = #pto.mask_pattern<P0001>} : "
                                "!pto.tile_buf<vec, 16x32xf32>, \"row\") outs(%d : !pto.tile_buf<vec, 16x64xf32>)\n",
                                NULL, "dst valid region 16x64 is not src's 16x32 with its cols times 4");
    print_message("[scatter] PyPTO's mask-pattern text equals the C call under HOST, A2A3, A5; 1 refused\n");
    TILES_DESTROY(src, want);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tscatter_mask_values),
        cmocka_unit_test(test_tscatter_mask_rules),
        cmocka_unit_test(test_tscatter_mask_programs),
        cmocka_unit_test(test_tscatter_cases),
        cmocka_unit_test(test_tscatter_values),
        cmocka_unit_test(test_tscatter_rules),
        cmocka_unit_test(test_tscatter_programs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
