/* Cube tiles (pto_tile_create_cube) and the matrix multiplies on them:
 * - every location and layout round-trips row-major values through
 *   pto_tile_write / pto_tile_read (and the _f32 forms), and the byte image
 *   pto_tile_data shows is the header's offset formula, written out here;
 * - under A2A3 and A5, for each (dst; a, b) dtype triple, tmatmul,
 *   tmatmul_acc and tmatmul_bias on the cube tiles that profile's NPU takes
 *   give, bit for bit, what the same calls give under HOST on row-major
 *   tiles (padded valid regions included); under HOST cube tiles of any
 *   layout give the same bits too;
 * - each refusal (wrong location, wrong layout, dtypes, the NPU's shapes,
 *   boxes that do not tile a shape, cube tiles given to a vector operation)
 *   with its status and sentence, writing nothing; destroy(NULL);
 * - a program's tile arguments refuse cube tiles. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/harness.h"


static pto_tile *cube(pto_dtype dt, uint32_t rows, uint32_t cols, pto_location loc, pto_layout layout) {
    pto_tile *t = NULL;
    const pto_status st = pto_tile_create_cube(dt, rows, cols, loc, layout, &t);
    if (st != PTO_OK) fail_msg("pto_tile_create_cube: %s (%s)", pto_status_string(st), pto_last_error());
    return t;
}

static size_t tile_bytes(const pto_tile *t) {
    return (size_t)pto_tile_rows(t) * pto_tile_cols(t) * pto_dtype_size(pto_tile_dtype(t));
}

/* Row-major values in, the same values out; the image holds each at the
 * header's offset. */
static void check_round_trip(pto_dtype dt, uint32_t rows, uint32_t cols, pto_location loc, pto_layout layout,
                             rng *r) {
    pto_tile *t = cube(dt, rows, cols, loc, layout);
    assert_int_equal(pto_tile_location(t), loc);
    assert_int_equal(pto_tile_layout(t), layout);
    const size_t e = pto_dtype_size(dt), n = (size_t)rows * cols, bytes = n * e;
    unsigned char *in = malloc(bytes), *out = malloc(bytes);
    for (size_t i = 0; i < bytes; ++i) in[i] = (unsigned char)rng_next(r);
    expect_status(pto_tile_write(t, in, bytes), PTO_OK, "pto_tile_write");
    const unsigned char *image = pto_tile_data(t);
    for (uint32_t i = 0; i < rows; ++i)
        for (uint32_t j = 0; j < cols; ++j) {
            const size_t at = ref_image_offset(dt, rows, cols, loc, layout, i, j);
            if (at >= n || memcmp(image + at * e, in + ((size_t)i * cols + j) * e, e) != 0)
                fail_msg("%s %ux%u location %d layout %d: (%u,%u) is not at image element %zu",
                         pto_dtype_string(dt), rows, cols, (int)loc, (int)layout, i, j, at);
        }
    expect_status(pto_tile_read(t, out, bytes), PTO_OK, "pto_tile_read");
    if (memcmp(in, out, bytes) != 0)
        fail_msg("%s %ux%u location %d layout %d: read differs from write", pto_dtype_string(dt), rows, cols,
                 (int)loc, (int)layout);
    if (dt == PTO_FLOAT16 || dt == PTO_BFLOAT16 || dt == PTO_FLOAT32) {
        /* The _f32 copies: values out as written in (each exact in dt). */
        float *f = malloc(n * sizeof *f), *g = malloc(n * sizeof *g);
        for (size_t i = 0; i < n; ++i) f[i] = (float)((int)(rng_below(r, 512)) - 256) / 8.0f;
        expect_status(pto_tile_write_f32(t, f, n), PTO_OK, "pto_tile_write_f32");
        expect_status(pto_tile_read_f32(t, g, n), PTO_OK, "pto_tile_read_f32");
        if (memcmp(f, g, n * sizeof *f) != 0) fail_msg("%s layout %d: the _f32 round trip differs", pto_dtype_string(dt), (int)layout);
        /* Row 0's second element is where the formula puts it. */
        pto_tile *plain = NULL;
        expect_status(pto_tile_create(dt, rows, cols, &plain), PTO_OK, "pto_tile_create");
        expect_status(pto_tile_write_f32(plain, f, n), PTO_OK, "pto_tile_write_f32");
        const size_t at = ref_image_offset(dt, rows, cols, loc, layout, 0, 1);
        if (memcmp((unsigned char *)pto_tile_data(plain) + e, image + at * e, e) != 0)
            fail_msg("%s layout %d: element (0,1) of the _f32 write misplaced", pto_dtype_string(dt), (int)layout);
        pto_tile_destroy(plain);
        free(f);
        free(g);
    }
    free(in);
    free(out);
    pto_tile_destroy(t);
}

static void test_layouts(void **state) {
    (void)state;
    rng r = {0xC0BE01u};
    const pto_dtype dtypes[] = {PTO_INT8, PTO_FLOAT16, PTO_BFLOAT16, PTO_FLOAT32, PTO_INT64};
    const pto_location locs[] = {PTO_LOC_MAT, PTO_LOC_LEFT, PTO_LOC_RIGHT, PTO_LOC_ACC};
    const uint32_t shapes[][2] = {{32, 64}, {64, 32}, {1, 64}, {96, 128}};
    for (size_t d = 0; d < COUNT(dtypes); ++d)
        for (size_t l = 0; l < COUNT(locs); ++l)
            for (int layout = PTO_LAYOUT_ND; layout <= PTO_LAYOUT_NN; ++layout)
                for (size_t s = 0; s < COUNT(shapes); ++s)
                    check_round_trip(dtypes[d], shapes[s][0], shapes[s][1], locs[l], (pto_layout)layout, &r);
    check_round_trip(PTO_FLOAT32, 1, 64, PTO_LOC_BIAS, PTO_LAYOUT_ND, &r);
    check_round_trip(PTO_INT32, 4, 8, PTO_LOC_VEC, PTO_LAYOUT_ND, &r);
}

typedef struct {
    pto_dtype dst, src;
} triple;

static const triple kTriples[] = {
    {PTO_FLOAT32, PTO_BFLOAT16}, {PTO_FLOAT32, PTO_FLOAT16}, {PTO_FLOAT32, PTO_FLOAT32}, {PTO_INT32, PTO_INT8}};

/* t's values (row-major, its whole rows x cols) into u. */
static void copy_values(pto_tile *u, const pto_tile *t) {
    const size_t bytes = tile_bytes(t);
    void *v = malloc(bytes);
    expect_status(pto_tile_read(t, v, bytes), PTO_OK, "pto_tile_read");
    expect_status(pto_tile_write(u, v, bytes), PTO_OK, "pto_tile_write");
    free(v);
}

