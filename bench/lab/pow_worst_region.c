/* pow-worst-region: the largest error of tpow DEFAULT float32 that a random
 * search finds where its error bound is tightest, against long double powl
 * (64-bit significand: its own error is far below a float32 ulp):
 *
 *   build/bench/lab/pow-worst-region [XLO XHI [TLO THI [ROUNDS]]]
 *
 * Bases uniform over the float32 bit patterns of [XLO, XHI) (default 0.85,
 * 1.2: the log2 table buckets beside 1), exponents y = +-t / log2(x) with t
 * uniform in [TLO, THI) (default 100, 125: |y log2 x| near the fast path's
 * limit, where the f32 tail term of t, y r^2, is largest against the result;
 * src/kernels/pow-tables.h), ROUNDS tiles of 256x1024 (default 40: 10.5M
 * inputs). Results outside the float32 normal range are not counted. Prints
 * the worst error in ulp of the exact result and its input; runs on the
 * best SIMD target of the CPU. Not installed; tests/test_accuracy.c checks
 * the contract's bound on a sample of the same region against MPFR. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pto_c.h"

static uint64_t state = 0x9E3779B97F4A7C15ull;

static uint64_t next(void) {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
}

static double unit(void) { return (double)(next() >> 11) * 0x1p-53; }

static pto_tile *tile(uint32_t rows, uint32_t cols) {
    pto_tile *t = NULL;
    if (pto_tile_create(PTO_FLOAT32, rows, cols, &t) != PTO_OK) {
        fprintf(stderr, "pow-worst-region: %s\n", pto_last_error());
        exit(1);
    }
    return t;
}

int main(int argc, char **argv) {
    if (argc != 1 && argc != 3 && argc != 5 && argc != 6) {
        fprintf(stderr, "usage: pow-worst-region [XLO XHI [TLO THI [ROUNDS]]]\n");
        return 2;
    }
    const float xlo = argc > 1 ? strtof(argv[1], NULL) : 0.85f;
    const float xhi = argc > 1 ? strtof(argv[2], NULL) : 1.2f;
    const double tlo = argc > 3 ? strtod(argv[3], NULL) : 100.0;
    const double thi = argc > 3 ? strtod(argv[4], NULL) : 125.0;
    const long rounds = argc > 5 ? strtol(argv[5], NULL, 10) : 40;
    if (!(xlo > 0 && xlo < xhi && isfinite(xhi)) || !(tlo <= thi) || rounds < 1) {
        fprintf(stderr, "pow-worst-region: need 0 < XLO < XHI finite, TLO <= THI, ROUNDS >= 1\n");
        return 2;
    }
    uint32_t blo, bhi;
    memcpy(&blo, &xlo, sizeof blo);
    memcpy(&bhi, &xhi, sizeof bhi);

    const uint32_t rows = 256, cols = 1024;
    const size_t n = (size_t)rows * cols;
    pto_tile *base = tile(rows, cols), *exp = tile(rows, cols), *dst = tile(rows, cols),
             *tmp = tile(rows, cols);
    float *x = pto_tile_data(base), *y = pto_tile_data(exp), *z = pto_tile_data(dst);

    double worst = 0;
    float worst_x = 0, worst_y = 0, worst_got = 0;
    size_t counted = 0;
    for (long round = 0; round < rounds; ++round) {
        for (size_t i = 0; i < n; ++i) {
            const uint32_t bits = blo + (uint32_t)(next() % (bhi - blo));
            memcpy(&x[i], &bits, sizeof bits);
            const double lx = log2((double)x[i]);
            const double t = (next() & 1 ? 1 : -1) * (tlo + (thi - tlo) * unit());
            y[i] = (float)(lx != 0 ? t / lx : t);
        }
        if (pto_tpow(dst, base, exp, tmp, PTO_POW_DEFAULT) != PTO_OK) {
            fprintf(stderr, "pow-worst-region: %s\n", pto_last_error());
            return 1;
        }
        for (size_t i = 0; i < n; ++i) {
            const long double want = powl(x[i], y[i]);
            if (!(want >= 0x1p-126L && want <= 0x1.fffffep127L)) continue;
            int e;
            frexpl(want, &e);
            const double err = (double)(fabsl((long double)z[i] - want) / ldexpl(1.0L, e - 24));
            ++counted;
            if (err > worst) {
                worst = err;
                worst_x = x[i];
                worst_y = y[i];
                worst_got = z[i];
            }
        }
    }
    printf("tpow float32 DEFAULT: worst %.4f ulp over %zu inputs with normal results "
           "(x in [%g, %g), |y log2 x| in [%g, %g)): x=%a y=%a got %a\n",
           worst, counted, (double)xlo, (double)xhi, tlo, thi, (double)worst_x, (double)worst_y,
           (double)worst_got);
    pto_tile_destroy(base);
    pto_tile_destroy(exp);
    pto_tile_destroy(dst);
    pto_tile_destroy(tmp);
    return 0;
}
