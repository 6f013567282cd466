/* pto_textract and pto_tinsert on vec tiles in the NZ and ZN layouts (A5's
 * vec NZ -> vec NZ and vec ND -> vec NZ windows; vec NZ into mat or vec NZ
 * and vec ZN into mat ZN inserts): each element lands at its (row, col),
 * checked in the tiles' byte images through offsets computed here from
 * pto_c.h's "Cube tiles" definition (never through pto_tile_read); A5's
 * whole-32-byte-block rules, A2A3's refusals, and nothing written on a
 * refusal. The low-precision types (FP8, HiFloat8, FP4) carry the cases. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/harness.h"

/* The byte offset of element (r, c) of a rows x cols tile of e-byte
 * elements laid out `layout` with 512-byte boxes (pto_c.h, "Cube tiles"). */
static size_t image_offset(pto_layout layout, uint32_t rows, uint32_t cols, size_t e, uint32_t r,
                           uint32_t c) {
    if (layout == PTO_LAYOUT_ND) return ((size_t)r * cols + c) * e;
    const size_t ir_n = layout == PTO_LAYOUT_NZ ? 16 : 32 / e;
    const size_t ic_n = layout == PTO_LAYOUT_NZ ? 32 / e : 16;
    const size_t br = r / ir_n, ir = r % ir_n, bc = c / ic_n, ic = c % ic_n;
    if (layout == PTO_LAYOUT_NZ) return (bc * rows * ic_n + br * ir_n * ic_n + ir * ic_n + ic) * e;
    return (br * ir_n * cols + bc * ir_n * ic_n + ic * ir_n + ir) * e;
}

/* A tile of pto_tile_create_cube whose image byte k holds seed + k * 7
 * (mod 256): every element's bytes differ from its neighbours'. */
static pto_tile *image_tile(pto_dtype dt, uint32_t rows, uint32_t cols, pto_location loc,
                            pto_layout layout, uint8_t seed) {
    pto_tile *t = NULL;
    expect_status(pto_tile_create_cube(dt, rows, cols, loc, layout, &t), PTO_OK, "create_cube");
    uint8_t *d = pto_tile_data(t);
    const size_t n = (size_t)rows * cols * pto_dtype_size(dt);
    for (size_t k = 0; k < n; k++) d[k] = (uint8_t)(seed + k * 7);
    return t;
}

static uint8_t *copy_image(const pto_tile *t) {
    const size_t n = (size_t)pto_tile_rows(t) * pto_tile_cols(t) * pto_dtype_size(pto_tile_dtype(t));
    uint8_t *out = malloc(n);
    assert_non_null(out);
    memcpy(out, pto_tile_data((pto_tile *)t), n);
    return out;
}

typedef struct {
    pto_layout layout;
    uint32_t rows, cols;
} shape;

/* Every element of dst's image: inside the window (rows x cols at (r0, c0)
 * of dst), src's element (sr0 + i, sc0 + j); elsewhere its bytes before. */
static void expect_window(const uint8_t *dst_img, const uint8_t *dst_before, shape d,
                          const uint8_t *src_img, shape s, size_t e, uint32_t r0, uint32_t c0,
                          uint32_t sr0, uint32_t sc0, uint32_t rows, uint32_t cols) {
    for (uint32_t r = 0; r < d.rows; r++)
        for (uint32_t c = 0; c < d.cols; c++) {
            const size_t at = image_offset(d.layout, d.rows, d.cols, e, r, c);
            const bool in = r >= r0 && r < r0 + rows && c >= c0 && c < c0 + cols;
            const uint8_t *want =
                in ? src_img + image_offset(s.layout, s.rows, s.cols, e, sr0 + r - r0, sc0 + c - c0)
                   : dst_before + at;
            if (memcmp(dst_img + at, want, e) != 0)
                fail_msg("element (%u, %u) of dst: %s", r, c, in ? "not src's" : "changed");
        }
}

/* The call refused with `want`, dst's image unchanged. */
static void expect_refused(pto_status got, pto_status want, const pto_tile *dst,
                           const uint8_t *before, const char *what) {
    expect_status(got, want, what);
    const size_t n =
        (size_t)pto_tile_rows(dst) * pto_tile_cols(dst) * pto_dtype_size(pto_tile_dtype(dst));
    assert_memory_equal(pto_tile_data((pto_tile *)dst), before, n);
}

