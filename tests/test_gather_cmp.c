/* TGATHER's compare form (pto_tgather_cmp) against a reference written from
 * the page ("for each row i in src0, compare each element src0[i, j] against
 * threshold k_value[i] using cmpMode (GT or EQ). The indices of matching
 * elements are gathered into dst[i]. The count of matches per row is stored
 * in cdst[i]. The offset parameter specifies the starting index value") and
 * the implementations: the index offset + i x src cols + j (A2A3's index
 * table, pto-isa's goldens), A5's offset + i x 64 x the row's 64-lane repeats
 * + j; A2A3's thresholds the signed bits of k converted to src's dtype.
 * Every (src, k, dst) dtype combination of each profile in both modes,
 * partial valid regions, ties, NaN and -0, rows without a match, the rest of
 * dst unchanged; the rules in order, each refusal writing nothing; A2A3's
 * tmp size at the page's bound; pto-isa's ST shapes with their golden rule;
 * the text form (PTOAS's scalar threshold) against the call. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/harness.h"

static const pto_profile kProfiles[] = {PTO_PROFILE_HOST, PTO_PROFILE_A2A3, PTO_PROFILE_A5};

/* The element bytes A2A3's scratch needs (the page's tmpSize, the bitmap row
 * ceil(cols / 8) bytes rounded up to 32 as pto-isa's ST sizes it). */
static size_t scratch_bytes(pto_dtype src_dt, uint32_t rows, uint32_t cols) {
    return (size_t)rows * (((cols + 7) / 8 + 31) / 32 * 32) + (size_t)rows * cols * 4 +
           (size_t)rows * pto_dtype_size(src_dt);
}

/* Row i's threshold as the page's compare sees it. */
static double threshold(pto_profile profile, pto_dtype src_dt, const pto_tile *k, uint32_t i) {
    const pto_dtype kd = pto_tile_dtype(k);
    const uint64_t bits = tile_get(k, i, 0);
    if (profile != PTO_PROFILE_A2A3) return ref_to_double(kd, bits);
    /* A2A3: vconv_s322f32 / vconv_s162f16 read k as signed; INT32 copies it. */
    const double as_signed = pto_dtype_size(kd) == 2 ? (double)(int16_t)(uint16_t)bits
                                                     : (double)(int32_t)(uint32_t)bits;
    return ref_to_double(src_dt, ref_from_double(src_dt, as_signed));
}

/* The expected dst and cdst (copies of their old contents with the page's
 * results written in); returns the number of indices gathered. */
static size_t reference(pto_profile profile, int gt, const pto_tile *src, const pto_tile *k,
                        size_t offset, uint64_t *want_dst, uint32_t dst_cols, uint64_t *want_cdst,
                        uint32_t cdst_cols) {
    const pto_dtype sd = pto_tile_dtype(src);
    const uint32_t rows = pto_tile_valid_rows(src), cols = pto_tile_valid_cols(src);
    const uint64_t stride =
        profile == PTO_PROFILE_A5 ? (cols + 63u) / 64u * 64u : (uint64_t)pto_tile_cols(src);
    size_t total = 0;
    for (uint32_t i = 0; i < rows; ++i) {
        const double t = threshold(profile, sd, k, i);
        uint32_t n = 0;
        for (uint32_t j = 0; j < cols; ++j) {
            const double v = ref_to_double(sd, tile_get(src, i, j));
            if (gt ? v > t : v == t)
                want_dst[(size_t)i * dst_cols + n++] = (uint32_t)(offset + i * stride + j);
        }
        want_cdst[(size_t)i * cdst_cols] = n;
        total += n;
    }
    return total;
}

/* A value of dt near the small thresholds: 0..7 mostly (ties), and for the
 * float dtypes NaN, -0, +-inf, 2.5. */
static uint64_t pick_value(pto_dtype dt, rng *r) {
    const uint32_t u = rng_below(r, 16);
    const int is_float = dt == PTO_FLOAT16 || dt == PTO_FLOAT32;
    if (is_float && u == 8) return ref_from_double(dt, NAN);
    if (is_float && u == 9) return ref_from_double(dt, -0.0);
    if (is_float && u == 10) return ref_from_double(dt, INFINITY);
    if (is_float && u == 11) return ref_from_double(dt, -INFINITY);
    if (is_float && u == 12) return ref_from_double(dt, 2.5);
    if (u == 13 && (dt == PTO_INT16 || dt == PTO_INT32)) return ref_from_double(dt, -3);
    if (u == 14) return ref_from_double(dt, dt == PTO_INT16 ? 32767 : dt == PTO_UINT16 ? 65535 : 1000);
    return ref_from_double(dt, u % 8);
}

