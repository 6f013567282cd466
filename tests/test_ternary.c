/* TAXPY, TADDC, TSUBC, TADDSC and TSUBSC: every dtype pair against a
 * reference written from the pages (taxpy: the exact scalar * src0 + dst by
 * MPFR, rounded once to dst's dtype; taddc: (src0 + src1) + src2 as two
 * additions of tadd's; tsubc, taddsc, tsubsc: src0 - src1 + src2,
 * src0 + scalar + src1, src0 - scalar + src1 left to right, each step
 * rounded to the dtype, as pto-isa's CPU model evaluates them), on every
 * SIMD target, over padded valid regions with the elements around them
 * unchanged, in place; the rules in order on every profile with nothing
 * written on a refusal; and the text forms in programs equal to the C
 * calls. */
#include <inttypes.h>
#include <math.h>
#include <mpfr.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/harness.h"

/* scalar * x + y of values of src's (scalar, x) and dst's (y) dtypes,
 * rounded once to dst's dtype: exact at 400 bits (two float32 values and
 * their product span less), rounded to odd at 53 bits (more than p + 2 of
 * float32 and float16), then to dt. Infinite and NaN operands go by IEEE
 * double arithmetic, whose special results are the dtype's. */
static uint32_t axpy_reference(pto_dtype dt, double a, double x, double y) {
    if (!isfinite(a) || !isfinite(x) || !isfinite(y)) return ref_from_double(dt, a * x + y);
    mpfr_t ma, mx, my, r;
    mpfr_inits2(400, ma, mx, my, r, (mpfr_ptr)0);
    mpfr_set_d(ma, a, MPFR_RNDN);
    mpfr_set_d(mx, x, MPFR_RNDN);
    mpfr_set_d(my, y, MPFR_RNDN);
    mpfr_mul(r, ma, mx, MPFR_RNDN);
    mpfr_add(r, r, my, MPFR_RNDN);
    double d = mpfr_get_d(r, MPFR_RNDZ);
    if (mpfr_cmp_d(r, d) != 0) {
        uint64_t bits;
        memcpy(&bits, &d, sizeof bits);
        bits |= 1;
        memcpy(&d, &bits, sizeof bits);
    }
    const int zero_sign = mpfr_zero_p(r) ? signbit(a * x + y) : 0;
    mpfr_clears(ma, mx, my, r, (mpfr_ptr)0);
    /* an exact zero sum takes IEEE's sign: -0 only from (-0) + (-0) */
    if (d == 0) d = zero_sign ? -0.0 : 0.0;
    return ref_from_double(dt, d);
}

/* Two FLOAT32 4x8 tiles of one buffer, the second one row into the first's
 * bytes: they share some but neither is the other. */
static pto_buffer *overlapping_pair(pto_tile **first, pto_tile **second) {
    pto_buffer *buf = NULL;
    assert_int_equal(pto_buffer_create(4096, &buf), PTO_OK);
    assert_int_equal(pto_tile_create_at(PTO_FLOAT32, 4, 8, buf, 0, first), PTO_OK);
    assert_int_equal(pto_tile_create_at(PTO_FLOAT32, 4, 8, buf, 32, second), PTO_OK);
    return buf;
}

static bool same_value(pto_dtype dt, uint32_t got, uint32_t want) {
    return got == want || (ref_is_nan(dt, got) && ref_is_nan(dt, want));
}

typedef struct {
    pto_dtype dst, src;
} axpy_pair;
static const axpy_pair kAxpyPairs[] = {
    {PTO_FLOAT32, PTO_FLOAT32}, {PTO_FLOAT32, PTO_FLOAT16}, {PTO_FLOAT16, PTO_FLOAT16}};

/* rows, cols, valid rows, valid cols */
static const uint32_t kShapes[][4] = {{1, 1, 1, 1}, {8, 40, 5, 37}, {16, 16, 16, 16}, {1, 300, 1, 300},
                                      {3, 19, 3, 17}};

typedef struct {
    size_t checked;
} axpy_ctx;