static void test_extract_nz_to_nz(void **state) {
    (void)state;
    /* FLOAT8_E4M3: 16 x 32 boxes; a 16 x 32 window at (16, 32) of 32 x 64,
     * dst holding older bytes outside its 8 x 32 valid region. */
    pto_set_profile(PTO_PROFILE_A5);
    pto_tile *src = image_tile(PTO_FLOAT8_E4M3, 32, 64, PTO_LOC_VEC, PTO_LAYOUT_NZ, 3);
    pto_tile *dst = image_tile(PTO_FLOAT8_E4M3, 16, 32, PTO_LOC_VEC, PTO_LAYOUT_NZ, 101);
    expect_status(pto_tile_set_valid(dst, 8, 32), PTO_OK, "set_valid");
    uint8_t *before = copy_image(dst);
    expect_status(pto_textract(dst, src, 16, 32), PTO_OK, "textract NZ -> NZ");
    expect_window(pto_tile_data(dst), before, (shape){PTO_LAYOUT_NZ, 16, 32},
                  pto_tile_data(src), (shape){PTO_LAYOUT_NZ, 32, 64}, 1, 0, 0, 16, 32, 8, 32);
    free(before);
    /* A5's NZ copy: index_col and dst valid cols whole 32-byte blocks, dst
     * cols at most src's; A2A3's NZ copy carries its nine dtypes only. */
    before = copy_image(dst);
    expect_refused(pto_textract(dst, src, 0, 16), PTO_ERR_OUT_OF_RANGE, dst, before,
                   "unaligned index_col");
    expect_status(pto_tile_set_valid(dst, 8, 16), PTO_OK, "set_valid");
    expect_refused(pto_textract(dst, src, 0, 0), PTO_ERR_SHAPE_MISMATCH, dst, before,
                   "valid cols of half a block");
    expect_status(pto_tile_set_valid(dst, 8, 32), PTO_OK, "set_valid");
    expect_refused(pto_textract(dst, src, 25, 0), PTO_ERR_OUT_OF_RANGE, dst, before,
                   "window past src's rows");
    pto_set_profile(PTO_PROFILE_A2A3);
    expect_refused(pto_textract(dst, src, 0, 0), PTO_ERR_UNSUPPORTED_DTYPE, dst, before,
                   "A2A3 FP8");
    pto_set_profile(PTO_PROFILE_A5);
    pto_tile *wide = image_tile(PTO_FLOAT8_E4M3, 16, 96, PTO_LOC_VEC, PTO_LAYOUT_NZ, 9);
    uint8_t *wide_before = copy_image(wide);
    expect_status(pto_tile_set_valid(wide, 16, 32), PTO_OK, "set_valid");
    expect_refused(pto_textract(wide, src, 0, 0), PTO_ERR_SHAPE_MISMATCH, wide, wide_before,
                   "dst cols above src's");
    /* HOST: no block rule. */
    pto_set_profile(PTO_PROFILE_HOST);
    expect_status(pto_textract(dst, src, 3, 5), PTO_OK, "HOST unaligned window");
    expect_window(pto_tile_data(dst), before, (shape){PTO_LAYOUT_NZ, 16, 32},
                  pto_tile_data(src), (shape){PTO_LAYOUT_NZ, 32, 64}, 1, 0, 0, 3, 5, 8, 32);
    pto_set_profile(PTO_PROFILE_HOST);
    free(before);
    free(wide_before);
    TILES_DESTROY(src, dst, wide);
}

static void test_extract_nz_scalar(void **state) {
    (void)state;
    /* HIFLOAT8 and packed FP4 1x1 windows anywhere in src (A5's scalar
     * path); the dtypes must agree and be A5's vec list. */
    pto_set_profile(PTO_PROFILE_A5);
    const pto_dtype types[] = {PTO_HIFLOAT8, PTO_FLOAT4_E2M1X2, PTO_FLOAT4_E1M2X2};
    for (size_t k = 0; k < sizeof types / sizeof types[0]; k++) {
        pto_tile *src = image_tile(types[k], 16, 64, PTO_LOC_VEC, PTO_LAYOUT_NZ, 1);
        pto_tile *dst = image_tile(types[k], 16, 64, PTO_LOC_VEC, PTO_LAYOUT_NZ, 77);
        expect_status(pto_tile_set_valid(dst, 1, 1), PTO_OK, "set_valid");
        uint8_t *before = copy_image(dst);
        expect_status(pto_textract(dst, src, 11, 40), PTO_OK, "textract 1x1");
        expect_window(pto_tile_data(dst), before, (shape){PTO_LAYOUT_NZ, 16, 64},
                      pto_tile_data(src), (shape){PTO_LAYOUT_NZ, 16, 64}, 1, 0, 0, 11, 40, 1, 1);
        free(before);
        TILES_DESTROY(src, dst);
    }
    pto_tile *src = image_tile(PTO_FLOAT8_E5M2, 16, 32, PTO_LOC_VEC, PTO_LAYOUT_NZ, 1);
    pto_tile *dst = image_tile(PTO_FLOAT8_E4M3, 16, 32, PTO_LOC_VEC, PTO_LAYOUT_NZ, 2);
    pto_tile *u16 = image_tile(PTO_UINT16, 16, 16, PTO_LOC_VEC, PTO_LAYOUT_NZ, 3);
    pto_tile *u16d = image_tile(PTO_UINT16, 16, 16, PTO_LOC_VEC, PTO_LAYOUT_NZ, 4);
    uint8_t *before = copy_image(dst), *before16 = copy_image(u16d);
    expect_refused(pto_textract(dst, src, 0, 0), PTO_ERR_DTYPE_MISMATCH, dst, before, "dtypes");
    expect_refused(pto_textract(u16d, u16, 0, 0), PTO_ERR_UNSUPPORTED_DTYPE, u16d, before16,
                   "UINT16");
    free(before);
    free(before16);
    pto_set_profile(PTO_PROFILE_HOST);
    TILES_DESTROY(src, dst, u16, u16d);
}