static void fill_random(pto_tile *t, rng *r) {
    const size_t n = (size_t)pto_tile_rows(t) * pto_tile_cols(t);
    for (size_t e = 0; e < n; ++e)
        tile_put(t, e / pto_tile_cols(t), e % pto_tile_cols(t), rng_below(r, 1u << 30));
}

typedef struct {
    pto_profile profile;
    pto_dtype src, k, dst;
    int gt;
    uint32_t rows, cols, src_rows, src_cols;
    size_t offset;
} gcase;

/* One call on random data; checks dst and cdst whole. Returns the indices
 * gathered. */
static size_t check_case(const gcase *c, rng *r) {
    pto_tile *src = tile_new(c->src, c->src_rows, c->src_cols, c->rows, c->cols);
    pto_tile *k = tile_new(c->k, c->src_rows, 1, c->src_rows, 1);
    const uint32_t dst_cols = c->cols + 3;
    pto_tile *dst = tile_new(c->dst, c->src_rows, dst_cols, c->rows, dst_cols);
    pto_tile *cdst = tile_new(c->dst, c->src_rows, 2, c->src_rows, 2);
    pto_tile *tmp = NULL;
    if (c->profile == PTO_PROFILE_A2A3) {
        const uint32_t need = (uint32_t)scratch_bytes(c->src, c->src_rows, c->src_cols);
        tmp = tile_new(PTO_UINT8, 1, need, 1, need);
    }
    for (uint32_t i = 0; i < c->src_rows; ++i)
        for (uint32_t j = 0; j < c->src_cols; ++j) tile_put(src, i, j, pick_value(c->src, r));
    for (uint32_t i = 0; i < c->src_rows; ++i) {
        /* 0..7, or a value no element equals (all greater, none equal) */
        const uint32_t v = rng_below(r, 10);
        tile_put(k, i, 0, v == 9 ? 0 : v % 8);
    }
    fill_random(dst, r);
    fill_random(cdst, r);
    uint64_t *want_dst = tile_snapshot(dst), *want_cdst = tile_snapshot(cdst);
    const size_t n = reference(c->profile, c->gt, src, k, c->offset, want_dst, dst_cols, want_cdst, 2);
    assert_int_equal(pto_set_profile(c->profile), PTO_OK);
    const pto_status st =
        pto_tgather_cmp(dst, src, k, tmp, cdst, c->gt ? PTO_CMP_GT : PTO_CMP_EQ, c->offset);
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    if (st != PTO_OK)
        fail_msg("tgather_cmp %s src %s k %s dst %s %s %ux%u: %s (%s)",
                 pto_profile_string(c->profile), pto_dtype_string(c->src), pto_dtype_string(c->k),
                 pto_dtype_string(c->dst), c->gt ? "GT" : "EQ", c->rows, c->cols,
                 pto_status_string(st), pto_last_error());
    assert_tile_unchanged(dst, want_dst, "dst against the reference");
    assert_tile_unchanged(cdst, want_cdst, "cdst against the reference");
    free(want_dst);
    free(want_cdst);
    TILES_DESTROY(src, k, dst, cdst, tmp);
    return n;
}

/* Every (src, k, dst) dtype combination each profile takes, both modes,
 * whole and partial valid regions, an offset. */
