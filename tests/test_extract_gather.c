/* TEXTRACT, TINSERT, TGATHER and TGATHERB: every dtype (and every index dtype) against the
 * pages' definitions element by element, hand-computed cases, the rules in
 * order per profile with nothing written on a refusal, and program runs
 * equal to the C calls, offsets and indices out of range refusing the run. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/harness.h"

static const pto_dtype kDtypes[] = {PTO_INT8,  PTO_UINT8,   PTO_INT16,    PTO_UINT16, PTO_INT32,
                                    PTO_UINT32, PTO_FLOAT16, PTO_BFLOAT16, PTO_FLOAT32};

/* dst's every element: want(i, j) inside its valid region, as before outside. */
static void expect_region(const pto_tile *dst, const uint64_t *before, const uint32_t *want,
                          const char *what) {
    const uint32_t cols = pto_tile_cols(dst), vr = pto_tile_valid_rows(dst), vc = pto_tile_valid_cols(dst);
    for (uint32_t i = 0; i < pto_tile_rows(dst); ++i)
        for (uint32_t j = 0; j < cols; ++j) {
            const uint32_t w = i < vr && j < vc ? want[(size_t)i * vc + j] : before[(size_t)i * cols + j];
            if (tile_get(dst, i, j) != w)
                fail_msg("%s: dst (%u,%u) 0x%x, want 0x%x", what, i, j, tile_get(dst, i, j), w);
        }
}

/* ---- textract ------------------------------------------------------------ */

/* The window's elements, by the page's definition: dst[i,j] = src[row + i, col + j]. */
static uint32_t *window_of(const pto_tile *src, uint32_t vr, uint32_t vc, size_t row, size_t col) {
    uint32_t *w = malloc(sizeof(uint32_t) * ((size_t)vr * vc + 1));
    for (uint32_t i = 0; i < vr; ++i)
        for (uint32_t j = 0; j < vc; ++j) w[(size_t)i * vc + j] = tile_get(src, row + i, col + j);
    return w;
}

