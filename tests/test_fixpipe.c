/* The fixpipe's conversions (TMOV_FP, TEXTRACT_FP, TINSERT_FP,
 * SET_QUANT_SCALAR, SET_QUANT_VECTOR) against references written here from
 * pto_c.h's definition (A5's modes, pto-isa's model of the arithmetic): the
 * 19-bit scale of a vector word, the FLOAT32 product, the offset, ties to
 * even and the clamp of the 8-bit forms, the FLOAT16 saturation; the
 * low-precision outputs through pto_tcvt under A5 (tested on its own).
 * Every profile's pairs, the scalar words A5 builds, and the rules in order
 * with nothing written on a refusal. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/harness.h"

#define M 16
#define N 32

static float f32_of(uint32_t b) {
    float f;
    memcpy(&f, &b, 4);
    return f;
}
static uint32_t bits_of(float f) {
    uint32_t b;
    memcpy(&b, &f, 4);
    return b;
}
static float mul32(float a, float b) {
    volatile float r = a * b;
    return r;
}

/* The scale of a word: bits 13..31 read as sign, 8 exponent bits and 10
 * fraction bits (a vector word), or the float of bits 0..31 (a scalar one). */
static float ref_scale(uint64_t w, bool vector) {
    if (!vector) return f32_of((uint32_t)w);
    const unsigned s = (unsigned)(w >> 31) & 1, e = (unsigned)(w >> 23) & 0xFF, m = (unsigned)(w >> 13) & 0x3FF;
    if (e == 0 && m == 0) return 0.0f;
    if (e == 255) return s ? -INFINITY : INFINITY;
    const double v = ldexp(1.0 + m / 1024.0, (int)e - 127);
    return (float)(s ? -v : v);
}

static int round_even(double d) {
    const double below = floor(d), frac = d - below;
    double r = below;
    if (frac > 0.5 || (frac == 0.5 && fmod(below, 2.0) != 0.0)) r = below + 1.0;
    return (int)r;
}

/* The 8-bit forms: rint(x + offset), clamped by bit 46's range, low byte. */
static uint8_t ref_eight(float x, uint64_t w) {
    volatile float sum = x + (float)((w >> 37) & 0x1FF);
    const bool sgn = (w >> 46) & 1;
    const double lo = sgn ? -128 : 0, hi = sgn ? 127 : 255;
    if (isnan(sum)) return 0;
    const double c = sum < lo ? lo : sum > hi ? hi : (double)sum;
    return (uint8_t)(round_even(c) & 0xFF);
}

/* FLOAT32 to FLOAT16 / BFLOAT16, to nearest even, from the bits. */
static uint16_t ref_f16(float x) { return (uint16_t)ref_from_double(PTO_FLOAT16, (double)x); }
/* A FLOAT16's value (exact in a float). */
static float f16_value(uint16_t h) { return (float)ref_to_double(PTO_FLOAT16, h); }
static uint16_t ref_bf16(float x) {
    const uint32_t b = bits_of(x);
    if (isnan(x)) return (uint16_t)((b >> 16) | 0x40);
    return (uint16_t)((b + 0x7FFF + ((b >> 16) & 1)) >> 16);
}

/* A5's tcvt of one FLOAT32 to HIFLOAT8 or FLOAT8_E4M3, saturating. */
static uint8_t ref_lowp(float x, pto_dtype dt) {
    const pto_profile was = pto_get_profile();
    assert_int_equal(pto_set_profile(PTO_PROFILE_A5), PTO_OK);
    pto_tile *s = tile_new(PTO_FLOAT32, 1, 8, 1, 1), *d = tile_new(dt, 1, 32, 1, 1);
    tile_put(s, 0, 0, bits_of(x));
    assert_int_equal(pto_tcvt(d, s, NULL, dt == PTO_HIFLOAT8 ? PTO_ROUND_ROUND : PTO_ROUND_RINT, PTO_SAT_ON), PTO_OK);
    const uint8_t out = (uint8_t)tile_get(d, 0, 0);
    TILES_DESTROY(s, d);
    assert_int_equal(pto_set_profile(was), PTO_OK);
    return out;
}

/* relu (pto_tmov_fp_ex's PTO_FIXPIPE_RELU): a value below zero becomes +0
 * once scaled (and clamped for FLOAT16), before the offset and rounding. */
/* The relu: a value below zero becomes +0; NaN and -0 are kept (decided
 * on the bits, so that no compiler rewrites it as a maximum, which would
 * turn -0 into +0). */
static float relu_of(float x, bool relu) {
    const uint32_t b = bits_of(x);
    const bool below_zero = (b >> 31) != 0 && (b & 0x7FFFFFFFu) != 0 && (b & 0x7FFFFFFFu) <= 0x7F800000u;
    return relu && below_zero ? 0.0f : x;
}

static uint64_t ref_convert_relu(pto_dtype sdt, uint32_t sbits, pto_dtype ddt, uint64_t w, bool vector,
                                 bool relu) {
    if (ddt == PTO_INT16) {
        const int32_t i = (int32_t)sbits;
        const int64_t sh = (int64_t)i / (1ll << (((w >> 32) & 0xF) + 1));
        const int64_t fl = (i < 0 && sh * (1ll << (((w >> 32) & 0xF) + 1)) != i) ? sh - 1 : sh;
        return (uint16_t)(int16_t)(relu && fl < 0 ? 0 : fl);
    }
    const float v = sdt == PTO_INT32 ? (float)(int32_t)sbits : f32_of(sbits);
    float x = mul32(v, ref_scale(w, vector));
    if (ddt == PTO_INT8 || ddt == PTO_UINT8) return ref_eight(relu_of(x, relu), w);
    if (ddt == PTO_FLOAT16) {
        if (!isnan(x) && (isfinite(x) || sdt == PTO_INT32)) x = x < -65504.0f ? -65504.0f : x > 65504.0f ? 65504.0f : x;
        return ref_f16(relu_of(x, relu));
    }
    x = relu_of(x, relu);
    if (ddt == PTO_BFLOAT16) return ref_bf16(x);
    return ref_lowp(x, ddt);
}

static uint64_t ref_convert(pto_dtype sdt, uint32_t sbits, pto_dtype ddt, uint64_t w, bool vector) {
    return ref_convert_relu(sdt, sbits, ddt, w, vector, false);
}

static pto_tile *cube(pto_dtype dt, uint32_t rows, uint32_t cols, pto_location loc, pto_layout layout) {
    pto_tile *t = NULL;
    assert_int_equal(pto_tile_create_cube(dt, rows, cols, loc, layout, &t), PTO_OK);
    return t;
}

/* An acc tile of src values: random, with edge values mixed in. */
static void fill_acc(pto_tile *acc, uint32_t *vals, rng *r) {
    static const float kEdges[] = {0.5f, 1.5f, -2.5f, 127.5f, -128.5f, 255.5f, 1e30f, -1e30f,
                                   65520.0f, -65519.0f, 0.0f, -0.0f, INFINITY, -INFINITY, NAN};
    const bool f = pto_tile_dtype(acc) == PTO_FLOAT32;
    for (size_t k = 0; k < M * N; ++k) {
        const uint64_t u = rng_next(r);
        if (f)
            vals[k] = k % 5 == 2 ? bits_of(kEdges[(k / 5) % 15])
                                 : bits_of((float)((double)(int32_t)(u >> 32) / (double)(1u << (u % 24))));
        else
            vals[k] = k % 7 == 3 ? (uint32_t)(k % 2 ? INT32_MIN : INT32_MAX) : (uint32_t)(u >> 32) >> (u % 31);
    }
    assert_int_equal(pto_tile_write(acc, vals, sizeof(uint32_t) * M * N), PTO_OK);
}

/* Words: scales of every exponent class, offsets, bit 46 both ways, shifts. */
static void fill_words(uint64_t *w, size_t n, rng *r) {
    for (size_t j = 0; j < n; ++j) {
        uint64_t u = rng_next(r);
        uint32_t e = 120 + (uint32_t)(u % 14);
        if (j % 11 == 5) e = 0;
        if (j % 13 == 7) e = 255;
        w[j] = ((u >> 8) & 1) << 31 | (uint64_t)e << 23 | ((u >> 16) & 0x7FFFFF);
        w[j] |= ((u >> 40) & 0xF) << 32 | (j % 3 ? ((u >> 44) & 0x1FF) << 37 : 0) | ((u >> 60) & 1) << 46;
    }
}

static const pto_dtype kDsts[] = {PTO_INT8, PTO_UINT8, PTO_FLOAT16, PTO_BFLOAT16, PTO_INT16, PTO_HIFLOAT8, PTO_FLOAT8_E4M3};

static bool pair_ok(pto_profile p, pto_dtype s, pto_dtype d) {
    const bool b8 = d == PTO_INT8 || d == PTO_UINT8;
    const bool a2 = s == PTO_FLOAT32 ? b8 : (b8 || d == PTO_FLOAT16 || d == PTO_INT16);
    const bool a5 = s == PTO_FLOAT32 ? (b8 || d == PTO_FLOAT16 || d == PTO_BFLOAT16 || d == PTO_HIFLOAT8 || d == PTO_FLOAT8_E4M3)
                                     : (b8 || d == PTO_FLOAT16 || d == PTO_BFLOAT16);
    return p == PTO_PROFILE_A2A3 ? a2 : p == PTO_PROFILE_A5 ? a5 : (a2 || a5);
}

