/* TQUANT (its INT8 forms) and TDEQUANT against references written here from
 * the pages (TQUANT.md "Integer INT8", TDEQUANT.md "Math Interpretation")
 * and the NPU implementations' steps: q = the float32 product x * scale,
 * then + offset, each rounded once, rounded to an integer ties to even and
 * saturated (NaN: 0); x = (q - offset) * scale, each step a float32. Every
 * profile, edge values (ties, the range's ends, infinities, NaN), a case
 * built as pto-isa's ST goldens build theirs, the rules in order with
 * nothing written on a refusal, and the text forms in programs. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/harness.h"

static float f32_of(uint64_t bits) {
    const uint32_t b = (uint32_t)bits;
    float f;
    memcpy(&f, &b, sizeof f);
    return f;
}

static uint64_t bits_of(float f) {
    uint32_t b;
    memcpy(&b, &f, sizeof b);
    return b;
}

/* A float32 product or difference rounded once: the volatile store keeps
 * the compiler from fusing it with the next operation. */
static float mul32(float a, float b) {
    volatile float r = a * b;
    return r;
}
static float add32(float a, float b) {
    volatile float r = a + b;
    return r;
}

/* v rounded to an integer, ties to the even one, within [lo, hi]; NaN 0. */
static int round_even_clamped(float v, int lo, int hi) {
    if (isnan(v)) return 0;
    if (v <= (float)lo) return lo;
    if (v >= (float)hi) return hi;
    const double d = (double)v, below = floor(d), frac = d - below;
    double r = below;
    if (frac > 0.5 || (frac == 0.5 && fmod(below, 2.0) != 0.0)) r = below + 1.0;
    return (int)(r < lo ? lo : r > hi ? hi : r);
}

static uint64_t quant_reference(float x, float scale, const float *offset, bool asym) {
    float v = mul32(x, scale);
    if (offset != NULL) v = add32(v, *offset);
    const int q = asym ? round_even_clamped(v, 0, 255) : round_even_clamped(v, -128, 127);
    return (uint64_t)(uint8_t)(int8_t)q;
}

/* src values: uniform in [-range, range] with the edge values mixed in. */
static float quant_input(rng *r, float range, size_t k) {
    static const float kEdges[] = {0.5f, 1.5f, 2.5f, -0.5f, -1.5f, -2.5f, 126.5f, 127.5f, -127.5f,
                                   -128.5f, 254.5f, 255.5f, 1e30f, -1e30f, 0.0f, -0.0f};
    if (k % 7 == 3) return kEdges[(k / 7) % (sizeof kEdges / sizeof kEdges[0])];
    if (k % 53 == 11) return k % 2 ? INFINITY : -INFINITY;
    if (k % 61 == 17) return NAN;
    const double u = (double)(rng_next(r) >> 11) / 9007199254740992.0;
    return (float)((2.0 * u - 1.0) * range);
}

static void expect_outside_unchanged(const pto_tile *t, const uint64_t *before, const char *what) {
    const uint32_t vr = pto_tile_valid_rows(t), vc = pto_tile_valid_cols(t);
    for (uint32_t i = 0; i < pto_tile_rows(t); ++i)
        for (uint32_t j = 0; j < pto_tile_cols(t); ++j)
            if ((i >= vr || j >= vc) && tile_get(t, i, j) != before[(size_t)i * pto_tile_cols(t) + j])
                fail_msg("%s: (%u,%u) outside the valid region was written", what, i, j);
}

/* a's valid elements equal b's, bit for bit. */
static void expect_same_valid(const pto_tile *a, const pto_tile *b) {
    for (uint32_t i = 0; i < pto_tile_valid_rows(a); ++i)
        for (uint32_t j = 0; j < pto_tile_valid_cols(a); ++j) assert_int_equal(tile_get(a, i, j), tile_get(b, i, j));
}

