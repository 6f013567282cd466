/* TADDRELUCONV, TSUBRELUCONV and TADDDEQRELU against references written here
 * from the pages (TADDReluConv.md, TAddDeqRelu.md) and the NPU sequences
 * they name: the sum or difference in the sources' dtype, relu, then the
 * narrowing to dst's dtype nearest even and saturated; TADDDEQRELU's int32
 * sum, float32 conversion and the three float32 products (2^-17, deqScale,
 * 2^17) each rounded, relu and float16. Every pair on every SIMD target and
 * profile, over padded valid regions with dst's other elements unchanged;
 * the rules in order with nothing written on a refusal; TFILLPAD_INPLACE and
 * TFILLPAD_EXPAND equal to pto_tfillpad with their own shape rules; the text
 * forms equal to the C calls. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/harness.h"

typedef enum { CONV_ADD, CONV_SUB } conv_op;

static pto_status conv_call(conv_op op, pto_tile *dst, const pto_tile *a, const pto_tile *b) {
    return op == CONV_ADD ? pto_taddreluconv(dst, a, b) : pto_tsubreluconv(dst, a, b);
}

/* float16's largest finite value, the saturated result of an overflow. */
#define HALF_MAX_BITS 0x7BFFu

/* A non-negative double (or NaN) narrowed to float16: nearest even, a
 * finite value beyond the range the largest finite value (as tcvt's
 * PTO_SAT_ON); NaN and infinity stay what they are. */
static uint64_t to_half_saturated(double x) {
    if (isnan(x) || isinf(x)) return ref_from_double(PTO_FLOAT16, x);
    const uint64_t h = ref_from_double(PTO_FLOAT16, x);
    return (h & 0x7FFFu) == 0x7C00u ? (HALF_MAX_BITS | (h & 0x8000u)) : h;
}

/* A non-negative value (or NaN) narrowed to int8: nearest even, at most
 * 127; NaN gives 0. */
static uint64_t to_int8_saturated(double x) {
    if (isnan(x)) return 0;
    double r = nearbyint(x); /* the default mode: ties to even */
    if (r > 127) r = 127;
    return (uint64_t)(int64_t)r & 0xFFu;
}

/* relu as the pages' max(0, x): x when > 0, NaN kept, +0 otherwise. */
static double relu(double x) { return x > 0 || isnan(x) ? x : 0.0; }

/* The expected dst bits of one element of taddreluconv / tsubreluconv. */
static uint64_t ref_reluconv(conv_op op, pto_dtype src, uint64_t a, uint64_t b) {
    if (src == PTO_INT16) {
        const int64_t x = ref_int_value(PTO_INT16, a), y = ref_int_value(PTO_INT16, b);
        const int64_t wrapped = ref_int_value(PTO_INT16, ref_int_wrap(PTO_INT16, (uint64_t)(op == CONV_ADD ? x + y : x - y)));
        const int64_t r = wrapped > 0 ? wrapped : 0;
        return (uint64_t)(r > 127 ? 127 : r);
    }
    const double x = ref_to_double(src, a), y = ref_to_double(src, b);
    /* a sum of two float16 or float32 values is exact in double (or its
     * rounding to float32 from double is the correct one: 53 >= 2 * 24 + 2) */
    const double exact = op == CONV_ADD ? x + y : x - y;
    const double in_src = ref_to_double(src, ref_from_double(src, exact));
    const double r = relu(in_src);
    return src == PTO_FLOAT32 ? to_half_saturated(r) : to_int8_saturated(r);
}

/* The expected float16 bits of one element of tadddeqrelu, each step as
 * the page's sequence: float arithmetic, each product rounded to float32. */
