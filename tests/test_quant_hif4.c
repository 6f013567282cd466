/* HiFloat4: pto_tquant_hif4 (TQUANT_HIF4) and pto_tmatmul_mx_hif4
 * (TMATMUL_MX_HIF4) against references written here from pto-isa's
 * TQUANT_HIF4.md, TMATMUL_MX_HIF4.md and the steps of the A6 ST goldens
 * (tests/npu/a6/src/st/testcase/tquant and tmatmul_mx, gen_data.py), in
 * double arithmetic on values: Ea as the nearest e6m2 code found by search
 * over the codes, each E1M2 code by search over its table, each bfloat16
 * step rounded from an exact double. Groups of random magnitudes, zeros,
 * negative zeros, subnormal and huge values, infinities, a NaN group,
 * short last groups; a worked example; the rules in order with nothing
 * written on a refusal; programs told to call the C functions. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/harness.h"

static double bf16_value(uint32_t h) {
    const uint32_t u = h << 16;
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* x (finite, nonzero, in bfloat16's normal range or at float32's) rounded
 * to 8 significant bits, nearest even; zeros kept. */
static double round_bf16(double x) {
    if (x == 0 || isinf(x) || isnan(x)) return x;
    int e;
    frexp(x, &e);
    if (e < -125) e = -125; /* subnormal: bfloat16's quantum 2^-133 */
    return ldexp(nearbyint(ldexp(x, 8 - e)), e - 8);
}

/* A float32 product of two bfloat16 values (exact in double) rounded to
 * bfloat16, as the golden rounds after each operation. */
static double mul_bf16(double a, double b) { return round_bf16((float)(a * b)); }

static double e6m2_value(unsigned c) { return ldexp(1.0 + (c & 3) * 0.25, (int)(c >> 2) - 48); }

/* The e6m2 code nearest to d (ties to the even code) among 0 .. 0xFE. */
static unsigned e6m2_nearest(double d) {
    if (d == 0) return 0;
    unsigned best = 0;
    for (unsigned c = 1; c <= 0xFE; ++c) {
        const double dc = fabs(e6m2_value(c) - d), db = fabs(e6m2_value(best) - d);
        if (dc < db || (dc == db && c % 2 == 0)) best = c;
    }
    return best;
}

/* The E1M2 code nearest to y (ties to the even code), sign where y < 0. */
static unsigned e1m2_nearest(double y) {
    const double a = fabs(y);
    if (a >= 1.75) return (y < 0 ? 8u : 0u) | 7u; /* past the table (and huge: no tie by rounding) */
    unsigned best = 0;
    for (unsigned c = 1; c < 8; ++c) {
        const double dc = fabs(c * 0.25 - a), db = fabs(best * 0.25 - a);
        if (dc < db || (dc == db && c % 2 == 0)) best = c;
    }
    return (y < 0 ? 8u : 0u) | best;
}

static uint16_t bf16_bits(double v) {
    const float f = (float)v; /* exact: v is a bfloat16 value */
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return (uint16_t)(u >> 16);
}

typedef struct {
    uint32_t word;
    uint8_t code[64];
    uint16_t max[16], scale[16];
} ref_group;

/* One group of n (<= 64) bfloat16 values, the rest zeros. */
static ref_group quantise_ref(const uint16_t *x, size_t n) {
    ref_group g;
    memset(&g, 0, sizeof g);
    double mc[16] = {0};
    bool nan = false;
    for (size_t k = 0; k < n; ++k) {
        const double a = fabs(bf16_value(x[k]));
        if (isnan(a)) nan = true;
        else if (a > mc[k / 4]) mc[k / 4] = a;
    }
    if (nan) {
        g.word = 0xFF;
        for (size_t k = 0; k < n; ++k) g.code[k] = 7;
        for (size_t q = 0; q < 16; ++q) {
            g.scale[q] = 0x7FC0;
            g.max[q] = bf16_bits(mc[q]);
            for (size_t k = 4 * q; k < 4 * q + 4 && k < n; ++k)
                if (isnan(bf16_value(x[k]))) g.max[q] = 0x7FC0;
        }
        return g;
    }
    double ma = 0;
    for (int q = 0; q < 16; ++q) ma = mc[q] > ma ? mc[q] : ma;
    const double d = mul_bf16(ma, bf16_value(0x3E12)); /* an infinity stays one */
    const unsigned ea = isinf(d) ? 0xFE : e6m2_nearest(d);
    const double r = ea == 0 ? 0 : round_bf16((float)(1.0 / e6m2_value(ea)));
    g.word = ea;
    for (int q = 0; q < 16; ++q) {
        const double mb = mc[q & ~1] > mc[q | 1] ? mc[q & ~1] : mc[q | 1];
        const int eb = mul_bf16(mb, r) >= 4, ec = mul_bf16(mul_bf16(mc[q], r), eb ? 0.5 : 1) >= 2;
        g.word |= (uint32_t)eb << (8 + q / 2) | (uint32_t)ec << (16 + q);
        const double s = r * (eb ? 0.5 : 1) * (ec ? 0.5 : 1);
        g.max[q] = bf16_bits(mc[q]);
        g.scale[q] = bf16_bits(s);
        for (int k = 4 * q; k < 4 * q + 4 && (size_t)k < n; ++k)
            g.code[k] = (uint8_t)e1m2_nearest(mul_bf16(bf16_value(x[k]), s));
    }
    return g;
}

