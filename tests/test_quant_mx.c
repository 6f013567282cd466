/* TQUANT's MX forms (pto_tquant_mx) against a reference written here from
 * pto-isa's TQUANT.md / TQUANT_DN.md and the A5 ST goldens' steps
 * (tests/npu/a5/src/st/testcase/tquant and tquant_dn, gen_data.py): per block of 32 the
 * abs maximum (float16 under OCP through bfloat16 truncation), the E8M0
 * exponent (OCP: exponent - emax, at least 0; NV: exponent of max / 448 or
 * / 6 rounded up), the scale 2^(127 - e8m0), and each element's product
 * rounded to nearest even and saturated to E4M3 (+-448) or E2M1 (+-6), in
 * double arithmetic on values (not the library's bit manipulation). Every
 * algorithm, source dtype, both group axes, partial blocks, NaN / infinity /
 * zero / subnormal blocks; the rules in order with nothing written on a
 * refusal; the text form in a program. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/harness.h"

static double f32_value(uint32_t b) {
    float f;
    memcpy(&f, &b, sizeof f);
    return f;
}
static uint32_t f32_bits(float f) {
    uint32_t b;
    memcpy(&b, &f, sizeof b);
    return b;
}
static double f16_value(uint32_t h) {
    const int e = (h >> 10) & 31, m = h & 1023;
    const double s = (h & 0x8000) ? -1.0 : 1.0;
    if (e == 31) return m ? NAN : s * INFINITY;
    return s * (e ? ldexp(1024 + m, e - 25) : ldexp(m, -24));
}
static double src_value(pto_dtype dt, uint64_t bits) {
    if (dt == PTO_FLOAT32) return f32_value((uint32_t)bits);
    if (dt == PTO_BFLOAT16) return f32_value((uint32_t)bits << 16);
    return f16_value((uint32_t)bits);
}

/* The value of an E4M3FN code (0x7F / 0xFF NaN) and of an E2M1 code. */
static double e4m3_value(unsigned c) {
    const int e = (c >> 3) & 15, m = c & 7;
    const double v = e ? ldexp(8 + m, e - 10) : ldexp(m, -9);
    return (c & 0x80) ? -v : v;
}
static double e2m1_value(unsigned c) {
    static const double kMag[8] = {0, 0.5, 1, 1.5, 2, 3, 4, 6};
    return (c & 8) ? -kMag[c & 7] : kMag[c & 7];
}

/* y rounded to nearest even on the format's grid, saturated, as a code. */
static unsigned encode_ref(double y, bool fp4) {
    const bool neg = signbit(y);
    double a = fabs(y);
    const double largest = fp4 ? 6.0 : 448.0;
    double quantum;
    if (fp4) quantum = a < 2 ? 0.5 : a < 4 ? 1.0 : 2.0;
    else {
        int e;
        frexp(a, &e); /* a in [2^(e-1), 2^e) */
        quantum = a < ldexp(1, -6) ? ldexp(1, -9) : ldexp(1, e - 1 - 3);
    }
    double q = isinf(a) ? largest : nearbyint(a / quantum) * quantum;
    if (q > largest) q = largest;
    const unsigned top = fp4 ? 8 : 0x7F;
    for (unsigned c = 0; c < top; ++c) {
        const double v = fp4 ? e2m1_value(c) : e4m3_value(c);
        if (v == q) return c | (neg ? (fp4 ? 8u : 0x80u) : 0u);
    }
    fail_msg("no code for %g", q);
    return 0;
}

typedef struct {
    pto_dtype src;
    pto_mx_alg alg;
    int axis;
} mx_case;

static bool alg_fp4(pto_mx_alg a) { return a == PTO_MX_OCP_FP4_E2M1 || a == PTO_MX_NV_FP4_E2M1; }
static bool alg_nv(pto_mx_alg a) { return a == PTO_MX_NV_FP8_E4M3 || a == PTO_MX_NV_FP4_E2M1; }

/* The bits of the reference block maximum as the golden keeps it, its float32
 * bits for the exponent, and whether the block holds a NaN. */
static void block_max(const mx_case *c, const pto_tile *src, uint32_t r0, uint32_t r1, uint32_t c0,
                      uint32_t c1, double *max, bool *nan) {
    *max = 0;
    *nan = false;
    for (uint32_t i = r0; i < r1; ++i)
        for (uint32_t j = c0; j < c1; ++j) {
            double v = fabs(src_value(c->src, tile_get(src, i, j)));
            if (isnan(v)) *nan = true;
            /* OCP reduces float16 as bfloat16 truncated toward zero. */
            if (c->src == PTO_FLOAT16 && !alg_nv(c->alg) && isfinite(v))
                v = f32_value(f32_bits((float)v) & 0xFFFF0000u);
            if (v > *max) *max = v;
        }
}

