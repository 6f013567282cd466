/* TMATMUL_MX, TMATMUL_MX_ACC, TGEMV_MX, TGEMV_MX_ACC (pto-isa docs/isa/TMATMUL_MX.md,
 * TGEMV_MX.md, docs/isa/cube/ops/mad/mad-mx.md: each product is (a times its
 * e8m0 scale) times (b times its scale), one scale per 32 values along K):
 * - under HOST on row-major tiles, on every target, for the eight (a; b)
 *   pairs (FLOAT8 E4M3/E5M2 with each other, FLOAT4 E2M1/E1M2 with each
 *   other), every code (NaN codes and scale 0xFF included) and shapes with
 *   K not a multiple of 32: dst's valid region is, bit for bit, the chain
 *   written here from the encodings (each code decoded exactly, scaled by
 *   2^(e - 127) and rounded to float32, acc = fmaf(a', b', acc) for k in
 *   order from 0 or from dst), and nothing else is written;
 * - under A5 on the cube tiles the NPU takes (left NZ, right ZN, acc NZ,
 *   scaling ZZ and NN): the same bits;
 * - every rule in the contract's order with its status and sentence, a
 *   refusal writing nothing (hostile scale tiles: wrong shape, dtype,
 *   location, layout; an odd count of FLOAT4 values);
 * - programs: pto.tmatmul.mx, pto.tmatmul.mx.acc, pto.tgemv.mx and
 *   pto.tgemv.mx.acc with pto.tget_scale_addr under A5 give the chain's bits. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/harness.h"

typedef struct {
    pto_dtype a, b;
} pair;
static const pair kPairs[] = {
    {PTO_FLOAT8_E4M3, PTO_FLOAT8_E4M3},     {PTO_FLOAT8_E4M3, PTO_FLOAT8_E5M2},
    {PTO_FLOAT8_E5M2, PTO_FLOAT8_E4M3},     {PTO_FLOAT8_E5M2, PTO_FLOAT8_E5M2},
    {PTO_FLOAT4_E2M1X2, PTO_FLOAT4_E2M1X2}, {PTO_FLOAT4_E2M1X2, PTO_FLOAT4_E1M2X2},
    {PTO_FLOAT4_E1M2X2, PTO_FLOAT4_E1M2X2}, {PTO_FLOAT4_E1M2X2, PTO_FLOAT4_E2M1X2}};

static bool is_fp4(pto_dtype t) { return t == PTO_FLOAT4_E2M1X2 || t == PTO_FLOAT4_E1M2X2; }

/* A code's value from the encodings (pto_c.h; OCP FP8 E4M3FN and E5M2, FP4
 * E2M1 and E1M2): sign, exponent bits, mantissa bits, bias; E4M3FN's only
 * NaN is S.1111.111, E5M2's all-ones exponent is infinity (mantissa 0) or
 * NaN, the FP4 formats have neither. */
static double decode(pto_dtype t, unsigned code) {
    int eb, mb, bias;
    switch (t) {
        case PTO_FLOAT8_E4M3: eb = 4, mb = 3, bias = 7; break;
        case PTO_FLOAT8_E5M2: eb = 5, mb = 2, bias = 15; break;
        case PTO_FLOAT4_E2M1X2: eb = 2, mb = 1, bias = 1; break;
        default: eb = 1, mb = 2, bias = 1; break; /* FLOAT4_E1M2X2 */
    }
    const unsigned sign = (code >> (eb + mb)) & 1u, e = (code >> mb) & ((1u << eb) - 1), m = code & ((1u << mb) - 1);
    double v;
    if (t == PTO_FLOAT8_E4M3 && e == 15 && m == 7) return NAN;
    if (t == PTO_FLOAT8_E5M2 && e == 31) v = m != 0 ? NAN : INFINITY;
    else if (e == 0) v = ldexp((double)m, 1 - bias - mb);
    else v = ldexp((double)(m + (1u << mb)), (int)e - bias - mb);
    return sign ? -v : v;
}

/* 2^(e - 127), NaN for 0xFF (E8M0FNU). */
static double scale_of(unsigned e) { return e == 0xFF ? NAN : ldexp(1.0, (int)e - 127); }

/* Value c of row `row` of a row-major array of codes `bytes_per_row` wide. */
static unsigned code_at(pto_dtype t, const uint8_t *data, size_t bytes_per_row, size_t row, size_t c) {
    if (is_fp4(t)) return (data[row * bytes_per_row + c / 2] >> (4 * (c % 2))) & 0xFu;
    return data[row * bytes_per_row + c];
}

/* dst(i, j) from its seed: the values scaled and rounded to float32 (the
 * product of the exact value and 2^(e - 127) in double is exact, its
 * conversion rounds once: exact, or an infinity), then one fmaf per k. */
static float reference(pair p, const uint8_t *a, const uint8_t *as, const uint8_t *b, const uint8_t *bs, size_t k_count,
                       size_t n, size_t i, size_t j, float seed) {
    const size_t a_bytes = is_fp4(p.a) ? k_count / 2 : k_count, b_bytes = is_fp4(p.b) ? n / 2 : n;
    const size_t blocks = (k_count + 31) / 32;
    float acc = seed;
    for (size_t k = 0; k < k_count; ++k) {
        const float x = (float)(decode(p.a, code_at(p.a, a, a_bytes, i, k)) * scale_of(as[i * blocks + k / 32]));
        const float y = (float)(decode(p.b, code_at(p.b, b, b_bytes, k, j)) * scale_of(bs[(k / 32) * n + j]));
        acc = fmaf(x, y, acc);
    }
    return acc;
}

static bool same_float(float want, float got) {
    uint32_t w, g;
    memcpy(&w, &want, 4), memcpy(&g, &got, 4);
    return w == g || (isnan(want) && isnan(got));
}

/* A code: mostly moderate ones, sometimes any (NaN, infinity). */
static uint8_t random_code(rng *r, pto_dtype t) {
    const uint32_t x = (uint32_t)rng_next(r);
    if (is_fp4(t)) return (uint8_t)(x & 0xFF);
    if (x % 32 == 0) return (uint8_t)(x >> 8);
    uint8_t c = (uint8_t)(x >> 8);
    /* Keep the exponent clear of the top (NaN, infinity) in the common case. */
    if (t == PTO_FLOAT8_E4M3 && (c & 0x78) == 0x78) c ^= 0x40;
    if (t == PTO_FLOAT8_E5M2 && (c & 0x7C) == 0x7C) c ^= 0x40;
    return c;
}