/* A bfloat16 input of kind `kind`: about factor * 2^scale (kind 3). */
static uint16_t hif4_input(rng *r, int kind, int scale, double factor) {
    const uint64_t u = rng_next(r);
    const uint16_t sign = (u & 1) ? 0x8000 : 0;
    switch (kind) {
        case 0: return (uint16_t)(sign | 0); /* zeros of both signs */
        case 1: return (uint16_t)(sign | ((u >> 8) % 0x7F)); /* subnormals */
        case 2: return (uint16_t)(sign | (0x7F00 + (u >> 8) % 0x7F)); /* near bfloat16's largest */
        default: {
            const double v = factor * ldexp(0.5 + (double)((u >> 11) % 1000000) / 1000000.0, scale);
            return (uint16_t)(sign | bf16_bits(round_bf16(v)));
        }
    }
}

static pto_tile *hif4_src(uint32_t rows, uint32_t cols, uint64_t seed, bool specials) {
    pto_tile *src = tile_new(PTO_BFLOAT16, rows, cols, rows, cols);
    rng r = {seed};
    for (uint32_t i = 0; i < rows; ++i)
        for (uint32_t g = 0; g * 64 < cols; ++g) {
            /* Each group its own magnitude, from 2^-150 to 2^128 (some
             * groups wholly subnormal, huge, zero). */
            const int scale = (int)(rng_next(&r) % 60) - 40 + (specials ? (int)(rng_next(&r) % 3) * 60 - 60 : 0);
            const int group_kind = specials ? (int)(rng_next(&r) % 8) : 3;
            /* Each group's largest mantissa anywhere in [1, 2): Ea's every rounding. */
            const double factor = 1.0 + (double)(rng_next(&r) % 1024) / 1024.0;
            for (uint32_t j = 64 * g; j < cols && j < 64 * g + 64; ++j) {
                int kind = group_kind < 3 ? group_kind : 3;
                if (specials && rng_next(&r) % 10 == 0) kind = (int)(rng_next(&r) % 3);
                const int spread = (int)(rng_next(&r) % 8);
                tile_put(src, i, j, hif4_input(&r, kind, scale - spread, factor));
            }
        }
    return src;
}

static void check_against_ref(pto_tile *src, const char *what) {
    const uint32_t rows = pto_tile_valid_rows(src), cols = pto_tile_valid_cols(src);
    const uint32_t groups = (cols + 63) / 64, quads = (cols + 3) / 4;
    /* Padded outputs: nothing past their valid regions is written. */
    pto_tile *dst = tile_new(PTO_FLOAT4_E1M2X2, rows + 1, cols / 2 + 3, rows, cols / 2);
    pto_tile *exp = tile_new(PTO_UINT32, rows + 1, groups + 1, rows, groups);
    pto_tile *mx = tile_new(PTO_BFLOAT16, rows, quads, rows, quads), *sc = tile_new(PTO_BFLOAT16, rows, quads, rows, quads);
    tile_fill(dst, &(rng){rows * 7 + cols}, GEN_ANY);
    tile_fill(exp, &(rng){rows * 5 + cols}, GEN_ANY);
    uint64_t *dst_before = tile_snapshot(dst), *exp_before = tile_snapshot(exp);
    expect_status(pto_tquant_hif4(dst, src, exp, mx, sc), PTO_OK, what);
    for (uint32_t i = 0; i < rows + 1; ++i) {
        for (uint32_t j = 0; j < cols / 2 + 3; ++j)
            if (i >= rows || j >= cols / 2) assert_int_equal(tile_get(dst, i, j), dst_before[i * (cols / 2 + 3) + j]);
        for (uint32_t j = 0; j < groups + 1; ++j)
            if (i >= rows || j >= groups) assert_int_equal(tile_get(exp, i, j), exp_before[i * (groups + 1) + j]);
    }
    free(dst_before);
    free(exp_before);
    for (uint32_t i = 0; i < rows; ++i)
        for (uint32_t g = 0; g < groups; ++g) {
            uint16_t x[64];
            const uint32_t n = cols - 64 * g < 64 ? cols - 64 * g : 64;
            for (uint32_t k = 0; k < n; ++k) x[k] = (uint16_t)tile_get(src, i, 64 * g + k);
            const ref_group want = quantise_ref(x, n);
            if (tile_get(exp, i, g) != want.word)
                fail_msg("%s row %u group %u: word 0x%08llx, want 0x%08x", what, i, g,
                         (unsigned long long)tile_get(exp, i, g), want.word);
            for (uint32_t k = 0; k < n; ++k) {
                const uint32_t j = 64 * g + k;
                const unsigned code = (unsigned)(tile_get(dst, i, j / 2) >> (4 * (j % 2))) & 15;
                if (code != want.code[k])
                    fail_msg("%s (%u,%u) x=0x%04x word 0x%08x: code 0x%x, want 0x%x", what, i, j, x[k],
                             want.word, code, want.code[k]);
            }
            for (uint32_t q = 0; q < (n + 3) / 4; ++q) {
                assert_int_equal(tile_get(mx, i, 16 * g + q), want.max[q]);
                assert_int_equal(tile_get(sc, i, 16 * g + q), want.scale[q]);
            }
        }
    TILES_DESTROY(dst, exp, mx, sc);
}

