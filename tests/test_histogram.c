/* TPAIRREDUCESUM and THISTOGRAM against the pages' definitions written here:
 * pair sums in double rounded once to the dtype (the upper half of each row
 * zero, an odd row's last element paired with 0), and per-row byte counts
 * from 0 to 255 with the cascaded filter, stored as the ascending running
 * count (pto-isa's CPU model and A5's goldens). Hand-computed cases, random
 * tiles with padding on HOST and A5 (A2A3 too for the pair sums), the rules
 * in order with nothing written on a refusal, and the text forms in
 * programs equal to the C calls. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/harness.h"

/* ---- references ---- */

static double half_value(uint64_t h) {
    const int e = (int)((h >> 10) & 31);
    const double m = (double)(h & 1023);
    const double sign = (h & 0x8000) ? -1.0 : 1.0;
    if (e == 0) return sign * ldexp(m, -24);
    if (e == 31) return m != 0 ? NAN : sign * INFINITY;
    return sign * ldexp(1024.0 + m, e - 25);
}

/* x rounded to nearest even FLOAT16 (NaN as 0x7E00: only its class is compared). */
static uint64_t half_bits(double x) {
    if (isnan(x)) return 0x7E00;
    const uint64_t sign = signbit(x) ? 0x8000 : 0;
    const double a = fabs(x);
    if (a == 0) return sign;
    if (isinf(a)) return sign | 0x7C00;
    int e;
    frexp(a, &e);
    int unbiased = e - 1; /* a in [2^unbiased, 2^(unbiased + 1)) */
    if (unbiased < -14) unbiased = -14;
    const double n = nearbyint(a / ldexp(1.0, unbiased - 10)); /* 0 .. 2048 steps */
    const uint64_t bits = ((uint64_t)(unbiased + 14) << 10) + (uint64_t)n;
    return sign | (bits >= 0x7C00 ? 0x7C00 : bits);
}

static double element_value(pto_dtype dt, uint64_t bits) {
    if (dt == PTO_FLOAT16) return half_value(bits);
    float f;
    uint32_t w = (uint32_t)bits;
    memcpy(&f, &w, 4);
    return f;
}

static uint64_t element_bits(pto_dtype dt, double x) {
    if (dt == PTO_FLOAT16) return half_bits(x);
    const float f = (float)x; /* the exact double sum rounded once */
    uint32_t w;
    memcpy(&w, &f, 4);
    return w;
}

static bool is_nan_bits(pto_dtype dt, uint64_t bits) {
    return dt == PTO_FLOAT16 ? (bits & 0x7C00) == 0x7C00 && (bits & 0x3FF) != 0
                             : (bits & 0x7F800000u) == 0x7F800000u && (bits & 0x7FFFFF) != 0;
}

/* The page: dst[i,k] = src[i,2k] + src[i,2k+1] for k < ceil(C/2), the
 * element past the valid region 0; the rest of the valid row 0. */
static uint64_t pair_reference(pto_dtype dt, const pto_tile *src, uint32_t i, uint32_t k) {
    const uint32_t c = pto_tile_valid_cols(src);
    if (k >= (c + 1) / 2) return 0;
    const double a = element_value(dt, tile_get(src, i, 2 * k));
    const double b = 2 * k + 1 < c ? element_value(dt, tile_get(src, i, 2 * k + 1)) : 0.0;
    return element_bits(dt, a + b);
}

/* The page's filter and byte, counted per bin, then summed bin by bin. */
static void histogram_reference(const pto_tile *src, const pto_tile *idx, unsigned byte, uint32_t row,
                                uint32_t out[256]) {
    uint32_t counts[256] = {0};
    const bool wide = pto_tile_dtype(src) == PTO_UINT32;
    for (uint32_t j = 0; j < pto_tile_valid_cols(src); ++j) {
        const uint32_t x = (uint32_t)tile_get(src, row, j);
        bool pass = true;
        if (!wide && byte == 0) pass = (x >> 8) == tile_get(idx, row, 0);
        if (wide)
            for (unsigned b = 3, k = 0; b > byte; --b, ++k)
                pass = pass && ((x >> (8 * b)) & 0xFF) == tile_get(idx, k, 0);
        if (pass) ++counts[(x >> (8 * byte)) & 0xFF];
    }
    uint32_t total = 0;
    for (int b = 0; b < 256; ++b) out[b] = total += counts[b];
}

/* ---- tpairreducesum ---- */