static uint64_t ref_adddeqrelu(uint64_t a, uint64_t b, double scale) {
    const int64_t x = ref_int_value(PTO_INT32, a), y = ref_int_value(PTO_INT32, b);
    const int32_t sum = (int32_t)ref_int_value(PTO_INT32, ref_int_wrap(PTO_INT32, (uint64_t)(x + y)));
    volatile float f = (float)sum; /* int32 to float32: nearest even */
    f = f * 0x1p-17f;
    f = f * (float)scale;
    f = f * 0x1p17f;
    const double r = relu((double)f);
    return isinf(r) ? HALF_MAX_BITS : to_half_saturated(r); /* the page: saturating, the golden's clip */
}

static bool same_result(pto_dtype dt, uint64_t got, uint64_t want) {
    if (dt == PTO_FLOAT16 && ref_is_nan(dt, want)) return ref_is_nan(dt, got);
    return got == want;
}

typedef struct {
    pto_dtype src, dst;
} conv_pair;
static const conv_pair kPairs[] = {{PTO_FLOAT32, PTO_FLOAT16}, {PTO_FLOAT16, PTO_INT8}, {PTO_INT16, PTO_INT8}};
static const pto_profile kProfiles[] = {PTO_PROFILE_HOST, PTO_PROFILE_A2A3, PTO_PROFILE_A5};

typedef struct {
    size_t checked;
} conv_ctx;

/* Hand-made sources of each pair: overflow to saturation, ties, negative
 * results, zeros of both signs, NaN and infinities. */
static void put_edges(pto_tile *a, pto_tile *b, pto_dtype src) {
    static const double kF[][2] = {
        {65504.0, 16.0},     {65520.0, 0.0},   {1e30, 1e30},      {-3.0, 1.0},    {-0.0, -0.0},
        {0.5, 0.0},          {1.5, 1.0},       {2.5, 0.0},        {126.5, 0.0},   {127.5, 0.0},
        {300.0, 1.0},        {NAN, 1.0},       {INFINITY, 1.0},   {-INFINITY, 0}, {1e-8, 0.0},
        {5.9604644775390625e-8, 2.9802322387695312e-8}, {3.0000001, 0.0}, {0.0, -0.0},
    };
    static const int64_t kI[][2] = {{32767, 1}, {-32768, -1}, {100, 27}, {100, 28}, {-5, 3}, {0, 0}, {127, 0}, {-1, 129}};
    const uint32_t n = pto_tile_valid_cols(a);
    for (uint32_t j = 0; j < n; ++j) {
        if (src == PTO_INT16) {
            const size_t k = j % (sizeof kI / sizeof kI[0]);
            tile_put(a, 0, j, (uint64_t)kI[k][0] & 0xFFFFu);
            tile_put(b, 0, j, (uint64_t)kI[k][1] & 0xFFFFu);
        } else {
            const size_t k = j % (sizeof kF / sizeof kF[0]);
            tile_put(a, 0, j, ref_from_double(src, kF[k][0]));
            tile_put(b, 0, j, ref_from_double(src, kF[k][1]));
        }
    }
}

