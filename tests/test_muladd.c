/* TFUSEDMULADD (dst = src0 * dst + src1), TFUSEDMULADDRELU (its max with 0)
 * and TMULADDDST (dst = src0 * src1 + dst) against a reference written from
 * the pages: the exact product plus the addend by MPFR, rounded once to
 * dst's dtype, then the relu; on every SIMD target, over padded valid
 * regions with the elements around them unchanged, with each source apart
 * from dst or dst itself; hand-made cases that a product rounded first
 * would get wrong; the rules in order on every profile with nothing written
 * on a refusal; the DPS forms in programs equal to the C calls. */
#include <inttypes.h>
#include <math.h>
#include <mpfr.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/harness.h"

typedef enum { FUSED_MULADD, FUSED_MULADD_RELU, MULADD_DST } muladd_op;
static const char *const kOpNames[] = {"tfusedmuladd", "tfusedmuladdrelu", "tmuladddst"};

static pto_status muladd_call(muladd_op op, pto_tile *dst, const pto_tile *src0, const pto_tile *src1) {
    switch (op) {
    case FUSED_MULADD: return pto_tfusedmuladd(dst, src0, src1);
    case FUSED_MULADD_RELU: return pto_tfusedmuladdrelu(dst, src0, src1);
    default: return pto_tmuladddst(dst, src0, src1);
    }
}

/* x * y + z of doubles holding dtype values, rounded once to dt: MPFR's fma
 * at 640 bits is exact for two float32 factors and a float32 addend (the
 * sum's bits span at most 2^256 down to 2^-298); its value rounded toward zero to double and made
 * odd when inexact keeps the sticky bit for one correct rounding to float32
 * or float16 (53 >= 24 + 2). Non-finite operands: IEEE double's result is
 * the dtype's. */
static uint64_t exact_muladd(pto_dtype dt, double x, double y, double z) {
    if (!isfinite(x) || !isfinite(y) || !isfinite(z)) return ref_from_double(dt, x * y + z);
    mpfr_t mx, my, mz, sum;
    mpfr_inits2(640, mx, my, mz, sum, (mpfr_ptr)0);
    mpfr_set_d(mx, x, MPFR_RNDN);
    mpfr_set_d(my, y, MPFR_RNDN);
    mpfr_set_d(mz, z, MPFR_RNDN);
    const int inexact = mpfr_fma(sum, mx, my, mz, MPFR_RNDN);
    assert_int_equal(inexact, 0);
    double truncated = mpfr_get_d(sum, MPFR_RNDZ);
    const bool zero = mpfr_zero_p(sum) != 0;
    const bool sticky = !zero && mpfr_cmp_d(sum, truncated) != 0;
    mpfr_clears(mx, my, mz, sum, (mpfr_ptr)0);
    if (sticky) {
        uint64_t bits;
        memcpy(&bits, &truncated, sizeof bits);
        bits |= 1;
        memcpy(&truncated, &bits, sizeof bits);
    }
    /* an exact zero takes IEEE's sign of a sum: -0 only when both the
     * product and the addend are -0 */
    if (zero) truncated = (signbit(x * y) && signbit(z)) ? -0.0 : 0.0;
    return ref_from_double(dt, truncated);
}

/* The relu of a result: kept when > 0 or NaN, else +0. */
static uint64_t relu_bits(pto_dtype dt, uint64_t v) {
    if (ref_is_nan(dt, v)) return v;
    return ref_to_double(dt, v) > 0 ? v : ref_from_double(dt, 0.0);
}

/* The page's result for one element: src0 * dst + src1 (with the relu) or
 * src0 * src1 + dst, from the three inputs' bits. */
static uint64_t muladd_reference(muladd_op op, pto_dtype dt, uint64_t s0, uint64_t s1, uint64_t old) {
    const double a = ref_to_double(dt, s0), b = ref_to_double(dt, s1), d = ref_to_double(dt, old);
    if (op == MULADD_DST) return exact_muladd(dt, a, b, d);
    const uint64_t v = exact_muladd(dt, a, d, b);
    return op == FUSED_MULADD_RELU ? relu_bits(dt, v) : v;
}

static bool same_bits(pto_dtype dt, uint64_t got, uint64_t want) {
    return got == want || (ref_is_nan(dt, got) && ref_is_nan(dt, want));
}