static void axpy_on(void *opaque, size_t t, const char *target) {
    (void)t;
    axpy_ctx *ctx = opaque;
    rng r = {0xA3};
    for (size_t p = 0; p < COUNT(kAxpyPairs); ++p)
        for (size_t s = 0; s < COUNT(kShapes); ++s)
            for (int scalar_kind = 0; scalar_kind < 4; ++scalar_kind) {
                const axpy_pair pair = kAxpyPairs[p];
                const uint32_t *sh = kShapes[s];
                pto_tile *dst = tile_new(pair.dst, sh[0], sh[1], sh[2], sh[3]);
                pto_tile *src = tile_new(pair.src, sh[0], sh[1], sh[2], sh[3]);
                tile_fill(dst, &r, scalar_kind == 3 ? GEN_ANY : GEN_POSITIVE);
                tile_fill(src, &r, GEN_ANY);
                /* a value of src's dtype, one that is not (0.1 rounds), a
                 * negative one and a random or special one */
                const double scalar = scalar_kind == 0   ? 0.1
                                      : scalar_kind == 1 ? -3.25
                                                         : ref_to_double(pair.src, gen_value(&r, pair.src, GEN_ANY));
                const double a = ref_to_double(pair.src, ref_from_double(pair.src, scalar));
                uint64_t *before = tile_snapshot(dst);
                assert_int_equal(pto_taxpy(dst, src, scalar), PTO_OK);
                const uint32_t cols = sh[1];
                for (uint32_t i = 0; i < sh[0]; ++i)
                    for (uint32_t j = 0; j < cols; ++j) {
                        const uint32_t old = before[(size_t)i * cols + j], got = tile_get(dst, i, j);
                        uint32_t want = old;
                        if (i < sh[2] && j < sh[3])
                            want = axpy_reference(pair.dst, a, ref_to_double(pair.src, tile_get(src, i, j)),
                                                  ref_to_double(pair.dst, old));
                        if (!same_value(pair.dst, got, want))
                            fail_msg("%s: taxpy %s <- %s, %ux%u, scalar %a: (%u,%u) x 0x%x y 0x%x gave 0x%x, "
                                     "want 0x%x",
                                     target, pto_dtype_string(pair.dst), pto_dtype_string(pair.src), sh[0], sh[1],
                                     a, i, j, tile_get(src, i, j), old, got, want);
                        ++ctx->checked;
                    }
                free(before);
                TILES_DESTROY(dst, src);
            }
    /* in place: dst = a * dst + dst */
    pto_tile *ip = tile_new(PTO_FLOAT32, 4, 9, 4, 9);
    tile_fill(ip, &r, GEN_ANY);
    uint64_t *before = tile_snapshot(ip);
    assert_int_equal(pto_taxpy(ip, ip, 1.5), PTO_OK);
    for (uint32_t k = 0; k < 36; ++k) {
        const double v = ref_to_double(PTO_FLOAT32, before[k]);
        const uint32_t want = axpy_reference(PTO_FLOAT32, 1.5, v, v);
        if (!same_value(PTO_FLOAT32, tile_get(ip, k / 9, k % 9), want))
            fail_msg("%s: taxpy in place at %u", target, k);
    }
    free(before);
    pto_tile_destroy(ip);
}

/* Sums whose rounding a fused and an unfused multiply-add tell apart, and
 * float16 sums that a rounding through float32 would round twice. */
static void test_taxpy_cases(void **state) {
    (void)state;
    pto_tile *d = tile_new(PTO_FLOAT32, 1, 2, 1, 2), *s = tile_new(PTO_FLOAT32, 1, 2, 1, 2);
    /* x = 1 + 2^-12 squared is 1 + 2^-11 + 2^-24: minus (1 + 2^-11) leaves
     * 2^-24 fused, 0 when the product is rounded first */
    const float x = 1.0f + 0x1p-12f;
    float in[2] = {x, x}, acc[2] = {-(1.0f + 0x1p-11f), -(1.0f + 0x1p-11f)}, out[2];
    assert_int_equal(pto_tile_write(s, in, sizeof in), PTO_OK);
    assert_int_equal(pto_tile_write(d, acc, sizeof acc), PTO_OK);
    assert_int_equal(pto_taxpy(d, s, x), PTO_OK);
    assert_int_equal(pto_tile_read(d, out, sizeof out), PTO_OK);
    assert_true(out[0] == 0x1p-24f && out[1] == 0x1p-24f);
    /* float16: a = 1 + 2^-10, x = 1 - 2^-11, y = 9 2^-24 (a subnormal):
     * a x + y = 1 + 2^-11 + 2^-24, just above the midpoint 1 + 2^-11 of
     * 1 and 1 + 2^-10. float32 rounds that sum to the midpoint (2^-24 is
     * half its last place, a tie to even), which float16 rounds to even,
     * 1; rounded once it is 1 + 2^-10. */
    pto_tile *h = tile_new(PTO_FLOAT16, 1, 1, 1, 1), *hs = tile_new(PTO_FLOAT16, 1, 1, 1, 1);
    tile_put(hs, 0, 0, ref_from_double(PTO_FLOAT16, 1.0 - 0x1p-11));
    tile_put(h, 0, 0, ref_from_double(PTO_FLOAT16, 9 * 0x1p-24));
    assert_int_equal(pto_taxpy(h, hs, 1.0 + 0x1p-10), PTO_OK);
    assert_int_equal(tile_get(h, 0, 0), ref_from_double(PTO_FLOAT16, 1.0 + 0x1p-10));
    TILES_DESTROY(d, s, h, hs);
}

static void test_taxpy_values(void **state) {
    (void)state;
    axpy_ctx ctx = {0};
    for_each_target("taxpy", axpy_on, &ctx);
    print_message("[ternary] taxpy: %zu elements equal the exact sum rounded once\n", ctx.checked);
}

/* The rules in their order, under every profile; a refused call writes
 * nothing. */