static unsigned e8m0_ref(const mx_case *c, double max) {
    const uint32_t bits = f32_bits((float)max);
    const int e = (int)((bits >> 23) & 0xFF);
    if (!alg_nv(c->alg)) {
        const int emax = alg_fp4(c->alg) ? 2 : 8;
        return e <= emax ? 0u : (unsigned)(e - emax);
    }
    if (isinf(max)) return 0xFE;
    const float descale = (float)max * (alg_fp4(c->alg) ? 1.0f / 6.0f : 1.0f / 448.0f);
    const uint32_t d = f32_bits(descale);
    const int de = (int)((d >> 23) & 0xFF);
    const uint32_t dm = d & 0x7FFFFF;
    const bool up = dm > 0 && de != 0xFE && !(de == 0 && dm <= 0x400000);
    return (unsigned)(de + (up ? 1 : 0));
}

static uint64_t scale_bits_ref(const mx_case *c, unsigned e8m0, bool nan) {
    const double s = ldexp(1.0, 127 - (int)e8m0);
    if (c->src == PTO_FLOAT32) return nan ? 0x7FC00000u : f32_bits((float)s);
    if (nan) return alg_fp4(c->alg) ? 0x7FC0u : 0x7F81u;
    return f32_bits((float)s) >> 16;
}

static uint64_t max_bits_ref(const mx_case *c, double max, bool nan) {
    if (c->src == PTO_FLOAT32) return nan ? 0x7FC00000u : f32_bits((float)max);
    if (c->src == PTO_FLOAT16 && alg_nv(c->alg)) {
        if (nan) return 0x7E00u;
        /* the float16 of max (exact) */
        for (uint32_t h = 0; h < 0x7C01u; ++h)
            if (f16_value(h) == max) return h;
        fail_msg("max %g is no float16", max);
    }
    return nan ? 0x7FC0u : (f32_bits((float)max) >> 16);
}

static uint32_t dst_code(const pto_tile *dst, uint32_t i, uint32_t j, bool fp4) {
    if (!fp4) return (uint32_t)tile_get(dst, i, j) & 0xFF;
    const uint32_t byte = (uint32_t)tile_get(dst, i, j / 2);
    return (j % 2 ? byte >> 4 : byte) & 0xF;
}

/* Runs one case on src (its valid region) and checks every output. */
static void check_case(const mx_case *c, const pto_tile *src) {
    const bool fp4 = alg_fp4(c->alg), dn = c->axis == 0;
    const uint32_t vr = pto_tile_valid_rows(src), vc = pto_tile_valid_cols(src);
    const uint32_t br = dn ? (vr + 31) / 32 : vr, bc = dn ? vc : (vc + 31) / 32;
    pto_tile *dst = tile_new(fp4 ? PTO_FLOAT4_E2M1X2 : PTO_FLOAT8_E4M3, vr, fp4 ? vc / 2 : vc, vr,
                             fp4 ? vc / 2 : vc);
    pto_tile *exp = tile_new(PTO_FLOAT8_E8M0, br, bc, br, bc);
    pto_tile *mx = tile_new(c->src, br, bc, br, bc), *sc = tile_new(c->src, br, bc, br, bc);
    expect_status(pto_tquant_mx(dst, src, exp, mx, sc, c->alg, c->axis), PTO_OK, "pto_tquant_mx");
    for (uint32_t gi = 0; gi < br; ++gi)
        for (uint32_t gj = 0; gj < bc; ++gj) {
            const uint32_t r0 = dn ? gi * 32 : gi, c0 = dn ? gj : gj * 32;
            const uint32_t r1 = dn ? (r0 + 32 < vr ? r0 + 32 : vr) : r0 + 1;
            const uint32_t c1 = dn ? c0 + 1 : (c0 + 32 < vc ? c0 + 32 : vc);
            double max;
            bool nan;
            block_max(c, src, r0, r1, c0, c1, &max, &nan);
            const unsigned e = nan ? 0xFF : e8m0_ref(c, max);
            if (tile_get(exp, gi, gj) != e)
                fail_msg("src %s alg %d axis %d block (%u,%u): exp 0x%llx, want 0x%x (max %g)",
                         pto_dtype_string(c->src), c->alg, c->axis, gi, gj,
                         (unsigned long long)tile_get(exp, gi, gj), e, max);
            assert_int_equal(tile_get(sc, gi, gj), scale_bits_ref(c, nan ? 0 : e, nan));
            assert_int_equal(tile_get(mx, gi, gj), max_bits_ref(c, max, nan));
            for (uint32_t i = r0; i < r1; ++i)
                for (uint32_t j = c0; j < c1; ++j) {
                    const uint64_t bits = tile_get(src, i, j);
                    const double x = src_value(c->src, bits);
                    unsigned want;
                    if (nan) {
                        const uint64_t sign_bit = c->src == PTO_FLOAT32 ? 0x80000000u : 0x8000u;
                        const bool neg_nan = isnan(x) && (bits & sign_bit) != 0;
                        want = fp4 ? 0x7 : (neg_nan ? 0xFF : 0x7F);
                    } else {
                        want = encode_ref(x * ldexp(1.0, 127 - (int)e), fp4);
                    }
                    if (dst_code(dst, i, j, fp4) != want)
                        fail_msg("src %s alg %d axis %d (%u,%u) x=%g e8m0=%u: code 0x%x, want 0x%x",
                                 pto_dtype_string(c->src), c->alg, c->axis, i, j, x, e,
                                 dst_code(dst, i, j, fp4), want);
                }
        }
    TILES_DESTROY(dst, exp, mx, sc);
}