static void test_every_combination(void **state) {
    (void)state;
    static const pto_dtype kSrc[] = {PTO_INT16, PTO_UINT16, PTO_INT32, PTO_UINT32, PTO_FLOAT16, PTO_FLOAT32};
    static const pto_dtype kK[] = {PTO_INT16, PTO_UINT16, PTO_INT32, PTO_UINT32};
    static const pto_dtype kDst[] = {PTO_INT32, PTO_UINT32};
    static const uint32_t kShapes[][4] = {{4, 16, 4, 16}, {3, 70, 5, 72}, {2, 130, 2, 136}, {1, 1, 3, 8}};
    rng r = {0x7c1};
    size_t calls = 0, gathered = 0;
    for (size_t p = 0; p < COUNT(kProfiles); ++p)
        for (size_t s = 0; s < COUNT(kSrc); ++s)
            for (size_t kk = 0; kk < COUNT(kK); ++kk)
                for (size_t d = 0; d < COUNT(kDst); ++d)
                    for (int gt = 0; gt < 2; ++gt) {
                        const pto_profile prof = kProfiles[p];
                        const pto_dtype sd = kSrc[s], kd = kK[kk];
                        const int k16 = pto_dtype_size(kd) == 2;
                        if (prof == PTO_PROFILE_A2A3) {
                            if (sd != PTO_FLOAT32 && sd != PTO_FLOAT16 && sd != PTO_INT32) continue;
                            if (sd == PTO_INT32 && gt) continue;
                            if ((sd == PTO_FLOAT16) != k16) continue;
                        }
                        if (prof == PTO_PROFILE_A5 && kd != PTO_UINT16 && kd != PTO_UINT32) continue;
                        for (size_t sh = 0; sh < COUNT(kShapes); ++sh) {
                            const gcase c = {prof, sd, kd, kDst[d], gt, kShapes[sh][0], kShapes[sh][1],
                                             kShapes[sh][2], kShapes[sh][3], sh == 1 ? 100u : 0u};
                            gathered += check_case(&c, &r);
                            calls++;
                        }
                    }
    print_message("[gather_cmp] %zu calls, %zu indices gathered\n", calls, gathered);
    assert_true(calls > 200 && gathered > 1000);
}

/* Fixed rows: ties, NaN, -0 and the rows without a match; the rest of each
 * dst row kept; A5's running index. */
static void test_fixed_rows(void **state) {
    (void)state;
    pto_tile *src = tile_new(PTO_FLOAT32, 3, 6, 3, 6);
    pto_tile *k = tile_new(PTO_UINT32, 3, 1, 3, 1);
    pto_tile *dst = tile_new(PTO_INT32, 3, 6, 3, 6);
    pto_tile *cdst = tile_new(PTO_INT32, 3, 1, 3, 1);
    const float row0[] = {2, 0, 2, NAN, 3, 2};       /* EQ 2: 0, 2, 5 */
    const float row1[] = {-0.0f, 0, NAN, -1, 0, 1};  /* EQ 0: 0, 1, 4 */
    const float row2[] = {NAN, NAN, 1, 1, 0, 0};     /* EQ 7: none */
    const float *rows[] = {row0, row1, row2};
    for (uint32_t i = 0; i < 3; ++i)
        for (uint32_t j = 0; j < 6; ++j) tile_put(src, i, j, ref_from_double(PTO_FLOAT32, rows[i][j]));
    tile_put(k, 0, 0, 2);
    tile_put(k, 1, 0, 0);
    tile_put(k, 2, 0, 7);
    for (uint32_t i = 0; i < 3; ++i)
        for (uint32_t j = 0; j < 6; ++j) tile_put(dst, i, j, 0xEEEE);
    assert_int_equal(pto_tgather_cmp(dst, src, k, NULL, cdst, PTO_CMP_EQ, 10), PTO_OK);
    const uint32_t want0[] = {10, 12, 15, 0xEEEE}, want1[] = {16, 17, 20, 0xEEEE};
    for (uint32_t j = 0; j < 4; ++j) {
        assert_int_equal(tile_get(dst, 0, j), want0[j]);
        assert_int_equal(tile_get(dst, 1, j), want1[j]);
    }
    assert_int_equal(tile_get(dst, 2, 0), 0xEEEE);
    assert_int_equal(tile_get(cdst, 0, 0), 3);
    assert_int_equal(tile_get(cdst, 1, 0), 3);
    assert_int_equal(tile_get(cdst, 2, 0), 0);
    /* GT 0 on row 1: only 1 (NaN and -0 are not greater) */
    assert_int_equal(pto_tgather_cmp(dst, src, k, NULL, cdst, PTO_CMP_GT, 0), PTO_OK);
    assert_int_equal(tile_get(cdst, 1, 0), 1);
    assert_int_equal(tile_get(dst, 1, 0), 6 + 5);
    /* A5: the index runs on by 64 per row (one 64-lane repeat of 6 cols) */
    assert_int_equal(pto_set_profile(PTO_PROFILE_A5), PTO_OK);
    assert_int_equal(pto_tgather_cmp(dst, src, k, NULL, cdst, PTO_CMP_EQ, 0), PTO_OK);
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    assert_int_equal(tile_get(dst, 0, 1), 2);
    assert_int_equal(tile_get(dst, 1, 0), 64);
    assert_int_equal(tile_get(dst, 1, 2), 68);
    /* the offset wraps modulo 2^32 */
    assert_int_equal(pto_tgather_cmp(dst, src, k, NULL, cdst, PTO_CMP_EQ, UINT32_MAX), PTO_OK);
    assert_int_equal(tile_get(dst, 0, 0), UINT32_MAX);
    assert_int_equal(tile_get(dst, 0, 1), 1);
    TILES_DESTROY(src, k, dst, cdst);
}