static void test_taxpy_rules(void **state) {
    (void)state;
    static const pto_profile kProfiles[] = {PTO_PROFILE_HOST, PTO_PROFILE_A2A3, PTO_PROFILE_A5};
    rng r = {0xA4};
    for (size_t p = 0; p < COUNT(kProfiles); ++p) {
        assert_int_equal(pto_set_profile(kProfiles[p]), PTO_OK);
        pto_tile *d = tile_new(PTO_FLOAT32, 4, 8, 4, 8), *s = tile_new(PTO_FLOAT32, 4, 8, 4, 8);
        pto_tile *h = tile_new(PTO_FLOAT16, 4, 8, 4, 8), *i32 = tile_new(PTO_INT32, 4, 8, 4, 8);
        pto_tile *bf = tile_new(PTO_BFLOAT16, 4, 8, 4, 8), *narrow = tile_new(PTO_FLOAT32, 4, 8, 4, 7);
        tile_fill(d, &r, GEN_ANY);
        tile_fill(h, &r, GEN_ANY);
        uint64_t *kept = tile_snapshot(d), *kept_h = tile_snapshot(h);
        expect_status(pto_taxpy(NULL, s, 1), PTO_ERR_NULL_ARGUMENT, "taxpy NULL dst");
        expect_status(pto_taxpy(d, NULL, 1), PTO_ERR_NULL_ARGUMENT, "taxpy NULL src0");
        expect_status(pto_taxpy(i32, i32, 1), PTO_ERR_UNSUPPORTED_DTYPE, "taxpy INT32");
        expect_status(pto_taxpy(bf, bf, 1), PTO_ERR_UNSUPPORTED_DTYPE, "taxpy BFLOAT16");
        expect_status(pto_taxpy(h, s, 1), PTO_ERR_DTYPE_MISMATCH, "taxpy FLOAT32 into FLOAT16");
        assert_non_null(strstr(pto_last_error(), "pto_taxpy"));
        expect_status(pto_taxpy(d, i32, 1), PTO_ERR_DTYPE_MISMATCH, "taxpy INT32 into FLOAT32");
        expect_status(pto_taxpy(d, narrow, 1), PTO_ERR_SHAPE_MISMATCH, "taxpy valid regions");
        assert_tile_unchanged(d, kept, "refused taxpy");
        assert_tile_unchanged(h, kept_h, "refused taxpy");
        /* a source one row into dst's bytes shares some but is not dst */
        pto_tile *a = NULL, *b = NULL;
        pto_buffer *buf = overlapping_pair(&a, &b);
        expect_status(pto_taxpy(a, b, 1), PTO_ERR_ALIASING, "taxpy overlapping src0");
        pto_buffer_destroy(buf);
        TILES_DESTROY(d, s, h, i32, bf, narrow, a, b);
        free(kept);
        free(kept_h);
    }
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
}

static const pto_dtype kAddcDtypes[] = {PTO_INT8,    PTO_UINT8,    PTO_INT16,  PTO_UINT16, PTO_INT32,
                                        PTO_UINT32, PTO_FLOAT16, PTO_BFLOAT16, PTO_FLOAT32};

static void test_taddc_values(void **state) {
    (void)state;
    /* every dtype: test_two_step_values; INT64 wraps modulo 2^64 */
    pto_tile *t[4];
    for (int k = 0; k < 4; ++k) assert_int_equal(pto_tile_create(PTO_INT64, 1, 2, &t[k]), PTO_OK);
    const int64_t a[2] = {INT64_MAX, -5}, b[2] = {1, 3}, c[2] = {2, INT64_MIN};
    assert_int_equal(pto_tile_write(t[1], a, sizeof a), PTO_OK);
    assert_int_equal(pto_tile_write(t[2], b, sizeof b), PTO_OK);
    assert_int_equal(pto_tile_write(t[3], c, sizeof c), PTO_OK);
    assert_int_equal(pto_taddc(t[0], t[1], t[2], t[3]), PTO_OK);
    int64_t got[2];
    assert_int_equal(pto_tile_read(t[0], got, sizeof got), PTO_OK);
    assert_true((uint64_t)got[0] == (uint64_t)INT64_MAX + 3u);
    assert_true((uint64_t)got[1] == (uint64_t)INT64_MIN - 2u);
    for (int k = 0; k < 4; ++k) pto_tile_destroy(t[k]);
}

static void test_taddc_rules(void **state) {
    (void)state;
    pto_tile *f = tile_new(PTO_FLOAT32, 2, 8, 2, 8), *g = tile_new(PTO_FLOAT32, 2, 8, 2, 8);
    pto_tile *h = tile_new(PTO_FLOAT16, 2, 8, 2, 8), *narrow = tile_new(PTO_FLOAT32, 2, 8, 1, 8);
    pto_tile *u8 = tile_new(PTO_UINT8, 2, 8, 2, 8);
    rng r = {0xADD};
    tile_fill(f, &r, GEN_ANY);
    uint64_t *kept = tile_snapshot(f);
    expect_status(pto_taddc(f, g, g, NULL), PTO_ERR_NULL_ARGUMENT, "taddc NULL src2");
    expect_status(pto_taddc(f, g, h, g), PTO_ERR_DTYPE_MISMATCH, "taddc src1 FLOAT16");
    expect_status(pto_taddc(f, g, g, narrow), PTO_ERR_SHAPE_MISMATCH, "taddc src2 region");
    assert_non_null(strstr(pto_last_error(), "src2"));
    assert_tile_unchanged(f, kept, "refused taddc");
    assert_int_equal(pto_set_profile(PTO_PROFILE_A2A3), PTO_OK);
    expect_status(pto_taddc(u8, u8, u8, u8), PTO_ERR_UNSUPPORTED_DTYPE, "taddc UINT8 under A2A3");
    assert_non_null(strstr(pto_last_error(), "A2A3"));
    assert_int_equal(pto_set_profile(PTO_PROFILE_A5), PTO_OK);
    assert_int_equal(pto_taddc(u8, u8, u8, u8), PTO_OK);
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    free(kept);
    TILES_DESTROY(f, g, h, narrow, u8);
}

/* ---- tsubc, taddsc, tsubsc ---- */

typedef enum { TWO_ADDC, TWO_SUBC, TWO_ADDSC, TWO_SUBSC } two_step;
static const char *const kTwoStepNames[] = {"taddc", "tsubc", "taddsc", "tsubsc"};

/* The page's expression left to right, each operation rounded to dt
 * (integers wrapping): the reference's own additions and subtractions. */
