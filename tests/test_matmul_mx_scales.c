/* TMATMUL_MX's decode of every (code, scale) pair, on every target: each
 * FLOAT8 E4M3/E5M2 and FLOAT4 E2M1/E1M2 code with each of the 256 e8m0
 * scales, once as a value of b (one code per column block, the scales along
 * the row: the column panels of one code, special or not, and scales on
 * both sides of where 2^(e - bias) stops being a float32) and once as a
 * value of a (one per row, the row's other values zero), each through the
 * product's paths for one row, a few rows and many. dst is, bit for
 * bit (NaN: any NaN), the chain written here from the encodings: each code's
 * exact value times 2^(e - 127) rounded once to float32, acc = fmaf(a', b',
 * acc) for k in order from +0. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/harness.h"

static const pto_dtype kTypes[] = {PTO_FLOAT8_E4M3, PTO_FLOAT8_E5M2, PTO_FLOAT4_E2M1X2,
                                   PTO_FLOAT4_E1M2X2};

static bool is_fp4(pto_dtype t) { return t == PTO_FLOAT4_E2M1X2 || t == PTO_FLOAT4_E1M2X2; }

/* A code's value from its fields: sign, exponent (bias; 0 subnormal), the
 * fraction; E4M3FN's S.1111.111 NaN, E5M2's exponent 31 infinity or NaN. */
static double value_of(pto_dtype t, unsigned code) {
    int eb, fb, bias;
    switch (t) {
        case PTO_FLOAT8_E4M3: eb = 4, fb = 3, bias = 7; break;
        case PTO_FLOAT8_E5M2: eb = 5, fb = 2, bias = 15; break;
        case PTO_FLOAT4_E2M1X2: eb = 2, fb = 1, bias = 1; break;
        default: eb = 1, fb = 2, bias = 1; break;
    }
    const unsigned e = (code >> fb) & ((1u << eb) - 1), f = code & ((1u << fb) - 1);
    const bool negative = (code >> (eb + fb)) & 1u;
    double v;
    if (t == PTO_FLOAT8_E4M3 && e == 15 && f == 7) return NAN;
    if (t == PTO_FLOAT8_E5M2 && e == 31) {
        if (f != 0) return NAN;
        v = INFINITY;
    } else if (e == 0) {
        v = ldexp((double)f, 1 - bias - fb);
    } else {
        v = ldexp((double)(f + (1u << fb)), (int)e - bias - fb);
    }
    return negative ? -v : v;
}

/* code's value times scale e's 2^(e - 127) (0xFF: NaN), rounded to float32
 * once (the product is exact in double). */
static float scaled(pto_dtype t, unsigned code, unsigned e) {
    if (e == 0xFF) return NAN;
    return (float)(value_of(t, code) * ldexp(1.0, (int)e - 127));
}

static unsigned one_code(pto_dtype t) {
    switch (t) {
        case PTO_FLOAT8_E4M3: return 0x38;
        case PTO_FLOAT8_E5M2: return 0x3C;
        case PTO_FLOAT4_E2M1X2: return 0x2;
        default: return 0x4;
    }
}

/* Codes (one a byte) of a rows x cols operand into its tile (FLOAT4: two a
 * byte, the first low). */
static pto_tile *codes_tile(pto_dtype t, uint32_t rows, uint32_t cols, const uint8_t *codes) {
    const uint32_t bytes_per_row = is_fp4(t) ? cols / 2 : cols;
    pto_tile *tile = tile_new(t, rows, bytes_per_row, rows, bytes_per_row);
    uint8_t *raw = calloc((size_t)rows * bytes_per_row, 1);
    for (size_t r = 0; r < rows; ++r)
        for (size_t c = 0; c < cols; ++c) {
            const uint8_t code = codes[r * cols + c];
            if (is_fp4(t)) raw[r * bytes_per_row + c / 2] |= (uint8_t)((code & 0xF) << (4 * (c % 2)));
            else raw[r * bytes_per_row + c] = code;
        }
    assert_int_equal(pto_tile_write(tile, raw, (size_t)rows * bytes_per_row), PTO_OK);
    free(raw);
    return tile;
}

typedef struct {
    pto_dtype t;
    uint32_t m, k, n;
    uint8_t *a, *as, *b, *bs; /* codes, row-major */
} mx_problem;