static void expect_pairs(const pto_tile *dst, const pto_tile *src, const uint64_t *before, const char *what) {
    const pto_dtype dt = pto_tile_dtype(dst);
    for (uint32_t i = 0; i < pto_tile_rows(dst); ++i)
        for (uint32_t k = 0; k < pto_tile_cols(dst); ++k) {
            const uint64_t got = tile_get(dst, i, k);
            const bool valid = i < pto_tile_valid_rows(dst) && k < pto_tile_valid_cols(dst);
            const uint64_t want = valid ? pair_reference(dt, src, i, k)
                                        : before[(size_t)i * pto_tile_cols(dst) + k];
            if (valid && is_nan_bits(dt, want) && is_nan_bits(dt, got)) continue;
            if (got != want) fail_msg("%s: dst (%u,%u) 0x%llx, want 0x%llx", what, i, k,
                                      (unsigned long long)got, (unsigned long long)want);
        }
}

static void test_tpairreducesum_cases(void **state) {
    (void)state;
    /* 1 + 2, 3 + 4, 5 + 0 (odd), then zeros; float32 0.1 + 0.2 rounds once. */
    pto_tile *s = tile_new(PTO_FLOAT32, 1, 5, 1, 5), *d = tile_new(PTO_FLOAT32, 1, 5, 1, 5);
    static const uint64_t kSrc[] = {0x3F800000, 0x40000000, 0x40400000, 0x40800000, 0x40A00000};
    static const uint64_t kWant[] = {0x40400000, 0x40E00000, 0x40A00000, 0, 0};
    for (uint32_t j = 0; j < 5; ++j) tile_put(s, 0, j, kSrc[j]);
    assert_int_equal(pto_tpairreducesum(d, s), PTO_OK);
    for (uint32_t j = 0; j < 5; ++j) assert_int_equal(tile_get(d, 0, j), kWant[j]);
    /* FLOAT16: 2048 + 1 is a tie, kept at 2048 (even); 2048 + 3 rounds to 2052. */
    pto_tile *h = tile_new(PTO_FLOAT16, 1, 4, 1, 4), *hd = tile_new(PTO_FLOAT16, 1, 4, 1, 4);
    static const uint64_t kHalf[] = {0x6800, 0x3C00, 0x6800, 0x4200};
    for (uint32_t j = 0; j < 4; ++j) tile_put(h, 0, j, kHalf[j]);
    assert_int_equal(pto_tpairreducesum(hd, h), PTO_OK);
    assert_int_equal(tile_get(hd, 0, 0), 0x6800);
    assert_int_equal(tile_get(hd, 0, 1), 0x6802);
    assert_int_equal(tile_get(hd, 0, 2), 0);
    assert_int_equal(tile_get(hd, 0, 3), 0);
    /* In place: src is dst. */
    for (uint32_t j = 0; j < 5; ++j) tile_put(s, 0, j, kSrc[j]);
    assert_int_equal(pto_tpairreducesum(s, s), PTO_OK);
    for (uint32_t j = 0; j < 5; ++j) assert_int_equal(tile_get(s, 0, j), kWant[j]);
    TILES_DESTROY(s, d, h, hd);
}

static void test_tpairreducesum_values(void **state) {
    (void)state;
    static const pto_dtype kDtypes[] = {PTO_FLOAT32, PTO_FLOAT16};
    /* rows, cols, valid rows, valid cols */
    static const uint32_t kShapes[][4] = {{1, 1, 1, 1},  {1, 2, 1, 2},   {4, 16, 4, 16}, {3, 9, 3, 9},
                                          {8, 40, 5, 33}, {2, 300, 2, 257}, {5, 64, 0, 0}, {16, 128, 16, 128},
                                          {2, 1100, 2, 1033}};  /* the last: three passes of the kernel */
    rng r = {0x9A1};
    size_t calls = 0;
    for (int p = PTO_PROFILE_HOST; p <= PTO_PROFILE_A5; ++p) {
        assert_int_equal(pto_set_profile((pto_profile)p), PTO_OK);
        for (size_t t = 0; t < COUNT(kDtypes); ++t)
            for (size_t k = 0; k < COUNT(kShapes); ++k) {
                const uint32_t *sh = kShapes[k];
                pto_tile *src = tile_new(kDtypes[t], sh[0], sh[1], sh[2], sh[3]);
                pto_tile *dst = tile_new(kDtypes[t], sh[0], sh[1], sh[2], sh[3]);
                tile_fill(src, &r, (k & 1) ? GEN_ANY : GEN_POSITIVE);
                tile_fill(dst, &r, GEN_ANY);
                uint64_t *before = tile_snapshot(dst);
                char what[96];
                snprintf(what, sizeof what, "%s %s %ux%u of %ux%u", pto_profile_string((pto_profile)p),
                         pto_dtype_string(kDtypes[t]), sh[2], sh[3], sh[0], sh[1]);
                expect_status(pto_tpairreducesum(dst, src), PTO_OK, what);
                expect_pairs(dst, src, before, what);
                /* in place: the reference from a copy of src */
                pto_tile *copy = tile_new(kDtypes[t], sh[0], sh[1], sh[2], sh[3]);
                for (uint32_t i = 0; i < sh[0]; ++i)
                    for (uint32_t j = 0; j < sh[1]; ++j) tile_put(copy, i, j, tile_get(src, i, j));
                uint64_t *kept = tile_snapshot(src);
                expect_status(pto_tpairreducesum(src, src), PTO_OK, what);
                expect_pairs(src, copy, kept, what);
                calls += 2;
                free(before);
                free(kept);
                TILES_DESTROY(src, dst, copy);
            }
    }
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    print_message("[tpairreducesum] %zu calls against the page's pairs\n", calls);
}