static void test_extract_nd_to_nz(void **state) {
    (void)state;
    /* FLOAT16 ND 64 x 128 into NZ 32 x 64 from (16, 8): an unaligned start
     * is A5's (its ND -> NZ loop slides); FLOAT8_E8M0 aligned. */
    pto_set_profile(PTO_PROFILE_A5);
    const pto_dtype types[] = {PTO_FLOAT16, PTO_FLOAT8_E8M0};
    for (size_t k = 0; k < 2; k++) {
        const size_t e = pto_dtype_size(types[k]);
        pto_tile *src = image_tile(types[k], 64, 128, PTO_LOC_VEC, PTO_LAYOUT_ND, 5);
        pto_tile *dst = image_tile(types[k], 32, 64, PTO_LOC_VEC, PTO_LAYOUT_NZ, 50);
        uint8_t *before = copy_image(dst);
        expect_status(pto_textract(dst, src, 16, 8), PTO_OK, "textract ND -> NZ");
        expect_window(pto_tile_data(dst), before, (shape){PTO_LAYOUT_NZ, 32, 64},
                      pto_tile_data(src), (shape){PTO_LAYOUT_ND, 64, 128}, e, 0, 0, 16, 8, 32, 64);
        free(before);
        TILES_DESTROY(src, dst);
    }
    /* A5: src rows whole 32-byte blocks (FLOAT16 24 cols are 48 bytes). */
    pto_tile *src = image_tile(PTO_FLOAT16, 16, 24, PTO_LOC_VEC, PTO_LAYOUT_ND, 5);
    pto_tile *dst = image_tile(PTO_FLOAT16, 16, 16, PTO_LOC_VEC, PTO_LAYOUT_NZ, 6);
    uint8_t *before = copy_image(dst);
    expect_refused(pto_textract(dst, src, 0, 0), PTO_ERR_SHAPE_MISMATCH, dst, before,
                   "src row stride");
    /* NZ into ND is no extract libpto has. */
    pto_tile *nd = image_tile(PTO_FLOAT16, 16, 16, PTO_LOC_VEC, PTO_LAYOUT_ND, 7);
    uint8_t *nd_before = copy_image(nd);
    expect_refused(pto_textract(nd, dst, 0, 0), PTO_ERR_INVALID_ARGUMENT, nd, nd_before,
                   "NZ into ND");
    free(before);
    free(nd_before);
    pto_set_profile(PTO_PROFILE_HOST);
    TILES_DESTROY(src, dst, nd);
}