static uint64_t two_step_reference(two_step op, pto_dtype dt, uint64_t a, uint64_t b, uint64_t c,
                                   uint64_t scalar) {
    switch (op) {
    case TWO_ADDC: return ref_add(dt, ref_add(dt, a, b), c);
    case TWO_SUBC: return ref_add(dt, ref_tsub(dt, a, b), c);
    case TWO_ADDSC: return ref_add(dt, ref_add(dt, a, scalar), b);
    default: return ref_add(dt, ref_tsub(dt, a, scalar), b);
    }
}

static pto_status two_step_call(two_step op, pto_tile *dst, pto_tile *a, pto_tile *b, pto_tile *c,
                                double scalar) {
    switch (op) {
    case TWO_ADDC: return pto_taddc(dst, a, b, c);
    case TWO_SUBC: return pto_tsubc(dst, a, b, c);
    case TWO_ADDSC: return pto_taddsc(dst, a, b, scalar);
    default: return pto_tsubsc(dst, a, b, scalar);
    }
}

static const pto_dtype kScDtypes[] = {PTO_INT32, PTO_INT16, PTO_FLOAT16, PTO_FLOAT32};

/* A scalar of the kind asked: one a float dtype rounds (0.1), a negative
 * one, the dtype's largest, a random value of the dtype. */
static double two_step_scalar(rng *r, pto_dtype dt, int kind) {
    if (kind == 0) return ref_is_float(dt) ? 0.1 : 7;
    if (kind == 1) return -3.25 + (ref_is_float(dt) ? 0 : 0.25);
    if (kind == 2) { /* a large value of the dtype (the three-source rows ignore it) */
        if (dt == PTO_FLOAT16) return 65504;
        if (ref_is_float(dt)) return 1e38;
        const size_t bytes = pto_dtype_size(dt);
        if (bytes == 8) return 1e15;
        const bool is_signed = dt == PTO_INT8 || dt == PTO_INT16 || dt == PTO_INT32;
        return ldexp(1.0, (int)(8 * bytes) - (is_signed ? 1 : 0)) - 1;
    }
    return ref_to_double(dt, gen_value(r, dt, GEN_ANY));
}

static void two_step_on(void *opaque, size_t t, const char *target) {
    (void)t;
    size_t *checked = opaque;
    rng r = {0x5C};
    for (int op = TWO_ADDC; op <= TWO_SUBSC; ++op) {
        const bool three = op == TWO_ADDC || op == TWO_SUBC;
        const pto_dtype *dts = three ? kAddcDtypes : kScDtypes;
        const size_t ndt = three ? COUNT(kAddcDtypes) : COUNT(kScDtypes);
        for (size_t k = 0; k < ndt; ++k)
            for (size_t s = 0; s < COUNT(kShapes); ++s)
                for (int place = 0; place < 3; ++place) { /* apart, dst == src0, dst == the last source */
                    const pto_dtype dt = dts[k];
                    const uint32_t *sh = kShapes[s];
                    pto_tile *a = tile_new(dt, sh[0], sh[1], sh[2], sh[3]), *b = tile_new(dt, sh[0], sh[1], sh[2], sh[3]);
                    pto_tile *c = tile_new(dt, sh[0], sh[1], sh[2], sh[3]), *d = tile_new(dt, sh[0], sh[1], sh[2], sh[3]);
                    tile_fill(a, &r, GEN_ANY);
                    tile_fill(b, &r, GEN_ANY);
                    tile_fill(c, &r, GEN_ANY);
                    tile_fill(d, &r, GEN_ANY);
                    pto_tile *last = three ? c : b;
                    pto_tile *out = place == 0 ? d : place == 1 ? a : last;
                    const double scalar = two_step_scalar(&r, dt, (int)(s + place) % 4);
                    const uint64_t sbits = ref_from_double(dt, scalar);
                    uint64_t *ka = tile_snapshot(a), *kb = tile_snapshot(b), *kc = tile_snapshot(c),
                             *kd = tile_snapshot(out);
                    assert_int_equal(two_step_call(op, out, a, b, c, scalar), PTO_OK);
                    const uint32_t cols = sh[1];
                    for (uint32_t i = 0; i < sh[0]; ++i)
                        for (uint32_t j = 0; j < cols; ++j) {
                            const size_t at = (size_t)i * cols + j;
                            uint64_t want = kd[at];
                            if (i < sh[2] && j < sh[3])
                                want = two_step_reference(op, dt, ka[at], kb[at], kc[at], sbits);
                            if (!same_value(dt, (uint32_t)tile_get(out, i, j), (uint32_t)want))
                                fail_msg("%s: %s %s %ux%u placement %d (%u,%u) scalar %a: 0x%" PRIx64 ", 0x%" PRIx64
                                         ", 0x%" PRIx64 " gave 0x%" PRIx64 ", want 0x%" PRIx64,
                                         target, kTwoStepNames[op], pto_dtype_string(dt), sh[0], sh[1], place, i, j,
                                         scalar, ka[at], kb[at], kc[at], tile_get(out, i, j), want);
                            ++*checked;
                        }
                    free(ka);
                    free(kb);
                    free(kc);
                    free(kd);
                    TILES_DESTROY(a, b, c, d);
                }
    }
}

/* Every step rounds: 1 + 2^-24 is a tie that float32 rounds to 1, so
 * taddsc(1, 2^-24, -1) is 0, not the exact 2^-24; tsubc(1, -2^-24, -1) and
 * tsubsc(1, -2^-24, -1) likewise. INT64 wraps in both steps. */