static void conv_on(void *vctx, size_t target_index, const char *target) {
    (void)target_index;
    (void)target;
    conv_ctx *ctx = vctx;
    static const uint32_t kShapes[][4] = {{1, 1, 1, 1}, {3, 40, 2, 37}, {4, 300, 4, 299}, {2, 16, 2, 16}, {5, 9, 3, 1}};
    rng r = {0xC0E};
    for (size_t p = 0; p < COUNT(kProfiles); ++p) {
        assert_int_equal(pto_set_profile(kProfiles[p]), PTO_OK);
        for (size_t q = 0; q < COUNT(kPairs); ++q)
            for (int op = CONV_ADD; op <= CONV_SUB; ++op)
                for (size_t s = 0; s < COUNT(kShapes); ++s) {
                    const uint32_t *sh = kShapes[s];
                    pto_tile *a = tile_new(kPairs[q].src, sh[0], sh[1], sh[2], sh[3]);
                    pto_tile *b = tile_new(kPairs[q].src, sh[0], sh[1] + 3, sh[2], sh[3]);
                    pto_tile *d = tile_new(kPairs[q].dst, sh[0] + 1, sh[1] + 5, sh[2], sh[3]);
                    tile_fill(a, &r, GEN_ANY);
                    tile_fill(b, &r, GEN_ANY);
                    tile_fill(d, &r, GEN_ANY);
                    if (s == 2) put_edges(a, b, kPairs[q].src);
                    uint64_t *before = tile_snapshot(d);
                    const pto_status st = conv_call((conv_op)op, d, a, b);
                    if (st != PTO_OK) fail_msg("%s: %s", pto_status_string(st), pto_last_error());
                    for (uint32_t i = 0; i < pto_tile_rows(d); ++i)
                        for (uint32_t j = 0; j < pto_tile_cols(d); ++j) {
                            const bool inside = i < sh[2] && j < sh[3];
                            const uint64_t want = inside ? ref_reluconv((conv_op)op, kPairs[q].src, tile_get(a, i, j),
                                                                        tile_get(b, i, j))
                                                         : before[(size_t)i * pto_tile_cols(d) + j];
                            const uint64_t got = tile_get(d, i, j);
                            if (!same_result(kPairs[q].dst, got, want))
                                fail_msg("%s %s %s->%s (%u,%u): a 0x%llx b 0x%llx gave 0x%llx, want 0x%llx",
                                         op == CONV_ADD ? "taddreluconv" : "tsubreluconv",
                                         pto_profile_string(kProfiles[p]), pto_dtype_string(kPairs[q].src),
                                         pto_dtype_string(kPairs[q].dst), i, j,
                                         (unsigned long long)(inside ? tile_get(a, i, j) : 0),
                                         (unsigned long long)(inside ? tile_get(b, i, j) : 0),
                                         (unsigned long long)got, (unsigned long long)want);
                            ctx->checked += inside;
                        }
                    free(before);
                    TILES_DESTROY(a, b, d);
                }
    }
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
}

static void test_reluconv_values(void **state) {
    (void)state;
    conv_ctx ctx = {0};
    for_each_target("fused_conv", conv_on, &ctx);
    print_message("[fused_conv] %zu elements of taddreluconv, tsubreluconv equal the reference\n", ctx.checked);
}

static void deq_on(void *vctx, size_t target_index, const char *target) {
    (void)target_index;
    (void)target;
    conv_ctx *ctx = vctx;
    static const double kScales[] = {1.0, 0.5, 1e-3, 3.0517578125e-05, 1e-30, 7.3, 1e10, -2.0, 0.1, 1e-45, 1e38, INFINITY};
    static const int64_t kEdge[][2] = {{INT32_MAX, 1}, {INT32_MIN, -1}, {16777217, 0}, {-7, 3},
                                       {0, 0},         {131072, 131071}, {2147483000, 600}, {1, 0}};
    rng r = {0xDE9};
    for (size_t p = 0; p < COUNT(kProfiles); ++p) {
        assert_int_equal(pto_set_profile(kProfiles[p]), PTO_OK);
        for (size_t s = 0; s < COUNT(kScales); ++s) {
            pto_tile *a = tile_new(PTO_INT32, 3, 70, 3, 67), *b = tile_new(PTO_INT32, 3, 67, 3, 67);
            pto_tile *t = tile_new(PTO_INT32, 3, 67, 3, 67), *d = tile_new(PTO_FLOAT16, 4, 72, 3, 67);
            tile_fill(a, &r, GEN_ANY);
            tile_fill(b, &r, GEN_ANY);
            tile_fill(d, &r, GEN_ANY);
            for (uint32_t j = 0; j < 67; ++j) { /* row 1: moderate values, which a scale keeps in range */
                tile_put(a, 1, j, (uint64_t)(int64_t)((int32_t)rng_below(&r, 200001) - 100000) & 0xFFFFFFFFu);
                tile_put(b, 1, j, (uint64_t)(int64_t)((int32_t)rng_below(&r, 2001) - 1000) & 0xFFFFFFFFu);
            }
            for (uint32_t j = 0; j < 8; ++j) {
                tile_put(a, 2, j, (uint64_t)kEdge[j][0] & 0xFFFFFFFFu);
                tile_put(b, 2, j, (uint64_t)kEdge[j][1] & 0xFFFFFFFFu);
            }
            uint64_t *before = tile_snapshot(d), *tmp_before = tile_snapshot(t);
            const pto_status st = pto_tadddeqrelu(d, a, b, t, kScales[s]);
            if (st != PTO_OK) fail_msg("%s: %s", pto_status_string(st), pto_last_error());
            for (uint32_t i = 0; i < 4; ++i)
                for (uint32_t j = 0; j < 72; ++j) {
                    const bool inside = i < 3 && j < 67;
                    const uint64_t want = inside ? ref_adddeqrelu(tile_get(a, i, j), tile_get(b, i, j), kScales[s])
                                                 : before[(size_t)i * 72 + j];
                    if (!same_result(PTO_FLOAT16, tile_get(d, i, j), want))
                        fail_msg("tadddeqrelu %s scale %g (%u,%u): gave 0x%llx, want 0x%llx",
                                 pto_profile_string(kProfiles[p]), kScales[s], i, j,
                                 (unsigned long long)tile_get(d, i, j), (unsigned long long)want);
                    ctx->checked += inside;
                }
            assert_tile_unchanged(t, tmp_before, "tadddeqrelu's tmp");
            free(before);
            free(tmp_before);
            TILES_DESTROY(a, b, t, d);
        }
    }
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
}