/* TMOV_FP with a UINT64 scaling tile, every profile, pair and acc dtype;
 * and pto_tmov_fp_ex's PTO_FIXPIPE_RELU, the relu where the model puts it
 * (after the scale, before the rounding), changing some elements. */
static void test_tmov_fp_values(void **state) {
    (void)state;
    rng r = {0xF1};
    uint32_t vals[M * N];
    uint64_t words[N];
    for (int p = 0; p < 6; ++p) {
        const bool relu = p >= 3;
        const pto_profile profile = (pto_profile)(p % 3);
        assert_int_equal(pto_set_profile(profile), PTO_OK);
        for (int s = 0; s < 2; ++s) {
            const pto_dtype sdt = s ? PTO_INT32 : PTO_FLOAT32;
            pto_tile *acc = cube(sdt, M, N, PTO_LOC_ACC, PTO_LAYOUT_NZ);
            pto_tile *fp = cube(PTO_UINT64, 1, N, PTO_LOC_SCALING, PTO_LAYOUT_ND);
            fill_acc(acc, vals, &r);
            fill_words(words, N, &r);
            assert_int_equal(pto_tile_write(fp, words, sizeof words), PTO_OK);
            for (size_t k = 0; k < sizeof kDsts / sizeof kDsts[0]; ++k) {
                const pto_dtype ddt = kDsts[k];
                pto_tile *dst = profile == PTO_PROFILE_A2A3 ? cube(ddt, M, N, PTO_LOC_MAT, PTO_LAYOUT_ND)
                                                            : tile_new(ddt, M, N, M, N);
                const pto_status st = relu ? pto_tmov_fp_ex(dst, acc, fp, PTO_FIXPIPE_RELU) : pto_tmov_fp(dst, acc, fp);
                const bool ok = pair_ok(profile, sdt, ddt) && !(profile == PTO_PROFILE_A5 && ddt == PTO_INT16);
                if (!ok) {
                    expect_status(st, PTO_ERR_UNSUPPORTED_DTYPE, "a pair the profile lacks");
                    TILES_DESTROY(dst);
                    continue;
                }
                expect_status(st, PTO_OK, "tmov_fp");
                size_t zeroed = 0;
                for (uint32_t i = 0; i < M; ++i)
                    for (uint32_t j = 0; j < N; ++j) {
                        const uint64_t want = ref_convert_relu(sdt, vals[i * N + j], ddt, words[j], true, relu);
                        const uint64_t got = tile_get(dst, i, j);
                        zeroed += want != ref_convert(sdt, vals[i * N + j], ddt, words[j], true);
                        if (got != want)
                            fail_msg("%s %s -> %s relu %d (%u,%u): src 0x%08x word 0x%016llx: got 0x%llx, want 0x%llx",
                                     pto_profile_string(profile), pto_dtype_string(sdt), pto_dtype_string(ddt), relu,
                                     i, j, vals[i * N + j], (unsigned long long)words[j], (unsigned long long)got,
                                     (unsigned long long)want);
                    }
                assert_true(relu == (zeroed > 0)); /* the relu changes some elements */
                TILES_DESTROY(dst);
            }
            TILES_DESTROY(acc, fp);
        }
    }
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
}

/* TEXTRACT_FP's window and TINSERT_FP's place; column j of the window uses
 * word j. A5, FLOAT32 acc to INT8 and INT32 acc to FLOAT16. */
static void test_extract_insert_fp(void **state) {
    (void)state;
    rng r = {0xF2};
    uint32_t vals[M * N];
    uint64_t words[N];
    assert_int_equal(pto_set_profile(PTO_PROFILE_A5), PTO_OK);
    for (int s = 0; s < 2; ++s) {
        const pto_dtype sdt = s ? PTO_INT32 : PTO_FLOAT32, ddt = s ? PTO_FLOAT16 : PTO_INT8;
        pto_tile *acc = cube(sdt, M, N, PTO_LOC_ACC, PTO_LAYOUT_NZ);
        pto_tile *fp = cube(PTO_UINT64, 1, N, PTO_LOC_SCALING, PTO_LAYOUT_ND);
        fill_acc(acc, vals, &r);
        fill_words(words, N, &r);
        assert_int_equal(pto_tile_write(fp, words, sizeof words), PTO_OK);
        pto_tile *win = tile_new(ddt, 8, 16, 8, 16);
        expect_status(pto_textract_fp(win, acc, fp, 8, 16), PTO_OK, "textract_fp");
        for (uint32_t i = 0; i < 8; ++i)
            for (uint32_t j = 0; j < 16; ++j)
                assert_int_equal(tile_get(win, i, j), ref_convert(sdt, vals[(8 + i) * N + 16 + j], ddt, words[j], true));
        expect_status(pto_textract_fp(win, acc, fp, 9, 17), PTO_ERR_OUT_OF_RANGE, "window outside src");
        pto_tile *big = tile_new(ddt, 32, 64, 32, 64);
        rng f = {3};
        tile_fill(big, &f, GEN_ANY);
        uint64_t *before = tile_snapshot(big);
        expect_status(pto_tinsert_fp(big, acc, fp, 8, 16), PTO_OK, "tinsert_fp");
        for (uint32_t i = 0; i < 32; ++i)
            for (uint32_t j = 0; j < 64; ++j) {
                const bool in = i >= 8 && i < 8 + M && j >= 16 && j < 16 + N;
                const uint64_t want = in ? ref_convert(sdt, vals[(i - 8) * N + j - 16], ddt, words[j - 16], true)
                                         : before[i * 64 + j];
                assert_int_equal(tile_get(big, i, j), want);
            }
        free(before);
        before = tile_snapshot(big);
        expect_status(pto_tinsert_fp(big, acc, fp, 17, 0), PTO_ERR_OUT_OF_RANGE, "insert outside dst");
        assert_tile_unchanged(big, before, "refused tinsert_fp");
        free(before);
        TILES_DESTROY(acc, fp, win, big);
    }
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
}

/* A5's direct payload: a FLOAT16 scaling tile, dst = clip_f16(acc * fp) as
 * PTOAS's Movfp golden builds it; and an INT8 dst, signed from the tile. */
static void test_float_payload(void **state) {
    (void)state;
    assert_int_equal(pto_set_profile(PTO_PROFILE_A5), PTO_OK);
    pto_tile *acc = cube(PTO_INT32, M, N, PTO_LOC_ACC, PTO_LAYOUT_NZ);
    pto_tile *fp = cube(PTO_FLOAT16, 1, N, PTO_LOC_SCALING, PTO_LAYOUT_ND);
    int32_t a[M * N];
    uint16_t scale[N];
    for (int k = 0; k < M * N; ++k) a[k] = (k * 37 % 201) - 100 + (k % 9 == 0 ? 200000 : 0);
    for (int j = 0; j < N; ++j) scale[j] = ref_f16(0.5f + j * 0.03125f);
    assert_int_equal(pto_tile_write(acc, a, sizeof a), PTO_OK);
    assert_int_equal(pto_tile_write(fp, scale, sizeof scale), PTO_OK);
    pto_tile *h = tile_new(PTO_FLOAT16, M, N, M, N), *q = tile_new(PTO_INT8, M, N, M, N);
    expect_status(pto_tmov_fp(h, acc, fp), PTO_OK, "FLOAT16 payload");
    expect_status(pto_tmov_fp(q, acc, fp), PTO_OK, "FLOAT16 payload, INT8 dst");
    for (int i = 0; i < M; ++i)
        for (int j = 0; j < N; ++j) {
            float x = (float)a[i * N + j] * f16_value(scale[j]);
            x = x > 65504.0f ? 65504.0f : x < -65504.0f ? -65504.0f : x;
            assert_int_equal(tile_get(h, i, j), ref_f16(x));
            const double y = (double)(float)a[i * N + j] * (double)f16_value(scale[j]);
            const int want = y > 127 ? 127 : y < -128 ? -128 : round_even(y);
            assert_int_equal(tile_get(q, i, j), (uint8_t)(int8_t)want);
        }
    TILES_DESTROY(acc, fp, h, q);
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
}

/* fp NULL: the thread's configuration. The scalar word as A5 builds it (a
 * negative scale's bits widened as a signed integer), and a vector copied
 * when it is set. */
