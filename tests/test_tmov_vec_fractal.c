/* pto_tmov from a vec ND tile to a vec NZ or ZN tile (pto-isa TMOV.md's vec
 * ND -> NZ and ND -> ZN, a5/TMov.hpp TMovToVecNd2Nz and TMovNdTo2Zn):
 * - under A5 (and HOST) for HiFloat8, FP8, packed FP4, FLOAT16, INT32: dst's
 *   storage is the fractal image written out here from the pages' box
 *   shapes (512 bytes: NZ boxes of 16 rows x 32 bytes, taken column of
 *   boxes by column, rows inside; ZN boxes of 32 bytes' rows x 16 columns,
 *   taken row of boxes by row, columns inside);
 * - the bias table's widening moves: a FLOAT16 (every profile) or BFLOAT16
 *   (A5, HOST) mat row into a FLOAT32 bias row gives each value exactly;
 *   BFLOAT16 under A2A3 and FLOAT16 into INT32 are refused;
 * - the refusals, each with its status and sentence, writing nothing: under
 *   A2A3, INT4X2 under A5, a dst of another shape, NZ back to ND, a vec ZZ
 *   tile at creation, and a vec NZ tile given to an elementwise operation. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/harness.h"

/* Byte offset of element (r, c) (bytes of e each) in the image of a rows x
 * cols tile. NZ: C0 = 32 / e columns by 16 rows a box, boxes down a column
 * of boxes first; ZN: 32 / e rows by 16 columns a box, boxes along a row of
 * boxes first, each box column-major. */
static size_t nz_offset(size_t e, size_t rows, size_t r, size_t c) {
    const size_t c0 = 32 / e;
    const size_t box = (c / c0) * rows + (r / 16) * 16; /* first row of the box, counted in C0-wide rows */
    return ((box + r % 16) * c0 + c % c0) * e;
}

static size_t zn_offset(size_t e, size_t cols, size_t r, size_t c) {
    const size_t k0 = 32 / e;
    const size_t boxes_before = (r / k0) * (cols / 16) + c / 16;
    return (boxes_before * k0 * 16 + (c % 16) * k0 + r % k0) * e;
}

static pto_tile *tile(pto_dtype dt, uint32_t rows, uint32_t cols, pto_layout layout) {
    pto_tile *t = NULL;
    const pto_status st = pto_tile_create_cube(dt, rows, cols, PTO_LOC_VEC, layout, &t);
    if (st != PTO_OK) fail_msg("pto_tile_create_cube: %s (%s)", pto_status_string(st), pto_last_error());
    return t;
}

static void check_move(pto_profile profile, pto_dtype dt, uint32_t rows, uint32_t cols, pto_layout layout, rng *r) {
    expect_status(pto_set_profile(profile), PTO_OK, "pto_set_profile");
    const size_t e = pto_dtype_size(dt), bytes = (size_t)rows * cols * e;
    pto_tile *src = tile(dt, rows, cols, PTO_LAYOUT_ND), *dst = tile(dt, rows, cols, layout);
    unsigned char *in = pto_tile_data(src);
    for (size_t i = 0; i < bytes; ++i) in[i] = (unsigned char)rng_next(r);
    expect_status(pto_tmov(dst, src), PTO_OK, "pto_tmov");
    const unsigned char *image = pto_tile_data(dst);
    for (uint32_t i = 0; i < rows; ++i)
        for (uint32_t j = 0; j < cols; ++j) {
            const size_t at = layout == PTO_LAYOUT_NZ ? nz_offset(e, rows, i, j) : zn_offset(e, cols, i, j);
            if (memcmp(image + at, in + ((size_t)i * cols + j) * e, e) != 0)
                fail_msg("%s %ux%u into %s: (%u,%u) is not at byte %zu", pto_dtype_string(dt), rows, cols,
                         layout == PTO_LAYOUT_NZ ? "NZ" : "ZN", i, j, at);
        }
    pto_tile_destroy(src);
    pto_tile_destroy(dst);
    expect_status(pto_set_profile(PTO_PROFILE_HOST), PTO_OK, "pto_set_profile");
}