static void test_tpairreducesum_rules(void **state) {
    (void)state;
    pto_tile *src = tile_new(PTO_FLOAT32, 2, 8, 2, 8), *dst = tile_new(PTO_FLOAT32, 2, 8, 2, 8);
    pto_tile *h = tile_new(PTO_FLOAT16, 2, 8, 2, 8), *i32 = tile_new(PTO_INT32, 2, 8, 2, 8);
    pto_tile *i32s = tile_new(PTO_INT32, 2, 8, 2, 8), *narrow = tile_new(PTO_FLOAT32, 2, 8, 2, 6);
    pto_tile *bf = tile_new(PTO_BFLOAT16, 2, 8, 2, 8), *bfs = tile_new(PTO_BFLOAT16, 2, 8, 2, 8);
    pto_tile *cube = NULL;
    assert_int_equal(pto_tile_create_cube(PTO_FLOAT32, 16, 8, PTO_LOC_MAT, PTO_LAYOUT_ND, &cube), PTO_OK);
    rng r = {0x9A2};
    tile_fill(dst, &r, GEN_ANY);
    tile_fill(src, &r, GEN_ANY);
    for (int p = PTO_PROFILE_HOST; p <= PTO_PROFILE_A5; ++p) {
        assert_int_equal(pto_set_profile((pto_profile)p), PTO_OK);
        uint64_t *before = tile_snapshot(dst);
        expect_status(pto_tpairreducesum(NULL, src), PTO_ERR_NULL_ARGUMENT, "NULL dst");
        expect_status(pto_tpairreducesum(dst, NULL), PTO_ERR_NULL_ARGUMENT, "NULL src");
        assert_non_null(strstr(pto_last_error(), "pto_tpairreducesum: src"));
        expect_status(pto_tpairreducesum(dst, cube), PTO_ERR_INVALID_ARGUMENT, "a cube src");
        expect_status(pto_tpairreducesum(i32, i32s), PTO_ERR_UNSUPPORTED_DTYPE, "INT32");
        expect_status(pto_tpairreducesum(bf, bfs), PTO_ERR_UNSUPPORTED_DTYPE, "BFLOAT16");
        expect_status(pto_tpairreducesum(dst, h), PTO_ERR_DTYPE_MISMATCH, "FLOAT16 src, FLOAT32 dst");
        expect_status(pto_tpairreducesum(narrow, src), PTO_ERR_SHAPE_MISMATCH, "valid regions differ");
        assert_tile_unchanged(dst, before, "refused tpairreducesum");
        free(before);
    }
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    /* src placed one row into dst's storage: neither dst itself nor apart. */
    pto_buffer *b = NULL;
    pto_tile *on = NULL, *shifted = NULL;
    assert_int_equal(pto_buffer_create(4096, &b), PTO_OK);
    assert_int_equal(pto_tile_create_at(PTO_FLOAT32, 4, 8, b, 0, &on), PTO_OK);
    assert_int_equal(pto_tile_create_at(PTO_FLOAT32, 4, 8, b, 8 * 4, &shifted), PTO_OK);
    expect_status(pto_tpairreducesum(on, shifted), PTO_ERR_ALIASING, "src overlapping dst");
    pto_tile_destroy(on);
    pto_tile_destroy(shifted);
    pto_buffer_destroy(b);
    pto_tile_destroy(cube);
    TILES_DESTROY(src, dst, h, i32, i32s, narrow, bf, bfs);
}