static void test_thread_config(void **state) {
    (void)state;
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    pto_tile *acc = cube(PTO_FLOAT32, M, N, PTO_LOC_ACC, PTO_LAYOUT_NZ);
    pto_tile *fp = cube(PTO_UINT64, 1, N, PTO_LOC_SCALING, PTO_LAYOUT_ND);
    pto_tile *dst = tile_new(PTO_INT8, M, N, M, N), *h = tile_new(PTO_FLOAT16, M, N, M, N);
    uint32_t vals[M * N];
    uint64_t words[N];
    rng r = {0xF3};
    fill_acc(acc, vals, &r);
    const float scales[] = {0.25f, -0.75f, 3.0f, 1e-40f};
    for (size_t k = 0; k < 4; ++k) {
        expect_status(pto_set_quant_scalar(scales[k], PTO_INT8), PTO_OK, "set_quant_scalar");
        int32_t sb;
        memcpy(&sb, &scales[k], 4);
        const uint64_t w = ((uint64_t)(int64_t)sb & ~(1ull << 46)) | 1ull << 46;
        expect_status(pto_tmov_fp(dst, acc, NULL), PTO_OK, "scalar word");
        for (int i = 0; i < M; ++i)
            for (int j = 0; j < N; ++j) assert_int_equal(tile_get(dst, i, j), ref_convert(PTO_FLOAT32, vals[i * N + j], PTO_INT8, w, false));
        expect_status(pto_set_quant_scalar(scales[k], PTO_FLOAT16), PTO_OK, "set_quant_scalar f16");
        expect_status(pto_tmov_fp(h, acc, NULL), PTO_OK, "scalar word, FLOAT16");
        for (int i = 0; i < M; ++i)
            for (int j = 0; j < N; ++j)
                assert_int_equal(tile_get(h, i, j), ref_convert(PTO_FLOAT32, vals[i * N + j], PTO_FLOAT16, (uint64_t)(int64_t)sb, false));
    }
    expect_status(pto_set_quant_scalar(1.0f, PTO_FLOAT32), PTO_ERR_UNSUPPORTED_DTYPE, "FLOAT32 output");
    /* the dtype list is the row's (src/settings.def), quoted; an int outside
     * the enum as its number */
    assert_non_null(strstr(pto_last_error(), "dtype FLOAT32 is none of INT8, UINT8, INT16, FLOAT16"));
    expect_status(pto_set_quant_scalar(1.0f, (pto_dtype)999), PTO_ERR_UNSUPPORTED_DTYPE, "dtype 999");
    assert_non_null(strstr(pto_last_error(), "dtype 999 is none of"));
    fill_words(words, N, &r);
    assert_int_equal(pto_tile_write(fp, words, sizeof words), PTO_OK);
    expect_status(pto_set_quant_vector(fp), PTO_OK, "set_quant_vector");
    uint64_t zero[N] = {0};
    assert_int_equal(pto_tile_write(fp, zero, sizeof zero), PTO_OK); /* not seen: copied */
    expect_status(pto_tmov_fp(dst, acc, NULL), PTO_OK, "vector config");
    for (int i = 0; i < M; ++i)
        for (int j = 0; j < N; ++j) assert_int_equal(tile_get(dst, i, j), ref_convert(PTO_FLOAT32, vals[i * N + j], PTO_INT8, words[j], true));
    TILES_DESTROY(acc, fp, dst, h);
}

/* The rules in order; a refusal writes nothing. */
static void test_fixpipe_rules(void **state) {
    (void)state;
    for (int p = 0; p < 3; ++p) {
        const pto_profile profile = (pto_profile)p;
        assert_int_equal(pto_set_profile(profile), PTO_OK);
        const bool a2a3 = profile == PTO_PROFILE_A2A3;
        pto_tile *acc = cube(PTO_INT32, M, N, PTO_LOC_ACC, PTO_LAYOUT_NZ);
        pto_tile *facc = cube(PTO_FLOAT16, M, N, PTO_LOC_ACC, PTO_LAYOUT_NZ);
        pto_tile *fp = cube(PTO_UINT64, 1, N, PTO_LOC_SCALING, PTO_LAYOUT_ND);
        pto_tile *narrow = cube(PTO_UINT64, 1, 16, PTO_LOC_SCALING, PTO_LAYOUT_ND);
        pto_tile *ffp = cube(PTO_FLOAT32, 1, N, PTO_LOC_SCALING, PTO_LAYOUT_ND);
        pto_tile *ifp = cube(PTO_INT32, 1, N, PTO_LOC_SCALING, PTO_LAYOUT_ND);
        pto_tile *vecfp = tile_new(PTO_UINT64, 1, N, 1, N), *matfp = cube(PTO_UINT64, 2, N, PTO_LOC_MAT, PTO_LAYOUT_ND);
        pto_tile *dst = a2a3 ? cube(PTO_INT8, M, N, PTO_LOC_MAT, PTO_LAYOUT_ND) : tile_new(PTO_INT8, M, N, M, N);
        pto_tile *vdst = tile_new(PTO_INT8, M, N, M, N), *f32 = tile_new(PTO_FLOAT32, M, N, M, N);
        pto_tile *big = tile_new(PTO_INT8, 32, N, 32, N), *vsrc = tile_new(PTO_INT32, M, N, M, N);
        rng r = {0x15};
        tile_fill(vdst, &r, GEN_ANY);
        if (!a2a3) tile_fill(dst, &r, GEN_ANY);
        uint64_t *kept = tile_snapshot(vdst), *kept_dst = a2a3 ? NULL : tile_snapshot(dst);
        expect_status(pto_tmov_fp(NULL, acc, fp), PTO_ERR_NULL_ARGUMENT, "NULL dst");
        expect_status(pto_tmov_fp(dst, NULL, fp), PTO_ERR_NULL_ARGUMENT, "NULL src");
        expect_status(pto_tmov_fp(f32, acc, fp), PTO_ERR_UNSUPPORTED_DTYPE, "FLOAT32 dst");
        expect_status(pto_tmov_fp(dst, vsrc, fp), PTO_ERR_INVALID_ARGUMENT, "vec src");
        assert_non_null(strstr(pto_last_error(), "the fixpipe moves an acc tile"));
        if (a2a3) {
            expect_status(pto_tmov_fp(vdst, acc, fp), PTO_ERR_INVALID_ARGUMENT, "A2A3 acc to vec");
            assert_non_null(strstr(pto_last_error(), "A2A3 moves an acc tile to mat only"));
        }
        expect_status(pto_tmov_fp(dst, facc, fp), PTO_ERR_UNSUPPORTED_DTYPE, "FLOAT16 acc");
        expect_status(pto_tmov_fp(dst, acc, vecfp), PTO_ERR_INVALID_ARGUMENT, "fp a vec tile");
        assert_non_null(strstr(pto_last_error(), "a scaling tile of one row"));
        expect_status(pto_tmov_fp(dst, acc, matfp), PTO_ERR_INVALID_ARGUMENT, "fp a mat tile of 2 rows");
        expect_status(pto_tmov_fp(dst, acc, ifp), PTO_ERR_UNSUPPORTED_DTYPE, "INT32 fp");
        expect_status(pto_tmov_fp(dst, acc, ffp), a2a3 ? PTO_ERR_UNSUPPORTED_DTYPE : PTO_OK, "FLOAT32 fp");
        if (!a2a3) {
            free(kept_dst);
            kept_dst = tile_snapshot(dst);
        }
        expect_status(pto_tmov_fp(dst, acc, narrow), PTO_ERR_SHAPE_MISMATCH, "fp too narrow");
        assert_non_null(strstr(pto_last_error(), "fp has 16 valid cols, fewer than the 32 columns"));
        pto_tile *big_mat = cube(PTO_INT8, 32, N, PTO_LOC_MAT, PTO_LAYOUT_ND);
        expect_status(pto_tmov_fp(a2a3 ? big_mat : big, acc, fp), PTO_ERR_SHAPE_MISMATCH, "dst larger than src");
        TILES_DESTROY(big_mat);
        assert_tile_unchanged(vdst, kept, "refused tmov_fp");
        if (kept_dst) assert_tile_unchanged(dst, kept_dst, "refused tmov_fp");
        free(kept), free(kept_dst);
        TILES_DESTROY(acc, facc, fp, narrow, ffp, ifp, vecfp, matfp, dst, vdst, f32, big, vsrc);
    }
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    /* set_quant_vector's rules, and a thread with no configuration */
    expect_status(pto_set_quant_vector(NULL), PTO_ERR_NULL_ARGUMENT, "NULL fp");
    pto_tile *vecfp = tile_new(PTO_UINT64, 1, N, 1, N), *i32 = cube(PTO_INT32, 1, N, PTO_LOC_SCALING, PTO_LAYOUT_ND);
    expect_status(pto_set_quant_vector(vecfp), PTO_ERR_INVALID_ARGUMENT, "vec fp");
    expect_status(pto_set_quant_vector(i32), PTO_ERR_UNSUPPORTED_DTYPE, "INT32 fp");
    pto_tile *bad = NULL;
    expect_status(pto_tile_create_cube(PTO_UINT64, 2, N, PTO_LOC_SCALING, PTO_LAYOUT_ND, &bad), PTO_ERR_INVALID_ARGUMENT,
                  "a scaling tile of 2 rows");
    TILES_DESTROY(vecfp, i32);
}

static void *fresh_thread(void *arg) {
    pto_tile *acc = cube(PTO_FLOAT32, M, N, PTO_LOC_ACC, PTO_LAYOUT_NZ);
    pto_tile *dst = tile_new(PTO_FLOAT16, M, N, M, N);
    *(pto_status *)arg = pto_tmov_fp(dst, acc, NULL);
    TILES_DESTROY(acc, dst);
    return NULL;
}

/* A thread starts with no configuration. */
static void test_config_per_thread(void **state) {
    (void)state;
    skip_under_qemu("fixpipe config per thread", "a dynamically linked program that starts a thread can hang under qemu-user");
    assert_int_equal(pto_set_quant_scalar(1.0f, PTO_INT8), PTO_OK);
    pto_status got = PTO_OK;
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, fresh_thread, &got), 0);
    assert_int_equal(pthread_join(t, NULL), 0);
    assert_int_equal(got, PTO_ERR_INVALID_ARGUMENT);
}