/* u's values equal t's, bit for bit (whole tiles). */
static void expect_same_values(const pto_tile *u, const pto_tile *t, const char *what) {
    const size_t bytes = tile_bytes(t);
    void *v = malloc(bytes), *w = malloc(bytes);
    expect_status(pto_tile_read(t, v, bytes), PTO_OK, "pto_tile_read");
    expect_status(pto_tile_read(u, w, bytes), PTO_OK, "pto_tile_read");
    if (memcmp(v, w, bytes) != 0) fail_msg("%s: the cube tiles' result differs from HOST's row-major one", what);
    free(v);
    free(w);
}

/* A product's dst against HOST's, element by element (whole tiles): the
 * same bits, or both NaN: which NaN operand's payload a step passes on is
 * the compiler's choice of operand order where the target computes the
 * chains in double (the contract's matrix multiplies promise a NaN, as
 * tests/test_matmul.c checks them). */
static void expect_same_results(const pto_tile *u, const pto_tile *t, const char *what) {
    const pto_dtype dt = pto_tile_dtype(t);  /* FLOAT32 or INT32: 4 bytes */
    const size_t count = (size_t)pto_tile_rows(t) * pto_tile_cols(t);
    uint32_t *want = malloc(count * 4), *got = malloc(count * 4);
    expect_status(pto_tile_read(t, want, count * 4), PTO_OK, "pto_tile_read");
    expect_status(pto_tile_read(u, got, count * 4), PTO_OK, "pto_tile_read");
    for (size_t e = 0; e < count; ++e)
        if (want[e] != got[e] && !(dt == PTO_FLOAT32 && ref_is_nan(dt, want[e]) && ref_is_nan(dt, got[e])))
            fail_msg("%s: element %zu (row-major) is 0x%08x on the cube tiles, 0x%08x on HOST's row-major ones",
                     what, e, got[e], want[e]);
    free(want);
    free(got);
}

/* One dtype triple, M x K x N tiles with valid regions vm x vk x vn: the
 * three calls under `profile` on cube tiles a (left_loc, left_layout),
 * b, dst, bias as given against HOST on row-major tiles. The values are
 * moderate (GEN_FINITE): with a NaN or an infinity among a chain's products
 * most elements would be NaN on both sides, whatever the chains summed. */
static void compare_with_host(pto_profile profile, triple t, uint32_t m, uint32_t k, uint32_t n, uint32_t vm,
                              uint32_t vk, uint32_t vn, pto_layout a_layout, pto_layout b_layout,
                              pto_layout c_layout, rng *r) {
    pto_tile *ha = tile_new(t.src, m, k, vm, vk), *hb = tile_new(t.src, k, n, vk, vn);
    pto_tile *hc = tile_new(t.dst, m, n, vm, vn), *hbias = tile_new(t.dst, 1, n, 1, vn);
    tile_fill(ha, r, GEN_FINITE);
    tile_fill(hb, r, GEN_FINITE);
    tile_fill(hbias, r, GEN_FINITE);
    pto_tile *ca = cube(t.src, m, k, PTO_LOC_LEFT, a_layout), *cb = cube(t.src, k, n, PTO_LOC_RIGHT, b_layout);
    pto_tile *cc = cube(t.dst, m, n, PTO_LOC_ACC, c_layout), *cbias = cube(t.dst, 1, n, PTO_LOC_BIAS, PTO_LAYOUT_ND);
    copy_values(ca, ha);
    copy_values(cb, hb);
    copy_values(cbias, hbias);
    expect_status(pto_tile_set_valid(ca, vm, vk), PTO_OK, "set_valid a");
    expect_status(pto_tile_set_valid(cb, vk, vn), PTO_OK, "set_valid b");
    expect_status(pto_tile_set_valid(cc, vm, vn), PTO_OK, "set_valid dst");
    expect_status(pto_tile_set_valid(cbias, 1, vn), PTO_OK, "set_valid bias");
    for (seed_kind s = SEED_ZERO; s <= SEED_BIAS; ++s) {
        tile_fill(hc, r, GEN_FINITE);
        copy_values(cc, hc);
        char what[160];
        snprintf(what, sizeof what, "%s %s (%s; %s) %ux%ux%u valid %ux%ux%u", pto_profile_string(profile),
                 kSeedNames[s], pto_dtype_string(t.dst), pto_dtype_string(t.src), m, k, n, vm, vk, vn);
        assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
        expect_status(matmul_call(s, hc, ha, hb, hbias), PTO_OK, what);
        assert_int_equal(pto_set_profile(profile), PTO_OK);
        const pto_status st = matmul_call(s, cc, ca, cb, cbias);
        if (st != PTO_OK) fail_msg("%s: %s (%s)", what, pto_status_string(st), pto_last_error());
        expect_same_results(cc, hc, what);
    }
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    TILES_DESTROY(ha, hb, hc, hbias, ca, cb, cc, cbias);
}

static void test_npu_equals_host(void **state) {
    (void)state;
    rng r = {0xC0BE02u};
    for (size_t i = 0; i < COUNT(kTriples); ++i) {
        /* K a multiple of 32 (the 1-byte box's width) fits every triple. */
        compare_with_host(PTO_PROFILE_A2A3, kTriples[i], 32, 64, 48, 32, 64, 48, PTO_LAYOUT_ZZ, PTO_LAYOUT_ZN,
                          PTO_LAYOUT_NZ, &r);
        compare_with_host(PTO_PROFILE_A5, kTriples[i], 32, 64, 48, 32, 64, 48, PTO_LAYOUT_NZ, PTO_LAYOUT_ZN,
                          PTO_LAYOUT_NZ, &r);
        /* Padded valid regions, the boxes partly filled. */
        compare_with_host(PTO_PROFILE_A2A3, kTriples[i], 48, 96, 32, 37, 70, 19, PTO_LAYOUT_ZZ, PTO_LAYOUT_ZN,
                          PTO_LAYOUT_NZ, &r);
        compare_with_host(PTO_PROFILE_A5, kTriples[i], 48, 96, 32, 1, 1, 1, PTO_LAYOUT_NZ, PTO_LAYOUT_ZN,
                          PTO_LAYOUT_NZ, &r);
        /* HOST takes any layout. */
        compare_with_host(PTO_PROFILE_HOST, kTriples[i], 32, 64, 32, 30, 33, 17, PTO_LAYOUT_NN, PTO_LAYOUT_ZZ,
                          PTO_LAYOUT_ZN, &r);
        compare_with_host(PTO_PROFILE_HOST, kTriples[i], 32, 64, 32, 32, 64, 32, PTO_LAYOUT_ND, PTO_LAYOUT_NZ,
                          PTO_LAYOUT_ND, &r);
    }
}