/* rows, cols, valid rows, valid cols */
static const uint32_t kShapes[][4] = {{1, 1, 1, 1},   {8, 40, 5, 37}, {16, 16, 16, 16},
                                      {1, 300, 1, 300}, {3, 19, 3, 17}, {2, 70, 2, 65}};
static const pto_dtype kDtypes[] = {PTO_FLOAT32, PTO_FLOAT16};

/* Which sources are dst itself. */
typedef enum { APART, SRC0_IS_DST, SRC1_IS_DST, BOTH_ARE_DST, N_PLACEMENTS } placement;

typedef struct {
    size_t checked;
} muladd_ctx;

static void check_one(muladd_ctx *ctx, const char *target, muladd_op op, pto_dtype dt, const uint32_t *sh,
                      placement pl, rng *r) {
    pto_tile *dst = tile_new(dt, sh[0], sh[1], sh[2], sh[3]);
    pto_tile *a = tile_new(dt, sh[0], sh[1], sh[2], sh[3]), *b = tile_new(dt, sh[0], sh[1], sh[2], sh[3]);
    tile_fill(dst, r, GEN_ANY);
    tile_fill(a, r, GEN_ANY);
    tile_fill(b, r, GEN_ANY);
    const pto_tile *s0 = pl == SRC0_IS_DST || pl == BOTH_ARE_DST ? dst : a;
    const pto_tile *s1 = pl == SRC1_IS_DST || pl == BOTH_ARE_DST ? dst : b;
    uint64_t *before = tile_snapshot(dst), *a_bits = tile_snapshot(s0), *b_bits = tile_snapshot(s1);
    const pto_status st = muladd_call(op, dst, s0, s1);
    if (st != PTO_OK) fail_msg("%s: %s placement %d: %s (%s)", target, kOpNames[op], (int)pl,
                               pto_status_string(st), pto_last_error());
    const uint32_t cols = sh[1];
    for (uint32_t i = 0; i < sh[0]; ++i)
        for (uint32_t j = 0; j < cols; ++j) {
            const size_t k = (size_t)i * cols + j;
            const uint64_t got = tile_get(dst, i, j);
            const uint64_t want =
                i < sh[2] && j < sh[3] ? muladd_reference(op, dt, a_bits[k], b_bits[k], before[k]) : before[k];
            if (!same_bits(dt, got, want))
                fail_msg("%s: %s %s %ux%u placement %d: (%u,%u) src0 0x%" PRIx64 " src1 0x%" PRIx64
                         " dst 0x%" PRIx64 " gave 0x%" PRIx64 ", want 0x%" PRIx64,
                         target, kOpNames[op], pto_dtype_string(dt), sh[0], sh[1], (int)pl, i, j, a_bits[k],
                         b_bits[k], before[k], got, want);
            ++ctx->checked;
        }
    free(before);
    free(a_bits);
    free(b_bits);
    TILES_DESTROY(dst, a, b);
}

static void muladd_on(void *opaque, size_t t, const char *target) {
    (void)t;
    rng r = {0xF3A};
    for (int op = 0; op < 3; ++op)
        for (size_t d = 0; d < COUNT(kDtypes); ++d)
            for (size_t s = 0; s < COUNT(kShapes); ++s)
                for (int pl = 0; pl < N_PLACEMENTS; ++pl)
                    check_one(opaque, target, (muladd_op)op, kDtypes[d], kShapes[s], (placement)pl, &r);
}

static void test_muladd_values(void **state) {
    (void)state;
    muladd_ctx ctx = {0};
    for_each_target("muladd", muladd_on, &ctx);
    print_message("[muladd] %zu elements of tfusedmuladd, tfusedmuladdrelu, tmuladddst equal the exact "
                  "multiply-add rounded once\n",
                  ctx.checked);
}

/* pto-isa's ST cases (tests/npu/a2a3 and a5/src/st/testcase/tfusedmuladd,
 * tfusedmuladdrelu, tmuladddst, gen_data.py): operands of different tile
 * widths over one valid region, values uniform in +/- sqrt(max) / 10 of
 * the dtype as those scripts draw them, run under the case's profile and
 * compared with the exact multiply-add rounded once (their goldens are
 * numpy's, compared with a tolerance). */