static void test_images(void **state) {
    (void)state;
    rng r = {0x7A0Fu};
    const pto_layout layouts[2] = {PTO_LAYOUT_NZ, PTO_LAYOUT_ZN};
    for (int l = 0; l < 2; ++l) {
        check_move(PTO_PROFILE_A5, PTO_HIFLOAT8, 32, 64, layouts[l], &r);
        check_move(PTO_PROFILE_A5, PTO_FLOAT8_E4M3, 64, 32, layouts[l], &r);
        check_move(PTO_PROFILE_A5, PTO_FLOAT4_E2M1X2, 32, 32, layouts[l], &r);
        check_move(PTO_PROFILE_A5, PTO_FLOAT16, 32, 48, layouts[l], &r);
        check_move(PTO_PROFILE_A5, PTO_INT32, 16, 32, layouts[l], &r);
        check_move(PTO_PROFILE_HOST, PTO_FLOAT32, 32, 16, layouts[l], &r);
    }
}

static void expect_move_refused(pto_profile profile, pto_tile *dst, const pto_tile *src, pto_status want,
                                const char *phrase) {
    expect_status(pto_set_profile(profile), PTO_OK, "pto_set_profile");
    const size_t bytes = (size_t)pto_tile_rows(dst) * pto_tile_cols(dst) * pto_dtype_size(pto_tile_dtype(dst));
    memset(pto_tile_data(dst), 0x3C, bytes);
    expect_status(pto_tmov(dst, src), want, "pto_tmov");
    if (strstr(pto_last_error(), phrase) == NULL)
        fail_msg("pto_tmov: sentence \"%s\" lacks \"%s\"", pto_last_error(), phrase);
    const unsigned char *image = pto_tile_data(dst);
    for (size_t i = 0; i < bytes; ++i)
        if (image[i] != 0x3C) fail_msg("pto_tmov: a refusal wrote dst byte %zu", i);
    expect_status(pto_set_profile(PTO_PROFILE_HOST), PTO_OK, "pto_set_profile");
}

static void test_refusals(void **state) {
    (void)state;
    pto_tile *nd = tile(PTO_HIFLOAT8, 32, 64, PTO_LAYOUT_ND), *nz = tile(PTO_HIFLOAT8, 32, 64, PTO_LAYOUT_NZ);
    pto_tile *wide = tile(PTO_HIFLOAT8, 32, 96, PTO_LAYOUT_NZ);
    expect_move_refused(PTO_PROFILE_A2A3, nz, nd, PTO_ERR_INVALID_ARGUMENT, "A5's, not A2A3's");
    expect_move_refused(PTO_PROFILE_A5, wide, nd, PTO_ERR_SHAPE_MISMATCH, "this move takes a whole tile");
    expect_move_refused(PTO_PROFILE_A5, nd, nz, PTO_ERR_INVALID_ARGUMENT, "is not a move the cube has");
    pto_tile *i4 = tile(PTO_INT4X2, 32, 64, PTO_LAYOUT_ND), *i4nz = tile(PTO_INT4X2, 32, 64, PTO_LAYOUT_NZ);
    expect_move_refused(PTO_PROFILE_A5, i4nz, i4, PTO_ERR_UNSUPPORTED_DTYPE, "do not carry INT4X2");

    /* A vec tile in a fractal layout is pto_tmov's only. */
    pto_tile *a = tile(PTO_FLOAT16, 16, 16, PTO_LAYOUT_ZN), *b = NULL, *c = NULL;
    expect_status(pto_tile_create(PTO_FLOAT16, 16, 16, &b), PTO_OK, "pto_tile_create");
    expect_status(pto_tile_create(PTO_FLOAT16, 16, 16, &c), PTO_OK, "pto_tile_create");
    expect_status(pto_tadd(c, a, b), PTO_ERR_INVALID_ARGUMENT, "pto_tadd");
    if (strstr(pto_last_error(), "src0 is a vec ZN tile") == NULL)
        fail_msg("pto_tadd: sentence \"%s\"", pto_last_error());
    pto_tile *zz = NULL;
    expect_status(pto_tile_create_cube(PTO_FLOAT16, 16, 16, PTO_LOC_VEC, PTO_LAYOUT_ZZ, &zz),
                  PTO_ERR_INVALID_ARGUMENT, "pto_tile_create_cube");
    if (zz != NULL || strstr(pto_last_error(), "a vec tile is row-major (PTO_LAYOUT_ND) or NZ or ZN") == NULL)
        fail_msg("pto_tile_create_cube vec ZZ: \"%s\"", pto_last_error());
    pto_tile_destroy(nd);
    pto_tile_destroy(nz);
    pto_tile_destroy(wide);
    pto_tile_destroy(i4);
    pto_tile_destroy(i4nz);
    pto_tile_destroy(a);
    pto_tile_destroy(b);
    pto_tile_destroy(c);
}