/* A scale: near 2^0 mostly, now and then the ends (0, 254) or NaN (255). */
static uint8_t random_scale(rng *r) {
    const uint32_t x = (uint32_t)rng_next(r);
    switch (x % 64) {
        case 0: return 0;
        case 1: return 254;
        case 2: return 255;
        case 3: return (uint8_t)(x >> 8);
        default: return (uint8_t)(120 + (x >> 8) % 15);
    }
}

typedef enum { MX_PLAIN, MX_ACC, MX_GEMV, MX_GEMV_ACC, MX_BIAS, MX_GEMV_BIAS } mx_kind;
static const char *const kMxNames[] = {"tmatmul_mx", "tmatmul_mx_acc", "tgemv_mx",
                                       "tgemv_mx_acc", "tmatmul_mx_bias", "tgemv_mx_bias"};
static bool is_gemv(mx_kind k) { return k == MX_GEMV || k == MX_GEMV_ACC || k == MX_GEMV_BIAS; }
static bool is_acc(mx_kind k) { return k == MX_ACC || k == MX_GEMV_ACC; }
static bool is_bias(mx_kind k) { return k == MX_BIAS || k == MX_GEMV_BIAS; }

/* The bias forms' fifth operand (the other forms take none). */
static const pto_tile *bias_operand;

static pto_status mx_call(mx_kind kind, pto_tile *dst, const pto_tile *a, const pto_tile *as, const pto_tile *b,
                          const pto_tile *bs) {
    switch (kind) {
        case MX_PLAIN: return pto_tmatmul_mx(dst, a, as, b, bs);
        case MX_ACC: return pto_tmatmul_mx_acc(dst, a, as, b, bs);
        case MX_GEMV: return pto_tgemv_mx(dst, a, as, b, bs);
        case MX_GEMV_ACC: return pto_tgemv_mx_acc(dst, a, as, b, bs);
        case MX_BIAS: return pto_tmatmul_mx_bias(dst, a, as, b, bs, bias_operand);
        default: return pto_tgemv_mx_bias(dst, a, as, b, bs, bias_operand);
    }
}

/* One case's operands as arrays of codes (row-major, valid regions only). */
typedef struct {
    pair p;
    uint32_t m, k, n; /* values */
    uint8_t *a, *as, *b, *bs;
    float *seed;
} mx_case;

static mx_case case_new(pair p, uint32_t m, uint32_t k, uint32_t n, rng *r) {
    mx_case c = {p, m, k, n, NULL, NULL, NULL, NULL, NULL};
    const uint32_t ab = is_fp4(p.a) ? k / 2 : k, bb = is_fp4(p.b) ? n / 2 : n, blocks = (k + 31) / 32;
    c.a = malloc((size_t)m * ab + 1), c.b = malloc((size_t)k * bb + 1);
    c.as = malloc((size_t)m * blocks + 1), c.bs = malloc((size_t)blocks * n + 1);
    c.seed = malloc((size_t)m * n * sizeof(float) + 4);
    for (size_t q = 0; q < (size_t)m * ab; ++q) c.a[q] = random_code(r, p.a);
    for (size_t q = 0; q < (size_t)k * bb; ++q) c.b[q] = random_code(r, p.b);
    for (size_t q = 0; q < (size_t)m * blocks; ++q) c.as[q] = random_scale(r);
    for (size_t q = 0; q < (size_t)blocks * n; ++q) c.bs[q] = random_scale(r);
    for (size_t q = 0; q < (size_t)m * n; ++q) c.seed[q] = (float)ldexp((double)(int)(rng_next(r) % 2001) - 1000, -6);
    return c;
}

static void case_free(mx_case *c) { free(c->a), free(c->as), free(c->b), free(c->bs), free(c->seed); }

/* The whole tile row-major (pto_tile_read: any layout); free() it. */
static uint8_t *read_all(const pto_tile *t) {
    const size_t bytes = (size_t)pto_tile_rows(t) * pto_tile_cols(t) * pto_dtype_size(pto_tile_dtype(t));
    uint8_t *all = malloc(bytes);
    assert_int_equal(pto_tile_read(t, all, bytes), PTO_OK);
    return all;
}

/* Writes `rows` rows of `row_bytes` bytes into t from (0, 0), through
 * pto_tile_write (every layout alike). */
static void put_bytes(pto_tile *t, const void *src, uint32_t rows, size_t row_bytes) {
    const size_t stride = (size_t)pto_tile_cols(t) * pto_dtype_size(pto_tile_dtype(t));
    const size_t bytes = (size_t)pto_tile_rows(t) * stride;
    uint8_t *all = read_all(t);
    for (uint32_t r = 0; r < rows; ++r) memcpy(all + r * stride, (const uint8_t *)src + r * row_bytes, row_bytes);
    assert_int_equal(pto_tile_write(t, all, bytes), PTO_OK);
    free(all);
}

static void put_codes(pto_tile *t, const uint8_t *codes, uint32_t rows, uint32_t cols) {
    put_bytes(t, codes, rows, cols);
}

/* The five tiles of a case, row-major HOST tiles padded by `pad`, or the A5
 * cube tiles (padded shapes as the boxes ask). */
typedef struct {
    pto_tile *dst, *a, *as, *b, *bs, *bias;
} mx_tiles;

static uint32_t up(uint32_t x, uint32_t to) { return (x + to - 1) / to * to; }

static pto_tile *cube_tile(pto_dtype dt, uint32_t rows, uint32_t cols, uint32_t vr, uint32_t vc, pto_location loc,
                           pto_layout layout) {
    pto_tile *t = NULL;
    assert_int_equal(pto_tile_create_cube(dt, rows, cols, loc, layout, &t), PTO_OK);
    assert_int_equal(pto_tile_set_valid(t, vr, vc), PTO_OK);
    return t;
}