typedef struct {
    muladd_op op;
    pto_profile profile;
    pto_dtype dt;
    uint32_t dst_rows, dst_cols, src0_rows, src0_cols, src1_rows, src1_cols, vr, vc;
} st_case;

static const st_case kStCases[] = {
    {FUSED_MULADD, PTO_PROFILE_A2A3, PTO_FLOAT32, 1, 8, 1, 8, 1, 8, 1, 8},
    {FUSED_MULADD, PTO_PROFILE_A2A3, PTO_FLOAT32, 64, 64, 64, 64, 64, 64, 64, 64},
    {FUSED_MULADD, PTO_PROFILE_A2A3, PTO_FLOAT32, 32, 128, 32, 192, 32, 256, 32, 127},
    {FUSED_MULADD, PTO_PROFILE_A2A3, PTO_FLOAT32, 1, 16384, 1, 16384, 1, 16384, 1, 16384},
    {FUSED_MULADD, PTO_PROFILE_A2A3, PTO_FLOAT32, 2048, 8, 2048, 8, 2048, 8, 2048, 8},
    {FUSED_MULADD, PTO_PROFILE_A2A3, PTO_FLOAT16, 1, 16, 1, 16, 1, 16, 1, 16},
    {FUSED_MULADD, PTO_PROFILE_A2A3, PTO_FLOAT16, 64, 64, 64, 64, 64, 64, 64, 64},
    {FUSED_MULADD, PTO_PROFILE_A2A3, PTO_FLOAT16, 32, 128, 32, 192, 32, 256, 32, 127},
    {FUSED_MULADD, PTO_PROFILE_A2A3, PTO_FLOAT16, 2048, 16, 2048, 16, 2048, 16, 2048, 16},
    {FUSED_MULADD, PTO_PROFILE_A2A3, PTO_FLOAT16, 1, 32768, 1, 32768, 1, 32768, 1, 32768},
    {FUSED_MULADD, PTO_PROFILE_A5, PTO_FLOAT32, 1, 21824, 1, 21824, 1, 21824, 1, 21824},
    {FUSED_MULADD, PTO_PROFILE_A5, PTO_FLOAT32, 2728, 8, 2728, 8, 2728, 8, 2728, 8},
    {FUSED_MULADD, PTO_PROFILE_A5, PTO_FLOAT32, 32, 128, 32, 192, 32, 256, 32, 127},
    {FUSED_MULADD, PTO_PROFILE_A5, PTO_FLOAT16, 2728, 16, 2728, 16, 2728, 16, 2728, 16},
    {FUSED_MULADD, PTO_PROFILE_A5, PTO_FLOAT16, 1, 43648, 1, 43648, 1, 43648, 1, 43648},
    {FUSED_MULADD_RELU, PTO_PROFILE_A2A3, PTO_FLOAT32, 64, 64, 64, 64, 64, 64, 64, 64},
    {FUSED_MULADD_RELU, PTO_PROFILE_A2A3, PTO_FLOAT32, 32, 128, 32, 192, 32, 256, 32, 127},
    {FUSED_MULADD_RELU, PTO_PROFILE_A2A3, PTO_FLOAT16, 64, 64, 64, 64, 64, 64, 64, 64},
    {FUSED_MULADD_RELU, PTO_PROFILE_A2A3, PTO_FLOAT16, 32, 128, 32, 192, 32, 256, 32, 127},
    {FUSED_MULADD_RELU, PTO_PROFILE_A5, PTO_FLOAT16, 32, 128, 32, 192, 32, 256, 32, 127},
    {MULADD_DST, PTO_PROFILE_A2A3, PTO_FLOAT32, 1, 8, 1, 8, 1, 8, 1, 8},
    {MULADD_DST, PTO_PROFILE_A2A3, PTO_FLOAT32, 64, 64, 64, 64, 64, 64, 64, 64},
    {MULADD_DST, PTO_PROFILE_A2A3, PTO_FLOAT32, 32, 128, 32, 192, 32, 256, 32, 127},
    {MULADD_DST, PTO_PROFILE_A2A3, PTO_FLOAT16, 64, 64, 64, 64, 64, 64, 64, 64},
    {MULADD_DST, PTO_PROFILE_A2A3, PTO_FLOAT16, 32, 128, 32, 192, 32, 256, 32, 127},
    {MULADD_DST, PTO_PROFILE_HOST, PTO_FLOAT16, 1, 16384, 1, 16384, 1, 16384, 1, 16384},
    {MULADD_DST, PTO_PROFILE_A5, PTO_FLOAT32, 32, 128, 32, 192, 32, 256, 32, 127},
};

