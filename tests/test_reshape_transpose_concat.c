/* TRESHAPE, TTRANS, TCONCAT, TINTERLEAVE and TDEINTERLEAVE, the
 * instructions that rearrange a tile's
 * elements: every dtype (TRESHAPE: pairs of dtypes and shapes) against a
 * reference built here element by element or byte for byte, the rules in
 * order per profile with nothing written on a refusal, in-place TCONCAT,
 * and their text forms run equal to the C calls. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/harness.h"

static const pto_dtype kDtypes[] = {PTO_INT8,  PTO_UINT8,   PTO_INT16,    PTO_UINT16, PTO_INT32,
                                    PTO_UINT32, PTO_FLOAT16, PTO_BFLOAT16, PTO_FLOAT32};

/* ---- treshape ------------------------------------------------------------ */

/* The bytes of tile t, rows*cols*size of them (free() the result). */
static unsigned char *tile_bytes(const pto_tile *t, size_t *n) {
    *n = (size_t)pto_tile_rows(t) * pto_tile_cols(t) * pto_dtype_size(pto_tile_dtype(t));
    unsigned char *out = malloc(*n);
    assert_non_null(out);
    assert_int_equal(pto_tile_read(t, out, *n), PTO_OK);
    return out;
}

static void test_treshape(void **state) {
    (void)state;
    typedef struct {
        pto_dtype src_dt;
        uint32_t src_rows, src_cols;
        pto_dtype dst_dt;
        uint32_t dst_rows, dst_cols;
    } reshape_case;
    static const reshape_case kCases[] = {
        {PTO_FLOAT32, 16, 1, PTO_FLOAT32, 1, 16},  {PTO_FLOAT32, 1, 16, PTO_FLOAT32, 16, 1},
        {PTO_FLOAT16, 4, 8, PTO_FLOAT32, 2, 8},    {PTO_INT8, 3, 8, PTO_UINT16, 4, 3},
        {PTO_BFLOAT16, 5, 7, PTO_BFLOAT16, 7, 5}, {PTO_UINT32, 2, 3, PTO_INT8, 1, 24},
        /* the 8-byte integers and the low-precision types are bytes too */
        {PTO_INT64, 2, 4, PTO_UINT64, 4, 2},       {PTO_FLOAT8_E4M3, 4, 8, PTO_UINT8, 8, 4},
        {PTO_UINT8, 2, 16, PTO_HIFLOAT8, 4, 8},    {PTO_FLOAT4_E2M1X2, 4, 8, PTO_INT4X2, 2, 16},
        {PTO_FLOAT8_E8M0, 1, 32, PTO_FLOAT8_E5M2, 32, 1},
        {PTO_FLOAT4_E1M2X2, 8, 8, PTO_INT64, 1, 8},
    };
    rng r = {0x2E5};
    for (size_t k = 0; k < COUNT(kCases); ++k) {
        const reshape_case *c = &kCases[k];
        pto_tile *src = tile_new(c->src_dt, c->src_rows, c->src_cols, 1, 1);
        pto_tile *dst = tile_new(c->dst_dt, c->dst_rows, c->dst_cols, 0, 0);
        tile_fill(src, &r, GEN_ANY);
        size_t ns = 0, nd = 0;
        unsigned char *want = tile_bytes(src, &ns);
        assert_int_equal(pto_treshape(dst, src), PTO_OK); /* valid regions play no part */
        unsigned char *got = tile_bytes(dst, &nd);
        assert_int_equal(ns, nd);
        assert_memory_equal(got, want, ns);
        assert_int_equal(pto_tile_valid_rows(dst), 0);
        free(want);
        free(got);
        pto_tile_destroy(src);
        pto_tile_destroy(dst);
    }
    /* the rules: NULLs, overlap without one start, the total size */
    pto_tile *a = tile_new(PTO_FLOAT32, 4, 8, 4, 8), *b = tile_new(PTO_FLOAT16, 4, 8, 4, 8);
    assert_int_equal(pto_treshape(NULL, a), PTO_ERR_NULL_ARGUMENT);
    assert_int_equal(pto_treshape(a, NULL), PTO_ERR_NULL_ARGUMENT);
    uint64_t *before = tile_snapshot(a);
    assert_int_equal(pto_treshape(a, b), PTO_ERR_SHAPE_MISMATCH);
    assert_non_null(strstr(pto_last_error(), "pto_treshape: src 4x8 FLOAT16 is 64 bytes"));
    assert_tile_unchanged(a, before, "refused treshape");
    free(before);
    pto_buffer *buf = NULL;
    pto_tile *whole = NULL, *view = NULL, *shifted = NULL;
    assert_int_equal(pto_buffer_create(256, &buf), PTO_OK);
    assert_int_equal(pto_tile_create_at(PTO_FLOAT32, 4, 8, buf, 0, &whole), PTO_OK);
    assert_int_equal(pto_tile_create_at(PTO_INT16, 8, 8, buf, 0, &view), PTO_OK);
    assert_int_equal(pto_tile_create_at(PTO_FLOAT32, 4, 8, buf, 64, &shifted), PTO_OK);
    rng r2 = {0x11};
    tile_fill(whole, &r2, GEN_ANY);
    before = tile_snapshot(whole);
    assert_int_equal(pto_treshape(view, whole), PTO_OK); /* one start: nothing to write */
    assert_tile_unchanged(whole, before, "treshape onto its own bytes");
    assert_int_equal(pto_treshape(shifted, whole), PTO_ERR_ALIASING);
    assert_non_null(strstr(pto_last_error(), "pto_treshape: src"));
    assert_tile_unchanged(whole, before, "refused overlapping treshape");
    free(before);
    pto_tile_destroy(whole);
    pto_tile_destroy(view);
    pto_tile_destroy(shifted);
    pto_buffer_destroy(buf);
    /* programs: PTOAS's column vector to row (its paged-attention sample's
     * spelling), the synchronous form and DPS */
    static const char *const kForms[] = {
        "%d = pto.treshape %s : !pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=1, v_row=16, v_col=1, "
        "blayout=col_major, slayout=none_box, fractal=512, pad=0> -> !pto.tile_buf<loc=vec, dtype=f32, "
        "rows=1, cols=16, v_row=1, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>\n",
        /* the synchronous form names the result's type only: its source
         * comes from a DPS-declared tile of the snippet */
        "pto.tmov ins(%s : !pto.tile_buf<vec, 16x1xf32>) outs(%m : !pto.tile_buf<vec, 16x1xf32>)\n"
        "%d = treshape %m : !pto.tile<1x16xf32>\n",
        "pto.treshape ins(%s : !pto.tile_buf<vec, 16x1xf32>) outs(%d : !pto.tile_buf<vec, 1x16xf32>)\n",
    };
    for (size_t f = 0; f < COUNT(kForms); ++f) {
        const char *text = kForms[f];
        pto_tile *s = tile_new(PTO_FLOAT32, 16, 1, 16, 1), *d = tile_new(PTO_FLOAT32, 1, 16, 1, 16);
        tile_fill(s, &r, GEN_ANY);
        size_t n = 0;
        unsigned char *want = tile_bytes(s, &n);
        if (run_snippet_sd(text, s, d) != PTO_OK)
            fail_msg("%s: %s", text, pto_last_error());
        size_t m = 0;
        unsigned char *got = tile_bytes(d, &m);
        assert_memory_equal(got, want, n);
        free(want);
        free(got);
        pto_tile_destroy(s);
        pto_tile_destroy(d);
    }
    expect_program_refused("%d = pto.treshape %s : !pto.tile<4x8xf32> -> !pto.tile<4x8xf16>\n",
                           PTO_ERR_SHAPE_MISMATCH);
    print_message("[datamove] treshape: %zu reshapes byte for byte, its rules, 3 text forms\n",
                  COUNT(kCases));
    pto_tile_destroy(a);
    pto_tile_destroy(b);
}