static void test_tpairreducesum_programs(void **state) {
    (void)state;
    pto_tile *src = tile_new(PTO_FLOAT32, 4, 16, 3, 11), *want = tile_new(PTO_FLOAT32, 4, 16, 3, 11);
    rng r = {0x9A3};
    tile_fill(src, &r, GEN_POSITIVE);
    assert_int_equal(pto_tpairreducesum(want, src), PTO_OK);
    static const char *const kForms[] = {
        "pto.tpairreducesum ins(%s : !pto.tile_buf<loc=vec, dtype=f32, rows=4, cols=16, v_row=3, "
        "v_col=11, blayout=row_major, slayout=none_box, fractal=512, pad=0>) outs(%d : "
        "!pto.tile_buf<loc=vec, dtype=f32, rows=4, cols=16, v_row=3, v_col=11, blayout=row_major, "
        "slayout=none_box, fractal=512, pad=0>)\n",
    };
    static const char *const kNames[] = {"s", "d"};
    for (size_t k = 0; k < COUNT(kForms); ++k) {
        pto_tile *out = tile_new(PTO_FLOAT32, 4, 16, 3, 11);
        tile_fill(out, &r, GEN_ANY);
        pto_tile *tiles[] = {src, out};
        const pto_status run = run_program_bound(kForms[k], kNames, tiles, 2, NULL, NULL, 0);
        if (run != PTO_OK) fail_msg("%s: run %s (%s)", kForms[k], pto_status_string(run), pto_last_error());
        for (uint32_t i = 0; i < 3; ++i)
            for (uint32_t j = 0; j < 11; ++j) assert_int_equal(tile_get(out, i, j), tile_get(want, i, j));
        pto_tile_destroy(out);
    }
    expect_program_refused("pto.tpairreducesum ins(%s : !pto.tile_buf<vec, 2x8xi32>) "
                           "outs(%d : !pto.tile_buf<vec, 2x8xi32>)\n",
                           PTO_ERR_UNSUPPORTED_DTYPE);
    TILES_DESTROY(src, want);
}

/* ---- thistogram ---- */

static void expect_histogram(const pto_tile *dst, const pto_tile *src, const pto_tile *idx, unsigned byte,
                             const uint64_t *before, const char *what) {
    for (uint32_t i = 0; i < pto_tile_rows(dst); ++i) {
        uint32_t want[256];
        const bool valid_row = i < pto_tile_valid_rows(src);
        if (valid_row) histogram_reference(src, idx, byte, i, want);
        for (uint32_t b = 0; b < pto_tile_cols(dst); ++b) {
            const uint64_t got = tile_get(dst, i, b);
            const uint64_t w = valid_row && b < 256 ? want[b] : before[(size_t)i * pto_tile_cols(dst) + b];
            if (got != w)
                fail_msg("%s: dst (%u,%u) %llu, want %llu", what, i, b, (unsigned long long)got,
                         (unsigned long long)w);
        }
    }
}

