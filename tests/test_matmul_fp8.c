/* TMATMUL, TMATMUL_ACC, TMATMUL_BIAS and TGEMV on A5's 8-bit floating
 * sources (pto-isa docs/isa/TMATMUL.md, A5: "selected fp8 pairs, and
 * hifloat8_t/hifloat8_t"; a5/TMatmul.hpp's CheckStaticMad):
 * - under A5 on the cube tiles it takes (left NZ, right ZN, acc NZ, bias),
 *   for the four FP8 pairs (E4M3 and E5M2 with each other) and HiFloat8
 *   with HiFloat8, every code drawn (NaN and infinity codes included):
 *   dst's valid region is the chain written here from the encodings (each
 *   code's exact value as a float, acc = fmaf(a, b, acc) for k in order
 *   from 0, from dst or from bias), a NaN where the chain gives one, and
 *   nothing outside the valid region is written;
 * - the refusals, each with its status and sentence and nothing written: an
 *   8-bit source under HOST and A2A3, an FP8 with a HiFloat8 or a FLOAT16,
 *   an INT32 dst. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/harness.h"

typedef struct {
    pto_dtype a, b;
} pair;
static const pair kPairs[] = {{PTO_FLOAT8_E4M3, PTO_FLOAT8_E4M3},
                              {PTO_FLOAT8_E4M3, PTO_FLOAT8_E5M2},
                              {PTO_FLOAT8_E5M2, PTO_FLOAT8_E4M3},
                              {PTO_FLOAT8_E5M2, PTO_FLOAT8_E5M2},
                              {PTO_HIFLOAT8, PTO_HIFLOAT8}};

/* HiFloat8 (pto_c.h): after the sign a prefix of 2, 3 or 4 bits names D,
 * the count of exponent bits (11: 4, 10: 3, 01: 2, 001: 1, 0001: 0); the
 * exponent is its first bit's sign on 1 followed by the other D - 1 bits;
 * the mantissa takes what is left. 0000 is the denormal range 2^(m - 23),
 * 0x00 zero, 0x80 NaN; 0x6F and 0xEF (exponent +15, mantissa 1) infinity. */
static double hif8(unsigned code) {
    const double sign = (code & 0x80u) ? -1.0 : 1.0;
    const unsigned rest = code & 0x7Fu;
    static const struct {
        unsigned prefix, length, d;
    } kDots[] = {{3, 2, 4}, {2, 2, 3}, {1, 2, 2}, {1, 3, 1}, {1, 4, 0}};
    for (size_t i = 0; i < sizeof kDots / sizeof kDots[0]; ++i) {
        if ((rest >> (7 - kDots[i].length)) != kDots[i].prefix) continue;
        const unsigned d = kDots[i].d, mbits = 7 - kDots[i].length - d;
        const unsigned body = rest & ((1u << (7 - kDots[i].length)) - 1);
        const unsigned mant = body & ((1u << mbits) - 1), ebits = body >> mbits;
        int e = 0;
        if (d > 0) {
            const int magnitude = (int)((1u << (d - 1)) | (ebits & ((1u << (d - 1)) - 1)));
            e = (ebits >> (d - 1)) ? -magnitude : magnitude;
        }
        if (e == 15 && mant == 1) return sign * INFINITY;
        return sign * ldexp(1.0 + (double)mant / (double)(1u << mbits), e);
    }
    if (rest == 0) return (code & 0x80u) ? NAN : 0.0;
    return sign * ldexp(1.0, (int)rest - 23);
}

/* OCP FP8: E4M3FN (bias 7, S.1111.111 its only NaN, no infinity) and E5M2
 * (bias 15, IEEE's specials). */
static double fp8(pto_dtype t, unsigned code) {
    const int eb = t == PTO_FLOAT8_E4M3 ? 4 : 5, mb = 7 - eb, bias = t == PTO_FLOAT8_E4M3 ? 7 : 15;
    const unsigned e = (code >> mb) & ((1u << eb) - 1), m = code & ((1u << mb) - 1);
    const double sign = (code & 0x80u) ? -1.0 : 1.0;
    if (t == PTO_FLOAT8_E4M3 && e == 15 && m == 7) return NAN;
    if (t == PTO_FLOAT8_E5M2 && e == 31) return m ? NAN : sign * INFINITY;
    if (e == 0) return sign * ldexp((double)m, 1 - bias - mb);
    return sign * ldexp((double)(m + (1u << mb)), (int)e - bias - mb);
}

static float value(pto_dtype t, unsigned code) {
    return (float)(t == PTO_HIFLOAT8 ? hif8(code) : fp8(t, code));
}