static void test_insert_nz(void **state) {
    (void)state;
    /* FLOAT4_E2M1X2 (bytes of two values): a vec NZ 16 x 32-byte tile of
     * valid 8 x 32 into a mat NZ 32 x 64 at (4, 32); FLOAT8_E4M3 into a vec
     * NZ tile. */
    pto_set_profile(PTO_PROFILE_A5);
    const pto_location dst_locs[] = {PTO_LOC_MAT, PTO_LOC_VEC};
    const pto_dtype types[] = {PTO_FLOAT4_E2M1X2, PTO_FLOAT8_E4M3};
    for (size_t k = 0; k < 2; k++) {
        pto_tile *src = image_tile(types[k], 16, 32, PTO_LOC_VEC, PTO_LAYOUT_NZ, 11);
        pto_tile *dst = image_tile(types[k], 32, 64, dst_locs[k], PTO_LAYOUT_NZ, 90);
        expect_status(pto_tile_set_valid(src, 8, 32), PTO_OK, "set_valid");
        uint8_t *before = copy_image(dst);
        expect_status(pto_tinsert(dst, src, 4, 32), PTO_OK, "tinsert NZ");
        expect_window(pto_tile_data(dst), before, (shape){PTO_LAYOUT_NZ, 32, 64},
                      pto_tile_data(src), (shape){PTO_LAYOUT_NZ, 16, 32}, 1, 4, 32, 0, 0, 8, 32);
        free(before);
        before = copy_image(dst);
        expect_refused(pto_tinsert(dst, src, 4, 16), PTO_ERR_OUT_OF_RANGE, dst, before,
                       "index_col of half a block");
        expect_refused(pto_tinsert(dst, src, 25, 0), PTO_ERR_OUT_OF_RANGE, dst, before,
                       "window past dst's rows");
        expect_status(pto_tile_set_valid(src, 8, 16), PTO_OK, "set_valid");
        expect_refused(pto_tinsert(dst, src, 0, 0), PTO_ERR_SHAPE_MISMATCH, dst, before,
                       "valid cols of half a block");
        pto_set_profile(PTO_PROFILE_A2A3);
        expect_refused(pto_tinsert(dst, src, 0, 0),
                       k == 0 ? PTO_ERR_INVALID_ARGUMENT : PTO_ERR_UNSUPPORTED_DTYPE, dst, before,
                       k == 0 ? "A2A3 into mat" : "A2A3 FP8");
        pto_set_profile(PTO_PROFILE_A5);
        free(before);
        TILES_DESTROY(src, dst);
    }
    /* A vec NZ tile into a mat ZN one, or into a row-major vec one, is no
     * insert libpto has. */
    pto_tile *src = image_tile(PTO_FLOAT16, 16, 16, PTO_LOC_VEC, PTO_LAYOUT_NZ, 1);
    pto_tile *zn = image_tile(PTO_FLOAT16, 16, 16, PTO_LOC_MAT, PTO_LAYOUT_ZN, 2);
    pto_tile *nd = image_tile(PTO_FLOAT16, 16, 16, PTO_LOC_VEC, PTO_LAYOUT_ND, 3);
    uint8_t *zn_before = copy_image(zn), *nd_before = copy_image(nd);
    expect_refused(pto_tinsert(zn, src, 0, 0), PTO_ERR_INVALID_ARGUMENT, zn, zn_before, "NZ->ZN");
    expect_refused(pto_tinsert(nd, src, 0, 0), PTO_ERR_INVALID_ARGUMENT, nd, nd_before, "NZ->ND");
    free(zn_before);
    free(nd_before);
    pto_set_profile(PTO_PROFILE_HOST);
    TILES_DESTROY(src, zn, nd);
}

static void test_insert_zn(void **state) {
    (void)state;
    /* FLOAT8_E5M2 (ZN boxes 32 x 16): a vec ZN 32 x 16 tile of valid
     * 32 x 13 into a mat ZN 64 x 32 at (32, 16); HIFLOAT8 the same. */
    pto_set_profile(PTO_PROFILE_A5);
    const pto_dtype types[] = {PTO_FLOAT8_E5M2, PTO_HIFLOAT8};
    for (size_t k = 0; k < 2; k++) {
        pto_tile *src = image_tile(types[k], 32, 16, PTO_LOC_VEC, PTO_LAYOUT_ZN, 21);
        pto_tile *dst = image_tile(types[k], 64, 32, PTO_LOC_MAT, PTO_LAYOUT_ZN, 60);
        expect_status(pto_tile_set_valid(src, 32, 13), PTO_OK, "set_valid");
        uint8_t *before = copy_image(dst);
        expect_status(pto_tinsert(dst, src, 32, 16), PTO_OK, "tinsert ZN");
        expect_window(pto_tile_data(dst), before, (shape){PTO_LAYOUT_ZN, 64, 32},
                      pto_tile_data(src), (shape){PTO_LAYOUT_ZN, 32, 16}, 1, 32, 16, 0, 0, 32, 13);
        free(before);
        /* A5's ZN copy: index_row and valid rows whole 32-byte lines. */
        before = copy_image(dst);
        expect_refused(pto_tinsert(dst, src, 16, 0), PTO_ERR_OUT_OF_RANGE, dst, before,
                       "index_row of half a line");
        expect_status(pto_tile_set_valid(src, 16, 13), PTO_OK, "set_valid");
        expect_refused(pto_tinsert(dst, src, 0, 0), PTO_ERR_SHAPE_MISMATCH, dst, before,
                       "valid rows of half a line");
        /* HOST takes both. */
        pto_set_profile(PTO_PROFILE_HOST);
        expect_status(pto_tinsert(dst, src, 16, 3), PTO_OK, "HOST");
        expect_window(pto_tile_data(dst), before, (shape){PTO_LAYOUT_ZN, 64, 32},
                      pto_tile_data(src), (shape){PTO_LAYOUT_ZN, 32, 16}, 1, 16, 3, 0, 0, 16, 13);
        pto_set_profile(PTO_PROFILE_A5);
        free(before);
        TILES_DESTROY(src, dst);
    }
    pto_set_profile(PTO_PROFILE_HOST);
}