/* A source element: a value spread over many binades, with the block's
 * specials (zeros, subnormals, the format's edges, ties) mixed in; NaN and
 * infinities only in the blocks `special` picks. */
static uint64_t mx_input(rng *r, pto_dtype dt, size_t k, int special) {
    static const double kEdges[] = {448, -448, 464, 480, 6, -6, 5, 7, 2.5, 0.25, 0.75,
                                    3.5, 0, -0.0, 449, 447};
    double v;
    const uint64_t u = rng_next(r);
    if (special == 1 && k % 9 == 4) v = NAN;
    else if (special == 1 && k % 9 == 5) v = -NAN;
    else if (special == 2 && k % 5 == 1) v = (k & 2) ? INFINITY : -INFINITY;
    else if (special == 3) v = (u & 1) ? 0.0 : -0.0;
    else if (k % 6 == 2) v = kEdges[(u >> 8) % 16] * ldexp(1.0, (int)((u >> 20) % 7) - 3);
    else if (k % 11 == 7) return (dt == PTO_FLOAT32 ? (u & 0x807FFFFFu) : (u & 0x807Fu)) | 1u;
    else {
        const int lo = dt == PTO_FLOAT16 ? -26 : -140, span = dt == PTO_FLOAT16 ? 42 : 270;
        v = ldexp(1.0 + (double)((u >> 12) & 0xFFFFF) / 1048576.0, lo + (int)((u >> 40) % span));
        if (u & 1) v = -v;
    }
    if (dt == PTO_FLOAT32) return f32_bits((float)v);
    if (dt == PTO_BFLOAT16) {
        const uint32_t b = f32_bits((float)v);
        return isnan(v) ? (b >> 16) | 0x40 : (b + 0x7FFF + ((b >> 16) & 1)) >> 16;
    }
    /* float16: v rounded by the conversion the compiler does for _Float16 is
     * not portable C; search the nearest below (exact enough for inputs). */
    if (isnan(v)) return signbit(v) ? 0xFE00u : 0x7E00u;
    if (isinf(v)) return v > 0 ? 0x7C00u : 0xFC00u;
    uint32_t best = 0;
    const double a = fabs(v);
    for (uint32_t lo = 0, hi = 0x7BFF; lo <= hi;) {
        const uint32_t mid = (lo + hi) / 2;
        if (f16_value(mid) <= a) best = mid, lo = mid + 1;
        else if (mid == 0) break;
        else hi = mid - 1;
    }
    return best | (signbit(v) ? 0x8000u : 0u);
}

static void test_tquant_mx_values(void **state) {
    (void)state;
    static const pto_dtype kSrc[] = {PTO_FLOAT32, PTO_BFLOAT16, PTO_FLOAT16};
    static const uint32_t kShapes[][2] = {{1, 32}, {3, 64}, {64, 64}, {33, 96}, {7, 48}, {32, 2}, {40, 30}};
    rng r = {0x6d78};
    size_t cases = 0;
    for (int p = 0; p < 2; ++p) {
        assert_int_equal(pto_set_profile(p ? PTO_PROFILE_A5 : PTO_PROFILE_HOST), PTO_OK);
        for (size_t s = 0; s < 3; ++s)
            for (int alg = 0; alg < 4; ++alg) {
                if (alg_fp4((pto_mx_alg)alg) && kSrc[s] == PTO_FLOAT32) continue;
                for (int axis = 0; axis < 2; ++axis)
                    for (size_t sh = 0; sh < sizeof kShapes / sizeof kShapes[0]; ++sh) {
                        const uint32_t rows = kShapes[sh][0], cols = kShapes[sh][1];
                        pto_tile *src = tile_new(kSrc[s], rows, cols + 2, rows, cols);
                        for (uint32_t i = 0; i < rows; ++i)
                            for (uint32_t j = 0; j < cols; ++j) {
                                /* the block's kind from its index along the axis */
                                const uint32_t blk = axis ? i * 7 + j / 32 : (i / 32) * 7 + j;
                                tile_put(src, i, j, mx_input(&r, kSrc[s], i * cols + j, (int)(blk % 5)));
                            }
                        const mx_case c = {kSrc[s], (pto_mx_alg)alg, axis};
                        check_case(&c, src);
                        pto_tile_destroy(src);
                        ++cases;
                    }
            }
    }
    assert_int_equal(cases, 2 * (3 * 2 + 2 * 2) * 2 * 7);
}