/* ---- ttrans --------------------------------------------------------------- */

static void test_ttrans(void **state) {
    (void)state;
    /* src shape, src valid region, dst shape */
    static const uint32_t kShapes[][6] = {
        {1, 1, 1, 1, 1, 1},     {4, 8, 4, 8, 8, 4},     {3, 37, 3, 37, 40, 8},
        {16, 16, 5, 16, 16, 8}, {33, 70, 33, 65, 66, 40}, {64, 32, 64, 32, 32, 64},
        {7, 9, 0, 9, 9, 7},
    };
    rng r = {0x7A5};
    size_t elements = 0;
    for (size_t d = 0; d < COUNT(kDtypes); ++d)
        for (size_t k = 0; k < COUNT(kShapes); ++k) {
            const uint32_t *s = kShapes[k];
            pto_tile *src = tile_new(kDtypes[d], s[0], s[1], s[2], s[3]);
            pto_tile *dst = tile_new(kDtypes[d], s[4], s[5], s[3], s[2]);
            pto_tile *tmp = tile_new(PTO_UINT8, 1, 1, 1, 1);
            tile_fill(src, &r, GEN_ANY);
            tile_fill(dst, &r, GEN_ANY);
            uint64_t *before = tile_snapshot(dst);
            assert_int_equal(pto_ttrans(dst, src, tmp), PTO_OK);
            for (uint32_t i = 0; i < s[4]; ++i)
                for (uint32_t j = 0; j < s[5]; ++j) {
                    const uint32_t want = i < s[3] && j < s[2] ? tile_get(src, j, i) : before[(size_t)i * s[5] + j];
                    if (tile_get(dst, i, j) != want)
                        fail_msg("ttrans %s %ux%u: dst (%u,%u) 0x%x, want 0x%x", pto_dtype_string(kDtypes[d]),
                                 s[2], s[3], i, j, tile_get(dst, i, j), want);
                }
            elements += (size_t)s[2] * s[3];
            free(before);
            TILES_DESTROY(src, dst, tmp);
        }
    /* the rules, in order */
    pto_tile *src = tile_new(PTO_FLOAT32, 4, 8, 4, 8), *dst = tile_new(PTO_FLOAT32, 8, 8, 8, 4);
    pto_tile *tmp = tile_new(PTO_FLOAT32, 1, 8, 1, 8), *h = tile_new(PTO_FLOAT16, 4, 8, 4, 8);
    pto_tile *i32 = tile_new(PTO_INT32, 4, 8, 4, 8), *sq = tile_new(PTO_FLOAT32, 8, 8, 8, 8);
    uint64_t *before = tile_snapshot(dst);
    assert_int_equal(pto_ttrans(dst, src, NULL), PTO_ERR_NULL_ARGUMENT);
    assert_non_null(strstr(pto_last_error(), "pto_ttrans: tmp"));
    assert_int_equal(pto_ttrans(dst, h, tmp), PTO_ERR_DTYPE_MISMATCH);
    assert_int_equal(pto_ttrans(dst, src, src), PTO_ERR_ALIASING);
    assert_int_equal(pto_ttrans(sq, sq, tmp), PTO_ERR_ALIASING);
    assert_int_equal(pto_tile_set_valid(dst, 4, 8), PTO_OK);
    assert_int_equal(pto_ttrans(dst, src, tmp), PTO_ERR_SHAPE_MISMATCH);
    assert_non_null(strstr(pto_last_error(), "not src's 4x8 transposed"));
    assert_tile_unchanged(dst, before, "refused ttrans");
    assert_int_equal(pto_tile_set_valid(dst, 8, 4), PTO_OK);
    assert_int_equal(pto_ttrans(dst, i32, tmp), PTO_OK); /* a same-size dtype: its bits */
    assert_int_equal(pto_set_profile(PTO_PROFILE_A5), PTO_OK);
    assert_int_equal(pto_ttrans(dst, src, tmp), PTO_OK); /* 8 floats: 32-byte rows */
    pto_tile *odd = tile_new(PTO_FLOAT32, 4, 6, 4, 6), *odd_dst = tile_new(PTO_FLOAT32, 6, 8, 6, 4);
    assert_int_equal(pto_ttrans(odd_dst, odd, tmp), PTO_ERR_SHAPE_MISMATCH);
    assert_non_null(strstr(pto_last_error(), "A5"));
    assert_int_equal(pto_set_profile(PTO_PROFILE_A2A3), PTO_OK);
    assert_int_equal(pto_ttrans(odd_dst, odd, tmp), PTO_OK);
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    /* programs: DPS with and without tmp, the SSA form */
    static const char *const kForms[] = {
        "pto.ttrans ins(%s, %t : !pto.tile_buf<vec, 4x8xf32>, !pto.tile_buf<vec, 1x8xf32>) "
        "outs(%d : !pto.tile_buf<vec, 8x8xf32, valid=8x4>)\n",
        "pto.ttrans ins(%s : !pto.tile_buf<vec, 4x8xf32>) outs(%d : !pto.tile_buf<vec, 8x8xf32, valid=8x4>)\n",
        "%d = pto.ttrans %s : !pto.tile<4x8xf32> -> !pto.tile<8x8xf32, valid=8x4>\n",
    };
    for (size_t f = 0; f < COUNT(kForms); ++f) {
        pto_tile *s = tile_new(PTO_FLOAT32, 4, 8, 4, 8), *d = tile_new(PTO_FLOAT32, 8, 8, 8, 4);
        pto_tile *want = tile_new(PTO_FLOAT32, 8, 8, 8, 4);
        tile_fill(s, &r, GEN_ANY);
        assert_int_equal(pto_ttrans(want, s, tmp), PTO_OK);
        /* the first form names tmp, the others have none */
        static const char *const kNames[] = {"s", "d", "t"};
        pto_tile *const tiles[] = {s, d, tmp};
        assert_int_equal(run_snippet_tiles(kForms[f], f == 0 ? 3 : 2, kNames, tiles), PTO_OK);
        for (uint32_t i = 0; i < 8; ++i)
            for (uint32_t j = 0; j < 4; ++j) assert_int_equal(tile_get(d, i, j), tile_get(want, i, j));
        pto_tile_destroy(s);
        pto_tile_destroy(d);
        pto_tile_destroy(want);
    }
    expect_program_refused("%d = pto.ttrans %s : !pto.tile<4x8xf32> -> !pto.tile<8x8xf32>\n",
                           PTO_ERR_SHAPE_MISMATCH);
    print_message("[datamove] ttrans: %zu elements transposed as the reference, its rules, 3 text forms\n",
                  elements);
    free(before);
    pto_tile *all[] = {src, dst, tmp, h, i32, sq, odd, odd_dst};
    for (size_t k = 0; k < COUNT(all); ++k) pto_tile_destroy(all[k]);
}