/* A2A3 converts k to src's dtype (to nearest even) after reading it signed;
 * HOST and A5 compare k's exact value. */
static void test_thresholds(void **state) {
    (void)state;
    pto_tile *src = tile_new(PTO_FLOAT32, 1, 4, 1, 4);
    pto_tile *k = tile_new(PTO_UINT32, 1, 1, 1, 1);
    pto_tile *dst = tile_new(PTO_UINT32, 1, 4, 1, 4);
    pto_tile *cdst = tile_new(PTO_UINT32, 1, 1, 1, 1);
    pto_tile *tmp = tile_new(PTO_UINT8, 1, 64, 1, 64);
    const double v[] = {16777216.0, 16777218.0, -1.0, 4294967295.0};
    for (uint32_t j = 0; j < 4; ++j) tile_put(src, 0, j, ref_from_double(PTO_FLOAT32, v[j]));
    tile_put(k, 0, 0, 16777217u); /* 2^24 + 1: float32 rounds it to 2^24 */
    assert_int_equal(pto_tgather_cmp(dst, src, k, NULL, cdst, PTO_CMP_EQ, 0), PTO_OK);
    assert_int_equal(tile_get(cdst, 0, 0), 0);
    assert_int_equal(pto_set_profile(PTO_PROFILE_A2A3), PTO_OK);
    assert_int_equal(pto_tgather_cmp(dst, src, k, tmp, cdst, PTO_CMP_EQ, 0), PTO_OK);
    assert_int_equal(tile_get(cdst, 0, 0), 1);
    assert_int_equal(tile_get(dst, 0, 0), 0);
    tile_put(k, 0, 0, 0xFFFFFFFFu); /* read as -1 on A2A3 */
    assert_int_equal(pto_tgather_cmp(dst, src, k, tmp, cdst, PTO_CMP_EQ, 0), PTO_OK);
    assert_int_equal(tile_get(cdst, 0, 0), 1);
    assert_int_equal(tile_get(dst, 0, 0), 2);
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    /* HOST: 4294967295 exactly, which float32's 2^32 is not */
    assert_int_equal(pto_tgather_cmp(dst, src, k, NULL, cdst, PTO_CMP_EQ, 0), PTO_OK);
    assert_int_equal(tile_get(cdst, 0, 0), 0);
    assert_int_equal(pto_tgather_cmp(dst, src, k, NULL, cdst, PTO_CMP_GT, 0), PTO_OK);
    assert_int_equal(tile_get(cdst, 0, 0), 1);
    assert_int_equal(tile_get(dst, 0, 0), 3);
    TILES_DESTROY(src, k, dst, cdst, tmp);
}

/* A refused call: the status, a sentence, and no byte of dst or cdst
 * changed. */
static void expect_refused(pto_profile profile, pto_tile *dst, const pto_tile *src, const pto_tile *k,
                           const pto_tile *tmp, pto_tile *cdst, pto_cmp_mode mode, size_t offset,
                           pto_status want, const char *what) {
    uint64_t *d = dst ? tile_snapshot(dst) : NULL, *c = cdst ? tile_snapshot(cdst) : NULL;
    assert_int_equal(pto_set_profile(profile), PTO_OK);
    const pto_status st = pto_tgather_cmp(dst, src, k, tmp, cdst, mode, offset);
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    if (st != want)
        fail_msg("%s: got %s (%s), want %s", what, pto_status_string(st), pto_last_error(),
                 pto_status_string(want));
    assert_true(strlen(pto_last_error()) > 10);
    if (d) assert_tile_unchanged(dst, d, what);
    if (c) assert_tile_unchanged(cdst, c, what);
    free(d);
    free(c);
}