static void test_tquant_hif4_values(void **state) {
    (void)state;
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    const uint32_t shapes[][2] = {{16, 64}, {8, 128}, {5, 192}, {3, 100}, {4, 2}, {2, 66}, {7, 320}};
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; ++s)
        for (int specials = 0; specials < 2; ++specials) {
            pto_tile *src = hif4_src(shapes[s][0], shapes[s][1], 0x41F4 + s * 2 + (uint64_t)specials, specials);
            char what[64];
            snprintf(what, sizeof what, "%ux%u%s", shapes[s][0], shapes[s][1], specials ? " specials" : "");
            check_against_ref(src, what);
            pto_tile_destroy(src);
        }
    /* Infinities, a NaN group, Ma on the edge of e6m2's range (7.9 * 2^-48
     * and 2^-48 round to code 0; 2^18 saturates), a tie of E1M2 codes. */
    pto_tile *src = tile_new(PTO_BFLOAT16, 6, 64, 6, 64);
    tile_put(src, 0, 3, 0x7F80);                            /* +inf */
    tile_put(src, 0, 40, 0x3F80);                           /* 1 */
    tile_put(src, 1, 9, 0xFFC1);                            /* a NaN */
    tile_put(src, 1, 10, 0x4000);
    tile_put(src, 2, 0, bf16_bits(ldexp(7.0, -48)));        /* d = 2^-48 (rounded): code 0 */
    tile_put(src, 2, 1, bf16_bits(ldexp(1.0, -60)));
    tile_put(src, 3, 0, bf16_bits(ldexp(1.0, 18)));         /* d past 2^16: 0xFE */
    tile_put(src, 3, 1, 0xC2F0);                            /* -120 */
    tile_put(src, 4, 5, 0x8000);                            /* -0 alone: a zero group */
    for (uint32_t j = 0; j < 64; ++j) tile_put(src, 5, j, bf16_bits((j % 8) * 0.125 + 0.0625));
    check_against_ref(src, "edges");
    pto_tile_destroy(src);
}

/* A worked example: Ma = 7 gives d = bfloat16(7 * 0.142578125) = 1, Ea
 * 0xC0; 7 in the first 8 and 4 sets Eb and Ec (scale 1/4: 7 -> 1.75, 1 ->
 * 0.25); -0.5 and 0.3 in the second 8 keep scale 1 (-0.5 -> 0xA, 0.30078125
 * -> 0.25, code 1). */
static void test_tquant_hif4_known(void **state) {
    (void)state;
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    pto_tile *src = tile_new(PTO_BFLOAT16, 1, 64, 1, 64), *dst = tile_new(PTO_FLOAT4_E1M2X2, 1, 32, 1, 32);
    pto_tile *exp = tile_new(PTO_UINT32, 1, 1, 1, 1), *sc = tile_new(PTO_BFLOAT16, 1, 16, 1, 16);
    tile_put(src, 0, 0, 0x40E0); /* 7 */
    tile_put(src, 0, 1, 0x3F80); /* 1 */
    tile_put(src, 0, 8, 0xBF00); /* -0.5 */
    tile_put(src, 0, 9, 0x3E9A); /* 0.30078125 */
    expect_status(pto_tquant_hif4(dst, src, exp, NULL, sc), PTO_OK, "known");
    assert_int_equal(tile_get(exp, 0, 0), 0x101C0);
    assert_int_equal(tile_get(dst, 0, 0), 0x17);
    assert_int_equal(tile_get(dst, 0, 4), 0x1A);
    assert_int_equal(tile_get(sc, 0, 0), 0x3E80); /* 0.25 */
    assert_int_equal(tile_get(sc, 0, 2), 0x3F80); /* 1 */
    TILES_DESTROY(src, dst, exp, sc);
}