/* The small-M product on the cube's own layouts (FLOAT16 and BFLOAT16
 * sources, M = 1 to 32: b read from its ZN boxes and dst from its acc NZ
 * ones where they lie) on every SIMD target: the same bits as HOST's
 * row-major product on that target, across its strips (a whole strip, the
 * zero-padded last one, one column), its panels of k (K past 256), row
 * blocks of 1 to 8 rows, padded valid regions, both NPU profiles' left
 * layouts and every seed; M = 33 and tiles of fewer than 16 rows beside. */
typedef struct {
    uint32_t m, k, n, vm, vk, vn;
} small_shape;

static const small_shape kSmallShapes[] = {
    {16, 64, 256, 16, 64, 256},  /* a decode projection's tile product */
    {32, 288, 80, 32, 270, 67},  /* two panels of k, a padded last strip */
    {16, 512, 64, 13, 300, 64},  /* 13 rows: an 8-row block and a 5-row one */
    {16, 64, 48, 1, 64, 1},      /* one row, one column */
    {1, 64, 48, 1, 64, 33},      /* a one-row tile (boxes of one row) */
    {48, 64, 32, 33, 64, 32},    /* 33 rows: staged row-major instead */
};

static void small_m_body(void *ctx, size_t target_index, const char *target) {
    (void)ctx, (void)target;
    rng r = {0xC0BE10u + (uint32_t)target_index};
    const triple sources[] = {{PTO_FLOAT32, PTO_BFLOAT16}, {PTO_FLOAT32, PTO_FLOAT16}};
    const pto_profile profiles[] = {PTO_PROFILE_A5, PTO_PROFILE_A2A3};
    const pto_layout lefts[] = {PTO_LAYOUT_NZ, PTO_LAYOUT_ZZ};
    for (size_t s = 0; s < COUNT(kSmallShapes); ++s)
        for (size_t c = 0; c < 4; ++c) {
            /* Under emulation each target runs one (source, profile) pair a shape, in turn. */
            if (under_emulation() && c != (s + target_index) % 4) continue;
            const small_shape *x = &kSmallShapes[s];
            compare_with_host(profiles[c % 2], sources[c / 2], x->m, x->k, x->n, x->vm, x->vk, x->vn, lefts[c % 2],
                              PTO_LAYOUT_ZN, PTO_LAYOUT_NZ, &r);
        }
}

static void test_small_m_on_cube_layouts(void **state) {
    (void)state;
    for_each_target("small-M products on the cube's layouts", small_m_body, NULL);
}

/* One refused matrix multiply: status and sentence; dst's image unchanged. */
static void expect_refused(seed_kind seed, pto_tile *dst, const pto_tile *a, const pto_tile *b,
                           const pto_tile *bias, pto_status want, const char *sentence) {
    uint64_t *before = tile_snapshot(dst);
    const pto_status st = matmul_call(seed, dst, a, b, bias);
    if (st != want || strstr(pto_last_error(), sentence) == NULL)
        fail_msg("%s under %s: %s (%s), expected %s with \"%s\"", kSeedNames[seed],
                 pto_profile_string(pto_get_profile()), pto_status_string(st), pto_last_error(),
                 pto_status_string(want), sentence);
    assert_tile_unchanged(dst, before, "a refused matmul's dst");
    free(before);
}