static pto_tile *cube(pto_dtype dt, uint32_t rows, uint32_t cols, pto_location loc, pto_layout layout) {
    pto_tile *t = NULL;
    const pto_status st = pto_tile_create_cube(dt, rows, cols, loc, layout, &t);
    if (st != PTO_OK) fail_msg("pto_tile_create_cube: %s (%s)", pto_status_string(st), pto_last_error());
    return t;
}


/* One product of an M x K by K x N pair on tiles padded as pto-isa's ST
 * kernel pads them (M to 16 rows, K and N to 32), against the chain. */
static void check_pair(pair p, uint32_t m, uint32_t k, uint32_t n, seed_kind seed, rng *r) {
    const uint32_t M = (m + 15) / 16 * 16, K = (k + 31) / 32 * 32, N = (n + 31) / 32 * 32;
    pto_tile *a = cube(p.a, M, K, PTO_LOC_LEFT, PTO_LAYOUT_NZ);
    pto_tile *b = cube(p.b, K, N, PTO_LOC_RIGHT, PTO_LAYOUT_ZN);
    pto_tile *dst = cube(PTO_FLOAT32, M, N, PTO_LOC_ACC, PTO_LAYOUT_NZ);
    pto_tile *bias = cube(PTO_FLOAT32, 1, N, PTO_LOC_BIAS, PTO_LAYOUT_ND);
    uint8_t *ac = calloc((size_t)M * K, 1), *bc = calloc((size_t)K * N, 1);
    float *d0 = malloc((size_t)M * N * sizeof *d0), *d1 = malloc((size_t)M * N * sizeof *d1);
    float *bv = calloc(N, sizeof *bv);
    for (size_t i = 0; i < (size_t)M * K; ++i) ac[i] = (uint8_t)rng_next(r);
    for (size_t i = 0; i < (size_t)K * N; ++i) bc[i] = (uint8_t)rng_next(r);
    for (size_t i = 0; i < (size_t)M * N; ++i) d0[i] = (float)((int)rng_below(r, 64) - 32) / 4.0f;
    for (uint32_t j = 0; j < N; ++j) bv[j] = (float)((int)rng_below(r, 64) - 32) / 8.0f;
    expect_status(pto_tile_write(a, ac, (size_t)M * K), PTO_OK, "write a");
    expect_status(pto_tile_write(b, bc, (size_t)K * N), PTO_OK, "write b");
    expect_status(pto_tile_write_f32(dst, d0, (size_t)M * N), PTO_OK, "write dst");
    expect_status(pto_tile_write_f32(bias, bv, N), PTO_OK, "write bias");
    expect_status(pto_tile_set_valid(a, m, k), PTO_OK, "valid a");
    expect_status(pto_tile_set_valid(b, k, n), PTO_OK, "valid b");
    expect_status(pto_tile_set_valid(dst, m, n), PTO_OK, "valid dst");
    expect_status(pto_tile_set_valid(bias, 1, n), PTO_OK, "valid bias");
    pto_status st;
    const char *what = seed == SEED_ZERO ? "pto_tmatmul" : seed == SEED_DST ? "pto_tmatmul_acc" : "pto_tmatmul_bias";
    if (seed == SEED_ZERO) st = pto_tmatmul(dst, a, b);
    else if (seed == SEED_DST) st = pto_tmatmul_acc(dst, a, b);
    else st = pto_tmatmul_bias(dst, a, b, bias);
    expect_status(st, PTO_OK, what);
    expect_status(pto_tile_read_f32(dst, d1, (size_t)M * N), PTO_OK, "read dst");
    for (uint32_t i = 0; i < M; ++i)
        for (uint32_t j = 0; j < N; ++j) {
            const float got = d1[(size_t)i * N + j];
            if (i >= m || j >= n) {
                if (ref_f32_bits(got) != ref_f32_bits(d0[(size_t)i * N + j]))
                    fail_msg("%s %s x %s: (%u,%u) outside the valid region was written", what,
                             pto_dtype_string(p.a), pto_dtype_string(p.b), i, j);
                continue;
            }
            float acc = seed == SEED_ZERO ? 0.0f : seed == SEED_DST ? d0[(size_t)i * N + j] : bv[j];
            for (uint32_t q = 0; q < k; ++q)
                acc = fmaf(value(p.a, ac[(size_t)i * K + q]), value(p.b, bc[(size_t)q * N + j]), acc);
            const bool same = isnan(acc) ? isnan(got) : ref_f32_bits(acc) == ref_f32_bits(got);
            if (!same)
                fail_msg("%s %s x %s (%u,%u): got %a, the chain gives %a", what, pto_dtype_string(p.a),
                         pto_dtype_string(p.b), i, j, (double)got, (double)acc);
        }
    free(ac);
    free(bc);
    free(d0);
    free(d1);
    free(bv);
    pto_tile_destroy(a);
    pto_tile_destroy(b);
    pto_tile_destroy(dst);
    pto_tile_destroy(bias);
}