static void test_two_step_cases(void **state) {
    (void)state;
    pto_tile *a = tile_new(PTO_FLOAT32, 1, 1, 1, 1), *b = tile_new(PTO_FLOAT32, 1, 1, 1, 1);
    pto_tile *c = tile_new(PTO_FLOAT32, 1, 1, 1, 1), *d = tile_new(PTO_FLOAT32, 1, 1, 1, 1);
    tile_put(a, 0, 0, ref_from_double(PTO_FLOAT32, 1.0));
    tile_put(b, 0, 0, ref_from_double(PTO_FLOAT32, -0x1p-24));
    tile_put(c, 0, 0, ref_from_double(PTO_FLOAT32, -1.0));
    assert_int_equal(pto_tsubc(d, a, b, c), PTO_OK);
    assert_int_equal(tile_get(d, 0, 0), ref_from_double(PTO_FLOAT32, 0.0));
    tile_put(b, 0, 0, ref_from_double(PTO_FLOAT32, -1.0));
    assert_int_equal(pto_taddsc(d, a, b, 0x1p-24), PTO_OK);
    assert_int_equal(tile_get(d, 0, 0), ref_from_double(PTO_FLOAT32, 0.0));
    assert_int_equal(pto_tsubsc(d, a, b, -0x1p-24), PTO_OK);
    assert_int_equal(tile_get(d, 0, 0), ref_from_double(PTO_FLOAT32, 0.0));
    /* 1 + 2^-23 is a float32: no rounding, the exact result */
    assert_int_equal(pto_taddsc(d, a, b, 0x1p-23), PTO_OK);
    assert_int_equal(tile_get(d, 0, 0), ref_from_double(PTO_FLOAT32, 0x1p-23));
    pto_tile *t[4];
    for (int k = 0; k < 4; ++k) assert_int_equal(pto_tile_create(PTO_INT64, 1, 2, &t[k]), PTO_OK);
    const int64_t x[2] = {INT64_MIN, 5}, y[2] = {1, -3}, z[2] = {-2, INT64_MAX};
    assert_int_equal(pto_tile_write(t[1], x, sizeof x), PTO_OK);
    assert_int_equal(pto_tile_write(t[2], y, sizeof y), PTO_OK);
    assert_int_equal(pto_tile_write(t[3], z, sizeof z), PTO_OK);
    assert_int_equal(pto_tsubc(t[0], t[1], t[2], t[3]), PTO_OK);
    int64_t got[2];
    assert_int_equal(pto_tile_read(t[0], got, sizeof got), PTO_OK);
    assert_true((uint64_t)got[0] == (uint64_t)INT64_MIN - 3u);
    assert_true((uint64_t)got[1] == (uint64_t)INT64_MAX + 8u);
    for (int k = 0; k < 4; ++k) pto_tile_destroy(t[k]);
    TILES_DESTROY(a, b, c, d);
}

static void test_two_step_values(void **state) {
    (void)state;
    size_t checked = 0;
    for_each_target("two-step", two_step_on, &checked);
    print_message("[ternary] taddc, tsubc, taddsc, tsubsc: %zu elements equal their two steps, each rounded\n",
                  checked);
}