static void test_rules(void **state) {
    (void)state;
    const uint32_t R = 2, C = 40;
    pto_tile *src = tile_new(PTO_FLOAT32, R, C, R, C);
    pto_tile *k = tile_new(PTO_INT32, R, 1, R, 1);
    pto_tile *dst = tile_new(PTO_INT32, R, C, R, C);
    pto_tile *cdst = tile_new(PTO_INT32, R, 1, R, 1);
    const uint32_t need = (uint32_t)scratch_bytes(PTO_FLOAT32, R, C);
    pto_tile *tmp = tile_new(PTO_UINT8, 1, need, 1, need);
    pto_tile *short_tmp = tile_new(PTO_UINT8, 1, need - 1, 1, need - 1);
    for (uint32_t i = 0; i < R; ++i)
        for (uint32_t j = 0; j < C; ++j) tile_put(src, i, j, ref_from_double(PTO_FLOAT32, j % 5));
    tile_put(k, 0, 0, 1);
    tile_put(k, 1, 0, 1);
    /* NULLs */
    expect_refused(PTO_PROFILE_HOST, NULL, src, k, NULL, cdst, PTO_CMP_GT, 0, PTO_ERR_NULL_ARGUMENT, "dst NULL");
    expect_refused(PTO_PROFILE_HOST, dst, src, NULL, NULL, cdst, PTO_CMP_GT, 0, PTO_ERR_NULL_ARGUMENT, "k NULL");
    expect_refused(PTO_PROFILE_HOST, dst, src, k, NULL, NULL, PTO_CMP_GT, 0, PTO_ERR_NULL_ARGUMENT, "cdst NULL");
    expect_refused(PTO_PROFILE_A2A3, dst, src, k, NULL, cdst, PTO_CMP_GT, 0, PTO_ERR_NULL_ARGUMENT,
                   "A2A3 without tmp");
    /* dtypes */
    pto_tile *f_dst = tile_new(PTO_FLOAT32, R, C, R, C), *i16_cdst = tile_new(PTO_INT16, R, 1, R, 1);
    pto_tile *bf = tile_new(PTO_BFLOAT16, R, C, R, C), *i8k = tile_new(PTO_INT8, R, 1, R, 1);
    pto_tile *i32k = tile_new(PTO_INT32, R, 1, R, 1), *u16 = tile_new(PTO_UINT16, R, C, R, C);
    pto_tile *f16 = tile_new(PTO_FLOAT16, R, C, R, C), *i32src = tile_new(PTO_INT32, R, C, R, C);
    expect_refused(PTO_PROFILE_HOST, dst, bf, k, NULL, cdst, PTO_CMP_GT, 0, PTO_ERR_UNSUPPORTED_DTYPE,
                   "BFLOAT16 src");
    expect_refused(PTO_PROFILE_A2A3, dst, u16, k, tmp, cdst, PTO_CMP_EQ, 0, PTO_ERR_UNSUPPORTED_DTYPE,
                   "UINT16 src on A2A3");
    expect_refused(PTO_PROFILE_HOST, f_dst, src, k, NULL, cdst, PTO_CMP_GT, 0, PTO_ERR_UNSUPPORTED_DTYPE,
                   "FLOAT32 dst");
    expect_refused(PTO_PROFILE_HOST, dst, src, k, NULL, i16_cdst, PTO_CMP_GT, 0, PTO_ERR_DTYPE_MISMATCH,
                   "cdst of another dtype");
    expect_refused(PTO_PROFILE_HOST, dst, src, i8k, NULL, cdst, PTO_CMP_GT, 0, PTO_ERR_UNSUPPORTED_DTYPE,
                   "INT8 k");
    expect_refused(PTO_PROFILE_A5, dst, src, i32k, NULL, cdst, PTO_CMP_GT, 0, PTO_ERR_UNSUPPORTED_DTYPE,
                   "INT32 k on A5");
    expect_refused(PTO_PROFILE_A2A3, dst, f16, i32k, tmp, cdst, PTO_CMP_GT, 0, PTO_ERR_UNSUPPORTED_DTYPE,
                   "32-bit k for FLOAT16 src on A2A3");
    /* modes and offset */
    expect_refused(PTO_PROFILE_HOST, dst, src, k, NULL, cdst, PTO_CMP_NE, 0, PTO_ERR_INVALID_ARGUMENT,
                   "mode NE");
    expect_refused(PTO_PROFILE_HOST, dst, src, k, NULL, cdst, (pto_cmp_mode)9, 0, PTO_ERR_INVALID_ARGUMENT,
                   "mode 9");
    expect_refused(PTO_PROFILE_A2A3, dst, i32src, k, tmp, cdst, PTO_CMP_GT, 0, PTO_ERR_INVALID_ARGUMENT,
                   "INT32 GT on A2A3");
    expect_refused(PTO_PROFILE_HOST, dst, src, k, NULL, cdst, PTO_CMP_GT, (size_t)UINT32_MAX + 1,
                   PTO_ERR_INVALID_ARGUMENT, "offset above UINT32_MAX");
    /* aliasing */
    expect_refused(PTO_PROFILE_HOST, dst, src, k, NULL, dst, PTO_CMP_GT, 0, PTO_ERR_ALIASING, "cdst is dst");
    expect_refused(PTO_PROFILE_HOST, dst, src, k, cdst, cdst, PTO_CMP_GT, 0, PTO_ERR_ALIASING, "tmp is cdst");
    /* shapes */
    pto_tile *k_short = tile_new(PTO_INT32, 1, 1, 1, 1), *cdst_short = tile_new(PTO_INT32, 1, 1, 1, 1);
    pto_tile *dst_short = tile_new(PTO_INT32, 1, C, 1, C);
    expect_refused(PTO_PROFILE_HOST, dst, src, k_short, NULL, cdst, PTO_CMP_GT, 0, PTO_ERR_SHAPE_MISMATCH,
                   "k one row short");
    expect_refused(PTO_PROFILE_HOST, dst, src, k, NULL, cdst_short, PTO_CMP_GT, 0, PTO_ERR_SHAPE_MISMATCH,
                   "cdst one row short");
    expect_refused(PTO_PROFILE_HOST, dst_short, src, k, NULL, cdst, PTO_CMP_GT, 0, PTO_ERR_SHAPE_MISMATCH,
                   "dst one row short");
    expect_refused(PTO_PROFILE_A2A3, dst, src, k, short_tmp, cdst, PTO_CMP_GT, 0, PTO_ERR_SHAPE_MISMATCH,
                   "A2A3 tmp one byte short");
    /* the page's bound exactly: accepted */
    assert_int_equal(pto_set_profile(PTO_PROFILE_A2A3), PTO_OK);
    assert_int_equal(pto_tgather_cmp(dst, src, k, tmp, cdst, PTO_CMP_GT, 0), PTO_OK);
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    assert_int_equal(tile_get(cdst, 0, 0), 3 * C / 5);
    /* matches beyond dst's valid cols: refused, nothing written */
    pto_tile *narrow = tile_new(PTO_INT32, R, C, R, 3 * C / 5 - 1);
    expect_refused(PTO_PROFILE_HOST, narrow, src, k, NULL, cdst, PTO_CMP_GT, 0, PTO_ERR_OUT_OF_RANGE,
                   "more matches than dst's valid cols");
    TILES_DESTROY(src, k, dst, cdst, tmp, short_tmp, f_dst, i16_cdst, bf, i8k, i32k, u16, f16, i32src,
                  k_short, cdst_short, dst_short, narrow);
}