static void test_thistogram_cases(void **state) {
    (void)state;
    /* UINT16 {0x0102, 0x0103, 0x0203, 0x0102}: byte 1 counts 1: 3, 2: 1, so
     * bins 0 = 0, 1..1 = 3, 2..255 = 4; byte 0 with idx 1: 2: 2, 3: 1. */
    pto_tile *s = tile_new(PTO_UINT16, 1, 4, 1, 4), *d = tile_new(PTO_UINT32, 1, 256, 1, 256);
    pto_tile *idx = tile_new(PTO_UINT8, 1, 1, 1, 1);
    static const uint64_t kSrc[] = {0x0102, 0x0103, 0x0203, 0x0102};
    for (uint32_t j = 0; j < 4; ++j) tile_put(s, 0, j, kSrc[j]);
    tile_put(idx, 0, 0, 1);
    assert_int_equal(pto_thistogram(d, s, NULL, PTO_HIST_BYTE1), PTO_OK);
    assert_int_equal(tile_get(d, 0, 0), 0);
    assert_int_equal(tile_get(d, 0, 1), 3);
    assert_int_equal(tile_get(d, 0, 2), 4);
    assert_int_equal(tile_get(d, 0, 255), 4);
    assert_int_equal(pto_thistogram(d, s, idx, PTO_HIST_BYTE0), PTO_OK);
    assert_int_equal(tile_get(d, 0, 1), 0);
    assert_int_equal(tile_get(d, 0, 2), 2);
    assert_int_equal(tile_get(d, 0, 3), 3);
    assert_int_equal(tile_get(d, 0, 255), 3);
    /* UINT32 0xAABBCCDD: byte 0 with filter rows AA, BB, CC counts DD. */
    pto_tile *w = tile_new(PTO_UINT32, 1, 2, 1, 2), *widx = tile_new(PTO_UINT8, 3, 2, 3, 2);
    tile_put(w, 0, 0, 0xAABBCCDDu);
    tile_put(w, 0, 1, 0xAABBCDDDu);
    tile_put(widx, 0, 0, 0xAA);
    tile_put(widx, 1, 0, 0xBB);
    tile_put(widx, 2, 0, 0xCC);
    assert_int_equal(pto_thistogram(d, w, widx, PTO_HIST_BYTE0), PTO_OK);
    assert_int_equal(tile_get(d, 0, 0xDC), 0);
    assert_int_equal(tile_get(d, 0, 0xDD), 1);
    assert_int_equal(tile_get(d, 0, 255), 1);
    assert_int_equal(pto_thistogram(d, w, widx, PTO_HIST_BYTE1), PTO_OK);
    assert_int_equal(tile_get(d, 0, 0xCB), 0);
    assert_int_equal(tile_get(d, 0, 0xCC), 1);
    assert_int_equal(tile_get(d, 0, 0xCD), 2);
    TILES_DESTROY(s, d, idx, w, widx);
}

/* Random elements whose upper bytes come from a few values, so that the
 * filters pass often. */
static void fill_radix(pto_tile *t, rng *r) {
    const bool wide = pto_tile_dtype(t) == PTO_UINT32;
    for (uint32_t i = 0; i < pto_tile_rows(t); ++i)
        for (uint32_t j = 0; j < pto_tile_cols(t); ++j) {
            const uint64_t x = rng_next(r);
            const uint64_t upper = wide ? ((x >> 8) % 3) * 0x01010100u + 0x10203000u : ((x >> 8) % 3) << 8;
            tile_put(t, i, j, (upper | (x & 0xFF)) & (wide ? 0xFFFFFFFFu : 0xFFFFu));
        }
}

static void test_thistogram_values(void **state) {
    (void)state;
    /* src rows, cols, valid rows, valid cols */
    static const uint32_t kShapes[][4] = {{1, 1, 1, 1}, {4, 32, 4, 32}, {8, 40, 5, 33}, {3, 300, 3, 257}, {2, 16, 0, 0}};
    static const pto_profile kProfiles[] = {PTO_PROFILE_HOST, PTO_PROFILE_A5};
    rng r = {0x9B1};
    size_t calls = 0;
    for (size_t p = 0; p < COUNT(kProfiles); ++p) {
        assert_int_equal(pto_set_profile(kProfiles[p]), PTO_OK);
        for (int wide = 0; wide < 2; ++wide)
            for (unsigned byte = 0; byte < (wide ? 4u : 2u); ++byte)
                for (size_t k = 0; k < COUNT(kShapes); ++k) {
                    const uint32_t *sh = kShapes[k];
                    pto_tile *src = tile_new(wide ? PTO_UINT32 : PTO_UINT16, sh[0], sh[1], sh[2], sh[3]);
                    pto_tile *dst = tile_new(PTO_UINT32, sh[0], 300, sh[2], 290);
                    pto_tile *idx = wide ? tile_new(PTO_UINT8, 3, sh[1], 3, sh[1] ? sh[1] : 1)
                                         : tile_new(PTO_UINT8, sh[0], 1, sh[0], 1);
                    fill_radix(src, &r);
                    tile_fill(dst, &r, GEN_ANY);
                    for (uint32_t i = 0; i < pto_tile_rows(idx); ++i)
                        for (uint32_t j = 0; j < pto_tile_cols(idx); ++j)
                            tile_put(idx, i, j, wide ? (uint64_t)(0x10 + 0x10 * i + rng_next(&r) % 2) : rng_next(&r) % 3);
                    uint64_t *before = tile_snapshot(dst);
                    char what[96];
                    snprintf(what, sizeof what, "%s %s byte %u %ux%u", pto_profile_string(kProfiles[p]),
                             wide ? "UINT32" : "UINT16", byte, sh[2], sh[3]);
                    expect_status(pto_thistogram(dst, src, idx, (pto_hist_byte)byte), PTO_OK, what);
                    expect_histogram(dst, src, idx, byte, before, what);
                    ++calls;
                    free(before);
                    TILES_DESTROY(src, dst, idx);
                }
    }
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    print_message("[thistogram] %zu calls against the page's counts\n", calls);
}

