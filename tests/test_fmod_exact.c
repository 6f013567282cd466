/* pto_tfmod and pto_tfmods on FLOAT32 and FLOAT16 under HOST, bit for bit
 * against C's fmodf on every SIMD target: random bit patterns, every
 * exponent gap between the operands (0 to float32's 277 binades, and the
 * divisor above the dividend), subnormals, dividends next to a multiple of
 * the divisor, both signs and the specials (zeros, infinities, quiet and
 * signalling NaNs with payloads); rows of odd lengths, so that the drivers'
 * narrow vectors at a row's end are covered too. FLOAT16: every dividend
 * against a set of divisors, and random pairs. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/harness.h"

static uint32_t bits_of(float f) {
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static float float_of(uint32_t u) {
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* FLOAT16 bits as the float32 of the same value (a NaN keeps its sign and
 * payload, as the widening conversion keeps them). */
static float half_to_float(uint16_t h) {
    const uint32_t sign = (uint32_t)(h & 0x8000u) << 16, exponent = (h >> 10) & 0x1Fu, fraction = h & 0x3FFu;
    if (exponent == 0x1F) return float_of(sign | 0x7F800000u | fraction << 13);
    const float magnitude = exponent == 0 ? ldexpf((float)fraction, -24)
                                          : ldexpf((float)(fraction | 0x400u), (int)exponent - 25);
    return sign ? -magnitude : magnitude;
}

/* A float32 fmod result of FLOAT16 operands (a FLOAT16 value, or a NaN:
 * its sign and the payload's top 10 bits, quiet) as FLOAT16 bits. */
static uint16_t float_to_half(float f) {
    const uint32_t u = bits_of(f);
    const uint16_t sign = (uint16_t)((u >> 16) & 0x8000u);
    if (isnan(f)) return (uint16_t)(sign | 0x7E00u | ((u >> 13) & 0x3FFu));
    if (isinf(f)) return (uint16_t)(sign | 0x7C00u);
    const float a = fabsf(f);
    if (a < 0x1p-14f) return (uint16_t)(sign | (uint16_t)ldexpf(a, 24)); /* subnormal or zero, exact */
    int e;
    const float m = frexpf(a, &e); /* a = m 2^e, m in [1/2, 1) */
    return (uint16_t)(sign | (uint16_t)((e + 14) << 10) | ((uint16_t)ldexpf(m, 11) & 0x3FFu));
}

static const uint32_t kSpecials[] = {
    0x00000000u, 0x80000000u, 0x7F800000u, 0xFF800000u, 0x7FC00000u, 0xFFC00000u, 0x7FC12345u,
    0xFFD00001u, 0x7F800001u, 0xFFA00003u, 0x00000001u, 0x80000001u, 0x007FFFFFu, 0x807FFFFFu,
    0x00800000u, 0x80800000u, 0x7F7FFFFFu, 0xFF7FFFFFu, 0x3F800000u, 0xBF800000u, 0x00400000u,
};

/* A finite nonzero float32 of either sign, |v| in [2^e, 2^(e+1)) (rounded
 * into the subnormals below 2^-126). */
static float with_exponent(rng *r, int e) {
    const float m = 1.0f + (float)(rng_next(r) >> 41) * 0x1p-23f;
    const float v = ldexpf(m, e);
    return rng_next(r) & 1 ? -v : v;
}

/* One float32 operand pair of the kinds above. */
static void float_pair(rng *r, float *x, float *y) {
    const uint32_t kind = rng_below(r, 16);
    if (kind == 0) { /* random bits */
        *x = float_of((uint32_t)rng_next(r));
        *y = float_of((uint32_t)rng_next(r));
    } else if (kind == 1) { /* a special on one side or both */
        *x = float_of(kSpecials[rng_below(r, COUNT(kSpecials))]);
        *y = rng_next(r) & 1 ? float_of(kSpecials[rng_below(r, COUNT(kSpecials))]) : with_exponent(r, (int)rng_between(r, -149, 127));
        if (rng_next(r) & 1) {
            const float t = *x;
            *x = *y, *y = t;
        }
    } else if (kind <= 3) { /* next to a multiple of y, or on it */
        *y = with_exponent(r, (int)rng_between(r, -149, 100));
        const float k = (float)rng_between(r, 1, (int64_t)1 << rng_below(r, 25));
        const float m = k * *y;
        const uint32_t step = rng_below(r, 3);
        *x = step == 0 ? m : nextafterf(m, step == 1 ? 0.0f : INFINITY);
        if (rng_next(r) & 1) *x = -*x;
    } else { /* x's exponent anywhere, y's a gap below it (or a little above); gaps up to 24
              * binades (quotients below 2^25) a third of the time */
        const int ex = (int)rng_between(r, -149, 127);
        const int gap = (int)rng_between(r, -4, kind <= 7 ? 24 : 277);
        *x = with_exponent(r, ex);
        *y = with_exponent(r, ex - gap < -149 ? -149 : ex - gap > 127 ? 127 : ex - gap);
    }
}