static void expect_quant_refused(pto_tile *dst, const pto_tile *src, pto_tile *exp, pto_tile *mx, pto_tile *sc,
                                 pto_status want, const char *what) {
    uint64_t *snaps[4] = {NULL, NULL, NULL, NULL};
    pto_tile *outs[4] = {dst, exp, mx, sc};
    for (int k = 0; k < 4; ++k)
        if (outs[k] != NULL) snaps[k] = tile_snapshot(outs[k]);
    expect_status(pto_tquant_hif4(dst, src, exp, mx, sc), want, what);
    assert_true(strlen(pto_last_error()) > 0);
    for (int k = 0; k < 4; ++k)
        if (outs[k] != NULL) {
            assert_tile_unchanged(outs[k], snaps[k], what);
            free(snaps[k]);
        }
}

static void test_tquant_hif4_rules(void **state) {
    (void)state;
    pto_tile *src = tile_new(PTO_BFLOAT16, 4, 128, 4, 128), *f16 = tile_new(PTO_FLOAT16, 4, 128, 4, 128);
    pto_tile *dst = tile_new(PTO_FLOAT4_E1M2X2, 4, 64, 4, 64), *e2m1 = tile_new(PTO_FLOAT4_E2M1X2, 4, 64, 4, 64);
    pto_tile *exp = tile_new(PTO_UINT32, 4, 2, 4, 2), *exp8 = tile_new(PTO_UINT8, 4, 8, 4, 8);
    pto_tile *mx = tile_new(PTO_BFLOAT16, 4, 32, 4, 32), *sc = tile_new(PTO_BFLOAT16, 4, 32, 4, 32);
    pto_tile *mx32 = tile_new(PTO_FLOAT32, 4, 32, 4, 32), *exp3 = tile_new(PTO_UINT32, 4, 3, 4, 3);
    pto_tile *odd = tile_new(PTO_BFLOAT16, 4, 127, 4, 127), *short_dst = tile_new(PTO_FLOAT4_E1M2X2, 4, 64, 4, 63);
    pto_tile *sc_bad = tile_new(PTO_BFLOAT16, 4, 32, 4, 31);
    tile_fill(src, &(rng){9}, GEN_ANY);
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    expect_quant_refused(NULL, src, exp, mx, sc, PTO_ERR_NULL_ARGUMENT, "dst NULL");
    expect_quant_refused(dst, NULL, exp, mx, sc, PTO_ERR_NULL_ARGUMENT, "src NULL");
    expect_quant_refused(dst, src, NULL, mx, sc, PTO_ERR_NULL_ARGUMENT, "exp NULL");
    const pto_profile npus[2] = {PTO_PROFILE_A2A3, PTO_PROFILE_A5};
    for (int p = 0; p < 2; ++p) {
        assert_int_equal(pto_set_profile(npus[p]), PTO_OK);
        expect_quant_refused(dst, src, exp, mx, sc, PTO_ERR_UNSUPPORTED_DTYPE, "an NPU profile");
        assert_non_null(strstr(pto_last_error(), "A6"));
    }
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    expect_quant_refused(dst, f16, exp, NULL, NULL, PTO_ERR_UNSUPPORTED_DTYPE, "src FLOAT16");
    expect_quant_refused(e2m1, src, exp, NULL, NULL, PTO_ERR_UNSUPPORTED_DTYPE, "dst E2M1");
    expect_quant_refused(dst, src, exp8, NULL, NULL, PTO_ERR_UNSUPPORTED_DTYPE, "exp UINT8");
    expect_quant_refused(dst, src, exp, mx32, NULL, PTO_ERR_DTYPE_MISMATCH, "max FLOAT32");
    expect_quant_refused(dst, odd, exp, NULL, NULL, PTO_ERR_SHAPE_MISMATCH, "odd cols");
    expect_quant_refused(short_dst, src, exp, NULL, NULL, PTO_ERR_SHAPE_MISMATCH, "dst region");
    expect_quant_refused(dst, src, exp3, NULL, NULL, PTO_ERR_SHAPE_MISMATCH, "exp 4x3");
    expect_quant_refused(dst, src, exp, NULL, sc_bad, PTO_ERR_SHAPE_MISMATCH, "scaling 4x31");
    expect_quant_refused(dst, src, exp, mx, mx, PTO_ERR_ALIASING, "max is scaling");
    pto_buffer *buf = NULL;
    assert_int_equal(pto_buffer_create(4096, &buf), PTO_OK);
    pto_tile *src_at = NULL, *mx_at = NULL;
    assert_int_equal(pto_tile_create_at(PTO_BFLOAT16, 4, 128, buf, 0, &src_at), PTO_OK);
    assert_int_equal(pto_tile_create_at(PTO_BFLOAT16, 4, 32, buf, 256, &mx_at), PTO_OK);
    expect_quant_refused(dst, src_at, exp, mx_at, NULL, PTO_ERR_ALIASING, "max over src");
    TILES_DESTROY(src_at, mx_at);
    pto_buffer_destroy(buf);
    TILES_DESTROY(src, f16, dst, e2m1, exp, exp8, mx, sc, mx32, exp3, odd, short_dst, sc_bad);
}