static mx_tiles tiles_for(const mx_case *c, bool cube, uint32_t pad) {
    const uint32_t ab = is_fp4(c->p.a) ? c->k / 2 : c->k, bb = is_fp4(c->p.b) ? c->n / 2 : c->n;
    const uint32_t blocks = (c->k + 31) / 32;
    mx_tiles t;
    if (!cube) {
        t.a = tile_new(c->p.a, c->m + pad, ab + pad, c->m, ab);
        t.b = tile_new(c->p.b, c->k + pad, bb + pad, c->k, bb);
        t.as = tile_new(PTO_FLOAT8_E8M0, c->m + pad, blocks + pad, c->m, blocks);
        t.bs = tile_new(PTO_FLOAT8_E8M0, blocks + pad, c->n + pad, blocks, c->n);
        t.dst = tile_new(PTO_FLOAT32, c->m + pad, c->n + pad, c->m, c->n);
        t.bias = tile_new(PTO_FLOAT32, 2 + pad, c->n + pad, 2, c->n); /* row 0 is read */
    } else {
        /* A5: a's storage columns a multiple of 64 values; 32-byte boxes. */
        const uint32_t mr = up(c->m, 16), kr = up(c->k, 64), nr = up(c->n, 32);
        const uint32_t ab_cols = is_fp4(c->p.a) ? kr / 2 : kr, bb_cols = is_fp4(c->p.b) ? nr / 2 : nr;
        t.a = cube_tile(c->p.a, mr, ab_cols, c->m, ab, PTO_LOC_LEFT, PTO_LAYOUT_NZ);
        t.b = cube_tile(c->p.b, kr, bb_cols, c->k, bb, PTO_LOC_RIGHT, PTO_LAYOUT_ZN);
        t.as = cube_tile(PTO_FLOAT8_E8M0, mr, up(blocks, 2), c->m, blocks, PTO_LOC_SCALING, PTO_LAYOUT_ZZ);
        t.bs = cube_tile(PTO_FLOAT8_E8M0, up(blocks, 2), nr, blocks, c->n, PTO_LOC_SCALING, PTO_LAYOUT_NN);
        t.dst = cube_tile(PTO_FLOAT32, mr, nr, c->m, c->n, PTO_LOC_ACC, PTO_LAYOUT_NZ);
        t.bias = cube_tile(PTO_FLOAT32, 1, nr, 1, c->n, PTO_LOC_BIAS, PTO_LAYOUT_ND);
    }
    put_codes(t.a, c->a, c->m, ab);
    put_codes(t.b, c->b, c->k, bb);
    put_codes(t.as, c->as, c->m, blocks);
    put_codes(t.bs, c->bs, blocks, c->n);
    put_bytes(t.dst, c->seed, c->m, (size_t)c->n * sizeof(float));
    /* The bias: the seeds' last row, then (HOST) their first. */
    put_bytes(t.bias, c->seed + (size_t)(c->m - 1) * c->n, 1, (size_t)c->n * sizeof(float));
    if (!cube) {
        uint8_t *all = read_all(t.bias);
        memcpy(all + (size_t)pto_tile_cols(t.bias) * 4, c->seed, (size_t)c->n * sizeof(float));
        assert_int_equal(pto_tile_write(t.bias, all, (size_t)pto_tile_rows(t.bias) * pto_tile_cols(t.bias) * 4), PTO_OK);
        free(all);
    }
    return t;
}

static void tiles_free(mx_tiles *t) { TILES_DESTROY(t->dst, t->a, t->as, t->b, t->bs, t->bias); }

/* Runs `kind` on the case's tiles and checks dst's valid region against the
 * reference and (HOST's padded tiles) that nothing outside it changed. */
static void check_case(mx_kind kind, const mx_case *c, bool cube, uint32_t pad, const char *where) {
    mx_tiles t = tiles_for(c, cube, pad);
    uint64_t *before = tile_snapshot(t.dst);
    bias_operand = t.bias;
    expect_status(mx_call(kind, t.dst, t.a, t.as, t.b, t.bs), PTO_OK, kMxNames[kind]);
    uint8_t *after = read_all(t.dst);
    const size_t cols = pto_tile_cols(t.dst);
    for (uint32_t i = 0; i < c->m; ++i)
        for (uint32_t j = 0; j < c->n; ++j) {
            const float seed = is_acc(kind)    ? c->seed[(size_t)i * c->n + j]
                               : is_bias(kind) ? c->seed[(size_t)(c->m - 1) * c->n + j]
                                               : 0.0f;
            const float want = reference(c->p, c->a, c->as, c->b, c->bs, c->k, c->n, i, j, seed);
            float got;
            memcpy(&got, after + ((size_t)i * cols + j) * 4, 4);
            if (!same_float(want, got))
                fail_msg("%s %s x %s %ux%ux%u (%s): dst(%u, %u) is %a, the chain's %a", kMxNames[kind],
                         dtype_spelling(c->p.a), dtype_spelling(c->p.b), c->m, c->k, c->n, where, i, j, got, want);
        }
    if (!cube)
        for (uint32_t i = 0; i < c->m + pad; ++i)
            for (uint32_t j = 0; j < c->n + pad; ++j)
                if ((i >= c->m || j >= c->n) && tile_get(t.dst, i, j) != before[(size_t)i * (c->n + pad) + j])
                    fail_msg("%s wrote dst(%u, %u), outside its valid region", kMxNames[kind], i, j);
    free(before);
    free(after);
    tiles_free(&t);
}

typedef struct {
    uint32_t m, k, n;
} mkn;
/* pto-isa's example (16x64x32), PTOAS's samples (128x110x63, 1x128x16), K
 * not a multiple of 32, lane tails; FLOAT4 shapes use even K and N. */
static const mkn kShapes[] = {{1, 2, 2}, {3, 40, 8}, {16, 64, 32}, {5, 110, 62}, {17, 128, 34}, {1, 128, 16}};

static void host_body(void *ctx, size_t target_index, const char *target) {
    (void)target_index;
    rng *r = ctx;
    for (size_t pi = 0; pi < COUNT(kPairs); ++pi)
        for (size_t si = 0; si < COUNT(kShapes); ++si)
            for (int kind = MX_PLAIN; kind <= MX_GEMV_BIAS; ++kind) {
                const mkn s = kShapes[si];
                if (is_gemv((mx_kind)kind) && s.m != 1) continue;
                mx_case c = case_new(kPairs[pi], s.m, s.k, s.n, r);
                check_case((mx_kind)kind, &c, false, si % 2 ? 3 : 0, target);
                case_free(&c);
            }
}