static void test_matmul_refusals(void **state) {
    (void)state;
    rng r = {0xC0BE03u};
    pto_tile *zz = cube(PTO_FLOAT16, 32, 32, PTO_LOC_LEFT, PTO_LAYOUT_ZZ);
    pto_tile *nz = cube(PTO_FLOAT16, 32, 32, PTO_LOC_LEFT, PTO_LAYOUT_NZ);
    pto_tile *b = cube(PTO_FLOAT16, 32, 32, PTO_LOC_RIGHT, PTO_LAYOUT_ZN);
    pto_tile *b_mat = cube(PTO_FLOAT16, 32, 32, PTO_LOC_MAT, PTO_LAYOUT_ZN);
    pto_tile *b_nz = cube(PTO_FLOAT16, 32, 32, PTO_LOC_RIGHT, PTO_LAYOUT_NZ);
    pto_tile *c = cube(PTO_FLOAT32, 32, 32, PTO_LOC_ACC, PTO_LAYOUT_NZ);
    pto_tile *c_zz = cube(PTO_FLOAT32, 32, 32, PTO_LOC_ACC, PTO_LAYOUT_ZZ);
    pto_tile *c_vec = tile_new(PTO_FLOAT32, 32, 32, 32, 32);
    pto_tile *c_16 = cube(PTO_FLOAT32, 16, 32, PTO_LOC_ACC, PTO_LAYOUT_NZ);
    pto_tile *bias = cube(PTO_FLOAT32, 1, 32, PTO_LOC_BIAS, PTO_LAYOUT_ND);
    pto_tile *bias_vec = tile_new(PTO_FLOAT32, 1, 32, 1, 32);
    pto_tile *u8a = cube(PTO_UINT8, 32, 32, PTO_LOC_LEFT, PTO_LAYOUT_NZ);
    pto_tile *u8b = cube(PTO_UINT8, 32, 32, PTO_LOC_RIGHT, PTO_LAYOUT_ZN);
    pto_tile *i8a = cube(PTO_INT8, 32, 32, PTO_LOC_LEFT, PTO_LAYOUT_NZ);
    pto_tile *i8b = cube(PTO_INT8, 32, 32, PTO_LOC_RIGHT, PTO_LAYOUT_ZN);
    pto_tile *tiles[] = {zz, nz, b, b_mat, b_nz, c, c_zz, c_16, bias};
    for (size_t i = 0; i < COUNT(tiles); ++i) tile_fill(tiles[i], &r, GEN_ANY);

    assert_int_equal(pto_set_profile(PTO_PROFILE_A2A3), PTO_OK);
    expect_refused(SEED_ZERO, c, nz, b, NULL, PTO_ERR_INVALID_ARGUMENT,
                   "under A2A3 a must be a left ZZ tile (pto_tile_create_cube), not a left NZ tile");
    expect_refused(SEED_ZERO, c, zz, b_mat, NULL, PTO_ERR_INVALID_ARGUMENT,
                   "under A2A3 b must be a right ZN tile (pto_tile_create_cube), not a mat ZN tile");
    expect_refused(SEED_DST, c_zz, zz, b, NULL, PTO_ERR_INVALID_ARGUMENT,
                   "under A2A3 dst must be an acc NZ tile (pto_tile_create_cube), not an acc ZZ tile");
    expect_refused(SEED_BIAS, c, zz, b, bias_vec, PTO_ERR_INVALID_ARGUMENT,
                   "under A2A3 bias must be a bias ND tile (pto_tile_create_cube), not a vec ND tile");
    expect_status(pto_tile_set_valid(zz, 16, 32), PTO_OK, "set_valid");
    expect_refused(SEED_ZERO, c_16, zz, b, NULL, PTO_ERR_SHAPE_MISMATCH,
                   "under A2A3 the tiles are a [M, K], b [K, N], dst [M, N]; here a is 32x32, b 32x32, "
                   "dst 16x32");
    expect_status(pto_tile_set_valid(zz, 32, 32), PTO_OK, "set_valid");

    assert_int_equal(pto_set_profile(PTO_PROFILE_A5), PTO_OK);
    expect_refused(SEED_ZERO, c, zz, b, NULL, PTO_ERR_INVALID_ARGUMENT,
                   "under A5 a must be a left NZ tile (pto_tile_create_cube), not a left ZZ tile");
    expect_refused(SEED_ZERO, c, nz, b_nz, NULL, PTO_ERR_INVALID_ARGUMENT,
                   "under A5 b must be a right ZN tile (pto_tile_create_cube), not a right NZ tile");
    expect_refused(SEED_ZERO, c_vec, nz, b, NULL, PTO_ERR_INVALID_ARGUMENT,
                   "under A5 dst must be an acc NZ tile");
    /* The dtypes the NPU has and libpto has not (fp8's 1-byte floats): no
     * UINT8 or mixed triple. */
    expect_refused(SEED_ZERO, c, u8a, u8b, NULL, PTO_ERR_UNSUPPORTED_DTYPE, "(dst FLOAT32; a, b UINT8)");
    expect_refused(SEED_ZERO, c, i8a, i8b, NULL, PTO_ERR_UNSUPPORTED_DTYPE, "(dst FLOAT32; a, b INT8)");
    expect_refused(SEED_ZERO, c, nz, i8b, NULL, PTO_ERR_DTYPE_MISMATCH, "b");
    /* M = 0: the NPU's mad takes 1 to 4095. */
    expect_status(pto_tile_set_valid(nz, 0, 32), PTO_OK, "set_valid");
    expect_status(pto_tile_set_valid(c, 0, 32), PTO_OK, "set_valid");
    expect_refused(SEED_ZERO, c, nz, b, NULL, PTO_ERR_SHAPE_MISMATCH, "M = 0 is outside the cube's 1 to 4095 under A5");
    expect_status(pto_tile_set_valid(c, 32, 32), PTO_OK, "set_valid");
    expect_refused(SEED_ZERO, c, nz, b, NULL, PTO_ERR_SHAPE_MISMATCH, "a valid rows 0 differ from dst valid rows 32 (M)");
    expect_status(pto_tile_set_valid(nz, 32, 32), PTO_OK, "set_valid");
    expect_refused(SEED_BIAS, c, nz, b, c, PTO_ERR_INVALID_ARGUMENT, "bias must be a bias ND tile");
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    TILES_DESTROY(zz, nz, b, b_mat, b_nz, c, c_zz, c_vec, c_16, bias, bias_vec, u8a, u8b, i8a, i8b);
}

static void expect_create_refused(pto_dtype dt, uint32_t rows, uint32_t cols, int loc, int layout,
                                  pto_tile **out, pto_status want, const char *sentence) {
    pto_tile *sentinel = (pto_tile *)&sentinel;
    if (out) *out = sentinel;
    const pto_status st = pto_tile_create_cube(dt, rows, cols, (pto_location)loc, (pto_layout)layout, out);
    if (st != want || strstr(pto_last_error(), sentence) == NULL)
        fail_msg("pto_tile_create_cube %s %ux%u %d %d: %s (%s), expected %s with \"%s\"", pto_dtype_string(dt),
                 rows, cols, loc, layout, pto_status_string(st), pto_last_error(), pto_status_string(want),
                 sentence);
    if (out && *out != sentinel) fail_msg("a refused pto_tile_create_cube wrote *out");
}