/* tquant_hif4 is a row of the operation table (quantisation): exp its Aux
 * operand, max and scaling OptionalAux ones (further destinations, the
 * tests' generic call passing tmp for each), the trait NullsFirst (a NULL
 * exp is refused before a cube dst) and no text form. An empty src writes
 * nothing, as before. */
static void test_tquant_hif4_row(void **state) {
    (void)state;
    const op_info *row = op_row(OP_TQUANT_HIF4);
    assert_int_equal(row->family, OP_FAMILY_SPECIAL);
    assert_int_equal(row->source_count, 1);
    assert_int_equal(row->tmp, OP_TMP_NONE);
    assert_int_equal(row->attr, OP_ATTR_None);
    assert_true((row->traits & PTO_TRAIT_NullsFirst) != 0 && (row->traits & PTO_TRAIT_NoText) != 0);
    pto_tile *src = tile_new(PTO_BFLOAT16, 4, 128, 4, 128), *dst = tile_new(PTO_FLOAT4_E1M2X2, 4, 64, 4, 64);
    pto_tile *exp = tile_new(PTO_UINT32, 4, 2, 4, 2), *cube = NULL;
    assert_int_equal(pto_tile_create_cube(PTO_FLOAT4_E1M2X2, 16, 64, PTO_LOC_MAT, PTO_LAYOUT_NZ, &cube), PTO_OK);
    expect_status(pto_tquant_hif4(cube, src, NULL, NULL, NULL), PTO_ERR_NULL_ARGUMENT, "cube dst, NULL exp");
    assert_non_null(strstr(pto_last_error(), "exp"));
    expect_status(op_call(OP_TQUANT_HIF4, PTO_POW_DEFAULT, dst, src, NULL, NULL), PTO_ERR_NULL_ARGUMENT,
                  "the generic call without tmp: exp NULL");
    expect_status(op_call(OP_TQUANT_HIF4, PTO_POW_DEFAULT, dst, src, NULL, exp), PTO_ERR_DTYPE_MISMATCH,
                  "the generic call: tmp as exp, max and scaling");
    assert_non_null(strstr(pto_last_error(), "max"));
    assert_int_equal(pto_tile_set_valid(src, 4, 0), PTO_OK);
    assert_int_equal(pto_tile_set_valid(dst, 4, 0), PTO_OK);
    assert_int_equal(pto_tile_set_valid(exp, 4, 0), PTO_OK);
    tile_fill(dst, &(rng){5}, GEN_ANY);
    tile_fill(exp, &(rng){6}, GEN_ANY);
    uint64_t *kept_dst = tile_snapshot(dst), *kept_exp = tile_snapshot(exp);
    assert_int_equal(pto_tquant_hif4(dst, src, exp, NULL, NULL), PTO_OK);
    assert_tile_unchanged(dst, kept_dst, "an empty src's dst");
    assert_tile_unchanged(exp, kept_exp, "an empty src's exp");
    free(kept_dst);
    free(kept_exp);
    pto_tile_destroy(cube);
    TILES_DESTROY(src, dst, exp);
}

/* ---- pto_tmatmul_mx_hif4 ---- */

static double hif4_value(unsigned code, uint32_t word, unsigned pos) {
    const unsigned ea = word & 0xFF;
    if (ea == 0xFF) return NAN;
    const double v = ((code & 8) ? -1.0 : 1.0) * (code & 7) * 0.25;
    if (ea == 0) return v * 0.0;
    return v * e6m2_value(ea) * ldexp(1.0, (int)((word >> (8 + pos / 8)) & 1) + (int)((word >> (16 + pos / 4)) & 1));
}