static void test_adddeqrelu_values(void **state) {
    (void)state;
    conv_ctx ctx = {0};
    for_each_target("fused_conv", deq_on, &ctx);
    print_message("[fused_conv] %zu elements of tadddeqrelu equal the reference\n", ctx.checked);
}

/* One call that must be refused with `want` and leave every operand as it
 * was. */
static size_t g_refusals;
static void expect_refused(pto_status got, pto_status want, const pto_tile *const *tiles, uint64_t **snaps, size_t n,
                           const char *what) {
    expect_status(got, want, what);
    if (pto_last_error()[0] == '\0') fail_msg("%s: refused without a sentence", what);
    for (size_t k = 0; k < n; ++k) assert_tile_unchanged(tiles[k], snaps[k], what);
    ++g_refusals;
}

static void test_conv_rules(void **state) {
    (void)state;
    rng r = {0xBAD};
    for (size_t p = 0; p < COUNT(kProfiles); ++p) {
        assert_int_equal(pto_set_profile(kProfiles[p]), PTO_OK);
        pto_tile *f32 = tile_new(PTO_FLOAT32, 2, 8, 2, 8), *f32b = tile_new(PTO_FLOAT32, 2, 8, 2, 8);
        pto_tile *f16 = tile_new(PTO_FLOAT16, 2, 8, 2, 8), *i8 = tile_new(PTO_INT8, 2, 8, 2, 8);
        pto_tile *i16 = tile_new(PTO_INT16, 2, 8, 2, 8), *i32 = tile_new(PTO_INT32, 2, 8, 2, 8);
        pto_tile *i32b = tile_new(PTO_INT32, 2, 8, 2, 8), *tmp = tile_new(PTO_INT32, 2, 8, 2, 8);
        pto_tile *small = tile_new(PTO_FLOAT32, 2, 8, 1, 8), *small_tmp = tile_new(PTO_INT32, 2, 8, 2, 7);
        pto_tile *f32_for_tmp = tile_new(PTO_FLOAT32, 2, 8, 2, 8);
        pto_tile *all[] = {f32, f32b, f16, i8, i16, i32, i32b, tmp, small, small_tmp, f32_for_tmp};
        for (size_t k = 0; k < COUNT(all); ++k) tile_fill(all[k], &r, GEN_ANY);
        uint64_t *snaps[COUNT(all)];
        for (size_t k = 0; k < COUNT(all); ++k) snaps[k] = tile_snapshot(all[k]);
        const pto_tile *const *tiles = (const pto_tile *const *)all;
        for (int op = CONV_ADD; op <= CONV_SUB; ++op) {
            expect_refused(conv_call((conv_op)op, NULL, f32, f32b), PTO_ERR_NULL_ARGUMENT, tiles, snaps, COUNT(all), "dst NULL");
            expect_refused(conv_call((conv_op)op, f16, NULL, f32b), PTO_ERR_NULL_ARGUMENT, tiles, snaps, COUNT(all), "src0 NULL");
            expect_refused(conv_call((conv_op)op, f16, f32, NULL), PTO_ERR_NULL_ARGUMENT, tiles, snaps, COUNT(all), "src1 NULL");
            expect_refused(conv_call((conv_op)op, f32b, f32, f32), PTO_ERR_UNSUPPORTED_DTYPE, tiles, snaps, COUNT(all),
                           "dst FLOAT32");
            expect_refused(conv_call((conv_op)op, i8, f32, f32b), PTO_ERR_DTYPE_MISMATCH, tiles, snaps, COUNT(all),
                           "FLOAT32 to INT8 is no pair");
            expect_refused(conv_call((conv_op)op, f16, i16, i16), PTO_ERR_DTYPE_MISMATCH, tiles, snaps, COUNT(all),
                           "INT16 to FLOAT16 is no pair");
            expect_refused(conv_call((conv_op)op, f16, f32, i32), PTO_ERR_DTYPE_MISMATCH, tiles, snaps, COUNT(all),
                           "src1 of another dtype");
            expect_refused(conv_call((conv_op)op, f16, small, f32b), PTO_ERR_SHAPE_MISMATCH, tiles, snaps, COUNT(all),
                           "src0's valid region");
            expect_refused(conv_call((conv_op)op, f16, f32, small), PTO_ERR_SHAPE_MISMATCH, tiles, snaps, COUNT(all),
                           "src1's valid region");
        }
        expect_refused(pto_tadddeqrelu(NULL, i32, i32b, tmp, 1.0), PTO_ERR_NULL_ARGUMENT, tiles, snaps, COUNT(all), "deq dst NULL");
        expect_refused(pto_tadddeqrelu(f16, i32, i32b, NULL, 1.0), PTO_ERR_NULL_ARGUMENT, tiles, snaps, COUNT(all), "deq tmp NULL");
        expect_refused(pto_tadddeqrelu(f32, i32, i32b, tmp, 1.0), PTO_ERR_UNSUPPORTED_DTYPE, tiles, snaps, COUNT(all),
                       "deq dst FLOAT32");
        expect_refused(pto_tadddeqrelu(f16, i16, i16, tmp, 1.0), PTO_ERR_DTYPE_MISMATCH, tiles, snaps, COUNT(all),
                       "deq sources INT16");
        expect_refused(pto_tadddeqrelu(f16, i32, i32b, f32_for_tmp, 1.0), PTO_ERR_DTYPE_MISMATCH, tiles, snaps,
                       COUNT(all), "deq tmp FLOAT32");
        expect_refused(pto_tadddeqrelu(f16, i32, i32b, i32, 1.0), PTO_ERR_ALIASING, tiles, snaps, COUNT(all),
                       "deq tmp is src0");
        expect_refused(pto_tadddeqrelu(f16, i32, i32b, small_tmp, 1.0), PTO_ERR_SHAPE_MISMATCH, tiles, snaps,
                       COUNT(all), "deq tmp smaller");
        for (size_t k = 0; k < COUNT(all); ++k) free(snaps[k]);
        tiles_destroy(COUNT(all), all);
    }
    /* A source sharing bytes with dst (placed in one buffer). */
    pto_buffer *buf = NULL;
    assert_int_equal(pto_buffer_create(4096, &buf), PTO_OK);
    pto_tile *src = NULL, *dst = NULL, *other = tile_new(PTO_FLOAT32, 2, 8, 2, 8);
    assert_int_equal(pto_tile_create_at(PTO_FLOAT32, 2, 8, buf, 0, &src), PTO_OK);
    assert_int_equal(pto_tile_create_at(PTO_FLOAT16, 2, 8, buf, 0, &dst), PTO_OK);
    expect_status(pto_taddreluconv(dst, src, other), PTO_ERR_ALIASING, "src0 under dst");
    expect_status(pto_tsubreluconv(dst, other, src), PTO_ERR_ALIASING, "src1 under dst");
    g_refusals += 2;
    TILES_DESTROY(src, dst, other);
    pto_buffer_destroy(buf);
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    print_message("[fused_conv] %zu refusals in order on 3 profiles, nothing written\n", g_refusals);
}