/* A block worked by hand from the page's formulas. */
static void test_tquant_mx_known(void **state) {
    (void)state;
    assert_int_equal(pto_set_profile(PTO_PROFILE_A5), PTO_OK);
    pto_tile *src = tile_new(PTO_FLOAT32, 1, 32, 1, 32);
    pto_tile *dst = tile_new(PTO_INT8, 1, 32, 1, 32), *exp = tile_new(PTO_UINT8, 1, 1, 1, 1);
    for (uint32_t j = 0; j < 32; ++j) tile_put(src, 0, j, f32_bits(j == 0 ? 10.0f : j == 1 ? -0.0625f : 1.0f));
    /* max 10: exponent 130, e8m0 122, scale 2^5: 10 -> 320 (0x7A), -0.0625 ->
     * -2 (0xC0), 1 -> 32 (0x60). */
    expect_status(pto_tquant_mx(dst, src, exp, NULL, NULL, PTO_MX_OCP_FP8_E4M3, 1), PTO_OK, "known");
    assert_int_equal(tile_get(exp, 0, 0), 122);
    assert_int_equal(tile_get(dst, 0, 0), 0x7A);
    assert_int_equal(tile_get(dst, 0, 1), 0xC0);
    assert_int_equal(tile_get(dst, 0, 2), 0x60);
    /* NV: 10 / 448 = 0.0223 -> exponent 121 rounded up to 122, the same. */
    expect_status(pto_tquant_mx(dst, src, exp, NULL, NULL, PTO_MX_NV_FP8_E4M3, 1), PTO_OK, "known nv");
    assert_int_equal(tile_get(exp, 0, 0), 122);
    TILES_DESTROY(src, dst, exp);
}

static void expect_refused(pto_tile *dst, const pto_tile *src, pto_tile *exp, pto_tile *mx, pto_tile *sc,
                           int alg, int axis, pto_status want, const char *what) {
    uint64_t *snaps[4] = {NULL, NULL, NULL, NULL};
    pto_tile *outs[4] = {dst, exp, mx, sc};
    for (int k = 0; k < 4; ++k)
        if (outs[k] != NULL) snaps[k] = tile_snapshot(outs[k]);
    expect_status(pto_tquant_mx(dst, src, exp, mx, sc, (pto_mx_alg)alg, axis), want, what);
    assert_true(strlen(pto_last_error()) > 0);
    for (int k = 0; k < 4; ++k)
        if (outs[k] != NULL) {
            assert_tile_unchanged(outs[k], snaps[k], what);
            free(snaps[k]);
        }
}

static void test_tquant_mx_rules(void **state) {
    (void)state;
    assert_int_equal(pto_set_profile(PTO_PROFILE_A5), PTO_OK);
    pto_tile *src = tile_new(PTO_BFLOAT16, 64, 64, 64, 64);
    pto_tile *f32 = tile_new(PTO_FLOAT32, 64, 64, 64, 64);
    pto_tile *d8 = tile_new(PTO_FLOAT8_E4M3, 64, 64, 64, 64);
    pto_tile *d4 = tile_new(PTO_FLOAT4_E2M1X2, 64, 32, 64, 32);
    pto_tile *exp = tile_new(PTO_FLOAT8_E8M0, 64, 2, 64, 2), *exp_dn = tile_new(PTO_UINT8, 2, 64, 2, 64);
    pto_tile *mx = tile_new(PTO_BFLOAT16, 64, 2, 64, 2), *sc = tile_new(PTO_BFLOAT16, 64, 2, 64, 2);
    pto_tile *mx32 = tile_new(PTO_FLOAT32, 64, 2, 64, 2), *e16 = tile_new(PTO_INT16, 64, 2, 64, 2);
    pto_tile *exp_bad = tile_new(PTO_UINT8, 64, 3, 64, 3), *i32 = tile_new(PTO_INT32, 64, 64, 64, 64);
    pto_tile *odd = tile_new(PTO_BFLOAT16, 64, 63, 64, 63), *d4odd = tile_new(PTO_FLOAT4_E2M1X2, 64, 32, 64, 31);
    tile_fill(src, &(rng){7}, GEN_ANY);
    const int ocp8 = PTO_MX_OCP_FP8_E4M3, ocp4 = PTO_MX_OCP_FP4_E2M1;
    expect_refused(NULL, src, exp, mx, sc, ocp8, 1, PTO_ERR_NULL_ARGUMENT, "dst NULL");
    expect_refused(d8, NULL, exp, mx, sc, ocp8, 1, PTO_ERR_NULL_ARGUMENT, "src NULL");
    expect_refused(d8, src, NULL, mx, sc, ocp8, 1, PTO_ERR_NULL_ARGUMENT, "exp NULL");
    expect_refused(d8, src, exp, mx, sc, 4, 1, PTO_ERR_INVALID_ARGUMENT, "alg 4");
    expect_refused(d8, src, exp, mx, sc, -1, 1, PTO_ERR_INVALID_ARGUMENT, "alg -1");
    expect_refused(d8, src, exp, mx, sc, ocp8, 2, PTO_ERR_INVALID_ARGUMENT, "axis 2");
    assert_int_equal(pto_set_profile(PTO_PROFILE_A2A3), PTO_OK);
    expect_refused(d8, src, exp, mx, sc, ocp8, 1, PTO_ERR_UNSUPPORTED_DTYPE, "A2A3");
    assert_int_equal(pto_set_profile(PTO_PROFILE_A5), PTO_OK);
    expect_refused(d4, f32, exp, mx32, NULL, ocp4, 1, PTO_ERR_UNSUPPORTED_DTYPE, "MXFP4 from FLOAT32");
    expect_refused(d8, i32, exp, NULL, NULL, ocp8, 1, PTO_ERR_UNSUPPORTED_DTYPE, "src INT32");
    expect_refused(d4, src, exp, mx, sc, ocp8, 1, PTO_ERR_UNSUPPORTED_DTYPE, "E4M3 into FLOAT4");
    expect_refused(d8, src, exp, mx, sc, ocp4, 1, PTO_ERR_UNSUPPORTED_DTYPE, "E2M1 into FLOAT8");
    expect_refused(d8, src, e16, mx, sc, ocp8, 1, PTO_ERR_UNSUPPORTED_DTYPE, "exp INT16");
    expect_refused(d8, src, exp, mx32, sc, ocp8, 1, PTO_ERR_DTYPE_MISMATCH, "max FLOAT32 for BF16");
    expect_refused(d4odd, odd, exp, NULL, NULL, ocp4, 1, PTO_ERR_SHAPE_MISMATCH, "odd cols for x2");
    expect_refused(d8, odd, exp, NULL, NULL, ocp8, 1, PTO_ERR_SHAPE_MISMATCH, "dst region");
    expect_refused(d8, src, exp_bad, NULL, NULL, ocp8, 1, PTO_ERR_SHAPE_MISMATCH, "exp 64x3");
    expect_refused(d8, src, exp, NULL, NULL, ocp8, 0, PTO_ERR_SHAPE_MISMATCH, "ND exp for DN");
    expect_refused(d8, src, exp_dn, mx, NULL, ocp8, 0, PTO_ERR_SHAPE_MISMATCH, "ND max for DN");
    expect_refused(d8, src, exp, mx, mx, ocp8, 1, PTO_ERR_ALIASING, "max is scaling");
    /* NaN into E2M1, which has none: the page's answer (0x7), not a refusal. */
    pto_tile *nan_src = tile_new(PTO_FLOAT16, 1, 32, 1, 32), *nd4 = tile_new(PTO_FLOAT4_E2M1X2, 1, 16, 1, 16);
    pto_tile *ne = tile_new(PTO_UINT8, 1, 1, 1, 1);
    for (uint32_t j = 0; j < 32; ++j) tile_put(nan_src, 0, j, j == 5 ? 0xFE00u : 0xC000u);
    expect_status(pto_tquant_mx(nd4, nan_src, ne, NULL, NULL, PTO_MX_OCP_FP4_E2M1, 1), PTO_OK, "NaN to E2M1");
    assert_int_equal(tile_get(ne, 0, 0), 0xFF);
    for (uint32_t j = 0; j < 16; ++j) assert_int_equal(tile_get(nd4, 0, j), 0x77);
    TILES_DESTROY(src, f32, d8, d4, exp, exp_dn, mx, sc, mx32, e16, exp_bad, i32, odd, d4odd, nan_src, nd4, ne);
}