/* TTRANS of the 8-bit low-precision types: their bytes moved under HOST
 * and A5 (pto-isa's A5 ST and CPU model transpose them), refused under
 * A2A3 (the page's nine) with nothing written; a mixed pair of one size
 * follows the same list on both sides. */
static void test_ttrans_low_precision(void **state) {
    (void)state;
    static const pto_dtype kLow[] = {PTO_FLOAT8_E4M3, PTO_FLOAT8_E5M2, PTO_HIFLOAT8, PTO_FLOAT8_E8M0};
    static const pto_profile kProfiles[] = {PTO_PROFILE_HOST, PTO_PROFILE_A5, PTO_PROFILE_A2A3};
    for (size_t p = 0; p < COUNT(kProfiles); ++p)
        for (size_t d = 0; d < COUNT(kLow); ++d) {
            assert_int_equal(pto_set_profile(kProfiles[p]), PTO_OK);
            pto_tile *src = NULL, *dst = NULL, *tmp = NULL, *i8 = NULL;
            assert_int_equal(pto_tile_create(kLow[d], 22, 64, &src), PTO_OK);
            assert_int_equal(pto_tile_create(kLow[d], 64, 32, &dst), PTO_OK);
            assert_int_equal(pto_tile_create(PTO_UINT8, 1, 32, &tmp), PTO_OK);
            assert_int_equal(pto_tile_create(PTO_INT8, 22, 64, &i8), PTO_OK);
            assert_int_equal(pto_tile_set_valid(src, 22, 63), PTO_OK);
            assert_int_equal(pto_tile_set_valid(i8, 22, 63), PTO_OK);
            assert_int_equal(pto_tile_set_valid(dst, 63, 22), PTO_OK);
            uint8_t *s = pto_tile_data(src), *o = pto_tile_data(dst);
            for (uint32_t k = 0; k < 22 * 64; ++k) s[k] = (uint8_t)(k * 37 + 11);
            memset(o, 0xA5, 64 * 32);
            memcpy(pto_tile_data(i8), s, 22 * 64);
            const pto_status st = pto_ttrans(dst, src, tmp);
            const pto_status mixed = pto_ttrans(dst, i8, tmp);
            if (kProfiles[p] == PTO_PROFILE_A2A3) {
                assert_int_equal(st, PTO_ERR_UNSUPPORTED_DTYPE);
                assert_non_null(strstr(pto_last_error(), "pto_ttrans: dst dtype"));
                assert_int_equal(mixed, PTO_ERR_UNSUPPORTED_DTYPE);
                for (uint32_t k = 0; k < 64 * 32; ++k) assert_int_equal(o[k], 0xA5);
            } else {
                assert_int_equal(st, PTO_OK);
                assert_int_equal(mixed, PTO_OK);
                for (uint32_t i = 0; i < 64; ++i)
                    for (uint32_t j = 0; j < 32; ++j)
                        assert_int_equal(o[i * 32 + j], i < 63 && j < 22 ? s[j * 64 + i] : 0xA5);
            }
            TILES_DESTROY(src, dst, tmp, i8);
        }
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
}

/* ---- tconcat -------------------------------------------------------------- */