static void test_tquant_values(void **state) {
    (void)state;
    /* rows, cols, valid rows, valid cols */
    static const uint32_t kShapes[][4] = {{1, 8, 1, 1}, {4, 64, 4, 64}, {9, 40, 7, 33}, {32, 128, 32, 128}};
    static const float kScales[] = {1.0f, 63.5f, 0.37f, 127.0f / 1.9f};
    rng r = {0x9A17};
    size_t checked = 0;
    for (int p = 0; p < 3; ++p) {
        assert_int_equal(pto_set_profile((pto_profile)p), PTO_OK);
        for (size_t s = 0; s < COUNT(kShapes); ++s)
            for (int asym = 0; asym < 2; ++asym) {
                const uint32_t rows = kShapes[s][0], cols = kShapes[s][1], vr = kShapes[s][2], vc = kShapes[s][3];
                pto_tile *src = tile_new(PTO_FLOAT32, rows, cols, vr, vc);
                pto_tile *dst = tile_new(asym ? PTO_UINT8 : PTO_INT8, rows, cols, vr, vc);
                pto_tile *scale = tile_new(PTO_FLOAT32, rows, 8, vr, 1), *offset = tile_new(PTO_FLOAT32, rows, 8, vr, 1);
                pto_tile *tmp = tile_new(PTO_FLOAT32, rows, cols, vr, vc);
                size_t k = 0;
                for (uint32_t i = 0; i < vr; ++i) {
                    tile_put(scale, i, 0, bits_of(kScales[(i + s) % COUNT(kScales)]));
                    tile_put(offset, i, 0, bits_of((float)(i * 37 % 256) - (i % 3 == 0 ? 0.5f : 0.0f)));
                    for (uint32_t j = 0; j < vc; ++j) tile_put(src, i, j, bits_of(quant_input(&r, 3.0f, k++)));
                }
                tile_fill(dst, &r, GEN_ANY);
                uint64_t *before = tile_snapshot(dst), *src_before = tile_snapshot(src), *tmp_before = tile_snapshot(tmp);
                assert_int_equal(pto_tquant(dst, src, scale, asym ? offset : NULL, tmp), PTO_OK);
                for (uint32_t i = 0; i < vr; ++i) {
                    const float sc = f32_of(tile_get(scale, i, 0)), off = f32_of(tile_get(offset, i, 0));
                    for (uint32_t j = 0; j < vc; ++j) {
                        const float x = f32_of(tile_get(src, i, j));
                        const uint64_t want = quant_reference(x, sc, asym ? &off : NULL, asym);
                        if (tile_get(dst, i, j) != want)
                            fail_msg("%s %s (%u,%u): x %a scale %a -> 0x%llx, want 0x%llx", pto_profile_string((pto_profile)p),
                                     asym ? "asym" : "sym", i, j, (double)x, (double)sc,
                                     (unsigned long long)tile_get(dst, i, j), (unsigned long long)want);
                        ++checked;
                    }
                }
                expect_outside_unchanged(dst, before, "tquant");
                assert_tile_unchanged(src, src_before, "tquant's src");
                assert_tile_unchanged(tmp, tmp_before, "tquant's tmp");
                free(before), free(src_before), free(tmp_before);
                TILES_DESTROY(src, dst, scale, offset, tmp);
            }
    }
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    print_message("[quant] tquant: %zu elements equal the reference on 3 profiles\n", checked);
}

/* pto-isa's ST golden's way: scale = max|x| / 127 per row, inv = 1 / scale,
 * q = clip(round(x * inv)); and the worked ties by hand. */