/* tquant_mx is a row of the operation table (quantisation): exp its Aux
 * operand, max and scaling OptionalAux ones (the tests' generic call passes
 * tmp for each), alg and group_axis the attribute kind MxQuant (an Enum and
 * an Int), the trait NullsFirst (a NULL exp is refused before a cube dst),
 * and a text form by its roles (pto.tquant.mx, PTOAS's dotted name: not
 * NoText). */
static void test_tquant_mx_row(void **state) {
    (void)state;
    const op_info *row = op_row(OP_TQUANT_MX);
    assert_int_equal(row->family, OP_FAMILY_SPECIAL);
    assert_int_equal(row->source_count, 1);
    assert_int_equal(row->tmp, OP_TMP_NONE);
    assert_int_equal(row->attr, OP_ATTR_MxQuant);
    assert_true((row->traits & PTO_TRAIT_NullsFirst) != 0 && (row->traits & PTO_TRAIT_NoText) == 0);
    assert_int_equal(pto_set_profile(PTO_PROFILE_A5), PTO_OK);
    pto_tile *src = tile_new(PTO_BFLOAT16, 64, 64, 64, 64), *d8 = tile_new(PTO_FLOAT8_E4M3, 64, 64, 64, 64);
    pto_tile *exp = tile_new(PTO_FLOAT8_E8M0, 64, 2, 64, 2), *cube = NULL;
    assert_int_equal(pto_tile_create_cube(PTO_FLOAT8_E4M3, 64, 64, PTO_LOC_MAT, PTO_LAYOUT_NZ, &cube), PTO_OK);
    expect_status(pto_tquant_mx(cube, src, NULL, NULL, NULL, PTO_MX_OCP_FP8_E4M3, 1), PTO_ERR_NULL_ARGUMENT,
                  "cube dst, NULL exp");
    assert_non_null(strstr(pto_last_error(), "exp"));
    expect_status(op_call(OP_TQUANT_MX, PTO_POW_DEFAULT, d8, src, NULL, NULL), PTO_ERR_NULL_ARGUMENT,
                  "the generic call without tmp: exp NULL");
    expect_status(op_call(OP_TQUANT_MX, PTO_POW_DEFAULT, d8, src, NULL, exp), PTO_ERR_DTYPE_MISMATCH,
                  "the generic call: tmp as exp, max and scaling");
    assert_non_null(strstr(pto_last_error(), "max"));
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    pto_tile_destroy(cube);
    TILES_DESTROY(src, d8, exp);
}