/* A tile of rows x cols (valid vr x vc) of values uniform in +/- bound,
 * rounded to dt. */
static pto_tile *st_tile(pto_dtype dt, uint32_t rows, uint32_t cols, uint32_t vr, uint32_t vc, double bound,
                         rng *r) {
    pto_tile *t = tile_new(dt, rows, cols, vr, vc);
    for (uint32_t i = 0; i < rows; ++i)
        for (uint32_t j = 0; j < cols; ++j) {
            const double u = (double)(rng_next(r) >> 11) * 0x1p-53;
            tile_put(t, i, j, ref_from_double(dt, (2 * u - 1) * bound));
        }
    return t;
}

static void test_muladd_st_cases(void **state) {
    (void)state;
    rng r = {0xF3D};
    size_t elements = 0;
    for (size_t k = 0; k < COUNT(kStCases); ++k) {
        const st_case *c = &kStCases[k];
        assert_int_equal(pto_set_profile(c->profile), PTO_OK);
        const double bound = sqrt(c->dt == PTO_FLOAT32 ? 0x1.fffffep127 : 65504.0) / 10;
        pto_tile *dst = st_tile(c->dt, c->dst_rows, c->dst_cols, c->vr, c->vc, bound, &r);
        pto_tile *a = st_tile(c->dt, c->src0_rows, c->src0_cols, c->vr, c->vc, bound, &r);
        pto_tile *b = st_tile(c->dt, c->src1_rows, c->src1_cols, c->vr, c->vc, bound, &r);
        uint64_t *before = tile_snapshot(dst);
        const pto_status st = muladd_call(c->op, dst, a, b);
        if (st != PTO_OK) fail_msg("ST case %zu: %s (%s)", k, pto_status_string(st), pto_last_error());
        for (uint32_t i = 0; i < c->dst_rows; ++i)
            for (uint32_t j = 0; j < c->dst_cols; ++j) {
                const uint64_t old = before[(size_t)i * c->dst_cols + j];
                const uint64_t want = i < c->vr && j < c->vc
                                          ? muladd_reference(c->op, c->dt, tile_get(a, i, j), tile_get(b, i, j), old)
                                          : old;
                if (!same_bits(c->dt, tile_get(dst, i, j), want))
                    fail_msg("ST case %zu (%s %s): (%u,%u) gave 0x%" PRIx64 ", want 0x%" PRIx64, k, kOpNames[c->op],
                             pto_dtype_string(c->dt), i, j, tile_get(dst, i, j), want);
                ++elements;
            }
        free(before);
        TILES_DESTROY(dst, a, b);
    }
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    print_message("[muladd] pto-isa's %zu ST cases: %zu elements equal the exact multiply-add rounded once\n",
                  COUNT(kStCases), elements);
}

/* One element through op: its result's bits. */
static uint64_t one_element(muladd_op op, pto_dtype dt, double s0, double s1, double old) {
    pto_tile *d = tile_new(dt, 1, 1, 1, 1), *a = tile_new(dt, 1, 1, 1, 1), *b = tile_new(dt, 1, 1, 1, 1);
    tile_put(a, 0, 0, ref_from_double(dt, s0));
    tile_put(b, 0, 0, ref_from_double(dt, s1));
    tile_put(d, 0, 0, ref_from_double(dt, old));
    assert_int_equal(muladd_call(op, d, a, b), PTO_OK);
    const uint64_t got = tile_get(d, 0, 0);
    TILES_DESTROY(d, a, b);
    return got;
}

/* Results that a product rounded before the addition would get wrong, the
 * float16 sum that a float32 intermediate would round twice, and the relu's
 * edges. */