/* ---- programs ---- */

#define T_MAT_L "!pto.tile_buf<loc=mat, dtype=i8, rows=16, cols=32, v_row=16, v_col=32, blayout=col_major, slayout=row_major, fractal=512, pad=0>"
#define T_LEFT "!pto.tile_buf<loc=left, dtype=i8, rows=16, cols=32, v_row=16, v_col=32, blayout=col_major, slayout=row_major, fractal=512, pad=0>"
#define T_MAT_R "!pto.tile_buf<loc=mat, dtype=i8, rows=32, cols=32, v_row=32, v_col=32, blayout=col_major, slayout=row_major, fractal=512, pad=0>"
#define T_RIGHT "!pto.tile_buf<loc=right, dtype=i8, rows=32, cols=32, v_row=32, v_col=32, blayout=row_major, slayout=col_major, fractal=512, pad=0>"
#define T_ACC "!pto.tile_buf<loc=acc, dtype=i32, rows=16, cols=32, v_row=16, v_col=32, blayout=col_major, slayout=row_major, fractal=1024, pad=0>"
#define T_FP "!pto.tile_buf<loc=scaling, dtype=f16, rows=1, cols=32, v_row=1, v_col=32, blayout=row_major, slayout=none_box, fractal=512, pad=0>"
#define T_H "!pto.tile_buf<loc=vec, dtype=f16, rows=16, cols=32, v_row=16, v_col=32, blayout=row_major, slayout=none_box, fractal=512, pad=0>"
#define T_W "!pto.tile_buf<loc=vec, dtype=f16, rows=16, cols=16, v_row=16, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>"
#define T_Q "!pto.tile_buf<loc=vec, dtype=i8, rows=16, cols=32, v_row=16, v_col=32, blayout=row_major, slayout=none_box, fractal=512, pad=0>"

/* A5: an INT8 matrix multiply's acc pushed through two pipes, one
 * dequantising by a FLOAT16 scaling tile's columns (deqf16_vec), one
 * requantising by a scalar (req8_scalar), the cube's state by pipe id. */
static void program_text(char *text, size_t n, const char *epilogue0, const char *set_quant) {
    snprintf(text, n,
             "module attributes {pto.target_arch = \"a5\"} {\n"
             "func.func @k(%%a: !pto.ptr<i8>, %%b: !pto.ptr<i8>, %%f: !pto.ptr<f16>, %%s: f32, %%o0: !pto.ptr<f16>, %%o1: !pto.ptr<i8>) attributes {pto.entry} {\n"
             "  %%c0 = arith.constant 0 : index\n  %%c1 = arith.constant 1 : index\n"
             "  %%c16 = arith.constant 16 : index\n  %%c32 = arith.constant 32 : index\n"
             "  pto.section.cube {\n"
             "    pto.aic_initialize_pipe {id = 0, dir_mask = 1, slot_size = 1024, slot_num = 2, nosplit = true, acc_push_epilogue = #pto.acc_push_epilogue<%s>}\n"
             "    pto.aic_initialize_pipe {id = 1, dir_mask = 1, slot_size = 512, slot_num = 2, nosplit = true, acc_push_epilogue = #pto.acc_push_epilogue<layout = nz2nd, quant = req8_scalar, relu = no_relu>}\n"
             "    %%va = pto.make_tensor_view %%a, shape = [%%c16, %%c32], strides = [%%c32, %%c1] : !pto.tensor_view<16x32xi8>\n"
             "    %%vb = pto.make_tensor_view %%b, shape = [%%c32, %%c32], strides = [%%c32, %%c1] : !pto.tensor_view<32x32xi8>\n"
             "    %%vf = pto.make_tensor_view %%f, shape = [%%c1, %%c32], strides = [%%c32, %%c1] : !pto.tensor_view<1x32xf16>\n"
             "    %%pa = pto.partition_view %%va, offsets = [%%c0, %%c0], sizes = [%%c16, %%c32] : !pto.tensor_view<16x32xi8> -> !pto.partition_tensor_view<16x32xi8>\n"
             "    %%pb = pto.partition_view %%vb, offsets = [%%c0, %%c0], sizes = [%%c32, %%c32] : !pto.tensor_view<32x32xi8> -> !pto.partition_tensor_view<32x32xi8>\n"
             "    %%pf = pto.partition_view %%vf, offsets = [%%c0, %%c0], sizes = [%%c1, %%c32] : !pto.tensor_view<1x32xf16> -> !pto.partition_tensor_view<1x32xf16>\n"
             "    %%ma = pto.alloc_tile : " T_MAT_L "\n    %%mb = pto.alloc_tile : " T_MAT_R "\n"
             "    %%l = pto.alloc_tile : " T_LEFT "\n    %%r = pto.alloc_tile : " T_RIGHT "\n"
             "    %%fp = pto.alloc_tile : " T_FP "\n    %%acc = pto.alloc_tile : " T_ACC "\n"
             "    pto.tload ins(%%pa : !pto.partition_tensor_view<16x32xi8>) outs(%%ma : " T_MAT_L ")\n"
             "    pto.tload ins(%%pb : !pto.partition_tensor_view<32x32xi8>) outs(%%mb : " T_MAT_R ")\n"
             "    pto.tload ins(%%pf : !pto.partition_tensor_view<1x32xf16>) outs(%%fp : " T_FP ")\n"
             "    pto.tmov ins(%%ma : " T_MAT_L ") outs(%%l : " T_LEFT ")\n"
             "    pto.tmov ins(%%mb : " T_MAT_R ") outs(%%r : " T_RIGHT ")\n"
             "    pto.tmatmul ins(%%l, %%r : " T_LEFT ", " T_RIGHT ") outs(%%acc : " T_ACC ")\n"
             "%s"
             "    pto.tpush_to_aiv(%%acc : " T_ACC ") {id = 0, split = 0}\n"
             "    pto.tpush_to_aiv(%%acc : " T_ACC ") {id = 1, split = 0}\n"
             "  }\n"
             "  pto.section.vector {\n"
             "    pto.aiv_initialize_pipe {id = 0, dir_mask = 1, slot_size = 1024, slot_num = 2, nosplit = true, acc_push_epilogue = #pto.acc_push_epilogue<%s>}\n"
             "    pto.aiv_initialize_pipe {id = 1, dir_mask = 1, slot_size = 512, slot_num = 2, nosplit = true, acc_push_epilogue = #pto.acc_push_epilogue<layout = nz2nd, quant = req8_scalar, relu = no_relu>}\n"
             "    %%v0 = pto.make_tensor_view %%o0, shape = [%%c16, %%c32], strides = [%%c32, %%c1] : !pto.tensor_view<16x32xf16>\n"
             "    %%v1 = pto.make_tensor_view %%o1, shape = [%%c16, %%c32], strides = [%%c32, %%c1] : !pto.tensor_view<16x32xi8>\n"
             "    %%p0 = pto.partition_view %%v0, offsets = [%%c0, %%c0], sizes = [%%c16, %%c32] : !pto.tensor_view<16x32xf16> -> !pto.partition_tensor_view<16x32xf16>\n"
             "    %%p1 = pto.partition_view %%v1, offsets = [%%c0, %%c0], sizes = [%%c16, %%c32] : !pto.tensor_view<16x32xi8> -> !pto.partition_tensor_view<16x32xi8>\n"
             "    %%h = pto.tpop_from_aic {id = 0, split = 0} -> " T_H "\n"
             "    pto.tstore ins(%%h : " T_H ") outs(%%p0 : !pto.partition_tensor_view<16x32xf16>)\n"
             "    pto.tfree_from_aic {id = 0, split = 0}\n"
             "    %%q = pto.tpop_from_aic {id = 1, split = 0} -> " T_Q "\n"
             "    pto.tstore ins(%%q : " T_Q ") outs(%%p1 : !pto.partition_tensor_view<16x32xi8>)\n"
             "    pto.tfree_from_aic {id = 1, split = 0}\n"
             "  }\n"
             "  return\n"
             "}\n"
             "}\n",
             epilogue0, set_quant, epilogue0);
}

#define EPI_DEQ "layout = nz2nd, quant = deqf16_vec, relu = no_relu"
#define SET_BOTH                                                                                   \
    "    pto.set_quant_vector(%fp : " T_FP ") {id = 0}\n"                                         \
    "    pto.set_quant_scalar(%s : f32) {id = 1}\n"