#define TB(dt, rows, cols)                                                                           \
    "!pto.tile_buf<loc=vec, dtype=" dt ", rows=" #rows ", cols=" #cols ", v_row=" #rows ", v_col=" #cols \
    ", blayout=row_major, slayout=none_box, fractal=512, pad=0>"

/* The text forms give the calls' bits: ND MXFP8 from f32 into i8 (the
 * TquantMx sample's shapes), DN NV MXFP4 from bf16, and the refusals. */
static void test_tquant_mx_programs(void **state) {
    (void)state;
    static const char kNd[] = "pto.tquant.mx ins(%s : " TB("f32", 16, 64) ") outs(%d, %e, %m, %c : " TB(
        "i8", 16, 64) ", " TB("ui8", 16, 2) ", " TB("f32", 16, 2) ", " TB("f32", 16, 2) ") {quant_type = #pto<quant_type MXFP8>}\n";
    static const char kDn[] = "pto.tquant.mx ins(%s : " TB("bf16", 64, 64) ") outs(%d, %e, %m, %c : " TB(
        "!pto.f4E2M1x2", 64, 32) ", " TB("!pto.f8E8M0", 2, 64) ", " TB("bf16", 2, 64) ", " TB(
        "bf16", 2, 64) ") {quant_type = #pto<quant_type MXFP4_E2M1>, quantScaleAlg = #pto<quant_scale_alg nv>, "
                              "grpAxis = #pto<mx_group_axis axis0>}\n";
    static const char *const kNames[] = {"s", "d", "e", "m", "c"};
    rng r = {0x51};
    assert_int_equal(pto_set_profile(PTO_PROFILE_A5), PTO_OK);
    for (int form = 0; form < 2; ++form) {
        const bool dn = form == 1;
        const pto_dtype sd = dn ? PTO_BFLOAT16 : PTO_FLOAT32, dd = dn ? PTO_FLOAT4_E2M1X2 : PTO_INT8;
        const uint32_t rows = dn ? 64 : 16, cols = 64, dc = dn ? 32 : 64, br = dn ? 2 : 16, bc = dn ? 64 : 2;
        pto_tile *src = tile_new(sd, rows, cols, rows, cols);
        for (uint32_t i = 0; i < rows; ++i)
            for (uint32_t j = 0; j < cols; ++j) tile_put(src, i, j, mx_input(&r, sd, i * cols + j, (int)(j % 7)));
        pto_tile *want[4], *got[4];
        const pto_dtype dts[4] = {dd, dn ? PTO_FLOAT8_E8M0 : PTO_UINT8, sd, sd};
        for (int k = 0; k < 4; ++k) {
            const uint32_t rr = k ? br : rows, cc = k ? bc : dc;
            want[k] = tile_new(dts[k], rr, cc, rr, cc);
            got[k] = tile_new(dts[k], rr, cc, rr, cc);
        }
        expect_status(pto_tquant_mx(want[0], src, want[1], want[2], want[3],
                                    dn ? PTO_MX_NV_FP4_E2M1 : PTO_MX_OCP_FP8_E4M3, dn ? 0 : 1),
                      PTO_OK, "the call");
        pto_tile *tiles[] = {src, got[0], got[1], got[2], got[3]};
        const pto_status run = run_program_bound(dn ? kDn : kNd, kNames, tiles, 5, NULL, NULL, 0);
        if (run != PTO_OK) fail_msg("%s: %s (%s)", dn ? kDn : kNd, pto_status_string(run), pto_last_error());
        for (int k = 0; k < 4; ++k)
            for (uint32_t i = 0; i < pto_tile_valid_rows(want[k]); ++i)
                for (uint32_t j = 0; j < pto_tile_valid_cols(want[k]); ++j)
                    assert_int_equal(tile_get(got[k], i, j), tile_get(want[k], i, j));
        for (int k = 0; k < 4; ++k) TILES_DESTROY(want[k], got[k]);
        pto_tile_destroy(src);
    }
    /* The rules in text: a wrong exp shape (the verifier), MXFP4 from f32,
     * the interleaved form's rules and values, and a form not implemented. */
    expect_program_refused(
        "pto.tquant.mx ins(%s : " TB("f32", 16, 64) ") outs(%d, %e, %m, %c : " TB("i8", 16, 64) ", " TB(
            "ui8", 16, 3) ", " TB("f32", 16, 2) ", " TB("f32", 16, 2) ") {quant_type = #pto<quant_type MXFP8>}\n",
        PTO_ERR_SHAPE_MISMATCH);
    expect_program_refused(
        "pto.tquant.mx ins(%s : " TB("f32", 16, 64) ") outs(%d, %e, %m, %c : " TB("!pto.f4E2M1x2", 16, 32) ", " TB(
            "ui8", 16, 2) ", " TB("f32", 16, 2) ", " TB("f32", 16, 2) ") {quant_type = #pto<quant_type MXFP4_E2M1>}\n",
        PTO_ERR_UNSUPPORTED_DTYPE);
    /* interleave = true: DN's exponents in row-block pairs, exp [M/64, 2N] */
    expect_program_refused_with(
        "pto.tquant.mx ins(%s : " TB("bf16", 64, 64) ") outs(%d, %e, %m, %c : " TB("i8", 64, 64) ", " TB(
            "ui8", 2, 64) ", " TB("bf16", 2, 64) ", " TB("bf16", 2, 64) ") {quant_type = #pto<quant_type MXFP8>, "
        "grpAxis = #pto<mx_group_axis axis0>, interleave = true}\n",
        NULL, "exp valid region is 2x64, not 1x128 (interleaved");
    expect_program_refused_with(
        "pto.tquant.mx ins(%s : " TB("f32", 64, 64) ") outs(%d, %e, %m, %c : " TB("i8", 64, 64) ", " TB(
            "ui8", 1, 128) ", " TB("f32", 2, 64) ", " TB("f32", 2, 64) ") {quant_type = #pto<quant_type MXFP8>, "
        "grpAxis = #pto<mx_group_axis axis0>, interleave = true}\n",
        NULL, "interleave with a FLOAT32 src");
    expect_program_refused_with(
        "pto.tquant.mx ins(%s : " TB("bf16", 32, 64) ") outs(%d, %e, %m, %c : " TB("i8", 32, 64) ", " TB(
            "ui8", 1, 128) ", " TB("bf16", 1, 64) ", " TB("bf16", 1, 64) ") {quant_type = #pto<quant_type MXFP8>, "
        "grpAxis = #pto<mx_group_axis axis0>, interleave = true}\n",
        NULL, "not a multiple of 64");
    expect_program_refused_with(
        "pto.tquant.mx ins(%s : " TB("bf16", 64, 64) ") outs(%d, %e, %m, %c : " TB("i8", 64, 64) ", " TB(
            "ui8", 64, 2) ", " TB("bf16", 64, 2) ", " TB("bf16", 64, 2) ") {quant_type = #pto<quant_type MXFP8>, "
        "interleave = true}\n",
        NULL, "interleave is the DN form's");
    {
        static const char kIl[] = "pto.tquant.mx ins(%s : " TB("bf16", 128, 32) ") outs(%d, %e, %m, %c : " TB(
            "i8", 128, 32) ", " TB("ui8", 2, 64) ", " TB("bf16", 4, 32) ", " TB("bf16", 4, 32) ") {quant_type = "
            "#pto<quant_type MXFP8>, grpAxis = #pto<mx_group_axis axis0>, interleave = true}\n";
        pto_tile *src = tile_new(PTO_BFLOAT16, 128, 32, 128, 32);
        for (uint32_t i = 0; i < 128; ++i)
            for (uint32_t j = 0; j < 32; ++j) tile_put(src, i, j, mx_input(&r, PTO_BFLOAT16, i * 32 + j, (int)((i / 32 + j) % 7)));
        pto_tile *wd = tile_new(PTO_INT8, 128, 32, 128, 32), *we = tile_new(PTO_UINT8, 4, 32, 4, 32);
        pto_tile *d = tile_new(PTO_INT8, 128, 32, 128, 32), *e = tile_new(PTO_UINT8, 2, 64, 2, 64);
        pto_tile *m = tile_new(PTO_BFLOAT16, 4, 32, 4, 32), *c = tile_new(PTO_BFLOAT16, 4, 32, 4, 32);
        expect_status(pto_tquant_mx(wd, src, we, NULL, NULL, PTO_MX_OCP_FP8_E4M3, 0), PTO_OK, "DN call");
        pto_tile *tiles[] = {src, d, e, m, c};
        const pto_status run = run_program_bound(kIl, kNames, tiles, 5, NULL, NULL, 0);
        if (run != PTO_OK) fail_msg("interleave: %s (%s)", pto_status_string(run), pto_last_error());
        int distinct = 0;
        for (uint32_t b = 0; b < 4; ++b)
            for (uint32_t j = 0; j < 32; ++j) {
                assert_int_equal(tile_get(e, b / 2, 2 * j + b % 2), tile_get(we, b, j));
                distinct += tile_get(we, b, j) != tile_get(we, 0, 0);
            }
        assert_true(distinct > 0); /* the pairing is visible in the data */
        for (uint32_t i = 0; i < 128; ++i)
            for (uint32_t j = 0; j < 32; ++j) assert_int_equal(tile_get(d, i, j), tile_get(wd, i, j));
        pto_tile_destroy(src);
        TILES_DESTROY(wd, we, d, e, m, c);
    }
    expect_program_refused_with(
        "pto.tquant.mx ins(%s : " TB("f32", 16, 64) ") outs(%d, %e, %m, %c : " TB("i8", 16, 64) ", " TB(
            "ui8", 16, 2) ", " TB("f32", 16, 2) ", " TB("f32", 16, 2) ") {quant_type = #pto<quant_type INT8_SYM>}\n",
        NULL, "quant_type");
    /* read by the row's roles: outs( ) names dst and the Aux operands, the
     * text kind MxQuant requires quant_type */
    expect_program_refused_with(
        "pto.tquant.mx ins(%s : " TB("f32", 16, 64) ") outs(%d, %e, %m : " TB("i8", 16, 64) ", " TB(
            "ui8", 16, 2) ", " TB("f32", 16, 2) ") {quant_type = #pto<quant_type MXFP8>}\n",
        NULL, "pto.tquant.mx takes 4 outputs (dst, exp, max, scaling), not 3");
    expect_program_refused_with(
        "pto.tquant.mx ins(%s : " TB("f32", 16, 64) ") outs(%d, %e, %m, %c : " TB("i8", 16, 64) ", " TB(
            "ui8", 16, 2) ", " TB("f32", 16, 2) ", " TB("f32", 16, 2) ") {grpAxis = #pto<mx_group_axis axis1>}\n",
        NULL, "pto.tquant.mx needs {quant_type = #pto<quant_type MXFP8>}");
}

