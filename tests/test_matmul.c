/* TMATMUL, TMATMUL_ACC, TMATMUL_BIAS under HOST: on every target, for the
 * four (dst; a, b) dtype triples and shapes that take each path of the
 * kernel (one element; row blocks of 4 and their remainders; column blocks
 * of two vectors, one vector and single lanes; padded tiles; K = 0), dst's
 * valid region is, bit for bit, the reference chain written here: for each
 * (i, j), acc = seed, then acc = fmaf(a(i,k), b(k,j), acc) for k = 0..K-1
 * (libm's fmaf, rounded once), or acc + a b modulo 2^32; nothing outside it
 * is written. Chains whose two-rounding multiply-add would differ from the
 * fused one; NaN and infinities; the rules in the contract's order, each
 * refusal writing nothing; A2A3 and A5 refusing vec tiles (test_matmul_cube.c
 * runs their cube tiles). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/harness.h"


/* The reference value of dst(i, j), as dst's bits. */
static uint32_t reference(seed_kind seed, const pto_tile *dst_before, const pto_tile *a,
                          const pto_tile *b, const pto_tile *bias, size_t i, size_t j,
                          uint32_t dst_bits) {
    const pto_dtype dt = pto_tile_dtype(dst_before);
    const pto_dtype st = pto_tile_dtype(a);
    const size_t k_count = pto_tile_valid_cols(a);
    const uint32_t seed_bits = seed == SEED_ZERO ? 0 : seed == SEED_DST ? dst_bits : tile_get(bias, 0, j);
    if (dt == PTO_INT32) {
        uint32_t acc = seed_bits;
        for (size_t k = 0; k < k_count; ++k)
            acc += (uint32_t)(ref_int_value(st, tile_get(a, i, k)) * ref_int_value(st, tile_get(b, k, j)));
        return acc;
    }
    float acc;
    memcpy(&acc, &seed_bits, sizeof acc);
    for (size_t k = 0; k < k_count; ++k)
        acc = fmaf((float)ref_to_double(st, tile_get(a, i, k)), (float)ref_to_double(st, tile_get(b, k, j)),
                   acc);
    uint32_t bits;
    memcpy(&bits, &acc, sizeof bits);
    return bits;
}

static bool same_result(pto_dtype dt, uint32_t want, uint32_t got) {
    return want == got || (ref_is_nan(dt, want) && ref_is_nan(dt, got));
}

/* Runs `seed` on the given operands and compares every element of dst with
 * the reference (outside the valid region: unchanged). */
static void check_call(seed_kind seed, pto_tile *dst, const pto_tile *a, const pto_tile *b,
                       const pto_tile *bias, const char *target) {
    const pto_dtype dt = pto_tile_dtype(dst);
    uint64_t *before = tile_snapshot(dst);
    const pto_status st = matmul_call(seed, dst, a, b, bias);
    if (st != PTO_OK)
        fail_msg("%s %s on %s: %s (%s)", kSeedNames[seed], pto_dtype_string(pto_tile_dtype(a)), target,
                 pto_status_string(st), pto_last_error());
    const uint32_t rows = pto_tile_rows(dst), cols = pto_tile_cols(dst);
    for (uint32_t i = 0; i < rows; ++i)
        for (uint32_t j = 0; j < cols; ++j) {
            const uint32_t got = tile_get(dst, i, j);
            const uint32_t old = before[(size_t)i * cols + j];
            if (i >= pto_tile_valid_rows(dst) || j >= pto_tile_valid_cols(dst)) {
                if (got != old) fail_msg("%s wrote (%u,%u) outside dst's valid region", kSeedNames[seed], i, j);
                continue;
            }
            const uint32_t want = reference(seed, dst, a, b, bias, i, j, old);
            if (!same_result(dt, want, got))
                fail_msg("%s %s on %s, M %u K %u N %u: (%u,%u) gives 0x%x, the chain 0x%x", kSeedNames[seed],
                         pto_dtype_string(pto_tile_dtype(a)), target, pto_tile_valid_rows(dst),
                         pto_tile_valid_cols(a), pto_tile_valid_cols(dst), i, j, got, want);
        }
    free(before);
}

typedef struct {
    uint32_t m, k, n;
    uint32_t pad; /* extra rows and columns of every tile beyond its valid region */
} mkn;