static void test_tconcat(void **state) {
    (void)state;
    /* rows, src0 valid cols, src1 valid cols (each source's tile is wider) */
    static const uint32_t kShapes[][3] = {{1, 1, 1}, {4, 8, 8}, {3, 0, 5}, {3, 5, 0}, {7, 13, 30}, {2, 64, 1}};
    rng r = {0xC0C};
    size_t elements = 0;
    for (size_t d = 0; d < COUNT(kDtypes); ++d)
        for (size_t k = 0; k < COUNT(kShapes); ++k) {
            const uint32_t rows = kShapes[k][0], c0 = kShapes[k][1], c1 = kShapes[k][2];
            pto_tile *a = tile_new(kDtypes[d], rows + 1, c0 + 3, rows, c0);
            pto_tile *b = tile_new(kDtypes[d], rows, c1 + 1, rows, c1);
            pto_tile *dst = tile_new(kDtypes[d], rows + 2, c0 + c1 + 2, rows, c0 + c1);
            tile_fill(a, &r, GEN_ANY);
            tile_fill(b, &r, GEN_ANY);
            tile_fill(dst, &r, GEN_ANY);
            uint64_t *before = tile_snapshot(dst);
            assert_int_equal(pto_tconcat(dst, a, b), PTO_OK);
            const uint32_t cols = pto_tile_cols(dst);
            for (uint32_t i = 0; i < pto_tile_rows(dst); ++i)
                for (uint32_t j = 0; j < cols; ++j) {
                    const uint32_t want = i >= rows || j >= c0 + c1 ? before[(size_t)i * cols + j]
                                          : j < c0                ? tile_get(a, i, j)
                                                                  : tile_get(b, i, j - c0);
                    if (tile_get(dst, i, j) != want)
                        fail_msg("tconcat %s %u rows %u+%u: dst (%u,%u) 0x%x, want 0x%x",
                                 pto_dtype_string(kDtypes[d]), rows, c0, c1, i, j, tile_get(dst, i, j), want);
                }
            elements += (size_t)rows * (c0 + c1);
            free(before);
            TILES_DESTROY(a, b, dst);
        }
    /* the rules, in order */
    pto_tile *a = tile_new(PTO_INT32, 4, 8, 4, 3), *b = tile_new(PTO_INT32, 4, 8, 4, 5);
    pto_tile *dst = tile_new(PTO_INT32, 4, 8, 4, 8), *f = tile_new(PTO_FLOAT32, 4, 8, 4, 5);
    uint64_t *before = tile_snapshot(dst);
    assert_int_equal(pto_tconcat(dst, a, NULL), PTO_ERR_NULL_ARGUMENT);
    assert_int_equal(pto_tconcat(dst, a, f), PTO_ERR_DTYPE_MISMATCH);
    assert_int_equal(pto_tconcat(dst, a, dst), PTO_ERR_ALIASING);
    assert_non_null(strstr(pto_last_error(), "pto_tconcat: src1"));
    assert_int_equal(pto_tile_set_valid(b, 4, 4), PTO_OK);
    assert_int_equal(pto_tconcat(dst, a, b), PTO_ERR_SHAPE_MISMATCH);
    assert_non_null(strstr(pto_last_error(), "src0 valid cols 3 + src1 valid cols 4"));
    assert_int_equal(pto_tile_set_valid(b, 3, 5), PTO_OK);
    assert_int_equal(pto_tconcat(dst, a, b), PTO_ERR_SHAPE_MISMATCH);
    assert_tile_unchanged(dst, before, "refused tconcat");
    assert_int_equal(pto_tile_set_valid(b, 4, 5), PTO_OK);
    for (int p = PTO_PROFILE_HOST; p <= PTO_PROFILE_A5; ++p) {
        assert_int_equal(pto_set_profile((pto_profile)p), PTO_OK);
        assert_int_equal(pto_tconcat(dst, a, b), PTO_OK);
    }
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    /* in place: src0 is dst's first columns already */
    pto_buffer *buf = NULL;
    pto_tile *pd = NULL, *p0 = NULL;
    assert_int_equal(pto_buffer_create(256, &buf), PTO_OK);
    assert_int_equal(pto_tile_create_at(PTO_INT32, 4, 8, buf, 0, &pd), PTO_OK);
    assert_int_equal(pto_tile_create_at(PTO_INT32, 4, 8, buf, 0, &p0), PTO_OK);
    assert_int_equal(pto_tile_set_valid(p0, 4, 3), PTO_OK);
    tile_fill(p0, &r, GEN_ANY);
    uint64_t *first = tile_snapshot(p0);
    assert_int_equal(pto_tconcat(pd, p0, b), PTO_OK);
    for (uint32_t i = 0; i < 4; ++i)
        for (uint32_t j = 0; j < 8; ++j)
            assert_int_equal(tile_get(pd, i, j), j < 3 ? first[i * 8 + j] : tile_get(b, i, j - 3));
    free(first);
    /* programs: DPS and SSA */
    static const char *const kForms[] = {
        "pto.tconcat ins(%a, %b : !pto.tile_buf<vec, 4x8xi32, valid=4x3>, !pto.tile_buf<vec, 4x8xi32, valid=4x5>) "
        "outs(%d : !pto.tile_buf<vec, 4x8xi32>)\n",
        "%d = pto.tconcat %a, %b : (!pto.tile<4x8xi32, valid=4x3>, !pto.tile<4x8xi32, valid=4x5>) -> !pto.tile<4x8xi32>\n",
    };
    pto_tile *want = tile_new(PTO_INT32, 4, 8, 4, 8);
    assert_int_equal(pto_tconcat(want, a, b), PTO_OK);
    for (size_t k = 0; k < COUNT(kForms); ++k) {
        pto_tile *out = tile_new(PTO_INT32, 4, 8, 4, 8);
        static const char *const kNames[] = {"a", "b", "d"};
        pto_tile *const tiles[] = {a, b, out};
        assert_int_equal(run_snippet_tiles(kForms[k], 3, kNames, tiles), PTO_OK);
        for (uint32_t i = 0; i < 4; ++i)
            for (uint32_t j = 0; j < 8; ++j) assert_int_equal(tile_get(out, i, j), tile_get(want, i, j));
        pto_tile_destroy(out);
    }
    expect_program_refused("pto.tconcat ins(%a, %b : !pto.tile_buf<vec, 4x8xi32>, !pto.tile_buf<vec, 4x8xi32>) "
                           "outs(%d : !pto.tile_buf<vec, 4x8xi32>)\n",
                           PTO_ERR_SHAPE_MISMATCH);
    print_message("[datamove] tconcat: %zu elements as the reference, its rules, in place, 2 text forms\n",
                  elements);
    free(before);
    pto_tile *all[] = {a, b, dst, f, pd, p0, want};
    for (size_t k = 0; k < COUNT(all); ++k) pto_tile_destroy(all[k]);
    pto_buffer_destroy(buf);
}

/* TCONCATIDX: each row's counts from column 0 of the index tiles, clamped
 * to what the sources and dst's row hold (a negative one copies nothing),
 * the rest of dst's row unchanged; every dtype and index dtype, in place on
 * src0; the rules in order; the DPS form in a program equals the call. */