static void test_textract(void **state) {
    (void)state;
    /* src rows, cols, valid rows, valid cols; dst rows, cols, valid rows, valid cols */
    static const uint32_t kShapes[][8] = {
        {1, 1, 1, 1, 1, 1, 1, 1},       {8, 16, 8, 16, 4, 8, 4, 8},   {8, 16, 6, 13, 4, 8, 2, 5},
        {16, 64, 16, 64, 16, 64, 16, 64}, {33, 70, 33, 65, 9, 40, 9, 33}, {5, 37, 5, 37, 5, 37, 0, 3},
        {64, 9, 64, 9, 64, 1, 64, 1},
    };
    rng r = {0xE7};
    size_t elements = 0, calls = 0;
    for (size_t d = 0; d < COUNT(kDtypes); ++d)
        for (size_t k = 0; k < COUNT(kShapes); ++k) {
            const uint32_t *s = kShapes[k];
            pto_tile *src = tile_new(kDtypes[d], s[0], s[1], s[2], s[3]);
            tile_fill(src, &r, GEN_ANY);
            uint64_t *src_bits = tile_snapshot(src);
            /* the corners of the offsets the window allows, and one between */
            const uint32_t rmax = s[2] - s[6], cmax = s[3] - s[7];
            const size_t offsets[][2] = {{0, 0}, {rmax, cmax}, {0, cmax}, {rmax, 0}, {rmax / 2, cmax / 3}};
            for (size_t o = 0; o < COUNT(offsets); ++o) {
                pto_tile *dst = tile_new(kDtypes[d], s[4], s[5], s[6], s[7]);
                tile_fill(dst, &r, GEN_ANY);
                uint64_t *before = tile_snapshot(dst);
                uint32_t *want = window_of(src, s[6], s[7], offsets[o][0], offsets[o][1]);
                char what[128];
                snprintf(what, sizeof what, "textract %s %ux%u at (%zu, %zu)", pto_dtype_string(kDtypes[d]),
                         s[6], s[7], offsets[o][0], offsets[o][1]);
                const pto_status got = pto_textract(dst, src, offsets[o][0], offsets[o][1]);
                if (got != PTO_OK) fail_msg("%s: %s (%s)", what, pto_status_string(got), pto_last_error());
                expect_region(dst, before, want, what);
                assert_tile_unchanged(src, src_bits, what);
                elements += (size_t)s[6] * s[7];
                ++calls;
                free(before);
                free(want);
                pto_tile_destroy(dst);
            }
            free(src_bits);
            pto_tile_destroy(src);
        }
    /* the rules, in order */
    pto_tile *src = tile_new(PTO_FLOAT32, 8, 16, 6, 16), *dst = tile_new(PTO_FLOAT32, 4, 8, 4, 8);
    pto_tile *h = tile_new(PTO_FLOAT16, 8, 16, 8, 16);
    tile_fill(src, &r, GEN_ANY);
    tile_fill(dst, &r, GEN_ANY);
    uint64_t *before = tile_snapshot(dst);
    assert_int_equal(pto_textract(dst, NULL, 0, 0), PTO_ERR_NULL_ARGUMENT);
    assert_non_null(strstr(pto_last_error(), "pto_textract: src"));
    assert_int_equal(pto_textract(NULL, src, 0, 0), PTO_ERR_NULL_ARGUMENT);
    assert_int_equal(pto_textract(dst, h, 99, 0), PTO_ERR_DTYPE_MISMATCH); /* before the offsets */
    assert_int_equal(pto_textract(dst, dst, 0, 0), PTO_ERR_ALIASING);
    assert_int_equal(pto_textract(dst, src, 3, 0), PTO_ERR_OUT_OF_RANGE); /* 3 + 4 rows > 6 valid */
    assert_non_null(strstr(pto_last_error(), "outside src's valid region 6x16"));
    assert_int_equal(pto_textract(dst, src, 0, 9), PTO_ERR_OUT_OF_RANGE);
    assert_int_equal(pto_textract(dst, src, (size_t)-1, 0), PTO_ERR_OUT_OF_RANGE); /* no wrap-around */
    assert_int_equal(pto_textract(dst, src, 0, (size_t)-4), PTO_ERR_OUT_OF_RANGE);
    assert_tile_unchanged(dst, before, "refused textract");
    assert_int_equal(pto_textract(dst, src, 2, 8), PTO_OK);
    /* A2A3 and A5: dst's shape within src's; A2A3: 32-byte rows and index_col */
    pto_tile *wide = tile_new(PTO_FLOAT32, 4, 24, 4, 8), *odd = tile_new(PTO_FLOAT32, 8, 12, 8, 12);
    pto_tile *tall = tile_new(PTO_FLOAT32, 8, 8, 4, 8), *one = tile_new(PTO_FLOAT32, 1, 8, 1, 1);
    pto_tile *b8 = tile_new(PTO_INT8, 8, 32, 8, 32), *b8d = tile_new(PTO_INT8, 2, 32, 2, 3);
    assert_int_equal(pto_textract(wide, src, 0, 0), PTO_OK); /* HOST: the valid regions only */
    assert_int_equal(pto_textract(tall, src, 2, 0), PTO_OK);
    assert_int_equal(pto_textract(dst, odd, 0, 1), PTO_OK);
    assert_int_equal(pto_textract(b8d, b8, 0, 0), PTO_OK);
    for (int p = PTO_PROFILE_A2A3; p <= PTO_PROFILE_A5; ++p) {
        assert_int_equal(pto_set_profile((pto_profile)p), PTO_OK);
        assert_int_equal(pto_textract(wide, src, 0, 0), PTO_ERR_SHAPE_MISMATCH);
        assert_non_null(strstr(pto_last_error(), pto_profile_string((pto_profile)p)));
        /* A5, the page's bound: index_row + dst rows (8) <= src rows (8);
         * A2A3's ND copy bounds index_row + dst valid rows (4) only */
        assert_int_equal(pto_textract(tall, src, 2, 0),
                         p == PTO_PROFILE_A5 ? PTO_ERR_OUT_OF_RANGE : PTO_OK);
        assert_int_equal(pto_textract(tall, src, 0, 0), PTO_OK);
        assert_int_equal(pto_textract(dst, src, 2, 8), PTO_OK);
    }
    assert_int_equal(pto_set_profile(PTO_PROFILE_A2A3), PTO_OK);
    assert_int_equal(pto_textract(dst, odd, 0, 0), PTO_ERR_SHAPE_MISMATCH); /* 48-byte rows */
    assert_int_equal(pto_textract(b8d, b8, 0, 0), PTO_ERR_SHAPE_MISMATCH); /* 3 int8 columns */
    assert_int_equal(pto_textract(dst, src, 0, 4), PTO_ERR_OUT_OF_RANGE);  /* 16 bytes in */
    assert_non_null(strstr(pto_last_error(), "32 bytes"));
    assert_int_equal(pto_textract(one, src, 5, 3), PTO_OK); /* a 1x1 window: any offset */
    assert_int_equal(pto_set_profile(PTO_PROFILE_A5), PTO_OK);
    assert_int_equal(pto_textract(dst, odd, 0, 1), PTO_OK);
    assert_int_equal(pto_textract(dst, src, 0, 4), PTO_OK);
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    /* programs: DPS (the offsets arguments), SSA and synchronous (constants) */
    static const char *const kForms[] = {
        "func.func @k(%s : !pto.tile_buf<vec, 8x16xf32, valid=6x16>, %r : index, %c : index, "
        "%d : !pto.tile_buf<vec, 4x8xf32>) {\n"
        "  pto.textract ins(%s, %r, %c : !pto.tile_buf<vec, 8x16xf32, valid=6x16>, index, index) "
        "outs(%d : !pto.tile_buf<vec, 4x8xf32>)\n  return\n}\n",
        "%r = arith.constant 2 : index\n%c = arith.constant 5 : index\n"
        "%d = pto.textract %s, %r, %c : (!pto.tile<8x16xf32, valid=6x16>, index, index) -> !pto.tile<4x8xf32>\n",
        "%r = arith.constant 2 : index\n%c = arith.constant 5 : index\n"
        "%d = textract %s[%r, %c] : !pto.tile<8x16xf32, valid=6x16> -> !pto.tile<4x8xf32>\n",
    };
    pto_tile *want = tile_new(PTO_FLOAT32, 4, 8, 4, 8);
    assert_int_equal(pto_textract(want, src, 2, 5), PTO_OK);
    static const char *const kTileNames[] = {"s", "d"};
    static const char *const kIntNames[] = {"r", "c"};
    for (size_t f = 0; f < COUNT(kForms); ++f) {
        pto_tile *out = tile_new(PTO_FLOAT32, 4, 8, 4, 8);
        pto_tile *tiles[] = {src, out};
        const int64_t ints[] = {2, 5};
        const pto_status run = run_program_bound(kForms[f], kTileNames, tiles, 2, kIntNames, ints, 2);
        if (run != PTO_OK) fail_msg("%s: run %s (%s)", kForms[f], pto_status_string(run), pto_last_error());
        for (uint32_t i = 0; i < 4; ++i)
            for (uint32_t j = 0; j < 8; ++j) assert_int_equal(tile_get(out, i, j), tile_get(want, i, j));
        pto_tile_destroy(out);
    }
    /* offsets out of range refuse the run (checked when it runs), a negative one too */
    {
        pto_tile *out = tile_new(PTO_FLOAT32, 4, 8, 4, 8);
        tile_fill(out, &r, GEN_ANY);
        uint64_t *kept = tile_snapshot(out);
        pto_tile *tiles[] = {src, out};
        const int64_t far[] = {3, 0}, negative[] = {0, -1};
        assert_int_equal(run_program_bound(kForms[0], kTileNames, tiles, 2, kIntNames, far, 2), PTO_ERR_OUT_OF_RANGE);
        assert_non_null(strstr(pto_last_error(), "pto_textract"));
        assert_int_equal(run_program_bound(kForms[0], kTileNames, tiles, 2, kIntNames, negative, 2), PTO_ERR_OUT_OF_RANGE);
        assert_tile_unchanged(out, kept, "refused textract run");
        free(kept);
        pto_tile_destroy(out);
    }
    expect_program_refused("%r = arith.constant 0 : index\n"
                           "%d = pto.textract %s, %r : (!pto.tile<8x16xf32>, index) -> !pto.tile<4x8xf32>\n",
                           PTO_ERR_INVALID_ARGUMENT);
    expect_program_refused("%r = arith.constant 0 : index\n"
                           "%d = pto.textract %s, %r, %r : (!pto.tile<8x16xf32>, index, index) -> !pto.tile<4x8xf16>\n",
                           PTO_ERR_DTYPE_MISMATCH);
    print_message("[datamove] textract: %zu calls, %zu elements as the definition, its rules per profile, "
                  "3 text forms and 2 refused runs\n", calls, elements);
    free(before);
    pto_tile *all[] = {src, dst, h, wide, odd, tall, one, b8, b8d, want};
    for (size_t k = 0; k < COUNT(all); ++k) pto_tile_destroy(all[k]);
}