/* ---- TFILLPAD_INPLACE, TFILLPAD_EXPAND ---- */

static void test_fillpad_modes(void **state) {
    (void)state;
    rng r = {0xF11};
    size_t cases = 0;
    for (size_t p = 0; p < COUNT(kProfiles); ++p) {
        assert_int_equal(pto_set_profile(kProfiles[p]), PTO_OK);
        for (int pad = PTO_PAD_ZERO; pad <= PTO_PAD_MIN; ++pad) {
            /* expand: a larger dst, the same bits as pto_tfillpad under HOST */
            pto_tile *src = tile_new(PTO_FLOAT16, 3, 10, 2, 7);
            pto_tile *d = tile_new(PTO_FLOAT16, 5, 24, 5, 24), *want = tile_new(PTO_FLOAT16, 5, 24, 5, 24);
            tile_fill(src, &r, GEN_ANY);
            tile_fill(d, &r, GEN_ANY);
            assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
            assert_int_equal(pto_tfillpad(want, src, (pto_pad_value)pad), PTO_OK);
            assert_int_equal(pto_set_profile(kProfiles[p]), PTO_OK);
            const pto_status st = pto_tfillpad_expand(d, src, (pto_pad_value)pad);
            if (st != PTO_OK) fail_msg("expand: %s: %s", pto_status_string(st), pto_last_error());
            for (uint32_t i = 0; i < 5; ++i)
                for (uint32_t j = 0; j < 24; ++j)
                    if (tile_get(d, i, j) != tile_get(want, i, j)) fail_msg("expand (%u,%u) differs", i, j);
            /* in place: src placed exactly on dst, only the padding written */
            pto_buffer *buf = NULL;
            assert_int_equal(pto_buffer_create(1024, &buf), PTO_OK);
            pto_tile *on = NULL, *under = NULL;
            assert_int_equal(pto_tile_create_at(PTO_INT32, 4, 9, buf, 64, &on), PTO_OK);
            assert_int_equal(pto_tile_create_at(PTO_INT32, 4, 9, buf, 64, &under), PTO_OK);
            tile_fill(on, &r, GEN_ANY);
            assert_int_equal(pto_tile_set_valid(under, 3, 5), PTO_OK);
            uint64_t *before = tile_snapshot(on);
            assert_int_equal(pto_tfillpad_inplace(on, under, (pto_pad_value)pad), PTO_OK);
            const uint64_t pad_bits = pad == PTO_PAD_ZERO ? 0 : pad == PTO_PAD_MAX ? 0x7FFFFFFFu : 0x80000000u;
            for (uint32_t i = 0; i < 4; ++i)
                for (uint32_t j = 0; j < 9; ++j) {
                    const uint64_t w = i < 3 && j < 5 ? before[i * 9 + j] : pad_bits;
                    if (tile_get(on, i, j) != w) fail_msg("inplace (%u,%u) is 0x%llx", i, j, (unsigned long long)tile_get(on, i, j));
                }
            free(before);
            TILES_DESTROY(src, d, want, on, under);
            pto_buffer_destroy(buf);
            cases += 2;
        }
        /* the modes' own rules */
        pto_tile *a = tile_new(PTO_FLOAT32, 4, 8, 2, 3), *b = tile_new(PTO_FLOAT32, 4, 8, 4, 8);
        pto_tile *narrow = tile_new(PTO_FLOAT32, 6, 6, 6, 6);
        uint64_t *sb = tile_snapshot(b), *sn = tile_snapshot(narrow);
        expect_status(pto_tfillpad_inplace(b, a, PTO_PAD_ZERO), PTO_ERR_INVALID_ARGUMENT, "inplace apart");
        assert_tile_unchanged(b, sb, "inplace apart");
        expect_status(pto_tfillpad_inplace(NULL, a, PTO_PAD_ZERO), PTO_ERR_NULL_ARGUMENT, "inplace NULL");
        expect_status(pto_tfillpad_inplace(a, a, PTO_PAD_NULL), PTO_ERR_INVALID_ARGUMENT, "inplace pad NULL");
        expect_status(pto_tfillpad_expand(narrow, a, PTO_PAD_ZERO), PTO_ERR_SHAPE_MISMATCH, "expand: fewer cols");
        assert_tile_unchanged(narrow, sn, "expand: fewer cols");
        expect_status(pto_tfillpad_expand(b, a, (pto_pad_value)7), PTO_ERR_INVALID_ARGUMENT, "expand bad pad");
        assert_int_equal(pto_tfillpad_expand(b, a, PTO_PAD_MAX), PTO_OK); /* equal shapes: accepted */
        assert_int_equal(pto_tfillpad_inplace(a, a, PTO_PAD_MAX), PTO_OK);
        free(sb);
        free(sn);
        TILES_DESTROY(a, b, narrow);
    }
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    print_message("[fused_conv] %zu tfillpad_inplace / tfillpad_expand cases on 3 profiles, their rules\n", cases);
}