static void test_muladd_cases(void **state) {
    (void)state;
    /* (1 + 2^-12)^2 = 1 + 2^-11 + 2^-24: minus (1 + 2^-11) leaves 2^-24
     * fused, 0 when the product is rounded to float32 first */
    const double x = 1.0 + 0x1p-12, c = -(1.0 + 0x1p-11);
    const uint64_t tiny = ref_from_double(PTO_FLOAT32, 0x1p-24);
    assert_int_equal(one_element(FUSED_MULADD, PTO_FLOAT32, x, c, x), tiny);      /* src0 * dst + src1 */
    assert_int_equal(one_element(FUSED_MULADD_RELU, PTO_FLOAT32, x, c, x), tiny);
    assert_int_equal(one_element(MULADD_DST, PTO_FLOAT32, x, x, c), tiny);        /* src0 * src1 + dst */
    /* the negated sum: -2^-24 fused, which the relu makes +0 */
    assert_int_equal(one_element(FUSED_MULADD, PTO_FLOAT32, -x, -c, x), ref_from_double(PTO_FLOAT32, -0x1p-24));
    assert_int_equal(one_element(FUSED_MULADD_RELU, PTO_FLOAT32, -x, -c, x), 0);
    /* float16: (1 + 2^-10)(1 - 2^-11) + 9 2^-24 = 1 + 2^-11 + 2^-24 (less
     * 2^-21), just above the midpoint of 1 and 1 + 2^-10; through float32
     * it would round to the midpoint, then to even, 1 */
    const uint64_t up = ref_from_double(PTO_FLOAT16, 1.0 + 0x1p-10);
    assert_int_equal(one_element(FUSED_MULADD, PTO_FLOAT16, 1.0 + 0x1p-10, 9 * 0x1p-24, 1.0 - 0x1p-11), up);
    assert_int_equal(one_element(MULADD_DST, PTO_FLOAT16, 1.0 + 0x1p-10, 1.0 - 0x1p-11, 9 * 0x1p-24), up);
    assert_int_equal(one_element(FUSED_MULADD_RELU, PTO_FLOAT16, 1.0 + 0x1p-10, 9 * 0x1p-24, 1.0 - 0x1p-11), up);
    /* the relu: -0 (from -0 * 1 + -0) and negatives give +0, NaN stays NaN,
     * +inf stays */
    for (size_t d = 0; d < COUNT(kDtypes); ++d) {
        const pto_dtype dt = kDtypes[d];
        assert_int_equal(one_element(FUSED_MULADD, dt, -0.0, -0.0, 1.0), ref_from_double(dt, -0.0));
        assert_int_equal(one_element(FUSED_MULADD_RELU, dt, -0.0, -0.0, 1.0), 0);
        assert_int_equal(one_element(FUSED_MULADD_RELU, dt, 2.0, -5.0, 2.0), 0);
        assert_int_equal(one_element(FUSED_MULADD_RELU, dt, 2.0, 1.0, 3.0), ref_from_double(dt, 7.0));
        assert_true(ref_is_nan(dt, one_element(FUSED_MULADD_RELU, dt, NAN, 1.0, 1.0)));
        assert_true(ref_is_nan(dt, one_element(FUSED_MULADD_RELU, dt, INFINITY, -INFINITY, 1.0)));
        assert_int_equal(one_element(FUSED_MULADD_RELU, dt, INFINITY, 1.0, 1.0), ref_from_double(dt, INFINITY));
        /* 0 * inf is NaN in either order */
        assert_true(ref_is_nan(dt, one_element(MULADD_DST, dt, 0.0, INFINITY, 1.0)));
        assert_true(ref_is_nan(dt, one_element(FUSED_MULADD, dt, INFINITY, 1.0, 0.0)));
    }
}

/* Two FLOAT32 4x8 tiles of one buffer, the second one row into the
 * first's bytes. */
static pto_buffer *sharing_pair(pto_tile **first, pto_tile **second) {
    pto_buffer *buf = NULL;
    assert_int_equal(pto_buffer_create(4096, &buf), PTO_OK);
    assert_int_equal(pto_tile_create_at(PTO_FLOAT32, 4, 8, buf, 0, first), PTO_OK);
    assert_int_equal(pto_tile_create_at(PTO_FLOAT32, 4, 8, buf, 32, second), PTO_OK);
    return buf;
}

/* The rules in their order, under every profile; a refused call writes
 * nothing. */