static void test_create_rules(void **state) {
    (void)state;
    pto_tile *t = NULL;
    expect_create_refused(PTO_FLOAT32, 16, 8, PTO_LOC_LEFT, PTO_LAYOUT_NZ, NULL, PTO_ERR_NULL_ARGUMENT, "out is NULL");
    expect_create_refused(PTO_FLOAT32, 0, 8, PTO_LOC_LEFT, PTO_LAYOUT_NZ, &t, PTO_ERR_INVALID_ARGUMENT,
                          "zero dimension");
    expect_create_refused(PTO_FLOAT32, 16, 8, 7, PTO_LAYOUT_NZ, &t, PTO_ERR_INVALID_ARGUMENT,
                          "location 7 is not a pto_location value");
    expect_create_refused(PTO_FLOAT32, 16, 8, PTO_LOC_LEFT, -1, &t, PTO_ERR_INVALID_ARGUMENT,
                          "layout -1 is not a pto_layout value");
    expect_create_refused(PTO_FLOAT32, 16, 16, PTO_LOC_VEC, PTO_LAYOUT_ZZ, &t, PTO_ERR_INVALID_ARGUMENT,
                          "a vec tile is row-major (PTO_LAYOUT_ND) or NZ or ZN, not ZZ");
    expect_create_refused(PTO_FLOAT32, 2, 16, PTO_LOC_BIAS, PTO_LAYOUT_ND, &t, PTO_ERR_INVALID_ARGUMENT,
                          "a bias tile is one row, not 2");
    /* The NPU's boxes: 16 x 8 for FLOAT32 NZ, 32 x 16 for INT8 ZN, 16 x 16 in acc. */
    expect_create_refused(PTO_FLOAT32, 16, 12, PTO_LOC_LEFT, PTO_LAYOUT_NZ, &t, PTO_ERR_INVALID_ARGUMENT,
                          "a NZ left tile of FLOAT32 is made of 16x8 boxes, which do not tile 16x12");
    expect_create_refused(PTO_INT8, 16, 16, PTO_LOC_RIGHT, PTO_LAYOUT_ZN, &t, PTO_ERR_INVALID_ARGUMENT,
                          "a ZN right tile of INT8 is made of 32x16 boxes, which do not tile 16x16");
    expect_create_refused(PTO_FLOAT32, 8, 16, PTO_LOC_ACC, PTO_LAYOUT_NZ, &t, PTO_ERR_INVALID_ARGUMENT,
                          "made of 16x16 boxes, which do not tile 8x16");
    expect_create_refused(PTO_FLOAT32, 24, 16, PTO_LOC_ACC, PTO_LAYOUT_NZ, &t, PTO_ERR_INVALID_ARGUMENT,
                          "made of 16x16 boxes, which do not tile 24x16");
    /* Accepted: a FLOAT32 acc is 16 x 16 boxes, a left 16 x 8. */
    expect_status(pto_tile_create_cube(PTO_FLOAT32, 16, 24, PTO_LOC_LEFT, PTO_LAYOUT_NZ, &t), PTO_OK, "16x24 NZ");
    assert_int_equal(pto_tile_location(t), PTO_LOC_LEFT);
    assert_int_equal(pto_tile_layout(t), PTO_LAYOUT_NZ);
    assert_null(pto_tile_buffer(t));
    assert_int_equal(pto_tile_offset(t), 0);
    assert_int_equal(pto_tile_valid_rows(t), 16);
    assert_int_equal(pto_tile_valid_cols(t), 24);
    assert_int_equal((uintptr_t)pto_tile_data(t) % 64, 0);
    pto_tile_destroy(t);

    /* NULL and plain tiles. */
    pto_tile_destroy(NULL);
    assert_int_equal(pto_tile_location(NULL), PTO_LOC_VEC);
    assert_int_equal(pto_tile_layout(NULL), PTO_LAYOUT_ND);
    pto_tile *plain = tile_new(PTO_FLOAT32, 4, 4, 4, 4);
    assert_int_equal(pto_tile_location(plain), PTO_LOC_VEC);
    assert_int_equal(pto_tile_layout(plain), PTO_LAYOUT_ND);

    /* A vec ND tile of pto_tile_create_cube is an ordinary tile. */
    pto_tile *vec = cube(PTO_FLOAT32, 4, 4, PTO_LOC_VEC, PTO_LAYOUT_ND);
    expect_status(pto_tadd(vec, plain, plain), PTO_OK, "pto_tadd on a vec tile of pto_tile_create_cube");

    /* Every other operation refuses the cube's tiles first. */
    pto_tile *left = cube(PTO_FLOAT32, 16, 8, PTO_LOC_LEFT, PTO_LAYOUT_ND);
    pto_tile *acc = cube(PTO_FLOAT32, 16, 16, PTO_LOC_ACC, PTO_LAYOUT_NZ);
    pto_tile *other = tile_new(PTO_FLOAT32, 16, 8, 16, 8);
    uint64_t *before = tile_snapshot(other);
    expect_status(pto_tadd(other, left, other), PTO_ERR_INVALID_ARGUMENT, "pto_tadd on a left tile");
    if (strstr(pto_last_error(), "pto_tadd: src0 is a left ND tile; only pto_tmov, pto_textract, pto_tinsert and the matrix multiplies") == NULL)
        fail_msg("pto_tadd's sentence: %s", pto_last_error());
    assert_tile_unchanged(other, before, "a refused pto_tadd's dst");
    free(before);
    expect_status(pto_texp(acc, acc), PTO_ERR_INVALID_ARGUMENT, "pto_texp on an acc tile");
    if (strstr(pto_last_error(), "dst is an acc NZ tile") == NULL) fail_msg("pto_texp's sentence: %s", pto_last_error());
    expect_status(pto_tmov(other, left), PTO_ERR_INVALID_ARGUMENT, "pto_tmov from a left tile to vec");
    double value;
    expect_status(pto_tgetval(acc, 0, &value), PTO_ERR_INVALID_ARGUMENT, "pto_tgetval on an acc tile");
    if (strstr(pto_last_error(), "pto_tgetval: src is an acc NZ tile") == NULL)
        fail_msg("pto_tgetval's sentence: %s", pto_last_error());
    TILES_DESTROY(plain, vec, left, acc, other);
}

/* pto_tmov between the cube's memories: under each NPU profile, mat tiles
 * (values written row-major) moved to the left, right and bias tiles its
 * matrix multiply takes, the product moved from acc to vec (A5) or mat
 * (A2A3) gives HOST's bits; each element keeps its (row, column). */
static void test_moves(void **state) {
    (void)state;
    rng r = {0xC0BE05u};
    const uint32_t m = 32, k = 64, n = 48;
    pto_tile *ha = tile_new(PTO_BFLOAT16, m, k, m, k), *hb = tile_new(PTO_BFLOAT16, k, n, k, n);
    pto_tile *hbias = tile_new(PTO_FLOAT32, 1, n, 1, n), *hc = tile_new(PTO_FLOAT32, m, n, m, n);
    tile_fill(ha, &r, GEN_FINITE);
    tile_fill(hb, &r, GEN_FINITE);
    tile_fill(hbias, &r, GEN_FINITE);
    expect_status(pto_tmatmul_bias(hc, ha, hb, hbias), PTO_OK, "HOST");
    for (pto_profile p = PTO_PROFILE_A2A3; p <= PTO_PROFILE_A5; ++p) {
        const pto_layout left = p == PTO_PROFILE_A2A3 ? PTO_LAYOUT_ZZ : PTO_LAYOUT_NZ;
        pto_tile *ma = cube(PTO_BFLOAT16, m, k, PTO_LOC_MAT, PTO_LAYOUT_NZ);
        pto_tile *mb = cube(PTO_BFLOAT16, k, n, PTO_LOC_MAT, PTO_LAYOUT_ZN);
        pto_tile *mbias = cube(PTO_FLOAT32, 1, n, PTO_LOC_MAT, PTO_LAYOUT_ND);
        pto_tile *la = cube(PTO_BFLOAT16, m, k, PTO_LOC_LEFT, left);
        pto_tile *rb = cube(PTO_BFLOAT16, k, n, PTO_LOC_RIGHT, PTO_LAYOUT_ZN);
        pto_tile *bias = cube(PTO_FLOAT32, 1, n, PTO_LOC_BIAS, PTO_LAYOUT_ND);
        pto_tile *acc = cube(PTO_FLOAT32, m, n, PTO_LOC_ACC, PTO_LAYOUT_NZ);
        pto_tile *out = p == PTO_PROFILE_A5 ? tile_new(PTO_FLOAT32, m, n, m, n)
                                            : cube(PTO_FLOAT32, m, n, PTO_LOC_MAT, PTO_LAYOUT_NZ);
        copy_values(ma, ha);
        copy_values(mb, hb);
        copy_values(mbias, hbias);
        assert_int_equal(pto_set_profile(p), PTO_OK);
        expect_status(pto_tmov(la, ma), PTO_OK, "mat to left");
        expect_status(pto_tmov(rb, mb), PTO_OK, "mat to right");
        expect_status(pto_tmov(bias, mbias), PTO_OK, "mat to bias");
        expect_same_values(la, ha, "mat to left");
        expect_same_values(rb, hb, "mat to right");
        expect_status(pto_tmatmul_bias(acc, la, rb, bias), PTO_OK, "the cube's matmul");
        expect_status(pto_tmov(out, acc), PTO_OK, "acc out");
        expect_same_values(out, hc, p == PTO_PROFILE_A5 ? "A5 acc to vec" : "A2A3 acc to mat");
        assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
        TILES_DESTROY(ma, mb, mbias, la, rb, bias, acc, out);
    }
    TILES_DESTROY(ha, hb, hbias, hc);
}