static void test_host_values(void **state) {
    (void)state;
    rng r = {0x4D5801u};
    for_each_target("matmul_mx host", host_body, &r);
}

/* The codes of every FLOAT8 value against every other, once: a 1 x 256
 * row of a times a 256 x 256 b of every code per column, scale 127 (x1). */
static void test_every_code(void **state) {
    (void)state;
    for (size_t pi = 0; pi < 4; ++pi) {
        mx_case c = {kPairs[pi], 1, 256, 256, NULL, NULL, NULL, NULL, NULL};
        c.a = malloc(256), c.b = malloc(256 * 256), c.as = malloc(8), c.bs = malloc(8 * 256);
        c.seed = calloc(256, sizeof(float));
        for (size_t k = 0; k < 256; ++k) c.a[k] = (uint8_t)k;
        for (size_t k = 0; k < 256; ++k)
            for (size_t j = 0; j < 256; ++j) c.b[k * 256 + j] = (uint8_t)(k == j ? j : 0);
        memset(c.as, 127, 8), memset(c.bs, 127, 8 * 256);
        check_case(MX_GEMV, &c, false, 0, "every code");
        case_free(&c);
    }
}

/* A5's cube tiles give HOST's bits. */
static void test_cube_values(void **state) {
    (void)state;
    rng r = {0x4D5802u};
    assert_int_equal(pto_set_profile(PTO_PROFILE_A5), PTO_OK);
    for (size_t pi = 0; pi < COUNT(kPairs); ++pi)
        for (size_t si = 0; si < COUNT(kShapes); ++si)
            for (int kind = MX_PLAIN; kind <= MX_GEMV_BIAS; ++kind) {
                const mkn s = kShapes[si];
                if (is_gemv((mx_kind)kind) && s.m != 1) continue;
                mx_case c = case_new(kPairs[pi], s.m, s.k, s.n, &r);
                check_case((mx_kind)kind, &c, true, 0, "A5 cube tiles");
                case_free(&c);
            }
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
}

/* The call is refused with `want` and a sentence naming the function and
 * containing `sentence`; dst (when given) is unchanged. */
static void expect_mx_refused(mx_kind kind, pto_tile *dst, const pto_tile *a, const pto_tile *as, const pto_tile *b,
                              const pto_tile *bs, pto_status want, const char *sentence) {
    uint64_t *before = dst != NULL ? tile_snapshot(dst) : NULL;
    expect_status(mx_call(kind, dst, a, as, b, bs), want, sentence);
    const char *err = pto_last_error();
    if (strstr(err, kMxNames[kind]) == NULL || strstr(err, sentence) == NULL)
        fail_msg("%s: the sentence \"%s\" lacks \"%s\"", kMxNames[kind], err, sentence);
    if (dst != NULL) assert_tile_unchanged(dst, before, kMxNames[kind]);
    free(before);
}