/* ---- tinsert ------------------------------------------------------------- */

static void test_tinsert(void **state) {
    (void)state;
    /* dst rows, cols, valid rows, valid cols; src rows, cols, valid rows, valid cols */
    static const uint32_t kShapes[][8] = {
        {1, 1, 1, 1, 1, 1, 1, 1},       {16, 32, 16, 32, 8, 16, 8, 16}, {8, 16, 6, 13, 4, 8, 2, 5},
        {33, 70, 33, 65, 9, 40, 9, 33}, {5, 37, 5, 37, 5, 37, 0, 3},   {64, 9, 64, 9, 64, 1, 64, 1},
    };
    static const pto_dtype kHost[] = {PTO_INT8,   PTO_UINT8,   PTO_INT16,    PTO_UINT16, PTO_INT32, PTO_UINT32,
                                      PTO_FLOAT16, PTO_BFLOAT16, PTO_FLOAT32, PTO_INT64,  PTO_UINT64};
    rng r = {0x175};
    size_t elements = 0, calls = 0;
    for (size_t d = 0; d < COUNT(kHost); ++d)
        for (size_t k = 0; k < COUNT(kShapes); ++k) {
            const uint32_t *sh = kShapes[k];
            pto_tile *src = tile_new(kHost[d], sh[4], sh[5], sh[6], sh[7]);
            tile_fill(src, &r, GEN_ANY);
            const uint32_t rmax = sh[2] - sh[6], cmax = sh[3] - sh[7];
            const size_t offsets[][2] = {{0, 0}, {rmax, cmax}, {0, cmax}, {rmax, 0}, {rmax / 2, cmax / 3}};
            for (size_t o = 0; o < COUNT(offsets); ++o) {
                pto_tile *dst = tile_new(kHost[d], sh[0], sh[1], sh[2], sh[3]);
                tile_fill(dst, &r, GEN_ANY);
                uint64_t *before = tile_snapshot(dst);
                char what[128];
                snprintf(what, sizeof what, "tinsert %s %ux%u at (%zu, %zu) into %ux%u", pto_dtype_string(kHost[d]),
                         sh[6], sh[7], offsets[o][0], offsets[o][1], sh[2], sh[3]);
                const pto_status got = pto_tinsert(dst, src, offsets[o][0], offsets[o][1]);
                if (got != PTO_OK) fail_msg("%s: %s (%s)", what, pto_status_string(got), pto_last_error());
                /* the page: dst[row + i, col + j] = src[i, j]; every other element as before */
                for (uint32_t i = 0; i < sh[0]; ++i)
                    for (uint32_t j = 0; j < sh[1]; ++j) {
                        const bool in = i >= offsets[o][0] && i < offsets[o][0] + sh[6] && j >= offsets[o][1] &&
                                        j < offsets[o][1] + sh[7];
                        const uint64_t want = in ? tile_get(src, i - offsets[o][0], j - offsets[o][1])
                                                 : before[(size_t)i * sh[1] + j];
                        if (tile_get(dst, i, j) != want)
                            fail_msg("%s: dst (%u,%u) 0x%llx, want 0x%llx", what, i, j,
                                     (unsigned long long)tile_get(dst, i, j), (unsigned long long)want);
                    }
                elements += (size_t)sh[6] * sh[7];
                ++calls;
                free(before);
                pto_tile_destroy(dst);
            }
            pto_tile_destroy(src);
        }
    /* the rules, in order; nothing written on a refusal */
    pto_tile *dst = tile_new(PTO_FLOAT32, 8, 16, 8, 16), *src = tile_new(PTO_FLOAT32, 4, 8, 4, 8);
    pto_tile *h = tile_new(PTO_FLOAT16, 4, 8, 4, 8), *big = tile_new(PTO_FLOAT32, 16, 8, 4, 8);
    pto_tile *u16 = tile_new(PTO_UINT16, 8, 16, 8, 16), *u16s = tile_new(PTO_UINT16, 4, 16, 4, 16);
    pto_tile *i8 = tile_new(PTO_INT8, 8, 32, 8, 32), *i8s = tile_new(PTO_INT8, 4, 32, 4, 3);
    pto_tile *narrow = tile_new(PTO_FLOAT32, 8, 12, 8, 12), *nsrc = tile_new(PTO_FLOAT32, 4, 4, 4, 4);
    tile_fill(src, &r, GEN_ANY);
    tile_fill(dst, &r, GEN_ANY);
    uint64_t *kept = tile_snapshot(dst);
    expect_status(pto_tinsert(dst, NULL, 0, 0), PTO_ERR_NULL_ARGUMENT, "NULL src");
    assert_non_null(strstr(pto_last_error(), "pto_tinsert: src"));
    expect_status(pto_tinsert(dst, h, 0, 0), PTO_ERR_DTYPE_MISMATCH, "src FLOAT16");
    expect_status(pto_tinsert(dst, dst, 0, 0), PTO_ERR_ALIASING, "src is dst");
    expect_status(pto_tinsert(dst, src, 5, 0), PTO_ERR_OUT_OF_RANGE, "rows past dst's");
    assert_non_null(strstr(pto_last_error(), "outside dst's valid region 8x16"));
    expect_status(pto_tinsert(dst, src, 0, 9), PTO_ERR_OUT_OF_RANGE, "cols past dst's");
    expect_status(pto_tinsert(dst, src, SIZE_MAX, 0), PTO_ERR_OUT_OF_RANGE, "a huge index_row");
    assert_tile_unchanged(dst, kept, "refused tinsert");
    expect_status(pto_tinsert(dst, big, 0, 0), PTO_OK, "HOST: src rows beyond dst's, valid region inside");
    expect_status(pto_tinsert(narrow, nsrc, 1, 3), PTO_OK, "HOST: 48-byte rows, index_col 3");
    assert_int_equal(pto_set_profile(PTO_PROFILE_A2A3), PTO_OK);
    expect_status(pto_tinsert(dst, big, 0, 0), PTO_ERR_SHAPE_MISMATCH, "A2A3: src rows beyond dst's");
    assert_non_null(strstr(pto_last_error(), "A2A3"));
    expect_status(pto_tinsert(narrow, nsrc, 0, 0), PTO_ERR_SHAPE_MISMATCH, "A2A3: 48-byte dst rows");
    expect_status(pto_tinsert(dst, src, 0, 3), PTO_ERR_OUT_OF_RANGE, "A2A3: index_col of 12 bytes");
    expect_status(pto_tinsert(i8, i8s, 0, 0), PTO_ERR_SHAPE_MISMATCH, "A2A3: odd INT8 valid cols");
    expect_status(pto_tinsert(u16, u16s, 4, 0), PTO_OK, "A2A3: UINT16");
    expect_status(pto_tinsert(dst, src, 4, 8), PTO_OK, "A2A3: 32-byte index_col");
    assert_int_equal(pto_set_profile(PTO_PROFILE_A5), PTO_OK);
    expect_status(pto_tinsert(u16, u16s, 0, 0), PTO_ERR_UNSUPPORTED_DTYPE, "A5: no UINT16");
    expect_status(pto_tinsert(dst, src, 0, 3), PTO_OK, "A5: any index_col");
    expect_status(pto_tinsert(dst, big, 0, 0), PTO_ERR_SHAPE_MISMATCH, "A5: src rows beyond dst's");
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    /* programs: PTOAS's form (index operands) equals the C call; an index out
     * of range refuses the run; the fixpipe's forms are refused by name */
    pto_tile *want = tile_new(PTO_FLOAT32, 8, 16, 8, 16), *out = tile_new(PTO_FLOAT32, 8, 16, 8, 16);
    for (uint32_t i = 0; i < 8; ++i)
        for (uint32_t j = 0; j < 16; ++j) tile_put(out, i, j, tile_get(want, i, j));
    assert_int_equal(pto_tinsert(want, src, 2, 5), PTO_OK);
    static const char kText[] =
        "func.func @k(%s : !pto.tile_buf<vec, 4x8xf32>, %r : index, %c : index, %d : !pto.tile_buf<vec, 8x16xf32>) {\n"
        "  pto.tinsert ins(%s, %r, %c : !pto.tile_buf<vec, 4x8xf32>, index, index) "
        "outs(%d : !pto.tile_buf<vec, 8x16xf32>)\n  return\n}\n";
    static const char *const kNames[] = {"s", "d"}, *const kInts[] = {"r", "c"};
    pto_tile *tiles[] = {src, out};
    const int64_t at[] = {2, 5}, past[] = {5, 5};
    const pto_status run = run_program_bound(kText, kNames, tiles, 2, kInts, at, 2);
    if (run != PTO_OK) fail_msg("tinsert text: run %s (%s)", pto_status_string(run), pto_last_error());
    for (uint32_t i = 0; i < 8; ++i)
        for (uint32_t j = 0; j < 16; ++j) assert_int_equal(tile_get(out, i, j), tile_get(want, i, j));
    assert_int_equal(run_program_bound(kText, kNames, tiles, 2, kInts, past, 2), PTO_ERR_OUT_OF_RANGE);
    assert_non_null(strstr(pto_last_error(), "pto_tinsert"));
    expect_program_refused_with(
        "func.func @k(%s : !pto.tile_buf<vec, 4x8xf32>, %r : index, %c : index, %f : !pto.tile_buf<vec, 1x8xf32>, "
        "%d : !pto.tile_buf<vec, 8x16xf32>) {\n"
        "  pto.tinsert ins(%s, %r, %c : !pto.tile_buf<vec, 4x8xf32>, index, index fp %f : "
        "!pto.tile_buf<vec, 1x8xf32>) outs(%d : !pto.tile_buf<vec, 8x16xf32>)\n  return\n}\n",
        NULL, "pto.tinsert_fp: src is a vec tile; the fixpipe moves an acc tile");
    print_message("[datamove] tinsert: %zu calls (11 dtypes, 6 shapes, 5 offsets), %zu elements as the page, its "
                  "rules per profile, PTOAS's text form and a refused run, the fixpipe's form on vec tiles refused\n",
                  calls, elements);
    free(kept);
    TILES_DESTROY(dst, src, h, big, u16, u16s, i8, i8s, narrow, nsrc, want, out);
}