typedef struct {
    size_t checked;
    size_t pairs; /* random pairs per form and dtype on each target */
} fmod_ctx;

/* Equal bits; a FLOAT16 NaN's payload is left to the target's conversions
 * to and from float32 (those without F16C drop it), its sign is not. */
static void expect_same(const char *form, pto_dtype dt, const char *target, uint64_t x, uint64_t y, uint64_t got,
                        uint64_t want) {
    if (dt == PTO_FLOAT16 && (want & 0x7C00u) == 0x7C00u && (want & 0x3FFu) != 0 && (got & 0x7C00u) == 0x7C00u &&
        (got & 0x3FFu) != 0 && (got & 0x8000u) == (want & 0x8000u))
        return;
    if (got != want)
        fail_msg("%s %s on %s: fmod(0x%llx, 0x%llx) = 0x%llx, want 0x%llx", form, pto_dtype_string(dt), target,
                 (unsigned long long)x, (unsigned long long)y, (unsigned long long)got, (unsigned long long)want);
}

/* The reference, fmodf, on FLOAT32 or FLOAT16 bits. */
static uint64_t reference(pto_dtype dt, uint64_t x, uint64_t y) {
    if (dt == PTO_FLOAT32) return bits_of(fmodf(float_of((uint32_t)x), float_of((uint32_t)y)));
    return float_to_half(fmodf(half_to_float((uint16_t)x), half_to_float((uint16_t)y)));
}

/* The element pairs of rows x cols tiles, in turn, through pto_tfmod. */
static void tile_rounds(fmod_ctx *c, const char *target, pto_dtype dt, uint32_t rows, uint32_t cols, size_t n,
                        const uint64_t *xs, const uint64_t *ys) {
    pto_tile *d = tile_new(dt, rows, cols, rows, cols), *s0 = tile_new(dt, rows, cols, rows, cols),
             *s1 = tile_new(dt, rows, cols, rows, cols);
    const size_t per = (size_t)rows * cols;
    for (size_t start = 0; start < n; start += per) {
        for (size_t k = 0; k < per; ++k) {
            const size_t i = (start + k) % n;
            tile_put(s0, k / cols, k % cols, xs[i]);
            tile_put(s1, k / cols, k % cols, ys[i]);
        }
        expect_status(pto_tfmod(d, s0, s1), PTO_OK, "pto_tfmod");
        for (size_t k = 0; k < per; ++k) {
            const size_t i = (start + k) % n;
            expect_same("tfmod", dt, target, xs[i], ys[i], tile_get(d, k / cols, k % cols),
                        reference(dt, xs[i], ys[i]));
            ++c->checked;
        }
    }
    TILES_DESTROY(d, s0, s1);
}

/* pto_tfmods: the scalar y (a value of dt, so the double carries it
 * exactly; a NaN scalar is the positive quiet NaN, pto_c.h) against the
 * dividends xs. */
static void scalar_round(fmod_ctx *c, const char *target, pto_dtype dt, uint32_t rows, uint32_t cols,
                         const uint64_t *xs, uint64_t y) {
    pto_tile *d = tile_new(dt, rows, cols, rows, cols), *s = tile_new(dt, rows, cols, rows, cols);
    const double scalar = dt == PTO_FLOAT32 ? (double)float_of((uint32_t)y) : (double)half_to_float((uint16_t)y);
    const uint64_t y_bits = isnan(scalar)          ? (dt == PTO_FLOAT32 ? 0x7FC00000u : 0x7E00u)
                            : dt == PTO_FLOAT32 ? bits_of((float)scalar)
                                                : float_to_half((float)scalar);
    for (size_t k = 0; k < (size_t)rows * cols; ++k) tile_put(s, k / cols, k % cols, xs[k]);
    expect_status(pto_tfmods(d, s, scalar), PTO_OK, "pto_tfmods");
    for (size_t k = 0; k < (size_t)rows * cols; ++k) {
        expect_same("tfmods", dt, target, xs[k], y_bits, tile_get(d, k / cols, k % cols),
                    reference(dt, xs[k], y_bits));
        ++c->checked;
    }
    TILES_DESTROY(d, s);
}