/* ---- programs ---- */

static void test_conv_programs(void **state) {
    (void)state;
    rng r = {0x9A9};
    static const char *const kNames[] = {"a", "b", "d", "t"};
    static const char *const kConv[] = {
        "pto.taddreluconv ins(%a, %b : !pto.tile_buf<vec, 3x20xf32>, !pto.tile_buf<vec, 3x20xf32>) "
        "outs(%d : !pto.tile_buf<vec, 3x20xf16>)\n",
        "pto.tsubreluconv ins(%a, %b : !pto.tile_buf<vec, 3x20xf32>, !pto.tile_buf<vec, 3x20xf32>) "
        "outs(%d : !pto.tile_buf<vec, 3x20xf16>)\n",
    };
    for (int op = CONV_ADD; op <= CONV_SUB; ++op) {
        pto_tile *a = tile_new(PTO_FLOAT32, 3, 20, 3, 20), *b = tile_new(PTO_FLOAT32, 3, 20, 3, 20);
        pto_tile *d = tile_new(PTO_FLOAT16, 3, 20, 3, 20), *want = tile_new(PTO_FLOAT16, 3, 20, 3, 20);
        tile_fill(a, &r, GEN_ANY);
        tile_fill(b, &r, GEN_ANY);
        assert_int_equal(conv_call((conv_op)op, want, a, b), PTO_OK);
        pto_tile *bound[] = {a, b, d};
        const pto_status st = run_program_bound(kConv[op], kNames, bound, 3, NULL, NULL, 0);
        if (st != PTO_OK) fail_msg("%s: %s (%s)", kConv[op], pto_status_string(st), pto_last_error());
        for (uint32_t k = 0; k < 60; ++k)
            if (tile_get(d, k / 20, k % 20) != tile_get(want, k / 20, k % 20)) fail_msg("element %u differs", k);
        TILES_DESTROY(a, b, d, want);
    }
    {
        static const char *const kDeq =
            "%s = arith.constant 0.0078125 : f32\n"
            "pto.tadddeqrelu ins(%a, %b, %s, %t : !pto.tile_buf<vec, 2x16xi32>, !pto.tile_buf<vec, 2x16xi32>, f32, "
            "!pto.tile_buf<vec, 2x16xi32>) outs(%d : !pto.tile_buf<vec, 2x16xf16>)\n";
        pto_tile *a = tile_new(PTO_INT32, 2, 16, 2, 16), *b = tile_new(PTO_INT32, 2, 16, 2, 16);
        pto_tile *t = tile_new(PTO_INT32, 2, 16, 2, 16), *d = tile_new(PTO_FLOAT16, 2, 16, 2, 16);
        pto_tile *want = tile_new(PTO_FLOAT16, 2, 16, 2, 16);
        tile_fill(a, &r, GEN_ANY);
        tile_fill(b, &r, GEN_ANY);
        assert_int_equal(pto_tadddeqrelu(want, a, b, t, 0.0078125), PTO_OK);
        pto_tile *bound[] = {a, b, d, t};
        const pto_status st = run_program_bound(kDeq, kNames, bound, 4, NULL, NULL, 0);
        if (st != PTO_OK) fail_msg("tadddeqrelu: %s (%s)", pto_status_string(st), pto_last_error());
        for (uint32_t k = 0; k < 32; ++k)
            if (tile_get(d, k / 16, k % 16) != tile_get(want, k / 16, k % 16)) fail_msg("deq element %u differs", k);
        TILES_DESTROY(a, b, t, d, want);
    }
    {
        static const char *const kFill[] = {
            "pto.tfillpad_expand ins(%a : !pto.tile_buf<vec, 2x8xf32, valid=1x3>) outs(%d : "
            "!pto.tile_buf<vec, 4x16xf32, pad=2>)\n",
            "pto.tfillpad ins(%a : !pto.tile_buf<vec, 2x8xf32, valid=1x3>) outs(%d : !pto.tile_buf<vec, 4x16xf32, "
            "pad=2>)\n",
        };
        pto_tile *a = tile_new(PTO_FLOAT32, 2, 8, 1, 3), *d = tile_new(PTO_FLOAT32, 4, 16, 4, 16);
        pto_tile *want = tile_new(PTO_FLOAT32, 4, 16, 4, 16);
        tile_fill(a, &r, GEN_ANY);
        assert_int_equal(pto_tfillpad_expand(want, a, PTO_PAD_MAX), PTO_OK);
        for (size_t f = 0; f < COUNT(kFill); ++f) {
            pto_tile *bound[] = {a, NULL, d};
            const pto_status st = run_program_bound(kFill[f], kNames, bound, 3, NULL, NULL, 0);
            if (st != PTO_OK) fail_msg("%s: %s (%s)", kFill[f], pto_status_string(st), pto_last_error());
            for (uint32_t k = 0; k < 64; ++k)
                if (tile_get(d, k / 16, k % 16) != tile_get(want, k / 16, k % 16)) fail_msg("fill element %u differs", k);
        }
        TILES_DESTROY(a, d, want);
    }
    expect_program_refused("pto.taddreluconv ins(%a, %b : !pto.tile_buf<vec, 3x20xf32>, !pto.tile_buf<vec, 3x20xf32>) "
                           "outs(%d : !pto.tile_buf<vec, 3x20xi8>)\n",
                           PTO_ERR_DTYPE_MISMATCH);
    expect_program_refused("pto.tfillpad_inplace ins(%a : !pto.tile_buf<vec, 2x8xf32, valid=1x3>) outs(%d : "
                           "!pto.tile_buf<vec, 2x8xf32, pad=1>)\n",
                           PTO_ERR_INVALID_ARGUMENT);
    print_message("[fused_conv] 5 text forms equal the C calls; 2 refused programs\n");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reluconv_values), cmocka_unit_test(test_adddeqrelu_values),
        cmocka_unit_test(test_conv_rules),      cmocka_unit_test(test_fillpad_modes),
        cmocka_unit_test(test_conv_programs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