/* One element; every row remainder of the register blocks (4, 6 and 8
 * rows, by target) with 1, 2 and 3 vectors' worth of columns and a lane
 * tail (the last columns' zero-padded strip); padded tiles; K = 0; one that
 * crosses every block of the narrow types' widening (32 rows, 64 k, 128
 * cols), one that crosses float32's cache panels (256 k, 256 cols) with a
 * remainder in both, and one that crosses its chunks of 256 rows. Float32
 * products of 16 rows and more than 256 k run on packed copies of a's and
 * dst's blocks: the last shape crosses them with row and lane tails, padded
 * strides and a second panel of k (test_alloc_failure compares a larger one,
 * over panels of columns and chunks of rows, with the in-place path). */
static const mkn kShapes[] = {
    {1, 1, 1, 0},     {3, 5, 7, 0},     {4, 16, 16, 0},   {5, 33, 17, 2},   {6, 9, 40, 1},
    {7, 64, 33, 3},   {17, 31, 48, 0},  {2, 0, 9, 1},     {9, 128, 5, 0},   {37, 70, 130, 1},
    {6, 300, 270, 1}, {15, 40, 70, 1},  {23, 19, 100, 0}, {262, 9, 35, 0},  {17, 257, 40, 3},
};

typedef struct {
    pto_dtype dst, src;
} triple;
static const triple kTriples[] = {
    {PTO_FLOAT32, PTO_BFLOAT16}, {PTO_FLOAT32, PTO_FLOAT16}, {PTO_FLOAT32, PTO_FLOAT32}, {PTO_INT32, PTO_INT8}};

static void values_body(void *ctx, size_t target_index, const char *target) {
    size_t *calls = ctx;
    rng r = {0x3A7A01u + target_index};
    for (size_t t = 0; t < COUNT(kTriples); ++t)
        for (size_t s = 0; s < COUNT(kShapes); ++s)
            for (int seed = SEED_ZERO; seed <= SEED_BIAS; ++seed) {
                const mkn *x = &kShapes[s];
                pto_tile *a = tile_new(kTriples[t].src, x->m + x->pad, x->k + x->pad, x->m, x->k);
                pto_tile *b = tile_new(kTriples[t].src, x->k + x->pad, x->n + x->pad, x->k, x->n);
                pto_tile *dst = tile_new(kTriples[t].dst, x->m + x->pad, x->n + x->pad, x->m, x->n);
                pto_tile *bias = tile_new(kTriples[t].dst, 1 + x->pad, x->n + x->pad, 1, x->n);
                /* Moderate sources (GEN_CHAIN): with a NaN or an infinity
                 * among a chain's products (257 k would almost always have
                 * one) the sum hides every other term; test_specials covers
                 * them. */
                tile_fill(a, &r, GEN_CHAIN);
                tile_fill(b, &r, GEN_CHAIN);
                tile_fill(dst, &r, kTriples[t].dst == PTO_INT32 ? GEN_ANY : GEN_POW_EXP);
                tile_fill(bias, &r, kTriples[t].dst == PTO_INT32 ? GEN_ANY : GEN_POW_EXP);
                check_call((seed_kind)seed, dst, a, b, bias, target);
                /* a and b may be one tile (a square one). */
                if (x->m == x->k && x->k == x->n) check_call((seed_kind)seed, dst, a, a, bias, target);
                *calls += 1;
                pto_tile_destroy(a), pto_tile_destroy(b), pto_tile_destroy(dst), pto_tile_destroy(bias);
            }
}

static void test_values(void **state) {
    (void)state;
    size_t calls = 0;
    for_each_target("matmul against the fmaf chain", values_body, &calls);
    printf("matmul: %zu calls against the reference chain\n", calls);
}

static uint32_t f32_bits(float f) {
    uint32_t bits;
    memcpy(&bits, &f, sizeof bits);
    return bits;
}

/* Chains where a multiply and an add rounded apart give another float than
 * the fused step: (1 + 2^-12)^2 = 1 + 2^-11 + 2^-24 lies half an ulp above a
 * float, so the tiny partial sum before it decides the rounding (up, where
 * rounding the product first would give the even float below); and a
 * product that cancels the running sum exactly leaves its rounding error. */