/* pto-isa's ST cases of the compare form (tests/npu/a2a3 and a5,
 * src/st/testcase/tgather: src randint(0, 100), one k per row, dst rows K wide, offset 0,
 * golden[i, n] = i x cols + j for the n-th match, zeros after): their
 * shapes, dtypes and modes, with data of the same kind. */
static void test_st_cases(void **state) {
    (void)state;
    typedef struct {
        pto_profile profile;
        pto_dtype src, k;
        uint32_t rows, cols, kvalue, width;
        int gt;
    } st_case;
    static const st_case kCases[] = {
        {PTO_PROFILE_A2A3, PTO_FLOAT32, PTO_UINT32, 16, 64, 80, 32, 1},
        {PTO_PROFILE_A2A3, PTO_INT32, PTO_UINT32, 8, 128, 80, 64, 0},
        {PTO_PROFILE_A2A3, PTO_FLOAT32, PTO_UINT32, 4, 256, 30, 64, 0},
        {PTO_PROFILE_A2A3, PTO_FLOAT16, PTO_UINT16, 2, 256, 100, 32, 1},
        {PTO_PROFILE_A2A3, PTO_FLOAT16, PTO_UINT16, 8, 128, 40, 32, 0},
        {PTO_PROFILE_A5, PTO_FLOAT32, PTO_UINT32, 16, 64, 80, 32, 1},
        {PTO_PROFILE_A5, PTO_UINT32, PTO_UINT32, 8, 128, 80, 64, 1},
        {PTO_PROFILE_A5, PTO_FLOAT32, PTO_UINT32, 4, 256, 30, 64, 0},
        {PTO_PROFILE_A5, PTO_INT16, PTO_UINT16, 16, 128, 90, 32, 1},
        {PTO_PROFILE_A5, PTO_INT16, PTO_UINT16, 4, 64, 20, 32, 0},
        {PTO_PROFILE_A5, PTO_FLOAT16, PTO_UINT16, 2, 256, 90, 32, 1},
        {PTO_PROFILE_A5, PTO_FLOAT16, PTO_UINT16, 8, 128, 40, 32, 0},
    };
    rng r = {0x57c};
    for (size_t c = 0; c < COUNT(kCases); ++c) {
        const st_case *t = &kCases[c];
        pto_tile *src = tile_new(t->src, t->rows, t->cols, t->rows, t->cols);
        pto_tile *k = tile_new(t->k, t->rows, 1, t->rows, 1);
        pto_tile *dst = tile_new(PTO_UINT32, t->rows, t->width, t->rows, t->width);
        pto_tile *cdst = tile_new(PTO_UINT32, t->rows, 1, t->rows, 1);
        const uint32_t need = (uint32_t)scratch_bytes(t->src, t->rows, t->cols);
        pto_tile *tmp = tile_new(PTO_UINT8, 1, need, 1, need);
        uint32_t *golden = calloc((size_t)t->rows * t->width, sizeof *golden);
        uint32_t *counts = calloc(t->rows, sizeof *counts);
        for (uint32_t i = 0; i < t->rows; ++i) {
            tile_put(k, i, 0, t->kvalue);
            uint32_t n = 0;
            for (uint32_t j = 0; j < t->cols; ++j) {
                uint32_t v = rng_below(&r, 100);
                /* at most `width` matches a row, as the goldens' K allows */
                const int match = t->gt ? v > t->kvalue : v == t->kvalue;
                if (match && n == t->width) v = t->kvalue > 0 ? t->kvalue - 1 : 0;
                else if (match) golden[(size_t)i * t->width + n++] = i * t->cols + j;
                tile_put(src, i, j, ref_from_double(t->src, v));
            }
            counts[i] = n;
        }
        assert_int_equal(pto_set_profile(t->profile), PTO_OK);
        const pto_status st = pto_tgather_cmp(dst, src, k, tmp, cdst, t->gt ? PTO_CMP_GT : PTO_CMP_EQ, 0);
        assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
        if (st != PTO_OK) fail_msg("ST case %zu: %s (%s)", c, pto_status_string(st), pto_last_error());
        for (uint32_t i = 0; i < t->rows; ++i) {
            const uint32_t n = (uint32_t)tile_get(cdst, i, 0);
            assert_int_equal(n, counts[i]);
            for (uint32_t j = 0; j < n; ++j)
                if (tile_get(dst, i, j) != golden[(size_t)i * t->width + j])
                    fail_msg("ST case %zu: dst[%u,%u] %u, golden %u", c, i, j, (unsigned)tile_get(dst, i, j),
                             golden[(size_t)i * t->width + j]);
        }
        free(golden);
        free(counts);
        TILES_DESTROY(src, k, dst, cdst, tmp);
    }
}