static void test_muladd_rules(void **state) {
    (void)state;
    static const pto_profile kProfiles[] = {PTO_PROFILE_HOST, PTO_PROFILE_A2A3, PTO_PROFILE_A5};
    static const pto_dtype kRefused[] = {PTO_INT8,  PTO_UINT8, PTO_INT16,   PTO_UINT16, PTO_INT32,
                                         PTO_UINT32, PTO_INT64, PTO_UINT64, PTO_BFLOAT16};
    rng r = {0xF3B};
    size_t refusals = 0;
    for (size_t p = 0; p < COUNT(kProfiles); ++p)
        for (int op = 0; op < 3; ++op) {
            const muladd_op m = (muladd_op)op;
            assert_int_equal(pto_set_profile(kProfiles[p]), PTO_OK);
            pto_tile *d = tile_new(PTO_FLOAT32, 4, 8, 4, 8), *s = tile_new(PTO_FLOAT32, 4, 8, 4, 8);
            pto_tile *h = tile_new(PTO_FLOAT16, 4, 8, 4, 8), *narrow = tile_new(PTO_FLOAT32, 4, 8, 3, 8);
            tile_fill(d, &r, GEN_ANY);
            tile_fill(h, &r, GEN_ANY);
            uint64_t *kept = tile_snapshot(d), *kept_h = tile_snapshot(h);
            expect_status(muladd_call(m, NULL, s, s), PTO_ERR_NULL_ARGUMENT, "NULL dst");
            expect_status(muladd_call(m, d, NULL, s), PTO_ERR_NULL_ARGUMENT, "NULL src0");
            expect_status(muladd_call(m, d, s, NULL), PTO_ERR_NULL_ARGUMENT, "NULL src1");
            assert_non_null(strstr(pto_last_error(), kOpNames[m]));
            assert_non_null(strstr(pto_last_error(), "src1"));
            refusals += 3;
            for (size_t k = 0; k < COUNT(kRefused); ++k) {
                pto_tile *t = tile_new(kRefused[k], 4, 8, 4, 8);
                expect_status(muladd_call(m, t, t, t), PTO_ERR_UNSUPPORTED_DTYPE, pto_dtype_string(kRefused[k]));
                pto_tile_destroy(t);
                ++refusals;
            }
            /* dtype before region: a FLOAT16 source of another region */
            expect_status(muladd_call(m, d, h, narrow), PTO_ERR_DTYPE_MISMATCH, "FLOAT16 src0 into FLOAT32");
            expect_status(muladd_call(m, h, h, d), PTO_ERR_DTYPE_MISMATCH, "FLOAT32 src1 into FLOAT16");
            expect_status(muladd_call(m, d, s, narrow), PTO_ERR_SHAPE_MISMATCH, "src1's valid region");
            expect_status(muladd_call(m, d, narrow, d), PTO_ERR_SHAPE_MISMATCH, "src0's valid region");
            refusals += 4;
            pto_tile *a = NULL, *b = NULL;
            pto_buffer *buf = sharing_pair(&a, &b);
            tile_fill(a, &r, GEN_ANY);
            uint64_t *kept_a = tile_snapshot(a);
            /* aliasing before the region: b shares a's bytes and is narrower */
            assert_int_equal(pto_tile_set_valid(b, 3, 8), PTO_OK);
            expect_status(muladd_call(m, a, b, s), PTO_ERR_ALIASING, "src0 sharing dst's bytes");
            expect_status(muladd_call(m, a, s, b), PTO_ERR_ALIASING, "src1 sharing dst's bytes");
            refusals += 2;
            assert_tile_unchanged(a, kept_a, "refused call on a shared buffer");
            assert_tile_unchanged(d, kept, "refused call");
            assert_tile_unchanged(h, kept_h, "refused call");
            /* the sources may overlap each other */
            assert_int_equal(pto_tile_set_valid(b, 4, 8), PTO_OK);
            assert_int_equal(muladd_call(m, d, a, b), PTO_OK);
            pto_buffer_destroy(buf);
            TILES_DESTROY(d, s, h, narrow, a, b);
            free(kept);
            free(kept_h);
            free(kept_a);
        }
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    /* a cube tile on either side is refused before the dtype rules */
    pto_tile *m = NULL, *v = tile_new(PTO_INT32, 16, 16, 16, 16);
    assert_int_equal(pto_tile_create_cube(PTO_FLOAT32, 16, 16, PTO_LOC_MAT, PTO_LAYOUT_NZ, &m), PTO_OK);
    for (int op = 0; op < 3; ++op) {
        expect_status(muladd_call((muladd_op)op, m, v, v), PTO_ERR_INVALID_ARGUMENT, "a cube dst");
        expect_status(muladd_call((muladd_op)op, v, v, m), PTO_ERR_INVALID_ARGUMENT, "a cube src1");
        assert_non_null(strstr(pto_last_error(), "src1"));
        refusals += 2;
    }
    TILES_DESTROY(m, v);
    print_message("[muladd] %zu refusals in order on 3 profiles, nothing written\n", refusals);
}