/* Every code drawn: a NaN of the chain is asked as a NaN, every other
 * element bit for bit. */
static void test_a5_chains(void **state) {
    (void)state;
    expect_status(pto_set_profile(PTO_PROFILE_A5), PTO_OK, "pto_set_profile");
    rng r = {0xF8F8u};
    for (size_t i = 0; i < sizeof kPairs / sizeof kPairs[0]; ++i) {
        check_pair(kPairs[i], 20, 70, 40, SEED_ZERO, &r);
        check_pair(kPairs[i], 16, 32, 32, SEED_DST, &r);
        check_pair(kPairs[i], 33, 65, 17, SEED_BIAS, &r);
        check_pair(kPairs[i], 1, 45, 50, SEED_ZERO, &r);
    }
    expect_status(pto_set_profile(PTO_PROFILE_HOST), PTO_OK, "pto_set_profile");
}

static void expect_refused(pto_profile profile, pto_dtype at, pto_dtype bt, pto_dtype dt, pto_status want,
                           const char *phrase) {
    expect_status(pto_set_profile(profile), PTO_OK, "pto_set_profile");
    const bool cube_tiles = profile != PTO_PROFILE_HOST;
    const pto_layout left = profile == PTO_PROFILE_A2A3 ? PTO_LAYOUT_ZZ : PTO_LAYOUT_NZ;
    pto_tile *a = cube_tiles ? cube(at, 16, 32, PTO_LOC_LEFT, left) : NULL;
    pto_tile *b = cube_tiles ? cube(bt, 32, 32, PTO_LOC_RIGHT, PTO_LAYOUT_ZN) : NULL;
    pto_tile *dst = cube_tiles ? cube(dt, 16, 32, PTO_LOC_ACC, PTO_LAYOUT_NZ) : NULL;
    if (!cube_tiles) {
        expect_status(pto_tile_create(at, 16, 32, &a), PTO_OK, "create a");
        expect_status(pto_tile_create(bt, 32, 32, &b), PTO_OK, "create b");
        expect_status(pto_tile_create(dt, 16, 32, &dst), PTO_OK, "create dst");
    }
    const size_t bytes = 16 * 32 * pto_dtype_size(dt);
    memset(pto_tile_data(dst), 0x5A, bytes);
    expect_status(pto_tmatmul(dst, a, b), want, "pto_tmatmul");
    if (strstr(pto_last_error(), phrase) == NULL)
        fail_msg("pto_tmatmul %s x %s: sentence \"%s\" lacks \"%s\"", pto_dtype_string(at), pto_dtype_string(bt),
                 pto_last_error(), phrase);
    const unsigned char *image = pto_tile_data(dst);
    for (size_t i = 0; i < bytes; ++i)
        if (image[i] != 0x5A) fail_msg("pto_tmatmul: a refusal wrote dst byte %zu", i);
    pto_tile_destroy(a);
    pto_tile_destroy(b);
    pto_tile_destroy(dst);
    expect_status(pto_set_profile(PTO_PROFILE_HOST), PTO_OK, "pto_set_profile");
}

static void test_refusals(void **state) {
    (void)state;
    expect_refused(PTO_PROFILE_HOST, PTO_FLOAT8_E4M3, PTO_FLOAT8_E4M3, PTO_FLOAT32, PTO_ERR_UNSUPPORTED_DTYPE,
                   "8-bit floating sources are A5's");
    expect_refused(PTO_PROFILE_A2A3, PTO_HIFLOAT8, PTO_HIFLOAT8, PTO_FLOAT32, PTO_ERR_UNSUPPORTED_DTYPE,
                   "8-bit floating sources are A5's");
    expect_refused(PTO_PROFILE_A5, PTO_FLOAT8_E4M3, PTO_HIFLOAT8, PTO_FLOAT32, PTO_ERR_DTYPE_MISMATCH,
                   "not one of A5's 8-bit pairs");
    expect_refused(PTO_PROFILE_A5, PTO_FLOAT8_E5M2, PTO_FLOAT16, PTO_FLOAT32, PTO_ERR_DTYPE_MISMATCH,
                   "not one of A5's 8-bit pairs");
    expect_refused(PTO_PROFILE_A5, PTO_HIFLOAT8, PTO_HIFLOAT8, PTO_INT32, PTO_ERR_UNSUPPORTED_DTYPE,
                   "accumulate into FLOAT32");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a5_chains),
        cmocka_unit_test(test_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