static void test_rules(void **state) {
    (void)state;
    pto_tile *a = tile_new(PTO_FLOAT8_E4M3, 2, 64, 2, 64), *b = tile_new(PTO_FLOAT8_E5M2, 64, 8, 64, 8);
    pto_tile *as = tile_new(PTO_FLOAT8_E8M0, 2, 2, 2, 2), *bs = tile_new(PTO_FLOAT8_E8M0, 2, 8, 2, 8);
    pto_tile *dst = tile_new(PTO_FLOAT32, 2, 8, 2, 8);
    pto_tile *dst16 = tile_new(PTO_FLOAT16, 2, 8, 2, 8), *b4 = tile_new(PTO_FLOAT4_E2M1X2, 64, 4, 64, 4);
    pto_tile *as_u8 = tile_new(PTO_UINT8, 2, 2, 2, 2), *bs_e4 = tile_new(PTO_FLOAT8_E4M3, 2, 8, 2, 8);
    pto_tile *as_3 = tile_new(PTO_FLOAT8_E8M0, 2, 3, 2, 3), *bs_1 = tile_new(PTO_FLOAT8_E8M0, 1, 8, 1, 8);
    pto_tile *b_k63 = tile_new(PTO_FLOAT8_E5M2, 63, 8, 63, 8), *dst_n9 = tile_new(PTO_FLOAT32, 2, 9, 2, 9);
    pto_tile *dst_m1 = tile_new(PTO_FLOAT32, 1, 8, 1, 8);
    /* FLOAT4: a 2 x 32 bytes (K = 64), b 64 x 4 bytes (N = 8). */
    pto_tile *a4 = tile_new(PTO_FLOAT4_E1M2X2, 2, 32, 2, 32), *dst_n7 = tile_new(PTO_FLOAT32, 2, 7, 2, 7);
    pto_tile *bs_n7 = tile_new(PTO_FLOAT8_E8M0, 2, 7, 2, 7), *i8 = tile_new(PTO_INT8, 2, 64, 2, 64);
    pto_tile *bias = tile_new(PTO_FLOAT32, 1, 8, 1, 8), *bias16 = tile_new(PTO_FLOAT16, 1, 8, 1, 8);
    pto_tile *bias_n9 = tile_new(PTO_FLOAT32, 1, 9, 1, 9), *bias_empty = tile_new(PTO_FLOAT32, 1, 8, 0, 8);
    rng r = {0x4D5803u};
    tile_fill(dst, &r, GEN_ANY), tile_fill(dst_n9, &r, GEN_ANY), tile_fill(dst_n7, &r, GEN_ANY);
    bias_operand = bias;
    for (int kind = MX_PLAIN; kind <= MX_GEMV_BIAS; kind += 1) {
        const mx_kind g = (mx_kind)kind;
        if (is_gemv(g)) continue; /* their M = 1 rule below */
        expect_mx_refused(g, NULL, a, as, b, bs, PTO_ERR_NULL_ARGUMENT, "dst");
        expect_mx_refused(g, dst, NULL, as, b, bs, PTO_ERR_NULL_ARGUMENT, "a");
        expect_mx_refused(g, dst, a, NULL, b, bs, PTO_ERR_NULL_ARGUMENT, "a_scale");
        expect_mx_refused(g, dst, a, as, NULL, bs, PTO_ERR_NULL_ARGUMENT, "b");
        expect_mx_refused(g, dst, a, as, b, NULL, PTO_ERR_NULL_ARGUMENT, "b_scale");
        if (is_bias(g)) {
            bias_operand = NULL;
            expect_mx_refused(g, dst, a, as, b, bs, PTO_ERR_NULL_ARGUMENT, "bias");
            bias_operand = bias16;
            expect_mx_refused(g, dst, a, as, b, bs, PTO_ERR_DTYPE_MISMATCH, "bias");
            bias_operand = bias_n9;
            expect_mx_refused(g, dst, a, as, b, bs, PTO_ERR_SHAPE_MISMATCH,
                              "bias valid region 1x9 is not one row (or more) of N = 8 valid cols");
            bias_operand = bias_empty;
            expect_mx_refused(g, dst, a, as, b, bs, PTO_ERR_SHAPE_MISMATCH, "bias valid region 0x8");
            bias_operand = dst;
            expect_mx_refused(g, dst, a, as, b, bs, PTO_ERR_ALIASING, "bias");
            bias_operand = bias;
        }
        expect_mx_refused(g, dst16, a, as, b, bs, PTO_ERR_UNSUPPORTED_DTYPE, "FLOAT16");
        expect_mx_refused(g, dst, a, as, b4, bs, PTO_ERR_UNSUPPORTED_DTYPE,
                          "(a FLOAT8_E4M3; b FLOAT4_E2M1X2) is not one of");
        expect_mx_refused(g, dst, i8, as, b, bs, PTO_ERR_UNSUPPORTED_DTYPE, "(a INT8; b FLOAT8_E5M2)");
        expect_mx_refused(g, dst, a, as_u8, b, bs, PTO_ERR_UNSUPPORTED_DTYPE, "a_scale dtype UINT8 is not FLOAT8_E8M0");
        expect_mx_refused(g, dst, a, as, b, bs_e4, PTO_ERR_UNSUPPORTED_DTYPE,
                          "b_scale dtype FLOAT8_E4M3 is not FLOAT8_E8M0");
        /* The shapes, in order: M, K, N, a_scale, b_scale. */
        expect_mx_refused(g, dst_m1, a, as, b, bs, PTO_ERR_SHAPE_MISMATCH, "a valid rows 2 differ from dst valid rows 1");
        expect_mx_refused(g, dst, a, as, b_k63, bs, PTO_ERR_SHAPE_MISMATCH, "a holds K = 64 values");
        expect_mx_refused(g, dst_n9, a, as, b, bs, PTO_ERR_SHAPE_MISMATCH, "b holds N = 8 values");
        expect_mx_refused(g, dst, a, as_3, b, bs, PTO_ERR_SHAPE_MISMATCH, "a_scale valid region 2x3 is not M x ceil(K/32) = 2x2");
        expect_mx_refused(g, dst, a, as, b, bs_1, PTO_ERR_SHAPE_MISMATCH, "b_scale valid region 1x8 is not ceil(K/32) x N = 2x8");
        /* FLOAT4 values come in pairs: 4 bytes of b are N = 8, never 7. */
        expect_mx_refused(g, dst_n7, a4, as, b4, bs_n7, PTO_ERR_SHAPE_MISMATCH, "b holds N = 8 values per valid row (2 per byte)");
        /* A2A3 has no MX matrix multiply. */
        assert_int_equal(pto_set_profile(PTO_PROFILE_A2A3), PTO_OK);
        expect_mx_refused(g, dst, a, as, b, bs, PTO_ERR_UNSUPPORTED_DTYPE, "A2A3");
        /* A5 asks the cube's tiles first. */
        assert_int_equal(pto_set_profile(PTO_PROFILE_A5), PTO_OK);
        expect_mx_refused(g, dst, a, as, b, bs, PTO_ERR_INVALID_ARGUMENT, "under A5 a must be a left NZ tile");
        assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    }
    expect_mx_refused(MX_GEMV, dst, a, as, b, bs, PTO_ERR_SHAPE_MISMATCH, "a valid rows 2: a GEMV multiplies one row");
    expect_mx_refused(MX_GEMV_ACC, dst, a, as, b, bs, PTO_ERR_SHAPE_MISMATCH, "a valid rows 2: a GEMV multiplies one row");
    expect_mx_refused(MX_GEMV_BIAS, dst, a, as, b, bs, PTO_ERR_SHAPE_MISMATCH, "a valid rows 2: a GEMV multiplies one row");
    TILES_DESTROY(a, b, as, bs, dst, dst16, b4, as_u8, bs_e4, as_3, bs_1, b_k63, dst_n9, dst_m1, a4, dst_n7, bs_n7, i8);
    TILES_DESTROY(bias, bias16, bias_n9, bias_empty);
}