static void hard_body(void *ctx, size_t target_index, const char *target) {
    (void)ctx, (void)target_index;
    pto_tile *a = tile_new(PTO_FLOAT32, 3, 2, 3, 2);
    pto_tile *b = tile_new(PTO_FLOAT32, 2, 1, 2, 1);
    pto_tile *dst = tile_new(PTO_FLOAT32, 3, 1, 3, 1);
    const float x = 1.0f + 0x1p-12f;
    const float third = 1.0f / 3.0f;
    const float rows[3][2] = {{0x1p-40f, x}, {-0x1p-40f, x}, {third, -third}};
    const float col[2] = {0x1p-40f, x};
    for (int i = 0; i < 3; ++i)
        for (int k = 0; k < 2; ++k) tile_put(a, i, k, f32_bits(rows[i][k]));
    tile_put(b, 0, 0, f32_bits(col[0]));
    tile_put(b, 1, 0, f32_bits(col[1]));
    /* Row 2: third * 2^-40 + (-third) * x: the sum's low bits matter too. */
    check_call(SEED_ZERO, dst, a, b, NULL, target);
    assert_int_equal(tile_get(dst, 0, 0), f32_bits(1.0f + 0x1p-11f + 0x1p-23f));
    assert_int_equal(tile_get(dst, 1, 0), f32_bits(1.0f + 0x1p-11f));
    pto_tile_destroy(a), pto_tile_destroy(b), pto_tile_destroy(dst);
}

static void test_fused_rounding(void **state) {
    (void)state;
    for_each_target("matmul steps rounded once", hard_body, NULL);
}

/* NaN and infinities propagate as IEEE fma: inf * 0 is NaN, inf + -inf is
 * NaN, a finite chain that overflows is infinite. */
static void special_body(void *ctx, size_t target_index, const char *target) {
    (void)ctx, (void)target_index;
    pto_tile *a = tile_new(PTO_FLOAT32, 4, 2, 4, 2);
    pto_tile *b = tile_new(PTO_FLOAT32, 2, 3, 2, 3);
    pto_tile *dst = tile_new(PTO_FLOAT32, 4, 3, 4, 3);
    const float av[4][2] = {{INFINITY, 1}, {NAN, 0}, {3e38f, 3e38f}, {INFINITY, -INFINITY}};
    const float bv[2][3] = {{0, 1, -1}, {1, 2, 1}};
    for (int i = 0; i < 4; ++i)
        for (int k = 0; k < 2; ++k) tile_put(a, i, k, f32_bits(av[i][k]));
    for (int k = 0; k < 2; ++k)
        for (int j = 0; j < 3; ++j) tile_put(b, k, j, f32_bits(bv[k][j]));
    check_call(SEED_ZERO, dst, a, b, NULL, target);
    assert_true(ref_is_nan(PTO_FLOAT32, tile_get(dst, 0, 0)));     /* inf * 0 */
    assert_int_equal(tile_get(dst, 0, 1), f32_bits(INFINITY));
    assert_true(ref_is_nan(PTO_FLOAT32, tile_get(dst, 1, 1)));     /* NaN * 1 */
    assert_int_equal(tile_get(dst, 2, 1), f32_bits(INFINITY));     /* 3e38 + 6e38 */
    assert_true(ref_is_nan(PTO_FLOAT32, tile_get(dst, 3, 1)));     /* inf + -inf */
    pto_tile_destroy(a), pto_tile_destroy(b), pto_tile_destroy(dst);
}

static void test_specials(void **state) {
    (void)state;
    for_each_target("matmul NaN and infinities", special_body, NULL);
}