static void test_tquant_cases(void **state) {
    (void)state;
    pto_tile *src = tile_new(PTO_FLOAT32, 1, 8, 1, 8), *dst = tile_new(PTO_INT8, 1, 8, 1, 8);
    pto_tile *u8 = tile_new(PTO_UINT8, 1, 8, 1, 8);
    pto_tile *scale = tile_new(PTO_FLOAT32, 1, 8, 1, 1), *offset = tile_new(PTO_FLOAT32, 1, 8, 1, 1);
    static const float kX[] = {0.5f, 1.5f, 2.5f, -2.5f, 127.49f, 300.0f, -300.0f, NAN};
    static const int8_t kSym[] = {0, 2, 2, -2, 127, 127, -128, 0};
    static const uint8_t kAsym[] = {10, 12, 12, 8, 137, 255, 0, 0}; /* + 10 */
    for (uint32_t j = 0; j < 8; ++j) tile_put(src, 0, j, bits_of(kX[j]));
    tile_put(scale, 0, 0, bits_of(1.0f));
    tile_put(offset, 0, 0, bits_of(10.0f));
    assert_int_equal(pto_tquant(dst, src, scale, NULL, NULL), PTO_OK);
    assert_int_equal(pto_tquant(u8, src, scale, offset, NULL), PTO_OK);
    for (uint32_t j = 0; j < 8; ++j) {
        assert_int_equal((int8_t)tile_get(dst, 0, j), kSym[j]);
        assert_int_equal((uint8_t)tile_get(u8, 0, j), kAsym[j]);
    }
    /* HOST: one scale row for every row (pto-isa's CPU model). */
    pto_tile *src2 = tile_new(PTO_FLOAT32, 2, 8, 2, 8), *dst2 = tile_new(PTO_INT8, 2, 8, 2, 8);
    for (uint32_t j = 0; j < 8; ++j) tile_put(src2, 0, j, bits_of((float)j)), tile_put(src2, 1, j, bits_of(-(float)j));
    tile_put(scale, 0, 0, bits_of(2.0f));
    assert_int_equal(pto_tquant(dst2, src2, scale, NULL, NULL), PTO_OK);
    for (uint32_t j = 0; j < 8; ++j) {
        assert_int_equal((int8_t)tile_get(dst2, 0, j), (int8_t)(2 * j));
        assert_int_equal((int8_t)tile_get(dst2, 1, j), (int8_t)(-2 * (int)j));
    }
    /* The ST golden's scaling: the row's largest magnitude lands on +-127. */
    pto_tile *g = tile_new(PTO_FLOAT32, 2, 64, 2, 64), *gq = tile_new(PTO_INT8, 2, 64, 2, 64);
    pto_tile *inv = tile_new(PTO_FLOAT32, 2, 8, 2, 1);
    rng r = {0x57};
    for (uint32_t i = 0; i < 2; ++i) {
        float most = 0;
        for (uint32_t j = 0; j < 64; ++j) {
            const float x = quant_input(&r, 2.0f, 0); /* k = 0: never an edge value */
            tile_put(g, i, j, bits_of(x));
            if (fabsf(x) > most) most = fabsf(x);
        }
        tile_put(inv, i, 0, bits_of(1.0f / (most / 127.0f)));
    }
    assert_int_equal(pto_tquant(gq, g, inv, NULL, NULL), PTO_OK);
    for (uint32_t i = 0; i < 2; ++i) {
        int extreme = 0;
        for (uint32_t j = 0; j < 64; ++j) {
            const int q = (int8_t)tile_get(gq, i, j);
            if (abs(q) > extreme) extreme = abs(q);
            assert_true(q >= -127 && q <= 127);
        }
        assert_int_equal(extreme, 127);
    }
    TILES_DESTROY(src, dst, u8, scale, offset, src2, dst2, g, gq, inv);
}

static void test_tdequant_values(void **state) {
    (void)state;
    static const uint32_t kShapes[][4] = {{1, 32, 1, 32}, {16, 64, 16, 64}, {9, 40, 7, 33}};
    static const float kScales[] = {0.015625f, 0.1f, -3.5f, 1e-20f, 1e30f};
    rng r = {0xDE0};
    size_t checked = 0;
    for (int p = 0; p < 3; ++p) {
        assert_int_equal(pto_set_profile((pto_profile)p), PTO_OK);
        for (size_t s = 0; s < COUNT(kShapes); ++s)
            for (int wide = 0; wide < 2; ++wide) {
                const uint32_t rows = kShapes[s][0], cols = kShapes[s][1], vr = kShapes[s][2], vc = kShapes[s][3];
                const pto_dtype sdt = wide ? PTO_INT16 : PTO_INT8;
                pto_tile *src = tile_new(sdt, rows, cols, vr, vc), *dst = tile_new(PTO_FLOAT32, rows, cols, vr, vc);
                pto_tile *scale = tile_new(PTO_FLOAT32, rows, 8, vr, 8), *offset = tile_new(PTO_FLOAT32, rows, 8, vr, 8);
                tile_fill(scale, &r, GEN_ANY);  /* columns 1.. are never read */
                tile_fill(offset, &r, GEN_ANY);
                size_t k = 0;
                for (uint32_t i = 0; i < vr; ++i) {
                    tile_put(scale, i, 0, bits_of(kScales[(i + s) % COUNT(kScales)]));
                    tile_put(offset, i, 0, bits_of((float)((int)(i * 29 % 64) - 32) + (i % 2 ? 0.25f : 0.0f)));
                    for (uint32_t j = 0; j < vc; ++j, ++k) {
                        /* every INT8 code in turn; INT16 codes spread over the range */
                        const int v = wide ? (int)(rng_next(&r) % 65536) - 32768 : (int)(k % 256) - 128;
                        tile_put(src, i, j, (uint64_t)(uint16_t)(int16_t)v);
                    }
                }
                tile_fill(dst, &r, GEN_ANY);
                uint64_t *before = tile_snapshot(dst);
                assert_int_equal(pto_tdequant(dst, src, scale, offset), PTO_OK);
                for (uint32_t i = 0; i < vr; ++i) {
                    const float sc = f32_of(tile_get(scale, i, 0)), off = f32_of(tile_get(offset, i, 0));
                    for (uint32_t j = 0; j < vc; ++j) {
                        const uint64_t raw = tile_get(src, i, j);
                        const int q = wide ? (int16_t)raw : (int8_t)raw;
                        const float want = mul32(add32((float)q, -off), sc);
                        if (tile_get(dst, i, j) != bits_of(want))
                            fail_msg("%s (%u,%u): q %d -> %a, want %a", pto_profile_string((pto_profile)p), i, j, q,
                                     (double)f32_of(tile_get(dst, i, j)), (double)want);
                        ++checked;
                    }
                }
                expect_outside_unchanged(dst, before, "tdequant");
                free(before);
                TILES_DESTROY(src, dst, scale, offset);
            }
    }
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    print_message("[quant] tdequant: %zu elements equal the reference on 3 profiles\n", checked);
}