/* Under A5: each operand's location and layout, then a's 64-value columns. */
static void test_cube_rules(void **state) {
    (void)state;
    rng r = {0x4D5804u};
    mx_case c = case_new(kPairs[0], 16, 64, 32, &r);
    mx_tiles t = tiles_for(&c, true, 0);
    pto_tile *vec_scale = tile_new(PTO_FLOAT8_E8M0, 16, 2, 16, 2);
    pto_tile *nn_scale = cube_tile(PTO_FLOAT8_E8M0, 16, 16, 16, 2, PTO_LOC_SCALING, PTO_LAYOUT_NN);
    pto_tile *zz_bscale = cube_tile(PTO_FLOAT8_E8M0, 16, 32, 2, 32, PTO_LOC_SCALING, PTO_LAYOUT_ZZ);
    pto_tile *mat_scale = cube_tile(PTO_FLOAT8_E8M0, 16, 2, 16, 2, PTO_LOC_MAT, PTO_LAYOUT_ND);
    pto_tile *a96 = cube_tile(PTO_FLOAT8_E4M3, 16, 96, 16, 64, PTO_LOC_LEFT, PTO_LAYOUT_NZ);
    assert_int_equal(pto_set_profile(PTO_PROFILE_A5), PTO_OK);
    expect_mx_refused(MX_PLAIN, t.dst, t.a, vec_scale, t.b, t.bs, PTO_ERR_INVALID_ARGUMENT,
                      "under A5 a_scale must be a scaling ZZ tile (pto_tile_create_cube), not a vec ND tile");
    expect_mx_refused(MX_PLAIN, t.dst, t.a, nn_scale, t.b, t.bs, PTO_ERR_INVALID_ARGUMENT,
                      "a_scale must be a scaling ZZ tile (pto_tile_create_cube), not a scaling NN tile");
    expect_mx_refused(MX_PLAIN, t.dst, t.a, mat_scale, t.b, t.bs, PTO_ERR_INVALID_ARGUMENT, "not a mat ND tile");
    expect_mx_refused(MX_PLAIN, t.dst, t.a, t.as, t.b, zz_bscale, PTO_ERR_INVALID_ARGUMENT,
                      "b_scale must be a scaling NN tile");
    expect_mx_refused(MX_PLAIN, t.dst, a96, t.as, t.b, t.bs, PTO_ERR_SHAPE_MISMATCH,
                      "under A5 a's columns hold 96 values, not a multiple of 64");
    /* The bias form's bias: a one-row bias tile (TileBias::Rows == 1). */
    pto_tile *vec_bias = tile_new(PTO_FLOAT32, 1, 32, 1, 32);
    bias_operand = vec_bias;
    expect_mx_refused(MX_BIAS, t.dst, t.a, t.as, t.b, t.bs, PTO_ERR_INVALID_ARGUMENT,
                      "under A5 bias must be a bias ND tile (pto_tile_create_cube), not a vec ND tile");
    pto_tile *tall = NULL; /* a bias tile is one row (pto_tile_create_cube) */
    expect_status(pto_tile_create_cube(PTO_FLOAT32, 2, 32, PTO_LOC_BIAS, PTO_LAYOUT_ND, &tall),
                  PTO_ERR_INVALID_ARGUMENT, "a bias tile of 2 rows");
    assert_null(tall);
    TILES_DESTROY(vec_bias);
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    /* The scaling location: 32-byte boxes (16 x 2 ZZ, 2 x 16 NN). */
    pto_tile *bad = NULL;
    expect_status(pto_tile_create_cube(PTO_FLOAT8_E8M0, 16, 3, PTO_LOC_SCALING, PTO_LAYOUT_ZZ, &bad),
                  PTO_ERR_INVALID_ARGUMENT, "a ZZ scaling tile of 3 columns");
    assert_null(bad);
    expect_status(pto_tile_create_cube(PTO_FLOAT8_E8M0, 3, 16, PTO_LOC_SCALING, PTO_LAYOUT_NN, &bad),
                  PTO_ERR_INVALID_ARGUMENT, "an NN scaling tile of 3 rows");
    assert_null(bad);
    assert_int_equal(pto_tile_location(t.as), PTO_LOC_SCALING);
    TILES_DESTROY(vec_scale, nn_scale, zz_bscale, mat_scale, a96);
    tiles_free(&t);
    case_free(&c);
}

/* dst sharing bytes with a scale tile: placed tiles in one buffer. */
static void test_aliasing(void **state) {
    (void)state;
    pto_buffer *buf = NULL;
    assert_int_equal(pto_buffer_create(4096, &buf), PTO_OK);
    pto_tile *dst = NULL, *as = NULL;
    assert_int_equal(pto_tile_create_at(PTO_FLOAT32, 2, 8, buf, 0, &dst), PTO_OK);
    assert_int_equal(pto_tile_create_at(PTO_FLOAT8_E8M0, 2, 2, buf, 16, &as), PTO_OK);
    pto_tile *a = tile_new(PTO_FLOAT8_E4M3, 2, 64, 2, 64), *b = tile_new(PTO_FLOAT8_E5M2, 64, 8, 64, 8);
    pto_tile *bs = tile_new(PTO_FLOAT8_E8M0, 2, 8, 2, 8);
    expect_mx_refused(MX_PLAIN, dst, a, as, b, bs, PTO_ERR_ALIASING, "a_scale overlaps the storage of dst");
    TILES_DESTROY(dst, as, a, b, bs);
    pto_buffer_destroy(buf);
}

/* PTOAS's spelling of an MX operand's element type. */
static const char *mx_spelling(pto_dtype t) { return t == PTO_FLOAT8_E4M3 ? "f8E4M3FN" : "f8E5M2"; }

/* Appends printf-style text at the end of out (size bytes). */
static void add(char *out, size_t size, const char *fmt, ...) {
    const size_t used = strlen(out);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out + used, size - used, fmt, ap);
    va_end(ap);
}

/* A cube kernel in text: GM -> mat -> left, right and scaling tiles,
 * tget_scale_addr, the MX multiply (pto.tmatmul.mx then pto.tmatmul.mx.acc
 * for MX_ACC), acc -> GM. `swap` binds the left tile's scales to the right
 * tile (a refusal). */