static void test_tconcatidx(void **state) {
    (void)state;
    static const pto_dtype kData[] = {PTO_INT8, PTO_INT16, PTO_INT32, PTO_FLOAT16, PTO_FLOAT32, PTO_BFLOAT16};
    static const pto_dtype kIdx[] = {PTO_INT8, PTO_INT16, PTO_INT32};
    rng r = {0xC1D};
    size_t checked = 0;
    for (size_t d = 0; d < COUNT(kData); ++d)
        for (size_t k = 0; k < COUNT(kIdx); ++k)
            for (int in_place = 0; in_place < 2; ++in_place) {
                const pto_dtype dt = kData[d];
                const uint32_t rows = 7, dst_vc = 40, s0_vc = 25, s1_vc = 30;
                pto_tile *s0 = tile_new(dt, rows, 48, rows, in_place ? dst_vc : s0_vc);
                pto_tile *s1 = tile_new(dt, rows, 32, rows, s1_vc);
                pto_tile *i0 = tile_new(kIdx[k], rows, 4, rows, 1), *i1 = tile_new(kIdx[k], rows, 4, rows, 2);
                pto_tile *dst = in_place ? s0 : tile_new(dt, rows, 48, rows, dst_vc);
                tile_fill(s0, &r, GEN_ANY);
                tile_fill(s1, &r, GEN_ANY);
                if (!in_place) tile_fill(dst, &r, GEN_ANY);
                static const int32_t kCounts[] = {0, 5, 25, 40, 60, -3, 17};
                for (uint32_t i = 0; i < rows; ++i) {
                    tile_put(i0, i, 0, (uint32_t)kCounts[i]);
                    tile_put(i1, i, 0, (uint32_t)kCounts[(i + 3) % rows]);
                }
                uint64_t *before = tile_snapshot(dst), *a = tile_snapshot(s0), *b = tile_snapshot(s1);
                assert_int_equal(pto_tconcatidx(dst, s0, s1, i0, i1), PTO_OK);
                const uint32_t s0_valid = pto_tile_valid_cols(s0);
                for (uint32_t i = 0; i < rows; ++i) {
                    const int32_t c0 = kCounts[i], c1 = kCounts[(i + 3) % rows];
                    const uint32_t most0 = s0_valid < dst_vc ? s0_valid : dst_vc;
                    const uint32_t n0 = c0 <= 0 ? 0 : (uint32_t)c0 > most0 ? most0 : (uint32_t)c0;
                    const uint32_t most1 = s1_vc < dst_vc - n0 ? s1_vc : dst_vc - n0;
                    const uint32_t n1 = c1 <= 0 ? 0 : (uint32_t)c1 > most1 ? most1 : (uint32_t)c1;
                    for (uint32_t j = 0; j < 48; ++j) {
                        const uint32_t want = j < n0 ? a[i * 48 + j] : j < n0 + n1 ? b[i * 32 + j - n0] : before[i * 48 + j];
                        if (tile_get(dst, i, j) != want)
                            fail_msg("tconcatidx %s, %s indices%s: (%u,%u) 0x%x, want 0x%x (n0 %u, n1 %u)",
                                     pto_dtype_string(dt), pto_dtype_string(kIdx[k]), in_place ? ", in place" : "", i,
                                     j, tile_get(dst, i, j), want, n0, n1);
                        ++checked;
                    }
                }
                free(before);
                free(a);
                free(b);
                if (!in_place) pto_tile_destroy(dst);
                TILES_DESTROY(s0, s1, i0, i1);
            }
    /* the rules, in order; nothing written on a refusal */
    pto_tile *dst = tile_new(PTO_FLOAT32, 2, 8, 2, 8), *s = tile_new(PTO_FLOAT32, 2, 8, 2, 8);
    pto_tile *i = tile_new(PTO_INT32, 2, 2, 2, 1), *i16 = tile_new(PTO_INT16, 2, 2, 2, 1);
    pto_tile *u = tile_new(PTO_UINT32, 2, 2, 2, 1), *f16 = tile_new(PTO_FLOAT16, 2, 8, 2, 8);
    pto_tile *u8 = tile_new(PTO_UINT8, 2, 8, 2, 8), *short_rows = tile_new(PTO_FLOAT32, 2, 8, 1, 8);
    pto_tile *no_cols = tile_new(PTO_INT32, 2, 2, 2, 0);
    tile_fill(dst, &r, GEN_ANY);
    uint64_t *kept = tile_snapshot(dst);
    expect_status(pto_tconcatidx(dst, s, s, i, NULL), PTO_ERR_NULL_ARGUMENT, "tconcatidx NULL src1_idx");
    expect_status(pto_tconcatidx(u8, u8, u8, i, i), PTO_ERR_UNSUPPORTED_DTYPE, "tconcatidx UINT8");
    expect_status(pto_tconcatidx(dst, s, f16, i, i), PTO_ERR_DTYPE_MISMATCH, "tconcatidx src1 FLOAT16");
    expect_status(pto_tconcatidx(dst, s, s, u, u), PTO_ERR_UNSUPPORTED_DTYPE, "tconcatidx UINT32 indices");
    expect_status(pto_tconcatidx(dst, s, s, i, i16), PTO_ERR_DTYPE_MISMATCH, "tconcatidx index dtypes");
    expect_status(pto_tconcatidx(dst, s, dst, i, i), PTO_ERR_ALIASING, "tconcatidx src1 is dst");
    expect_status(pto_tconcatidx(dst, s, short_rows, i, i), PTO_ERR_SHAPE_MISMATCH, "tconcatidx src1 rows");
    expect_status(pto_tconcatidx(dst, s, s, i, no_cols), PTO_ERR_SHAPE_MISMATCH, "tconcatidx empty index");
    assert_tile_unchanged(dst, kept, "refused tconcatidx");
    free(kept);
    /* the DPS form */
    tile_put(i, 0, 0, 3);
    tile_put(i, 1, 0, 8);
    tile_fill(s, &r, GEN_ANY);
    pto_tile *want = tile_new(PTO_FLOAT32, 2, 8, 2, 8), *got = tile_new(PTO_FLOAT32, 2, 8, 2, 8);
    assert_int_equal(pto_tconcatidx(want, s, s, i, i), PTO_OK);
    static const char kText[] =
        "pto.tconcatidx ins(%a, %b, %i, %j : !pto.tile_buf<vec, 2x8xf32>, !pto.tile_buf<vec, 2x8xf32>, "
        "!pto.tile_buf<loc=vec, dtype=i32, rows=2, cols=2, v_row=2, v_col=1, blayout=row_major, "
        "slayout=none_box, fractal=512, pad=0>, !pto.tile_buf<loc=vec, dtype=i32, rows=2, cols=2, v_row=2, "
        "v_col=1, blayout=row_major, slayout=none_box, fractal=512, pad=0>) outs(%d : !pto.tile_buf<vec, 2x8xf32>)\n";
    static const char *const kNames[] = {"a", "b", "i", "j", "d"};
    pto_tile *bound[] = {s, s, i, i, got};
    const pto_status st = run_program_bound(kText, kNames, bound, 5, NULL, NULL, 0);
    if (st != PTO_OK) fail_msg("tconcatidx program: %s (%s)", pto_status_string(st), pto_last_error());
    for (uint32_t e = 0; e < 16; ++e) assert_int_equal(tile_get(got, e / 8, e % 8), tile_get(want, e / 8, e % 8));
    print_message("[tconcatidx] %zu elements as the counts say, 8 refusals, the DPS form\n", checked);
    TILES_DESTROY(dst, s, i, i16, u, f16, u8, short_rows, no_cols, want, got);
}

/* TCONCATIDX under A2A3 and A5: each index element is a byte count, divided
 * by the index dtype's size (truncated) before the clamps (pto-isa's
 * a2a3/TConcat.hpp and a5/TConcat.hpp; PTOAS's TConcatIdx sample's golden:
 * 32 in an INT32 index copies 8 columns). HOST reads element counts. */