/* ---- tgather -------------------------------------------------------------- */

static const pto_dtype kIndexDtypes[] = {PTO_INT16, PTO_UINT16, PTO_INT32, PTO_UINT32};

/* Random flat offsets of elements of src's valid region, in an index tile of
 * dt with valid region vr x vc. */
static void fill_indices(pto_tile *idx, const pto_tile *src, rng *r) {
    const uint32_t cols = pto_tile_cols(src), svr = pto_tile_valid_rows(src), svc = pto_tile_valid_cols(src);
    for (uint32_t i = 0; i < pto_tile_valid_rows(idx); ++i)
        for (uint32_t j = 0; j < pto_tile_valid_cols(idx); ++j) {
            const uint32_t row = (uint32_t)(rng_next(r) % svr), col = (uint32_t)(rng_next(r) % svc);
            tile_put(idx, i, j, row * cols + col);
        }
}

static void test_tgather(void **state) {
    (void)state;
    /* src rows, cols, valid rows, valid cols; dst rows, cols, valid rows, valid cols */
    static const uint32_t kShapes[][8] = {
        {1, 1, 1, 1, 1, 1, 1, 1},    {16, 16, 16, 16, 16, 16, 16, 16}, {8, 37, 5, 30, 3, 64, 3, 64},
        {4, 8, 4, 8, 9, 70, 7, 65}, {64, 64, 64, 64, 2, 8, 0, 8},     {2, 300, 2, 300, 1, 256, 1, 256},
    };
    rng r = {0x6A7};
    size_t elements = 0, calls = 0;
    for (size_t d = 0; d < COUNT(kDtypes); ++d)
        for (size_t x = 0; x < COUNT(kIndexDtypes); ++x)
            for (size_t k = 0; k < COUNT(kShapes); ++k) {
                const uint32_t *s = kShapes[k];
                /* 16-bit indices reach 65535 elements at most */
                pto_tile *src = tile_new(kDtypes[d], s[0], s[1], s[2], s[3]);
                pto_tile *dst = tile_new(kDtypes[d], s[4], s[5], s[6], s[7]);
                pto_tile *idx = tile_new(kIndexDtypes[x], s[6] + 1, s[7] + 2, s[6], s[7]);
                tile_fill(src, &r, GEN_ANY);
                tile_fill(dst, &r, GEN_ANY);
                fill_indices(idx, src, &r);
                uint64_t *before = tile_snapshot(dst);
                uint32_t *want = malloc(sizeof(uint32_t) * ((size_t)s[6] * s[7] + 1));
                for (uint32_t i = 0; i < s[6]; ++i)
                    for (uint32_t j = 0; j < s[7]; ++j) {
                        const uint32_t flat = tile_get(idx, i, j);
                        want[(size_t)i * s[7] + j] = tile_get(src, flat / s[1], flat % s[1]);
                    }
                char what[128];
                snprintf(what, sizeof what, "tgather %s by %s, %ux%u from %ux%u", pto_dtype_string(kDtypes[d]),
                         pto_dtype_string(kIndexDtypes[x]), s[6], s[7], s[2], s[3]);
                /* HOST: a tmp or none (never touched) */
                pto_tile *tmp = (x + k) % 2 ? NULL : tile_new(PTO_UINT8, 1, 1, 1, 1);
                const pto_status got = pto_tgather(dst, src, idx, tmp);
                pto_tile_destroy(tmp);
                if (got != PTO_OK) fail_msg("%s: %s (%s)", what, pto_status_string(got), pto_last_error());
                expect_region(dst, before, want, what);
                elements += (size_t)s[6] * s[7];
                ++calls;
                free(before);
                free(want);
                TILES_DESTROY(src, dst, idx);
            }
    /* hand-computed: src 2x4 int32 0..7, indices 7 0 5 / 2 2 4 */
    pto_tile *src = tile_new(PTO_INT32, 2, 4, 2, 4), *dst = tile_new(PTO_INT32, 2, 3, 2, 3);
    pto_tile *idx = tile_new(PTO_INT32, 2, 3, 2, 3), *tmp = tile_new(PTO_INT32, 2, 3, 2, 3);
    for (uint32_t k = 0; k < 8; ++k) tile_put(src, k / 4, k % 4, 100 + k);
    static const uint32_t kIdx[] = {7, 0, 5, 2, 2, 4};
    for (uint32_t k = 0; k < 6; ++k) tile_put(idx, k / 3, k % 3, kIdx[k]);
    assert_int_equal(pto_tgather(dst, src, idx, tmp), PTO_OK);
    static const uint32_t kWant[] = {107, 100, 105, 102, 102, 104};
    for (uint32_t k = 0; k < 6; ++k) assert_int_equal(tile_get(dst, k / 3, k % 3), kWant[k]);
    /* the rules, in order */
    pto_tile *f = tile_new(PTO_FLOAT32, 2, 4, 2, 4), *fidx = tile_new(PTO_FLOAT32, 2, 3, 2, 3);
    pto_tile *i16 = tile_new(PTO_INT16, 2, 3, 2, 3), *narrow = tile_new(PTO_INT32, 2, 2, 2, 2);
    tile_fill(dst, &r, GEN_ANY);
    uint64_t *before = tile_snapshot(dst);
    assert_int_equal(pto_tgather(dst, src, NULL, NULL), PTO_ERR_NULL_ARGUMENT);
    assert_non_null(strstr(pto_last_error(), "pto_tgather: indices"));
    assert_int_equal(pto_tgather(dst, f, idx, NULL), PTO_ERR_DTYPE_MISMATCH);
    assert_int_equal(pto_tgather(dst, src, fidx, NULL), PTO_ERR_UNSUPPORTED_DTYPE);
    assert_non_null(strstr(pto_last_error(), "indices dtype FLOAT32"));
    assert_int_equal(pto_tgather(dst, src, idx, dst), PTO_ERR_ALIASING);
    assert_int_equal(pto_tgather(dst, dst, idx, NULL), PTO_ERR_ALIASING);
    assert_int_equal(pto_tgather(dst, src, dst, NULL), PTO_ERR_ALIASING);
    assert_int_equal(pto_tgather(narrow, src, idx, NULL), PTO_ERR_SHAPE_MISMATCH);
    tile_put(idx, 1, 2, 8); /* one past the last element */
    assert_int_equal(pto_tgather(dst, src, idx, NULL), PTO_ERR_OUT_OF_RANGE);
    assert_non_null(strstr(pto_last_error(), "indices (1, 2) is 8"));
    tile_put(idx, 1, 2, 0xFFFFFFFFu); /* -1 */
    assert_int_equal(pto_tgather(dst, src, idx, NULL), PTO_ERR_OUT_OF_RANGE);
    assert_non_null(strstr(pto_last_error(), "is -1"));
    assert_int_equal(pto_tile_set_valid(src, 2, 3), PTO_OK);
    tile_put(idx, 1, 2, 3); /* row 0, col 3: outside src's valid columns */
    assert_int_equal(pto_tgather(dst, src, idx, NULL), PTO_ERR_OUT_OF_RANGE);
    assert_tile_unchanged(dst, before, "refused tgather");
    assert_int_equal(pto_tile_set_valid(src, 2, 4), PTO_OK);
    assert_int_equal(pto_tgather(dst, src, idx, NULL), PTO_OK);
    /* A2A3: tmp required, of indices' dtype and valid shape; 32-bit indices;
     * contiguous dst rows. A5: contiguous dst and indices rows. */
    pto_tile *wide = tile_new(PTO_INT32, 2, 8, 2, 3), *widx = tile_new(PTO_INT32, 2, 8, 2, 3);
    pto_tile *i8 = tile_new(PTO_INT8, 2, 3, 2, 3), *i8s = tile_new(PTO_INT8, 2, 4, 2, 4);
    assert_int_equal(pto_tgather(wide, src, widx, NULL), PTO_OK); /* HOST */
    assert_int_equal(pto_set_profile(PTO_PROFILE_A2A3), PTO_OK);
    assert_int_equal(pto_tgather(dst, src, idx, NULL), PTO_ERR_NULL_ARGUMENT);
    assert_non_null(strstr(pto_last_error(), "A2A3"));
    assert_int_equal(pto_tgather(i8, i8s, idx, tmp), PTO_ERR_UNSUPPORTED_DTYPE);
    assert_int_equal(pto_tgather(dst, src, i16, tmp), PTO_ERR_UNSUPPORTED_DTYPE);
    assert_int_equal(pto_tgather(dst, src, idx, f), PTO_ERR_DTYPE_MISMATCH);
    assert_int_equal(pto_tgather(wide, src, widx, tmp), PTO_ERR_SHAPE_MISMATCH);
    assert_int_equal(pto_tgather(dst, src, idx, narrow), PTO_ERR_SHAPE_MISMATCH);
    assert_int_equal(pto_tgather(dst, src, idx, tmp), PTO_OK);
    assert_int_equal(pto_set_profile(PTO_PROFILE_A5), PTO_OK);
    assert_int_equal(pto_tgather(i8, i8s, idx, NULL), PTO_OK);
    for (uint32_t k = 0; k < 6; ++k) tile_put(i16, k / 3, k % 3, kIdx[k]);
    assert_int_equal(pto_tgather(dst, src, i16, NULL), PTO_OK);
    assert_int_equal(pto_tgather(wide, src, widx, NULL), PTO_ERR_SHAPE_MISMATCH);
    pto_tile *cidx = tile_new(PTO_INT32, 2, 8, 2, 8), *cdst = tile_new(PTO_INT32, 2, 8, 2, 8);
    assert_int_equal(pto_tgather(cdst, src, cidx, NULL), PTO_OK);
    assert_int_equal(pto_tile_set_valid(cdst, 2, 8), PTO_OK);
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    /* programs: DPS with tmp (PTOAS's form) and without, the SSA and
     * synchronous forms */
    tile_put(idx, 1, 2, 6);
    pto_tile *want = tile_new(PTO_INT32, 2, 3, 2, 3);
    assert_int_equal(pto_tgather(want, src, idx, NULL), PTO_OK);
    static const char *const kForms[] = {
        "pto.tgather ins(%s, %i, %t : !pto.tile_buf<vec, 2x4xi32>, !pto.tile_buf<vec, 2x3xi32>, "
        "!pto.tile_buf<vec, 2x3xi32>) outs(%d : !pto.tile_buf<vec, 2x3xi32>)\n",
        "pto.tgather ins(%s, %i : !pto.tile_buf<vec, 2x4xi32>, !pto.tile_buf<vec, 2x3xi32>) "
        "outs(%d : !pto.tile_buf<vec, 2x3xi32>)\n",
        "%d = pto.tgather %s, %i : (!pto.tile<2x4xi32>, !pto.tile<2x3xi32>) -> !pto.tile<2x3xi32>\n",
        "%d = tgather %s, %i : !pto.tile<2x4xi32>, !pto.tile<2x3xi32> -> !pto.tile<2x3xi32>\n",
    };
    static const char *const kNames[] = {"s", "i", "t", "d"};
    for (size_t k = 0; k < COUNT(kForms); ++k) {
        pto_tile *out = tile_new(PTO_INT32, 2, 3, 2, 3);
        pto_tile *tiles[] = {src, idx, tmp, out};
        const pto_status run = run_program_bound(kForms[k], kNames, tiles, 4, NULL, NULL, 0);
        if (run != PTO_OK) fail_msg("%s: run %s (%s)", kForms[k], pto_status_string(run), pto_last_error());
        for (uint32_t i = 0; i < 2; ++i)
            for (uint32_t j = 0; j < 3; ++j) assert_int_equal(tile_get(out, i, j), tile_get(want, i, j));
        /* an index out of range refuses the run, nothing written */
        tile_put(idx, 0, 1, 8);
        uint64_t *kept = tile_snapshot(out);
        assert_int_equal(run_program_bound(kForms[k], kNames, tiles, 4, NULL, NULL, 0), PTO_ERR_OUT_OF_RANGE);
        assert_non_null(strstr(pto_last_error(), "pto_tgather"));
        assert_tile_unchanged(out, kept, "refused tgather run");
        tile_put(idx, 0, 1, 0);
        free(kept);
        pto_tile_destroy(out);
    }
    expect_program_refused("pto.tgather ins(%s, %i : !pto.tile_buf<vec, 2x4xi32>, !pto.tile_buf<vec, 2x3xf32>) "
                           "outs(%d : !pto.tile_buf<vec, 2x3xi32>)\n",
                           PTO_ERR_UNSUPPORTED_DTYPE);
    print_message("[datamove] tgather: %zu calls (9 dtypes x 4 index dtypes), %zu elements as the definition, "
                  "its rules per profile, 4 text forms and 4 refused runs\n", calls, elements);
    free(before);
    pto_tile *all[] = {src, dst, idx, tmp, f, fidx, i16, narrow, wide, widx, i8, i8s, cidx, cdst, want};
    for (size_t k = 0; k < COUNT(all); ++k) pto_tile_destroy(all[k]);
}