static void test_thistogram_rules(void **state) {
    (void)state;
    pto_tile *src = tile_new(PTO_UINT16, 2, 8, 2, 8), *wide = tile_new(PTO_UINT32, 2, 8, 2, 8);
    pto_tile *dst = tile_new(PTO_UINT32, 2, 256, 2, 256), *idx = tile_new(PTO_UINT8, 2, 1, 2, 1);
    pto_tile *i16 = tile_new(PTO_INT16, 2, 8, 2, 8), *idx16 = tile_new(PTO_UINT16, 2, 1, 2, 1);
    pto_tile *i32d = tile_new(PTO_INT32, 2, 256, 2, 256), *few = tile_new(PTO_UINT32, 2, 256, 2, 255);
    pto_tile *rows3 = tile_new(PTO_UINT32, 3, 256, 3, 256), *short_idx = tile_new(PTO_UINT8, 1, 1, 1, 1);
    pto_tile *cube = NULL;
    assert_int_equal(pto_tile_create_cube(PTO_FLOAT32, 16, 8, PTO_LOC_MAT, PTO_LAYOUT_ND, &cube), PTO_OK);
    rng r = {0x9B2};
    tile_fill(dst, &r, GEN_ANY);
    for (int p = PTO_PROFILE_HOST; p <= PTO_PROFILE_A5; ++p) {
        assert_int_equal(pto_set_profile((pto_profile)p), PTO_OK);
        uint64_t *before = tile_snapshot(dst);
        expect_status(pto_thistogram(NULL, src, idx, PTO_HIST_BYTE0), PTO_ERR_NULL_ARGUMENT, "NULL dst");
        expect_status(pto_thistogram(dst, NULL, idx, PTO_HIST_BYTE0), PTO_ERR_NULL_ARGUMENT, "NULL src");
        expect_status(pto_thistogram(dst, src, NULL, PTO_HIST_BYTE0), PTO_ERR_NULL_ARGUMENT, "NULL idx read");
        assert_non_null(strstr(pto_last_error(), "pto_thistogram: idx"));
        expect_status(pto_thistogram(dst, wide, NULL, PTO_HIST_BYTE2), PTO_ERR_NULL_ARGUMENT, "NULL idx, byte 2");
        expect_status(pto_thistogram(dst, cube, idx, PTO_HIST_BYTE1), PTO_ERR_INVALID_ARGUMENT, "cube src");
        expect_status(pto_thistogram(dst, src, idx, (pto_hist_byte)4), PTO_ERR_INVALID_ARGUMENT, "byte 4");
        expect_status(pto_thistogram(dst, src, idx, (pto_hist_byte)-1), PTO_ERR_INVALID_ARGUMENT, "byte -1");
        expect_status(pto_thistogram(dst, src, idx, PTO_HIST_BYTE2), PTO_ERR_INVALID_ARGUMENT, "byte 2 of UINT16");
        assert_non_null(strstr(pto_last_error(), "UINT16"));
        const pto_status accepted = p == PTO_PROFILE_A2A3 ? PTO_ERR_UNSUPPORTED_DTYPE : PTO_OK;
        expect_status(pto_thistogram(i32d, src, idx, PTO_HIST_BYTE1), PTO_ERR_UNSUPPORTED_DTYPE, "INT32 dst");
        if (p == PTO_PROFILE_A2A3) {
            expect_status(pto_thistogram(dst, src, idx, PTO_HIST_BYTE1), PTO_ERR_UNSUPPORTED_DTYPE, "A2A3");
            assert_non_null(strstr(pto_last_error(), "A2A3"));
        } else {
            expect_status(pto_thistogram(dst, i16, idx, PTO_HIST_BYTE1), PTO_ERR_DTYPE_MISMATCH, "INT16 src");
            expect_status(pto_thistogram(dst, src, idx16, PTO_HIST_BYTE0), PTO_ERR_DTYPE_MISMATCH, "UINT16 idx");
            expect_status(pto_thistogram(dst, wide, dst, PTO_HIST_BYTE2), PTO_ERR_DTYPE_MISMATCH, "idx is dst (UINT32)");
            expect_status(pto_thistogram(dst, dst, idx, PTO_HIST_BYTE1), PTO_ERR_ALIASING, "src is dst");
            expect_status(pto_thistogram(rows3, src, idx, PTO_HIST_BYTE1), PTO_ERR_SHAPE_MISMATCH, "3 dst rows");
            expect_status(pto_thistogram(few, src, idx, PTO_HIST_BYTE1), PTO_ERR_SHAPE_MISMATCH, "255 bins");
            expect_status(pto_thistogram(dst, src, short_idx, PTO_HIST_BYTE0), PTO_ERR_SHAPE_MISMATCH, "1 idx row for 2");
            expect_status(pto_thistogram(dst, wide, short_idx, PTO_HIST_BYTE1), PTO_ERR_SHAPE_MISMATCH, "1 idx row for 2 filters");
        }
        assert_tile_unchanged(dst, before, "refused thistogram");
        expect_status(pto_thistogram(dst, wide, NULL, PTO_HIST_BYTE3), accepted, "byte 3 without idx");
        expect_status(pto_thistogram(dst, src, NULL, PTO_HIST_BYTE1), accepted, "UINT16 byte 1 without idx");
        tile_fill(dst, &r, GEN_ANY);
        free(before);
    }
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    /* idx placed in dst's storage */
    pto_buffer *b = NULL;
    pto_tile *on = NULL, *inside = NULL;
    assert_int_equal(pto_buffer_create(8192, &b), PTO_OK);
    assert_int_equal(pto_tile_create_at(PTO_UINT32, 2, 256, b, 0, &on), PTO_OK);
    assert_int_equal(pto_tile_create_at(PTO_UINT8, 2, 1, b, 16, &inside), PTO_OK);
    expect_status(pto_thistogram(on, src, inside, PTO_HIST_BYTE0), PTO_ERR_ALIASING, "idx inside dst");
    pto_tile_destroy(on);
    pto_tile_destroy(inside);
    pto_buffer_destroy(b);
    pto_tile_destroy(cube);
    TILES_DESTROY(src, wide, dst, idx, i16, idx16, i32d, few, rows3, short_idx);
}