static void test_tconcatidx_npu_byte_counts(void **state) {
    (void)state;
    static const pto_dtype kIdx[] = {PTO_INT8, PTO_INT16, PTO_INT32};
    static const pto_profile kProfiles[] = {PTO_PROFILE_A2A3, PTO_PROFILE_A5, PTO_PROFILE_HOST};
    rng r = {0xB7E};
    size_t checked = 0;
    for (size_t p = 0; p < COUNT(kProfiles); ++p)
        for (size_t k = 0; k < COUNT(kIdx); ++k) {
            assert_int_equal(pto_set_profile(kProfiles[p]), PTO_OK);
            const uint32_t rows = 4, cols = 64, size = (uint32_t)pto_dtype_size(kIdx[k]);
            pto_tile *s0 = tile_new(PTO_FLOAT32, rows, cols, rows, cols);
            pto_tile *s1 = tile_new(PTO_FLOAT32, rows, cols, rows, cols);
            pto_tile *dst = tile_new(PTO_FLOAT32, rows, cols, rows, cols);
            pto_tile *i0 = tile_new(kIdx[k], rows, 8, rows, 1), *i1 = tile_new(kIdx[k], rows, 8, rows, 1);
            tile_fill(s0, &r, GEN_ANY);
            tile_fill(s1, &r, GEN_ANY);
            tile_fill(dst, &r, GEN_ANY);
            static const uint32_t kValues[] = {32, 13, 0, 127};
            for (uint32_t i = 0; i < rows; ++i) {
                tile_put(i0, i, 0, kValues[i]);
                tile_put(i1, i, 0, kValues[(i + 1) % rows]);
            }
            uint64_t *before = tile_snapshot(dst), *a = tile_snapshot(s0), *b = tile_snapshot(s1);
            assert_int_equal(pto_tconcatidx(dst, s0, s1, i0, i1), PTO_OK);
            const uint32_t unit = kProfiles[p] == PTO_PROFILE_HOST ? 1 : size;
            for (uint32_t i = 0; i < rows; ++i) {
                const uint32_t n0 = kValues[i] / unit;
                const uint32_t left = cols - n0, c1 = kValues[(i + 1) % rows] / unit;
                const uint32_t n1 = c1 < left ? c1 : left;
                for (uint32_t j = 0; j < cols; ++j) {
                    const uint64_t want = j < n0 ? a[i * cols + j] : j < n0 + n1 ? b[i * cols + j - n0]
                                                                                  : before[i * cols + j];
                    if (tile_get(dst, i, j) != want)
                        fail_msg("tconcatidx %s, %s indices: (%u,%u) 0x%x, want 0x%x (n0 %u, n1 %u)",
                                 pto_profile_string(kProfiles[p]), pto_dtype_string(kIdx[k]), i, j,
                                 tile_get(dst, i, j), (unsigned)want, n0, n1);
                    ++checked;
                }
            }
            free(before);
            free(a);
            free(b);
            TILES_DESTROY(s0, s1, dst, i0, i1);
        }
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    print_message("[tconcatidx] %zu elements: byte counts under A2A3 and A5, element counts under HOST\n",
                  checked);
}

/* ---- tinterleave, tdeinterleave ------------------------------------------ */

/* The pages' definitions, element by element: row i's stream of 2C
 * elements, split (TINTERLEAVE) or picked apart (TDEINTERLEAVE). */
static uint64_t interleaving_want(bool interleave, int which, const pto_tile *s0, const pto_tile *s1, uint32_t i,
                                  uint32_t j) {
    const uint32_t c = pto_tile_valid_cols(s0);
    if (interleave) {
        const uint32_t p = (uint32_t)which * c + j; /* stream position */
        return tile_get(p % 2 ? s1 : s0, i, p / 2);
    }
    const uint32_t p = 2 * j + (uint32_t)which;
    return tile_get(p < c ? s0 : s1, i, p % c);
}