/* The text form (PTOAS's: one scalar threshold of src's type, cmpMode and
 * offset after outs) equals the C call with that threshold in every row of
 * k_value, under each profile; its own refusals. */
static void test_programs(void **state) {
    (void)state;
    static const char *const kForms[] = {
        "%k = arith.constant 3.0 : f32\n"
        "pto.tgather ins(%s, %k, %t : !pto.tile_buf<vec, 8x32xf32>, f32, !pto.tile_buf<vec, 1x32xui8>) "
        "outs(%d, %c : !pto.tile_buf<vec, 8x32xi32>, !pto.tile_buf<vec, 8x1xi32>) "
        "{cmpMode = #pto<cmp gt>, offset = 5 : i32}\n",
        "%k = arith.constant 4 : i32\n"
        "pto.tgather ins(%s, %k, %t : !pto.tile_buf<vec, 8x32xi32>, i32, !pto.tile_buf<vec, 1x32xui8>) "
        "outs(%d, %c : !pto.tile_buf<vec, 8x32xi32>, !pto.tile_buf<vec, 8x1xi32>)\n",
    };
    static const pto_dtype kSrc[] = {PTO_FLOAT32, PTO_INT32};
    static const int kGt[] = {1, 0};
    static const double kThreshold[] = {3, 4};
    static const size_t kOffset[] = {5, 0};
    static const char *const kNames[] = {"s", "t", "d", "c"};
    rng r = {0x7c9};
    size_t runs = 0;
    for (size_t pr = 0; pr < COUNT(kProfiles); ++pr)
        for (size_t f = 0; f < COUNT(kForms); ++f) {
            pto_tile *src = tile_new(kSrc[f], 8, 32, 8, 32), *tmp = tile_new(PTO_UINT8, 1, 32, 1, 32);
            pto_tile *k = tile_new(PTO_UINT32, 8, 1, 8, 1);
            const uint32_t need = (uint32_t)scratch_bytes(kSrc[f], 8, 32);
            pto_tile *big_tmp = tile_new(PTO_UINT8, 1, need, 1, need);
            pto_tile *want = tile_new(PTO_INT32, 8, 32, 8, 32), *got = tile_new(PTO_INT32, 8, 32, 8, 32);
            pto_tile *want_c = tile_new(PTO_INT32, 8, 1, 8, 1), *got_c = tile_new(PTO_INT32, 8, 1, 8, 1);
            for (uint32_t i = 0; i < 8; ++i) {
                tile_put(k, i, 0, (uint64_t)kThreshold[f]);
                tile_put(want_c, i, 0, 77);
                tile_put(got_c, i, 0, 77);
                for (uint32_t j = 0; j < 32; ++j) {
                    tile_put(src, i, j, pick_value(kSrc[f], &r));
                    tile_put(want, i, j, 0x5555);
                    tile_put(got, i, j, 0x5555);
                }
            }
            assert_int_equal(pto_set_profile(kProfiles[pr]), PTO_OK);
            const pto_status call = pto_tgather_cmp(want, src, k, big_tmp, want_c,
                                                    kGt[f] ? PTO_CMP_GT : PTO_CMP_EQ, kOffset[f]);
            pto_tile *bound[] = {src, tmp, got, got_c};
            const pto_status run = run_program_bound(kForms[f], kNames, bound, 4, NULL, NULL, 0);
            assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
            if (call != PTO_OK || run != PTO_OK)
                fail_msg("form %zu under %s: call %s, run %s (%s)", f, pto_profile_string(kProfiles[pr]),
                         pto_status_string(call), pto_status_string(run), pto_last_error());
            if (memcmp(pto_tile_data(want), pto_tile_data(got), 8 * 32 * 4) != 0 ||
                memcmp(pto_tile_data(want_c), pto_tile_data(got_c), 8 * 4) != 0)
            {
                for (uint32_t i = 0; i < 8; ++i)
                    for (uint32_t j = 0; j < 32; ++j)
                        if (tile_get(want, i, j) != tile_get(got, i, j))
                            print_message("(%u,%u) want %llu got %llu\n", i, j,
                                          (unsigned long long)tile_get(want, i, j),
                                          (unsigned long long)tile_get(got, i, j));
                for (uint32_t i = 0; i < 8; ++i)
                    print_message("c %u want %llu got %llu\n", i, (unsigned long long)tile_get(want_c, i, 0),
                                  (unsigned long long)tile_get(got_c, i, 0));
                fail_msg("form %zu under %s differs from the call", f, pto_profile_string(kProfiles[pr]));
            }
            runs++;
            TILES_DESTROY(src, tmp, k, big_tmp, want, got, want_c, got_c);
        }
    assert_int_equal(runs, 6);
    /* PTOAS's rules of the text: kValue of src's element type, tmp given */
    expect_program_refused_with(
        "%k = arith.constant 3.0 : f16\n"
        "pto.tgather ins(%s, %k, %t : !pto.tile_buf<vec, 8x32xf32>, f16, !pto.tile_buf<vec, 1x32xui8>) "
        "outs(%d, %c : !pto.tile_buf<vec, 8x32xi32>, !pto.tile_buf<vec, 8x1xi32>)\n",
        NULL, "src's element type");
    expect_program_refused_with(
        "%k = arith.constant 3.0 : f32\n"
        "pto.tgather ins(%s, %k : !pto.tile_buf<vec, 8x32xf32>, f32) "
        "outs(%d, %c : !pto.tile_buf<vec, 8x32xi32>, !pto.tile_buf<vec, 8x1xi32>)\n",
        NULL, "its tmp required");
    expect_program_refused_with(
        "%k = arith.constant 3.0 : f32\n"
        "pto.tgather ins(%s, %k, %t : !pto.tile_buf<vec, 8x32xf32>, f32, !pto.tile_buf<vec, 1x32xui8>) "
        "outs(%d, %c : !pto.tile_buf<vec, 8x32xi32>, !pto.tile_buf<vec, 8x1xi32>) {cmpMode = #pto<cmp ne>}\n",
        NULL, "PTO_CMP_EQ or PTO_CMP_GT");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_combination),
        cmocka_unit_test(test_fixed_rows),
        cmocka_unit_test(test_thresholds),
        cmocka_unit_test(test_rules),
        cmocka_unit_test(test_st_cases),
        cmocka_unit_test(test_programs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