static void test_tquant_rules(void **state) {
    (void)state;
    for (int p = 0; p < 3; ++p) {
        const pto_profile profile = (pto_profile)p;
        assert_int_equal(pto_set_profile(profile), PTO_OK);
        pto_tile *src = tile_new(PTO_FLOAT32, 4, 16, 4, 16), *dst = tile_new(PTO_INT8, 4, 16, 4, 16);
        pto_tile *u8 = tile_new(PTO_UINT8, 4, 16, 4, 16), *i16 = tile_new(PTO_INT16, 4, 16, 4, 16);
        pto_tile *scale = tile_new(PTO_FLOAT32, 4, 8, 4, 1), *offset = tile_new(PTO_FLOAT32, 4, 8, 4, 1);
        pto_tile *tmp = tile_new(PTO_FLOAT32, 4, 16, 4, 16), *f16 = tile_new(PTO_FLOAT16, 4, 16, 4, 16);
        pto_tile *small = tile_new(PTO_FLOAT32, 4, 16, 3, 16), *one_row = tile_new(PTO_FLOAT32, 1, 8, 1, 1);
        pto_tile *two_cols = tile_new(PTO_FLOAT32, 4, 8, 4, 2), *h_scale = tile_new(PTO_FLOAT16, 4, 16, 4, 1);
        pto_tile *small_tmp = tile_new(PTO_FLOAT32, 4, 16, 4, 8);
        rng r = {0x11};
        tile_fill(src, &r, GEN_ANY);
        tile_fill(dst, &r, GEN_ANY);
        tile_fill(u8, &r, GEN_ANY);
        uint64_t *kept = tile_snapshot(dst), *kept_u8 = tile_snapshot(u8);
        const bool a2a3 = profile == PTO_PROFILE_A2A3, host = profile == PTO_PROFILE_HOST;
        expect_status(pto_tquant(NULL, src, scale, NULL, tmp), PTO_ERR_NULL_ARGUMENT, "NULL dst");
        expect_status(pto_tquant(dst, NULL, scale, NULL, tmp), PTO_ERR_NULL_ARGUMENT, "NULL src");
        expect_status(pto_tquant(dst, src, NULL, NULL, tmp), PTO_ERR_NULL_ARGUMENT, "NULL scale");
        assert_non_null(strstr(pto_last_error(), "pto_tquant: scale"));
        expect_status(pto_tquant(dst, src, scale, NULL, NULL), a2a3 ? PTO_ERR_NULL_ARGUMENT : PTO_OK, "no tmp");
        if (a2a3) assert_non_null(strstr(pto_last_error(), "tmp is NULL, but on A2A3"));
        expect_status(pto_tquant(i16, src, scale, NULL, tmp), PTO_ERR_UNSUPPORTED_DTYPE, "INT16 dst");
        expect_status(pto_tquant(dst, f16, scale, NULL, tmp), PTO_ERR_UNSUPPORTED_DTYPE, "FLOAT16 src");
        assert_non_null(strstr(pto_last_error(), "src dtype FLOAT16"));
        expect_status(pto_tquant(u8, src, scale, NULL, tmp), PTO_ERR_NULL_ARGUMENT, "UINT8 dst without offset");
        assert_non_null(strstr(pto_last_error(), "INT8_ASYM"));
        expect_status(pto_tquant(dst, src, scale, offset, tmp), PTO_ERR_INVALID_ARGUMENT, "INT8 dst with offset");
        expect_status(pto_tquant(dst, small, scale, NULL, tmp), PTO_ERR_SHAPE_MISMATCH, "src region");
        expect_status(pto_tquant(dst, src, h_scale, NULL, tmp), PTO_ERR_UNSUPPORTED_DTYPE, "FLOAT16 scale");
        expect_status(pto_tquant(dst, src, one_row, NULL, tmp), host ? PTO_OK : PTO_ERR_SHAPE_MISMATCH,
                      "one scale row");
        expect_status(pto_tquant(dst, src, two_cols, NULL, tmp), host ? PTO_OK : PTO_ERR_SHAPE_MISMATCH,
                      "two scale columns");
        expect_status(pto_tquant(u8, src, scale, small, tmp), PTO_ERR_SHAPE_MISMATCH, "offset rows");
        assert_non_null(strstr(pto_last_error(), "offset valid rows 3"));
        expect_status(pto_tquant(dst, src, scale, NULL, f16), PTO_ERR_UNSUPPORTED_DTYPE, "FLOAT16 tmp");
        expect_status(pto_tquant(dst, src, scale, NULL, small_tmp), a2a3 ? PTO_ERR_SHAPE_MISMATCH : PTO_OK,
                      "tmp region");
        /* refused calls above wrote nothing; refresh the snapshots of the accepted ones */
        free(kept);
        kept = tile_snapshot(dst);
        expect_status(pto_tquant(dst, src, scale, NULL, (pto_tile *)src), PTO_ERR_ALIASING, "tmp is src");
        expect_status(pto_tquant(dst, src, scale, NULL, dst), PTO_ERR_UNSUPPORTED_DTYPE, "tmp is dst (INT8)");
        assert_tile_unchanged(dst, kept, "refused tquant");
        assert_tile_unchanged(u8, kept_u8, "refused tquant");
        free(kept), free(kept_u8);
        TILES_DESTROY(src, dst, u8, i16, scale, offset, tmp, f16, small, one_row, two_cols, h_scale, small_tmp);
    }
    /* dst sharing storage with src */
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    pto_buffer *b;
    pto_tile *f, *q, *scale = tile_new(PTO_FLOAT32, 2, 8, 2, 1);
    assert_int_equal(pto_buffer_create(4096, &b), PTO_OK);
    assert_int_equal(pto_tile_create_at(PTO_FLOAT32, 2, 32, b, 0, &f), PTO_OK);
    assert_int_equal(pto_tile_create_at(PTO_INT8, 2, 32, b, 64, &q), PTO_OK);
    expect_status(pto_tquant(q, f, scale, NULL, NULL), PTO_ERR_ALIASING, "dst inside src");
    assert_non_null(strstr(pto_last_error(), "src shares storage with dst"));
    TILES_DESTROY(f, q, scale);
    pto_buffer_destroy(b);
}