static unsigned nibble(const pto_tile *t, uint32_t i, uint32_t j) {
    return (unsigned)(tile_get(t, i, j / 2) >> (4 * (j % 2))) & 15;
}

static uint32_t round_up(uint32_t x, uint32_t to) { return (x + to - 1) / to * to; }

/* A cube tile (HOST takes any location and layout) holding t's valid region
 * (row-major, pto_tile_write), the rest zeros. */
static pto_tile *cube_copy(const pto_tile *t, uint32_t rows, uint32_t cols, pto_location loc, pto_layout layout) {
    pto_tile *c = NULL;
    const size_t size = pto_dtype_size(pto_tile_dtype(t));
    assert_int_equal(pto_tile_create_cube(pto_tile_dtype(t), rows, cols, loc, layout, &c), PTO_OK);
    unsigned char *all = calloc((size_t)rows * cols, size);
    for (uint32_t i = 0; i < pto_tile_valid_rows(t); ++i)
        for (uint32_t j = 0; j < pto_tile_valid_cols(t); ++j) {
            const uint64_t v = tile_get(t, i, j);
            memcpy(all + ((size_t)i * cols + j) * size, &v, size); /* little-endian */
        }
    assert_int_equal(pto_tile_write(c, all, (size_t)rows * cols * size), PTO_OK);
    assert_int_equal(pto_tile_set_valid(c, pto_tile_valid_rows(t), pto_tile_valid_cols(t)), PTO_OK);
    free(all);
    return c;
}

/* The same product on cube tiles (a LEFT NZ, b RIGHT ZN, dst ACC NZ): the
 * operands staged row-major give the row-major tiles' bits. */
static void check_matmul_cube(const pto_tile *a, const pto_tile *aw, const pto_tile *b, const pto_tile *bw,
                              const pto_tile *want) {
    const uint32_t m = pto_tile_valid_rows(a), k = pto_tile_valid_rows(b), n = pto_tile_valid_cols(want);
    pto_tile *ca = cube_copy(a, round_up(m, 16), round_up(k, 64) / 2, PTO_LOC_LEFT, PTO_LAYOUT_NZ);
    pto_tile *cb = cube_copy(b, round_up(k, 64), round_up(n, 64) / 2, PTO_LOC_RIGHT, PTO_LAYOUT_ZN);
    pto_tile *cd = NULL;
    assert_int_equal(pto_tile_create_cube(PTO_FLOAT32, round_up(m, 16), round_up(n, 16), PTO_LOC_ACC, PTO_LAYOUT_NZ,
                                          &cd),
                     PTO_OK);
    assert_int_equal(pto_tile_set_valid(cd, m, n), PTO_OK);
    expect_status(pto_tmatmul_mx_hif4(cd, ca, aw, cb, bw), PTO_OK, "cube tiles");
    const uint32_t rows = pto_tile_rows(cd), cols = pto_tile_cols(cd);
    float *got = calloc((size_t)rows * cols, sizeof(float));
    assert_int_equal(pto_tile_read(cd, got, (size_t)rows * cols * sizeof(float)), PTO_OK);
    for (uint32_t i = 0; i < m; ++i)
        for (uint32_t j = 0; j < n; ++j) {
            uint32_t g;
            memcpy(&g, &got[(size_t)i * cols + j], sizeof g);
            assert_int_equal(g, tile_get(want, i, j));
        }
    free(got);
    TILES_DESTROY(ca, cb, cd);
}

/* a (m x k) and bt (n x k, b's transpose) quantised by pto_tquant_hif4;
 * b and b_scale their transposes; dst against fmaf chains in k order. */