static void float32_body(fmod_ctx *c, const char *target, rng *r) {
    const size_t n = c->pairs;
    uint64_t *xs = malloc(n * sizeof *xs), *ys = malloc(n * sizeof *ys);
    assert_non_null(xs), assert_non_null(ys);
    for (size_t i = 0; i < n; ++i) {
        float x, y;
        float_pair(r, &x, &y);
        xs[i] = bits_of(x), ys[i] = bits_of(y);
    }
    tile_rounds(c, target, PTO_FLOAT32, 7, 37, n, xs, ys);
    /* whole vectors of quotients below 2^25 (up to the float32 step's
     * bound of 2^24 and past it): no lane there needs double lanes */
    for (size_t i = 0; i < n / 4; ++i) {
        const int ex = (int)rng_between(r, -149, 127), gap = (int)rng_between(r, -2, 24);
        const float x = with_exponent(r, ex), y = with_exponent(r, ex - gap < -149 ? -149 : ex - gap);
        xs[i] = bits_of(x), ys[i] = bits_of(y);
    }
    tile_rounds(c, target, PTO_FLOAT32, 5, 64, n / 4, xs, ys);
    tile_rounds(c, target, PTO_FLOAT32, 4, 64, n / 8, xs, ys);
    tile_rounds(c, target, PTO_FLOAT32, 1, 1, 64, xs, ys);
    /* the scalar form: each pair's y as the scalar of a 3 x 21 tile whose
     * dividends are pairs drawn with it */
    uint64_t row[3 * 21];
    for (size_t i = 0; i < n / 64; ++i) {
        for (size_t k = 0; k < COUNT(row); ++k) row[k] = xs[(i * 64 + k * 7) % n];
        scalar_round(c, target, PTO_FLOAT32, 3, 21, row, ys[i * 64]);
    }
    for (size_t s = 0; s < COUNT(kSpecials); ++s) {
        for (size_t k = 0; k < COUNT(row); ++k) row[k] = xs[(s * 97 + k) % n];
        scalar_round(c, target, PTO_FLOAT32, 3, 21, row, kSpecials[s]);
    }
    free(xs), free(ys);
}

static void float16_body(fmod_ctx *c, const char *target, rng *r) {
    /* every dividend against divisors of every kind */
    static const uint16_t kDivisors[] = {0x0000, 0x8000, 0x7C00, 0xFC00, 0x7E01, 0xFD02, 0x0001, 0x83FF,
                                         0x0400, 0x3C00, 0xBC00, 0x7BFF, 0x4248, 0x2E66, 0xC500, 0x1001};
    const size_t every = under_emulation() ? 4096 : 65536;
    uint64_t *xs = malloc(every * sizeof *xs);
    assert_non_null(xs);
    for (size_t i = 0; i < every; ++i) xs[i] = sample_index(i, every, 65536);
    for (size_t k = 0; k < COUNT(kDivisors); ++k)
        for (size_t start = 0; start < every; start += 16 * 64) scalar_round(c, target, PTO_FLOAT16, 16, 64, xs + start, kDivisors[k]);
    /* random pairs, the tile form */
    const size_t n = c->pairs;
    uint64_t *as = malloc(n * sizeof *as), *bs = malloc(n * sizeof *bs);
    assert_non_null(as), assert_non_null(bs);
    for (size_t i = 0; i < n; ++i) as[i] = (uint16_t)rng_next(r), bs[i] = (uint16_t)rng_next(r);
    tile_rounds(c, target, PTO_FLOAT16, 5, 29, n, as, bs);
    tile_rounds(c, target, PTO_FLOAT16, 4, 64, every, xs, as);
    free(xs), free(as), free(bs);
}

static void fmod_body(void *ctx, size_t target_index, const char *target) {
    fmod_ctx *c = ctx;
    rng r = {0xF30Du + target_index};
    float32_body(c, target, &r);
    float16_body(c, target, &r);
}

static void test_fmod_bit_for_bit(void **state) {
    (void)state;
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    fmod_ctx c = {0, under_emulation() ? 4096 : 65536};
    for_each_target("tfmod and tfmods against fmodf", fmod_body, &c);
    print_message("[fmod] %zu float32 and float16 results equal to fmodf's, bit for bit\n", c.checked);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fmod_bit_for_bit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
