/* pow-hard-lanes: what a lane that tpow HIGH_PRECISION float32 sends to its
 * accurate path costs. The fast path's rounding test sends a lane there
 * when its result lies too close to a rounding boundary (about 1 in 2^15 of
 * random float32 inputs, so some 32 lanes of a 1024x1024 tile); each costs
 * far more than a fast lane, and the whole vector takes the slow route.
 *
 * Times calls on a 1x8 tile whose even lanes are such lanes, x = 2^24 - 1 -
 * i, y = 1.5 (x^y within 2^-25 of its ulp from a midpoint for even i, near
 * a float32 for odd i), against the same call on a tile of ordinary inputs,
 * best of ROUNDS (default 7) rounds of N calls (default 20000):
 *
 *   build/bench/lab/pow-hard-lanes [N [ROUNDS]]
 *
 * prints both times per call and their difference per hard lane. */
#define _POSIX_C_SOURCE 199309L  /* clock_gettime */

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "pto_c.h"

enum { kLanes = 8, kHard = 4 };

static pto_tile *make_tile(void) {
    pto_tile *t = NULL;
    if (pto_tile_create(PTO_FLOAT32, 1, kLanes, &t) != PTO_OK) {
        fprintf(stderr, "pow-hard-lanes: %s\n", pto_last_error());
        exit(1);
    }
    return t;
}

static double now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* Best of `rounds` rounds of n calls, in ns per call. */
static double time_calls(pto_tile *dst, pto_tile *base, pto_tile *exp, pto_tile *tmp, long n,
                         int rounds) {
    double best = 0;
    for (int r = 0; r < rounds; ++r) {
        const double start = now_ns();
        for (long i = 0; i < n; ++i) {
            if (pto_tpow(dst, base, exp, tmp, PTO_POW_HIGH_PRECISION) != PTO_OK) {
                fprintf(stderr, "pow-hard-lanes: %s\n", pto_last_error());
                exit(1);
            }
        }
        const double per_call = (now_ns() - start) / n;
        if (r == 0 || per_call < best) best = per_call;
    }
    return best;
}

int main(int argc, char **argv) {
    const long n = argc > 1 ? atol(argv[1]) : 20000;
    const int rounds = argc > 2 ? atoi(argv[2]) : 7;
    if (argc > 3 || n <= 0 || rounds <= 0) {
        fprintf(stderr, "usage: pow-hard-lanes [N [ROUNDS]]\n");
        return 2;
    }
    pto_tile *dst = make_tile(), *hard = make_tile(), *easy = make_tile(), *exp = make_tile();
    pto_tile *tmp = make_tile();
    float xs[kLanes], es[kLanes], ys[kLanes];
    for (int i = 0; i < kLanes; ++i) {
        xs[i] = 16777215.0f - (float)i;
        es[i] = 1.37f + 0.01f * (float)i;
        ys[i] = 1.5f;
    }
    pto_tile_write_f32(hard, xs, kLanes);
    pto_tile_write_f32(easy, es, kLanes);
    pto_tile_write_f32(exp, ys, kLanes);
    const double t_easy = time_calls(dst, easy, exp, tmp, n, rounds);
    const double t_hard = time_calls(dst, hard, exp, tmp, n, rounds);
    printf("tpow HIGH_PRECISION float32, 1x8 tile: %.1f ns a call with %d lanes for the accurate path, "
           "%.1f ns with none: %.0f ns a hard lane\n",
           t_hard, kHard, t_easy, (t_hard - t_easy) / kHard);
    pto_tile_destroy(dst);
    pto_tile_destroy(hard);
    pto_tile_destroy(easy);
    pto_tile_destroy(exp);
    pto_tile_destroy(tmp);
    return 0;
}
