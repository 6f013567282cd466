/* TAXPY and TADDC: every dtype pair against a reference written from the
 * pages (taxpy: the exact scalar * src0 + dst by MPFR, rounded once to dst's
 * dtype; taddc: (src0 + src1) + src2 as two additions of tadd's), on every
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
        pto_buffer *buf = NULL;
        assert_int_equal(pto_buffer_create(4096, &buf), PTO_OK);
        pto_tile *a = NULL, *b = NULL;
        assert_int_equal(pto_tile_create_at(PTO_FLOAT32, 4, 8, buf, 0, &a), PTO_OK);
        assert_int_equal(pto_tile_create_at(PTO_FLOAT32, 4, 8, buf, 32, &b), PTO_OK);
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

static void addc_on(void *opaque, size_t t, const char *target) {
    (void)t;
    size_t *checked = opaque;
    rng r = {0xADC};
    for (size_t k = 0; k < COUNT(kAddcDtypes); ++k)
        for (size_t s = 0; s < COUNT(kShapes); ++s)
            for (int place = 0; place < 3; ++place) { /* apart, dst == src0, dst == src2 */
                const pto_dtype dt = kAddcDtypes[k];
                const uint32_t *sh = kShapes[s];
                pto_tile *a = tile_new(dt, sh[0], sh[1], sh[2], sh[3]), *b = tile_new(dt, sh[0], sh[1], sh[2], sh[3]);
                pto_tile *c = tile_new(dt, sh[0], sh[1], sh[2], sh[3]), *d = tile_new(dt, sh[0], sh[1], sh[2], sh[3]);
                tile_fill(a, &r, GEN_ANY);
                tile_fill(b, &r, GEN_ANY);
                tile_fill(c, &r, GEN_ANY);
                tile_fill(d, &r, GEN_ANY);
                pto_tile *out = place == 0 ? d : place == 1 ? a : c;
                uint64_t *ka = tile_snapshot(a), *kb = tile_snapshot(b), *kc = tile_snapshot(c),
                         *kd = tile_snapshot(out);
                assert_int_equal(pto_taddc(out, a, b, c), PTO_OK);
                const uint32_t cols = sh[1];
                for (uint32_t i = 0; i < sh[0]; ++i)
                    for (uint32_t j = 0; j < cols; ++j) {
                        const size_t at = (size_t)i * cols + j;
                        uint32_t want = kd[at];
                        if (i < sh[2] && j < sh[3]) want = ref_add(dt, ref_add(dt, ka[at], kb[at]), kc[at]);
                        if (!same_value(dt, tile_get(out, i, j), want))
                            fail_msg("%s: taddc %s %ux%u placement %d (%u,%u): 0x%x + 0x%x + 0x%x gave 0x%x, "
                                     "want 0x%x",
                                     target, pto_dtype_string(dt), sh[0], sh[1], place, i, j, ka[at], kb[at],
                                     kc[at], tile_get(out, i, j), want);
                        ++*checked;
                    }
                free(ka);
                free(kb);
                free(kc);
                free(kd);
                TILES_DESTROY(a, b, c, d);
            }
}

static void test_taddc_values(void **state) {
    (void)state;
    size_t checked = 0;
    for_each_target("taddc", addc_on, &checked);
    /* INT64 wraps modulo 2^64 */
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
    print_message("[ternary] taddc: %zu elements equal two tadd additions\n", checked);
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
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