static void test_program_pipes(void **state) {
    (void)state;
    static char text[16384];
    program_text(text, sizeof text, EPI_DEQ, SET_BOTH);
    pto_program *p = program_build(text, NULL);
    int8_t a[16 * 32], b[32 * 32], q[16 * 32];
    uint16_t f[32], h[16 * 32];
    for (int k = 0; k < 16 * 32; ++k) a[k] = (int8_t)((k * 7) % 9 - 4);
    for (int k = 0; k < 32 * 32; ++k) b[k] = (int8_t)((k * 5) % 7 - 3);
    for (int j = 0; j < 32; ++j) f[j] = ref_f16(0.5f + j * 0.03125f);
    const float s = 0.375f;
    pto_args *args = NULL;
    assert_int_equal(pto_args_create(p, &args), PTO_OK);
    assert_int_equal(pto_args_set_pointer(args, 0, a, sizeof a), PTO_OK);
    assert_int_equal(pto_args_set_pointer(args, 1, b, sizeof b), PTO_OK);
    assert_int_equal(pto_args_set_pointer(args, 2, f, sizeof f), PTO_OK);
    assert_int_equal(pto_args_set_float(args, 3, s), PTO_OK);
    assert_int_equal(pto_args_set_pointer(args, 4, h, sizeof h), PTO_OK);
    assert_int_equal(pto_args_set_pointer(args, 5, q, sizeof q), PTO_OK);
    if (pto_program_launch(p, 1, args) != PTO_OK) fail_msg("run: %s", pto_last_error());
    int32_t sb;
    memcpy(&sb, &s, 4);
    for (int i = 0; i < 16; ++i)
        for (int j = 0; j < 32; ++j) {
            int32_t acc = 0;
            for (int k = 0; k < 32; ++k) acc += a[i * 32 + k] * b[k * 32 + j];
            uint16_t hb;
            memcpy(&hb, &h[i * 32 + j], 2);
            uint32_t fb;
            const float fv = f16_value(f[j]);
            memcpy(&fb, &fv, 4);
            assert_int_equal(hb, ref_convert(PTO_INT32, (uint32_t)acc, PTO_FLOAT16, fb, true));
            const uint64_t w = ((uint64_t)(int64_t)sb & ~(1ull << 46)) | 1ull << 46;
            assert_int_equal((uint8_t)q[i * 32 + j], ref_convert(PTO_INT32, (uint32_t)acc, PTO_INT8, w, false));
        }
    pto_args_destroy(args);
    pto_program_destroy(p);
}

/* A program's rules: each refused with its sentence. */
static void test_program_rules(void **state) {
    (void)state;
    static char text[16384];
    static const struct {
        const char *epilogue, *set_quant, *want;
    } kCases[] = {
        {"layout = nz2nz, quant = deqf16_vec, relu = no_relu", SET_BOTH, "gives NZ tiles, not ND ones"},
        {"layout = nz2nd, quant = deqf99, relu = no_relu", SET_BOTH, "quant = deqf99 is not one of PTOAS's"},
        {"layout = nz2nd, quant = qf322b8_pre_vec, relu = no_relu", SET_BOTH, "converts f32 acc tiles, not i32"},
        {EPI_DEQ, "    pto.set_quant_vector(%acc : " T_ACC ") {id = 0}\n", "takes a scaling tile of one row"},
        {EPI_DEQ, "    pto.set_quant_scalar(%c0 : index) {id = 1}\n", "takes an f32 scale"},
    };
    for (size_t k = 0; k < sizeof kCases / sizeof kCases[0]; ++k) {
        program_text(text, sizeof text, kCases[k].epilogue, kCases[k].set_quant);
        pto_program *p = NULL;
        assert_int_not_equal(pto_program_create(text, strlen(text), "fixpipe.pto", &p), PTO_OK);
        if (strstr(pto_last_error(), kCases[k].want) == NULL)
            fail_msg("case %zu: %s\nexpected: %s", k, pto_last_error(), kCases[k].want);
    }
    /* a push without its pto.set_quant_* before it */
    program_text(text, sizeof text, EPI_DEQ, "");
    pto_program *p = NULL;
    assert_int_not_equal(pto_program_create(text, strlen(text), "fixpipe.pto", &p), PTO_OK);
    assert_non_null(strstr(pto_last_error(), "expects a preceding pto.set_quant_vector with id = 0"));
    program_text(text, sizeof text, EPI_DEQ, "    pto.set_quant_vector(%fp : " T_FP ") {id = 0}\n");
    assert_int_not_equal(pto_program_create(text, strlen(text), "fixpipe.pto", &p), PTO_OK);
    assert_non_null(strstr(pto_last_error(), "expects a preceding pto.set_quant_scalar with id = 1"));
}

#define T_I32 "!pto.tile_buf<loc=vec, dtype=i32, rows=16, cols=32, v_row=16, v_col=32, blayout=row_major, slayout=none_box, fractal=512, pad=0>"
#define T_I32_NZ "!pto.tile_buf<loc=vec, dtype=i32, rows=16, cols=32, v_row=16, v_col=32, blayout=col_major, slayout=row_major, fractal=512, pad=0>"
#define T_I32_DN "!pto.tile_buf<loc=vec, dtype=i32, rows=16, cols=32, v_row=16, v_col=32, blayout=col_major, slayout=none_box, fractal=512, pad=0>"

/* An INT32 acc pushed through a pipe whose epilogue (epi) does not
 * quantise, popped as the vec tile type pop and, with store, stored (a
 * boxed vec tile is taken by the pipes and tmov only: not stored). */
static void relu_text(char *text, size_t n, const char *epi, const char *pop, bool store) {
    snprintf(text, n,
             "module attributes {pto.target_arch = \"a5\"} {\n"
             "func.func @k(%%a: !pto.ptr<i8>, %%b: !pto.ptr<i8>, %%o: !pto.ptr<i32>) attributes {pto.entry} {\n"
             "  %%c0 = arith.constant 0 : index\n  %%c1 = arith.constant 1 : index\n"
             "  %%c16 = arith.constant 16 : index\n  %%c32 = arith.constant 32 : index\n"
             "  pto.section.cube {\n"
             "    pto.aic_initialize_pipe {id = 0, dir_mask = 1, slot_size = 2048, slot_num = 2, nosplit = true, acc_push_epilogue = #pto.acc_push_epilogue<%s>}\n"
             "    %%va = pto.make_tensor_view %%a, shape = [%%c16, %%c32], strides = [%%c32, %%c1] : !pto.tensor_view<16x32xi8>\n"
             "    %%vb = pto.make_tensor_view %%b, shape = [%%c32, %%c32], strides = [%%c32, %%c1] : !pto.tensor_view<32x32xi8>\n"
             "    %%ma = pto.alloc_tile : " T_MAT_L "\n    %%mb = pto.alloc_tile : " T_MAT_R "\n"
             "    %%l = pto.alloc_tile : " T_LEFT "\n    %%r = pto.alloc_tile : " T_RIGHT "\n"
             "    %%acc = pto.alloc_tile : " T_ACC "\n"
             "    pto.tload ins(%%va : !pto.tensor_view<16x32xi8>) outs(%%ma : " T_MAT_L ")\n"
             "    pto.tload ins(%%vb : !pto.tensor_view<32x32xi8>) outs(%%mb : " T_MAT_R ")\n"
             "    pto.tmov ins(%%ma : " T_MAT_L ") outs(%%l : " T_LEFT ")\n"
             "    pto.tmov ins(%%mb : " T_MAT_R ") outs(%%r : " T_RIGHT ")\n"
             "    pto.tmatmul ins(%%l, %%r : " T_LEFT ", " T_RIGHT ") outs(%%acc : " T_ACC ")\n"
             "    pto.tpush_to_aiv(%%acc : " T_ACC ") {id = 0, split = 0}\n"
             "  }\n"
             "  pto.section.vector {\n"
             "    pto.aiv_initialize_pipe {id = 0, dir_mask = 1, slot_size = 2048, slot_num = 2, nosplit = true, acc_push_epilogue = #pto.acc_push_epilogue<%s>}\n"
             "    %%v = pto.make_tensor_view %%o, shape = [%%c16, %%c32], strides = [%%c32, %%c1] : !pto.tensor_view<16x32xi32>\n"
             "    %%h = pto.tpop_from_aic {id = 0, split = 0} -> %s\n"
             "%s%s%s"
             "    pto.tfree_from_aic {id = 0, split = 0}\n"
             "  }\n"
             "  return\n"
             "}\n"
             "}\n",
             epi, epi, pop, store ? "    pto.tstore ins(%h : " : "", store ? pop : "",
             store ? ") outs(%v : !pto.tensor_view<16x32xi32>)\n" : "");
}

/* acc_push_epilogue's relu without a quantisation (no_convert: negatives
 * become 0, the dtype kept) and its layouts nz2nd, nz2nz (the consumer's
 * tile layout; the elements the same); a consumer of another layout is
 * refused with its sentence. */