static void test_a2a3_nz(void **state) {
    (void)state;
    /* A2A3's NZ Vec -> Vec extract and insert (INT16, 16 x 16 boxes):
     * windows start on a whole box but for 1x1 ones; any valid width. */
    pto_set_profile(PTO_PROFILE_A2A3);
    pto_tile *big = image_tile(PTO_INT16, 32, 64, PTO_LOC_VEC, PTO_LAYOUT_NZ, 13);
    pto_tile *small = image_tile(PTO_INT16, 16, 32, PTO_LOC_VEC, PTO_LAYOUT_NZ, 41);
    expect_status(pto_tile_set_valid(small, 9, 22), PTO_OK, "set_valid");
    uint8_t *before = copy_image(small);
    expect_status(pto_textract(small, big, 16, 32), PTO_OK, "A2A3 extract");
    expect_window(pto_tile_data(small), before, (shape){PTO_LAYOUT_NZ, 16, 32},
                  pto_tile_data(big), (shape){PTO_LAYOUT_NZ, 32, 64}, 2, 0, 0, 16, 32, 9, 22);
    free(before);
    before = copy_image(small);
    expect_refused(pto_textract(small, big, 8, 0), PTO_ERR_OUT_OF_RANGE, small, before,
                   "A2A3 index_row inside a box");
    expect_refused(pto_textract(small, big, 0, 8), PTO_ERR_OUT_OF_RANGE, small, before,
                   "A2A3 index_col inside a box");
    expect_status(pto_tile_set_valid(small, 1, 1), PTO_OK, "set_valid");
    expect_status(pto_textract(small, big, 7, 9), PTO_OK, "A2A3 1x1 extract");
    expect_window(pto_tile_data(small), before, (shape){PTO_LAYOUT_NZ, 16, 32},
                  pto_tile_data(big), (shape){PTO_LAYOUT_NZ, 32, 64}, 2, 0, 0, 7, 9, 1, 1);
    free(before);
    expect_status(pto_tile_set_valid(small, 9, 22), PTO_OK, "set_valid");
    before = copy_image(big);
    expect_status(pto_tinsert(big, small, 16, 16), PTO_OK, "A2A3 insert");
    expect_window(pto_tile_data(big), before, (shape){PTO_LAYOUT_NZ, 32, 64},
                  pto_tile_data(small), (shape){PTO_LAYOUT_NZ, 16, 32}, 2, 16, 16, 0, 0, 9, 22);
    free(before);
    before = copy_image(big);
    expect_refused(pto_tinsert(big, small, 4, 16), PTO_ERR_OUT_OF_RANGE, big, before,
                   "A2A3 insert inside a box");
    free(before);
    before = copy_image(small);
    expect_refused(pto_tinsert(small, big, 0, 0), PTO_ERR_SHAPE_MISMATCH, small, before,
                   "A2A3 src larger than dst");
    free(before);
    /* The ND -> NZ extract: A2A3's five dtypes (INT16 is not one of them). */
    pto_tile *nd = image_tile(PTO_INT16, 16, 32, PTO_LOC_VEC, PTO_LAYOUT_ND, 5);
    before = copy_image(small);
    expect_refused(pto_textract(small, nd, 0, 0), PTO_ERR_UNSUPPORTED_DTYPE, small, before,
                   "A2A3 ND -> NZ INT16");
    free(before);
    pto_set_profile(PTO_PROFILE_HOST);
    TILES_DESTROY(big, small, nd);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_extract_nz_to_nz),
        cmocka_unit_test(test_extract_nz_scalar),
        cmocka_unit_test(test_extract_nd_to_nz),
        cmocka_unit_test(test_insert_nz),
        cmocka_unit_test(test_insert_zn),
        cmocka_unit_test(test_a2a3_nz),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