static void test_rules(void **state) {
    (void)state;
    pto_tile *a = tile_new(PTO_FLOAT16, 4, 8, 4, 8);
    pto_tile *b = tile_new(PTO_FLOAT16, 8, 5, 8, 5);
    pto_tile *dst = tile_new(PTO_FLOAT32, 4, 5, 4, 5);
    pto_tile *bias = tile_new(PTO_FLOAT32, 1, 5, 1, 5);
    pto_tile *b_bf16 = tile_new(PTO_BFLOAT16, 8, 5, 8, 5);
    pto_tile *dst_f16 = tile_new(PTO_FLOAT16, 4, 5, 4, 5);
    pto_tile *dst_i32 = tile_new(PTO_INT32, 4, 5, 4, 5);
    pto_tile *bias_i32 = tile_new(PTO_INT32, 1, 5, 1, 5);
    pto_tile *b_k7 = tile_new(PTO_FLOAT16, 7, 5, 7, 5);
    pto_tile *bias_n4 = tile_new(PTO_FLOAT32, 1, 4, 1, 4);
    rng r = {0x3A7A02u};
    tile_fill(dst, &r, GEN_ANY), tile_fill(dst_f16, &r, GEN_ANY), tile_fill(dst_i32, &r, GEN_ANY);
    for (int seed = SEED_ZERO; seed <= SEED_BIAS; ++seed) {
        const seed_kind s = (seed_kind)seed;
        expect_matmul_refused(false, s, NULL, a, b, bias, PTO_ERR_NULL_ARGUMENT, "dst");
        expect_matmul_refused(false, s, dst, NULL, b, bias, PTO_ERR_NULL_ARGUMENT, "a");
        expect_matmul_refused(false, s, dst, a, NULL, bias, PTO_ERR_NULL_ARGUMENT, "b");
        expect_matmul_refused(false, s, dst_f16, a, b, bias, PTO_ERR_UNSUPPORTED_DTYPE, "dst dtype FLOAT16");
        expect_matmul_refused(false, s, dst, a, b_bf16, bias, PTO_ERR_DTYPE_MISMATCH, "b");
        expect_matmul_refused(false, s, dst_i32, a, b, bias_i32, PTO_ERR_UNSUPPORTED_DTYPE, "(dst INT32; a, b FLOAT16)");
        expect_matmul_refused(false, s, dst, a, b_k7, bias, PTO_ERR_SHAPE_MISMATCH, "(K)");
        for (pto_profile p = PTO_PROFILE_A2A3; p <= PTO_PROFILE_A5; ++p) {
            assert_int_equal(pto_set_profile(p), PTO_OK);
            expect_matmul_refused(false, s, dst, a, b, bias, PTO_ERR_INVALID_ARGUMENT, "a must be a left");
            assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
        }
    }
    expect_matmul_refused(false, SEED_BIAS, dst, a, b, NULL, PTO_ERR_NULL_ARGUMENT, "bias");
    expect_matmul_refused(false, SEED_BIAS, dst, a, b, bias_i32, PTO_ERR_DTYPE_MISMATCH, "bias");
    expect_matmul_refused(false, SEED_BIAS, dst, a, b, bias_n4, PTO_ERR_SHAPE_MISMATCH, "bias valid region 1x4");
    expect_matmul_refused(false, SEED_BIAS, dst, a, b, dst, PTO_ERR_ALIASING, "bias");
    /* M and N: a's rows and b's cols against dst's. */
    pto_tile *dst_m3 = tile_new(PTO_FLOAT32, 3, 5, 3, 5);
    pto_tile *dst_n6 = tile_new(PTO_FLOAT32, 4, 6, 4, 6);
    expect_matmul_refused(false, SEED_ZERO, dst_m3, a, b, NULL, PTO_ERR_SHAPE_MISMATCH, "(M)");
    expect_matmul_refused(false, SEED_ZERO, dst_n6, a, b, NULL, PTO_ERR_SHAPE_MISMATCH, "(N)");
    /* dst sharing bytes with a source: placed tiles in one buffer. */
    pto_buffer *buf = NULL;
    assert_int_equal(pto_buffer_create(4096, &buf), PTO_OK);
    pto_tile *pa = NULL, *pdst = NULL;
    assert_int_equal(pto_tile_create_at(PTO_FLOAT32, 4, 4, buf, 0, &pa), PTO_OK);
    assert_int_equal(pto_tile_create_at(PTO_FLOAT32, 4, 4, buf, 32, &pdst), PTO_OK);
    pto_tile *b44 = tile_new(PTO_FLOAT32, 4, 4, 4, 4);
    expect_matmul_refused(false, SEED_ZERO, pdst, pa, b44, NULL, PTO_ERR_ALIASING, "a overlaps");
    expect_matmul_refused(false, SEED_ZERO, pa, pa, b44, NULL, PTO_ERR_ALIASING, "a");
    pto_tile_destroy(pa), pto_tile_destroy(pdst), pto_tile_destroy(b44);
    pto_buffer_destroy(buf);
    pto_tile_destroy(dst_m3), pto_tile_destroy(dst_n6);
    pto_tile_destroy(a), pto_tile_destroy(b), pto_tile_destroy(dst), pto_tile_destroy(bias);
    pto_tile_destroy(b_bf16), pto_tile_destroy(dst_f16), pto_tile_destroy(dst_i32);
    pto_tile_destroy(bias_i32), pto_tile_destroy(b_k7), pto_tile_destroy(bias_n4);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_values),
        cmocka_unit_test(test_fused_rounding),
        cmocka_unit_test(test_specials),
        cmocka_unit_test(test_rules),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