static void test_program_relu_layouts(void **state) {
    (void)state;
    static char text[16384];
    int8_t a[16 * 32], b[32 * 32];
    for (int k = 0; k < 16 * 32; ++k) a[k] = (int8_t)((k * 7) % 9 - 4);
    for (int k = 0; k < 32 * 32; ++k) b[k] = (int8_t)((k * 5) % 7 - 3);
    static const struct {
        const char *epi, *pop;
        bool relu;
    } kRuns[] = {
        {"layout = nz2nd, quant = no_convert, relu = normal_relu", T_I32, true},
        {"layout = nz2nd, quant = no_convert, relu = no_relu", T_I32, false},
    };
    int negatives = 0;
    for (size_t r = 0; r < sizeof kRuns / sizeof kRuns[0]; ++r) {
        relu_text(text, sizeof text, kRuns[r].epi, kRuns[r].pop, true);
        pto_program *p = program_build(text, NULL);
        int32_t o[16 * 32];
        memset(o, 0x5a, sizeof o);
        pto_args *args = NULL;
        assert_int_equal(pto_args_create(p, &args), PTO_OK);
        assert_int_equal(pto_args_set_pointer(args, 0, a, sizeof a), PTO_OK);
        assert_int_equal(pto_args_set_pointer(args, 1, b, sizeof b), PTO_OK);
        assert_int_equal(pto_args_set_pointer(args, 2, o, sizeof o), PTO_OK);
        if (pto_program_launch(p, 1, args) != PTO_OK) fail_msg("run %zu: %s", r, pto_last_error());
        for (int i = 0; i < 16; ++i)
            for (int j = 0; j < 32; ++j) {
                int32_t acc = 0;
                for (int k = 0; k < 32; ++k) acc += a[i * 32 + k] * b[k * 32 + j];
                negatives += acc < 0;
                assert_int_equal(o[i * 32 + j], kRuns[r].relu && acc < 0 ? 0 : acc);
            }
        pto_args_destroy(args);
        pto_program_destroy(p);
    }
    assert_true(negatives > 0); /* the data reach relu's clamp */
    /* nz2nz: an NZ consumer tile; the program builds and runs */
    relu_text(text, sizeof text, "layout = nz2nz, quant = no_convert, relu = normal_relu", T_I32_NZ,
              false);
    pto_program *pz = program_build(text, NULL);
    int32_t unused[16 * 32];
    pto_args *az = NULL;
    assert_int_equal(pto_args_create(pz, &az), PTO_OK);
    assert_int_equal(pto_args_set_pointer(az, 0, a, sizeof a), PTO_OK);
    assert_int_equal(pto_args_set_pointer(az, 1, b, sizeof b), PTO_OK);
    assert_int_equal(pto_args_set_pointer(az, 2, unused, sizeof unused), PTO_OK);
    if (pto_program_launch(pz, 1, az) != PTO_OK) fail_msg("nz2nz: %s", pto_last_error());
    pto_args_destroy(az);
    pto_program_destroy(pz);
    static const struct {
        const char *epi, *pop, *want;
    } kRefused[] = {
        {"layout = nz2dn, quant = no_convert, relu = no_relu", T_I32, "gives DN tiles, not ND ones"},
        {"layout = nz2dn, quant = no_convert, relu = no_relu", T_I32_DN, "blayout=col_major is supported for tiles of one column or one row"},
        {"layout = nz2nd, quant = no_convert, relu = no_relu", T_I32_NZ, "gives ND tiles, not NZ ones"},
        {"layout = nd2nz, quant = no_convert, relu = no_relu", T_I32, "is not one of nz2nd, nz2dn, nz2nz"},
    };
    for (size_t k = 0; k < sizeof kRefused / sizeof kRefused[0]; ++k) {
        relu_text(text, sizeof text, kRefused[k].epi, kRefused[k].pop, false);
        pto_program *p = NULL;
        assert_int_not_equal(pto_program_create(text, strlen(text), "relu.pto", &p), PTO_OK);
        assert_null(p);
        if (strstr(pto_last_error(), kRefused[k].want) == NULL)
            fail_msg("case %zu: %s\nexpected: %s", k, pto_last_error(), kRefused[k].want);
    }
}

/* The int8 a x b product into %acc and fp's words into %fp, from the views
 * %va, %vb, %vf (the TSTORE_FP and reluPreMode programs). */
#define FP_MATMUL \
        "  %ma = pto.alloc_tile : " T_MAT_L "\n  %mb = pto.alloc_tile : " T_MAT_R "\n" \
        "  %l = pto.alloc_tile : " T_LEFT "\n  %r = pto.alloc_tile : " T_RIGHT "\n" \
        "  %fp = pto.alloc_tile : " T_FP "\n  %acc = pto.alloc_tile : " T_ACC "\n" \
        "  pto.tload ins(%va : !pto.tensor_view<16x32xi8>) outs(%ma : " T_MAT_L ")\n" \
        "  pto.tload ins(%vb : !pto.tensor_view<32x32xi8>) outs(%mb : " T_MAT_R ")\n" \
        "  pto.tload ins(%vf : !pto.tensor_view<1x32xf16>) outs(%fp : " T_FP ")\n" \
        "  pto.tmov ins(%ma : " T_MAT_L ") outs(%l : " T_LEFT ")\n" \
        "  pto.tmov ins(%mb : " T_MAT_R ") outs(%r : " T_RIGHT ")\n" \
        "  pto.tmatmul ins(%l, %r : " T_LEFT ", " T_RIGHT ") outs(%acc : " T_ACC ")\n"

/* TSTORE_FP: pto.tstore ins(%acc : T fp %fp : F) outs(%view : V), an INT32
 * acc dequantised to FLOAT16 by a FLOAT16 scaling tile (A5); PTOAS's fp
 * operand of tmov (the same bits) and textract (a window: column j of the
 * window takes word j). */
static void test_program_tstore_fp(void **state) {
    (void)state;
    static const char *text =
        "module attributes {pto.target_arch = \"a5\"} {\n"
        "func.func @k(%a: !pto.ptr<i8>, %b: !pto.ptr<i8>, %f: !pto.ptr<f16>, %o: !pto.ptr<f16>, %m: !pto.ptr<f16>, %x: !pto.ptr<f16>) attributes {pto.entry} {\n"
        "  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n"
        "  %c16 = arith.constant 16 : index\n  %c32 = arith.constant 32 : index\n"
        "  %va = pto.make_tensor_view %a, shape = [%c16, %c32], strides = [%c32, %c1] : !pto.tensor_view<16x32xi8>\n"
        "  %vb = pto.make_tensor_view %b, shape = [%c32, %c32], strides = [%c32, %c1] : !pto.tensor_view<32x32xi8>\n"
        "  %vf = pto.make_tensor_view %f, shape = [%c1, %c32], strides = [%c32, %c1] : !pto.tensor_view<1x32xf16>\n"
        "  %vo = pto.make_tensor_view %o, shape = [%c16, %c32], strides = [%c32, %c1] : !pto.tensor_view<16x32xf16>\n"
        "  %vm = pto.make_tensor_view %m, shape = [%c16, %c32], strides = [%c32, %c1] : !pto.tensor_view<16x32xf16>\n"
        "  %vx = pto.make_tensor_view %x, shape = [%c16, %c16], strides = [%c16, %c1] : !pto.tensor_view<16x16xf16>\n"
        FP_MATMUL
        "  pto.tstore ins(%acc : " T_ACC " fp %fp : " T_FP ") outs(%vo : !pto.tensor_view<16x32xf16>)\n"
        "  %h = pto.alloc_tile : " T_H "\n"
        "  pto.tmov ins(%acc : " T_ACC ", %fp : " T_FP ") outs(%h : " T_H ")\n"
        "  pto.tstore ins(%h : " T_H ") outs(%vm : !pto.tensor_view<16x32xf16>)\n"
        "  %w = pto.alloc_tile : " T_W "\n"
        "  pto.textract ins(%acc, %c0, %c16 : " T_ACC ", index, index fp %fp : " T_FP ") outs(%w : " T_W ")\n"
        "  pto.tstore ins(%w : " T_W ") outs(%vx : !pto.tensor_view<16x16xf16>)\n"
        "  return\n"
        "}\n"
        "}\n";
    pto_program *p = program_build(text, NULL);
    int8_t a[16 * 32], b[32 * 32];
    uint16_t f[32], h[16 * 32], hm[16 * 32], hx[16 * 16];
    for (int k = 0; k < 16 * 32; ++k) a[k] = (int8_t)((k * 11) % 15 - 7);
    for (int k = 0; k < 32 * 32; ++k) b[k] = (int8_t)((k * 3) % 13 - 6);
    for (int j = 0; j < 32; ++j) f[j] = ref_f16(j % 2 ? 1000.0f + j : 0.0078125f * (j + 1));
    pto_args *args = NULL;
    assert_int_equal(pto_args_create(p, &args), PTO_OK);
    assert_int_equal(pto_args_set_pointer(args, 0, a, sizeof a), PTO_OK);
    assert_int_equal(pto_args_set_pointer(args, 1, b, sizeof b), PTO_OK);
    assert_int_equal(pto_args_set_pointer(args, 2, f, sizeof f), PTO_OK);
    assert_int_equal(pto_args_set_pointer(args, 3, h, sizeof h), PTO_OK);
    assert_int_equal(pto_args_set_pointer(args, 4, hm, sizeof hm), PTO_OK);
    assert_int_equal(pto_args_set_pointer(args, 5, hx, sizeof hx), PTO_OK);
    if (pto_program_launch(p, 1, args) != PTO_OK) fail_msg("run: %s", pto_last_error());
    assert_memory_equal(hm, h, sizeof h); /* tmov with fp: tstore's bits */
    for (int i = 0; i < 16; ++i) /* textract's window from column 16 takes words 0..15 */
        for (int j = 0; j < 16; ++j) {
            int32_t acc = 0;
            for (int k = 0; k < 32; ++k) acc += a[i * 32 + k] * b[k * 32 + 16 + j];
            const float fv = f16_value(f[j]);
            uint32_t fb;
            memcpy(&fb, &fv, 4);
            uint16_t hb;
            memcpy(&hb, &hx[i * 16 + j], 2);
            assert_int_equal(hb, ref_convert(PTO_INT32, (uint32_t)acc, PTO_FLOAT16, fb, true));
        }
    for (int i = 0; i < 16; ++i)
        for (int j = 0; j < 32; ++j) {
            int32_t acc = 0;
            for (int k = 0; k < 32; ++k) acc += a[i * 32 + k] * b[k * 32 + j];
            const float fv = f16_value(f[j]);
            uint32_t fb;
            memcpy(&fb, &fv, 4);
            uint16_t hb;
            memcpy(&hb, &h[i * 32 + j], 2);
            assert_int_equal(hb, ref_convert(PTO_INT32, (uint32_t)acc, PTO_FLOAT16, fb, true));
        }
    pto_args_destroy(args);
    pto_program_destroy(p);
}