static void mx_text(char *out, size_t size, mx_kind kind, pair p, uint32_t m, uint32_t k, uint32_t n, bool swap) {
    const uint32_t blocks = (k + 31) / 32, mr = up(m, 16), kr = up(k, 64), nr = up(n, 32), br = up(blocks, 2);
    const char *at = mx_spelling(p.a), *bt = mx_spelling(p.b), *e = "!pto.f8E8M0";
    char l[200], r[200], ls[200], rs[200], c[200], ml[200], mb[200], mls[200], mbs[200];
    snprintf(ml, sizeof ml, "!pto.tile_buf<mat, %ux%ux%s, valid=%ux%u, blayout=col_major, slayout=row_major>", mr, kr, at, m, k);
    snprintf(l, sizeof l, "!pto.tile_buf<left, %ux%ux%s, valid=%ux%u, blayout=col_major, slayout=row_major>", mr, kr, at, m, k);
    snprintf(mb, sizeof mb, "!pto.tile_buf<mat, %ux%ux%s, valid=%ux%u, blayout=col_major, slayout=row_major>", kr, nr, bt, k, n);
    snprintf(r, sizeof r, "!pto.tile_buf<right, %ux%ux%s, valid=%ux%u, slayout=col_major>", kr, nr, bt, k, n);
    snprintf(mls, sizeof mls, "!pto.tile_buf<mat, %ux%ux%s, valid=%ux%u, blayout=row_major, slayout=row_major, fractal=32>", mr, br, e, m, blocks);
    snprintf(ls, sizeof ls, "!pto.tile_buf<scaling, %ux%ux%s, valid=%ux%u, blayout=row_major, slayout=row_major, fractal=32>", mr, br, e, m, blocks);
    snprintf(mbs, sizeof mbs, "!pto.tile_buf<mat, %ux%ux%s, valid=%ux%u, blayout=col_major, slayout=col_major, fractal=32>", br, nr, e, blocks, n);
    snprintf(rs, sizeof rs, "!pto.tile_buf<scaling, %ux%ux%s, valid=%ux%u, blayout=col_major, slayout=col_major, fractal=32>", br, nr, e, blocks, n);
    snprintf(c, sizeof c, "!pto.tile_buf<acc, %ux%uxf32, valid=%ux%u, blayout=col_major, slayout=row_major, fractal=1024>", mr, nr, m, n);
    out[0] = '\0';
    add(out, size, "module attributes {pto.target_arch = \"a5\", pto.kernel_kind = #pto.kernel_kind<cube>} {\n");
    add(out, size, "func.func @mx(%%pa: !pto.ptr<%s, gm>, %%pas: !pto.ptr<%s, gm>, %%pb: !pto.ptr<%s, gm>, "
                   "%%pbs: !pto.ptr<%s, gm>, %%pc: !pto.ptr<f32, gm>%s) attributes {pto.kernel} {\n", at, e, bt, e,
        is_bias(kind) ? ", %pbias: !pto.ptr<f32, gm>" : "");
    add(out, size, "  %%c0 = arith.constant 0 : index\n  %%c1 = arith.constant 1 : index\n");
    add(out, size, "  %%m = arith.constant %u : index\n  %%k = arith.constant %u : index\n", m, k);
    add(out, size, "  %%n = arith.constant %u : index\n  %%kb = arith.constant %u : index\n", n, blocks);
    char mbias[200], bias[200];
    snprintf(mbias, sizeof mbias, "!pto.tile_buf<mat, 1x%uxf32, valid=1x%u, blayout=row_major, slayout=none_box>", nr, n);
    snprintf(bias, sizeof bias, "!pto.tile_buf<bias, 1x%uxf32, valid=1x%u, blayout=row_major, slayout=none_box>", nr, n);
    const struct {
        const char *name, *ptr, *rows, *cols, *dtype, *tile;
        uint32_t r, c;
    } views[] = {{"a", "pa", "m", "k", at, ml, m, k},           {"as", "pas", "m", "kb", e, mls, m, blocks},
                 {"b", "pb", "k", "n", bt, mb, k, n},           {"bs", "pbs", "kb", "n", e, mbs, blocks, n},
                 {"c", "pc", "m", "n", "f32", NULL, m, n},      {"bias", "pbias", "c1", "n", "f32", mbias, 1, n}};
    for (size_t v = 0; v < COUNT(views) - (is_bias(kind) ? 0 : 1); ++v) {
        add(out, size, "  %%v%s = pto.make_tensor_view %%%s, shape = [%%%s, %%%s], strides = [%%%s, %%c1] : "
                       "!pto.tensor_view<?x?x%s>\n", views[v].name, views[v].ptr, views[v].rows, views[v].cols,
            views[v].cols, views[v].dtype);
        add(out, size, "  %%w%s = pto.partition_view %%v%s, offsets = [%%c0, %%c0], sizes = [%%%s, %%%s] : "
                       "!pto.tensor_view<?x?x%s> -> !pto.partition_tensor_view<%ux%ux%s>\n", views[v].name,
            views[v].name, views[v].rows, views[v].cols, views[v].dtype, views[v].r, views[v].c, views[v].dtype);
        if (views[v].tile != NULL) {
            add(out, size, "  %%m%s = pto.alloc_tile : %s\n", views[v].name, views[v].tile);
            add(out, size, "  pto.tload ins(%%w%s : !pto.partition_tensor_view<%ux%ux%s>) outs(%%m%s : %s)\n",
                views[v].name, views[v].r, views[v].c, views[v].dtype, views[v].name, views[v].tile);
        }
    }
    add(out, size, "  %%l = pto.alloc_tile : %s\n  %%r = pto.alloc_tile : %s\n", l, r);
    add(out, size, "  %%ls = pto.alloc_tile : %s\n  %%rs = pto.alloc_tile : %s\n  %%cc = pto.alloc_tile : %s\n", ls, rs, c);
    add(out, size, "  pto.tmov ins(%%ma : %s) outs(%%l : %s)\n  pto.tmov ins(%%mb : %s) outs(%%r : %s)\n", ml, l, mb, r);
    add(out, size, "  pto.tmov ins(%%mas : %s) outs(%%ls : %s)\n  pto.tmov ins(%%mbs : %s) outs(%%rs : %s)\n", mls, ls, mbs, rs);
    add(out, size, "  pto.tget_scale_addr ins(%%l : %s) outs(%%ls : %s)\n", l, ls);
    if (swap) add(out, size, "  pto.tget_scale_addr ins(%%r : %s) outs(%%ls : %s)\n", r, ls);
    else add(out, size, "  pto.tget_scale_addr ins(%%r : %s) outs(%%rs : %s)\n", r, rs);
    const char *first = is_gemv(kind) ? "pto.tgemv.mx" : "pto.tmatmul.mx";
    if (is_bias(kind)) {
        add(out, size, "  %%bt = pto.alloc_tile : %s\n  pto.tmov ins(%%mbias : %s) outs(%%bt : %s)\n", bias, mbias, bias);
        add(out, size, "  %s.bias ins(%%l, %%ls, %%r, %%rs, %%bt : %s, %s, %s, %s, %s) outs(%%cc : %s)\n", first, l, ls,
            r, rs, bias, c);
    } else {
        add(out, size, "  %s ins(%%l, %%ls, %%r, %%rs : %s, %s, %s, %s) outs(%%cc : %s)\n", first, l, ls, r, rs, c);
    }
    if (is_acc(kind))
        add(out, size, "  %s.acc ins(%%cc, %%l, %%ls, %%r, %%rs : %s, %s, %s, %s, %s) outs(%%cc : %s)\n", first, c, l,
            ls, r, rs, c);
    add(out, size, "  pto.tstore ins(%%cc : %s) outs(%%wc : !pto.partition_tensor_view<%ux%uxf32>)\n  return\n}\n}\n", c,
        m, n);
}