static void check_matmul(uint32_t m, uint32_t k, uint32_t n, uint64_t seed, uint32_t poison) {
    const uint32_t g = (k + 63) / 64;
    pto_tile *as = hif4_src(m, k, seed, false), *bts = hif4_src(n, k, seed + 1, false);
    pto_tile *a = tile_new(PTO_FLOAT4_E1M2X2, m + 1, k / 2 + 3, m, k / 2), *aw = tile_new(PTO_UINT32, m + 1, g + 2, m, g);
    pto_tile *bt = tile_new(PTO_FLOAT4_E1M2X2, n, k / 2, n, k / 2), *btw = tile_new(PTO_UINT32, n, g, n, g);
    expect_status(pto_tquant_hif4(a, as, aw, NULL, NULL), PTO_OK, "quantise a");
    expect_status(pto_tquant_hif4(bt, bts, btw, NULL, NULL), PTO_OK, "quantise b's transpose");
    if (poison != 0) tile_put(aw, 0, 0, poison); /* a zero (0) or NaN (0xFF) group */
    pto_tile *b = tile_new(PTO_FLOAT4_E1M2X2, k + 1, n / 2 + 1, k, n / 2), *bw = tile_new(PTO_UINT32, g + 1, n + 3, g, n);
    for (uint32_t kk = 0; kk < k; ++kk)
        for (uint32_t j = 0; j < n; j += 2)
            tile_put(b, kk, j / 2, nibble(bt, j, kk) | nibble(bt, j + 1, kk) << 4);
    for (uint32_t q = 0; q < g; ++q)
        for (uint32_t j = 0; j < n; ++j) tile_put(bw, q, j, tile_get(btw, j, q));
    /* Padded tiles: rows and strides past the valid regions. */
    pto_tile *dst = tile_new(PTO_FLOAT32, m + 2, n + 5, m, n);
    tile_fill(dst, &(rng){seed}, GEN_ANY); /* overwritten: the seed is 0 */
    uint64_t *before = tile_snapshot(dst);
    expect_status(pto_tmatmul_mx_hif4(dst, a, aw, b, bw), PTO_OK, "pto_tmatmul_mx_hif4");
    for (uint32_t i = 0; i < m + 2; ++i)
        for (uint32_t j = 0; j < n + 5; ++j)
            if (i >= m || j >= n) assert_int_equal(tile_get(dst, i, j), before[(size_t)i * (n + 5) + j]);
    free(before);
    for (uint32_t i = 0; i < m; ++i)
        for (uint32_t j = 0; j < n; ++j) {
            float acc = 0.0f;
            for (uint32_t kk = 0; kk < k; ++kk)
                acc = fmaf((float)hif4_value(nibble(a, i, kk), (uint32_t)tile_get(aw, i, kk / 64), kk % 64),
                           (float)hif4_value(nibble(bt, j, kk), (uint32_t)tile_get(btw, j, kk / 64), kk % 64), acc);
            uint32_t want;
            memcpy(&want, &acc, sizeof want);
            const uint32_t got = (uint32_t)tile_get(dst, i, j);
            if (got != want && !(isnan(acc) && (got & 0x7FFFFFFFu) > 0x7F800000u))
                fail_msg("%ux%ux%u (%u,%u): 0x%08x, want 0x%08x (%g)", m, k, n, i, j, got, want, acc);
        }
    if (m > 1) check_matmul_cube(a, aw, b, bw, dst);
    TILES_DESTROY(as, bts, a, aw, bt, btw, b, bw, dst);
}

static void test_tmatmul_mx_hif4_values(void **state) {
    (void)state;
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    check_matmul(5, 128, 6, 0x700, 0);
    check_matmul(1, 64, 4, 0x701, 0);
    check_matmul(3, 100, 6, 0x702, 0);
    check_matmul(33, 192, 130, 0x703, 0); /* past the kernel's blocks of 32 rows and 128 columns */
    check_matmul(2, 64, 4, 0x704, 0xFF);  /* a NaN group: row 0 NaN */
    check_matmul(2, 128, 4, 0x705, 0xC0 | 0); /* Ea 0xC0, Eb and Ec 0 on a's first group */
}