static void test_tinterleave(void **state) {
    (void)state;
    /* rows, cols, valid rows, valid cols */
    static const uint32_t kShapes[][4] = {{1, 2, 1, 2}, {4, 16, 4, 16}, {5, 40, 3, 34}, {2, 300, 2, 258}, {3, 8, 0, 8}};
    rng r = {0x1E7};
    size_t calls = 0;
    for (int interleave = 0; interleave < 2; ++interleave)
        for (int a5 = 0; a5 < 2; ++a5)
            for (size_t d = 0; d < COUNT(kDtypes); ++d)
                for (size_t k = 0; k < COUNT(kShapes); ++k) {
                    const uint32_t *sh = kShapes[k];
                    pto_tile *s0 = tile_new(kDtypes[d], sh[0], sh[1], sh[2], sh[3]);
                    pto_tile *s1 = tile_new(kDtypes[d], sh[0] + 1, sh[1] + 3, sh[2], sh[3]);
                    pto_tile *d0 = tile_new(kDtypes[d], sh[0], sh[1] + 1, sh[2], sh[3]);
                    pto_tile *d1 = tile_new(kDtypes[d], sh[0] + 2, sh[1], sh[2], sh[3]);
                    tile_fill(s0, &r, GEN_ANY), tile_fill(s1, &r, GEN_ANY);
                    tile_fill(d0, &r, GEN_ANY), tile_fill(d1, &r, GEN_ANY);
                    uint64_t *b0 = tile_snapshot(d0), *b1 = tile_snapshot(d1);
                    assert_int_equal(pto_set_profile(a5 ? PTO_PROFILE_A5 : PTO_PROFILE_HOST), PTO_OK);
                    const pto_status got = interleave ? pto_tinterleave(d0, s0, s1, d1) : pto_tdeinterleave(d0, s0, s1, d1);
                    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
                    char what[128];
                    snprintf(what, sizeof what, "%s %s %ux%u of %ux%u", interleave ? "tinterleave" : "tdeinterleave",
                             pto_dtype_string(kDtypes[d]), sh[2], sh[3], sh[0], sh[1]);
                    if (got != PTO_OK) fail_msg("%s: %s (%s)", what, pto_status_string(got), pto_last_error());
                    for (int w = 0; w < 2; ++w) {
                        const pto_tile *dt = w ? d1 : d0;
                        const uint64_t *before = w ? b1 : b0;
                        for (uint32_t i = 0; i < pto_tile_rows(dt); ++i)
                            for (uint32_t j = 0; j < pto_tile_cols(dt); ++j) {
                                const uint64_t want = i < sh[2] && j < sh[3]
                                                          ? interleaving_want(interleave, w, s0, s1, i, j)
                                                          : before[(size_t)i * pto_tile_cols(dt) + j];
                                if (tile_get(dt, i, j) != want)
                                    fail_msg("%s: dst%d (%u,%u) 0x%llx, want 0x%llx", what, w, i, j,
                                             (unsigned long long)tile_get(dt, i, j), (unsigned long long)want);
                            }
                    }
                    ++calls;
                    free(b0);
                    free(b1);
                    TILES_DESTROY(s0, s1, d0, d1);
                }
    /* hand-computed: src0 0 1 2 3, src1 10 11 12 13 */
    pto_tile *s0 = tile_new(PTO_INT32, 1, 4, 1, 4), *s1 = tile_new(PTO_INT32, 1, 4, 1, 4);
    pto_tile *d0 = tile_new(PTO_INT32, 1, 4, 1, 4), *d1 = tile_new(PTO_INT32, 1, 4, 1, 4);
    for (uint32_t j = 0; j < 4; ++j) tile_put(s0, 0, j, j), tile_put(s1, 0, j, 10 + j);
    assert_int_equal(pto_tinterleave(d0, s0, s1, d1), PTO_OK);
    static const uint32_t kI0[] = {0, 10, 1, 11}, kI1[] = {2, 12, 3, 13};
    for (uint32_t j = 0; j < 4; ++j) assert_int_equal(tile_get(d0, 0, j), kI0[j]), assert_int_equal(tile_get(d1, 0, j), kI1[j]);
    assert_int_equal(pto_tdeinterleave(d0, s0, s1, d1), PTO_OK);
    static const uint32_t kD0[] = {0, 2, 10, 12}, kD1[] = {1, 3, 11, 13};
    for (uint32_t j = 0; j < 4; ++j) assert_int_equal(tile_get(d0, 0, j), kD0[j]), assert_int_equal(tile_get(d1, 0, j), kD1[j]);
    /* the inverse: deinterleaving tinterleave's halves gives the sources back */
    pto_tile *e0 = tile_new(PTO_INT32, 1, 4, 1, 4), *e1 = tile_new(PTO_INT32, 1, 4, 1, 4);
    assert_int_equal(pto_tinterleave(d0, s0, s1, d1), PTO_OK);
    assert_int_equal(pto_tdeinterleave(e0, d0, d1, e1), PTO_OK);
    for (uint32_t j = 0; j < 4; ++j) assert_int_equal(tile_get(e0, 0, j), j), assert_int_equal(tile_get(e1, 0, j), 10 + j);
    /* the rules, in order; nothing written on a refusal */
    pto_tile *f = tile_new(PTO_FLOAT32, 1, 4, 1, 4), *odd = tile_new(PTO_INT32, 1, 4, 1, 3);
    pto_tile *odd1 = tile_new(PTO_INT32, 1, 4, 1, 3), *odd_s = tile_new(PTO_INT32, 1, 4, 1, 3);
    pto_tile *narrow = tile_new(PTO_INT32, 1, 4, 1, 2);
    rng q = {0x1E8};
    tile_fill(d0, &q, GEN_ANY), tile_fill(d1, &q, GEN_ANY);
    uint64_t *k0 = tile_snapshot(d0), *k1 = tile_snapshot(d1);
    expect_status(pto_tinterleave(d0, s0, s1, NULL), PTO_ERR_NULL_ARGUMENT, "NULL dst1");
    assert_non_null(strstr(pto_last_error(), "pto_tinterleave: dst1"));
    expect_status(pto_tdeinterleave(d0, s0, f, d1), PTO_ERR_DTYPE_MISMATCH, "src1 FLOAT32");
    expect_status(pto_tinterleave(d0, s0, s1, f), PTO_ERR_DTYPE_MISMATCH, "dst1 FLOAT32");
    expect_status(pto_tinterleave(d0, s0, s1, d0), PTO_ERR_ALIASING, "dst1 is dst");
    expect_status(pto_tinterleave(d0, d0, s1, d1), PTO_ERR_ALIASING, "src0 is dst");
    expect_status(pto_tdeinterleave(d0, s0, d1, d1), PTO_ERR_ALIASING, "src1 is dst1");
    expect_status(pto_tinterleave(d0, s0, s1, narrow), PTO_ERR_SHAPE_MISMATCH, "dst1 region");
    expect_status(pto_tdeinterleave(d0, narrow, s1, d1), PTO_ERR_SHAPE_MISMATCH, "src0 region");
    expect_status(pto_tinterleave(odd, odd_s, odd_s, odd1), PTO_ERR_SHAPE_MISMATCH, "odd valid cols");
    assert_non_null(strstr(pto_last_error(), "odd"));
    assert_int_equal(pto_set_profile(PTO_PROFILE_A2A3), PTO_OK);
    expect_status(pto_tinterleave(d0, s0, s1, d1), PTO_ERR_UNSUPPORTED_DTYPE, "A2A3 has no tinterleave");
    assert_non_null(strstr(pto_last_error(), "A2A3"));
    expect_status(pto_tdeinterleave(d0, s0, s1, d1), PTO_ERR_UNSUPPORTED_DTYPE, "A2A3 has no tdeinterleave");
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    assert_tile_unchanged(d0, k0, "refused (dst)");
    assert_tile_unchanged(d1, k1, "refused (dst1)");
    /* programs: the pages' DPS form equals the C call; the two-result SSA
     * form is refused naming it */
    static const char *const kForms[] = {
        "pto.tinterleave ins(%a, %b : !pto.tile_buf<vec, 1x4xi32>, !pto.tile_buf<vec, 1x4xi32>) outs(%c, %d : "
        "!pto.tile_buf<vec, 1x4xi32>, !pto.tile_buf<vec, 1x4xi32>)\n",
        "pto.tdeinterleave ins(%a, %b : !pto.tile_buf<vec, 1x4xi32>, !pto.tile_buf<vec, 1x4xi32>) outs(%c, %d : "
        "!pto.tile_buf<vec, 1x4xi32>, !pto.tile_buf<vec, 1x4xi32>)\n",
    };
    static const char *const kNames[] = {"a", "b", "c", "d"};
    for (int k = 0; k < 2; ++k) {
        pto_tile *tiles[] = {s0, s1, e0, e1};
        const pto_status run = run_program_bound(kForms[k], kNames, tiles, 4, NULL, NULL, 0);
        if (run != PTO_OK) fail_msg("%s: run %s (%s)", kForms[k], pto_status_string(run), pto_last_error());
        assert_int_equal(k ? pto_tdeinterleave(d0, s0, s1, d1) : pto_tinterleave(d0, s0, s1, d1), PTO_OK);
        for (uint32_t j = 0; j < 4; ++j)
            assert_int_equal(tile_get(e0, 0, j), tile_get(d0, 0, j)), assert_int_equal(tile_get(e1, 0, j), tile_get(d1, 0, j));
    }
    expect_program_refused_with("%c = pto.tinterleave %a, %b : !pto.tile<1x4xi32>\n", NULL, "outs(%dst, %dst1");
    print_message("[datamove] tinterleave, tdeinterleave: %zu calls (9 dtypes, HOST and A5) as the pages' streams, "
                  "hand cases, the inverse, the rules per profile, the DPS text form\n",
                  calls);
    free(k0);
    free(k1);
    TILES_DESTROY(s0, s1, d0, d1, e0, e1, f, odd, odd1, odd_s, narrow);
}