/* ---- tgatherb ------------------------------------------------------------- */

/* A tile's rows x cols bytes (free() the result). */
static uint8_t *tile_bytes(const pto_tile *t) {
    const size_t n = (size_t)pto_tile_rows(t) * pto_tile_cols(t) * pto_dtype_size(pto_tile_dtype(t));
    uint8_t *b = malloc(n + 1);
    assert_int_equal(pto_tile_read(t, b, n), PTO_OK);
    return b;
}

/* The page's definition, one offset per 32-byte block: byte c of dst row i
 * (c < valid cols x size) is src's byte offsets[i, c / 32] + c % 32; every
 * other byte of dst as before. */
static void expect_gatherb(const pto_tile *dst, const uint8_t *before, const uint8_t *src_bytes,
                           const pto_tile *offsets, const char *what) {
    const size_t size = pto_dtype_size(pto_tile_dtype(dst)), row_bytes = pto_tile_cols(dst) * size;
    const size_t valid_bytes = pto_tile_valid_cols(dst) * size;
    uint8_t *got = tile_bytes(dst);
    for (size_t i = 0; i < pto_tile_rows(dst); ++i)
        for (size_t c = 0; c < row_bytes; ++c) {
            uint8_t want = before[i * row_bytes + c];
            if (i < pto_tile_valid_rows(dst) && c < valid_bytes)
                want = src_bytes[(size_t)tile_get(offsets, i, c / 32) + c % 32];
            if (got[i * row_bytes + c] != want)
                fail_msg("%s: dst row %zu byte %zu is 0x%02x, want 0x%02x", what, i, c, got[i * row_bytes + c],
                         want);
        }
    free(got);
}