static void test_tmatmul_mx_hif4_rules(void **state) {
    (void)state;
    pto_tile *a = tile_new(PTO_FLOAT4_E1M2X2, 4, 64, 4, 64), *aw = tile_new(PTO_UINT32, 4, 2, 4, 2);
    pto_tile *b = tile_new(PTO_FLOAT4_E1M2X2, 128, 4, 128, 4), *bw = tile_new(PTO_UINT32, 2, 8, 2, 8);
    pto_tile *dst = tile_new(PTO_FLOAT32, 4, 8, 4, 8), *d16 = tile_new(PTO_FLOAT16, 4, 8, 4, 8);
    pto_tile *e2m1 = tile_new(PTO_FLOAT4_E2M1X2, 4, 64, 4, 64), *aw8 = tile_new(PTO_FLOAT8_E8M0, 4, 2, 4, 2);
    pto_tile *aw3 = tile_new(PTO_UINT32, 4, 3, 4, 3), *bw_bad = tile_new(PTO_UINT32, 4, 8, 4, 8);
    pto_tile *dst_bad = tile_new(PTO_FLOAT32, 4, 8, 4, 7);
    struct {
        pto_tile *d, *a, *as, *b, *bs;
        pto_profile profile;
        pto_status want;
        const char *what;
    } cases[] = {
        {NULL, a, aw, b, bw, PTO_PROFILE_HOST, PTO_ERR_NULL_ARGUMENT, "dst NULL"},
        {dst, a, NULL, b, bw, PTO_PROFILE_HOST, PTO_ERR_NULL_ARGUMENT, "a_scale NULL"},
        {dst, a, aw, b, bw, PTO_PROFILE_A2A3, PTO_ERR_UNSUPPORTED_DTYPE, "A2A3"},
        {dst, a, aw, b, bw, PTO_PROFILE_A5, PTO_ERR_UNSUPPORTED_DTYPE, "A5"},
        {d16, a, aw, b, bw, PTO_PROFILE_HOST, PTO_ERR_UNSUPPORTED_DTYPE, "dst FLOAT16"},
        {dst, e2m1, aw, b, bw, PTO_PROFILE_HOST, PTO_ERR_UNSUPPORTED_DTYPE, "a E2M1"},
        {dst, a, aw8, b, bw, PTO_PROFILE_HOST, PTO_ERR_UNSUPPORTED_DTYPE, "a_scale E8M0"},
        {dst, a, aw, b, bw, PTO_PROFILE_HOST, PTO_OK, "accepted"},
        {dst, a, aw3, b, bw, PTO_PROFILE_HOST, PTO_ERR_SHAPE_MISMATCH, "a_scale 4x3"},
        {dst, a, aw, b, bw_bad, PTO_PROFILE_HOST, PTO_ERR_SHAPE_MISMATCH, "b_scale 4x8"},
        {dst_bad, a, aw, b, bw, PTO_PROFILE_HOST, PTO_ERR_SHAPE_MISMATCH, "dst 4x7"},
        {dst, e2m1, aw, e2m1, bw, PTO_PROFILE_HOST, PTO_ERR_UNSUPPORTED_DTYPE, "b E2M1"},
        {(pto_tile *)aw, a, aw, b, bw, PTO_PROFILE_HOST, PTO_ERR_UNSUPPORTED_DTYPE, "dst UINT32"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
        assert_int_equal(pto_set_profile(cases[c].profile), PTO_OK);
        uint64_t *snap = cases[c].d != NULL ? tile_snapshot(cases[c].d) : NULL;
        expect_status(pto_tmatmul_mx_hif4(cases[c].d, cases[c].a, cases[c].as, cases[c].b, cases[c].bs), cases[c].want,
                      cases[c].what);
        if (cases[c].want != PTO_OK) {
            assert_true(strlen(pto_last_error()) > 0);
            if (snap != NULL) assert_tile_unchanged(cases[c].d, snap, cases[c].what);
        }
        free(snap);
    }
    /* dst over a source's storage. */
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    pto_tile *wide = tile_new(PTO_FLOAT32, 4, 8, 4, 8);
    expect_status(pto_tmatmul_mx_hif4(wide, a, aw, b, (pto_tile *)wide), PTO_ERR_UNSUPPORTED_DTYPE, "b_scale FLOAT32");
    pto_buffer *buf = NULL;
    assert_int_equal(pto_buffer_create(4096, &buf), PTO_OK);
    pto_tile *alias = NULL, *bw_at = NULL;
    assert_int_equal(pto_tile_create_at(PTO_FLOAT32, 4, 8, buf, 0, &alias), PTO_OK);
    assert_int_equal(pto_tile_create_at(PTO_UINT32, 2, 8, buf, 64, &bw_at), PTO_OK);
    expect_status(pto_tmatmul_mx_hif4(alias, a, aw, b, bw_at), PTO_ERR_ALIASING, "dst on b_scale");
    TILES_DESTROY(a, aw, b, bw, dst, d16, e2m1, aw8, aw3, bw_bad, dst_bad, wide, alias, bw_at);
    pto_buffer_destroy(buf);
}

/* PTOAS has no op for either: a program is told which C function to call. */
static void test_hif4_programs(void **state) {
    (void)state;
    expect_program_refused_with("pto.tquant_hif4 ins(%s : f32) outs(%d : f32)\n", NULL, "pto_tquant_hif4");
    expect_program_refused_with("pto.tmatmul_mx_hif4 ins(%a : f32) outs(%d : f32)\n", NULL, "pto_tmatmul_mx_hif4");
    expect_program_refused_with("pto.tmatmul.mx.hif4 ins(%a : f32) outs(%d : f32)\n", NULL, "pto_tmatmul_mx_hif4");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tquant_hif4_values),
        cmocka_unit_test(test_tquant_hif4_known),
        cmocka_unit_test(test_tquant_hif4_rules),
        cmocka_unit_test(test_tquant_hif4_row),
        cmocka_unit_test(test_tmatmul_mx_hif4_values),
        cmocka_unit_test(test_tmatmul_mx_hif4_rules),
        cmocka_unit_test(test_hif4_programs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