/* pto.tstore's reluPreMode = normal_relu (TSTORE's ReluPreMode::NormalRelu):
 * an INT32 acc (int8 a x b, both signs) stored through fp's words to f16
 * with the relu after the scale, and stored as it is to i32 with negative
 * values +0; the attribute on a vec tile is refused naming the rule. */
static void test_program_tstore_relu(void **state) {
    (void)state;
    static const char *head =
        "module attributes {pto.target_arch = \"a5\"} {\n"
        "func.func @k(%a: !pto.ptr<i8>, %b: !pto.ptr<i8>, %f: !pto.ptr<f16>, %o: !pto.ptr<f16>, %q: !pto.ptr<i32>) attributes {pto.entry} {\n"
        "  %c1 = arith.constant 1 : index\n  %c16 = arith.constant 16 : index\n  %c32 = arith.constant 32 : index\n"
        "  %va = pto.make_tensor_view %a, shape = [%c16, %c32], strides = [%c32, %c1] : !pto.tensor_view<16x32xi8>\n"
        "  %vb = pto.make_tensor_view %b, shape = [%c32, %c32], strides = [%c32, %c1] : !pto.tensor_view<32x32xi8>\n"
        "  %vf = pto.make_tensor_view %f, shape = [%c1, %c32], strides = [%c32, %c1] : !pto.tensor_view<1x32xf16>\n"
        "  %vo = pto.make_tensor_view %o, shape = [%c16, %c32], strides = [%c32, %c1] : !pto.tensor_view<16x32xf16>\n"
        "  %vq = pto.make_tensor_view %q, shape = [%c16, %c32], strides = [%c32, %c1] : !pto.tensor_view<16x32xi32>\n"
        FP_MATMUL;
    static const char *relu = " {reluPreMode = #pto<relu_pre_mode normal_relu>}\n";
    char text[8192];
    snprintf(text, sizeof text,
             "%s  pto.tstore ins(%%acc : " T_ACC " fp %%fp : " T_FP ") outs(%%vo : !pto.tensor_view<16x32xf16>)%s"
             "  pto.tstore ins(%%acc : " T_ACC ") outs(%%vq : !pto.tensor_view<16x32xi32>)%s  return\n}\n}\n",
             head, relu, relu);
    pto_program *p = program_build(text, NULL);
    int8_t a[16 * 32], b[32 * 32];
    uint16_t f[32], h[16 * 32];
    int32_t q[16 * 32];
    for (int k = 0; k < 16 * 32; ++k) a[k] = (int8_t)((k * 11) % 15 - 7);
    for (int k = 0; k < 32 * 32; ++k) b[k] = (int8_t)((k * 3) % 13 - 6);
    for (int j = 0; j < 32; ++j) f[j] = ref_f16(j % 3 == 2 ? -0.5f * j : 0.25f * (j + 1));
    pto_args *args = NULL;
    assert_int_equal(pto_args_create(p, &args), PTO_OK);
    void *bufs[] = {a, b, f, h, q};
    const size_t sizes[] = {sizeof a, sizeof b, sizeof f, sizeof h, sizeof q};
    for (size_t k = 0; k < 5; ++k) assert_int_equal(pto_args_set_pointer(args, k, bufs[k], sizes[k]), PTO_OK);
    if (pto_program_launch(p, 1, args) != PTO_OK) fail_msg("run: %s", pto_last_error());
    size_t zeroed = 0;
    for (int i = 0; i < 16; ++i)
        for (int j = 0; j < 32; ++j) {
            int32_t acc = 0;
            for (int k = 0; k < 32; ++k) acc += a[i * 32 + k] * b[k * 32 + j];
            const float fv = f16_value(f[j]);
            assert_int_equal(q[i * 32 + j], acc < 0 ? 0 : acc);
            assert_int_equal(h[i * 32 + j], ref_convert_relu(PTO_INT32, (uint32_t)acc, PTO_FLOAT16, bits_of(fv), true, true));
            zeroed += h[i * 32 + j] == 0 && acc != 0;
        }
    assert_true(zeroed > 0);
    pto_args_destroy(args);
    pto_program_destroy(p);
    snprintf(text, sizeof text,
             "%s  %%h = pto.alloc_tile : " T_H "\n  pto.tstore ins(%%h : " T_H ") outs(%%vo : !pto.tensor_view<16x32xf16>)%s"
             "  return\n}\n}\n",
             head, relu);
    pto_program *bad = NULL;
    expect_status(pto_program_create(text, strlen(text), "relu.pto", &bad), PTO_ERR_INVALID_ARGUMENT, "relu on vec");
    assert_non_null(strstr(pto_last_error(), "acc tile only"));
    assert_null(bad);
}

/* A negative scale: the relu acts on the scaled value (src 3 x -1 gives 0,
 * src -3 x -1 gives 3), with a scalar word from the thread (fp NULL); a
 * FLOAT16 dst (a negative scalar word's offset bits are set, A5's widening). */
static void test_tmov_fp_relu_negative_scale(void **state) {
    (void)state;
    assert_int_equal(pto_set_profile(PTO_PROFILE_A5), PTO_OK);
    pto_tile *acc = cube(PTO_FLOAT32, M, N, PTO_LOC_ACC, PTO_LAYOUT_NZ);
    pto_tile *dst = tile_new(PTO_FLOAT16, M, N, M, N);
    uint32_t vals[M * N];
    for (size_t k = 0; k < M * N; ++k) vals[k] = bits_of(k % 2 ? -3.0f : 3.0f);
    assert_int_equal(pto_tile_write(acc, vals, sizeof vals), PTO_OK);
    assert_int_equal(pto_set_quant_scalar(-1.0f, PTO_FLOAT16), PTO_OK);
    expect_status(pto_tmov_fp_ex(dst, acc, NULL, PTO_FIXPIPE_RELU), PTO_OK, "relu, scale -1");
    for (uint32_t j = 0; j < 4; ++j) assert_int_equal(tile_get(dst, 0, j), j % 2 ? 0x4200u : 0u);
    expect_status(pto_tmov_fp_ex(dst, acc, NULL, 0), PTO_OK, "flags 0: pto_tmov_fp");
    assert_int_equal(tile_get(dst, 0, 0), 0xC200u);
    TILES_DESTROY(acc, dst);
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
}

/* PTO_FIXPIPE_CAST: no word; FLOAT32 -> FLOAT32 / FLOAT16 / BFLOAT16 and
 * INT32 -> INT32, with and without relu; its rules, nothing written on a
 * refusal. */