static void test_tdequant_rules(void **state) {
    (void)state;
    for (int p = 0; p < 3; ++p) {
        assert_int_equal(pto_set_profile((pto_profile)p), PTO_OK);
        pto_tile *src = tile_new(PTO_INT8, 4, 32, 4, 32), *dst = tile_new(PTO_FLOAT32, 4, 32, 4, 32);
        pto_tile *u8 = tile_new(PTO_UINT8, 4, 32, 4, 32), *f16 = tile_new(PTO_FLOAT16, 4, 32, 4, 32);
        pto_tile *scale = tile_new(PTO_FLOAT32, 4, 8, 4, 1), *offset = tile_new(PTO_FLOAT32, 4, 8, 4, 1);
        pto_tile *small = tile_new(PTO_INT8, 4, 32, 4, 31), *rows3 = tile_new(PTO_FLOAT32, 4, 8, 3, 1);
        pto_tile *empty = tile_new(PTO_FLOAT32, 4, 8, 4, 0), *i32 = tile_new(PTO_INT32, 4, 8, 4, 1);
        rng r = {0x12};
        tile_fill(dst, &r, GEN_ANY);
        uint64_t *kept = tile_snapshot(dst);
        expect_status(pto_tdequant(NULL, src, scale, offset), PTO_ERR_NULL_ARGUMENT, "NULL dst");
        expect_status(pto_tdequant(dst, src, scale, NULL), PTO_ERR_NULL_ARGUMENT, "NULL offset");
        assert_non_null(strstr(pto_last_error(), "pto_tdequant: offset"));
        expect_status(pto_tdequant(f16, src, scale, offset), PTO_ERR_UNSUPPORTED_DTYPE, "FLOAT16 dst");
        expect_status(pto_tdequant(dst, u8, scale, offset), PTO_ERR_UNSUPPORTED_DTYPE, "UINT8 src");
        expect_status(pto_tdequant(dst, small, scale, offset), PTO_ERR_SHAPE_MISMATCH, "src region");
        expect_status(pto_tdequant(dst, src, i32, offset), PTO_ERR_UNSUPPORTED_DTYPE, "INT32 scale");
        expect_status(pto_tdequant(dst, src, rows3, offset), PTO_ERR_SHAPE_MISMATCH, "scale rows");
        expect_status(pto_tdequant(dst, src, scale, empty), PTO_ERR_SHAPE_MISMATCH, "offset without a column");
        expect_status(pto_tdequant(dst, src, dst, offset), PTO_ERR_ALIASING, "scale is dst");
        assert_tile_unchanged(dst, kept, "refused tdequant");
        free(kept);
        TILES_DESTROY(src, dst, u8, f16, scale, offset, small, rows3, empty, i32);
    }
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
}