/* The rules in order on every profile; nothing written on a refusal. */
static void test_two_step_rules(void **state) {
    (void)state;
    pto_tile *f = tile_new(PTO_FLOAT32, 2, 8, 2, 8), *g = tile_new(PTO_FLOAT32, 2, 8, 2, 8);
    pto_tile *h = tile_new(PTO_FLOAT16, 2, 8, 2, 8), *narrow = tile_new(PTO_FLOAT32, 2, 8, 1, 8);
    pto_tile *u8 = tile_new(PTO_UINT8, 2, 8, 2, 8), *i16 = tile_new(PTO_INT16, 2, 8, 2, 8);
    pto_tile *bf = tile_new(PTO_BFLOAT16, 2, 8, 2, 8);
    rng r = {0x5D};
    tile_fill(f, &r, GEN_ANY);
    tile_fill(i16, &r, GEN_ANY);
    uint64_t *kept = tile_snapshot(f), *kept16 = tile_snapshot(i16);
    expect_status(pto_tsubc(f, g, g, NULL), PTO_ERR_NULL_ARGUMENT, "tsubc NULL src2");
    expect_status(pto_tsubc(f, g, h, g), PTO_ERR_DTYPE_MISMATCH, "tsubc src1 FLOAT16");
    expect_status(pto_tsubc(f, g, g, narrow), PTO_ERR_SHAPE_MISMATCH, "tsubc src2 region");
    assert_non_null(strstr(pto_last_error(), "pto_tsubc: src2"));
    static const char *const kSc[] = {"pto_taddsc", "pto_tsubsc"};
    for (int k = 0; k < 2; ++k) {
        const two_step op = k == 0 ? TWO_ADDSC : TWO_SUBSC;
        expect_status(two_step_call(op, NULL, g, g, NULL, 1), PTO_ERR_NULL_ARGUMENT, "NULL dst");
        expect_status(two_step_call(op, f, g, NULL, NULL, 1), PTO_ERR_NULL_ARGUMENT, "NULL src1");
        expect_status(two_step_call(op, u8, u8, u8, NULL, 1), PTO_ERR_UNSUPPORTED_DTYPE, "UINT8");
        expect_status(two_step_call(op, bf, bf, bf, NULL, 1), PTO_ERR_UNSUPPORTED_DTYPE, "BFLOAT16");
        assert_non_null(strstr(pto_last_error(), kSc[k]));
        expect_status(two_step_call(op, f, h, g, NULL, 1), PTO_ERR_DTYPE_MISMATCH, "src0 FLOAT16");
        /* an integer dtype's scalar: an integer in range, checked before the regions */
        expect_status(two_step_call(op, i16, i16, i16, NULL, 1.5), PTO_ERR_INVALID_ARGUMENT, "INT16 scalar 1.5");
        expect_status(two_step_call(op, i16, i16, i16, NULL, 32768), PTO_ERR_INVALID_ARGUMENT, "INT16 scalar 2^15");
        assert_non_null(strstr(pto_last_error(), "scalar"));
        expect_status(two_step_call(op, f, g, narrow, NULL, 1), PTO_ERR_SHAPE_MISMATCH, "src1 region");
        assert_non_null(strstr(pto_last_error(), "src1"));
        /* every profile lists INT32, INT16, FLOAT16, FLOAT32 */
        for (int p = PTO_PROFILE_A2A3; p <= PTO_PROFILE_A5; ++p) {
            assert_int_equal(pto_set_profile((pto_profile)p), PTO_OK);
            expect_status(two_step_call(op, u8, u8, u8, NULL, 1), PTO_ERR_UNSUPPORTED_DTYPE, "UINT8 on an NPU");
            assert_int_equal(two_step_call(op, h, h, h, NULL, 0.5), PTO_OK);
            assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
        }
    }
    assert_tile_unchanged(f, kept, "refused two-step calls");
    assert_tile_unchanged(i16, kept16, "refused two-step calls");
    /* a source one row into dst's bytes */
    pto_tile *x = NULL, *y = NULL;
    pto_buffer *buf = overlapping_pair(&x, &y);
    pto_tile *z = tile_new(PTO_FLOAT32, 4, 8, 4, 8);
    expect_status(pto_tsubc(x, z, z, y), PTO_ERR_ALIASING, "tsubc overlapping src2");
    expect_status(pto_taddsc(x, z, y, 1), PTO_ERR_ALIASING, "taddsc overlapping src1");
    expect_status(pto_tsubsc(x, y, z, 1), PTO_ERR_ALIASING, "tsubsc overlapping src0");
    pto_buffer_destroy(buf);
    /* tsubc takes tsub's list per profile: UINT8 on A5, not on A2A3 */
    assert_int_equal(pto_set_profile(PTO_PROFILE_A2A3), PTO_OK);
    expect_status(pto_tsubc(u8, u8, u8, u8), PTO_ERR_UNSUPPORTED_DTYPE, "tsubc UINT8 under A2A3");
    assert_non_null(strstr(pto_last_error(), "A2A3"));
    assert_int_equal(pto_set_profile(PTO_PROFILE_A5), PTO_OK);
    assert_int_equal(pto_tsubc(u8, u8, u8, u8), PTO_OK);
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    free(kept);
    free(kept16);
    TILES_DESTROY(f, g, h, narrow, u8, i16, bf, x, y, z);
}

/* taddrelu and tsubrelu: a few exact cases (the generic loops check them
 * against their references); taddrelu refused on A5, as PTOAS's verifier. */
static void test_relu_rows(void **state) {
    (void)state;
    pto_tile *a = tile_new(PTO_INT16, 1, 4, 1, 4), *b = tile_new(PTO_INT16, 1, 4, 1, 4);
    pto_tile *d = tile_new(PTO_INT16, 1, 4, 1, 4);
    const int16_t x[4] = {32767, -5, 3, 100}, y[4] = {1, 4, -3, -99};
    assert_int_equal(pto_tile_write(a, x, sizeof x), PTO_OK);
    assert_int_equal(pto_tile_write(b, y, sizeof y), PTO_OK);
    assert_int_equal(pto_taddrelu(d, a, b), PTO_OK);
    int16_t got[4];
    assert_int_equal(pto_tile_read(d, got, sizeof got), PTO_OK);
    /* 32767 + 1 wraps to -32768: not above zero */
    assert_true(got[0] == 0 && got[1] == 0 && got[2] == 0 && got[3] == 1);
    pto_tile *f = tile_new(PTO_FLOAT32, 1, 4, 1, 4), *g = tile_new(PTO_FLOAT32, 1, 4, 1, 4);
    pto_tile *o = tile_new(PTO_FLOAT32, 1, 4, 1, 4);
    const float p[4] = {1.5f, -0.0f, 2.0f, 1.0f}, q[4] = {0.25f, 0.0f, 2.0f, -0x1p-24f};
    assert_int_equal(pto_tile_write(f, p, sizeof p), PTO_OK);
    assert_int_equal(pto_tile_write(g, q, sizeof q), PTO_OK);
    assert_int_equal(pto_tsubrelu(o, f, g), PTO_OK);
    float r[4];
    assert_int_equal(pto_tile_read(o, r, sizeof r), PTO_OK);
    /* -0 - 0 = -0 and 2 - 2 = +0: both +0 after relu; 1 + 2^-24 rounds to 1 */
    assert_true(r[0] == 1.25f && r[1] == 0 && !signbit(r[1]) && r[2] == 0 && !signbit(r[2]) && r[3] == 1.0f);
    assert_int_equal(pto_set_profile(PTO_PROFILE_A5), PTO_OK);
    uint64_t *kept = tile_snapshot(o);
    expect_status(pto_taddrelu(o, f, g), PTO_ERR_UNSUPPORTED_DTYPE, "taddrelu under A5");
    assert_non_null(strstr(pto_last_error(), "not supported on A5 (no dtype)"));
    assert_tile_unchanged(o, kept, "refused taddrelu");
    assert_int_equal(pto_tsubrelu(o, f, g), PTO_OK);
    assert_int_equal(pto_set_profile(PTO_PROFILE_A2A3), PTO_OK);
    assert_int_equal(pto_taddrelu(o, f, g), PTO_OK);
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    free(kept);
    TILES_DESTROY(a, b, d, f, g, o);
}