/* The scales as a program's global memory holds them (PTOAS's MX_A_ZZ and
 * MX_B_NN, the scale tiles' 32-byte boxes as they lie): a's m x blocks
 * scales in boxes of 16 rows x 2 blocks, row strip after row strip; b's
 * blocks x n in boxes of 2 blocks x 16 columns, column strip after column
 * strip. Unused places 0x7F (2^0). Returns a malloc'd buffer of *bytes. */
static uint8_t *packed_scales(const uint8_t *s, uint32_t rows, uint32_t cols, bool b, size_t *bytes) {
    const uint32_t r_all = b ? up(rows, 2) : up(rows, 16), c_all = b ? up(cols, 16) : up(cols, 2);
    *bytes = (size_t)r_all * c_all;
    uint8_t *out = malloc(*bytes);
    memset(out, 0x7F, *bytes);
    for (uint32_t i = 0; i < rows; ++i)
        for (uint32_t j = 0; j < cols; ++j) {
            const size_t f = b ? (size_t)(j / 16) * r_all * 16 + (i / 2) * 32 + (j % 16) * 2 + i % 2
                               : (size_t)(i / 16) * 16 * c_all + (j / 2) * 32 + (i % 16) * 2 + j % 2;
            out[f] = s[(size_t)i * cols + j];
        }
    return out;
}

static void test_programs(void **state) {
    (void)state;
    static const mkn shapes[] = {{16, 64, 32}, {128, 110, 63}, {1, 128, 16}, {5, 70, 40}};
    rng r = {0x4D5805u};
    int programs = 0;
    for (size_t pi = 0; pi < 4; ++pi) /* the FLOAT8 pairs: views count elements */
        for (size_t si = 0; si < COUNT(shapes); ++si)
            for (int kind = MX_PLAIN; kind <= MX_GEMV_BIAS; ++kind) {
                const mkn s = shapes[si];
                if (is_gemv((mx_kind)kind) && s.m != 1) continue;
                mx_case c = case_new(kPairs[pi], s.m, s.k, s.n, &r);
                static char text[32768];
                mx_text(text, sizeof text, (mx_kind)kind, c.p, s.m, s.k, s.n, false);
                pto_program *p = program_build(text, NULL);
                const uint32_t blocks = (s.k + 31) / 32;
                float *out = malloc((size_t)s.m * s.n * sizeof(float));
                memset(out, 0x5A, (size_t)s.m * s.n * sizeof(float));
                size_t as_bytes = 0, bs_bytes = 0;
                uint8_t *as = packed_scales(c.as, s.m, blocks, false, &as_bytes);
                uint8_t *bs = packed_scales(c.bs, blocks, s.n, true, &bs_bytes);
                void *data[] = {c.a, as, c.b, bs, out, c.seed};
                const size_t nbytes[] = {(size_t)s.m * s.k, as_bytes, (size_t)s.k * s.n, bs_bytes,
                                         (size_t)s.m * s.n * 4, (size_t)s.n * 4};
                pto_args *args = NULL;
                assert_int_equal(pto_args_create(p, &args), PTO_OK);
                for (size_t i = 0; i < COUNT(data) - (is_bias((mx_kind)kind) ? 0 : 1); ++i)
                    assert_int_equal(pto_args_set_pointer(args, i, data[i], nbytes[i]), PTO_OK);
                if (pto_program_run(p, args) != PTO_OK) fail_msg("run: %s", pto_last_error());
                for (uint32_t i = 0; i < s.m; ++i)
                    for (uint32_t j = 0; j < s.n; ++j) {
                        /* pto.tmatmul.mx.acc continues pto.tmatmul.mx's chain. */
                        float want = reference(c.p, c.a, c.as, c.b, c.bs, s.k, s.n, i, j,
                                               is_bias((mx_kind)kind) ? c.seed[j] : 0.0f);
                        if (is_acc((mx_kind)kind)) want = reference(c.p, c.a, c.as, c.b, c.bs, s.k, s.n, i, j, want);
                        if (!same_float(want, out[(size_t)i * s.n + j]))
                            fail_msg("program %s %ux%ux%u: dst(%u, %u) is %a, the chain's %a", kMxNames[kind], s.m, s.k,
                                     s.n, i, j, out[(size_t)i * s.n + j], want);
                    }
                pto_args_destroy(args);
                pto_program_destroy(p);
                free(out), free(as), free(bs);
                case_free(&c);
                ++programs;
            }
    printf("matmul_mx: %d programs (pto.tmatmul.mx, .acc and .bias, pto.tgemv.mx, .acc and .bias) equal the chain bit for bit\n",
           programs);
}

/* Text rules: A2A3 has no MX multiply; tget_scale_addr binds a left tile's
 * ZZ scales, a right tile's NN ones. */
static void test_program_refusals(void **state) {
    (void)state;
    static char text[32768];
    mx_text(text, sizeof text, MX_PLAIN, kPairs[0], 16, 64, 32, false);
    char *arch = strstr(text, "\"a5\"");
    assert_non_null(arch);
    memmove(arch + 6, arch + 4, strlen(arch + 4) + 1);
    memcpy(arch, "\"a2a3\"", 6);
    expect_program_refused_with(text, NULL, "A5's");
    mx_text(text, sizeof text, MX_PLAIN, kPairs[0], 16, 64, 32, true);
    expect_program_refused_with(text, NULL, "the scales of a right tile are laid out NN, not ZZ");
}

/* A failed test leaves the profile as it was: HOST again for the next. */
static int host_again(void **state) {
    (void)state;
    return pto_set_profile(PTO_PROFILE_HOST) == PTO_OK ? 0 : -1;
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_host_values, host_again),
        cmocka_unit_test_teardown(test_every_code, host_again),
        cmocka_unit_test_teardown(test_cube_values, host_again),
        cmocka_unit_test_teardown(test_rules, host_again),
        cmocka_unit_test_teardown(test_cube_rules, host_again),
        cmocka_unit_test_teardown(test_aliasing, host_again),
        cmocka_unit_test_teardown(test_programs, host_again),
        cmocka_unit_test_teardown(test_program_refusals, host_again),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