/* One refused pto_tmov: its status and sentence, dst's bytes unchanged. */
static void expect_move_refused(pto_profile profile, pto_tile *dst, const pto_tile *src, pto_status want,
                                const char *sentence) {
    assert_int_equal(pto_set_profile(profile), PTO_OK);
    uint64_t *before = tile_snapshot(dst);
    const pto_status st = pto_tmov(dst, src);
    if (st != want || strstr(pto_last_error(), sentence) == NULL)
        fail_msg("pto_tmov under %s: %s (%s), expected %s with \"%s\"", pto_profile_string(profile),
                 pto_status_string(st), pto_last_error(), pto_status_string(want), sentence);
    assert_tile_unchanged(dst, before, "a refused pto_tmov's dst");
    free(before);
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
}

static void test_move_refusals(void **state) {
    (void)state;
    rng r = {0xC0BE06u};
    pto_tile *mat = cube(PTO_FLOAT16, 32, 32, PTO_LOC_MAT, PTO_LAYOUT_NZ);
    pto_tile *left_zz = cube(PTO_FLOAT16, 32, 32, PTO_LOC_LEFT, PTO_LAYOUT_ZZ);
    pto_tile *left_small = cube(PTO_FLOAT16, 16, 32, PTO_LOC_LEFT, PTO_LAYOUT_NZ);
    pto_tile *left_f32 = cube(PTO_FLOAT32, 32, 32, PTO_LOC_LEFT, PTO_LAYOUT_NZ);
    pto_tile *acc = cube(PTO_FLOAT32, 32, 32, PTO_LOC_ACC, PTO_LAYOUT_NZ);
    pto_tile *vec = tile_new(PTO_FLOAT32, 32, 32, 32, 32);
    pto_tile *vec16 = tile_new(PTO_FLOAT16, 32, 32, 32, 32);
    pto_tile *mat_row = cube(PTO_FLOAT32, 1, 8, PTO_LOC_MAT, PTO_LAYOUT_ND);
    pto_tile *bias8 = cube(PTO_FLOAT32, 1, 8, PTO_LOC_BIAS, PTO_LAYOUT_ND);
    pto_tile *tiles[] = {mat, left_zz, left_small, left_f32, acc, vec, vec16, mat_row, bias8};
    for (size_t i = 0; i < COUNT(tiles); ++i) tile_fill(tiles[i], &r, GEN_ANY);
    expect_move_refused(PTO_PROFILE_HOST, vec16, left_zz, PTO_ERR_INVALID_ARGUMENT,
                        "pto_tmov: from a left ZZ tile to a vec ND tile is not a move the cube has");
    expect_move_refused(PTO_PROFILE_HOST, left_small, vec16, PTO_ERR_INVALID_ARGUMENT,
                        "from a vec ND tile to a left NZ tile is not a move the cube has");
    expect_move_refused(PTO_PROFILE_A2A3, vec, acc, PTO_ERR_INVALID_ARGUMENT,
                        "A2A3 moves an acc tile to mat only (acc to vec is A5's)");
    expect_move_refused(PTO_PROFILE_A5, left_zz, mat, PTO_ERR_INVALID_ARGUMENT,
                        "under A5 a left tile is laid out NZ, not ZZ");
    expect_move_refused(PTO_PROFILE_A5, left_f32, mat, PTO_ERR_DTYPE_MISMATCH,
                        "src is FLOAT16 and dst FLOAT32");
    expect_move_refused(PTO_PROFILE_A5, left_small, mat, PTO_ERR_SHAPE_MISMATCH,
                        "src 32x32 and dst 16x32 differ");
    expect_move_refused(PTO_PROFILE_A2A3, bias8, mat_row, PTO_ERR_SHAPE_MISMATCH,
                        "under A2A3 a bias row is a multiple of 64 bytes long; here 32 bytes");
    expect_status(pto_tmov(NULL, acc), PTO_ERR_NULL_ARGUMENT, "pto_tmov to NULL from an acc tile");
    if (strstr(pto_last_error(), "pto_tmov: dst is NULL") == NULL) fail_msg("pto_tmov's sentence: %s", pto_last_error());
    /* HOST takes the 32-byte bias row and any left layout. */
    expect_status(pto_tmov(bias8, mat_row), PTO_OK, "HOST's bias row");
    expect_status(pto_tmov(left_zz, mat), PTO_OK, "HOST's left ZZ");
    expect_same_values(left_zz, mat, "mat NZ to left ZZ");
    TILES_DESTROY(mat, left_zz, left_small, left_f32, acc, vec, vec16, mat_row, bias8);
}

/* pto_textract's cube form: a window of a mat tile (NZ, or ZN: a transposed
 * operand) into a left or right tile, each element at its (row, column) of
 * the window whatever the layouts; A5 carries the 8-bit floats, A2A3 not. */