#define TB(dt, rows, cols, vcols)                                                                          \
    "!pto.tile_buf<loc=vec, dtype=" dt ", rows=" #rows ", cols=" #cols ", v_row=" #rows ", v_col=" #vcols \
    ", blayout=row_major, slayout=none_box, fractal=512, pad=0>"
#define TBC(rows)                                                                                     \
    "!pto.tile_buf<loc=vec, dtype=f32, rows=" #rows ", cols=1, v_row=" #rows                            \
    ", v_col=1, blayout=col_major, slayout=none_box, fractal=512, pad=0>"

/* PTOAS's forms (test/lit/pto/tquant.pto, tquant_e2e.pto, tdequant.pto)
 * equal the C calls on every profile; its refusals. */
static void test_quant_programs(void **state) {
    (void)state;
    static const char kSym[] = "pto.tquant ins(%s, %fp : " TB("f32", 8, 32, 32) ", " TBC(8) ") outs(%d : " TB(
        "i8", 8, 32, 32) ") {quant_type = #pto<quant_type INT8_SYM>}\n";
    static const char kSymTmp[] = "pto.tquant ins(%s, %fp : " TB("f32", 8, 32, 32) ", " TBC(8) ") outs(%d, %t : " TB(
        "i8", 8, 32, 32) ", " TB("f32", 8, 32, 32) ") {quant_type = #pto<quant_type INT8_SYM>}\n";
    static const char kAsym[] = "pto.tquant ins(%s, %fp, %off : " TB("f32", 8, 32, 32) ", " TBC(8) ", " TBC(
        8) ") outs(%d : " TB("ui8", 8, 32, 32) ") {quant_type = #pto<quant_type INT8_ASYM>}\n";
    static const char kDequant[] = "pto.tdequant ins(%s, %fp, %off : " TB("i8", 8, 32, 32) ", " TB(
        "f32", 8, 8, 8) ", " TB("f32", 8, 8, 8) ") outs(%d : " TB("f32", 8, 32, 32) ")\n";
    rng r = {0x7E};
    size_t runs = 0;
    for (int p = 0; p < 3; ++p) {
        assert_int_equal(pto_set_profile((pto_profile)p), PTO_OK);
        pto_tile *src = tile_new(PTO_FLOAT32, 8, 32, 8, 32), *fp = tile_new(PTO_FLOAT32, 8, 1, 8, 1);
        pto_tile *off = tile_new(PTO_FLOAT32, 8, 1, 8, 1), *tmp = tile_new(PTO_FLOAT32, 8, 32, 8, 32);
        for (uint32_t i = 0; i < 8; ++i) {
            tile_put(fp, i, 0, bits_of(20.0f + (float)i));
            tile_put(off, i, 0, bits_of(100.0f + (float)i));
            for (uint32_t j = 0; j < 32; ++j) tile_put(src, i, j, bits_of(quant_input(&r, 4.0f, i * 32 + j)));
        }
        static const char *const kNames[] = {"s", "fp", "off", "d", "t"};
        for (int form = 0; form < 3; ++form) {
            const bool asym = form == 2;
            pto_tile *want = tile_new(asym ? PTO_UINT8 : PTO_INT8, 8, 32, 8, 32);
            pto_tile *out = tile_new(asym ? PTO_UINT8 : PTO_INT8, 8, 32, 8, 32);
            assert_int_equal(pto_tquant(want, src, fp, asym ? off : NULL, tmp), PTO_OK);
            pto_tile *tiles[] = {src, fp, off, out, tmp};
            const char *text = form == 0 ? kSym : form == 1 ? kSymTmp : kAsym;
            const pto_status run = run_program_bound(text, kNames, tiles, 5, NULL, NULL, 0);
            if (run != PTO_OK) fail_msg("%s: %s (%s)", text, pto_status_string(run), pto_last_error());
            expect_same_valid(out, want);
            ++runs;
            TILES_DESTROY(want, out);
        }
        pto_tile *q = tile_new(PTO_INT8, 8, 32, 8, 32), *pf = tile_new(PTO_FLOAT32, 8, 8, 8, 8);
        pto_tile *po = tile_new(PTO_FLOAT32, 8, 8, 8, 8), *x = tile_new(PTO_FLOAT32, 8, 32, 8, 32);
        pto_tile *xw = tile_new(PTO_FLOAT32, 8, 32, 8, 32);
        tile_fill(q, &r, GEN_ANY);
        tile_fill(pf, &r, GEN_ANY);
        tile_fill(po, &r, GEN_ANY);
        pto_tile *tiles[] = {q, pf, po, x, tmp};
        const pto_status run = run_program_bound(kDequant, kNames, tiles, 5, NULL, NULL, 0);
        if (run != PTO_OK) fail_msg("tdequant: %s (%s)", pto_status_string(run), pto_last_error());
        pto_tile_set_valid(pf, 8, 1);
        pto_tile_set_valid(po, 8, 1);
        assert_int_equal(pto_tdequant(xw, q, pf, po), PTO_OK);
        expect_same_valid(x, xw);
        ++runs;
        TILES_DESTROY(src, fp, off, tmp, q, pf, po, x, xw);
    }
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    static const char *const kRefused[] = {
        /* INT8_SYM with an offset; INT8_ASYM without one; the dst of the other form */
        "pto.tquant ins(%s, %fp, %off : " TB("f32", 8, 32, 32) ", " TBC(8) ", " TBC(8) ") outs(%d : " TB(
            "i8", 8, 32, 32) ") {quant_type = #pto<quant_type INT8_SYM>}\n",
        "pto.tquant ins(%s, %fp : " TB("f32", 8, 32, 32) ", " TBC(8) ") outs(%d : " TB(
            "ui8", 8, 32, 32) ") {quant_type = #pto<quant_type INT8_ASYM>}\n",
        "pto.tquant ins(%s, %fp, %off : " TB("f32", 8, 32, 32) ", " TBC(8) ", " TBC(8) ") outs(%d : " TB(
            "i8", 8, 32, 32) ") {quant_type = #pto<quant_type INT8_ASYM>}\n",
        /* no quant_type; an MX type in the plain form */
        "pto.tquant ins(%s, %fp : " TB("f32", 8, 32, 32) ", " TBC(8) ") outs(%d : " TB("i8", 8, 32, 32) ")\n",
        "pto.tquant ins(%s, %fp : " TB("f32", 8, 32, 32) ", " TBC(8) ") outs(%d : " TB(
            "i8", 8, 32, 32) ") {quant_type = #pto<quant_type MXFP8>}\n",
    };
    for (size_t k = 0; k < COUNT(kRefused); ++k) expect_program_refused(kRefused[k], PTO_ERR_INVALID_ARGUMENT);
    /* read by the row's roles: the offset an OptionalSrc, tmp in outs
     * (TmpOut), PTOAS's pairing its TextRules, quant_type required */
    expect_program_refused_with(kRefused[0], NULL, "INT8_SYM quantization must not have an offset operand");
    expect_program_refused_with(kRefused[2], NULL, "INT8_ASYM writes a dst of UINT8, not INT8");
    expect_program_refused_with(kRefused[3], NULL, "pto.tquant needs {quant_type = #pto<quant_type INT8_SYM>}");
    expect_program_refused_with("pto.tquant ins(%s : " TB("f32", 8, 32, 32) ") outs(%d : " TB("i8", 8, 32, 32)
                                ") {quant_type = #pto<quant_type INT8_SYM>}\n",
                                NULL, "pto.tquant takes 2 or 3 inputs, not 1");
    expect_program_refused_with("pto.tquant ins(%s, %fp : " TB("f32", 8, 32, 32) ", " TBC(8) ") outs(%d, %t, %u : " TB(
                                    "i8", 8, 32, 32) ", " TB("f32", 8, 32, 32) ", " TB("f32", 8, 32, 32)
                                ") {quant_type = #pto<quant_type INT8_SYM>}\n",
                                NULL, "pto.tquant takes 1 or 2 outputs (dst, tmp), not 3");
    /* the C rules through the verifier: src of another valid shape */
    expect_program_refused("pto.tquant ins(%s, %fp : " TB("f32", 8, 32, 16) ", " TBC(8) ") outs(%d : " TB(
                               "i8", 8, 32, 32) ") {quant_type = #pto<quant_type INT8_SYM>}\n",
                           PTO_ERR_SHAPE_MISMATCH);
    expect_program_refused("pto.tdequant ins(%s, %fp, %off : " TB("ui8", 8, 32, 32) ", " TB("f32", 8, 8, 8) ", " TB(
                               "f32", 8, 8, 8) ") outs(%d : " TB("f32", 8, 32, 32) ")\n",
                           PTO_ERR_UNSUPPORTED_DTYPE);
    print_message("[quant] %zu program runs equal the C calls, %zu refused programs\n", runs, COUNT(kRefused) + 2);
}