static void test_tmov_fp_cast(void **state) {
    (void)state;
    rng r = {0xF8};
    uint32_t vals[M * N];
    static const pto_dtype kOut[] = {PTO_FLOAT32, PTO_FLOAT16, PTO_BFLOAT16};
    pto_tile *acc = cube(PTO_FLOAT32, M, N, PTO_LOC_ACC, PTO_LAYOUT_NZ);
    fill_acc(acc, vals, &r);
    for (int relu = 0; relu < 2; ++relu)
        for (size_t k = 0; k < 3; ++k) {
            pto_tile *dst = tile_new(kOut[k], M, N, M, N);
            expect_status(pto_tmov_fp_ex(dst, acc, NULL, PTO_FIXPIPE_CAST | (relu ? PTO_FIXPIPE_RELU : 0)), PTO_OK,
                          "cast");
            for (uint32_t i = 0; i < M; ++i)
                for (uint32_t j = 0; j < N; ++j) {
                    const float x = relu_of(f32_of(vals[i * N + j]), relu);
                    const uint64_t want = kOut[k] == PTO_FLOAT32 ? bits_of(x) : kOut[k] == PTO_FLOAT16 ? ref_f16(x) : ref_bf16(x);
                    assert_int_equal(tile_get(dst, i, j), want);
                }
            TILES_DESTROY(dst);
        }
    pto_tile *iacc = cube(PTO_INT32, M, N, PTO_LOC_ACC, PTO_LAYOUT_NZ), *idst = tile_new(PTO_INT32, M, N, M, N);
    fill_acc(iacc, vals, &r);
    expect_status(pto_tmov_fp_ex(idst, iacc, NULL, PTO_FIXPIPE_CAST | PTO_FIXPIPE_RELU), PTO_OK, "int32 cast");
    for (uint32_t j = 0; j < N; ++j)
        assert_int_equal(tile_get(idst, 0, j), (int32_t)vals[j] < 0 ? 0u : vals[j]);
    /* PTO_FIXPIPE_STORE: TSTORE's scaled FLOAT32 -> FLOAT32 (A5), the product
     * stored as it is, relu after the scale */
    uint64_t words[N];
    pto_tile *wfp = cube(PTO_UINT64, 1, N, PTO_LOC_SCALING, PTO_LAYOUT_ND), *f32 = tile_new(PTO_FLOAT32, M, N, M, N);
    fill_words(words, N, &r);
    assert_int_equal(pto_tile_write(wfp, words, sizeof words), PTO_OK);
    assert_int_equal(pto_set_profile(PTO_PROFILE_A5), PTO_OK);
    fill_acc(acc, vals, &r);
    for (int relu = 0; relu < 2; ++relu) {
        expect_status(pto_tmov_fp_ex(f32, acc, wfp, PTO_FIXPIPE_STORE | (relu ? PTO_FIXPIPE_RELU : 0)), PTO_OK,
                      "store f32");
        for (uint32_t i = 0; i < M; ++i)
            for (uint32_t j = 0; j < N; ++j) {
                const float x = relu_of(mul32(f32_of(vals[i * N + j]), ref_scale(words[j], true)), relu);
                assert_int_equal(tile_get(f32, i, j), bits_of(x));
            }
    }
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    TILES_DESTROY(wfp, f32);
    /* rules: unknown flags, fp given, a pair the cast lacks, a quantising
     * pair without a word; nothing written */
    pto_tile *fp = cube(PTO_UINT64, 1, N, PTO_LOC_SCALING, PTO_LAYOUT_ND);
    pto_tile *d8 = tile_new(PTO_INT8, M, N, M, N), *d32 = tile_new(PTO_FLOAT32, M, N, M, N);
    uint64_t *kept8 = tile_snapshot(d8), *kept32 = tile_snapshot(d32);
    expect_status(pto_tmov_fp_ex(d32, acc, NULL, 8u), PTO_ERR_INVALID_ARGUMENT, "unknown flag");
    /* a row of the table (the attribute role Flags): the flags are its first
     * rule, before the NULL operands' */
    expect_status(pto_tmov_fp_ex(NULL, NULL, NULL, 8u), PTO_ERR_INVALID_ARGUMENT, "unknown flag, no tiles");
    assert_non_null(strstr(pto_last_error(), "pto_tmov_fp_ex: flags 0x8 has bits other than"));
    expect_status(pto_tmov_fp_ex(NULL, acc, NULL, 0), PTO_ERR_NULL_ARGUMENT, "NULL dst");
    /* programs have no pto.tmov_fp_ex (its text form is pto.tstore's
     * reluPreMode) */
    expect_program_refused_with("module {\nfunc.func @k() {\n  pto.tmov_fp_ex\n  return\n}\n}\n", NULL,
                                "instruction 'pto.tmov_fp_ex' is not implemented");
    expect_status(pto_tmov_fp_ex(d32, acc, fp, PTO_FIXPIPE_CAST), PTO_ERR_INVALID_ARGUMENT, "fp with cast");
    expect_status(pto_tmov_fp_ex(d8, acc, NULL, PTO_FIXPIPE_CAST), PTO_ERR_UNSUPPORTED_DTYPE, "int8 cast");
    expect_status(pto_tmov_fp_ex(d32, iacc, NULL, PTO_FIXPIPE_CAST), PTO_ERR_UNSUPPORTED_DTYPE, "int32 -> f32");
    expect_status(pto_tmov_fp_ex(d32, acc, fp, PTO_FIXPIPE_RELU), PTO_ERR_UNSUPPORTED_DTYPE, "f32 quantised");
    assert_int_equal(pto_set_profile(PTO_PROFILE_A2A3), PTO_OK);
    expect_status(pto_tmov_fp_ex(d32, acc, fp, PTO_FIXPIPE_STORE), PTO_ERR_UNSUPPORTED_DTYPE, "A2A3: no f32 pair");
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    expect_status(pto_tmov_fp_ex(NULL, acc, NULL, PTO_FIXPIPE_CAST), PTO_ERR_NULL_ARGUMENT, "dst NULL");
    expect_status(pto_tmov_fp_ex(d32, d32, NULL, PTO_FIXPIPE_CAST), PTO_ERR_INVALID_ARGUMENT, "src not acc");
    assert_tile_unchanged(d8, kept8, "refused int8 dst");
    assert_tile_unchanged(d32, kept32, "refused float32 dst");
    free(kept8);
    free(kept32);
    TILES_DESTROY(acc, iacc, idst, fp, d8, d32);
}

/* Indices near SIZE_MAX: the window's start plus its extent wraps, and a
 * check written as a sum passed it. pto_tinsert_fp with index_row SIZE_MAX
 * - 1 into a vec tile placed in the middle of caller memory (the bytes
 * before and after it are guards) and pto_textract_fp with index_row
 * SIZE_MAX from an acc tile under a scalar configuration: each is
 * PTO_ERR_OUT_OF_RANGE, and no byte of the caller's memory, of dst or of
 * the guards changes. */
static void test_fp_index_overflow(void **state) {
    (void)state;
    assert_int_equal(pto_set_profile(PTO_PROFILE_A5), PTO_OK);
    enum { kOffset = 1536, kBytes = 4096 };
    unsigned char *memory = malloc(kBytes), *before = malloc(kBytes);
    assert_non_null(memory);
    assert_non_null(before);
    memset(memory, 0xAB, kBytes);
    memcpy(before, memory, kBytes);
    pto_buffer *buffer = NULL;
    assert_int_equal(pto_buffer_wrap(memory, kBytes, &buffer), PTO_OK);
    pto_tile *dst = NULL;
    assert_int_equal(pto_tile_create_at(PTO_HIFLOAT8, 32, 48, buffer, kOffset, &dst), PTO_OK);
    assert_int_equal(pto_tile_set_valid(dst, 3, 33), PTO_OK);
    pto_tile *acc = cube(PTO_FLOAT32, 16, 32, PTO_LOC_ACC, PTO_LAYOUT_NZ);
    assert_int_equal(pto_tile_set_valid(acc, 16, 29), PTO_OK);
    pto_tile *fp = cube(PTO_FLOAT16, 1, 32, PTO_LOC_SCALING, PTO_LAYOUT_ND);
    assert_int_equal(pto_tile_set_valid(fp, 1, 29), PTO_OK);
    static const size_t kRows[] = {SIZE_MAX - 1, SIZE_MAX, SIZE_MAX - 15, (size_t)1 << 63, 33};
    for (size_t k = 0; k < sizeof kRows / sizeof kRows[0]; ++k) {
        expect_status(pto_tinsert_fp(dst, acc, fp, kRows[k], 13), PTO_ERR_OUT_OF_RANGE,
                      "tinsert_fp at a row whose sum with src's rows wraps");
        expect_status(pto_tinsert_fp(dst, acc, fp, 0, kRows[k]), PTO_ERR_OUT_OF_RANGE,
                      "tinsert_fp at a col whose sum with src's cols wraps");
        assert_memory_equal(memory, before, kBytes);
    }
    /* The bound itself still fits: src's 16 rows end at dst's 32nd. */
    expect_status(pto_tinsert_fp(dst, acc, fp, 16, 13), PTO_OK, "tinsert_fp at the last rows");
    assert_memory_equal(memory, before, kOffset);
    assert_memory_equal(memory + kOffset + 32 * 48, before + kOffset + 32 * 48, kBytes - kOffset - 32 * 48);

    assert_int_equal(pto_set_quant_scalar(1.0f, PTO_BFLOAT16), PTO_OK);
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    pto_tile *mat = cube(PTO_BFLOAT16, 16, 16, PTO_LOC_MAT, PTO_LAYOUT_NZ);
    pto_tile *src = cube(PTO_FLOAT32, 16, 32, PTO_LOC_ACC, PTO_LAYOUT_NZ);
    uint64_t *kept = tile_snapshot(mat);
    for (size_t k = 0; k < sizeof kRows / sizeof kRows[0]; ++k) {
        expect_status(pto_textract_fp(mat, src, NULL, kRows[k], 13), PTO_ERR_OUT_OF_RANGE,
                      "textract_fp from a row whose sum with dst's rows wraps");
        expect_status(pto_textract_fp(mat, src, NULL, 0, kRows[k]), PTO_ERR_OUT_OF_RANGE,
                      "textract_fp from a col whose sum with dst's cols wraps");
        assert_tile_unchanged(mat, kept, "refused textract_fp");
    }
    expect_status(pto_textract_fp(mat, src, NULL, 0, 16), PTO_OK, "textract_fp at the last cols");
    free(kept);
    TILES_DESTROY(dst, acc, fp, mat, src);
    pto_buffer_destroy(buffer);
    free(memory);
    free(before);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tmov_fp_values), cmocka_unit_test(test_extract_insert_fp),
        cmocka_unit_test(test_float_payload),  cmocka_unit_test(test_thread_config),
        cmocka_unit_test(test_fixpipe_rules),  cmocka_unit_test(test_config_per_thread),
        cmocka_unit_test(test_program_pipes),  cmocka_unit_test(test_program_rules),
        cmocka_unit_test(test_program_tstore_fp), cmocka_unit_test(test_program_relu_layouts),
        cmocka_unit_test(test_tmov_fp_relu_negative_scale), cmocka_unit_test(test_program_tstore_relu),
        cmocka_unit_test(test_tmov_fp_cast), cmocka_unit_test(test_fp_index_overflow),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