#define ZZ(rows, cols)                                                                                \
    "!pto.tile_buf<loc=vec, dtype=ui8, rows=" #rows ", cols=" #cols ", v_row=" #rows ", v_col=" #cols \
    ", blayout=row_major, slayout=row_major, fractal=512, pad=0>"

/* tmov with a tmp: exponents into the ZZ order, as TQUANT.md's and
 * TQUANT_DN.md's formulas give it (ND: 16-row x 2-column boxes, row by row,
 * the boxes row-block-major; DN: E[cb, p, q, d] = exp[2p + d][16cb + q]),
 * the padding of a last box 0; a dst too small is refused. */
static void test_mx_zz_move(void **state) {
    (void)state;
    static const char kNd[] = "pto.tmov ins(%e : " TB("ui8", 20, 3) ", %t : " TB("ui8", 1, 32) ") outs(%z : " ZZ(
        1, 128) ")\n";
    static const char kDn[] = "pto.tmov ins(%e : " TB("ui8", 3, 20) ", %t : " TB("ui8", 1, 32) ") outs(%z : " ZZ(
        1, 128) ") {grpAxis = #pto<mx_group_axis axis0>}\n";
    static const char kSmall[] = "pto.tmov ins(%e : " TB("ui8", 20, 3) ", %t : " TB("ui8", 1, 32) ") outs(%z : " ZZ(
        1, 64) ")\n";
    static const char *const kNames[] = {"e", "t", "z"};
    assert_int_equal(pto_set_profile(PTO_PROFILE_A5), PTO_OK);
    for (int dn = 0; dn < 2; ++dn) {
        const uint32_t rows = dn ? 3 : 20, cols = dn ? 20 : 3;
        pto_tile *e = tile_new(PTO_UINT8, rows, cols, rows, cols), *t = tile_new(PTO_UINT8, 1, 32, 1, 32);
        pto_tile *z = tile_new(PTO_UINT8, 1, 128, 1, 128);
        for (uint32_t i = 0; i < rows; ++i)
            for (uint32_t j = 0; j < cols; ++j) tile_put(e, i, j, 1 + i * cols + j);
        pto_tile *tiles[] = {e, t, z};
        const pto_status run = run_program_bound(dn ? kDn : kNd, kNames, tiles, 3, NULL, NULL, 0);
        if (run != PTO_OK) fail_msg("%s: %s (%s)", dn ? kDn : kNd, pto_status_string(run), pto_last_error());
        uint32_t k = 0;
        if (!dn) {
            for (uint32_t rb = 0; rb < 2; ++rb)
                for (uint32_t cp = 0; cp < 2; ++cp)
                    for (uint32_t r = 0; r < 16; ++r)
                        for (uint32_t l = 0; l < 2; ++l, ++k) {
                            const uint32_t i = 16 * rb + r, j = 2 * cp + l;
                            assert_int_equal(tile_get(z, 0, k), i < rows && j < cols ? 1 + i * cols + j : 0);
                        }
        } else {
            for (uint32_t cb = 0; cb < 2; ++cb)
                for (uint32_t p = 0; p < 2; ++p)
                    for (uint32_t q = 0; q < 16; ++q)
                        for (uint32_t d = 0; d < 2; ++d, ++k) {
                            const uint32_t i = 2 * p + d, j = 16 * cb + q;
                            assert_int_equal(tile_get(z, 0, k), i < rows && j < cols ? 1 + i * cols + j : 0);
                        }
        }
        assert_int_equal(k, 128);
        TILES_DESTROY(e, t, z);
    }
    expect_program_refused(kSmall, PTO_ERR_SHAPE_MISMATCH);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tquant_mx_values),
        cmocka_unit_test(test_tquant_mx_known),
        cmocka_unit_test(test_tquant_mx_rules),
        cmocka_unit_test(test_tquant_mx_row),
        cmocka_unit_test(test_tquant_mx_programs),
        cmocka_unit_test(test_mx_zz_move),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