/* Every text form of the five equals the C call. */
static void test_two_step_programs(void **state) {
    (void)state;
    rng r = {0x5E};
    pto_tile *a = tile_new(PTO_FLOAT32, 3, 8, 3, 8), *b = tile_new(PTO_FLOAT32, 3, 8, 3, 8);
    pto_tile *c = tile_new(PTO_FLOAT32, 3, 8, 3, 8), *want = tile_new(PTO_FLOAT32, 3, 8, 3, 8);
    tile_fill(a, &r, GEN_ANY);
    tile_fill(b, &r, GEN_ANY);
    tile_fill(c, &r, GEN_ANY);
    static const char *const kT = "!pto.tile_buf<vec, 3x8xf32>";
    static const char *const kNames[] = {"a", "b", "c", "d"};
    typedef struct {
        const char *text;
        int op; /* 0 tsubc, 1 taddsc, 2 tsubsc, 3 tsubrelu, 4 taddrelu, 5-7 tpartmax, tpartmin, tpartmul */
    } form;
    char texts[16][640];
    form forms[16];
    size_t n = 0;
#define FORM(opn, ...) (snprintf(texts[n], sizeof texts[n], __VA_ARGS__), forms[n].text = texts[n], forms[n++].op = (opn))
    FORM(0, "pto.tsubc ins(%%a, %%b, %%c : %s, %s, %s) outs(%%d : %s)\n", kT, kT, kT, kT);
    FORM(0, "%%d = pto.tsubc %%a, %%b, %%c : (!pto.tile<3x8xf32>, !pto.tile<3x8xf32>, !pto.tile<3x8xf32>) -> "
            "!pto.tile<3x8xf32>\n");
    FORM(0, "%%d = tsubc %%a, %%b, %%c : !pto.tile<3x8xf32>\n");
    FORM(1, "%%s = arith.constant 2.5 : f32\npto.taddsc ins(%%a, %%s, %%b : %s, f32, %s) outs(%%d : %s)\n", kT, kT, kT);
    FORM(1, "%%s = arith.constant 2.5 : f32\n%%d = pto.taddsc %%a, %%s, %%b : (!pto.tile<3x8xf32>, f32, "
            "!pto.tile<3x8xf32>) -> !pto.tile<3x8xf32>\n");
    FORM(1, "%%s = arith.constant 2.5 : f32\n%%d = taddsc %%a, %%s, %%b : !pto.tile<3x8xf32>, f32, "
            "!pto.tile<3x8xf32>\n");
    FORM(2, "%%s = arith.constant 2.5 : f32\npto.tsubsc ins(%%a, %%s, %%b : %s, f32, %s) outs(%%d : %s)\n", kT, kT, kT);
    FORM(2, "%%s = arith.constant 2.5 : f32\n%%d = tsubsc %%a, %%s, %%b : !pto.tile<3x8xf32>, f32, "
            "!pto.tile<3x8xf32>\n");
    FORM(3, "pto.tsubrelu ins(%%a, %%b : %s, %s) outs(%%d : %s)\n", kT, kT, kT);
    FORM(3, "%%d = tsubrelu %%a, %%b : !pto.tile<3x8xf32>\n");
    FORM(4, "pto.taddrelu ins(%%a, %%b : %s, %s) outs(%%d : %s)\n", kT, kT, kT);
    FORM(5, "pto.tpartmax ins(%%a, %%b : %s, %s) outs(%%d : %s)\n", kT, kT, kT);
    FORM(6, "%%d = tpartmin %%a, %%b : !pto.tile<3x8xf32>\n");
    FORM(7, "pto.tpartmul ins(%%a, %%b : %s, %s) outs(%%d : %s)\n", kT, kT, kT);
#undef FORM
    for (size_t k = 0; k < n; ++k) {
        switch (forms[k].op) {
        case 0: assert_int_equal(pto_tsubc(want, a, b, c), PTO_OK); break;
        case 1: assert_int_equal(pto_taddsc(want, a, b, 2.5), PTO_OK); break;
        case 2: assert_int_equal(pto_tsubsc(want, a, b, 2.5), PTO_OK); break;
        case 3: assert_int_equal(pto_tsubrelu(want, a, b), PTO_OK); break;
        case 4: assert_int_equal(pto_taddrelu(want, a, b), PTO_OK); break;
        case 5: assert_int_equal(pto_tpartmax(want, a, b), PTO_OK); break;
        case 6: assert_int_equal(pto_tpartmin(want, a, b), PTO_OK); break;
        default: assert_int_equal(pto_tpartmul(want, a, b), PTO_OK); break;
        }
        pto_tile *out = tile_new(PTO_FLOAT32, 3, 8, 3, 8);
        pto_tile *bound[] = {a, b, c, out};
        const pto_status st = run_program_bound(forms[k].text, kNames, bound, 4, NULL, NULL, 0);
        if (st != PTO_OK) fail_msg("%s: %s (%s)", forms[k].text, pto_status_string(st), pto_last_error());
        for (uint32_t e = 0; e < 24; ++e)
            if (!same_value(PTO_FLOAT32, (uint32_t)tile_get(out, e / 8, e % 8), (uint32_t)tile_get(want, e / 8, e % 8)))
                fail_msg("%s: element %u differs from the C call", forms[k].text, e);
        pto_tile_destroy(out);
    }
    /* an integer tile's scalar is an integer; a float one's a float */
    static const char *const kI16 = "!pto.tile_buf<vec, 3x8xi16>";
    char text[640];
    snprintf(text, sizeof text,
             "%%s = arith.constant 2.5 : f32\npto.taddsc ins(%%a, %%s, %%b : %s, f32, %s) outs(%%d : %s)\n", kI16,
             kI16, kI16);
    expect_program_refused(text, PTO_ERR_INVALID_ARGUMENT);
    print_message("[ternary] %zu text forms of tsubc, taddsc, tsubsc, tsubrelu, taddrelu, tpartmax, tpartmin, "
                  "tpartmul equal the C calls\n",
                  n);
    TILES_DESTROY(a, b, c, want);
}