/* The chain of the problem against pto_tmatmul_mx's dst. */
static void check(const mx_problem *p, const char *target, const char *what) {
    const uint32_t kb = (p->k + 31) / 32;
    pto_tile *a = codes_tile(p->t, p->m, p->k, p->a), *b = codes_tile(p->t, p->k, p->n, p->b);
    pto_tile *as = tile_new(PTO_FLOAT8_E8M0, p->m, kb, p->m, kb);
    pto_tile *bs = tile_new(PTO_FLOAT8_E8M0, kb, p->n, kb, p->n);
    pto_tile *dst = tile_new(PTO_FLOAT32, p->m, p->n, p->m, p->n);
    assert_int_equal(pto_tile_write(as, p->as, (size_t)p->m * kb), PTO_OK);
    assert_int_equal(pto_tile_write(bs, p->bs, (size_t)kb * p->n), PTO_OK);
    assert_int_equal(pto_tmatmul_mx(dst, a, as, b, bs), PTO_OK);
    float *got = malloc((size_t)p->m * p->n * sizeof(float));
    assert_int_equal(pto_tile_read(dst, got, (size_t)p->m * p->n * sizeof(float)), PTO_OK);
    /* Each operand's values, scaled once. */
    float *av = malloc((size_t)p->m * p->k * sizeof(float));
    float *bv = malloc((size_t)p->k * p->n * sizeof(float));
    for (size_t i = 0; i < p->m; ++i)
        for (size_t k = 0; k < p->k; ++k)
            av[i * p->k + k] = scaled(p->t, p->a[i * p->k + k], p->as[i * kb + k / 32]);
    for (size_t k = 0; k < p->k; ++k)
        for (size_t j = 0; j < p->n; ++j)
            bv[k * p->n + j] = scaled(p->t, p->b[k * p->n + j], p->bs[(k / 32) * p->n + j]);
    for (size_t i = 0; i < p->m; ++i)
        for (size_t j = 0; j < p->n; ++j) {
            float acc = 0.0f;
            for (size_t k = 0; k < p->k; ++k) acc = fmaf(av[i * p->k + k], bv[k * p->n + j], acc);
            const float g = got[i * p->n + j];
            uint32_t wb, gb;
            memcpy(&wb, &acc, 4), memcpy(&gb, &g, 4);
            if (wb != gb && !(isnan(acc) && isnan(g)))
                fail_msg("%s, %s, %s: dst(%zu, %zu) is 0x%08x, the chain gives 0x%08x", target,
                         pto_dtype_string(p->t), what, i, j, gb, wb);
        }
    free(got), free(av), free(bv);
    TILES_DESTROY(a, b, as, bs, dst);
}

/* b: 2 x 4096, column j the code first + j / 256 with scale j % 256, row 1
 * zeros; a = (1, 0) at scale 127, and with m = 2 a second row (0, 1): one
 * row takes the product's GEMV path, two its small-M path (b decoded by
 * strips of columns). */
static void check_b(pto_dtype t, unsigned first, uint32_t m, const char *target) {
    mx_problem p = {t, m, 2, 4096, NULL, NULL, NULL, NULL};
    p.a = calloc(2 * m, 1), p.as = malloc(m), p.b = calloc(2 * 4096, 1), p.bs = malloc(4096);
    p.a[0] = (uint8_t)one_code(t), p.as[0] = 127;
    if (m > 1) p.a[3] = (uint8_t)one_code(t), p.as[1] = 127;
    for (size_t j = 0; j < 4096; ++j) {
        p.b[j] = (uint8_t)((first + j / 256) & (is_fp4(t) ? 0xF : 0xFF));
        p.bs[j] = (uint8_t)(j % 256);
    }
    check(&p, target, m > 1 ? "every (code, scale) in b, two rows" : "every (code, scale) in b");
    free(p.a), free(p.as), free(p.b), free(p.bs);
}

/* a: rows [row0, row0 + m) of 4096 x 64, row i the code first + i / 256
 * then zeros, its first 32 values at scale i % 256, the rest at 127; b: 64
 * x 2, row 0 ones. All 4096 rows at once take the large product's path, 64
 * at a time the small-M one (a decoded whole). */
static void check_a(pto_dtype t, unsigned first, uint32_t row0, uint32_t m, const char *target) {
    mx_problem p = {t, m, 64, 2, NULL, NULL, NULL, NULL};
    p.a = calloc((size_t)m * 64, 1), p.as = malloc((size_t)m * 2), p.b = calloc(64 * 2, 1),
    p.bs = malloc(2 * 2);
    for (size_t r = 0; r < m; ++r) {
        const size_t i = row0 + r;
        p.a[r * 64] = (uint8_t)((first + i / 256) & (is_fp4(t) ? 0xF : 0xFF));
        p.as[r * 2] = (uint8_t)(i % 256), p.as[r * 2 + 1] = 127;
    }
    p.b[0] = p.b[1] = (uint8_t)one_code(t);
    memset(p.bs, 127, 4);
    check(&p, target, m > 64 ? "every (code, scale) in a" : "every (code, scale) in a, 64 rows");
    free(p.a), free(p.as), free(p.b), free(p.bs);
}

static void every_pair_body(void *ctx, size_t target_index, const char *target) {
    (void)ctx, (void)target_index;
    for (size_t ti = 0; ti < COUNT(kTypes); ++ti) {
        const unsigned codes = is_fp4(kTypes[ti]) ? 16 : 256;
        for (unsigned first = 0; first < codes; first += 16) {
            check_b(kTypes[ti], first, 1, target);
            check_b(kTypes[ti], first, 2, target);
            check_a(kTypes[ti], first, 0, 4096, target);
            for (uint32_t row0 = 0; row0 < 4096; row0 += 64)
                check_a(kTypes[ti], first, row0, 64, target);
        }
    }
}

static void test_every_code_and_scale(void **state) {
    (void)state;
    for_each_target("matmul_mx every code and scale", every_pair_body, NULL);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_code_and_scale),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