static void count_warning(const char *message, void *user_data) {
    (void)message;
    ++*(int *)user_data;
}

/* Board mode under A2A3 and A5: the rules the implementations only assert
 * or do not check run as they do, each with a warning; HOST refuses. */
static void test_quant_board_mode(void **state) {
    (void)state;
    int warnings = 0;
    pto_set_warning_handler(count_warning, &warnings);
    for (int p = 0; p < 3; ++p) {
        const bool host = p == PTO_PROFILE_HOST;
        assert_int_equal(pto_set_profile((pto_profile)p), PTO_OK);
        assert_int_equal(pto_set_board_mode(1), PTO_OK);
        pto_tile *src = tile_new(PTO_FLOAT32, 4, 16, 4, 16), *dst = tile_new(PTO_INT8, 4, 16, 4, 16);
        pto_tile *scale = tile_new(PTO_FLOAT32, 4, 8, 4, 1), *offset = tile_new(PTO_FLOAT32, 4, 8, 4, 1);
        pto_tile *tmp = tile_new(PTO_FLOAT32, 4, 16, 4, 16), *want = tile_new(PTO_INT8, 4, 16, 4, 16);
        pto_tile *q = tile_new(PTO_INT8, 4, 16, 4, 12), *x = tile_new(PTO_FLOAT32, 4, 16, 4, 16);
        pto_tile *xw = tile_new(PTO_FLOAT32, 4, 16, 4, 16);
        rng r = {0xB0 + (uint64_t)p};
        for (uint32_t i = 0; i < 4; ++i) {
            tile_put(scale, i, 0, bits_of(3.0f + (float)i));
            tile_put(offset, i, 0, bits_of((float)i));
            for (uint32_t j = 0; j < 16; ++j) {
                tile_put(src, i, j, bits_of(quant_input(&r, 5.0f, 0)));
                tile_put(q, i, j, (uint64_t)(uint8_t)(int8_t)(int)(rng_next(&r) % 256));
            }
        }
        assert_int_equal(pto_tquant(want, src, scale, NULL, tmp), PTO_OK);
        /* an offset with INT8_SYM: ignored */
        const int before = warnings;
        expect_status(pto_tquant(dst, src, scale, offset, tmp), host ? PTO_ERR_INVALID_ARGUMENT : PTO_OK,
                      "board: offset with INT8_SYM");
        if (!host) expect_same_valid(dst, want);
        /* scale of 2 valid rows in 4 rows of storage: rows 2 and 3 read all the same */
        assert_int_equal(pto_tile_set_valid(scale, 2, 1), PTO_OK);
        expect_status(pto_tquant(dst, src, scale, NULL, tmp), host ? PTO_ERR_SHAPE_MISMATCH : PTO_OK,
                      "board: scale rows");
        if (!host) expect_same_valid(dst, want);
        assert_int_equal(pto_tile_set_valid(scale, 4, 1), PTO_OK);
        /* tdequant: src valid 4x12 for a 4x16 dst, read at dst's positions */
        expect_status(pto_tdequant(x, q, scale, offset), host ? PTO_ERR_SHAPE_MISMATCH : PTO_OK,
                      "board: src region");
        if (!host) {
            assert_int_equal(pto_tile_set_valid(q, 4, 16), PTO_OK);
            assert_int_equal(pto_board_mode(), 1);
            assert_int_equal(pto_tdequant(xw, q, scale, offset), PTO_OK);
            expect_same_valid(x, xw);
        }
        assert_int_equal(warnings - before, host ? 0 : 3);
        assert_int_equal(pto_set_board_mode(0), PTO_OK);
        TILES_DESTROY(src, dst, scale, offset, tmp, want, q, x, xw);
    }
    pto_set_warning_handler(NULL, NULL);
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    print_message("[quant] board mode: %d warnings, the implementations' results\n", warnings);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tquant_values),   cmocka_unit_test(test_tquant_cases),
        cmocka_unit_test(test_tdequant_values), cmocka_unit_test(test_tquant_rules),
        cmocka_unit_test(test_tdequant_rules),  cmocka_unit_test(test_quant_programs),
        cmocka_unit_test(test_quant_board_mode),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