/* The DPS forms equal the C calls, dst an input of the program; the SSA
 * form, which has no dst to read, is refused. */
static void test_muladd_programs(void **state) {
    (void)state;
    rng r = {0xF3C};
    static const char *const kText[] = {
        "pto.tfusedmuladd ins(%a, %b : !pto.tile_buf<vec, 4x20xf32>, !pto.tile_buf<vec, 4x20xf32>) "
        "outs(%d : !pto.tile_buf<vec, 4x20xf32>)\n",
        "pto.tfusedmuladdrelu ins(%a, %b : !pto.tile_buf<vec, 4x20xf32>, !pto.tile_buf<vec, 4x20xf32>) "
        "outs(%d : !pto.tile_buf<vec, 4x20xf32>)\n",
        "pto.tmuladddst ins(%a, %b : !pto.tile_buf<vec, 4x20xf32>, !pto.tile_buf<vec, 4x20xf32>) "
        "outs(%d : !pto.tile_buf<vec, 4x20xf32>)\n",
    };
    static const char *const kNames[] = {"a", "b", "d"};
    for (int op = 0; op < 3; ++op) {
        pto_tile *a = tile_new(PTO_FLOAT32, 4, 20, 4, 20), *b = tile_new(PTO_FLOAT32, 4, 20, 4, 20);
        pto_tile *d = tile_new(PTO_FLOAT32, 4, 20, 4, 20), *want = tile_new(PTO_FLOAT32, 4, 20, 4, 20);
        tile_fill(a, &r, GEN_ANY);
        tile_fill(b, &r, GEN_ANY);
        tile_fill(d, &r, GEN_ANY);
        for (uint32_t k = 0; k < 80; ++k) tile_put(want, k / 20, k % 20, tile_get(d, k / 20, k % 20));
        assert_int_equal(muladd_call((muladd_op)op, want, a, b), PTO_OK);
        pto_tile *bound[] = {a, b, d};
        const pto_status st = run_program_bound(kText[op], kNames, bound, 3, NULL, NULL, 0);
        if (st != PTO_OK) fail_msg("%s: %s (%s)", kText[op], pto_status_string(st), pto_last_error());
        for (uint32_t k = 0; k < 80; ++k)
            if (!same_bits(PTO_FLOAT32, tile_get(d, k / 20, k % 20), tile_get(want, k / 20, k % 20)))
                fail_msg("%s: element %u differs from the C call", kOpNames[op], k);
        TILES_DESTROY(a, b, d, want);
    }
    expect_program_refused("%d = pto.tfusedmuladd %a, %b : (!pto.tile<4x20xf32>, !pto.tile<4x20xf32>) -> "
                           "!pto.tile<4x20xf32>\n",
                           PTO_ERR_INVALID_ARGUMENT);
    expect_program_refused("%d = tmuladddst %a, %b : !pto.tile<4x20xf32>\n", PTO_ERR_INVALID_ARGUMENT);
    expect_program_refused("pto.tmuladddst ins(%a, %b : !pto.tile_buf<vec, 4x20xi32>, !pto.tile_buf<vec, 4x20xi32>) "
                           "outs(%d : !pto.tile_buf<vec, 4x20xi32>)\n",
                           PTO_ERR_UNSUPPORTED_DTYPE);
    print_message("[muladd] 3 DPS forms equal the C calls; 3 refused programs\n");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_muladd_cases),
        cmocka_unit_test(test_muladd_values),
        cmocka_unit_test(test_muladd_rules),
        cmocka_unit_test(test_muladd_st_cases),
        cmocka_unit_test(test_muladd_programs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