/* Random byte offsets whose blocks lie in src's bytes (the last of a row
 * `last` bytes long), some of them aligned to 32. */
static void fill_offsets(pto_tile *offsets, size_t blocks, size_t last, size_t src_bytes, rng *r) {
    for (uint32_t i = 0; i < pto_tile_valid_rows(offsets); ++i)
        for (size_t k = 0; k < blocks; ++k) {
            const size_t span = src_bytes - (k + 1 == blocks ? last : 32) + 1;
            const size_t off = (size_t)(rng_next(r) % span);
            tile_put(offsets, i, k, k % 2 ? off : off / 32 * 32);
        }
}

static void test_tgatherb(void **state) {
    (void)state;
    /* dst rows, cols, valid rows, valid cols (in 4-byte elements; scaled to
     * each dtype's size so that HOST's rows are whole blocks); src rows, cols */
    static const uint32_t kShapes[][6] = {
        {1, 8, 1, 8, 1, 8}, {2, 32, 2, 32, 2, 32}, {4, 24, 3, 16, 5, 40}, {3, 64, 0, 8, 2, 8}, {9, 80, 7, 72, 4, 33},
    };
    static const pto_dtype kOffsetDtypes[] = {PTO_INT32, PTO_UINT32};
    rng r = {0x6B};
    size_t bytes = 0, calls = 0;
    for (int a5 = 0; a5 < 2; ++a5)
        for (size_t d = 0; d < COUNT(kDtypes); ++d)
            for (size_t k = 0; k < COUNT(kShapes); ++k) {
                const uint32_t *s = kShapes[k];
                const pto_dtype dt = kDtypes[d];
                const uint32_t scale = 4 / (uint32_t)pto_dtype_size(dt);
                /* A5: a valid width that cuts the last block short */
                const uint32_t vc = s[3] * scale - (a5 && s[3] > 1 ? 1 : 0);
                /* src of dst's dtype, or of another of the list */
                const pto_dtype sdt = k % 2 ? kDtypes[(d + 3) % COUNT(kDtypes)] : dt;
                const uint32_t sscale = 4 / (uint32_t)pto_dtype_size(sdt);
                pto_tile *src = tile_new(sdt, s[4], s[5] * sscale, s[4], s[5] * sscale);
                pto_tile *dst = tile_new(dt, s[0], s[1] * scale, s[2], vc);
                const size_t row_bytes = (size_t)vc * pto_dtype_size(dt);
                const size_t blocks = (row_bytes + 31) / 32, last = row_bytes % 32 ? row_bytes % 32 : 32;
                pto_tile *offsets = tile_new(kOffsetDtypes[k % 2], s[2] + 1, (uint32_t)blocks + 2, s[2],
                                             (uint32_t)blocks + (k % 3 == 0));
                const size_t src_bytes = (size_t)s[4] * s[5] * 4;
                tile_fill(src, &r, GEN_ANY);
                tile_fill(dst, &r, GEN_ANY);
                fill_offsets(offsets, blocks, last, src_bytes, &r);
                uint8_t *before = tile_bytes(dst), *sb = tile_bytes(src);
                char what[160];
                snprintf(what, sizeof what, "tgatherb %s from %s by %s, %ux%u of %ux%u (%s)", pto_dtype_string(dt),
                         pto_dtype_string(sdt), pto_dtype_string(kOffsetDtypes[k % 2]), s[2], vc, s[0],
                         s[1] * scale, a5 ? "A5" : "HOST");
                assert_int_equal(pto_set_profile(a5 ? PTO_PROFILE_A5 : PTO_PROFILE_HOST), PTO_OK);
                const pto_status got = pto_tgatherb(dst, src, offsets);
                if (got != PTO_OK) fail_msg("%s: %s (%s)", what, pto_status_string(got), pto_last_error());
                expect_gatherb(dst, before, sb, offsets, what);
                bytes += s[2] * row_bytes;
                ++calls;
                free(before);
                free(sb);
                TILES_DESTROY(src, dst, offsets);
            }
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    /* hand-computed: src 2x16 float32 0..31; offsets 64 and 0 give dst row 0
     * = src elements 16..23 then 0..7; offsets 4 and 96: 1..8, 24..31 */
    pto_tile *src = tile_new(PTO_FLOAT32, 2, 16, 2, 16), *dst = tile_new(PTO_FLOAT32, 2, 16, 2, 16);
    pto_tile *off = tile_new(PTO_UINT32, 2, 2, 2, 2);
    for (uint32_t k = 0; k < 32; ++k) {
        const float v = (float)k;
        uint32_t bits;
        memcpy(&bits, &v, 4);
        tile_put(src, k / 16, k % 16, bits);
    }
    static const uint32_t kOff[] = {64, 0, 4, 96};
    for (uint32_t k = 0; k < 4; ++k) tile_put(off, k / 2, k % 2, kOff[k]);
    assert_int_equal(pto_tgatherb(dst, src, off), PTO_OK);
    static const uint32_t kFirst[] = {16, 0, 1, 24};
    for (uint32_t i = 0; i < 2; ++i)
        for (uint32_t j = 0; j < 16; ++j) {
            float v;
            const uint32_t bits = (uint32_t)tile_get(dst, i, j);
            memcpy(&v, &bits, 4);
            assert_true(v == (float)(kFirst[i * 2 + j / 8] + j % 8));
        }
    /* the rules, in order; nothing written on a refusal */
    pto_tile *f_off = tile_new(PTO_FLOAT32, 2, 2, 2, 2), *i16_off = tile_new(PTO_INT16, 2, 2, 2, 2);
    pto_tile *i64 = tile_new(PTO_INT64, 2, 8, 2, 8), *short_off = tile_new(PTO_UINT32, 2, 1, 2, 1);
    pto_tile *odd = tile_new(PTO_FLOAT32, 2, 16, 2, 15), *one_row = tile_new(PTO_UINT32, 1, 2, 1, 2);
    pto_tile *u32dst = tile_new(PTO_UINT32, 2, 16, 2, 16);
    rng q = {0x6C};
    tile_fill(dst, &q, GEN_ANY);
    uint64_t *kept = tile_snapshot(dst);
    assert_int_equal(pto_tgatherb(dst, src, NULL), PTO_ERR_NULL_ARGUMENT);
    assert_non_null(strstr(pto_last_error(), "pto_tgatherb: offsets"));
    assert_int_equal(pto_tgatherb(dst, src, f_off), PTO_ERR_UNSUPPORTED_DTYPE);
    assert_non_null(strstr(pto_last_error(), "offsets dtype FLOAT32"));
    assert_int_equal(pto_tgatherb(dst, src, i16_off), PTO_ERR_UNSUPPORTED_DTYPE);
    assert_int_equal(pto_tgatherb(dst, dst, off), PTO_ERR_ALIASING);
    assert_int_equal(pto_tgatherb(u32dst, src, u32dst), PTO_ERR_ALIASING);
    assert_int_equal(pto_tgatherb(dst, src, short_off), PTO_ERR_SHAPE_MISMATCH);
    assert_non_null(strstr(pto_last_error(), "2 blocks"));
    assert_int_equal(pto_tgatherb(dst, src, one_row), PTO_ERR_SHAPE_MISMATCH);
    assert_int_equal(pto_tgatherb(odd, src, off), PTO_ERR_SHAPE_MISMATCH);
    assert_non_null(strstr(pto_last_error(), "multiple of 32 bytes"));
    tile_put(off, 1, 1, 97); /* its 32 bytes end one past src's 128 */
    assert_int_equal(pto_tgatherb(dst, src, off), PTO_ERR_OUT_OF_RANGE);
    assert_non_null(strstr(pto_last_error(), "offsets (1, 1) is 97"));
    tile_put(off, 1, 1, 0xFFFFFFFFu); /* INT32 -1 read as 4294967295 */
    assert_int_equal(pto_tgatherb(dst, src, off), PTO_ERR_OUT_OF_RANGE);
    assert_tile_unchanged(dst, kept, "refused tgatherb");
    tile_put(off, 1, 1, 96);
    /* HOST: INT64 dst; A2A3 and A5 refuse it. A5: a short last block. */
    pto_tile *i64_off = tile_new(PTO_UINT32, 2, 2, 2, 2);
    tile_put(i64_off, 0, 0, 32), tile_put(i64_off, 0, 1, 0), tile_put(i64_off, 1, 0, 96), tile_put(i64_off, 1, 1, 64);
    assert_int_equal(pto_tgatherb(i64, src, i64_off), PTO_OK);
    assert_int_equal(tile_get(i64, 0, 0), tile_get(src, 0, 8) | tile_get(src, 0, 9) << 32);
    assert_int_equal(tile_get(i64, 1, 4), tile_get(src, 1, 0) | tile_get(src, 1, 1) << 32);
    assert_int_equal(pto_set_profile(PTO_PROFILE_A2A3), PTO_OK);
    assert_int_equal(pto_tgatherb(i64, src, i64_off), PTO_ERR_UNSUPPORTED_DTYPE);
    assert_int_equal(pto_tgatherb(odd, src, off), PTO_ERR_SHAPE_MISMATCH);
    assert_non_null(strstr(pto_last_error(), "A2A3"));
    assert_int_equal(pto_tgatherb(dst, src, off), PTO_OK);
    assert_int_equal(pto_set_profile(PTO_PROFILE_A5), PTO_OK);
    assert_int_equal(pto_tgatherb(i64, src, i64_off), PTO_ERR_UNSUPPORTED_DTYPE);
    assert_int_equal(pto_tgatherb(odd, src, off), PTO_OK);
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    /* programs: PTOAS's DPS form, the SSA and synchronous forms, each equal
     * to the C call; an offset out of range refuses the run */
    pto_tile *want = tile_new(PTO_FLOAT32, 2, 16, 2, 16);
    assert_int_equal(pto_tgatherb(want, src, off), PTO_OK);
    static const char *const kForms[] = {
        "pto.tgatherb ins(%s, %o : !pto.tile_buf<vec, 2x16xf32>, !pto.tile_buf<vec, 2x2xui32>) "
        "outs(%d : !pto.tile_buf<vec, 2x16xf32>)\n",
        "%d = pto.tgatherb %s, %o : (!pto.tile<2x16xf32>, !pto.tile<2x2xui32>) -> !pto.tile<2x16xf32>\n",
        "%d = tgatherb %s, %o : !pto.tile<2x16xf32>, !pto.tile<2x2xui32> -> !pto.tile<2x16xf32>\n",
    };
    static const char *const kNames[] = {"s", "o", "d"};
    for (size_t k = 0; k < COUNT(kForms); ++k) {
        pto_tile *out = tile_new(PTO_FLOAT32, 2, 16, 2, 16);
        pto_tile *tiles[] = {src, off, out};
        const pto_status run = run_program_bound(kForms[k], kNames, tiles, 3, NULL, NULL, 0);
        if (run != PTO_OK) fail_msg("%s: run %s (%s)", kForms[k], pto_status_string(run), pto_last_error());
        for (uint32_t i = 0; i < 2; ++i)
            for (uint32_t j = 0; j < 16; ++j) assert_int_equal(tile_get(out, i, j), tile_get(want, i, j));
        tile_put(off, 0, 1, 100);
        uint64_t *out_kept = tile_snapshot(out);
        assert_int_equal(run_program_bound(kForms[k], kNames, tiles, 3, NULL, NULL, 0), PTO_ERR_OUT_OF_RANGE);
        assert_non_null(strstr(pto_last_error(), "pto_tgatherb"));
        assert_tile_unchanged(out, out_kept, "refused tgatherb run");
        tile_put(off, 0, 1, 0);
        free(out_kept);
        pto_tile_destroy(out);
    }
    expect_program_refused("pto.tgatherb ins(%s, %o : !pto.tile_buf<vec, 2x16xf32>, !pto.tile_buf<vec, 2x2xf32>) "
                           "outs(%d : !pto.tile_buf<vec, 2x16xf32>)\n",
                           PTO_ERR_UNSUPPORTED_DTYPE);
    print_message("[datamove] tgatherb: %zu calls (9 dtypes, HOST and A5), %zu bytes as the definition, its "
                  "rules per profile, 3 text forms and 3 refused runs\n",
                  calls, bytes);
    free(kept);
    pto_tile *all[] = {src, dst, off, f_off, i16_off, i64, short_off, odd, one_row, u32dst, i64_off, want};
    for (size_t k = 0; k < COUNT(all); ++k) pto_tile_destroy(all[k]);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_textract),
        cmocka_unit_test(test_tinsert),
        cmocka_unit_test(test_tgather),
        cmocka_unit_test(test_tgatherb),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