/* The DPS forms equal the C calls; taxpy's dst is an input of the program
 * too, and its other forms, which would have no dst to add to, are
 * refused. */
static void test_programs(void **state) {
    (void)state;
    rng r = {0xA5};
    pto_tile *src = tile_new(PTO_FLOAT16, 4, 16, 4, 16), *acc = tile_new(PTO_FLOAT32, 4, 16, 4, 16);
    tile_fill(src, &r, GEN_ANY);
    tile_fill(acc, &r, GEN_POSITIVE);
    pto_tile *want = tile_new(PTO_FLOAT32, 4, 16, 4, 16);
    uint64_t *acc_bits = tile_snapshot(acc);
    for (uint32_t k = 0; k < 64; ++k) tile_put(want, k / 16, k % 16, acc_bits[k]);
    assert_int_equal(pto_taxpy(want, src, 2.5), PTO_OK);
    static const char kAxpy[] =
        "%c = arith.constant 2.5 : f16\n"
        "pto.taxpy ins(%s, %c : !pto.tile_buf<vec, 4x16xf16>, f16) outs(%d : !pto.tile_buf<vec, 4x16xf32>)\n";
    static const char *const kNames[] = {"s", "d"};
    pto_tile *tiles[] = {src, acc};
    const pto_status run = run_program_bound(kAxpy, kNames, tiles, 2, NULL, NULL, 0);
    if (run != PTO_OK) fail_msg("taxpy program: %s (%s)", pto_status_string(run), pto_last_error());
    for (uint32_t k = 0; k < 64; ++k) assert_int_equal(tile_get(acc, k / 16, k % 16), tile_get(want, k / 16, k % 16));
    expect_program_refused("%c = arith.constant 2.5 : f16\n"
                           "%d = pto.taxpy %s, %c : (!pto.tile<4x16xf16>, f16) -> !pto.tile<4x16xf32>\n",
                           PTO_ERR_INVALID_ARGUMENT);
    expect_program_refused("%c = arith.constant 2.5 : f32\n"
                           "pto.taxpy ins(%s, %c : !pto.tile_buf<vec, 4x16xf32>, f32) "
                           "outs(%d : !pto.tile_buf<vec, 4x16xf16>)\n",
                           PTO_ERR_DTYPE_MISMATCH);

    pto_tile *a = tile_new(PTO_INT32, 3, 8, 3, 8), *b = tile_new(PTO_INT32, 3, 8, 3, 8);
    pto_tile *c = tile_new(PTO_INT32, 3, 8, 3, 8), *sum = tile_new(PTO_INT32, 3, 8, 3, 8);
    tile_fill(a, &r, GEN_ANY);
    tile_fill(b, &r, GEN_ANY);
    tile_fill(c, &r, GEN_ANY);
    assert_int_equal(pto_taddc(sum, a, b, c), PTO_OK);
    static const char *const kForms[] = {
        "pto.taddc ins(%a, %b, %c : !pto.tile_buf<vec, 3x8xi32>, !pto.tile_buf<vec, 3x8xi32>, "
        "!pto.tile_buf<vec, 3x8xi32>) outs(%d : !pto.tile_buf<vec, 3x8xi32>)\n",
        "%d = pto.taddc %a, %b, %c : (!pto.tile<3x8xi32>, !pto.tile<3x8xi32>, !pto.tile<3x8xi32>) -> "
        "!pto.tile<3x8xi32>\n",
        "%d = taddc %a, %b, %c : !pto.tile<3x8xi32>\n",
    };
    static const char *const kAddcNames[] = {"a", "b", "c", "d"};
    for (size_t k = 0; k < COUNT(kForms); ++k) {
        pto_tile *out = tile_new(PTO_INT32, 3, 8, 3, 8);
        pto_tile *bound[] = {a, b, c, out};
        const pto_status st = run_program_bound(kForms[k], kAddcNames, bound, 4, NULL, NULL, 0);
        if (st != PTO_OK) fail_msg("%s: %s (%s)", kForms[k], pto_status_string(st), pto_last_error());
        for (uint32_t e = 0; e < 24; ++e) assert_int_equal(tile_get(out, e / 8, e % 8), tile_get(sum, e / 8, e % 8));
        pto_tile_destroy(out);
    }
    print_message("[ternary] taxpy's DPS form and taddc's three forms equal the C calls; 2 refused programs\n");
    free(acc_bits);
    TILES_DESTROY(src, acc, want, a, b, c, sum);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_taxpy_cases), cmocka_unit_test(test_taxpy_values),
        cmocka_unit_test(test_taxpy_rules), cmocka_unit_test(test_taddc_values),
        cmocka_unit_test(test_taddc_rules), cmocka_unit_test(test_programs),
        cmocka_unit_test(test_two_step_cases), cmocka_unit_test(test_two_step_values),
        cmocka_unit_test(test_two_step_rules), cmocka_unit_test(test_relu_rows),
        cmocka_unit_test(test_two_step_programs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