/* Values exact in both narrow types (small integers over 8): the widened
 * row holds them as float32. */
static void check_widening(pto_profile profile, pto_dtype from) {
    expect_status(pto_set_profile(profile), PTO_OK, "pto_set_profile");
    pto_tile *src = NULL, *dst = NULL;
    expect_status(pto_tile_create_cube(from, 1, 32, PTO_LOC_MAT, PTO_LAYOUT_ND, &src), PTO_OK, "create mat row");
    expect_status(pto_tile_create_cube(PTO_FLOAT32, 1, 32, PTO_LOC_BIAS, PTO_LAYOUT_ND, &dst), PTO_OK,
                  "create bias row");
    float in[32], out[32];
    for (int j = 0; j < 32; ++j) in[j] = (float)(j * 7 - 100) / 8.0f;
    expect_status(pto_tile_write_f32(src, in, 32), PTO_OK, "write");
    expect_status(pto_tile_set_valid(dst, 1, 30), PTO_OK, "valid");
    expect_status(pto_tmov(dst, src), PTO_OK, "pto_tmov mat -> bias");
    expect_status(pto_tile_read_f32(dst, out, 32), PTO_OK, "read");
    for (int j = 0; j < 32; ++j)
        if (ref_f32_bits(out[j]) != ref_f32_bits(j < 30 ? in[j] : 0.0f))
            fail_msg("%s -> FLOAT32 bias: element %d is %a", pto_dtype_string(from), j, (double)out[j]);
    pto_tile_destroy(src);
    pto_tile_destroy(dst);
    expect_status(pto_set_profile(PTO_PROFILE_HOST), PTO_OK, "pto_set_profile");
}

static void test_bias_widening(void **state) {
    (void)state;
    check_widening(PTO_PROFILE_A5, PTO_FLOAT16);
    check_widening(PTO_PROFILE_A5, PTO_BFLOAT16);
    check_widening(PTO_PROFILE_A2A3, PTO_FLOAT16);
    check_widening(PTO_PROFILE_HOST, PTO_BFLOAT16);
    pto_tile *bf = NULL, *f16 = NULL, *f32 = NULL, *i32 = NULL;
    expect_status(pto_tile_create_cube(PTO_BFLOAT16, 1, 32, PTO_LOC_MAT, PTO_LAYOUT_ND, &bf), PTO_OK, "create");
    expect_status(pto_tile_create_cube(PTO_FLOAT16, 1, 32, PTO_LOC_MAT, PTO_LAYOUT_ND, &f16), PTO_OK, "create");
    expect_status(pto_tile_create_cube(PTO_FLOAT32, 1, 32, PTO_LOC_BIAS, PTO_LAYOUT_ND, &f32), PTO_OK, "create");
    expect_status(pto_tile_create_cube(PTO_INT32, 1, 32, PTO_LOC_BIAS, PTO_LAYOUT_ND, &i32), PTO_OK, "create");
    expect_move_refused(PTO_PROFILE_A2A3, f32, bf, PTO_ERR_DTYPE_MISMATCH, "the cube's moves keep the dtype");
    expect_move_refused(PTO_PROFILE_A5, i32, f16, PTO_ERR_DTYPE_MISMATCH, "the cube's moves keep the dtype");
    pto_tile_destroy(bf);
    pto_tile_destroy(f16);
    pto_tile_destroy(f32);
    pto_tile_destroy(i32);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bias_widening),
        cmocka_unit_test(test_images),
        cmocka_unit_test(test_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