/* TDEINTERLEAVE's single-source form: dst[i,k] = src[i,2k], dst1[i,k] =
 * src[i,2k+1] (the page's "even-position and odd-position element streams"). */
static void test_tdeinterleave_single(void **state) {
    (void)state;
    /* dst rows, cols, valid rows, valid cols (src: valid cols twice) */
    static const uint32_t kShapes[][4] = {{1, 1, 1, 1}, {4, 16, 4, 16}, {5, 40, 3, 17}, {2, 300, 2, 129}, {3, 8, 0, 8}};
    rng r = {0x1E9};
    size_t calls = 0;
    for (int a5 = 0; a5 < 2; ++a5)
        for (size_t d = 0; d < COUNT(kDtypes); ++d)
            for (size_t k = 0; k < COUNT(kShapes); ++k) {
                const uint32_t *sh = kShapes[k];
                pto_tile *src = tile_new(kDtypes[d], sh[0] + 1, 2 * sh[1] + 3, sh[2], 2 * sh[3]);
                pto_tile *d0 = tile_new(kDtypes[d], sh[0], sh[1] + 1, sh[2], sh[3]);
                pto_tile *d1 = tile_new(kDtypes[d], sh[0] + 2, sh[1], sh[2], sh[3]);
                tile_fill(src, &r, GEN_ANY), tile_fill(d0, &r, GEN_ANY), tile_fill(d1, &r, GEN_ANY);
                uint64_t *b0 = tile_snapshot(d0), *b1 = tile_snapshot(d1);
                assert_int_equal(pto_set_profile(a5 ? PTO_PROFILE_A5 : PTO_PROFILE_HOST), PTO_OK);
                const pto_status got = pto_tdeinterleave_single(d0, src, d1);
                assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
                if (got != PTO_OK)
                    fail_msg("tdeinterleave_single %s: %s (%s)", pto_dtype_string(kDtypes[d]), pto_status_string(got),
                             pto_last_error());
                for (int w = 0; w < 2; ++w) {
                    const pto_tile *dt = w ? d1 : d0;
                    const uint64_t *before = w ? b1 : b0;
                    for (uint32_t i = 0; i < pto_tile_rows(dt); ++i)
                        for (uint32_t j = 0; j < pto_tile_cols(dt); ++j) {
                            const uint64_t want = i < sh[2] && j < sh[3] ? tile_get(src, i, 2 * j + (uint32_t)w)
                                                                         : before[(size_t)i * pto_tile_cols(dt) + j];
                            if (tile_get(dt, i, j) != want)
                                fail_msg("tdeinterleave_single %s: dst%d (%u,%u)", pto_dtype_string(kDtypes[d]), w, i,
                                         j);
                        }
                }
                ++calls;
                free(b0);
                free(b1);
                TILES_DESTROY(src, d0, d1);
            }
    /* the rules, in order */
    pto_tile *src = tile_new(PTO_INT32, 1, 8, 1, 8), *d0 = tile_new(PTO_INT32, 1, 4, 1, 4);
    pto_tile *d1 = tile_new(PTO_INT32, 1, 4, 1, 4), *f = tile_new(PTO_FLOAT32, 1, 4, 1, 4);
    pto_tile *wide = tile_new(PTO_INT32, 1, 8, 1, 6);
    for (uint32_t j = 0; j < 8; ++j) tile_put(src, 0, j, 100 + j);
    expect_status(pto_tdeinterleave_single(d0, src, NULL), PTO_ERR_NULL_ARGUMENT, "NULL dst1");
    expect_status(pto_tdeinterleave_single(d0, src, f), PTO_ERR_DTYPE_MISMATCH, "dst1 FLOAT32");
    expect_status(pto_tdeinterleave_single(d0, d0, d1), PTO_ERR_ALIASING, "src is dst");
    expect_status(pto_tdeinterleave_single(d0, wide, d1), PTO_ERR_SHAPE_MISMATCH, "src 6 cols for 4");
    assert_non_null(strstr(pto_last_error(), "twice its cols"));
    assert_int_equal(pto_set_profile(PTO_PROFILE_A2A3), PTO_OK);
    expect_status(pto_tdeinterleave_single(d0, src, d1), PTO_ERR_UNSUPPORTED_DTYPE, "A2A3");
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    expect_status(pto_tdeinterleave_single(d0, src, d1), PTO_OK, "HOST");
    for (uint32_t j = 0; j < 4; ++j)
        assert_int_equal(tile_get(d0, 0, j), 100 + 2 * j), assert_int_equal(tile_get(d1, 0, j), 101 + 2 * j);
    /* programs: pto.tdeinterleave with one source */
    static const char kText[] = "pto.tdeinterleave ins(%s : !pto.tile_buf<vec, 1x8xi32>) outs(%c, %d : "
                                "!pto.tile_buf<vec, 1x4xi32>, !pto.tile_buf<vec, 1x4xi32>)\n";
    static const char *const kNames[] = {"s", "c", "d"};
    pto_tile *e0 = tile_new(PTO_INT32, 1, 4, 1, 4), *e1 = tile_new(PTO_INT32, 1, 4, 1, 4);
    pto_tile *tiles[] = {src, e0, e1};
    const pto_status run = run_program_bound(kText, kNames, tiles, 3, NULL, NULL, 0);
    if (run != PTO_OK) fail_msg("tdeinterleave one source: run %s (%s)", pto_status_string(run), pto_last_error());
    for (uint32_t j = 0; j < 4; ++j)
        assert_int_equal(tile_get(e0, 0, j), tile_get(d0, 0, j)), assert_int_equal(tile_get(e1, 0, j), tile_get(d1, 0, j));
    print_message("[datamove] tdeinterleave_single: %zu calls (9 dtypes, HOST and A5) as the page, its rules, "
                  "the one-source text form\n",
                  calls);
    TILES_DESTROY(src, d0, d1, f, wide, e0, e1);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_treshape),
        cmocka_unit_test(test_ttrans),
        cmocka_unit_test(test_ttrans_low_precision),
        cmocka_unit_test(test_tconcat),
        cmocka_unit_test(test_tconcatidx),
        cmocka_unit_test(test_tconcatidx_npu_byte_counts),
        cmocka_unit_test(test_tinterleave),
        cmocka_unit_test(test_tdeinterleave_single),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