#define U16_SRC "!pto.tile_buf<loc=vec, dtype=ui16, rows=8, cols=32, v_row=8, v_col=32, blayout=row_major, slayout=none_box, fractal=512, pad=0>"
#define U8_IDX "!pto.tile_buf<loc=vec, dtype=ui8, rows=8, cols=1, v_row=8, v_col=1, blayout=col_major, slayout=none_box, fractal=512, pad=0>"
#define U32_DST "!pto.tile_buf<loc=vec, dtype=ui32, rows=8, cols=256, v_row=8, v_col=256, blayout=row_major, slayout=none_box, fractal=512, pad=0>"
#define U32_SRC "!pto.tile_buf<loc=vec, dtype=ui32, rows=8, cols=32, v_row=8, v_col=32, blayout=row_major, slayout=none_box, fractal=512, pad=0>"
#define U8_ROWS "!pto.tile_buf<loc=vec, dtype=ui8, rows=3, cols=32, v_row=3, v_col=32, blayout=row_major, slayout=none_box, fractal=512, pad=0>"

/* PTOAS's form (lit thistogram_emitc.pto): byte 1 unless given. */
static void test_thistogram_programs(void **state) {
    (void)state;
    assert_int_equal(pto_set_profile(PTO_PROFILE_A5), PTO_OK);
    rng r = {0x9B3};
    pto_tile *s16 = tile_new(PTO_UINT16, 8, 32, 8, 32), *i16 = tile_new(PTO_UINT8, 8, 1, 8, 1);
    pto_tile *s32 = tile_new(PTO_UINT32, 8, 32, 8, 32), *i32 = tile_new(PTO_UINT8, 3, 32, 3, 32);
    fill_radix(s16, &r);
    fill_radix(s32, &r);
    for (uint32_t i = 0; i < 8; ++i) tile_put(i16, i, 0, i % 3);
    for (uint32_t j = 0; j < 32; ++j) {
        tile_put(i32, 0, j, 0x10);
        tile_put(i32, 1, j, 0x21);
        tile_put(i32, 2, j, 0x31);
    }
    static const struct {
        const char *text;
        bool wide;
        unsigned byte;
    } kForms[] = {
        {"pto.thistogram ins(%s, %i : " U16_SRC ", " U8_IDX ") outs(%d : " U32_DST ")\n", false, 1},
        {"pto.thistogram ins(%s, %i : " U16_SRC ", " U8_IDX ") outs(%d : " U32_DST ") {byte = 0 : i32}\n", false, 0},
        {"pto.thistogram ins(%s, %i : " U32_SRC ", " U8_ROWS ") outs(%d : " U32_DST ") {byte = 0 : i32}\n", true, 0},
        {"pto.thistogram ins(%s, %i : " U32_SRC ", " U8_ROWS ") outs(%d : " U32_DST ") {byte = 2 : i32}\n", true, 2},
    };
    static const char *const kNames[] = {"s", "i", "d"};
    for (size_t k = 0; k < COUNT(kForms); ++k) {
        pto_tile *src = kForms[k].wide ? s32 : s16, *idx = kForms[k].wide ? i32 : i16;
        pto_tile *out = tile_new(PTO_UINT32, 8, 256, 8, 256), *want = tile_new(PTO_UINT32, 8, 256, 8, 256);
        tile_fill(out, &r, GEN_ANY);
        assert_int_equal(pto_thistogram(want, src, idx, (pto_hist_byte)kForms[k].byte), PTO_OK);
        pto_tile *tiles[] = {src, idx, out};
        const pto_status run = run_program_bound(kForms[k].text, kNames, tiles, 3, NULL, NULL, 0);
        if (run != PTO_OK) fail_msg("%s: run %s (%s)", kForms[k].text, pto_status_string(run), pto_last_error());
        for (uint32_t i = 0; i < 8; ++i)
            for (uint32_t b = 0; b < 256; ++b) assert_int_equal(tile_get(out, i, b), tile_get(want, i, b));
        TILES_DESTROY(out, want);
    }
    expect_program_refused_with("func.func @f(%s : " U16_SRC ", %i : " U8_IDX ", %d : " U32_DST ") {\n"
                                "  pto.thistogram ins(%s, %i : " U16_SRC ", " U8_IDX ") outs(%d : " U32_DST
                                ") {byte = 4 : i32}\n  return\n}\n",
                                NULL, "byte of thistogram is 0, 1, 2 or 3");
    /* PTOAS's older isMSB: true is byte 1, false byte 0; one that disagrees with byte is refused. */
    {
        pto_tile *out = tile_new(PTO_UINT32, 8, 256, 8, 256), *want = tile_new(PTO_UINT32, 8, 256, 8, 256);
        assert_int_equal(pto_thistogram(want, s16, i16, PTO_HIST_BYTE0), PTO_OK);
        pto_tile *tiles[] = {s16, i16, out};
        assert_int_equal(run_program_bound("pto.thistogram ins(%s, %i : " U16_SRC ", " U8_IDX ") outs(%d : " U32_DST
                                           ") {isMSB = false}\n",
                                           kNames, tiles, 3, NULL, NULL, 0),
                         PTO_OK);
        for (uint32_t i = 0; i < 8; ++i)
            for (uint32_t b = 0; b < 256; ++b) assert_int_equal(tile_get(out, i, b), tile_get(want, i, b));
        TILES_DESTROY(out, want);
    }
    expect_program_refused_with("func.func @f(%s : " U16_SRC ", %i : " U8_IDX ", %d : " U32_DST ") {\n"
                                "  pto.thistogram ins(%s, %i : " U16_SRC ", " U8_IDX ") outs(%d : " U32_DST
                                ") {byte = 1 : i32, isMSB = false}\n  return\n}\n",
                                NULL, "byte and its older isMSB disagree");
    expect_program_refused("pto.thistogram ins(%s, %i : " U16_SRC ", " U8_IDX ") outs(%d : " U32_DST
                           ") {byte = 3 : i32}\n",
                           PTO_ERR_INVALID_ARGUMENT);
    assert_int_equal(pto_set_profile(PTO_PROFILE_A2A3), PTO_OK);
    expect_program_refused("pto.thistogram ins(%s, %i : " U16_SRC ", " U8_IDX ") outs(%d : " U32_DST ")\n",
                           PTO_ERR_UNSUPPORTED_DTYPE);
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    TILES_DESTROY(s16, i16, s32, i32);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tpairreducesum_cases),    cmocka_unit_test(test_tpairreducesum_values),
        cmocka_unit_test(test_tpairreducesum_rules),    cmocka_unit_test(test_tpairreducesum_programs),
        cmocka_unit_test(test_thistogram_cases),        cmocka_unit_test(test_thistogram_values),
        cmocka_unit_test(test_thistogram_rules),        cmocka_unit_test(test_thistogram_programs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