static void extract_window(pto_profile p, pto_dtype dt, pto_layout from, pto_location loc) {
    const uint32_t rows = 64, cols = 64, vr = 32, vc = 32, r0 = 16, c0 = 32;
    const size_t e = pto_dtype_size(dt);
    unsigned char *in = calloc((size_t)rows * cols, e), *out = calloc((size_t)rows * cols, e);
    for (size_t i = 0; i < (size_t)rows * cols * e; ++i) in[i] = (unsigned char)(i * 37 + 11);
    pto_tile *mat = cube(dt, rows, cols, PTO_LOC_MAT, from);
    const pto_layout to = loc == PTO_LOC_RIGHT ? PTO_LAYOUT_ZN : p == PTO_PROFILE_A2A3 ? PTO_LAYOUT_ZZ : PTO_LAYOUT_NZ;
    pto_tile *dst = cube(dt, vr, vc, loc, to);
    assert_int_equal(pto_tile_write(mat, in, (size_t)rows * cols * e), PTO_OK);
    assert_int_equal(pto_set_profile(p), PTO_OK);
    const bool ok = !(p == PTO_PROFILE_A2A3 && dt == PTO_FLOAT8_E4M3);
    char what[96];
    snprintf(what, sizeof what, "cube textract %s under %s", pto_dtype_string(dt), pto_profile_string(p));
    expect_status(pto_textract(dst, mat, r0, c0), ok ? PTO_OK : PTO_ERR_UNSUPPORTED_DTYPE, what);
    expect_status(pto_textract(dst, mat, r0 + 17, c0), ok ? PTO_ERR_OUT_OF_RANGE : PTO_ERR_UNSUPPORTED_DTYPE,
                  "a window past src's rows");
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    assert_int_equal(pto_tile_read(dst, out, (size_t)vr * vc * e), PTO_OK);
    for (uint32_t i = 0; i < vr; ++i)
        for (uint32_t j = 0; j < vc; ++j)
            for (size_t b = 0; b < e; ++b) {
                const unsigned char want = ok ? in[((size_t)(r0 + i) * cols + c0 + j) * e + b] : 0;
                if (out[((size_t)i * vc + j) * e + b] != want) fail_msg("%s: (%u, %u) differs", what, i, j);
            }
    TILES_DESTROY(mat, dst);
    free(in);
    free(out);
}

static void test_cube_extract(void **state) {
    (void)state;
    for (pto_profile p = PTO_PROFILE_HOST; p <= PTO_PROFILE_A5; ++p) {
        extract_window(p, PTO_FLOAT16, PTO_LAYOUT_NZ, PTO_LOC_LEFT);
        extract_window(p, PTO_FLOAT32, PTO_LAYOUT_ZN, PTO_LOC_LEFT);
        extract_window(p, PTO_INT8, PTO_LAYOUT_ZN, PTO_LOC_RIGHT);
        extract_window(p, PTO_FLOAT8_E4M3, PTO_LAYOUT_NZ, PTO_LOC_RIGHT);
    }
    pto_tile *mat = cube(PTO_FLOAT16, 32, 32, PTO_LOC_MAT, PTO_LAYOUT_NZ);
    pto_tile *mat_zz = cube(PTO_FLOAT16, 32, 32, PTO_LOC_MAT, PTO_LAYOUT_ZZ);
    pto_tile *left_zz = cube(PTO_FLOAT16, 16, 16, PTO_LOC_LEFT, PTO_LAYOUT_ZZ);
    pto_tile *left = cube(PTO_FLOAT16, 16, 16, PTO_LOC_LEFT, PTO_LAYOUT_NZ);
    pto_tile *left_f32 = cube(PTO_FLOAT32, 16, 16, PTO_LOC_LEFT, PTO_LAYOUT_NZ);
    pto_tile *mat_u8 = cube(PTO_UINT8, 32, 64, PTO_LOC_MAT, PTO_LAYOUT_NZ);
    pto_tile *left_u8 = cube(PTO_UINT8, 16, 32, PTO_LOC_LEFT, PTO_LAYOUT_NZ);
    pto_tile *vec = tile_new(PTO_FLOAT16, 32, 32, 32, 32);
    rng r = {0xC0BE07u};
    pto_tile *tiles[] = {mat, mat_zz, left_zz, left, left_f32, mat_u8, left_u8, vec};
    for (size_t i = 0; i < COUNT(tiles); ++i) tile_fill(tiles[i], &r, GEN_ANY);
    struct {
        pto_profile p;
        pto_tile *dst;
        const pto_tile *src;
        pto_status want;
        const char *sentence;
    } const cases[] = {
        {PTO_PROFILE_HOST, left, vec, PTO_ERR_INVALID_ARGUMENT,
         "pto_textract: from a vec ND tile to a left NZ tile is not an extract the cube has"},
        {PTO_PROFILE_A5, left_zz, mat, PTO_ERR_INVALID_ARGUMENT, "under A5 a left tile is laid out NZ, not ZZ"},
        {PTO_PROFILE_A5, left, mat_zz, PTO_ERR_INVALID_ARGUMENT, "the mat tile is laid out NZ or ZN"},
        {PTO_PROFILE_A5, left_f32, mat, PTO_ERR_DTYPE_MISMATCH, "src is FLOAT16 and dst FLOAT32"},
        {PTO_PROFILE_A5, left_u8, mat_u8, PTO_ERR_UNSUPPORTED_DTYPE, "on A5 does not carry UINT8"},
    };
    for (size_t i = 0; i < COUNT(cases); ++i) {
        assert_int_equal(pto_set_profile(cases[i].p), PTO_OK);
        uint64_t *before = tile_snapshot(cases[i].dst);
        const pto_status st = pto_textract(cases[i].dst, cases[i].src, 0, 0);
        assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
        if (st != cases[i].want || strstr(pto_last_error(), cases[i].sentence) == NULL)
            fail_msg("case %zu: %s (%s)", i, pto_status_string(st), pto_last_error());
        assert_tile_unchanged(cases[i].dst, before, "a refused cube textract's dst");
        free(before);
    }
    /* HOST takes any layout */
    expect_status(pto_textract(left_zz, mat_zz, 16, 16), PTO_OK, "HOST's ZZ to ZZ");
    TILES_DESTROY(mat, mat_zz, left_zz, left, left_f32, mat_u8, left_u8, vec);
}

/* A5's vec repacks (pto-isa TMOV.md, ND -> NZ and ND -> ZZ, as TQUANT's
 * MX output takes them to the cube): each byte lands where the page's
 * formula puts it, written out here from the page, not from the header's
 * offset formula. NZ with byte elements: 32-byte columns of blocks, each
 * holding every row in turn; ZZ: boxes of 16 rows x 2 columns in row
 * order, row-major inside. */
static void test_vec_repacks(void **state) {
    (void)state;
    rng r = {0xC0BE07u};
    const uint32_t rows = 32, cols = 96, g = 6;
    pto_tile *data = tile_new(PTO_FLOAT8_E4M3, rows, cols, rows, cols);
    pto_tile *exps = tile_new(PTO_FLOAT8_E8M0, rows, g, rows, g);
    unsigned char *d = pto_tile_data(data), *e = pto_tile_data(exps);
    for (size_t i = 0; i < (size_t)rows * cols; ++i) d[i] = (unsigned char)rng_next(&r);
    for (size_t i = 0; i < (size_t)rows * g; ++i) e[i] = (unsigned char)rng_next(&r);
    static const pto_profile kProfiles[] = {PTO_PROFILE_HOST, PTO_PROFILE_A5};
    for (size_t k = 0; k < COUNT(kProfiles); ++k) {
        const pto_profile p = kProfiles[k];
        pto_tile *nz = cube(PTO_FLOAT8_E4M3, rows, cols, PTO_LOC_MAT, PTO_LAYOUT_NZ);
        pto_tile *zz = cube(PTO_FLOAT8_E8M0, rows, g, PTO_LOC_SCALING, PTO_LAYOUT_ZZ);
        assert_int_equal(pto_set_profile(p), PTO_OK);
        expect_status(pto_tmov(nz, data), PTO_OK, "vec ND to mat NZ");
        expect_status(pto_tmov(zz, exps), PTO_OK, "vec ND to scaling ZZ");
        assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
        const unsigned char *a = pto_tile_data(nz), *b = pto_tile_data(zz);
        for (uint32_t i = 0; i < rows; ++i)
            for (uint32_t j = 0; j < cols; ++j)
                if (a[(j / 32) * rows * 32 + i * 32 + j % 32] != d[i * cols + j])
                    fail_msg("%s: NZ byte of (%u,%u) misplaced", pto_profile_string(p), i, j);
        for (uint32_t i = 0; i < rows; ++i)
            for (uint32_t j = 0; j < g; ++j)
                if (b[(i / 16) * 16 * g + (j / 2) * 32 + (i % 16) * 2 + j % 2] != e[i * g + j])
                    fail_msg("%s: ZZ byte of (%u,%u) misplaced", pto_profile_string(p), i, j);
        TILES_DESTROY(nz, zz);
    }
    /* The rules: A2A3 has no such repack; A5's ND -> ZZ takes bytes and a
     * ZZ tile (NN is not one of TMOV's); HOST takes any scaling layout. */
    pto_tile *nz = cube(PTO_FLOAT8_E4M3, rows, cols, PTO_LOC_MAT, PTO_LAYOUT_NZ);
    pto_tile *nn = cube(PTO_FLOAT8_E8M0, 2, 16, PTO_LOC_SCALING, PTO_LAYOUT_NN);
    pto_tile *exps_nn = tile_new(PTO_FLOAT8_E8M0, 2, 16, 2, 16);
    tile_fill(exps_nn, &r, GEN_ANY);
    pto_tile *mat_zz = cube(PTO_FLOAT8_E4M3, rows, cols, PTO_LOC_MAT, PTO_LAYOUT_ZZ);
    pto_tile *h16 = tile_new(PTO_FLOAT16, rows, 16, rows, 16);
    pto_tile *zz16 = cube(PTO_FLOAT16, rows, 16, PTO_LOC_SCALING, PTO_LAYOUT_ZZ);
    expect_move_refused(PTO_PROFILE_A2A3, nz, data, PTO_ERR_INVALID_ARGUMENT,
                        "A2A3 has no vec repack into the cube's layouts");
    expect_move_refused(PTO_PROFILE_A5, nn, exps_nn, PTO_ERR_INVALID_ARGUMENT,
                        "under A5 a vec tile repacks into a mat NZ or ZN tile or a scaling ZZ tile, not a scaling NN tile");
    expect_move_refused(PTO_PROFILE_A5, mat_zz, data, PTO_ERR_INVALID_ARGUMENT, "not a mat ZZ tile");
    expect_move_refused(PTO_PROFILE_A5, zz16, h16, PTO_ERR_UNSUPPORTED_DTYPE,
                        "takes UINT8, FLOAT8_E8M0 or HIFLOAT8, not FLOAT16");
    expect_move_refused(PTO_PROFILE_A5, nz, exps, PTO_ERR_DTYPE_MISMATCH, "src is FLOAT8_E8M0 and dst FLOAT8_E4M3");
    expect_status(pto_tmov(nn, exps_nn), PTO_OK, "HOST's vec ND to scaling NN");
    expect_same_values(nn, exps_nn, "vec ND to scaling NN");
    TILES_DESTROY(data, exps, exps_nn, nz, nn, mat_zz, h16, zz16);
}

/* A program's tile parameters are vec tiles: pto_args_set_tile refuses a
 * cube tile, whose image the program would read row-major. */
static void test_program_arguments(void **state) {
    (void)state;
    static const char text[] =
        "%d = pto.tmov %s : !pto.tile<32x32xf16> -> !pto.tile<32x32xf16>\n";
    pto_tile *left = cube(PTO_FLOAT16, 32, 32, PTO_LOC_LEFT, PTO_LAYOUT_NZ);
    pto_tile *mat_nd = cube(PTO_FLOAT16, 32, 32, PTO_LOC_MAT, PTO_LAYOUT_ND);
    pto_tile *vec = cube(PTO_FLOAT16, 32, 32, PTO_LOC_VEC, PTO_LAYOUT_ND);
    pto_program *p = program_build(text, NULL);
    pto_args *args = NULL;
    assert_int_equal(pto_args_create(p, &args), PTO_OK);
    size_t at = 0;
    assert_int_equal(pto_program_param_find(p, "s", &at), PTO_OK);
    expect_status(pto_args_set_tile(args, at, left), PTO_ERR_INVALID_ARGUMENT, "a left tile");
    if (strstr(pto_last_error(), "pto_args_set_tile: tile is a left NZ tile; only pto_tmov, pto_textract, pto_tinsert and the matrix multiplies") == NULL)
        fail_msg("pto_args_set_tile's sentence: %s", pto_last_error());
    expect_status(pto_args_set_tile(args, at, mat_nd), PTO_ERR_INVALID_ARGUMENT, "a mat ND tile");
    expect_status(pto_args_set_tile(args, at, vec), PTO_OK, "a vec tile of pto_tile_create_cube");
    pto_args_destroy(args);
    pto_program_destroy(p);
    TILES_DESTROY(left, mat_nd, vec);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_layouts),
        cmocka_unit_test(test_npu_equals_host),
        cmocka_unit_test(test_small_m_on_cube_layouts),
        cmocka_unit_test(test_matmul_refusals),
        cmocka_unit_test(test_create_rules),
        cmocka_unit_test(test_program_arguments),
        cmocka_unit_test(test_moves),
        cmocka_unit_test(test_move_refusals),
        cmocka_unit_test(test_cube_extract),
        cmocka_unit_test(test_vec_repacks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
